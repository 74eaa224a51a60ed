"""RaggedTensors of any ragged rank, tf.data elements that are sparse, ragged, datasets or None, and map_fn over
RaggedTensors and SparseTensors equal TensorFlow 2.21's recorded results (cases.py,
record_tf_composite_elements.py): errors by class, everything else exactly (element specs by their repr). Then
what placeflow does on purpose: the refusals it names, and its text for what TF words through its internals."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.composite_elements.cases import CASES

RECORDING = json.loads((pathlib.Path(__file__).resolve().parent / "tf_2_21.json").read_text())
RECORDED = RECORDING["cases"]
# Error texts placeflow words itself (the class is TF's): TF's come from its kernels' internals.
OWN_TEXT = {("data_composite_errors", "rows_differ"), ("data_dataset_elements", "as_numpy")}


def test_every_case_was_recorded_from_tensorflow_2_21():
    assert RECORDING["tensorflow"] == "2.21.0" and sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


def test_a_batch_of_dataset_elements_is_one_value_that_unbatches_to_the_datasets():
    batches = list(tf.data.Dataset.range(5).map(tf.data.Dataset.from_tensors).batch(2))
    assert [len(b) for b in batches] == [2, 2, 1]
    assert [int(next(iter(d))) for d in batches[1]] == [2, 3]


def test_batching_ragged_elements_checks_their_rows_as_tensorflow_does():
    ranges = tf.data.Dataset.range(5).map(tf.ragged.range).batch(3).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"component 0\. First element had shape \[3\] and "
                                                             r"element 1 had shape \[2\]"):
        list(ranges)


def test_a_dataset_of_symbolic_tensors_is_refused_by_name_not_turned_into_strings():
    @tf.function
    def build(x):
        return tf.data.Dataset.from_tensors(x)
    with pytest.raises(NotImplementedError, match="symbolic tensor"):
        build(tf.constant(1))


def test_the_spec_of_a_map_over_composites_comes_from_tracing_it():
    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])
    assert tf.data.Dataset.from_tensors(st).map(tf.sparse.to_dense).element_spec == tf.TensorSpec([2, 3], tf.int32)
    rt = tf.ragged.constant([[1, 2], [3]])
    assert tf.data.Dataset.from_tensors(rt).map(lambda x: x * 2).element_spec == \
        tf.RaggedTensorSpec([2, None], tf.int32, 1)


def test_refusals_name_what_is_not_implemented(tmp_path):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    with pytest.raises(NotImplementedError, match="Ellipsis"):
        rt[..., 0]
    with pytest.raises(NotImplementedError, match="stack\\(axis=1\\)"):
        tf.ragged.stack([rt, rt], axis=1)
    dataset = tf.data.Dataset.from_tensors(rt)
    with pytest.raises(NotImplementedError, match="cache in memory"):
        list(dataset.cache(str(tmp_path / "c")))
    with pytest.raises(NotImplementedError, match="RaggedTensorSpec"):
        @tf.function
        def loop():
            total = tf.constant(0)
            for x in dataset:
                total += tf.reduce_sum(x.flat_values)
            return total
        loop()


def test_as_numpy_iterator_gives_tensorflows_arrays():
    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])
    (dense,) = list(tf.data.Dataset.from_tensors(st).as_numpy_iterator())
    assert np.array_equal(dense, [[1, 0, 0], [0, 0, 2]])
    (rows,) = list(tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3]])).as_numpy_iterator())
    assert rows.dtype == object and [r.tolist() for r in rows] == [[1, 2], [3]]
