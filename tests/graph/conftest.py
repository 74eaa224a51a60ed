"""Fixtures shared by the graph tests."""

import pytest


@pytest.fixture
def one_blas_thread():
    """BLAS on one thread (as intra_op_parallelism_threads=1 sets it), restored after the test."""
    from placeflow.graph import intra_op
    if not intra_op.available():
        pytest.skip("threadpoolctl is not installed: BLAS threads cannot be set")
    before = intra_op.blas_threads()
    intra_op.set_blas_threads(1)
    yield
    intra_op.set_blas_threads(before)
