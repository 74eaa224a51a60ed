"""placeflow.linalg: TensorFlow's linear-algebra namespace (matrices are the last two dimensions)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from . import math_ops
from .array_ops import transpose
from .math_ops import einsum, matmul, norm, tensordot  # noqa: F401 - also public here


def _floats(x):
    return convert_to_tensor(x)


def inv(input, adjoint=False, name=None):  # noqa: A002 - TensorFlow's parameter names
    """The inverse of each square matrix (MatrixInverse); a singular one is InvalidArgumentError."""
    x = _floats(input)
    return execute("MatrixInverse", (x,), x.dtype, {"adjoint": bool(adjoint)}, name=name)


def det(input, name=None):  # noqa: A002
    """The determinant of each square matrix (MatrixDeterminant)."""
    x = _floats(input)
    return execute("MatrixDeterminant", (x,), x.dtype, name=name)


def slogdet(input, name=None):  # noqa: A002
    """(sign, log|det|) of each square matrix (LogMatrixDeterminant)."""
    x = _floats(input)
    sign, log_abs = execute("LogMatrixDeterminant", (x,), x.dtype, name=name)
    return sign, log_abs


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (MatrixSolve)."""
    a = _floats(matrix)
    b = convert_to_tensor(rhs, dtype=a.dtype)
    return execute("MatrixSolve", (a, b), a.dtype, {"adjoint": bool(adjoint)}, name=name)


def cholesky(input, name=None):  # noqa: A002
    """The lower-triangular L with L @ L^T = input (Cholesky)."""
    x = _floats(input)
    return execute("Cholesky", (x,), x.dtype, name=name)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with tri(matrix) @ X = rhs, using only the lower (or upper) triangle (MatrixTriangularSolve)."""
    a = _floats(matrix)
    b = convert_to_tensor(rhs, dtype=a.dtype)
    return execute("MatrixTriangularSolve", (a, b), a.dtype, {"lower": bool(lower), "adjoint": bool(adjoint)},
                   name=name)


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """(q, r) of each matrix (Qr)."""
    x = _floats(input)
    q, r = execute("Qr", (x,), x.dtype, {"full_matrices": bool(full_matrices)}, name=name)
    return q, r


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """(s, u, v) of each matrix, s descending, tensor = u @ diag(s) @ v^T (Svd); only s when not compute_uv."""
    x = _floats(tensor)
    s, u, v = execute("Svd", (x,), x.dtype, {"full_matrices": bool(full_matrices)}, name=name)
    return (s, u, v) if compute_uv else s


def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors) of each self-adjoint matrix (SelfAdjointEigV2)."""
    x = _floats(tensor)
    values, vectors = execute("SelfAdjointEigV2", (x,), x.dtype, name=name)
    return values, vectors


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Each matrix with entries outside the band zeroed (negative: keep the whole triangle) (MatrixBandPart)."""
    x = convert_to_tensor(input)
    return execute("MatrixBandPart", (x,), x.dtype, {"lower": int(num_lower), "upper": int(num_upper)}, name=name)


def diag(diagonal, name=None):
    """Square matrices with `diagonal` on the main diagonal (MatrixDiag)."""
    x = convert_to_tensor(diagonal)
    return execute("MatrixDiag", (x,), x.dtype, name=name)


def diag_part(input, name=None):  # noqa: A002
    """The main diagonal of each matrix (MatrixDiagPart)."""
    x = convert_to_tensor(input)
    return execute("MatrixDiagPart", (x,), x.dtype, name=name)


def trace(x, name=None):
    """The sum of each matrix's main diagonal."""
    return math_ops.reduce_sum(diag_part(x), axis=-1)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Each matrix transposed (the last two dimensions swapped)."""
    x = convert_to_tensor(a)
    rank = len(x.shape)
    if rank < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {x!r} with shape: "
                         f"{tuple(x.shape)}")
    return transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares X minimizing |matrix @ X - rhs|^2 + l2 |X|^2, by the normal equations (fast=True)."""
    if not fast:
        raise NotImplementedError("lstsq(fast=False) (complete orthogonal decomposition) is not implemented in "
                                  "placeflow; use fast=True.")
    a = _floats(matrix)
    b = convert_to_tensor(rhs, dtype=a.dtype)
    at = matrix_transpose(a)
    gram = matmul(at, a)
    if l2_regularizer:
        from .array_ops import eye
        gram = gram + l2_regularizer * eye(int(a.shape[-1]), dtype=a.dtype)
    return solve(gram, matmul(at, b))


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions."""
    x = convert_to_tensor(matrix)
    rank = len(x.shape)
    if rank < 2:
        raise ValueError(f"adjoint needs a matrix (rank >= 2); got shape {x.shape}")
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return math_ops.conj(transpose(x, perm), name=name)


def cross(a, b, name=None):
    """The cross product of 3-vectors along the last dimension (broadcast)."""
    from .array_ops import stack
    x = convert_to_tensor(a)
    y = convert_to_tensor(b, dtype=x.dtype)
    if (x.shape is not None and x.shape[-1] not in (3, None)) or (y.shape is not None and y.shape[-1] not in (3, None)):
        raise ValueError(f"Cross product needs vectors of 3 elements along the last dimension; got shapes "
                         f"{x.shape} and {y.shape}.")
    x0, x1, x2 = (x[..., i] for i in range(3))
    y0, y1, y2 = (y[..., i] for i in range(3))
    return stack([x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0], axis=-1, name=name)


def logdet(matrix, name=None):
    """log(det(matrix)) of Hermitian positive definite matrices, through their Cholesky factors."""
    factor = cholesky(matrix)
    return math_ops.multiply(2.0, math_ops.reduce_sum(math_ops.log(diag_part(factor)), axis=-1), name=name)


def _default_tolerance(x, singular_values, scale: float):
    import numpy as np
    eps = float(np.finfo(x.dtype.numpy_dtype).eps)
    return math_ops.reduce_max(singular_values, axis=-1, keepdims=True) * (scale * eps)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse: singular values below rcond * the largest (default
    10 * max(rows, columns) * eps) count as zero."""
    x = _floats(a)
    s, u, v = svd(x)
    rows, cols = int(x.shape[-2]), int(x.shape[-1])
    cutoff = _default_tolerance(x, s, 10.0 * max(rows, cols)) if rcond is None else \
        math_ops.reduce_max(s, axis=-1, keepdims=True) * rcond
    from .array_ops import expand_dims, zeros_like
    inverse = math_ops.where(math_ops.greater(s, cutoff), math_ops.reciprocal(s), zeros_like(s))
    return matmul(v * expand_dims(inverse, -2), u, adjoint_b=True, name=name)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above `tol` (default: the largest * max(rows, columns) * eps)."""
    x = _floats(a)
    s = svd(x, compute_uv=False)
    rows, cols = int(x.shape[-2]), int(x.shape[-1])
    threshold = _default_tolerance(x, s, float(max(rows, cols))) if tol is None else tol
    from ..framework import dtypes
    return math_ops.reduce_sum(math_ops.cast(math_ops.greater(s, threshold), dtypes.int32), axis=-1, name=name)


from .nn import l2_normalize  # noqa: E402,F401 - also public here
