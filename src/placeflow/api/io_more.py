"""More of tf.io: SparseTensors as TensorProto bytes (serialize_sparse, serialize_many_sparse,
deserialize_many_sparse), the JSON form of a tf.train.Example to its bytes (decode_json_example), and file name
patterns (matching_files, match_filenames_once). They run on the host: eagerly (and so in tf.data's map) at once,
inside `function` each time the graph runs (a host callback with TF's static shapes)."""

from __future__ import annotations

import base64
import glob as _glob
import json
import math
import struct

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors, graph_mode, tensor_proto as wire_tensor
from ..framework.protobuf_wire import _varint, field_bytes, field_varint, read_varint  # noqa: PLC2701


def _eager_only(what: str):
    if graph_mode.active() is not None:
        raise NotImplementedError(f"tf.io.{what} inside a function or graph is not implemented in placeflow; call it "
                                  "eagerly (tf.data's map does) or before the function.")


def _when_run(fn, inputs, out_types, shapes):
    """Inside a graph: `fn` (this module's eager implementation) on the values of `inputs` each time the graph runs
    (a host callback, as TF's kernels run on the host), its outputs given the static `shapes` TF's ops have."""
    from .script_ops import numpy_function
    outputs = numpy_function(lambda *arrays: [np.asarray(out.numpy(), dtype=object if t == dtypes.string else None)
                                              for out, t in zip(_listed(fn(*arrays)), out_types)],
                             list(inputs), list(out_types), stateful=False)
    outputs = outputs if isinstance(outputs, list) else [outputs]
    for out, shape in zip(outputs, shapes):
        out.set_shape(shape)
    return outputs


def _listed(result) -> list:
    from .sparse import SparseTensor
    if isinstance(result, SparseTensor):
        return [result.indices, result.values, result.dense_shape]
    return [result]


def _static_rank_at_most(tensor, rank: int) -> None:
    if tensor.shape is not None and len(tensor.shape) > rank:
        raise ValueError(f"Shape must be at most rank {rank} but is rank {len(tensor.shape)}")


def _string_tensor(values):
    return convert_to_tensor(np.asarray(values, dtype=object), dtype=dtypes.string)


def _sparse_parts(sp_input, what: str) -> tuple:
    from .sparse import SparseTensor
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"tf.io.{what} takes a SparseTensor; got {type(sp_input).__name__}. Make one with "
                        "tf.sparse.SparseTensor or tf.sparse.from_dense.")
    return (np.asarray(sp_input.indices.numpy(), np.int64), sp_input.values,
            np.asarray(sp_input.dense_shape.numpy(), np.int64))


def _check_out_type(out_type, what: str):
    try:
        if dtypes.as_dtype(out_type) == dtypes.string:
            return
    except TypeError:
        pass
    shown = getattr(out_type, "name", None) or getattr(out_type, "__name__", repr(out_type))
    raise NotImplementedError(f"tf.io.{what}(out_type={shown}) is not implemented in placeflow: only tf.string "
                              "(TensorProto bytes) is; variant tensors do not exist here.")


def _encode_part(array: np.ndarray, dtype) -> bytes:
    """TensorProto bytes as TensorFlow's kernels write them: raw tensor_content, strings as their varint lengths
    followed by their bytes."""
    if dtype != dtypes.string:
        return wire_tensor.encode(array, dtype)
    items = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in np.asarray(array).reshape(-1).tolist()]
    from .tensor_proto import TensorProto, TensorShapeProto
    content = b"".join(_varint(len(item)) for item in items) + b"".join(items)
    return TensorProto(dtype=dtypes.datatype_enum(dtype), tensor_shape=TensorShapeProto(array.shape),
                       tensor_content=content).SerializeToString()


def _serialized(indices, values: np.ndarray, value_dtype, shape) -> list:
    return [wire_tensor.encode(indices, dtypes.int64), _encode_part(values, value_dtype),
            wire_tensor.encode(np.asarray(shape, np.int64), dtypes.int64)]


def _decode_part(data: bytes) -> tuple:
    """(array, dtype) of TensorProto bytes, strings also from tensor_content."""
    from .tensor_proto import TensorProto
    proto = TensorProto.FromString(data)
    if proto.dtype != dtypes.datatype_enum(dtypes.string) or not proto.tensor_content:
        return wire_tensor.decode(data)
    shape = [d.size for d in proto.tensor_shape.dim]
    count, at, lengths = int(np.prod(shape, dtype=np.int64)), 0, []
    for _ in range(count):
        length, at = read_varint(proto.tensor_content, at)
        lengths.append(length)
    items = np.empty(count, dtype=object)
    for index, length in enumerate(lengths):
        items[index], at = proto.tensor_content[at:at + length], at + length
    return items.reshape(shape), dtypes.string


def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """A [3] string tensor: the TensorProto bytes of the indices, values and dense_shape of `sp_input`."""
    _check_out_type(out_type, "serialize_sparse")
    if graph_mode.active() is not None:
        return _sparse_when_run(serialize_sparse, sp_input, [3])
    indices, values, shape = _sparse_parts(sp_input, "serialize_sparse")
    return _string_tensor(_serialized(indices, values.numpy(), values.dtype, shape))


def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """A [N, 3] string tensor: serialize_sparse of each of the N rows (first dimension) of `sp_input`."""
    _check_out_type(out_type, "serialize_many_sparse")
    if graph_mode.active() is not None:
        return _sparse_when_run(serialize_many_sparse, sp_input, [None, 3])
    indices, values, shape = _sparse_parts(sp_input, "serialize_many_sparse")
    if len(shape) < 2:
        raise errors.InvalidArgumentError(None, None, f"Rank of input SparseTensor should be > 1, but saw rank: "
                                                      f"{len(shape)}; serialize_sparse takes a rank-1 SparseTensor.")
    array = values.numpy()
    rows = [_serialized(indices[indices[:, 0] == row, 1:], array[indices[:, 0] == row], values.dtype, shape[1:])
            for row in range(int(shape[0]))]
    return _string_tensor(np.asarray(rows, dtype=object).reshape(-1, 3))


def _sparse_when_run(fn, sp_input, shape):
    from .sparse import SparseTensor
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"tf.io.{fn.__name__} takes a SparseTensor; got {type(sp_input).__name__}. Make one with "
                        "tf.sparse.SparseTensor or tf.sparse.from_dense.")
    parts = (sp_input.indices, sp_input.values, sp_input.dense_shape)
    return _when_run(lambda i, v, d: fn(SparseTensor(i, convert_to_tensor(v, dtype=sp_input.dtype), d)), parts,
                     [dtypes.string], [shape])[0]


def _decoded(serialized: list, dtype, position: int) -> tuple:
    (indices, _), (values, value_dtype), (shape, _) = (_decode_part(bytes(s)) for s in serialized)
    if value_dtype != dtype:
        raise errors.InvalidArgumentError(None, None, f"Requested SparseTensor of type {dtype.name} but "
                                                      f"SparseTensor[{position}].values.dtype() == {value_dtype.name}; "
                                                      "pass the dtype it was serialized with.")
    return indices.reshape(-1, len(shape)).astype(np.int64), values, shape.astype(np.int64)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """One SparseTensor from a [..., 3] tensor of serialized SparseTensors: the leading dimensions become its first
    ones, and each later dimension is the largest among them."""
    from .sparse import SparseTensor
    if graph_mode.active() is not None:  # TF's shape function: a [N, 3] matrix
        tensor, dtype = convert_to_tensor(serialized_sparse), dtypes.as_dtype(dtype)
        if tensor.shape is not None and len(tensor.shape) != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {len(tensor.shape)}")
        if tensor.shape is not None and tensor.shape[1] is not None and tensor.shape[1] != 3:
            raise ValueError(f"Dimension must be 3 but is {tensor.shape[1]}")
        parts = _when_run(lambda s: deserialize_many_sparse(s, dtype, rank), [tensor],
                          [dtypes.int64, dtype, dtypes.int64], [[None, None], [None], [None]])
        return SparseTensor(*parts)
    array = np.asarray(convert_to_tensor(serialized_sparse).numpy(), dtype=object)
    dtype = dtypes.as_dtype(dtype)
    if array.ndim < 1 or array.shape[-1] != 3:
        raise errors.InvalidArgumentError(None, None, f"Serialized sparse should have 3 as the last dimension; got "
                                                      f"shape {list(array.shape)}.")
    leading = array.shape[:-1]
    parts = [_decoded(row, dtype, i) for i, row in enumerate(array.reshape(-1, 3))]
    if not parts:
        raise errors.InvalidArgumentError(None, None, "deserialize_many_sparse got no serialized SparseTensors; "
                                                      "pass at least one.")
    ranks = {len(shape) for _, _, shape in parts}
    if len(ranks) != 1 or (rank is not None and int(rank) != len(leading) + ranks.pop()):
        raise errors.InvalidArgumentError(None, None, f"Inconsistent shape across SparseTensors: ranks "
                                                      f"{[len(s) for _, _, s in parts]} (rank argument {rank}); "
                                                      "serialize SparseTensors of one rank.")
    prefixes = np.asarray(list(np.ndindex(*leading)), np.int64).reshape(len(parts), len(leading))
    indices = np.concatenate([np.concatenate([np.repeat(prefix[None], len(ix), 0), ix], axis=1)
                              for prefix, (ix, _, _) in zip(prefixes, parts)])
    values = np.concatenate([v for _, v, _ in parts])
    shape = list(leading) + np.max(np.stack([s for _, _, s in parts]), axis=0).tolist()
    tensor = convert_to_tensor(values, dtype=dtype) if values.size else convert_to_tensor(
        np.zeros(0, object if dtype == dtypes.string else dtype.numpy_dtype), dtype=dtype)
    return SparseTensor(indices, tensor, shape)


# -- decode_json_example -------------------------------------------------------------------------------------------

def _json_error(text, reason: str):
    return errors.InvalidArgumentError(None, None, f"Error while parsing JSON: {reason} in {text!r}; pass the JSON "
                                                   "form of a tf.train.Example (json_format.MessageToJson's).")


class _Object(list):
    """A JSON object as its (key, value) pairs in order, repeated keys kept (protocol buffers' JSON parser writes
    each occurrence of a message field)."""


def _fields_of(value, allowed: dict, text) -> list:
    """[(canonical field name, value)] of a JSON object whose keys are proto names or their lowerCamelCase."""
    if not isinstance(value, _Object):
        raise _json_error(text, f"expected an object, got {value!r}")
    out = []
    for key, item in value:
        if key not in allowed:
            raise _json_error(text, f"no such field: {key!r}")
        if item is not None:
            out.append((allowed[key], item))
    return out


def _json_float(value, text) -> float:
    special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    if isinstance(value, str):
        if value in special:
            return special[value]
        try:
            return float(value)
        except ValueError:
            raise _json_error(text, f"not a float: {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _json_error(text, f"not a float: {value!r}")
    if abs(float(value)) > float(np.finfo(np.float32).max):
        raise _json_error(text, f"float out of range: {value!r}")
    return float(value)


def _json_int(value, text) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise _json_error(text, f"not an int64: {value!r}")
    try:
        number = int(value) if not isinstance(value, float) or value.is_integer() else None
    except ValueError:
        number = None
    if number is None or not -(1 << 63) <= number < 1 << 63:
        raise _json_error(text, f"not an int64: {value!r}")
    return number


def _json_bytes(value, text) -> bytes:
    if not isinstance(value, str):
        raise _json_error(text, f"not base64 bytes: {value!r}")
    try:
        return base64.b64decode(value.replace("-", "+").replace("_", "/") + "=" * (-len(value) % 4), validate=True)
    except ValueError:
        raise _json_error(text, f"not base64 bytes: {value!r}") from None


_LISTS = {"bytesList": "bytes_list", "bytes_list": "bytes_list", "floatList": "float_list",
          "float_list": "float_list", "int64List": "int64_list", "int64_list": "int64_list"}


def _list_bytes(kind: str, values: list, text) -> bytes:
    """A BytesList/FloatList/Int64List message, values unpacked as TensorFlow's JSON decoder writes them."""
    if kind == "bytes_list":
        return b"".join(field_bytes(1, _json_bytes(v, text)) for v in values)
    if kind == "float_list":
        return b"".join(b"\x0d" + struct.pack("<f", _json_float(v, text)) for v in values)
    return b"".join(field_varint(1, _json_int(v, text)) for v in values)


def _json_feature(value, text) -> bytes:
    given = _fields_of(value, _LISTS, text)
    if len({kind for kind, _ in given}) > 1:
        raise _json_error(text, f"a Feature holds one list, got {sorted(kind for kind, _ in given)}")
    out = b""
    for kind, body in given:
        values = [v for _, items in _fields_of(body, {"value": "value"}, text) for v in _value_list(items, text)]
        number = {"bytes_list": 1, "float_list": 2, "int64_list": 3}[kind]
        out += field_bytes(number, _list_bytes(kind, values, text))
    return out


def _value_list(items, text) -> list:
    if not isinstance(items, list):
        raise _json_error(text, f"expected a list of values, got {items!r}")
    return items


def _features_bytes(found, text) -> bytes:
    if not isinstance(found, _Object):
        raise _json_error(text, f"expected an object of features, got {found!r}")
    return b"".join(field_bytes(1, field_bytes(1, key) + (b"" if value is None else
                                                         field_bytes(2, _json_feature(value, text))))
                    for key, value in found)


def _example_bytes(text) -> bytes:
    try:
        document = json.loads(text, object_pairs_hook=_Object)
    except ValueError as exc:
        raise _json_error(text, f"invalid JSON ({exc})") from None
    out = b""
    for _, features in _fields_of(document, {"features": "features"}, text):
        found = _fields_of(features, {"feature": "feature"}, text)
        out += field_bytes(1, b"".join(_features_bytes(f, text) for _, f in found))
    return out


def decode_json_example(json_examples, name=None):
    """The tf.train.Example bytes of each JSON-encoded Example (protocol buffers' JSON mapping: int64 values as
    numbers or strings, bytes in base64), shaped as `json_examples`."""
    tensor = convert_to_tensor(json_examples, dtype=dtypes.string)
    if graph_mode.active() is not None:
        return _when_run(decode_json_example, [tensor], [dtypes.string], [tensor.shape])[0]
    array = np.asarray(tensor.numpy(), dtype=object)
    out = np.empty(array.shape, dtype=object)
    for at, text in np.ndenumerate(array):
        out[at] = _example_bytes(text.decode("utf-8") if isinstance(text, bytes) else text)
    return convert_to_tensor(out, dtype=dtypes.string)


# -- file name patterns --------------------------------------------------------------------------------------------

def matching_files(pattern, name=None):
    """A 1-D string tensor of the files matching the glob `pattern` (a string or a 1-D tensor of them), sorted."""
    if graph_mode.active() is not None:
        tensor = convert_to_tensor(pattern, dtype=dtypes.string)
        _static_rank_at_most(tensor, 1)
        return _when_run(matching_files, [tensor], [dtypes.string], [[None]])[0]
    patterns = np.asarray(convert_to_tensor(pattern, dtype=dtypes.string).numpy(), dtype=object)
    if patterns.ndim > 1:
        raise errors.InvalidArgumentError(None, None, f"Input patterns tensor must be scalar or vector, but had "
                                                      f"shape: {list(patterns.shape)}; flatten it first.")
    found = []
    for item in patterns.reshape(-1):
        text = item.decode("utf-8") if isinstance(item, bytes) else str(item)
        found.extend(_glob.glob(text, include_hidden=True))
    found.sort()
    return _string_tensor([path.encode("utf-8") for path in found]) if found else convert_to_tensor(
        np.zeros(0, dtype=object), dtype=dtypes.string)


def match_filenames_once(pattern, name=None):
    """A non-trainable string Variable holding the files matching `pattern` when it is made (matching_files)."""
    from ..eager.variables import Variable
    return Variable(matching_files(pattern), trainable=False, name=name)
