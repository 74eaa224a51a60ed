"""The list and dict wrappers of attribute tracking (TF's ListWrapper and _DictWrapper).

A list or dict assigned to an attribute of an AutoTrackable (tf.Module, Keras layers, tf.train.Checkpoint)
is stored wrapped; the wrapper is still a list or dict, and its trackable elements are dependencies named
by index ("0", "1", ...) or by key, so a checkpoint reaches the variables inside. Elements added later are
seen (a checkpoint restored earlier fills them as they arrive). A tuple holding trackables is kept as the
tuple; a view of it stands in the dependency list."""

from __future__ import annotations

import collections

from .tracking import NoDependency, Trackable


def wrap_or_unwrap(value):
    """A NoDependency unwrapped; an exact list, dict or OrderedDict wrapped; anything else as it is."""
    if isinstance(value, NoDependency):
        return value.value
    if isinstance(value, Trackable):
        return value
    if type(value) is list:
        return ListWrapper(value)
    if type(value) in (dict, collections.OrderedDict):
        return _DictWrapper(value)
    return value


def _child(value):
    """The dependency an element contributes (a Trackable, or a tuple's view), or None."""
    if isinstance(value, Trackable):
        return value
    if isinstance(value, tuple):
        return tuple_view(value)
    return None


class ListWrapper(Trackable, list):
    """A list whose trackable elements are dependencies named by their index."""

    def __init__(self, wrapped_list=()):
        list.__init__(self, (wrap_or_unwrap(v) for v in wrapped_list))

    def _trackable_children(self, save_type="checkpoint", **kwargs) -> dict:
        """{str(index): element} for the trackable elements (nested lists and dicts wrapped in place)."""
        children = {}
        for index in range(len(self)):
            value = list.__getitem__(self, index)
            wrapped = wrap_or_unwrap(value)
            if wrapped is not value:
                list.__setitem__(self, index, wrapped)
            child = _child(wrapped)
            if child is not None:
                children[str(index)] = child
        return children

    def _added(self, start: int) -> None:
        pending = self.__dict__.get("_self_pending_restores")
        if not pending:
            return
        for index in range(start, len(self)):
            child = _child(wrap_or_unwrap(list.__getitem__(self, index)))
            if child is not None and str(index) in pending:
                for restore in pending.pop(str(index)):
                    restore(child)

    def append(self, value):
        """list.append, restoring the element if a checkpoint waits for it."""
        list.append(self, wrap_or_unwrap(value))
        self._added(len(self) - 1)

    def extend(self, values):
        """list.extend, restoring the elements a checkpoint waits for."""
        start = len(self)
        list.extend(self, (wrap_or_unwrap(v) for v in values))
        self._added(start)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def insert(self, index, value):
        """list.insert."""
        list.insert(self, index, wrap_or_unwrap(value))
        self._added(0)

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            list.__setitem__(self, index, [wrap_or_unwrap(v) for v in value])
        else:
            list.__setitem__(self, index, wrap_or_unwrap(value))
        self._added(0)

    def __copy__(self):
        return ListWrapper(list(self))

    def __deepcopy__(self, memo):
        import copy
        return ListWrapper(copy.deepcopy(list(self), memo))

    def __reduce__(self):
        return list, (list(self),)

    def __repr__(self) -> str:
        return f"ListWrapper({list.__repr__(self)})"


class _DictWrapper(Trackable, dict):
    """A dict whose trackable values are dependencies named by their (string) keys."""

    def __init__(self, wrapped_dict=None, **entries):
        dict.__init__(self, {k: wrap_or_unwrap(v) for k, v in {**(wrapped_dict or {}), **entries}.items()})

    def _trackable_children(self, save_type="checkpoint", **kwargs) -> dict:
        """{key: value} for the trackable values; a non-string key over one is refused, as TF refuses it."""
        children = {}
        for key in list(dict.keys(self)):
            value = dict.__getitem__(self, key)
            wrapped = wrap_or_unwrap(value)
            if wrapped is not value:
                dict.__setitem__(self, key, wrapped)
            child = _child(wrapped)
            if child is None:
                continue
            if not isinstance(key, str):
                raise ValueError(f"Unable to save the object {self!r} (a dictionary wrapper constructed "
                                 "automatically on attribute assignment). The wrapped dictionary contains a "
                                 "non-string key which maps to a trackable object or mutable data structure.\n\n"
                                 "If you don't need this dictionary checkpointed, wrap it in a non-trackable "
                                 "object; it will be subsequently ignored.")
            children[key] = child
        return children

    def _added(self, key) -> None:
        pending = self.__dict__.get("_self_pending_restores")
        if pending and key in pending:
            child = _child(dict.__getitem__(self, key))
            if child is not None:
                for restore in pending.pop(key):
                    restore(child)

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, wrap_or_unwrap(value))
        self._added(key)

    def update(self, *args, **kwargs):
        """dict.update, restoring the values a checkpoint waits for."""
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        """dict.setdefault."""
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def __copy__(self):
        return _DictWrapper(dict(self))

    def __deepcopy__(self, memo):
        import copy
        return _DictWrapper(copy.deepcopy(dict(self), memo))

    def __reduce__(self):
        return dict, (dict(self),)

    def __repr__(self) -> str:
        return f"DictWrapper({dict.__repr__(self)})"


class _TupleView(Trackable):
    """Stands for a tuple holding trackables: its elements are dependencies named by index."""

    def __init__(self, value: tuple):
        self._self_tuple = value

    def _trackable_children(self, save_type="checkpoint", **kwargs) -> dict:
        children = {}
        for index, value in enumerate(self._self_tuple):
            child = _child(value)
            if child is not None:
                children[str(index)] = child
        return children


def tuple_view(value: tuple):
    """A trackable view of `value` when it holds a trackable (at any depth of tuples), else None."""
    if any(isinstance(v, Trackable) or (isinstance(v, tuple) and tuple_view(v) is not None) for v in value):
        return _TupleView(value)
    return None
