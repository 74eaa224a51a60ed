"""Variable: mutable state on one device; every op on it runs on that device (colocation)."""

from __future__ import annotations

import itertools

import contextlib
import inspect
import threading

import numpy as np

from ..framework import errors, graph_mode
from ..runtime.forwarding import value_held_only_by
from . import tape
from .convert import convert_to_tensor
from .execute import execute
from ..framework.tracking import Trackable
from .tensor import EagerTensor, numpy_repr


PARTIAL_UPDATES = frozenset({"_SliceAssignVariableOp"})  # ops writing part of a variable: value shapes differ


_UNIQUE_IDS = itertools.count(1)


def _dense_rows(sparse_delta, method, variable):
    """The dense tensor of an IndexedSlices argument of Variable.<method>, of the variable's shape when the
    slices name none (TF's scatter ops take the rows' indices only); TypeError for anything else."""
    from ..ops.indexed_slices import IndexedSlices
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Variable.{method} takes tf.IndexedSlices; got {type(sparse_delta).__name__}: "
                        f"{sparse_delta!r}")
    if sparse_delta.dense_shape is None:
        sparse_delta = IndexedSlices(sparse_delta.values, sparse_delta.indices, list(variable.shape))
    return sparse_delta.dense()


class Variable(Trackable):
    """A mutable tensor placed once (scope, or GPU:0 when it has a kernel for the dtype).

    While a graph is being built (compat.v1 graphs), the graph layer makes a graph variable instead.
    """

    _writing = False   # an update is writing into the buffer (readers wait: current_value)

    def __new__(cls, *args, **kwargs):
        if cls is Variable:
            creators = _creator_stack()
            if creators:
                return _create_through(creators, len(creators) - 1, _as_kwargs(args, kwargs))
            graph = graph_mode.active()
            if graph is not None:
                return graph.make_variable(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None,
                 synchronization=None, aggregation=None, constraint=None):
        if "_value" in self.__dict__:  # made by __new__ (a creator, or lifted out of a trace): already built
            return
        if constraint is not None and not callable(constraint):
            raise ValueError(f"The `constraint` argument must be a callable. Received: {constraint!r}")
        self._constraint = constraint
        if initial_value is None:
            raise ValueError("initial_value must be specified, e.g. placeflow.Variable(3.0).")
        if callable(initial_value):
            initial_value = initial_value()
        value = initial_value._as_tensor() if isinstance(initial_value, Variable) else initial_value
        value = value if isinstance(value, EagerTensor) else convert_to_tensor(value, dtype=dtype)
        if dtype is not None and value.dtype != dtype:
            raise errors.InvalidArgumentError(None, None, f"Variable dtype {dtype!r} does not match its initial "
                                               f"value's dtype {value.dtype!r}; cast the value first.")
        _check_declared_shape(shape, value.shape)
        self._synchronization = _mode("synchronization", synchronization, "VariableSynchronization", "AUTO")
        self._aggregation = _mode("aggregation", aggregation, "VariableAggregation", "NONE")
        from .name_scope import eager_scope
        self._name = eager_scope() + (name or "Variable")
        self._trainable = trainable
        handle = execute("VarHandleOp", (value,), value.dtype, name=self._name)
        self._device = handle._device
        self._value = handle._value

    @property
    def synchronization(self):
        """When copies of the variable synchronize (tf.VariableSynchronization; AUTO unless given)."""
        from ..framework.variable_modes import VariableSynchronization
        return self.__dict__.get("_synchronization", VariableSynchronization.AUTO)

    @property
    def aggregation(self):
        """How replica updates combine (tf.VariableAggregation; NONE unless given)."""
        from ..framework.variable_modes import VariableAggregation
        return self.__dict__.get("_aggregation", VariableAggregation.NONE)

    @property
    def constraint(self):
        """The projection an optimizer applies after each update (None: none), as given to the constructor."""
        return self.__dict__.get("_constraint")

    @property
    def _unique_id(self) -> str:
        """A string no other variable of this process has (TF's key for per-variable state, e.g. Keras's
        optimizer slots)."""
        if "_uid" not in self.__dict__:
            self.__dict__["_uid"] = f"{getattr(self, '_name', 'Variable')}_{next(_UNIQUE_IDS)}"
        return self.__dict__["_uid"]

    # -- reading ----------------------------------------------------------------------------
    def _as_tensor(self) -> EagerTensor:
        graph = graph_mode.active()
        if graph is not None:  # traced by placeflow.function: read the value when the graph runs
            tensor = graph.read_variable(self)
        else:
            tensor = execute("ReadVariableOp", (EagerTensor(current_value(self), self._device),), self.dtype,
                             resource=self._device, name=self._name)
        if tape.active_count:
            tape.variable_read(self, tensor)
        return tensor

    def read_value(self) -> EagerTensor:
        """The current value as a tensor on the variable's device."""
        return self._as_tensor()

    value = read_value

    def sparse_read(self, indices, name=None):
        """The rows at `indices` (tf.gather of the value along axis 0)."""
        return execute("GatherV2", (self._as_tensor(), convert_to_tensor(indices)), self.dtype, {"axis": 0},
                       name=name)

    def gather_nd(self, indices, name=None):
        """tf.gather_nd of the value."""
        return execute("GatherNd", (self._as_tensor(), convert_to_tensor(indices)), self.dtype, name=name)

    @property
    def initializer(self):
        """None: an eager variable is initialized when it is created (TF2's eager `initializer` is None too;
        a TF1 graph's variables have an initializer op)."""
        return None

    def is_initialized(self, name=None):
        """A boolean tensor: always True for an eager variable."""
        from .convert import constant
        return constant(True)

    def get_shape(self):
        """The variable's shape (an alias of `shape`)."""
        return self.shape

    def numpy(self) -> np.ndarray:
        """The current value as a NumPy array."""
        return EagerTensor(current_value(self), self._device).numpy()

    def __deepcopy__(self, memo):
        """A new variable on the same device with a copy of this one's value (TF's rule, eager only)."""
        if graph_mode.active() is not None:
            raise NotImplementedError("deepcopy() of a variable is only available eagerly (as in TensorFlow).")
        from ..placement.device_scope import device as device_scope
        with device_scope(self.device):
            copied = Variable(self.read_value(), trainable=self.trainable, name=self._name, constraint=self.constraint)
        memo[id(self)] = copied
        return copied

    def __array__(self, dtype=None, copy=None):
        array = np.asarray(self.numpy())
        return array if dtype is None else array.astype(dtype, copy=False)

    # -- writing ----------------------------------------------------------------------------
    def _update(self, op: str, value, read_value: bool, attrs=None):
        graph = graph_mode.active()
        if graph is not None:
            return graph.update_variable(self, op, value, read_value, attrs)
        value = value._as_tensor() if isinstance(value, Variable) else value
        tensor = value if isinstance(value, EagerTensor) else convert_to_tensor(value, dtype=self.dtype)
        error = update_error(self, tensor, op)
        if error is not None:
            raise error
        with update_lock(self):  # read, compute and store as one step: concurrent assign_adds all count
            try:
                in_place = begin_write(self, op, tensor._value)
                result = execute(op, (EagerTensor(self._value, self._device), tensor), self.dtype,
                                 dict(attrs or {}, _in_place=True) if in_place else attrs,
                                 resource=self._device, name=self._name)
            finally:
                end_write(self)
            self._value = result._value
        return _UnreadVariable(self) if read_value else None

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Set the variable to `value` (same shape and dtype); the old value is untouched on error."""
        return self._update("AssignVariableOp", value, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        """Add `delta` to the variable."""
        return self._update("AssignAddVariableOp", delta, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        """Subtract `delta` from the variable."""
        return self._update("AssignSubVariableOp", delta, read_value)

    # -- sparse updates (IndexedSlices: Keras's optimizers update an embedding's looked-up rows this way) --
    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Add `sparse_delta` (IndexedSlices) to the rows it names; rows named twice get both."""
        return self.assign_add(_dense_rows(sparse_delta, "scatter_add", self), name=name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """Subtract `sparse_delta` (IndexedSlices) from the rows it names."""
        return self.assign_sub(_dense_rows(sparse_delta, "scatter_sub", self), name=name)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Set the rows `sparse_delta` (IndexedSlices) names to its values."""
        from ..ops.emit import emit, expand_dims
        _dense_rows(sparse_delta, "scatter_update", self)
        rows = expand_dims(sparse_delta.indices, -1)
        return self.assign(emit("TensorScatterUpdate", (self.read_value(), rows, sparse_delta.values)), name=name)

    # -- description ------------------------------------------------------------------------
    @property
    def device(self) -> str:
        """The canonical name of the variable's device."""
        return self._device.name

    @property
    def dtype(self):
        """The variable's dtype."""
        return EagerTensor(self._value, self._device).dtype

    @property
    def shape(self):
        """The variable's shape."""
        return EagerTensor(self._value, self._device).shape

    @property
    def name(self) -> str:
        """'Variable:0' (or the given name with ':0')."""
        return f"{self._name}:0"

    @property
    def _shared_name(self) -> str:
        """The name without ':0' (TF's name-based checkpoint key of this variable)."""
        return self._name

    def _serialize_to_tensors(self) -> dict:
        """{"VARIABLE_VALUE": value}: what a checkpoint saves of this variable."""
        return {"VARIABLE_VALUE": self.read_value()}

    def _restore_from_tensors(self, restored_tensors: dict):
        """Assign the value a checkpoint saved (its shape and dtype checked by the caller)."""
        return self.assign(restored_tensors["VARIABLE_VALUE"])

    @property
    def trainable(self) -> bool:
        """Whether optimizers update this variable."""
        return self._trainable

    def _set_trainable(self, value: bool) -> None:
        """Keras freezes a layer's weights this way (Keras variables have a settable `trainable`)."""
        self._trainable = bool(value)

    def __repr__(self) -> str:
        text = numpy_repr(self.numpy())
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, numpy={text}>"

    def __hash__(self):
        return id(self)


class _UnreadVariable(Variable):
    """What an eager assign returns, as TensorFlow's: the assigned variable itself, named 'UnreadVariable' and
    read when used (an assign after it shows in it), not a snapshot of the value just written."""

    def __init__(self, parent):   # (Variable.__new__ makes the instance; nothing of Variable.__init__ runs)
        self.__dict__["_parent"] = parent

    def __getattr__(self, name):
        parent = self.__dict__.get("_parent")
        if parent is None:   # (while copy or pickle rebuild it)
            raise AttributeError(name)
        return getattr(parent, name)

    def __setattr__(self, name, value):
        setattr(self.__dict__["_parent"], name, value)

    @property
    def name(self) -> str:
        """'UnreadVariable', as TensorFlow names it."""
        return "UnreadVariable"

    def _as_tensor(self) -> EagerTensor:
        return self._parent._as_tensor()

    def numpy(self) -> np.ndarray:
        """The variable's value now."""
        return self._parent.numpy()

    def _update(self, op: str, value, read_value: bool, attrs=None):
        return self._parent._update(op, value, read_value, attrs)

    @property
    def synchronization(self):
        """The variable's synchronization."""
        return self._parent.synchronization

    @property
    def aggregation(self):
        """The variable's aggregation."""
        return self._parent.aggregation

    @property
    def constraint(self):
        """The variable's constraint."""
        return self._parent.constraint

    @property
    def _unique_id(self) -> str:
        return self._parent._unique_id


def update_error(variable, tensor, op: str):
    """The error TensorFlow raises for updating `variable` with `tensor` of another dtype or (known) shape, as
    its class differs by case (recorded from TF 2.21); None when the update fits."""
    if tensor.dtype != variable.dtype:
        return ValueError(f"Tensor conversion requested dtype {variable.dtype.name} for Tensor with dtype "
                          f"{tensor.dtype.name}: {tensor!r}\nplaceflow: cast the value with "
                          f"placeflow.cast(value, placeflow.{variable.dtype.name}).")
    shape = tensor.shape
    if op in PARTIAL_UPDATES or shape is None or None in shape or tuple(shape) == tuple(variable.shape):
        return None
    if op == "AssignVariableOp":
        return ValueError(f"Cannot assign value to variable ' {variable.name}': Shape mismatch.The variable shape "
                          f"{tuple(variable.shape)}, and the assigned value shape {tuple(shape)} are incompatible.")
    return errors.InvalidArgumentError(None, None, (
        f"Cannot update variable with shape {list(variable.shape)} using a Tensor with shape {list(shape)}, "
        f"shapes must be equal. [Op:{op}]"))


_UPDATE_LOCKS = tuple(threading.Lock() for _ in range(64))


IN_PLACE_UPDATES = frozenset({"AssignAddVariableOp", "AssignSubVariableOp", "ResourceApplyGradientDescent"})


def current_value(variable):
    """The variable's array for a reader: never one an in-place update is half way through writing (the
    reader then waits for the update; see `begin_write`)."""
    value = variable._value
    if variable._writing:
        with update_lock(variable):
            value = variable._value
    return value


def begin_write(variable, op: str, delta) -> bool:
    """Before an update (its update lock held): whether `op` may write into the variable's own buffer,
    TensorFlow's copy-on-write rule: only when no read of it is alive anywhere and `delta` keeps its shape.
    The flag goes up before the check, so a reader that starts later waits (`current_value`) and one that
    started earlier holds a reference, which makes the update copy. Pair it with `end_write`."""
    if op not in IN_PLACE_UPDATES:
        return False
    variable._writing = True
    old = variable._value
    same_shape = getattr(delta, "shape", None) == old.shape or getattr(delta, "ndim", 1) == 0
    del old
    return same_shape and value_held_only_by(variable)


def end_write(variable) -> None:
    """After an update (in a `finally`): readers no longer wait."""
    variable._writing = False


def update_lock(variable) -> threading.Lock:
    """The lock a variable's updates hold (one of a fixed set, picked by identity: no per-variable
    state, and an update never takes a second one, so no lock order to get wrong)."""
    return _UPDATE_LOCKS[(id(variable) >> 4) % len(_UPDATE_LOCKS)]


_creators = threading.local()


def _creator_stack() -> list:
    return getattr(_creators, "stack", None) or []


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Route Variable(...) in this thread through variable_creator(next_creator, **kwargs)."""
    stack = _creator_stack()
    _creators.stack = stack + [variable_creator]
    try:
        yield
    finally:
        _creators.stack = stack


def _as_kwargs(args, kwargs) -> dict:
    bound = inspect.signature(Variable.__init__).bind(None, *args, **kwargs)
    bound.arguments.pop("self")
    return dict(bound.arguments)


def _create_through(creators, index, kwargs):
    """Call creator `index`, whose next_creator is the one below it (the plain Variable at the bottom)."""
    if index < 0:
        saved = _creators.stack
        _creators.stack = []
        try:
            return Variable(**kwargs)
        finally:
            _creators.stack = saved
    return creators[index](lambda **kw: _create_through(creators, index - 1, kw), **kwargs)


def _check_declared_shape(shape, value_shape) -> None:
    """TF's checks of Variable(shape=...): compatible with the value; only the value's own shape is implemented."""
    if shape is None:
        return
    from ..framework.tensor_shape import TensorShape
    declared = TensorShape(shape)
    if not declared.is_compatible_with(value_shape):
        raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({value_shape}) is not compatible "
                         f"with the explicitly supplied `shape` argument ({shape}).")
    if declared.rank is None or not declared.is_fully_defined():
        raise NotImplementedError(f"tf.Variable(shape={shape}) (a variable whose shape may change) is not implemented "
                                  "in placeflow; give the value's own shape or leave shape out.")


def _mode(what: str, value, enum_name: str, default: str):
    """A VariableSynchronization/VariableAggregation member from the argument (None: the default)."""
    from ..framework import variable_modes
    enum = getattr(variable_modes, enum_name)
    if value is None:
        return enum[default]
    if isinstance(value, enum):
        return value
    member = getattr(value, "name", None)  # another library's enum with TF's member names (e.g. Keras's)
    if isinstance(member, str) and member in enum.__members__:
        return enum[member]
    raise ValueError(f"Invalid variable {what} mode: {value} for variable: None")
