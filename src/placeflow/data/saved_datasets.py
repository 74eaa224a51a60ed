"""tf.data's save, load and snapshot, in placeflow's own on-disk format (not TF's snapshot format, whose
directories placeflow refuses to read by name): a directory holding `placeflow_dataset.json` (the element spec,
compression and shard files) and one TFRecord file per shard, each element one record of its parts' serialized
TensorProtos (tf.io.serialize_tensor), length-prefixed."""

from __future__ import annotations

import json
import os
import shutil
import struct
import tempfile

import numpy as np

from ..framework import errors
from .dataset import Dataset, _WINDOW, _call_eagerly, _leaves, _pack, _spec_of

METADATA = "placeflow_dataset.json"
_TF_MARKERS = ("snapshot.metadata", "dataset_spec.pb")


# -- the element spec as JSON ---------------------------------------------------------------------------------------

def _encode_spec(spec):
    if isinstance(spec, dict):
        return {"dict": [[key, _encode_spec(value)] for key, value in spec.items()]}
    if isinstance(spec, tuple):
        if hasattr(spec, "_fields"):
            raise NotImplementedError(f"Saving a dataset of namedtuples ({type(spec).__name__}) is not implemented "
                                      f"in placeflow; map the elements to tuples or dicts first.")
        return {"tuple": [_encode_spec(value) for value in spec]}
    if spec is _WINDOW or not hasattr(spec, "dtype"):
        raise NotImplementedError(f"Saving a dataset whose elements hold {spec!r} (not tensors) is not implemented "
                                  f"in placeflow.")
    return {"tensor": [spec.dtype.name, None if spec.shape.rank is None else list(spec.shape.as_list())]}


def _decode_spec(encoded):
    if "dict" in encoded:
        return {key: _decode_spec(value) for key, value in encoded["dict"]}
    if "tuple" in encoded:
        return tuple(_decode_spec(value) for value in encoded["tuple"])
    dtype, shape = encoded["tensor"]
    return _spec_of(shape, _dtype(dtype))


def _dtype(name):
    from ..framework import dtypes
    return dtypes.as_dtype(name)


# -- records ----------------------------------------------------------------------------------------------------

def _encode_element(element) -> bytes:
    from ..api.io import serialize_tensor
    from .dataset import _as_tensors
    parts = [serialize_tensor(t).numpy() for t in _leaves(_as_tensors(element))]
    return b"".join(struct.pack("<Q", len(p)) + p for p in parts)


def _decode_element(record: bytes, spec):
    from ..api.io import parse_tensor
    parts, offset = [], 0
    for leaf in _leaves(spec):
        (size,), offset = struct.unpack_from("<Q", record, offset), offset + 8
        parts.append(parse_tensor(record[offset:offset + size], leaf.dtype).numpy())
        offset += size
    return _pack(spec, parts)


def _compression(value, allow_auto=False) -> str:
    text = "" if value is None else str(value).upper()
    if allow_auto and text == "AUTO":
        return ""
    if text == "SNAPPY":
        raise NotImplementedError("compression='SNAPPY' is not implemented in placeflow; use 'GZIP' or None.")
    if text not in ("", "GZIP"):
        raise ValueError(f"Unsupported compression {value!r} for tf.data save/snapshot: expected None, 'GZIP'"
                         f"{' or AUTO' if allow_auto else ''}.")
    return text


# -- save -----------------------------------------------------------------------------------------------------------

def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """Write every element of `dataset` under the directory `path` (placeflow's format; shard files chosen by
    shard_func(element), an integer scalar, else one shard), for Dataset.load."""
    if checkpoint_args is not None:
        raise NotImplementedError("save(checkpoint_args=...) is not implemented in placeflow (saving cannot be "
                                  "resumed from a checkpoint); call save without it.")
    kind = _compression(compression)
    for _ in _written(dataset, _path(path), kind, shard_func):
        pass


def _written(dataset, path, kind, shard_func):
    """The elements of one pass of `dataset`, written to `path` as they pass; the directory appears complete at
    the end of the pass (nothing is left when the pass stops early)."""
    from ..api.tfrecord import TFRecordOptions, TFRecordWriter
    encoded_spec = _encode_spec(dataset.element_spec)
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    staging, writers = tempfile.mkdtemp(prefix=".placeflow-save-", dir=parent), {}
    try:
        count = 0
        for element in dataset._make_iterator():
            shard = 0 if shard_func is None else _shard_of(shard_func, element)
            if shard not in writers:
                writers[shard] = TFRecordWriter(os.path.join(staging, _shard_name(shard)), TFRecordOptions(kind))
            writers[shard].write(_encode_element(element))
            count += 1
            yield element
        for writer in writers.values():
            writer.close()
        metadata = {"format": "placeflow tf.data save", "version": 1, "element_spec": encoded_spec,
                    "compression": kind, "shards": [_shard_name(s) for s in sorted(writers)], "cardinality": count}
        with open(os.path.join(staging, METADATA), "w", encoding="utf-8") as handle:
            json.dump(metadata, handle)
        _clear(path)
        os.replace(staging, path)
    finally:
        for writer in writers.values():
            writer.close()
        shutil.rmtree(staging, ignore_errors=True)


def _clear(path) -> None:
    """Make room for a save at `path`: an earlier placeflow save there is replaced, an empty directory removed;
    anything else is kept and refused (AlreadyExistsError), never deleted."""
    if os.path.exists(os.path.join(path, METADATA)):
        shutil.rmtree(path)
    elif os.path.isdir(path) and not os.listdir(path):
        os.rmdir(path)
    elif os.path.exists(path):
        raise errors.AlreadyExistsError(None, None, f"Cannot save the dataset to {path}: it exists and does not hold "
                                                    f"an earlier Dataset.save; choose a new directory.")


def _shard_name(shard: int) -> str:
    return f"shard_{shard:08d}.tfrecord"


def _shard_of(shard_func, element) -> int:
    value = np.asarray(_call_eagerly(shard_func, element))
    if value.ndim != 0 or value.dtype.kind not in "iu":
        raise errors.InvalidArgumentError(None, None, f"shard_func must return an integer scalar (the shard index), "
                                                      f"got {value!r}.")
    if int(value) < 0:
        raise errors.InvalidArgumentError(None, None, f"shard_func must return a non-negative shard index, got "
                                                      f"{int(value)}.")
    return int(value)


def _path(path) -> str:
    value = path.numpy() if hasattr(path, "numpy") else path
    return os.fsdecode(value) if isinstance(value, bytes) else os.fspath(value)


# -- load -----------------------------------------------------------------------------------------------------------

def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
    """The dataset Dataset.save wrote under `path` (its elements checked against `element_spec` when given);
    reader_func(a dataset of the shards' datasets) orders the shards (interleaved by default, as TF)."""
    if wait:
        raise NotImplementedError("load(wait=True) is not implemented in placeflow: it waits for a "
                                  "distributed_save of the tf.data service, which placeflow does not have.")
    path = _path(path)
    metadata = _metadata(path)
    stored = _decode_spec(metadata["element_spec"])
    spec = stored if element_spec is None else _checked_spec(element_spec, stored, path)
    kind = metadata["compression"]
    if _compression(compression) != kind:  # TF reads the files with the compression given: corrupted records
        raise errors.DataLossError(None, None, f"load(compression={compression!r}) does not match the compression "
                                               f"{kind or None!r} the dataset at {path} was saved with; pass "
                                               f"compression={kind or None!r}.")
    return _read(path, metadata, spec, reader_func)


def _metadata(path) -> dict:
    if os.path.exists(os.path.join(path, METADATA)):
        with open(os.path.join(path, METADATA), encoding="utf-8") as handle:
            return json.load(handle)
    if _written_by_tensorflow(path):
        raise NotImplementedError(f"Reading {path}, a directory TensorFlow's tf.data save/snapshot wrote (its "
                                  f"snapshot format), is not implemented in placeflow; it reads only what placeflow's "
                                  f"Dataset.save wrote. Re-save the data from TensorFlow as TFRecords instead.")
    raise errors.NotFoundError(None, None, f"Could not find a dataset saved by Dataset.save at {path} (no {METADATA} "
                                           f"there); check the path.")


def _written_by_tensorflow(path) -> bool:
    if not os.path.isdir(path):
        return False
    if any(os.path.exists(os.path.join(path, marker)) for marker in _TF_MARKERS):
        return True
    return any(os.path.exists(os.path.join(path, child, marker)) for child in os.listdir(path)
               for marker in _TF_MARKERS)


def _checked_spec(element_spec, stored, path):
    given, kept = _leaves(element_spec), _leaves(stored)
    same = len(given) == len(kept) and all(g.dtype == k.dtype and g.shape.is_compatible_with(k.shape)
                                           for g, k in zip(given, kept))
    if not same:
        raise errors.InvalidArgumentError(None, None, f"element_spec {element_spec} does not match the element spec "
                                                      f"{stored} of the dataset saved at {path}; leave element_spec "
                                                      f"out to use the saved one.")
    return element_spec


def _read(path, metadata, spec, reader_func):
    from .tfrecord import tfrecord_dataset
    names = [os.path.join(path, name) for name in metadata["shards"]]

    def shard(name):
        records = tfrecord_dataset(name, metadata["compression"] or None)
        return Dataset(lambda: (_decode_element(r.item(), spec) for r in records._make_iterator()), -2, spec)
    shards = Dataset(lambda: (shard(name) for name in names), len(names), _WINDOW)
    if reader_func is None:
        result = shards.interleave(lambda d: d, cycle_length=os.cpu_count() or 1)
    else:
        result = reader_func(shards)
        if not isinstance(result, Dataset):
            raise TypeError(f"reader_func must return a tf.data.Dataset, got {result!r}.")
    count = metadata["cardinality"] if reader_func is None else result._cardinality
    return Dataset(result._make_elements, count, spec)


# -- snapshot -------------------------------------------------------------------------------------------------------

def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """A transformation that caches the dataset under the directory `path`: the first complete pass writes it
    (placeflow's save format), later passes (of this or any dataset of the same element spec snapshotting to
    `path`: placeflow cannot fingerprint pipelines as TF does) read it back."""
    kind = _compression(compression, allow_auto=True)
    where = _path(path)

    def transform(dataset):
        def make():
            if _complete(where, dataset.element_spec):
                return load(where, compression=kind or None, reader_func=reader_func)._make_iterator()
            if _written_by_tensorflow(where):
                _metadata(where)  # refuses TF's snapshot format by name
            return _written(dataset, where, kind, shard_func)
        snapshotted = Dataset(make, dataset._cardinality, dataset._spec)
        if snapshotted._spec is None:
            snapshotted._spec_rule = lambda: dataset.element_spec
        return snapshotted
    return transform


def _complete(path, element_spec) -> bool:
    """Whether `path` holds a complete snapshot of elements like `element_spec` (one of other elements, from
    another pipeline, is written over: TF would keep it apart under another fingerprint)."""
    if not os.path.exists(os.path.join(path, METADATA)):
        return False
    return _metadata(path)["element_spec"] == _encode_spec(element_spec)
