"""Shim for tensorflow.python.data.kernel_tests.test_base: DatasetTestBase and the default combinations.

Behaviour follows TF's test base as its tests use it, eagerly: getNext returns the iterator's get_next (which
raises tf.errors.OutOfRangeError at the end), assertDatasetProduces reads every expected element, compares
it (sparse, ragged and nested values included) and then expects OutOfRangeError.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from . import combinations


def default_test_combinations():
    """TF1 and TF2 APIs, eager and graph modes (only TF2 eager runs here)."""
    return combinations.combine(tf_api_version=[1, 2], mode=["eager", "graph"])


def eager_only_combinations():
    """TF1 and TF2 APIs, eager mode."""
    return combinations.combine(tf_api_version=[1, 2], mode="eager")


def graph_only_combinations():
    """TF1 and TF2 APIs, graph mode (all out of scope here)."""
    return combinations.combine(tf_api_version=[1, 2], mode="graph")


def v2_only_combinations():
    """TF2 API, eager and graph modes."""
    return combinations.combine(tf_api_version=2, mode=["eager", "graph"])


def v2_eager_only_combinations():
    """TF2 API, eager mode."""
    return combinations.combine(tf_api_version=2, mode="eager")


def _is_sparse(value) -> bool:
    """A SparseTensor or a SparseTensorValue (looked up lazily: a target may lack the TF1 value class)."""
    value_class = getattr(tf.compat.v1, "SparseTensorValue", None)
    return isinstance(value, tf.sparse.SparseTensor) or (value_class is not None and isinstance(value, value_class))


def _is_ragged(value) -> bool:
    """A RaggedTensor or a RaggedTensorValue (looked up lazily, as for sparse values)."""
    value_class = getattr(getattr(tf.compat.v1, "ragged", None), "RaggedTensorValue", None)
    return isinstance(value, tf.RaggedTensor) or (value_class is not None and isinstance(value, value_class))


class DatasetTestBase(tf.test.TestCase):
    """tf.test.TestCase with tf.data's helpers."""

    def getNext(self, dataset, requires_initialization=False, shared_name=None):  # noqa: N802 - TF's name
        """A function returning the dataset's next element; OutOfRangeError after the last."""
        iterator = iter(dataset)
        return iterator.get_next

    def assertValuesEqual(self, expected, actual):  # noqa: N802
        """Equal values: tensors/arrays element-wise, sparse by components, ragged by rows, structures by leaf."""
        if _is_sparse(expected) or _is_sparse(actual):
            self.assertSparseValuesEqual(expected, actual)
        elif _is_ragged(expected) or _is_ragged(actual):
            self.assertRaggedEqual(expected, actual)
        elif isinstance(expected, dict) or isinstance(actual, dict):
            self.assertEqual(sorted(expected), sorted(actual))
            for key in expected:
                self.assertValuesEqual(expected[key], actual[key])
        elif isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)) and \
                any(_is_sparse(e) or _is_ragged(e) or isinstance(e, (dict, tuple, list)) for e in expected):
            self.assertEqual(len(expected), len(actual))
            for e, a in zip(expected, actual):
                self.assertValuesEqual(e, a)
        else:
            self.assertAllEqual(expected, actual)

    def assertSparseValuesEqual(self, a, b):  # noqa: N802
        """Sparse values with equal indices, values and dense shapes."""
        self.assertAllEqual(a.indices, b.indices)
        self.assertAllEqual(a.values, b.values)
        self.assertAllEqual(a.dense_shape, b.dense_shape)

    def assertRaggedEqual(self, a, b):  # noqa: N802
        """Ragged values with equal rows."""
        def rows(value):
            value = value.to_list() if hasattr(value, "to_list") else value
            return np.asarray(value, dtype=object).tolist() if not isinstance(value, list) else value
        self.assertEqual(rows(a), rows(b))

    def assertDatasetProduces(self, dataset, expected_output=None, expected_shapes=None,  # noqa: N802
                              expected_error=None, requires_initialization=False, num_test_iterations=1,
                              assert_items_equal=False, expected_error_iter=1):
        """The dataset yields expected_output (in order unless assert_items_equal), then ends; or raises
        expected_error=(class, message regex) on its expected_error_iter-th read."""
        if expected_error is not None:
            error_class, pattern = expected_error
            get_next = self.getNext(dataset)
            with self.assertRaisesRegex(error_class, pattern):
                for _ in range(expected_error_iter):
                    self.evaluate(get_next())
            return
        if expected_shapes:
            self.assertEqual(list(expected_shapes),
                             [s.as_list() if hasattr(s, "as_list") else s
                              for s in tf.nest.flatten(tf.compat.v1.data.get_output_shapes(dataset))])
        self.assertGreater(num_test_iterations, 0)
        expected_output = list(expected_output)
        for _ in range(num_test_iterations):
            get_next = self.getNext(dataset)
            produced = [self.evaluate(get_next()) for _ in range(len(expected_output))]
            if assert_items_equal:
                self.assertCountEqual([str(x) for x in expected_output], [str(x) for x in produced])
            else:
                for expected, actual in zip(expected_output, produced):
                    self.assertValuesEqual(expected, actual)
            with self.assertRaises(tf.errors.OutOfRangeError):
                self.evaluate(get_next())

    def assertDatasetsEqual(self, dataset1, dataset2):  # noqa: N802
        """Both datasets yield equal elements and end together."""
        next1, next2 = self.getNext(dataset1), self.getNext(dataset2)
        while True:
            try:
                first = self.evaluate(next1())
            except tf.errors.OutOfRangeError:
                with self.assertRaises(tf.errors.OutOfRangeError):
                    self.evaluate(next2())
                return
            self.assertValuesEqual(first, self.evaluate(next2()))
