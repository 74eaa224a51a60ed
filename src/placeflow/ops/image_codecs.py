"""Image file kernels on the host through Pillow (a dependency; imported on first use): DecodeImage for PNG,
JPEG, GIF and BMP (TF's channel conversions: libpng's integer grey weights, 16-bit to 8-bit rounding, libjpeg's
own greyscale and scaled decoding), EncodePng and EncodeJpeg (libjpeg's quality tables and subsampling)."""

from __future__ import annotations

import io

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import NOT_DIFFERENTIABLE, define

_UNKNOWN = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."
STRING = frozenset({d.string})


def image_format(raw: bytes) -> str:
    """'png', 'jpeg', 'gif', 'bmp' or 'webp' from the file signature; InvalidArgumentError otherwise."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if raw.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if raw.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if raw.startswith(b"BM"):
        return "bmp"
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "webp"
    raise InvalidArgumentError(None, None, _UNKNOWN)


def _pillow():
    from PIL import Image
    return Image


def _open(raw: bytes):
    try:
        image = _pillow().open(io.BytesIO(raw))
        image.load()
        return image
    except Exception as error:  # noqa: BLE001 - any decoder failure is TF's InvalidArgumentError
        raise InvalidArgumentError(None, None, f"Invalid image data: {error}") from error


def _gray_from_rgb(rgb: np.ndarray) -> np.ndarray:
    """libpng's integer RGB-to-grey (weights 9798, 19235, 3735 over 2^15)."""
    weights = np.array([9798, 19235, 3735], dtype=np.int64)
    gray = (rgb[..., :3].astype(np.int64) * weights).sum(axis=-1) >> 15
    return gray.astype(rgb.dtype)[..., None]


def _to_channels(pixels: np.ndarray, channels: int, opaque: int) -> np.ndarray:
    have = pixels.shape[-1]
    if channels == 0 or channels == have:
        return pixels
    color = pixels[..., :1].repeat(3, axis=-1) if have in (1, 2) else pixels[..., :3]
    alpha = pixels[..., -1:] if have in (2, 4) else np.full(pixels.shape[:-1] + (1,), opaque, pixels.dtype)
    if channels == 1:
        return pixels[..., :1] if have in (1, 2) else _gray_from_rgb(pixels)
    if channels == 2:
        return np.concatenate([pixels[..., :1] if have in (1, 2) else _gray_from_rgb(pixels), alpha], axis=-1)
    if channels == 3:
        return color
    return np.concatenate([color, alpha], axis=-1)


def _png_pixels(image) -> np.ndarray:
    mode = image.mode
    if mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
        mode = image.mode
    if mode in ("I;16", "I;16B", "I"):
        return np.asarray(image, dtype=np.uint16)[..., None]
    if mode == "1":
        image = image.convert("L")
    pixels = np.asarray(image)
    return pixels[..., None] if pixels.ndim == 2 else pixels


def _decode_png(raw: bytes, channels: int, dtype) -> np.ndarray:
    pixels = _png_pixels(_open(raw))
    if dtype == d.uint16 and pixels.dtype == np.uint8:
        pixels = pixels.astype(np.uint16) * 257
    elif dtype == d.uint8 and pixels.dtype == np.uint16:
        pixels = ((pixels.astype(np.int64) * 255 + 32895) >> 16).astype(np.uint8)  # libpng's strip-16
    opaque = 65535 if pixels.dtype == np.uint16 else 255
    return _to_channels(pixels, channels, opaque)


def _decode_jpeg(raw: bytes, channels: int, ratio: int = 1) -> np.ndarray:
    image = _pillow().open(io.BytesIO(raw))
    mode = "L" if channels == 1 else "RGB"
    if ratio != 1 or channels == 1:
        image.draft(mode, (max(image.width // ratio, 1), max(image.height // ratio, 1)))
    try:
        image.load()
    except Exception as error:  # noqa: BLE001
        raise InvalidArgumentError(None, None, f"Invalid JPEG data or crop window: {error}") from error
    if image.mode != mode:
        image = image.convert(mode)
    pixels = np.asarray(image)
    return pixels[..., None] if pixels.ndim == 2 else pixels


def _decode_gif(raw: bytes) -> np.ndarray:
    from PIL import ImageSequence
    image = _open(raw)
    frames = [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(image)]
    return np.stack(frames)


def _decode_bmp(raw: bytes, channels: int) -> np.ndarray:
    image = _open(raw)
    pixels = np.asarray(image.convert("RGBA" if image.mode == "RGBA" else "RGB"))
    return _to_channels(pixels, channels, 255)


def decode(raw: bytes, kind: str, channels: int, dtype, expand_animations: bool, ratio: int = 1) -> np.ndarray:
    """The pixels of one image file (GIF: [frames, height, width, 3] unless not expanded)."""
    found = image_format(raw)
    if found == "webp":
        raise InvalidArgumentError(None, None, "WebP images are not supported by placeflow's decoder.")
    if kind == "gif" and found != "gif":
        raise InvalidArgumentError(None, None, f"Trying to decode {found.upper()} format using DecodeGif op. Use "
                                               "`decode_png` or `decode_image` instead.")
    if found == "gif":
        frames = _decode_gif(raw)
        if channels not in (0, 3):
            raise InvalidArgumentError(None, None, f"channels must be 0 or 3 for GIF, got {channels}")
        return frames if expand_animations else frames[0]
    if kind == "bmp" and found != "bmp":
        raise InvalidArgumentError(None, None, f"Trying to decode {found.upper()} format using DecodeBmp op. Use "
                                               "`decode_jpeg` or `decode_png` or `decode_image` instead.")
    if found == "jpeg":
        pixels = _decode_jpeg(raw, channels, ratio)
        return pixels.astype(np.uint16) * 257 if dtype == d.uint16 else pixels
    if found == "bmp":
        return _decode_bmp(raw, channels)
    return _decode_png(raw, channels, dtype)


def _scalar_bytes(contents) -> bytes:
    item = np.asarray(contents, dtype=object)
    if item.ndim != 0:
        raise InvalidArgumentError(None, None, f"contents must be scalar, got shape {list(item.shape)}")
    value = item.item()
    return value.encode("latin-1") if isinstance(value, str) else bytes(value)


def _decode_shape(shapes, attrs):
    channels = attrs.get("channels", 0) or None
    if attrs.get("kind") == "gif" or (attrs.get("kind") == "image" and attrs.get("expand_animations")):
        return None
    return (None, None, channels)


@define("DecodeImage", STRING, gpu=(), grad=NOT_DIFFERENTIABLE, shape=_decode_shape,
        dtype=lambda dtype, attrs: attrs.get("dtype", d.uint8))
def _decode_image(xp, contents, kind="image", channels=0, dtype=d.uint8, expand_animations=True, ratio=1):
    """The pixels of an image file (the kind of op asked for: png, jpeg, gif, bmp, or any image)."""
    return decode(_scalar_bytes(contents), kind, int(channels), dtype, bool(expand_animations), int(ratio))


@define("EncodePng", frozenset({d.uint8, d.uint16}), gpu=(), grad=NOT_DIFFERENTIABLE, shape=lambda s, a: (),
        dtype=lambda dtype, attrs: d.string)
def _encode_png(xp, image, compression=-1):
    """A PNG file of an [height, width, channels] uint8 or uint16 image (1 to 4 channels)."""
    pixels = np.asarray(image)
    if pixels.ndim != 3 or pixels.shape[-1] not in (1, 2, 3, 4):
        raise InvalidArgumentError(None, None, f"image must be 3-dimensional with 1 to 4 channels, got shape "
                                               f"{list(pixels.shape)}")
    Image = _pillow()
    if pixels.dtype == np.uint16:
        if pixels.shape[-1] != 1:
            raise InvalidArgumentError(None, None, "placeflow encodes 16-bit PNGs with one channel only.")
        picture = Image.fromarray(np.ascontiguousarray(pixels[..., 0]))  # a 2-D uint16 array is mode I;16
    else:
        modes = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
        squeezed = pixels[..., 0] if pixels.shape[-1] == 1 else pixels
        picture = Image.fromarray(np.ascontiguousarray(squeezed))
        if picture.mode != modes[pixels.shape[-1]]:
            picture = picture.convert(modes[pixels.shape[-1]])
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG", compress_level=6 if compression < 0 else int(compression))
    out = np.empty((), dtype=object)
    out[()] = buffer.getvalue()
    return out


@define("EncodeJpeg", frozenset({d.uint8}), gpu=(), grad=NOT_DIFFERENTIABLE, shape=lambda s, a: (),
        dtype=lambda dtype, attrs: d.string)
def _encode_jpeg(xp, image, quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                 x_density=300, y_density=300, density_unit="in"):
    """A JPEG file of an [height, width, 1 or 3] uint8 image (libjpeg's tables for `quality`)."""
    pixels = np.asarray(image)
    if pixels.ndim != 3 or pixels.shape[-1] not in (1, 3):
        raise InvalidArgumentError(None, None, f"image must be 3-dimensional with 1 or 3 channels, got shape "
                                               f"{list(pixels.shape)}")
    picture = _pillow().fromarray(pixels[..., 0] if pixels.shape[-1] == 1 else pixels)
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG", quality=int(quality), progressive=bool(progressive),
                 optimize=bool(optimize_size), subsampling=2 if chroma_downsampling else 0,
                 dpi=(int(x_density), int(y_density)) if density_unit == "in" else None)
    out = np.empty((), dtype=object)
    out[()] = buffer.getvalue()
    return out


@define("ExtractJpegShape", STRING, gpu=(), grad=NOT_DIFFERENTIABLE, shape=lambda s, a: (3,),
        dtype=lambda dtype, attrs: attrs.get("output_type", d.int32))
def _extract_jpeg_shape(xp, contents, output_type=d.int32):
    """[height, width, channels] of a JPEG file, read from its header."""
    raw = _scalar_bytes(contents)
    if image_format(raw) != "jpeg":
        raise InvalidArgumentError(None, None, "Not a JPEG image.")
    image = _pillow().open(io.BytesIO(raw))
    channels = {"L": 1, "RGB": 3, "YCbCr": 3, "CMYK": 4}.get(image.mode, 3)
    return np.asarray([image.height, image.width, channels], dtype=output_type.numpy_dtype)
