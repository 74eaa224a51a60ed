"""Generated plan code: a plan compiled once into straight-line Python, one line per node.

    def step(F, R=None):
        v2 = F[0]  # x (_Arg) on GPU:0
        v3 = N3(C0, v2); del v2  # a (Mul) on GPU:0
        v4 = N4(v3); del v3  # b (Relu) on GPU:0
        return [v4]

Every line calls the node's one callable (`node.call`, see partition) and stores its value in a
local; a value is deleted on the line of its last reader (liveness.py), so its buffer goes back to
its device there, as TensorFlow's executor releases tensors. A node that may forward a dying input
(`node.forward`) calls a forwarding callable instead (runtime/forwarding.py); that check counts
references, so every line keeps the form `vI = NI(args); del ...`. The source is registered with
`linecache`, so tracebacks and pdb show it, and each line's node is known: `failed_node` finds the
node whose line raised.
"""

from __future__ import annotations

import itertools
import linecache
import time
import weakref

from . import liveness, schedule

_counter = itertools.count()
_line_nodes: dict = {}  # generated file name -> {line number: node index}


def compile_inline(plan, traced: bool = False):
    """A function `step(feed_values, R) -> [fetched values]` that runs `plan` in the calling thread;
    when `traced`, each node's line also calls `R(index, start_ns, value)` (step statistics)."""
    env: dict = {"P": time.perf_counter_ns}
    lines = ["def step(F, R=None):"]
    line_nodes = {}
    names: dict = {}
    order = schedule.inline_order(plan)
    dying = liveness.dying_after(plan, order)
    for node in (plan.nodes[i] for i in order):
        expr = bind(node, env, names, dying.get(node.index, ()))
        if expr is None:
            continue
        timed = traced and node.kind != "feed"
        lines.append(f"    t = P(); {expr}; R({node.index}, t, v{node.index})" if timed else f"    {expr}")
        lines[-1] += release(dying.get(node.index, ()))
        line_nodes[len(lines)] = node.index
        describe(lines, node)
    fetched = ", ".join(ref(names, i, p) for i, p in plan.fetches)
    lines.append(f"    return [{fetched}]")
    return compile_generated(lines, env, "step", "", line_nodes)


def describe(lines: list, node) -> None:
    """End the last line with a comment naming the node: `# name (OpType) on DEVICE:0`."""
    text = f"{node.name} ({node.type}) on {node.device.short_name}"
    lines[-1] += "  # " + text.encode("unicode_escape").decode("ascii")


def compile_generated(lines, env, name: str, label: str, line_nodes: dict):
    """Compile generated `lines` (no user strings in them but escaped comments) with globals `env`;
    returns function `name`, its source attached and registered with linecache."""
    source = "\n".join(lines) + "\n"
    filename = f"<placeflow plan {next(_counter)}{label}>"
    exec(compile(source, filename, "exec"), env)  # noqa: S102 - our own generated code
    function = env[name]
    function.source = source
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    _line_nodes[filename] = line_nodes
    weakref.finalize(function, _forget, filename)
    return function


def _forget(filename: str) -> None:
    linecache.cache.pop(filename, None)
    _line_nodes.pop(filename, None)


def ref(names, index, port) -> str:
    """How generated code names output `port` of node `index`."""
    name = names[index]
    return name if port is None else f"{name}[{port}]"


def release(values) -> str:
    """The statement ending a line that deletes the locals of `values` (their last reader ran)."""
    return "; del " + ", ".join(f"v{i}" for i in values) if values else ""


def bind(node, env, names, dying=()):
    """Register `node`'s globals; return its statement (None when it needs none). `dying`: the values
    this node reads last (a forwarding node may write into one of them)."""
    i = node.index
    kind = node.kind
    names[i] = f"v{i}"
    if kind == "const":
        env[f"C{i}"] = node.value
        names[i] = f"C{i}"
        return None
    if kind == "feed":
        return f"v{i} = F[{node.feed_index}]"
    if kind == "send":
        names[i] = ref(names, *node.inputs[0])
        return None
    if kind == "noop":
        names[i] = "None"
        return None
    env[f"N{i}"] = forwarding_call(node, dying) or node.call
    args = ", ".join(ref(names, s, p) for s, p in node.inputs)
    return f"v{i} = N{i}({args})"


def forwarding_call(node, dying, sole=None):
    """The node's forwarding callable when an input it may write into dies at it (`dying`: the values it reads
    last), else None. `sole`: runtime/forwarding.py's, for a caller other than a generated line."""
    writable = liveness.forwarded_into(node, dying)
    if not writable:
        return None
    return node.device.forwarding_node_call(node.type, node.forward[0], node.attrs, writable, node.name,
                                            getattr(node.op, "dtype", None), sole=sole)


def clear_plan_frames(exc) -> None:
    """Drop the locals of the generated step frame in `exc`'s traceback and of every frame it called:
    a failed step's intermediates go back to their devices now, not when the error is collected."""
    tb = exc.__traceback__
    inside = False
    while tb is not None:
        inside = inside or tb.tb_frame.f_code.co_filename in _line_nodes
        if inside:
            try:
                tb.tb_frame.clear()
            except RuntimeError:  # still executing
                pass
        tb = tb.tb_next


def failed_node(exc):
    """The index of the node whose generated line raised `exc` (the innermost such line), or None."""
    tb = exc.__traceback__
    index = None
    while tb is not None:
        line_nodes = _line_nodes.get(tb.tb_frame.f_code.co_filename)
        if line_nodes is not None:
            index = line_nodes.get(tb.tb_lineno, index)
        tb = tb.tb_next
    return index
