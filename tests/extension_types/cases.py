"""Cases for tf.experimental's extension types, dispatch, execution switches and ragged shapes, run by
TensorFlow 2.21 (record_tf_extension_types.py) and placeflow (test_extension_types.py): each `case_<name>(tf)`
returns JSON-able results (values, dtypes, shapes, reprs, or [error class, first line])."""

import os
import subprocess
import sys
import typing

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error


def values(x):
    """A tensor's values (rounded), dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    flat = np.round(a.astype(np.float64), 6).reshape(-1).tolist() if a.dtype.kind in "biuf" else \
        [v.decode() if isinstance(v, bytes) else v for v in a.reshape(-1).tolist()]
    return {"dtype": str(getattr(getattr(x, "dtype", None), "name", a.dtype)), "shape": list(a.shape),
            "values": flat}


def text(x):
    """A handler's string result: a Python str eagerly, a string tensor when it came out of a tf.function."""
    return x.numpy().decode() if hasattr(x, "numpy") else x


def error_class(fn):
    """Only the class of what `fn` raises (messages of these differ in their details)."""
    found = error(fn)
    return None if found is None else [found[0], ""]


def masked(tf):
    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

        def __validate__(self):
            self.values.shape.assert_is_compatible_with(self.mask.shape)

        @property
        def shape(self):
            return self.values.shape
    return MaskedTensor


def params(tf):
    class Params(tf.experimental.ExtensionType):
        n: int
        name: str = "x"
        shape: tf.TensorShape = None
        dt: tf.DType = tf.float32
        t: typing.Tuple[int, ...] = ()
        d: typing.Mapping[str, tf.Tensor] = {}
        u: typing.Union[int, str] = 0
        flag: bool = False
    return Params


def case_masked_tensor_basics(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])
    spec = m._type_spec
    return [repr(m).replace("masked.<locals>.", ""), repr(spec).replace("masked.<locals>.", ""),
            type(spec).__name__, [values(t) for t in tf.nest.flatten(m, expand_composites=True)],
            values(m.values), values(m.mask), list(m.shape), isinstance(spec, tf.experimental.ExtensionTypeSpec),
            isinstance(spec, tf.TypeSpec), spec.value_type is mt_class, repr(spec.values), tf.is_tensor(m),
            sorted(tf.experimental.extension_type.as_dict(m))]


def case_constructor_errors(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])
    return [error(lambda: mt_class([1.0, 2.0], [True])), error(lambda: setattr(m, "values", 1)),
            error(lambda: delattr(m, "values")),
            error(lambda: mt_class(values=[1.0])), error(lambda: mt_class(None, [True])),
            error(lambda: mt_class([1.0], [True], 3)), error(lambda: mt_class([1.0], [True], extra=1)),
            error_class(lambda: mt_class([[1.0], [2.0, 3.0]], [True])), values(mt_class([1, 2], [True, True]).values),
            values(mt_class(values=tf.constant([3.0]), mask=np.array([False])).mask)]


def case_python_fields(tf):
    params_class = params(tf)
    p = params_class(3, shape=[2, None], dt="int32", t=[1, 2], u="a", flag=True)
    return [repr(params_class(3)).replace("params.<locals>.", ""), repr(p).replace("params.<locals>.", ""),
            repr(p._type_spec).replace("params.<locals>.", ""), repr(params_class(True).n),
            error(lambda: params_class("3")), error(lambda: params_class(3.0)),
            error(lambda: params_class(3, t=(1, "a"))),
            error(lambda: params_class(3, u=1.5)), error(lambda: params_class(3, name=b"x")),
            error(lambda: params_class(3, flag=1)), error_class(lambda: params_class(3, dt="nope")),
            error_class(lambda: params_class(3, shape="x")), type(p.t).__name__, p.shape.as_list(), p.dt.name]


def case_mapping_fields(tf):
    params_class = params(tf)
    p = params_class(3, d={"b": [1, 2], "a": tf.constant([5.0])})
    flat = tf.nest.flatten(p, expand_composites=True)
    return [[values(t) for t in flat], sorted(p.d), values(p.d["b"]), type(p.d).__name__,
            error_class(lambda: _assign(p.d, "c", 1)), error(lambda: params_class(3, d={"a": None})),
            error(lambda: params_class(3, d=[1, 2]))]


def _assign(mapping, key, value):
    mapping[key] = value


def case_nested_and_optional(tf):
    mt_class = masked(tf)

    class Pair(tf.experimental.ExtensionType):
        first: mt_class
        second: typing.Optional[mt_class] = None
        weights: typing.Tuple[tf.Tensor, ...] = ()
        either: typing.Union[tf.Tensor, int] = 0

    m = mt_class([1.0, 2.0], [True, False])
    p = Pair(m, weights=[[1.0], 2], either=7)
    q = Pair(m, m, either=[1, 2])
    return [[values(t) for t in tf.nest.flatten(p, expand_composites=True)],
            [values(t) for t in tf.nest.flatten(q, expand_composites=True)], p.second is None, type(p.either).__name__,
            error(lambda: Pair(3)), error(lambda: Pair(m, second=3)),
            repr(p._type_spec.first).replace("masked.<locals>.", ""),
            repr(p._type_spec.weights)]


def case_defaults_checked_when_the_class_is_made(tf):
    def make(annotation, default):
        return type("Bad", (tf.experimental.ExtensionType,), {"__annotations__": {"x": annotation}, "x": default})
    return [error(lambda: make(float, 1)), error(lambda: make(int, "a")), error(lambda: make(list, [])),
            error(lambda: type("B3", (tf.experimental.ExtensionType,),
                               {"__annotations__": {"_tf_extension_type_x": int}})),
            error(lambda: type("B4", (tf.experimental.ExtensionType,), {"__annotations__": {"Spec": int}})),
            error(lambda: make(typing.Tuple[int, ...], (1, 2.5))), error(lambda: make(typing.List[int], [])),
            error(lambda: make(typing.Dict[str, int], {})), error(lambda: make(typing.Any, 1)),
            error(lambda: make(tf.TensorSpec, None)), error(lambda: make(dict, {})),
            error(lambda: make(typing.Tuple[int, str], (1, "a"))), error(lambda: make(tf.RaggedTensor, None))]


def case_equality(tf):
    mt_class = masked(tf)
    params_class = params(tf)
    m = mt_class([1.0, 2.0], [True, False])

    def shown(result):
        return values(result) if hasattr(result, "numpy") else result
    return [shown(m == m), shown(m != m), shown(m == mt_class([1.0, 3.0], [True, False])),
            shown(m == mt_class([1.0, 2.0, 3.0], [True, False, True])), shown(m == 3), shown(m != 3),
            shown(params_class(3) == params_class(4)), shown(params_class(3) != params_class(4)),
            error(lambda: hash(m)), error(lambda: hash(params_class(3)))]


def case_subclass_and_custom_init(tf):
    mt_class = masked(tf)

    class Sub(mt_class):
        extra: int = 2

    class Doubled(tf.experimental.ExtensionType):
        x: tf.Tensor

        def __init__(self, v):
            self.x = tf.constant(v) * 2

    class Incomplete(tf.experimental.ExtensionType):
        x: tf.Tensor
        y: int

        def __init__(self, v):
            self.x = v

    s = Sub([1.0], [True], 5)
    return [repr(s), s.extra, values(Doubled(3).x), error(lambda: Doubled(3).__setattr__("x", 1)),
            error_class(lambda: Incomplete(1.0)), sorted(tf.experimental.extension_type.as_dict(s)),
            error_class(lambda: tf.experimental.extension_type.as_dict(3))]


def case_spec(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])
    spec = m._type_spec
    loose = mt_class.Spec(tf.TensorSpec([None]), tf.TensorSpec([None], tf.bool))
    longer = mt_class([1.0, 2.0, 3.0], [True, False, True])._type_spec
    return [repr(mt_class.Spec(values=tf.TensorSpec([2]), mask=tf.TensorSpec([2], tf.bool))).replace(
                "masked.<locals>.", ""),
            error(lambda: mt_class.Spec(tf.TensorSpec([2]))), error(lambda: mt_class.Spec(tf.TensorSpec([2]), 3)),
            spec.is_compatible_with(m), spec.is_compatible_with(loose), spec.is_subtype_of(loose),
            loose.is_subtype_of(spec), spec == mt_class([3.0, 4.0], [True, True])._type_spec, spec == longer,
            hash(spec) == hash(mt_class([3.0, 4.0], [True, True])._type_spec),
            repr(spec.most_specific_common_supertype([longer])).replace("masked.<locals>.", ""),
            spec.is_compatible_with(longer)]


def case_nest_functions(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.float32 else t, m, expand_composites=True)
    packed = tf.nest.pack_sequence_as(m, [tf.constant([5.0, 6.0]), tf.constant([False, False])],
                                      expand_composites=True)
    return [values(doubled.values), type(doubled).__name__, values(packed.values), values(packed.mask),
            len(tf.nest.flatten(m)), len(tf.nest.flatten({"a": m, "b": [m]}, expand_composites=True))]


def case_in_function(tf):
    mt_class = masked(tf)
    params_class = params(tf)
    traces = []

    @tf.function
    def double(x):
        traces.append(1)
        return mt_class(x.values * 2, x.mask)

    @tf.function
    def scaled(p):
        traces.append(2)
        return p.d["a"] * p.n

    m = mt_class([1.0, 2.0], [True, False])
    out = double(m)
    double(mt_class([3.0, 4.0], [False, False]))
    double(mt_class([3.0], [False]))
    first, second = scaled(params_class(3, d={"a": [1]})), scaled(params_class(4, d={"a": [1]}))
    return [type(out).__name__, values(out.values), values(out.mask), values(first), values(second),
            traces.count(1) >= 2, traces.count(2)]


def case_dispatch_for_api(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])

    @tf.experimental.dispatch_for_api(tf.math.add, {"x": mt_class, "y": mt_class})
    def add(x, y, name=None):
        return mt_class(x.values + y.values, x.mask & y.mask)

    try:
        results = [values(tf.math.add(m, m).values), values(tf.add(m, m).mask),
                   values(tf.math.add(tf.constant(1.0), 2.0)), error_class(lambda: tf.math.add(m, 1.0))]
    finally:
        tf.experimental.unregister_dispatch_for(add)
    return results + [error_class(lambda: tf.math.add(m, m)), error(lambda: m + m),
                      error_class(lambda: tf.experimental.unregister_dispatch_for(add))]


def case_dispatch_annotations_and_lists(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])

    @tf.experimental.dispatch_for_api(tf.math.add)
    def add(x: mt_class, y: typing.Union[mt_class, tf.Tensor], name=None):
        return "add"

    @tf.experimental.dispatch_for_api(tf.concat, {"values": typing.List[mt_class]})
    def concat(values, axis, name="concat"):
        return "concat"

    try:
        results = [text(tf.math.add(m, tf.constant(1.0))), error_class(lambda: tf.math.add(tf.constant(1.0), m)),
                   text(tf.concat([m, m], 0)), error_class(lambda: tf.concat([m, tf.constant([1.0])], 0)),
                   values(tf.concat([tf.constant([1.0]), tf.constant([2.0])], 0))]
    finally:
        tf.experimental.unregister_dispatch_for(add)
        tf.experimental.unregister_dispatch_for(concat)
    return results


def case_dispatch_errors(tf):
    mt_class = masked(tf)
    return [error(lambda: tf.experimental.dispatch_for_api(tf.math.add, {"z": mt_class})(lambda z: z)),
            error_class(lambda: tf.experimental.dispatch_for_api(tf.math.add, {"x": mt_class})(lambda a, b: a)),
            error(lambda: tf.experimental.dispatch_for_api(tf.math.add, {"x": 3})(lambda x, y, name=None: x)),
            error_class(lambda: tf.experimental.dispatch_for_api(lambda x: x, {"x": mt_class})(lambda x: x)),
            error_class(lambda: tf.experimental.unregister_dispatch_for(lambda: 1)),
            error(lambda: tf.experimental.dispatch_for_unary_elementwise_apis(3))]


def case_elementwise_dispatch(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, -2.0], [True, False])

    @tf.experimental.dispatch_for_unary_elementwise_apis(mt_class)
    def unary(api_func, x):
        return mt_class(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(mt_class, mt_class)
    def binary(api_func, x, y):
        return mt_class(api_func(x.values, y.values), x.mask & y.mask)

    try:
        results = [values(tf.math.abs(m).values), values(tf.math.negative(m).values), values(tf.nn.relu(m).values),
                   values(tf.cast(m, tf.int32).values), values(tf.math.abs(m, name="q").values),
                   values(tf.math.square(m).values), values(tf.math.multiply(m, m).values),
                   values(tf.math.maximum(m, m).values), values(tf.math.equal(m, m).values),
                   values(tf.math.abs(tf.constant([-1.5])))]

        @tf.experimental.dispatch_for_binary_elementwise_apis(typing.Union[mt_class, tf.Tensor],
                                                              typing.Union[mt_class, tf.Tensor])
        def mixed(api_func, x, y):
            return "mixed"
        results.append(error(lambda: tf.math.multiply(m, m)).__getitem__(0))
        tf.experimental.unregister_dispatch_for(binary)
        results += [text(tf.math.multiply(m, tf.constant([1.0, 2.0]))),
                    values(tf.math.multiply(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))]
        tf.experimental.unregister_dispatch_for(mixed)
    finally:
        tf.experimental.unregister_dispatch_for(unary)
    return results + [error_class(lambda: tf.math.abs(m))]


def case_assert_dispatch(tf):
    mt_class = masked(tf)
    m = mt_class([1.0, 2.0], [True, False])
    calls = []

    @tf.experimental.dispatch_for_binary_elementwise_assert_apis(mt_class, mt_class)
    def asserts(assert_func, x, y):
        calls.append(len(calls))
        return assert_func(x.values, y.values)

    results = [error(lambda: tf.debugging.assert_equal(m, m, message="same")),
               error_class(lambda: tf.debugging.assert_less(m, m, message="less")), calls,
               error_class(lambda: tf.debugging.assert_less(tf.constant(1), tf.constant(0)))]
    if tf.__name__ == "placeflow":  # TF 2.21's unregister_dispatch_for raises KeyError for assert handlers
        tf.experimental.unregister_dispatch_for(asserts)
    return results


def case_async_and_executor(tf):
    with tf.experimental.async_scope():
        x = tf.constant(1.0) + 1
    out = [values(x), tf.experimental.async_clear_error()]
    with tf.experimental.function_executor_type(None):
        out.append(values(tf.function(lambda t: t * 2)(tf.constant(3.0))))
    with tf.experimental.function_executor_type(""):
        out.append(values(tf.constant(2.0) * 2))
    return out


def case_row_partition(tf):
    rp = tf.experimental.RowPartition.from_row_splits([0, 2, 2, 5])
    uniform = tf.experimental.RowPartition.from_uniform_row_length(2, nvals=6)
    return [repr(rp), values(rp.row_lengths()), values(rp.value_rowids()), values(rp.nrows()), values(rp.nvals()),
            values(rp.row_starts()), values(rp.row_limits()), rp.uniform_row_length(), rp.static_nrows,
            rp.static_nvals, rp.dtype.name, repr(uniform), values(uniform.row_splits()), rp.is_uniform(),
            uniform.is_uniform(), int(uniform.static_nvals), int(uniform.static_uniform_row_length),
            repr(tf.experimental.RowPartition.from_row_lengths([2, 0, 3])),
            repr(tf.experimental.RowPartition.from_value_rowids([0, 0, 2, 2, 2], nrows=3)),
            repr(tf.experimental.RowPartition.from_value_rowids([0, 0, 2, 2, 2], nrows=4)),
            repr(tf.experimental.RowPartition.from_row_starts([0, 2, 2], nvals=5)),
            repr(tf.experimental.RowPartition.from_row_limits([2, 2, 5])),
            tf.experimental.RowPartition.from_row_splits([0, 1], dtype=tf.int32).dtype.name,
            tf.experimental.RowPartition.from_row_splits(tf.constant([0, 1], tf.int32)).dtype.name,
            rp.with_dtype(tf.int32).dtype.name, values(rp.offsets_in_rows())]


def case_row_partition_errors(tf):
    rp_class = tf.experimental.RowPartition
    return [error_class(lambda: rp_class.from_row_splits([1, 2])),
            error_class(lambda: rp_class.from_row_splits([0, 3, 2])),
            error_class(lambda: rp_class.from_row_lengths([2, -1])), error_class(lambda: rp_class([0, 1])),
            error_class(lambda: rp_class.from_row_splits([0, 1], dtype=tf.float32)),
            error_class(lambda: rp_class.from_row_splits([0.0, 1.0]))]


def case_dynamic_ragged_shape(tf):
    shape_class = tf.experimental.DynamicRaggedShape
    ragged = shape_class.from_tensor(tf.ragged.constant([[1, 2], [], [3, 4, 5]]))
    splits = tf.constant([0, 2, 5], tf.int64)
    ragged2 = shape_class.from_tensor(tf.RaggedTensor.from_row_splits(tf.zeros([5, 4]), splits))
    dense = shape_class.from_tensor(tf.zeros([2, 3]))
    lengths = shape_class.from_lengths([3, (2, 0, 3)])
    return [repr(ragged), ragged.rank, ragged.num_row_partitions, values(ragged.inner_shape), ragged.dtype.name,
            values(ragged[0]), error(lambda: ragged[1]), ragged.static_lengths(), repr(dense), dense.rank,
            dense.num_row_partitions, values(dense[1]), values(dense[-1]), dense.static_lengths(), repr(lengths),
            repr(ragged2), values(ragged2[2]), values(ragged2[-1]), ragged2.static_lengths(), ragged2.inner_rank,
            repr(shape_class.from_lengths([2, 3])), len(ragged.row_partitions), ragged.is_uniform(0),
            ragged.is_uniform(1), error_class(lambda: ragged[5])]


def case_batch_encoder(tf):
    class Batchable(tf.experimental.BatchableExtensionType):
        values: tf.Tensor
        n: int = 1
        t: typing.Tuple[tf.Tensor, ...] = ()
        d: typing.Mapping[str, tf.Tensor] = {}

    value = Batchable([1.0, 2.0], t=[[1, 2, 3]], d={"b": [[1.0]], "a": [True]})
    encoder = tf.experimental.ExtensionTypeBatchEncoder()
    spec = value._type_spec
    encoded = encoder.encode(spec, value)
    decoded = encoder.decode(spec, encoded)

    def shown(s):
        return repr(s).replace("case_batch_encoder.<locals>.", "")
    return [shown(encoder.batch(spec, 4)), shown(encoder.batch(spec, None)),
            shown(encoder.unbatch(encoder.batch(spec, 4))), shown(encoder.unbatch(spec)),
            [values(t) for t in encoded], type(encoded).__name__, shown(decoded),
            [repr(s) for s in encoder.encoding_specs(spec)], isinstance(value, tf.experimental.ExtensionType),
            error_class(lambda: encoder.unbatch(encoder.unbatch(spec)))]


def case_strict_mode(tf):
    """In a fresh interpreter (TensorFlow cannot leave strict mode): deprecated APIs raise, others run."""
    module = tf.__name__
    code = (f"import os; os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\nimport {module} as tf\n"
            "def error(fn):\n    try:\n        fn()\n    except Exception as exc:\n"
            "        return [type(exc).__name__, str(exc).splitlines()[0]]\n    return None\n"
            "tf.experimental.enable_strict_mode()\n"
            "print(error(lambda: tf.config.experimental.get_memory_usage('CPU:0')))\n"
            "print(error(lambda: tf.math.accumulate_n([tf.constant(1.0)])))\n"
            "print(error(lambda: tf.math.add_n([tf.constant(1.0)])))\n"
            "print(float(tf.constant(2.0) * 3))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=240)
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    return [line.split(", ")[0] if line.startswith("[") else line for line in lines]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED = {"strict_mode": "runs its program in a fresh interpreter, which the proxy does not reach"}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
