"""More of tf.linalg and its top-level aliases: sqrtm (matrix_square_root), logm, experimental.conjugate_gradient,
eig and eigvals at the top level; with extract_volume_patches, parallel_stack, edit_distance and
sparse.sampled_addmm. Kernels in ops/linalg_more.py; the rest is built from placeflow ops (so it runs in
`function` and has gradients where its parts do)."""

from __future__ import annotations

import collections
import types

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import build_errors, dtypes, errors
from . import array_ops, indexing, math_ops


def sqrtm(input, name=None):  # noqa: A002 - TensorFlow's parameter name
    """The principal square root of each square matrix (NaN where a real matrix has no real one)."""
    x = convert_to_tensor(input)
    return execute("MatrixSquareRoot", (x,), x.dtype, name=name)


matrix_square_root = sqrtm


def logm(input, name=None):  # noqa: A002
    """The principal logarithm of each square complex matrix."""
    x = convert_to_tensor(input)
    return execute("MatrixLogarithm", (x,), x.dtype, name=name)


# -- conjugate gradient ----------------------------------------------------------------------------------------

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])
_REAL_TYPES = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16", "uint16", "float16",
               "uint32", "uint64")   # TF's Greater, which compares the residual norms


def _dot(a, b):
    return math_ops.reduce_sum(a * b, axis=-1)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """Solve operator @ x = rhs for a self-adjoint positive definite LinearOperator by conjugate gradients:
    CGState(i, x, r, p, gamma) after the iterations (stopping when every residual norm is at most `tol` times
    its initial norm, or after max_iter)."""
    from .control_flow import while_loop
    if not getattr(operator, "is_self_adjoint", None) or not getattr(operator, "is_positive_definite", None):
        raise ValueError(f"Expected a self-adjoint, positive definite operator; got {operator!r} (set "
                         f"is_self_adjoint=True and is_positive_definite=True on it).")
    rhs = convert_to_tensor(rhs, dtype=operator.dtype)
    if rhs.dtype.is_complex:  # TF 2.21 compares complex residual norms with > there: InvalidArgumentError
        raise build_errors.dtype_not_allowed("x", rhs.dtype, _REAL_TYPES, (
            f"conjugate_gradient of a {rhs.dtype.name} operator is not supported (as in TensorFlow 2.21); solve the "
            f"real system [[Re, -Im], [Im, Re]] instead."))
    x = array_ops.zeros_like(rhs) if x is None else convert_to_tensor(x, dtype=rhs.dtype)
    precondition = (lambda v: v) if preconditioner is None else preconditioner.matvec
    r = rhs - operator.matvec(x)
    p = precondition(r)
    limit = tol * _norm(r)

    def keep_going(i, state):
        return math_ops.logical_and(i < max_iter, math_ops.reduce_any(_norm(state.r) > limit))

    def step(i, state):
        z = operator.matvec(state.p)
        alpha = state.gamma / _dot(state.p, z)
        x_next = state.x + alpha[..., None] * state.p
        r_next = state.r - alpha[..., None] * z
        q = precondition(r_next)
        gamma = _dot(r_next, q)
        return i + 1, CGState(state.i + 1, x_next, r_next, q + (gamma / state.gamma)[..., None] * state.p, gamma)

    start = CGState(convert_to_tensor(0, dtypes.int32), x, r, p, _dot(r, p))
    return while_loop(keep_going, step, [convert_to_tensor(0, dtypes.int32), start])[1]


def _norm(v):
    return math_ops.sqrt(_dot(v, v))


experimental = types.ModuleType("placeflow.linalg.experimental", "tf.linalg.experimental: conjugate_gradient.")
experimental.conjugate_gradient = conjugate_gradient


# -- volume patches, parallel_stack ----------------------------------------------------------------------------

def _five(values, what) -> tuple:
    values = [int(v) for v in values]
    if len(values) != 5:
        graph_text = f"Attr '{what}' of 'ExtractVolumePatches' Op passed list of length {len(values)} less than " \
                     f"minimum 5." if len(values) < 5 else f"{what} must have 5 entries [1, planes, rows, cols, 1]"
        raise build_errors.invalid(graph_text, f"{what} must have 5 entries [1, planes, rows, cols, 1]; got {values}")
    if values[0] != 1 or values[4] != 1:
        raise errors.UnimplementedError(None, None, f"Only support {what} across space; got {values}, expected "
                                                    f"[1, planes, rows, cols, 1].")
    return tuple(values[1:4])


_PATCH_DTYPES = frozenset({dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                           dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64})


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """The ksizes[1:4] volumes of `input` ([batch, planes, rows, cols, depth]) every strides apart, each
    flattened (plane, row, column, depth) into the last dimension."""
    from .image_boxes import _span
    from .nn import _shape_error
    x = convert_to_tensor(input)
    if len(x.shape) != 5:
        raise _shape_error(f"input must be 5-dimensional [batch, planes, rows, cols, depth]; got shape "
                           f"{list(x.shape)} (rank {len(x.shape)}).")
    if x.dtype not in _PATCH_DTYPES:
        raise build_errors.dtype_not_allowed("input", x.dtype, _REAL_TYPES, (
            f"extract_volume_patches: input dtype {x.dtype.name} is not one of "
            f"{sorted(t.name for t in _PATCH_DTYPES)}; cast it."))
    sizes, steps = _five(ksizes, "ksizes"), _five(strides, "strides")
    padding = str(padding).upper()
    if padding not in ("SAME", "VALID"):
        raise build_errors.string_not_allowed("ExtractVolumePatches", "padding", padding, ("SAME", "VALID"),
                                              f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                                              "allowed values: \"SAME\", \"VALID\"")
    spans = [_span(int(x.shape[k + 1]), sizes[k], steps[k], 1, padding) for k in range(3)]
    counts = [count for count, _ in spans]
    if padding == "SAME" and any(sum(pads) for _, pads in spans):
        x = indexing.pad(x, [[0, 0]] + [list(pads) for _, pads in spans] + [[0, 0]])
    if min(counts) <= 0:
        return array_ops.zeros([int(x.shape[0])] + [max(c, 0) for c in counts] + [int(np.prod(sizes)) *
                                                                                 int(x.shape[4])], x.dtype)
    pieces = [x[:, i: i + (counts[0] - 1) * steps[0] + 1: steps[0], j: j + (counts[1] - 1) * steps[1] + 1: steps[1],
                k: k + (counts[2] - 1) * steps[2] + 1: steps[2], :]
              for i in range(sizes[0]) for j in range(sizes[1]) for k in range(sizes[2])]
    return array_ops.concat(pieces, axis=4, name=name or "concat")


def parallel_stack(values, name="parallel_stack"):
    """The tensors stacked along a new first dimension; graphs and `function` only (TF refuses it eagerly)."""
    from ..graph.v1_api import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution; call it inside a "
                           "placeflow.function or a graph, or use tf.stack.")
    return array_ops.stack(values, axis=0, name=name)


# -- edit distance, sampled_addmm ------------------------------------------------------------------------------

def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between the sequences (last dimension) of two SparseTensors, divided by the
    truth's length when `normalize`: a float32 tensor of their shape without the last dimension."""
    from .sparse import SparseTensor
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError(f"Hypothesis must be a SparseTensor; got {type(hypothesis).__name__}.")
    if not isinstance(truth, SparseTensor):
        raise TypeError(f"Truth must be a SparseTensor; got {type(truth).__name__}.")
    if hypothesis.values.dtype != truth.values.dtype:
        raise build_errors.input_type_mismatch(
            "EditDistance", "truth_values", truth.values.dtype, hypothesis.values.dtype,
            f"edit_distance: hypothesis values are {hypothesis.values.dtype.name} but truth values "
            f"{truth.values.dtype.name}; cast one to the other.", of_argument="hypothesis_values")
    inputs = (hypothesis.indices, hypothesis.values, math_ops.cast(hypothesis.dense_shape, dtypes.int64),
              truth.indices, truth.values, math_ops.cast(truth.dense_shape, dtypes.int64))
    return execute("EditDistance", inputs, hypothesis.values.dtype, {"normalize": bool(normalize)}, name=name)


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type=dtypes.float32):
    """(indices, alpha * (mat1 @ mat2) at `indices` + beta * values, dense_shape): a sparse matrix plus the
    product sampled at its entries."""
    indices, dense_shape = convert_to_tensor(indices), convert_to_tensor(dense_shape, dtype=dtypes.int32)
    values = convert_to_tensor(values, dtype=output_type)
    mat1, mat2 = convert_to_tensor(mat1, dtype=output_type), convert_to_tensor(mat2, dtype=output_type)
    product = math_ops.matmul(mat1, mat2)
    expected = [int(n) for n in product.shape[-2:]]
    given = array_ops.get_static_value(dense_shape)
    if given is not None and np.any(np.asarray(given).reshape(-1, 2) != expected):
        raise ValueError(f"sampled_addmm: dense_shape {np.asarray(given).tolist()} must be the product's shape "
                         f"{expected} (mat1's rows, mat2's columns).")
    if given is None:  # computed when the graph runs: checked then (InvalidArgumentError, as TF's shapes fail)
        from .debugging_ops import assert_equal
        assert_equal(array_ops.reshape(dense_shape, [-1, 2]), expected, message=(
            f"sampled_addmm: dense_shape must be the product's shape {expected} (mat1's rows, mat2's columns)"))
    out = convert_to_tensor(alpha, dtype=output_type) * _sampled(product, indices) + \
        convert_to_tensor(beta, dtype=output_type) * values
    return indices, out, dense_shape


def _sampled(product, indices):
    """product[..., indices[..., k, 0], indices[..., k, 1]] for each batch matrix (one flat gather)."""
    rows, cols = (int(n) for n in product.shape[-2:])
    batch_shape = [int(n) for n in product.shape[:-2]]
    position = math_ops.cast(indices[..., 0] * cols + indices[..., 1], dtypes.int64)
    offsets = np.arange(int(np.prod(batch_shape)), dtype=np.int64).reshape(batch_shape + [1]) * (rows * cols)
    return indexing.gather(array_ops.reshape(product, [-1]), position + offsets)
