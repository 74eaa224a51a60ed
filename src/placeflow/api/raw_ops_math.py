"""tf.raw_ops, math family: special functions, bitwise, complex parts, FFTs, segments, searches and linalg."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import array_ops, fft_nd, linalg, math_ops, signal
from .raw_ops_common import binary, invalid, named, no_kernel, outputs, unary


def _public(path: str):
    """The public placeflow function at `path` (resolved when first called, so import order does not matter)."""
    def call(*args, **kwargs):
        import placeflow
        fn = placeflow
        for part in path.split("."):
            fn = getattr(fn, part)
        return fn(*args, **kwargs)
    return call


_UNARY_X = {
    "BesselI0": "math.bessel_i0", "BesselI0e": "math.bessel_i0e", "BesselI1": "math.bessel_i1",
    "BesselI1e": "math.bessel_i1e", "BesselJ0": "math.special.bessel_j0", "BesselJ1": "math.special.bessel_j1",
    "BesselK0": "math.special.bessel_k0", "BesselK0e": "math.special.bessel_k0e",
    "BesselK1": "math.special.bessel_k1", "BesselK1e": "math.special.bessel_k1e",
    "BesselY0": "math.special.bessel_y0", "BesselY1": "math.special.bessel_y1", "Dawsn": "math.special.dawsn",
    "Digamma": "math.digamma", "Erf": "math.erf", "Erfinv": "math.erfinv", "Expint": "math.special.expint",
    "FresnelCos": "math.special.fresnel_cos", "FresnelSin": "math.special.fresnel_sin", "Lgamma": "math.lgamma",
    "Ndtri": "math.ndtri", "Rint": "math.rint", "Spence": "math.special.spence", "Invert": "bitwise.invert",
    "InvertPermutation": "math.invert_permutation",
}
_UNARY_INPUT = {"Conj": "math.conj", "MatrixDeterminant": "linalg.det",
                "MatrixLogarithm": "linalg.logm", "MatrixSquareRoot": "linalg.sqrtm",
                "MatrixDiagPart": "linalg.diag_part",
                "FFT": "signal.fft", "FFT2D": "signal.fft2d", "FFT3D": "signal.fft3d", "IFFT": "signal.ifft",
                "IFFT2D": "signal.ifft2d", "IFFT3D": "signal.ifft3d"}
_BINARY = {
    "BitwiseAnd": ("bitwise.bitwise_and", "x y"), "BitwiseOr": ("bitwise.bitwise_or", "x y"),
    "BitwiseXor": ("bitwise.bitwise_xor", "x y"), "LeftShift": ("bitwise.left_shift", "x y"),
    "RightShift": ("bitwise.right_shift", "x y"), "TruncateDiv": ("truncatediv", "x y"),
    "TruncateMod": ("truncatemod", "x y"), "Igamma": ("math.igamma", "a x"), "Igammac": ("math.igammac", "a x"),
    "Zeta": ("math.zeta", "x q"), "Polygamma": ("math.polygamma", "a x"), "NextAfter": ("math.nextafter", "x1 x2"),
}


def _same_dtype_op(op: str, first: str, second: str):
    """A raw op with no public function: both inputs converted to the first's dtype, then `op` executed."""
    def raw(name=None, **kwargs):
        a = convert_to_tensor(kwargs[first])
        b = convert_to_tensor(kwargs[second], dtype=a.dtype)
        return execute(op, (a, b), a.dtype, name=name)
    return raw


def _igamma_grad_a(*, a, x, name=None):
    return _same_dtype_op("IgammaGradA", "a", "x")(a=a, x=x, name=name)


def _approximate_equal(*, x, y, tolerance=1e-05, name=None):
    """ApproximateEqual: |x - y| < tolerance elementwise, x and y of one shape (no broadcasting), as TF's op."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, np.integer, np.floating)):
        raise TypeError(f"Expected float for argument 'tolerance' not {tolerance!r}.")
    a = convert_to_tensor(x)
    b = convert_to_tensor(y, dtype=a.dtype)
    return execute("ApproximateEqual", (a, b), a.dtype, {"tolerance": float(tolerance)}, name=name)


def _betainc(*, a, b, x, name=None):
    return _public("math.betainc")(a, b, x, name=name)


def _checked(op: str, result, Tout):  # noqa: N803 - TensorFlow's attribute name
    """`result` when its dtype is TF's `Tout` attribute; else the refusal naming Tout."""
    if result.dtype != dtypes.as_dtype(Tout):
        no_kernel(op, f"Tout={dtypes.as_dtype(Tout).name}")
    return result


def _angle(*, input, Tout=dtypes.float32, name=None):  # noqa: A002,N803
    return _checked("Angle", math_ops.angle(input, name=name), Tout)


def _real(*, input, Tout=dtypes.float32, name=None):  # noqa: A002,N803
    return _checked("Real", math_ops.real(input, name=name), Tout)


def _imag(*, input, Tout=dtypes.float32, name=None):  # noqa: A002,N803
    return _checked("Imag", math_ops.imag(input, name=name), Tout)


def _complex_abs(*, x, Tout=dtypes.float32, name=None):  # noqa: N803
    return _checked("ComplexAbs", math_ops.abs(x, name=name), Tout)


def _complex(*, real, imag, Tout=dtypes.complex64, name=None):  # noqa: N803
    return _checked("Complex", math_ops.complex(real, imag, name=name), Tout)


def _rfft(op: str, fn):
    def raw(*, input, fft_length, Tcomplex=dtypes.complex64, name=None):  # noqa: A002,N803
        x = convert_to_tensor(input)
        lengths = [int(v) for v in np.asarray(fft_length).reshape(-1)]
        dims = list(x.shape)[-len(lengths):] if lengths else []
        for axis, (have, want) in enumerate(zip(dims, lengths)):
            if have is not None and have < want:   # TF's RFFT crops but never pads
                invalid(f"Input dimension {len(x.shape) - len(lengths) + axis} must have length of at least {want} "
                        f"but got: {have}; pad the input or pass a smaller fft_length.")
        result = fn(x, lengths, name=name)
        if result.dtype != dtypes.as_dtype(Tcomplex):
            no_kernel(op, f"Tcomplex={dtypes.as_dtype(Tcomplex).name}")
        return result
    return raw


def _irfft(op: str, fn):
    def raw(*, input, fft_length, Treal=dtypes.float32, name=None):  # noqa: A002,N803
        result = fn(input, fft_length, name=name)
        if result.dtype != dtypes.as_dtype(Treal):
            no_kernel(op, f"Treal={dtypes.as_dtype(Treal).name}")
        return result
    return raw


def _segment(fn):
    return lambda *, data, segment_ids, num_segments, name=None: fn(data, segment_ids, num_segments, name=name)


def _bound(side: str):
    def raw(*, sorted_inputs, values, out_type=dtypes.int32, name=None):
        return _public("searchsorted")(sorted_inputs, values, side=side, out_type=out_type, name=name)
    return raw


def _bincount(*, arr, size, weights, name=None):
    weights = convert_to_tensor(weights)
    if weights.shape.num_elements() == 0:
        return math_ops.bincount(arr, minlength=size, maxlength=size, dtype=weights.dtype, name=name)
    return math_ops.bincount(arr, weights, minlength=size, maxlength=size, name=name)


def _isotonic(*, input, output_dtype=dtypes.float32, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    found = execute("IsotonicRegression", (x,), x.dtype, {"output_dtype": dtypes.as_dtype(output_dtype)}, name=name)
    return outputs("IsotonicRegression", "output segments", found)


def _svd(*, input, compute_uv=True, full_matrices=False, name=None):  # noqa: A002
    """Svd: s in the input's dtype (complex for complex input, unlike tf.linalg.svd's real s), as TF's op."""
    x = convert_to_tensor(input)
    s, u, v = execute("Svd", (x,), x.dtype, {"full_matrices": bool(full_matrices)}, name=name)
    if not compute_uv:
        unused = array_ops.zeros([], s.dtype)   # TF: an uninitialized scalar
        return outputs("Svd", "s u v", (s, unused, unused))
    return outputs("Svd", "s u v", (s, u, v))


def _eig(*, input, Tout, compute_v=True, name=None):  # noqa: A002,N803
    x = convert_to_tensor(input)
    wide = x.dtype in (dtypes.float64, dtypes.complex128)
    expected = dtypes.complex128 if wide else dtypes.complex64
    if dtypes.as_dtype(Tout) != expected:
        invalid(f"Invalid output dtype {dtypes.as_dtype(Tout).name} for a {x.dtype.name} input; Eig's Tout must be "
                f"{expected.name}.")
    if not compute_v:
        e = linalg.eigvals(x, name=name)
        return outputs("Eig", "e v", (e, array_ops.zeros([], e.dtype)))   # TF: v an uninitialized scalar
    return outputs("Eig", "e v", linalg.eig(x, name=name))


def _self_adjoint_eig(*, input, compute_v=True, name=None):  # noqa: A002
    if not compute_v:
        e = linalg.eigvalsh(input, name=name)
        return outputs("SelfAdjointEigV2", "e v", (e, array_ops.zeros([], e.dtype)))  # TF: an uninitialized scalar
    return outputs("SelfAdjointEigV2", "e v", linalg.eigh(input, name=name))


def _matrix_exponential(*, input, name=None):  # noqa: A002
    """MatrixExponential: removed from TF's op set (TF 2.21 raises UnimplementedError); tf.linalg.expm computes it."""
    from ..framework import errors
    raise errors.UnimplementedError(None, None, "Op MatrixExponential is not available in this GraphDef version (TF "
                                                "removed it); use tf.linalg.expm.")


_OTHERS = {
    "MatrixExponential": _matrix_exponential,
    "IgammaGradA": _igamma_grad_a,
    "RandomGammaGrad": lambda *, alpha, sample, name=None: _same_dtype_op("RandomGammaGrad", "alpha", "sample")(
        alpha=alpha, sample=sample, name=name),
    "Betainc": _betainc, "ApproximateEqual": _approximate_equal,
    "Angle": _angle, "Real": _real, "Imag": _imag, "ComplexAbs": _complex_abs, "Complex": _complex,
    "RFFT": _rfft("RFFT", signal.rfft), "RFFT2D": _rfft("RFFT2D", signal.rfft2d),
    "RFFT3D": _rfft("RFFT3D", signal.rfft3d), "IRFFT": _irfft("IRFFT", signal.irfft),
    "IRFFT2D": _irfft("IRFFT2D", signal.irfft2d), "IRFFT3D": _irfft("IRFFT3D", signal.irfft3d),
    "FFTND": fft_nd.fftnd, "IFFTND": fft_nd.ifftnd, "RFFTND": fft_nd.rfftnd, "IRFFTND": fft_nd.irfftnd,
    "UnsortedSegmentSum": _segment(math_ops.unsorted_segment_sum),
    "UnsortedSegmentMax": _segment(math_ops.unsorted_segment_max),
    "UnsortedSegmentMin": _segment(math_ops.unsorted_segment_min),
    "UnsortedSegmentProd": _segment(math_ops.unsorted_segment_prod),
    "LowerBound": _bound("left"), "UpperBound": _bound("right"), "Bincount": _bincount,
    "IsotonicRegression": _isotonic,
    "ClipByValue": lambda *, t, clip_value_min, clip_value_max, name=None: math_ops.clip_by_value(
        t, clip_value_min, clip_value_max, name=name),
    "Bitcast": lambda *, input, type, name=None: array_ops.bitcast(input, type, name=name),  # noqa: A002
    "CumulativeLogsumexp": lambda *, x, axis, exclusive=False, reverse=False, name=None:
        math_ops.cumulative_logsumexp(x, axis, exclusive, reverse, name=name),
    "MatrixBandPart": lambda *, input, num_lower, num_upper, name=None: linalg.band_part(  # noqa: A002
        input, num_lower, num_upper, name=name),
    "MatrixDiag": lambda *, diagonal, name=None: linalg.diag(diagonal, name=name),
    "MatrixSolve": lambda *, matrix, rhs, adjoint=False, name=None: linalg.solve(matrix, rhs, adjoint, name=name),
    "MatrixTriangularSolve": lambda *, matrix, rhs, lower=True, adjoint=False, name=None: linalg.triangular_solve(
        matrix, rhs, lower, adjoint, name=name),
    "LogMatrixDeterminant": lambda *, input, name=None: outputs(  # noqa: A002
        "LogMatrixDeterminant", "sign log_abs_determinant", linalg.slogdet(input, name=name)),
    "Lu": lambda *, input, output_idx_type=dtypes.int32, name=None: outputs(  # noqa: A002
        "Lu", "lu p", linalg.lu(input, output_idx_type, name=name)),
    "Qr": lambda *, input, full_matrices=False, name=None: outputs(  # noqa: A002
        "Qr", "q r", linalg.qr(input, full_matrices, name=name)),
    "MatrixSolveLs": lambda *, matrix, rhs, l2_regularizer, fast=True, name=None: linalg.solve_ls(
        matrix, rhs, l2_regularizer, fast, name=name),
    "Svd": _svd, "Eig": _eig, "SelfAdjointEigV2": _self_adjoint_eig,
}


def table() -> dict:
    """The math family's raw ops by TF op name."""
    ops = {op: unary(op, _public(path)) for op, path in _UNARY_X.items()}
    ops.update({op: unary(op, _public(path), "input") for op, path in _UNARY_INPUT.items()})
    ops.update({op: binary(op, _public(path), args) for op, (path, args) in _BINARY.items()})
    ops.update({op: named(op, fn, f"tf.raw_ops.{op}, as TensorFlow's op of that name.") for op, fn in _OTHERS.items()})
    return ops

