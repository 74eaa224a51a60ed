"""tf.nn's remaining losses: log_poisson_loss and weighted_cross_entropy_with_logits, in TensorFlow's stable forms."""

from __future__ import annotations

import math

from ..eager.convert import convert_to_tensor
from . import array_ops, math_ops


def _same_shape(labels, logits, what_labels: str, what_logits: str):
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(f"{what_logits} and {what_labels} must have the same shape ({tuple(logits.shape)} vs "
                         f"{tuple(labels.shape)})")


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets; with compute_full_loss, plus Stirling's approximation of
    log(targets!) where targets > 1."""
    log_input = convert_to_tensor(log_input)
    targets = convert_to_tensor(targets, dtype=log_input.dtype)
    _same_shape(targets, log_input, "targets", "log_input")
    loss = math_ops.subtract(math_ops.exp(log_input), log_input * targets)
    if not compute_full_loss:
        return loss
    ones, zeros = array_ops.ones_like(targets), array_ops.zeros_like(targets)
    safe = math_ops.maximum(targets, ones)  # log only where targets > 1 (the mask below)
    stirling = safe * math_ops.log(safe) - safe + 0.5 * math_ops.log(2.0 * math.pi * safe)
    keep = math_ops.greater(targets, ones)
    return math_ops.add(loss, math_ops.where(keep, stirling, zeros), name=name)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """The logistic loss with positives weighted by pos_weight:
    (1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + max(-x, 0))."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    _same_shape(labels, logits, "labels", "logits")
    log_weight = 1.0 + (convert_to_tensor(pos_weight, dtype=logits.dtype) - 1.0) * labels
    softplus_negative = math_ops.log1p(math_ops.exp(-math_ops.abs(logits))) + math_ops.maximum(-logits, 0.0)
    return math_ops.add((1.0 - labels) * logits, log_weight * softplus_negative, name=name)
