"""Linear-algebra ops on (batches of) matrices: inverse, determinant, solve, Cholesky, triangular solve, QR,
SVD, eigh, band part, diag, trace, einsum; gradients as TensorFlow defines them.

A singular matrix is InvalidArgumentError with TensorFlow's text ("Input is not invertible.")."""

import contextlib

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .emit import emit, matmul, negative, shape_of, transpose
from . import shape_rules as rules
from .registry import ALL, ANY, COMPLEX, FLOATS, define, no_gradient_yet

INEXACT = (FLOATS | COMPLEX) - {d.bfloat16}   # TensorFlow's linear algebra ops: half, float, double, complex
WIDE = INEXACT - {d.float16}   # the types TensorFlow 2.21 has kernels for in most of them (half: NotFoundError)


def _swap_last(x):
    rank = len(x.shape)
    return transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def _expand_last_two(x):
    return emit("ExpandDims", (emit("ExpandDims", (x,), x.dtype, {"axis": -1}),), x.dtype, {"axis": -1})


def _square(a, what="Input") -> None:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise InvalidArgumentError(None, None, f"{what} must be a square matrix (or a batch of them), got shape "
                                               f"{list(a.shape)}")


def _adjoint_of(xp, a):
    """Each matrix's conjugate transpose (its transpose when real): what an `adjoint` attribute applies."""
    swapped = xp.swapaxes(a, -1, -2)
    return xp.conj(swapped) if a.dtype.kind == "c" else swapped


def _widened(a):
    """`a` in float32 when it is half (NumPy's LAPACK has no half routines; TF's half kernels compute wider)."""
    return a.astype("float32") if a.dtype == np.float16 else a


def _linalg_call(xp, fn, *args):
    try:
        return fn(*args)
    except xp.linalg.LinAlgError as exc:
        raise InvalidArgumentError(None, None, "Input is not invertible.") from exc


def _matrix_shape(shapes, attrs):
    return shapes[0]


def _inverse_grad(e, g):
    """TensorFlow's rule: -Y^H g Y^H for Y = A^-1; with `adjoint` (Y = A^-H), -Y g^H Y."""
    out = e.outputs[0]
    if e.attrs.get("adjoint", False):
        return [negative(matmul(out, matmul(_adjoint(g), out)))]
    return [negative(matmul(_adjoint(out), matmul(g, _adjoint(out))))]


@define("MatrixInverse", INEXACT, gpu=WIDE, shape=rules.square_matrices, complex_convention=True,
        grad=_inverse_grad)
def _inverse(xp, a, adjoint=False):
    """Each matrix's inverse (half computed in float32 and rounded, which gives TF 2.21's half values)."""
    _square(a)
    out = _linalg_call(xp, xp.linalg.inv, _widened(a)).astype(a.dtype, copy=False)
    return _adjoint_of(xp, out) if adjoint else out


def _det_shape(shapes, attrs):
    return None if shapes[0] is None else tuple(shapes[0][:-2])


def _det_grad(e, g):
    """g * det * A^-H, TensorFlow's rule (for complex input too: the determinant is not conjugated)."""
    a, det = e.inputs[0], e.outputs[0]
    inverse_h = emit("MatrixInverse", (a,), a.dtype, {"adjoint": True})
    return [_expand_last_two(g * det) * inverse_h]


@define("MatrixDeterminant", WIDE, allowed=INEXACT, shape=_det_shape, grad=_det_grad, complex_convention=True)
def _determinant(xp, a):
    _square(a)
    with _quiet(xp):
        det = xp.linalg.det(a).astype(a.dtype, copy=False)
    return _with_non_finite_by_lu(xp, a, det, lambda sign, log_abs: sign * xp.exp(log_abs))


def _slogdet_grad(e, g_sign, g_log):
    """g_log * A^-H, TensorFlow's rule (the sign's gradient is not propagated, as there)."""
    a = e.inputs[0]
    inverse_h = emit("MatrixInverse", (a,), a.dtype, {"adjoint": True})
    return [_expand_last_two(g_log) * inverse_h]


@define("LogMatrixDeterminant", WIDE, allowed=INEXACT, shape=lambda shapes, attrs: [_det_shape(shapes, attrs)] * 2,
        grad=_slogdet_grad, complex_convention=True)
def _slogdet(xp, a):
    _square(a)
    with _quiet(xp):
        sign, log_abs = xp.linalg.slogdet(a)
    sign = _with_non_finite_by_lu(xp, a, sign.astype(a.dtype), lambda sign, log_abs: sign)
    log_abs = _with_non_finite_by_lu(xp, a, log_abs.astype(a.dtype), lambda sign, log_abs: log_abs)
    return sign, log_abs


def _with_non_finite_by_lu(xp, a, result, pick):
    """`result` with the entries of matrices that hold an inf or a NaN recomputed from TensorFlow's LU
    (LAPACK's pivoting gives det 0 for [[nan, 1], [1, 1]]; TF's partial-pivot LU gives nan there, and inf or
    nan where eliminating an inf row meets 0 * inf); `pick(sign, log_abs)` makes the entry."""
    bad = ~xp.isfinite(a).all(axis=(-2, -1))
    if not bad.any():
        return result
    result = xp.array(result, copy=True).reshape(bad.shape)
    result[bad] = pick(*_lu_sign_and_log_abs(xp, a[bad]))
    return result


def _quiet(xp):
    """NumPy's floating-point warnings off (TF is silent where an inf or NaN meets a kernel)."""
    return np.errstate(all="ignore") if xp is np else contextlib.nullcontext()


def _lu_sign_and_log_abs(xp, a):
    """(sign, log |det|) of each matrix of `a` [k, n, n] by LU with partial pivoting (the largest magnitude, a
    NaN first; the first on ties) and elimination in float arithmetic: infs and NaNs propagate as in TF's."""
    a = a.copy()
    count, n = a.shape[0], a.shape[-1]
    sign = xp.ones(count, a.dtype)
    log_abs = xp.zeros(count, a.real.dtype)
    singular = xp.zeros(count, bool)
    batch = xp.arange(count)
    with _quiet(xp):
        for k in range(n):
            magnitude = xp.abs(a[:, k:, k])
            row = k + xp.argmax(xp.where(xp.isnan(magnitude), np.inf, magnitude), axis=1)
            swapped = row != k
            a[batch, k], a[batch, row] = a[batch, row].copy(), a[batch, k].copy()
            sign = xp.where(swapped, -sign, sign)
            pivot = a[:, k, k]
            zero = pivot == 0
            singular |= zero
            unit = pivot / xp.abs(pivot) if a.dtype.kind == "c" else xp.sign(pivot)   # (inf / inf is nan)
            sign = sign * xp.where(zero, 1, unit)
            log_abs = log_abs + xp.log(xp.abs(pivot))
            factors = xp.where(zero[:, None], 0, a[:, k + 1:, k] / pivot[:, None])
            a[:, k + 1:, k + 1:] -= factors[:, :, None] * a[:, k, None, k + 1:]
    sign = xp.where(singular, 0, sign)
    log_abs = xp.where(singular, -np.inf, log_abs)
    return sign.astype(a.dtype), log_abs.astype(a.real.dtype)


def _solve_grad(e, g):
    """TensorFlow's rule, adjoints throughout (so it holds for complex matrices as written)."""
    a, x = e.inputs[0], e.outputs[0]
    adjoint = e.attrs.get("adjoint", False)
    grad_b = emit("MatrixSolve", (a, g), a.dtype, {"adjoint": not adjoint})
    grad_a = negative(matmul(x, _adjoint(grad_b)) if adjoint else matmul(grad_b, _adjoint(x)))
    return [grad_a, grad_b]


@define("MatrixSolve", WIDE, allowed=INEXACT, shape=lambda shapes, attrs: shapes[1], grad=_solve_grad, complex_convention=True)
def _solve(xp, a, b, adjoint=False):
    _square(a, "Input matrix")
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise InvalidArgumentError(None, None, f"Input matrix and right-hand side must have the same number of "
                                               f"rows: {list(a.shape)} vs. {list(b.shape)}")
    return _linalg_call(xp, xp.linalg.solve, _adjoint_of(xp, a) if adjoint else a, b).astype(a.dtype)


def _adjoint(x):
    swapped = _swap_last(x)
    return emit("Conj", (swapped,), x.dtype) if x.dtype.is_complex else swapped


def _band_of(x, lower, upper):
    return emit("MatrixBandPart", (x,), x.dtype, {"lower": lower, "upper": upper})


def _cholesky_grad(e, g):
    """0.5 * sym(L^-H phi(L^H G) L^-1), phi = lower part with the diagonal halved (Murray 2016, TF's rule),
    composed of differentiable ops so that second derivatives flow."""
    lower = e.outputs[0]
    eye = _band_of(emit("OnesLike", (lower,), lower.dtype), 0, 0)
    inverse = emit("MatrixTriangularSolve", (lower, eye), lower.dtype, {"lower": True, "adjoint": False})
    middle = matmul(_adjoint(lower), g)
    middle = _band_of(middle, -1, 0) - 0.5 * _band_of(middle, 0, 0)
    out = matmul(matmul(_adjoint(inverse), middle), inverse)
    return [0.5 * (out + _adjoint(out))]


@define("Cholesky", WIDE, allowed=INEXACT, shape=rules.square_matrices, grad=_cholesky_grad, complex_convention=True)
def _cholesky(xp, a):
    """The lower Cholesky factor; a matrix that is not positive definite gives NaN in its lower triangle (what
    TensorFlow 2.21 returns, recorded), so the failure shows in the numbers rather than passing as a value."""
    _square(a)
    try:
        return xp.linalg.cholesky(a)
    except xp.linalg.LinAlgError:
        if a.ndim == 2:
            return xp.tril(xp.full(a.shape, np.nan, a.dtype))
        return xp.stack([_cholesky(xp, m) for m in a.reshape((-1,) + a.shape[-2:])]).reshape(a.shape)


def _triangular_solve_grad(e, g):
    """TensorFlow's rule, adjoints throughout (so it holds for complex matrices as written)."""
    matrix, x = e.inputs[0], e.outputs[0]
    lower, adjoint = e.attrs.get("lower", True), e.attrs.get("adjoint", False)
    grad_b = emit("MatrixTriangularSolve", (matrix, g), g.dtype, {"lower": lower, "adjoint": not adjoint})
    grad_a = negative(matmul(x, _adjoint(grad_b)) if adjoint else matmul(grad_b, _adjoint(x)))
    band = (-1, 0) if lower else (0, -1)
    return [emit("MatrixBandPart", (grad_a,), g.dtype, {"lower": band[0], "upper": band[1]}), grad_b]


@define("MatrixTriangularSolve", WIDE, allowed=FLOATS | COMPLEX, shape=lambda shapes, attrs: shapes[1],
        grad=_triangular_solve_grad, complex_convention=True)
def _triangular_solve(xp, matrix, rhs, lower=True, adjoint=False):
    _square(matrix, "Input matrix")
    triangle = xp.tril(matrix) if lower else xp.triu(matrix)
    if adjoint:
        triangle = _adjoint_of(xp, triangle)
    return _linalg_call(xp, xp.linalg.solve, triangle, rhs).astype(matrix.dtype)


def _solve_ls_grad(e, g):
    if not e.attrs.get("fast", True):
        raise ValueError("Gradient not defined for fast=False")
    return no_gradient_yet("MatrixSolveLs (fast=True; tf.linalg.lstsq(fast=True) composes differentiable ops)")(e, g)


def _normal_equations(xp, a, b, l2):
    """The regularized least-squares solution through the normal equations and a Cholesky factor, as TF's fast
    kernel: (A^H A + l2 I)^-1 A^H b for rows >= columns, else A^H (A A^H + l2 I)^-1 b."""
    ah = _adjoint_of(xp, a)
    rows, cols = a.shape[-2], a.shape[-1]
    gram = ah @ a if rows >= cols else a @ ah
    gram = gram + l2 * xp.eye(gram.shape[-1], dtype=a.dtype)
    try:
        factor = xp.linalg.cholesky(gram)
    except xp.linalg.LinAlgError as exc:
        raise InvalidArgumentError(None, None, "Input matrix was rank deficient or ill-conditioned. Try setting "
                                               "fast=False or provide a larger l2_regularizer > 0.") from exc
    solved = xp.linalg.solve(_adjoint_of(xp, factor), xp.linalg.solve(factor, ah @ b if rows >= cols else b))
    return solved if rows >= cols else ah @ solved


def _min_norm(xp, a, b):
    """The minimum-norm least-squares solution of each system (what TF's complete orthogonal decomposition gives)."""
    flat_a = a.reshape((-1,) + a.shape[-2:])
    flat_b = b.reshape((-1,) + b.shape[-2:])
    out = xp.stack([xp.linalg.lstsq(m, r, rcond=None)[0] for m, r in zip(flat_a, flat_b)]) if len(flat_a) else \
        xp.zeros((0,) + a.shape[-1:] + b.shape[-1:], a.dtype)
    return out.reshape(a.shape[:-2] + (a.shape[-1], b.shape[-1]))


def _solve_ls_shape(shapes, attrs):
    matrix, rhs = shapes[0], shapes[1]
    if matrix is None or rhs is None:
        return None
    return tuple(matrix[:-2]) + (matrix[-1], rhs[-1])


@define("MatrixSolveLs", WIDE, gpu=(), allowed=INEXACT, shape=_solve_ls_shape, grad=_solve_ls_grad)
def _solve_ls(xp, matrix, rhs, l2_regularizer, fast=True):
    """X minimizing |matrix X - rhs|^2 + l2 |X|^2 (fast: normal equations; else the minimum-norm solution, the
    regularizer ignored as TF's kernel ignores it)."""
    for index, array in enumerate((matrix, rhs)):
        if array.ndim < 2:
            raise InvalidArgumentError(None, None, f"Input tensor {index} must have rank >= 2, got {array.ndim}")
    if matrix.shape[:-2] != rhs.shape[:-2] or matrix.shape[-2] != rhs.shape[-2]:
        raise InvalidArgumentError(None, None, "Input matrix and rhs are incompatible.")
    if np.ndim(l2_regularizer) != 0:
        raise InvalidArgumentError(None, None, f"l2_regularizer must be scalar, got shape "
                                               f"{list(np.shape(l2_regularizer))}")
    if 0 in matrix.shape or 0 in rhs.shape:
        return xp.zeros(matrix.shape[:-2] + (matrix.shape[-1], rhs.shape[-1]), matrix.dtype)
    if fast:
        return _normal_equations(xp, matrix, rhs, float(l2_regularizer)).astype(matrix.dtype, copy=False)
    return _min_norm(xp, matrix, rhs).astype(matrix.dtype, copy=False)


def _band(xp, a, lower, upper):
    rows, cols = a.shape[-2], a.shape[-1]
    i = xp.arange(rows)[:, None]
    j = xp.arange(cols)[None, :]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return xp.where(keep, a, xp.zeros((), a.dtype))


@define("MatrixBandPart", ALL, allowed=ANY, shape=_matrix_shape,
        grad=lambda e, g: [emit("MatrixBandPart", (g,), g.dtype, dict(e.attrs))])
def _band_part(xp, a, lower=-1, upper=-1):
    return _band(xp, a, int(lower), int(upper))


def _qr(xp, a, full_matrices=False):
    """(q, r) of each matrix (half computed in float32 and rounded: within half's precision of TF's values, which
    its half kernel computes in half)."""
    q, r = xp.linalg.qr(_widened(a), mode="complete" if full_matrices else "reduced")
    return q.astype(a.dtype), r.astype(a.dtype)


def _svd(xp, a, compute_uv=True, full_matrices=False):
    u, s, vh = xp.linalg.svd(a, full_matrices=full_matrices)
    return s.astype(a.dtype), u.astype(a.dtype), _adjoint_of(xp, vh).astype(a.dtype)   # a = u diag(s) v^H


def _eigh(xp, a, compute_v=True):
    _square(a)
    values, vectors = xp.linalg.eigh(a)
    return values.astype(a.dtype), vectors.astype(a.dtype)


def _einsum_grad(e, g):
    equation = _without_ellipsis(e.attrs["equation"], [shape_of(x) for x in e.inputs]) or e.attrs["equation"]
    return [emit("Einsum", (g, *[x for j, x in enumerate(e.inputs) if j != i]), g.dtype,
                 {"equation": _gradient_equation(equation, i)})
            if _gradient_equation(equation, i) else _unsupported_einsum_grad(e.attrs["equation"])
            for i in range(len(e.inputs))]


def _without_ellipsis(equation: str, shapes):
    """`equation` with each `...` spelled out in unused letters (from the inputs' static ranks), or None when it
    has none, a rank is unknown, or the ellipsis dimensions broadcast (sizes differ: not implemented)."""
    equation = equation.replace(" ", "")
    if "..." not in equation or "->" not in equation:
        return None
    inputs, output = equation.split("->")
    parts = inputs.split(",")
    if any(s is None or None in s for s in shapes) or len(parts) != len(shapes):
        return None
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in equation]
    counts = [len(s) - len(p.replace("...", "")) if "..." in p else 0 for p, s in zip(parts, shapes)]
    width = max(counts)
    if width > len(spare):
        return None
    letters = spare[:width]
    sizes = {}
    for part, shape, count in zip(parts, shapes, counts):
        if "..." not in part:
            continue
        start = part.index("...")
        for letter, size in zip(letters[width - count:], shape[start:start + count]):
            if sizes.setdefault(letter, size) != size:
                return None
    spelled = [p.replace("...", "".join(letters[width - c:])) for p, c in zip(parts, counts)]
    return ",".join(spelled) + "->" + output.replace("...", "".join(letters))


def _gradient_equation(equation: str, index: int):
    """The einsum giving the gradient of input `index`, or None when its subscripts repeat a letter or hold one
    that appears nowhere else (those need a diagonal or a broadcast, not implemented)."""
    inputs, output = equation.replace(" ", "").split("->")
    parts = inputs.split(",")
    mine, others = parts[index], [p for j, p in enumerate(parts) if j != index]
    available = set(output) | set("".join(others))
    if "." in equation or len(set(mine)) != len(mine) or not set(mine) <= available:
        return None
    return ",".join([output] + others) + "->" + mine


def _unsupported_einsum_grad(equation):
    raise LookupError(f"placeflow does not implement the einsum gradient for {equation!r} (an input with a repeated "
                      f"subscript, an ellipsis, or a subscript summed away within one input).")


def _einsum(xp, *operands, equation=""):
    try:
        return xp.einsum(equation, *operands)
    except ValueError as exc:
        raise InvalidArgumentError(None, None, f"Invalid einsum equation {equation!r} for inputs of shapes "
                                               f"{[list(o.shape) for o in operands]}: {exc}") from exc


def _several(kernel, outputs: int):
    """A shape rule for a multi-output kernel: evaluated on zero matrices (unknown when any dimension is)."""
    def rule(shapes, attrs):
        if any(s is None or None in s for s in shapes):
            return [None] * outputs
        try:
            return [tuple(np.shape(out)) for out in kernel(np, *[np.zeros(s) for s in shapes], **attrs)]
        except Exception:  # noqa: BLE001 - unknown statically; the kernel reports the problem when it runs
            return [None] * outputs
    return rule


define("Qr", INEXACT, gpu=WIDE, shape=_several(_qr, 2), grad=no_gradient_yet("Qr"))(_qr)
define("Svd", WIDE, allowed=INEXACT, shape=_several(_svd, 3), grad=no_gradient_yet("Svd"))(_svd)
define("SelfAdjointEigV2", WIDE, allowed=INEXACT, shape=_several(_eigh, 2), grad=no_gradient_yet("SelfAdjointEigV2"))(_eigh)
define("Einsum", FLOATS | COMPLEX, shape=rules.by_evaluation(_einsum), grad=_einsum_grad)(_einsum)


@define("MatrixDiagPart", ALL, shape=lambda shapes, attrs: None if shapes[0] is None else tuple(
        shapes[0][:-2]) + (None if None in shapes[0][-2:] else min(shapes[0][-2:]),),
        grad=lambda e, g: [emit("_MatrixDiagLike", (g, e.inputs[0]), g.dtype)])
def _diag_part(xp, a):
    return xp.diagonal(a, axis1=-2, axis2=-1).copy()


@define("_MatrixDiagLike", ALL, shape=lambda shapes, attrs: shapes[1], shape_only_inputs=(1,),
        grad=lambda e, g: [emit("MatrixDiagPart", (g,), g.dtype), None])
def _diag_like(xp, diagonal, like):
    """A matrix shaped like `like` with `diagonal` on its main diagonal, zeros elsewhere (diag_part's gradient)."""
    out = xp.zeros(like.shape, diagonal.dtype)
    n = min(like.shape[-2:])
    index = xp.arange(n)
    out[..., index, index] = diagonal
    return out


@define("MatrixDiag", ALL, shape=lambda shapes, attrs: None if shapes[0] is None else tuple(shapes[0]) + (
        shapes[0][-1],), grad=lambda e, g: [emit("MatrixDiagPart", (g,), g.dtype)])
def _diag(xp, diagonal):
    n = diagonal.shape[-1]
    out = xp.zeros(diagonal.shape + (n,), diagonal.dtype)
    index = xp.arange(n)
    out[..., index, index] = diagonal
    return out
