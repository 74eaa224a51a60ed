"""The inline execution plan: a plan compiled once into straight-line Python, one line per node.

    def step(F):
        n = 3; v3 = K3(X3, C0, F[0])
        n = 4; v4 = K4(X4, v3, **A4)
        return [v4]

Kernels, namespaces, attributes and constants are bound as globals of the generated function, so a
node costs one kernel call and a local store. Nodes on a CUDA device run inside one
`with device.activate():` block per stretch of consecutive nodes on that device.
"""

from __future__ import annotations

import itertools

from .state import write_variable

_counter = itertools.count()


def compile_inline(plan):
    """A function `step(feed_values) -> [fetched values]` that runs `plan` in the calling thread."""
    env = {"write_variable": write_variable}
    lines = ["def step(F):"]
    names = {}
    active_cuda = None
    for node in plan.nodes:
        expr = _bind(node, env, names)
        if expr is None:
            continue
        if node.device.is_cuda and node.kind == "kernel":
            if active_cuda is not node.device:
                env[f"D{node.index}"] = node.device
                lines.append(f"    with D{node.index}.activate():")
                active_cuda = node.device
            lines.append(f"        n = {node.index}; {expr}")
        else:
            active_cuda = None
            lines.append(f"    n = {node.index}; {expr}")
    fetched = ", ".join(_ref(names, i, p) for i, p in plan.fetches)
    lines.append(f"    return [{fetched}]")
    return compile_generated(lines, env, "step", "")


def compile_generated(lines, env, name: str, label: str):
    """Compile generated `lines` (no user strings in them) with globals `env`; returns function `name`,
    its source attached. Its file name starts '<placeflow plan' so failed_node can find its frame."""
    source = "\n".join(lines)
    filename = f"<placeflow plan {next(_counter)}{label}>"
    exec(compile(source, filename, "exec"), env)  # noqa: S102 - our own generated code
    function = env[name]
    function.source = source
    return function


def _ref(names, index, port) -> str:
    name = names[index]
    return name if port is None else f"{name}[{port}]"


def _bind(node, env, names):
    """Register `node`'s globals; return its statement (None when it needs none)."""
    i = node.index
    args = ", ".join(_ref(names, s, p) for s, p in node.inputs)
    kind = node.kind
    names[i] = f"v{i}"
    if kind == "const":
        env[f"C{i}"] = node.value
        names[i] = f"C{i}"
        return None
    if kind == "feed":
        return f"v{i} = F[{node.feed_index}]"
    if kind == "send":
        names[i] = _ref(names, *node.inputs[0])
        return None
    if kind == "kernel":
        env[f"K{i}"] = node.fn
        env[f"X{i}"] = node.device.xp if node.device.is_cuda else node.device._xp
        call_args = f"X{i}, {args}" if args else f"X{i}"
        if node.attrs:
            env[f"A{i}"] = node.attrs
            call_args += f", **A{i}"
        return f"v{i} = K{i}({call_args})"
    if kind == "recv":
        env[f"Y{i}"] = node.fn
        return f"v{i} = Y{i}({args})"
    if kind == "deref":
        env[f"R{i}"] = node.ref
        return f"v{i} = R{i}.get()"
    if kind == "assign_ref":
        env[f"R{i}"] = node.ref
        return f"v{i} = R{i}.{node.fn}({args})"
    if kind == "read_var":
        env[f"V{i}"] = node.resource
        return f"v{i} = V{i}._value"
    if kind == "write_var":
        env[f"N{i}"] = node
        return f"v{i} = write_variable(N{i}, {args})"
    names[i] = "None"
    return None  # noop


def failed_node(exc) -> int:
    """The index of the node whose line raised `exc` inside a generated step function."""
    tb = exc.__traceback__
    index = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<placeflow plan"):
            index = tb.tb_frame.f_locals.get("n", 0)
        tb = tb.tb_next
    return index
