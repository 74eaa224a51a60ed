"""tf.saved_model: save and load placeflow SavedModels (graph/saved_model_save.py, saved_model_load.py) and
TensorFlow's constants."""

from . import experimental  # noqa: F401
from ..api.misc_names import Asset, VariablePolicy, refuse_assets, write_fingerprint  # noqa: F401
from ..graph.saved_model_load import contains_saved_model, load  # noqa: F401
from ..graph.saved_model_save import GRAPH_FILE, save as _save


def save(obj, export_dir, signatures=None, options=None) -> None:
    """Write `obj` (a trackable: tf.Module, tf.train.Checkpoint, Keras objects) to `export_dir`, with a
    fingerprint.pb (api/misc_names.write_fingerprint says how it is computed)."""
    refuse_assets(obj)
    _save(obj, export_dir, signatures, options)
    write_fingerprint(export_dir, GRAPH_FILE)

ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
CLASSIFY_INPUTS = "inputs"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES = "classes"
CLASSIFY_OUTPUT_SCORES = "scores"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
GPU = "gpu"
PREDICT_INPUTS = "inputs"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_OUTPUTS = "outputs"
REGRESS_INPUTS = "inputs"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
REGRESS_OUTPUTS = "outputs"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
SERVING = "serve"
TPU = "tpu"
TRAINING = "train"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"


class SaveOptions:
    """tf.saved_model.SaveOptions: placeflow implements none of its settings; any given is refused at save."""

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None, experimental_variable_policy=None,
                 experimental_custom_gradients=True, experimental_image_format=False,
                 experimental_skip_saver=False, experimental_sharding_callback=None, extra_tags=None):
        given = {"namespace_whitelist": namespace_whitelist, "save_debug_info": save_debug_info,
                 "function_aliases": function_aliases, "experimental_debug_stripper": experimental_debug_stripper,
                 "experimental_io_device": experimental_io_device,
                 "experimental_variable_policy": VariablePolicy.from_obj(experimental_variable_policy) !=
                 VariablePolicy.NONE,
                 "experimental_custom_gradients": not experimental_custom_gradients,
                 "experimental_image_format": experimental_image_format,
                 "experimental_skip_saver": experimental_skip_saver,
                 "experimental_sharding_callback": experimental_sharding_callback, "extra_tags": extra_tags}
        self._given = [name for name, value in given.items() if value]


class LoadOptions:
    """tf.saved_model.LoadOptions: placeflow implements none of its settings; any given is refused."""

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        given = [name for name, value in {"allow_partial_checkpoint": allow_partial_checkpoint,
                                          "experimental_io_device": experimental_io_device,
                                          "experimental_skip_checkpoint": experimental_skip_checkpoint,
                                          "experimental_variable_policy": VariablePolicy.from_obj(
                                              experimental_variable_policy) != VariablePolicy.NONE,
                                          "experimental_load_function_aliases": experimental_load_function_aliases,
                                          }.items() if value]
        if given:
            raise NotImplementedError(f"tf.saved_model.LoadOptions({', '.join(given)}) is not implemented in "
                                      "placeflow.")
