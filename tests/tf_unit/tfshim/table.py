"""Which public TensorFlow names stand for each internal `tensorflow.python.X` module the test files import.

An alias module resolves an attribute through its explicit entries first, then through its search namespaces
in order (`math_ops.cumsum` -> tf.math.cumsum, tf.cumsum, ...). TensorFlow 2's internal modules hold the v2
function under the plain name and the v1 one under `<name>_v1`, so v2 namespaces come first and
tf.compat.v1 last. Internal names without a public equivalent resolve to OutOfScopeName.
"""

from __future__ import annotations

import functools
import inspect
import re
import types

from . import MissingName, OutOfScopeName, public


class Out:
    """Marks a name (or module) out of scope, with the reason shown in the table."""

    def __init__(self, reason: str):
        self.reason = reason


_TFE = Out("TF's internal eager-gradient API (tfe); the public API is tf.GradientTape")
_GRAPH = Out("TF graph-construction internals")

IMPLEMENTED = {
    "framework.test_util": "testutil",
    "framework.combinations": "combinations",
    "data.kernel_tests.test_base": "data_test_base",
    "data.kernel_tests.checkpoint_test_base": "checkpoint_test_base",
    "eager.context": "context",
}

OUT_OF_SCOPE = {
    "pywrap_tfe": "TF's C-API bindings",
    "eager.tape": "the eager tape's internal recording API (tf.GradientTape is the public one)",
    "eager.lift_to_graph": "graph lifting internals",
    "framework.memory_checker": "TF's memory-leak test tooling",
    "kernel_tests.random.util": "TF's moment-matching helpers for random ops (used by its TF1 graph-mode tests)",
}

OUT_OF_SCOPE_PACKAGES = {  # every module under these (run.py rewrites tensorflow.core.X to tfshim.core.X)
    "core": "TensorFlow's protocol buffers (tensorflow.core: session configs, attribute values, ...)",
}

EMPTY = {"ops.nn_grad", "ops.tensor_array_grad"}  # imported only to register gradients

_TEST = {"TestCase": "tf.test.TestCase", "main": "tf.test.main", "is_gpu_available": "tf.test.is_gpu_available",
         "is_built_with_cuda": "tf.test.is_built_with_cuda", "gpu_device_name": "tf.test.gpu_device_name",
         "get_temp_dir": "adapters.get_temp_dir", "compute_gradient": "tf.test.compute_gradient",
         "Benchmark": "tf.test.Benchmark"}

ALIASES = {
    # framework
    "framework.constant_op": ([], {"constant": "tf.constant"}),
    "framework.dtypes": (["tf.dtypes", "tf"], {}),
    "framework.errors": (["tf.errors"], {}),
    "framework.errors_impl": (["tf.errors"], {}),
    "framework.ops": (["tf", "tf.compat.v1"], {
        "name_scope": "tf.compat.v1.name_scope", "device": "tf.compat.v1.device",
        "convert_n_to_tensor": "adapters.convert_n_to_tensor", "Tensor": "tf.Tensor",
        "enable_eager_execution": "tf.compat.v1.enable_eager_execution",
        "get_default_graph": "tf.compat.v1.get_default_graph",
        "reset_default_graph": "tf.compat.v1.reset_default_graph"}),
    "framework.tensor": ([], {"Tensor": "tf.Tensor"}),
    "framework.tensor_shape": ([], {"TensorShape": "tf.TensorShape", "Dimension": "tf.compat.v1.Dimension",
                                    "as_shape": "adapters.as_shape", "unknown_shape": "adapters.unknown_shape"}),
    "framework.tensor_spec": ([], {"TensorSpec": "tf.TensorSpec", "BoundedTensorSpec": "tf.BoundedTensorSpec"}),
    "framework.sparse_tensor": ([], {"SparseTensor": "tf.sparse.SparseTensor",
                                     "SparseTensorValue": "tf.compat.v1.SparseTensorValue"}),
    "framework.tensor_util": ([], {"constant_value": "tf.get_static_value", "make_tensor_proto": "tf.make_tensor_proto",
                                   "MakeNdarray": "tf.make_ndarray", "is_tf_type": "tf.is_tensor"}),
    "framework.random_seed": ([], {"set_random_seed": "tf.compat.v1.set_random_seed", "set_seed": "tf.random.set_seed"}),
    "framework.config": (["tf.config", "tf.config.experimental"], {}),
    "compat.compat": ([], {"forward_compatibility_horizon": "tf.compat.forward_compatibility_horizon",
                           "forward_compatible": "tf.compat.forward_compatible"}),
    # eager
    "eager.def_function": ([], {"function": "tf.function"}),
    "eager.function": ([], {"defun": "tf.function", "function": "tf.function"}),
    "eager.backprop": ([], {"GradientTape": "tf.GradientTape", "gradients_function": _TFE, "implicit_grad": _TFE,
                            "val_and_grad_function": _TFE, "implicit_val_and_grad": _TFE, "make_vjp": _TFE,
                            "op_attr_type": _TFE, "make_attr": _TFE, "aggregate_indexed_slices_gradients": _TFE}),
    "eager.test": ([], _TEST),
    "platform.test": ([], _TEST),
    "platform.googletest": ([], _TEST),
    "platform.tf_logging": (["tf.compat.v1.logging"], {}),
    "platform.benchmark": ([], {"benchmark_config": Out("TF's benchmark tooling")}),
    "client.session": ([], {"Session": "tf.compat.v1.Session"}),
    # ops
    "ops.array_ops": (["tf", "tf.compat.v1"], {
        "diag": "tf.linalg.tensor_diag", "where": "tf.compat.v1.where", "where_v2": "tf.where",
        "matrix_band_part": "tf.linalg.band_part", "matrix_transpose": "tf.linalg.matrix_transpose",
        "matrix_set_diag": "tf.linalg.set_diag", "matrix_diag_part": "tf.linalg.diag_part",
        "matrix_diag": "tf.linalg.diag"}),
    "ops.math_ops": (["tf.math", "tf", "tf.compat.v1.math", "tf.compat.v1"], {
        "add_v2": "tf.math.add", "_mul_dispatch": "tf.math.multiply", "floor_div": "tf.math.floordiv",
        "floormod": "tf.math.floormod", "div": "tf.compat.v1.div", "range": "tf.range",
        "matmul": "tf.linalg.matmul", "div_no_nan": "tf.math.divide_no_nan",
        "approximate_equal": "raw:ApproximateEqual", "_bucketize": "raw:Bucketize"}),
    "ops.random_ops": (["tf.random", "tf"], {
        "random_uniform": "tf.random.uniform", "random_normal": "tf.random.normal",
        "truncated_normal": "tf.random.truncated_normal", "multinomial": "tf.compat.v1.random.multinomial",
        "random_gamma": "tf.random.gamma", "random_poisson": "tf.compat.v1.random.poisson",
        "random_shuffle": "tf.random.shuffle", "random_crop": "tf.image.random_crop"}),
    "ops.stateless_random_ops": (["tf.random"], {
        "stateless_random_uniform": "tf.random.stateless_uniform",
        "stateless_random_normal": "tf.random.stateless_normal",
        "stateless_truncated_normal": "tf.random.stateless_truncated_normal",
        "stateless_multinomial": "tf.compat.v1.random.stateless_multinomial",
        "stateless_categorical": "tf.random.stateless_categorical",
        "stateless_random_gamma": "tf.random.stateless_gamma",
        "stateless_random_poisson": "tf.random.stateless_poisson",
        "stateless_random_binomial": "tf.random.stateless_binomial",
        "split": "tf.random.experimental.stateless_split", "fold_in": "tf.random.experimental.stateless_fold_in"}),
    "ops.linalg_ops": (["tf.linalg", "tf"], {"matrix_inverse": "tf.linalg.inv", "matrix_determinant": "tf.linalg.det",
                                             "matrix_triangular_solve": "tf.linalg.triangular_solve"}),
    "ops.linalg.linalg": (["tf.linalg"], {"transpose": "tf.linalg.matrix_transpose"}),
    "ops.variables": (["tf", "tf.compat.v1"], {"Variable": "tf.Variable"}),
    "ops.resource_variable_ops": ([], {"ResourceVariable": "tf.Variable",
                                       "var_is_initialized_op": Out("a raw resource-variable op")}),
    "ops.variable_scope": (["tf.compat.v1"], {"variable_creator_scope": "tf.variable_creator_scope"}),
    "ops.init_ops": (["tf.compat.v1"], {}),
    "ops.map_fn": ([], {"map_fn": "tf.map_fn"}),
    "ops.gradients": ([], {"gradients": "tf.gradients"}),
    "ops.gradient_checker_v2": ([], {"compute_gradient": "tf.test.compute_gradient",
                                     "max_error": "adapters.max_error"}),
    "ops.gradient_checker": ([], {"compute_gradient": "tf.compat.v1.test.compute_gradient"}),
    "ops.gradients_impl": ([], {"gradients": "tf.gradients"}),
    "ops.control_flow_ops": (["tf", "tf.compat.v1"], {"Assert": "tf.debugging.Assert", "cond": "tf.cond",
                                                      "while_loop": "tf.while_loop"}),
    "ops.custom_gradient": ([], {"custom_gradient": "tf.custom_gradient", "recompute_grad": "tf.recompute_grad"}),
    "ops.embedding_ops": ([], {"embedding_lookup": "tf.nn.embedding_lookup"}),
    "ops.nn": (["tf.nn"], {}),
    "ops.nn_ops": (["tf.nn", "tf.compat.v1.nn"], {"in_top_k": "tf.compat.v1.nn.in_top_k"}),
    "ops.sparse_ops": (["tf.sparse"], {"sparse_reduce_sum_v2": "tf.sparse.reduce_sum"}),
    "ops.ragged.ragged_factory_ops": ([], {"constant": "tf.ragged.constant"}),
    "ops.ragged.ragged_tensor": ([], {"RaggedTensor": "tf.RaggedTensor", "RaggedTensorSpec": "tf.RaggedTensorSpec"}),
    "ops.ragged.ragged_concat_ops": ([], {"stack": "tf.ragged.stack", "concat": "tf.concat"}),
    "ops.ragged.ragged_math_ops": ([], {"range": "tf.ragged.range"}),
    # training, layers, keras, module
    "training.training": (["tf.compat.v1.train"], {}),
    "training.adam": ([], {"AdamOptimizer": "tf.compat.v1.train.AdamOptimizer"}),
    "layers.pooling": ([], {"max_pooling3d": "tf.compat.v1.layers.max_pooling3d"}),
    "keras.engine.training": ([], {"Model": "tf.keras.Model"}),
    "keras.layers.core": (["tf.keras.layers"], {}),
    "module.module": ([], {"Module": "tf.Module"}),
    # tf.data
    "data.ops.dataset_ops": ([], {"Dataset": "tf.data.Dataset", "DatasetV2": "tf.data.Dataset",
                                  "AUTOTUNE": "tf.data.AUTOTUNE",
                                  "get_legacy_output_types": "tf.compat.v1.data.get_output_types",
                                  "get_legacy_output_shapes": "tf.compat.v1.data.get_output_shapes",
                                  "get_legacy_output_classes": "tf.compat.v1.data.get_output_classes",
                                  "make_one_shot_iterator": "tf.compat.v1.data.make_one_shot_iterator"}),
    "data.ops.options": ([], {"Options": "tf.data.Options"}),
    "data.util.nest": (["tf.nest"], {}),
    "data.experimental.ops.random_access": ([], {"at": "tf.data.experimental.at"}),
    "data.experimental.ops.global_shuffle_op": ([], {}),  # only its private _global_shuffle: out of scope
}


def _camel(snake: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_"))


def _raw_op(module_name: str, name: str, op_name: str | None = None):
    """gen_*.snake_name(*args, **kwargs) as tf.raw_ops.CamelName, positional arguments named from its signature."""
    op_name = op_name or _camel(name)
    try:
        op = public(f"tf.raw_ops.{op_name}")
    except AttributeError:
        return MissingName(f"{module_name}.{name}", [f"tf.raw_ops.{op_name}"])
    names = [p for p in inspect.signature(op).parameters]

    @functools.wraps(op)
    def call(*args, **kwargs):
        kwargs.update(zip(names, args))
        return op(**kwargs)
    return call


def resolve(module_name: str, name: str):
    """The value of `tensorflow.python.<module_name>.<name>` built from public names."""
    qualified = f"{module_name}.{name}"
    if module_name.split(".")[-1].startswith("gen_"):
        return _raw_op(module_name, name)
    search, explicit = ALIASES[module_name]
    entry = explicit.get(name)
    if isinstance(entry, Out):
        return OutOfScopeName(qualified, entry.reason)
    if entry is None and name.startswith("_"):
        return OutOfScopeName(qualified, "a private TensorFlow name")
    if isinstance(entry, str) and entry.startswith("raw:"):
        return _raw_op(module_name, name, entry[4:])
    candidates = [entry] if isinstance(entry, str) else list(entry or [f"{ns}.{name}" for ns in search])
    for candidate in candidates:
        try:
            return public(candidate)
        except AttributeError:
            continue
    return MissingName(qualified, candidates or [f"(no public name is mapped for {qualified})"])


_PACKAGES = {prefix for key in [*ALIASES, *IMPLEMENTED, *OUT_OF_SCOPE, *EMPTY]
             for prefix in (".".join(key.split(".")[:i]) for i in range(1, key.count(".") + 1))}


def build(module_name: str) -> types.ModuleType:
    """The module that stands for `tensorflow.python.<module_name>`; ModuleNotFoundError if none is mapped."""
    import importlib
    full = f"tfshim.{module_name}"
    if module_name in IMPLEMENTED:
        return importlib.import_module(f"tfshim._impl.{IMPLEMENTED[module_name]}")
    module = types.ModuleType(full, f"Shim for tensorflow.python.{module_name}.")
    module.__path__ = []
    package = next((p for p in OUT_OF_SCOPE_PACKAGES if module_name == p or module_name.startswith(p + ".")), None)
    if module_name in OUT_OF_SCOPE or package is not None:
        reason = OUT_OF_SCOPE.get(module_name) or OUT_OF_SCOPE_PACKAGES[package]
        module.__getattr__ = lambda name: (_ for _ in ()).throw(AttributeError(name)) if name.startswith("__") \
            else OutOfScopeName(f"{module_name}.{name}", reason)
    elif module_name in ALIASES or re.fullmatch(r"ops\.gen_\w+", module_name):
        if module_name not in ALIASES:
            ALIASES[module_name] = ([], {})

        def attribute(name, _module=module_name):
            if name.startswith("__"):
                raise AttributeError(name)
            return resolve(_module, name)
        module.__getattr__ = attribute
    elif module_name not in EMPTY and module_name not in _PACKAGES:
        raise ModuleNotFoundError(f"tfshim: the TensorFlow internal module tensorflow.python.{module_name} is not "
                                  f"mapped to public names (add it to tests/tf_unit/tfshim/table.py)",
                                  name=full)
    return module
