"""Keras keyword arguments placeflow does not take: refused by name (NotImplementedError for Keras's own
arguments it lacks, ValueError with Keras's text for unknown ones), never accepted and ignored."""

from __future__ import annotations


def refuse_keywords(kwargs: dict, not_implemented, owner: str, unknown_text: str) -> None:
    """Raise for any entry of `kwargs`: a set argument of `not_implemented`, or an unknown one."""
    missing = {k: v for k, v in kwargs.items() if k in not_implemented and v not in (None, False)}
    if missing:
        raise NotImplementedError(f"{owner}: {missing} is not implemented in placeflow; leave "
                                  f"{', '.join(sorted(missing))} unset.")
    unknown = {k: v for k, v in kwargs.items() if k not in not_implemented}
    if unknown:
        raise ValueError(f"{unknown_text}{unknown}")
