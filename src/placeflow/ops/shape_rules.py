"""Static shape rules that op definitions name: f(input_shapes, attrs) -> output shape.

A shape is a tuple whose unknown dimensions are None, or None when even the rank is unknown. A rule
returns a list of shapes for an op with several outputs. Rules never raise on inconsistent inputs:
`infer` reads such a clash as unknown and leaves it to the kernel to report when the op runs.
"""

from __future__ import annotations

import numpy as np


class Incompatible(ValueError):
    """Known input shapes an op cannot take (graph construction raises it as TensorFlow's ValueError)."""


def infer(definition, shapes: list, attrs: dict, dtype) -> tuple:
    """([(dtype, shape)] of the outputs of an op of `definition` given its inputs' `shapes` and `dtype`,
    whether the op has several outputs). A dtype rule may give one dtype per output, as a list."""
    attrs = attrs or {}
    out_dtype = definition.dtype(dtype, attrs)
    try:
        result = definition.shape(shapes, attrs)
    except Incompatible:
        raise
    except (IndexError, ValueError, TypeError, KeyError, ZeroDivisionError):
        result = None
    if isinstance(result, list):
        dtypes = out_dtype if isinstance(out_dtype, (list, tuple)) else [out_dtype] * len(result)
        return list(zip(dtypes, result)), True
    return [(out_dtype, result)], False


def same(shapes, attrs):
    """The first input's shape (elementwise unary ops, identity-like ops)."""
    return shapes[0] if shapes else None


def broadcast(shapes, attrs=None):
    """NumPy's broadcast of every input's shape."""
    if any(s is None for s in shapes):
        return None
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(rank):
        dims = [s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0]
        known = [dim for dim in dims if dim is not None and dim != 1]
        if len(set(known)) > 1:
            raise Incompatible(f"Dimensions must be equal, but are {known[0]} and {known[1]}")
        out.append(known[0] if known else (None if None in dims else 1))
    return tuple(out)


def square_matrices(shapes, attrs=None):
    """The input's shape, a batch of square matrices: rank 2 or more, its last two dimensions equal (MatrixInverse,
    MatrixSquareRoot, MatrixLogarithm); TF's shape function rejects anything else while the graph is built."""
    shape = shapes[0] if shapes else None
    if shape is None:
        return None
    if len(shape) < 2:
        raise Incompatible(f"Shape must be at least rank 2 but is rank {len(shape)}")
    rows, cols = shape[-2], shape[-1]
    if rows is not None and cols is not None and rows != cols:
        raise Incompatible(f"Dimensions must be equal, but are {rows} and {cols}")
    return shape


def same_shapes(shapes, attrs=None):
    """Every input's shape, which must agree (AddN)."""
    if any(s is None for s in shapes):
        return None
    first = shapes[0]
    for shape in shapes[1:]:
        for i, (a, b) in enumerate(zip(first, shape)):
            if a is not None and b is not None and a != b:
                raise Incompatible(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                                   f"{shape_text(first)} and {shape_text(shape)}.")
    return broadcast(shapes)


def shape_text(shape) -> str:
    """A shape as TensorFlow prints it in shape errors: [2,?,3]."""
    return "[" + ",".join("?" if dim is None else str(dim) for dim in shape) + "]"


def scalar(shapes, attrs):
    """A scalar output."""
    return ()


def from_shape_attr(shapes, attrs):
    """The `shape` attribute (Fill, random ops, placeholders, variables)."""
    shape = attrs.get("shape")
    return None if shape is None else tuple(shape)


def matmul(shapes, attrs):
    """[..., m, k] x [..., k, n] -> [..., m, n], with transposes and batch broadcasting."""
    a, b = shapes
    for shape in (a, b):
        if shape is not None and len(shape) < 2:
            raise Incompatible(f"Shape must be rank 2 but is rank {len(shape)}")
    if a is None or b is None:
        return None
    rows = a[-1] if attrs.get("transpose_a") else a[-2]
    cols = b[-2] if attrs.get("transpose_b") else b[-1]
    inner_a = a[-2] if attrs.get("transpose_a") else a[-1]
    inner_b = b[-1] if attrs.get("transpose_b") else b[-2]
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        raise Incompatible(f"Dimensions must be equal, but are {inner_a} and {inner_b}")
    batch = broadcast([a[:-2], b[:-2]]) or ()
    return tuple(batch) + (rows, cols)


def reduce(shapes, attrs):
    """The input without (or with size 1 at, when keepdims) the `axis` dimensions (all when None)."""
    shape = shapes[0]
    axis = attrs.get("axis")
    if shape is None:
        return () if axis is None and not attrs.get("keepdims") else None
    for a in () if axis is None else np.atleast_1d(axis):
        if not -len(shape) <= a < len(shape):
            raise Incompatible(f"Invalid reduction dimension {a} for input with {len(shape)} dimensions.")
    axes = range(len(shape)) if axis is None else [a % len(shape) for a in np.atleast_1d(axis)]
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else dim for i, dim in enumerate(shape))
    return tuple(dim for i, dim in enumerate(shape) if i not in axes)


def arg_reduce(shapes, attrs):
    """The input without dimension `axis` (ArgMax, ArgMin)."""
    shape = shapes[0]
    if shape is None:
        return None
    axis, rank = attrs.get("axis", 0), len(shape)
    if rank and not -rank <= axis < rank:
        raise Incompatible(f"Dimension ({axis}) must be in the range [{-rank}, {rank}), where {rank} is the number "
                           "of dimensions in the input.")
    axis %= max(rank, 1)
    return tuple(dim for i, dim in enumerate(shape) if i != axis)


def reshape(shapes, attrs):
    """The `shape` attribute with a -1 resolved when the input's size is known."""
    target = list(attrs["shape"])
    known = shapes[0] is not None and None not in shapes[0]
    total = int(np.prod(shapes[0])) if known else None
    if -1 in target:
        rest = int(np.prod([dim for dim in target if dim != -1]))
        if known and rest and total % rest:
            raise Incompatible(f"Dimension size must be evenly divisible by {rest} but is {total}")
        target[target.index(-1)] = total // rest if known and rest else None
    elif known and total != int(np.prod(target)):
        raise Incompatible(f"Cannot reshape a tensor with {total} elements to shape {shape_text(target)} "
                           f"({int(np.prod(target))} elements)")
    return tuple(target)


def transpose(shapes, attrs):
    """The input's dimensions permuted by `perm` (reversed when None)."""
    shape, perm = shapes[0], attrs.get("perm")
    if perm is not None:
        rank = len(perm) if shape is None else len(shape)
        for p in perm:
            if not -rank <= p < rank:
                raise Incompatible(f"perm dim {p} is out of range of input rank {rank}")
    if shape is None:
        return None
    return tuple(reversed(shape)) if perm is None else tuple(shape[p] for p in perm)


def concat(shapes, attrs):
    """The inputs joined along `axis`."""
    if any(s is None for s in shapes):
        return None
    rank, axis = len(shapes[0]), attrs["axis"]
    if not -rank <= axis < rank:
        raise Incompatible(f"Shape must be at least rank {axis + 1 if axis >= 0 else -axis} but is rank {rank}")
    axis %= rank
    others = [tuple(dim for i, dim in enumerate(s) if i != axis) for s in shapes]
    for shape in shapes[1:]:
        if len(shape) != rank:
            raise Incompatible(f"Shape must be rank {rank} but is rank {len(shape)}")
    same_shapes(others)
    sizes = [s[axis] for s in shapes]
    out = list(shapes[0])
    out[axis] = None if None in sizes else sum(sizes)
    return tuple(out)


def pack(shapes, attrs):
    """The inputs stacked along a new dimension `axis`."""
    if shapes[0] is None:
        return None
    known = [s for s in shapes if s is not None]
    if len({len(s) for s in known}) > 1:
        raise Incompatible(f"Shapes must be equal rank, but are {len(known[0])} and "
                           f"{next(len(s) for s in known if len(s) != len(known[0]))}")
    same_shapes(known)
    out = list(shapes[0])
    axis = attrs.get("axis", 0)
    out.insert(axis if axis >= 0 else len(out) + 1 + axis, len(shapes))
    return tuple(out)


def expand_dims(shapes, attrs):
    """The input with a dimension of size 1 inserted at `axis`."""
    if shapes[0] is None:
        return None
    out = list(shapes[0])
    axis = attrs["axis"]
    if not -len(out) - 1 <= axis <= len(out):
        raise Incompatible(f"dim {axis} not in the interval [{-len(out) - 1}, {len(out)}].")
    out.insert(axis if axis >= 0 else len(out) + 1 + axis, 1)
    return tuple(out)


def squeeze(shapes, attrs):
    """The input without its size-1 dimensions (only those in `axis`, when given)."""
    shape = shapes[0]
    axis = attrs.get("axis")
    if shape is None:
        return None
    if axis is None:
        return None if None in shape else tuple(dim for dim in shape if dim != 1)
    for i, a in enumerate(np.atleast_1d(axis)):
        if not -len(shape) <= a < len(shape):
            raise Incompatible(f"squeeze_dims[{i}] not in [{-len(shape)},{len(shape)}).")
    axes = {a % len(shape) for a in np.atleast_1d(axis)}
    for a in sorted(axes):
        if shape[a] is not None and shape[a] != 1:
            raise Incompatible(f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}")
    return tuple(dim for i, dim in enumerate(shape) if i not in axes)


def tile(shapes, attrs):
    """Each dimension times its multiple."""
    shape, multiples = shapes[0], attrs["multiples"]
    if shape is not None and len(shape) != len(multiples):
        raise Incompatible(f"Expected multiples argument to be a vector of length {len(shape)} but got length "
                           f"{len(multiples)}")
    if shape is None:
        return None
    return tuple(None if dim is None else dim * int(m) for dim, m in zip(shape, multiples))


def split(shapes, attrs):
    """One shape per part: equal parts (`num_or_sizes` an int) or parts of the given sizes (one may be -1)."""
    parts, axis, shape = attrs["num_or_sizes"], attrs["axis"], shapes[0]
    count = parts if isinstance(parts, int) else len(parts)
    if shape is None or not -len(shape) <= axis < len(shape):
        return [None] * count
    size = shape[axis]
    if isinstance(parts, int):
        if size is not None and size % parts:
            raise Incompatible(f"Dimension size must be evenly divisible by {parts} but is {size}")
        sizes = [None if size is None else size // parts] * parts
    elif size is None:
        sizes = [None if s == -1 else s for s in parts]
    else:
        sizes = resolved_split_sizes(parts, size)
        if sum(sizes) != size or min(sizes, default=0) < 0:
            raise Incompatible(f"can't split axis of size {size} into pieces of size {shape_text(parts)}")
    return [tuple(part if i == axis % len(shape) else dim for i, dim in enumerate(shape)) for part in sizes]


def resolved_split_sizes(sizes, total: int) -> list:
    """`sizes` with its -1 (if any) replaced by what the others leave of `total`."""
    if -1 not in sizes:
        return list(sizes)
    rest = total - sum(s for s in sizes if s != -1)
    return [rest if s == -1 else s for s in sizes]


def shape_vector(shapes, attrs):
    """A vector with one entry per input dimension (Shape)."""
    return (None if shapes[0] is None else len(shapes[0]),)


def where_indices(shapes, attrs):
    """[number of true elements, rank] (Where with only a condition)."""
    return (None, None if shapes[0] is None else len(shapes[0]))


def bias_add(shapes, attrs):
    """The value's shape; the bias must match its last (channel) dimension."""
    value, bias = shapes
    if value is not None and bias is not None and len(bias) == 1 and value:
        channels = value[-1]
        if channels is not None and bias[0] is not None and channels != bias[0]:
            raise Incompatible(f"Dimensions must be equal, but are {channels} and {bias[0]}")
    return value


def second_input(shapes, attrs):
    """The second input's shape (_ReduceGrad takes its output shape from its `like` input)."""
    return shapes[1]


def softmax_xent(shapes, attrs):
    """(per-example loss, backprop) of the fused softmax cross-entropy ops."""
    logits, labels = shapes[0], shapes[1] if len(shapes) > 1 else None
    if logits is not None and labels is not None and len(logits) == len(labels):
        for mine, theirs in zip(labels, logits):
            if mine is not None and theirs is not None and mine != theirs:
                raise Incompatible(f"Dimensions must be equal, but are {mine} and {theirs}")
    return [None if logits is None else tuple(logits[:-1]), logits]


def sparse_softmax_xent(shapes, attrs):
    """The fused op takes [examples, classes] logits and [examples] labels, as TensorFlow's kernel does."""
    logits, labels = shapes[0], shapes[1]
    if logits is not None and len(logits) != 2:
        raise Incompatible(f"logits must be 2-D, but got shape [{','.join(str(d) for d in logits)}]")
    if labels is not None and len(labels) != 1:
        raise Incompatible(f"labels must be 1-D, but got shape [{','.join(str(d) for d in labels)}]")
    return softmax_xent(shapes, attrs)


def one_hot(shapes, attrs):
    """The indices' shape with `depth` inserted at `axis`."""
    if int(attrs["depth"]) < 0:
        raise Incompatible(f"Dimension size, given by scalar input 1, must be non-negative but is {attrs['depth']}")
    if shapes[0] is None:
        return None
    out = list(shapes[0])
    axis = attrs.get("axis", -1)
    out.insert(len(out) if axis == -1 else axis, int(attrs["depth"]))
    return tuple(out)


def eye(shapes, attrs):
    """[num_rows, num_columns]."""
    return (int(attrs["num_rows"]), int(attrs["num_columns"]))


def range_length(shapes, attrs):
    """The number of values of start, start + delta, ... below limit."""
    start, limit, delta = attrs["start"], attrs["limit"], attrs["delta"]
    if delta == 0 or (delta > 0 and start > limit) or (delta < 0 and start < limit):
        relation = "delta != 0" if delta == 0 else "start <= limit when delta > 0" if delta > 0 else \
            "start >= limit when delta < 0"
        raise Incompatible(f"Requires {relation}: {start}/{limit}")
    return (max(0, int(np.ceil((limit - start) / delta))),)


def by_evaluation(kernel_fn):
    """A rule that runs the kernel on small zero arrays (unknown dimensions as 1); for slicing ops,
    whose output shape is easiest to learn from NumPy itself."""
    def rule(shapes, attrs):
        if any(s is None for s in shapes):
            return None
        arrays = [np.zeros(tuple(1 if dim is None else dim for dim in s), dtype=np.float32) for s in shapes]
        if sum(a.size for a in arrays) > 1 << 20:
            return None
        try:
            result = kernel_fn(np, *arrays, **attrs)
        except Exception:  # noqa: BLE001 - a shape we cannot infer statically is simply unknown
            return None
        if any(None in s for s in shapes):
            return tuple(None for _ in np.shape(result))
        return tuple(np.shape(result))
    return rule
