"""tf.compat.forward_compatible / forward_compatibility_horizon: whether code may use features newer than a
date. TensorFlow 2.21's horizon is 2026-01-16, moved later by $TF_FORWARD_COMPATIBILITY_DELTA_DAYS; a horizon
set before it is ignored with a warning, as in TensorFlow. placeflow has a single version of each op, so
the answer changes no op's behaviour: it is there for code that branches on it."""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import threading

HORIZON = datetime.date(2026, 1, 16)
DELTA_DAYS_VARIABLE = "TF_FORWARD_COMPATIBILITY_DELTA_DAYS"

_lock = threading.Lock()
_current = [HORIZON]


def _default() -> datetime.date:
    delta = os.environ.get(DELTA_DAYS_VARIABLE)
    if not delta:
        return HORIZON
    try:
        return HORIZON + datetime.timedelta(days=int(delta))
    except ValueError:
        raise ValueError(f"${DELTA_DAYS_VARIABLE}={delta!r} is not a whole number of days") from None


def _set(date: datetime.date) -> None:
    if date < HORIZON:
        logging.getLogger("placeflow").warning(
            "Trying to set the forward compatibility date to the past date %s. This will be ignored.", date)
        return
    with _lock:
        _current[0] = date


def forward_compatible(year: int, month: int, day: int) -> bool:
    """Whether the forward-compatibility horizon is after the given date."""
    return _current[0] > datetime.date(year, month, day)


@contextlib.contextmanager
def forward_compatibility_horizon(year: int, month: int, day: int):
    """Within the block, the horizon is the given date (ignored, with a warning, if it is before TF 2.21's)."""
    _set(datetime.date(year, month, day))
    try:
        yield
    finally:
        _set(_default())


_set(_default())
