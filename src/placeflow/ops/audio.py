"""WAV kernels on the host (tf.audio): DecodeWav and EncodeWav for 16-bit PCM, as TensorFlow's wav_io writes
and reads them (samples are int16 / 32768; encoding rounds half away from zero and saturates)."""

from __future__ import annotations

import struct

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import NOT_DIFFERENTIABLE, define
from .shape_rules import Incompatible


def _error(message: str):
    return InvalidArgumentError(None, None, message)


def _scalar(value, what: str):
    item = np.asarray(value, dtype=object)
    if item.ndim != 0:
        raise _error(f"{what} must be scalar, got shape {list(item.shape)}")
    return item.item()


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.offset = data, 0

    def take(self, count: int) -> bytes:
        if self.offset + count > len(self.data):
            raise _error("Data too short when trying to read string")
        out = self.data[self.offset:self.offset + count]
        self.offset += count
        return out

    def number(self, fmt: str) -> int:
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def tag(self, expected: str) -> None:
        found = self.take(4)
        if found != expected.encode():
            raise _error(f"Header mismatch: Expected {expected} but found {found.decode('latin-1')}")


def _parse(data: bytes):
    """(int16 samples [frames, channels], sample rate) of a 16-bit PCM WAV file."""
    reader = _Reader(data)
    reader.tag("RIFF")
    reader.number("I")
    reader.tag("WAVE")
    channels = rate = None
    while reader.offset < len(data):
        chunk, size = reader.take(4), reader.number("I")
        if chunk == b"fmt ":
            if size < 16:
                raise _error(f"Bad format chunk size for WAV: Expected 16 or greater, but got{size}")
            audio_format, channels, rate = reader.number("H"), reader.number("H"), reader.number("I")
            reader.number("I")
            reader.number("H")
            bits = reader.number("H")
            if audio_format != 1:
                raise _error(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
            if bits != 16:
                raise _error(f"Can only read 16-bit WAV files, but received {bits}")
            reader.take(size - 16)
        elif chunk == b"data":
            if channels is None:
                raise _error("Found data chunk before format chunk")
            payload = reader.take(size)
            frames = size // (2 * channels) if channels else 0
            samples = np.frombuffer(payload[:frames * 2 * channels], dtype="<i2").reshape(frames, channels)
            return samples, rate
        else:
            reader.take(size)
    raise _error("No data chunk found in WAV")


def _decode_wav_shape(shapes, attrs):
    if shapes[0] is not None and len(shapes[0]) != 0:
        raise Incompatible(f"Shape must be rank 0 but is rank {len(shapes[0])}")
    return [(None if attrs.get("desired_samples", -1) < 0 else attrs["desired_samples"],
             None if attrs.get("desired_channels", -1) < 0 else attrs["desired_channels"]), ()]


@define("DecodeWav", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE, shape=_decode_wav_shape,
        dtype=lambda dtype, attrs: [d.float32, d.int32])
def _decode_wav(xp, contents, desired_channels=-1, desired_samples=-1):
    """(float32 samples [frames, channels] in [-1, 1), int32 sample rate) of a 16-bit PCM WAV file."""
    value = _scalar(contents, "contents")
    samples, rate = _parse(value.encode("latin-1") if isinstance(value, str) else bytes(value))
    frames, channels = samples.shape
    out_channels = channels if desired_channels < 0 else int(desired_channels)
    out_frames = frames if desired_samples < 0 else int(desired_samples)
    audio = np.zeros((out_frames, out_channels), dtype=np.float32)
    if channels and out_channels:
        picked = samples[:, np.minimum(np.arange(out_channels), channels - 1)].astype(np.float32) / 32768.0
        kept = min(frames, out_frames)
        audio[:kept] = picked[:kept]
    return np.asarray(audio), np.asarray(np.int32(rate))


def _encode_wav_shape(shapes, attrs):
    for shape, rank in zip(shapes, (2, 0)):
        if shape is not None and len(shape) != rank:
            raise Incompatible(f"Shape must be rank {rank} but is rank {len(shape)}")
    return ()


@define("EncodeWav", frozenset({d.float32}), gpu=(), grad=NOT_DIFFERENTIABLE, shape=_encode_wav_shape,
        dtype=lambda dtype, attrs: d.string)
def _encode_wav(xp, audio, sample_rate):
    """A 16-bit PCM WAV file of float32 samples [frames, channels] (clipped to the int16 range)."""
    audio = np.asarray(audio.get() if hasattr(audio, "get") else audio, dtype=np.float32)
    rate = np.asarray(sample_rate)
    if rate.ndim != 0:
        raise _error(f"Input sample_rate should be a scalar tensor, got {list(rate.shape)} instead.")
    if audio.ndim != 2:
        raise _error(f"audio must be 2-dimensional{list(audio.shape)}".replace(", ", ","))
    rate = int(rate)
    if not 0 < rate < 2 ** 32:
        raise _error(f"sample_rate must be in (0, 2^32), got: {rate % 2 ** 64}")
    frames, channels = audio.shape
    scaled = np.nan_to_num(audio.astype(np.float64), nan=0.0) * 32768.0
    rounded = np.where(scaled >= 0, np.floor(scaled + 0.5), np.ceil(scaled - 0.5))
    samples = np.clip(rounded, -32768, 32767).astype("<i2").tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(samples), b"WAVE", b"fmt ", 16, 1, channels, rate,
                         rate * channels * 2, channels * 2, 16, b"data", len(samples))
    out = np.empty((), dtype=object)
    out[()] = header + samples
    return out
