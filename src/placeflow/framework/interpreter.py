"""What happens when an op runs: the thread's current interpreter.

One interface (`Interpreter`), one implementation per way of running a program:
- eager (eager/execute.py): place the op, copy its inputs to its device, run its kernel now;
- a graph being built (graph/graph.py `Graph`: a TF1 graph, a `function` trace, a loop or branch
  body): record the op as a node, and a variable's creation, reads and updates as graph state;
- (to come) shape-only estimation: shapes, dtypes, devices and memory without values.

`current()` is the graph being built on this thread (framework/graph_mode.py), else the eager
interpreter. Code in lower layers (op gradients in ops/emit.py, eager variables) runs ops and touches
variables through it, so it never imports the layers that implement the interpreters; the eager
layer registers its interpreter here when it loads.
"""

from __future__ import annotations

from . import graph_mode


class Interpreter:
    """How ops run in a context: eagerly, or recorded into a graph."""

    def run_op(self, op: str, inputs, dtype, attrs=None, resource=None, name=None):
        """Run (or record) `op` on `inputs`; its output tensor, or a list of them."""
        raise NotImplementedError(f"{type(self).__name__} does not run ops")

    def convert(self, value, dtype=None):
        """`value` (a tensor, array or Python value) as a tensor of this context (tf.convert_to_tensor)."""
        raise NotImplementedError(f"{type(self).__name__} does not convert values")

    def make_variable(self, *args, **kwargs):
        """`placeflow.Variable(*args, **kwargs)` made in this context."""
        raise NotImplementedError(f"{type(self).__name__} does not make variables")

    def read_variable(self, variable):
        """A tensor of `variable`'s value."""
        raise NotImplementedError(f"{type(self).__name__} does not read variables")

    def update_variable(self, variable, op: str, value, read_value: bool, attrs=None):
        """Update `variable` with `op` (an Assign*VariableOp) and `value`."""
        raise NotImplementedError(f"{type(self).__name__} does not update variables")


eager: Interpreter | None = None   # the eager interpreter (registered by eager/execute.py)


def current() -> Interpreter:
    """The interpreter ops run in on this thread: the graph being built, else the eager one."""
    graph = graph_mode.active()
    return graph if graph is not None else eager
