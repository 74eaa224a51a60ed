"""`tensorflow.python.framework.config`: op determinism switches (keras utils/rng_utils.py set_random_seed
and backend/tensorflow/trainer.py). placeflow's kernels are deterministic on the CPU; the flag is kept so
that the query answers what was set, as TF's does."""

_DETERMINISM = [False]


def enable_op_determinism() -> None:
    """Ask for deterministic ops (placeflow's are; recorded for is_op_determinism_enabled)."""
    _DETERMINISM[0] = True


def disable_op_determinism() -> None:
    """Stop asking for deterministic ops."""
    _DETERMINISM[0] = False


def is_op_determinism_enabled() -> bool:
    """Whether enable_op_determinism is in effect."""
    return _DETERMINISM[0]
