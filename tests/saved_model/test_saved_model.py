"""tf.saved_model round trip in placeflow, compared with TensorFlow 2.21 saving and loading the same module
(tf_saved_model.json, recorded by record_tf_saved_model.py), and what TF reads of placeflow's SavedModel."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf

from . import saved_model_programs as programs

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_saved_model.json").read_text())


def test_the_loaded_module_computes_what_tensorflows_loaded_module_computes(tmp_path):
    programs.build_and_save(tf, str(tmp_path / "m"))
    assert programs.loaded_results(tf, str(tmp_path / "m")) == RECORDED["tf_loads_its_own"]


def test_tensorflow_reads_the_variables_of_placeflows_savedmodel_but_not_its_graphs(tmp_path):
    programs.build_and_save(tf, str(tmp_path / "m"))
    reader = tf.train.load_checkpoint(str(tmp_path / "m" / "variables" / "variables"))
    ours = {key: np.asarray(reader.get_tensor(key)).tolist() for key in sorted(reader.get_variable_to_shape_map())
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH"}
    assert ours == RECORDED["tf_reads_placeflow_variables"]  # what TF 2.21 read from placeflow's files
    assert RECORDED["tf_loads_placeflow_graphs"] == "OSError"  # no saved_model.pb: TF cannot load the functions


def test_the_loaded_object_is_independent_of_the_original(tmp_path):
    model = programs.build_and_save(tf, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    loaded.bump()
    assert model.b.numpy().tolist() == [1.5, 0.5] and loaded.b.numpy().tolist() == [2.5, 1.5]
    assert tf.saved_model.contains_saved_model(str(tmp_path / "m"))
    assert not tf.saved_model.contains_saved_model(str(tmp_path))


def test_calls_that_match_no_saved_trace_and_bad_signature_calls_are_refused(tmp_path):
    programs.build_and_save(tf, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.branchy(tf.constant([[1.0]]))
    with pytest.raises(TypeError, match="keyword arguments only"):
        loaded.signatures["serving_default"](tf.constant([[1.0, 1.0]]))
    with pytest.raises(TypeError, match="unexpected \\['y'\\]"):
        loaded.signatures["serving_default"](x=tf.constant([[1.0, 1.0]]), y=1)


def test_a_keras_model_export_loads_and_serves_its_predictions(tmp_path):
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])
    x = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    model.export(str(tmp_path / "k"), verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "k"))
    np.testing.assert_allclose(loaded.serve(x).numpy(), model.predict(x, verbose=0), rtol=1e-6)
    signature = loaded.signatures["serving_default"]
    (name,) = signature.structured_input_signature[1]  # Keras names it after its input tensor
    served = signature(**{name: x})
    np.testing.assert_allclose(next(iter(served.values())).numpy(), model.predict(x, verbose=0), rtol=1e-6)


def test_a_function_using_an_untracked_variable_cannot_be_saved(tmp_path):
    outside = tf.Variable(3.0)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return x * outside
    module = M()
    module.f(tf.constant(1.0))
    with pytest.raises(AssertionError, match="untracked"):
        tf.saved_model.save(module, str(tmp_path / "u"))


def test_python_objects_in_a_graph_are_refused_by_name(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return tf.py_function(lambda v: v * 2.0, [x], tf.float32)
    module = M()
    module.f(tf.constant(1.0))
    with pytest.raises(NotImplementedError, match="EagerPyFunc"):
        tf.saved_model.save(module, str(tmp_path / "p"))


def test_tensorflows_own_savedmodel_graphs_and_missing_directories_are_refused(tmp_path):
    (tmp_path / "tf").mkdir()
    (tmp_path / "tf" / "saved_model.pb").write_bytes(b"\x08\x01")
    with pytest.raises(NotImplementedError, match="written by TensorFlow"):
        tf.saved_model.load(str(tmp_path / "tf"))
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(str(tmp_path / "nothing"))
    with pytest.raises(NotImplementedError, match="save_debug_info"):
        tf.saved_model.save(tf.Module(), str(tmp_path / "o"), options=tf.saved_model.SaveOptions(save_debug_info=True))


def test_gradients_through_a_loaded_loop_are_refused_by_name(tmp_path):
    programs.build_and_save(tf, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    x = tf.constant([1.0, -3.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(loaded.branchy(x)["z"])
    with pytest.raises(LookupError, match="gradients of branches and loops are not saved"):
        tape.gradient(y, x)
