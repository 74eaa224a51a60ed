"""TensorFlow 1 training in graphs: `optimizer.minimize(loss)` builds the gradient and update ops of a
graph that a Session then runs step after step (compute_gradients = tf.gradients, apply_gradients =
assign ops on the variables and their slot variables, which global_variables_initializer initializes)."""

from __future__ import annotations

from ..framework import dtypes
from ..ops.emit import emit
from .gradients import gradients
from .graph import get_default_graph
from .v1_api import control_dependencies, group
from .variables import GLOBAL_VARIABLES, RefVariable, trainable_variables


def get_or_create_global_step(graph=None):
    """The graph's int64 `global_step` variable (created, not trainable, on first use)."""
    graph = graph or get_default_graph()
    found = graph.get_collection("global_step")
    if found:
        return found[0]
    step = RefVariable(graph, 0, trainable=False, name="global_step", dtype=dtypes.int64,
                       collections=[GLOBAL_VARIABLES, "global_step"])
    return step


class GraphOptimizer:
    """The TF1 graph path of an optimizer: `update(var, grad)` gives the ops of one variable's update."""

    def __init__(self, learning_rate, name):
        self.learning_rate, self.name = float(learning_rate), name
        self._slots: dict = {}

    def compute_gradients(self, loss, var_list=None):
        """[(gradient, variable)] of `loss` for `var_list` (default: the trainable variables)."""
        variables = list(var_list) if var_list is not None else trainable_variables()
        if not variables:
            raise ValueError("No variables to optimize.")
        return list(zip(gradients(loss, variables), variables))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """One op that applies every update (and increments `global_step` after them)."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in grads_and_vars]}.")
        updates = [self.update(var, grad) for grad, var in pairs]
        if global_step is None:
            return group(*[u.op if hasattr(u, "op") else u for u in updates], name=name or self.name)
        with control_dependencies(updates):
            return global_step.assign_add(1).op

    def minimize(self, loss, global_step=None, var_list=None, name=None):
        """compute_gradients then apply_gradients: the training op to run each step."""
        return self.apply_gradients(self.compute_gradients(loss, var_list), global_step, name)

    def slot(self, var, name, initial=0.0):
        """The slot variable `name` of `var` (same shape, initialized to `initial`)."""
        key = (id(var), name)
        if key not in self._slots:
            import numpy as np
            value = np.full(tuple(var.shape), initial, var.dtype.numpy_dtype)
            self._slots[key] = RefVariable(var.graph, value, trainable=False, name=f"{var.op.name}/{self.name}/{name}")
        return self._slots[key]

    def update(self, var, grad):
        """The ops updating `var` with `grad` (each optimizer below defines it)."""
        raise NotImplementedError(f"{type(self).__name__} defines no update rule.")


class GraphGradientDescent(GraphOptimizer):
    """var -= lr * grad."""

    def update(self, var, grad):
        return var.assign_sub(grad * self.learning_rate)


class GraphMomentum(GraphOptimizer):
    """accum = momentum * accum + grad; var -= lr * accum (Nesterov: lr * (grad + momentum * accum))."""

    def __init__(self, learning_rate, momentum, nesterov, name):
        super().__init__(learning_rate, name)
        self.momentum, self.nesterov = float(momentum), bool(nesterov)

    def update(self, var, grad):
        accum = self.slot(var, "Momentum")
        new_accum = accum.assign(accum.value() * self.momentum + grad)
        step = grad + new_accum * self.momentum if self.nesterov else new_accum
        return var.assign_sub(step * self.learning_rate)


class GraphAdam(GraphOptimizer):
    """TensorFlow 1's Adam: lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t) with epsilon outside the sqrt."""

    def __init__(self, learning_rate, beta1, beta2, epsilon, name):
        super().__init__(learning_rate, name)
        self.beta1, self.beta2, self.epsilon = float(beta1), float(beta2), float(epsilon)
        self._powers = None

    def _beta_powers(self, var):
        if self._powers is None:
            graph = var.graph
            self._powers = (RefVariable(graph, self.beta1, trainable=False, name="beta1_power"),
                            RefVariable(graph, self.beta2, trainable=False, name="beta2_power"))
        return self._powers

    def update(self, var, grad):
        beta1_power, beta2_power = self._beta_powers(var)
        m, v = self.slot(var, "Adam"), self.slot(var, "Adam_1")
        rate = self.learning_rate * emit("Sqrt", (1.0 - beta2_power.value(),)) / (1.0 - beta1_power.value())
        new_m = m.assign(m.value() * self.beta1 + grad * (1.0 - self.beta1))
        new_v = v.assign(v.value() * self.beta2 + emit("Square", (grad,)) * (1.0 - self.beta2))
        return var.assign_sub(rate * new_m / (emit("Sqrt", (new_v,)) + self.epsilon))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The updates, then the beta powers advance (as TF1's Adam finishes a step)."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable.")
        updates = [self.update(var, grad) for grad, var in pairs]
        beta1_power, beta2_power = self._powers
        with control_dependencies(updates):
            finish = [beta1_power.assign(beta1_power.value() * self.beta1),
                      beta2_power.assign(beta2_power.value() * self.beta2)]
        if global_step is not None:
            with control_dependencies(finish):
                return global_step.assign_add(1).op
        return group(*[f.op for f in finish], name=name or self.name)
