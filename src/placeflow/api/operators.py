"""Python operators on tensors and variables (+ - * / @ ** comparisons, indexing), as TensorFlow installs them."""

import numpy as np

from ..eager.execute import execute
from ..eager.tensor import EagerTensor
from ..framework import dtypes, tensor_types
from ..framework.dtypes import _BY_NUMPY
from ..eager.variables import Variable
from ..graph.graph import Tensor as GraphTensor
from ..graph.variables import RefVariable
from . import array_ops, bitwise, math_ops, variable_updates

def _bool_or_bits(logical, bitwise_op):
    """`&`, `|`, `^`: the logical op for bool tensors, the bitwise one otherwise (TensorFlow's operators)."""
    def operator(x, y, name=None):
        tensor = x if hasattr(x, "dtype") else y
        return (logical if tensor.dtype == dtypes.bool else bitwise_op)(x, y, name=name)
    return operator


def _invert(x, name=None):
    """`~x`: logical not of a bool tensor, bitwise inversion of an integer one."""
    return (math_ops.logical_not if x.dtype == dtypes.bool else bitwise.invert)(x, name=name)


_BINARY = {
    "add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply, "truediv": math_ops.divide,
    "floordiv": math_ops.floordiv, "mod": math_ops.floormod, "pow": math_ops.pow, "matmul": math_ops.matmul,
    "and": _bool_or_bits(math_ops.logical_and, bitwise.bitwise_and),
    "or": _bool_or_bits(math_ops.logical_or, bitwise.bitwise_or),
    "xor": _bool_or_bits(math_ops.logical_xor, bitwise.bitwise_xor),
}
_COMPARE = {"lt": math_ops.less, "le": math_ops.less_equal, "gt": math_ops.greater, "ge": math_ops.greater_equal,
            "eq": math_ops.equal, "ne": math_ops.not_equal}
_UNARY = {"neg": math_ops.negative, "abs": math_ops.abs, "invert": _invert}


def _install(cls) -> None:
    for name, fn in _BINARY.items():
        setattr(cls, f"__{name}__", (lambda f: lambda self, other: f(self, other))(fn))
        setattr(cls, f"__r{name}__", (lambda f: lambda self, other: f(other, self))(fn))
    for name, fn in _COMPARE.items():
        setattr(cls, f"__{name}__", (lambda f: lambda self, other: f(self, other))(fn))
    cls.__eq__ = lambda self, other: False if other is None else math_ops.equal(self, other)  # as TF: x == None
    cls.__ne__ = lambda self, other: True if other is None else math_ops.not_equal(self, other)
    for name, fn in _UNARY.items():
        setattr(cls, f"__{name}__", (lambda f: lambda self: f(self))(fn))
    cls.__getitem__ = lambda self, key: array_ops.strided_slice(self, key)


def _install_named(cls) -> None:
    """Graph tensors and variables: operators name their ops as TensorFlow does ('mul', 'add', 'truediv')."""
    for name, fn in _BINARY.items():
        setattr(cls, f"__{name}__", (lambda f, n: lambda self, other: f(self, other, name=n))(fn, name))
        setattr(cls, f"__r{name}__", (lambda f, n: lambda self, other: f(other, self, name=n))(fn, name))
    for name, fn in _COMPARE.items():
        if name not in ("eq", "ne"):
            setattr(cls, f"__{name}__", (lambda f, n: lambda self, other: f(self, other, name=n))(fn, name.title()))
    for name, fn in _UNARY.items():
        setattr(cls, f"__{name}__", (lambda f, n: lambda self: f(self, name=n))(fn, name.title()))
    cls.__getitem__ = lambda self, key: array_ops.strided_slice(self, key)


def _install_fast_arithmetic(cls) -> None:
    """`a + b`, `a - b`, `a * b` (and `2.0 * a`, `1.0 - a`, ...) of two eager tensors of one dtype, or of a
    floating-point eager tensor and a Python float or int, go straight to the dispatcher (the commonest ops
    in eager loops); anything else takes the full path through math_ops."""
    for name, op in (("add", "AddV2"), ("sub", "Sub"), ("mul", "Mul")):
        setattr(cls, f"__{name}__", _fast_binary(op, _BINARY[name], reflected=False))
        setattr(cls, f"__r{name}__", _fast_binary(op, lambda x, y, f=_BINARY[name]: f(y, x), reflected=True))


_FLOATING = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))


def _fast_binary(op, slow, reflected):
    dtype_of = _BY_NUMPY.get

    def method(self, other):
        kind = other.__class__
        np_dtype = self._value.dtype
        if kind is EagerTensor:
            if np_dtype is other._value.dtype:
                dtype = dtype_of(np_dtype)
                if dtype is not None:
                    return execute(op, (other, self) if reflected else (self, other), dtype)
        elif (kind is float or kind is int) and np_dtype in _FLOATING and -1e308 < other < 1e308:
            value = np.array(other, dtype=np_dtype)  # converted as TF converts it (float32(0.1), ...)
            return execute(op, (value, self) if reflected else (self, value), dtype_of(np_dtype))
        return slow(self, other)
    return method


def _install_graph_equality(cls) -> None:
    """== and != on graph tensors: elementwise inside a traced function (TensorFlow 2), identity in a
    TensorFlow 1 graph, as TensorFlow decides it per tensor."""
    def eq(self, other):
        if other is None or not self.compares_elementwise():
            return self is other
        return math_ops.equal(self, other, name="Equal")

    def ne(self, other):
        if other is None or not self.compares_elementwise():
            return self is not other
        return math_ops.not_equal(self, other, name="NotEqual")
    cls.__eq__, cls.__ne__ = eq, ne


_install(EagerTensor)
_install_fast_arithmetic(EagerTensor)
_install_graph_equality(GraphTensor)
_install(Variable)
variable_updates.install()
_install_named(GraphTensor)
_install_named(RefVariable)


def is_tensor(x) -> bool:
    """Whether `x` is a tensor, a variable, or a composite tensor (SparseTensor, RaggedTensor, IndexedSlices), or
    acts as one (Keras's variables); NumPy arrays and Python numbers are not (TF's rule)."""
    if isinstance(x, (EagerTensor, GraphTensor, Variable, RefVariable)):
        return True
    from .ragged import RaggedTensor
    return isinstance(x, (tensor_types.Tensor, tensor_types.CompositeTensor, RaggedTensor)) or \
        getattr(x, "is_tensor_like", False)


def _on(device_name):
    def copy(self):
        from .device import device
        with device(device_name):
            return math_ops.identity(self)
    return copy


EagerTensor.cpu = _on("/CPU:0")
EagerTensor.cpu.__doc__ = "A copy of this tensor on CPU:0 (deprecated in TF; tf.identity under tf.device)."


def _gpu(self, gpu_index=0):
    """A copy of this tensor on GPU:gpu_index."""
    return _on(f"/GPU:{int(gpu_index)}")(self)


EagerTensor.gpu = _gpu
