"""tf.test.TestCase (unittest with TensorFlow's array assertions and evaluate/session helpers), tf.test.main and
tf.test.compute_gradient (theoretical and numerical Jacobians)."""

from __future__ import annotations

import contextlib
import random as _python_random
import re
import tempfile
import unittest

import numpy as np

from ..framework import dtypes, nest

_DEFAULT_SEED = 87654321


def _value(x):
    """A tensor, variable or nested structure as NumPy (bytes for strings), as evaluate() returns it: a
    SparseTensor as a tf.compat.v1.SparseTensorValue of arrays, a RaggedTensor as a RaggedTensorValue, an
    IndexedSlices as an IndexedSlicesValue, a callable as the value of what it returns, None as None."""
    if x is None:
        return None
    if callable(x) and not hasattr(x, "numpy"):
        return nest.map_structure(_value, x())
    from ..ops.indexed_slices import IndexedSlices
    from .tf1_values import IndexedSlicesValue, RaggedTensorValue, SparseTensorValue
    if isinstance(x, IndexedSlices):
        shape = None if x.dense_shape is None else _value(x.dense_shape)
        return IndexedSlicesValue(values=_value(x.values), indices=_value(x.indices), dense_shape=shape)
    if hasattr(x, "dense_shape") and hasattr(x, "indices") and hasattr(x, "values"):
        return SparseTensorValue(_value(x.indices), _value(x.values), _value(x.dense_shape))
    if hasattr(x, "flat_values") and hasattr(x, "row_splits") and not isinstance(x, RaggedTensorValue):
        splits = getattr(x, "nested_row_splits", None) or (x.row_splits,)
        return RaggedTensorValue.from_splits(_value(x.flat_values), [_value(s) for s in splits])
    if hasattr(x, "numpy"):
        return x.numpy()
    return x


def _is_ragged(x) -> bool:
    """A RaggedTensor or a RaggedTensorValue."""
    return hasattr(x, "flat_values") and hasattr(x, "row_splits") and hasattr(x, "to_list")


def _as_list(x):
    """A ragged value, tensor, array or nested list as nested Python lists (bytes for strings)."""
    if _is_ragged(x):
        return x.to_list()
    if isinstance(x, (list, tuple)):
        return [_as_list(item) for item in x]
    value = _value(x)
    return np.asarray(value).tolist() if hasattr(value, "shape") or np.isscalar(value) else value


class TestCase(unittest.TestCase):
    """unittest.TestCase with TensorFlow's helpers: evaluate, cached_session, assertAllClose and friends."""

    def setUp(self):
        """Seed Python, NumPy and placeflow with TF's default test seed, as TF's TestCase does."""
        super().setUp()
        from . import random
        _python_random.seed(_DEFAULT_SEED)
        np.random.seed(_DEFAULT_SEED)
        random.set_seed(_DEFAULT_SEED)

    # -- running ----------------------------------------------------------------------------------------------
    def evaluate(self, tensors):
        """The NumPy values of a (nested structure of) tensors: eagerly their values, in a graph a Session run."""
        from ..framework import graph_mode
        graph = graph_mode.active()
        if graph is not None and not getattr(graph, "is_function_graph", False):
            from ..graph.session import Session
            session = getattr(self, "_session", None) or Session(graph=graph)
            return session.run(tensors)
        return nest.map_structure(_value, tensors)

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Eagerly nothing to open (yields None, and `graph` is not entered: ops stay eager, as in TensorFlow);
        inside a graph, a Session of `graph` or of the graph being built."""
        from ..framework import graph_mode
        active = graph_mode.active()
        if active is None:
            yield None
            return
        active = graph if graph is not None else active
        from ..graph.session import Session
        with Session(graph=active, config=config) as session:
            self._session = session
            try:
                yield session
            finally:
                self._session = None

    cached_session = session

    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Deprecated in TensorFlow for `session()` / `cached_session()`, and the same as they are. A test runner
        that collects it as a test (its name starts with "test") gets a skip, as TensorFlow's fixture gives."""
        if self.id().endswith(".test_session"):
            self.skipTest('Tests that have the name "test_session" are automatically skipped by TensorFlow test '
                          "fixture, as the name is reserved for creating sessions within tests. Please rename "
                          "your test if you have a test with this name.")
        return self.session(graph=graph, config=config, use_gpu=use_gpu, force_gpu=force_gpu)

    def get_temp_dir(self) -> str:
        """A temporary directory for this test."""
        if not hasattr(self, "_temp_dir"):
            self._temp_dir = tempfile.mkdtemp(prefix=self.id().rsplit(".", 1)[-1])
        return self._temp_dir

    # -- assertions -------------------------------------------------------------------------------------------
    def _arrays(self, a, b):
        return np.asarray(_value(a)), np.asarray(_value(b))

    def _assert_ragged(self, a, b, msg, rtol=None, atol=None):
        """Ragged values compare row by row, as nested lists (exactly, or within the tolerances when given)."""
        left, right = _as_list(a), _as_list(b)
        if rtol is None:
            self.assertEqual(left, right, msg)
            return

        def close(x, y):
            if isinstance(x, list) or isinstance(y, list):
                self.assertIsInstance(x, list, msg)
                self.assertIsInstance(y, list, msg)
                self.assertEqual(len(x), len(y), f"Mismatched ragged rows: {left} vs {right}. {msg or ''}")
                for u, v in zip(x, y):
                    close(u, v)
            else:
                np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=msg or "")
        close(left, right)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802 - TF's name
        """a and b (tensors, arrays, numbers or nested structures of them) equal within atol + rtol * |b|."""
        if _is_ragged(a) or _is_ragged(b):
            self._assert_ragged(a, b, msg, rtol, atol)
            return
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertEqual(sorted(a), sorted(b), msg)
            for key in a:
                self.assertAllClose(a[key], b[key], rtol, atol, msg)
            return
        if isinstance(a, (list, tuple)) and a and not np.isscalar(a[0]) and not hasattr(a[0], "shape") \
                and isinstance(b, (list, tuple)):
            self.assertEqual(len(a), len(b), msg)
            for x, y in zip(a, b):
                self.assertAllClose(x, y, rtol, atol, msg)
            return
        x, y = self._arrays(a, b)
        self.assertEqual(x.shape, y.shape, f"Shape mismatch: expected {x.shape}, got {y.shape}. {msg or ''}")
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=msg or "", equal_nan=True)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,  # noqa: N802
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2,
                                      bfloat16_atol=1e-2, msg=None):
        """assertAllClose with tolerances loosened for float32, float16 and bfloat16 values."""
        x, y = self._arrays(a, b)
        if x.dtype == np.float32 or y.dtype == np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if x.dtype == np.float16 or y.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in (x.dtype.name, y.dtype.name):
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(x.astype(np.float64) if x.dtype.kind == "f" else x,
                            y.astype(np.float64) if y.dtype.kind == "f" else y, rtol, atol, msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """a and b differ somewhere by more than the tolerance."""
        try:
            self.assertAllClose(a, b, rtol, atol, msg)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are close at all elements.")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """a and b have the same shape and equal elements (ragged values: the same rows)."""
        if _is_ragged(a) or _is_ragged(b):
            self._assert_ragged(a, b, msg)
            return
        x, y = self._arrays(a, b)
        self.assertEqual(x.shape, y.shape, f"Shape mismatch: expected {x.shape}, got {y.shape}. {msg or ''}")
        np.testing.assert_array_equal(x, y, err_msg=msg or "")

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        """a and b differ somewhere."""
        x, y = self._arrays(a, b)
        if x.shape == y.shape and np.array_equal(x, y):
            raise AssertionError(msg or f"Expected unequal arrays, got {x!r} twice.")

    def _compare_all(self, a, target, relation, text):
        x = np.asarray(_value(a))
        if not np.all(relation(x, target)):
            raise AssertionError(f"{x!r} is not {text} {target!r}")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        """Every element of a > comparison_target."""
        self._compare_all(a, comparison_target, np.greater, "all greater than")

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        """Every element of a >= comparison_target."""
        self._compare_all(a, comparison_target, np.greater_equal, "all greater than or equal to")

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        """Every element of a < comparison_target."""
        self._compare_all(a, comparison_target, np.less, "all less than")

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        """Every element of a <= comparison_target."""
        self._compare_all(a, comparison_target, np.less_equal, "all less than or equal to")

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        """Every element of target within the bounds (closed unless said open)."""
        x = np.asarray(_value(target))
        low = x > lower_bound if open_lower_bound else x >= lower_bound
        high = x < upper_bound if open_upper_bound else x <= upper_bound
        if not np.all(low & high):
            raise AssertionError(f"{x!r} is not in the range {'(' if open_lower_bound else '['}{lower_bound}, "
                                 f"{upper_bound}{')' if open_upper_bound else ']'}")

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Every element of target is one of expected_set."""
        x = np.asarray(_value(target)).reshape(-1)
        missing = [v for v in x.tolist() if v not in set(np.asarray(list(expected_set)).reshape(-1).tolist())]
        if missing:
            raise AssertionError(f"{missing} not in the set {expected_set}")

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """target's dtype is expected_dtype."""
        got = dtypes.as_dtype(getattr(target, "dtype", np.asarray(target).dtype))
        self.assertEqual(got, dtypes.as_dtype(expected_dtype))

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        """The two values have the same shape."""
        self.assertEqual(tuple(np.shape(_value(input_a))), tuple(int(d) for d in np.shape(_value(input_b))), msg)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """|f1 - f2| <= err."""
        self.assertTrue(abs(float(f1) - float(f2)) <= err, f"{f1} != {f2} +/- {err}{' ' + msg if msg else ''}")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """Element by element, |a - b| <= err."""
        self.assertEqual(len(farray1), len(farray2), msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg)

    def assertItemsEqual(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        """The same elements in any order."""
        self.assertCountEqual(expected_seq, actual_seq, msg)

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        """actual begins with expected_start."""
        if not actual.startswith(expected_start):
            raise AssertionError(msg or f"{actual!r} does not start with {expected_start!r}")

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """The block raises `exception_type` whose message matches the regex (or satisfies the predicate)."""
        predicate = expected_err_re_or_predicate if callable(expected_err_re_or_predicate) else \
            (lambda error: re.search(expected_err_re_or_predicate, str(error)) is not None)
        try:
            yield
        except exception_type as error:
            if not predicate(error):
                raise AssertionError(f"Exception of type {type(error).__name__}: {error} did not match "
                                     f"{expected_err_re_or_predicate!r}") from error
            return
        raise AssertionError(f"{exception_type.__name__} not raised")

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """The block raises a tf.errors.OpError matching the regex (or predicate)."""
        from ..framework import errors
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

    def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):  # noqa: N802
        """Not implemented: placeflow has no protocol-buffer objects."""
        raise NotImplementedError("TestCase.assertProtoEquals is not implemented in placeflow (no protocol-buffer "
                                  "message objects).")


def main(argv=None):
    """Run the tests of the calling module (unittest.main)."""
    return unittest.main(argv=argv)


def _real_view(values, complex_parts: bool) -> np.ndarray:
    """A flat real array: a complex value's (real, imaginary) pairs side by side, as TF's checker lays them out."""
    values = np.asarray(values).reshape(-1)
    if complex_parts:
        return np.stack([values.real, values.imag], axis=-1).reshape(-1)
    return values.real if np.iscomplexobj(values) else values


def compute_gradient(f, x, delta=None):
    """(theoretical Jacobians, numerical Jacobians) of f at x (a list of values), each as a tuple of
    [size of y, size of x_i] arrays: the tape's, and central differences with step `delta` (1/1024). As in TF,
    a complex value counts as two real ones (its real and imaginary parts, side by side) and the Jacobians are
    real: the derivatives of y's real parts by x's."""
    from ..eager.convert import convert_to_tensor
    from ..eager.tape import GradientTape
    xs = [convert_to_tensor(v) for v in (x if isinstance(x, (list, tuple)) else [x])]
    step = 1.0 / 1024 if delta is None else float(delta)
    y = convert_to_tensor(f(*xs))
    y_complex = y.dtype.is_complex
    y_size = int(np.prod([int(d) for d in y.shape]))
    theoretical, numerical = [], []
    for index, source in enumerate(xs):
        x_complex = source.dtype.is_complex
        real_dtype = source.dtype.real_dtype.numpy_dtype
        size = int(np.prod([int(d) for d in source.shape]))
        jacobian = np.zeros((y_size * (2 if y_complex else 1), size * (2 if x_complex else 1)), real_dtype)
        for row in range(jacobian.shape[0]):
            upstream = np.zeros(y_size, y.dtype.numpy_dtype)
            upstream[row // 2 if y_complex else row] = 1j if y_complex and row % 2 else 1
            with GradientTape() as tape:
                tape.watch(source)
                out = convert_to_tensor(f(*xs))
            grad = tape.gradient(out, source, output_gradients=convert_to_tensor(upstream.reshape(y.shape)))
            if grad is not None:
                jacobian[row] = _real_view(grad.numpy(), x_complex)
        theoretical.append(jacobian)
        numeric = np.zeros_like(jacobian)
        base = np.asarray(source.numpy()).astype(source.dtype.numpy_dtype).reshape(-1)
        for column in range(numeric.shape[1]):
            unit = 1j if x_complex and column % 2 else 1
            shifted = []
            for sign in (1, -1):
                moved = base.copy()
                moved[column // 2 if x_complex else column] += sign * step * unit
                args = list(xs)
                args[index] = convert_to_tensor(moved.reshape(tuple(int(d) for d in source.shape)))
                shifted.append(_real_view(convert_to_tensor(f(*args)).numpy(), y_complex).astype(np.float64))
            numeric[:, column] = (shifted[0] - shifted[1]) / (2 * step)
        numerical.append(numeric)
    return tuple(theoretical), tuple(numerical)
