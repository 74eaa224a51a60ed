"""Turning Python and NumPy values into tensors, with TensorFlow's dtype inference."""

from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors, graph_mode
from .execute import execute
from .tensor import EagerTensor


def as_tensor_or_none(value, dtype=None, name=None):
    """The tensor behind `value` (a tensor, a variable's current value, or what an object's `__tf_tensor__`
    gives: TensorFlow's conversion protocol, which Keras variables implement), else None."""
    if value.__class__ is EagerTensor:
        return value
    read = getattr(value, "_as_tensor", None)
    if read is not None:
        return read()
    protocol = getattr(type(value), "__tf_tensor__", None)
    return protocol(value, dtype, name) if protocol is not None else None


def _converted(value, dtype=None, name=None):
    """`as_tensor_or_none`, and a (nested) list or tuple holding tensors packed as TensorFlow packs it."""
    if value.__class__ in _SEQUENCES:
        return packed(value, dtype)
    tensor = as_tensor_or_none(value, dtype, name)
    if tensor is None and conversion_hook is not None:
        return conversion_hook(value, dtype, name)
    return tensor


conversion_hook = None  # tf.register_tensor_conversion_function's converter (set by api/gradient_registry.py)


_SEQUENCES = (list, tuple)


def packed(value, dtype=None):
    """A (nested) list or tuple holding tensors as one tensor, as TensorFlow's auto-packing makes it: a Pack op
    per level, run (or recorded) like any op, so gradients reach the tensors and placement applies; Python
    numbers take the first tensor's dtype. None when it holds no tensor (a plain literal)."""
    found = _first_dtype(value)
    if found is None:
        return None
    dtype = dtypes.as_dtype(dtype) if dtype is not None else found
    return _pack(value, dtype)


def _first_dtype(value):
    for item in value:
        if item.__class__ in _SEQUENCES:
            found = _first_dtype(item)
        else:
            tensor = as_tensor_or_none(item) if _is_tensor_like(item) else None
            found = None if tensor is None else tensor.dtype
        if found is not None:
            return found
    return None


def _is_tensor_like(item) -> bool:
    cls = item.__class__
    return cls is EagerTensor or hasattr(cls, "_as_tensor") or hasattr(cls, "__tf_tensor__") or \
        getattr(cls, "is_symbolic_tensor", False)


def _pack(value, dtype):
    parts = []
    for index, item in enumerate(value):
        if item.__class__ in _SEQUENCES:
            part = _pack(item, dtype) if _first_dtype(item) is not None else constant(item, dtype=dtype)
        elif _is_tensor_like(item):
            part = item if getattr(item.__class__, "is_symbolic_tensor", False) else as_tensor_or_none(item)
        else:
            part = constant(item, dtype=dtype)
        if part.dtype != dtype:
            raise _pack_dtype_error(index, part, dtype)
        parts.append(part)
    return execute("Pack", tuple(parts), dtype, {"axis": 0}, name="packed")


def _pack_dtype_error(index, part, dtype):
    """TensorFlow's error for a packed list of tensors of two dtypes: the Pack op's (eager), or the conversion's
    TypeError (while a graph is built)."""
    if graph_mode.active() is not None:
        return TypeError(f"Cannot convert a list containing a tensor of dtype {part.dtype!r} to {dtype!r} (Tensor "
                         f"is: {part!r})\nplaceflow: cast the tensors to one dtype first.")
    return errors.InvalidArgumentError(None, None, f"cannot compute Pack as input #{index}(zero-based) was expected "
                                                   f"to be a {dtypes.cpp_name(dtype)} tensor but is a "
                                                   f"{dtypes.cpp_name(part.dtype)} tensor [Op:Pack] name: packed")


def _unsupported(value) -> Exception:
    """TensorFlow's error for a value of no tensor type: ValueError eagerly, TypeError (its graph conversion's)
    while a graph is built (None stays a ValueError in both)."""
    if value is not None and graph_mode.active() is not None:
        return TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider casting elements to a "
                         f"supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                         f"TF dtypes.")
    return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)!r}) to a Tensor.")


def _check_convertible(value, raw: np.ndarray) -> None:
    """None, arbitrary objects and ragged nests are not tensors (NumPy would make object arrays of them)."""
    if raw.dtype == object and not all(isinstance(v, (str, bytes)) for v in raw.reshape(-1)):
        bad = next((v for v in raw.reshape(-1) if not isinstance(v, (str, bytes))), value)
        raise _unsupported(bad)


def _raw(value) -> np.ndarray:
    if value is None:
        raise _unsupported(value)
    try:
        raw = np.asarray(value)
        if raw.dtype.kind == "S" and not isinstance(value, (np.ndarray, np.generic)):
            raw = np.array(value, dtype=object)  # NumPy's fixed-width bytes drop trailing NULs: TF keeps them
    except ValueError:  # a ragged nest
        raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: {value!r}") from None
    _check_convertible(value, raw)
    return raw


def _mixes_text_and_numbers(nest) -> bool:
    """Whether a nested list holds both strings and non-strings (NumPy would turn the numbers into text)."""
    kinds = set()
    stack = [nest]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            kinds.add(isinstance(item, (str, bytes, np.str_, np.bytes_)))
    return len(kinds) > 1


def host_array(value, dtype=None) -> np.ndarray:
    """A fresh NumPy array of `value`: Python floats become float32 and ints int32, as in TensorFlow."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        raw = _raw(value)
        if dtype.is_integer and raw.dtype.kind in "fc" and raw.size and not isinstance(value, (np.ndarray, np.generic)):
            # Python floats (even whole ones, even NumPy floats inside a list) never become integers in TF;
            # a NumPy array or scalar is cast by NumPy (truncating), as TF does
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        if dtype.is_integer and raw.dtype.kind in "iuf" and raw.size and not _fits(raw, dtype.numpy_dtype):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        if dtype.is_bool and raw.dtype.kind != "b":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype bool")
        if dtype == dtypes.string:
            return _strings_of(value, raw)
        try:
            return np.array(raw, dtype=dtype.numpy_dtype, copy=True)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}: {exc}") from None
    array = np.array(_raw(value), copy=True)
    if array.dtype.kind in "USO" and isinstance(value, (list, tuple)) and _mixes_text_and_numbers(value):
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if array.dtype.kind in "US":  # NumPy's fixed-width strings too: TensorFlow holds bytes objects
        return as_bytes(array)
    if isinstance(value, (np.ndarray, np.generic)):
        return array
    if array.dtype == np.float64:
        return array.astype(np.float32)
    if array.dtype == np.int64 and array.size and -2**31 <= array.min() and array.max() < 2**31:
        return array.astype(np.int32)
    if array.dtype.kind in "USO" and array.size and all(isinstance(v, (str, bytes, np.str_, np.bytes_))
                                                        for v in array.reshape(-1)):
        return as_bytes(array)
    if array.dtype.kind in "US":
        return as_bytes(array)
    return array


def _strings_of(value, raw: np.ndarray) -> np.ndarray:
    """A literal converted with dtype string: str and bytes only (as TensorFlow), held as bytes."""
    if raw.size == 0:  # an empty list is a string tensor of no elements, as TF
        return np.empty(raw.shape, dtype=object)
    if raw.dtype.kind not in "USO" or not all(isinstance(v, (str, bytes, np.str_, np.bytes_))
                                              for v in raw.reshape(-1)):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
    return as_bytes(raw)


def as_bytes(array: np.ndarray) -> np.ndarray:
    """A string array as TensorFlow holds strings: an object array of bytes (str is UTF-8 encoded)."""
    out = np.empty(array.shape, dtype=object)
    flat = out.reshape(-1)
    for index, item in enumerate(array.reshape(-1)):
        flat[index] = item.encode("utf-8") if isinstance(item, str) else bytes(item)
    return out


def _fits(raw: np.ndarray, numpy_dtype) -> bool:
    """Whether every value is representable in the integer dtype (TF refuses, NumPy would wrap around)."""
    if raw.dtype.kind in "iu" and np.can_cast(raw.dtype, numpy_dtype):
        return True
    info = np.iinfo(numpy_dtype)
    return bool(info.min <= raw.min() and raw.max() <= info.max)


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
    tensor = _converted(value, dtype, name)
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


def _graph_type_error(op, index, count, got, want) -> TypeError:
    names = ("a", "b") if op == "MatMul" else ("x", "y") if count == 2 else None
    this, first = (f"'{names[index]}'", f"argument '{names[0]}'") if names else (f"#{index}", "input #0")
    return TypeError(f"Input {this} of '{op}' Op has type {got.name} that does not match type {want.name} of "
                     f"{first}.\nplaceflow: cast one input with placeflow.cast(x, placeflow.{want.name}).")


def operands(op: str, values) -> tuple:
    """Inputs of `op` that must share one dtype: tensors as they are, literals as host arrays."""
    tensors = [_converted(v) for v in values]
    dtype = next((t.dtype for t in tensors if t is not None), None)
    if dtype is None:
        dtype = dtypes.as_dtype(host_array(values[0]).dtype)
    out = []
    for index, (value, tensor) in enumerate(zip(values, tensors)):
        if tensor is None:
            out.append(_literal(op, index, len(values), value, dtype))
        elif tensor.dtype != dtype:
            raise _mismatch(op, index, len(values), tensor.dtype, dtype)
        else:
            out.append(tensor)
    return out, dtype


def _literal(op, index, count, value, dtype):
    """A Python or NumPy literal as a host array of `dtype`. One that does not fit it (1.5 for int32) is a
    TypeError, except for AddV2 (tf.add and +), which TensorFlow converts with a dtype hint: there it is
    the same error as a tensor of the literal's own dtype (recorded from TF 2.21)."""
    try:
        return host_array(value, dtype)
    except TypeError:
        if op != "AddV2":
            raise
        try:
            natural = dtypes.as_dtype(host_array(value).dtype)
        except (TypeError, ValueError):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}") from None
        raise _mismatch(op, index, count, natural, dtype) from None


def _mismatch(op, index, count, got, want) -> Exception:
    """Input `index` of `op` has dtype `got` where `want` is expected: TypeError while building a graph,
    InvalidArgumentError eagerly (TensorFlow's classes and texts)."""
    if graph_mode.active() is not None:  # TensorFlow checks input types while building a graph
        return _graph_type_error(op, index, count, got, want)
    return errors.InvalidArgumentError(None, None, (
        f"cannot compute {op} as input #{index}(zero-based) was expected to be a {dtypes.cpp_name(want)} tensor "
        f"but is a {dtypes.cpp_name(got)} tensor [Op:{op}]\nplaceflow: cast one input with "
        f"placeflow.cast(x, placeflow.{want.name})."))
