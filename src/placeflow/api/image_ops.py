"""tf.image's geometry, dtype, colour and quality functions, composed of ops as TensorFlow composes them
(so they differentiate and run inside `function`): flips, rotations, crops and pads, convert_image_dtype,
brightness/contrast/gamma, grayscale and YIQ/YUV conversions, standardization, gradients, total variation,
PSNR and Sobel edges. Images are [height, width, channels] or [batch, height, width, channels]."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import array_ops, indexing, math_ops


def _image(image, what="image"):
    x = convert_to_tensor(image)
    if x.shape is None or len(x.shape) not in (3, 4):
        raise ValueError(f"'{what}' (shape {x.shape}) must have either 3 or 4 dimensions.")
    return x


def _axis(x, which: str) -> int:
    """The height or width axis of a 3-D or 4-D image."""
    return {"height": -3, "width": -2}[which] % len(x.shape)


# -- geometry ------------------------------------------------------------------------------------------------------

def flip_left_right(image):
    """The image mirrored left to right."""
    x = _image(image)
    return indexing.reverse(x, [_axis(x, "width")])


def flip_up_down(image):
    """The image mirrored top to bottom."""
    x = _image(image)
    return indexing.reverse(x, [_axis(x, "height")])


def transpose(image, name=None):
    """Height and width swapped."""
    x = _image(image)
    rank = len(x.shape)
    perm = [1, 0, 2] if rank == 3 else [0, 2, 1, 3]
    return array_ops.transpose(x, perm, name=name)


def rot90(image, k=1, name=None):
    """The image rotated counter-clockwise by k quarter turns."""
    x = _image(image)
    turns = int(k) % 4
    height, width = _axis(x, "height"), _axis(x, "width")
    if turns == 0:
        return x
    if turns == 1:
        return transpose(indexing.reverse(x, [width]))
    if turns == 2:
        return indexing.reverse(x, [height, width])
    return indexing.reverse(transpose(x), [width])


def _dims(x):
    height, width = x.shape[_axis(x, "height")], x.shape[_axis(x, "width")]
    if height is None or width is None:
        raise NotImplementedError("tf.image crops and pads of images whose height or width is known only when the "
                                  "graph runs are not implemented in placeflow; give the images a static size.")
    return int(height), int(width)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The target_height x target_width window whose top-left corner is (offset_height, offset_width)."""
    x = _image(image)
    height, width = _dims(x)
    top, left, rows, cols = (int(v) for v in (offset_height, offset_width, target_height, target_width))
    if top < 0 or left < 0:
        raise ValueError("offset_height must be >= 0." if top < 0 else "offset_width must be >= 0.")
    if rows <= 0 or cols <= 0:
        raise ValueError("target_height must be > 0." if rows <= 0 else "target_width must be > 0.")
    if top + rows > height or left + cols > width:
        raise ValueError("height must be >= target + offset." if top + rows > height else
                         "width must be >= target + offset.")
    begin = [top, left, 0] if len(x.shape) == 3 else [0, top, left, 0]
    size = [rows, cols, -1] if len(x.shape) == 3 else [-1, rows, cols, -1]
    return indexing.slice(x, begin, size)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The image placed at (offset_height, offset_width) of a target_height x target_width canvas of zeros."""
    x = _image(image)
    height, width = _dims(x)
    top, left, rows, cols = (int(v) for v in (offset_height, offset_width, target_height, target_width))
    if top < 0 or left < 0:
        raise ValueError("offset_height must be >= 0" if top < 0 else "offset_width must be >= 0")
    if rows - top - height < 0 or cols - left - width < 0:
        raise ValueError("height must be <= target - offset" if rows - top - height < 0 else
                         "width must be <= target - offset")
    paddings = [[top, rows - top - height], [left, cols - left - width], [0, 0]]
    return indexing.pad(x, paddings if len(x.shape) == 3 else [[0, 0]] + paddings)


def resize_with_crop_or_pad(image, target_height, target_width):
    """The image cropped and/or padded (centred) to target_height x target_width."""
    x = _image(image)
    height, width = _dims(x)
    rows, cols = int(target_height), int(target_width)
    if rows <= 0 or cols <= 0:
        raise ValueError("target_height must be > 0" if rows <= 0 else "target_width must be > 0")
    cropped = crop_to_bounding_box(x, max(-(rows - height) // 2, 0), max(-(cols - width) // 2, 0), min(rows, height),
                                   min(cols, width))
    return pad_to_bounding_box(cropped, max((rows - height) // 2, 0), max((cols - width) // 2, 0), rows, cols)


def central_crop(image, central_fraction):
    """The central `central_fraction` (in (0, 1]) of the image's height and width."""
    x = _image(image)
    fraction = float(central_fraction)
    if fraction <= 0.0 or fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if fraction == 1.0:
        return x
    height, width = _dims(x)
    top = int((height - height * fraction) / 2)
    left = int((width - width * fraction) / 2)
    return crop_to_bounding_box(x, top, left, height - top * 2, width - left * 2)


# -- dtypes --------------------------------------------------------------------------------------------------------

def _check_image_dtype(x) -> None:
    """TF's (AttributeError) refusal of images that are neither floating point nor integer."""
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise AttributeError("image dtype must be either floating point or integer")


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Pixel values converted between dtypes, rescaled: integers span [0, MAX], floats [0, 1)."""
    x = convert_to_tensor(image)
    _check_image_dtype(x)
    target = dtypes.as_dtype(dtype)
    if not (target.is_floating or target.is_integer):
        raise AttributeError(f"dtype must be either floating point or integer, got {target!r}")
    if x.dtype == target:
        return math_ops.identity(x, name=name)
    if x.dtype.is_integer and target.is_integer:
        scale_in, scale_out = int(x.dtype.max), int(target.max)
        if scale_in > scale_out:
            scale = (scale_in + 1) // (scale_out + 1)
            scaled = math_ops.floordiv(x, convert_to_tensor(scale, dtype=x.dtype))
            return (math_ops.saturate_cast if saturate else math_ops.cast)(scaled, target)
        scale = (scale_out + 1) // (scale_in + 1)
        scaled = (math_ops.saturate_cast if saturate else math_ops.cast)(x, target)
        return math_ops.multiply(scaled, convert_to_tensor(scale, dtype=target), name=name)
    if x.dtype.is_floating and target.is_floating:
        return math_ops.cast(x, target, name=name)
    if x.dtype.is_integer:
        return math_ops.multiply(math_ops.cast(x, target), convert_to_tensor(1.0 / int(x.dtype.max), dtype=target),
                                 name=name)
    scaled = math_ops.multiply(x, convert_to_tensor(float(target.max) + 0.5, dtype=x.dtype))
    return (math_ops.saturate_cast if saturate else math_ops.cast)(scaled, target)


def _as_float(image):
    x = convert_to_tensor(image)
    _check_image_dtype(x)
    return x, (x if x.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(x, dtypes.float32))


def adjust_brightness(image, delta):
    """The image with `delta` added (in [0, 1] units for integer images), converted back to its dtype."""
    x, flt = _as_float(image)
    adjusted = math_ops.add(flt, math_ops.cast(convert_to_tensor(delta), flt.dtype))
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    """Each channel of each image moved away from (or toward) its mean: (x - mean) * factor + mean."""
    x, flt = _as_float(images)
    mean = math_ops.reduce_mean(flt, axis=[-3, -2], keepdims=True)
    factor = math_ops.cast(convert_to_tensor(contrast_factor), flt.dtype)
    adjusted = math_ops.add(math_ops.multiply(math_ops.subtract(flt, mean), factor), mean)
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma (integer images through [0, 1] floats)."""
    x, flt = _as_float(image)
    if isinstance(gamma, (int, float)) and gamma < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    adjusted = math_ops.multiply(math_ops.cast(convert_to_tensor(gain), flt.dtype),
                                 math_ops.pow(flt, math_ops.cast(convert_to_tensor(gamma), flt.dtype)))
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


# -- colour spaces -------------------------------------------------------------------------------------------------

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _colour(images, kernel):
    x = convert_to_tensor(images)
    return math_ops.tensordot(x, convert_to_tensor(np.asarray(kernel, x.dtype.numpy_dtype)), [[-1], [0]])


def rgb_to_yiq(images):
    """RGB to YIQ (floating-point images)."""
    return _colour(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    """YIQ to RGB."""
    return _colour(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """RGB to YUV (floating-point images)."""
    return _colour(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    """YUV to RGB."""
    return _colour(images, _YUV_TO_RGB)


def rgb_to_grayscale(images, name=None):
    """The luminance 0.2989 R + 0.5870 G + 0.1140 B, one channel, in the images' dtype."""
    x = convert_to_tensor(images)
    flt = convert_image_dtype(x, dtypes.float32)
    weights = convert_to_tensor(np.asarray([0.2989, 0.5870, 0.1140], np.float32))
    gray = array_ops.expand_dims(math_ops.tensordot(flt, weights, [[-1], [-1]]), -1)
    return convert_image_dtype(gray, x.dtype, name=name)


def grayscale_to_rgb(images, name=None):
    """One channel repeated into three."""
    x = convert_to_tensor(images)
    if x.shape is not None and x.shape[-1] not in (1, None):
        raise ValueError(f"Last dimension of a grayscale image should be size 1; got shape {x.shape}.")
    return array_ops.concat([x, x, x], -1, name=name)


# -- statistics and quality ----------------------------------------------------------------------------------------

def per_image_standardization(image):
    """Each image scaled to mean 0 and standard deviation 1 (the deviation at least 1/sqrt(pixels))."""
    x = math_ops.cast(_image(image), dtypes.float32)
    pixels = int(np.prod([int(d) for d in x.shape[-3:]]))
    mean = math_ops.reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    stddev = math_ops.reduce_std(x, axis=[-1, -2, -3], keepdims=True)
    floor = math_ops.rsqrt(convert_to_tensor(float(pixels)))
    return math_ops.divide(math_ops.subtract(x, mean), math_ops.maximum(stddev, floor))


def image_gradients(image):
    """(dy, dx): each pixel's difference to the next row and column (0 in the last), of a [b, h, w, c] image."""
    x = convert_to_tensor(image)
    if x.shape is None or len(x.shape) != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {x.shape}.")
    dy = x[:, 1:, :, :] - x[:, :-1, :, :]
    dx = x[:, :, 1:, :] - x[:, :, :-1, :]
    dy = array_ops.concat([dy, array_ops.zeros_like(x[:, :1, :, :])], 1)
    dx = array_ops.concat([dx, array_ops.zeros_like(x[:, :, :1, :])], 2)
    return dy, dx


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels (per image for a batch)."""
    x = _image(images)
    if len(x.shape) == 3:
        rows = x[1:, :, :] - x[:-1, :, :]
        cols = x[:, 1:, :] - x[:, :-1, :]
        axes = None
    else:
        rows = x[:, 1:, :, :] - x[:, :-1, :, :]
        cols = x[:, :, 1:, :] - x[:, :, :-1, :]
        axes = [1, 2, 3]
    return math_ops.add(math_ops.reduce_sum(math_ops.abs(rows), axis=axes),
                        math_ops.reduce_sum(math_ops.abs(cols), axis=axes), name=name)


def psnr(a, b, max_val, name=None):
    """The peak signal-to-noise ratio of each pair of images, in dB."""
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    if x.dtype != y.dtype:
        raise TypeError(f"a and b must have the same dtype; got {x.dtype.name} and {y.dtype.name}.")
    peak = math_ops.cast(convert_to_tensor(max_val), dtypes.float32)
    x, y = convert_image_dtype(x, dtypes.float32), convert_image_dtype(y, dtypes.float32)
    mse = math_ops.reduce_mean(math_ops.squared_difference(x, y), axis=[-3, -2, -1])
    return math_ops.subtract(20.0 * math_ops.log(peak) / np.log(10.0).astype(np.float32),
                             np.float32(10 / np.log(10)) * math_ops.log(mse), name=name)


def sobel_edges(image):
    """The Sobel gradients of each channel: [batch, h, w, channels, 2] (dy, dx), the border reflected."""
    from .nn import depthwise_conv2d
    x = convert_to_tensor(image)
    if x.shape is None or len(x.shape) != 4:
        raise ValueError(f"sobel_edges expects a 4D image [batch, h, w, d]; got {x.shape}.")
    channels = int(x.shape[-1])
    kernels = np.asarray([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]],
                         x.dtype.numpy_dtype)
    filters = np.tile(np.transpose(kernels, (1, 2, 0))[:, :, None, :], (1, 1, channels, 1))
    padded = indexing.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    edges = depthwise_conv2d(padded, convert_to_tensor(filters), [1, 1, 1, 1], "VALID")
    shape = [int(d) if d is not None else -1 for d in edges.shape[:3]] + [channels, 2]
    return array_ops.reshape(edges, shape)


