"""placeflow.linalg: TensorFlow's linear-algebra namespace (matrices are the last two dimensions)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors
from . import array_ops, indexing, math_ops
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
    """(s, u, v) of each matrix, s descending, tensor = u @ diag(s) @ v^H (Svd); only s when not compute_uv.
    s is real (float32 for complex64 input), as TensorFlow casts it."""
    x = _floats(tensor)
    s, u, v = execute("Svd", (x,), x.dtype, {"full_matrices": bool(full_matrices)}, name=name)
    if x.dtype.is_complex:
        s = math_ops.cast(s, x.dtype.real_dtype)
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


_ALIGNS = ("LEFT_LEFT", "LEFT_RIGHT", "RIGHT_LEFT", "RIGHT_RIGHT")


def _one_diagonal(k, align, what: str, **defaults) -> int:
    """The offset of the one diagonal placeflow handles (TF's `k` as an int); bands of diagonals (k a pair) and
    rectangular shapes are refused by name. `align` places diagonals of different lengths: with one, it
    changes nothing (it is still checked)."""
    if align not in _ALIGNS:
        raise errors.InvalidArgumentError(None, None, f"Unknown align: {align}; expected one of "
                                                      f"{', '.join(_ALIGNS)}")
    for argument, (value, default) in defaults.items():
        if value != default:
            raise NotImplementedError(f"tf.linalg.{what}({argument}={value!r}) is not implemented in placeflow; "
                                      f"leave it at {default!r}.")
    offset = array_ops.get_static_value(convert_to_tensor(k))
    if offset is None or np.ndim(offset) != 0:
        raise NotImplementedError(f"tf.linalg.{what}(k={k!r}): a band of diagonals (k a pair) or an offset known "
                                  f"only when the graph runs is not implemented in placeflow; give one int.")
    return int(offset)


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Square matrices with `diagonal` on diagonal `k` (0: the main one, > 0 above it) and `padding_value`
    elsewhere (MatrixDiag, padded)."""
    offset = _one_diagonal(k, align, "diag", num_rows=(num_rows, -1), num_cols=(num_cols, -1))
    x = convert_to_tensor(diagonal)
    square = execute("MatrixDiag", (x,), x.dtype, name=None if offset or padding_value else name)
    if offset:
        rank = len(x.shape) + 1
        shift = abs(offset)
        rows, cols = ([0, shift], [shift, 0]) if offset > 0 else ([shift, 0], [0, shift])
        square = indexing.pad(square, [[0, 0]] * (rank - 2) + [rows, cols])
    if padding_value != 0:
        on = execute("MatrixDiag", (array_ops.ones_like(x),), x.dtype)
        if offset:
            on = indexing.pad(on, [[0, 0]] * (len(x.shape) - 1) + [rows, cols])
        square = math_ops.where(math_ops.cast(on, dtypes.bool), square,
                                 math_ops.cast(padding_value, x.dtype) + array_ops.zeros_like(square))
    return square


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """Diagonal `k` of each matrix (0: the main one, > 0 above it) (MatrixDiagPart of the shifted matrix)."""
    offset = _one_diagonal(k, align, "diag_part")
    x = convert_to_tensor(input)
    if offset > 0:
        x = x[..., :, offset:]
    elif offset < 0:
        x = x[..., -offset:, :]
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
    swapped = transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])
    return math_ops.conj(swapped) if conjugate and x.dtype.is_complex else swapped


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares X minimizing |matrix @ X - rhs|^2 + l2 |X|^2. fast=True: the normal equations through a
    Cholesky factor of the (regularized) Gramian, differentiable (NaN for a rank-deficient matrix without l2, as
    TF); fast=False: the minimum-norm solution (MatrixSolveLs; l2 ignored and no gradient, as TF)."""
    a = _floats(matrix)
    b = convert_to_tensor(rhs, dtype=a.dtype)
    if a.dtype == dtypes.complex128 and not (isinstance(l2_regularizer, (int, float)) and l2_regularizer == 0):
        raise NotImplementedError("matrix_solve_ls is currently disabled for complex128 and l2_regularizer != 0 due "
                                  "to poor accuracy.")
    if not fast:
        return solve_ls(a, b, l2_regularizer, fast=False, name=name)
    rows, cols = (a.shape[-2], a.shape[-1]) if a.shape.rank is not None else (None, None)
    if rows is None or cols is None:
        from .control_flow import cond
        dynamic = array_ops.shape(a)
        return cond(dynamic[-2] >= dynamic[-1], lambda: _normal_equations(a, b, l2_regularizer, True),
                    lambda: _normal_equations(a, b, l2_regularizer, False), name=name)
    return _normal_equations(a, b, l2_regularizer, rows >= cols, name=name)


def _normal_equations(a, b, l2_regularizer, overdetermined: bool, name=None):
    """lstsq's fast path: chol(A^H A + l2 I) solves A^H b (overdetermined), or A^H chol(A A^H + l2 I)^-1 b."""
    gram = matmul(a, a, adjoint_a=True) if overdetermined else matmul(a, a, adjoint_b=True)
    if not (isinstance(l2_regularizer, (int, float)) and l2_regularizer == 0):
        size = array_ops.shape(gram)[-1]
        gram = gram + math_ops.cast(l2_regularizer, a.dtype) * eye(size, dtype=a.dtype)
    factor = cholesky(gram)
    if overdetermined:
        return cholesky_solve(factor, matmul(a, b, adjoint_a=True), name=name)
    return matmul(a, cholesky_solve(factor, b), adjoint_a=True, name=name)


def solve_ls(matrix, rhs, l2_regularizer, fast=True, name=None):
    """MatrixSolveLs (tf.raw_ops' op behind lstsq): l2_regularizer a float64 scalar; a host kernel, as TF's."""
    a = _floats(matrix)
    b = convert_to_tensor(rhs, dtype=a.dtype)
    l2 = convert_to_tensor(l2_regularizer, dtype=dtypes.float64) if not hasattr(l2_regularizer, "dtype") else \
        l2_regularizer
    if l2.dtype != dtypes.float64:
        raise errors.InvalidArgumentError(None, None, f"cannot compute MatrixSolveLs as input #2(zero-based) was "
                                                      f"expected to be a double tensor but is a {l2.dtype.name} "
                                                      f"tensor; pass l2_regularizer as float64.")
    return execute("MatrixSolveLs", (a, b, l2), a.dtype, {"fast": bool(fast)}, name=name)


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
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise _cross_dtype_refused(x.dtype)
    if (x.shape is not None and x.shape[-1] not in (3, None)) or (y.shape is not None and y.shape[-1] not in (3, None)):
        raise errors.FailedPreconditionError(None, None, "Cross-products are only defined for 3-element vectors. "
                                                         "[Op:Cross]")
    x0, x1, x2 = (x[..., i] for i in range(3))
    y0, y1, y2 = (y[..., i] for i in range(3))
    return stack([x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0], axis=-1, name=name)


_CROSS_DTYPES = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16", "uint16", "float16",
                 "uint32", "uint64")


def _cross_dtype_refused(dtype) -> Exception:
    """TF's refusal of a Cross input dtype outside its list (complex, bool, string)."""
    from ..framework import build_errors
    cpp = ", ".join(dtypes.cpp_name(dtypes.as_dtype(n)) for n in _CROSS_DTYPES)
    return build_errors.dtype_not_allowed("a", dtype, _CROSS_DTYPES, (
        f"Value for attr 'T' of {dtypes.cpp_name(dtype)} is not in the list of allowed values: {cpp}\n\t; NodeDef: "
        f"{{{{node Cross}}}}\nplaceflow: cast the inputs to a real dtype."))


def logdet(matrix, name=None):
    """log(det(matrix)) of Hermitian positive definite matrices, through their Cholesky factors."""
    factor = cholesky(matrix)
    diagonal = diag_part(factor)
    if diagonal.dtype.is_complex:   # real and positive for a Hermitian positive definite matrix: a real result
        diagonal = math_ops.real(diagonal)
    return math_ops.multiply(2.0, math_ops.reduce_sum(math_ops.log(diagonal), axis=-1), name=name)


def _default_tolerance(x, singular_values, scale: float):
    import numpy as np
    eps = float(np.finfo(x.dtype.numpy_dtype).eps)
    return math_ops.reduce_max(singular_values, axis=-1, keepdims=True) * (scale * eps)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse: singular values below rcond * the largest (default
    10 * max(rows, columns) * eps) count as zero."""
    x = _floats(a)
    if not x.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {x.dtype.name}).")
    s, u, v = svd(x)
    rows, cols = int(x.shape[-2]), int(x.shape[-1])
    from .array_ops import expand_dims, zeros_like
    # rcond is one number, or one per matrix of the batch (TF: rcond[..., newaxis] * the largest singular value)
    cutoff = _default_tolerance(x, s, 10.0 * max(rows, cols)) if rcond is None else \
        math_ops.reduce_max(s, axis=-1, keepdims=True) * expand_dims(convert_to_tensor(rcond, dtype=s.dtype), -1)
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
from .array_ops import eye  # noqa: E402,F401 - also public here
from .clip_ops import global_norm  # noqa: E402,F401 - also public here


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """Each matrix of `a` times each vector of `b` (a_is_sparse/b_is_sparse: TF's hints, the same product)."""
    product = math_ops.matmul(a, array_ops.expand_dims(convert_to_tensor(b), -1), transpose_a=transpose_a,
                              adjoint_a=adjoint_a, a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
    return array_ops.squeeze(product, axis=-1, name=name)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 - TensorFlow's names
    """(tensor / its norm, the norm) with the norm taken as tf.norm takes it (keeping dimensions)."""
    tensor = convert_to_tensor(tensor)
    norm = math_ops.norm(tensor, ord=ord, axis=axis, keepdims=True)
    return math_ops.divide(tensor, math_ops.cast(norm, tensor.dtype), name=name), norm


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """Each matrix of `input` with its main diagonal replaced by `diagonal` (k=0 only)."""
    if k != 0 or align != "RIGHT_LEFT":
        raise NotImplementedError(f"tf.linalg.set_diag with k={k!r}, align={align!r} is not implemented in "
                                  "placeflow: only the main diagonal (k=0).")
    x = convert_to_tensor(input)
    values = convert_to_tensor(diagonal, dtype=x.dtype)
    mask = math_ops.cast(diag(array_ops.ones_like(values)), dtypes.bool)
    return math_ops.where(mask, diag(values), x, name=None if name == "set_diag" else name)


def tensor_diag(diagonal, name=None):
    """The tensor of rank 2k with `diagonal` (rank k) on its diagonal: out[i..., i...] = diagonal[i...]."""
    values = convert_to_tensor(diagonal)
    shape = [int(s) for s in values.shape]
    size = int(np.prod(shape)) if shape else 1
    flat = diag(array_ops.reshape(values, [size]))
    return array_ops.reshape(flat, shape + shape, name=name)


def tensor_diag_part(input, name=None):  # noqa: A002
    """The diagonal of a tensor of rank 2k: out[i...] = input[i..., i...]."""
    x = convert_to_tensor(input)
    shape = [int(s) for s in x.shape]
    half = len(shape) // 2
    if len(shape) % 2 or shape[:half] != shape[half:]:
        raise ValueError(f"Input must have even rank and its first half of dimensions equal the second; got "
                         f"shape {shape}")
    size = int(np.prod(shape[:half])) if half else 1
    return array_ops.reshape(diag_part(array_ops.reshape(x, [size, size])), shape[:half], name=name)


def cholesky_solve(chol, rhs, name=None):
    """x with A x = rhs, given A's lower Cholesky factor `chol`."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True, name=name)


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of each self-adjoint matrix."""
    return eigh(tensor, name=name)[0]


def eig(tensor, name=None):
    """(complex eigenvalues, complex unit eigenvectors) of each square matrix (Eig)."""
    x = _floats(tensor)
    values, vectors = execute("Eig", (x,), x.dtype, {"compute_v": True}, name=name)
    return values, vectors


def eigvals(tensor, name=None):
    """The complex eigenvalues of each square matrix."""
    return eig(tensor, name=name)[0]


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002
    """(lower_upper, p): L (unit diagonal, below) and U (on and above) packed, and the row order p with
    input[..., p, :] = L @ U (partial pivoting). TensorFlow registers no gradient for it."""
    x = _floats(input)
    packed, order = execute("Lu", (x,), x.dtype, {"output_idx_type": dtypes.as_dtype(output_idx_type)}, name=name)
    return packed, order


def _lu_factors(lower_upper):
    lower_upper = convert_to_tensor(lower_upper)
    ones = array_ops.ones_like(diag_part(lower_upper))
    return set_diag(band_part(lower_upper, -1, 0), ones), band_part(lower_upper, 0, -1)


def _rows_in_order(x, perm, batch_dims):
    return indexing.gather(x, perm, axis=batch_dims, batch_dims=batch_dims)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """x with input @ x = rhs, from lu(input); the batch dimensions of lower_upper, perm and rhs broadcast."""
    import numpy as np
    from .indexing import broadcast_to
    lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
    rhs = convert_to_tensor(rhs, dtype=lower_upper.dtype)
    batch = tuple(np.broadcast_shapes(tuple(lower_upper.shape[:-2]), tuple(perm.shape[:-1]), tuple(rhs.shape[:-2])))
    lower_upper = broadcast_to(lower_upper, batch + tuple(lower_upper.shape[-2:]))
    perm = broadcast_to(perm, batch + tuple(perm.shape[-1:]))
    rhs = broadcast_to(rhs, batch + tuple(rhs.shape[-2:]))
    lower, upper = _lu_factors(lower_upper)
    permuted = _rows_in_order(rhs, perm, len(lower.shape) - 2)
    return triangular_solve(upper, triangular_solve(lower, permuted, lower=True), lower=False, name=name)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix lu() factored: rows of L @ U put back in their original order."""
    lower, upper = _lu_factors(lower_upper)
    product = math_ops.matmul(lower, upper)
    inverse = math_ops.argsort(perm, axis=-1, stable=True)  # the row order that undoes perm
    return _rows_in_order(product, inverse, len(product.shape) - 2)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of the matrix lu() factored."""
    lower_upper = convert_to_tensor(lower_upper)
    size = lower_upper.shape[-1]
    identity = array_ops.eye(size, batch_shape=list(lower_upper.shape[:-2]), dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, identity, name=name)


def expm(input, name=None):  # noqa: A002
    """The matrix exponential of each square matrix (scaling and squaring, Pade 13), with its gradient."""
    x = _floats(input)
    return execute("MatrixExponential", (x,), x.dtype, name=name)


from .linalg_banded import (  # noqa: E402,F401 - tridiagonal and banded systems
    banded_triangular_solve, eigh_tridiagonal, tridiagonal_matmul, tridiagonal_solve,
)


from .linear_operator import (  # noqa: E402,F401 - tf.linalg's LinearOperator family
    LinearOperator, LinearOperatorAdjoint, LinearOperatorBlockDiag, LinearOperatorBlockLowerTriangular,
    LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D, LinearOperatorComposition,
    LinearOperatorDiag, LinearOperatorFullMatrix, LinearOperatorHouseholder, LinearOperatorIdentity,
    LinearOperatorInversion, LinearOperatorKronecker, LinearOperatorLowerTriangular, LinearOperatorLowRankUpdate,
    LinearOperatorPermutation, LinearOperatorScaledIdentity, LinearOperatorToeplitz, LinearOperatorTridiag,
    LinearOperatorZeros,
)
from .linalg_more import experimental, logm, sqrtm  # noqa: E402,F401 - linalg_more.py
