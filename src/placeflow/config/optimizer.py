"""tf.config.optimizer: graph-optimizer options. placeflow has no Grappler and no XLA: its plans always fold
constants and prune to the fetches, and do no other rewrite. An option that matches that is stored and
reported; one that asks for more is refused (never accepted and ignored)."""

from __future__ import annotations

_ALWAYS_ON = {"constant_folding", "dependency_optimization"}  # what placeflow's plan building always does
_KNOWN = _ALWAYS_ON | {"layout_optimizer", "shape_optimization", "remapping", "arithmetic_optimization",
                       "loop_optimization", "function_optimization", "debug_stripper", "disable_model_pruning",
                       "scoped_allocator_optimization", "pin_to_host_optimization", "implementation_selector",
                       "auto_mixed_precision", "disable_meta_optimizer", "min_graph_nodes"}
_options: dict = {}


def set_experimental_options(options: dict) -> None:
    """Store the options placeflow already behaves as; refuse the rewrites it does not do."""
    for key, value in options.items():
        if key not in _KNOWN:
            raise ValueError(f"Unknown graph optimizer option {key!r}; known: {sorted(_KNOWN)}.")
        if key in ("disable_meta_optimizer", "min_graph_nodes"):
            continue  # placeflow has no meta optimizer to disable or to skip small graphs
        if bool(value) != (key in _ALWAYS_ON):
            raise NotImplementedError(f"placeflow has no Grappler: {key}={value!r} is not implemented (it always "
                                      f"folds constants and prunes, and does no other rewrite).")
    _options.update(options)


def get_experimental_options() -> dict:
    """The options set so far (all of which describe what placeflow does anyway)."""
    return dict(_options)


def set_jit(enabled) -> None:
    """XLA: placeflow has none; only False (or None) is accepted."""
    if enabled not in (False, None, ""):
        raise NotImplementedError("placeflow has no XLA: set_jit(True) is not implemented.")


def get_jit() -> bool:
    """False: placeflow never compiles with XLA."""
    return False
