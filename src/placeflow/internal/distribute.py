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


def strategy_supports_no_merge_call() -> bool:
    """Whether a replica may update state without merge_call (keras optimizers/loss_scale_optimizer.py): with
    no strategy or one replica, yes; several replicas go through merge_call, as TF's MirroredStrategy does."""
    if not strategy_context.has_strategy():
        return True
    return strategy_context.get_strategy().num_replicas_in_sync == 1


interim.strategy_supports_no_merge_call = strategy_supports_no_merge_call
