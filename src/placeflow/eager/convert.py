"""Turning Python and NumPy values into tensors, with TensorFlow's dtype inference."""

from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from .execute import execute
from .tensor import EagerTensor


def as_tensor_or_none(value):
    """The tensor behind `value` (a tensor, or a variable's current value), else None."""
    if value.__class__ is EagerTensor:
        return value
    read = getattr(value, "_as_tensor", None)
    return read() if read is not None else None


def host_array(value, dtype=None) -> np.ndarray:
    """A fresh NumPy array of `value`: Python floats become float32 and ints int32, as in TensorFlow."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        raw = np.asarray(value)
        if dtype.is_integer and raw.dtype.kind in "fc" and not np.all(np.equal(np.mod(raw.real, 1), 0)):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        if dtype.is_bool and raw.dtype.kind != "b":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype bool")
        try:
            return np.array(raw, dtype=dtype.numpy_dtype, copy=True)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}: {exc}") from None
    array = np.array(value, copy=True)
    if isinstance(value, (np.ndarray, np.generic)):
        return array
    if array.dtype == np.float64:
        return array.astype(np.float32)
    if array.dtype == np.int64 and array.size and np.abs(array).max() < 2**31:
        return array.astype(np.int32)
    if array.dtype.kind in "US":
        return array.astype(object)
    return array


def _shaped(array: np.ndarray, shape, value) -> np.ndarray:
    shape = tuple(int(d) for d in shape)
    size = int(np.prod(shape))
    if array.size == size:
        return array.reshape(shape)
    if array.size == 1:
        return np.full(shape, array.reshape(()), dtype=array.dtype)
    raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value!r} has {array.size} "
                    f"elements, but got `shape` {shape} with {size} elements.")


def constant(value, dtype=None, shape=None, name="Const"):
    """A tensor holding `value`, placed like any op (GPU:0 when there is one and no scope says otherwise)."""
    tensor = as_tensor_or_none(value)
    if tensor is not None:
        array = tensor.numpy()
        value = array.astype(dtypes.as_dtype(dtype).numpy_dtype) if dtype is not None else array
    array = host_array(value, dtype)
    if shape is not None:
        array = _shaped(array, shape, value)
    return execute("_EagerConst", (array,), dtypes.as_dtype(array.dtype), name=name)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """`value` as a tensor: tensors pass through (dtype checked), other values become constants."""
    tensor = as_tensor_or_none(value)
    if tensor is not None:
        if dtype is not None and tensor.dtype != dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with "
                             f"dtype {tensor.dtype.name}: {tensor!r}")
        return tensor
    if dtype is None and dtype_hint is not None:
        try:
            return constant(value, dtype=dtype_hint, name=name or "Const")
        except (TypeError, ValueError):
            pass
    return constant(value, dtype=dtype, name=name or "Const")


def operands(op: str, values) -> tuple:
    """Inputs of `op` that must share one dtype: tensors as they are, literals as host arrays."""
    tensors = [as_tensor_or_none(v) for v in values]
    dtype = next((t.dtype for t in tensors if t is not None), None)
    if dtype is None:
        dtype = dtypes.as_dtype(host_array(values[0]).dtype)
    out = []
    for index, (value, tensor) in enumerate(zip(values, tensors)):
        if tensor is None:
            out.append(host_array(value, dtype))
        elif tensor.dtype != dtype:
            raise errors.InvalidArgumentError(None, None, (
                f"cannot compute {op} as input #{index}(zero-based) was expected to be a {dtype.name} tensor but "
                f"is a {tensor.dtype.name} tensor [Op:{op}]\nplaceflow: cast one input with "
                f"placeflow.cast(x, placeflow.{dtype.name})."))
        else:
            out.append(tensor)
    return out, dtype
