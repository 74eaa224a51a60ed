"""Axis arguments: what TensorFlow accepts as an axis, and the error class it raises for what it refuses."""

from __future__ import annotations

import numbers

import numpy as np

from ..framework import errors


def axis_arg(axis, attr: str = "Tidx", float_error=TypeError):
    """An int, or a tuple of ints for a list, from an axis argument (None stays None).

    As TensorFlow: a Python float is refused by the conversion to an int32 tensor (TypeError, or the
    op's own class through `float_error`); a string or a float tensor by the op's int32/int64 attribute
    (InvalidArgumentError)."""
    if axis is None:
        return None
    value = _plain(axis)
    items = value if isinstance(value, (list, tuple)) else [value]
    for item in items:
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, (numbers.Integral, np.integer)):
            _refuse(axis, item, attr, float_error)
    return tuple(int(item) for item in value) if isinstance(value, (list, tuple)) else int(value)


def check_axes(axes, rank: int | None, op: str, template: str = "Expected dimension in the range [-{rank}, {rank}), "
               "but got {axis}") -> None:
    """InvalidArgumentError, as TF's kernels, when an axis is outside [-rank, rank); `template` is the op's
    text, formatted with `axis` and `rank`."""
    if rank is None or axes is None:
        return
    from ..framework import graph_mode
    for axis in axes if isinstance(axes, (list, tuple)) else [axes]:
        if not -max(rank, 1) <= axis < max(rank, 1):
            text = template.format(axis=axis, rank=rank)
            if graph_mode.active() is not None:  # TF: shape inference refuses it while the graph is built
                raise ValueError(f"{text} for '{{{{node {op}}}}}'")
            raise errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _plain(axis):
    if hasattr(axis, "dtype") and hasattr(axis, "shape") and not isinstance(axis, np.ndarray):
        dtype = getattr(axis.dtype, "name", str(axis.dtype))
        if not getattr(axis.dtype, "is_integer", False):
            raise errors.InvalidArgumentError(
                None, None, f"Value for attr 'Tidx' of {_tf_name(dtype)} is not in the list of allowed values: "
                            "int32, int64")
        from .array_ops import get_static_value
        static = get_static_value(axis)
        if static is None:
            raise NotImplementedError(f"An axis known only when the graph runs ({axis!r}) is not implemented in "
                                      "placeflow; give it as a Python int.")
        return np.asarray(static).tolist()
    if isinstance(axis, np.ndarray):
        return axis.tolist()
    return list(axis) if isinstance(axis, (list, tuple)) else axis


def _refuse(axis, item, attr, float_error):
    if isinstance(item, (str, bytes)):
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr '{attr}' of string is not in the list of allowed values: int32, int64")
    if float_error is errors.InvalidArgumentError:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr '{attr}' of float is not in the list of allowed values: int32, int64")
    raise float_error(f"Cannot convert {axis!r} to EagerTensor of dtype int32")


def _tf_name(dtype: str) -> str:
    return {"float32": "float", "float64": "double"}.get(dtype, dtype)


def rank_of(x) -> int | None:
    """The rank of a tensor, None when unknown (a graph tensor of unknown shape)."""
    shape = getattr(x, "shape", None)
    return None if shape is None or shape.rank is None else len(shape)
