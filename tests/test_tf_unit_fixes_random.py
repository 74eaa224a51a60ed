"""What TensorFlow's own random_ops_test found (tests/tf_unit), fixed: behaviour checked against TensorFlow 2.21."""

import pytest

import placeflow as tf


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_uniform_int_with_an_empty_range_draws_nothing_without_error(dtype):
    assert tf.random.uniform([0], 3, 0, dtype=dtype).shape == (0,)
    assert tf.random.uniform([2, 0], 0, 0, dtype=dtype).shape == (2, 0)
    assert tf.random.stateless_uniform([0], [1, 2], 5, 3, dtype=dtype).shape == (0,)


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_uniform_int_with_an_empty_range_and_values_quotes_tf_message(dtype):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 0 >= 0"):
        tf.random.uniform([1], 0, 0, dtype=dtype)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 5 >= 5"):
        tf.random.stateless_uniform([1], [1, 2], 5, 5, dtype=dtype)


class SessionWhileEager(tf.test.TestCase):
    """TF's TestCase.session(graph=...) while executing eagerly: the graph is not entered, ops stay eager. Run by
    the test below (not collected itself: pytest would also collect the inherited test_session, which skips)."""

    __test__ = False

    def _sample(self):
        with self.session(graph=tf.compat.v1.Graph()) as session:
            assert session is None and tf.executing_eagerly()
            return self.evaluate(tf.random.normal([1000]))

    def test_draws_under_a_fresh_graph_session_differ(self):
        first, second = self._sample(), self._sample()
        assert (first == second).sum() < 10

    def test_inside_a_graph_session_runs_the_graph(self):
        graph = tf.compat.v1.Graph()
        with graph.as_default(), self.session() as session:
            assert session is not None and session.graph is graph
            value = tf.constant(3.0) * 2.0
            assert self.evaluate(value) == 6.0


@pytest.mark.parametrize("method", ["test_draws_under_a_fresh_graph_session_differ",
                                    "test_inside_a_graph_session_runs_the_graph"])
def test_testcase_session_behaves_as_tensorflow(method):
    result = SessionWhileEager(method).run()
    assert result.testsRun == 1 and result.wasSuccessful(), result.failures + result.errors
