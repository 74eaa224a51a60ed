"""Ragged results where placeflow used to refuse them: tf.strings on strings of rank >= 2 or ragged strings,
RaggedFeature partitions, tf.shape / rank / size of a RaggedTensor. Expected values are TF 2.21's."""

import pytest

import placeflow as tf


def _splits(rt):
    return [s.numpy().tolist() for s in rt.nested_row_splits]


def test_split_of_a_matrix_is_ragged_rank_two_with_a_uniform_partition():
    r = tf.strings.split(tf.constant([["a b", "c"], ["d e f", ""]]))
    assert r.to_list() == [[[b"a", b"b"], [b"c"]], [[b"d", b"e", b"f"], []]]
    assert r.shape.as_list() == [2, 2, None] and r.ragged_rank == 2
    assert _splits(r) == [[0, 2, 4], [0, 2, 3, 6, 6]]
    assert int(r.uniform_row_length) == 2


def test_split_of_rank_three_and_of_ragged_strings():
    r = tf.strings.split(tf.constant([[["a b"], ["c"]], [["d e f"], [""]]]), sep=" ", maxsplit=1)
    assert r.to_list() == [[[[b"a", b"b"]], [[b"c"]]], [[[b"d", b"e f"]], [[b""]]]]
    assert r.shape.as_list() == [2, 2, 1, None]
    r = tf.strings.split(tf.ragged.constant([["a b", "c"], ["d"]]))
    assert r.to_list() == [[[b"a", b"b"], [b"c"]], [[b"d"]]] and r.shape.as_list() == [2, None, None]


def test_unicode_functions_and_bytes_split_of_a_matrix_and_of_ragged_strings():
    x = tf.constant([["a b", "c"], ["d e f", ""]])
    assert tf.strings.unicode_split(x, "UTF-8").to_list() == [[[b"a", b" ", b"b"], [b"c"]],
                                                              [[b"d", b" ", b"e", b" ", b"f"], []]]
    codes, offsets = tf.strings.unicode_decode_with_offsets(x, "UTF-8")
    assert codes.to_list() == [[[97, 32, 98], [99]], [[100, 32, 101, 32, 102], []]]
    assert offsets.to_list() == [[[0, 1, 2], [0]], [[0, 1, 2, 3, 4], []]]
    assert tf.strings.unicode_decode(x, "UTF-8").shape.as_list() == [2, 2, None]
    rr = tf.ragged.constant([["a b", "c"], ["d"]])
    assert tf.strings.unicode_decode(rr, "UTF-8").to_list() == [[[97, 32, 98], [99]], [[100]]]
    assert tf.strings.bytes_split(rr).to_list() == [[[b"a", b" ", b"b"], [b"c"]], [[b"d"]]]


def test_ngrams_and_unicode_encode_of_deeper_inputs():
    grams = tf.strings.ngrams(tf.constant([[["a", "b", "c"], ["d", "e", "f"]]]), 2)
    assert grams.shape.as_list() == [1, 2, 2]
    assert grams.numpy().tolist() == [[[b"a b", b"b c"], [b"d e", b"e f"]]]
    ragged = tf.strings.ngrams(tf.ragged.constant([[["a", "b"], ["c"]], [["d", "e", "f"]]]), 2)
    assert ragged.to_list() == [[[b"a b"], []], [[b"d e", b"e f"]]]
    encoded = tf.strings.unicode_encode(tf.ragged.constant([[[104, 105], [106]], [[107]]]), "UTF-8")
    assert encoded.to_list() == [[b"hi", b"j"], [b"k"]]
    dense = tf.strings.unicode_encode(tf.constant([[[104, 105], [106, 107]]]), "UTF-8")
    assert dense.shape.as_list() == [1, 2] and dense.numpy().tolist() == [[b"hi", b"jk"]]


def test_split_and_unicode_split_inside_function():
    x = tf.constant([["a b", "c"], ["d e f", ""]])
    split = tf.function(lambda s: tf.strings.split(s))(x)
    assert split.to_list() == [[[b"a", b"b"], [b"c"]], [[b"d", b"e", b"f"], []]]
    chars = tf.function(lambda s: tf.strings.unicode_split(s, "UTF-8"))(x)
    assert chars.to_list() == [[[b"a", b" ", b"b"], [b"c"]], [[b"d", b" ", b"e", b" ", b"f"], []]]


def test_shape_rank_size_of_a_ragged_tensor():
    rt = tf.ragged.constant([[1, 2], [3]])
    shape = tf.shape(rt)
    assert repr(shape) == "<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>"
    assert int(shape._num_elements()) == 3 and shape.dtype == tf.int32 and int(shape[0]) == 2
    assert int(tf.rank(rt)) == 2 and int(tf.size(rt)) == 3 and tf.size(rt, out_type=tf.int64).dtype == tf.int64
    rt2 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert repr(tf.shape(rt2)) == "<DynamicRaggedShape lengths=[2, (2, 1), (2, 1, 1)] num_row_partitions=2>"
    assert (int(tf.rank(rt2)), int(tf.size(rt2))) == (3, 4)
    rt3 = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert repr(tf.shape(rt3)) == "<DynamicRaggedShape lengths=[2, (2, 1), 2] num_row_partitions=1>"
    assert (int(tf.rank(rt3)), int(tf.size(rt3))) == (3, 6)


def test_shape_rank_size_inside_function():
    @tf.function
    def f(r):
        s = tf.shape(r)
        return s._num_elements(), tf.rank(r), tf.size(r), s[0]
    assert [int(v) for v in f(tf.ragged.constant([[1, 2], [3]]))] == [3, 2, 3, 2]
    assert [int(v) for v in f(tf.ragged.constant([[[1, 2], [3]], [[4]]]))] == [4, 3, 4, 2]


def _example(**features):
    return tf.train.Example(features=tf.train.Features(feature={
        k: tf.train.Feature(int64_list=tf.train.Int64List(value=v)) for k, v in features.items()})).SerializeToString()


R = tf.io.RaggedFeature
E1 = _example(v=[1, 2, 3, 4, 5, 6], s=[0, 2, 3, 6], l=[2, 1, 3], ids=[0, 0, 2, 2, 2, 2], st=[0, 2, 3],
              lim=[2, 3, 6], o=[0, 1, 3], ol=[1, 2], l2=[1, 2])
E2 = _example(v=[7, 8], s=[0, 0, 2], l=[0, 2], ids=[1, 1], st=[0, 0], lim=[0, 2], o=[0, 2], ol=[2], l2=[1])
ONE_LEVEL = {"splits": R.RowSplits("s"), "lengths": R.RowLengths("l"), "starts": R.RowStarts("st"),
             "limits": R.RowLimits("lim")}


@pytest.mark.parametrize("name", sorted(ONE_LEVEL))
def test_ragged_feature_one_partition(name):
    spec = {"x": R(tf.int64, "v", [ONE_LEVEL[name]])}
    single = tf.io.parse_single_example(E1, spec)["x"]
    assert single.to_list() == [[1, 2], [3], [4, 5, 6]] and single.row_splits.dtype == tf.int32
    batch = tf.io.parse_example([E1, E2], spec)["x"]
    assert batch.to_list() == [[[1, 2], [3], [4, 5, 6]], [[], [7, 8]]] and batch.shape.as_list() == [2, None, None]


def test_ragged_feature_value_row_ids_and_two_partitions():
    spec = {"x": R(tf.int64, "v", [R.ValueRowIds("ids")])}
    assert tf.io.parse_single_example(E1, spec)["x"].to_list() == [[1, 2], [], [3, 4, 5, 6]]
    assert tf.io.parse_example([E1, E2], spec)["x"].to_list() == [[[1, 2], [], [3, 4, 5, 6]], [[], [7, 8]]]
    spec = {"x": R(tf.int64, "v", [R.RowLengths("ol"), R.RowLengths("l")], row_splits_dtype=tf.int64)}
    single = tf.io.parse_single_example(E1, spec)["x"]
    assert single.to_list() == [[[1, 2]], [[3], [4, 5, 6]]] and single.row_splits.dtype == tf.int64
    batch = tf.io.parse_example([E1, E2], spec)["x"]
    assert batch.to_list() == [[[[1, 2]], [[3], [4, 5, 6]]], [[[], [7, 8]]]] and batch.ragged_rank == 3


def test_ragged_feature_uniform_row_length():
    outer = {"x": R(tf.int64, "v", [R.UniformRowLength(1), R.RowLengths("l")])}
    single = tf.io.parse_single_example(E1, outer)["x"]
    assert single.shape.as_list() == [3, 1, None] and single.to_list() == [[[1, 2]], [[3]], [[4, 5, 6]]]
    batch = tf.io.parse_example([E1, E2], outer)["x"]
    assert batch.shape.as_list() == [2, None, 1, None] and batch.to_list() == [[[[1, 2]], [[3]], [[4, 5, 6]]],
                                                                                [[[]], [[7, 8]]]]
    inner = tf.io.parse_example([E1, E2], {"x": R(tf.int64, "v", [R.UniformRowLength(2)])})["x"]
    assert inner.shape.as_list() == [2, None, 2] and inner.ragged_rank == 1
    assert inner.to_list() == [[[1, 2], [3, 4], [5, 6]], [[7, 8]]]
    both = tf.io.parse_single_example(E1, {"x": R(tf.int64, "v", [R.RowLengths("l2"), R.UniformRowLength(2)])})
    assert both["x"].shape.as_list() == [2, None, 2] and both["x"].to_list() == [[[1, 2]], [[3, 4], [5, 6]]]


def test_ragged_feature_partition_that_does_not_cover_the_values_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not split 6 values"):
        tf.io.parse_single_example(E1, {"x": R(tf.int64, "v", [R.RowLengths("l2")])})


def _sequence(**lists):
    return tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
        k: tf.train.FeatureList(feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=s)) for s in v])
        for k, v in lists.items()})).SerializeToString()


def test_ragged_feature_lists_batched_and_partitioned():
    s1, s2 = _sequence(v=[[1, 2, 3], [4]], l=[[2, 1], [1]]), _sequence(v=[[5]], l=[[1]])
    plain, parted = R(tf.int64, "v"), R(tf.int64, "v", [R.RowLengths("l")])
    _, lists, _ = tf.io.parse_sequence_example([s1, s2], sequence_features={"x": plain})
    assert lists["x"].to_list() == [[[1, 2, 3], [4]], [[5]]]
    _, lists = tf.io.parse_single_sequence_example(s1, sequence_features={"x": parted})
    assert lists["x"].to_list() == [[[1, 2], [3]], [[4]]]
    _, lists, _ = tf.io.parse_sequence_example([s1, s2], sequence_features={"x": parted})
    assert lists["x"].to_list() == [[[[1, 2], [3]], [[4]]], [[[5]]]] and lists["x"].shape.as_list() == [2, None,
                                                                                                        None, None]
