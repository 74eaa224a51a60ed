"""Flattening nested fetch and output structures (lists, tuples, namedtuples, dicts) and packing them back.

With `expand_composites=True`, composite values (those defining `_nest_components` and
`_nest_rebuild`, such as distribute's PerReplica) are expanded into their parts too.
"""

from __future__ import annotations


def _is_composite(value) -> bool:
    return hasattr(type(value), "_nest_components")


def flatten(structure, expand_composites: bool = False) -> list:
    """The leaves of `structure`, depth first (dict values in sorted-key order)."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure, key=str) for leaf in flatten(structure[key], expand_composites)]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in flatten(item, expand_composites)]
    if expand_composites and _is_composite(structure):
        return [leaf for item in structure._nest_components() for leaf in flatten(item, True)]
    return [structure]


def pack_as(structure, leaves: list, expand_composites: bool = False):
    """`structure` with its leaves replaced, in order, by `leaves`."""
    packed, rest = _pack(structure, list(leaves), 0, expand_composites)
    return packed


def _pack(structure, leaves, position, expand):
    if isinstance(structure, dict):
        out = {}
        for key in sorted(structure, key=str):
            out[key], position = _pack(structure[key], leaves, position, expand)
        return type(structure)((k, out[k]) for k in structure) if type(structure) is not dict else \
            {k: out[k] for k in structure}, position
    if isinstance(structure, (list, tuple)):
        items = []
        for item in structure:
            value, position = _pack(item, leaves, position, expand)
            items.append(value)
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items), position
        return type(structure)(items), position
    if expand and _is_composite(structure):
        parts = []
        for item in structure._nest_components():
            value, position = _pack(item, leaves, position, expand)
            parts.append(value)
        return structure._nest_rebuild(parts), position
    return leaves[position], position + 1
