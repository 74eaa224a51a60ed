"""tf.summary.audio: clips as 16-bit PCM WAV files for TensorBoard's audio plugin (data class blob sequence:
a [k, 2] string tensor of (WAV bytes, label) rows, labels empty, as TensorBoard writes them)."""

from __future__ import annotations

import numpy as np

from ..framework.protobuf_wire import field_varint
from . import records

_WAV = 11  # AudioPluginData.Encoding.WAV


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None) -> bool:
    """Write up to `max_outputs` clips of `data` [k, t, c] (floats in [-1, 1]) at `sample_rate` Hz as WAV files;
    False without a default writer."""
    from ..api.audio import encode_wav
    from . import _emit, _host, should_record_summaries
    if encoding not in (None, "wav"):
        raise ValueError(f"Unknown encoding: {encoding!r}. tf.summary.audio writes 'wav' only; leave encoding out.")
    if not should_record_summaries():
        return False
    clips = _host(data).astype(np.float32)
    if clips.ndim != 3:
        raise ValueError(f"tf.summary.audio needs audio of shape [k, t, c] (rank 3); got shape {clips.shape}. Add "
                         "the missing clip or channel dimension.")
    rate = int(_host(sample_rate))
    wavs = [encode_wav(clip, rate).numpy() for clip in clips[:max(int(max_outputs), 0)]]
    table = np.array([[wav, b""] for wav in wavs], dtype=object).reshape(len(wavs), 2)
    content = field_varint(2, _WAV)  # AudioPluginData(version=0, encoding=WAV)
    return _emit(name, records.tensor_proto(table), records.summary_metadata(
        "audio", content=content, description=description or "", data_class=3), step)
