"""tf.nn.compute_average_loss and scale_regularization_loss: losses scaled for the replicas in sync
(they live here, beside the strategies they ask; the facade puts them in placeflow.nn)."""

from __future__ import annotations

from ..api import math_ops
from ..eager.convert import convert_to_tensor
from . import distribution_context


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (default: this replica's batch times the
    replicas in sync), so summing over replicas gives the global mean."""
    loss = convert_to_tensor(per_example_loss)
    if sample_weight is not None:
        loss = loss * math_ops.cast(sample_weight, loss.dtype)
    if global_batch_size is None:
        replicas = distribution_context.get_strategy().num_replicas_in_sync
        global_batch_size = int(loss.shape[0]) * replicas if len(loss.shape) else replicas
    return math_ops.reduce_sum(loss) / math_ops.cast(global_batch_size, loss.dtype)


def scale_regularization_loss(regularization_loss):
    """The loss divided by the replicas in sync (so summing over replicas counts it once)."""
    loss = math_ops.add_n(regularization_loss) if isinstance(regularization_loss, (list, tuple)) else \
        convert_to_tensor(regularization_loss)
    return loss / float(distribution_context.get_strategy().num_replicas_in_sync)
