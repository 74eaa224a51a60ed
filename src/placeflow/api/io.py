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
from .sequence_example import (  # noqa: F401
    FixedLenSequenceFeature, RaggedFeature, SparseFeature, parse_sequence_example, parse_single_sequence_example,
)
from .io_more import (  # noqa: F401
    decode_json_example, deserialize_many_sparse, match_filenames_once, matching_files, serialize_many_sparse,
    serialize_sparse,
)


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


from .image_codecs import (  # noqa: E402,F401 - image files, also under tf.image
    decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png,
    extract_jpeg_shape, is_jpeg,
)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """One tensor per column of the CSV `records` (shaped as records), typed by `record_defaults` (a default
    value per column, or an empty tensor for a required one)."""
    records = convert_to_tensor(records, dtype=dtypes.string) if isinstance(records, (str, bytes, list)) else \
        convert_to_tensor(records)
    defaults = [convert_to_tensor([], dtype=dtypes.float32) if isinstance(v, list) and not v else convert_to_tensor(v)
                for v in record_defaults]
    if select_cols is not None:
        columns = [int(c) for c in select_cols]
        if any(b <= a for a, b in zip(columns, columns[1:])):
            raise ValueError("select_cols is not strictly increasing.")
        if len(columns) != len(defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    attrs = {"OUT_TYPE": tuple(d.dtype for d in defaults), "field_delim": field_delim,
             "use_quote_delim": bool(use_quote_delim), "na_value": na_value,
             "select_cols": tuple(int(c) for c in select_cols) if select_cols is not None else ()}
    out = execute("DecodeCSV", (records, *defaults), dtypes.string, attrs, name=name)
    return [out] if len(defaults) == 1 else list(out)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """The bytes of each string as numbers of `out_type` (a new last dimension)."""
    tensor = _string(input_bytes, "input_bytes")
    return execute("DecodeRaw", (tensor,), dtypes.string,
                   {"out_type": dtypes.as_dtype(out_type), "little_endian": bool(little_endian),
                    "fixed_length": None if fixed_length is None else int(fixed_length)}, name=name)


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TensorFlow's parameter name
    """Each string in web-safe base64."""
    return execute("EncodeBase64", (_string(input, "input"),), dtypes.string, {"pad": bool(pad)}, name=name)


def decode_base64(input, name=None):  # noqa: A002 - TensorFlow's parameter name
    """Each web-safe base64 string decoded."""
    return execute("DecodeBase64", (_string(input, "input"),), dtypes.string, name=name)


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 - TensorFlow's parameter name
    """Each string decompressed: '' (none), 'ZLIB' or 'GZIP'."""
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise ValueError(f"compression_type must be '', 'ZLIB' or 'GZIP', got {compression_type!r}")
    return execute("DecodeCompressed", (_string(bytes, "bytes"),), dtypes.string,
                   {"compression_type": compression_type}, name=name)
