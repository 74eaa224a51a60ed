"""`tensorflow.python.ops.math_ops.is_nan` (keras callbacks/terminate_on_nan.py and trainer NaN checks)."""

from ...api.math import is_nan  # noqa: F401
