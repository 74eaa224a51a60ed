"""Array construction and shaping: zeros, ones, fill, range, eye, reshape, concat, stack, split, slicing."""

from __future__ import annotations

import numpy as np

from ..eager.execute import execute
from ..framework import dtypes, errors
from .axis_args import axis_arg, check_axes, rank_of
from ..eager.convert import as_tensor_or_none, convert_to_tensor, host_array, operands, packed
from ..graph.static_values import static_value


def get_static_value(tensor, partial=False):
    """The value of `tensor` when it is known without running a graph (an eager tensor, or a constant of
    the graph being built) as a NumPy array; None when only running the graph would tell."""
    if partial:
        raise NotImplementedError("get_static_value(partial=True) is not implemented in placeflow; call it "
                                  "without `partial`.")
    found = as_tensor_or_none(tensor)
    if found is None:
        return np.asarray(tensor)
    if hasattr(found, "numpy"):
        return found.numpy()
    return static_value(found)


def _ints(value) -> tuple:
    tensor = packed(value) if isinstance(value, (list, tuple)) else as_tensor_or_none(value)
    given = value
    if tensor is not None:
        known = get_static_value(tensor)
        if known is None:
            raise NotImplementedError(
                f"{tensor!r} is computed by the graph being built, and placeflow needs this shape argument's "
                "value while building; pass a Python list or a constant (a tensor known before the graph runs).")
        value = known.tolist()
    items = [value] if np.ndim(value) == 0 else list(value)
    if any(isinstance(v, (float, np.floating)) and not float(v).is_integer() or isinstance(v, (str, bytes))
           for v in items):
        raise TypeError(f"Cannot convert {given!r} to EagerTensor of dtype int32")
    return tuple(int(v) for v in items) if np.ndim(value) else (int(value),)


def _run_time_dims(dims):
    """`dims` as an int tensor when the graph being built knows it only when it runs (None when known now)."""
    tensor = packed(dims) if isinstance(dims, (list, tuple)) else as_tensor_or_none(dims)
    if tensor is None or hasattr(tensor, "numpy") or get_static_value(tensor) is not None:
        return None
    return tensor


def _filled(dims, dtype, value, name):
    """Fill with the shape known now, or (a shape computed when the graph runs, e.g. tf.shape(x)[0] of an
    unknown batch) _FillDims, which reads it then."""
    run_time = _run_time_dims(dims)
    if run_time is None:
        return execute("Fill", (), dtype, {"shape": _ints(dims), "dtype": dtype, "value": value}, name=name)
    out = execute("_FillDims", (run_time,), run_time.dtype, {"dtype": dtype, "value": value}, name=name)
    partial = _partial_dims(dims, run_time)
    if partial is not None:
        out.set_shape(partial)
    return out


def _partial_dims(dims, tensor):
    """What the graph knows of run-time `dims` while building: list entries known now, or the static shape of
    x for tf.shape(x)."""
    if isinstance(dims, (list, tuple)):
        known = []
        for item in dims:
            value = get_static_value(item) if not isinstance(item, (int, np.integer)) else item
            known.append(None if value is None else int(value))
        return known
    if tensor.op.type == "Shape" and tensor.op.inputs[0].shape is not None:
        return list(tensor.op.inputs[0].shape)
    return None


def _refuse_layout(layout, what: str) -> None:
    """DTensor layouts (TF's `layout=` argument) are refused by name: placeflow has no DTensor."""
    if layout is not None:
        raise NotImplementedError(f"tf.{what}(layout={layout!r}) is not implemented in placeflow (it has no DTensor "
                                  f"layouts); leave layout=None.")


def fill(dims, value, name=None, layout=None):
    """A tensor of shape `dims` filled with `value` (Fill)."""
    _refuse_layout(layout, "fill")
    tensor = as_tensor_or_none(value)
    if tensor is not None and not hasattr(tensor, "numpy"):  # a value computed by the graph being built
        if tensor.shape is not None and len(tensor.shape) != 0:
            raise ValueError(f"fill's value must be a scalar, got {tensor!r}.")
        if _run_time_dims(dims) is not None:
            from .math_ops import add
            return add(_filled(dims, tensor.dtype, 0, None), tensor, name=name)
        return execute("BroadcastTo", (tensor,), tensor.dtype, {"shape": _ints(dims)}, name=name)
    host = tensor.numpy() if tensor is not None else host_array(value)
    if np.ndim(host) != 0:
        raise errors.InvalidArgumentError(None, None, f"value must represent a scalar, got shape "
                                                      f"[{','.join(str(d) for d in np.shape(host))}] [Op:Fill]")
    return _filled(dims, dtypes.as_dtype(host.dtype), host, name)


def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of zeros."""
    _refuse_layout(layout, "zeros")
    return _filled(shape, dtypes.as_dtype(dtype), 0, name)


def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of ones."""
    _refuse_layout(layout, "ones")
    return _filled(shape, dtypes.as_dtype(dtype), 1, name)


def zeros_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    """Zeros with the shape (and dtype) of `input`."""
    _refuse_layout(layout, "zeros_like")
    x = convert_to_tensor(input)
    return execute("ZerosLike", (x,), x.dtype, name=name) if dtype is None else zeros(_dims_of(x), dtype)


def ones_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    """Ones with the shape (and dtype) of `input`."""
    _refuse_layout(layout, "ones_like")
    x = convert_to_tensor(input)
    return execute("OnesLike", (x,), x.dtype, name=name) if dtype is None else ones(_dims_of(x), dtype)


def _dims_of(x):
    """x's static shape when every dimension is known, else its shape when the graph runs (tf.shape)."""
    dims = x.shape
    if dims is not None and all(d is not None for d in dims):
        return dims
    return shape(x)


class _RangeBoundError(TypeError, AssertionError):
    """A bound of tf.range that is not a number: a TypeError naming it, and an AssertionError too, the class
    TF 2.21 raises there (a Python assert in its own code), so TF's `except` catches it."""


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """start, start + delta, ... up to (not including) limit (Range)."""
    if limit is None:
        start, limit = 0, start
    tensors = [as_tensor_or_none(v) for v in (start, limit, delta)]
    if any(t is not None and not hasattr(t, "numpy") for t in tensors):  # a bound known only when a graph runs
        return _range_of_tensors(start, limit, delta, dtype, name)
    values = [t.numpy().item() if t is not None else v for t, v in zip(tensors, (start, limit, delta))]
    for value in values:
        if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, np.number)):
            raise _RangeBoundError("tf.range takes numbers (or numeric scalar tensors) for start, limit and delta; "
                                   f"got {value!r}")
    if dtype is None:  # TF: the widest of the arguments' dtypes (tensors' own; Python ints int32, floats float32)
        hierarchy = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        kinds = [t.dtype if t is not None and t.dtype in hierarchy else
                 (dtypes.float32 if isinstance(v, (float, np.floating)) else dtypes.int32)
                 for t, v in zip(tensors, values)]
        dtype = max(kinds, key=hierarchy.index)
    dtype = dtypes.as_dtype(dtype)
    return execute("Range", (), dtype, {"start": values[0], "limit": values[1], "delta": values[2], "dtype": dtype},
                   name=name)


def _range_of_tensors(start, limit, delta, dtype, name):
    from .math_ops import cast
    given = [convert_to_tensor(v) for v in (start, limit, delta)]
    if dtype is None:
        dtype = next((t.dtype for t in given if t.dtype.is_floating), given[1].dtype)
    dtype = dtypes.as_dtype(dtype)
    bounds = tuple(cast(t, dtype) for t in given)
    return execute("_RangeOfTensors", bounds, dtype, {"dtype": dtype}, name=name)


def _integer_size(value) -> int:
    """A size given as a Python int or an integer scalar tensor (known while building a graph)."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    known = get_static_value(value)
    if known is None:
        raise NotImplementedError(f"tf.eye with a size known only when the graph runs ({value!r}) is not implemented in "
                                  "placeflow; give the size as a Python int.")
    if np.ndim(known) != 0 or np.asarray(known).dtype.kind not in "iuf" or float(known) != int(known):
        raise TypeError(f"Arguments `num_rows` and `num_columns` must be positive integer values. Received: {value!r}")
    return int(known)  # (TF takes a whole-valued float tensor too)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix (a batch of them, of shape batch_shape + [rows, columns], with `batch_shape`)."""
    dtype = dtypes.as_dtype(dtype)
    columns = num_rows if num_columns is None else num_columns
    if any(isinstance(n, (float, np.floating)) for n in (num_rows, columns)):  # TF: Python floats are refused
        raise TypeError(f"Arguments `num_rows` and `num_columns` must be positive integer values. Received: "
                        f"num_rows={num_rows}, num_columns={columns}")
    num_rows, columns = (_integer_size(n) for n in (num_rows, columns))
    for n in (num_rows, columns):
        if n < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {n} must be >= 0 [Op:Fill]")
    attrs = {"num_rows": int(num_rows), "num_columns": int(columns), "dtype": dtype}
    if not batch_shape:
        return execute("Eye", (), dtype, attrs, name=name)
    matrix = execute("Eye", (), dtype, attrs)
    batch = [int(dim) for dim in batch_shape]
    shape = tuple(batch + [attrs["num_rows"], attrs["num_columns"]])
    return execute("BroadcastTo", (matrix,), dtype, {"shape": shape}, name=name)


def bitcast(input, type, name=None):  # noqa: A002 - TensorFlow's argument names
    """The bytes of `input` seen as dtype `type`, without copying: a narrower type adds a last dimension (the
    width ratio), a wider one consumes it."""
    tensor = convert_to_tensor(input)
    return execute("Bitcast", (tensor,), tensor.dtype, {"type": dtypes.as_dtype(type), "_source": tensor.dtype},
                   name=name)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Each batch entry with its first seq_lengths[b] elements along `seq_axis` reversed."""
    if seq_axis is None:
        raise ValueError("reverse_sequence needs seq_axis, the axis whose prefixes are reversed.")
    x, lengths = convert_to_tensor(input), convert_to_tensor(seq_lengths)
    attrs = {"seq_axis": int(seq_axis), "batch_axis": 0 if batch_axis is None else int(batch_axis)}
    return execute("ReverseSequence", (x, lengths), x.dtype, attrs, name=name)


def reshape(tensor, shape, name=None):
    """`tensor` with a new shape of the same size (-1 infers one dimension)."""
    x = convert_to_tensor(tensor)
    if isinstance(shape, (list, tuple)) and any(isinstance(d, (float, np.floating)) for d in shape):
        raise errors.InvalidArgumentError(None, None, "Value for attr 'Tshape' of float is not in the list of allowed "
                                                      "values: int32, int64")
    dims = _ints(shape)
    for index, dim in enumerate(dims):
        if dim < -1:
            raise errors.InvalidArgumentError(None, None, f"Size {index} must be non-negative, not {dim} [Op:Reshape]")
    return execute("Reshape", (x,), x.dtype, {"shape": dims}, name=name)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """`a` with its dimensions permuted (reversed when perm is None); complex values conjugated with
    `conjugate`."""
    x = convert_to_tensor(a)
    out = execute("Transpose", (x,), x.dtype, {"perm": None if perm is None else _ints(perm)}, name=name)
    return execute("Conj", (out,), out.dtype) if conjugate and out.dtype.is_complex else out


def expand_dims(input, axis, name=None):  # noqa: A002
    """`input` with a new dimension of size 1 at `axis`."""
    x = convert_to_tensor(input)
    axis = axis_arg(axis, float_error=TypeError)
    if isinstance(axis, tuple):
        raise errors.InvalidArgumentError(None, None, "'dim' must be a tensor with a single value [Op:ExpandDims]")
    check_axes(axis, None if rank_of(x) is None else rank_of(x) + 1, "ExpandDims",
               f"Tried to expand dim index {{axis}} for tensor with {rank_of(x)} dimensions.")
    return execute("ExpandDims", (x,), x.dtype, {"axis": axis}, name=name)


def squeeze(input, axis=None, name=None):  # noqa: A002
    """`input` without its dimensions of size 1 (or only those in `axis`)."""
    x = convert_to_tensor(input)
    return execute("Squeeze", (x,), x.dtype, {"axis": None if axis is None else _ints(axis)}, name=name)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[..., j] = j < lengths[...]: one row of `maxlen` (default: the largest length) per length."""
    from . import math_ops
    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = math_ops.reduce_max(lengths)
    positions = range(math_ops.cast(maxlen, lengths.dtype), dtype=lengths.dtype)
    mask = math_ops.less(positions, expand_dims(lengths, -1))
    return mask if dtypes.as_dtype(dtype) == dtypes.bool else math_ops.cast(mask, dtype, name=name)


def ensure_shape(x, shape, name=None):
    """`x`, checked to have a shape compatible with `shape` (while building: the static shape is refined)."""
    from ..framework.tensor_shape import TensorShape
    x = convert_to_tensor(x)
    expected = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    if x.shape is not None and not TensorShape(x.shape).is_compatible_with(expected):
        from ..framework import errors
        raise errors.InvalidArgumentError(None, None, f"Shape of tensor {getattr(x, 'name', 'x')} {list(x.shape)} "
                                                      f"is not compatible with expected shape {expected}.")
    if hasattr(x, "set_shape") and not hasattr(x, "numpy"):
        x.set_shape(expected)
    return x


def broadcast_static_shape(shape_x, shape_y):
    """The shape two static shapes broadcast to (None where unknown); ValueError if they cannot."""
    from ..framework.tensor_shape import TensorShape
    x, y = list(TensorShape(shape_x)), list(TensorShape(shape_y))
    rank = max(len(x), len(y))
    x, y = [1] * (rank - len(x)) + x, [1] * (rank - len(y)) + y
    out = []
    for a, b in zip(x, y):
        if a == 1 or b == 1:
            out.append(b if a == 1 else a)
        elif a is None or b is None:
            out.append(a if b is None else b)
        elif a != b:
            raise ValueError(f"Incompatible shapes for broadcasting: {TensorShape(shape_x)} and {TensorShape(shape_y)}")
        else:
            out.append(a)
    return TensorShape(out)


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (an int32 vector) two shapes given as vectors broadcast to."""
    import numpy as np
    x, y = get_static_value(shape_x), get_static_value(shape_y)
    if x is None or y is None:
        raise NotImplementedError("tf.broadcast_dynamic_shape of shapes known only when the graph runs is not "
                                  "implemented in placeflow.")
    try:
        result = np.broadcast_shapes(tuple(int(v) for v in x), tuple(int(v) for v in y))
    except ValueError as error:
        from ..framework import errors
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: {list(x)} vs. {list(y)}") from error
    return convert_to_tensor(np.array(result, dtype=np.int32))


def roll(input, shift, axis, name=None):  # noqa: A002
    """Elements shifted along `axis` by `shift` (ints or lists of them; a negative shift moves them back),
    wrapping around: two slices joined, so the gradient follows (shifts must be known while building)."""
    from .indexing import slice as slice_
    x = convert_to_tensor(input)
    shifts, axes = get_static_value(shift), get_static_value(axis)
    if shifts is None or axes is None:
        raise NotImplementedError("tf.roll with a shift or axis known only when the graph runs is not implemented "
                                  "in placeflow; give them as Python ints.")
    shifts = [int(s) for s in np.atleast_1d(shifts)]
    axes = axis_arg(axes.tolist() if isinstance(axes, np.ndarray) else axes, "Taxis",
                    float_error=errors.InvalidArgumentError)
    axes = list(axes) if isinstance(axes, tuple) else [axes]
    check_axes(axes, rank_of(x), "Roll", "axis {axis} is out of range")
    if len(shifts) != len(axes):
        raise ValueError(f"shift and axis must have the same size; got {shifts} and {axes}")
    for step, dim in zip(shifts, axes):
        dim %= len(x.shape)
        length = x.shape[dim]
        if length is None:
            raise NotImplementedError("tf.roll along a dimension of unknown size is not implemented in placeflow.")
        step %= max(int(length), 1)
        if step == 0:
            continue
        begin, size = [0] * len(x.shape), [-1] * len(x.shape)
        size[dim] = int(length) - step
        head = slice_(x, begin, size)
        begin[dim], size[dim] = int(length) - step, step
        tail = slice_(x, begin, size)
        x = concat([tail, head], dim)
    return x if name is None else _named(x, name)


def _named(x, name):
    """`x` through an Identity op called `name`."""
    from .math_ops import identity
    return identity(x, name=name)


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Each element (axis None: of the flattened input) or slice along `axis` repeated `repeats` times (an int,
    or one count per slice); the counts must be known while building."""
    import numpy as np
    from .indexing import gather
    x = convert_to_tensor(input)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    axis = int(axis) % max(len(x.shape), 1)
    counts = get_static_value(repeats)
    length = x.shape[axis]
    if counts is None or length is None:
        raise NotImplementedError("tf.repeat with counts or a length known only when the graph runs is not "
                                  "implemented in placeflow; give the counts as Python ints or a constant.")
    order = np.repeat(np.arange(int(length)), np.broadcast_to(np.asarray(counts, np.int64), (int(length),)))
    return gather(x, order.astype(np.int32), axis=axis, name=name)


def tile(input, multiples, name=None):  # noqa: A002
    """`input` repeated `multiples` times along each dimension."""
    x = convert_to_tensor(input)
    return execute("Tile", (x,), x.dtype, {"multiples": _ints(multiples)}, name=name)


def _has_ragged(values) -> bool:
    """Whether the list `values` holds a RaggedTensor (TF dispatches tf.concat and tf.stack of those to tf.ragged)."""
    if not isinstance(values, (list, tuple)):
        return False
    from .ragged import RaggedTensor
    return any(isinstance(v, RaggedTensor) for v in values)


def concat(values, axis, name="concat"):
    """Tensors joined along an existing dimension (ConcatV2); RaggedTensors among them: tf.ragged's concat."""
    if _has_ragged(values):
        from .ragged_more import concat as ragged_concat
        return ragged_concat(values, axis, name=name)
    axis = axis_arg(axis)
    inputs, dtype = operands("ConcatV2", list(values))
    check_axes(axis, getattr(inputs[0], "ndim", None) if inputs else None, "ConcatV2",
               "ConcatOp : Expected concatenating dimensions in the range [-{rank}, {rank}), but got {axis}")
    return execute("ConcatV2", inputs, dtype, {"axis": axis}, name=name)


def stack(values, axis=0, name="stack"):
    """Tensors joined along a new dimension (Pack); RaggedTensors among them: tf.ragged.stack."""
    if _has_ragged(values):
        from .ragged_more import stack as ragged_stack
        return ragged_stack(values, axis, name=name)
    if isinstance(values, (list, tuple)) and not values:  # TF: the empty list converted, a float32 [0]
        return convert_to_tensor(np.zeros(0, np.float32))
    inputs, dtype = operands("Pack", list(values))
    rank = getattr(inputs[0], "ndim", None) if inputs else None
    if rank is not None and not -(rank + 1) <= int(axis) < rank + 1:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-(rank + 1)}, {rank + 1})")
    return execute("Pack", inputs, dtype, {"axis": int(axis)}, name=name)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """A list of tensors: `value` cut into equal parts, or into parts of the given sizes."""
    x = convert_to_tensor(value)
    if np.ndim(num_or_size_splits) == 0 and as_tensor_or_none(num_or_size_splits) is None:
        parts = int(num_or_size_splits)
    else:
        parts = [int(s) for s in _ints(num_or_size_splits)]
        if parts.count(-1) > 1 or any(s < -1 for s in parts):
            raise ValueError(f"size_splits {parts} may hold at most one -1 (the rest of the axis) and no other "
                             "negative size.")
    axis = axis_arg(axis)
    check_axes(axis, rank_of(x), "Split", "-input rank(-{rank}) <= split_dim < input rank ({rank}), but got {axis}")
    return execute("Split", (x,), x.dtype, {"num_or_sizes": parts, "axis": axis}, name=name)


def _one_hot_dtype(on_value, off_value, dtype):
    """TensorFlow's rule: the given dtype, else the on/off values' dtype (they must agree), else float32."""
    given = [convert_to_tensor(v).dtype for v in (on_value, off_value) if v is not None]
    if len(given) == 2 and given[0] != given[1]:
        raise TypeError(f"dtype {given[0]!r} of on_value does not match dtype {given[1]!r} of off_value")
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        if given and given[0] != dtype and not all(isinstance(v, (int, float)) for v in (on_value, off_value)
                                                   if v is not None):
            raise TypeError(f"dtype {given[0]!r} of on_value does not match dtype parameter {dtype!r}")
        return dtype
    return given[0] if given else dtypes.float32


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """Vectors with `on_value` at each index and `off_value` elsewhere."""
    x = convert_to_tensor(indices)
    if x.dtype not in (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64):
        name_of = {"float32": "float", "float64": "double"}.get(x.dtype.name, x.dtype.name)
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'TI' of {name_of} is not in the list of allowed "
                                                      "values: uint8, int8, int32, int64")
    dtype = _one_hot_dtype(on_value, off_value, dtype)
    attrs = {"depth": int(depth), "on_value": 1 if on_value is None else on_value,
             "off_value": 0 if off_value is None else off_value, "axis": -1 if axis is None else int(axis),
             "dtype": dtype}
    return execute("OneHot", (x,), dtype, attrs, name=name)


def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shape of `input` as a 1-D tensor; of a RaggedTensor, its DynamicRaggedShape (as TF)."""
    from .ragged import RaggedTensor
    if isinstance(input, RaggedTensor):
        from .row_partition import DynamicRaggedShape
        return DynamicRaggedShape.from_tensor(input, dtype=dtypes.as_dtype(out_type))
    x = convert_to_tensor(input)
    return execute("Shape", (x,), dtypes.as_dtype(out_type), {"out_type": dtypes.as_dtype(out_type)}, name=name)


def slice_key(key):
    """A NumPy index from a Python index that may hold tensors."""
    if isinstance(key, tuple):
        return tuple(slice_key(k) for k in key)
    if isinstance(key, slice):
        return slice(*(slice_key(v) if v is not None else None for v in (key.start, key.stop, key.step)))
    tensor = as_tensor_or_none(key) if key is not None and key is not Ellipsis else None
    return tensor.numpy() if tensor is not None else key


def strided_slice(tensor, key, name=None):
    """tensor[key] (StridedSlice): ints, slices, Ellipsis, None (new axis); inside a graph, a lone scalar
    tensor index (x[i] in a traced loop) is a gather along the first axis."""
    x = convert_to_tensor(tensor)
    if _symbolic(key):
        from .indexing import gather
        return gather(x, key)
    if isinstance(key, tuple) and any(_symbolic(k) for k in key) or isinstance(key, slice) and any(
            _symbolic(v) for v in (key.start, key.stop, key.step)):
        raise NotImplementedError("Indexing with tensors known only when a graph runs is implemented for a lone "
                                  "scalar index (x[i]); use placeflow.gather / placeflow.slice for the rest.")
    _check_index(key)
    return execute("StridedSlice", (x,), x.dtype, {"key": slice_key(key)}, name=name)


def _check_index(key) -> None:
    """TF's TypeError for an index that is not an int, slice, Ellipsis, newaxis or int scalar tensor."""
    for item in key if isinstance(key, tuple) else (key,):
        parts = (item.start, item.stop, item.step) if isinstance(item, slice) else (item,)
        for part in parts:
            if isinstance(part, (float, np.floating, str, bytes)):
                raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                                f"tf.int32/tf.int64 tensors are valid indices, got {part!r}")


def _symbolic(value) -> bool:
    """A tensor of a graph being built (its value is known only when the graph runs)."""
    return hasattr(value, "op") and hasattr(value, "value_index") and not hasattr(value, "numpy")
