"""tf.nn's normalizations and moment helpers built from other ops: local_response_normalization (lrn),
sufficient_statistics, normalize_moments, weighted_moments and batch_norm_with_global_normalization."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import array_ops, indexing, math_ops
from .division_ops import divide_no_nan


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """input / (bias + alpha * sum of squares over the 2r+1 nearest channels) ** beta (4-D, channels last)."""
    x = convert_to_tensor(input)
    if len(x.shape) != 4:
        raise ValueError(f"input must be 4-dimensional (NHWC), got shape {tuple(x.shape)}")
    radius, channels = int(depth_radius), int(x.shape[-1])
    padded = indexing.pad(math_ops.square(x), [[0, 0], [0, 0], [0, 0], [radius, radius]])
    window = math_ops.add_n([padded[..., offset:offset + channels] for offset in range(2 * radius + 1)])
    scale = math_ops.pow(bias + alpha * window, beta)
    return math_ops.divide(x, scale, name=name)


lrn = local_response_normalization


def _count(x, axes) -> float:
    shape = [int(s) for s in x.shape]
    return float(np.prod([shape[a] for a in axes])) if axes else 1.0


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of x - shift, sum of squares of x - shift, shift) over `axes`: what normalize_moments
    turns into a mean and variance."""
    x = convert_to_tensor(x)
    axes = [int(a) % len(x.shape) for a in axes]
    count = convert_to_tensor(_count(x, axes), dtype=x.dtype)
    centered = x if shift is None else math_ops.subtract(x, convert_to_tensor(shift, dtype=x.dtype))
    mean_ss = math_ops.reduce_sum(centered, axis=axes, keepdims=keepdims)
    variance_ss = math_ops.reduce_sum(math_ops.square(centered), axis=axes, keepdims=keepdims)
    return count, mean_ss, variance_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics (shift None: the sums were not shifted)."""
    divisor = math_ops.reciprocal(convert_to_tensor(counts))
    shifted_mean = math_ops.multiply(mean_ss, divisor)
    mean = shifted_mean if shift is None else math_ops.add(shifted_mean, shift)
    variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor), math_ops.square(shifted_mean))
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes`, each element counted `frequency_weights` times (broadcast);
    0 where the weights sum to 0. float16 is computed in float32, as TensorFlow."""
    x = convert_to_tensor(x)
    wanted = x.dtype
    if wanted == dtypes.float16:
        x = math_ops.cast(x, dtypes.float32)
    weights = math_ops.cast(convert_to_tensor(frequency_weights), x.dtype)
    axes = [int(a) % len(x.shape) for a in axes]
    weighted_sum = math_ops.reduce_sum(weights * x, axis=axes, keepdims=True)
    total_weight = math_ops.reduce_sum(weights + array_ops.zeros_like(x), axis=axes, keepdims=True)
    mean = divide_no_nan(weighted_sum, total_weight)
    spread = math_ops.reduce_sum(weights * math_ops.squared_difference(x, mean), axis=axes, keepdims=True)
    variance = divide_no_nan(spread, total_weight)
    if not keepdims:
        mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
    if wanted == dtypes.float16:
        mean, variance = math_ops.cast(mean, wanted), math_ops.cast(variance, wanted)
    return mean, variance


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,  # noqa: A002
                                         scale_after_normalization, name=None):
    """batch_normalization, with gamma used only when scale_after_normalization (TensorFlow's older form)."""
    from .nn import batch_normalization
    return batch_normalization(input, mean, variance, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name=name)
