"""Shim for tensorflow.python.framework.combinations: combine/times/generate/NamedObject.

`generate` makes one parameterized test per combination, as TF does. A combination with mode="graph" or
tf_api_version=1 is reported out of scope (TF1 graph mode or the TF1 API); `mode` and `tf_api_version` are
not passed to the test, the other parameters are.
"""

from __future__ import annotations

import collections
import functools
import itertools
import re
import unittest

from absl.testing import parameterized

from .testutil import OUT_OF_SCOPE_PREFIX

_CONTROL_KEYS = ("mode", "tf_api_version")


class NamedObject:
    """A value shown under `name` in the test's name (TF's combinations.NamedObject)."""

    def __init__(self, name, obj):
        self._name, self._obj = name, obj

    def __getattr__(self, name):
        return getattr(self._obj, name)

    def __call__(self, *args, **kwargs):
        return self._obj(*args, **kwargs)

    def __iter__(self):
        return iter(self._obj)

    def __repr__(self):
        return self._name


def combine(**kwargs):
    """Every combination of the keyword arguments' values (a list value means "each of these")."""
    if not kwargs:
        return [collections.OrderedDict()]
    keys = sorted(kwargs)
    values = [value if isinstance(value, list) else [value] for value in (kwargs[key] for key in keys)]
    return [collections.OrderedDict(zip(keys, chosen)) for chosen in itertools.product(*values)]


def times(*combined):
    """The product of several combine() results; their keys must not overlap."""
    result = combined[0]
    for other in combined[1:]:
        merged = []
        for left, right in itertools.product(result, other):
            overlap = set(left) & set(right)
            if overlap:
                raise ValueError(f"combinations.times: keys {sorted(overlap)} appear on both sides")
            merged.append(collections.OrderedDict(sorted({**left, **right}.items())))
        result = merged
    return result


def _name(combination) -> str:
    parts = [f"{key}_{value!r}" if not isinstance(value, (str, int, float)) else f"{key}_{value}"
             for key, value in combination.items()]
    return "_test_" + re.sub(r"\W+", "", "_".join(parts).replace(" ", "").replace(".", ""))


def generate(combinations, test_combinations=None):
    """One test per combination; graph-mode and TF1-API combinations are out of scope."""
    cases = []
    seen = collections.Counter()
    for combination in combinations:
        name = _name(combination)
        seen[name] += 1
        if seen[name] > 1:
            name = f"{name}_{seen[name]}"
        cases.append(dict(testcase_name=name, _combination=combination))

    def decorate(test):
        @functools.wraps(test)
        def run(self, _combination):
            mode = _combination.get("mode", "eager")
            api = _combination.get("tf_api_version", 2)
            if mode != "eager":
                raise unittest.SkipTest(OUT_OF_SCOPE_PREFIX + f"TF graph mode (combinations mode={mode!r})")
            if api != 2:
                raise unittest.SkipTest(OUT_OF_SCOPE_PREFIX + f"the TF1 API (combinations tf_api_version={api})")
            arguments = {k: v for k, v in _combination.items() if k not in _CONTROL_KEYS}
            return test(self, **arguments)
        return parameterized.named_parameters(*cases)(run)
    return decorate
