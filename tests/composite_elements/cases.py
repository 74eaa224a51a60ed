"""Cases for RaggedTensors of any ragged rank, tf.data elements that are sparse, ragged, datasets or None, and
map_fn over RaggedTensors and SparseTensors: run by TensorFlow 2.21 (record_tf_composite_elements.py) and
placeflow (test_composite_elements.py). Each `case_<name>(tf)` returns JSON-able results: values with dtypes
and shapes, element specs as their repr, errors as [class, first line]."""

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error


def show(x):
    """A value as JSON: tensors by dtype, shape and values; SparseTensors and RaggedTensors by their parts."""
    if x is None:
        return None
    if isinstance(x, (tuple, list)):
        return [show(v) for v in x]
    if hasattr(x, "dense_shape") and hasattr(x, "indices"):
        return {"sparse": [show(x.indices), show(x.values), show(x.dense_shape)]}
    if hasattr(x, "flat_values") and hasattr(x, "nested_row_splits"):
        return {"ragged": _plain(x.to_list()), "ragged_rank": x.ragged_rank, "dtype": x.dtype.name,
                "shape": _dims(x.shape), "splits": [show(s) for s in x.nested_row_splits]}
    if hasattr(x, "numpy"):
        a = np.asarray(x.numpy())
        return {"dtype": x.dtype.name, "shape": list(a.shape), "values": _plain(a.tolist())}
    if isinstance(x, np.ndarray):
        return {"numpy": str(x.dtype), "shape": list(x.shape), "values": _plain(x.tolist())}
    return _plain(x)


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, np.ndarray):
        return _plain(v.tolist())
    if isinstance(v, np.generic):
        return v.item()
    return v


def _dims(shape):
    return None if shape.rank is None else [None if d is None else int(d) for d in shape.as_list()]


def attempt(fn):
    """show(fn()), or the error it raises."""
    try:
        return show(fn())
    except Exception as exc:  # noqa: BLE001 - the class is the recorded result
        return [type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""]


def elements(dataset):
    return [show(e) for e in dataset]


# -- RaggedTensor of any ragged rank -----------------------------------------------------------------------------

def case_ragged_constant_nested(tf):
    lists = [[[1, 2], [3]], [[[1, 2], [3]], [[4]]], [[[1.5, 2], [3]], []], [[b"a", b"bc"], []], [[]], [[], []],
             [[[], []]], [[[[0]], [[1]]], [[[5]]]], [[[1, 2], [3, 4]]]]
    out = {str(i): show(tf.ragged.constant(v)) for i, v in enumerate(lists)}
    out["rr1_inner"] = show(tf.ragged.constant([[[1, 2], [3, 4]], []], ragged_rank=1))
    out["inner_shape"] = show(tf.ragged.constant([[[1, 2], [3, 4]], []], inner_shape=(2,)))
    out["empty_inner"] = show(tf.ragged.constant([[[]], []], ragged_rank=1))
    out["dense"] = [show(tf.ragged.constant(v)) for v in ([1, 2], 5)]
    out["dtypes"] = show(tf.ragged.constant([[[1, 2]], [[3]]], dtype=tf.float64, row_splits_dtype=tf.int32))
    out["repr"] = [repr(tf.ragged.constant(v)) for v in ([[1, 2], [3, 4]], [[[1, 2], [3]], [[4]]],
                                                          [[[[0]], [[1]]], [[[5]]]])]
    return out


def case_ragged_constant_errors(tf):
    bad = [([[1, [2]]], {}), ([[[1, 2], [3]]], {"ragged_rank": 1}), ([[1]], {"ragged_rank": 2}),
           ([[1, 2]], {"ragged_rank": -1}), (5, {"ragged_rank": 1})]
    return [error(lambda v=v, k=k: tf.ragged.constant(v, **k)) for v, k in bad]


def case_ragged_factories_nested(tf):
    rt = tf.ragged.constant([[1], [2, 3], [], [4]])
    return {
        "nested_splits": attempt(lambda: tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4],
                                                                                ([0, 2, 3], [0, 2, 3, 4]))),
        "nested_lengths": attempt(lambda: tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], ([2, 1], [2, 1, 1]))),
        "nested_rowids": attempt(lambda: tf.RaggedTensor.from_nested_value_rowids([1, 2, 3, 4],
                                                                                  ([0, 0, 1], [0, 0, 1, 2]))),
        "nested_rowids_nrows": attempt(lambda: tf.RaggedTensor.from_nested_value_rowids(
            [1, 2, 3, 4], ([0, 0, 1], [0, 0, 1, 2]), (3, 4))),
        "bad_nested_splits": attempt(lambda: tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4],
                                                                                    ([0, 2, 3], [0, 2, 3, 3, 4]))),
        "bad_rowids": attempt(lambda: tf.RaggedTensor.from_nested_value_rowids([1, 2, 3, 4], ([0, 0, 1], [0, 0, 1]))),
        "uniform": attempt(lambda: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2)),
        "uniform_of_ragged": attempt(lambda: tf.RaggedTensor.from_uniform_row_length(rt, 2)),
        "splits_of_ragged": attempt(lambda: tf.RaggedTensor.from_row_splits(rt, [0, 3, 4])),
        "lengths_of_ragged": attempt(lambda: tf.RaggedTensor.from_row_lengths(rt, [1, 3])),
        "starts_of_ragged": attempt(lambda: tf.RaggedTensor.from_row_starts(rt, [0, 1])),
        "limits_of_ragged": attempt(lambda: tf.RaggedTensor.from_row_limits(rt, [1, 4])),
        "bad_splits_of_ragged": attempt(lambda: tf.RaggedTensor.from_row_splits(rt, [0, 3, 5])),
        "tensor_rr2_padding": attempt(lambda: tf.RaggedTensor.from_tensor([[[1, 0], [2, 3]], [[0, 0], [4, 0]]],
                                                                           padding=0, ragged_rank=2)),
        "tensor_rr2": attempt(lambda: tf.RaggedTensor.from_tensor([[[1, 0], [2, 3]], [[0, 0], [4, 0]]], ragged_rank=2)),
        "tensor_rr2_lengths": attempt(lambda: tf.RaggedTensor.from_tensor([[[1, 0], [2, 3]], [[0, 0], [4, 0]]],
                                                                           lengths=[1, 2, 0, 1], ragged_rank=2)),
        "tensor_uniform": attempt(lambda: tf.RaggedTensor.from_tensor([[1, 2], [3, 4]])),
        "tensor_rr3_of_rank3": attempt(lambda: tf.RaggedTensor.from_tensor(tf.zeros([2, 2, 2]), ragged_rank=3)),
        "tensor_rr0": attempt(lambda: tf.RaggedTensor.from_tensor(tf.zeros([2, 2]), ragged_rank=0)),
        "from_sparse": attempt(lambda: tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]],
                                                                                          [1, 2, 3], [3, 4]))),
        "from_sparse_not_ragged_right": attempt(lambda: tf.RaggedTensor.from_sparse(
            tf.sparse.SparseTensor([[0, 1]], [1], [3, 4]))),
    }


def case_ragged_indexing(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], []])
    r1 = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    keys = {"0": lambda: rt[0], "-1": lambda: rt[-1], "1:": lambda: rt[1:], "::2": lambda: rt[::2],
            "5": lambda: rt[5], "0,1": lambda: rt[0, 1], "0,0,1": lambda: rt[0, 0, 1], "r1_0": lambda: r1[0],
            "r1_:,0": lambda: r1[:, 0], "r1_:,1:": lambda: r1[:, 1:], "r1_:,:-1": lambda: r1[:, :-1],
            "r1_1:,::2": lambda: r1[1:, ::2], ":,1:": lambda: rt[:, 1:], ":,:,:1": lambda: rt[:, :, :1],
            "0,:,0": lambda: rt[0, :, 0], "-4": lambda: rt[-4]}
    return {k: attempt(f) for k, f in keys.items()}


def case_ragged_operators(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], []])
    r1 = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    ops = {"add": lambda: rt + 1, "radd": lambda: 1 + rt, "mul": lambda: rt * rt, "neg": lambda: -rt,
           "sub_ragged": lambda: rt - tf.ragged.constant([[[1, 1], [1]], [[1]], []]),
           "broadcast_rows": lambda: r1 + tf.constant([[1], [2], [3]]), "eq": lambda: rt == rt,
           "gt": lambda: rt > 2, "abs": lambda: abs(-rt), "div": lambda: r1 / 2, "floordiv": lambda: r1 // 2,
           "mismatch": lambda: r1 + r1[:, :1], "eq_none": lambda: rt == None,  # noqa: E711 - TF's operator
           "ne_none": lambda: rt != None,  # noqa: E711
           "map_flat_values": lambda: tf.ragged.map_flat_values(tf.multiply, rt, 10),
           "hash": lambda: hash(rt), "bool": lambda: bool(rt)}
    return {k: attempt(f) for k, f in ops.items()}


def case_ragged_with_dense_rows(tf):
    """A ragged-rank-1 RaggedTensor with a dense tensor of the same rank: broadcast rows, uniform rows, and the
    shapes TF refuses (its first line: the failed assertion)."""
    rt = tf.ragged.constant([[1., 2.], [3.]])
    uniform = tf.ragged.constant([[1., 2.], [3., 4.]])
    ops = {"rows_of_one": lambda: rt + tf.constant([[10.], [20.]]), "one_of_one": lambda: rt + tf.constant([[10.]]),
           "uniform_rows": lambda: uniform * tf.constant([[1., 2.], [3., 4.]]),
           "too_many_rows": lambda: rt + tf.ones([3, 4]), "row_too_long": lambda: rt + tf.ones([2, 3]),
           "uniform_one_row": lambda: uniform + tf.constant([[10., 20.]])}
    return {k: attempt(f) for k, f in ops.items()}


def case_ragged_conversions(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], []])
    wide = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    calls = {"to_tensor": lambda: rt.to_tensor(), "to_tensor_shape": lambda: rt.to_tensor(shape=[2, 1, 3]),
             "to_tensor_default": lambda: rt.to_tensor(default_value=9), "to_sparse": lambda: rt.to_sparse(),
             "wide_to_sparse": lambda: wide.to_sparse(), "merge_0_1": lambda: rt.merge_dims(0, 1),
             "merge_1_2": lambda: rt.merge_dims(1, 2), "merge_0_2": lambda: rt.merge_dims(0, 2),
             "wide_merge_1_2": lambda: wide.merge_dims(1, 2), "bounding": lambda: rt.bounding_shape(),
             "row_lengths_2": lambda: rt.row_lengths(2), "row_lengths": lambda: rt.row_lengths(),
             "row_lengths_0": lambda: rt.row_lengths(0), "wide_row_lengths_2": lambda: wide.row_lengths(2),
             "nested_row_lengths": lambda: list(rt.nested_row_lengths()),
             "nested_value_rowids": lambda: list(rt.nested_value_rowids()), "flat_values": lambda: rt.flat_values,
             "values": lambda: rt.values, "nrows": lambda: rt.nrows(),
             "with_flat_values": lambda: rt.with_flat_values(rt.flat_values * 10),
             "int32_splits": lambda: rt.with_row_splits_dtype(tf.int32), "wide_to_list": lambda: wide.to_list(),
             "spec": lambda: repr(tf.type_spec_from_value(rt)), "uniform": lambda: tf.RaggedTensor.from_tensor(
                 [[1, 2], [3, 4]]).uniform_row_length, "numpy": lambda: str(rt.numpy().tolist())}
    return {k: attempt(f) for k, f in calls.items()}


def case_ragged_stack(tf):
    calls = {
        "vectors": lambda: tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]),
        "float_vectors": lambda: tf.ragged.stack([tf.constant([1., 2.]), tf.constant([3.])]),
        "matrices": lambda: tf.ragged.stack([tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6]])]),
        "ragged_ranges": lambda: tf.ragged.stack([tf.ragged.range(i) for i in range(3)]),
        "ragged_and_dense": lambda: tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.constant([[5, 6]])]),
        "rank_mismatch": lambda: tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[[5, 6]]])]),
        "splits_mismatch": lambda: tf.ragged.stack([tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32),
                                                     tf.ragged.constant([[5, 6]])]),
        "scalars": lambda: tf.ragged.stack([tf.constant(1), tf.constant(2)]),
        "empty": lambda: tf.ragged.stack([]),
        "rank2": lambda: tf.ragged.stack([tf.ragged.constant([[[1], [2, 3]]]), tf.ragged.constant([[[4]], [[5]]])]),
    }
    return {k: attempt(f) for k, f in calls.items()}


def case_dynamic_ragged_shape_nested(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], []])
    shape = tf.experimental.DynamicRaggedShape.from_tensor(rt)
    uniform = tf.experimental.DynamicRaggedShape.from_tensor(tf.RaggedTensor.from_tensor(tf.zeros([2, 3, 4]),
                                                                                        ragged_rank=2))
    lengths = tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), (1, 2, 3), 2])
    return {"repr": [repr(shape), repr(uniform), repr(lengths)], "rank": [shape.rank, uniform.rank, lengths.rank],
            "partitions": [shape.num_row_partitions, uniform.num_row_partitions, lengths.num_row_partitions],
            "uniform": [[s.is_uniform(i) for i in range(s.rank)] for s in (shape, uniform)],
            "items": [attempt(lambda i=i: shape[i]) for i in range(3)] + [attempt(lambda i=i: uniform[i])
                                                                          for i in range(3)],
            "inner": show(shape.inner_shape), "lengths_inner": show(lengths.inner_shape)}


def case_ragged_in_function(tf):
    @tf.function
    def f(x):
        r = tf.RaggedTensor.from_nested_row_splits(x, [tf.constant([0, 2, 3], tf.int64),
                                                       tf.constant([0, 2, 3, 4], tf.int64)])
        return r, r * 2, r[0], r.to_tensor(), tf.ragged.range(tf.constant([1, 3]))
    return show(list(f(tf.constant([1, 2, 3, 4]))))


# -- tf.data elements ----------------------------------------------------------------------------------------------

def case_data_sparse_elements(tf):
    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])
    value = tf.compat.v1.SparseTensorValue(np.array([[0, 0]]), np.array([5]), np.array([1, 1]))
    mapped = tf.data.Dataset.range(4).map(lambda i: tf.compat.v1.SparseTensorValue(
        indices=np.array([[0, 0]]), values=i * np.array([1]), dense_shape=np.array([1, 1])))

    def growing(i):
        return tf.compat.v1.SparseTensorValue(indices=tf.expand_dims(tf.range(i, dtype=tf.int64), 1),
                                              values=tf.fill([tf.cast(i, tf.int32)], i), dense_shape=[i])
    varying = tf.data.Dataset.range(5).map(growing)
    slices = tf.data.Dataset.from_tensor_slices(st)
    return {"from_tensors": [repr(tf.data.Dataset.from_tensors(st).element_spec),
                             elements(tf.data.Dataset.from_tensors(st))],
            "slices": [repr(slices.element_spec), elements(slices)],
            "value_spec": repr(tf.data.Dataset.from_tensors(value).element_spec),
            "mapped": [repr(mapped.element_spec), show(list(mapped.as_numpy_iterator()))],
            "batched": [repr(mapped.batch(3).element_spec), elements(mapped.batch(3))],
            "unbatched": [repr(mapped.batch(3).unbatch().element_spec), elements(mapped.batch(3).unbatch())],
            "varying": [repr(varying.element_spec), repr(varying.batch(3).element_spec), elements(varying.batch(3))],
            "filtered": elements(mapped.filter(lambda x: tf.reduce_sum(x.values) % 2 == 0)),
            "to_dense": [repr(slices.map(tf.sparse.to_dense).element_spec), elements(slices.map(tf.sparse.to_dense))],
            "concatenate": elements(tf.data.Dataset.from_tensors(st).concatenate(tf.data.Dataset.from_tensors(st))),
            "windows": [elements(w) for w in slices.window(2)],
            "reduce": show(tf.data.Dataset.from_tensors(st).reduce(0, lambda s, x: s + tf.reduce_sum(x.values)))}


def case_data_ragged_elements(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    slices = tf.data.Dataset.from_tensor_slices(rt)
    nested = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1, 2], [3]], [[4]]]))
    ranges = tf.data.Dataset.range(5).map(tf.ragged.range)
    singles = tf.data.Dataset.range(10).map(lambda i: tf.RaggedTensor.from_tensor(i * [[1]]))
    return {"from_tensors": [repr(tf.data.Dataset.from_tensors(rt).element_spec),
                             elements(tf.data.Dataset.from_tensors(rt)),
                             str(next(tf.data.Dataset.from_tensors(rt).as_numpy_iterator()).tolist())],
            "slices": [repr(slices.element_spec), elements(slices), repr(slices.batch(2).element_spec),
                       elements(slices.batch(2)), show(list(slices.as_numpy_iterator()))],
            "nested_slices": [repr(nested.element_spec), elements(nested)],
            "ranges": [repr(ranges.element_spec), repr(ranges.batch(3).element_spec), elements(ranges.batch(3)),
                       repr(ranges.batch(3).batch(2).element_spec), error(lambda: list(ranges.batch(3).batch(2))),
                       repr(ranges.batch(3).unbatch().element_spec), elements(ranges.batch(3).unbatch())],
            "singles": [repr(singles.element_spec), repr(singles.batch(5).batch(2).element_spec),
                        elements(singles.batch(5).batch(2))],
            "mapped": [repr(tf.data.Dataset.from_tensors(rt).map(lambda x: x * 2).element_spec),
                       elements(tf.data.Dataset.from_tensors(rt).map(lambda x: x * 2)),
                       repr(slices.map(lambda x: x * 2).element_spec)],
            "filtered": elements(slices.filter(lambda x: tf.size(x) > 1)),
            "zipped": elements(tf.data.Dataset.zip((slices, tf.data.Dataset.range(2)))),
            "unbatch_rows": elements(tf.data.Dataset.range(2).map(
                lambda i: tf.RaggedTensor.from_row_lengths(tf.range(i + 3), [1, i + 2])).unbatch())}


def case_data_none_components(tf):
    pairs = tf.data.Dataset.range(3).map(lambda i: (i, None))
    return {"spec": repr(pairs.element_spec), "elements": elements(pairs),
            "batched": [repr(pairs.batch(2).element_spec), elements(pairs.batch(2))],
            "unbatched": elements(pairs.batch(2).unbatch()),
            "from_tensors": [repr(tf.data.Dataset.from_tensors((1, None)).element_spec),
                             elements(tf.data.Dataset.from_tensors((1, None)))],
            "slices": [repr(tf.data.Dataset.from_tensor_slices(([1, 2], None)).element_spec),
                       elements(tf.data.Dataset.from_tensor_slices(([1, 2], None)))],
            "first_of_pair": elements(pairs.batch(10).map(lambda x, y: x))}


def case_data_dataset_elements(tf):
    inner = tf.data.Dataset.range(4).map(tf.data.Dataset.from_tensors)
    batched = inner.batch(3)
    return {"spec": repr(inner.element_spec), "batched_spec": repr(batched.element_spec),
            "mapped_spec": repr(batched.map(lambda x: x).element_spec),
            "unbatched_spec": repr(batched.unbatch().element_spec),
            "flattened": elements(batched.map(lambda x: x).unbatch().flat_map(lambda x: x)),
            "each": [elements(d) for d in inner],
            "as_numpy": error(lambda: inner.as_numpy_iterator())}


def case_data_composite_errors(tf):
    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])
    inner = tf.data.Dataset.range(4).map(tf.data.Dataset.from_tensors)
    ranges = tf.data.Dataset.range(5).map(tf.ragged.range)
    return {"padded_datasets": error(lambda: inner.padded_batch(2)),
            "padded_sparse": error(lambda: tf.data.Dataset.from_tensors(st).padded_batch(2)),
            "rows_differ": error(lambda: list(ranges.batch(3).batch(2))),
            "unbatch_scalar_sparse": error(lambda: tf.data.Dataset.from_tensors(
                tf.sparse.SparseTensor(tf.zeros([0, 0], tf.int64), tf.zeros([0]), tf.zeros([0], tf.int64))).unbatch())}


# -- map_fn ----------------------------------------------------------------------------------------------------------

def case_map_fn_composite(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [0, 1], [1, 0]], values=tf.constant([0, 1, 2]), dense_shape=[2, 2])
    rt = tf.ragged.constant([[1, 2], [3]])
    nested = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    lengths = tf.constant([1, 3, 2])
    calls = {
        "sparse_identity": lambda: tf.map_fn(lambda x: x, st),
        "sparse_to_dtype": lambda: tf.map_fn(tf.sparse.reduce_sum, st, fn_output_signature=tf.int32),
        "sparse_default_signature": lambda: tf.map_fn(tf.sparse.reduce_sum, st),
        "ragged_signature": lambda: tf.map_fn(lambda x: x + 1, rt,
                                              fn_output_signature=tf.RaggedTensorSpec([None], rt.dtype)),
        "ragged_default": lambda: tf.map_fn(lambda x: x + 1, rt),
        "ragged_to_dtype": lambda: tf.map_fn(tf.reduce_sum, rt, fn_output_signature=tf.int32),
        "nested": lambda: tf.map_fn(lambda x: x * 2, nested),
        "ragged_wrong_rank": lambda: tf.map_fn(tf.ragged.range, lengths, fn_output_signature=tf.RaggedTensorSpec(
            [None], tf.int32, ragged_rank=0)),
        "ragged_rows": lambda: tf.map_fn(lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x), [x]), lengths,
                                         fn_output_signature=tf.RaggedTensorSpec([1, None], tf.int32)),
        "sparse_rows": lambda: tf.map_fn(lambda x: tf.sparse.from_dense(tf.range(x)), lengths,
                                         fn_output_signature=tf.SparseTensorSpec([None], tf.int32)),
        "dense_for_sparse": lambda: tf.map_fn(tf.range, lengths, fn_output_signature=tf.SparseTensorSpec(
            [None], tf.int32)),
        "tuple": lambda: tf.map_fn(lambda x: x, (rt, tf.constant([1, 2]))),
        "int32_splits": lambda: tf.map_fn(lambda x: x, tf.ragged.constant([[1, 2], [3]],
                                                                         row_splits_dtype=tf.int32)).row_splits,
    }
    return {k: attempt(f) for k, f in calls.items()}


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
