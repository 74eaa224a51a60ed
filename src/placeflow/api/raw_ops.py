"""tf.raw_ops: TensorFlow's ops called by their op names with their op-definition argument names.

Each entry takes keyword arguments only (as TensorFlow's raw ops), with TF's names and defaults, and calls the
public function that emits the op (or runs the op itself where none fits), so placement, gradients and errors
are the same. The families live in raw_ops_math, raw_ops_nn, raw_ops_random, raw_ops_strings and raw_ops_state.
`tf.raw_ops.<Name>` for an op placeflow does not
have raises AttributeError naming the ones it does.
"""

from __future__ import annotations

from ..framework import dtypes
from . import array_ops, indexing, linalg, math_ops, nn, raw_ops_math, raw_ops_nn, raw_ops_random, raw_ops_state
from . import raw_ops_strings, strings
from .raw_ops_common import named


def _reduce(fn):
    return lambda *, input, axis, keep_dims=False, name=None: fn(input, axis=axis, keepdims=keep_dims, name=name)


def _unary(fn):
    return lambda *, x, name=None: fn(x, name=name)


def _binary(fn):
    return lambda *, x, y, name=None: fn(x, y, name=name)


def _activation(fn):
    return lambda *, features, name=None: fn(features, name=name)


_UNARY = {"Abs": math_ops.abs, "Neg": math_ops.negative, "Exp": math_ops.exp, "Log": math_ops.log,
          "Sqrt": math_ops.sqrt, "Rsqrt": math_ops.rsqrt, "Square": math_ops.square, "Tanh": math_ops.tanh,
          "Sigmoid": math_ops.sigmoid, "Floor": math_ops.floor, "Ceil": math_ops.ceil, "Sign": math_ops.sign,
          "Reciprocal": math_ops.reciprocal, "Inv": math_ops.reciprocal, "Log1p": math_ops.log1p,
          "Expm1": math_ops.expm1, "Round": math_ops.round, "IsNan": math_ops.is_nan, "IsInf": math_ops.is_inf,
          "IsFinite": math_ops.is_finite, "LogicalNot": math_ops.logical_not, "ZerosLike": array_ops.zeros_like,
          "OnesLike": array_ops.ones_like, "Sin": math_ops.sin, "Cos": math_ops.cos, "Tan": math_ops.tan,
          "Asin": math_ops.asin, "Acos": math_ops.acos, "Atan": math_ops.atan, "Sinh": math_ops.sinh,
          "Cosh": math_ops.cosh, "Asinh": math_ops.asinh, "Acosh": math_ops.acosh, "Atanh": math_ops.atanh}
_BINARY = {"AddV2": math_ops.add, "Add": math_ops.add, "Sub": math_ops.subtract, "Mul": math_ops.multiply,
           "RealDiv": math_ops.divide, "FloorDiv": math_ops.floordiv, "FloorMod": math_ops.floormod,
           "Pow": math_ops.pow, "Maximum": math_ops.maximum, "Minimum": math_ops.minimum,
           "SquaredDifference": math_ops.squared_difference, "Less": math_ops.less,
           "LessEqual": math_ops.less_equal, "Greater": math_ops.greater, "GreaterEqual": math_ops.greater_equal,
           "LogicalAnd": math_ops.logical_and, "LogicalOr": math_ops.logical_or}
_REDUCE = {"Sum": math_ops.reduce_sum, "Mean": math_ops.reduce_mean, "Max": math_ops.reduce_max,
           "Min": math_ops.reduce_min, "Prod": math_ops.reduce_prod, "All": math_ops.reduce_all,
           "Any": math_ops.reduce_any}
_ACTIVATION = {"Relu": nn.relu, "Relu6": nn.relu6, "Elu": nn.elu, "Selu": nn.selu, "Softplus": nn.softplus}


def _equality(fn):
    def op(*, x, y, incompatible_shape_error=True, name=None):
        if not incompatible_shape_error:
            raise NotImplementedError("incompatible_shape_error=False is not implemented in placeflow's raw ops.")
        return fn(x, y, name=name)
    return op


def _cast(*, x, DstT, Truncate=False, name=None):  # noqa: N803 - TensorFlow's attribute names
    if Truncate:
        raise NotImplementedError("Cast(Truncate=True) is not implemented in placeflow.")
    return math_ops.cast(x, DstT, name=name)


def _matmul(*, a, b, transpose_a=False, transpose_b=False, grad_a=False, grad_b=False, name=None):
    return math_ops.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)


def _batch_matmul(*, x, y, adj_x=False, adj_y=False, grad_x=False, grad_y=False, name=None):
    return math_ops.matmul(x, y, transpose_a=adj_x, transpose_b=adj_y, name=name)  # real dtypes only


def _softmax_xent(*, features, labels, name=None):
    from .raw_ops_common import outputs
    loss = nn.softmax_cross_entropy_with_logits(labels=labels, logits=features, name=name)
    return outputs("SoftmaxCrossEntropyWithLogits", "loss backprop", (loss, math_ops.subtract(nn.softmax(features),
                                                                                            labels)))


def _sparse_softmax_xent(*, features, labels, name=None):
    from ..eager.convert import convert_to_tensor
    from ..eager.execute import execute
    features, labels = convert_to_tensor(features), convert_to_tensor(labels)
    from .raw_ops_common import outputs
    found = execute("SparseSoftmaxCrossEntropyWithLogits", (features, labels), features.dtype, name=name)
    return outputs("SparseSoftmaxCrossEntropyWithLogits", "loss backprop", tuple(found))


def _bucketize(input, boundaries, name=None):  # noqa: A002 - TensorFlow's argument name
    from ..eager.convert import convert_to_tensor
    from ..eager.execute import execute
    from ..framework import errors
    if not isinstance(boundaries, (list, tuple)):
        raise TypeError(f"Expected list for 'boundaries' argument to 'Bucketize' Op, not {boundaries!r}.")
    edges = [float(b) for b in boundaries]
    if edges != sorted(edges):
        raise errors.InvalidArgumentError(None, None, "Expected sorted boundaries")
    x = convert_to_tensor(input)
    return execute("Bucketize", (x,), x.dtype, {"boundaries": tuple(edges)}, name=name)


def _select(*, condition, t, e, name=None):
    return math_ops.where(condition, t, e, name=name)


def _where(*, condition, name=None):
    return math_ops.where(condition, name=name)


def _no_bad_indices_policy(op: str, fn):
    """A scatter/gather raw op whose bad_indices_policy must be TF's default (an error for a bad index)."""
    def raw(*, bad_indices_policy="", name=None, **kwargs):
        if bad_indices_policy not in ("", "DEFAULT", "ERROR"):
            from .raw_ops_common import refuse
            refuse(op, "bad_indices_policy", bad_indices_policy, "'' (an error for an index out of range)")
        return fn(name=name, **kwargs)
    return raw


def _top_k(*, input, k, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002 - TensorFlow's names
    from .raw_ops_common import outputs
    found = math_ops.top_k(input, k, sorted, name=name)
    indices = found.indices if dtypes.as_dtype(index_type) == dtypes.int32 else math_ops.cast(found.indices, index_type)
    return outputs("TopKV2", "values indices", (found.values, indices))

_OTHERS = {
    "Equal": _equality(math_ops.equal), "NotEqual": _equality(math_ops.not_equal),
    "Cast": _cast, "MatMul": _matmul, "BatchMatMulV2": _batch_matmul, "BatchMatMulV3": _batch_matmul,
    "ArgMax": lambda *, input, dimension, output_type=dtypes.int64, name=None: math_ops.argmax(
        input, dimension, output_type=output_type, name=name),
    "ArgMin": lambda *, input, dimension, output_type=dtypes.int64, name=None: math_ops.argmin(
        input, dimension, output_type=output_type, name=name),
    "Identity": lambda *, input, name=None: math_ops.identity(input, name=name),
    "StopGradient": lambda *, input, name=None: math_ops.stop_gradient(input, name=name),
    "AddN": lambda *, inputs, name=None: math_ops.add_n(inputs, name=name),
    "Reshape": lambda *, tensor, shape, name=None: array_ops.reshape(tensor, shape, name=name),
    "Transpose": lambda *, x, perm, name=None: array_ops.transpose(x, perm, name=name),
    "ExpandDims": lambda *, input, axis, name=None: array_ops.expand_dims(input, axis, name=name),
    "Squeeze": lambda *, input, axis=(), name=None: array_ops.squeeze(input, list(axis) or None, name=name),
    "ConcatV2": lambda *, values, axis, name=None: array_ops.concat(values, axis, name=name),
    "Pack": lambda *, values, axis=0, name=None: array_ops.stack(values, axis, name=name),
    "Unpack": lambda *, value, num, axis=0, name=None: indexing.unstack(value, num, axis, name=name),
    "Tile": lambda *, input, multiples, name=None: array_ops.tile(input, multiples, name=name),
    "Shape": lambda *, input, out_type=dtypes.int32, name=None: array_ops.shape(input, out_type, name=name),
    "Size": lambda *, input, out_type=dtypes.int32, name=None: indexing.size(input, out_type, name=name),
    "Rank": lambda *, input, name=None: indexing.rank(input, name=name),
    "Fill": lambda *, dims, value, name=None: array_ops.fill(dims, value, name=name),
    "Range": lambda *, start, limit, delta, name=None: array_ops.range(start, limit, delta, name=name),
    "GatherV2": lambda *, params, indices, axis, batch_dims=0, name=None: indexing.gather(
        params, indices, axis=axis, batch_dims=batch_dims, name=name),
    "GatherNd": lambda *, params, indices, bad_indices_policy="", name=None: _no_bad_indices_policy(
        "GatherNd", lambda name, **kw: indexing.gather_nd(kw["params"], kw["indices"], name=name))(
        params=params, indices=indices, bad_indices_policy=bad_indices_policy, name=name),
    "ScatterNd": lambda *, indices, updates, shape, bad_indices_policy="", name=None: _no_bad_indices_policy(
        "ScatterNd", lambda name, **kw: indexing.scatter_nd(kw["indices"], kw["updates"], kw["shape"], name))(
        indices=indices, updates=updates, shape=shape, bad_indices_policy=bad_indices_policy, name=name),
    "TensorScatterUpdate": lambda *, tensor, indices, updates, bad_indices_policy="", name=None:
        _no_bad_indices_policy("TensorScatterUpdate", lambda name, **kw: indexing.tensor_scatter_nd_update(
            kw["tensor"], kw["indices"], kw["updates"], name=name))(
            tensor=tensor, indices=indices, updates=updates, bad_indices_policy=bad_indices_policy, name=name),
    "TensorScatterAdd": lambda *, tensor, indices, updates, bad_indices_policy="", name=None:
        _no_bad_indices_policy("TensorScatterAdd", lambda name, **kw: indexing.tensor_scatter_nd_add(
            kw["tensor"], kw["indices"], kw["updates"], name=name))(
            tensor=tensor, indices=indices, updates=updates, bad_indices_policy=bad_indices_policy, name=name),
    "Atan2": lambda *, y, x, name=None: math_ops.atan2(y, x, name=name),
    "Select": _select, "SelectV2": _select, "Where": _where,
    "Slice": lambda *, input, begin, size, name=None: indexing.slice(input, begin, size, name=name),
    "Pad": lambda *, input, paddings, name=None: indexing.pad(input, paddings, name=name),
    "PadV2": lambda *, input, paddings, constant_values, name=None: indexing.pad(
        input, paddings, constant_values=constant_values, name=name),
    "ReverseV2": lambda *, tensor, axis, name=None: indexing.reverse(tensor, axis, name=name),
    "BroadcastTo": lambda *, input, shape, name=None: indexing.broadcast_to(input, shape, name=name),
    "OneHot": lambda *, indices, depth, on_value, off_value, axis=-1, name=None: array_ops.one_hot(
        indices, depth, on_value, off_value, axis, name=name),
    "Cumsum": lambda *, x, axis, exclusive=False, reverse=False, name=None: math_ops.cumsum(
        x, axis, exclusive, reverse, name=name),
    "Cumprod": lambda *, x, axis, exclusive=False, reverse=False, name=None: math_ops.cumprod(
        x, axis, exclusive, reverse, name=name),
    "TopKV2": _top_k,
    "Softmax": lambda *, logits, name=None: nn.softmax(logits, name=name),
    "LogSoftmax": lambda *, logits, name=None: nn.log_softmax(logits, name=name),
    "LeakyRelu": lambda *, features, alpha=0.2, name=None: nn.leaky_relu(features, alpha, name=name),
    "BiasAdd": lambda *, value, bias, data_format="NHWC", name=None: nn.bias_add(value, bias, data_format, name),
    "SoftmaxCrossEntropyWithLogits": _softmax_xent,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_softmax_xent,
    "Einsum": lambda *, inputs, equation, name=None: math_ops.einsum(equation, *inputs, name=name),
    "MatrixInverse": lambda *, input, adjoint=False, name=None: linalg.inv(input, adjoint, name=name),
    "MatrixDeterminant": lambda *, input, name=None: linalg.det(input, name=name),
    "Cholesky": lambda *, input, name=None: linalg.cholesky(input, name=name),
    "StringJoin": lambda *, inputs, separator="", name=None: strings.join(inputs, separator, name=name),
    "StringLength": lambda *, input, unit="BYTE", name=None: strings.length(input, unit=unit, name=name),
    "Bucketize": lambda *, input, boundaries, name=None: _bucketize(input, boundaries, name),
}


def _no_kernel(op_name):
    def raw_op(**kwargs):
        from ..framework import errors
        raise errors.NotFoundError(None, None, f"No registered '{op_name}' OpKernel for any device in placeflow "
                                   "(there is no cuDNN RNN kernel): use the layer's generic path")
    raw_op.__name__ = op_name
    raw_op.__doc__ = f"{op_name}: no kernel in placeflow (NotFoundError, as TF without the kernel)."
    return raw_op


# Ops TF has only as fused vendor kernels: calling one raises NotFoundError, as TF does on a device without it;
# Keras's LSTM/GRU (keras backend/tensorflow/rnn.py) then take their generic path.
_WITHOUT_KERNELS = {name: _no_kernel(name) for name in ("CudnnRNN", "CudnnRNNV2", "CudnnRNNV3")}


def _image_projective_transform_v3(*, images, transforms, output_shape, fill_value, interpolation,
                                   fill_mode="CONSTANT", name=None):
    from .image import image_projective_transform_v3
    return image_projective_transform_v3(images=images, transforms=transforms, output_shape=output_shape,
                                         fill_value=fill_value, interpolation=interpolation, fill_mode=fill_mode,
                                         name=name)



def _table() -> dict:
    table = {name: _unary(fn) for name, fn in _UNARY.items()}
    table.update({name: _binary(fn) for name, fn in _BINARY.items()})
    table.update({name: _reduce(fn) for name, fn in _REDUCE.items()})
    table.update({name: _activation(fn) for name, fn in _ACTIVATION.items()})
    table.update(_OTHERS)
    table.update(_WITHOUT_KERNELS)
    table["ImageProjectiveTransformV3"] = _image_projective_transform_v3
    table = {op: named(op, fn, f"tf.raw_ops.{op}, as TensorFlow's op of that name.") for op, fn in table.items()}
    for family in (raw_ops_math, raw_ops_nn, raw_ops_random, raw_ops_strings, raw_ops_state):
        table.update(family.table())
    return table


_OPS = _table()


def __getattr__(name):
    found = _OPS.get(name)
    if found is None:
        raise AttributeError(f"module 'placeflow.raw_ops' has no attribute {name!r}: placeflow has no raw op of "
                             f"that name. Its raw ops: {', '.join(sorted(_OPS))}.")
    return found


def __dir__():
    return sorted(_OPS)
