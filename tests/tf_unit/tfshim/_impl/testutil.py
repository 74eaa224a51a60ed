"""Shim for tensorflow.python.framework.test_util: its decorators and helpers, TF2 eager semantics only.

Graph-mode halves are out of scope: `run_in_graph_and_eager_modes` runs the test once, eagerly (TF runs it in a
graph first, then eagerly); `run_deprecated_v1` and `run_v1_only` tests are reported out of scope. The
leak checkers (`assert_no_new_tensors`, `assert_no_garbage_created`, ...) run the test without checking leaks:
they watch TF's Python object counts, which are no public behaviour.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import unittest

OUT_OF_SCOPE_PREFIX = "out of scope: "


def _skip(reason: str):
    raise unittest.SkipTest(OUT_OF_SCOPE_PREFIX + reason)


def _decorator_maybe_with_args(wrap):
    """A decorator usable as @d, @d() and @d(args...) whose wrapper needs nothing from those arguments."""
    def outer(func=None, *args, **kwargs):
        if func is not None and callable(func) and not args and not kwargs:
            return wrap(func)
        return wrap
    return outer


def _each_test_method(cls, wrap):
    for name, value in list(vars(cls).items()):
        if name.startswith("test") and callable(value):
            setattr(cls, name, wrap(value))
    return cls


def _out_of_scope(reason):
    def wrap(target):
        if inspect.isclass(target):
            return _each_test_method(target, wrap)

        @functools.wraps(target)
        def refused(self, *args, **kwargs):
            _skip(reason)
        return refused
    return wrap


run_deprecated_v1 = _out_of_scope("TF1 graph mode (test_util.run_deprecated_v1)")


def run_v1_only(reason=None, func=None):
    """Out of scope: the test runs only under TF1 behaviour."""
    wrap = _out_of_scope(f"TF1 only (test_util.run_v1_only: {reason})")
    return wrap(func) if func is not None else wrap


def deprecated_graph_mode_only(func=None):
    """Out of scope: the test needs TF1 graph mode."""
    wrap = _out_of_scope("TF1 graph mode (test_util.deprecated_graph_mode_only)")
    return wrap(func) if func is not None else wrap


run_in_graph_and_eager_modes = _decorator_maybe_with_args(lambda func: func)  # the eager half only
run_v2_only = _decorator_maybe_with_args(lambda func: func)
run_all_in_graph_and_eager_modes = lambda cls: cls  # noqa: E731 - eager half only
with_control_flow_v2 = lambda cls: cls  # noqa: E731 - TF2 control flow is the only one
assert_no_new_tensors = assert_no_garbage_created = lambda func: func  # noqa: E731 - see the module docstring
assert_no_new_pyobjects_executing_eagerly = _decorator_maybe_with_args(lambda func: func)


def disable_tfrt(reason=None):
    """TFRT is TF's runtime choice, not behaviour: the test runs."""
    return lambda target: target


def disable_xla(reason=None):
    """XLA is out of scope: the test runs without it, as TF runs it without XLA."""
    return lambda target: target


def run_gpu_only(func):
    """Skip unless a GPU is visible."""
    @functools.wraps(func)
    def run(self, *args, **kwargs):
        import tensorflow as tf
        if not tf.config.list_logical_devices("GPU"):
            raise unittest.SkipTest("needs a GPU (test_util.run_gpu_only)")
        return func(self, *args, **kwargs)
    return run


def is_xla_enabled() -> bool:
    """XLA is never enabled in this harness."""
    return False


@contextlib.contextmanager
def device(use_gpu):
    """Place ops on the first GPU when `use_gpu` and one exists, else on the CPU."""
    import tensorflow as tf
    name = "/device:GPU:0" if use_gpu and tf.config.list_logical_devices("GPU") else "/device:CPU:0"
    with tf.device(name):
        yield


@contextlib.contextmanager
def use_gpu():
    """Place ops on the first GPU when one exists (test_util.use_gpu)."""
    with device(True):
        yield


@contextlib.contextmanager
def force_cpu():
    """Place ops on the CPU (test_util.force_cpu)."""
    with device(False):
        yield


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None) -> bool:
    """Whether a GPU is visible: tf.config.list_logical_devices("GPU") (the public form of tf.test.is_gpu_available)."""
    import tensorflow as tf
    return bool(tf.config.list_logical_devices("GPU"))


def matmul_without_tf32(a, b, *args, **kwargs):
    """tf.linalg.matmul computed in double precision for float32/complex64 inputs (TF32 off), cast back."""
    import tensorflow as tf
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    wider = {tf.float32: tf.float64, tf.complex64: tf.complex128}.get(a.dtype)
    if wider is None:
        return tf.linalg.matmul(a, b, *args, **kwargs)
    product = tf.linalg.matmul(tf.cast(a, wider), tf.cast(b, wider), *args, **kwargs)
    return tf.cast(product, a.dtype)


def __getattr__(name):
    if name == "TensorFlowTestCase":
        import tensorflow as tf
        return tf.test.TestCase
    if name.startswith("__"):
        raise AttributeError(name)
    from .. import OutOfScopeName
    return OutOfScopeName(f"framework.test_util.{name}", "a test_util helper the harness does not provide")
