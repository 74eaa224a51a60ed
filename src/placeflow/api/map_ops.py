"""tf.map_fn, tf.vectorized_map, tf.scan, tf.foldl and tf.foldr: `fn` applied to each slice of `elems` along their first dimension, the
results stacked. Eagerly each slice runs in turn; while a graph is built the slices are unrolled, so the
first dimension must be known then (a length known only when the graph runs is refused by name).

map_fn also maps over RaggedTensors (each slice is a row: a tensor, or a RaggedTensor when more ragged
dimensions follow) and SparseTensors (each slice a SparseTensor of one dimension fewer), and stacks results
that fn_output_signature describes as RaggedTensorSpec or SparseTensorSpec into a RaggedTensor (one more
ragged dimension) or a SparseTensor, as TF does; without a signature a ragged or sparse `elems` part gives its
row's spec, as TF's default."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..framework import nest
from . import array_ops, indexing


def _length(leaves) -> int:
    lengths = {leaf.shape[0] if leaf.shape is not None and len(leaf.shape) else None for leaf in leaves}
    if None in lengths:
        raise NotImplementedError("tf.map_fn, tf.scan, tf.foldl, tf.foldr and tf.vectorized_map over a first "
                                  "dimension known only when the graph runs are not implemented in placeflow: give "
                                  "the elements a static first dimension (or use tf.while_loop with a TensorArray).")
    if len(lengths) != 1:
        raise ValueError(f"The elements must have the same first dimension; got {sorted(lengths)}.")
    return int(lengths.pop())


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None, _results_like_elems=True):
    """fn(slice) for each slice of `elems` along axis 0, stacked into the result's structure. `dtype` /
    `fn_output_signature` are checked against what fn returns; parallel_iterations, swap_memory and
    infer_shape are scheduling and memory hints (slices run in order here)."""
    from . import map_composite, math_ops
    leaves = [leaf if map_composite.is_composite(leaf) else convert_to_tensor(leaf) for leaf in nest.flatten(elems)]
    if not leaves:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. Got {elems!r}, which "
                         "does not contain any Tensors.")
    if any(leaf.shape is not None and len(leaf.shape) == 0 for leaf in leaves):
        raise ValueError(f"Elements in elems must be 1+ dimensional Tensors, not scalars; got {elems!r} (map_fn "
                         "maps over the first dimension: give a vector, or a structure of tensors of rank >= 1)")
    count = _length(leaves)
    columns = [map_composite.rows(leaf, count) if map_composite.is_composite(leaf) else indexing.unstack(leaf, count)
               for leaf in leaves]  # dense gradients, as TF's TensorArray gives
    results = [fn(nest.pack_sequence_as(elems, [column[i] for column in columns])) for i in range(count)]
    signature = fn_output_signature if fn_output_signature is not None else dtype
    if signature is None and any(map_composite.is_composite(leaf) for leaf in leaves):
        signature = nest.pack_sequence_as(elems, [map_composite.row_spec(leaf) for leaf in leaves])
        _results_like_elems = False  # TF's default signature: each part's row spec
        if results:
            nest.assert_same_structure(signature, results[0])
    if not results:
        return _empty_results(signature)
    specs = nest.flatten(signature) if signature is not None and nest.is_nested(signature) else \
        [signature] * len(nest.flatten(results[0]))
    stacked = [map_composite.stack(list(column), spec) for column, spec in
               zip(zip(*[nest.flatten(result) for result in results]), specs)]
    if signature is None and _results_like_elems:  # TF: the results then have the structure of `elems`
        nest.assert_same_structure(elems, results[0])
    if nest.is_nested(signature):
        try:
            nest.assert_same_structure(signature, results[0])
        except (TypeError, ValueError) as error:
            raise TypeError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                            f"{signature!r}\n\nSecond structure: {results[0]!r}\n\nMore specifically: {error} "
                            "(map_fn's fn_output_signature/dtype must have the structure fn returns)") from None
    _check_signature(signature, stacked)
    if not back_prop:
        stacked = [math_ops.stop_gradient(s) for s in stacked]
    return nest.pack_sequence_as(results[0], stacked)


def _empty_results(signature):
    """map_fn over zero elements: empty tensors ([0] + each output's static shape) of fn_output_signature's
    dtypes; without a signature the results' dtypes are unknown (fn never runs), which placeflow refuses."""
    if signature is None:
        raise NotImplementedError("tf.map_fn over zero elements without fn_output_signature (or dtype) is not "
                                  "implemented in placeflow: fn never runs, so give the result's dtype.")
    import numpy as np
    from ..framework import dtypes

    def empty(spec):
        from .map_composite import empty as empty_composite
        composite = empty_composite(spec)
        if composite is not None:
            return composite
        dtype = dtypes.as_dtype(getattr(spec, "dtype", spec))
        shape = getattr(spec, "shape", None)
        inner = tuple(int(d) for d in shape) if shape is not None and None not in tuple(shape) else ()
        host = np.empty((0,) + inner, dtype=object if dtype == dtypes.string else dtype.numpy_dtype)
        return convert_to_tensor(host, dtype=dtype)
    return nest.map_structure(empty, signature)


def _check_signature(signature, stacked) -> None:
    if signature is None:
        return
    from ..framework import dtypes
    expected = [getattr(s, "dtype", s) for s in nest.flatten(signature)]
    expected = [e for e, s in zip(expected, nest.flatten(signature)) if s is not None]
    stacked = [t for t, s in zip(stacked, nest.flatten(signature)) if s is not None]
    got = [t.dtype for t in stacked]
    if len(expected) != len(got) or any(dtypes.as_dtype(e) != g for e, g in zip(expected, got)):
        raise TypeError(f"map_fn: fn returned dtypes {[g.name for g in got]}, but fn_output_signature/dtype says "
                        f"{[dtypes.as_dtype(e).name for e in expected]}.")


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """map_fn's results (placeflow does not vectorize: it applies fn slice by slice, with the same values)."""
    return map_fn(fn, elems, _results_like_elems=False)


def _slices(elems) -> list:
    """[structure of elems' slice i] along axis 0 (the first dimension must be static)."""
    leaves = [convert_to_tensor(leaf) for leaf in nest.flatten(elems)]
    count = _length(leaves)
    columns = [indexing.unstack(leaf, count) for leaf in leaves]
    return [nest.pack_sequence_as(elems, [column[i] for column in columns]) for i in range(count)]


def _accumulate(fn, slices, initializer, reverse: bool) -> tuple:
    """(the accumulator after each slice, in slice order; the last accumulator). Without an initializer the
    first slice visited is the first accumulator."""
    order = list(range(len(slices)))[::-1] if reverse else list(range(len(slices)))
    outputs = {}
    if initializer is None:
        if not order:
            from ..framework import errors
            raise errors.OutOfRangeError(None, None, "Tried to read from index 0 but array size is: 0 ")
        accumulator = outputs[order[0]] = slices[order[0]]
        order = order[1:]
    else:
        accumulator = nest.map_structure(convert_to_tensor, initializer)
    for index in order:
        new = fn(accumulator, slices[index])
        nest.assert_same_structure(accumulator, new)
        accumulator = outputs[index] = nest.map_structure(convert_to_tensor, new)
    return [outputs[i] for i in sorted(outputs)], accumulator


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """fn(acc, slice) over the slices of `elems` from the first; the final accumulator (initializer: the
    first slice when None)."""
    _, accumulator = _accumulate(fn, _slices(elems), initializer, reverse=False)
    return _maybe_stopped(accumulator, back_prop)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """fn(acc, slice) over the slices of `elems` from the last; the final accumulator."""
    _, accumulator = _accumulate(fn, _slices(elems), initializer, reverse=True)
    return _maybe_stopped(accumulator, back_prop)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """Every accumulator of fn(acc, slice) over the slices of `elems`, stacked in the slices' order (with
    `reverse`, accumulated from the last slice). Without an initializer the first slice is the first output."""
    slices = _slices(elems)
    if not slices:
        if initializer is None:
            from ..framework import errors
            raise errors.OutOfRangeError(None, None, "Tried to read from index 0 but array size is: 0 ")
        return nest.map_structure(lambda t: array_ops.zeros_like(array_ops.expand_dims(convert_to_tensor(t), 0)
                                                                  )[:0], initializer)
    outputs, _ = _accumulate(fn, slices, initializer, reverse)
    stacked = [array_ops.stack(list(column)) for column in zip(*[nest.flatten(o) for o in outputs])]
    return _maybe_stopped(nest.pack_sequence_as(outputs[0], stacked), back_prop)


def _maybe_stopped(structure, back_prop: bool):
    if back_prop:
        return structure
    from . import math_ops
    return nest.map_structure(math_ops.stop_gradient, structure)
