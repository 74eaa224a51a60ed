"""tf.image's SSIM, box drawing, glimpses and non-max suppression variants, as TensorFlow 2.21 computes them:
ssim and ssim_multiscale are composed of placeflow ops (so they trace and have gradients); the box ops run on the
host (ops/image_more.py, ops/image_sample.py)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import build_errors, dtypes, errors
from . import array_ops, indexing, math_ops

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _pair(img1, img2):
    """Both images as tensors, after TF's shape checks."""
    img1, img2 = convert_to_tensor(img1), convert_to_tensor(img2)
    shape1, shape2 = tuple(img1.shape), tuple(img2.shape)
    if len(shape1) < 3 or len(shape2) < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {min(len(shape1), len(shape2))}")
    if shape1[-3:] != shape2[-3:]:
        raise ValueError(f"Shapes {shape1[-3:]} and {shape2[-3:]} are incompatible")
    return img1, img2


def _as_float(img1, img2, max_val):
    from .image_ops import convert_image_dtype
    peak = convert_image_dtype(math_ops.cast(convert_to_tensor(max_val), img1.dtype), dtypes.float32)
    return convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32), peak


def _gaussian(size: int, sigma: float) -> np.ndarray:
    coords = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    g = -0.5 * coords ** 2 / sigma ** 2
    g = np.exp(g[None, :] + g[:, None])
    return (g / g.sum()).astype(np.float32).reshape(size, size, 1, 1)


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, index_map=False):
    """(SSIM, contrast-structure) per channel (or the SSIM map), with a VALID Gaussian window."""
    from .nn import depthwise_conv2d
    height, width, channels = (int(v) for v in img1.shape[-3:])
    if height < filter_size or width < filter_size:  # in a graph, TF's VALID window fails first, while building
        too_small = min(height, width)
        raise build_errors.invalid(
            f"Negative dimension size caused by subtracting {int(filter_size)} from {too_small} for "
            f"'{{{{node SSIM/depthwise}}}}' with input shapes: {build_errors.shapes_text(img1)}.",
            f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            f"{', '.join(str(int(v)) for v in img1.shape)}")
    kernel = convert_to_tensor(np.tile(_gaussian(int(filter_size), float(filter_sigma)), [1, 1, channels, 1]))

    def reducer(x):
        lead = [int(v) for v in x.shape[:-3]]
        y = depthwise_conv2d(array_ops.reshape(x, [-1, height, width, channels]), kernel, [1, 1, 1, 1], "VALID")
        return array_ops.reshape(y, lead + [int(v) for v in y.shape[1:]])

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(math_ops.square(img1) + math_ops.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    ssim_map = luminance * cs
    value = ssim_map if index_map else math_ops.reduce_mean(ssim_map, [-3, -2])
    return value, math_ops.reduce_mean(cs, [-3, -2])


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """Structural similarity of two image batches (mean over channels; the per-pixel map with return_index_map)."""
    img1, img2 = _pair(img1, img2)
    img1, img2, peak = _as_float(img1, img2, max_val)
    value, _ = _ssim_per_channel(img1, img2, peak, filter_size, filter_sigma, k1, k2, return_index_map)
    return math_ops.reduce_mean(value, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5, k1=0.01,
                    k2=0.03):
    """Multi-scale SSIM: contrast-structure at each halved scale and SSIM at the last, weighted by power_factors."""
    from .nn import avg_pool, relu
    img1, img2 = _pair(img1, img2)
    images = list(_as_float(img1, img2, 1)[:2])
    peak = _as_float(img1, img2, max_val)[2]
    scales = []
    for k in range(len(power_factors)):
        if k > 0:
            images = [_halve(x, avg_pool) for x in images]
        value, cs = _ssim_per_channel(images[0], images[1], peak, filter_size, filter_sigma, k1, k2)
        scales.append(relu(cs))
    scales[-1] = relu(value)
    stacked = array_ops.stack(scales, axis=-1)
    weights = convert_to_tensor(np.asarray(power_factors, np.float32))
    return math_ops.reduce_mean(math_ops.reduce_prod(math_ops.pow(stacked, weights), [-1]), [-1])


def _halve(x, avg_pool):
    """One 2x2 average-pooling step, an odd height or width first padded symmetrically by one."""
    lead = [int(v) for v in x.shape[:-3]]
    height, width, channels = (int(v) for v in x.shape[-3:])
    flat = array_ops.reshape(x, [-1, height, width, channels])
    if height % 2 or width % 2:
        flat = indexing.pad(flat, [[0, 0], [0, height % 2], [0, width % 2], [0, 0]], mode="SYMMETRIC")
    pooled = avg_pool(flat, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    return array_ops.reshape(pooled, lead + [int(v) for v in pooled.shape[1:]])


def draw_bounding_boxes(images, boxes, colors, name=None):
    """`images` ([batch, h, w, 1/3/4] float) with each box's outline drawn, colours cycling through `colors`
    (TF's table of ten when `colors` is empty)."""
    images = convert_to_tensor(images)
    boxes = convert_to_tensor(boxes, dtype=dtypes.float32)
    colors = convert_to_tensor(np.zeros([0, 4], np.float32) if colors is None else colors, dtype=dtypes.float32)
    return execute("DrawBoundingBoxesV2", (images, boxes, colors), images.dtype, {}, name=name)


_NOISES = ("uniform", "gaussian", "zero")


def extract_glimpse(input, size, offsets, centered=True, normalized=True, noise="uniform", name=None):  # noqa: A002
    """The `size` windows of each image at `offsets` ([batch, 2] (y, x)): TF 2's coordinates; the part outside the
    image is zero with noise='zero' (random noise there is refused: TF's stream cannot be matched)."""
    x = convert_to_tensor(input, dtype=dtypes.float32)
    if noise not in _NOISES:
        raise errors.InvalidArgumentError(None, None, f"The noise could only be uniform, gaussian, or zero, got"
                                                      f"{noise}")
    known = array_ops.get_static_value(size)
    if known is None:
        raise NotImplementedError("extract_glimpse with a size known only when the graph runs is not implemented "
                                  "in placeflow; give size as Python ints.")
    rows, cols = (int(v) for v in np.asarray(known).reshape(-1))
    offsets = convert_to_tensor(offsets, dtype=dtypes.float32)
    if noise != "zero":
        _refuse_random_noise(x, offsets, rows, cols, centered, normalized, noise)
    attrs = {"size": (rows, cols), "centered": bool(centered), "normalized": bool(normalized), "noise": noise}
    return execute("ExtractGlimpseV2", (x, offsets), dtypes.float32, attrs, name=name)


def _refuse_random_noise(x, offsets, rows, cols, centered, normalized, noise):
    """NotImplementedError naming `noise` unless every glimpse is seen to lie inside its image (no noise drawn)."""
    from ..ops.image_more import _extract_glimpse
    known, images = array_ops.get_static_value(offsets), array_ops.get_static_value(x)
    refusal = NotImplementedError(f"extract_glimpse(noise={noise!r}) is implemented in placeflow only for glimpses "
                                  "inside the image (TensorFlow fills the rest from its own random stream); use "
                                  "noise='zero'.")
    if known is None or images is None:
        if build_errors.building():  # seen when the graph runs: the kernel refuses a glimpse reaching outside then
            return
        raise refusal
    try:
        _extract_glimpse(np, np.zeros(images.shape, np.float32), known, (rows, cols), centered, normalized, noise)
    except errors.UnimplementedError as exc:
        if "noise" in str(exc):
            raise refusal from None


def _static_int(value, what):
    known = array_ops.get_static_value(value)
    if known is None:
        raise NotImplementedError(f"{what} known only when the graph runs is not implemented in placeflow; give it "
                                  "as a Python int.")
    return int(np.asarray(known))


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """(boxes, scores, classes, valid count) of per-class greedy non-max suppression over a batch, best first."""
    boxes = convert_to_tensor(boxes, dtype=dtypes.float32)
    scores = convert_to_tensor(scores, dtype=dtypes.float32)
    per_class = _static_int(max_output_size_per_class, "max_output_size_per_class")
    total = _static_int(max_total_size, "max_total_size")
    if per_class <= 0 or total <= 0:
        raise errors.InvalidArgumentError(None, None, "max_size_per_class and max_total_size must be > 0")
    if not 0 <= float(iou_threshold) <= 1:
        raise errors.InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    detections = min(total, per_class * int(scores.shape[-1])) if pad_per_class else total
    attrs = {"max_output_size_per_class": per_class, "max_detections": detections,
             "iou_threshold": float(iou_threshold), "score_threshold": float(score_threshold),
             "clip_boxes": bool(clip_boxes)}
    return tuple(execute("CombinedNonMaxSuppression", (boxes, scores), dtypes.float32, attrs, name=name))


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """(indices, valid count) of TF's batched tiled non-max suppression (boxes [..., n, 4]; padded to
    max_output_size with pad_to_max_output_size, which batched input requires)."""
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    if not pad_to_max_output_size and len(boxes.shape) > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched input")
    size = _static_int(max_output_size, "max_output_size")
    lead = [int(v) for v in boxes.shape[:-2]]
    count = int(boxes.shape[-2])
    flat_boxes = array_ops.reshape(boxes, [-1, count, 4])
    flat_scores = array_ops.reshape(scores, [-1, count])
    threshold = float(score_threshold)
    attrs = {"max_output_size": size, "iou_threshold": float(iou_threshold),
             "score_threshold": None if threshold == float("-inf") else threshold, "sorted_input": bool(sorted_input),
             "canonicalized_coordinates": bool(canonicalized_coordinates), "tile_size": int(tile_size)}
    indices, valid = execute("_NonMaxSuppressionPadded", (flat_boxes, flat_scores), flat_boxes.dtype, attrs,
                             name=name)
    valid = array_ops.reshape(valid, lead)
    if not pad_to_max_output_size:  # the first `valid` (known when the graph runs, inside a function)
        return indexing.gather(indices[0], array_ops.range(array_ops.reshape(valid, []), dtype=valid.dtype)), valid
    return array_ops.reshape(indices, lead + [size]), valid


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Indices (int32) kept by greedy non-max suppression where overlaps[i, j] is the overlap of boxes i and j."""
    overlaps = convert_to_tensor(overlaps, dtype=dtypes.float32)
    scores = convert_to_tensor(scores, dtype=dtypes.float32)
    attrs = {"max_output_size": _static_int(max_output_size, "max_output_size"),
             "overlap_threshold": float(overlap_threshold), "score_threshold": float(score_threshold)}
    return execute("NonMaxSuppressionWithOverlaps", (overlaps, scores), dtypes.float32, attrs, name=name)
