"""Python functions as ops (TF's EagerPyFunc for tf.py_function, PyFunc for tf.numpy_function).

The kernel calls the Python function when the graph runs, on the host: EagerPyFunc with eager tensors
(so the function may run placeflow ops, and its gradient is the gradient of what it ran), PyFunc with
NumPy arrays. Results are checked against `Tout`; exceptions become TF's error classes as TF maps them
(an OpError keeps its class; StopIteration OutOfRange, TypeError and ValueError InvalidArgument,
NotImplementedError Unimplemented, MemoryError ResourceExhausted, anything else Unknown, IndexError too)."""

from __future__ import annotations

import itertools
import traceback

import numpy as np

from ..framework import dtypes as d
from ..framework import errors
from .registry import ANY, NOT_DIFFERENTIABLE, define

_TOKENS = itertools.count()


def next_token() -> str:
    """A name for one registered Python function ('pyfunc_0', ...), as TF names them in its errors."""
    return f"pyfunc_{next(_TOKENS)}"


def _out_shapes(shapes, attrs):
    count = len(attrs["Tout"])
    return [None] * count if count != 1 else None


def _out_dtypes(dtype, attrs):
    touts = list(attrs["Tout"])
    return touts[0] if len(touts) == 1 else (touts or [d.bool])


_ERROR_CLASSES = ((StopIteration, errors.OutOfRangeError), (TypeError, errors.InvalidArgumentError), (ValueError, errors.InvalidArgumentError),
                  (NotImplementedError, errors.UnimplementedError), (MemoryError, errors.ResourceExhaustedError))


def as_op_error(error: BaseException, op: str):
    """The TF error a Python exception inside a py_function/numpy_function becomes."""
    if isinstance(error, errors.OpError):
        return error
    text = f"{type(error).__name__}: {error}\n{''.join(traceback.format_exception(error))}"
    for python_class, tf_class in _ERROR_CLASSES:
        if isinstance(error, python_class):
            return tf_class(None, None, text)
    return errors.UnknownError(None, None, text)


def _results(returned, count: int) -> list:
    if count == 0:
        return []
    if count == 1 and not isinstance(returned, (list, tuple)):
        return [returned]
    returned = list(returned) if isinstance(returned, (list, tuple)) else [returned]
    if len(returned) != count:
        raise errors.InvalidArgumentError(None, None, f"Expected {count} values from the Python function, got "
                                                      f"{len(returned)}.")
    return returned


def _packed(arrays: list, count: int):
    if count == 0:
        return np.asarray(True)
    return arrays[0] if count == 1 else tuple(arrays)


@define("EagerPyFunc", ANY, gpu=(), shape=_out_shapes, dtype=_out_dtypes, grad=lambda e, *g: _grad(e, g))
def _eager_py_func(xp, *inputs, func=None, Tout=(), token="", make_grad=None):  # noqa: N803 - TF's attribute name
    """func(*arrays) at run time: `func` is tf.py_function's wrapper (eager tensors in, results converted to
    `Tout` as arrays out)."""
    try:
        arrays = func(*[np.asarray(x) for x in inputs])
    except Exception as error:  # noqa: BLE001 - becomes the op's TF error, as TF's kernel does
        raise as_op_error(error, "EagerPyFunc") from error
    return _packed(list(arrays), len(Tout))


@define("PyFuncStateless", ANY, gpu=(), shape=_out_shapes, dtype=_out_dtypes, grad=NOT_DIFFERENTIABLE)
def _py_func_stateless(xp, *inputs, func=None, Tout=(), token=""):  # noqa: N803 - TensorFlow's attribute name
    """numpy_function(stateful=False): as PyFunc, but a graph may skip it when nothing reads its results."""
    return _py_func(xp, *inputs, func=func, Tout=Tout, token=token)


@define("PyFunc", ANY, gpu=(), shape=_out_shapes, dtype=_out_dtypes, grad=NOT_DIFFERENTIABLE)
def _py_func(xp, *inputs, func=None, Tout=(), token=""):  # noqa: N803 - TensorFlow's attribute name
    """func(*NumPy arrays) at run time; each result must already have its `Tout` dtype."""
    try:
        returned = _results(func(*[np.asarray(x) for x in inputs]), len(Tout))
    except Exception as error:  # noqa: BLE001 - becomes the op's TF error
        raise as_op_error(error, "PyFunc") from error
    arrays = []
    for index, (value, dtype) in enumerate(zip(returned, Tout)):
        array = np.asarray(value, dtype=object if dtype == d.string and not isinstance(value, np.ndarray) else None)
        got = d.string if array.dtype.kind in "SUO" else d.as_dtype(array.dtype)
        if got != dtype:
            raise errors.InvalidArgumentError(None, None, f"{index}-th value returned by {token} is "
                                                          f"{d.cpp_name(got)}, but expects {d.cpp_name(dtype)}")
        arrays.append(array)
    return _packed(arrays, len(Tout))


def _grad(entry, upstream):
    """The gradient of an EagerPyFunc: another EagerPyFunc, which reruns the function under a tape (the
    wrapper's `make_grad(present)` builds it for the upstream gradients that are present)."""
    from .emit import emit
    make_grad = entry.attrs.get("make_grad")
    inputs = list(entry.inputs)
    differentiable = [i for i, x in enumerate(inputs) if x.dtype.is_floating or x.dtype.is_complex]
    present = [i for i, g in enumerate(upstream) if g is not None]
    if make_grad is None or not differentiable or not present:
        return [None] * len(inputs)
    attrs = {"func": make_grad(present, differentiable), "Tout": tuple(inputs[i].dtype for i in differentiable),
             "token": next_token()}
    out = emit("EagerPyFunc", tuple(inputs) + tuple(upstream[i] for i in present), inputs[differentiable[0]].dtype,
               attrs)
    out = [out] if len(differentiable) == 1 else list(out)
    result = [None] * len(inputs)
    for i, g in zip(differentiable, out):
        result[i] = g
    return result
