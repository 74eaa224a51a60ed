"""placeflow.config.threading: inter-op and intra-op thread counts (0 lets placeflow choose)."""

from .context import context


def get_inter_op_parallelism_threads() -> int:
    """Threads that run independent ops concurrently (0: one per core)."""
    return context().threads("inter")


def set_inter_op_parallelism_threads(num_threads: int) -> None:
    """Set the inter-op thread count; before the runtime initializes."""
    context().set_threads("inter", num_threads)


def get_intra_op_parallelism_threads() -> int:
    """Threads one kernel may use, e.g. BLAS threads of a matmul (0: one per core)."""
    return context().threads("intra")


def set_intra_op_parallelism_threads(num_threads: int) -> None:
    """Set the intra-op thread count; before the runtime initializes."""
    context().set_threads("intra", num_threads)
