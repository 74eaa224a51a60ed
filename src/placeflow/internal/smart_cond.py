"""`tf.__internal__.smart_cond.smart_cond` (keras backend/tensorflow/core.py `cond`, tf_dataset_adapter.py)."""

from ..api.control_flow import cond
from ..api.array_ops import get_static_value


def smart_cond(pred, true_fn=None, false_fn=None, name=None):
    """Call `true_fn` or `false_fn` now when `pred` is known while building, else build a `tf.cond`."""
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError(f"smart_cond needs callable true_fn and false_fn; got {true_fn!r} and {false_fn!r}")
    known = pred if isinstance(pred, bool) else get_static_value(pred)
    if known is not None:
        return true_fn() if bool(known) else false_fn()
    return cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
