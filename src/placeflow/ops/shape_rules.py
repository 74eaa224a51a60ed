"""Static shape rules that op definitions name: f(input_shapes, attrs) -> output shape.

A shape is a tuple whose unknown dimensions are None, or None when even the rank is unknown. A rule
returns a list of shapes for an op with several outputs. Rules never raise on inconsistent inputs:
`infer` reads such a clash as unknown and leaves it to the kernel to report when the op runs.
"""

from __future__ import annotations

import numpy as np


def infer(definition, shapes: list, attrs: dict, dtype) -> tuple:
    """([(dtype, shape)] of the outputs of an op of `definition` given its inputs' `shapes` and `dtype`,
    whether the op has several outputs). A dtype rule may give one dtype per output, as a list."""
    attrs = attrs or {}
    out_dtype = definition.dtype(dtype, attrs)
    try:
        result = definition.shape(shapes, attrs)
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
        out.append(known[0] if known else (None if None in dims else 1))
    return tuple(out)


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
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    rows = a[-1] if attrs.get("transpose_a") else a[-2]
    cols = b[-2] if attrs.get("transpose_b") else b[-1]
    batch = broadcast([a[:-2], b[:-2]]) or ()
    return tuple(batch) + (rows, cols)


def reduce(shapes, attrs):
    """The input without (or with size 1 at, when keepdims) the `axis` dimensions (all when None)."""
    shape = shapes[0]
    axis = attrs.get("axis")
    if shape is None:
        return () if axis is None and not attrs.get("keepdims") else None
    axes = range(len(shape)) if axis is None else [a % len(shape) for a in np.atleast_1d(axis)]
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else dim for i, dim in enumerate(shape))
    return tuple(dim for i, dim in enumerate(shape) if i not in axes)


def arg_reduce(shapes, attrs):
    """The input without dimension `axis` (ArgMax, ArgMin)."""
    shape = shapes[0]
    if shape is None:
        return None
    axis = attrs.get("axis", 0) % max(len(shape), 1)
    return tuple(dim for i, dim in enumerate(shape) if i != axis)


def reshape(shapes, attrs):
    """The `shape` attribute with a -1 resolved when the input's size is known."""
    target = list(attrs["shape"])
    if -1 in target:
        known = shapes[0] is not None and None not in shapes[0]
        rest = int(np.prod([dim for dim in target if dim != -1]))
        total = int(np.prod(shapes[0])) if known else None
        target[target.index(-1)] = total // rest if known and rest else None
    return tuple(target)


def transpose(shapes, attrs):
    """The input's dimensions permuted by `perm` (reversed when None)."""
    shape = shapes[0]
    if shape is None:
        return None
    perm = attrs.get("perm")
    return tuple(reversed(shape)) if perm is None else tuple(shape[p] for p in perm)


def concat(shapes, attrs):
    """The inputs joined along `axis`."""
    if any(s is None for s in shapes):
        return None
    axis = attrs["axis"] % len(shapes[0])
    sizes = [s[axis] for s in shapes]
    out = list(shapes[0])
    out[axis] = None if None in sizes else sum(sizes)
    return tuple(out)


def pack(shapes, attrs):
    """The inputs stacked along a new dimension `axis`."""
    if shapes[0] is None:
        return None
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
        return None
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
    axes = {a % len(shape) for a in np.atleast_1d(axis)}
    return tuple(dim for i, dim in enumerate(shape) if i not in axes)


def tile(shapes, attrs):
    """Each dimension times its multiple."""
    shape, multiples = shapes[0], attrs["multiples"]
    if shape is None or len(shape) != len(multiples):
        return None
    return tuple(None if dim is None else dim * int(m) for dim, m in zip(shape, multiples))


def split(shapes, attrs):
    """One shape per part: equal parts (`num_or_sections` an int) or cut at the given offsets."""
    sections, axis, shape = attrs["num_or_sections"], attrs["axis"], shapes[0]
    count = sections if isinstance(sections, int) else len(sections) + 1
    if shape is None or not -len(shape) <= axis < len(shape):
        return [None] * count
    if isinstance(sections, int):
        sizes = [None if shape[axis] is None else shape[axis] // sections] * sections
    else:
        bounds = [0, *sections, shape[axis]]
        sizes = [None if b is None else b - a for a, b in zip(bounds, bounds[1:])]
    return [tuple(size if i == axis % len(shape) else dim for i, dim in enumerate(shape)) for size in sizes]


def shape_vector(shapes, attrs):
    """A vector with one entry per input dimension (Shape)."""
    return (None if shapes[0] is None else len(shapes[0]),)


def where_indices(shapes, attrs):
    """[number of true elements, rank] (Where with only a condition)."""
    return (None, None if shapes[0] is None else len(shapes[0]))


def second_input(shapes, attrs):
    """The second input's shape (_ReduceGrad takes its output shape from its `like` input)."""
    return shapes[1]


def softmax_xent(shapes, attrs):
    """(per-example loss, backprop) of the fused softmax cross-entropy ops."""
    logits = shapes[0]
    return [None if logits is None else tuple(logits[:-1]), logits]


def one_hot(shapes, attrs):
    """The indices' shape with `depth` inserted at `axis`."""
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
