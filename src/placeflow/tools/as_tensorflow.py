"""Make `import tensorflow` mean placeflow in this process (what `placeflow run` and `tf.keras` rely on).

`install()` adds one import finder. It answers `tensorflow` with the placeflow package and
`tensorflow.a.b` with `placeflow.a.b` (a module) or, where TensorFlow's path is a namespace that
placeflow keeps as an attribute (`tensorflow.summary`), with that attribute. It never touches a real
TensorFlow on disk: if one is already imported in this process, `install()` refuses, saying so;
otherwise the real one stays installed and unimported for the life of the process.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types

_ALIAS = "tensorflow"
_PACKAGE = __name__.split(".")[0]  # "placeflow"


def install() -> None:
    """Route `import tensorflow` and `import tensorflow.x.y` to placeflow for the rest of this process."""
    current = sys.modules.get(_ALIAS)
    if current is not None and current is not sys.modules[_PACKAGE]:
        raise ImportError(
            f"a real TensorFlow is already imported in this process ({getattr(current, '__file__', current)!r}); "
            "placeflow can stand in for `tensorflow` only before it is imported: import placeflow's Keras "
            "(tf.keras) or run the program with `placeflow run script.py` before anything imports tensorflow")
    if not any(isinstance(finder, _TensorFlowFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _TensorFlowFinder())
    sys.modules[_ALIAS] = sys.modules[_PACKAGE]


def installed() -> bool:
    """Whether `tensorflow` means placeflow in this process."""
    return sys.modules.get(_ALIAS) is sys.modules.get(_PACKAGE)


def _resolve(fullname: str):
    """The placeflow module or namespace object that TensorFlow's `fullname` names, or None."""
    rest = fullname[len(_ALIAS):].lstrip(".")
    target = f"{_PACKAGE}.{rest}" if rest else _PACKAGE
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as error:
        if error.name is None or not target.startswith(error.name):
            raise
    parent_name, _, attribute = fullname.rpartition(".")
    parent = sys.modules.get(parent_name) or _resolve(parent_name)
    value = getattr(parent, attribute, None) if parent is not None else None
    return value if isinstance(value, types.ModuleType) or _is_namespace(value) else None


def _is_namespace(value) -> bool:
    return value is not None and not callable(value) and hasattr(value, "__dict__")


class _TensorFlowFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `tensorflow[.x]` as the placeflow module that stands for it."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + "."):
            return None
        module = _resolve(fullname)
        if module is None:
            return None
        spec = importlib.util.spec_from_loader(fullname, self)
        spec.loader_state = module
        return spec

    def create_module(self, spec):
        module = spec.loader_state
        spec.loader_state = (module, getattr(module, "__spec__", None))
        return module

    def exec_module(self, module):
        # importlib stamped the alias's spec on the shared module: give it back its own.
        original_spec = module.__spec__.loader_state[1]
        try:
            module.__spec__ = original_spec
        except AttributeError:
            pass
