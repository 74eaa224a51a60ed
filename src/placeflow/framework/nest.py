"""Flattening nested fetch and output structures (lists, tuples, namedtuples, dicts) and packing them back.

With `expand_composites=True`, composite values (those defining `_nest_components` and
`_nest_rebuild`, such as distribute's PerReplica) are expanded into their parts too.
"""

from __future__ import annotations


def _is_composite(value) -> bool:
    return hasattr(type(value), "_nest_components")


def _is_sequence(value) -> bool:
    """A list or tuple nest descends into; a TensorShape (a tuple subclass) is a leaf, as in TensorFlow."""
    if not isinstance(value, (list, tuple)):
        return False
    from .tensor_shape import TensorShape
    return not isinstance(value, TensorShape)


def flatten(structure, expand_composites: bool = False) -> list:
    """The leaves of `structure`, depth first (dict values in sorted-key order)."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure, key=str) for leaf in flatten(structure[key], expand_composites)]
    if _is_sequence(structure):
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
    if _is_sequence(structure):
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


# -- tf.nest: the public names over the same flattening --------------------------------------------------------

def is_nested(seq) -> bool:
    """Whether `seq` is a list, tuple or dict (not a leaf; a TensorShape is a leaf)."""
    return isinstance(seq, dict) or _is_sequence(seq)


def pack_sequence_as(structure, flat_sequence, expand_composites: bool = False):
    """`structure` rebuilt with the leaves of `flat_sequence`, in order (counts must match)."""
    flat_sequence = list(flat_sequence)
    count = len(flatten(structure, expand_composites))
    if count != len(flat_sequence):
        raise ValueError(f"The target structure is of type {type(structure)}\n  {structure!r}\nHowever the input "
                         f"is a sequence ({type(flat_sequence)}) of length {len(flat_sequence)}.\n  "
                         f"{flat_sequence!r}\nnest cannot guarantee that it is safe to map one to the other.")
    return pack_as(structure, flat_sequence, expand_composites)


def assert_same_structure(nest1, nest2, check_types: bool = True, expand_composites: bool = False) -> None:
    """ValueError (TypeError for differing types) unless both have the same nesting."""
    if is_nested(nest1) != is_nested(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: {nest1!r}"
                         f"\n\nSecond structure: {nest2!r}")
    if not is_nested(nest1):
        return
    if check_types and type(nest1) is not type(nest2):
        raise TypeError(f"The two structures don't have the same sequence type. Input structure has type "
                        f"{type(nest1)}, while shallow structure has type {type(nest2)}.")
    if isinstance(nest1, dict):
        if sorted(nest1, key=str) != sorted(nest2, key=str):
            raise ValueError(f"The two dictionaries don't have the same set of keys. First structure has keys "
                             f"{sorted(nest1, key=str)}, while second structure has keys {sorted(nest2, key=str)}.")
        pairs = [(nest1[k], nest2[k]) for k in sorted(nest1, key=str)]
    else:
        if len(nest1) != len(nest2):
            raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                             f"{nest1!r}\n\nSecond structure: {nest2!r}")
        pairs = list(zip(nest1, nest2))
    for a, b in pairs:
        assert_same_structure(a, b, check_types, expand_composites)


def map_structure(func, *structures, check_types: bool = True, expand_composites: bool = False):
    """func applied to the corresponding leaves of `structures`, packed like the first."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types, expand_composites)
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_as(structures[0], [func(*leaves) for leaves in zip(*flats)], expand_composites)
