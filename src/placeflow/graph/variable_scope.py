"""TensorFlow 1 variable sharing: variable_scope (with reuse) and get_variable, per graph."""

from __future__ import annotations

import contextlib

from ..framework import dtypes, graph_mode
from .graph import get_default_graph
from .variables import RefVariable

AUTO_REUSE = "AUTO_REUSE"


def _state(graph):
    store = graph.__dict__.setdefault("_variable_store", {})   # full name -> variable made by get_variable
    stack = graph.__dict__.setdefault("_variable_scopes", [])  # [(name, reuse)]
    return store, stack


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, reuse=None, dtype=None,
                   **kwargs):
    """Names variables made by get_variable `scope/name`; reuse=True shares existing ones, AUTO_REUSE both."""
    if kwargs:
        raise NotImplementedError(f"variable_scope({sorted(kwargs)}=...) is not implemented in placeflow.")
    graph = graph_mode.active() or get_default_graph()
    _, stack = _state(graph)
    name = name_or_scope or default_name
    outer_reuse = stack[-1][1] if stack else None
    full = "/".join([s for s, _ in stack] + [name]) if name else "/".join(s for s, _ in stack)
    stack.append((name, reuse if reuse is not None else outer_reuse))
    try:
        with graph.name_scope(full + "/"):
            yield _Scope(full, stack[-1][1], initializer, dtype)
    finally:
        stack.pop()


class _Scope:
    """What `with variable_scope(...) as scope` gives: its name and reuse setting."""

    def __init__(self, name, reuse, initializer, dtype):
        self.name, self.reuse, self.initializer, self.dtype = name, reuse, initializer, dtype

    def reuse_variables(self) -> None:
        """Share variables from here on (reuse=True)."""
        self.reuse = True


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True,
                 collections=None, **kwargs):
    """The variable `scope/name`: created (initializer: glorot uniform for floats, zeros otherwise), or shared
    when the scope reuses, with TensorFlow's errors for a repeated creation or a missing shared variable."""
    if regularizer is not None or kwargs:
        raise NotImplementedError(f"get_variable({sorted(kwargs) or ['regularizer']}=...) is not implemented.")
    graph = graph_mode.active() or get_default_graph()
    store, stack = _state(graph)
    full = "/".join([s for s, _ in stack if s] + [name])
    reuse = stack[-1][1] if stack else None
    existing = store.get(full)
    if existing is not None:
        if reuse in (True, AUTO_REUSE):
            return existing
        raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set reuse=True or "
                         f"reuse=tf.AUTO_REUSE in VarScope?")
    if reuse is True:
        raise ValueError(f"Variable {full} does not exist, or was not created with tf.get_variable(). Did you mean "
                         f"to set reuse=tf.AUTO_REUSE in VarScope?")
    if initializer is not None and not callable(initializer):  # a value: its shape and dtype are the variable's
        if shape is not None:
            raise ValueError("If initializer is a constant, do not specify shape.")
        from ..eager.convert import convert_to_tensor
        value = convert_to_tensor(initializer, dtype=dtype)
        dtype = value.dtype
    else:
        if shape is None:
            raise ValueError(f"The shape of the new variable {full} must be given (shape=...).")
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        init = initializer or _default_initializer(dtype)
        value = init(tuple(int(d) for d in shape), dtype=dtype)
    with graph.name_scope(None):
        variable = RefVariable(graph, value, trainable=trainable, name=full, dtype=dtype, collections=collections)
    store[full] = variable
    return variable


def _default_initializer(dtype):
    """TF1's default: glorot uniform for floating variables, zeros for the rest."""
    import numpy as np

    def glorot_uniform(shape, dtype=dtypes.float32):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            return np.zeros(shape, dtype.numpy_dtype)
        receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
        fan_in = shape[-2] * receptive if len(shape) >= 2 else (shape[0] if shape else 1)
        fan_out = shape[-1] * receptive if len(shape) >= 2 else (shape[0] if shape else 1)
        limit = np.sqrt(6.0 / max(fan_in + fan_out, 1))
        return np.random.default_rng().uniform(-limit, limit, size=shape).astype(dtype.numpy_dtype)
    return glorot_uniform
