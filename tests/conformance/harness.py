"""Run the cases of a programs module and describe each outcome as JSON (a value, or the error class)."""

import numpy as np


def cases(module) -> dict:
    """{name: function} for every `case_*` function of `module`, in definition order."""
    return {name[len("case_"):]: fn for name, fn in vars(module).items() if name.startswith("case_")}


def outcome(fn, tf, env):
    """{'value': ...} or {'raises': error class name}."""
    try:
        value = fn(tf, env)
    except Exception as error:  # noqa: BLE001 - the class is the recorded outcome
        return {"raises": type(error).__name__}
    return {"value": _plain(value)}


def run_all(module, tf, env, single_env=None, isolated_runner=None) -> dict:
    """The outcome of every case, by name (cases marked single_replica_reference run in `single_env`; cases
    marked isolated run through `isolated_runner(name)` when one is given, e.g. in a fresh process)."""
    results = {}
    for name, fn in cases(module).items():
        if isolated_runner is not None and getattr(fn, "isolated", False):
            results[name] = isolated_runner(name)
        else:
            results[name] = outcome(fn, tf, single_env if getattr(fn, "single_replica_reference", False) else env)
    return results


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
