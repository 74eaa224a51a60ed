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
    """The eigenvalues (ascending, real) of the Hermitian tridiagonal matrix with diagonal alpha and
    superdiagonal beta, and with eigvals_only=False its eigenvectors (as columns); select 'a' (all), 'i'
    (indices [lo, hi]) or 'v' (values in (lo, hi], widened as TF widens it by its bisection's tolerance, so an
    eigenvalue equal to lo is kept).

    A complex matrix is first made real: with D = diag of the phases of beta's running product, D* T D is the
    real symmetric tridiagonal matrix with diagonal Re(alpha) and off-diagonal |beta| (TF's bisection works on
    the same real data), and the eigenvectors of T are D times its eigenvectors."""
    if select not in ("a", "i", "v"):
        raise ValueError(f"select must be 'a', 'i' or 'v', got {select!r}")
    from .indexing import boolean_mask
    from .linalg import eigh, eigvalsh
    alpha = convert_to_tensor(alpha)
    beta = convert_to_tensor(beta, dtype=alpha.dtype)
    real_dtype = alpha.dtype.real_dtype
    is_complex = alpha.dtype.is_complex
    diagonal = math_ops.real(alpha) if is_complex else alpha
    off = math_ops.abs(beta) if is_complex else beta
    zero = array_ops.zeros([1], real_dtype)
    matrix = _diag(diagonal, 0) + _diag(array_ops.concat([off, zero], 0), 1) \
        + _diag(array_ops.concat([zero, off], 0), -1)
    if eigvals_only:
        values, vectors = eigvalsh(matrix), None
    else:
        values, vectors = eigh(matrix)
        if is_complex:
            vectors = math_ops.multiply(array_ops.expand_dims(_phases(beta), -1), math_ops.cast(vectors, alpha.dtype))
        vectors = _reorthonormalized(vectors)
    if select == "a":
        return values if eigvals_only else (values, vectors)
    low, high = select_range
    if select == "i":
        keep = slice(int(low), int(high) + 1)
        return values[keep] if eigvals_only else (values[keep], vectors[:, keep])
    lower, upper = _widened_range(diagonal, off, low, high)
    mask = math_ops.logical_and(math_ops.greater_equal(values, lower), math_ops.less(values, upper))
    chosen = boolean_mask(values, mask)
    return chosen if eigvals_only else (chosen, boolean_mask(vectors, mask, axis=1))


def _reorthonormalized(vectors):
    """One Newton-Schulz step V (3I - V*V) / 2: the columns orthonormal to rounding (TF's inverse iteration
    orthogonalizes its eigenvectors explicitly; a dense solver's are a few ulps further off)."""
    from .linalg import eye, matmul
    gram = matmul(vectors, vectors, adjoint_a=True)
    size = int(vectors.shape[-1])
    return matmul(vectors, 1.5 * eye(size, dtype=vectors.dtype) - 0.5 * gram)


def _phases(beta):
    """d with d[0] = 1 and d[k+1] = d[k] * conj(beta[k]) / |beta[k]| (1 where beta[k] is 0): the unit diagonal
    that makes the Hermitian tridiagonal matrix real."""
    size = math_ops.abs(beta)
    safe = math_ops.where(math_ops.equal(size, 0), array_ops.ones_like(size), size)
    unit = math_ops.where(math_ops.equal(size, 0), array_ops.ones_like(beta),
                          math_ops.divide(math_ops.conj(beta), math_ops.cast(safe, beta.dtype)))
    running = math_ops.cumprod(unit)  # renormalized: a product of unit numbers drifts off the unit circle
    running = math_ops.divide(running, math_ops.cast(math_ops.abs(running), beta.dtype))
    return array_ops.concat([array_ops.ones([1], beta.dtype), running], 0)


def _widened_range(diagonal, off, low, high):
    """TF's bisection bounds for select='v': (low, high] widened by n * 2.1 * eps * |T| plus a multiple of the
    smallest allowed pivot, |T| bounded by the Gershgorin discs."""
    import numpy as np
    info = np.finfo(diagonal.dtype.numpy_dtype)
    size = int(diagonal.shape[-1])
    magnitude = math_ops.abs(off)
    zero = array_ops.zeros([1], diagonal.dtype)
    row_sums = array_ops.concat([zero, magnitude], 0) + array_ops.concat([magnitude, zero], 0)
    norm = math_ops.maximum(math_ops.abs(math_ops.reduce_max(diagonal + row_sums)),
                            math_ops.abs(math_ops.reduce_min(diagonal - row_sums)))
    one = np.ones([], dtype=info.dtype)
    safe_minimum = np.maximum(one / info.max, (one + info.eps) * info.tiny)
    pivot = safe_minimum * math_ops.maximum(one, math_ops.reduce_max(math_ops.square(magnitude)))
    slack = size * 2.1 * info.eps * norm
    low = math_ops.cast(convert_to_tensor(low), diagonal.dtype)
    high = math_ops.cast(convert_to_tensor(high), diagonal.dtype)
    return low - slack - 2 * 2.1 * pivot, high + slack + 2.1 * pivot

