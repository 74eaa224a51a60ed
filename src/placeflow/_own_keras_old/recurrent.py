"""Recurrent layers: LSTM and GRU with Keras 3's weights, gate order and defaults, unrolled over the steps
(a tf.while_loop when the number of steps is unknown)."""

from __future__ import annotations

import numpy as np

from ..api import array_ops, control_flow, indexing, math_ops
from ..api.tensor_array import TensorArray
from . import activations, initializers
from .layers import Layer


class _Recurrent(Layer):
    gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 dropout=0.0, recurrent_dropout=0.0, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, **kwargs):
        super().__init__(**kwargs)
        if dropout or recurrent_dropout or go_backwards or stateful:
            raise NotImplementedError(f"{type(self).__name__}(dropout, recurrent_dropout, go_backwards, stateful) "
                                      f"are not implemented in placeflow; leave them at their defaults.")
        if int(units) <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, got "
                             f"{units}.")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.return_sequences, self.return_state = bool(use_bias), bool(return_sequences), \
            bool(return_state)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel = self.recurrent_kernel = self.bias = None

    def build(self, input_shape) -> None:
        if len(input_shape) != 3 or input_shape[-1] is None:
            raise ValueError(f"{type(self).__name__} expects inputs of shape (batch, steps, features) with known "
                             f"features; received input_shape={input_shape}")
        size = self.gates * self.units
        self.kernel = self.add_weight("kernel", (int(input_shape[-1]), size), self.kernel_initializer)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", (self.units, size), self.recurrent_initializer)
        if self.use_bias:
            self.bias = self.add_weight("bias", self._bias_shape(), self._bias_init())

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_init(self):
        return self.bias_initializer

    def _initial_states(self, inputs):
        zeros = array_ops.zeros_like(inputs[:, 0, :1]) * 0.0
        return [array_ops.tile(zeros, [1, self.units]) for _ in range(self._state_count)]

    def call(self, inputs, initial_state=None):
        states = list(initial_state) if initial_state is not None else self._initial_states(inputs)
        projected = self._project(inputs)  # [batch, steps, gates * units]: every step's input part at once
        steps = inputs.shape[1]
        if steps is not None:
            outputs = []
            for t in range(int(steps)):
                output, states = self._step(projected[:, t], states)
                outputs.append(output)
            sequence = array_ops.stack(outputs, axis=1) if self.return_sequences else None
            last = outputs[-1]
        else:
            last, states, sequence = self._loop(projected, states)
        result = sequence if self.return_sequences else last
        return [result, *states] if self.return_state else result

    def _loop(self, projected, states):
        count = array_ops.shape(projected)[1]
        outputs = TensorArray(self.dtype, size=count, element_shape=None)

        def body(t, outputs, *states):
            output, new_states = self._step(indexing.gather(projected, t, axis=1), list(states))
            return (t + 1, outputs.write(t, output), *new_states)

        results = control_flow.while_loop(lambda t, *rest: t < count, body, [0, outputs, *states])
        stacked = array_ops.transpose(results[1].stack(), [1, 0, 2]) if self.return_sequences else None
        return results[2], list(results[2:]), stacked  # the last output is the first state (h)

    def _project(self, inputs):
        """inputs @ kernel for every step: [batch, steps, gates * units] (one matmul)."""
        flat = array_ops.reshape(inputs, [-1, int(inputs.shape[-1])])
        projected = math_ops.matmul(flat, self.kernel)
        if inputs.shape[1] is not None:
            return array_ops.reshape(projected, [-1, int(inputs.shape[1]), self.gates * self.units])
        if inputs.shape[0] is None:
            raise NotImplementedError(f"{type(self).__name__} over inputs whose batch and step counts are both "
                                      f"unknown is not implemented in placeflow; fix one of them.")
        return array_ops.reshape(projected, [int(inputs.shape[0]), -1, self.gates * self.units])

    def compute_output_shape(self, input_shape):
        batch, steps = input_shape[0], input_shape[1]
        output = (batch, steps, self.units) if self.return_sequences else (batch, self.units)
        if self.return_state:
            return [output] + [(batch, self.units)] * self._state_count
        return output


class LSTM(_Recurrent):
    """Long short-term memory: gates i, f, c, o (Keras's order) over kernel [features, 4 units],
    recurrent_kernel [units, 4 units] and bias [4 units] (forget part 1 with unit_forget_bias)."""

    gates, _state_count = 4, 2

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        base, units = self.bias_initializer, self.units

        def init(shape, dtype):
            values = np.asarray(base((units * 4,), dtype)).copy()
            values[units:2 * units] = 1.0
            return values
        return init

    def _step(self, x_part, states):
        h, c = states
        z = x_part + math_ops.matmul(h, self.recurrent_kernel)
        if self.use_bias:
            z = z + self.bias
        u = self.units
        i = self.recurrent_activation(z[:, :u])
        f = self.recurrent_activation(z[:, u:2 * u])
        c = f * c + i * self.activation(z[:, 2 * u:3 * u])
        o = self.recurrent_activation(z[:, 3 * u:])
        h = o * self.activation(c)
        return h, [h, c]


class GRU(_Recurrent):
    """Gated recurrent unit: gates z, r, h (Keras's order); reset_after=True (Keras 3's default) keeps two
    biases [2, 3 units] and applies the reset gate after the recurrent matmul."""

    gates, _state_count = 3, 1

    def __init__(self, units, reset_after=True, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _step(self, x_part, states):
        (h,) = states
        u = self.units
        if self.use_bias:
            x_part = x_part + (self.bias[0] if self.reset_after else self.bias)
        x_z, x_r, x_h = x_part[:, :u], x_part[:, u:2 * u], x_part[:, 2 * u:]
        if self.reset_after:
            inner = math_ops.matmul(h, self.recurrent_kernel)
            if self.use_bias:
                inner = inner + self.bias[1]
            r_z, r_r, r_h = inner[:, :u], inner[:, u:2 * u], inner[:, 2 * u:]
            z = self.recurrent_activation(x_z + r_z)
            r = self.recurrent_activation(x_r + r_r)
            candidate = self.activation(x_h + r * r_h)
        else:
            inner = math_ops.matmul(h, self.recurrent_kernel[:, :2 * u])
            z = self.recurrent_activation(x_z + inner[:, :u])
            r = self.recurrent_activation(x_r + inner[:, u:])
            candidate = self.activation(x_h + math_ops.matmul(r * h, self.recurrent_kernel[:, 2 * u:]))
        h = z * h + (1.0 - z) * candidate
        return h, [h]
