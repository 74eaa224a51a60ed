"""Graph, Operation and symbolic Tensor: a TensorFlow 1 dataflow graph built by the public ops."""

from __future__ import annotations

import contextlib
import re
import threading

from ..framework import tf_types
from ..eager.tensor import TensorRef
from ..framework import errors, graph_mode
from ..framework.interpreter import Interpreter
from ..framework.tensor_shape import TensorShape
from .error_layout import resolved, user_frames
from ..placement import device_scope
from ..ops.debug import SIDE_EFFECT_OPS
from ..placement import scope as scope_module

VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")   # TensorFlow's patterns for node names,
VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")            # and for scopes below the root


def _check_scope_name(name: str, root: bool) -> None:
    pattern = VALID_OP_NAME if root else VALID_SCOPE_NAME
    if not pattern.fullmatch(name):
        kind = "root scope name" if root else "scope name"
        raise ValueError(f"'{name}' is not a valid {kind}. A {kind} has to match the following pattern: "
                         f"{pattern.pattern}")


class Tensor(tf_types.Tensor):
    """A symbolic output of an Operation: a value only once a Session or function runs the graph."""

    __slots__ = ("op", "value_index", "dtype", "_shape", "__weakref__", "__dict__")  # attributes, as TF's
    is_symbolic_tensor = True   # what the eager layer's conversions (auto-packing) recognise it by
    __array_priority__ = 100

    def __init__(self, op, value_index, dtype, shape):
        self.op, self.value_index, self.dtype = op, value_index, dtype
        self._shape = TensorShape._known(shape) if shape is not None else None  # shape rules: trusted

    @property
    def name(self) -> str:
        """'<op name>:<output index>', e.g. 'MatMul:0'."""
        return f"{self.op.name}:{self.value_index}"

    @property
    def graph(self):
        """The Graph this tensor belongs to."""
        return self.op.graph

    @property
    def device(self) -> str:
        """The device its op requested ('' when unpinned)."""
        return self.op.device

    @property
    def shape(self) -> TensorShape | None:
        """Static shape: known dimensions are ints, unknown ones None (None when even the rank is unknown)."""
        return self._shape

    def set_shape(self, shape) -> None:
        """Refine the static shape with what `shape` knows; ValueError if they disagree."""
        known = TensorShape(None) if self._shape is None else self._shape
        merged = known.merge_with(shape)
        self._shape = None if merged.rank is None else merged
    def get_shape(self):
        """The static shape (TensorFlow 1 name)."""
        return self._shape

    @property
    def ndim(self):
        """Number of dimensions, if known."""
        return None if self._shape is None else len(self._shape)

    def _as_tensor(self):
        return self

    def eval(self, feed_dict=None, session=None):
        """Run the default (or given) session to compute this tensor's value."""
        from .session import default_session_for
        return default_session_for(self, session).run(self, feed_dict=feed_dict)

    def consumers(self) -> list:
        """Operations that take this tensor as an input."""
        return [op for op in self.op.graph.get_operations() if any(t is self for t in op.inputs)]

    def __bool__(self):
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed: AutoGraph is disabled in this "
            f"function.\nplaceflow: {self.name!r} has a value only when the graph runs. placeflow's AutoGraph "
            "converts `if`/`while` statements (break/continue included), `for` loops over tensors and the "
            "expressions `x if c else y`, `a and b`, `a or b`, `not a`, but not statements holding return, "
            "break/continue in `for` loops, the functions the traced one calls, or functions without source "
            "(lambdas): use "
            "placeflow.cond / placeflow.while_loop / placeflow.where there.")

    def __iter__(self):
        raise TypeError(f"Tensor {self.name!r} is not iterable while building a graph; "
                        "use placeflow.split or placeflow.unstack-style ops, or index it with [i].")

    def __len__(self):
        if self._shape is None or not self._shape or self._shape[0] is None:
            raise TypeError(f"len() of Tensor {self.name!r} with unknown first dimension")
        return self._shape[0]

    def compares_elementwise(self) -> bool:
        """Whether == and != build Equal/NotEqual ops (TensorFlow 2, inside a function being traced) or
        compare identity, as TensorFlow 1 graph tensors do (a Graph outside any function)."""
        return self.op.graph.is_function_graph and graph_mode.process_default is None

    def __hash__(self):
        if self.compares_elementwise():
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def ref(self):
        """A hashable reference to this tensor, for sets and dict keys (== compares elementwise)."""
        return TensorRef(self)

    def __repr__(self) -> str:
        shape = "<unknown>" if self._shape is None else str(self._shape)
        return f"<tf.Tensor '{self.name}' shape={shape} dtype={self.dtype.name}>"

    def __str__(self) -> str:
        shape = "<unknown>" if self._shape is None else str(self._shape)
        return f'Tensor("{self.name}", shape={shape}, dtype={self.dtype.name})'  # TensorFlow's print of a graph tensor


class Operation:
    """A node: op type, inputs, control inputs, attributes, and the device it requested."""

    __slots__ = ("graph", "name", "type", "inputs", "control_inputs", "outputs", "attrs", "_device",
                 "_colocation", "dtype", "resource", "_id", "_frames", "__weakref__")

    def __init__(self, graph, name, op_type, inputs, attrs, dtype, control_inputs=()):
        self.graph, self.name, self.type = graph, name, op_type
        self.inputs = list(inputs)
        self.control_inputs = list(control_inputs)
        self.attrs = dict(attrs or {})
        self.dtype = dtype                # the dtype that selects the kernel
        self.outputs: list = []
        self._device = ""
        self._colocation = [name]  # the names of the ops this one is colocated with (itself first)
        self.resource = None              # an eager Variable this op reads or writes (functions)
        self._id = len(graph._ops)
        self._frames = ()  # the user code that made it, as error_layout.user_frames takes it

    @property
    def creation_frames(self) -> tuple:
        """(file, line, function) of the user code that made this op, outermost first (placeflow's left out)."""
        return resolved(self._frames)

    @property
    def device(self) -> str:
        """The requested device ('' when unpinned): scope, merged spec, or a device function's answer."""
        return self._device

    def _set_device(self, device) -> None:
        self._device = scope_module._as_spec(device).to_string() if device else ""

    @property
    def node_def(self):
        """A description of the node (name, op, device, attrs) like TensorFlow's NodeDef."""
        return {"name": self.name, "op": self.type, "device": self._device,
                "input": [t.name for t in self.inputs] + [f"^{c.name}" for c in self.control_inputs],
                "attr": {k: v for k, v in self.attrs.items() if k != "value"}}

    def get_attr(self, name):
        """One attribute value; ValueError names the ones this op has."""
        if name == "_class":
            return self.colocation_groups()
        if name not in self.attrs:
            raise ValueError(f"Operation {self.name!r} has no attr named {name!r}; it has {sorted(self.attrs)}.")
        return self.attrs[name]

    def colocation_groups(self) -> list:
        """The colocation groups of this op, as TensorFlow gives them: [b'loc:@name', ...]."""
        return [f"loc:@{g}".encode() for g in self._colocation]

    def run(self, feed_dict=None, session=None):
        """Run this op (e.g. an initializer) in the default or given session."""
        from .session import default_session_for
        default_session_for(self, session).run(self, feed_dict=feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={self.type}>"


class Graph(Interpreter):
    """A dataflow graph. Ops built under `as_default()` are recorded here instead of running: the graph is
    the interpreter of its thread while it is the default (framework/interpreter.py)."""

    is_function_graph = False   # FuncGraph: the graph a function traces into

    def __init__(self):
        self._ops: list = []
        self._by_name: dict = {}
        self._names_in_use: dict = {}
        self._lock = threading.RLock()
        self._local = threading.local()
        self._collections: dict = {}
        self._finalized = False
        self._last_side_effect = None  # the last print or assertion: the next one runs after it
        self._last_table_op: dict = {}  # id(lookup table) -> the last op on it
        self.version = 0

    # -- the interpreter of ops made while this graph is the default -------------------------------
    def convert(self, value, dtype=None):
        """tf.convert_to_tensor while this graph is built (a graph tensor)."""
        from ..eager.convert import convert_to_tensor
        return convert_to_tensor(value, dtype=dtype)

    def run_op(self, op, inputs, dtype, attrs=None, resource=None, name=None):
        """Record `op` as a node of this graph (shapes and dtypes checked); its symbolic output(s). Recording
        tapes see it, whoever builds it (an API function, or a gradient rule: so nested tapes differentiate
        gradients inside `function` too)."""
        from ..eager import tape
        from .build import build
        outputs = build(self, op, inputs, dtype, attrs, resource, name)
        if tape.active_count:
            tape.record(op, attrs, inputs, outputs)
        return outputs

    def make_variable(self, *args, **kwargs):
        """placeflow.Variable(...) here: a TF1 ref variable, or an eager variable lifted out of a trace."""
        from .variables import make_variable
        return make_variable(self, *args, **kwargs)

    def read_variable(self, variable):
        """A ReadVariableOp of eager `variable`, run when the graph runs."""
        from .variables import read_variable
        return read_variable(self, variable)

    def update_variable(self, variable, op, value, read_value, attrs=None):
        """An Assign*VariableOp of eager `variable`, run when the graph runs (then a read, if asked)."""
        from .variables import update_variable
        return update_variable(self, variable, op, value, read_value, attrs)

    # -- default graph ------------------------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self):
        """Make this the graph that ops are recorded into, on this thread."""
        token = graph_mode.current.set(self)
        try:
            yield self
        finally:
            graph_mode.current.reset(token)

    # -- thread-local builder state ---------------------------------------------------------------
    def _state(self):
        local = self._local
        if not hasattr(local, "name_stack"):
            local.name_stack, local.control, local.colocation = "", [], []
        return local

    # -- names ----------------------------------------------------------------------------------
    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """`name` under the current name scope, with `_1`, `_2`... appended if it is taken."""
        stack = self._state().name_stack
        name = f"{stack}/{name}" if stack else name
        with self._lock:
            key = name.lower()
            count = self._names_in_use.get(key, 0)
            if mark_as_used:
                self._names_in_use[key] = count + 1
            if count:
                base = name
                while f"{base}_{count}".lower() in self._names_in_use:
                    count += 1
                name = f"{base}_{count}"
                if mark_as_used:
                    self._names_in_use[name.lower()] = 1
        return name

    @contextlib.contextmanager
    def name_scope(self, name):
        """Prefix op names with `name/` (made unique); a name ending in '/' is used as is, '' or None resets."""
        state = self._state()
        saved = state.name_stack
        if name:
            _check_scope_name(name, root=not saved)
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            new = self.unique_name(name)
        state.name_stack = new
        try:
            yield f"{new}/" if new else ""
        finally:
            state.name_stack = saved

    def switch_to_thread_local(self) -> None:
        """TensorFlow's switch to per-thread name, device and control-dependency stacks: placeflow's are always
        per thread, so this changes nothing."""

    def get_name_scope(self) -> str:
        """The current name scope, without a trailing slash."""
        return self._state().name_stack

    # -- scopes that shape new ops --------------------------------------------------------------
    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created inside run only after `control_inputs` (ops or tensors); None clears outer ones."""
        state = self._state()
        saved = state.control
        if control_inputs is None:
            state.control = []
        else:
            ops = [self._as_operation(c) for c in control_inputs]
            state.control = saved + [op for op in ops if op not in saved]
        try:
            yield
        finally:
            state.control = saved

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Ops created inside are placed with `op` (an op, tensor or variable), ignoring device scopes."""
        state = self._state()
        saved = state.colocation
        target = None if op is None else self._as_operation(op)
        state.colocation = ([] if ignore_existing else list(saved)) + ([target] if target is not None else [])
        try:
            yield
        finally:
            state.colocation = saved

    def device(self, device_name_or_function):
        """The same as placeflow.device, for TensorFlow 1 code that calls graph.device(...)."""
        return device_scope.device(device_name_or_function)

    # -- creating ops ----------------------------------------------------------------------------
    def create_op(self, op_type, inputs, attrs=None, dtype=None, name=None, outputs=(), resource=None):
        """Add an op; `outputs` is [(dtype, shape)] per output. Returns the Operation."""
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        for tensor in inputs:
            if tensor.op.graph is not self:
                raise ValueError(f"Tensor {tensor.name!r} must be from the same graph as the op {op_type!r} "
                                 "being built; build every op of a graph under one `with graph.as_default():`.")
        state = self._state()
        full_name = self._node_name(name, op_type)
        op = Operation(self, full_name, op_type, inputs, attrs, dtype, state.control)
        op.resource = resource
        op._frames = user_frames()
        if op_type in SIDE_EFFECT_OPS:  # prints and assertions run in program order
            if self._last_side_effect is not None:
                op.control_inputs.append(self._last_side_effect)
            self._last_side_effect = op
        table = attrs.get("table") if attrs else None
        if table is not None:  # ops on one hash table run in program order (as TF orders ops on one resource)
            previous = self._last_table_op.get(id(table))
            if previous is not None:
                op.control_inputs.append(previous)
            self._last_table_op[id(table)] = op
        op.outputs = [Tensor(op, i, out_dtype, shape) for i, (out_dtype, shape) in enumerate(outputs)]
        self._assign_device(op, state)
        with self._lock:
            if op.name in self._by_name:
                raise ValueError(f"Duplicate node name in graph: '{op.name}'")
            self._ops.append(op)
            self._by_name[op.name] = op
            self.version += 1
        return op

    def _node_name(self, name, op_type: str) -> str:
        """The op's full name, as TensorFlow makes it: a name ending in '/' is taken as is, any other is put
        under the name scope and made unique; either must be a valid node name."""
        if name is None:  # internal op types start with '_', which node names may not
            name = op_type.lstrip("_") or "op"
        if name.endswith("/"):
            full_name = name[:-1]
            with self._lock:
                if full_name in self._by_name:
                    raise ValueError(f"Duplicate node name in graph: '{full_name}'")
                self._names_in_use[full_name.lower()] = self._names_in_use.get(full_name.lower(), 0) + 1
        else:
            full_name = self.unique_name(name)
        if not VALID_OP_NAME.fullmatch(full_name):
            raise ValueError(f"`{full_name}` is not a valid node name. Accepted names conform to Regex "
                             f"/{VALID_OP_NAME!r}/")
        return full_name

    def _assign_device(self, op, state) -> None:
        if state.colocation:
            first = state.colocation[0]
            op._colocation = sorted({g for c in state.colocation for g in c._colocation})
            op._device = first.device
            return
        op._device = scope_module.requested_in_graph(scope_module.current.get(), op)

    def _as_operation(self, value):
        value = getattr(value, "_graph_op", value)   # graph variables
        if isinstance(value, Tensor):
            return value.op
        if isinstance(value, Operation):
            return value
        raise TypeError(f"Expected an Operation, Tensor or Variable of this graph, got {value!r}.")

    # -- lookup ---------------------------------------------------------------------------------
    def get_operations(self) -> list:
        """Every op, in creation order."""
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> Operation:
        """The op called `name`; KeyError lists similar names."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> Tensor:
        """The tensor 'op:index'."""
        op_name, _, index = name.partition(":")
        if not index.isdigit():
            raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, not a Tensor; "
                             "Tensor names look like '<op name>:<output index>'.")
        if op_name not in self._by_name:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, {op_name!r}, "
                           "does not exist in the graph.")
        op = self.get_operation_by_name(op_name)
        if int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist: {op_name!r} has "
                           f"{len(op.outputs)} outputs.")
        return op.outputs[int(index)]

    def as_graph_element(self, obj):
        """The Tensor or Operation named by `obj` (a name, a tensor, an op, or a variable)."""
        if isinstance(obj, str):
            return self.get_tensor_by_name(obj) if ":" in obj else self.get_operation_by_name(obj)
        element = getattr(obj, "_graph_element", obj)
        if isinstance(element, (Tensor, Operation)):
            if element.graph is not self:
                raise ValueError(f"{element!r} is not an element of this graph.")
            return element
        raise TypeError(f"Can not convert a {type(obj).__name__} into a Tensor or Operation.")

    # -- collections ------------------------------------------------------------------------------
    def add_to_collection(self, name: str, value) -> None:
        """Append `value` to the collection `name`."""
        with self._lock:
            self._collections.setdefault(name, []).append(value)

    def get_collection(self, name: str, scope=None) -> list:
        """A copy of the collection `name` (filtered by name prefix `scope`)."""
        items = list(self._collections.get(name, []))
        if scope:
            items = [i for i in items if getattr(i, "name", "").startswith(scope)]
        return items

    # -- lifecycle --------------------------------------------------------------------------------
    def finalize(self) -> None:
        """Refuse new ops from now on (catches graphs that grow every training step)."""
        self._finalized = True

    @property
    def finalized(self) -> bool:
        """True after finalize()."""
        return self._finalized

    def __repr__(self) -> str:
        return f"<placeflow.Graph with {len(self._ops)} ops>"


def get_default_graph() -> Graph:
    """The graph ops are recorded into now (a process-wide one is created when none is active)."""
    graph = graph_mode.active()
    if graph is None:
        graph = _fallback_graph()
    return graph


_fallback = None


def _fallback_graph() -> Graph:
    global _fallback
    if _fallback is None:
        _fallback = Graph()
    return _fallback


def reset_default_graph() -> None:
    """Forget the process-wide default graph (TensorFlow 1's tf.reset_default_graph)."""
    global _fallback
    if graph_mode.current.get() not in (None, graph_mode.EAGER):
        raise AssertionError("Do not use reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    _fallback = None
    if graph_mode.process_default is not None:
        graph_mode.process_default = Graph()
