"""tf.linalg's tridiagonal and banded solvers and products (tridiagonal_solve, tridiagonal_matmul,
banded_triangular_solve, eigh_tridiagonal), composed from dense ops: the matrices are assembled from their
diagonals, so gradients come from the dense ops'. Results equal TF's up to rounding (TF solves with the
Thomas algorithm and partial pivoting; a dense LU solve gives the same solution of a non-singular system)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from . import array_ops, math_ops


def _diag(values, k: int):
    """An M x M matrix (batched) with `values` (length M) on diagonal k: a superdiagonal takes the first M - k
    values, a subdiagonal the last M - |k| (TF's LEFT_RIGHT alignment)."""
    from .linalg import diag
    size = int(values.shape[-1])
    if k == 0:
        return diag(values)
    kept = values[..., :size - k] if k > 0 else values[..., -k:]
    square = diag(kept)
    padding = [[0, 0]] * (len(values.shape) - 1)
    from .indexing import pad
    if k > 0:
        return pad(square, padding + [[0, k], [k, 0]])
    return pad(square, padding + [[-k, 0], [0, -k]])


def _tridiagonal_matrix(diagonals, diagonals_format: str):
    if diagonals_format == "matrix":
        return convert_to_tensor(diagonals)
    if diagonals_format == "sequence":
        superdiag, maindiag, subdiag = (convert_to_tensor(d) for d in diagonals)
    elif diagonals_format == "compact":
        diagonals = convert_to_tensor(diagonals)
        if int(diagonals.shape[-2]) != 3:
            raise ValueError(f"Expected 3 diagonals got {int(diagonals.shape[-2])}")
        superdiag, maindiag, subdiag = diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    return _diag(superdiag, 1) + _diag(maindiag, 0) + _diag(subdiag, -1)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """x with A x = rhs for the tridiagonal A given by its diagonals ('compact' [..., 3, M]: superdiagonal,
    diagonal, subdiagonal; 'sequence': the three; 'matrix': A itself)."""
    if not partial_pivoting or perturb_singular:
        raise NotImplementedError("tridiagonal_solve(partial_pivoting=False / perturb_singular=True) is not "
                                  "implemented in placeflow.")
    from .linalg import solve
    matrix = _tridiagonal_matrix(diagonals, diagonals_format)
    rhs = convert_to_tensor(rhs, dtype=matrix.dtype)
    vector = len(rhs.shape) == len(matrix.shape) - 1
    if vector:
        rhs = array_ops.expand_dims(rhs, -1)
    if transpose_rhs:
        rhs = _swap(rhs)
    if conjugate_rhs:
        rhs = math_ops.conj(rhs)
    solution = solve(matrix, rhs)  # with transpose_rhs, TF returns the solution untransposed ([..., M, K])
    return array_ops.squeeze(solution, -1) if vector else solution


def _swap(x):
    rank = len(x.shape)
    return array_ops.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """A @ rhs for the tridiagonal A given by its diagonals."""
    matrix = _tridiagonal_matrix(diagonals, diagonals_format)
    return math_ops.matmul(matrix, convert_to_tensor(rhs, dtype=matrix.dtype))


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """x with A x = rhs for the triangular band matrix A given by its K diagonals ([..., K, M]): lower, the
    main diagonal first then the subdiagonals (each left-aligned); upper, the superdiagonals then the main one."""
    from .linalg import triangular_solve
    bands = convert_to_tensor(bands)
    count = int(bands.shape[-2])
    matrix = None
    for index in range(count):
        piece = _diag(bands[..., index, :], -index if lower else count - 1 - index)
        matrix = piece if matrix is None else matrix + piece
    return triangular_solve(matrix, convert_to_tensor(rhs, dtype=bands.dtype), lower=lower, adjoint=adjoint)


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """The eigenvalues (ascending) of the symmetric tridiagonal matrix with diagonal alpha and off-diagonal beta;
    select 'a' (all), 'i' (indices [lo, hi]) or 'v' (values in (lo, hi])."""
    if not eigvals_only:
        raise NotImplementedError("eigh_tridiagonal(eigvals_only=False) is not implemented in placeflow; use "
                                  "tf.linalg.eigh on the assembled matrix.")
    from .linalg import eigvalsh
    alpha, beta = convert_to_tensor(alpha), convert_to_tensor(beta)
    matrix = _diag(alpha, 0) + _diag(array_ops.concat([beta, array_ops.zeros([1], beta.dtype)], 0), 1) \
        + _diag(array_ops.concat([array_ops.zeros([1], beta.dtype), beta], 0), -1)
    values = eigvalsh(matrix)
    if select == "a":
        return values
    low, high = select_range
    if select == "i":
        return values[int(low):int(high) + 1]
    if select == "v":
        from .indexing import boolean_mask
        return boolean_mask(values, math_ops.logical_and(values > low, values <= high))
    raise ValueError(f"select must be 'a', 'i' or 'v', got {select!r}")

