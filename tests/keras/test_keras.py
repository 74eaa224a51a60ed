"""The Keras subset: layers, models, compile/fit/evaluate/predict, losses, metrics, optimizers."""

import numpy as np
import pytest

import placeflow as tf


def regression_data(rows=64):
    x = np.linspace(-1, 1, rows, dtype=np.float32).reshape(-1, 1)
    return x, 3 * x + 1


def classifier(**compile_args):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,),
                              kernel_initializer=tf.keras.initializers.GlorotUniform(seed=0)),
        tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1)),
    ])
    model.compile(**{"optimizer": tf.keras.optimizers.Adam(0.05), "loss": "sparse_categorical_crossentropy",
                     "metrics": ["accuracy"], **compile_args})
    return model


def blobs(rows=90):
    rng = np.random.RandomState(0)
    y = np.arange(rows) % 3
    x = rng.randn(rows, 4).astype(np.float32) * 0.3 + np.eye(3, 4, dtype=np.float32)[y] * 2
    return x, y.astype(np.int32)


def test_functional_model_from_the_seed_fits_a_line():
    inputs = tf.keras.layers.Input(shape=(1,))
    predictions = tf.keras.layers.Dense(1)(inputs)
    model = tf.keras.models.Model(inputs=inputs, outputs=predictions)
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.2))
    assert inputs.shape == (None, 1) and predictions.shape == (None, 1)
    x, y = regression_data()
    history = model.fit(x, y, batch_size=16, epochs=30, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == 30 and losses[-1] < losses[0] / 100
    kernel, bias = model.get_weights()
    assert kernel.shape == (1, 1) and abs(kernel[0, 0] - 3) < 0.05 and abs(bias[0] - 1) < 0.05
    np.testing.assert_allclose(model.predict(x[:3]), x[:3] * kernel + bias, rtol=1e-5)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(losses[-1], rel=0.5)


def test_classifier_reports_accuracy_and_validation():
    x, y = blobs()
    model = classifier()
    history = model.fit(x, y, batch_size=32, epochs=8, validation_data=(x[:30], y[:30]), verbose=0, seed=0)
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert history.history["accuracy"][-1] > 0.9 and history.history["val_loss"][-1] < history.history["loss"][0]
    loss, accuracy = model.evaluate(x, y, verbose=0)
    assert accuracy > 0.9 and model.evaluate(x, y, return_dict=True, verbose=0)["accuracy"] == accuracy
    assert model.predict(x, batch_size=7).shape == (90, 3)
    assert model.metrics_names == ["loss", "accuracy"]


def test_fit_traces_its_step_once_per_batch_shape_and_accepts_datasets():
    x, y = blobs(70)
    model = classifier()
    model.fit(x, y, batch_size=32, epochs=3, verbose=0, shuffle=False)
    assert model._function("train").experimental_get_tracing_count() == 2  # batches of 32 and of 6
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(70, seed=1).batch(35)
    history = model.fit(dataset, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    with pytest.raises(ValueError, match="`y` argument is not supported when using dataset"):
        model.fit(dataset, y, verbose=0)


def test_one_sgd_step_matches_numpy():
    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32)
    y = np.array([[1.0], [0.0], [2.0]], np.float32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.5), loss="mse")
    model.fit(x, y, batch_size=3, epochs=2, verbose=0, shuffle=False)
    w, b, velocity_w, velocity_b = np.ones((2, 1), np.float32), np.zeros(1, np.float32), 0.0, 0.0
    for _ in range(2):
        error = x @ w + b - y
        grad_w, grad_b = 2 * x.T @ error / 3, 2 * error.sum(axis=0) / 3
        velocity_w, velocity_b = 0.5 * velocity_w - 0.1 * grad_w, 0.5 * velocity_b - 0.1 * grad_b
        w, b = w + velocity_w, b + velocity_b
    np.testing.assert_allclose(model.get_weights()[0], w, rtol=1e-5)
    np.testing.assert_allclose(model.get_weights()[1], b, rtol=1e-5, atol=1e-7)


def test_adam_matches_its_formula():
    var = tf.Variable([1.0, -2.0])
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.1)
    grads = [np.array([0.5, -1.0], np.float32), np.array([0.2, 0.3], np.float32)]
    m = v = np.zeros(2)
    expected = np.array([1.0, -2.0])
    for t, g in enumerate(grads, start=1):
        optimizer.apply_gradients([(tf.constant(g), var)])
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        expected = expected - 0.1 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t) * m / (np.sqrt(v) + 1e-7)
    np.testing.assert_allclose(var.numpy(), expected, rtol=1e-5)
    assert float(optimizer.iterations.numpy()) == 2.0
    assert sorted(optimizer.get_config()) == ["beta_1", "beta_2", "clipnorm", "clipvalue", "epsilon",
                                              "global_clipnorm", "learning_rate", "name", "weight_decay"]


def test_minimize_and_the_tensorflow_1_optimizer_names():
    var = tf.Variable(3.0)
    tf.train.GradientDescentOptimizer(0.25).minimize(lambda: var * var, [var])
    assert float(var.numpy()) == 1.5
    assert tf.compat.v1.train.GradientDescentOptimizer is tf.train.GradientDescentOptimizer
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        tf.keras.optimizers.SGD().apply_gradients([(None, var)])


def test_losses_and_metrics_values():
    y_true = np.array([0, 2], np.int32)
    probs = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]], np.float32)
    sce = tf.keras.losses.SparseCategoricalCrossentropy()
    assert float(sce(y_true, probs).numpy()) == pytest.approx(-(np.log(0.7) + np.log(0.6)) / 2, rel=1e-5)
    logits = np.log(probs)
    assert float(tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(y_true, logits).numpy()) == \
        pytest.approx(-(np.log(0.7) + np.log(0.6)) / 2, rel=1e-5)
    mse = tf.keras.losses.get("mse")
    assert float(mse(np.array([1.0, 2.0]), np.array([[1.5], [2.0]], np.float32)).numpy()) == pytest.approx(0.125)
    accuracy = tf.keras.metrics.get("accuracy", sce)
    assert accuracy.name == "accuracy" and float(accuracy(tf.constant(y_true), tf.constant(probs))) == 1.0
    with pytest.raises(ValueError, match="Unknown loss function: 'not_a_loss'"):
        tf.keras.losses.get("not_a_loss")


def test_weights_round_trip_and_teaching_errors():
    model = classifier()
    weights = model.get_weights()
    assert [w.shape for w in weights] == [(4, 16), (16,), (16, 3), (3,)]
    model.set_weights([w + 1 for w in weights])
    np.testing.assert_allclose(model.get_weights()[1], weights[1] + 1)
    with pytest.raises(ValueError, match="with a weight list of length 1, but it expects 4 weights"):
        model.set_weights(weights[:1])
    with pytest.raises(ValueError, match=r"weight shape \(4, 16\) is not compatible with provided weight shape"):
        model.set_weights([np.zeros((2, 2))] + weights[1:])
    np.testing.assert_allclose(model.get_weights()[0], weights[0] + 1)  # a rejected set changes nothing
    with pytest.raises(RuntimeError, match="You must compile your model before training"):
        tf.keras.Sequential([tf.keras.layers.Dense(1)]).fit(np.zeros((2, 1)), np.zeros(2), verbose=0)
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        model.fit(np.zeros((3, 4)), np.zeros(2), verbose=0)


def test_progress_output(capsys, monkeypatch):
    x, y = regression_data(32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, batch_size=8, epochs=2, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[1].startswith("4/4 - ") and " - loss: " in lines[1]
    assert lines[2] == "Epoch 2/2"
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    assert capsys.readouterr().out == ""
    import sys
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)  # a terminal: the live bar (tqdm)
    model.fit(x, y, batch_size=8, epochs=1, verbose=1)
    out = capsys.readouterr().out
    assert out.startswith("Epoch 1/1") and "4/4 [" in out and "loss: " in out and "\r" in out


def test_sequential_builds_lazily_and_summarizes(capsys):
    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Dense(3, activation="tanh"))
    model.add(tf.keras.layers.Dense(2))
    assert not model.built
    out = model(tf.constant(np.ones((5, 4), np.float32)))
    assert out.shape == (5, 2) and model.built and model.count_params() == 4 * 3 + 3 + 3 * 2 + 2
    model.summary()
    text = capsys.readouterr().out
    assert "dense" in text and "Total params: 23" in text
    with pytest.raises(ValueError, match="Unknown activation function: 'swishy'"):
        tf.keras.layers.Dense(2, activation="swishy")


def test_unnamed_metrics_get_keras_numbered_names():
    first, second = tf.keras.metrics.Precision(), tf.keras.metrics.Precision()
    base = first.name.split("_")[0]
    assert base == "precision" and second.name != first.name and second.name.startswith("precision_")
    assert tf.keras.metrics.Precision(name="mine").name == "mine"


def test_recurrent_layers_over_an_unknown_number_of_steps_match_the_unrolled_ones():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 5, 3)).astype(np.float32)
    for layer in (tf.keras.layers.LSTM(2, return_sequences=True), tf.keras.layers.GRU(2, return_sequences=True)):
        layer.build((None, 5, 3))
        traced = tf.function(layer.__call__, input_signature=[tf.TensorSpec([2, None, 3], tf.float32)])
        np.testing.assert_allclose(traced(tf.constant(x)).numpy(), layer(tf.constant(x)).numpy(), rtol=1e-6)
