"""placeflow.train: TensorFlow 1's optimizer names (seed 000 uses tf.train.GradientDescentOptimizer).

Eagerly (and in `function`) they are Keras's optimizers (SGD, Adam), so `model.compile` takes them as
seed 000 does; while a TF1 graph is built, `minimize(loss)`, `compute_gradients` and `apply_gradients`
build the graph's gradient and update ops instead. The classes are made on first use, which loads Keras."""

from __future__ import annotations

import types

from .distribute.cluster import ClusterSpec  # noqa: F401
from .framework import graph_mode
from .graph import v1_train
from .graph.saver import Saver  # noqa: F401
from .checkpoint.checkpoint import Checkpoint, CheckpointOptions  # noqa: F401
from .checkpoint.manager import CheckpointManager  # noqa: F401
from .checkpoint.reader import checkpoints_iterator, list_variables, load_checkpoint, load_variable  # noqa: F401
from .checkpoint.state import get_checkpoint_state, latest_checkpoint  # noqa: F401
from .checkpoint.views import CheckpointView, TrackableView  # noqa: F401
from .checkpoint.python_state import PythonState as _PythonState
from .api.training_utils import Coordinator, ExponentialMovingAverage  # noqa: F401

experimental = types.ModuleType("placeflow.train.experimental", "tf.train.experimental: PythonState.")
experimental.PythonState = _PythonState
from .graph.v1_train import get_or_create_global_step  # noqa: F401
from .api.example_proto import BytesList, Example, Feature, Features, FloatList, Int64List  # noqa: E402,F401
from .api.sequence_example import FeatureList, FeatureLists, SequenceExample  # noqa: E402,F401
from .api.cluster_def import ClusterDef, JobDef, ServerDef  # noqa: E402,F401


def _building_tf1_graph() -> bool:
    graph = graph_mode.active()
    return graph is not None and not getattr(graph, "is_function_graph", False)


def _refuse_gradient_options(aggregation_method, grad_loss) -> None:
    if aggregation_method is not None or grad_loss is not None:
        raise NotImplementedError("aggregation_method and grad_loss are not implemented in placeflow's TF1 "
                                  "optimizers; leave them None.")


class _TF1Methods:
    """minimize/compute_gradients/apply_gradients: the graph path while a TF1 graph is built."""

    def __init__(self, **keras_arguments):
        with graph_mode.suspended():  # Keras makes its step counter and rate variables now: eagerly, as TF1 would not
            super().__init__(**keras_arguments)

    def _graph_optimizer(self):
        raise NotImplementedError(f"{type(self).__name__} has no TF1 graph path.")

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None, tape=None):
        """The training op (TF1 graph), or one eager update (with a tape or a zero-argument callable loss).
        gate_gradients and colocate_gradients_with_ops change only scheduling and placement in TF: every
        gradient is computed before any update here, next to its op."""
        _refuse_gradient_options(aggregation_method, grad_loss)
        if _building_tf1_graph():
            return self._graph_path().minimize(loss, global_step, var_list, name)
        if var_list is None and isinstance(global_step, (list, tuple)):  # the Keras order: minimize(loss, var_list)
            var_list, global_step = global_step, None
        if global_step is not None:
            raise NotImplementedError("minimize(global_step=...) runs eagerly here: increment your step variable "
                                      "yourself (global_step is used while a TF1 graph is built).")
        return self._eager_minimize(loss, var_list if var_list is not None else [], tape)

    def _eager_minimize(self, loss, var_list, tape):
        """One eager update: gradients of `loss` (a tensor with `tape`, or a zero-argument callable)."""
        from .eager.tape import GradientTape
        var_list = list(var_list() if callable(var_list) else var_list)
        if tape is None:
            if not callable(loss):
                raise ValueError("`tape` is required when a `Tensor` loss is passed to minimize; pass the tape, or "
                                 "a zero-argument callable that computes the loss.")
            with GradientTape() as tape:
                loss = loss()
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def compute_gradients(self, loss, var_list=None, gate_gradients=1, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """[(gradient, variable)] of `loss` (TF1 graphs)."""
        _refuse_gradient_options(aggregation_method, grad_loss)
        if not _building_tf1_graph():
            raise RuntimeError("compute_gradients builds graph ops: call it while a TF1 graph is the default, or "
                               "use tf.GradientTape eagerly.")
        return self._graph_path().compute_gradients(loss, var_list)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, experimental_aggregate_gradients=True):
        """The update op (TF1 graph), or the eager update."""
        if _building_tf1_graph():
            return self._graph_path().apply_gradients(grads_and_vars, global_step, name)
        if global_step is not None:
            raise NotImplementedError("apply_gradients(global_step=...) runs eagerly here: increment your step "
                                      "variable yourself (global_step is used while a TF1 graph is built).")
        if not experimental_aggregate_gradients:
            raise NotImplementedError("apply_gradients(experimental_aggregate_gradients=False) is not implemented "
                                      "in placeflow: gradients are always all-reduced across replicas first.")
        return super().apply_gradients(grads_and_vars)

    def _python_rate(self) -> float:
        """The learning rate as a Python float (TensorFlow 1's graph optimizers take one)."""
        return float(self.learning_rate.numpy())

    def _graph_path(self):
        if getattr(self, "_tf1_graph_optimizer", None) is None:
            self._tf1_graph_optimizer = self._graph_optimizer()
        return self._tf1_graph_optimizer


def _tf1_optimizer_classes() -> dict:
    """GradientDescentOptimizer, MomentumOptimizer and AdamOptimizer over Keras's SGD and Adam (made once)."""
    if _CLASSES:
        return _CLASSES
    from .keras import optimizers as keras_optimizers
    SGD, Adam = keras_optimizers.SGD, keras_optimizers.Adam  # noqa: N806

    class GradientDescentOptimizer(_TF1Methods, SGD):
        """Plain gradient descent: var -= learning_rate * grad."""

        def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
            super().__init__(learning_rate=learning_rate, name=name)

        def _graph_optimizer(self):
            return v1_train.GraphGradientDescent(self._python_rate(), self.name)

    class MomentumOptimizer(_TF1Methods, SGD):
        """Gradient descent with momentum (optionally Nesterov)."""

        def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
            super().__init__(learning_rate=learning_rate, momentum=momentum, nesterov=use_nesterov, name=name)

        def _graph_optimizer(self):
            return v1_train.GraphMomentum(self._python_rate(), self.momentum, self.nesterov, self.name)

    class AdamOptimizer(_TF1Methods, Adam):
        """Adam with TensorFlow 1's default epsilon (1e-8)."""

        def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False,
                     name="Adam"):
            super().__init__(learning_rate=learning_rate, beta_1=beta1, beta_2=beta2, epsilon=epsilon, name=name)

        def _graph_optimizer(self):
            return v1_train.GraphAdam(self._python_rate(), self.beta_1, self.beta_2, self.epsilon, self.name)

    _CLASSES.update(GradientDescentOptimizer=GradientDescentOptimizer, MomentumOptimizer=MomentumOptimizer,
                    AdamOptimizer=AdamOptimizer)
    for cls in _CLASSES.values():
        cls.__module__ = __name__
    return _CLASSES


_CLASSES: dict = {}


def __getattr__(name):
    if name in ("GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer"):
        return _tf1_optimizer_classes()[name]
    raise AttributeError(f"module 'placeflow.train' has no attribute {name!r}")
