"""tf.image's random augmentations (random_* with op seeds, stateless_random_* with seed pairs) and the hue and
saturation adjustments they use. The random numbers are TF's (Philox), drawn as TF's image_ops draw them, so the
same seeds give TF's augmented images."""

from __future__ import annotations

import functools

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import array_ops, image_ops, indexing, math_ops, random


def _at_least_3d(image_tensor, name="image"):
    if image_tensor.shape is not None and len(image_tensor.shape) < 3:
        raise ValueError(f"'{name}' must be at least three-dimensional.")
    return image_tensor


def _random_flip(image_tensor, flip_index: int, random_func):
    image_tensor = _at_least_3d(convert_to_tensor(image_tensor))
    if len(image_tensor.shape) == 3:
        uniform = random_func(shape=[], minval=0, maxval=1.0)
        flipped = indexing.reverse(image_tensor, [flip_index])
        from .control_flow import cond
        return cond(math_ops.less(uniform, 0.5), lambda: flipped, lambda: image_tensor)
    batch = array_ops.shape(image_tensor)[0]
    uniform = random_func(shape=[int(image_tensor.shape[0])] if image_tensor.shape[0] is not None else batch,
                          minval=0, maxval=1.0)
    flips = math_ops.cast(math_ops.round(array_ops.reshape(uniform, [-1, 1, 1, 1])), image_tensor.dtype)
    flipped = indexing.reverse(image_tensor, [flip_index + 1])
    return flips * flipped + (1 - flips) * image_tensor


def random_flip_left_right(image, seed=None):
    """Flip each image horizontally with probability 1/2 (op seed `seed`)."""
    return _random_flip(image, 1, functools.partial(random.uniform, seed=seed))


def random_flip_up_down(image, seed=None):
    """Flip each image vertically with probability 1/2 (op seed `seed`)."""
    return _random_flip(image, 0, functools.partial(random.uniform, seed=seed))


def stateless_random_flip_left_right(image, seed):
    """Flip each image horizontally with probability 1/2, decided by the seed pair."""
    return _random_flip(image, 1, functools.partial(random.stateless_uniform, seed=seed))


def stateless_random_flip_up_down(image, seed):
    """Flip each image vertically with probability 1/2, decided by the seed pair."""
    return _random_flip(image, 0, functools.partial(random.stateless_uniform, seed=seed))


def _check_delta(max_delta, upper=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    if upper is not None and max_delta > upper:
        raise ValueError(f"max_delta must be <= {upper}.")


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by a delta drawn from [-max_delta, max_delta)."""
    _check_delta(max_delta)
    return image_module().adjust_brightness(image, random.uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_brightness(image, max_delta, seed):
    """adjust_brightness by a delta drawn from [-max_delta, max_delta) for the seed pair."""
    _check_delta(max_delta)
    delta = random.stateless_uniform([], seed=seed, minval=-max_delta, maxval=max_delta)
    return image_module().adjust_brightness(image, delta)


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by a factor drawn from [lower, upper)."""
    _check_range(lower, upper)
    return image_module().adjust_contrast(image, random.uniform([], lower, upper, seed=seed))


def stateless_random_contrast(image, lower, upper, seed):
    """adjust_contrast by a factor drawn from [lower, upper) for the seed pair."""
    _check_range(lower, upper)
    return image_module().adjust_contrast(image, random.stateless_uniform([], seed=seed, minval=lower, maxval=upper))


def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta drawn from [-max_delta, max_delta) (max_delta <= 0.5)."""
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, random.uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_hue(image, max_delta, seed):
    """adjust_hue by a delta drawn for the seed pair."""
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, random.stateless_uniform([], seed=seed, minval=-max_delta, maxval=max_delta))


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn from [lower, upper)."""
    _check_range(lower, upper)
    return adjust_saturation(image, random.uniform([], lower, upper, seed=seed))


def stateless_random_saturation(image, lower, upper, seed):
    """adjust_saturation by a factor drawn for the seed pair."""
    _check_range(lower, upper)
    return adjust_saturation(image, random.stateless_uniform([], seed=seed, minval=lower, maxval=upper))


def _crop_offset(value, size, draw):
    from .debugging_ops import Assert
    shape = array_ops.shape(value)
    Assert(math_ops.reduce_all(shape >= size), ["Need value.shape >= size, got ", shape, size], summarize=1000)
    limit = shape - size + 1
    offset = draw(array_ops.shape(shape)) % limit
    return offset


def random_crop(value, size, seed=None, name=None):
    """A random `size` slice of `value` (op seed `seed`)."""
    value = convert_to_tensor(value)
    size = convert_to_tensor(size, dtype=dtypes.int32)
    offset = _crop_offset(value, size, lambda shape: random.uniform(
        _static(shape), dtype=size.dtype, maxval=np.iinfo(np.int32).max, seed=seed))
    return indexing.slice(value, offset, size)


def stateless_random_crop(value, size, seed, name=None):
    """A `size` slice of `value` at an offset drawn for the seed pair."""
    value = convert_to_tensor(value)
    size = convert_to_tensor(size, dtype=dtypes.int32)
    offset = _crop_offset(value, size, lambda shape: random.stateless_uniform(
        _static(shape), seed=seed, dtype=size.dtype, maxval=np.iinfo(np.int32).max))
    return indexing.slice(value, offset, size)


def _static(shape_tensor):
    known = array_ops.get_static_value(shape_tensor)
    return [int(v) for v in np.asarray(known).reshape(-1)]


def adjust_hue(image, delta, name=None):
    """Rotate the hue of RGB images by `delta` (a fraction of the circle), as TF's AdjustHue kernel."""
    return _adjust_hsv(image, "AdjustHue", delta)


def adjust_saturation(image, saturation_factor, name=None):
    """Scale the saturation of RGB images by `saturation_factor` (clipped to [0, 1]), as TF's kernel."""
    return _adjust_hsv(image, "AdjustSaturation", saturation_factor)


def _adjust_hsv(image_tensor, op, amount):
    image_tensor = convert_to_tensor(image_tensor)
    original = image_tensor.dtype
    floating = image_tensor if original in (dtypes.float16, dtypes.float32) else \
        image_module().convert_image_dtype(image_tensor, dtypes.float32)
    amount = math_ops.cast(convert_to_tensor(amount), dtypes.float32)
    adjusted = execute(op, (floating, amount), floating.dtype)
    return image_module().convert_image_dtype(adjusted, original)


def image_module():
    """tf.image's other functions (adjust_brightness, convert_image_dtype, ...)."""
    return image_ops
