"""Array ops: reshape, transpose, concat, stack, split, slicing, tile, fill, range, one_hot, with their gradients."""

import re

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from . import shape_rules as rules
from .emit import concat, emit, reduce_sum, reshape, shape_of, split, transpose
from .registry import (ALL, ANY, CHEAP, COMPLEX, FLOATS, INTS, NARROW, NOT_DIFFERENTIABLE, NUMBERS, REAL_NUMBERS,
                       define, presize_from_attrs, presize_like_input)


@define("_EagerConst", ANY | NARROW, shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _const(xp, host_array):
    return xp.asarray(host_array)


def _reshape_grad(e, g):
    return [reshape(g, shape_of(e.inputs[0]))]


def _transpose_grad(e, g):
    perm = e.attrs.get("perm")
    return [transpose(g) if perm is None else transpose(g, np.argsort(perm))]


def _concat_grad(e, g):
    axis = e.attrs["axis"]
    sizes = [shape_of(x)[axis] if len(shape_of(x)) else None for x in e.inputs]
    if None in sizes:  # a size known only when the graph runs (e.g. rows a loop appends)
        parts = emit("_ConcatGrad", (g,) + tuple(e.inputs), g.dtype, {"axis": axis, "parts": len(e.inputs)})
        return list(parts) if isinstance(parts, (list, tuple)) else [parts]
    return split(g, sizes, axis)


def _pack_grad(e, g):
    parts = split(g, len(e.inputs), e.attrs.get("axis", 0))
    return [reshape(p, shape_of(x)) for p, x in zip(parts, e.inputs)]


@define("Reshape", ANY | NARROW, shape=rules.reshape, grad=_reshape_grad, foldable=True, cost=CHEAP)
def _reshape(xp, a, shape):
    try:
        return xp.reshape(a, shape)
    except ValueError:  # NumPy refuses what TF resolves (empty tensors) and words what it refuses its own way
        return xp.reshape(a, _tf_reshape_target(list(a.shape), list(shape)))


def _tf_reshape_target(input_shape: list, target: list) -> list:
    """`target` with its -1 resolved by TensorFlow's rule (zero sizes set aside on both sides when the target
    has one); InvalidArgumentError with TF's text when the sizes cannot match."""
    unknown = [i for i, dim in enumerate(target) if dim == -1]
    if len(unknown) > 1:
        raise InvalidArgumentError(None, None, f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}")
    size = int(np.prod(input_shape, dtype=np.int64))
    target_has_zero = 0 in target
    product = int(np.prod([dim for dim in target if dim != -1 and not (target_has_zero and dim == 0)],
                          dtype=np.int64))
    if unknown:
        counted = int(np.prod([dim for dim in input_shape if dim > 0 or not target_has_zero], dtype=np.int64))
        missing = counted // product if product else 0
        if 0 not in input_shape and product * missing != counted:
            raise InvalidArgumentError(None, None, (
                f"Input to reshape is a tensor with {counted} values, but the requested shape requires a multiple "
                f"of {product}"))
        target = target[:unknown[0]] + [missing] + target[unknown[0] + 1:]
    requested = int(np.prod(target, dtype=np.int64))
    if requested != size:
        raise InvalidArgumentError(None, None, (
            f"Input to reshape is a tensor with {size} values, but the requested shape has {requested}"))
    return target


define("ExpandDims", ANY, shape=rules.expand_dims, grad=_reshape_grad, foldable=True, cost=CHEAP)(
    lambda xp, a, axis: xp.expand_dims(a, axis))
define("Squeeze", ANY, shape=rules.squeeze, grad=_reshape_grad, foldable=True, cost=CHEAP)(
    lambda xp, a, axis=None: xp.squeeze(a, axis=axis))
define("Transpose", ANY, shape=rules.transpose, grad=_transpose_grad)(lambda xp, a, perm=None: xp.transpose(a, perm))
define("ConcatV2", ANY, shape=rules.concat, grad=_concat_grad)(
    lambda xp, *arrays, axis: xp.concatenate(arrays, axis=axis))


def _concat_grad_kernel(xp, g, *inputs, axis, parts):
    """g cut along `axis` into the sizes the concatenated inputs had when the graph ran."""
    bounds = np.cumsum([x.shape[axis] for x in inputs])[:-1]
    parts = xp.split(g, [int(b) for b in bounds], axis=axis)
    return parts[0] if len(parts) == 1 else tuple(parts)


def _concat_grad_grad(e, *grads):
    """_ConcatGrad is linear in its upstream: its gradient concatenates the parts' gradients back."""
    parts = [g if g is not None else emit("ZerosLike", (x,), x.dtype) for g, x in zip(grads, e.inputs[1:])]
    return [concat(parts, e.attrs["axis"])] + [None] * (len(e.inputs) - 1)


define("_ConcatGrad", ANY, shape=lambda shapes, attrs: list(shapes[1:]) if attrs["parts"] > 1 else shapes[1],
       dtype=lambda dtype, attrs: [dtype] * attrs["parts"] if attrs["parts"] > 1 else dtype,
       grad=_concat_grad_grad, cost=CHEAP)(
    _concat_grad_kernel)
define("Pack", ANY, shape=rules.pack, grad=_pack_grad)(lambda xp, *arrays, axis=0: xp.stack(arrays, axis=axis))
define("ZerosLike", ALL, shape=rules.same, grad=NOT_DIFFERENTIABLE, foldable=True, shape_only_inputs=(0,),
       presize=presize_like_input)(lambda xp, a: xp.zeros_like(a))
define("OnesLike", ALL, shape=rules.same, grad=NOT_DIFFERENTIABLE, foldable=True, shape_only_inputs=(0,),
       presize=presize_like_input)(lambda xp, a: xp.ones_like(a))


def _tile(xp, a, multiples):
    if len(multiples) != a.ndim:
        raise InvalidArgumentError(None, None, (
            f"Expected multiples argument to be a vector of length {a.ndim} but got length {len(multiples)}"))
    return xp.tile(a, multiples)


def _tiled(args, attrs) -> tuple:
    a, multiples = args[0], attrs["multiples"]
    if len(multiples) != a.ndim:
        return (), a.dtype  # the kernel reports the mismatch
    return tuple(int(d) * int(m) for d, m in zip(a.shape, multiples)), a.dtype


def _tile_grad(e, g):
    shape, multiples = shape_of(e.inputs[0]), e.attrs["multiples"]
    split_shape = [dim for pair in zip(multiples, shape) for dim in pair]
    return [reduce_sum(reshape(g, split_shape), axis=list(range(0, 2 * len(shape), 2)))]


define("Tile", ANY, shape=rules.tile, grad=_tile_grad, presize=_tiled)(_tile)


def _slice_key_rule(shapes, attrs):
    shape = shapes[0]
    if shape is not None and None not in shape:  # index a zero-byte view of that shape
        try:
            return tuple(np.broadcast_to(np.float32(0), shape)[attrs["key"]].shape)
        except IndexError as exc:
            raise rules.Incompatible(_slice_index_error(str(exc), len(shape))) from None
        except (TypeError, ValueError):
            pass
    return rules.by_evaluation(_slice)(shapes, attrs)


def _slice_index_error(numpy_text: str, rank: int) -> str:
    """TensorFlow's StridedSlice shape-function text for NumPy's IndexError."""
    found = re.search(r"index (-?\d+) is out of bounds for axis (\d+)", numpy_text)
    if found:
        return f"slice index {found.group(1)} of dimension {found.group(2)} out of bounds."
    return f"Index out of range using input dim {rank}; input has only {rank} dims"


def _strided_slice_grad(e, g):
    return [emit("StridedSliceGrad", (g,), g.dtype, {"shape": shape_of(e.inputs[0]), "key": e.attrs["key"]})]


@define("StridedSlice", ANY, shape=_slice_key_rule, grad=_strided_slice_grad)
def _slice(xp, a, key):
    result = a[key]
    return result.copy() if hasattr(result, "copy") and result.ndim else xp.asarray(result)


def _strided_slice_grad_grad(e, g):
    return [emit("StridedSlice", (g,), g.dtype, {"key": e.attrs["key"]})]


@define("StridedSliceGrad", NUMBERS, shape=rules.from_shape_attr, grad=_strided_slice_grad_grad)
def _slice_grad(xp, grad, shape, key):
    """The gradient of a[key]: zeros of a's shape with the upstream gradient where the slice was."""
    out = xp.zeros(shape, dtype=grad.dtype)
    out[key] = grad
    return out


@define("Split", ANY, shape=rules.split, grad=lambda e, *grads: [concat(grads, e.attrs["axis"])])
def _split(xp, a, num_or_sizes, axis=0):
    """Equal parts (`num_or_sizes` an int) or parts of the given sizes, one of which may be -1 (the rest)."""
    if not -a.ndim <= axis < a.ndim:
        raise InvalidArgumentError(None, None, f"-{a.ndim} <= split_dim < {a.ndim}, but got {axis}")
    size = a.shape[axis]
    if isinstance(num_or_sizes, int):
        if num_or_sizes <= 0 or size % num_or_sizes:
            raise InvalidArgumentError(None, None, (
                f"Number of ways to split should evenly divide the split dimension, but got split_dim {axis} "
                f"(size = {size}) and num_split {num_or_sizes}"))
        return tuple(xp.split(a, num_or_sizes, axis=axis))
    sizes = rules.resolved_split_sizes(num_or_sizes, size)
    if sum(sizes) != size or min(sizes, default=0) < 0:
        raise InvalidArgumentError(None, None, (
            "Determined shape must either match input shape along split_dim exactly if fully specified, or be "
            f"less than the size of the input along split_dim if not fully specified.  Got: {sum(num_or_sizes)} vs. "
            f"{size}"))
    return tuple(xp.split(a, [int(s) for s in np.cumsum(sizes)[:-1]], axis=axis))


@define("Fill", ANY, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE, foldable=True, presize=presize_from_attrs)
def _fill(xp, shape, dtype, value):
    return xp.full(shape, value, dtype=dtype.numpy_dtype)


def _fill_dims_shape(shapes, attrs):
    dims = shapes[0]
    return None if dims is None or dims[0] is None else (None,) * int(dims[0])


@define("_FillDims", {d.int32, d.int64}, shape=_fill_dims_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: attrs["dtype"])
def _fill_dims(xp, dims, dtype, value):
    """Fill whose shape is an input (known when the graph runs): TensorFlow's Fill, as tf.zeros(tf.shape(x))."""
    shape = tuple(int(v) for v in (dims.get() if hasattr(dims, "get") else dims).reshape(-1))
    if any(v < 0 for v in shape):
        raise InvalidArgumentError(None, None, f"dims must be non-negative; got {list(shape)}")
    return xp.full(shape, value, dtype=dtype.numpy_dtype)


@define("Range", REAL_NUMBERS - {d.int8, d.int16, d.uint8, d.uint16}, shape=rules.range_length,
        grad=NOT_DIFFERENTIABLE)
def _range(xp, start, limit, delta, dtype):
    if delta == 0:
        raise InvalidArgumentError(None, None, f"Requires delta != 0: {_number(delta)}")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: {_number(start)}/{_number(limit)}")
    if delta < 0 and start < limit:
        raise InvalidArgumentError(None, None, f"Requires start >= limit when delta < 0: {_number(start)}/{_number(limit)}")
    return xp.arange(start, limit, delta, dtype=dtype.numpy_dtype)


@define("_RangeOfTensors", REAL_NUMBERS - {d.int8, d.int16, d.uint8, d.uint16}, shape=lambda shapes, attrs: (None,),
        grad=NOT_DIFFERENTIABLE, gpu=())
def _range_of_tensors(xp, start, limit, delta, dtype):
    """Range whose bounds are tensors of a graph (their values known only when it runs)."""
    values = [np.asarray(v).item() for v in (start, limit, delta)]
    return _range(np, *values, dtype)


@define("Eye", NUMBERS | {d.bool}, shape=rules.eye, grad=NOT_DIFFERENTIABLE)
def _eye(xp, num_rows, num_columns, dtype):
    return xp.eye(num_rows, num_columns, dtype=dtype.numpy_dtype)


@define("OneHot", ALL, shape=rules.one_hot, grad=NOT_DIFFERENTIABLE)
def _one_hot(xp, indices, depth, on_value, off_value, axis, dtype):
    if depth < 0:
        raise InvalidArgumentError(None, None, f"depth must be non-negative, got: {depth}")
    hot = xp.expand_dims(indices, -1) == xp.arange(depth)
    out = xp.where(hot, on_value, off_value).astype(dtype.numpy_dtype)
    return out if axis in (-1, out.ndim - 1) else xp.moveaxis(out, -1, axis)


@define("Shape", ANY, gpu=INTS, shape=rules.shape_vector, grad=NOT_DIFFERENTIABLE, foldable=True,
        shape_only_inputs=(0,), cost=CHEAP)
def _shape(xp, a, out_type):
    return xp.asarray(a.shape, dtype=out_type.numpy_dtype)


def _number(value) -> str:
    """A range bound as TF prints it: 10, not 10.0, for whole numbers."""
    return str(int(value)) if float(value).is_integer() else str(value)


def _reverse_sequence_grad(e, g):
    return [emit("ReverseSequence", (g, e.inputs[1]), g.dtype, e.attrs), None]


@define("ReverseSequence", ANY, shape=rules.same, grad=_reverse_sequence_grad)
def _reverse_sequence(xp, a, lengths, seq_axis=1, batch_axis=0):
    """Each batch entry b with its first lengths[b] elements along `seq_axis` reversed."""
    if lengths.shape != (a.shape[batch_axis],) or (lengths.size and (lengths.min() < 0 or
                                                                      lengths.max() > a.shape[seq_axis])):
        raise InvalidArgumentError(None, None, (
            f"seq_lengths must be a vector of {a.shape[batch_axis]} lengths in [0, {a.shape[seq_axis]}], got "
            f"{xp.asarray(lengths).tolist()}"))
    out = xp.array(a, copy=True)
    moved = xp.moveaxis(out, (batch_axis, seq_axis), (0, 1))  # a view: writing it writes `out`
    source = xp.moveaxis(a, (batch_axis, seq_axis), (0, 1))
    for b, length in enumerate(lengths.tolist()):
        moved[b, :length] = source[b, :length][::-1]
    return out


# -- Bitcast ----------------------------------------------------------------------------------------------
# TensorFlow's DataType enum values, which its Bitcast errors print ("Cannot bitcast from 4 to 3")
_DATATYPE_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "complex64": 8,
                  "int64": 9, "bfloat16": 14, "uint16": 17, "complex128": 18, "float16": 19, "uint32": 22,
                  "uint64": 23}
_BITCAST_TYPES = FLOATS | COMPLEX | INTS


def _bitcast_shape(shapes, attrs):
    """The same bytes seen as `type`: a wider type eats the last dimension (its size the width ratio), a
    narrower one adds it."""
    shape, source, target = shapes[0], attrs["_source"], d.as_dtype(attrs["type"])
    if shape is None:
        return None
    ins, outs = source.numpy_dtype.itemsize, target.numpy_dtype.itemsize
    if ins == outs:
        return tuple(shape)
    if ins > outs:
        return tuple(shape) + (ins // outs,)
    if not shape or (shape[-1] is not None and shape[-1] != outs // ins):
        last = "a scalar" if not shape else shape[-1]
        raise rules.Incompatible(f"Cannot bitcast from {_DATATYPE_ENUM[source.name]} to "
                                 f"{_DATATYPE_ENUM[target.name]} due to shape. {last} does not match {outs // ins}")
    return tuple(shape[:-1])


@define("Bitcast", _BITCAST_TYPES, shape=_bitcast_shape, grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=lambda dtype, attrs: d.as_dtype(attrs["type"]))
def _bitcast(xp, a, type=None, _source=None):
    """The bytes of `a` as `type` (a view; NumPy and CuPy are little-endian, as TensorFlow on x86)."""
    target = d.as_dtype(type)
    ins, outs = a.dtype.itemsize, target.numpy_dtype.itemsize
    if ins < outs and (a.ndim == 0 or a.shape[-1] != outs // ins):
        raise InvalidArgumentError(None, None, f"Cannot bitcast from {_DATATYPE_ENUM[d.as_dtype(a.dtype).name]} to "
                                               f"{_DATATYPE_ENUM[target.name]}")
    view = xp.ascontiguousarray(a).view(target.numpy_dtype)
    if ins > outs:
        return view.reshape(a.shape + (ins // outs,))
    return view.reshape(a.shape[:-1]) if ins < outs else view
