"""Buffer forwarding: a plan node writes its output into an input buffer that nothing else holds.

TensorFlow's kernels call `forward_input_or_allocate_output`: when an input's buffer has a reference
count of one (no other tensor, variable or caller holds it) and matches the output's shape and dtype,
the output takes over that buffer instead of allocating. placeflow does the same with Python's own
reference counts. The plan's static liveness (graph/liveness.py) chooses the nodes and inputs where
an input dies; here, when the step runs, the input is written into only if

- it is an array of the device's array type that owns its memory (`base is None`: not a view), and
- its reference count is exactly that of an array held by nothing but the generated plan line
  passing it (`sole_owner_refs`, measured once on this interpreter with a line of that form).

A view, a variable's value, a caller's feed, a constant, a fetched output or a value captured by
anything else has more references and is never written into.
"""

from __future__ import annotations

from sys import getrefcount

import numpy as np

_sole_refs = None


def forwarding_call(normal, into, positions, array_type=np.ndarray, owns=None, sole=None):
    """A node's callable: `into(out, *args)` writing into the first input at `positions` that only the
    calling plan line holds, else `normal(*args)` (which allocates its output). `owns(array)`, when given,
    replaces the check that an input is a writeable array of `array_type` owning its memory (shape-only
    estimation: runtime/estimating.py). `sole`: the reference count of an input held by nothing but its caller
    when the caller passes values otherwise than a generated plan line does (`sole_refs_when_passed_by`)."""
    sole = sole_owner_refs() if sole is None else sole
    if owns is not None:
        return _make_owned(normal, into, tuple(positions), sole, owns)
    return _make(normal, into, tuple(positions), sole, array_type)


def _make_owned(normal, into, positions, sole, owns):
    def call(*args):
        for position in positions:
            a = args[position]
            if getrefcount(a) == sole and owns(a):
                return into(a, *args)
        return normal(*args)
    return call


def _make(normal, into, positions, sole, array_type):
    def call(*args):
        for position in positions:
            a = args[position]
            if getrefcount(a) == sole and a.__class__ is array_type and a.base is None and _writeable(a):
                return into(a, *args)
        return normal(*args)
    return call


def _writeable(array) -> bool:
    flags = array.flags
    return getattr(flags, "writeable", True)  # CuPy arrays have no read-only flag


def sole_owner_refs() -> int:
    """The reference count `call` sees for an array held only by the generated line that passes it
    (`v1 = N1(v0); del v0`), measured on this interpreter; 0 (never forward) if it cannot be told apart
    from an array with one more owner."""
    global _sole_refs
    if _sole_refs is None:
        _sole_refs = _measure()
    return _sole_refs


_PROBE = "def step(N1, M):\n    v0 = M()\n    v1 = N1(v0); del v0\n    return v1\n"


def sole_refs_when_passed_by(pass_value) -> int:
    """The reference count a forwarding callable sees for an array held only by a caller that passes it as
    `pass_value(call, make)` does (`make()` gives the array, `call` takes it as its one argument); 0 (never
    forward) if that cannot be told apart from an array with one more owner."""
    for sole in range(1, 16):
        if _forwarded(sole, False, pass_value):
            return 0 if _forwarded(sole, True, pass_value) else sole
    return 0


def _forwarded(sole: int, extra_owner: bool, pass_value) -> bool:
    held = []
    call = _make(lambda *a: False, lambda out, *a: True, (0,), sole, np.ndarray)

    def make():
        array = np.empty(4)
        if extra_owner:
            held.append(array)
        return array
    return pass_value(call, make)


def _generated_line(call, make):
    env: dict = {}
    exec(compile(_PROBE, "<placeflow forwarding probe>", "exec"), env)  # noqa: S102 - a fixed probe
    return env["step"](call, make)


def _measure() -> int:
    return sole_refs_when_passed_by(_generated_line)


def value_held_only_by(holder) -> bool:
    """Whether nothing but `holder._value` references that array (no live read of a variable: its update
    may write in place, TensorFlow's copy-on-write rule)."""
    return getrefcount(holder._value) == _attribute_refs()


_attribute_sole = None


def _attribute_refs() -> int:
    global _attribute_sole
    if _attribute_sole is None:
        class Probe:
            pass
        probe = Probe()
        probe._value = np.empty(1)
        _attribute_sole = getrefcount(probe._value)
    return _attribute_sole


def item_held_only_by(mapping, key) -> bool:
    """Whether nothing but `mapping[key]` references that array (a TF1 variable's value in its session)."""
    return getrefcount(mapping[key]) == _item_refs()


_item_sole = None


def _item_refs() -> int:
    global _item_sole
    if _item_sole is None:
        probe = {0: np.empty(1)}
        _item_sole = getrefcount(probe[0])
    return _item_sole
