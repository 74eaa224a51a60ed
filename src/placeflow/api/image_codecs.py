"""Image files: decode_png, decode_jpeg, decode_gif, decode_bmp, decode_image, decode_and_crop_jpeg, encode_png,
encode_jpeg, is_jpeg, extract_jpeg_shape (in tf.io and tf.image), through Pillow on the host. Options whose
libjpeg behaviour placeflow does not reproduce are refused by name."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import indexing, math_ops


def _contents(contents):
    return convert_to_tensor(contents, dtype=dtypes.string) if isinstance(contents, (bytes, str)) else \
        convert_to_tensor(contents)


def _decode(contents, kind, channels=0, dtype=dtypes.uint8, expand_animations=True, ratio=1):
    channels = 0 if channels is None else int(channels)
    if channels not in (0, 1, 2, 3, 4):
        raise ValueError(f"channels must be in {{None, 0, 1, 2, 3, 4}}, got {channels}")
    return execute("DecodeImage", (_contents(contents),), dtypes.string,
                   {"kind": kind, "channels": channels, "dtype": dtypes.as_dtype(dtype),
                    "expand_animations": bool(expand_animations), "ratio": int(ratio)})


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """The pixels of a PNG (uint8 or uint16); channels 0 keeps the file's, 1-4 convert as libpng does."""
    return _decode(contents, "png", channels, dtype)


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """The uint8 pixels of a JPEG (ratio 2, 4 or 8 decodes it scaled down, as libjpeg does)."""
    if not fancy_upscaling or try_recover_truncated or acceptable_fraction != 1 or \
            dct_method not in ("", "INTEGER_ACCURATE", "INTEGER_ISLOW"):
        raise NotImplementedError("decode_jpeg's fancy_upscaling=False, try_recover_truncated, acceptable_fraction "
                                  "and dct_method='INTEGER_FAST' are not implemented in placeflow.")
    if int(ratio) not in (1, 2, 4, 8):
        raise ValueError(f"ratio must be 1, 2, 4 or 8, got {ratio}")
    return _decode(contents, "jpeg", channels, dtypes.uint8, ratio=ratio)


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """decode_jpeg, then the window [y, x, height, width]."""
    image = decode_jpeg(contents, channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                        dct_method)
    window = convert_to_tensor(crop_window, dtype=dtypes.int32)
    return indexing.slice(image, [window[0], window[1], 0], [window[2], window[3], -1])


def decode_gif(contents, name=None):
    """The frames of a GIF: [frames, height, width, 3] uint8."""
    return _decode(contents, "gif")


def decode_bmp(contents, channels=0, name=None):
    """The uint8 pixels of a BMP."""
    return _decode(contents, "bmp", channels)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """The pixels of a PNG, JPEG, GIF or BMP (GIFs 4-D unless expand_animations=False); a float dtype scales to
    [0, 1] as convert_image_dtype does."""
    dtype = dtypes.as_dtype(dtype)
    raw = dtypes.uint16 if dtype == dtypes.uint16 else dtypes.uint8
    pixels = _decode(contents, "image", channels, raw, expand_animations)
    if dtype == raw:
        return pixels
    from .image_ops import convert_image_dtype
    return convert_image_dtype(pixels, dtype)


def encode_png(image, compression=-1, name=None):
    """A PNG file of a [height, width, channels] uint8 (or one-channel uint16) image."""
    image = convert_to_tensor(image)
    return execute("EncodePng", (image,), image.dtype, {"compression": int(compression)})


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002 - TF's name
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="",
                name=None):
    """A JPEG file of a [height, width, 1 or 3] uint8 image with libjpeg's tables for `quality`."""
    if xmp_metadata or density_unit != "in":
        raise NotImplementedError("encode_jpeg's xmp_metadata and density_unit='cm' are not implemented in "
                                  "placeflow.")
    image = convert_to_tensor(image)
    if format == "grayscale" and int(image.shape[-1]) != 1:
        raise ValueError("format='grayscale' needs a one-channel image.")
    return execute("EncodeJpeg", (image,), image.dtype,
                   {"quality": int(quality), "progressive": bool(progressive), "optimize_size": bool(optimize_size),
                    "chroma_downsampling": bool(chroma_downsampling), "x_density": int(x_density),
                    "y_density": int(y_density), "density_unit": density_unit})


def is_jpeg(contents, name=None):
    """Whether the bytes start with JPEG's signature."""
    from .strings import substr
    return math_ops.equal(substr(_contents(contents), 0, 3), b"\xff\xd8\xff")


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG, from its header."""
    output_type = dtypes.as_dtype(output_type)
    return execute("ExtractJpegShape", (_contents(contents),), dtypes.string, {"output_type": output_type})
