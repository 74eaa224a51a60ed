"""Flattening nested fetch and output structures (lists, tuples, namedtuples, dicts) and packing them back."""

from __future__ import annotations


def flatten(structure) -> list:
    """The leaves of `structure`, depth first (dict values in sorted-key order)."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure, key=str) for leaf in flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack_as(structure, leaves: list):
    """`structure` with its leaves replaced, in order, by `leaves`."""
    packed, rest = _pack(structure, list(leaves), 0)
    return packed


def _pack(structure, leaves, position):
    if isinstance(structure, dict):
        out = {}
        for key in sorted(structure, key=str):
            out[key], position = _pack(structure[key], leaves, position)
        return type(structure)((k, out[k]) for k in structure) if type(structure) is not dict else \
            {k: out[k] for k in structure}, position
    if isinstance(structure, (list, tuple)):
        items = []
        for item in structure:
            value, position = _pack(item, leaves, position)
            items.append(value)
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items), position
        return type(structure)(items), position
    return leaves[position], position + 1
