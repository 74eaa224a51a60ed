"""keras.optimizers.schedules: learning rates as functions of the optimizer's step (its `iterations`)."""

from __future__ import annotations

import math

from ..api import math_ops
from ..eager.convert import convert_to_tensor


def _step(step):
    return math_ops.cast(convert_to_tensor(step), "float32")


class LearningRateSchedule:
    """Base: `schedule(step)` is the learning rate at that step."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(step).")

    def get_config(self) -> dict:
        """The schedule's arguments."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_config().")


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps) (the exponent floored when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = float(initial_learning_rate), float(decay_steps)
        self.decay_rate, self.staircase, self.name = float(decay_rate), bool(staircase), name

    def __call__(self, step):
        exponent = _step(step) / self.decay_steps
        if self.staircase:
            exponent = math_ops.floor(exponent)
        return self.initial_learning_rate * math_ops.pow(convert_to_tensor(self.decay_rate), exponent)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] up to boundaries[0] (inclusive), values[1] up to boundaries[1], ..., then values[-1]."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries, self.values, self.name = [float(b) for b in boundaries], [float(v) for v in values], name

    def __call__(self, step):
        step = _step(step)
        rate = convert_to_tensor(self.values[-1])
        for boundary, value in reversed(list(zip(self.boundaries, self.values[:-1]))):
            rate = math_ops.where(step <= boundary, convert_to_tensor(value), rate)
        return rate

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """A cosine from initial_learning_rate (or warmup_target after a linear warmup) down to alpha times it
    over decay_steps."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps, self.alpha = float(initial_learning_rate), float(decay_steps), \
            float(alpha)
        self.name, self.warmup_target, self.warmup_steps = name, warmup_target, float(warmup_steps)

    def _decayed(self, step, start):
        fraction = math_ops.minimum(step, self.decay_steps) / self.decay_steps
        cosine = 0.5 * (1.0 + math_ops.cos(convert_to_tensor(math.pi) * fraction))
        return start * ((1.0 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        step = _step(step)
        if self.warmup_target is None:
            return self._decayed(step, self.initial_learning_rate)
        target = float(self.warmup_target)
        warm = self.initial_learning_rate + (target - self.initial_learning_rate) * (
            step / max(self.warmup_steps, 1.0))
        decayed = self._decayed(math_ops.maximum(step - self.warmup_steps, 0.0), target)
        return math_ops.where(step < self.warmup_steps, warm, decayed)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}
