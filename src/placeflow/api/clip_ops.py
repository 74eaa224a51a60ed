"""Gradient clipping: clip_by_norm, global_norm, clip_by_global_norm (TensorFlow's formulas)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from . import array_ops, math_ops


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t` scaled so that its L2 norm (over `axes`, all when None) is at most `clip_norm`."""
    t = convert_to_tensor(t)
    squares = math_ops.reduce_sum(t * t, axis=axes, keepdims=True)
    positive = math_ops.greater(squares, 0.0)
    safe = math_ops.where(positive, squares, array_ops.ones_like(squares))  # no NaN gradient at zero
    norm = math_ops.where(positive, math_ops.sqrt(safe), squares)
    clip_norm = math_ops.maximum(math_ops.cast(clip_norm, t.dtype), 0)  # TF: a negative clip_norm clips to zero
    return t * clip_norm / math_ops.maximum(norm, clip_norm)


def global_norm(t_list, name=None):
    """sqrt(sum of every element squared) over all tensors of `t_list` (None entries skipped)."""
    tensors = [convert_to_tensor(t) for t in t_list if t is not None]
    if not tensors:
        raise ValueError("global_norm needs at least one tensor; got only None.")
    total = math_ops.add_n([math_ops.reduce_sum(t * t) for t in tensors])
    return math_ops.sqrt(total)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(tensors each scaled by clip_norm / max(global_norm, clip_norm), the global norm); None stays None."""
    if isinstance(t_list, (str, bytes)) or not hasattr(t_list, "__iter__"):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    t_list = list(t_list)
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = math_ops.cast(clip_norm, norm.dtype)
    scale = clip_norm * math_ops.minimum(1.0 / norm, 1.0 / clip_norm)
    scale = scale + (norm - norm)  # an infinite or NaN norm makes every output NaN, as in TF
    clipped = [None if t is None else convert_to_tensor(t) * math_ops.cast(scale, convert_to_tensor(t).dtype)
               for t in t_list]
    return clipped, norm
