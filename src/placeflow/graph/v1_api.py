"""TensorFlow 1 graph-building names: placeholder, name_scope, control_dependencies, colocate_with, ..."""

from __future__ import annotations

import contextlib

from ..eager.name_scope import eager_name_scope as _eager_name_scope
from ..framework import dtypes, graph_mode
from .graph import Graph, get_default_graph


def placeholder(dtype, shape=None, name=None):
    """A graph input that every Session.run must feed (feed_dict={placeholder: value})."""
    graph = graph_mode.active()
    if graph is None:
        raise RuntimeError("placeholder() is not compatible with eager execution: build it under "
                           "`with placeflow.compat.v1.Graph().as_default():` or call "
                           "placeflow.compat.v1.disable_eager_execution() first.")
    dtype = dtypes.as_dtype(dtype)
    shape = None if shape is None else _placeholder_shape(shape)
    op = graph.create_op("Placeholder", [], {"dtype": dtype, "shape": shape}, dtype, name or "Placeholder",
                         [(dtype, shape)])
    return op.outputs[0]


def name_scope(name, default_name=None, values=None):
    """Prefix the names of ops built inside with `name/` (eagerly: the names of variables made inside, as
    TensorFlow 2 names them; a name ending in '/' is taken as the whole scope)."""
    graph = graph_mode.active()
    if graph is None:
        return _eager_name_scope(name or default_name)
    return graph.name_scope(name or default_name)


def control_dependencies(control_inputs):
    """Ops built inside run only after `control_inputs` (in eager mode everything already runs in order)."""
    graph = graph_mode.active()
    if graph is None:
        return contextlib.nullcontext()
    return graph.control_dependencies(control_inputs)


def colocate_with(op, ignore_existing=False):
    """Ops built inside are placed on the same device as `op`."""
    graph = graph_mode.active()
    if graph is None:
        return contextlib.nullcontext()
    return graph.colocate_with(op, ignore_existing)


def no_op(name=None):
    """An op that does nothing; with control_dependencies it groups other ops."""
    graph = graph_mode.active()
    if graph is None:
        return None
    return graph.create_op("NoOp", [], {}, None, name or "NoOp", [])


def group(*inputs, name=None):
    """One op that runs after all of `inputs`."""
    graph = get_default_graph()
    with graph.control_dependencies([i for i in inputs if i is not None]):
        return graph.create_op("NoOp", [], {}, None, name or "group_deps", [])


def disable_eager_execution() -> None:
    """Build graphs from now on: ops go into the default graph, to be run by a Session (TensorFlow 1 style)."""
    if graph_mode.process_default is None:
        graph_mode.process_default = get_default_graph() if graph_mode.current.get() is None else Graph()


def enable_eager_execution_again() -> None:
    """Undo disable_eager_execution (for tests and notebooks)."""
    graph_mode.process_default = None


def executing_eagerly() -> bool:
    """True unless a graph is being built on this thread."""
    return graph_mode.active() is None


def inside_function() -> bool:
    """True while a `function` (or a branch or loop body inside one) is being traced; False eagerly and in a
    TF1 graph."""
    from .function import FuncGraph
    return isinstance(graph_mode.active(), FuncGraph)




@contextlib.contextmanager
def init_scope():
    """A scope where ops run eagerly, even inside a `function` being traced (for creating state once); the
    graph's name scope carries over, as TF's does, so variables made inside are named as in the graph."""
    graph = graph_mode.active()
    scope = graph.get_name_scope() if graph is not None else ""
    with graph_mode.suspended():
        if scope:
            with _eager_name_scope(scope + "/"):
                yield
        else:
            yield


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TensorFlow's parameter name
    """`input` unless a value is fed for it (PlaceholderWithDefault); eagerly, `input` itself."""
    from ..eager.convert import convert_to_tensor
    graph = graph_mode.active()
    value = convert_to_tensor(input)
    if graph is None:
        return value
    shape = None if shape is None else tuple(None if d is None or d == -1 else int(d) for d in shape)
    op = graph.create_op("PlaceholderWithDefault", [value], {"shape": shape}, value.dtype,
                         name or "PlaceholderWithDefault", [(value.dtype, shape)])
    return op.outputs[0]


def _placeholder_shape(shape) -> tuple:
    """The dimensions of a placeholder's shape (-1 or None: unknown), refused as TF refuses a bad one."""
    from ..framework.tensor_shape import TensorShape
    dims = [None if d is None or (isinstance(d, int) and d == -1) else d for d in shape]
    try:
        return tuple(TensorShape(dims))
    except (TypeError, ValueError) as error:
        raise TypeError(f"Error converting shape to a TensorShape: {error}.") from None
