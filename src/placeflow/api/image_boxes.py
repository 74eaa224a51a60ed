"""tf.image's patch and box functions: extract_patches, resize_with_pad, crop_and_resize, and greedy
non-max suppression, as TensorFlow 2.21 computes them. Patches and crops are built from placeflow ops (so
they run in `function` and have gradients); non-max suppression runs on the host, as TF's CPU kernel does."""

from __future__ import annotations

import math

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors
from . import array_ops, indexing, math_ops


def _four(values, what) -> tuple:
    values = [int(v) for v in values]
    if len(values) != 4 or values[0] != 1 or values[3] != 1:
        raise ValueError(f"{what} must be [1, rows, cols, 1]; got {values}")
    return values[1], values[2]


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """The size[1] x size[2] patches of `images` ([batch, height, width, depth]), every strides apart, sampled
    every rates apart, each flattened (row, column, depth) into the last dimension."""
    x = convert_to_tensor(images)
    if len(x.shape) != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {len(x.shape)}")
    (k_rows, k_cols), (s_rows, s_cols), (r_rows, r_cols) = (_four(sizes, "ksizes"), _four(strides, "strides"),
                                                            _four(rates, "rates"))
    padding = str(padding).upper()
    if padding not in ("SAME", "VALID"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                                                      "allowed values: \"SAME\", \"VALID\"")
    height, width = int(x.shape[1]), int(x.shape[2])
    rows, pad_rows = _span(height, k_rows, s_rows, r_rows, padding)
    cols, pad_cols = _span(width, k_cols, s_cols, r_cols, padding)
    if padding == "SAME" and (sum(pad_rows) or sum(pad_cols)):
        x = indexing.pad(x, [[0, 0], list(pad_rows), list(pad_cols), [0, 0]])
    if rows <= 0 or cols <= 0:
        return array_ops.zeros([int(x.shape[0]), max(rows, 0), max(cols, 0), k_rows * k_cols * int(x.shape[3])],
                               x.dtype)
    pieces = [x[:, i * r_rows: i * r_rows + (rows - 1) * s_rows + 1: s_rows,
                j * r_cols: j * r_cols + (cols - 1) * s_cols + 1: s_cols, :]
              for i in range(k_rows) for j in range(k_cols)]
    return array_ops.concat(pieces, axis=3, name=name or "concat")


def _span(size, kernel, stride, rate, padding) -> tuple:
    """(output positions, (pad before, pad after)) along one dimension, as TF's windowed ops compute them."""
    effective = kernel + (kernel - 1) * (rate - 1)
    if padding == "VALID":
        return (size - effective + stride) // stride, (0, 0)
    out = -(-size // stride)
    total = max((out - 1) * stride + effective - size, 0)
    return out, (total // 2, total - total // 2)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """The image resized to fit target_height x target_width with its aspect ratio kept, then padded (centred)
    with zeros to exactly that size."""
    from .image import resize
    from .image_ops import _dims, _image, pad_to_bounding_box
    x = _image(image)
    height, width = _dims(x)
    rows, cols = int(target_height), int(target_width)
    if rows <= 0 or cols <= 0:
        raise ValueError("target_height must be > 0" if rows <= 0 else "target_width must be > 0")
    ratio = max(width / cols, height / rows)
    new_height, new_width = int(math.floor(height / ratio)), int(math.floor(width / ratio))
    resized = resize(x, [new_height, new_width], method=method, antialias=antialias)
    # TF centres by the unrounded size: the offsets are floor((target - height / ratio) / 2)
    top, left = max(int(math.floor((rows - height / ratio) / 2)), 0), max(int(math.floor((cols - width / ratio) / 2)), 0)
    return pad_to_bounding_box(resized, top, left, rows, cols)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    """For each box ([y1, x1, y2, x2] in [0, 1] of the image's height and width - 1) of image box_indices[i], a
    crop_size crop sampled bilinearly (or nearest), float32; samples outside the image are extrapolation_value."""
    x = math_ops.cast(convert_to_tensor(image), dtypes.float32)
    boxes = math_ops.cast(convert_to_tensor(boxes), dtypes.float32)
    which = convert_to_tensor(box_indices)
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    if len(x.shape) != 4 or len(boxes.shape) != 2 or int(boxes.shape[1]) != 4:
        raise errors.InvalidArgumentError(None, None, f"input image must be 4-D and boxes [num_boxes, 4]; got "
                                                      f"{list(x.shape)} and {list(boxes.shape)}")
    size = array_ops.get_static_value(crop_size)
    if size is None:
        raise NotImplementedError("crop_and_resize with a crop_size known only when the graph runs is not implemented "
                                  "in placeflow; give it as Python ints.")
    crop_h, crop_w = (int(v) for v in np.asarray(size).reshape(-1))
    height, width = int(x.shape[1]), int(x.shape[2])
    y1, x1, y2, x2 = indexing.unstack(boxes, axis=1)
    ys = _sample_points(y1, y2, crop_h, height)          # [boxes, crop_h]
    xs = _sample_points(x1, x2, crop_w, width)           # [boxes, crop_w]
    images = indexing.gather(x, which)                   # [boxes, height, width, depth]
    if method == "nearest":
        out = _sample(images, math_ops.floor(ys + 0.5), math_ops.floor(xs + 0.5), height, width)  # C roundf
    else:
        y0, x0 = math_ops.floor(ys), math_ops.floor(xs)
        dy, dx = (ys - y0)[:, :, None, None], (xs - x0)[:, None, :, None]
        top = _sample(images, y0, x0, height, width) * (1.0 - dx) + _sample(images, y0, x0 + 1.0, height, width) * dx
        bottom = (_sample(images, y0 + 1.0, x0, height, width) * (1.0 - dx)
                  + _sample(images, y0 + 1.0, x0 + 1.0, height, width) * dx)
        out = top * (1.0 - dy) + bottom * dy
    inside = math_ops.logical_and(_inside(ys, height)[:, :, None, None], _inside(xs, width)[:, None, :, None])
    fill = array_ops.zeros_like(out) + math_ops.cast(extrapolation_value, dtypes.float32)
    return math_ops.where(indexing.broadcast_to(inside, array_ops.shape(out)), out, fill, name=name)


def _sample_points(start, end, count, size):
    if count > 1:
        steps = math_ops.cast(array_ops.range(count), dtypes.float32)
        return start[:, None] * (size - 1) + steps[None, :] * ((end - start) * (size - 1) / (count - 1))[:, None]
    return (0.5 * (start + end) * (size - 1))[:, None]


def _inside(points, size):
    return math_ops.logical_and(points >= 0.0, points <= float(size - 1))


def _sample(images, ys, xs, height, width):
    """images[b, ys[b, i], xs[b, j], :] with the coordinates clamped into the image (out-of-range ones are
    replaced by the extrapolation value afterwards)."""
    rows = math_ops.cast(math_ops.clip_by_value(ys, 0.0, float(height - 1)), dtypes.int32)
    cols = math_ops.cast(math_ops.clip_by_value(xs, 0.0, float(width - 1)), dtypes.int32)
    picked = indexing.gather(images, rows, axis=1, batch_dims=1)          # [boxes, crop_h, width, depth]
    return _gather_columns(picked, cols)


def _gather_columns(picked, cols):
    """picked[b, i, cols[b, j], :] for every b, i, j."""
    moved = array_ops.transpose(picked, [0, 2, 1, 3])                      # [boxes, width, crop_h, depth]
    gathered = indexing.gather(moved, cols, axis=1, batch_dims=1)         # [boxes, crop_w, crop_h, depth]
    return array_ops.transpose(gathered, [0, 2, 1, 3])


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """Indices (int32) of boxes kept by greedy non-max suppression: highest score first, dropping boxes whose
    IoU with a kept one exceeds iou_threshold, and boxes scoring at most score_threshold."""
    return _nms(boxes, scores, max_output_size, iou_threshold, score_threshold, 0.0, name)[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """(selected indices, their scores) of non-max suppression; soft_nms_sigma > 0 decays the scores of
    overlapping boxes (Gaussian soft-NMS, as TF) instead of dropping them."""
    return _nms(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma, name)


def _nms(boxes, scores, max_output_size, iou_threshold, score_threshold, sigma, name):
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    if len(boxes.shape) != 2 or int(boxes.shape[1]) != 4:
        raise ValueError(f"Shape must be rank 2 with 4 columns for boxes, got {list(boxes.shape)}")
    if len(scores.shape) != 1:
        raise ValueError(f"Shape must be rank 1 for scores, got {list(scores.shape)}")
    attrs = {"max_output_size": int(max_output_size), "iou_threshold": float(iou_threshold),
             "score_threshold": float(score_threshold), "sigma": float(sigma)}
    return tuple(execute("_NonMaxSuppression", (boxes, scores), scores.dtype, attrs, name=name))
