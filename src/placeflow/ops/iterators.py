"""Dataset iterators as ops, so a loop over a tf.data dataset inside a graph pulls its elements when it runs.

`_IteratorStart` begins a fresh pass over the dataset (attribute `dataset`: anything with `_make_iterator()`)
and returns a token; `_IteratorGetNext(token)` returns (has_value, *the element's flat parts), or False and
empty parts at the end. A process keeps at most MAX_LIVE unfinished passes (loops left by `break`); the
oldest is dropped first, so abandoned passes never accumulate.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import FailedPreconditionError, InvalidArgumentError
from .registry import CHEAP, NOT_DIFFERENTIABLE, define

MAX_LIVE = 64
_live: OrderedDict = OrderedDict()  # token -> iterator of host elements
_lock = threading.Lock()
_tokens = itertools.count(1)


@define("_IteratorStart", {d.int64}, gpu=(), shape=lambda shapes, attrs: (), grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=lambda dtype, attrs: d.int64)
def _start(xp, dataset=None, flatten=None, _stateful=True):
    """A new pass over `dataset`: its token."""
    iterator = iter(dataset._make_iterator())
    token = next(_tokens)
    with _lock:
        _live[token] = iterator
        while len(_live) > MAX_LIVE:
            _live.popitem(last=False)
    return np.array(token, np.int64)


def _next_shapes(shapes, attrs):
    return [()] + [shape for _, shape in attrs["specs"]]


def _next_dtypes(dtype, attrs):
    return [d.bool] + [spec_dtype for spec_dtype, _ in attrs["specs"]]


@define("_IteratorGetNext", {d.int64}, gpu=(), shape=_next_shapes, grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=_next_dtypes)
def _get_next(xp, token, specs=(), flatten=None, _stateful=True):
    """(True, *the next element's parts), or (False, *empty parts) once the pass is over."""
    key = int(np.asarray(token))
    with _lock:
        iterator = _live.get(key)
    if iterator is None:
        raise FailedPreconditionError(None, None, (
            f"The dataset pass {key} was dropped: more than {MAX_LIVE} loops over datasets were left unfinished "
            f"at once. Finish loops over datasets (or fewer at a time)."))
    try:
        element = next(iterator)
    except StopIteration:
        with _lock:
            _live.pop(key, None)
        return (np.array(False),) + tuple(np.zeros([s or 0 for s in shape], dtype.numpy_dtype)
                                          for dtype, shape in specs)
    parts = [np.asarray(part) for part in flatten(element)]
    for index, (part, (dtype, shape)) in enumerate(zip(parts, specs)):
        if part.dtype != dtype.numpy_dtype or part.ndim != len(shape) or any(
                want is not None and want != got for want, got in zip(shape, part.shape)):
            raise InvalidArgumentError(None, None, (
                f"Dataset element part {index} is {part.dtype.name} of shape {list(part.shape)}, but the dataset's "
                f"element_spec says {dtype.name} of shape {list(shape)}."))
    return (np.array(True),) + tuple(parts)
