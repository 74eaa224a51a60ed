"""Models built the same way by real Keras 3 (record_keras_files.py) and by placeflow (test_file_formats.py):
each `build(tf)` returns a model with fixed weights and explicit layer names."""

import numpy as np


def _weights(shape, offset):
    values = (np.arange(int(np.prod(shape))) * 7 + offset) % 13 - 6
    return (values.reshape(shape) / 20.0).astype(np.float32)


def _set(model):
    model.set_weights([_weights(w.shape, i) if len(w.shape) else np.float32(0) for i, w in
                       enumerate(model.get_weights())])
    return model


def cnn(tf):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(6, 6, 2)), L.Conv2D(3, 3, activation="relu", name="conv"),
                                 L.MaxPooling2D(name="pool"), L.BatchNormalization(name="bn"),
                                 L.Flatten(name="flat"), L.Dropout(0.2, name="drop"), L.Dense(2, name="head")],
                                name="cnn")
    _set(model)
    variance = model.get_layer("bn").moving_variance
    variance.assign(np.abs(variance.numpy()) + 0.5)  # a valid variance
    model.compile(optimizer="adam", loss="mse")
    return model


def functional(tf):
    L = tf.keras.layers
    x = tf.keras.Input(shape=(3,), name="features")
    hidden = L.Dense(4, activation="tanh", name="hidden")(x)
    merged = L.Concatenate(name="merge")([hidden, x])
    normed = L.LayerNormalization(name="norm")(merged)
    out = L.Dense(2, activation="softmax", name="probs")(normed)
    return _set(tf.keras.Model(x, out, name="functional_net"))


def recurrent(tf):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(4, 3)), L.LSTM(3, return_sequences=True, name="lstm"),
                                 L.GRU(2, name="gru"), L.Dense(1, name="out")], name="recurrent_net")
    return _set(model)


def embedding(tf):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(5,), dtype="int32"), L.Embedding(10, 3, name="embed"),
                                 L.GlobalAveragePooling1D(name="avg"), L.Dense(1, name="out")], name="embedding_net")
    return _set(model)


def assorted(tf):
    L = tf.keras.layers
    x = tf.keras.Input(shape=(8, 2), name="signal")
    scaled = L.Rescaling(0.5, offset=0.1, name="scale")(x)
    conv = L.Conv1D(3, 3, padding="same", activation="relu", name="conv1d")(scaled)
    pooled = L.MaxPooling1D(2, name="pool1d")(conv)
    averaged = L.AveragePooling1D(2, name="avg1d")(conv)
    summed = L.Add(name="add")([pooled, averaged])
    product = L.Multiply(name="mul")([summed, pooled])
    reshaped = L.Reshape((12,), name="reshape")(product)
    normed = L.Normalization(mean=0.2, variance=2.0, name="normalize")(reshaped)
    hidden = L.Dense(4, activation="gelu", name="hidden")(normed)
    out = L.Dense(1, activation="sigmoid", name="out")(L.Dropout(0.3, name="drop")(hidden))
    return _set(tf.keras.Model(x, out, name="assorted_net"))


MODELS = {"cnn": cnn, "functional": functional, "recurrent": recurrent, "embedding": embedding, "assorted": assorted}
INPUTS = {
    "cnn": (np.arange(2 * 6 * 6 * 2, dtype=np.float32).reshape(2, 6, 6, 2) % 9 - 4.0) / 4.0,
    "functional": np.array([[1.0, -0.5, 2.0], [0.25, 0.5, -1.0]], np.float32),
    "recurrent": (np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3) % 5 - 2.0) / 2.0,
    "embedding": np.array([[1, 2, 3, 4, 5], [9, 0, 9, 0, 1]], np.int32),
    "assorted": (np.arange(2 * 8 * 2, dtype=np.float32).reshape(2, 8, 2) % 7 - 3.0) / 3.0,
}
