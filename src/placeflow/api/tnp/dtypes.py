"""NumPy's scalar types, dtype queries and promotion, as TensorFlow's NumPy API exposes them."""

from __future__ import annotations

import numpy as np

import placeflow as tf

from ._core import _weak_or_dtype, is_tensor, np_dtype, result_type_np

bool_ = np.bool_
int_ = np.int64
float_ = np.float64
complex_ = np.complex128
object_ = np.object_
string_ = np.bytes_
unicode_ = np.str_
inexact = np.inexact
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
iinfo = np.iinfo


def finfo(dtype):
    """Machine limits of a floating-point dtype (NumPy's finfo; accepts placeflow dtypes and tensors)."""
    if is_tensor(dtype):
        dtype = dtype.dtype
    return np.finfo(np_dtype(dtype))


def result_type(*arrays_and_dtypes):
    """The placeflow dtype NumPy's promotion rules give for the arguments."""
    return tf.as_dtype(result_type_np(*arrays_and_dtypes))


def promote_types(type1, type2):
    """The smallest NumPy dtype both types convert to safely."""
    return np.promote_types(np_dtype(type1), np_dtype(type2))


def issubdtype(arg1, arg2):
    """Whether `arg1` is lower than or equal to `arg2` in NumPy's type hierarchy."""
    first = np_dtype(arg1) if hasattr(arg1, "as_numpy_dtype") and not isinstance(arg1, type) else arg1
    second = np_dtype(arg2) if hasattr(arg2, "as_numpy_dtype") and not isinstance(arg2, type) else arg2
    return np.issubdtype(first, second)


def iscomplexobj(x):
    """Whether `x` has a complex dtype."""
    return np.issubdtype(_dtype(x), np.complexfloating)


def isrealobj(x):
    """Whether `x` does not have a complex dtype."""
    return not iscomplexobj(x)


def isscalar(num):
    """Whether `num` is a scalar: a Python/NumPy scalar or a rank-0 tensor."""
    if is_tensor(num):
        return num.shape.rank == 0
    return np.isscalar(num) or (isinstance(num, np.ndarray) and num.ndim == 0)


def _dtype(x):
    found = _weak_or_dtype(x)
    return np.asarray(found).dtype if not isinstance(found, np.dtype) else found
