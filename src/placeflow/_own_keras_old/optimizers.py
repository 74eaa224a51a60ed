"""Optimizers: SGD (momentum, Nesterov), Adam, AdamW, RMSprop and Adagrad, distribution-aware like Keras's.

Called inside `MirroredStrategy.run`, `apply_gradients` pauses the replicas (merge_call),
all-reduces the gradients once through the strategy's cross_device_ops, and updates every copy of
each mirrored variable on its own device. Elsewhere it updates the variables directly. Slot
variables (momentum, Adam moments) live next to their variable (mirrored when it is).
The learning rate is a variable read by every step (callbacks may change it during `fit`), or a
schedule of `iterations` (see schedules.py). `weight_decay` shrinks each variable by
lr * weight_decay * variable before its update, as Keras 3.
"""

from __future__ import annotations

from ..api import clip_ops, math_ops
from ..api.device import device as device_scope
from ..distribute import distribution_context
from ..distribute.reduce_op import ReduceOp
from ..eager.variables import Variable
from ..framework import graph_mode
from ..graph import interrupts
from . import schedules
from .arguments import refuse_keywords


class Optimizer:
    """Base: apply_gradients / minimize, slots, and the distributed path."""

    def __init__(self, learning_rate=0.01, name="Optimizer", clipnorm=None, clipvalue=None, global_clipnorm=None,
                 weight_decay=None, **kwargs):
        _refuse_unsupported(kwargs)
        clips = {"clipnorm": clipnorm, "clipvalue": clipvalue, "global_clipnorm": global_clipnorm}
        if sum(value is not None for value in clips.values()) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: " +
                             ", ".join(f"{key}={value}" for key, value in clips.items()))
        self.clipnorm, self.clipvalue, self.global_clipnorm = (None if v is None else float(v) for v in clips.values())
        self.weight_decay = None if weight_decay is None else float(weight_decay)
        self.name = name
        self._slots: dict = {}         # id(variable) -> {slot name: Variable}
        self._iterations = None
        self._rate_variable = None
        self._schedule = learning_rate if isinstance(learning_rate, schedules.LearningRateSchedule) else None
        self._initial_rate = None if self._schedule is not None else _rate(learning_rate)

    # -- public ---------------------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current learning rate (the schedule's value at `iterations` when one is set)."""
        if self._schedule is not None:
            return self._schedule(self.iterations)
        return self._rate().read_value()

    @learning_rate.setter
    def learning_rate(self, value) -> None:
        if isinstance(value, schedules.LearningRateSchedule):
            self._schedule = value
            return
        if self._schedule is not None:
            raise TypeError("This optimizer was created with a LearningRateSchedule object as its `learning_rate` "
                            "constructor argument, hence its learning rate is not settable.")
        if self._rate_variable is None:
            self._initial_rate = _rate(value)
        else:
            self._rate_variable.assign(_rate(value))

    def _rate(self):
        if self._rate_variable is None:
            self._rate_variable = self._make_variable(None, self._initial_rate, "learning_rate")
        return self._rate_variable

    def _python_rate(self) -> float:
        """The learning rate as a Python float (TensorFlow 1's graph optimizers take one)."""
        if self._schedule is not None:
            raise NotImplementedError("A LearningRateSchedule is not implemented for TensorFlow 1 graph optimizers "
                                      "in placeflow; pass a float.")
        return self._initial_rate if self._rate_variable is None else float(self._rate_variable.numpy())

    def _current_rate(self):
        """The learning rate as the step reads it (a tensor)."""
        if self._schedule is not None:
            return math_ops.cast(self._schedule(self.iterations.read_value()), "float32")
        return self._rate().read_value()

    @property
    def iterations(self):
        """How many updates have been applied (a float32 variable, read inside traced steps)."""
        if self._iterations is None:
            self._iterations = self._make_variable(None, 0.0, "iter")
        return self._iterations

    def minimize(self, loss, var_list, tape=None):
        """Compute gradients of `loss` (a tensor with `tape`, or a zero-argument callable) and apply them."""
        from ..eager.tape import GradientTape
        var_list = list(var_list() if callable(var_list) else var_list)
        if tape is None:
            if not callable(loss):
                raise ValueError("`tape` is required when a `Tensor` loss is passed to minimize; pass the tape, or "
                                 "a zero-argument callable that computes the loss.")
            with GradientTape() as tape:
                loss = loss()
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True):
        """Update each variable with its gradient (all-reduced first when called inside strategy.run)."""
        if not experimental_aggregate_gradients:
            raise NotImplementedError("apply_gradients(experimental_aggregate_gradients=False) is not implemented "
                                      "in placeflow: gradients are always all-reduced across replicas first.")
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable. Check that the loss depends on the "
                             "variables (and that they were read inside the GradientTape).")
        pairs = self._clipped(pairs)
        strategy, replica = distribution_context.current()
        if replica is not None and distribution_context.has_strategy() and strategy.num_replicas_in_sync > 1:
            return replica.merge_call(self._distributed_apply, args=(pairs,))
        if distribution_context.has_strategy() and replica is not None:  # one replica: nothing to all-reduce
            return self._apply(strategy, pairs)
        return self._apply(None, pairs)

    def build(self, var_list) -> None:
        """Create the slot variables of `var_list` now (fit does this before tracing its step)."""
        for var in var_list:
            self._slots_for(var)
        self.iterations  # noqa: B018 - creates the counter
        if self._schedule is None:
            self._rate()

    def get_slot(self, var, slot_name):
        """The slot variable `slot_name` of `var` (e.g. 'momentum', 'm', 'v')."""
        return self._slots_for(var)[slot_name]

    def variables(self) -> list:
        """The optimizer's own variables: the iteration counter, then every slot."""
        slots = [v for per_var in self._slots.values() for v in per_var.values()]
        own = [v for v in (self._iterations, self._rate_variable) if v is not None]
        return own + slots

    def get_config(self) -> dict:
        """The hyperparameters."""
        rate = self._schedule.get_config() if self._schedule is not None else float(self.learning_rate)
        return {"name": self.name, "learning_rate": rate, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "clipvalue": self.clipvalue, "global_clipnorm": self.global_clipnorm}

    # -- internals ------------------------------------------------------------------------------
    def _clipped(self, pairs) -> list:
        """Gradients clipped as Keras 3 does: before they are all-reduced (each replica clips its own)."""
        grads = [g for g, _ in pairs]
        if self.clipnorm is not None:
            grads = [clip_ops.clip_by_norm(g, self.clipnorm) for g in grads]
        elif self.clipvalue is not None:
            grads = [math_ops.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        elif self.global_clipnorm is not None:
            grads = clip_ops.clip_by_global_norm(grads, self.global_clipnorm)[0]
        else:
            return pairs
        return [(g, v) for g, (_, v) in zip(grads, pairs)]

    def _distributed_apply(self, strategy, pairs):
        reduced = strategy.extended.batch_reduce_to(ReduceOp.SUM, [(g, v) for g, v in pairs])
        return self._apply(strategy, [(g, v) for g, (_, v) in zip(reduced, pairs)])

    def _apply(self, strategy, pairs):
        with interrupts.step_finishes_first():  # eagerly, Ctrl-C waits until every variable is updated
            return self._apply_all(strategy, pairs)

    def _apply_all(self, strategy, pairs):
        self.build([v for _, v in pairs])
        rate = self._current_rate()
        step = self.iterations.read_value() + 1.0 if self._needs_step else None
        for grad, var in pairs:
            if strategy is not None:
                strategy.extended.update(var, self._decayed_update, args=(grad, var, step, rate))
            else:
                with device_scope(var.device):
                    self._decayed_update(var, grad, var, step, rate)
        self.iterations.assign_add(1.0)
        return self.iterations

    _needs_step = False
    _slot_names: tuple = ()

    def _slots_for(self, var) -> dict:
        slots = self._slots.get(id(var))
        if slots is None:
            slots = {name: self._make_variable(var, 0.0, name) for name in self._slot_names}
            self._slots[id(var)] = slots
        return slots

    def _make_variable(self, like, value, name):
        """A zeros variable shaped like `like` (a scalar when None), next to it, created outside any trace."""
        import numpy as np
        shape = tuple(like.shape) if like is not None else ()
        dtype = like.dtype.numpy_dtype if like is not None else np.float32
        owner = getattr(like, "_strategy", None) or distribution_context.get_strategy()
        label = f"{like._name}/{name}" if like is not None else f"{self.name}/{name}"
        with graph_mode.suspended(), owner.scope():
            if like is not None and getattr(like, "_strategy", None) is None:
                with device_scope(like.device):
                    return Variable(np.full(shape, value, dtype), trainable=False, name=label)
            return Variable(np.full(shape, value, dtype), trainable=False, name=label)

    def _decayed_update(self, component, grad, var, step, rate):
        if self.weight_decay:
            component.assign_sub(component * (rate * self.weight_decay))
        self._update_step(component, grad, var, step, rate)

    def _update_step(self, component, grad, var, step, rate):
        raise NotImplementedError


class SGD(Optimizer):
    """Gradient descent, with optional (Nesterov) momentum: m = momentum * m - lr * g; var += m."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        if not 0.0 <= float(momentum) <= 1.0:
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} "
                             f"(of type {type(momentum)}).")
        self.momentum, self.nesterov = float(momentum), bool(nesterov)
        self._slot_names = ("momentum",) if self.momentum else ()

    def _update_step(self, component, grad, var, step, rate):
        lr = rate
        if not self.momentum:
            component.assign_sub(grad * lr)
            return
        velocity = self._slots_for(var)["momentum"]
        new_velocity = velocity * self.momentum - grad * lr
        velocity.assign(new_velocity)
        component.assign_add(new_velocity * self.momentum - grad * lr if self.nesterov else new_velocity)

    def get_config(self) -> dict:
        return dict(super().get_config(), momentum=self.momentum, nesterov=self.nesterov)


class Adam(Optimizer):
    """Adam: bias-corrected first and second moment estimates."""

    _needs_step = True
    _slot_names = ("m", "v")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name="Adam",
                 **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        if amsgrad:
            raise NotImplementedError("placeflow's Adam does not implement amsgrad; use amsgrad=False.")
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _update_step(self, component, grad, var, step, rate):
        slots = self._slots_for(var)
        m, v = slots["m"], slots["v"]
        one = 1.0
        correction = math_ops.sqrt(one - math_ops.pow(self.beta_2, step)) / (one - math_ops.pow(self.beta_1, step))
        new_m = m * self.beta_1 + grad * (1.0 - self.beta_1)
        new_v = v * self.beta_2 + _squared(grad) * (1.0 - self.beta_2)
        m.assign(new_m)
        v.assign(new_v)
        component.assign_sub(new_m * (correction * rate) / (math_ops.sqrt(new_v) + self.epsilon))

    def get_config(self) -> dict:
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)


class AdamW(Adam):
    """Adam with decoupled weight decay (weight_decay 0.004 by default, as Keras 3)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="AdamW", **kwargs):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name, weight_decay=weight_decay, **kwargs)


class RMSprop(Optimizer):
    """RMSprop: divide by a moving root mean square of the gradients (optionally centered, with momentum)."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, name="RMSprop",
                 **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = float(rho), float(momentum), float(epsilon), \
            bool(centered)
        self._slot_names = ("velocity",) + (("momentum",) if self.momentum > 0 else ()) + \
            (("average_gradient",) if self.centered else ())

    def _update_step(self, component, grad, var, step, rate):
        slots = self._slots_for(var)
        velocity = slots["velocity"]
        new_velocity = velocity * self.rho + _squared(grad) * (1.0 - self.rho)
        velocity.assign(new_velocity)
        if self.centered:
            average = slots["average_gradient"]
            new_average = average * self.rho + grad * (1.0 - self.rho)
            average.assign(new_average)
            denominator = new_velocity - math_ops.square(new_average) + self.epsilon
        else:
            denominator = new_velocity + self.epsilon
        increment = grad * rate / math_ops.sqrt(denominator)
        if self.momentum > 0:
            moment = slots["momentum"]
            new_moment = moment * self.momentum + increment
            moment.assign(new_moment)
            component.assign_sub(new_moment)
        else:
            component.assign_sub(increment)

    def get_config(self) -> dict:
        return dict(super().get_config(), rho=self.rho, momentum=self.momentum, epsilon=self.epsilon,
                    centered=self.centered)


class Adagrad(Optimizer):
    """Adagrad: divide by the root of the summed squared gradients (from initial_accumulator_value)."""

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name="Adagrad", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.initial_accumulator_value, self.epsilon = float(initial_accumulator_value), float(epsilon)

    def _slots_for(self, var) -> dict:
        slots = self._slots.get(id(var))
        if slots is None:
            slots = self._slots[id(var)] = {"accumulator": self._make_variable(var, self.initial_accumulator_value,
                                                                               "accumulator")}
        return slots

    def _update_step(self, component, grad, var, step, rate):
        accumulator = self._slots_for(var)["accumulator"]
        new_accumulator = accumulator + _squared(grad)
        accumulator.assign(new_accumulator)
        component.assign_sub(grad * rate / math_ops.sqrt(new_accumulator + self.epsilon))

    def get_config(self) -> dict:
        return dict(super().get_config(), initial_accumulator_value=self.initial_accumulator_value,
                    epsilon=self.epsilon)


_NOT_IMPLEMENTED = {"use_ema", "ema_momentum", "ema_overwrite_frequency", "loss_scale_factor",
                    "gradient_accumulation_steps"}


def _refuse_unsupported(kwargs) -> None:
    """Keras's other optimizer arguments are refused, never ignored."""
    if kwargs.get("decay") is not None:
        raise ValueError("Argument `decay` is no longer supported (Keras 3 ignores it with a warning; placeflow "
                         "refuses it): use a learning-rate schedule instead.")
    kwargs = {k: v for k, v in kwargs.items() if k != "decay"}
    refuse_keywords(kwargs, _NOT_IMPLEMENTED, "placeflow's optimizers", "Argument(s) not recognized: ")


def _squared(grad):
    """grad ** 2 as Keras's optimizers square it: for an embedding lookup's gradient (TF's IndexedSlices) the
    squares of the looked-up rows are added, so a row looked up twice adds two squares."""
    from ..ops.indexing import squared_slices
    squares = squared_slices(grad)
    return squares if squares is not None else math_ops.square(grad)


def _rate(value) -> float:
    if hasattr(value, "numpy"):
        value = value.numpy()
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"learning_rate must be a float or a LearningRateSchedule, got {value!r}.") from None


_BY_NAME = {"sgd": SGD, "adam": Adam, "adamw": AdamW, "rmsprop": RMSprop, "adagrad": Adagrad}


def get(identifier) -> Optimizer:
    """An optimizer from a name ('sgd', 'adam', 'adamw', 'rmsprop', 'adagrad') or an instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}; use one of {sorted(_BY_NAME)} or "
                     "an instance of a placeflow.keras.optimizers class.")
