"""The table of defined ops, by name: filled by `ops.registry.define`, read by every layer that needs an op's
definition without importing the ops layer (the estimating devices of runtime/ read shape rules from it)."""

from __future__ import annotations

OPS: dict = {}     # op name -> ops.registry.OpDef


def op_def(op: str):
    """The definition of `op`, or None when no op of that name exists."""
    return OPS.get(op)
