"""Top-level TF functions composed from existing ops: dynamic_partition/dynamic_stitch, unravel_index,
histogram_fixed_width(_bins), realdiv, tensor_scatter_nd_sub, identity_n, tuple, timestamp,
guarantee_const, grad_pass_through, get_current_name_scope, is_symbolic_tensor, hessians."""

from __future__ import annotations

import time

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors, graph_mode
from . import array_ops, indexing, math_ops


def dynamic_partition(data, partitions, num_partitions, name=None):
    """[data[partitions == i] for i in range(num_partitions)] (partitions' shape is a prefix of data's)."""
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    num = int(num_partitions)
    if num < 1:
        raise ValueError(f"num_partitions must be at least 1, got {num}")
    known = array_ops.get_static_value(partitions)
    if known is not None and (np.any(np.asarray(known) < 0) or np.any(np.asarray(known) >= num)):
        bad = int(np.asarray(known).reshape(-1)[np.argmax((np.asarray(known).reshape(-1) < 0) |
                                                         (np.asarray(known).reshape(-1) >= num))])
        raise errors.InvalidArgumentError(None, None, f"partitions[{_position(known, bad)}] = {bad} is not in "
                                                      f"[0, {num})")
    return [indexing.boolean_mask(data, math_ops.equal(partitions, i)) for i in range(num)]


def _position(known, bad) -> int:
    return int(np.flatnonzero(np.asarray(known).reshape(-1) == bad)[0])


def dynamic_stitch(indices, data, name=None):
    """merged[indices[m][i]] = data[m][i]: the values placed by their indices (a later one wins a tie)."""
    indices = [convert_to_tensor(i, dtype=dtypes.int32) for i in indices]
    data = [convert_to_tensor(d) for d in data]
    if len(indices) != len(data):
        raise ValueError(f"List argument 'indices' to 'dynamic_stitch' Op with length {len(indices)} must match "
                         f"length {len(data)} of argument 'data'.")
    tail = [int(d) for d in data[0].shape[len(indices[0].shape):]]
    flat_indices = array_ops.concat([array_ops.reshape(i, [-1]) for i in indices], 0)
    flat_data = array_ops.concat([array_ops.reshape(d, [-1] + tail) for d in data], 0)
    size = math_ops.reduce_max(flat_indices) + 1
    target = array_ops.zeros(array_ops.concat([array_ops.reshape(size, [1]),
                                               convert_to_tensor(tail, dtype=dtypes.int32)], 0), data[0].dtype)
    return indexing.tensor_scatter_nd_update(target, array_ops.expand_dims(flat_indices, 1), flat_data)


def unravel_index(indices, dims, name=None):
    """The coordinates in an array of shape `dims` of flat `indices` ([len(dims)] + indices' shape)."""
    indices = convert_to_tensor(indices)
    dims = convert_to_tensor(dims, dtype=indices.dtype)
    known_dims, known_indices = array_ops.get_static_value(dims), array_ops.get_static_value(indices)
    if known_dims is not None and known_indices is not None:
        total = int(np.prod(known_dims))
        if np.any(np.asarray(known_indices) < 0) or np.any(np.asarray(known_indices) >= total):
            raise errors.InvalidArgumentError(None, None, "index is out of bound as with dims")
    count = int(dims.shape[0])
    strides = [math_ops.cast(math_ops.reduce_prod(dims[k + 1:]), indices.dtype) for k in range(count)]
    return array_ops.stack([math_ops.floormod(math_ops.floordiv(indices, strides[k]), dims[k])
                            for k in range(count)])


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each value among `nbins` equal bins over value_range (values outside go to the end bins)."""
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, dtype=values.dtype)
    nbins_float = math_ops.cast(nbins, values.dtype)
    scaled = math_ops.divide(values - value_range[0], value_range[1] - value_range[0])
    bins = math_ops.cast(math_ops.floor(nbins_float * scaled), dtypes.int32)
    return math_ops.cast(math_ops.clip_by_value(bins, 0, int(nbins) - 1), dtype)


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many values fall in each of `nbins` equal bins over value_range (outside: the end bins)."""
    bins = histogram_fixed_width_bins(values, value_range, nbins, dtypes.int32)
    return math_ops.cast(math_ops.bincount(array_ops.reshape(bins, [-1]), minlength=int(nbins),
                                           maxlength=int(nbins)), dtype)


def realdiv(x, y, name=None):
    """x / y for floating-point (and complex) tensors (TF's RealDiv)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node RealDiv}}}} = RealDiv"
                                               f"[T={dtypes.enum_name(x.dtype)}]")
    return math_ops.divide(x, y, name=name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None, bad_indices_policy=""):
    """A copy of `tensor` with `updates` subtracted at `indices`."""
    indexing._policy(bad_indices_policy, "tf.tensor_scatter_nd_sub")
    updates = convert_to_tensor(updates)
    return indexing.tensor_scatter_nd_add(tensor, indices, math_ops.negative(updates), name=name)


def identity_n(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """Each tensor of `input` passed through."""
    tensors = [convert_to_tensor(t) for t in input]  # every input converts before any is passed on
    return [math_ops.identity(t) for t in tensors]


def tuple_(tensors, name=None, control_inputs=None):
    """The tensors, each available only after all of them (and `control_inputs`) are computed."""
    from ..graph.v1_api import control_dependencies
    present = [t for t in tensors if t is not None]
    with control_dependencies(list(control_inputs or []) + present):
        return [None if t is None else math_ops.identity(t) for t in tensors]


def timestamp(name=None):
    """Seconds since the epoch as a float64 scalar (when the op runs)."""
    if graph_mode.active() is None:
        return convert_to_tensor(np.float64(time.time()))
    from ..eager.execute import execute
    return execute("Timestamp", (), dtypes.float64, {"_stateful": True})


def guarantee_const(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """`input` itself (a promise to TF's optimizer that it is constant)."""
    return math_ops.identity(input)


def grad_pass_through(f):
    """f, whose gradient is taken to be the identity (the upstream gradient passes to its input)."""
    from .custom_gradient import custom_gradient

    @custom_gradient
    def passed(x):
        return f(x), lambda upstream: upstream
    return passed


def get_current_name_scope() -> str:
    """The current name scope ('' at the top; no trailing slash)."""
    graph = graph_mode.active()
    if graph is not None:
        return graph.get_name_scope()
    from ..eager.name_scope import eager_scope
    return eager_scope().rstrip("/")


def is_symbolic_tensor(tensor) -> bool:
    """Whether `tensor` is a graph tensor (not an eager one)."""
    from ..graph.graph import Tensor
    return isinstance(tensor, Tensor)


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, colocate_gradients_with_ops=True, name="hessians"):
    """The Hessian of sum(ys) for each x of `xs` (shape x.shape + x.shape); graphs only, as TF's."""
    from ..graph.gradients import gradients
    if graph_mode.active() is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    out = []
    for x, grad in zip(xs, gradients(ys, xs)):
        size = int(np.prod([int(d) for d in x.shape]))
        flat = array_ops.reshape(grad, [-1])
        rows = [gradients(flat[i], x)[0] for i in range(size)]
        out.append(array_ops.reshape(array_ops.stack(rows), list(x.shape) + list(x.shape)))
    return out
