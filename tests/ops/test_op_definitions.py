"""Each op is declared once, completely: kernels, a shape rule that agrees with its kernel, a gradient or
the not-differentiable mark, a cost class; and a second declaration of a name is refused."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.ops import registry, shape_rules
from tests.eager.test_gradients import CASES

# Non-differentiable ops and shape rules the gradient cases do not reach: op -> function building it.
MORE = {
    "Equal": lambda: tf.equal(tf.ones([2, 3]), tf.ones([3])),
    "Less": lambda: tf.ones([2, 1]) < tf.ones([1, 4]),
    "LogicalNot": lambda: tf.logical_not(tf.constant([True, False])),
    "LogicalAnd": lambda: tf.logical_and(tf.constant([True, False]), tf.constant([[True], [False]])),
    "FloorDiv": lambda: tf.math.floordiv(tf.constant([7, 8]), tf.constant([2])),
    "FloorMod": lambda: tf.math.floormod(tf.constant([7, 8]), tf.constant([[2], [3]])),
    "Sign": lambda: tf.math.sign(tf.constant([-2.0, 0.0, 3.0])),
    "ArgMax": lambda: tf.argmax(tf.ones([2, 5, 3]), axis=1),
    "ArgMin": lambda: tf.argmin(tf.ones([2, 5, 3]), axis=-1),
    "OneHot": lambda: tf.one_hot(tf.constant([[0, 2], [1, 1]]), 4, axis=1),
    "Range": lambda: tf.range(1, 10, 3),
    "Eye": lambda: tf.eye(2, 5),
    "Fill": lambda: tf.fill([2, 3], 1.5),
    "Shape": lambda: tf.shape(tf.ones([4, 2, 3])),
    "Where": lambda: tf.where(tf.constant([[True, False], [True, True]])),
    "ZerosLike": lambda: tf.zeros_like(tf.ones([3, 2])),
    "OnesLike": lambda: tf.ones_like(tf.ones([3, 2])),
    "Squeeze": lambda: tf.squeeze(tf.ones([1, 3, 1, 2]), axis=[0, 2]),
    "ExpandDims": lambda: tf.expand_dims(tf.ones([3, 2]), -1),
    "RandomUniform": lambda: tf.random.uniform([2, 2]),
    "RandomStandardNormal": lambda: tf.random.normal([3]),
    # ops added with issue 16 that have no gradient case: each runs through a Session here too
    "Floor": lambda: tf.math.floor(tf.ones([2, 3])),
    "Round": lambda: tf.math.round(tf.ones([4])),
    "IsNan": lambda: tf.math.is_nan(tf.ones([2, 2])),
    "All": lambda: tf.reduce_all(tf.ones([2, 3]) > 0, axis=1),
    "Size": lambda: tf.size(tf.ones([2, 5])),
    "Rank": lambda: tf.rank(tf.ones([2, 5])),
    "Unique": lambda: tf.unique(tf.constant([3, 1, 3])).y,
    "RandomUniformInt": lambda: tf.random.uniform([3], 0, 5, dtype=tf.int32),
    "TruncatedNormal": lambda: tf.random.truncated_normal([2, 2]),
    "Multinomial": lambda: tf.random.categorical(tf.zeros([2, 3]), 4),
    "Svd": lambda: tf.linalg.svd(tf.ones([3, 2]))[0],
    "StringJoin": lambda: tf.strings.join([tf.constant(["a", "b"]), "c"]),
    "StringLength": lambda: tf.strings.length(tf.constant(["ab"])),
    "AsString": lambda: tf.strings.as_string(tf.ones([2])),
    "_RangeOfTensors": lambda: tf.range(tf.compat.v1.placeholder_with_default(tf.constant(4), [])),
}


def test_every_op_is_declared_with_kernels_a_shape_rule_a_gradient_or_the_mark_and_a_cost_class():
    for name in registry.registered_ops():
        definition = registry.op_def(name)
        assert definition.kernels, name
        assert all(kernel.dtypes for kernel in definition.kernels.values()), name
        assert callable(definition.shape), name
        assert callable(definition.dtype), name
        assert callable(definition.gradient) or definition.gradient is registry.NOT_DIFFERENTIABLE, name
        assert definition.cost in (registry.CHEAP, registry.HEAVY, registry.BY_SIZE), name


def test_an_op_is_declared_once():
    with pytest.raises(ValueError, match="'MatMul' is already defined"):
        registry.define("MatMul", shape=shape_rules.matmul, grad=registry.NOT_DIFFERENTIABLE)(lambda xp, a, b: a)


def _static_and_actual_shapes(build, arrays):
    graph = tf.Graph()
    with graph.as_default():
        result = build(*[tf.constant(a) for a in arrays])
    tensors = [t for op in graph.get_operations() for t in op.outputs if op.type != "NoOp"]
    with tf.compat.v1.Session(graph=graph) as session:
        values = session.run(tensors)
    return result, [(t.op.type, t.shape, np.shape(v)) for t, v in zip(tensors, values)]


@pytest.mark.parametrize("case", sorted({op for op, (build, _) in CASES.items() if build is not None} | set(MORE)))
def test_shape_rule_agrees_with_the_kernel(case):
    build, arrays = (lambda: MORE[case](), []) if case in MORE else CASES[case]
    _, rows = _static_and_actual_shapes(build, arrays)
    assert case in {op for op, _, _ in rows}
    for op, static, actual in rows:
        if static is None or static.rank is None:
            continue
        dims = static.as_list()
        assert len(dims) == len(actual), (op, dims, actual)
        assert all(d is None or d == a for d, a in zip(dims, actual)), (op, dims, actual)


def test_tiling_max_pools_match_the_general_windows_ties_included():
    from placeflow.ops import conv
    rng = np.random.default_rng(3)
    x = rng.integers(0, 3, size=(2, 6, 7, 3)).astype(np.float32)  # many ties; the last column is left over
    g = rng.normal(size=(2, 3, 3, 3)).astype(np.float32)
    attrs = {"ksize": (1, 2, 2, 1), "strides": (1, 2, 2, 1), "padding": "VALID"}
    assert conv._tiles(x, attrs["ksize"], attrs["strides"], "VALID") is not None
    general = conv._patches(np, x, 2, 2, attrs["strides"], "VALID", fill=-np.inf)
    np.testing.assert_array_equal(conv._max_pool(np, x, **attrs), general.max(axis=(4, 5)))
    expected = np.zeros_like(x)
    for n, i, j, c in np.ndindex(2, 3, 3, 3):
        window = x[n, 2 * i:2 * i + 2, 2 * j:2 * j + 2, c].ravel()
        k = int(np.argmax(window))  # the first maximum, row-major
        expected[n, 2 * i + k // 2, 2 * j + k % 2, c] += g[n, i, j, c]
    np.testing.assert_array_equal(conv._max_pool_grad(np, x, g, **attrs), expected)
