"""Cases for the type specs and the gradient, conversion and debugging switches, run by TensorFlow 2.21
(record_tf_specs_misc.py) and placeflow (test_specs_misc.py): each `case_<name>(tf)` returns JSON-able results:
reprs, values rounded, flags, or [error class, first line]."""

import numpy as np


def values(x):
    """A tensor's values rounded to 6 decimals, with dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    a = np.stack([a.real, a.imag], -1) if np.iscomplexobj(a) else a
    flat = [str(v) if isinstance(v, float) and not np.isfinite(v) else v
            for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    return {"dtype": x.dtype.name, "shape": list(a.shape), "values": flat}


def error(fn):
    """[error class, first line of the message] of what `fn` raises (its repr when it returns)."""
    try:
        out = fn()
    except Exception as exc:  # noqa: BLE001 - the class is the recorded result
        return [type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""]
    return repr(out)


def shape(s):
    return None if s.rank is None else s.as_list()


def relations(spec, others):
    """[is_compatible_with, is_subtype_of, repr(most_specific_common_supertype)] of `spec` with each of `others`."""
    return [[spec.is_compatible_with(o), spec.is_subtype_of(o), repr(spec.most_specific_common_supertype([o]))]
            for o in others]


def case_ragged_spec_fields(tf):
    spec = tf.RaggedTensorSpec([2, None], tf.int32, 1)
    same = tf.RaggedTensorSpec([2, None], tf.int32, 1)
    return [repr(spec), shape(spec.shape), spec.dtype.name, spec.ragged_rank, spec.row_splits_dtype.name,
            spec.flat_values_spec, spec.value_type.__name__, spec == same, hash(spec) == hash(same),
            spec != tf.RaggedTensorSpec([2, None], tf.int64), {spec: 1}[same]]


def case_ragged_spec_inferred(tf):
    flat = tf.TensorSpec([None, 2], tf.float64)
    return [repr(tf.RaggedTensorSpec([None, None, 3])), repr(tf.RaggedTensorSpec([None, None, 3], ragged_rank=0)),
            repr(tf.RaggedTensorSpec(None, ragged_rank=2)), tf.RaggedTensorSpec([None, None, 3]).ragged_rank,
            repr(tf.RaggedTensorSpec([None, None], tf.float64, flat_values_spec=flat)),
            repr(tf.RaggedTensorSpec([None, None], None, flat_values_spec=flat)),
            repr(tf.RaggedTensorSpec([None, None], tf.int32, row_splits_dtype=tf.int32)),
            repr(tf.RaggedTensorSpec([None, None], dtype=tf.string)),
            repr(tf.RaggedTensorSpec([None, None], tf.float64, flat_values_spec=flat).flat_values_spec)]


def case_ragged_spec_errors(tf):
    return [error(lambda: tf.RaggedTensorSpec()),
            error(lambda: tf.RaggedTensorSpec([None, None, 3], ragged_rank=3)),
            error(lambda: tf.RaggedTensorSpec([None], ragged_rank=1)),
            error(lambda: tf.RaggedTensorSpec([None, None], flat_values_spec=tf.TensorSpec([None], tf.float64))),
            error(lambda: tf.RaggedTensorSpec([2, "a"])),
            error(lambda: tf.RaggedTensorSpec([2, None], "floaty"))]


def case_ragged_spec_from_values(tf):
    r1 = tf.ragged.constant([[1], [2, 3]])
    r3 = tf.RaggedTensor.from_row_splits(tf.constant([[1.], [2.], [3.]]), tf.constant([0, 1, 3], tf.int64))
    spec = tf.RaggedTensorSpec([2, None], tf.int32, 1)
    return [repr(tf.RaggedTensorSpec.from_value(r1)), repr(tf.RaggedTensorSpec.from_value(r3)),
            repr(tf.type_spec_from_value(r1)),
            spec.is_compatible_with(r1), spec.is_compatible_with(tf.ragged.constant([[1], [2], [3]])),
            spec.is_compatible_with(tf.ragged.constant([[1.], [2.]])), spec.is_compatible_with(tf.constant([[1, 2]])),
            spec.is_compatible_with(5), spec.is_compatible_with("x")]


def case_ragged_spec_relations(tf):
    spec = tf.RaggedTensorSpec([2, None], tf.int32, 1)
    return relations(spec, [tf.RaggedTensorSpec([3, None], tf.int32, 1), tf.RaggedTensorSpec([None, None], tf.int32),
                            tf.RaggedTensorSpec([2, None], tf.int64, 1),
                            tf.RaggedTensorSpec([2, None], tf.int32, row_splits_dtype=tf.int32),
                            tf.RaggedTensorSpec([2, None, None], tf.int32, 1), tf.RaggedTensorSpec(None, tf.int32, 1),
                            tf.SparseTensorSpec([2, None], tf.int32), tf.TensorSpec([2, 3], tf.int32)])


def case_sparse_spec(tf):
    spec = tf.SparseTensorSpec([None, 3], tf.float32)
    value = tf.sparse.from_dense([[1, 0, 2]])
    return [repr(spec), shape(spec.shape), spec.dtype.name, spec.value_type.__name__, repr(tf.SparseTensorSpec()),
            repr(tf.SparseTensorSpec.from_value(value)), repr(tf.type_spec_from_value(value)),
            repr(tf.SparseTensorSpec([2], "float64")), spec == tf.SparseTensorSpec([None, 3]),
            hash(spec) == hash(tf.SparseTensorSpec([None, 3])), spec.is_compatible_with(value),
            tf.SparseTensorSpec([None, 3], tf.int32).is_compatible_with(value)]


def case_sparse_spec_relations(tf):
    return relations(tf.SparseTensorSpec([2, 3]), [
        tf.SparseTensorSpec([None, 3]), tf.SparseTensorSpec([2, 3]), tf.SparseTensorSpec([2]), tf.SparseTensorSpec(),
        tf.SparseTensorSpec([2, 3], tf.int32), tf.TensorSpec([2, 3])]) + relations(
        tf.SparseTensorSpec([None, 3]), [tf.SparseTensorSpec([2, 3]), tf.SparseTensorSpec([None, 4])])


def case_sparse_spec_errors(tf):
    return [error(lambda: tf.SparseTensorSpec("a")), error(lambda: tf.SparseTensorSpec([2], "floaty")),
            error(lambda: tf.SparseTensorSpec([-2])), error(lambda: tf.SparseTensorSpec([2.5])),
            error(lambda: tf.SparseTensorSpec.from_value(tf.constant([[1, 2]])))]


def case_indexed_slices_spec(tf):
    spec = tf.IndexedSlicesSpec([5, 3], tf.float32, tf.int64, tf.int32, [2])
    value = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([0]))
    with_dense = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([3], tf.int64), tf.constant([4, 2], tf.int64))
    return [repr(spec), repr(tf.IndexedSlicesSpec()), spec.value_type.__name__, repr(tf.type_spec_from_value(value)),
            repr(tf.type_spec_from_value(with_dense)), spec == tf.IndexedSlicesSpec([5, 3], tf.float32, tf.int64,
                                                                                    tf.int32, [2]),
            tf.IndexedSlicesSpec([5, 3]).is_compatible_with(tf.IndexedSlicesSpec([None, 3])),
            tf.IndexedSlicesSpec([5, 3]).is_compatible_with(tf.IndexedSlicesSpec([5, 3], tf.float64)),
            repr(tf.IndexedSlicesSpec([5, 3]).most_specific_common_supertype([tf.IndexedSlicesSpec([4, 3])]))]


def case_none_tensor_spec(tf):
    spec = tf.NoneTensorSpec()
    return [repr(spec), spec == tf.NoneTensorSpec(), hash(spec) == hash(tf.NoneTensorSpec()),
            spec.is_compatible_with(None), spec.is_compatible_with(tf.TensorSpec([])),
            spec.is_compatible_with(tf.constant(1)), repr(spec.most_specific_common_supertype([tf.NoneTensorSpec()])),
            repr(tf.type_spec_from_value(None)), spec.is_subtype_of(tf.NoneTensorSpec())]


def case_optional_spec(tf):
    spec = tf.OptionalSpec(tf.TensorSpec([2], tf.int32))
    nested = tf.OptionalSpec((tf.TensorSpec([2], tf.int32), {"a": tf.TensorSpec([], tf.int64)}))
    value = tf.experimental.Optional.from_value(tf.constant([1, 2]))
    return [repr(spec), repr(nested), repr(spec._element_spec), repr(tf.OptionalSpec.from_value(value)),
            repr(tf.type_spec_from_value(value)), spec == tf.OptionalSpec(tf.TensorSpec([2], tf.int32)),
            spec.is_compatible_with(value), spec.is_compatible_with(tf.OptionalSpec(tf.TensorSpec([None], tf.int32))),
            tf.OptionalSpec(tf.TensorSpec([2], tf.int32, name="a")).is_compatible_with(spec),
            nested.is_compatible_with(spec), repr(tf.OptionalSpec(None)),
            tf.OptionalSpec(None) == tf.OptionalSpec(None),
            tf.OptionalSpec(None).is_compatible_with(tf.OptionalSpec(None)),
            repr(tf.data.DatasetSpec(None)), spec.is_compatible_with(tf.OptionalSpec(None))] + relations(
        spec, [tf.OptionalSpec(tf.TensorSpec([3], tf.int32)), tf.OptionalSpec(tf.TensorSpec([3], tf.int64))])


def case_tensor_array_spec(tf):
    spec = tf.TensorArraySpec([2], tf.float32, True, False)
    return [repr(spec), repr(tf.TensorArraySpec()), spec.value_type.__name__,
            repr(tf.type_spec_from_value(tf.TensorArray(tf.float32, 2))),
            repr(tf.type_spec_from_value(tf.TensorArray(tf.float32, 0, dynamic_size=True, element_shape=[3]))),
            tf.TensorArraySpec([2], tf.float32).is_compatible_with(tf.TensorArraySpec(None, tf.float32)),
            tf.TensorArraySpec([2]).is_compatible_with(tf.TensorArray(tf.float32, 2, element_shape=[2])),
            tf.TensorArraySpec([2]).is_compatible_with(tf.TensorArray(tf.float64, 2, element_shape=[2])),
            tf.TensorArraySpec([2]).is_compatible_with(tf.TensorArraySpec([2], tf.float32, True)),
            repr(tf.TensorArraySpec([2]).most_specific_common_supertype([tf.TensorArraySpec([2], tf.float32, True)])),
            spec == tf.TensorArraySpec([2], tf.float32, True, False)]


def case_dataset_spec(tf):
    spec = tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    ds = tf.data.Dataset.range(3)
    return [repr(spec), repr(spec.element_spec), repr(tf.type_spec_from_value(ds)),
            repr(tf.type_spec_from_value(ds.batch(2))), repr(tf.data.DatasetSpec(tf.TensorSpec([]), [2])),
            spec.is_compatible_with(ds), spec.is_compatible_with(ds.batch(2)),
            tf.data.DatasetSpec(tf.TensorSpec([None], tf.int64)).is_compatible_with(ds.batch(2)),
            spec == tf.type_spec_from_value(ds)] + relations(
        tf.data.DatasetSpec(tf.TensorSpec([None], tf.int32)), [tf.data.DatasetSpec(tf.TensorSpec([3], tf.int32)),
                                                              tf.data.DatasetSpec(tf.TensorSpec([3], tf.int64))])


def case_iterator_spec(tf):
    spec = tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))
    iterator = iter(tf.data.Dataset.range(2))
    return [repr(spec), repr(tf.type_spec_from_value(iterator)), spec.value_type.__name__,
            spec.is_compatible_with(iterator), tf.data.IteratorSpec(tf.TensorSpec([])).is_compatible_with(iterator),
            spec == tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))]


def case_type_spec_from_value(tf):
    return [error(lambda: tf.type_spec_from_value(v)) for v in (
        tf.constant([1, 2]), tf.constant([[1.5]], tf.float64), 1, [1, 2], "a", 1.5, (tf.constant(1),),
        np.zeros([2, 3], np.float32), np.array(["a", "b"]), {"a": tf.constant(1)}, object, [[1], [2, 3]])]


def case_register_gradient(tf):
    def grad(op, g):
        return g
    return [error(lambda: tf.RegisterGradient("Square")(grad)), error(lambda: tf.RegisterGradient(5)),
            tf.RegisterGradient("SpecsMiscNewOp")(grad) is grad,
            error(lambda: tf.RegisterGradient("SpecsMiscNewOp")(grad)), error(lambda: tf.no_gradient("SpecsMiscOther")),
            error(lambda: tf.no_gradient("SpecsMiscOther")), error(lambda: tf.no_gradient(3)),
            error(lambda: tf.no_gradient("MatMul")), error(lambda: tf.RegisterGradient("SpecsMiscOther")(grad))]


def case_aggregation_method(tf):
    return [[name, getattr(tf.AggregationMethod, name)] for name in
            ("ADD_N", "DEFAULT", "EXPERIMENTAL_TREE", "EXPERIMENTAL_ACCUMULATE_N")]


def _gradient(tf, fn, x, sources):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return [values(y)] + [values(g) for g in tape.gradient(y, sources)]


def case_recompute_grad(tf):
    x = tf.constant([1., 2., 3.])
    v = tf.Variable(2.)

    def body(t):
        return tf.sin(t) * t + tf.exp(t / 4.)

    def with_variable(t):
        return t * v * v + tf.square(t)
    return [_gradient(tf, tf.recompute_grad(body), x, [x]), _gradient(tf, body, x, [x]),
            _gradient(tf, tf.recompute_grad(with_variable), x, [x, v]), _gradient(tf, with_variable, x, [x, v]),
            values(tf.recompute_grad(lambda t, scale=1.: t * scale)(x, scale=2.))]


def case_tensor_conversion_functions(tf):
    class Box:
        def __init__(self, value):
            self.value = value

    class Child(Box):
        pass

    class Text:
        pass

    class Wrong:
        pass

    class Declines:
        pass

    def box_to_tensor(value, dtype=None, name=None, as_ref=False):
        return tf.constant(value.value, dtype=dtype)
    tf.register_tensor_conversion_function(Box, box_to_tensor)
    tf.register_tensor_conversion_function(Child, lambda v, dtype=None, name=None, as_ref=False: tf.constant(7.),
                                           priority=1)
    tf.register_tensor_conversion_function(Text, lambda v, dtype=None, name=None, as_ref=False: "x")
    tf.register_tensor_conversion_function(Wrong, lambda v, dtype=None, name=None, as_ref=False: tf.constant(1.))
    tf.register_tensor_conversion_function(Declines, lambda v, dtype=None, name=None, as_ref=False: NotImplemented)
    return [values(tf.convert_to_tensor(Box([1., 2.]))), values(tf.convert_to_tensor(Box([1., 2.]), tf.float64)),
            values(tf.add(Box([1., 2.]), 1.)), values(tf.convert_to_tensor(Child([1.]))),
            error(lambda: tf.constant(Box([1.]))), error(lambda: tf.convert_to_tensor(Text())),
            error(lambda: tf.convert_to_tensor(Wrong(), tf.int32)), error(lambda: tf.convert_to_tensor(Declines())),
            error(lambda: tf.register_tensor_conversion_function(int, box_to_tensor)),
            error(lambda: tf.register_tensor_conversion_function(np.ndarray, box_to_tensor)),
            error(lambda: tf.register_tensor_conversion_function("x", box_to_tensor)),
            error(lambda: tf.register_tensor_conversion_function(Box, 5))]


def case_tensor_float_32_and_determinism(tf):
    first = tf.config.experimental.tensor_float_32_execution_enabled()
    tf.config.experimental.enable_tensor_float_32_execution(False)
    off = tf.config.experimental.tensor_float_32_execution_enabled()
    tf.config.experimental.enable_tensor_float_32_execution(True)
    return [first, off, tf.config.experimental.tensor_float_32_execution_enabled(),
            tf.config.experimental.enable_op_determinism(),
            values(tf.matmul(tf.constant([[1., 2.]]), tf.constant([[3.], [4.]])))]


def case_check_numerics(tf):
    checks = [
        lambda: tf.math.log(tf.constant([0., 1.])), lambda: tf.math.log(tf.constant([1., 1.])),
        lambda: tf.constant([float("nan")]), lambda: tf.constant([1, 0]) // tf.constant([1, 1]),
        lambda: tf.math.log(tf.constant([0.], tf.float64)), lambda: tf.identity(tf.constant([float("inf")])),
        lambda: tf.reshape(tf.constant([np.inf, 1.]), [2, 1]), lambda: tf.cast(tf.constant([np.inf]), tf.float64),
        lambda: tf.constant([np.inf, 1.]) * 1., lambda: tf.stack([tf.constant([np.inf])] * 2),
        lambda: tf.ones([2]) / 0., lambda: tf.complex(tf.constant([np.inf]), tf.constant([1.])),
        lambda: tf.sqrt(tf.constant([-1.])), lambda: tf.math.log(tf.constant([0.], tf.float16)),
        lambda: tf.reduce_max(tf.constant([np.inf, 1.])), lambda: tf.convert_to_tensor([np.inf]),
    ]
    tf.debugging.enable_check_numerics()
    try:
        checked = [_checked(fn) for fn in checks]
    finally:
        tf.debugging.disable_check_numerics()
    tf.debugging.disable_check_numerics()
    return checked + [values(tf.math.log(tf.constant([0., 1.])))]


def _checked(fn):
    try:
        return values(fn())
    except Exception as exc:  # noqa: BLE001 - the class is the recorded result
        return [type(exc).__name__, "Detected Infinity or NaN" in str(exc)]


def case_version_and_autograph(tf):
    return [tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER, tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER,
            tf.autograph.set_verbosity(0), tf.autograph.experimental.set_loop_options(parallel_iterations=3),
            tf.autograph.experimental.set_loop_options(maximum_iterations=3),
            error(lambda: tf.autograph.experimental.set_loop_options(foo=3)),
            [[f.name, f.value] for f in tf.autograph.experimental.Feature]]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED = {"register_gradient": "fills the process's gradient registry (no op): a second run of it in one "
                                        "process meets the first run's registrations"}
# Divergences in those runs: {case: {path in its result: (placeflow's, reason)}}.
_NUMERICS = ("placeflow's check_numerics covers eager ops: a function run while it is on raises NotImplementedError "
             "(api/check_numerics.py); TF instruments the function's ops")
TRACED_DIVERGENT = {
    "check_numerics": {(i,): (["NotImplementedError", False], _NUMERICS) for i in (0, 1, 4, 5, 6, 7, 9, 10, 11, 12,
                                                                                    13, 14)},
    "indexed_slices_spec": {(4,): ("IndexedSlicesSpec(TensorShape([4, 2]), tf.float32, tf.int64, tf.int64, "
                                   "TensorShape([1]))", "an IndexedSlices argument of a placeflow.function is "
                                   "captured with its values (TF traces its parts: dense_shape unknown)")},
}
