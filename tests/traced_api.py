"""`traced(tf)`: the `tf` module (TensorFlow's or placeflow's) with every public function run inside `tf.function`.

A conformance case `case_<name>(tf)` can be given `traced(tf)` instead of `tf` to record (and check) what the API
does in a function. The rules, the same for TensorFlow and placeflow:

- Attribute access returns a proxy of a submodule, the function wrapper below for a plain public function, and
  anything else (classes, dtypes, constants) as it is. A function reached by two names (tf.nn.approx_max_k and
  tf.math.approx_max_k) gets one wrapper, so `is` still holds between them.
- Calling a wrapped function builds a new `tf.function(autograph=False)` around that one call: the tensor
  arguments (what tf.is_tensor accepts: tensors, SparseTensor, RaggedTensor, IndexedSlices; not variables) and
  NumPy arrays, also inside plain lists, tuples and dicts, are the function's inputs; everything else (Python
  numbers, strings, variables, other objects) is closed over. A call made while a graph is being built (inside a
  case's own `tf.function`, a dataset function) runs as it is: it is already traced.
- Results: the leaves TensorFlow 2.21's `tf.function` can return (tensors, composite tensors, variables, None,
  and Python/NumPy numbers, strings and arrays, which it converts to tensors) come back through the function, as
  TF 2.21 returns them. TF 2.21 refuses to return any other object from a function (DType, TensorShape, TypeSpec,
  protocol buffers, Python objects: TypeError "must return zero or more Tensors"); those are static results of
  the trace, and come back as the objects the trace built.
- Errors propagate as raised, trace-time or run-time: TensorFlow raises some errors while tracing with other
  classes than eagerly, and that is what the recordings hold.
- SKIP names the functions that run as they are: tensor constructors, decorators and function builders,
  context managers, and switches of process state that inside a function would change something else (the
  function graph's seed, a graph-only setting) or nothing; SKIP_MODULES the modules whose functions build or
  query Python objects, files and the process (datasets, strategies, summaries, nest). A registration keyed by an
  API function (dispatch_for_api) is given TensorFlow's function, not its wrapper.
- run_case records a case that itself raises (not a call whose error it records) as [class, first line], the
  form the cases' own error() helpers record.
"""

import functools
import threading
import types

import numpy as np

SKIP = frozenset({
    # constructors of the inputs themselves and of host values (protocol buffers, variables)
    "constant", "convert_to_tensor", "ragged.constant", "sparse.from_dense", "make_tensor_proto", "make_ndarray",
    "io.match_filenames_once",
    # function builders, decorators and Python-callback ops
    "function", "py_function", "numpy_function", "compat.v1.py_func", "custom_gradient", "recompute_grad",
    "autograph.experimental.do_not_convert", "autograph.to_graph", "autograph.to_code", "grad_pass_through",
    # context managers, context queries and Python predicates
    "device", "control_dependencies", "init_scope", "executing_eagerly", "name_scope", "get_logger", "is_tensor",
    "experimental.async_scope", "experimental.async_clear_error", "experimental.function_executor_type",
    # process switches and registries
    "random.set_seed", "random.get_global_generator", "random.set_global_generator",
    "experimental.numpy.random.seed", "experimental.numpy.experimental_enable_numpy_behavior",
    "register_tensor_conversion_function", "no_gradient", "experimental.enable_strict_mode",
    "experimental.dispatch_for_api", "experimental.dispatch_for_unary_elementwise_apis",
    "experimental.dispatch_for_binary_elementwise_apis", "experimental.dispatch_for_binary_elementwise_assert_apis",
    "experimental.unregister_dispatch_for", "debugging.enable_check_numerics", "debugging.disable_check_numerics",
    "debugging.enable_traceback_filtering", "debugging.disable_traceback_filtering",
    "autograph.set_verbosity", "autograph.experimental.set_loop_options",
    "data.experimental.enable_debug_mode", "distribute.experimental_set_strategy",
})
# whole modules whose functions manage files, the process, strategies, pipelines or Python structures
SKIP_MODULES = ("config", "io.gfile", "nest", "test", "saved_model", "summary", "sysconfig", "version", "distribute",
                "data", "keras", "train", "lookup", "queue")
# registrations keyed by the API function: given TensorFlow's function, not this module's wrapper of it
UNWRAP_ARGUMENTS = ("experimental.dispatch_for_api",)

_tracing = threading.local()


def traced(tf):
    """A proxy of the module `tf` whose public functions run inside `tf.function` (see the module docstring)."""
    return _Module(tf, tf, "", {})


class _Module:
    """A proxy of one (sub)module of `tf`."""

    def __init__(self, tf, module, path, cache):
        self._tf, self._module, self._path, self._cache = tf, module, path, cache

    def __getattr__(self, name):
        value = getattr(self._module, name)
        full = f"{self._path}.{name}" if self._path else name
        if isinstance(value, types.ModuleType):
            key = ("module", full)   # by path: SKIP and SKIP_MODULES name paths
            if key not in self._cache:
                self._cache[key] = _Module(self._tf, value, full, self._cache)
            return self._cache[key]
        if name.startswith("_") or isinstance(value, type) or not callable(value):
            return value
        if full in UNWRAP_ARGUMENTS:
            return _unwrapping(value)
        if _skipped(full):
            return value
        key = ("function", id(value))
        if key not in self._cache:
            self._cache[key] = (_wrap(self._tf, value), value)   # keeps `value` alive: ids stay unique
        return self._cache[key][0]

    def __dir__(self):
        return dir(self._module)

    def __repr__(self):
        return f"traced({self._module!r})"


def _skipped(full):
    return full in SKIP or any(full == m or full.startswith(m + ".") for m in SKIP_MODULES)


def _unwrapping(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return fn(*(getattr(a, "_traced_original", a) for a in args), **kwargs)
    return call


def _wrap(tf, fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        if getattr(_tracing, "depth", 0) or not tf.executing_eagerly():
            return fn(*args, **kwargs)
        return _call_in_function(tf, fn, args, kwargs)
    call._traced_original = fn
    return call


def _is_input(tf, x):
    return isinstance(x, np.ndarray) or (tf.is_tensor(x) and not isinstance(x, tf.Variable))


_PLAIN = (bool, int, float, complex, str, bytes, np.ndarray, np.generic)


def _returnable(tf, x):
    """Whether TF 2.21's tf.function returns this result leaf (converting Python and NumPy values to tensors)."""
    return (x is None or isinstance(x, _PLAIN) or tf.is_tensor(x) or
            isinstance(x, (tf.SparseTensor, tf.RaggedTensor, tf.IndexedSlices, tf.Variable, tf.TensorArray,
                           tf.experimental.ExtensionType, tf.experimental.Optional)))


class _Slot:
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _take_inputs(tf, value, inputs):
    """`value` with its tensor and array leaves (in plain lists, tuples, dicts) replaced by _Slots into `inputs`."""
    if _is_input(tf, value):
        inputs.append(value)
        return _Slot(len(inputs) - 1)
    if type(value) in (list, tuple):
        return type(value)(_take_inputs(tf, v, inputs) for v in value)
    if type(value) is dict:
        return {k: _take_inputs(tf, v, inputs) for k, v in value.items()}
    return value


def _fill(template, xs):
    if isinstance(template, _Slot):
        return xs[template.index]
    if type(template) in (list, tuple):
        return type(template)(_fill(v, xs) for v in template)
    if type(template) is dict:
        return {k: _fill(v, xs) for k, v in template.items()}
    return template


def _call_in_function(tf, fn, args, kwargs):
    inputs = []
    template = _take_inputs(tf, (args, kwargs), inputs)
    kept = {}

    def body(*xs):
        _tracing.depth = getattr(_tracing, "depth", 0) + 1
        try:
            call_args, call_kwargs = _fill(template, xs)
            result = fn(*call_args, **call_kwargs)
        finally:
            _tracing.depth -= 1
        flat = tf.nest.flatten(result)
        kept.clear()
        kept.update((i, leaf) for i, leaf in enumerate(flat) if not _returnable(tf, leaf))
        return tf.nest.pack_sequence_as(result, [None if i in kept else leaf for i, leaf in enumerate(flat)])

    result = tf.function(body, autograph=False)(*inputs)
    if not kept:
        return result
    flat = tf.nest.flatten(result)
    return tf.nest.pack_sequence_as(result, [kept.get(i, leaf) for i, leaf in enumerate(flat)])


def run_case(case, tf, marker=None):
    """`case(tf)` as JSON data; when the case itself raises (rather than a call whose error it records), [error
    class, first line of the message] as the cases' error() records one, after `marker` when given (tnp's cases
    record ["case raised", class, first line])."""
    import json
    try:
        return json.loads(json.dumps(case(tf)))
    except Exception as exc:  # noqa: BLE001 - the failure is the recorded result
        raised = [type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""]
        return raised if marker is None else [marker] + raised


def record_traced(tf, cases, excluded, path, prepare=None, marker=None):
    """Run every case not in `excluded` with traced(tf) (run_case: `marker`) and write {"tensorflow", "excluded",
    "cases"} to `path`."""
    import json
    if tf.__name__ == "tensorflow":
        tf.get_logger().setLevel("ERROR")   # one new function per call: TF warns about retracing
    proxy = traced(tf)
    results = {}
    for name, case in cases.items():
        if name in excluded:
            continue
        if prepare is not None:
            prepare()
        results[name] = run_case(case, proxy, marker)
    path.write_text(json.dumps({"tensorflow": tf.__version__, "excluded": dict(sorted(excluded.items())),
                                "cases": results}, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(results)} cases traced ({len(excluded)} excluded) from TensorFlow {tf.__version__} "
          f"into {path}")
    return results


def traced_names(cases, excluded) -> list:
    """The names of the cases run in a function: all but the excluded ones, sorted."""
    return sorted(set(cases) - set(excluded))


def expected(recorded: dict, name: str, divergent: dict):
    """TF's recorded result of case `name`, with placeflow's documented divergences put in: `divergent` maps a case
    name to {path (a tuple of list indices and dict keys): (placeflow's result there, the reason)}."""
    import copy
    value = copy.deepcopy(recorded[name])
    for path, (replacement, _reason) in divergent.get(name, {}).items():
        if not path:
            return replacement
        target = value
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = replacement
    return value


def traced_tests(test_file: str, cases: dict, excluded: dict, divergent: dict, same, marker=None) -> tuple:
    """The two tests every conformance directory runs on its function-mode recording (tf_2_21_traced.json next to
    `test_file`): that every case not `excluded` was recorded, and that each equals TF's run of it (with the
    `divergent` entries put in), compared by `same(ours, theirs, name)`. Bind them to test_* names in the module."""
    import json
    import pathlib

    import pytest

    import placeflow as tf
    recorded = json.loads(pathlib.Path(test_file).with_name("tf_2_21_traced.json").read_text())
    names = traced_names(cases, excluded)

    def test_every_case_was_recorded_in_a_function():
        assert recorded["tensorflow"] == "2.21.0" and recorded["excluded"] == excluded
        assert sorted(recorded["cases"]) == names

    @pytest.mark.parametrize("name", names)
    def test_case_in_a_function_equals_tensorflow(name):
        """The case with every tf function run inside tf.function (tests/traced_api.py), against TF's run of it."""
        same(run_case(cases[name], traced(tf), marker), expected(recorded["cases"], name, divergent), name)
    return test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow
