"""The top-level N-D FFT ops tf.fftnd, tf.ifftnd, tf.rfftnd and tf.irfftnd (TensorFlow's raw FFTND family:
fft_length and axes required). TensorFlow 2.21 has GPU kernels only for them; placeflow also runs them on the
host. Kernels in ops/fft_nd.py; fft_length and axes must be known when the op is built."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors
from .array_ops import get_static_value


def _static(value, what: str, op: str) -> tuple:
    known = get_static_value(convert_to_tensor(value, dtype=dtypes.int32))
    if known is None:
        raise NotImplementedError(f"tf.{op} with a {what} computed at run time is not implemented in placeflow; "
                                  f"pass {what} as a constant.")
    return tuple(int(n) for n in np.atleast_1d(known))


def _kind(dtype, allowed: tuple, attr: str, op: str):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        raise errors.InvalidArgumentError(None, None, f"tf.{op}: {attr}={dtype.name} is not one of "
                                                      f"{[t.name for t in allowed]}; pass one of those.")
    return dtype


def _attrs(fft_length, axes, op: str) -> dict:
    return {"fft_length": _static(fft_length, "fft_length", op), "axes": _static(axes, "axes", op)}


def fftnd(input, fft_length, axes, name=None):  # noqa: A002 - TensorFlow's parameter name
    """The discrete Fourier transform of a complex tensor over `axes`, each cropped or padded to fft_length."""
    x = convert_to_tensor(input)
    return execute("FFTND", (x,), x.dtype, _attrs(fft_length, axes, "fftnd"), name=name)


def ifftnd(input, fft_length, axes, name=None):  # noqa: A002
    """The inverse discrete Fourier transform of a complex tensor over `axes`."""
    x = convert_to_tensor(input)
    return execute("IFFTND", (x,), x.dtype, _attrs(fft_length, axes, "ifftnd"), name=name)


def rfftnd(input, fft_length, axes, Tcomplex=dtypes.complex64, name=None):  # noqa: A002,N803
    """The transform of a real tensor over `axes`: the non-negative frequencies of the last axis, as Tcomplex."""
    x = convert_to_tensor(input)
    attrs = dict(_attrs(fft_length, axes, "rfftnd"),
                 Tcomplex=_kind(Tcomplex, (dtypes.complex64, dtypes.complex128), "Tcomplex", "rfftnd"))
    return execute("RFFTND", (x,), x.dtype, attrs, name=name)


def irfftnd(input, fft_length, axes, Treal=dtypes.float32, name=None):  # noqa: A002,N803
    """The inverse of rfftnd: a real tensor (Treal) of fft_length over `axes`."""
    x = convert_to_tensor(input)
    attrs = dict(_attrs(fft_length, axes, "irfftnd"), Treal=_kind(Treal, (dtypes.float32, dtypes.float64), "Treal",
                                                                    "irfftnd"))
    return execute("IRFFTND", (x,), x.dtype, attrs, name=name)
