"""`tensorflow.python.eager.context`: Keras 3 calls `context.context().clear_kernel_cache()`
(backend/common/global_state.py clear_session) and `async_wait()` (backend/tensorflow/trainer.py, after
each epoch). placeflow runs ops synchronously and caches no kernels, so both have nothing to do."""

from ...graph.v1_api import executing_eagerly  # noqa: F401


class _Context:
    """The eager context's handle for the calls above."""

    def clear_kernel_cache(self) -> None:
        """Nothing to clear: placeflow keeps no per-op kernel cache."""

    def executing_eagerly(self) -> bool:
        """Whether ops run eagerly now."""
        return executing_eagerly()


_CONTEXT = _Context()


def context() -> _Context:
    """The process's eager context."""
    return _CONTEXT


def async_wait() -> None:
    """Wait for pending eager ops: placeflow's ops have finished when they return."""
