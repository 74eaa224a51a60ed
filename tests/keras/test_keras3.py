"""tf.keras is Keras 3 itself, with its TensorFlow backend running on placeflow: numbers, devices, memory."""

import subprocess
import sys

import numpy as np
import pytest

import placeflow as tf


def test_tf_keras_is_keras_3_with_its_tensorflow_backend():
    import keras
    assert tf.keras.layers.Dense is keras.layers.Dense and tf.keras.Model is keras.Model
    assert keras.backend.backend() == "tensorflow" and keras.__version__.startswith("3.15.")
    import tensorflow
    assert tensorflow is tf  # Keras's `import tensorflow` got placeflow


def test_import_placeflow_loads_no_keras_and_no_tensorflow_alias():
    code = "import sys, placeflow; print('keras' in sys.modules, 'tensorflow' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def _dense_model(weight, bias, optimizer):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array(weight, np.float32).reshape(2, 1), np.array([bias], np.float32)])
    model.compile(optimizer=optimizer, loss="mse")
    return model


def test_fit_gives_plain_gradient_descent_numbers():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 2).astype(np.float32)
    y = (x @ np.array([[2.0], [-1.0]], np.float32) + 0.5).astype(np.float32)
    model = _dense_model([0.1, 0.2], 0.0, tf.keras.optimizers.SGD(0.1))
    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    w, b = np.array([[0.1], [0.2]]), np.array([0.0])
    losses = []
    for _ in range(3):
        residual = x @ w + b - y
        losses.append(float((residual ** 2).mean()))
        w, b = w - 0.1 * 2 * x.T @ residual / 8, b - 0.1 * 2 * residual.mean(axis=0)
    np.testing.assert_allclose(history.history["loss"], losses, rtol=1e-5)
    np.testing.assert_allclose(model.get_weights()[0], w, rtol=1e-5)
    np.testing.assert_allclose(model.predict(x[:2], verbose=0), x[:2] @ w + b, rtol=1e-5)


def test_run_eagerly_gives_the_traced_numbers():
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(6, 2)
    y = x.sum(axis=1, keepdims=True)
    runs = []
    for eager in (False, True):
        model = _dense_model([0.3, -0.2], 0.1, tf.keras.optimizers.Adam(0.05))
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", run_eagerly=eager)
        runs.append(model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0).history["loss"])
    np.testing.assert_allclose(runs[0], runs[1], rtol=1e-6)


def test_keras_variables_live_where_tf_device_puts_them(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device("/CPU:0"):
        on_cpu = tf.keras.layers.Dense(2)
        on_cpu.build((None, 3))
    on_gpu = tf.keras.layers.Dense(2)
    on_gpu.build((None, 3))
    assert on_cpu.kernel.value.device.endswith("CPU:0") and on_gpu.kernel.value.device.endswith("GPU:0")


def test_gradient_tape_sees_keras_variables():
    layer = tf.keras.layers.Dense(1, use_bias=False)
    layer.build((None, 2))
    layer.set_weights([np.array([[1.0], [2.0]], np.float32)])
    x = tf.constant([[3.0, 4.0]])
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(layer(x) ** 2)
    (grad,) = tape.gradient(out, layer.trainable_variables)
    np.testing.assert_allclose(grad.numpy(), [[2 * 11 * 3.0], [2 * 11 * 4.0]])


def test_fit_under_mirrored_strategy_keeps_one_copy_per_simulated_gpu(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
    y = x @ np.array([[1.0], [1.0]], np.float32)
    with strategy.scope():
        model = _dense_model([0.0, 0.0], 0.0, tf.keras.optimizers.SGD(0.2))
    mirrored_history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0).history["loss"]
    single = _dense_model([0.0, 0.0], 0.0, tf.keras.optimizers.SGD(0.2))
    single_history = single.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0).history["loss"]
    np.testing.assert_allclose(mirrored_history, single_history, rtol=1e-5)
    copies = model.layers[0].kernel.value.values
    assert [c.device.split("/")[-1] for c in copies] == ["device:GPU:0", "device:GPU:1"]
    np.testing.assert_array_equal(copies[0].numpy(), copies[1].numpy())
    np.testing.assert_allclose(copies[0].numpy(), single.get_weights()[0], rtol=1e-5)


def test_fit_that_cannot_fit_a_memory_limit_raises_resource_exhausted(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:40MiB")
    model = tf.keras.Sequential([tf.keras.Input(shape=(1024,)), tf.keras.layers.Dense(4096),
                                 tf.keras.layers.Dense(1)])  # a 16 MiB kernel fits; its two Adam slots do not
    model.compile(optimizer="adam", loss="mse")
    x = np.zeros((8, 1024), np.float32)
    with pytest.raises(tf.errors.ResourceExhaustedError, match="GPU_0_bfc"):
        model.fit(x, np.zeros((8, 1), np.float32), epochs=1, verbose=0)
    assert model.layers[0].kernel.value.device.endswith("GPU:0")


def test_tf1_optimizers_are_keras_optimizers_with_a_graph_path():
    import keras
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.25)
    assert isinstance(optimizer, keras.optimizers.SGD)
    var = tf.Variable(3.0)
    optimizer.minimize(lambda: var * var, [var])
    assert float(var.numpy()) == 1.5
    assert tf.compat.v1.train.GradientDescentOptimizer is tf.train.GradientDescentOptimizer


def test_a_recurrent_layer_traced_over_an_unknown_number_of_steps_matches_eager():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 5, 3)).astype(np.float32)
    for layer in (tf.keras.layers.LSTM(2, return_sequences=True), tf.keras.layers.GRU(2, return_sequences=True)):
        layer.build((None, 5, 3))
        traced = tf.function(layer.__call__, input_signature=[tf.TensorSpec([2, None, 3], tf.float32)])
        np.testing.assert_allclose(traced(tf.constant(x)).numpy(), layer(tf.constant(x)).numpy(), rtol=1e-6)
