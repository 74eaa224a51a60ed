"""tf.image's sampled bounding boxes (TF's Philox values: the stateless op from its seed pair, the stateful one
from its op seed's stream), adjust_jpeg_quality (an encode/decode round trip through Pillow's libjpeg, as TF's,
with dct_method='INTEGER_ACCURATE'), and decode_webp (still images)."""

from __future__ import annotations

import threading

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, graph_mode

_streams: dict = {}
_lock = threading.Lock()


def _sample_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes):
    return {"aspect_ratio_range": tuple(float(v) for v in (aspect_ratio_range or (0.75, 1.33))),
            "area_range": tuple(float(v) for v in (area_range or (0.05, 1.0))),
            "max_attempts": int(max_attempts or 100),
            "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}


def _sample_inputs(image_size, bounding_boxes, min_object_covered):
    size = convert_to_tensor(image_size)
    if size.dtype == dtypes.float32 or size.dtype == dtypes.float64:
        size = convert_to_tensor(image_size, dtype=dtypes.int32)
    return size, convert_to_tensor(bounding_boxes, dtype=dtypes.float32), convert_to_tensor(
        min_object_covered, dtype=dtypes.float32)


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed, min_object_covered=0.1,
                                            aspect_ratio_range=None, area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, box) of a random crop covering at least min_object_covered of a box, determined by the seed
    pair (TensorFlow's values)."""
    from .random import _seed_tensor
    inputs = _sample_inputs(image_size, bounding_boxes, min_object_covered)
    attrs = _sample_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    return tuple(execute("StatelessSampleDistortedBoundingBox", inputs + (_seed_tensor(seed),), inputs[0].dtype,
                         attrs, name=name))


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, box) of a random crop covering at least min_object_covered of a box (seed 0: unseeded)."""
    from ..ops.image_sample import CallStream
    from .random import get_seed
    import numpy as np
    inputs = _sample_inputs(image_size, bounding_boxes, min_object_covered)
    attrs = _sample_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    seeds = get_seed(seed) if seed else (None, None)
    if seeds == (None, None):
        stream = CallStream(*(int(v) for v in np.random.SeedSequence().generate_state(2, np.uint64)))
    elif graph_mode.active() is not None:
        stream = CallStream(*seeds)          # a new kernel per op built into a graph, as TF's
    else:
        with _lock:                          # TF's cached eager kernel: one stream per seeds and attributes
            key = (seeds, inputs[0].dtype.name, tuple(sorted(attrs.items())))
            stream = _streams.setdefault(key, CallStream(*seeds))
    return tuple(execute("SampleDistortedBoundingBoxV2", inputs, inputs[0].dtype, dict(attrs, generator=stream),
                         name=name))


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG encode/decode round trip at `jpeg_quality` (0-100), in its own dtype (decoded with
    dct_method='INTEGER_ACCURATE', the one placeflow reproduces)."""
    from .image_codecs import decode_jpeg
    from .image_ops import convert_image_dtype
    image = convert_to_tensor(image)
    if dct_method != "INTEGER_ACCURATE":
        raise NotImplementedError(f"adjust_jpeg_quality(dct_method={dct_method!r}) is not implemented in placeflow: "
                                  "TensorFlow's default decodes with libjpeg's fast integer IDCT, which placeflow does "
                                  "not reproduce; pass dct_method='INTEGER_ACCURATE'.")
    channels = int(image.shape[-1]) if image.shape is not None and len(image.shape) else 0
    original = image.dtype
    pixels = convert_image_dtype(image, dtypes.uint8, saturate=True)
    quality = convert_to_tensor(jpeg_quality, dtype=dtypes.int32)
    encoded = execute("EncodeJpegVariableQuality", (pixels, quality), dtypes.uint8, {})
    decoded = decode_jpeg(encoded, channels=channels, dct_method=dct_method)
    return convert_image_dtype(decoded, original, saturate=True, name=name)


def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    """[1, height, width, 3 or 4] uint8 pixels of a still WebP file (channels 0: the file's own)."""
    from ..framework import errors
    from .image_codecs import _contents
    if dtypes.as_dtype(dtype) != dtypes.uint8:
        from ..framework import build_errors
        raise build_errors.dtype_not_allowed("dtype", dtypes.as_dtype(dtype), ("uint8",), (
            f"Value for attr 'dtype' of {dtypes.as_dtype(dtype).name} is not in the list of allowed values: uint8"))
    channels = int(channels or 0)
    if channels not in (0, 3, 4):
        raise errors.InvalidArgumentError(None, None, "WebP only supports 3 or 4 channels")
    _refuse_animation(contents)
    return execute("DecodeWebP", (_contents(contents),), dtypes.string, {"channels": channels}, name=name)


def _refuse_animation(contents):
    """NotImplementedError for an animated WebP whose bytes are known (TF 2.21's kernel crashes on them)."""
    import io
    from .array_ops import get_static_value
    known = contents if isinstance(contents, bytes) else get_static_value(contents)
    if isinstance(known, bytes) and known[:4] == b"RIFF" and known[8:12] == b"WEBP":
        from PIL import Image
        if getattr(Image.open(io.BytesIO(known)), "n_frames", 1) > 1:
            raise NotImplementedError("decode_webp of an animated WebP is not implemented in placeflow (TensorFlow "
                                      "2.21's kernel crashes on them).")
