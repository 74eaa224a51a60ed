"""Gaps TF's own unit tests left (issue 28, helper 26), each checked against TensorFlow 2.21's values and errors:
half MatrixInverse and Qr (other linalg ops: NotFoundError, no half kernel, as in TF), MatrixBandPart and the
diagonal ops on bool, tf.compat.v1's TF1-only root names, and RaggedTensors through tf.concat and tf.stack."""

import numpy as np
import pytest

import placeflow as tf

A = np.array([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]], np.float16)


def test_half_inverse_gives_tensorflows_values():
    out = tf.linalg.inv(A)
    assert out.dtype == tf.float16
    assert out.numpy().tolist()[0] == [0.280029296875, -0.0892333984375, -0.061065673828125]   # TF 2.21
    assert tf.linalg.inv(np.zeros((0, 0), np.float16)).shape == (0, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
        tf.linalg.inv(np.ones((2, 2), np.float16))


def test_half_qr_is_within_half_precision_of_tensorflow():
    q, r = tf.linalg.qr(A)
    assert q.dtype == r.dtype == tf.float16
    np.testing.assert_allclose(r.numpy()[0], [-4.15234375, -1.708984375, -0.7705078125], atol=2e-3)  # TF 2.21


@pytest.mark.parametrize("call", [tf.linalg.det, tf.linalg.slogdet, tf.linalg.cholesky, tf.linalg.eigh,
                                  tf.linalg.svd, lambda a: tf.linalg.solve(a, a),
                                  lambda a: tf.linalg.triangular_solve(a, a)])
def test_other_half_linalg_has_no_kernel_as_in_tensorflow(call):
    with pytest.raises(tf.errors.NotFoundError, match="float16"):
        call(A)


def test_band_part_and_diagonals_take_bool():
    ones = np.ones((3, 3), bool)
    assert tf.linalg.band_part(ones, 0, 1).numpy().tolist() == [[True, True, False], [False, True, True],
                                                               [False, False, True]]
    assert tf.linalg.diag_part(ones).numpy().tolist() == [True, True, True]
    assert tf.linalg.diag(np.ones(2, bool)).numpy().tolist() == [[True, False], [False, True]]
    assert tf.linalg.set_diag(ones, np.zeros(3, bool)).numpy().tolist() == [
        [False, True, True], [True, False, True], [True, True, False]]
    with pytest.raises(tf.errors.NotFoundError):   # admitted by the op, no kernel: TF's error too
        tf.linalg.band_part(tf.constant([["a", "b"], ["c", "d"]]), 0, 0)


def test_set_diag_keeps_its_gradient():
    x = tf.Variable(np.arange(4.).reshape(2, 2))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.set_diag(x, tf.constant([7., 8.], tf.float64)) * 2.)
    assert tape.gradient(y, x).numpy().tolist() == [[0., 2.], [2., 0.]]


def test_compat_v1_matrix_names_are_tf_linalgs():
    v1, m = tf.compat.v1, np.arange(9.).reshape(3, 3)
    assert v1.matrix_band_part is tf.linalg.band_part
    assert v1.matrix_band_part(m, 0, 1).numpy().tolist() == [[0., 1., 0.], [0., 4., 5.], [0., 0., 8.]]
    assert v1.matrix_transpose(np.arange(6).reshape(2, 3)).numpy().tolist() == [[0, 3], [1, 4], [2, 5]]
    assert v1.matrix_set_diag(m, [7., 8., 9.]).numpy().tolist() == [[7., 1., 2.], [3., 8., 5.], [6., 7., 9.]]
    assert v1.matrix_diag_part(m).numpy().tolist() == [0., 4., 8.]
    assert v1.matrix_inverse([[2., 0.], [0., 4.]]).numpy().tolist() == [[0.5, 0.], [0., 0.25]]
    assert v1.segment_sum([1, 2, 3], [0, 0, 1]).numpy().tolist() == [3, 3]


def test_compat_v1_adapters_give_tensorflows_values():
    v1 = tf.compat.v1
    assert v1.to_float(np.array([1, 2])).dtype == tf.float32 and v1.to_int64([1.5]).numpy().tolist() == [1]
    assert v1.arg_max([[1, 3, 2]], 1).numpy().tolist() == [1] and v1.arg_min([[1, 3, 2]], 1).dtype == tf.int64
    assert v1.VERSION == tf.version.VERSION and v1.multinomial is tf.compat.v1.random.multinomial


def test_compat_v1_refuses_the_rest_by_name_with_a_replacement():
    with pytest.raises(NotImplementedError, match=r"tf\.compat\.v1\.assert_positive .*tf\.debugging\."
                                                  r"assert_positive"):
        tf.compat.v1.assert_positive(1)
    with pytest.raises(NotImplementedError, match="TFRecordReader.*tf.data"):
        tf.compat.v1.TFRecordReader()
    with pytest.raises(NotImplementedError, match="gfile"):
        tf.compat.v1.gfile.Exists("x")
    with pytest.raises(AttributeError):
        tf.compat.v1.no_such_tensorflow_name


def test_every_tf1_only_root_name_resolves():
    from placeflow.compat.v1_root import names
    missing = [n for n in names() if not hasattr(tf.compat.v1, n)]
    assert missing == []


def test_concat_and_stack_of_ragged_tensors_as_tensorflow():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5, 6, 7]])
    assert tf.concat([a, b], 0).to_list() == [[1, 2], [3], [4], [5, 6, 7]]
    assert tf.concat([a, b], axis=1).to_list() == [[1, 2, 4], [3, 5, 6, 7]]
    assert tf.concat([a, tf.constant([[9, 9]])], 0).to_list() == [[1, 2], [3], [9, 9]]
    assert tf.stack([a, b]).to_list() == [[[1, 2], [3]], [[4], [5, 6, 7]]]
    assert tf.stack([a, b], axis=1).to_list() == [[[1, 2], [4]], [[3], [5, 6, 7]]]
    assert tf.concat([a, b], 1).row_splits.dtype == tf.int64
