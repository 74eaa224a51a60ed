"""Matrix square root (MatrixSquareRoot) and logarithm (MatrixLogarithm) of batches of matrices, the Sylvester
solve their gradients use (_SylvesterSolve), and the Levenshtein distance of sparse sequences (EditDistance).
Host kernels, without SciPy: the square root is the scaled Denman-Beavers iteration, the logarithm inverse scaling
and squaring (repeated square roots, then Gauss-Legendre quadrature of log(I + X)); a result whose residual shows
the iteration could not converge (an eigenvalue at or next to zero) is refused by name, never returned wrong."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError, UnimplementedError
from . import shape_rules
from .emit import emit, matmul, negative, transpose
from .registry import ALL, COMPLEX, NOT_DIFFERENTIABLE, define, no_gradient_registered

_SQRT_DTYPES = frozenset({d.float32, d.float64, d.complex64, d.complex128})   # TF's CPU kernels (no half)
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(12)


def _host(array) -> np.ndarray:
    return array.get() if hasattr(array, "get") else np.asarray(array)


def _square(a, op: str) -> None:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise InvalidArgumentError(None, None, f"{op}: input must be a square matrix (or a batch of them), got shape "
                                               f"{list(a.shape)}; pass [..., n, n].")


def _refuse(op: str, why: str):
    raise UnimplementedError(None, None, f"{op} of a matrix {why} is not implemented in placeflow (its iteration "
                                         f"cannot reach TensorFlow's accuracy there); compute it outside placeflow "
                                         f"for such inputs.")


def _denman_beavers(a: np.ndarray, op: str) -> np.ndarray:
    """The principal square root of one matrix (float64 or complex128), by the determinant-scaled iteration."""
    n = a.shape[-1]
    eye = np.eye(n, dtype=a.dtype)
    y, z = a.copy(), eye.copy()
    for _ in range(100):
        try:
            scale = abs(np.linalg.det(y) * np.linalg.det(z)) ** (-1.0 / (2 * n))
            y_inv, z_inv = np.linalg.inv(y), np.linalg.inv(z)
        except np.linalg.LinAlgError:
            _refuse(op, "with a zero eigenvalue")
        if not np.isfinite(scale) or scale == 0:
            _refuse(op, "with a zero eigenvalue")
        y_next, z_next = 0.5 * (scale * y + z_inv / scale), 0.5 * (scale * z + y_inv / scale)
        done = np.linalg.norm(y_next - y, 1) <= 1e-15 * np.linalg.norm(y_next, 1)
        y, z = y_next, z_next
        if done:
            break
    if np.linalg.norm(y @ y - a, 1) > 1e-10 * max(np.linalg.norm(a, 1), 1e-300):
        _refuse(op, "with an eigenvalue at or next to zero")
    return y


def _has_negative_eigenvalue(a: np.ndarray) -> bool:
    values = np.linalg.eigvals(a)
    return bool(np.any((values.real < 0) & (np.abs(values.imag) <= 1e-12 * max(np.abs(values).max(), 1e-300))))


def _matrix_sqrt(a: np.ndarray, op: str) -> np.ndarray:
    """Principal square root; a real matrix with a negative eigenvalue has no real one: NaN, as TF's kernel."""
    if not np.iscomplexobj(a) and _has_negative_eigenvalue(a):
        return np.full(a.shape, np.nan)
    if np.iscomplexobj(a) and _has_negative_eigenvalue(a):
        _refuse(op, "with a negative real eigenvalue")
    return _denman_beavers(a, op)


def _each(fn, a: np.ndarray) -> np.ndarray:
    work = _host(a).astype(np.complex128 if np.iscomplexobj(a) else np.float64)
    flat = work.reshape((int(np.prod(work.shape[:-2])),) + work.shape[-2:])
    out = np.stack([fn(m) for m in flat]) if flat.shape[0] and work.shape[-1] else flat
    return out.reshape(work.shape).astype(a.dtype)


def _sqrtm_grad(e, g):
    """d/dA of sum(g * sqrtm(A)): the Sylvester solve X^T S + S X^T = g (X the square root)."""
    x = e.outputs[0]
    return [emit("_SylvesterSolve", (_swap_last(x), g), g.dtype)]


def _swap_last(x):
    rank = len(x.shape)
    return transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


@define("MatrixSquareRoot", _SQRT_DTYPES, gpu=(), allowed=_SQRT_DTYPES | {d.float16},
        shape=shape_rules.square_matrices, grad=_sqrtm_grad)
def _matrix_square_root(xp, a):
    """The principal square root of each matrix of a batch."""
    _square(a, "MatrixSquareRoot")
    return xp.asarray(_each(lambda m: _matrix_sqrt(m, "tf.linalg.sqrtm"), a))


def _sylvester_grad(e, h):
    """S = L_B^-1(G), L_B(S) = B S + S B: dG gets P = L_{B^T}^-1(h), dB gets -(P S^T + S^T P)."""
    b, s = e.inputs[0], e.outputs[0]
    p = emit("_SylvesterSolve", (_swap_last(b), h), h.dtype)
    s_t = _swap_last(s)
    return [negative(emit("AddV2", (matmul(p, s_t), matmul(s_t, p)))), p]


@define("_SylvesterSolve", _SQRT_DTYPES, gpu=(), shape=lambda shapes, attrs: shapes[1], grad=_sylvester_grad)
def _sylvester_solve(xp, b, g):
    """S with B S + S B = G for each matrix of a batch (row-major vec: (B kron I + I kron B^T) vec S = vec G)."""
    bh, gh = _host(b), _host(g)
    n = bh.shape[-1]
    eye = np.eye(n, dtype=bh.dtype)
    system = (np.einsum("...ij,kl->...ikjl", bh, eye) + np.einsum("ij,...lk->...ikjl", eye, bh)).reshape(
        bh.shape[:-2] + (n * n, n * n))
    solved = np.linalg.solve(system, gh.reshape(gh.shape[:-2] + (n * n, 1)))
    return xp.asarray(solved.reshape(gh.shape).astype(g.dtype))


def _log_near_identity(x: np.ndarray) -> np.ndarray:
    """log(I + X) for small X: the integral of X (I + t X)^-1 over [0, 1], by Gauss-Legendre quadrature."""
    eye = np.eye(x.shape[-1], dtype=x.dtype)
    total = np.zeros_like(x)
    for node, weight in zip((_NODES + 1) / 2, _WEIGHTS / 2):
        total = total + weight * np.linalg.solve(eye + node * x, x)
    return total


def _matrix_log(a: np.ndarray) -> np.ndarray:
    """Principal logarithm: 2^k log(A^(1/2^k)), square roots taken until A^(1/2^k) is next to I."""
    if a.shape[-1] and _has_negative_eigenvalue(a):
        _refuse("tf.linalg.logm", "with a negative real eigenvalue")
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    root, halvings = a, 0
    while np.linalg.norm(root - eye, 1) > 0.05 and halvings < 60:
        root, halvings = _denman_beavers(root, "tf.linalg.logm"), halvings + 1
    return (2.0 ** halvings) * _log_near_identity(root - eye)


@define("MatrixLogarithm", COMPLEX, gpu=(), shape=shape_rules.square_matrices,
        grad=no_gradient_registered("MatrixLogarithm"), complex_convention=True)
def _matrix_logarithm(xp, a):
    """The principal logarithm of each complex matrix of a batch."""
    _square(a, "MatrixLogarithm")
    return xp.asarray(_each(_matrix_log, a))


# -- edit distance -----------------------------------------------------------------------------------------------

def _levenshtein(h, t) -> int:
    previous = list(range(len(t) + 1))
    for i, hv in enumerate(h, 1):
        current = [i]
        for j, tv in enumerate(t, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (hv != tv)))
        previous = current
    return previous[-1]


def _sequences(indices, values, shape_prefix) -> dict:
    groups = {}
    for index, value in zip(np.asarray(indices).tolist(), np.asarray(values).tolist()):
        key = tuple(index[:-1])
        if any(k >= s for k, s in zip(key, shape_prefix)):
            raise InvalidArgumentError(None, None, f"EditDistance: index {index} is outside the output shape "
                                                   f"{list(shape_prefix)}; indices must lie within their dense_shape.")
        groups.setdefault(key, []).append(value)
    return groups


def _check_sparse(indices, values, shape, which):
    if indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1 or indices.shape[0] != values.shape[0] or \
            indices.shape[1] != shape.shape[0]:
        raise InvalidArgumentError(None, None, f"EditDistance: {which} is not a valid SparseTensor (indices "
                                               f"{list(indices.shape)}, values {list(values.shape)}, shape "
                                               f"{list(shape.shape)}); pass [N, rank] indices and [N] values.")


def _edit_distance_dtype(dtype, attrs):
    return d.float32


@define("EditDistance", ALL | {d.string}, gpu=(), dtype=_edit_distance_dtype, grad=NOT_DIFFERENTIABLE,
        shape=lambda shapes, attrs: None)
def _edit_distance(xp, h_indices, h_values, h_shape, t_indices, t_values, t_shape, normalize=True):
    """The Levenshtein distance between each hypothesis and truth sequence (the last dimension), normalized by
    the truth's length when asked."""
    h_indices, h_values, h_shape = _host(h_indices), _host(h_values), _host(h_shape)
    t_indices, t_values, t_shape = _host(t_indices), _host(t_values), _host(t_shape)
    _check_sparse(h_indices, h_values, h_shape, "hypothesis")
    _check_sparse(t_indices, t_values, t_shape, "truth")
    if h_shape.shape != t_shape.shape:
        raise InvalidArgumentError(None, None, f"EditDistance: hypothesis and truth must have the same rank, got "
                                               f"{h_shape.tolist()} and {t_shape.tolist()}.")
    out_shape = tuple(np.maximum(h_shape, t_shape)[:-1].tolist())
    hyps, truths = _sequences(h_indices, h_values, out_shape), _sequences(t_indices, t_values, out_shape)
    out = np.zeros(out_shape, np.float32)
    for key in set(hyps) | set(truths):
        h, t = hyps.get(key, []), truths.get(key, [])
        distance = np.float32(_levenshtein(h, t))
        with np.errstate(divide="ignore", invalid="ignore"):
            out[key] = distance / np.float32(len(t)) if normalize else distance
    return xp.asarray(out)
