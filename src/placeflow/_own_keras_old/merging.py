"""Layers that combine several inputs (Concatenate, Add, Multiply, ...) and the layer behind arithmetic on
KerasTensors."""

from __future__ import annotations

import functools

from ..api import array_ops, math_ops
from .layers import Layer


def _broadcast(shapes) -> tuple:
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    out = []
    for dims in zip(*padded):
        known = [d for d in dims if d is not None and d != 1]
        out.append(None if any(d is None for d in dims) and not known else (known[0] if known else 1))
    return tuple(out)


class _Merge(Layer):
    """Elementwise combination of a list of same-shaped (broadcastable) inputs."""

    def _combine(self, a, b):
        raise NotImplementedError

    def build(self, input_shape) -> None:
        if not isinstance(input_shape, list) or len(input_shape) < 2:
            raise ValueError(f"A merge layer should be called on a list of at least 2 inputs. Got "
                             f"{len(input_shape) if isinstance(input_shape, list) else 1} inputs.")

    def call(self, inputs):
        return functools.reduce(self._combine, inputs)

    def compute_output_shape(self, input_shape) -> tuple:
        return _broadcast(input_shape)


class Add(_Merge):
    """The sum of the inputs."""

    def _combine(self, a, b):
        return math_ops.add(a, b)


class Subtract(_Merge):
    """The first input minus the second."""

    def build(self, input_shape) -> None:
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: "
                             f"input_shape={input_shape}")

    def _combine(self, a, b):
        return math_ops.subtract(a, b)


class Multiply(_Merge):
    """The elementwise product of the inputs."""

    def _combine(self, a, b):
        return math_ops.multiply(a, b)


class Maximum(_Merge):
    """The elementwise maximum of the inputs."""

    def _combine(self, a, b):
        return math_ops.maximum(a, b)


class Minimum(_Merge):
    """The elementwise minimum of the inputs."""

    def _combine(self, a, b):
        return math_ops.minimum(a, b)


class Average(_Merge):
    """The elementwise mean of the inputs."""

    def call(self, inputs):
        return math_ops.add_n(list(inputs)) / float(len(inputs))


class Concatenate(Layer):
    """The inputs joined along `axis`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = int(axis)

    def build(self, input_shape) -> None:
        if not isinstance(input_shape, list) or len(input_shape) < 1:
            raise ValueError("A `Concatenate` layer should be called on a list of inputs.")
        ranks = {len(s) for s in input_shape}
        if len(ranks) != 1:
            raise ValueError(f"A `Concatenate` layer requires inputs with matching shapes except for the concatenation "
                             f"axis. Received: input_shape={input_shape}")

    def call(self, inputs):
        return array_ops.concat(list(inputs), self.axis)

    def compute_output_shape(self, input_shape) -> tuple:
        axis = self.axis % len(input_shape[0])
        out = list(input_shape[0])
        sizes = [s[axis] for s in input_shape]
        out[axis] = None if None in sizes else sum(sizes)
        return tuple(out)


class OperatorLayer(Layer):
    """An operator on KerasTensors (`a + b`, `2 * x`) as a layer of the functional graph."""

    def __init__(self, fn, name, **kwargs):
        super().__init__(name=None, **kwargs)
        self._fn, self._operator = fn, name

    def call(self, inputs):
        return self._fn(*inputs) if isinstance(inputs, (list, tuple)) else self._fn(inputs)

    def compute_output_shape(self, input_shape) -> tuple:
        if isinstance(input_shape, list):
            if self._operator == "matmul":
                return tuple(input_shape[0][:-1]) + tuple(input_shape[1][-1:])
            return _broadcast(input_shape)
        return tuple(input_shape)
