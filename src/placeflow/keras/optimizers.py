"""Optimizers: SGD (momentum, Nesterov) and Adam, distribution-aware like Keras's.

Called inside `MirroredStrategy.run`, `apply_gradients` pauses the replicas (merge_call),
all-reduces the gradients once through the strategy's cross_device_ops, and updates every copy of
each mirrored variable on its own device. Elsewhere it updates the variables directly. Slot
variables (momentum, Adam moments) live next to their variable (mirrored when it is).
The learning rate is a Python float read when a step is traced: change it between `fit` calls.
"""

from __future__ import annotations

from ..api import clip_ops, math_ops
from ..api.device import device as device_scope
from ..distribute import distribution_context
from ..distribute.reduce_op import ReduceOp
from ..eager.variables import Variable
from ..framework import graph_mode
from ..graph import interrupts
from .arguments import refuse_keywords


class Optimizer:
    """Base: apply_gradients / minimize, slots, and the distributed path."""

    def __init__(self, learning_rate=0.01, name="Optimizer", clipnorm=None, clipvalue=None, global_clipnorm=None,
                 **kwargs):
        _refuse_unsupported(kwargs)
        clips = {"clipnorm": clipnorm, "clipvalue": clipvalue, "global_clipnorm": global_clipnorm}
        if sum(value is not None for value in clips.values()) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: " +
                             ", ".join(f"{key}={value}" for key, value in clips.items()))
        self.clipnorm, self.clipvalue, self.global_clipnorm = (None if v is None else float(v) for v in clips.values())
        self.learning_rate = float(learning_rate)
        self.name = name
        self._slots: dict = {}         # id(variable) -> {slot name: Variable}
        self._iterations = None

    # -- public ---------------------------------------------------------------------------------
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

    def get_slot(self, var, slot_name):
        """The slot variable `slot_name` of `var` (e.g. 'momentum', 'm', 'v')."""
        return self._slots_for(var)[slot_name]

    def variables(self) -> list:
        """The optimizer's own variables: the iteration counter, then every slot."""
        slots = [v for per_var in self._slots.values() for v in per_var.values()]
        return ([self._iterations] if self._iterations is not None else []) + slots

    def get_config(self) -> dict:
        """The hyperparameters."""
        return {"name": self.name, "learning_rate": self.learning_rate, "clipnorm": self.clipnorm,
                "clipvalue": self.clipvalue, "global_clipnorm": self.global_clipnorm}

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
        step = self.iterations.read_value() + 1.0 if self._needs_step else None
        for grad, var in pairs:
            if strategy is not None:
                strategy.extended.update(var, self._update_step, args=(grad, var, step))
            else:
                with device_scope(var.device):
                    self._update_step(var, grad, var, step)
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

    def _update_step(self, component, grad, var, step):
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

    def _update_step(self, component, grad, var, step):
        lr = self.learning_rate
        if not self.momentum:  # one fused kernel: var - lr * grad
            component._update("ResourceApplyGradientDescent", grad, False, {"alpha": lr})
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

    def _update_step(self, component, grad, var, step):
        slots = self._slots_for(var)
        m, v = slots["m"], slots["v"]
        one = 1.0
        correction = math_ops.sqrt(one - math_ops.pow(self.beta_2, step)) / (one - math_ops.pow(self.beta_1, step))
        new_m = m * self.beta_1 + grad * (1.0 - self.beta_1)
        new_v = v * self.beta_2 + math_ops.square(grad) * (1.0 - self.beta_2)
        m.assign(new_m)
        v.assign(new_v)
        component.assign_sub(new_m * (correction * self.learning_rate) / (math_ops.sqrt(new_v) + self.epsilon))

    def get_config(self) -> dict:
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)


_NOT_IMPLEMENTED = {"weight_decay", "use_ema", "ema_momentum", "ema_overwrite_frequency", "loss_scale_factor",
                    "gradient_accumulation_steps"}


def _refuse_unsupported(kwargs) -> None:
    """Keras's other optimizer arguments are refused, never ignored."""
    if kwargs.get("decay") is not None:
        raise ValueError("Argument `decay` is no longer supported (Keras 3 ignores it with a warning; placeflow "
                         "refuses it): use a learning-rate schedule instead.")
    kwargs = {k: v for k, v in kwargs.items() if k != "decay"}
    refuse_keywords(kwargs, _NOT_IMPLEMENTED, "placeflow's optimizers", "Argument(s) not recognized: ")


_BY_NAME = {"sgd": SGD, "adam": Adam}


def get(identifier) -> Optimizer:
    """An optimizer from a name ('sgd', 'adam') or an instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}; use 'sgd', 'adam' or an "
                     "instance of placeflow.keras.optimizers.SGD / Adam.")
