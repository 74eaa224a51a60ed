"""Fixtures shared by the graph tests: BLAS thread counts set for a test and restored after it (threadpoolctl is a
test extra, so they can always be set under `make test`)."""

import pytest

from placeflow.graph import intra_op


def _blas_threads(count):
    assert intra_op.available(), "threadpoolctl (a test extra) is needed to set BLAS threads"
    before = intra_op.blas_threads()
    intra_op.set_blas_threads(count)
    return before


@pytest.fixture
def one_blas_thread():
    """BLAS on one thread (as intra_op_parallelism_threads=1 sets it), restored after the test."""
    before = _blas_threads(1)
    yield
    intra_op.set_blas_threads(before)


@pytest.fixture
def two_blas_threads():
    """BLAS on two threads (each matmul spread over two cores), restored after the test."""
    before = _blas_threads(2)
    yield
    intra_op.set_blas_threads(before)
