"""tf.summary: TensorBoard event files (scalars, histograms, images, text, raw tensors), written eagerly.

`create_file_writer(logdir)` opens `events.out.tfevents.<time>.<host>.<pid>.<n><suffix>` in `logdir` and writes
TensorBoard's records (summary/records.py); `with writer.as_default(step):` makes it the thread's default, and
`scalar`, `histogram`, `image`, `text` and `write` then add one value each. Writes happen eagerly: inside a
traced `function` they are refused by name (TensorFlow records them as graph ops). `audio` is in audio.py;
`graph`, `trace_on`/`trace_off`/`trace_export` (graphs, not profiler traces) and `experimental.write_raw_pb`
in trace.py.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import threading
import time

import numpy as np

from . import records

_state = threading.local()
_file_ids = itertools.count()


def _stack() -> list:
    if not hasattr(_state, "writers"):
        _state.writers, _state.step, _state.record = [], None, []
    return _state.writers


class SummaryWriter:
    """Writes summaries to one event file (tf.summary.SummaryWriter)."""

    def __init__(self, logdir, filename_suffix=None):
        os.makedirs(logdir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.{os.getpid()}.{next(_file_ids)}"
                + (filename_suffix or ""))
        self._path = os.path.join(os.fspath(logdir), name)
        self._file = open(self._path, "wb")  # noqa: SIM115 - held until close()
        self._lock = threading.Lock()
        self._append(records.event(time.time(), 0, file_version="brain.Event:2"))

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Make this the thread's default writer inside the block (and `step` the default step, when given)."""
        writers = _stack()
        writers.append(self)
        previous = _state.step
        if step is not None:
            _state.step = step
        try:
            yield self
        finally:
            writers.pop()
            if step is not None:
                _state.step = previous
            self.flush()

    def set_as_default(self, step=None):
        """Make this the thread's default writer from now on."""
        _stack().append(self)
        if step is not None:
            _state.step = step

    def init(self):
        """Nothing to do: the file is open from the start."""

    def flush(self):
        """Write what is buffered to the file."""
        with self._lock:
            if not self._file.closed:
                self._file.flush()

    def close(self):
        """Flush and close the file; later writes are refused."""
        with self._lock:
            if not self._file.closed:
                self._file.close()

    def _append(self, data: bytes) -> None:
        with self._lock:
            if self._file.closed:
                raise ValueError(f"this SummaryWriter ({self._path}) is closed")
            self._file.write(records.record(data))

    def _write(self, tag, tensor: bytes, metadata: bytes, step: int) -> None:
        self._append(records.event(time.time(), step, tag=tag, tensor=tensor, metadata=metadata))


class _NoopWriter(SummaryWriter):
    """A writer that writes nothing (create_noop_writer)."""

    def __init__(self):
        self._path = None

    def flush(self):
        """Nothing to flush."""

    def close(self):
        """Nothing to close."""

    def _append(self, data):
        pass


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter for `logdir`. max_queue and flush_millis bound TF's buffering; here every value goes to
    the file's buffer at once and reaches the disk at flush()/close() or at the end of `as_default`."""
    if experimental_trackable or experimental_mesh is not None:
        raise NotImplementedError("create_file_writer(experimental_trackable=..., experimental_mesh=...) is not "
                                  "implemented in placeflow.")
    return SummaryWriter(logdir, filename_suffix)


def create_noop_writer():
    """A writer whose summaries go nowhere."""
    return _NoopWriter()


@contextlib.contextmanager
def record_if(condition):
    """Record summaries inside the block only while `condition` (a bool, tensor or callable) holds."""
    _stack()
    _state.record.append(condition)
    try:
        yield
    finally:
        _state.record.pop()


def should_record_summaries() -> bool:
    """Whether a summary written now would be recorded: a default writer exists and every record_if holds."""
    if not _stack():
        return False
    for condition in _state.record:
        value = condition() if callable(condition) else condition
        if not bool(np.asarray(value.numpy() if hasattr(value, "numpy") else value)):
            return False
    return True


def flush(writer=None, name=None):
    """Flush `writer` (default: the thread's default writer)."""
    target = writer if writer is not None else (_stack()[-1] if _stack() else None)
    if target is not None:
        target.flush()


def _target_step(step):
    if step is None:
        _stack()
        step = _state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    value = step.numpy() if hasattr(step, "numpy") else step
    return int(np.asarray(value))


def _host(data):
    from ..framework import graph_mode
    if graph_mode.active() is not None:
        raise NotImplementedError("tf.summary ops inside a traced placeflow.function are not implemented: write "
                                  "summaries eagerly (e.g. from a Keras callback or outside the function).")
    return np.asarray(data.numpy() if hasattr(data, "numpy") else data)


def _emit(name, tensor_bytes: bytes, metadata: bytes, step) -> bool:
    if not should_record_summaries():
        return False
    _stack()[-1]._write(name, tensor_bytes, metadata, _target_step(step))
    return True


def write(tag, tensor, step=None, metadata=None, name=None) -> bool:
    """Write `tensor` under `tag` with `metadata` (a SummaryMetadata or its bytes); False without a writer."""
    if not should_record_summaries():
        return False
    encoded = metadata.SerializeToString() if hasattr(metadata, "SerializeToString") else (metadata or b"")
    return _emit(tag, records.tensor_proto(_host(tensor)), encoded, step)


def scalar(name, data, step=None, description=None) -> bool:
    """Write a scalar (TensorBoard's scalars plugin); False without a default writer."""
    if not should_record_summaries():
        return False
    value = _host(data)
    if value.ndim != 0:
        raise ValueError(f"tf.summary.scalar needs a scalar; got shape {value.shape}")
    return _emit(name, records.tensor_proto(value.astype(np.float32)),
                 records.summary_metadata("scalars", description=description or "", data_class=1), step)


def histogram(name, data, step=None, buckets=None, description=None) -> bool:
    """Write a histogram of `data` (buckets equal-width between its min and max; 30 by default, as TF)."""
    if not should_record_summaries():
        return False
    values = _host(data).astype(np.float64).reshape(-1)
    count = 30 if buckets is None else int(buckets)
    if values.size == 0:
        table = np.zeros((0, 3))
    elif values.min() == values.max():
        table = np.array([[values.min(), values.max(), float(values.size)]] + [[values.max()] * 2 + [0.0]]
                         * (count - 1)) if count > 0 else np.zeros((0, 3))
    else:
        counts, edges = np.histogram(values, bins=count)
        table = np.stack([edges[:-1], edges[1:], counts.astype(np.float64)], axis=1)
    return _emit(name, records.tensor_proto(table), records.summary_metadata(
        "histograms", description=description or "", data_class=2), step)


def text(name, data, step=None, description=None) -> bool:
    """Write text (a string or a tensor of strings) for TensorBoard's text plugin."""
    if not should_record_summaries():
        return False
    return _emit(name, records.tensor_proto(_host(data)),
                 records.summary_metadata("text", description=description or "", data_class=2), step)


def image(name, data, step=None, max_outputs=3, description=None) -> bool:
    """Write up to `max_outputs` images of `data` [k, h, w, c] (floats in [0, 1], or uint8) as PNGs."""
    if not should_record_summaries():
        return False
    from .png import encode_png
    images = _host(data)
    if images.ndim != 4 or images.shape[-1] not in (1, 3, 4):
        raise ValueError(f"tf.summary.image needs [k, h, w, c] with c in 1, 3, 4; got shape {images.shape}")
    if images.dtype != np.uint8:
        images = np.clip(np.round(images.astype(np.float64) * 255.0), 0, 255).astype(np.uint8)
    pngs = [encode_png(frame) for frame in images[:max_outputs]]
    tensor = np.array([str(images.shape[2]).encode(), str(images.shape[1]).encode()] + pngs, dtype=object)
    return _emit(name, records.tensor_proto(tensor), records.summary_metadata(
        "images", description=description or "", data_class=3), step)


from .audio import audio  # noqa: E402,F401
from .trace import graph, trace_export, trace_off, trace_on, write_raw_pb as _write_raw_pb  # noqa: E402,F401


class experimental:  # noqa: N801 - TF's namespace name
    """tf.summary.experimental: the default step, summary_scope and write_raw_pb."""

    write_raw_pb = staticmethod(_write_raw_pb)

    @staticmethod
    def get_step():
        """The default step (None when unset)."""
        _stack()
        return _state.step

    @staticmethod
    def set_step(step):
        """Set the default step for summaries written without one."""
        _stack()
        _state.step = step

    @staticmethod
    @contextlib.contextmanager
    def summary_scope(name, default_name=None, values=None):
        """Yields (tag, scope name) for a summary called `name` (placeflow adds no name-scope prefix)."""
        tag = name or default_name
        yield tag, tag
