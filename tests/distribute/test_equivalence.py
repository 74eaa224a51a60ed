"""Data-parallel training gives the weights single-device training gives, on the same global batches.

Keras's fit: 24 examples in batches of 8 split evenly over 1, 2 and 4 replicas. (Keras 3 averages each
replica's loss over its own examples and divides by the replica count, so an uneven last batch weighs
its examples differently from one device, in TensorFlow as here: tests/conformance records that case.)
The custom loop with compute_average_loss covers the uneven split: 23 examples in batches of 10 make a
last batch of 3, which over 4 replicas splits [1, 1, 1, 0].
"""

import numpy as np
import pytest

import placeflow as tf

ROWS, FEATURES, CLASSES, BATCH = 23, 5, 3, 10
FIT_ROWS, FIT_BATCH = 24, 8


def data(rows=ROWS):
    rng = np.random.RandomState(0)
    x = rng.randn(rows, FEATURES).astype(np.float32)
    y = rng.randint(0, CLASSES, size=rows).astype(np.int32)
    return x, y


def build(optimizer):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(FEATURES,),
                              kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1)),
        tf.keras.layers.Dense(CLASSES, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=2)),
    ])
    optimizers = {"sgd": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9),
                  "adam": lambda: tf.keras.optimizers.Adam(0.01)}
    model.compile(optimizer=optimizers[optimizer](), metrics=["accuracy"],
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def train(strategy, optimizer):
    x, y = data(FIT_ROWS)
    with strategy.scope():
        model = build(optimizer)
    history = model.fit(x, y, batch_size=FIT_BATCH, epochs=3, shuffle=False, verbose=0)
    return model, history


def devices_for(make_context, kind, replicas):
    if kind == "GPU":
        make_context(PLACEFLOW_SIMULATED_GPUS=4)
        return [f"/gpu:{i}" for i in range(replicas)]
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return [f"/cpu:{i}" for i in range(replicas)]


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
@pytest.mark.parametrize("replicas", [1, 2, 4])
@pytest.mark.parametrize("kind", ["CPU", "GPU"])
def test_mirrored_training_matches_single_device(make_context, kind, replicas, optimizer):
    devices = devices_for(make_context, kind, replicas)
    reference, reference_history = train(tf.distribute.OneDeviceStrategy(devices[0]), optimizer)
    strategy = tf.distribute.MirroredStrategy(devices)
    model, history = train(strategy, optimizer)
    assert strategy.num_replicas_in_sync == replicas
    for got, expected in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(history.history["loss"], reference_history.history["loss"], rtol=1e-5)
    np.testing.assert_allclose(history.history["accuracy"], reference_history.history["accuracy"])
    for weight in model.weights:  # every replica's copy is identical
        mirrored = weight.value  # the tf.Variable a Keras variable holds: here a MirroredVariable
        copies = [c.numpy() for c in mirrored.values]
        assert len(copies) == replicas
        for copy in copies[1:]:
            np.testing.assert_array_equal(copy, copies[0])


@pytest.mark.parametrize("all_reduce", ["ReductionToOneDevice", "HierarchicalCopyAllReduce", "NcclAllReduce"])
def test_every_all_reduce_trains_the_same(make_context, all_reduce):
    devices = devices_for(make_context, "GPU", 4)
    reference, _ = train(tf.distribute.OneDeviceStrategy(devices[0]), "sgd")
    strategy = tf.distribute.MirroredStrategy(devices, cross_device_ops=getattr(tf.distribute, all_reduce)())
    model, _ = train(strategy, "sgd")
    for got, expected in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_custom_loop_with_run_and_reduce_matches_plain_numpy(make_context):
    devices = devices_for(make_context, "CPU", 2)
    strategy = tf.distribute.MirroredStrategy(devices)
    x, _ = data()
    target = x.sum(axis=1, keepdims=True)
    with strategy.scope():
        w = tf.Variable(np.zeros((FEATURES, 1), np.float32))
        optimizer = tf.keras.optimizers.SGD(0.05)

    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.matmul(xb, w) - yb)) / float(ROWS)
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    @tf.function
    def train_step(batch):
        return strategy.run(step, args=batch)

    dataset = tf.data.Dataset.from_tensor_slices((x, target)).batch(ROWS)
    expected = np.zeros((FEATURES, 1), np.float32)
    for _ in range(5):
        for batch in strategy.experimental_distribute_dataset(dataset):
            losses = train_step(batch)
            total = strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)
        residual = x @ expected - target
        np.testing.assert_allclose(total.numpy(), (residual ** 2).sum() / ROWS, rtol=1e-5)
        expected = expected - 0.05 * (2 * x.T @ residual / ROWS)
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(w.values[0].numpy(), w.values[1].numpy())
