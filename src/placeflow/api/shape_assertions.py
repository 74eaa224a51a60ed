"""tf.debugging.assert_shapes: shapes and the relations between their sizes ('N' the same wherever it appears),
checked statically where the sizes are known (ValueError, TF's texts) and by an Assert op in a graph where a
size is known only when it runs (InvalidArgumentError then)."""

from __future__ import annotations

import numbers

from ..eager.convert import convert_to_tensor
from ..framework import graph_mode
from .assertions import _described, _guarded_assert, _name_of, _prefix, _rank


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Check every (tensor, shape) pair: an int is an exact size, None or '.' any size, any other entry a
    symbol whose size must agree everywhere; a leading '*' or ... lets the tensor have more outer dimensions."""
    if data is not None:
        raise NotImplementedError("assert_shapes(data=...) is not implemented in placeflow; the default data "
                                  "(the sizes that disagree) is given.")
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    prefix = _prefix(message)
    known: dict = {}        # symbol -> (size, "by tensor <x> dimension <i>")
    dynamic: list = []      # checks needing run-time sizes: (tensor, dimension, expected, origin)
    for tensor, spec in pairs:
        tensor = convert_to_tensor(tensor)
        outer_free, sizes = _parse(spec)
        dims = _checked_rank(tensor, outer_free, sizes, prefix)
        for position, entry in enumerate(sizes):
            _check_size(tensor, dims - len(sizes) + position, entry, known, dynamic, prefix)
    if dynamic and graph_mode.active() is not None:
        return _run_time_checks(dynamic, message, summarize)
    return None  # TF: nothing to run once every size was checked statically (also in a graph)


def _parse(spec):
    entries = list(spec)
    outer_free = bool(entries) and (entries[0] is Ellipsis or entries[0] == "*")
    sizes = entries[1:] if outer_free else entries
    if not sizes and not outer_free:
        sizes = [1]  # TF: a scalar shape and a scalar tensor both count as one dimension of size one
    return outer_free, sizes


def _checked_rank(tensor, outer_free, sizes, prefix) -> int:
    rank = _rank(tensor)
    if rank is None:
        raise NotImplementedError("assert_shapes of a tensor of unknown rank is not implemented in placeflow; give "
                                  "the tensor a known rank.")
    shown = tuple(tensor.shape)
    effective = max(rank, 1) if not outer_free else rank
    if outer_free and rank < len(sizes):
        raise ValueError(f"{prefix}Tensor {_name_of(tensor)} must have rank at least {len(sizes)}.  Received rank "
                         f"{rank}, shape {shown}")
    if not outer_free and effective != len(sizes):
        raise ValueError(f"{prefix}Tensor {_name_of(tensor)} must have rank {len(sizes)}.  Received rank {rank}, "
                         f"shape {shown}")
    return effective


def _check_size(tensor, dim, entry, known, dynamic, prefix):
    if entry is None or entry == ".":
        return
    shape = tuple(tensor.shape) if tuple(tensor.shape) else (1,)
    actual = shape[dim]
    if isinstance(entry, numbers.Integral):
        expected, origin = int(entry), "explicitly"
    elif entry in known:
        expected, origin = known[entry]
    else:
        known[entry] = (actual if actual is not None else (tensor, dim), f"by tensor {_described(tensor)} dimension "
                                                                           f"{dim}")
        return
    if actual is None or not isinstance(expected, int):
        dynamic.append((tensor, dim, expected, origin))
        return
    if actual != expected:
        raise ValueError(f"{prefix}Specified {origin}.  Tensor {_described(tensor)} dimension {dim} must have size "
                         f"{expected}.  Received size {actual}, shape {tuple(tensor.shape)}")


def _run_time_checks(dynamic, message, summarize):
    """One Assert per size known only when the graph runs (data as TF's: the origin, the size, the shape)."""
    from .array_ops import shape as shape_of
    from .math_ops import equal
    from ..graph.v1_api import name_scope
    checks = []
    with name_scope("assert_shapes"):
        for tensor, dim, expected, origin in dynamic:
            size = expected if isinstance(expected, int) else shape_of(expected[0])[expected[1]]
            actual = shape_of(tensor)[dim]
            data = [message or "", f"Specified {origin}", f"Tensor {tensor.name} dimension", dim, "must have size",
                    size, "Received shape: ", shape_of(tensor)]
            checks.append(_guarded_assert(equal(actual, size), data, 3 if summarize is None else summarize))
    return checks[0] if len(checks) == 1 else checks
