"""`tf.__internal__.distribute.interim.maybe_merge_call` (keras backend/tensorflow/optimizer.py: applying
gradients in cross-replica context under a strategy)."""

import types as _types

from ..distribute import distribution_context as strategy_context


def maybe_merge_call(fn, strategy, *args, **kwargs):
    """Run `fn(strategy, *args, **kwargs)` in cross-replica context: through merge_call from a replica."""
    if strategy_context.in_cross_replica_context():
        return fn(strategy, *args, **kwargs)
    return strategy_context.get_replica_context().merge_call(fn, args=args, kwargs=kwargs)


interim = _types.SimpleNamespace(maybe_merge_call=maybe_merge_call)
