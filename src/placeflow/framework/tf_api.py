"""TensorFlow's public names that placeflow lacks are refused by name, never with AttributeError.

`tf_api_names.txt` (written by tests/api/record_tf_api.py from TensorFlow 2.21) lists every public name.
`install()` gives each placeflow namespace that mirrors a TensorFlow module a module `__getattr__` fallback:
a listed name it lacks resolves to a refusal (a function, or a class for TensorFlow's classes, so
`isinstance` checks keep working) that raises NotImplementedError naming it when used, and a TensorFlow
module placeflow lacks (tf.audio, tf.io, ...) is a namespace of such refusals. Names TensorFlow does not have
still raise AttributeError."""

from __future__ import annotations

import difflib
import pathlib
import sys
import types

_LISTING = pathlib.Path(__file__).with_name("tf_api_names.txt")
_SKIPPED = ("tf.raw_ops.",)  # raw ops are refused by placeflow.raw_ops itself, listing those it has


def listed_kinds() -> dict:
    """TensorFlow 2.21's public names ('tf.math.add') and their kinds ('module', 'class', 'function', ...)."""
    lines = _LISTING.read_text(encoding="utf-8").splitlines()
    return dict(line.split(" ", 1) for line in lines if line and not line.startswith("#"))


def is_refusal(value) -> bool:
    """Whether `value` is one of placeflow's by-name refusals (not an implementation)."""
    return bool(getattr(value, "_placeflow_refusal", False))


def _message(qualified: str, namespace) -> str:
    name = qualified.rpartition(".")[2]
    public = [n for n in vars(namespace) if not n.startswith("_")] if namespace is not None else []
    similar = difflib.get_close_matches(name, public, n=3, cutoff=0.6)
    hint = f" Similar names placeflow has here: {', '.join(similar)}." if similar else ""
    return f"{qualified} is not implemented in placeflow (TensorFlow 2.21 has it).{hint}"


def refusal(qualified: str, is_class: bool, namespace=None):
    """A stand-in for TensorFlow's `qualified` that raises NotImplementedError naming it when used."""
    message = _message(qualified, namespace)
    name = qualified.rpartition(".")[2]
    if is_class:
        def __init__(self, *args, **kwargs):
            raise NotImplementedError(message)

        def __init_subclass__(cls, **kwargs):
            raise NotImplementedError(message)
        stand_in = type(name, (), {"__init__": __init__, "__init_subclass__": classmethod(__init_subclass__),
                                   "__doc__": f"Not implemented in placeflow ({qualified}).",
                                   "_placeflow_refusal": True})
        return stand_in

    def refuse(*args, **kwargs):
        raise NotImplementedError(message)
    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = f"Not implemented in placeflow ({qualified})."
    refuse._placeflow_refusal = True
    return refuse


def _children(kinds: dict) -> dict:
    """{module path: {child name: is_module}} from the listing."""
    tree: dict = {}
    for name, kind in kinds.items():
        parent, _, child = name.rpartition(".")
        tree.setdefault(parent, {})[child] = kind == "module"
    return tree


def install(root) -> None:
    """Give `root` (the placeflow package) and its namespaces refusals for the TensorFlow names they lack."""
    kinds = {name: kind for name, kind in listed_kinds().items() if not name.startswith(_SKIPPED)}
    classes = {name for name, kind in kinds.items() if kind == "class"}
    _install_namespace(root, "tf", _children(kinds), classes)


def _install_namespace(namespace, path: str, tree: dict, classes: set) -> None:
    children = tree.get(path, {})
    for child, is_module in children.items():
        if child in vars(namespace) or not is_module:
            continue
        stand_in = types.ModuleType(f"{getattr(namespace, '__name__', 'placeflow')}.{child}",
                                    f"Not implemented in placeflow ({path}.{child}): every name refuses.")
        setattr(namespace, child, stand_in)
    for child, is_module in children.items():
        value = vars(namespace).get(child)
        if is_module and isinstance(value, types.ModuleType) and value.__name__.startswith("placeflow"):
            _install_namespace(value, f"{path}.{child}", tree, classes)
        elif is_module and value is not None and not isinstance(value, types.ModuleType):
            _fill_object(value, f"{path}.{child}", tree, classes)  # a namespace object (a class or instance)
    _add_fallback(namespace, path, {c for c, is_module in children.items() if not is_module}, classes)


def _fill_object(namespace, path: str, tree: dict, classes: set) -> None:
    """Refusals set as attributes of a namespace that is an object, not a module (no module __getattr__)."""
    for child, is_module in tree.get(path, {}).items():
        if not is_module and not hasattr(namespace, child):
            try:
                setattr(namespace, child, refusal(f"{path}.{child}", f"{path}.{child}" in classes))
            except (AttributeError, TypeError):
                pass  # a namespace that takes no attributes: its names stay AttributeError (the test lists them)


def _add_fallback(namespace, path: str, listed: set, classes: set) -> None:
    previous = vars(namespace).get("__getattr__")
    made: dict = {}

    def __getattr__(name):
        if name in listed:
            if name not in made:
                made[name] = refusal(f"{path}.{name}", f"{path}.{name}" in classes, namespace)
            return made[name]
        if previous is not None:
            return previous(name)
        raise AttributeError(f"module {getattr(namespace, '__name__', path)!r} has no attribute {name!r}")
    namespace.__getattr__ = __getattr__


def installed_on(module_name: str) -> bool:
    """Whether the fallback is installed on the loaded module `module_name` (for tests)."""
    module = sys.modules.get(module_name)
    return module is not None and "__getattr__" in vars(module)
