"""LU with partial pivoting (Lu), general eigendecomposition (Eig) and the matrix exponential
(MatrixExponential) of batches of matrices, on the host.

Lu packs L (unit diagonal, below it) and U (on and above it) into one matrix and returns the row order p with
input[p] = L @ U, pivoting on the first largest magnitude as LAPACK; a zero pivot leaves its column as it is.
TensorFlow registers no gradient for Lu. Eig returns complex eigenvalues and unit eigenvectors.
MatrixExponential is Higham's scaling and squaring with a degree-13 Pade approximant; its gradient is the
adjoint Frechet derivative, read from the exponential of a block matrix.
"""

from __future__ import annotations

import numpy as np

from ..framework import dtypes as d
from .emit import emit
from .registry import COMPLEX, FLOATS, define, no_gradient_registered, no_gradient_yet

_INEXACT = (FLOATS | COMPLEX) - {d.bfloat16, d.float16}
_COMPLEX_OF = {d.float32: d.complex64, d.float64: d.complex128, d.complex64: d.complex64,
               d.complex128: d.complex128}
_PADE_13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
            10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0,
            1.0)
_THETA_13 = 5.371920351148152


def _host(array) -> np.ndarray:
    return array.get() if hasattr(array, "get") else np.asarray(array)


def lu(matrices: np.ndarray) -> tuple:
    """(packed LU, row order) of each matrix of a batch (float64 or complex128 work, input dtype out)."""
    work = matrices.astype(np.complex128 if np.iscomplexobj(matrices) else np.float64, copy=True)
    n = work.shape[-1]
    flat = work.reshape(-1, n, n)
    order = np.tile(np.arange(n), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(flat[:, k:, k]), axis=1)
        flat[rows, [k], :], flat[rows, pivot, :] = flat[rows, pivot, :].copy(), flat[rows, [k], :].copy()
        order[rows, k], order[rows, pivot] = order[rows, pivot].copy(), order[rows, k].copy()
        head = flat[:, k, k]
        safe = np.where(head == 0, 1.0, head)
        multipliers = np.where((head == 0)[:, None], 0.0, flat[:, k + 1:, k] / safe[:, None])
        flat[:, k + 1:, k] = multipliers
        flat[:, k + 1:, k + 1:] -= multipliers[:, :, None] * flat[:, k, None, k + 1:]
    return flat.reshape(matrices.shape).astype(matrices.dtype), order.reshape(matrices.shape[:-1])


def _lu_kernel(xp, a, output_idx_type=d.int32):
    packed, order = lu(_host(a))
    return xp.asarray(packed), xp.asarray(order.astype(output_idx_type.numpy_dtype))


def _lu_shape(shapes, attrs):
    shape = shapes[0]
    return [shape, None if shape is None else tuple(shape[:-1])]


def _expm_one(matrix: np.ndarray) -> np.ndarray:
    """exp(matrix) by scaling, a degree-13 Pade approximant, and squaring."""
    norm = np.abs(matrix).sum(axis=0).max() if matrix.size else 0.0
    squarings = max(0, int(np.ceil(np.log2(norm / _THETA_13)))) if norm > _THETA_13 else 0
    a = matrix / (2.0 ** squarings)
    identity = np.eye(matrix.shape[-1], dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    b = _PADE_13
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * identity)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * identity
    result = np.linalg.solve(v - u, v + u)
    for _ in range(squarings):
        result = result @ result
    return result


def expm(matrices: np.ndarray) -> np.ndarray:
    """The matrix exponential of each matrix of a batch."""
    work = matrices.astype(np.complex128 if np.iscomplexobj(matrices) else np.float64)
    n = work.shape[-1]
    flat = work.reshape(-1, n, n)
    out = np.stack([_expm_one(m) for m in flat]) if flat.shape[0] else flat
    return out.reshape(matrices.shape).astype(matrices.dtype)


def _expm_grad(e, g):
    """The adjoint Frechet derivative: the upper-right block of exp([[A^H, G], [0, A^H]])."""
    return [emit("_MatrixExponentialGrad", (e.inputs[0], g), g.dtype)]


def _expm_grad_kernel(xp, a, g):
    a, g = _host(a), _host(g)
    n = a.shape[-1]
    adjoint = np.conj(np.swapaxes(a, -1, -2))
    block = np.zeros(a.shape[:-2] + (2 * n, 2 * n), dtype=a.dtype)
    block[..., :n, :n], block[..., :n, n:], block[..., n:, n:] = adjoint, g, adjoint
    return xp.asarray(expm(block)[..., :n, n:])


def _eig_kernel(xp, a, compute_v=True):
    values, vectors = np.linalg.eig(_host(a))
    dtype = _COMPLEX_OF[d.as_dtype(a.dtype)].numpy_dtype
    return xp.asarray(values.astype(dtype)), xp.asarray(vectors.astype(dtype))


def _eig_shape(shapes, attrs):
    shape = shapes[0]
    return [None if shape is None else tuple(shape[:-1]), shape]


def _eig_dtype(dtype, attrs):
    return [_COMPLEX_OF[dtype], _COMPLEX_OF[dtype]]  # eigenvalues, eigenvectors


define("Lu", _INEXACT, shape=_lu_shape, grad=no_gradient_registered("Lu"),
       dtype=lambda dtype, attrs: [dtype, attrs.get("output_idx_type", d.int32)])(_lu_kernel)
define("MatrixExponential", _INEXACT, grad=_expm_grad, shape=lambda shapes, attrs: shapes[0])(
    lambda xp, a: xp.asarray(expm(_host(a))))
define("_MatrixExponentialGrad", _INEXACT, grad=no_gradient_yet("_MatrixExponentialGrad"),
       shape=lambda shapes, attrs: shapes[0])(_expm_grad_kernel)
define("Eig", _INEXACT, shape=_eig_shape, grad=no_gradient_yet("Eig"), dtype=_eig_dtype)(_eig_kernel)
