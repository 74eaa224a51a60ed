"""tf.py_function and tf.numpy_function: a Python function in a TensorFlow program.

Eagerly the function is called at once (py_function with eager tensors, so a tape records what it runs;
numpy_function with NumPy arrays). While a graph is built it becomes an EagerPyFunc or PyFunc op
(ops/script_ops.py) that calls it each time the graph runs; its outputs have unknown shapes, as in TF."""

from __future__ import annotations

import numpy as np

from ..eager import tape
from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, graph_mode
from ..ops.script_ops import as_op_error, next_token
from ..ops.script_ops import _results as results_of


def _touts(Tout) -> tuple:  # noqa: N803 - TensorFlow's argument name
    """(the output dtypes, whether a single tensor is returned)."""
    if isinstance(Tout, (list, tuple)):
        return tuple(dtypes.as_dtype(t) for t in Tout), False
    if Tout is None:
        raise TypeError("py_function/numpy_function need `Tout`: a dtype, or a list of dtypes (one per output).")
    return (dtypes.as_dtype(Tout),), True


def _shaped(outputs: list, single: bool):
    return outputs[0] if single else list(outputs)


def _on_host():
    from ..placement.device_scope import device
    return device("/cpu:0")


def _converted(returned, touts) -> list:
    return [convert_to_tensor(value, dtype=dtype) for value, dtype in zip(results_of(returned, len(touts)), touts)]


def _eager_error(error: BaseException, op: str, inputs, touts):
    wrapped = as_op_error(error, op)
    prefix = (f"{{{{function_node __wrapped__{op}_Tin_{len(inputs)}_Tout_{len(touts)}_device_/job:localhost/"
              f"replica:0/task:0/device:CPU:0}}}} ")
    return type(wrapped)(None, None, prefix + wrapped.message)


def py_function(func=None, inp=None, Tout=None, name=None):  # noqa: N803 - TensorFlow's argument names
    """Call `func` on eager tensors: now (eagerly), or each time the graph runs; gradients flow through
    what it computes. Returns a tensor for a single dtype `Tout`, else a list."""
    if func is None:
        return lambda f: py_function(f, inp, Tout, name)
    touts, single = _touts(Tout)
    inputs = [convert_to_tensor(x) for x in (inp or [])]
    if graph_mode.active() is None:
        try:
            with tape.paused_everywhere():   # as TF's op: the body's ops are not on the caller's tapes
                outputs = _converted(func(*inputs), touts)
        except Exception as error:  # noqa: BLE001 - TF's error class for what the function raised
            raise _eager_error(error, "EagerPyFunc", inputs, touts) from error
        if tape.active_count and outputs:
            tape.record_custom(inputs, outputs, _eager_gradient(func, touts, inputs))
        return _shaped(outputs, single)
    attrs = {"func": _array_wrapper(func, touts), "Tout": touts, "token": next_token(),
             "make_grad": _gradient_maker(func, touts)}
    out = execute("EagerPyFunc", tuple(inputs), touts[0] if touts else dtypes.bool, attrs, name=name)
    return [] if not touts else _shaped([out] if len(touts) == 1 else list(out), single)


def _array_wrapper(func, touts):
    def run(*arrays):
        with graph_mode.suspended(), _on_host():
            converted = _converted(func(*[convert_to_tensor(a) for a in arrays]), touts)
            return [np.asarray(t.numpy()) for t in converted]
    return run


def _gradient_maker(func, touts):
    def make(present, differentiable):
        def run(*arrays):
            from ..eager.tape import GradientTape
            from .array_ops import zeros_like
            count = len(arrays) - len(present)
            with graph_mode.suspended(), _on_host():
                values = [convert_to_tensor(a) for a in arrays[:count]]
                given = [convert_to_tensor(a) for a in arrays[count:]]
                with GradientTape() as tape:
                    for i in differentiable:
                        tape.watch(values[i])
                    outputs = _converted(func(*values), touts)
                grads = tape.gradient([outputs[i] for i in present], [values[i] for i in differentiable],
                                      output_gradients=given)
                return [np.asarray((g if g is not None else zeros_like(values[i])).numpy())
                        for g, i in zip(grads, differentiable)]
        return run
    return make


def _eager_gradient(func, touts, inputs):
    """The gradient of an eager py_function, as TF's EagerPyFunc gradient: the function rerun under a tape of its
    own, with every other tape paused, so a gradient of this gradient is None (as in TensorFlow)."""
    def gradient(entry, *upstream):
        present = [i for i, g in enumerate(upstream) if g is not None]
        if not present:
            return [None] * len(inputs)
        with tape.paused_everywhere():
            with tape.GradientTape() as inner:
                for value in inputs:
                    if value.dtype.is_floating or value.dtype.is_complex:
                        inner.watch(value)
                outputs = _converted(func(*inputs), touts)
            return inner.gradient([outputs[i] for i in present], list(inputs),
                                  output_gradients=[upstream[i] for i in present])
    return gradient


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):  # noqa: N803 - TF's names
    """Call `func` on NumPy arrays: now (eagerly, its exceptions and results as they are, as TF), or each time
    the graph runs (each result must then have its `Tout` dtype). Not differentiable. Returns a tensor for a
    single dtype `Tout`, else a list."""
    if func is None:
        return lambda f: numpy_function(f, inp, Tout, stateful, name)
    touts, single = _touts(Tout)
    inputs = [convert_to_tensor(x) for x in (inp or [])]
    if graph_mode.active() is None:
        returned = results_of(func(*[np.asarray(x.numpy()) for x in inputs]), len(touts))  # raises as Python does
        return _shaped([convert_to_tensor(v) for v in returned], single)  # fresh constants: not on any tape
    attrs = {"func": func, "Tout": touts, "token": next_token()}
    op = "PyFunc" if stateful else "PyFuncStateless"
    out = execute(op, tuple(inputs), touts[0] if touts else dtypes.bool, attrs, name=name)
    return [] if not touts else _shaped([out] if len(touts) == 1 else list(out), single)


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TensorFlow's argument names
    """compat.v1's py_func: numpy_function's semantics."""
    return numpy_function(func, inp, Tout, stateful, name)
