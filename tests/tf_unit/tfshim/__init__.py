"""`tfshim`: TensorFlow's internal test-time modules (`tensorflow.python.*`) rebuilt from its public API.

The harness rewrites `tensorflow.python.X` to `tfshim.X` in the test files it runs, and `install()` adds the
import finder that answers every `tfshim.X`: with an implementation module (test_util, combinations, tf.data's
test bases, eager.context), with an alias module whose attributes resolve to public `tensorflow` names
(table.py), with a module whose names are out of scope (TF internals without a public equivalent: using one
raises OutOfScope), or with ModuleNotFoundError naming the unmapped internal module.

Everything here uses only `import tensorflow as tf`, so the same shim runs the tests on placeflow (where
`tensorflow` means placeflow) and on TensorFlow itself (the TF column of the table).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types

PREFIX = "tfshim"
REAL = (PREFIX + "._impl", PREFIX + ".table")


class OutOfScope(Exception):
    """A test used a TensorFlow internal with no public equivalent (graph internals, pywrap, TF1 only, ...)."""


class MissingPublicName(AttributeError):
    """The public TensorFlow name a shim attribute stands for does not exist in the `tensorflow` imported."""


class OutOfScopeName:
    """Stands for an internal name the tests import at module level; any use raises OutOfScope."""

    def __init__(self, qualified: str, reason: str):
        self._qualified, self._reason = qualified, reason

    def _refuse(self, *args, **kwargs):
        raise OutOfScope(f"tensorflow.python.{self._qualified} is out of scope: {self._reason}")

    __call__ = __int__ = __float__ = __index__ = __bool__ = __iter__ = __enter__ = _refuse

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._refuse()

    def __repr__(self):
        return f"<out of scope: tensorflow.python.{self._qualified}>"


class MissingName:
    """Stands for a public name the imported `tensorflow` lacks; any use raises MissingPublicName."""

    def __init__(self, qualified: str, tried: list):
        self._qualified, self._tried = qualified, tried

    def _refuse(self, *args, **kwargs):
        raise MissingPublicName(f"missing public name {self._tried[0]} (for tensorflow.python.{self._qualified}; "
                                f"tried {', '.join(self._tried)})")

    __call__ = __int__ = __float__ = __index__ = __bool__ = __iter__ = __enter__ = _refuse

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._refuse()

    def __mro_entries__(self, bases):
        self._refuse()

    def __repr__(self):
        return f"<missing: {self._tried[0]}>"


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers `tfshim.X` with the module table.py says stands for `tensorflow.python.X`."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != PREFIX and not fullname.startswith(PREFIX + "."):
            return None
        if fullname == PREFIX or fullname.startswith(REAL):
            return None  # this package's own modules (the table and the implementations), found normally
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec):
        from . import table
        return table.build(spec.name[len(PREFIX) + 1:])

    def exec_module(self, module):
        pass


def install() -> None:
    """Answer `tfshim.X` imports in this process (idempotent)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def public(path: str):
    """The object at a dotted public path ('tf.math.add'), or raise AttributeError."""
    import tensorflow as tf
    parts = path.split(".")
    value = tf if parts[0] == "tf" else importlib.import_module(f"{__name__}._impl.{parts[0]}")
    for part in parts[1:]:
        value = getattr(value, part)
    return value


__all__ = ["OutOfScope", "MissingPublicName", "OutOfScopeName", "MissingName", "install", "public", "types"]
