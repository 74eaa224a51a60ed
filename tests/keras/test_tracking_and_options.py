"""Tracking, freezing, callbacks and the options fit/compile take: each works, or is refused by name.

TensorFlow's numbers for these features are in tests/conformance (recorded from TF 2.21); these tests
cover what has no number: refusals, stop_training, validation_freq, run_eagerly, name scopes.
"""

import numpy as np
import pytest

import placeflow as tf

X = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
Y = np.array([[1.0], [0.0], [-1.0], [2.0]], np.float32)


def _model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return model


def test_module_names_and_name_scope():
    class Block(tf.Module):
        @tf.Module.with_name_scope
        def scoped(self):
            return self.name_scope

    assert Block().name == "block" and Block(name="b2").name == "b2"
    with pytest.raises(ValueError, match="'has space' is not a valid module name"):
        tf.Module(name="has space")
    assert Block().scoped() is not None


def test_tracking_sees_lists_filled_after_assignment_and_nested_layers():
    class Stack(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = []

        def call(self, x):
            for block in self.blocks:
                x = block(x)
            return x

    stack = Stack()
    stack.blocks.append(tf.keras.layers.Dense(3))
    stack.blocks.append(tf.keras.layers.Dense(1))
    stack(X)
    assert [tuple(w.shape) for w in stack.weights] == [(2, 3), (3,), (3, 1), (1,)]
    stack.trainable = False
    assert stack.trainable_weights == [] and not stack.blocks[0].kernel.trainable
    stack.trainable = True
    assert len(stack.trainable_weights) == 4


def test_layer_arguments_are_implemented_or_refused():
    with pytest.raises(NotImplementedError, match="activity_regularizer"):
        tf.keras.layers.Dense(1, activity_regularizer="l2")
    with pytest.raises(ValueError, match="Unrecognized keyword arguments passed to Dense: {'unit': 3}"):
        tf.keras.layers.Dense(1, unit=3)
    assert tf.keras.layers.Dense(1, kernel_regularizer=None).units == 1


def test_compile_and_optimizer_arguments_are_implemented_or_refused():
    model = _model()
    with pytest.raises(NotImplementedError, match="loss_weights"):
        model.compile(optimizer="sgd", loss="mse", loss_weights=[1.0])
    with pytest.raises(NotImplementedError, match="steps_per_execution"):
        model.compile(optimizer="sgd", loss="mse", steps_per_execution=4)
    with pytest.raises(NotImplementedError, match="reduction='sum'"):
        model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(reduction="sum"))
    with pytest.raises(ValueError, match="Argument `decay` is no longer supported"):
        tf.keras.optimizers.SGD(0.1, decay=0.5)
    with pytest.raises(NotImplementedError, match="use_ema"):
        tf.keras.optimizers.Adam(use_ema=True)


def test_fit_weights_and_validation_arguments_are_checked():
    model = _model()
    with pytest.raises(ValueError, match="You cannot `class_weight` and `sample_weight` at the same time"):
        model.fit(X, Y, sample_weight=np.ones(4), class_weight={0: 1.0}, verbose=0)
    with pytest.raises(ValueError, match=r"The classes \{1\} exist in the data but not in `class_weight`"):
        model.fit(X, np.array([0, 1, 0, 0]), class_weight={0: 1.0}, verbose=0)
    with pytest.raises(ValueError, match="`validation_split` is only supported for Tensors or NumPy arrays"):
        model.fit(tf.data.Dataset.from_tensor_slices((X, Y)).batch(2), validation_split=0.5, verbose=0)
    history = model.fit(X, Y, batch_size=2, epochs=4, validation_data=(X, Y), validation_freq=2, verbose=0)
    assert len(history.history["loss"]) == 4 and len(history.history["val_loss"]) == 2  # after epochs 2 and 4
    assert history.epoch == [0, 1, 2, 3]


def test_a_callback_stops_training_and_sees_running_logs():
    seen = []

    class StopAfterThreeBatches(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(sorted(logs))
            if len(seen) == 3:
                self.model.stop_training = True

    history = _model().fit(X, Y, batch_size=1, epochs=5, callbacks=[StopAfterThreeBatches()], verbose=0)
    assert len(seen) == 3 and seen[0] == ["loss"] and len(history.history["loss"]) == 1
    with pytest.raises(TypeError, match="Callbacks must be instances of placeflow.keras.callbacks.Callback"):
        _model().fit(X, Y, callbacks=[object()], verbose=0)


def test_run_eagerly_gives_the_traced_numbers():
    eager, traced = _model(), _model()
    traced.set_weights(eager.get_weights())
    eager.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
    a = eager.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0).history["loss"]
    b = traced.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0).history["loss"]
    np.testing.assert_allclose(a, b, rtol=1e-6)
    assert not eager._functions["train"].__class__.__name__ == "Function"


def test_clip_ops_match_tensorflow_formulas():
    np.testing.assert_allclose(tf.clip_by_norm([3.0, 4.0], 1.0).numpy(), [0.6, 0.8], rtol=1e-6)  # TF 2.21
    clipped, norm = tf.clip_by_global_norm([tf.constant([3.0]), None, tf.constant([4.0])], 1.0)
    assert clipped[1] is None and float(norm) == 5.0
    assert np.isnan(tf.clip_by_global_norm([tf.constant([float("inf")])], 1.0)[0][0].numpy()).all()
    assert tf.clip_by_norm(tf.zeros([2]), 1.0).numpy().tolist() == [0.0, 0.0]


def test_fit_progress_writes_no_carriage_returns_when_stdout_is_not_a_terminal(capsys):
    _model().fit(X, Y, batch_size=1, epochs=2, verbose=1)
    out = capsys.readouterr().out
    assert "\r" not in out
    assert out.count("Epoch 1/2") == 1 and len([line for line in out.splitlines() if "loss:" in line]) == 2


def test_a_frozen_sublayer_trains_none_of_its_variables_even_plain_ones():
    class WithPlainVariable(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.scale = tf.Variable(2.0)

        def call(self, x):
            return x * self.scale

    class Outer(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.inner, self.head = WithPlainVariable(), tf.keras.layers.Dense(1)

        def call(self, x):
            return self.head(self.inner(x))

    model = Outer()
    model(X)
    assert len(model.trainable_weights) == 3
    model.inner.trainable = False
    assert len(model.trainable_weights) == 2 and all(w is not model.inner.scale for w in model.trainable_weights)
    assert len(model.non_trainable_weights) == 1 and len(model.weights) == 3


def test_evaluate_and_predict_honour_verbose(capsys):
    model = _model()
    model.evaluate(X, Y, batch_size=2, verbose=0)
    model.predict(X, batch_size=2, verbose=0)
    assert capsys.readouterr().out == ""
    model.evaluate(X, Y, batch_size=2)
    model.predict(X, batch_size=2, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("2/2 - ") and "loss: " in lines[0]
    assert lines[1].startswith("2/2 - ") and lines[1].endswith("ms/step")


def test_subclassed_model_with_float64_arrays_builds_in_float32():
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(tf.cast(x, tf.float32))

    model = Net()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    model.fit(X.astype(np.float64), Y, batch_size=2, epochs=1, verbose=0)
    assert model.dense.kernel.dtype == tf.float32 and len(model.trainable_weights) == 2
