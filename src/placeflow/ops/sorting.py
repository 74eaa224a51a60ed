"""Sorting and segment ops: top_k (sort and argsort are built on it), unsorted segment sum and max, unique."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .emit import emit, shape_of, where, zeros_like
from .registry import ANY, NOT_DIFFERENTIABLE, NUMBERS, REAL_NUMBERS, define, no_gradient_yet


def _top_k_shape(shapes, attrs):
    shape = shapes[0]
    if shape is None:
        return None
    out = tuple(shape[:-1]) + (attrs["k"],)
    return [out, out]


_TOP_K_INDEX_TYPES = (d.int16, d.int32, d.int64)


def _top_k_index_type(index_type):
    """TopKV2's index_type attribute as a DType: int16, int32 or int64, as TF's op allows."""
    index_type = d.as_dtype(index_type)
    if index_type not in _TOP_K_INDEX_TYPES:
        raise InvalidArgumentError(None, None, f"Value for attr 'index_type' of {index_type.name} is not in the list "
                                               f"of allowed values: int16, int32, int64")
    return index_type


def _top_k_dtype(dtype, attrs):
    return [dtype, _top_k_index_type(attrs.get("index_type", d.int32))]  # values, indices


def _top_k_grad(e, g_values, g_indices=None):
    if g_values is None:
        return [None]
    return [emit("_TopKGrad", (g_values, e.outputs[1], e.inputs[0]), g_values.dtype)]


@define("TopKV2", REAL_NUMBERS, shape=_top_k_shape, grad=_top_k_grad, dtype=_top_k_dtype)
def _top_k(xp, a, k=1, sorted=True, index_type=d.int32):  # noqa: A002 - TensorFlow's attribute name
    """The k largest values along the last axis (ties: lower index first) and their indices (index_type). With
    sorted=False TF leaves the order unspecified; these come sorted, which is one such order."""
    if k < 0:
        raise InvalidArgumentError(None, None, f"Need k >= 0, got {k}")
    if a.ndim < 1:
        raise InvalidArgumentError(None, None, f"input must be >= 1-D, got shape [{','.join(map(str, a.shape))}]")
    if k > a.shape[-1]:
        raise InvalidArgumentError(None, None, f"input must have at least k columns. Had {a.shape[-1]}, needed {k}")
    order = xp.argsort(_descending_key(xp, a), axis=-1, kind="stable")[..., :k]
    return xp.take_along_axis(a, order, axis=-1), order.astype(_top_k_index_type(index_type).numpy_dtype)


def _descending_key(xp, a):
    """A key whose ascending order is `a`'s descending order (NaN first, as TF ranks NaN highest)."""
    if a.dtype.kind == "u":
        return xp.iinfo(a.dtype).max - a
    if a.dtype.kind == "i":
        return -(a.astype(np.int64)) if a.dtype.itemsize < 8 else ~a
    return xp.where(xp.isnan(a), -np.inf, -a)


def _top_k_grad_grad(e, g):
    """_TopKGrad scatters its upstream back: its gradient gathers the same positions (per last-axis row)."""
    indices = e.inputs[1]
    batch_dims = len(shape_of(indices)) - 1
    return [emit("_BatchGather", (g, indices), g.dtype, {"batch_dims": batch_dims}) if batch_dims else
            emit("GatherV2", (g, indices), g.dtype, {"axis": 0}), None, None]


@define("_TopKGrad", NUMBERS, shape=lambda shapes, attrs: shapes[2], grad=_top_k_grad_grad, shape_only_inputs=(2,))
def _top_k_backward(xp, grad, indices, like):
    """TopKV2's gradient: each value's gradient put back at the position it was taken from."""
    out = xp.zeros(like.shape, grad.dtype)
    xp.put_along_axis(out, indices.astype(np.int64), grad, axis=-1)
    return out


# -- segments ------------------------------------------------------------------------------------------------

def _segment_shape(shapes, attrs):
    data, ids = shapes
    if data is None or ids is None:
        return None
    return (attrs["num_segments"],) + tuple(data[len(ids):])


def _check_ids(xp, ids, count: int) -> None:
    if xp is np and ids.size and ids.max() >= count:
        bad = int(ids.max())
        raise InvalidArgumentError(None, None, f"segment_ids[{int(np.argmax(ids >= count))}] = {bad} is out of range "
                                               f"[0, {count})")


def _segment_sum_grad(e, g):
    return [emit("GatherV2", (g, e.inputs[1]), g.dtype, {"axis": 0}), None]


@define("UnsortedSegmentSum", NUMBERS, shape=_segment_shape, grad=_segment_sum_grad)
def _unsorted_segment_sum(xp, data, segment_ids, num_segments=0):
    """Sums of the rows of `data` with the same id; ids < 0 are dropped, as in TF."""
    _check_ids(xp, segment_ids, num_segments)
    out = xp.zeros((num_segments,) + data.shape[segment_ids.ndim:], data.dtype)
    keep = segment_ids >= 0
    _scatter_add(xp, out, segment_ids[keep], data[keep])
    return out


def _segment_max_grad(e, g):  # max and min alike: shared equally by the rows that equal the result
    data, ids = e.inputs
    chosen = emit("GatherV2", (e.outputs[0], ids), data.dtype, {"axis": 0})
    selected = emit("Equal", (data, chosen))
    ones = emit("SelectV2", (selected, zeros_like(data) + 1.0, zeros_like(data)))
    counts = emit("UnsortedSegmentSum", (ones, ids), data.dtype, {"num_segments": e.attrs["num_segments"]})
    share = emit("GatherV2", (g / counts, ids), data.dtype, {"axis": 0})
    return [where(selected, share, zeros_like(data)), None]


def _segment_reduction(kind: str):
    """The kernel of UnsortedSegment<Max|Min|Prod>: an empty segment is the reduction's identity (for max
    and min the dtype's finite lowest / highest value, as in TF)."""
    def kernel(xp, data, segment_ids, num_segments=0):
        _check_ids(xp, segment_ids, num_segments)
        info = np.finfo(data.dtype) if data.dtype.kind == "f" else np.iinfo(data.dtype)
        identity = {"max": info.min, "min": info.max, "prod": 1}[kind]
        out = xp.full((num_segments,) + data.shape[segment_ids.ndim:], identity, data.dtype)
        keep = segment_ids >= 0
        if xp is np:
            {"max": np.maximum, "min": np.minimum, "prod": np.multiply}[kind].at(out, segment_ids[keep], data[keep])
            return out
        # CuPy: its float64 atomicMax/atomicMin compare through fmaxf/fminf (float32), and scatter_max/min
        # refuse int8/int16/int64/uint8/uint16/float16; uint64 keys in the values' order are exact for all.
        keys = _ordered_keys(xp, out)
        getattr(xp, {"max": "maximum", "min": "minimum"}[kind]).at(keys, segment_ids[keep],
                                                                   _ordered_keys(xp, data[keep]))
        return _from_ordered_keys(xp, keys, out.dtype)
    return kernel


_SIGN_BIT = np.uint64(1 << 63)


def _ordered_keys(xp, values):
    """uint64 keys whose unsigned order is the order of `values` (floats through float64, whose sign bit
    flips a positive value's key above every negative one's and reverses the negatives' order)."""
    if values.dtype.kind == "f":
        bits = values.astype(xp.float64).view(xp.uint64)
        return xp.where(bits >= _SIGN_BIT, ~bits, bits | _SIGN_BIT)
    if values.dtype.kind == "u":
        return values.astype(xp.uint64)
    return values.astype(xp.int64).view(xp.uint64) ^ _SIGN_BIT


def _from_ordered_keys(xp, keys, dtype):
    """The values of `_ordered_keys`' keys, as `dtype`."""
    if dtype.kind == "f":
        bits = xp.where(keys >= _SIGN_BIT, keys ^ _SIGN_BIT, ~keys)
        return bits.view(xp.float64).astype(dtype)
    if dtype.kind == "u":
        return keys.astype(dtype)
    return (keys ^ _SIGN_BIT).view(xp.int64).astype(dtype)


define("UnsortedSegmentMax", REAL_NUMBERS, shape=_segment_shape, grad=_segment_max_grad)(_segment_reduction("max"))
define("UnsortedSegmentMin", REAL_NUMBERS, shape=_segment_shape, grad=_segment_max_grad)(_segment_reduction("min"))
define("UnsortedSegmentProd", NUMBERS, gpu=(), shape=_segment_shape,
       grad=no_gradient_yet("UnsortedSegmentProd"))(_segment_reduction("prod"))


def _scatter_add(xp, out, index, values) -> None:
    if xp is np:
        np.add.at(out, index, values)
    else:
        import cupyx
        cupyx.scatter_add(out, index, values)



@define("Unique", ANY, shape=lambda shapes, attrs: [(None,), None if shapes[0] is None else tuple(shapes[0])],
        grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: [dtype, attrs.get("out_idx", d.int32)])
def _unique(xp, a, out_idx=d.int32):
    """(the distinct values in order of first appearance, each element's index into them) (Unique)."""
    if a.ndim != 1:
        raise InvalidArgumentError(None, None, f"unique expects a 1D vector. [Op:Unique] (got shape {list(a.shape)})")
    host = a.get() if hasattr(a, "get") else a
    # NaN != NaN: each NaN is a value of its own, as in TF's hash map (NumPy's default merges them)
    kwargs = {"equal_nan": False} if host.dtype.kind in "fc" else {}
    _, first, inverse = np.unique(host, return_index=True, return_inverse=True, **kwargs)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return xp.asarray(host[np.sort(first)]), xp.asarray(rank[inverse.reshape(-1)].astype(out_idx.numpy_dtype))
