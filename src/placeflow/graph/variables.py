"""Variables in graphs: TensorFlow 1 ref variables, and eager variables read or updated by traced functions."""

from __future__ import annotations

from .graph import Tensor

GLOBAL_VARIABLES = "variables"
TRAINABLE_VARIABLES = "trainable_variables"
STATE_UPDATES = {"AssignVariableOp": "Assign", "AssignAddVariableOp": "AssignAdd",
                 "AssignSubVariableOp": "AssignSub"}


class RefVariable:
    """A TensorFlow 1 variable: nodes `v` (VariableV2), `v/initial_value`, `v/Assign` and `v/read`.

    Its value lives in each Session that initializes it (run `v.initializer` or
    global_variables_initializer() first); reads and assigns are colocated with it.
    """

    def __init__(self, graph, initial_value=None, trainable=True, name=None, dtype=None, shape=None,
                 collections=None):
        from ..eager.convert import convert_to_tensor
        if initial_value is None:
            raise ValueError("initial_value must be specified, e.g. placeflow.Variable(3.0).")
        self._graph = graph
        with graph.name_scope(name or "Variable") as scope:
            value = initial_value() if callable(initial_value) else initial_value
            self._initial_value = convert_to_tensor(value, dtype=dtype, name="initial_value")
            dtype = self._initial_value.dtype
            self._op = graph.create_op("VariableV2", [], {"dtype": dtype, "shape": self._initial_value.shape},
                                       dtype, scope, [(dtype, self._initial_value.shape)])
            with graph.colocate_with(self._op):
                self._initializer = graph.create_op("Assign", [self._op.outputs[0], self._initial_value], {},
                                                    dtype, "Assign", [(dtype, self._initial_value.shape)])
                self._snapshot = graph.create_op("Identity", [self._op.outputs[0]], {}, dtype, "read",
                                                 [(dtype, self._initial_value.shape)]).outputs[0]
        self._trainable = trainable
        for collection in collections or [GLOBAL_VARIABLES] + ([TRAINABLE_VARIABLES] if trainable else []):
            graph.add_to_collection(collection, self)

    # -- graph elements ------------------------------------------------------------------------------
    @property
    def _graph_element(self):
        return self._op.outputs[0]

    @property
    def _graph_op(self):
        return self._op

    def _as_tensor(self) -> Tensor:
        from ..eager import tape
        if tape.active_count:   # a GradientTape in the graph sees a read of its own (gradients reach the variable)
            read = self.read_value()
            tape.variable_read(self, read)
            return read
        return self._snapshot

    def value(self) -> Tensor:
        """The `v/read` tensor: the variable's value when the graph runs."""
        return self._snapshot

    def read_value(self) -> Tensor:
        """A new read of the variable, made under the current control dependencies (unlike value())."""
        with self._graph.colocate_with(self._op):
            return self._graph.create_op("Identity", [self._op.outputs[0]], {}, self.dtype, "read",
                                         [(self.dtype, self.shape)]).outputs[0]

    @property
    def op(self):
        """The VariableV2 operation."""
        return self._op

    @property
    def initializer(self):
        """The `v/Assign` op that sets the initial value."""
        return self._initializer

    @property
    def initial_value(self) -> Tensor:
        """The `v/initial_value` tensor."""
        return self._initial_value

    @property
    def graph(self):
        """The graph holding this variable."""
        return self._graph

    @property
    def name(self) -> str:
        """'v:0'."""
        return self._op.outputs[0].name

    @property
    def dtype(self):
        """The variable's dtype."""
        return self._op.dtype

    @property
    def shape(self):
        """The variable's static shape."""
        return self._snapshot.shape

    def get_shape(self):
        """The variable's static shape (TensorFlow 1 name)."""
        return self.shape

    @property
    def device(self) -> str:
        """The device the variable requested."""
        return self._op.device

    @property
    def trainable(self) -> bool:
        """Whether optimizers update it."""
        return self._trainable

    # -- updates ---------------------------------------------------------------------------------------
    def _update(self, op_type, value, name):
        from ..eager.convert import convert_to_tensor
        tensor = convert_to_tensor(value, dtype=self.dtype)
        with self._graph.colocate_with(self._op):
            op = self._graph.create_op(op_type, [self._op.outputs[0], tensor], {}, self.dtype, name or op_type,
                                       [(self.dtype, self.shape)])
        return op.outputs[0]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """A tensor that sets the variable to `value` when run, and yields the new value."""
        return self._update("Assign", value, name)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        """A tensor that adds `delta` to the variable when run."""
        return self._update("AssignAdd", delta, name)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        """A tensor that subtracts `delta` from the variable when run."""
        return self._update("AssignSub", delta, name)

    def eval(self, session=None):
        """The variable's value in the default (or given) session."""
        return self._snapshot.eval(session=session)

    def load(self, value, session=None):
        """Set the value in a session (TensorFlow 1's Variable.load)."""
        from .session import default_session_for
        default_session_for(self._snapshot, session)._store.set(self._op, value)

    def __hash__(self):
        return id(self)

    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


# How graphs treat variables (Graph's interpreter methods): ref variables in compat.v1 graphs, traced reads
# and updates of eager ones.

def make_variable(graph, *args, **kwargs):
    """placeflow.Variable(...) while `graph` is built: a ref variable, or lifted out of a trace."""
    if getattr(graph, "is_function_graph", False):
        return graph.lift_variable(*args, **kwargs)
    return RefVariable(graph, *args, **kwargs)


def read_variable(graph, var):
    """A ReadVariableOp reading eager `var` when the graph runs."""
    op = graph.create_op("ReadVariableOp", [], {"_pinned_device": var.device}, var.dtype, None,
                         [(var.dtype, tuple(var.shape))], resource=var)
    order_stateful(graph, var, op, write=False)
    return op.outputs[0]


def update_variable(graph, var, op_type, value, read_value, attrs=None):
    """An Assign*VariableOp updating eager `var` when the graph runs (then a read, if asked)."""
    from ..eager.convert import convert_to_tensor
    from ..eager.variables import Variable, update_error
    value = value._as_tensor() if isinstance(value, Variable) else value
    tensor = convert_to_tensor(value, dtype=var.dtype)
    error = update_error(var, tensor, op_type)
    if error is not None:
        raise error
    op = graph.create_op(op_type, [tensor], dict(attrs or {}, _pinned_device=var.device), var.dtype, None, [],
                         resource=var)
    order_stateful(graph, var, op, write=True)
    return read_variable(graph, var) if read_value else op


def order_stateful(graph, var, op, write: bool) -> None:
    """Reads after a write wait for it; a write waits for every earlier read and write (program order)."""
    state = graph.__dict__.setdefault("_resource_order", {})
    last_write, reads = state.get(id(var), (None, []))
    before = ([last_write] if last_write is not None else []) + (reads if write else [])
    op.control_inputs.extend(b for b in before if b not in op.control_inputs)
    state[id(var)] = (op, []) if write else (last_write, reads + [op])


def global_variables(scope=None) -> list:
    """Variables of the default graph."""
    from .graph import get_default_graph
    return get_default_graph().get_collection(GLOBAL_VARIABLES, scope)


def trainable_variables(scope=None) -> list:
    """Trainable variables of the default graph."""
    from .graph import get_default_graph
    return get_default_graph().get_collection(TRAINABLE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """One op that runs the initializers of `var_list`."""
    from .graph import get_default_graph
    graph = get_default_graph()
    with graph.control_dependencies([v.initializer for v in var_list]):
        return graph.create_op("NoOp", [], {}, None, name, [])


def global_variables_initializer():
    """One op that initializes every variable of the default graph (run it first)."""
    return variables_initializer(global_variables())


