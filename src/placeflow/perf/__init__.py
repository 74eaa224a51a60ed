"""placeflow.perf: device performance models and the cost of ops, copies and all-reduces on them.

The names below load their module on first use, so importing `placeflow.perf.models` (what configuration and
placement need) does not load the op-cost formulas. Models are attached to devices with
`PLACEFLOW_SIMULATED_GPUS=8:H100` or `tf.config.experimental.set_performance_model` (docs/performance-models.md).
"""

import importlib

_HOME = {
    **dict.fromkeys(("PRESETS", "DeviceModel", "Link", "custom", "get_performance_model", "link_between",
                     "model_of", "preset", "set_performance_model"), "models"),
    **dict.fromkeys(("Cost", "all_reduce_time", "op_cost", "op_time", "transfer_time"), "op_costs"),
}
__all__ = sorted(_HOME)


def __getattr__(name: str):
    """Load the module that defines `name` (placeflow.perf.models or placeflow.perf.op_costs)."""
    if name not in _HOME:
        raise AttributeError(f"module 'placeflow.perf' has no attribute {name!r}; it has {', '.join(__all__)}.")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)


def __dir__():
    return sorted(set(globals()) | set(__all__))
