"""The name scope eager variables are made under (TF 2's eager `name_scope`: 'a/b/' prefixes their names)."""

from __future__ import annotations

import contextlib
import contextvars

_EAGER_SCOPE = contextvars.ContextVar("placeflow_eager_name_scope", default="")


def eager_scope() -> str:
    """The name scope eager variables are created under now ('a/b/'; '' at the top)."""
    return _EAGER_SCOPE.get()


@contextlib.contextmanager
def eager_name_scope(name):
    """Enter `name` under the current scope ('' or None: the top; a name ending in '/': that whole scope)."""
    if not name:
        scope = ""
    elif name.endswith("/"):
        scope = name
    else:
        scope = f"{_EAGER_SCOPE.get()}{name}/"
    token = _EAGER_SCOPE.set(scope)
    try:
        yield scope
    finally:
        _EAGER_SCOPE.reset(token)
