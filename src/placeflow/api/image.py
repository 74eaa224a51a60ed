"""tf.image: resize (bilinear, nearest, bicubic, area) as TensorFlow 2 computes it (half-pixel centers, no
antialiasing), built as two small linear maps (one per spatial axis), so gradients follow."""

from __future__ import annotations



import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import division_ops, math_ops


class ResizeMethod:
    """The names tf.image.resize takes."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _bilinear(out_size: int, in_size: int) -> np.ndarray:
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        source = min(max((i + 0.5) * scale - 0.5, 0.0), in_size - 1)
        low = int(np.floor(source))
        high = min(low + 1, in_size - 1)
        fraction = source - low
        matrix[i, low] += 1.0 - fraction
        matrix[i, high] += fraction
    return matrix


def _nearest(out_size: int, in_size: int) -> np.ndarray:
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        matrix[i, min(int(np.floor((i + 0.5) * scale)), in_size - 1)] = 1.0
    return matrix


def _cubic_weight(x: float, a: float = -0.5) -> float:
    x = abs(x)
    if x <= 1:
        return (a + 2) * x ** 3 - (a + 3) * x ** 2 + 1
    if x < 2:
        return a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a
    return 0.0


def _bicubic(out_size: int, in_size: int) -> np.ndarray:
    """Keys' cubic (a = -0.5); taps outside the image are dropped and the rest renormalized (TF 2's bicubic
    without antialiasing)."""
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        source = (i + 0.5) * scale - 0.5
        base = int(np.floor(source))
        taps = [(base + k, _cubic_weight(source - (base + k))) for k in range(-1, 3) if 0 <= base + k < in_size]
        total = sum(weight for _, weight in taps)
        for index, weight in taps:
            matrix[i, index] += weight / total
    return matrix


def _area(out_size: int, in_size: int) -> np.ndarray:
    """Each output pixel: the mean of the input interval it covers (fractional pixels weighed by overlap)."""
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        start, end = i * scale, (i + 1) * scale
        for j in range(int(np.floor(start)), min(int(np.ceil(end)), in_size)):
            overlap = min(end, j + 1) - max(start, j)
            if overlap > 0:
                matrix[i, j] = overlap / scale
    return matrix


_MAPS = {"bilinear": _bilinear, "nearest": _nearest, "bicubic": _bicubic, "area": _area}


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    """`images` ([b, h, w, c] or [h, w, c]) resized to `size` = [new_h, new_w] (float32 out, as TF, except
    nearest, which keeps the dtype)."""
    method = str(method).lower()
    if method not in {v for k, v in vars(ResizeMethod).items() if k.isupper()}:
        raise ValueError(f"Resize method is not implemented: {method}")
    if method not in _MAPS:
        raise NotImplementedError(f"tf.image.resize(method={method!r}) is not implemented in placeflow; "
                                  f"implemented: {sorted(_MAPS)}.")
    x = convert_to_tensor(images)
    single = len(x.shape) == 3
    if len(x.shape) not in (3, 4):
        raise ValueError(f"'images' must have either 3 or 4 dimensions; got shape {x.shape}")
    height, width = (int(d) for d in x.shape[-3:-1])
    new_height, new_width = (int(v) for v in np.asarray(convert_to_tensor(size).numpy()).reshape(-1))
    if min(new_height, new_width) <= 0:
        from ..framework import errors
        raise errors.InvalidArgumentError(None, None, "output dimensions must be positive")
    if preserve_aspect_ratio:
        ratio = min(new_height / height, new_width / width)
        new_height, new_width = int(round(height * ratio)), int(round(width * ratio))
    if antialias and (new_height < height or new_width < width) and method != "nearest":
        raise NotImplementedError("tf.image.resize(antialias=True) when shrinking is not implemented in placeflow; "
                                  "use antialias=False.")
    dtype = x.dtype if method == "nearest" else dtypes.float32
    if method != "nearest" and x.dtype != dtypes.float32:
        x = math_ops.cast(x, dtypes.float32)
    rows = convert_to_tensor(_MAPS[method](new_height, height).astype(dtype.numpy_dtype))
    cols = convert_to_tensor(_MAPS[method](new_width, width).astype(dtype.numpy_dtype))
    equation = "hH,HWc,wW->hwc" if single else "hH,bHWc,wW->bhwc"
    return math_ops.einsum(equation, rows, x, cols, name=name) if dtype.is_floating else _gather_nearest(
        x, rows, cols, single)


def _gather_nearest(x, rows, cols, single):
    """Nearest-neighbour resize of an integer image: gathers (exact for every dtype)."""
    from .indexing import gather
    row_index = np.argmax(rows.numpy(), axis=1).astype(np.int32)
    col_index = np.argmax(cols.numpy(), axis=1).astype(np.int32)
    axis = 0 if single else 1
    return gather(gather(x, row_index, axis=axis), col_index, axis=axis + 1)


def rgb_to_hsv(images, name=None):
    """RGB (last dimension, floats in [0, 1]) to HSV, each in [0, 1] (TensorFlow's formulas)."""
    from . import array_ops
    x = convert_to_tensor(images)
    r, g, b = _channels(x)
    value = math_ops.maximum(math_ops.maximum(r, g), b)
    spread = value - math_ops.minimum(math_ops.minimum(r, g), b)
    zero = value * 0.0
    saturation = math_ops.where(value > 0, division_ops.divide_no_nan(spread, value), zero)
    norm = division_ops.divide_no_nan(spread * 0.0 + 1.0, 6.0 * spread)
    hue = math_ops.where(math_ops.equal(r, value), norm * (g - b),
                         math_ops.where(math_ops.equal(g, value), norm * (b - r) + 2.0 / 6.0,
                                        norm * (r - g) + 4.0 / 6.0))
    hue = math_ops.where(spread > 0, hue, zero)
    hue = math_ops.where(hue < 0, hue + 1.0, hue)
    return array_ops.stack([hue, saturation, value], axis=-1, name=name)


def hsv_to_rgb(images, name=None):
    """HSV (last dimension, each in [0, 1]) to RGB (TensorFlow's formulas)."""
    from . import array_ops
    x = convert_to_tensor(images)
    h, s, v = _channels(x)
    dh = h * 6.0
    red = math_ops.clip_by_value(math_ops.abs(dh - 3.0) - 1.0, 0.0, 1.0)
    green = math_ops.clip_by_value(2.0 - math_ops.abs(dh - 2.0), 0.0, 1.0)
    blue = math_ops.clip_by_value(2.0 - math_ops.abs(dh - 4.0), 0.0, 1.0)
    rest = 1.0 - s
    return array_ops.stack([(rest + s * red) * v, (rest + s * green) * v, (rest + s * blue) * v], axis=-1,
                           name=name)


def image_projective_transform_v3(*, images, transforms, output_shape, fill_value, interpolation,
                                  fill_mode="CONSTANT", name=None):
    """tf.raw_ops.ImageProjectiveTransformV3 (Keras's RandomRotation, RandomTranslation, RandomZoom, ...)."""
    from ..eager.execute import execute
    x = convert_to_tensor(images)
    from .array_ops import get_static_value
    known = get_static_value(output_shape)
    if known is None:
        raise NotImplementedError("ImageProjectiveTransformV3 with an output_shape known only when the graph runs is "
                                  "not implemented in placeflow; give the images a static height and width.")
    size = tuple(int(v) for v in np.asarray(known).reshape(-1))
    matrices = math_ops.cast(convert_to_tensor(transforms), dtypes.float32)
    fill = math_ops.cast(convert_to_tensor(fill_value), dtypes.float32)
    return execute("ImageProjectiveTransformV3", (x, matrices, fill), x.dtype,
                   {"output_size": size, "interpolation": str(interpolation), "fill_mode": str(fill_mode)}, name=name)


def _channels(x):
    from .indexing import unstack
    if x.shape[-1] != 3:
        raise ValueError(f"the last dimension must hold 3 channels; got shape {x.shape}")
    return unstack(x, axis=-1)


from .image_ops import (  # noqa: E402,F401 - tf.image's geometry, dtype, colour and quality functions
    adjust_brightness, adjust_contrast, adjust_gamma, central_crop, convert_image_dtype, crop_to_bounding_box,
    flip_left_right, flip_up_down, grayscale_to_rgb, image_gradients, pad_to_bounding_box, per_image_standardization,
    psnr, resize_with_crop_or_pad, rgb_to_grayscale, rgb_to_yiq, rgb_to_yuv, rot90, sobel_edges, total_variation,
    transpose, yiq_to_rgb, yuv_to_rgb,
)

from .image_random import (  # noqa: E402,F401 - tf.image's random and stateless augmentations
    adjust_hue, adjust_saturation, random_brightness, random_contrast, random_crop, random_flip_left_right,
    random_flip_up_down, random_hue, random_saturation, stateless_random_brightness, stateless_random_contrast,
    stateless_random_crop, stateless_random_flip_left_right, stateless_random_flip_up_down, stateless_random_hue,
    stateless_random_saturation,
)

from .image_more import combined_non_max_suppression, draw_bounding_boxes, extract_glimpse, non_max_suppression_overlaps, non_max_suppression_padded, ssim, ssim_multiscale  # noqa: E402,F401,E501
from .image_sample import adjust_jpeg_quality, decode_webp, sample_distorted_bounding_box, stateless_sample_distorted_bounding_box  # noqa: E402,F401,E501
from .image_boxes import (  # noqa: E402,F401 - patches, crops and non-max suppression
    crop_and_resize, extract_patches, non_max_suppression, non_max_suppression_with_scores, resize_with_pad,
)

from .image_codecs import (  # noqa: E402,F401 - image files, also under tf.io
    decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png,
    extract_jpeg_shape, is_jpeg,
)

__all__ = ["ResizeMethod", "combined_non_max_suppression", "draw_bounding_boxes", "extract_glimpse", "non_max_suppression_overlaps", "non_max_suppression_padded", "ssim", "ssim_multiscale", "adjust_jpeg_quality", "decode_webp", "sample_distorted_bounding_box", "stateless_sample_distorted_bounding_box", "crop_and_resize", "extract_patches", "non_max_suppression",
           "non_max_suppression_with_scores", "resize_with_pad", "decode_and_crop_jpeg", "decode_bmp", "decode_gif", "decode_image", "decode_jpeg",
           "decode_png", "encode_jpeg", "encode_png", "extract_jpeg_shape", "is_jpeg", "adjust_hue", "adjust_saturation", "random_brightness", "random_contrast", "random_crop",
           "random_flip_left_right", "random_flip_up_down", "random_hue", "random_saturation",
           "stateless_random_brightness", "stateless_random_contrast", "stateless_random_crop",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down", "stateless_random_hue",
           "stateless_random_saturation", "hsv_to_rgb", "resize", "rgb_to_hsv", "adjust_brightness", "adjust_contrast",
           "adjust_gamma", "central_crop", "convert_image_dtype", "crop_to_bounding_box", "flip_left_right",
           "flip_up_down", "grayscale_to_rgb", "image_gradients", "pad_to_bounding_box", "per_image_standardization",
           "psnr", "resize_with_crop_or_pad", "rgb_to_grayscale", "rgb_to_yiq", "rgb_to_yuv", "rot90", "sobel_edges",
           "total_variation", "transpose", "yiq_to_rgb", "yuv_to_rgb"]
