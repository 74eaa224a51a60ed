"""Data-parallel training: an MLP classifier fit under MirroredStrategy on every GPU, the loss falling.

Each global batch of 64 is split across the replicas; every replica computes its gradients, the
strategy all-reduces them and each copy of the weights takes the same step.
"""
import numpy as np

import placeflow as tf

rng = np.random.RandomState(0)
labels = rng.randint(0, 4, size=2048).astype(np.int32)
centers = rng.randn(4, 32).astype(np.float32) * 0.6
features = centers[labels] + rng.randn(2048, 32).astype(np.float32) * 1.5

strategy = tf.distribute.MirroredStrategy()
print(f"{strategy.num_replicas_in_sync} replicas, all-reduce: {type(strategy.cross_device_ops).__name__}")
with strategy.scope():
  model = tf.keras.Sequential([
      tf.keras.layers.Dense(64, activation="relu", input_shape=(32,),
                            kernel_initializer=tf.keras.initializers.GlorotUniform(seed=0)),
      tf.keras.layers.Dense(4, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1)),
  ])
  model.compile(optimizer=tf.keras.optimizers.SGD(0.02, momentum=0.5),
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=["accuracy"])

with tf.distribute.experimental.PhaseTimer() as timer:
  history = model.fit(features, labels, batch_size=64, epochs=4, validation_data=(features[:256], labels[:256]),
                      verbose=2, shuffle=False)
losses = history.history["loss"]
print("loss per epoch:", " -> ".join(f"{v:.4f}" for v in losses))
print(f"final accuracy {history.history['accuracy'][-1]:.3f}, validation {history.history['val_accuracy'][-1]:.3f}")
print("time per step:", timer.summary())
assert losses[-1] < 0.75 * losses[0], "the loss should fall"
