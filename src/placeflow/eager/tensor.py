"""EagerTensor: a value on one device, printed as TensorFlow prints tensors."""

from __future__ import annotations

import numpy as np

from ..framework import tf_types
from ..framework.dtypes import _BY_NUMPY, as_dtype
from ..framework.tensor_shape import TensorShape
from ..runtime.shape_only import ShapeOnly, host_data
from ..runtime.transfer import to_host


class EagerTensor(tf_types.Tensor):
    """An immutable tensor living on one device; operators are installed by placeflow.api."""

    __slots__ = ("_value", "_device", "__weakref__", "__dict__")  # __dict__: attributes libraries set
    # on tensors, as TensorFlow's allow (Keras keeps `_keras_logits`, `_keras_mask` there); made on first use
    __array_priority__ = 100

    def __init__(self, value, device):
        self._value = value
        self._device = device

    @property
    def device(self) -> str:
        """The canonical name of the device holding this tensor."""
        return self._device.name

    @property
    def backing_device(self) -> str:
        """Where the tensor's memory is (the same as .device)."""
        return self._device.name

    @property
    def dtype(self):
        """The placeflow dtype."""
        found = _BY_NUMPY.get(self._value.dtype)
        return found if found is not None else as_dtype(self._value.dtype)

    @property
    def shape(self) -> TensorShape:
        """The dimensions, e.g. TensorShape([2, 3])."""
        return TensorShape._known(self._value.shape)

    def set_shape(self, shape) -> None:
        """Check that `shape` is compatible with this tensor's (an eager tensor's shape is already known)."""
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied shape "
                             f"{TensorShape(shape) if not isinstance(shape, TensorShape) else shape}.")

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self._value.ndim

    def get_shape(self) -> TensorShape:
        """The dimensions (TensorFlow 1 name)."""
        return self.shape

    def numpy(self) -> np.ndarray:
        """The value as a NumPy array the caller owns (a copy, as TensorFlow's: mutating it leaves the tensor as it was)."""
        value = self._value
        if isinstance(value, ShapeOnly):  # estimating (runtime/shape_only.py): zeros when asked for, else refused
            value = host_data(value)
        value = np.array(value, copy=True) if self._device.host_backed else to_host(value)
        return value[()] if value.ndim == 0 else value

    def __deepcopy__(self, memo):
        return self  # immutable: a copy is the same tensor, as TF's EagerTensor

    def __copy__(self):
        return self

    def __array__(self, dtype=None, copy=None):
        if copy or not self._device.host_backed or isinstance(self._value, ShapeOnly):
            array = np.asarray(self.numpy())
        else:  # nobody can change the tensor through this: a read-only view, no copy
            array = self._value.view()
            array.flags.writeable = False
        return array if dtype is None else array.astype(dtype, copy=False)

    def __dlpack__(self, stream=None, **kwargs):
        if not self._device.host_backed:
            return self._value.__dlpack__(stream=stream, **kwargs)
        return self.numpy().__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._value.__dlpack_device__()  # where the buffer is: no copy needed to say so

    def __len__(self) -> int:
        if not self._value.ndim:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __bool__(self) -> bool:
        return bool(self.numpy())

    def __float__(self) -> float:
        return float(self.numpy())

    def __int__(self) -> int:
        return int(self.numpy())

    def __index__(self) -> int:
        return self.numpy().__index__()

    def __iter__(self):
        if not self._value.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(self._value.shape[0]))

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self):
        """A hashable reference to this tensor (TensorFlow's Tensor.ref())."""
        return TensorRef(self)

    def __str__(self) -> str:
        text = str(self.numpy())
        text = "\n" + text if "\n" in text else text
        return f"tf.Tensor({text}, shape={self.shape}, dtype={self.dtype.name})"

    def __repr__(self) -> str:
        text = numpy_repr(self.numpy())
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={text}>"


def numpy_repr(value) -> str:
    """TensorFlow's repr of a value: '1.0' for scalars, 'array(...)' (on a new line if long) otherwise."""
    if np.ndim(value) == 0:
        return str(value)
    text = repr(value)
    return "\n" + text if "\n" in text else text


class TensorRef:
    """What `tensor.ref()` returns: hashable by the tensor's identity; `deref()` gives the tensor back."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, TensorRef) and other._tensor is self._tensor
