"""placeflow.train: TensorFlow 1's optimizer names (seed 000 uses tf.train.GradientDescentOptimizer)."""

from __future__ import annotations

from .keras.optimizers import SGD, Adam


class GradientDescentOptimizer(SGD):
    """Plain gradient descent: var -= learning_rate * grad."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(learning_rate=learning_rate, name=name)


class MomentumOptimizer(SGD):
    """Gradient descent with momentum (optionally Nesterov)."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(learning_rate=learning_rate, momentum=momentum, nesterov=use_nesterov, name=name)


class AdamOptimizer(Adam):
    """Adam with TensorFlow 1's default epsilon (1e-8)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate=learning_rate, beta_1=beta1, beta_2=beta2, epsilon=epsilon, name=name)
