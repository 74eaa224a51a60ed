"""tf.audio: decode_wav and encode_wav for 16-bit PCM WAV files (kernels in ops/audio.py)."""

from __future__ import annotations

import collections

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes

DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """(audio float32 [samples, channels] in [-1, 1), sample_rate int32) of a 16-bit PCM WAV file's bytes."""
    contents = convert_to_tensor(contents, dtype=dtypes.string)
    audio, rate = execute("DecodeWav", (contents,), dtypes.string,
                          {"desired_channels": int(desired_channels), "desired_samples": int(desired_samples)},
                          name=name)
    return DecodeWav(audio, rate)


def encode_wav(audio, sample_rate, name=None):
    """The bytes of a 16-bit PCM WAV file of float32 `audio` [samples, channels] (values clipped to [-1, 1))."""
    audio = convert_to_tensor(audio)
    if audio.dtype != dtypes.float32:
        from ..framework import build_errors
        raise build_errors.input_type_mismatch("EncodeWav", "audio", audio.dtype, dtypes.float32, (
            f"cannot compute EncodeWav as input #0(zero-based) was expected to be a float tensor but is a "
            f"{audio.dtype.name} tensor"))
    rate = convert_to_tensor(sample_rate, dtype=dtypes.int32)
    return execute("EncodeWav", (audio, rate), dtypes.float32, name=name)
