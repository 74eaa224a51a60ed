"""tf.map_fn and tf.vectorized_map: `fn` applied to each slice of `elems` along their first dimension, the
results stacked. Eagerly each slice runs in turn; while a graph is built the slices are unrolled, so the
first dimension must be known then (a length known only when the graph runs is refused by name)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..framework import nest
from . import array_ops, indexing


def _length(leaves) -> int:
    lengths = {leaf.shape[0] if leaf.shape is not None and len(leaf.shape) else None for leaf in leaves}
    if None in lengths:
        raise NotImplementedError("tf.map_fn / tf.vectorized_map over a first dimension known only when the graph "
                                  "runs is not implemented in placeflow: give the elements a static first "
                                  "dimension (or use tf.while_loop with a TensorArray).")
    if len(lengths) != 1:
        raise ValueError(f"The elements of map_fn must have the same first dimension; got {sorted(lengths)}.")
    return int(lengths.pop())


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """fn(slice) for each slice of `elems` along axis 0, stacked into the result's structure. `dtype` /
    `fn_output_signature` are checked against what fn returns; parallel_iterations, swap_memory and
    infer_shape are scheduling and memory hints (slices run in order here)."""
    from . import math_ops
    leaves = [convert_to_tensor(leaf) for leaf in nest.flatten(elems)]
    count = _length(leaves)
    slices = [[indexing.gather(leaf, i) for leaf in leaves] for i in range(count)]
    results = [fn(nest.pack_sequence_as(elems, parts)) for parts in slices]
    if not results:
        raise NotImplementedError("tf.map_fn over zero elements is not implemented in placeflow (the result's "
                                  "shape would come from fn_output_signature).")
    stacked = [array_ops.stack([convert_to_tensor(r) for r in column]) for column in
               zip(*[nest.flatten(result) for result in results])]
    _check_signature(fn_output_signature if fn_output_signature is not None else dtype, stacked)
    if not back_prop:
        stacked = [math_ops.stop_gradient(s) for s in stacked]
    return nest.pack_sequence_as(results[0], stacked)


def _check_signature(signature, stacked) -> None:
    if signature is None:
        return
    from ..framework import dtypes
    expected = [getattr(s, "dtype", s) for s in nest.flatten(signature)]
    got = [t.dtype for t in stacked]
    if len(expected) != len(got) or any(dtypes.as_dtype(e) != g for e, g in zip(expected, got)):
        raise TypeError(f"map_fn: fn returned dtypes {[g.name for g in got]}, but fn_output_signature/dtype says "
                        f"{[dtypes.as_dtype(e).name for e in expected]}.")


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """map_fn's results (placeflow does not vectorize: it applies fn slice by slice, with the same values)."""
    return map_fn(fn, elems)
