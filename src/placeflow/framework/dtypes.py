"""TensorFlow-named dtypes mapped onto NumPy dtypes (bfloat16, the float8/float4 and int4/int2 types through
ml_dtypes when installed; Keras depends on it)."""

from __future__ import annotations

import numpy as np


class DType:
    """A tensor element type: a TensorFlow name over a NumPy dtype."""

    __slots__ = ("name", "_np", "_kind")

    def __init__(self, name: str, np_dtype, kind: str):
        self.name = name
        self._np = None if np_dtype is None else np.dtype(np_dtype)
        self._kind = kind  # 'f' float, 'i' signed, 'u' unsigned, 'b' bool, 'c' complex, 'O' other,
        # 'q' quantized (qint8, ...), 'h' handle (resource, variant)

    @property
    def as_numpy_dtype(self):
        """The NumPy scalar type of this dtype (TensorFlow's attribute name; a structured dtype when quantized)."""
        return self._np if self._kind == "q" else self.numpy_dtype.type

    @property
    def numpy_dtype(self) -> np.dtype:
        """The NumPy dtype object of this dtype (the arrays of its tensors; none for quantized or handle types)."""
        if self._kind == "q":
            raise NotImplementedError(f"Tensors of the quantized type {self.name} are not implemented in placeflow: "
                                      "it has no quantized kernels. Keep the values in an integer or float type.")
        if self._np is None:
            self._np = _load_ml_dtype(self.name)
        return self._np

    @property
    def is_floating(self) -> bool:
        """True for floating-point types (float16/bfloat16/float32/float64 and the float8/float4 types)."""
        return self._kind == "f"

    @property
    def is_integer(self) -> bool:
        """True for signed and unsigned integer types."""
        return self._kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        """True for unsigned integer types."""
        return self._kind == "u"

    @property
    def is_complex(self) -> bool:
        """True for complex64/complex128."""
        return self._kind == "c"

    @property
    def is_bool(self) -> bool:
        """True for bool."""
        return self._kind == "b"

    @property
    def as_datatype_enum(self) -> int:
        """TensorFlow's DataType enum value (1 for float32)."""
        return datatype_enum(self)

    @property
    def is_numeric(self) -> bool:
        """True for integer, floating, complex and quantized types (not bool, string, resource or variant)."""
        return self._kind in "iufcq"

    @property
    def is_quantized(self) -> bool:
        """True for the quantized types qint8, quint8, qint16, quint16 and qint32."""
        return self._kind == "q"

    @property
    def size(self) -> int:
        """Bytes per element."""
        if self._kind in "hq":
            return 0 if self._kind == "h" else self._np.itemsize  # handles have no fixed size, as in TensorFlow
        return 2 if self.name == "bfloat16" else 1 if self.name in _NARROW else self.numpy_dtype.itemsize

    @property
    def base_dtype(self) -> "DType":
        """This dtype (placeflow has no reference dtypes)."""
        return self

    @property
    def real_dtype(self) -> "DType":
        """The dtype of a value's real part: float32 for complex64, float64 for complex128, else this dtype."""
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    @property
    def max(self):
        """The largest value of this dtype (TypeError for bool, string and complex, as in TensorFlow)."""
        return self._limits()[1]

    @property
    def min(self):
        """The lowest value of this dtype (TypeError for bool, string and complex, as in TensorFlow)."""
        return self._limits()[0]

    def _limits(self) -> tuple:
        if self._kind == "f":
            info = _ml_info("finfo", self) if self.name in _NARROW or self.name == "bfloat16" else \
                np.finfo(self.numpy_dtype)
            return self.numpy_dtype.type(info.min), self.numpy_dtype.type(info.max)
        if self._kind in "iu":
            info = _ml_info("iinfo", self) if self.name in _NARROW else np.iinfo(self.numpy_dtype)
            return int(info.min), int(info.max)
        if self._kind == "q":
            raise TypeError(f"Cannot find minimum or maximum value of {self} with quantized type {self}.")
        raise TypeError(f"Cannot find minimum or maximum value of {self} with type {self}.")

    @property
    def is_numpy_compatible(self) -> bool:
        """Whether NumPy has this dtype (bfloat16 and the narrow types through ml_dtypes)."""
        if self._kind == "h":
            return False
        if self._np is None and (self.name == "bfloat16" or self.name in _NARROW):
            try:
                self.numpy_dtype  # noqa: B018 - loads it through ml_dtypes when installed
            except TypeError:
                return False
        return True

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other) -> bool:
        if other is self:
            return True
        try:
            return as_dtype(other) is self
        except (TypeError, ValueError):
            return False

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    # Each dtype is one object (as_dtype and unpickling return it), so identity is its hash; a C-level
    # hash keeps the eager dispatcher's placement-cache lookup, keyed on the dtype, cheap.
    __hash__ = object.__hash__

    def __reduce__(self):
        return as_dtype, (self.name,)


def _ml_dtypes():
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError(
            "placeflow's bfloat16, float8, float4, int4 and int2 types need the ml_dtypes package, which gives "
            "NumPy those types. Install it with: pip install 'placeflow[bfloat16]' (or pip install ml_dtypes)."
        ) from None
    return ml_dtypes


def _load_ml_dtype(name: str) -> np.dtype:
    if name in ("resource", "variant"):
        raise TypeError(f"tf.{name} has no NumPy dtype: its tensors are handles, not arrays of numbers.")
    return np.dtype(getattr(_ml_dtypes(), name))


def _ml_info(kind: str, dtype) -> object:
    return getattr(_ml_dtypes(), kind)(dtype.numpy_dtype)


float16 = DType("float16", np.float16, "f")
bfloat16 = DType("bfloat16", None, "f")
float32 = DType("float32", np.float32, "f")
float64 = DType("float64", np.float64, "f")
int8 = DType("int8", np.int8, "i")
int16 = DType("int16", np.int16, "i")
int32 = DType("int32", np.int32, "i")
int64 = DType("int64", np.int64, "i")
uint8 = DType("uint8", np.uint8, "u")
uint16 = DType("uint16", np.uint16, "u")
uint32 = DType("uint32", np.uint32, "u")
uint64 = DType("uint64", np.uint64, "u")
bool = DType("bool", np.bool_, "b")  # noqa: A001 - TensorFlow's public name
complex64 = DType("complex64", np.complex64, "c")
complex128 = DType("complex128", np.complex128, "c")
string = DType("string", np.object_, "O")
# TensorFlow's tf.dtypes.experimental narrow types: they cast to and from the others (arithmetic on them is
# refused by the ops' type constraints, as in TensorFlow)
float8_e4m3fn = DType("float8_e4m3fn", None, "f")
float8_e5m2 = DType("float8_e5m2", None, "f")
float8_e4m3fnuz = DType("float8_e4m3fnuz", None, "f")
float8_e4m3b11fnuz = DType("float8_e4m3b11fnuz", None, "f")
float8_e5m2fnuz = DType("float8_e5m2fnuz", None, "f")
float4_e2m1fn = DType("float4_e2m1fn", None, "f")
int4 = DType("int4", None, "i")
uint4 = DType("uint4", None, "u")
int2 = DType("int2", None, "i")
uint2 = DType("uint2", None, "u")
# TensorFlow's quantized types (NumPy structured dtypes, as TensorFlow gives them; placeflow's ops refuse them)
# and its handle types (no NumPy dtype)
qint8 = DType("qint8", [("qint8", "i1")], "q")
quint8 = DType("quint8", [("quint8", "u1")], "q")
qint16 = DType("qint16", [("qint16", "<i2")], "q")
quint16 = DType("quint16", [("quint16", "<u2")], "q")
qint32 = DType("qint32", [("qint32", "<i4")], "q")
QUANTIZED_DTYPES = frozenset((qint8, quint8, qint16, quint16, qint32))  # TF also lists its *_ref types
resource = DType("resource", None, "h")
variant = DType("variant", None, "h")
NARROW_DTYPES = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz, float4_e2m1fn,
                 int4, uint4, int2, uint2)
_NARROW = frozenset(d.name for d in NARROW_DTYPES)

half = float16
double = float64

ALL_DTYPES = (
    float16, bfloat16, float32, float64, int8, int16, int32, int64,
    uint8, uint16, uint32, uint64, bool, complex64, complex128, string,
)
_BY_NAME = {d.name: d for d in ALL_DTYPES + NARROW_DTYPES + tuple(QUANTIZED_DTYPES) + (resource, variant)}
_BY_NAME.update(half=float16, double=float64)
_BY_NUMPY = {d._np: d for d in ALL_DTYPES + tuple(QUANTIZED_DTYPES) if d._np is not None}


def as_dtype(type_value) -> DType:
    """Convert a DType, a NumPy dtype or type, or a name like 'float32' to a DType."""
    if isinstance(type_value, DType):
        return type_value
    if type_value is None:  # (NumPy would read None as float64)
        raise TypeError("Cannot convert the argument `type_value`: None to a TensorFlow DType.")
    if isinstance(type_value, str):
        found = _BY_NAME.get(type_value)
        if found is not None:
            return found
    try:
        np_dtype = np.dtype(type_value)
    except TypeError:
        np_dtype = None
    if np_dtype is not None:
        found = _BY_NUMPY.get(np_dtype)
        if found is not None:
            return found
        if np_dtype.name == "bfloat16" or np_dtype.name in _NARROW:
            return _BY_NAME[np_dtype.name]
        if np_dtype.kind in "SU":
            return string
    raise TypeError(
        f"Cannot convert {type_value!r} to a placeflow dtype. Expected a placeflow dtype "
        f"(e.g. placeflow.float32), a NumPy dtype, or one of the names: {', '.join(sorted(_BY_NAME))}."
    )


_DATATYPE_ENUMS = {
    "float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
    "int64": 9, "bool": 10, "qint8": 11, "quint8": 12, "qint32": 13, "bfloat16": 14, "qint16": 15,
    "quint16": 16, "resource": 20, "variant": 21, "uint16": 17, "complex128": 18, "float16": 19, "uint32": 22,
    "uint64": 23, "float8_e5m2": 24, "float8_e4m3fn": 25, "float8_e4m3fnuz": 26, "float8_e4m3b11fnuz": 27,
    "float8_e5m2fnuz": 28, "int4": 29, "uint4": 30, "int2": 31, "uint2": 32, "float4_e2m1fn": 33}
_BY_ENUM = {number: _BY_NAME[name] for name, number in _DATATYPE_ENUMS.items()}


def datatype_enum(dtype: DType) -> int:
    """TensorFlow's DataType enum value of `dtype` (1 for float32), as its protocol buffers store it."""
    return _DATATYPE_ENUMS[dtype.name]


def from_datatype_enum(number: int) -> DType:
    """The dtype of TensorFlow's DataType enum value `number`; TypeError for one placeflow lacks."""
    found = _BY_ENUM.get(number)
    if found is None:
        raise TypeError(f"DataType enum {number} (a TensorFlow type placeflow lacks, e.g. a quantized or resource "
                        "type) has no placeflow dtype.")
    return found


_CPP_NAMES = {"float16": "half", "float32": "float", "float64": "double"}


def cpp_name(dtype: DType) -> str:
    """The name TensorFlow's kernels print for a dtype: 'float' for float32, 'double', 'half', else the name."""
    return _CPP_NAMES.get(dtype.name, dtype.name)


def enum_name(dtype: DType | None) -> str:
    """TensorFlow's DataType enum name: 'DT_FLOAT' for float32, 'DT_INVALID' for no dtype."""
    return "DT_INVALID" if dtype is None else f"DT_{cpp_name(dtype).upper()}"


class _Experimental:
    """tf.dtypes.experimental: the narrow float8/float4/int4/int2 types."""

    def __init__(self):
        for dtype in NARROW_DTYPES:
            setattr(self, dtype.name, dtype)


experimental = _Experimental()
