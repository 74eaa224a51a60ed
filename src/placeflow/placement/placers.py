"""The placer seam: which placer assigns graph nodes to devices (Session graphs, `function` traces and
control-flow bodies all place through `place`).

`"simple"` is TensorFlow's placer (graph_placer.py, seed 003), the default. The whitepaper's cost-model
placer (seed 003, cost_model_placer.py) is `"cost_model"`.
"""

from __future__ import annotations

from ..config.context import context
from . import cost_model_placer, graph_placer

_PLACERS = {"simple": graph_placer.place, "cost_model": cost_model_placer.place}
_PLANNED: dict = {}


def place(ops, placed: dict, ctx, soft: bool, log_placement: bool, reasons: dict | None = None) -> dict:
    """Assign a device to every op of `ops` not in `placed` with the context's placer; returns `placed`."""
    return _PLACERS[ctx.placer](ops, placed, ctx, soft, log_placement, reasons)


def set_placer(name: str) -> None:
    """Choose the placer for graphs placed from now on ('simple': TensorFlow's)."""
    if name in _PLANNED:
        raise NotImplementedError(f"set_placer({name!r}): {_PLANNED[name]}. Use 'simple' (TensorFlow's placer).")
    if name not in _PLACERS:
        raise ValueError(f"Unknown placer {name!r}; expected one of {sorted(_PLACERS)}.")
    context().placer = name


def get_placer() -> str:
    """The name of the placer graphs are placed with."""
    return context().placer
