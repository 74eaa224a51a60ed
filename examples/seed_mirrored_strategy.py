"""Seeds 000 and 002, "With tf.distribute.Strategy": a Keras model built and compiled under MirroredStrategy."""
import numpy as np

import placeflow as tf

# Seed 000
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
  inputs = tf.keras.layers.Input(shape=(1,))
  predictions = tf.keras.layers.Dense(1)(inputs)
  model = tf.keras.models.Model(inputs=inputs, outputs=predictions)
  model.compile(loss='mse',
                optimizer=tf.train.GradientDescentOptimizer(learning_rate=0.2))

# Seed 002: over the logical GPUs, logging where each variable copy is made
tf.debugging.set_log_device_placement(True)
gpus = tf.config.list_logical_devices('GPU')
strategy = tf.distribute.MirroredStrategy(gpus)
with strategy.scope():
  inputs = tf.keras.layers.Input(shape=(1,))
  predictions = tf.keras.layers.Dense(1)(inputs)
  model = tf.keras.models.Model(inputs=inputs, outputs=predictions)
  model.compile(loss='mse',
                optimizer=tf.keras.optimizers.SGD(learning_rate=0.2))
tf.debugging.set_log_device_placement(False)

# "This program will run a copy of your model on each GPU, splitting the input data between them"
x = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(-1, 1)
history = model.fit(x, 3.0 * x + 1.0, batch_size=16, epochs=20, verbose=0, shuffle=False)
kernel, bias = model.get_weights()
print(f"replicas: {strategy.num_replicas_in_sync}")
print(f"loss: {history.history['loss'][0]:.4f} -> {history.history['loss'][-1]:.6f}")
print(f"y = {kernel[0, 0]:.3f} x + {bias[0]:.3f}")
# a Keras variable holds its tf.Variable in `.value`: under the strategy, a MirroredVariable with one copy per GPU
print("kernel copies:", [c.device for c in model.layers[1].kernel.value.values])
print("copies identical:", all(np.array_equal(c.numpy(), kernel) for c in model.layers[1].kernel.value.values))
