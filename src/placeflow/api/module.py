"""tf.Module: a container that finds the variables and submodules assigned to its attributes.

Tracking walks the object's attributes when asked (not when assigned), so a list that is filled
after assignment is still seen. It descends into lists, tuples and dicts and into nested modules,
never into other objects. Order follows TensorFlow's: attributes by name, dict entries by key.
"""

from __future__ import annotations

import functools
import re

from ..eager.variables import Variable
from ..framework.tracking import AutoTrackable
from ..graph.v1_api import name_scope as _name_scope

_VALID_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-/>]*$")


def tracked_leaves(obj, is_leaf, *, sort=True, ignore=frozenset()):
    """The objects satisfying `is_leaf` in `obj`'s attributes, containers walked, first occurrence kept."""
    attributes = vars(obj)
    names = sorted(attributes) if sort else list(attributes)
    seen, out = {id(obj)}, []
    for name in names:
        if name not in ignore:
            _collect(attributes[name], is_leaf, sort, seen, out)
    return out


def _collect(value, is_leaf, sort, seen, out) -> None:
    if isinstance(value, dict):
        keys = sorted(value, key=repr) if sort else list(value)
        for key in keys:
            _collect(value[key], is_leaf, sort, seen, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, is_leaf, sort, seen, out)
    elif is_leaf(value) and id(value) not in seen:
        seen.add(id(value))
        out.append(value)


def _flatten_module(module, predicate, seen, out) -> None:
    leaves = tracked_leaves(module, lambda value: True, ignore=module._TF_MODULE_IGNORED_PROPERTIES)
    children = []
    for leaf in leaves:
        if id(leaf) in seen:
            continue
        seen.add(id(leaf))
        if predicate(leaf):
            out.append(leaf)
        if isinstance(leaf, Module):
            children.append(leaf)
    for child in children:
        _flatten_module(child, predicate, seen, out)


def _is_variable(value) -> bool:
    return isinstance(value, Variable)


class Module(AutoTrackable):
    """Base class for objects that own variables and other modules (as tf.Module); it tracks what is
    assigned to its attributes, so a tf.train.Checkpoint reaches them."""

    _TF_MODULE_IGNORED_PROPERTIES = frozenset()

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not _VALID_NAME.match(name):
            raise ValueError(f"'{name}' is not a valid module name. Module names must be valid Python "
                             f"identifiers (e.g. a valid class name).")
        self._name = name

    @property
    def name(self) -> str:
        """The module's name (the snake-cased class name unless given)."""
        return self._name

    @property
    def name_scope(self):
        """A name scope named after the module, for ops built in its methods."""
        return _name_scope(self._name)

    @property
    def variables(self) -> tuple:
        """Every variable of this module and its submodules, each once."""
        return tuple(self._flatten(_is_variable))

    @property
    def trainable_variables(self) -> tuple:
        """The variables with trainable=True."""
        return tuple(v for v in self.variables if v.trainable)

    @property
    def non_trainable_variables(self) -> tuple:
        """The variables with trainable=False."""
        return tuple(v for v in self.variables if not v.trainable)

    @property
    def submodules(self) -> tuple:
        """Every module inside this one: each module's own attributes first, then theirs, recursively."""
        return tuple(self._flatten(_is_module))

    def _flatten(self, predicate) -> list:
        out: list = []
        _flatten_module(self, predicate, {id(self)}, out)
        return out

    @classmethod
    def with_name_scope(cls, method):
        """Decorate a method so the ops it builds are named under the module's name scope."""
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object named {self._name!r}>"


def _is_module(value) -> bool:
    return isinstance(value, Module)


def _camel_to_snake(name: str) -> str:
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
