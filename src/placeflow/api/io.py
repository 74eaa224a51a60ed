"""placeflow.io: reading and writing files (read_file, write_file), tf.io.gfile, and TFRecord files
(TFRecordWriter, TFRecordOptions; tf.data.TFRecordDataset reads them), and the parsing of tf.train.Example
records (parse_single_example, parse_example with FixedLenFeature and VarLenFeature)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import gfile  # noqa: F401 - tf.io.gfile
from .tfrecord import TFRecordOptions, TFRecordWriter  # noqa: F401
from .example_proto import FixedLenFeature, VarLenFeature, parse_example, parse_single_example  # noqa: F401


def _string(value, what: str):
    tensor = convert_to_tensor(value, dtype=dtypes.string) if isinstance(value, (str, bytes)) else \
        convert_to_tensor(value)
    if tensor.dtype != dtypes.string:
        raise TypeError(f"Value passed to parameter '{what}' has DataType {tensor.dtype.name} not in list of "
                        f"allowed values: string")
    return tensor


def read_file(filename, name=None):
    """The bytes of the file `filename` names, as a string scalar (ReadFile)."""
    return execute("ReadFile", (_string(filename, "filename"),), dtypes.string, name=name)


def write_file(filename, contents, name=None):
    """Write the string scalar `contents` to `filename` (WriteFile); in a function, when it runs, in order."""
    done = execute("WriteFile", (_string(filename, "filename"), _string(contents, "contents")), dtypes.string,
                   name=name)
    return getattr(done, "op", None)  # TF: None eagerly, the Operation in a graph


def serialize_tensor(tensor, name=None):
    """The TensorProto bytes of `tensor` as a string scalar (what TF's SerializeTensor writes)."""
    tensor = convert_to_tensor(tensor)
    return execute("SerializeTensor", (tensor,), tensor.dtype, {"T": tensor.dtype}, name=name)


def parse_tensor(serialized, out_type, name=None):
    """The tensor in a serialized TensorProto; InvalidArgumentError when its dtype is not `out_type`."""
    return execute("ParseTensor", (_string(serialized, "serialized"),), dtypes.string,
                   {"out_type": dtypes.as_dtype(out_type)}, name=name)
