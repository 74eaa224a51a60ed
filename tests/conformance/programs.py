"""Programs run by both real TensorFlow 2.21 (record_tf.py) and placeflow (test_conformance.py).

Each case is `def case_<name>(tf, env) -> JSON-able value`; `env.devices` names two devices for
MirroredStrategy (two logical CPUs under TensorFlow, two simulated GPUs under placeflow). An
exception is recorded as its class name, so error cases compare the class TensorFlow raises.

A case marked `@single_replica_reference` is recorded from TensorFlow on ONE device: there Keras 3
itself departs from its single-device numbers (docs/divergences.md), and placeflow must give the
single-device answer on two replicas.
"""

import json
import os

import numpy as np

W1 = np.array([[0.5, -0.25], [0.75, 0.1]], np.float32)
B1 = np.array([0.1, -0.2], np.float32)
W2 = np.array([[0.3], [-0.6]], np.float32)
B2 = np.array([0.05], np.float32)
X = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
Y = np.array([[1.0], [0.0], [-1.0], [2.0]], np.float32)


def single_replica_reference(case):
    """Record this case from TensorFlow with one device (see the module docstring)."""
    case.single_replica_reference = True
    return case


def isolated(case):
    """Record this case from TensorFlow in a fresh process: TF's collectives can fail, and Keras's loss
    scaling can change, once earlier cases have used MirroredStrategy in the same process, and an error raised
    inside some TF decorators leaves TF's state changed (placeflow runs it with the others)."""
    case.isolated = True
    return case


def replicas(count):
    """Run this case with `count` devices (logical CPUs under TensorFlow, in a fresh process; simulated GPUs
    under placeflow) instead of two."""
    def mark(case):
        case.replicas = count
        case.isolated = True
        return case
    return mark


def _two_dense(tf):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(2, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([W1, B1, W2, B2])
    return model


HOOKS = ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
         "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
         "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end")


def _rounded(values, digits=5):
    return [round(float(v), digits) for v in np.ravel(values)]


# -- tf.Module and Keras tracking (issue 15 items 5 and 6) ------------------------------------------
def case_module_tracks_variables_in_attributes_lists_and_dicts(tf, env):
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(1.0, name="inner_w")

    class Outer(tf.Module):
        def __init__(self):
            super().__init__(name="outer")
            self.zeta = tf.Variable(2.0, name="zeta")
            self.alpha = [tf.Variable(3.0, name="alpha0"), tf.Variable(4.0, name="alpha1", trainable=False)]
            self.table = {"b": tf.Variable(5.0, name="tb"), "a": tf.Variable(6.0, name="ta")}
            self.child = Inner()
            self.later = []

    outer = Outer()
    outer.later.append(tf.Variable(7.0, name="late"))
    return {"variables": [v.name for v in outer.variables],
            "trainable": [v.name for v in outer.trainable_variables],
            "submodules": [m.name for m in outer.submodules], "name": outer.name}


def case_subclassed_model_tracks_layers_and_trains(tf, env):
    class TwoLayer(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(2, activation="relu")
            self.heads = [tf.keras.layers.Dense(1)]

        def call(self, x):
            return self.heads[0](self.hidden(x))

    model = TwoLayer()
    model(X)
    model.set_weights([W1, B1, W2, B2])
    optimizer = tf.keras.optimizers.SGD(0.1)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(X) - Y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    return {"trainable": len(model.trainable_variables), "layers": len(model.layers),
            "loss": round(float(loss), 5), "fit": _rounded(history.history["loss"]),
            "weights": _rounded(np.concatenate([w.ravel() for w in model.get_weights()]))}


def case_custom_layer_with_add_weight_and_sublayer(tf, env):
    class Scale(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = tf.keras.layers.Dense(1, use_bias=False)

        def build(self, input_shape):
            self.scale = self.add_weight(name="scale", shape=(), initializer="ones")

        def call(self, x):
            return self.inner(x) * self.scale

    layer = Scale()
    layer(X)
    return {"weights": len(layer.weights), "trainable": len(layer.trainable_weights)}


def case_frozen_layer_is_not_trained(tf, env):
    model = _two_dense(tf)
    model.layers[0].trainable = False
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    weights = model.get_weights()
    return {"trainable": len(model.trainable_weights), "non_trainable": len(model.non_trainable_weights),
            "frozen_kernel_unchanged": bool(np.array_equal(weights[0], W1)),
            "head": _rounded(np.concatenate([weights[2].ravel(), weights[3]]))}


# -- losses (item 7) -------------------------------------------------------------------------------
def case_custom_scalar_loss_is_not_divided_again(tf, env):
    def scalar_loss(y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred))

    model = _two_dense(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=scalar_loss)
    before = model.evaluate(X, Y, batch_size=2, verbose=0)
    history = model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    return {"evaluate": round(float(before), 5), "fit": _rounded(history.history["loss"]),
            "after": round(float(model.evaluate(X, Y, batch_size=4, verbose=0)), 5)}


def case_custom_per_element_loss_is_averaged_over_every_element(tf, env):
    def squared(y_true, y_pred):
        return tf.square(y_true - y_pred)

    model = _two_dense(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=squared)
    history = model.fit(X, Y, batch_size=2, epochs=1, shuffle=False, verbose=0)
    return {"evaluate": round(float(model.evaluate(X, Y, verbose=0)), 5), "fit": _rounded(history.history["loss"])}


# -- distributed values (item 9) ---------------------------------------------------------------------
def case_only_first_replica_int64_counter(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        counter = tf.Variable(0, dtype=tf.int64, trainable=False,
                              aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)

    @tf.function
    def step():
        counter.assign_add(1)

    strategy.run(step)
    strategy.run(step)
    return int(counter.numpy())


# -- optimizer options (item 17) ---------------------------------------------------------------------
def _one_step(tf, **options):
    var = tf.Variable([1.0, 1.0])
    optimizer = tf.keras.optimizers.SGD(1.0, **options)
    optimizer.apply_gradients([(tf.constant([100.0, 100.0]), var)])
    return _rounded(var.numpy(), 6)


def case_sgd_clipnorm(tf, env):
    return _one_step(tf, clipnorm=1e-3)


def case_sgd_clipvalue(tf, env):
    return _one_step(tf, clipvalue=0.5)


def case_sgd_global_clipnorm(tf, env):
    a, b = tf.Variable([1.0, 1.0]), tf.Variable([2.0])
    optimizer = tf.keras.optimizers.SGD(1.0, global_clipnorm=1.0)
    optimizer.apply_gradients([(tf.constant([3.0, 0.0]), a), (tf.constant([4.0]), b)])
    return _rounded(np.concatenate([a.numpy(), b.numpy()]), 6)


def case_clipnorm_and_global_clipnorm_together(tf, env):
    return _one_step(tf, clipnorm=1.0, global_clipnorm=1.0)


def case_unknown_optimizer_keyword(tf, env):
    tf.keras.optimizers.SGD(0.1, clip_norm=1.0)


def case_unknown_layer_keyword(tf, env):
    tf.keras.layers.Dense(1, units_out=3)


def case_unknown_compile_keyword(tf, env):
    _two_dense(tf).compile(optimizer="sgd", loss="mse", metrix=["mae"])


def case_unknown_fit_keyword(tf, env):
    model = _two_dense(tf)
    model.compile(optimizer="sgd", loss="mse")
    model.fit(X, Y, epoch=2, verbose=0)


def case_softmax_cross_entropy_axis(tf, env):
    logits = tf.constant([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]])
    labels = tf.constant([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]]) + tf.constant([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=tf.transpose(logits), axis=0)
    return _rounded(loss.numpy())


def case_fit_sample_weight_and_class_weight(tf, env):
    labels = np.array([0, 1, 1, 0], np.int64)
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(2)])
    model.set_weights([W1, B1])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    weighted = model.fit(X, labels, batch_size=2, epochs=1, shuffle=False, verbose=0,
                         sample_weight=np.array([1.0, 2.0, 0.5, 0.0], np.float32))
    by_class = model.fit(X, labels, batch_size=2, epochs=1, shuffle=False, verbose=0, class_weight={0: 1.0, 1: 3.0})
    return {"sample_weight": _rounded(weighted.history["loss"]), "class_weight": _rounded(by_class.history["loss"]),
            "weights": _rounded(np.concatenate([w.ravel() for w in model.get_weights()]))}


def case_fit_validation_split(tf, env):
    model = _two_dense(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0, validation_split=0.5)
    return {name: _rounded(values) for name, values in sorted(history.history.items())}


def case_fit_callback_hook_order(tf, env):
    calls = []

    class Recorder(tf.keras.callbacks.Callback):
        pass

    for hook in HOOKS:
        setattr(Recorder, hook, lambda self, *args, _hook=hook, **kwargs: calls.append(_hook))

    model = _two_dense(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0, validation_data=(X, Y),
              callbacks=[Recorder()])
    return calls


def case_aggregation_none_assign_in_replica_context_writes_each_copy(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        v = tf.Variable(0.0)

    def f():
        v.assign(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 5.0)
        return v.read_value()

    eager = strategy.run(f)
    traced = tf.function(lambda: strategy.run(f))()
    return {"eager": [float(x.numpy()) for x in eager.values], "traced": [float(x.numpy()) for x in traced.values],
            "copies": [float(x.numpy()) for x in v.values]}


@single_replica_reference  # Keras 3 on 2 replicas: a scalar custom loss is not divided by the replicas (2x)
@isolated  # in one process after other cases, TF 2.21 logs this loss per replica-mean (half); fresh, as here
def case_subclassed_model_fit_under_mirrored_strategy(tf, env):
    class TwoLayer(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.blocks = {"hidden": tf.keras.layers.Dense(2, activation="relu"), "head": tf.keras.layers.Dense(1)}

        def call(self, x):
            return self.blocks["head"](self.blocks["hidden"](x))

    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = TwoLayer()
        model(X[:1])
        model.set_weights([W1, B1, W2, B2])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=lambda t, p: tf.reduce_mean(tf.square(t - p)))
    history = model.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return {"fit": _rounded(history.history["loss"]), "trainable": len(model.trainable_variables),
            "weights": _rounded(np.concatenate([w.ravel() for w in model.get_weights()]))}


@single_replica_reference  # Keras 3 on 2 replicas: "Shape mismatch in the collective instance" (it aborts)
def case_frozen_layer_under_mirrored_strategy(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = _two_dense(tf)
        model.layers[1].trainable = False
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    model.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    weights = model.get_weights()
    return {"trainable": len(model.trainable_weights), "head_unchanged": bool(np.array_equal(weights[2], W2)),
            "hidden": _rounded(np.concatenate([weights[0].ravel(), weights[1]]))}


def case_unknown_predict_keyword(tf, env):
    _two_dense(tf).predict(X, epoch=1, verbose=0)


def case_trainable_setter_reaches_variables_and_back(tf, env):
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    layer.trainable = False
    frozen = [layer.kernel.trainable, len(layer.trainable_weights), len(layer.non_trainable_weights)]
    layer.trainable = True
    return {"frozen": frozen, "thawed": [layer.kernel.trainable, len(layer.trainable_weights)]}


# -- items 1, 3, 8, 10: values and error classes recorded from TensorFlow ------------------------------
def case_accuracy_inside_a_function_compares_elementwise(tf, env):
    @tf.function
    def accuracy(logits, labels):
        return tf.reduce_mean(tf.cast(tf.argmax(logits, 1) == labels, tf.float32))

    @tf.function
    def mask(x):
        return tf.where(x == 2, 1.0, 0.0)

    logits = tf.constant([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    return {"accuracy": round(float(accuracy(logits, tf.constant([1, 0, 0], dtype=tf.int64))), 5),
            "mask": _rounded(mask(tf.constant([1, 2, 3])).numpy())}


def case_replica_ids_in_a_function_run_by_the_strategy(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)

    @tf.function
    def replica_value():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0

    return [float(v.numpy()) for v in strategy.run(replica_value).values]


def case_numpy_returns_an_array_the_caller_owns(tf, env):
    c, v = tf.constant([1.0, 2.0]), tf.Variable([1.0, 2.0])
    a, b = c.numpy(), v.numpy()
    a[0], b[0] = 9.0, 9.0
    return {"constant": _rounded(c.numpy()), "variable": _rounded(v.numpy())}


def _error_case(expression):
    """A case whose outcome is the error class TF raises (or, where TF computes a value, that value)."""
    def case(tf, env):
        return np.asarray(expression(tf).numpy()).tolist()
    return case


for _name, _expression in {
    "add_none": lambda tf: tf.add(tf.constant([1.0]), None),
    "constant_object": lambda tf: tf.constant(object()),
    "constant_none": lambda tf: tf.constant(None),
    "constant_int32_overflow": lambda tf: tf.constant(2**40, dtype=tf.int32),
    "constant_uint8_negative": lambda tf: tf.constant(-1, dtype=tf.uint8),
    "zeros_fractional_shape": lambda tf: tf.zeros([1.5]),
    "cast_to_string": lambda tf: tf.cast(tf.constant([1.0]), tf.string),
    "one_hot_negative_depth": lambda tf: tf.one_hot([0, 1], -1),
    "tile_too_many_multiples": lambda tf: tf.tile(tf.constant([1, 2]), [2, 2]),
    "matmul_of_vectors": lambda tf: tf.matmul(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
    "integer_floordiv_by_zero": lambda tf: tf.math.floordiv(tf.constant([4]), tf.constant([0])),
    "integer_floormod_by_zero": lambda tf: tf.math.floormod(tf.constant([4]), tf.constant([0])),
    "range_in_the_wrong_direction": lambda tf: tf.range(10, 0, 1),
}.items():
    globals()[f"case_error_{_name}"] = _error_case(_expression)


def case_reductions_of_empty_tensors(tf, env):
    empty = tf.zeros([0])
    return {"max": float(tf.reduce_max(empty).numpy()), "min": float(tf.reduce_min(empty).numpy()),
            "int_max": int(tf.reduce_max(tf.zeros([0], tf.int32)).numpy())}


# -- issue 16: new ops, forward values (float32 rounded to 5 digits) and error classes ---------------------
def _value_case(expression):
    """A case whose outcome is the value `expression(tf)` computes (rounded), or the error class it raises."""
    def case(tf, env):
        value = np.asarray(expression(tf).numpy())
        return _rounded(value) if value.dtype.kind == "f" else value.tolist()
    return case


_V = [[-2.5, -0.5, 0.0], [0.5, 1.5, 7.25]]
for _name, _expression in {
    "floor": lambda tf: tf.math.floor(tf.constant(_V)),
    "ceil": lambda tf: tf.math.ceil(tf.constant(_V)),
    "round_half_to_even": lambda tf: tf.math.round(tf.constant(_V)),
    "round_int": lambda tf: tf.math.round(tf.constant([1, -2])),
    "log1p": lambda tf: tf.math.log1p(tf.constant([0.0, 1e-8, 1.5])),
    "expm1": lambda tf: tf.math.expm1(tf.constant([0.0, 1e-8, -1.5])),
    "is_nan": lambda tf: tf.math.is_nan(tf.constant([1.0, float("nan"), float("inf")])),
    "is_inf": lambda tf: tf.math.is_inf(tf.constant([1.0, float("nan"), -float("inf")])),
    "is_finite": lambda tf: tf.math.is_finite(tf.constant([1.0, float("nan"), float("inf")])),
    "is_nan_of_int": lambda tf: tf.math.is_nan(tf.constant([1, 2])),
    "cumsum": lambda tf: tf.math.cumsum(tf.constant(_V), axis=1),
    "cumsum_exclusive_reverse": lambda tf: tf.math.cumsum(tf.constant(_V), axis=0, exclusive=True, reverse=True),
    "cumsum_int": lambda tf: tf.cumsum(tf.constant([1, 2, 3, 4])),
    "cumprod": lambda tf: tf.math.cumprod(tf.constant(_V), axis=1, exclusive=True),
    "cumsum_bad_axis": lambda tf: tf.math.cumsum(tf.constant([1.0, 2.0]), axis=3),
    "reduce_all": lambda tf: tf.reduce_all(tf.constant([[True, False], [True, True]]), axis=1),
    "reduce_any": lambda tf: tf.reduce_any(tf.constant([[False, False], [True, False]]), axis=0),
    "reduce_any_of_floats": lambda tf: tf.reduce_any(tf.constant([1.0])),
    "reduce_logsumexp": lambda tf: tf.reduce_logsumexp(tf.constant(_V), axis=1),
    "reduce_logsumexp_keepdims": lambda tf: tf.reduce_logsumexp(tf.constant([[1000.0, 1000.0]]), keepdims=True),
    "reduce_logsumexp_all_minus_inf": lambda tf: tf.reduce_logsumexp(tf.constant([-float("inf")] * 2)),
    "reduce_variance": lambda tf: tf.math.reduce_variance(tf.constant(_V), axis=0),
    "reduce_std": lambda tf: tf.math.reduce_std(tf.constant(_V)),
    "reduce_variance_of_int": lambda tf: tf.math.reduce_variance(tf.constant([1, 2])),
    "count_nonzero": lambda tf: tf.math.count_nonzero(tf.constant(_V), axis=1),
    "count_nonzero_bool": lambda tf: tf.math.count_nonzero(tf.constant([True, False, True])),
    "relu6": lambda tf: tf.nn.relu6(tf.constant([-1.0, 3.0, 7.5])),
    "leaky_relu": lambda tf: tf.nn.leaky_relu(tf.constant([-1.0, 3.0]), alpha=0.1),
    "leaky_relu_default": lambda tf: tf.nn.leaky_relu(tf.constant([-1.0, 3.0])),
    "elu": lambda tf: tf.nn.elu(tf.constant([-1.0, 0.0, 2.0])),
    "selu": lambda tf: tf.nn.selu(tf.constant([-1.0, 0.0, 2.0])),
    "softplus": lambda tf: tf.nn.softplus(tf.constant([-30.0, 0.0, 2.0, 30.0])),
    "l2_normalize": lambda tf: tf.math.l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]]), axis=1),
    "sigmoid_cross_entropy": lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.constant([0.0, 1.0, 0.5]), logits=tf.constant([-2.0, 3.0, 0.0])),
    "sigmoid_cross_entropy_shapes": lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.constant([0.0, 1.0]), logits=tf.constant([-2.0, 3.0, 0.0])),
    "moments_mean": lambda tf: tf.nn.moments(tf.constant(_V), axes=[0])[0],
    "moments_variance": lambda tf: tf.nn.moments(tf.constant(_V), axes=[0, 1])[1],
    "stop_gradient_value": lambda tf: tf.stop_gradient(tf.constant([1.0, 2.0])),
}.items():
    globals()[f"case_op_{_name}"] = _value_case(_expression)


def case_stop_gradient_blocks_the_tape(tf, env):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * tf.stop_gradient(x * 3.0))
    return _rounded(tape.gradient(y, x).numpy())


def case_gradients_of_new_activations(tf, env):
    x = tf.constant([-1.5, -0.25, 0.5, 6.5])
    out = {}
    for name, fn in (("relu6", tf.nn.relu6), ("leaky_relu", tf.nn.leaky_relu), ("elu", tf.nn.elu),
                     ("selu", tf.nn.selu), ("softplus", tf.nn.softplus),
                     ("cumsum", lambda v: tf.math.cumsum(v) * tf.constant([1.0, 2.0, 3.0, 4.0])),
                     ("logsumexp", lambda v: tf.reduce_logsumexp(v)),
                     ("std", lambda v: tf.math.reduce_std(v))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))
        out[name] = _rounded(tape.gradient(y, x).numpy())
    return out


_P = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
for _name, _expression in {
    "gather_axis1": lambda tf: tf.gather(tf.constant(_P), [2, 0, 2], axis=1),
    "gather_scalar_index": lambda tf: tf.gather(tf.constant(_P), 1),
    "gather_out_of_range": lambda tf: tf.gather(tf.constant(_P), [5]),
    "gather_float_indices": lambda tf: tf.gather(tf.constant(_P), tf.constant([0.0])),
    "gather_nd_elements": lambda tf: tf.gather_nd(tf.constant(_P), [[1, 2], [0, 0]]),
    "gather_nd_rows": lambda tf: tf.gather_nd(tf.constant(_P), [[1]]),
    "scatter_nd_duplicates_add": lambda tf: tf.scatter_nd([[1], [1], [3]], tf.constant([5.0, 6.0, 1.0]), [4]),
    "tensor_scatter_nd_update": lambda tf: tf.tensor_scatter_nd_update(tf.constant(_P), [[0, 1], [1, 2]], [9.0, 8.0]),
    "tensor_scatter_nd_add": lambda tf: tf.tensor_scatter_nd_add(tf.constant(_P), [[0], [0]], [[1.0] * 3] * 2),
    "boolean_mask": lambda tf: tf.boolean_mask(tf.constant(_P), [False, True]),
    "boolean_mask_2d": lambda tf: tf.boolean_mask(tf.constant(_P), [[True, False, True], [False, True, False]]),
    "boolean_mask_axis1": lambda tf: tf.boolean_mask(tf.constant(_P), [True, False, True], axis=1),
    "reverse": lambda tf: tf.reverse(tf.constant(_P), [0, 1]),
    "pad_constant": lambda tf: tf.pad(tf.constant(_P), [[1, 0], [0, 2]], constant_values=7.0),
    "pad_reflect": lambda tf: tf.pad(tf.constant(_P), [[1, 1], [2, 2]], "REFLECT"),
    "pad_symmetric": lambda tf: tf.pad(tf.constant(_P), [[0, 0], [3, 1]], "SYMMETRIC"),
    "pad_reflect_too_wide": lambda tf: tf.pad(tf.constant(_P), [[0, 0], [3, 0]], "REFLECT"),
    "broadcast_to": lambda tf: tf.broadcast_to(tf.constant([1, 2, 3]), [2, 3]),
    "broadcast_to_incompatible": lambda tf: tf.broadcast_to(tf.constant([1, 2, 3]), [2, 2]),
    "slice": lambda tf: tf.slice(tf.constant(_P), [0, 1], [-1, 2]),
    "slice_out_of_bounds": lambda tf: tf.slice(tf.constant(_P), [1, 1], [2, 1]),
    "unstack_first": lambda tf: tf.unstack(tf.constant(_P), axis=1)[2],
    "size": lambda tf: tf.size(tf.constant(_P)),
    "size_int64": lambda tf: tf.size(tf.constant(_P), out_type=tf.int64),
    "rank": lambda tf: tf.rank(tf.constant(_P)),
    "newaxis": lambda tf: tf.shape(tf.constant(_P)[:, tf.newaxis, 1:]),
}.items():
    globals()[f"case_op_{_name}"] = _value_case(_expression)


def case_gradients_through_indexing(tf, env):
    x = tf.constant(_P)
    out = {}
    for name, fn in (("gather", lambda v: tf.gather(v, [2, 2, 0], axis=1) * 2.0),
                     ("gather_nd", lambda v: tf.gather_nd(v, [[1, 2], [1, 2], [0, 0]])),
                     ("pad_reflect", lambda v: tf.pad(v, [[1, 1], [1, 1]], "REFLECT")
                      * tf.range(20.0, dtype=tf.float32)[:16][tf.newaxis, :][:, :4]),
                     ("slice", lambda v: tf.slice(v, [0, 1], [2, 2]) * 3.0),
                     ("boolean_mask", lambda v: tf.boolean_mask(v, [[True, False, True], [False, True, True]])),
                     ("reverse", lambda v: tf.reverse(v, [1]) * tf.constant([1.0, 2.0, 3.0])),
                     ("unstack", lambda v: tf.unstack(v)[1] * tf.constant([1.0, 2.0, 3.0]))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))
        out[name] = _rounded(tape.gradient(y, x).numpy())
    return out


def case_gradient_of_sparse_softmax_xent_with_rank_3_logits(tf, env):
    logits = tf.constant([[[0.854, 0.698, 0.598], [0.088, 0.86, 0.018]], [[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 2], [1, 1]], logits=logits)
        total = tf.reduce_sum(loss * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return {"loss": _rounded(loss.numpy()), "grad": _rounded(tape.gradient(total, logits).numpy())}


def case_gradient_of_a_loop_whose_body_caches_a_tensor_of_its_first_trace(tf, env):
    """Keras's RNN cells cache their dropout masks while the loop body is traced."""
    w = tf.Variable([[0.5, -0.25], [0.125, 1.0]])
    cache = {}

    def body(i, h):
        if "mask" not in cache:
            cache["mask"] = tf.ones_like(h) * tf.constant([0.5, 2.0])
        return i + 1, tf.tanh(tf.matmul(h, w)) * cache["mask"] + h

    @tf.function
    def grads():
        with tf.GradientTape() as tape:
            _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), tf.constant([[1.0, -1.0]])])
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w)
    return _rounded(grads().numpy(), 4)


def _volume_and_filter(tf):
    x = tf.reshape(tf.sin(tf.range(2 * 4 * 5 * 3 * 2, dtype=tf.float32)), [2, 4, 5, 3, 2])
    w = tf.reshape(tf.cos(tf.range(2 * 3 * 2 * 2 * 3, dtype=tf.float32)), [2, 3, 2, 2, 3])
    return x, w


def _conv3d_results(tf):
    x, w = _volume_and_filter(tf)
    out = {}
    for padding, strides, dilations in (("SAME", [1, 1, 1, 1, 1], None), ("VALID", [1, 2, 1, 2, 1], None),
                                        ("SAME", [1, 1, 1, 1, 1], [1, 2, 1, 1, 1])):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, w])
            y = tf.nn.conv3d(x, w, strides, padding, dilations=dilations)
            loss = tf.reduce_sum(y * y)
        key = f"{padding}_{strides[1]}{strides[3]}_{'dilated' if dilations else 'plain'}"
        out[key] = [y, tape.gradient(loss, x), tape.gradient(loss, w)]
    transposed = tf.nn.conv3d_transpose(x, tf.transpose(w, [0, 1, 2, 4, 3])[..., :2], [2, 8, 10, 6, 3],
                                        [1, 2, 2, 2, 1], "SAME")
    out["transpose"] = [transposed]
    for pool in ("max_pool3d", "avg_pool3d"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = getattr(tf.nn, pool)(x, [2, 3, 2], [1, 2, 2], "SAME")
            loss = tf.reduce_sum(y * y)
        out[pool] = [y, tape.gradient(loss, x)]
    return out


def _rounded_relative(results):
    """Each tensor to 5 significant digits of its largest magnitude (sums of products differ in order)."""
    out = {}
    for key, tensors in results.items():
        out[key] = []
        for tensor in tensors:
            value = tensor.numpy()
            scale = float(np.abs(value).max()) or 1.0
            out[key].append(_rounded(value / scale, 5))
    return out


def _channels_first_and_grouped(tf):
    x2 = tf.reshape(tf.sin(tf.range(2 * 3 * 7 * 6, dtype=tf.float32)), [2, 3, 7, 6])
    w2 = tf.reshape(tf.cos(tf.range(3 * 2 * 3 * 4, dtype=tf.float32)), [3, 2, 3, 4])
    x3 = tf.reshape(tf.sin(tf.range(2 * 4 * 4 * 5 * 4, dtype=tf.float32)), [2, 4, 4, 5, 4])
    grouped = tf.reshape(tf.cos(tf.range(2 * 2 * 2 * 2 * 6, dtype=tf.float32)), [2, 2, 2, 2, 6])
    with tf.GradientTape() as tape:
        tape.watch(grouped)
        y = tf.nn.conv3d(x3, grouped, [1, 1, 2, 1, 1], "SAME")
        loss = tf.reduce_sum(y * y)
    return {
        "conv2d_nchw": [tf.nn.conv2d(x2, w2, [1, 1, 2, 1], "SAME", data_format="NCHW")],
        "conv1d_ncw": [tf.nn.conv1d(x2[:, :, 0, :], w2[0], 2, "SAME", data_format="NCW")],
        "max_pool_nchw": [tf.nn.max_pool2d(x2, 2, 2, "SAME", data_format="NCHW")],
        "avg_pool3d_ncdhw": [tf.nn.avg_pool3d(tf.transpose(x3, [0, 4, 1, 2, 3]), 2, [1, 1, 2, 2, 2], "SAME",
                                              data_format="NCDHW")],
        "conv2d_transpose_nchw": [tf.nn.conv2d_transpose(x2, tf.ones([3, 2, 5, 3]), [2, 5, 14, 12], [1, 1, 2, 2],
                                                         "SAME", data_format="NCHW")],
        "grouped_conv3d": [y, tape.gradient(loss, grouped)],
    }


def case_channels_first_and_grouped_convolutions_under_xla(tf, env):
    """TensorFlow's CPU kernels refuse these outside XLA (Keras compiles them with jit_compile=True)."""
    return _rounded_relative(tf.function(lambda: _channels_first_and_grouped(tf), jit_compile=True)())


def case_conv3d_values_and_gradients(tf, env):
    return _rounded_relative(_conv3d_results(tf))


def case_conv3d_values_and_gradients_traced(tf, env):
    return _rounded_relative(tf.function(lambda: _conv3d_results(tf))())


_S = [[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 5.0, -1.0]]
for _name, _expression in {
    "top_k_values": lambda tf: tf.math.top_k(tf.constant(_S), 3).values,
    "top_k_indices_ties": lambda tf: tf.math.top_k(tf.constant(_S), 3).indices,
    "top_k_too_many": lambda tf: tf.math.top_k(tf.constant(_S), 5).values,
    "top_k_int": lambda tf: tf.math.top_k(tf.constant([3, 9, -2]), 2).values,
    "sort_ascending": lambda tf: tf.sort(tf.constant(_S)),
    "sort_descending_axis0": lambda tf: tf.sort(tf.constant(_S), axis=0, direction="DESCENDING"),
    "argsort_ascending_ties": lambda tf: tf.argsort(tf.constant(_S)),
    "argsort_descending": lambda tf: tf.argsort(tf.constant(_S), direction="DESCENDING"),
    "sort_bad_direction": lambda tf: tf.sort(tf.constant(_S), direction="UP"),
    "unsorted_segment_sum": lambda tf: tf.math.unsorted_segment_sum(tf.constant(_S), [1, 1], 3),
    "unsorted_segment_sum_1d": lambda tf: tf.math.unsorted_segment_sum(tf.constant([1, 2, 3, 4]), [0, 2, 0, -1], 3),
    "unsorted_segment_mean": lambda tf: tf.math.unsorted_segment_mean(tf.constant(_S), [0, 2], 3),
    "unsorted_segment_max_empty": lambda tf: tf.math.unsorted_segment_max(tf.constant([1.0, 5.0, 2.0]), [0, 0, 2], 3),
    "unsorted_segment_sum_out_of_range": lambda tf: tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0]), [0, 4], 3),
    "segment_sum": lambda tf: tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0, 4.0]), [0, 0, 1, 3]),
    "segment_sum_unsorted": lambda tf: tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), [1, 0, 1]),
    "linspace": lambda tf: tf.linspace(0.0, 1.0, 5),
    "linspace_one": lambda tf: tf.linspace(2.0, 7.0, 1),
    "linspace_float64": lambda tf: tf.linspace(tf.constant(-1.0, tf.float64), 1.0, 3),
    "norm_euclidean": lambda tf: tf.norm(tf.constant(_S)),
    "norm_axis": lambda tf: tf.norm(tf.constant(_S), axis=1),
    "norm_ord1_keepdims": lambda tf: tf.norm(tf.constant(_S), ord=1, axis=0, keepdims=True),
    "norm_inf": lambda tf: tf.norm(tf.constant(_S), ord=np.inf, axis=1),
    "norm_fro": lambda tf: tf.norm(tf.constant(_S), ord="fro", axis=[0, 1]),
}.items():
    globals()[f"case_op_{_name}"] = _value_case(_expression)


def case_gradients_through_top_k_and_segments(tf, env):
    x = tf.constant(_S)
    out = {}
    for name, fn in (("top_k", lambda v: tf.math.top_k(v, 2).values * tf.constant([[1.0, 2.0], [3.0, 4.0]])),
                     ("sort", lambda v: tf.sort(v) * tf.constant([1.0, 2.0, 3.0, 4.0])),
                     ("segment_sum", lambda v: tf.math.unsorted_segment_sum(v, [1, 1], 2) * 2.0),
                     ("segment_max", lambda v: tf.math.unsorted_segment_max(tf.transpose(v), [0, 0, 1, 1], 2)),
                     ("norm", lambda v: tf.norm(v, axis=1))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))
        out[name] = _rounded(tape.gradient(y, x).numpy())
    return out


_A = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]
_B = [[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]]
for _name, _expression in {
    "linalg_inv": lambda tf: tf.linalg.inv(tf.constant(_A)),
    "linalg_inv_singular": lambda tf: tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]])),
    "linalg_inv_not_square": lambda tf: tf.linalg.inv(tf.constant(_B)),
    "linalg_det": lambda tf: tf.linalg.det(tf.constant(_A)),
    "linalg_det_batch": lambda tf: tf.linalg.det(tf.constant([_A, _A])),
    "linalg_slogdet": lambda tf: tf.stack(tf.linalg.slogdet(tf.constant([[-2.0, 0.0], [0.0, 3.0]]))),
    "linalg_solve": lambda tf: tf.linalg.solve(tf.constant(_A), tf.constant(_B)),
    "linalg_solve_adjoint": lambda tf: tf.linalg.solve(tf.constant(_A) + tf.constant([[0.0, 1.0, 0.0]] * 3),
                                                      tf.constant(_B), adjoint=True),
    "linalg_cholesky": lambda tf: tf.linalg.cholesky(tf.constant(_A)),
    "linalg_cholesky_not_pd": lambda tf: tf.math.is_nan(tf.linalg.band_part(  # TF leaves garbage above
        tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])), -1, 0)),
    "linalg_triangular_solve": lambda tf: tf.linalg.triangular_solve(tf.constant(_A), tf.constant(_B)),
    "linalg_triangular_solve_upper": lambda tf: tf.linalg.triangular_solve(tf.constant(_A), tf.constant(_B),
                                                                           lower=False),
    "linalg_svd_values": lambda tf: tf.linalg.svd(tf.constant(_B), compute_uv=False),
    "linalg_eigh_values": lambda tf: tf.linalg.eigh(tf.constant(_A))[0],
    "linalg_qr_r_abs": lambda tf: tf.abs(tf.linalg.qr(tf.constant(_B))[1]),
    "linalg_band_part": lambda tf: tf.linalg.band_part(tf.reshape(tf.range(16.0), [4, 4]), 1, 0),
    "linalg_band_part_upper": lambda tf: tf.linalg.band_part(tf.reshape(tf.range(16.0), [4, 4]), 0, -1),
    "linalg_diag": lambda tf: tf.linalg.diag(tf.constant([[1.0, 2.0], [3.0, 4.0]])),
    "linalg_diag_part": lambda tf: tf.linalg.diag_part(tf.constant(_B)),
    "linalg_trace": lambda tf: tf.linalg.trace(tf.constant(_A)),
    "linalg_matrix_transpose": lambda tf: tf.linalg.matrix_transpose(tf.constant([_B])),
    "linalg_lstsq": lambda tf: tf.linalg.lstsq(tf.constant(_B), tf.constant([[1.0], [2.0], [3.0]])),
    "einsum_matmul": lambda tf: tf.einsum("ij,jk->ik", tf.constant(_A), tf.constant(_B)),
    "einsum_batch_outer": lambda tf: tf.einsum("bi,bj->bij", tf.constant(_B), tf.constant(_B)),
    "einsum_trace": lambda tf: tf.einsum("ii->", tf.constant(_A)),
    "einsum_sum_axis": lambda tf: tf.einsum("ij->j", tf.constant(_B)),
    "tensordot_1": lambda tf: tf.tensordot(tf.constant(_A), tf.constant(_B), 1),
    "tensordot_pairs": lambda tf: tf.tensordot(tf.constant(_B), tf.constant(_B), [[0], [0]]),
    "tensordot_0": lambda tf: tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0]), 0),
}.items():
    globals()[f"case_op_{_name}"] = _value_case(_expression)


def case_gradients_through_linalg(tf, env):
    a = tf.constant(_A)
    out = {}
    for name, fn in (("inv", lambda m: tf.linalg.inv(m)), ("det", lambda m: tf.linalg.det(m)),
                     ("slogdet", lambda m: tf.linalg.slogdet(m)[1]),
                     ("solve", lambda m: tf.linalg.solve(m, tf.constant(_B))),
                     ("cholesky", lambda m: tf.linalg.cholesky(m)),
                     ("triangular_solve", lambda m: tf.linalg.triangular_solve(m, tf.constant(_B))),
                     ("einsum", lambda m: tf.einsum("ij,jk->ik", m, tf.constant(_B))),
                     ("trace", lambda m: tf.linalg.trace(m) * 2.0)):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.reduce_sum(fn(a))
        out[name] = _rounded(tape.gradient(y, a).numpy(), 4)
    return out


# -- tensors, variables, types (issue 16) ------------------------------------------------------------------------
def case_dtype_printing_and_limits(tf, env):
    return {"str": str(tf.float32), "repr": repr(tf.int64), "max": float(tf.float32.max), "min": int(tf.int8.min),
            "uint_max": int(tf.uint8.max), "half_min": float(tf.float16.min), "floating": tf.float32.is_floating,
            "size": tf.float64.size}


def case_dtype_max_of_bool(tf, env):
    return tf.bool.max


def case_symbolic_tensor_printing(tf, env):
    seen = {}

    @tf.function
    def f(x):
        seen["str"], seen["repr"] = str(x), repr(x)
        return x

    f(tf.constant(1))
    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant(1, name="a")
    return {"function": [seen["str"], seen["repr"]], "graph": str(a)}


def case_is_tensor(tf, env):
    return [tf.is_tensor(tf.constant(1)), tf.is_tensor(tf.Variable(1.0)), tf.is_tensor(np.ones(2)), tf.is_tensor(1)]


def case_variable_slice_assignment(tf, env):
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v[0, 1].assign(9.0)
    v[1, :].assign([7.0, 8.0, 0.5])
    v[:, 2].assign(v[:, 2] + 1.0)
    first = v.numpy().tolist()

    @tf.function
    def traced():
        v[0].assign(v[0] - 1.0)
        return v[1, 1] * 2.0

    return {"eager": first, "traced": float(traced()), "after": v.numpy().tolist()}


def case_eager_assign_returns_the_variable_read_when_used(tf, env):
    """An eager assign returns TF's _UnreadVariable: the variable, read when used (a later assign shows in it);
    read_value=False returns nothing."""
    v = tf.Variable(1.0, name="v")
    r = v.assign(2.0)
    first = repr(r)
    v.assign(3.0)
    added = v.assign_add(1.0)
    v.assign_sub(0.5)

    @tf.function
    def traced():
        return v.assign(10.0) * 2.0

    return {"repr": first, "later": float((r + 1).numpy()), "numpy": float(r.numpy()), "added": float(added),
            "is_variable": isinstance(r, tf.Variable), "same_object": r is v, "name": r.name,
            "dtype": r.dtype.name, "shape": list(r.shape), "read_value_false": repr(v.assign(5.0, read_value=False)),
            "assign_through_it": float(r.assign_add(1.0).numpy()), "value": float(v.numpy()),
            "traced": float(traced()), "after_trace": float(r.numpy())}


def case_variable_scatter_with_slices_that_name_no_dense_shape(tf, env):
    """Variable.scatter_add/sub/update take IndexedSlices without a dense_shape (the variable's rows), duplicate
    rows adding twice, eagerly and in a function."""
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    rows = tf.IndexedSlices(tf.constant([[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]]), tf.constant([0, 2, 0]))
    added = v.scatter_add(rows)
    first = {"repr": repr(added), "value": v.numpy().tolist()}
    v.scatter_sub(tf.IndexedSlices(tf.constant([[1.0, 0.5]]), tf.constant([1])))
    v.scatter_update(tf.IndexedSlices(tf.constant([[9.0, 9.0]]), tf.constant([2])))

    @tf.function
    def traced():
        v.scatter_add(tf.IndexedSlices(tf.constant([[0.25, 0.25]]), tf.constant([1])))
        return v.read_value()

    return {"first": first, "after": v.numpy().tolist(), "traced": traced().numpy().tolist()}


def case_gradients_at_zeros_and_kinks(tf, env):
    """Gradients where a formula would divide by zero or a branch meets another: reduce_prod and cumprod with
    zero entries (TF's zero-safe forms), selu, elu and leaky_relu at 0, sigmoid cross-entropy at logit 0."""
    def grad(f, x):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return np.round(tape.gradient(y, x).numpy(), 5).tolist()

    block = [[[2.0, 0.0], [3.0, 4.0]], [[0.0, 5.0], [1.0, 2.0]]]
    return {
        "prod_one_zero": grad(tf.reduce_prod, [2.0, 0.0, 3.0]),
        "prod_two_zeros": grad(tf.reduce_prod, [0.0, 0.0, 3.0]),
        "prod_axes_0_2": grad(lambda x: tf.reduce_sum(tf.reduce_prod(x, axis=[0, 2]) * [1.0, 10.0]), block),
        "prod_axis_1_keepdims": grad(lambda x: tf.reduce_sum(tf.reduce_prod(x, axis=1, keepdims=True)), block),
        "cumprod": grad(lambda x: tf.reduce_sum(tf.math.cumprod(x)), [1.0, 2.0, 0.0, 3.0]),
        "cumprod_exclusive_reverse": grad(lambda x: tf.reduce_sum(tf.math.cumprod(x, exclusive=True, reverse=True)
                                                                  * [1.0, 2.0, 3.0, 4.0]), [1.0, 0.0, 2.0, 3.0]),
        "selu": grad(lambda x: tf.reduce_sum(tf.nn.selu(x)), [-1.0, 0.0, 1.0]),
        "elu": grad(lambda x: tf.reduce_sum(tf.nn.elu(x)), [-1.0, 0.0, 1.0]),
        "leaky_relu": grad(lambda x: tf.reduce_sum(tf.nn.leaky_relu(x)), [-1.0, 0.0, 1.0]),
        "sigmoid_xent": grad(lambda x: tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(
            labels=[0.0, 1.0, 1.0, 0.0], logits=x)), [-1.0, 0.0, 5.0, 0.0]),
    }


def case_gradients_of_sign_abs_and_angle(tf, env):
    """Sign's gradient is zeros (not None); ComplexAbs's is g z / |z| (0 at 0), Angle's -g / (Im z + i Re z)."""
    def grad(f, x):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
        return None if g is None else np.round(np.asarray(g.numpy()).astype(np.complex128), 5).ravel().tolist()

    z = [1 + 1j, 0j, -2 + 0.5j]
    parts = lambda g: None if g is None else [[v.real, v.imag] for v in g]  # noqa: E731
    return {
        "sign": parts(grad(lambda x: tf.reduce_sum(tf.sign(x) * 3.0), [0.0, -2.0, 5.0])),
        "abs_of_complex_parts": parts(grad(lambda x: tf.reduce_sum(tf.abs(tf.complex(x, 2.0 * x))), [0.0, 1.0, -3.0])),
        "abs_complex": parts(grad(lambda x: tf.reduce_sum(tf.abs(x) * [1.0, 2.0, 3.0]), np.array(z, np.complex64))),
        "angle_complex": parts(grad(lambda x: tf.reduce_sum(tf.math.angle(x) * [1.0, 2.0, 3.0]),
                                    np.array([1 + 1j, -1j, -2 + 0.5j], np.complex64))),
    }


def case_ragged_reductions(tf, env):
    """tf.reduce_* of a RaggedTensor over the rows, the ragged axis, an inner axis, several and all axes, with and
    without keepdims (empty rows give each reduction's identity; an integer mean is float64), and what raises."""
    def show(r):
        if hasattr(r, "to_list"):
            return ["ragged", r.to_list(), r.dtype.name]
        return [list(r.shape), np.asarray(r.numpy()).tolist(), r.dtype.name]

    def outcome(fn):
        try:
            return show(fn())
        except Exception as error:  # noqa: BLE001 - the class is the outcome
            return type(error).__name__

    rt = tf.ragged.constant([[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0]])
    r3 = tf.ragged.constant([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]]], ragged_rank=1)
    flags = tf.ragged.constant([[True, False], [], [True]])
    ints = tf.ragged.constant([[1, 2], [3]])
    results = {}
    for reduction in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min"):
        for axis in (None, 0, 1, -1, (0, 1), 2):
            for keepdims in (False, True):
                results[f"{reduction} {axis} {keepdims}"] = outcome(
                    lambda: getattr(tf, reduction)(rt, axis=axis, keepdims=keepdims))
    results.update({
        "prod 1": outcome(lambda: tf.math.reduce_prod(rt, axis=1)),
        "prod 0": outcome(lambda: tf.math.reduce_prod(rt, axis=0)),
        "r3 sum 2": outcome(lambda: tf.reduce_sum(r3, axis=2)),
        "r3 sum 1": outcome(lambda: tf.reduce_sum(r3, axis=1)),
        "r3 sum 0": outcome(lambda: tf.reduce_sum(r3, axis=0)),
        "r3 mean 1 2": outcome(lambda: tf.reduce_mean(r3, axis=[1, 2])),
        "r3 max 2 keepdims": outcome(lambda: tf.reduce_max(r3, axis=2, keepdims=True)),
        "all 1": outcome(lambda: tf.reduce_all(flags, axis=1)),
        "any 1": outcome(lambda: tf.reduce_any(flags, axis=1)),
        "all": outcome(lambda: tf.reduce_all(flags)),
        "any 0": outcome(lambda: tf.reduce_any(flags, axis=0)),
        "int sum 1": outcome(lambda: tf.reduce_sum(ints, axis=1)),
        "int mean 1": outcome(lambda: tf.reduce_mean(ints, axis=1)),
        "int mean": outcome(lambda: tf.reduce_mean(ints)),
    })
    return results


def case_ragged_reductions_and_segment_counts_in_a_function(tf, env):
    """The ragged reductions inside tf.function, and unsorted_segment_sum counting segments with tf.shape there."""
    @tf.function
    def reduced():
        rt = tf.ragged.constant([[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0]])
        return (tf.reduce_sum(rt, axis=1), tf.reduce_mean(rt), tf.reduce_max(rt, axis=0),
                tf.reduce_mean(rt, axis=0, keepdims=True), tf.reduce_any(rt > 4.0, axis=1))

    @tf.function
    def segments(x):
        return tf.math.unsorted_segment_sum(x, [0, 2, 0], tf.shape(x)[0])

    return {"reduced": [t.numpy().tolist() for t in reduced()],
            "segments": segments(tf.constant([1.0, 2.0, 3.0])).numpy().tolist()}


def case_ragged_variance_and_std(tf, env):
    """tf.math.reduce_variance and reduce_std of a RaggedTensor over each axis, with and without keepdims (an
    empty row is NaN; integers give float64)."""
    rt = tf.ragged.constant([[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0]])
    results = {}
    for name in ("reduce_variance", "reduce_std"):
        for axis in (None, 0, 1, -1):
            for keepdims in (False, True):
                value = getattr(tf.math, name)(rt, axis=axis, keepdims=keepdims)
                results[f"{name} {axis} {keepdims}"] = np.round(value.numpy().astype(np.float64), 5).tolist()
    ints = tf.math.reduce_variance(tf.ragged.constant([[1, 2]]))
    results["ints"] = [float(ints.numpy()), ints.dtype.name]
    return results


def case_variable_slice_shape_mismatch(tf, env):
    v = tf.Variable([1.0, 2.0, 3.0])
    v[0:2].assign([1.0, 2.0, 3.0])


def case_variable_scatter_updates(tf, env):
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    v.scatter_nd_update([[0], [3]], [9.0, 8.0])
    v.scatter_nd_add([[1], [1]], [1.0, 2.0])
    v.scatter_nd_sub([[2]], [0.5])
    return v.numpy().tolist()


def case_variable_to_python_numbers(tf, env):
    return [int(tf.Variable(3)), float(tf.Variable(2.5))]


def case_variable_as_a_list_index(tf, env):
    return [10, 20, 30][tf.Variable(1)]


def case_nest(tf, env):
    structure = {"b": [1, (2, 3)], "a": 4}
    return {"flatten": tf.nest.flatten(structure), "map": tf.nest.map_structure(lambda x: x * 10, structure),
            "pack": tf.nest.pack_sequence_as([0, [0, 0]], [5, 6, 7]), "nested": [tf.nest.is_nested([1]),
                                                                            tf.nest.is_nested(1)]}


def case_nest_mismatch(tf, env):
    tf.nest.assert_same_structure([1, [2]], [1, 2])


def case_version_checks_written_for_tf2(tf, env):
    return [tf.__version__.startswith("2."), tf.version.VERSION.split(".")[0], int(tf.__version__.split(".")[1]) >= 4]


def case_tensor_cpu_copy(tf, env):
    return tf.constant([1.0, 2.0]).cpu().device.endswith("CPU:0")


# -- nn extras, debugging, grids, unique, one_hot dtypes (issue 16) ----------------------------------------------
for _name, _expression in {
    "gelu": lambda tf: tf.nn.gelu(tf.constant([-1.0, 0.5, 2.0])),
    "gelu_approximate": lambda tf: tf.nn.gelu(tf.constant([-1.0, 0.5, 2.0]), approximate=True),
    "dropout_rate_zero": lambda tf: tf.nn.dropout(tf.constant([1.0, 2.0]), 0.0),
    "dropout_bad_rate": lambda tf: tf.nn.dropout(tf.constant([1.0, 2.0]), 1.5),
    "embedding_lookup": lambda tf: tf.nn.embedding_lookup(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), [2, 0]),
    "compute_average_loss": lambda tf: tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0, 4.0]),
                                                                  global_batch_size=8),
    "compute_average_loss_weighted": lambda tf: tf.nn.compute_average_loss(
        tf.constant([1.0, 2.0]), sample_weight=tf.constant([0.5, 2.0])),
    "scale_regularization_loss": lambda tf: tf.nn.scale_regularization_loss(tf.constant(3.0)),
    "check_numerics_ok": lambda tf: tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "x"),
    "check_numerics_nan": lambda tf: tf.debugging.check_numerics(tf.constant([1.0, float("nan")]), "x"),
    "check_numerics_inf": lambda tf: tf.debugging.check_numerics(tf.constant([float("inf")]), "x"),
    "assert_equal_fails": lambda tf: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])),
    "assert_less_fails": lambda tf: tf.debugging.assert_less(tf.constant([1.0, 5.0]), 2.0),
    "assert_greater_equal_fails": lambda tf: tf.debugging.assert_greater_equal(tf.constant([1, 5]), 2),
    "meshgrid_xy": lambda tf: tf.stack(tf.meshgrid([1, 2, 3], [4, 5])),
    "meshgrid_ij": lambda tf: tf.stack(tf.meshgrid([1, 2, 3], [4, 5, 6], indexing="ij")),
    "unique_values": lambda tf: tf.unique(tf.constant([4, 1, 4, 2, 1])).y,
    "unique_indices": lambda tf: tf.unique(tf.constant([4, 1, 4, 2, 1])).idx,
    "unique_of_a_matrix": lambda tf: tf.unique(tf.constant([[1, 2]])).y,
    "one_hot_int_values": lambda tf: tf.one_hot([0, 2], 3, on_value=5, off_value=-1),
    "one_hot_mixed_values": lambda tf: tf.one_hot([0, 2], 3, on_value=5, off_value=0.5),
    "one_hot_float64": lambda tf: tf.one_hot([1], 2, dtype=tf.float64),
}.items():
    globals()[f"case_op_{_name}"] = _value_case(_expression)


def case_assertion_messages(tf, env):
    try:
        tf.debugging.assert_equal(tf.constant([1, 2, 3]), tf.constant([1, 0, 0]), message="mismatch")
    except tf.errors.InvalidArgumentError as error:
        return error.message.split(" [Op:")[0].splitlines()[:4]


def case_assertions_and_print_run_inside_a_function(tf, env):
    @tf.function
    def checked(x):
        tf.debugging.assert_less(x, 10.0)
        tf.print("value", x)
        return x * 2.0

    ok = float(checked(tf.constant(3.0)))
    try:
        checked(tf.constant(30.0))
    except tf.errors.InvalidArgumentError:
        return [ok, "raised"]
    return [ok, "not raised"]


def case_gradient_of_gelu(tf, env):
    x = tf.constant([-1.0, 0.5, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.gelu(x))
    return _rounded(tape.gradient(y, x).numpy())


def case_device_spec_without_index_after_device(tf, env):
    return tf.DeviceSpec.from_string("/device:GPU").to_string()


def case_run_functions_eagerly(tf, env):
    calls = []

    @tf.function
    def f(x):
        calls.append(type(x).__name__ == "EagerTensor")
        return x + 1.0

    tf.config.run_functions_eagerly(True)
    try:
        f(tf.constant(1.0))
        f(tf.constant(2.0))
        eager = tf.config.functions_run_eagerly()
    finally:
        tf.config.run_functions_eagerly(False)
    return [calls, eager, tf.config.functions_run_eagerly()]


def case_init_scope_runs_eagerly_inside_a_trace(tf, env):
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            seen.append(tf.executing_eagerly())
        return x

    f(tf.constant(1.0))
    return seen


def case_build_info_and_rocm(tf, env):
    return [tf.test.is_built_with_rocm(), sorted(k for k in tf.sysconfig.get_build_info() if k.startswith("is_"))[:3]]


# -- random: properties TensorFlow and placeflow share (their streams differ: docs/divergences.md) --------------
def case_random_integer_uniform(tf, env):
    values = tf.random.uniform([200], 3, 7, dtype=tf.int32, seed=1).numpy()
    return [str(values.dtype), int(values.min()) >= 3, int(values.max()) <= 6, len(set(values.tolist())) == 4]


def case_random_integer_uniform_needs_maxval(tf, env):
    tf.random.uniform([2], dtype=tf.int64)


def case_random_truncated_normal_range(tf, env):
    values = tf.random.truncated_normal([2000], mean=1.0, stddev=0.5, seed=3).numpy()
    return [float(values.min()) >= 0.0, float(values.max()) <= 2.0, abs(float(values.mean()) - 1.0) < 0.05]


def case_random_categorical(tf, env):
    samples = tf.random.categorical(tf.math.log([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]), 50, seed=2)
    values = samples.numpy()
    return [samples.dtype.name, list(values.shape), set(values[0].tolist()) <= {0, 1}, sorted(set(values[1].tolist()))]


def case_random_shuffle_is_a_permutation(tf, env):
    return sorted(tf.random.shuffle(tf.range(10), seed=4).numpy().tolist())


def case_stateless_random_is_determined_by_its_seed(tf, env):
    a = tf.random.stateless_uniform([4], seed=[1, 2])
    b = tf.random.stateless_uniform([4], seed=[1, 2])
    c = tf.random.stateless_uniform([4], seed=[1, 3])
    n = tf.random.stateless_normal([3], seed=[5, 6], dtype=tf.float64)
    return [bool((a.numpy() == b.numpy()).all()), bool((a.numpy() != c.numpy()).any()), n.dtype.name]


def case_generator_streams(tf, env):
    g1, g2 = tf.random.Generator.from_seed(7), tf.random.Generator.from_seed(7)
    first = g1.normal([3]).numpy()
    same = bool((first == g2.normal([3]).numpy()).all())
    moved = bool((first != g1.normal([3]).numpy()).any())
    children = g1.split(2)
    differ = bool((children[0].uniform([3]).numpy() != children[1].uniform([3]).numpy()).any())
    return [same, moved, len(children), differ]


def case_global_seed_repeats_sequences(tf, env):
    tf.random.set_seed(11)
    a = [tf.random.uniform([2]).numpy().tolist(), tf.random.normal([2], seed=3).numpy().tolist()]
    tf.random.set_seed(11)
    b = [tf.random.uniform([2]).numpy().tolist(), tf.random.normal([2], seed=3).numpy().tolist()]
    tf.random.set_seed(None)
    return a == b


# -- convolution, pooling, normalization, classification metrics (issue 16) ---------------------------------------
_IMG = np.arange(50, dtype=np.float32).reshape(1, 5, 5, 2) / 10.0
_FIL = (np.arange(36, dtype=np.float32).reshape(3, 3, 2, 2) - 18.0) / 20.0
for _name, _expression in {
    "conv2d_same": lambda tf: tf.nn.conv2d(_IMG, _FIL, 1, "SAME"),
    "conv2d_valid_stride2": lambda tf: tf.nn.conv2d(_IMG, _FIL, 2, "VALID"),
    "conv2d_same_stride2": lambda tf: tf.nn.conv2d(_IMG, _FIL, [1, 2, 2, 1], "SAME"),
    "conv2d_grouped": lambda tf: tf.nn.conv2d(_IMG, _FIL[:, :, :1], 1, "SAME"),
    "conv2d_depth_not_divisible": lambda tf: tf.nn.conv2d(_IMG[..., :1], _FIL, 1, "SAME"),
    "conv1d": lambda tf: tf.nn.conv1d(_IMG[:, 0], _FIL[0], 1, "SAME"),
    "conv2d_transpose": lambda tf: tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 2]), _FIL, [1, 5, 5, 2], 2, "SAME"),
    "max_pool_valid": lambda tf: tf.nn.max_pool2d(_IMG, 2, 2, "VALID"),
    "max_pool_same": lambda tf: tf.nn.max_pool2d(_IMG, 3, 2, "SAME"),
    "avg_pool_same": lambda tf: tf.nn.avg_pool2d(_IMG, 3, 2, "SAME"),
    "avg_pool_valid": lambda tf: tf.nn.avg_pool2d(_IMG, [2, 3], [1, 2], "VALID"),
    "batch_normalization": lambda tf: tf.nn.batch_normalization(
        tf.constant([[1.0, 2.0], [3.0, 6.0]]), tf.constant([2.0, 4.0]), tf.constant([1.0, 4.0]),
        tf.constant([0.5, -0.5]), tf.constant([2.0, 1.0]), 1e-3),
    "batch_normalization_no_scale": lambda tf: tf.nn.batch_normalization(tf.constant([1.0, 3.0]), 2.0, 1.0, None,
                                                                          None, 0.0),
    "confusion_matrix": lambda tf: tf.math.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1]),
    "confusion_matrix_weighted": lambda tf: tf.math.confusion_matrix([0, 1], [1, 1], num_classes=3,
                                                                     weights=[2.0, 0.5], dtype=tf.float32),
    "in_top_k": lambda tf: tf.math.in_top_k([1, 0, 2], [[0.1, 0.9, 0.5], [0.3, 0.3, 0.4], [0.2, 0.2, 0.2]], 1),
    "in_top_k_2": lambda tf: tf.math.in_top_k([0, 2], [[0.1, 0.9, 0.5], [0.5, 0.1, 0.4]], 2),
}.items():
    globals()[f"case_op_{_name}"] = _value_case(_expression)


def case_gradients_through_conv_and_pooling(tf, env):
    x, w = tf.constant(_IMG.astype(np.float64)), tf.constant(_FIL.astype(np.float64))
    out = {}
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        conv = tf.reduce_sum(tf.nn.conv2d(x, w, 2, "SAME") ** 2)
        pooled = tf.reduce_sum(tf.nn.max_pool2d(x, 3, 2, "SAME") * 3.0 + tf.nn.avg_pool2d(x, 2, 2, "SAME"))
    out["conv_x"] = _rounded(tape.gradient(conv, x).numpy(), 3)
    out["conv_w"] = _rounded(tape.gradient(conv, w).numpy(), 3)
    out["pool_x"] = _rounded(tape.gradient(pooled, x).numpy(), 4)
    return out


# -- gradients API and TF1 training in a graph (issue 16) ---------------------------------------------------------
def case_jacobian_and_batch_jacobian(tf, env):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.stack([x[:, 0] * x[:, 1], x[:, 0] ** 2, x[:, 1] * 3.0], axis=1)
    return {"jacobian": _rounded(tape.jacobian(y, x).numpy()), "shape": list(tape.jacobian(y, x).shape),
            "batch": _rounded(tape.batch_jacobian(y, x).numpy()), "batch_shape": list(tape.batch_jacobian(y, x).shape)}


def case_watch_accessed_variables_false(tf, env):
    v, w = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = v * v * w
    grads = tape.gradient(y, [v, w])
    return [None if g is None else float(g) for g in grads]


def case_custom_gradient(tf, env):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant([0.0, 100.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(log1pexp(x) * tf.constant([1.0, 2.0]))
    return _rounded(tape.gradient(y, x).numpy())


def case_tf_gradients_in_a_graph(tf, env):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3])
        y = tf.reduce_sum(tf.square(x) * tf.constant([1.0, 2.0, 3.0]))
        (dx,) = tf.gradients(y, [x])
        with tf.compat.v1.Session(graph=graph) as session:
            return _rounded(session.run(dx, {x: [1.0, -1.0, 0.5]}))


def case_tf_gradients_eagerly(tf, env):
    return tf.gradients(tf.constant(1.0), [tf.constant(1.0)])


def _tf1_regression(tf, optimizer):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 1])
        y = tf.compat.v1.placeholder(tf.float32, [None, 1])
        w = tf.Variable([[0.5]], name="w")
        b = tf.Variable([0.0], name="b")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        train = optimizer.minimize(loss)
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.global_variables_initializer())
            xs = np.linspace(-1, 1, 16, dtype=np.float32).reshape(-1, 1)
            for _ in range(20):
                session.run(train, {x: xs, y: 3 * xs + 1})
            return _rounded(np.concatenate([session.run(w).ravel(), session.run(b)]), 4)


def case_tf1_gradient_descent_session_loop(tf, env):
    return _tf1_regression(tf, tf.compat.v1.train.GradientDescentOptimizer(0.2))


def case_tf1_momentum_session_loop(tf, env):
    return _tf1_regression(tf, tf.compat.v1.train.MomentumOptimizer(0.1, 0.9))


def case_tf1_nesterov_session_loop(tf, env):
    return _tf1_regression(tf, tf.compat.v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True))


def case_tf1_adam_session_loop(tf, env):
    return _tf1_regression(tf, tf.compat.v1.train.AdamOptimizer(0.1))


def case_tf1_variable_scope_and_get_variable(tf, env):
    tf1 = tf.compat.v1
    out = []
    with tf.Graph().as_default():
        with tf1.variable_scope("s"):
            w = tf1.get_variable("w", [2], initializer=tf1.zeros_initializer())
        out.append([w.name, list(w.shape)])
        try:
            with tf1.variable_scope("s"):
                tf1.get_variable("w", [2])
        except ValueError as error:
            out.append(str(error).splitlines()[0])
        with tf1.variable_scope("s", reuse=True):
            out.append(tf1.get_variable("w") is w)
        try:
            with tf1.variable_scope("s", reuse=True):
                tf1.get_variable("zz", [1])
        except ValueError as error:
            out.append(str(error).splitlines()[0])
        with tf1.variable_scope("t", reuse=tf1.AUTO_REUSE):
            a = tf1.get_variable("v", [1], initializer=tf1.constant_initializer(2.5))
            b = tf1.get_variable("v", [1])
        out.append([a is b, a.name])
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            out.append(_rounded(session.run(a)))
    return out


def case_tf1_placeholder_with_default(tf, env):
    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        p = tf1.placeholder_with_default(tf.constant([1.0, 2.0]), [None])
        doubled = p * 2.0
        with tf1.Session() as session:
            return [session.run(doubled).tolist(), session.run(doubled, {p: [5.0]}).tolist(), p.op.type,
                    str(p.shape)]


# -- control flow (issue 16) -------------------------------------------------------------------------------------
def case_cond_eager_and_traced(tf, env):
    def pick(x, p):
        return tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)

    traced = tf.function(pick)
    return [float(pick(tf.constant(3.0), tf.constant(True))), float(traced(tf.constant(3.0), tf.constant(True))),
            float(traced(tf.constant(3.0), tf.constant(False))), traced.experimental_get_tracing_count()]


def case_cond_runs_only_the_chosen_branch(tf, env):
    v = tf.Variable(2.0)

    @tf.function
    def step(p):
        tf.cond(p, lambda: v.assign_add(1.0), lambda: v.assign_sub(10.0))
        return v.read_value()

    return [float(step(tf.constant(True))), float(step(tf.constant(False))), float(step(tf.constant(True)))]


def case_cond_gradients_in_a_function(tf, env):
    v = tf.Variable(2.0)

    @tf.function
    def grads(x, p):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(p, lambda: x * x * v, lambda: x + v * 3.0)
        return tape.gradient(y, [x, v])

    return [[float(g) for g in grads(tf.constant(3.0), tf.constant(p))] for p in (True, False)]


def case_cond_branch_structures_must_match(tf, env):
    @tf.function
    def f(p):
        return tf.cond(p, lambda: (tf.constant(1.0), tf.constant(2.0)), lambda: tf.constant(1.0))

    f(tf.constant(True))


def case_cond_in_a_tf1_graph(tf, env):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [])
        y = tf.cond(x > 0.0, lambda: x * 10.0, lambda: -x)
        (dy,) = tf.gradients(y, [x])
        with tf.compat.v1.Session() as session:
            return [session.run([y, dy], {x: value}) for value in (2.0, -3.0)]


def case_while_loop_sum_traced(tf, env):
    @tf.function
    def total(n):
        _, t = tf.while_loop(lambda i, t: i < n, lambda i, t: (i + 1, t + i), (tf.constant(0), tf.constant(0)))
        return t

    return [int(total(tf.constant(5))), int(total(tf.constant(100)))]


def case_while_loop_maximum_iterations_and_eager(tf, env):
    eager = tf.while_loop(lambda i: i < 100, lambda i: i * 2, [tf.constant(1)], maximum_iterations=4)
    traced = tf.function(lambda: tf.while_loop(lambda i: i < 100, lambda i: i * 2, [tf.constant(1)],
                                               maximum_iterations=4))()
    return [int(eager[0]), int(traced[0])]


def case_while_loop_with_variable_updates(tf, env):
    v = tf.Variable(0.0)

    @tf.function
    def run():
        def body(i):
            v.assign_add(tf.cast(i, tf.float32))
            return i + 1
        tf.while_loop(lambda i: i < 4, body, [tf.constant(0)])
        return v.read_value()

    return [float(run()), float(run())]


def case_while_loop_shape_change_needs_invariants(tf, env):
    @tf.function
    def grow():
        return tf.while_loop(lambda x: tf.size(x) < 4, lambda x: tf.concat([x, x], 0), [tf.constant([1])])

    grow()


def case_while_loop_shape_invariants(tf, env):
    @tf.function
    def grow():
        return tf.while_loop(lambda x: tf.size(x) < 4, lambda x: tf.concat([x, x], 0), [tf.constant([1])],
                             shape_invariants=[tf.TensorShape([None])])

    return grow()[0].numpy().tolist()


def case_case_and_switch_case(tf, env):
    @tf.function
    def pick(x):
        return tf.case([(x < 0, lambda: tf.constant(-1)), (x > 10, lambda: tf.constant(1))],
                       default=lambda: tf.constant(0))

    @tf.function
    def switch(i):
        return tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)])

    return [int(pick(tf.constant(-5))), int(pick(tf.constant(50))), int(pick(tf.constant(3))),
            int(switch(tf.constant(1))), int(switch(tf.constant(7)))]


def case_collatz_with_while_loop_and_cond(tf, env):
    @tf.function
    def collatz_steps(n):
        _, steps = tf.while_loop(lambda n, s: n != 1,
                                 lambda n, s: (tf.cond(n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1), s + 1),
                                 (n, tf.constant(0)))
        return steps

    return [int(collatz_steps(tf.constant(27))), int(collatz_steps(tf.constant(6)))]


# -- strings (issue 16) ------------------------------------------------------------------------------------------
def _strings_case(expression):
    def case(tf, env):
        value = np.asarray(expression(tf).numpy())
        if value.dtype.kind in "OS":  # strings come back as bytes
            return [v.decode() if isinstance(v, bytes) else v for v in value.reshape(-1).tolist()]
        return value.tolist()
    return case


for _name, _expression in {
    "constant_holds_bytes": lambda tf: tf.constant(["ab", "c"]),
    "join": lambda tf: tf.strings.join([tf.constant(["ab", "c"]), "x"], separator="-"),
    "length": lambda tf: tf.strings.length(tf.constant(["ab", "héllo"])),
    "length_utf8": lambda tf: tf.strings.length(tf.constant(["ab", "héllo"]), unit="UTF8_CHAR"),
    "split_scalar": lambda tf: tf.strings.split(tf.constant("a b  c")),
    "split_sep": lambda tf: tf.strings.split(tf.constant("a,b,,c"), sep=","),
    "as_string_float": lambda tf: tf.strings.as_string(tf.constant([3.5, 1.0])),
    "as_string_precision": lambda tf: tf.strings.as_string(tf.constant([3.14159]), precision=2),
    "as_string_int": lambda tf: tf.strings.as_string(tf.constant([3, 10])),
    "as_string_bool": lambda tf: tf.strings.as_string(tf.constant([True, False])),
    "upper_lower": lambda tf: tf.strings.join([tf.strings.upper("aB"), tf.strings.lower("aB")]),
    "to_number": lambda tf: tf.strings.to_number(tf.constant(["3.5", "-2"])),
    "to_number_int": lambda tf: tf.strings.to_number(tf.constant(["7"]), out_type=tf.int32),
    "to_number_bad": lambda tf: tf.strings.to_number(tf.constant(["x7"])),
    "join_of_numbers": lambda tf: tf.strings.join([tf.constant([1])]),
}.items():
    globals()[f"case_string_{_name}"] = _strings_case(_expression)


def _strings_case_traced(expression):
    return _strings_case(lambda tf: tf.function(lambda: expression(tf))())


_HASHES = {
    "format_two_tensors": lambda tf: tf.strings.format("{} and {}", [tf.constant([1, 2]), tf.constant(3.5)]),
    "format_summarized": lambda tf: tf.strings.format("x={}", tf.range(20), summarize=2),
    "format_strings_and_bools": lambda tf: tf.strings.format("{}|{}", [tf.constant([["a", "b"], ["c", "d"]]),
                                                                       tf.constant(True)]),
    "format_placeholder": lambda tf: tf.strings.format("<>", [tf.constant(1)], placeholder="<>"),
    "format_floats": lambda tf: tf.strings.format("{} {}", [
        tf.constant([1 / 3, 1e10, 1e-5, 100.0, 2.5e-8, float("nan"), float("inf"), -0.0]),
        tf.constant([1 / 3, 123456789.0, 0.1], tf.float64)], summarize=10),
    "format_rank_3_and_summarized_matrix": lambda tf: tf.strings.format("{}\n{}", [
        tf.reshape(tf.range(24), [2, 3, 4]), tf.reshape(tf.range(100), [10, 10])]),
    "format_all_with_negative_summarize": lambda tf: tf.strings.format("{}", [tf.range(12)], summarize=-1),
    "format_too_few_inputs": lambda tf: tf.strings.format("{} {}", [tf.constant(1)]),
    "regex_replace": lambda tf: tf.strings.regex_replace(["Hello, World!", "  a-b  "], r"[!,\-]", ""),
    "regex_replace_groups": lambda tf: tf.strings.regex_replace(["Hello, World!"], r"(\w+), (\w+)", r"\2 \1"),
    "regex_replace_first": lambda tf: tf.strings.regex_replace(["hello"], "l", "L", replace_global=False),
    "regex_replace_whole_match": lambda tf: tf.strings.regex_replace(["ab12"], r"\d+", r"<\0>"),
    "regex_replace_bad_pattern": lambda tf: tf.strings.regex_replace(["ab"], "(", ""),
    "regex_full_match": lambda tf: tf.strings.regex_full_match(["Hello, World!", "Hello"], r"H.*!"),
    "strip": lambda tf: tf.strings.strip(["  a b \t\n", "c"]),
    "substr": lambda tf: tf.strings.substr(["Hello", "abc"], 1, 3),
    "substr_negative_and_broadcast": lambda tf: tf.strings.substr(["Hello", "abc"], [-3, 0], 2),
    "substr_utf8": lambda tf: tf.strings.substr(["héllo"], 1, 2, unit="UTF8_CHAR"),
    "substr_out_of_range": lambda tf: tf.strings.substr(["abc"], 5, 1),
    "reduce_join_rows": lambda tf: tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator="-"),
    "reduce_join_all": lambda tf: tf.strings.reduce_join([["a", "b"], ["c", "d"]]),
    "reduce_join_keepdims": lambda tf: tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=0, keepdims=True),
    "equal_of_strings_and_a_python_str": lambda tf: tf.equal(tf.constant(["a", "b", ""]), "a"),
    "not_equal_of_a_numpy_unicode_array": lambda tf: tf.not_equal(tf.convert_to_tensor(np.asarray([["A"], ["B"]])),
                                                                   "A"),
    "equal_of_strings_and_an_int": lambda tf: tf.equal(tf.constant(["a"]), 1),
    "to_hash_bucket_fast": lambda tf: tf.strings.to_hash_bucket_fast(
        ["", "a", "omar", "stringer", "a somewhat longer string of thirty-three", "x" * 70, "y" * 200], 1000003),
    "to_hash_bucket_strong": lambda tf: tf.strings.to_hash_bucket_strong(
        ["", "a", "omar", "stringer", "x" * 70], 1000003, [123, 456]),
    "to_hash_bucket_legacy": lambda tf: tf.strings.to_hash_bucket(["", "a", "omar", "stringer", "x" * 70], 997),
    "to_hash_bucket_fast_of_numbers": lambda tf: tf.strings.to_hash_bucket_fast(tf.constant([1, 2]), 10),
    "fingerprint_of_strings": lambda tf: tf.fingerprint(tf.constant(["ab", "c", "a" * 100])),
    "fingerprint_of_rows_of_strings": lambda tf: tf.fingerprint(tf.constant([["ab", "c"], ["d", "ef"]])),
    "fingerprint_of_int_rows": lambda tf: tf.fingerprint(tf.constant([[1, 2], [3, 4]])),
    "fingerprint_of_a_scalar": lambda tf: tf.fingerprint(tf.constant(3)),
}
for _name, _expression in _HASHES.items():
    globals()[f"case_string_{_name}"] = _strings_case(_expression)
    globals()[f"case_string_{_name}_traced"] = _strings_case_traced(_expression)

for _name, _expression in {  # SparseTensor results are eager-only in placeflow (docs/divergences.md)
    "sparse_bincount_of_a_sparse_tensor": lambda tf: tf.sparse.to_dense(tf.sparse.bincount(
        tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1], [2, 2]], [1, 3, 1, 1], [3, 4]), minlength=5)),
    "sparse_bincount_per_row_binary": lambda tf: tf.sparse.to_dense(tf.sparse.bincount(
        tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1], [2, 2]], [1, 3, 1, 1], [3, 4]), axis=-1, minlength=4,
        binary_output=True)),
    "sparse_bincount_of_a_dense_matrix": lambda tf: tf.sparse.to_dense(tf.sparse.bincount(
        tf.constant([[1, 2], [2, 2]]), axis=-1)),
    "sets_intersection": lambda tf: tf.sparse.to_dense(tf.sets.intersection(
        tf.constant([[1, 2, 3, 3], [4, 5, 6, 4]]), tf.constant([[2, 3, 9, 0], [5, 7, 4, 1]]))),
    "sets_union": lambda tf: tf.sparse.to_dense(tf.sets.union(
        tf.constant([[1, 2, 3, 3], [4, 5, 6, 4]]), tf.constant([[2, 3, 9, 0], [5, 7, 4, 1]]))),
    "sets_difference_b_minus_a": lambda tf: tf.sparse.to_dense(tf.sets.difference(
        tf.constant([[1, 2, 3, 3], [4, 5, 6, 4]]), tf.constant([[2, 3, 9, 0], [5, 7, 4, 1]]), aminusb=False)),
    "sets_of_strings": lambda tf: tf.sparse.to_dense(tf.sets.union(tf.constant([["a", "b"]]),
                                                                   tf.constant([["c", "a"]])), default_value=""),
    "sets_intersection_rank_3": lambda tf: tf.sparse.to_dense(tf.sets.intersection(
        tf.constant([[[1, 2], [3, 4]]]), tf.constant([[[2, 2], [5, 6]]]))),
    "sets_size": lambda tf: tf.sets.size(tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 1, 3], [2, 3])),
    "sets_size_of_a_dense_tensor": lambda tf: tf.sets.size(tf.constant([[1, 2]])),
    "sparse_reduce_max_rows": lambda tf: tf.sparse.reduce_max(
        tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1], [2, 2]], [-1.0, 3, -5, 1], [3, 4]), axis=1),
    "sparse_reduce_max_keepdims": lambda tf: tf.sparse.reduce_max(
        tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1], [2, 2]], [-1.0, 3, -5, 1], [3, 4]), axis=0, keepdims=True),
    "sparse_reduce_max_of_negative_ints": lambda tf: tf.sparse.reduce_max(
        tf.sparse.SparseTensor([[0, 0], [2, 1]], [-1, -3], [3, 4]), axis=1),
    "sparse_reduce_max_sparse_output": lambda tf: tf.sparse.to_dense(tf.sparse.reduce_max(
        tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1], [2, 2]], [-1.0, 3, -5, 1], [3, 4]), axis=1,
        output_is_sparse=True)),
    "sparse_reduce_sum_sparse_output": lambda tf: tf.sparse.to_dense(tf.sparse.reduce_sum(
        tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1], [2, 2]], [-1.0, 3, -5, 1], [3, 4]), axis=1,
        output_is_sparse=True)),
    "sparse_bincount_of_a_vector_per_row": lambda tf: tf.sparse.to_dense(tf.sparse.bincount(
        tf.constant([1, 2, 2]), axis=-1, minlength=4)),
    "cast_of_a_sparse_tensor": lambda tf: tf.sparse.to_dense(tf.cast(
        tf.sparse.SparseTensor([[0, 1]], [2.7], [2, 2]), tf.int32)),
    "sparse_cross": lambda tf: tf.sparse.to_dense(tf.sparse.cross(
        [tf.constant([["a", "c"], ["b", "d"]]), tf.constant([[1, 2], [3, 4]]), tf.constant([["x"], ["y"]])]),
        default_value=""),
    "sparse_cross_with_a_sparse_input": lambda tf: tf.sparse.to_dense(tf.sparse.cross(
        [tf.sparse.SparseTensor([[0, 0], [0, 3], [2, 1]], ["p", "q", "r"], [3, 4]),
         tf.constant([["a"], ["b"], ["c"]])]), default_value=""),
    "sparse_cross_hashed": lambda tf: tf.sparse.to_dense(tf.sparse.cross_hashed(
        [tf.constant([["a", "c"], ["b", "d"]]), tf.constant([[1], [2]])])),
    "sparse_cross_hashed_buckets_and_key": lambda tf: tf.sparse.to_dense(tf.sparse.cross_hashed(
        [tf.constant([["a", "c"], ["b", "d"]]), tf.constant([[1], [2]])], num_buckets=10, hash_key=7)),
}.items():
    globals()[f"case_string_{_name}"] = _strings_case(_expression)


# -- tf.sparse basics (issue 16) --------------------------------------------------------------------------------
def _sparse(tf):
    return tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])


for _name, _expression in {
    "to_dense": lambda tf: tf.sparse.to_dense(_sparse(tf)),
    "to_dense_default": lambda tf: tf.sparse.to_dense(_sparse(tf), default_value=-1.0),
    "to_dense_repeated": lambda tf: tf.sparse.to_dense(tf.sparse.SparseTensor([[0], [0]], [1.0, 2.0], [2])),
    "sparse_dense_matmul": lambda tf: tf.sparse.sparse_dense_matmul(_sparse(tf), tf.reshape(tf.range(8.0), [4, 2])),
    "from_dense_indices": lambda tf: tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]])).indices,
    "from_dense_values": lambda tf: tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]])).values,
    "reduce_sum": lambda tf: tf.sparse.reduce_sum(_sparse(tf), axis=1),
    "reorder": lambda tf: tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2])).values,
}.items():
    globals()[f"case_sparse_{_name}"] = _value_case(_expression)


def case_sparse_gradient_to_values(tf, env):
    values = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        sp = tf.sparse.SparseTensor([[0, 0], [1, 2]], values, [3, 4])
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, tf.reshape(tf.range(8.0), [4, 2])))
    return _rounded(tape.gradient(y, values).numpy())


def case_while_loop_lone_tensor_loop_vars(tf, env):
    return tf.while_loop(lambda i: i < 10, lambda i: i + 3, tf.constant(0))


# -- AutoGraph (issue 16): tensor if/while statements inside function ------------------------------------------
def case_autograph_collatz(tf, env):
    @tf.function
    def collatz(n):
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    return [int(collatz(tf.constant(27))), int(collatz(tf.constant(1))), collatz.experimental_get_tracing_count()]


def case_autograph_if_defines_a_variable_in_both_branches(tf, env):
    @tf.function
    def signed_square(x):
        if tf.reduce_sum(x) > 0:
            y = x * x
        else:
            y = -x * x
        return y

    return [signed_square(tf.constant([1.0, 2.0])).numpy().tolist(),
            signed_square(tf.constant([-1.0, -2.0])).numpy().tolist()]


def case_autograph_if_without_else_keeps_the_old_value(tf, env):
    @tf.function
    def clip(x):
        if x > 5.0:
            x = tf.constant(5.0)
        return x

    return [float(clip(tf.constant(7.0))), float(clip(tf.constant(2.0)))]


def case_autograph_python_conditions_stay_python(tf, env):
    @tf.function
    def f(x, flag):
        total = x
        count = 3
        while count > 0:
            total = total + 1.0
            count -= 1
        if flag:
            total = total * 10.0
        return total

    return [float(f(tf.constant(1.0), True)), float(f(tf.constant(1.0), False)), f.experimental_get_tracing_count()]


def case_autograph_while_with_variable_and_tensor_accumulator(tf, env):
    v = tf.Variable(0.0)

    @tf.function
    def run(n):
        i = tf.constant(0)
        acc = tf.zeros([2])
        while i < n:
            v.assign_add(1.0)
            acc = acc + tf.cast(i, tf.float32)
            i += 1
        return acc

    return [run(tf.constant(4)).numpy().tolist(), float(v.numpy())]


def case_autograph_branch_local_temporaries(tf, env):
    @tf.function
    def f(x):
        if x > 0:
            tmp = x * 2.0
            y = tmp + 1.0
        else:
            y = -x
        return y

    v = tf.Variable(0.0)

    @tf.function
    def effects_only(x):
        if x > 0:
            v.assign_add(1.0)
        return x

    effects_only(tf.constant(1.0))
    effects_only(tf.constant(-1.0))
    return [float(f(tf.constant(3.0))), float(f(tf.constant(-2.0))), float(v.numpy())]


def case_autograph_for_loops(tf, env):
    @tf.function
    def squares(n):
        total = tf.constant(0)
        for i in tf.range(n):
            total += i * i
        return total

    @tf.function
    def rows(x):
        acc = tf.zeros([2])
        for row in x:
            acc = acc + row
        return acc

    @tf.function
    def python_range(x):
        for k in range(3):
            x = x + k
        return x

    return [int(squares(tf.constant(5))), rows(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).numpy().tolist(),
            int(python_range(tf.constant(1)))]


def case_range_with_tensor_bounds_in_a_function(tf, env):
    @tf.function
    def f(n):
        return tf.range(n), tf.range(1.0, tf.cast(n, tf.float32), 1.5)

    a, b = f(tf.constant(4))
    return [a.numpy().tolist(), b.numpy().tolist(), a.dtype.name, b.dtype.name]


def case_autograph_break_and_continue(tf, env):
    @tf.function
    def first_over(x, limit):
        i = tf.constant(0)
        found = tf.constant(-1)
        while i < tf.size(x):
            if x[i] > limit:
                found = i
                break
            i += 1
        return found

    @tf.function
    def sum_odd(n):
        i = tf.constant(0)
        total = tf.constant(0)
        while i < n:
            i += 1
            if i % 2 == 0:
                continue
            total += i
        return total

    @tf.function
    def python_break(x):
        k = 0
        while True:
            k += 1
            if k == 3:
                break
            x = x + 1
        return x

    return [int(first_over(tf.constant([1, 5, 9, 12]), tf.constant(6))),
            int(first_over(tf.constant([1, 2]), tf.constant(6))), int(sum_odd(tf.constant(10))),
            int(python_break(tf.constant(0)))]


def case_tensor_index_inside_a_traced_loop(tf, env):
    @tf.function
    def total(x):
        acc = tf.constant(0.0)
        for i in tf.range(tf.size(x)):
            acc += x[i] * tf.cast(i, tf.float32)
        return acc

    return float(total(tf.constant([1.0, 2.0, 3.0])))


# -- tf.TensorArray (issue 16) --------------------------------------------------------------------------------
def case_tensor_array_eager_write_stack_read(tf, env):
    ta = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        ta = ta.write(i, tf.constant([1.0, 2.0]) * i)
    return [ta.stack().numpy().tolist(), ta.read(1).numpy().tolist(), int(ta.size()), ta.dtype.name,
            str(ta.element_shape)]

def case_tensor_array_eager_dynamic_size_grows(tf, env):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    ta = ta.write(0, 1).write(4, 5)
    return [int(ta.size()), ta.stack().numpy().tolist()]

def case_tensor_array_eager_write_past_fixed_size(tf, env):
    ta = tf.TensorArray(tf.float32, size=2)
    return ta.write(2, 1.0).stack().numpy().tolist()

def case_tensor_array_eager_read_unwritten(tf, env):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
    return ta.read(1).numpy().tolist()

def case_tensor_array_eager_read_unwritten_unknown_shape(tf, env):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, [1.0, 2.0])
    return ta.stack().numpy().tolist()

def case_tensor_array_eager_write_twice(tf, env):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, 1.0)
    return float(ta.write(0, 2.0).read(0))

def case_tensor_array_eager_wrong_dtype(tf, env):
    ta = tf.TensorArray(tf.float32, size=2)
    return ta.write(0, tf.constant(1)).stack().numpy().tolist()

def case_tensor_array_eager_wrong_shape(tf, env):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, [1.0, 2.0])
    return ta.write(1, [1.0]).stack().numpy().tolist()

def case_tensor_array_unstack_gather_scatter_concat(tf, env):
    ta = tf.TensorArray(tf.float32, size=3).unstack(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    gathered = ta.gather([2, 0]).numpy().tolist()
    scattered = tf.TensorArray(tf.float32, size=3).scatter([2, 0], tf.constant([[7.0], [8.0]]))
    concat = tf.TensorArray(tf.float32, size=2).write(0, [1.0, 0.5]).write(1, [2.0, 3.0]).concat()
    return [gathered, scattered.read(2).numpy().tolist(), scattered.read(0).numpy().tolist(),
            concat.numpy().tolist(), ta.read(1).numpy().tolist()]

def case_tensor_array_concat_needs_same_shapes_unless_infer_shape_false(tf, env):
    return tf.TensorArray(tf.float32, size=2).write(0, [1.0]).write(1, [2.0, 3.0]).concat().numpy().tolist()

def case_tensor_array_in_function_out_of_range_write(tf, env):
    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=2)
        i = tf.constant(0)
        while i < 3:
            ta = ta.write(i, 1.0)
            i += 1
        return ta.stack()
    return f().numpy().tolist()

def case_tensor_array_in_function_unstack_read(tf, env):
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        total = tf.constant(0.0)
        for i in tf.range(3):
            total += ta.read(i) * tf.cast(i + 1, tf.float32)
        return total
    return float(f(tf.constant([1.0, 2.0, 3.0])))

def case_tensor_array_in_a_while_loop(tf, env):
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        i = tf.constant(0)
        while i < n:
            ta = ta.write(i, tf.cast(i * i, tf.float32))
            i += 1
        return ta.stack()
    return [squares(tf.constant(4)).numpy().tolist(), squares(tf.constant(1)).numpy().tolist()]

def case_tensor_array_in_a_for_range_loop(tf, env):
    @tf.function
    def rows(x):
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, tf.reduce_sum(x[i]) * 2.0)
        return ta.stack(), ta.size()
    s, n = rows(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    return [s.numpy().tolist(), int(n)]

def case_tensor_array_tf_while_loop_explicit(tf, env):
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])
        def body(i, ta):
            return i + 1, ta.write(i, x * tf.cast(i, tf.float32))
        _, ta = tf.while_loop(lambda i, ta: i < 3, body, [0, ta])
        return ta.stack()
    return f(tf.constant([1.0, -1.0])).numpy().tolist()

def case_tensor_array_gradient_eager(tf, env):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        ta = tf.TensorArray(tf.float32, size=2)
        ta = ta.write(0, x * 2.0).write(1, x * x)
        loss = tf.reduce_sum(ta.stack())
    return tape.gradient(loss, x).numpy().tolist()

def case_tensor_array_gradient_in_function(tf, env):
    x = tf.Variable([1.0, 2.0])
    @tf.function
    def step():
        with tf.GradientTape() as tape:
            ta = tf.TensorArray(tf.float32, size=2)
            ta = ta.write(0, x * 2.0).write(1, x * x)
            loss = tf.reduce_sum(ta.stack() * tf.constant([[1.0], [3.0]]))
        return tape.gradient(loss, x)
    return step().numpy().tolist()

def case_tensor_array_read_out_of_range(tf, env):
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    return float(ta.read(5))

def case_tensor_array_stack_empty(tf, env):
    ta = tf.TensorArray(tf.float32, size=0, element_shape=[2])
    return [ta.stack().numpy().tolist(), list(ta.stack().shape)]

def case_tensor_array_infer_shape_false(tf, env):
    ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
    ta = ta.write(0, [1.0]).write(1, [2.0, 3.0])
    return ta.concat().numpy().tolist()

def case_tensor_array_python_values_float_int(tf, env):
    ta = tf.TensorArray(tf.float32, size=1).write(0, 3)
    return [ta.stack().numpy().tolist(), ta.stack().dtype.name]


def case_fill_with_a_traced_value(tf, env):
    @tf.function
    def f(x):
        return tf.fill([2, 2], x * 2.0)
    return f(tf.constant(1.5)).numpy().tolist()


# -- tf.raw_ops (issue 16) ------------------------------------------------------------------------------------
def _rows(tf, values):
    out = []
    for v in values:
        v = v.numpy() if hasattr(v, "numpy") else v
        out.append(np.round(np.asarray(v, dtype=np.float64), 5).tolist() if np.asarray(v).dtype.kind in "fiub"
                   else np.asarray(v).tolist())
    return out

def case_raw_ops_math(tf, env):
    x = tf.constant([[1.0, -2.0], [3.0, 0.5]])
    y = tf.constant([[2.0, 2.0], [1.0, 4.0]])
    r = tf.raw_ops
    return _rows(tf, [r.AddV2(x=x, y=y), r.Sub(x=x, y=y), r.Mul(x=x, y=y), r.RealDiv(x=x, y=y),
                      r.Maximum(x=x, y=y), r.Pow(x=y, y=x), r.Abs(x=x), r.Neg(x=x), r.Exp(x=x), r.Square(x=x),
                      r.Sqrt(x=y), r.Tanh(x=x), r.Sigmoid(x=x), r.Floor(x=x), r.Sign(x=x),
                      r.Less(x=x, y=y), r.Equal(x=x, y=y), r.LogicalNot(x=r.Less(x=x, y=y)),
                      r.SquaredDifference(x=x, y=y), r.FloorMod(x=x, y=y)])

def case_raw_ops_reductions_and_matmul(tf, env):
    x = tf.constant([[1.0, -2.0, 4.0], [3.0, 0.5, -1.0]])
    r = tf.raw_ops
    return _rows(tf, [r.Sum(input=x, axis=0), r.Mean(input=x, axis=[0, 1]), r.Max(input=x, axis=1, keep_dims=True),
                      r.Min(input=x, axis=1), r.Prod(input=x, axis=0), r.ArgMax(input=x, dimension=1),
                      r.ArgMin(input=x, dimension=0, output_type=tf.int32),
                      r.MatMul(a=x, b=x, transpose_b=True), r.BatchMatMulV2(x=x[None], y=x[None], adj_y=True),
                      r.Cast(x=x, DstT=tf.int32), r.Any(input=r.Less(x=x, y=0.0), axis=1)])

def case_raw_ops_arrays(tf, env):
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    r = tf.raw_ops
    return _rows(tf, [r.Reshape(tensor=x, shape=[3, 2]), r.Transpose(x=x, perm=[1, 0]),
                      r.ExpandDims(input=x, axis=0).shape.as_list(), r.Squeeze(input=x[None], axis=[0]),
                      r.ConcatV2(values=[x, x], axis=1), r.Pack(values=[x, x], axis=0).shape.as_list(),
                      r.Unpack(value=x, num=2)[1], r.Tile(input=x, multiples=[1, 2]), r.Shape(input=x),
                      r.Size(input=x), r.Rank(input=x), r.Fill(dims=[2], value=7), r.Range(start=1, limit=7, delta=2),
                      r.GatherV2(params=x, indices=[1, 0], axis=1), r.GatherNd(params=x, indices=[[1, 2]]),
                      r.SelectV2(condition=[True, False, True], t=x, e=-x), r.Where(condition=[True, False, True]),
                      r.Slice(input=x, begin=[0, 1], size=[2, 2]), r.Pad(input=x, paddings=[[1, 0], [0, 1]]),
                      r.ReverseV2(tensor=x, axis=[1]), r.BroadcastTo(input=[1, 2], shape=[2, 2]),
                      r.OneHot(indices=[0, 2], depth=3, on_value=1.0, off_value=0.0),
                      r.Cumsum(x=x, axis=1), r.TopKV2(input=[3, 1, 4, 1], k=2).values,
                      r.ScatterNd(indices=[[1]], updates=[5], shape=[3]), r.ZerosLike(x=x), r.Identity(input=x),
                      r.AddN(inputs=[x, x, x])])

def case_raw_ops_nn(tf, env):
    logits = tf.constant([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]])
    r = tf.raw_ops
    loss, backprop = r.SoftmaxCrossEntropyWithLogits(features=logits, labels=[[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    sparse_loss, sparse_backprop = r.SparseSoftmaxCrossEntropyWithLogits(features=logits, labels=[1, 0])
    return _rows(tf, [r.Relu(features=logits - 1.0), r.Relu6(features=logits * 4.0), r.Elu(features=-logits),
                      r.Softplus(features=logits), r.Softmax(logits=logits), r.LogSoftmax(logits=logits),
                      r.LeakyRelu(features=-logits, alpha=0.1), r.BiasAdd(value=logits, bias=[1.0, 2.0, 3.0]),
                      loss, backprop, sparse_loss, sparse_backprop,
                      r.Einsum(inputs=[logits, logits], equation="ij,kj->ik"),
                      r.MatrixInverse(input=[[2.0, 0.0], [1.0, 1.0]]),
                      r.MatrixDeterminant(input=[[2.0, 1.0], [1.0, 3.0]])])

def case_raw_ops_need_keywords(tf, env):
    return tf.raw_ops.AddV2(tf.constant(1.0), tf.constant(2.0))

def case_raw_ops_in_a_function_with_gradient(tf, env):
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.raw_ops.Sum(input=tf.raw_ops.Relu(features=tf.raw_ops.MatMul(a=x, b=w)), axis=[0, 1])
        return y, tape.gradient(y, w)
    y, g = step(tf.constant([[1.0, -1.0]]))
    return [float(y), g.numpy().tolist()]


# -- AutoGraph: break/continue in for, returns (issue 16) -------------------------------------------------
def case_autograph_break_in_a_for_over_a_tensor(tf, env):
    @tf.function
    def first_negative(x):
        found = tf.constant(-1.0)
        for v in x:
            if v < 0:
                found = v
                break
        return found
    return [float(first_negative(tf.constant([1.0, -2.0, -3.0]))), float(first_negative(tf.constant([1.0])))]

def case_autograph_continue_in_a_for_over_range(tf, env):
    @tf.function
    def odd_sum(n):
        total = tf.constant(0)
        for i in tf.range(n):
            if i % 2 == 0:
                continue
            total += i
        return total
    return int(odd_sum(tf.constant(7)))

def case_autograph_return_inside_a_while(tf, env):
    @tf.function
    def index_of(x, target):
        i = tf.constant(0)
        while i < tf.size(x):
            if x[i] == target:
                return i
            i += 1
        return tf.constant(-1)
    return [int(index_of(tf.constant([4, 7, 9]), tf.constant(9))), int(index_of(tf.constant([4]), tf.constant(9)))]

def case_autograph_return_inside_a_for(tf, env):
    @tf.function
    def first_big(x):
        for v in x:
            if v > 10.0:
                return v * 2.0
        return tf.constant(0.0)
    return [float(first_big(tf.constant([1.0, 12.0, 20.0]))), float(first_big(tf.constant([1.0])))]

def case_autograph_return_in_if_branches(tf, env):
    @tf.function
    def f(x):
        if x > 0:
            return x * 2
        else:
            return -x
    return [int(f(tf.constant(3))), int(f(tf.constant(-4)))]

def case_autograph_early_return_then_rest(tf, env):
    @tf.function
    def f(x):
        if x > 0:
            return x * 2
        x = x - 10
        return x
    return [int(f(tf.constant(3))), int(f(tf.constant(-4)))]

def case_autograph_nested_loops(tf, env):
    @tf.function
    def f(n):
        total = tf.constant(0)
        for i in tf.range(n):
            for j in tf.range(i):
                total += j
        return total
    return int(f(tf.constant(5)))


# -- dtype mismatches: InvalidArgumentError eagerly, TypeError while building a graph (as TF) ---------------
def case_mixed_dtypes_in_function(tf, env):
    @tf.function
    def f(a, b):
        return a + b
    return f(tf.constant(1), tf.constant(1, tf.int64)).numpy().tolist()

def case_mixed_dtypes_eager(tf, env):
    return (tf.constant(1) + tf.constant(1, tf.int64)).numpy().tolist()

def case_mixed_dtypes_matmul_in_function(tf, env):
    @tf.function
    def f(a, b):
        return tf.matmul(a, b)
    return f(tf.ones([2, 2]), tf.ones([2, 2], tf.float64)).numpy().tolist()

def case_mixed_dtypes_in_graph(tf, env):
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1)
        b = tf.constant(1, tf.int64)
        return str(a + b)


# -- while_loop gradients in graphs; trigonometric ops (issue 16) -----------------------------------------
def case_while_loop_gradient_in_function(tf, env):
    x = tf.Variable(1.5)
    @tf.function
    def f():
        with tf.GradientTape() as tape:
            _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x + 1.0), [0, tf.constant(2.0)])
        return y, tape.gradient(y, x)
    y, g = f()
    return [float(y), float(g)]

def case_while_loop_gradient_wrt_initial_value(tf, env):
    @tf.function
    def f(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            out = tf.while_loop(lambda v: tf.reduce_sum(v) < 100.0, lambda v: [v * v + 1.0], [a])[0]
            loss = tf.reduce_sum(out)
        return loss, tape.gradient(loss, a)
    loss, g = f(tf.constant([1.0, 2.0]))
    return [float(loss), g.numpy().tolist()]

def case_autograph_loop_gradient_rnn_like(tf, env):
    w = tf.Variable([[0.5, -0.2], [0.1, 0.3]])
    @tf.function
    def f(xs):
        with tf.GradientTape() as tape:
            h = tf.zeros([1, 2])
            for t in tf.range(tf.shape(xs)[0]):
                h = tf.tanh(tf.matmul(h, w) + xs[t])
            loss = tf.reduce_sum(h * h)
        return loss, tape.gradient(loss, w)
    loss, g = f(tf.constant([[[1.0, 0.0]], [[0.5, -1.0]], [[0.2, 0.3]]]))
    return [round(float(loss), 5), [round(v, 5) for v in g.numpy().ravel().tolist()]]

def case_while_loop_gradient_maximum_iterations(tf, env):
    x = tf.Variable(2.0)
    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda y: y < 1000.0, lambda y: [y * x], [tf.constant(1.0)], maximum_iterations=3)[0]
        return y, tape.gradient(y, x)
    y, g = f()
    return [float(y), float(g)]

def case_while_loop_gradient_in_session(tf, env):
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [])
        y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, tf.sin(y) + x), [0, x])[1]
        dx = tf.gradients(y, x)[0]
    with tf.compat.v1.Session(graph=g) as sess:
        a, b = sess.run([y, dx], {x: 0.7})
    return [round(float(a), 5), round(float(b), 5)]

def case_while_loop_gradient_zero_iterations(tf, env):
    x = tf.Variable(3.0)
    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda y: y < 0.0, lambda y: [y * x], [x * 2.0])[0]
        return tape.gradient(y, x)
    return float(f())


def case_trigonometric_and_hyperbolic_ops(tf, env):
    x = tf.constant([-0.5, 0.25, 0.75])
    ops = [tf.sin, tf.cos, tf.tan, tf.asin, tf.acos, tf.atan, tf.sinh, tf.cosh, tf.asinh, tf.atanh,
           tf.math.sin, tf.math.atanh]
    out = [[round(v, 5) for v in op(x).numpy().tolist()] for op in ops]
    out.append([round(v, 5) for v in tf.acosh(x + 1.5).numpy().tolist()])
    out.append([round(v, 5) for v in tf.atan2(x, tf.constant([1.0, -1.0, -0.5])).numpy().tolist()])
    return out

def case_trigonometric_gradients(tf, env):
    x = tf.constant([-0.5, 0.25, 0.75])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ys = [tf.sin(x), tf.cos(x), tf.tan(x), tf.asin(x), tf.acos(x), tf.atan(x), tf.sinh(x), tf.cosh(x),
              tf.asinh(x), tf.atanh(x), tf.atan2(x, 2.0)]
    return [[round(v, 5) for v in tape.gradient(y, x).numpy().tolist()] for y in ys]


def case_while_loop_gradient_of_a_bound_read_in_the_condition(tf, env):
    scale, limit = tf.Variable(3.0), tf.Variable(20.0)
    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda y: y < limit, lambda y: [y * scale], [tf.constant(1.0)])[0]
        return y, tape.gradient(y, [scale, limit])
    y, (a, b) = f()
    return [float(y), float(a), None if b is None else float(b)]


# -- tf.data in functions: AutoGraph loops over datasets, element_spec, from_generator (issues 16, 17) ----
def case_dataset_loop_in_function_reiterates(tf, env):
    calls = [0]
    def gen():
        calls[0] += 1
        for i in range(3):
            yield float(calls[0] * 10 + i)
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.float32))
    @tf.function
    def total(ds):
        s = tf.constant(0.0)
        for x in ds:
            s += x
        return s
    return [float(total(ds)), float(total(ds)), calls[0]]

def case_dataset_loop_in_function_shuffled_order(tf, env):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 4.0]).shuffle(4, seed=3)
    @tf.function
    def weighted(ds):
        s = tf.constant(0.0)
        k = tf.constant(1.0)
        for x in ds:
            s += x * k
            k += 1.0
        return s
    return [float(weighted(ds)) == float(weighted(ds))]

def case_dataset_loop_in_function_batches_with_break(tf, env):
    ds = tf.data.Dataset.range(10).batch(3)
    @tf.function
    def f(ds):
        s = tf.constant(0, tf.int64)
        n = tf.constant(0)
        for b in ds:
            if tf.reduce_sum(b) > 20:
                break
            s += tf.reduce_sum(b)
            n += 1
        return s, n
    s, n = f(ds)
    return [int(s), int(n)]


def case_dataset_python_values_default_to_float32_and_int32(tf, env):
    ds = tf.data.Dataset.from_tensor_slices(([1.0, 2.0], [3, 4]))
    a = tf.data.Dataset.from_tensors([1.5, 2.5])
    b = tf.data.Dataset.from_tensor_slices(np.array([1.0, 2.0]))
    return [[s.dtype.name for s in ds.element_spec], a.element_spec.dtype.name, b.element_spec.dtype.name,
            [x.dtype.name for x in next(iter(ds))]]

def case_dataset_element_spec_shapes(tf, env):
    ds = tf.data.Dataset.from_tensor_slices({"x": np.zeros([10, 3], np.float32), "y": np.zeros([10], np.int64)})
    batched = ds.batch(4)
    dropped = ds.batch(4, drop_remainder=True)
    return [[list(batched.element_spec["x"].shape), list(batched.element_spec["y"].shape)],
            list(dropped.element_spec["x"].shape), list(tf.data.Dataset.range(3).element_spec.shape),
            tf.data.Dataset.range(3).element_spec.dtype.name,
            list(ds.shuffle(10).repeat(2).take(3).prefetch(1).element_spec["x"].shape)]

def case_dataset_from_generator_with_signature(tf, env):
    def gen():
        for i in range(3):
            yield i, [float(i)] * 2
    ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([], tf.int32),
                                                               tf.TensorSpec([2], tf.float32)))
    out = [(int(a), b.numpy().tolist()) for a, b in ds]
    return [out, [s.dtype.name for s in ds.element_spec], int(ds.cardinality())]

def case_dataset_from_generator_wrong_shape(tf, env):
    def gen():
        yield [1.0, 2.0, 3.0]
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([2], tf.float32))
    return [x.numpy().tolist() for x in ds]

def case_dataset_from_generator_args(tf, env):
    def gen(n):
        for i in range(int(n)):
            yield i * 2
    ds = tf.data.Dataset.from_generator(gen, args=[3], output_signature=tf.TensorSpec([], tf.int64))
    return [int(x) for x in ds]

def case_dataset_training_loop_inside_a_function(tf, env):
    x = np.linspace(-1.0, 1.0, 16).astype(np.float32)
    ds = tf.data.Dataset.from_tensor_slices((x, 3.0 * x + 1.0)).batch(4)
    w, b = tf.Variable(0.5), tf.Variable(0.0)

    @tf.function
    def train_epoch(ds):
        loss = tf.constant(0.0)
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(w * xb + b - yb))
            gw, gb = tape.gradient(loss, [w, b])
            w.assign_sub(0.2 * gw)
            b.assign_sub(0.2 * gb)
        return loss
    losses = [round(float(train_epoch(ds)), 5) for _ in range(3)]
    return [losses, round(float(w), 5), round(float(b), 5)]

def case_dataset_loop_over_dicts_in_a_function(tf, env):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0, 3.0], "b": [10.0, 20.0, 30.0]})
    @tf.function
    def f(ds):
        total = tf.constant(0.0)
        for row in ds:
            total += row["a"] * row["b"]
        return total
    return float(f(ds))


def case_tensor_array_states_gradient_through_a_loop(tf, env):
    w = tf.Variable([[0.5, -0.2], [0.1, 0.3]])
    @tf.function
    def f(xs):
        with tf.GradientTape() as tape:
            states = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            h = tf.zeros([1, 2])
            for t in tf.range(tf.shape(xs)[0]):
                h = tf.tanh(tf.matmul(h, w) + xs[t])
                states = states.write(t, h)
            loss = tf.reduce_sum(states.stack() * tf.constant([[[1.0, 2.0]], [[3.0, -1.0]], [[0.5, 0.5]]]))
        return loss, tape.gradient(loss, w)
    loss, g = f(tf.constant([[[1.0, 0.0]], [[0.5, -1.0]], [[0.2, 0.3]]]))
    return [round(float(loss), 5), [round(v, 5) for v in g.numpy().ravel().tolist()]]

def case_tensor_array_read_of_earlier_state_gradient(tf, env):
    w = tf.Variable(0.7)
    @tf.function
    def f(n):
        with tf.GradientTape() as tape:
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[])
            ta = ta.write(0, 1.0)
            for t in tf.range(1, n):
                ta = ta.write(t, tf.sin(ta.read(t - 1) * w) + 1.0)
            loss = tf.reduce_sum(ta.stack())
        return loss, tape.gradient(loss, w)
    loss, g = f(tf.constant(5))
    return [round(float(loss), 5), round(float(g), 5)]


def case_while_loop_gradient_of_a_growing_loop_variable(tf, env):
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            grown = tf.while_loop(lambda b: tf.size(b) < 4, lambda b: [tf.concat([b, b * 2.0], 0)], [x],
                                  shape_invariants=[tf.TensorShape([None])])[0]
            total = tf.reduce_sum(grown * tf.range(1.0, 5.0))
        return total, tape.gradient(total, x)
    total, g = f(tf.constant([1.5]))
    return [float(total), g.numpy().tolist()]


# -- keras.utils (issues 16, 17) ---------------------------------------------------------------------------
def case_keras_to_categorical(tf, env):
    a = tf.keras.utils.to_categorical([0, 2, 1])
    b = tf.keras.utils.to_categorical(np.array([[1], [0]]), num_classes=3)
    return [a.tolist(), str(a.dtype), b.tolist()]

def case_keras_set_random_seed_repeats_initial_weights(tf, env):
    def weights():
        tf.keras.utils.set_random_seed(7)
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
        return model.get_weights()[0].tolist(), float(tf.random.uniform([]))
    return weights() == weights()

def case_keras_set_random_seed_rejects_non_integers(tf, env):
    tf.keras.utils.set_random_seed(1.5)


# -- tf.data transformations (issue 17) --------------------------------------------------------------------
def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in sorted(x.items())}
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    x = np.asarray(x)
    if x.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v for v in np.ravel(x).tolist()]
    return x.tolist()


def _all(ds):
    return [_plain(e) for e in ds.as_numpy_iterator()]


def case_dataset_filter_zip_concatenate_skip(tf, env):
    a = tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0)
    z = tf.data.Dataset.zip(tf.data.Dataset.range(3), tf.data.Dataset.from_tensor_slices([5.0, 6.0, 7.0, 8.0]))
    c = tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 7))
    return [_all(a), _all(z), _all(c), _all(tf.data.Dataset.range(5).skip(3)), int(a.cardinality()),
            int(z.cardinality()), int(c.cardinality()), int(tf.data.Dataset.range(5).skip(3).cardinality())]


def case_dataset_zip_of_a_tuple_and_dict_structures(tf, env):
    z = tf.data.Dataset.zip((tf.data.Dataset.range(2), tf.data.Dataset.from_tensor_slices({"a": [1, 2]})))
    return [_all(z), [type(s).__name__ for s in z.element_spec]]


def case_dataset_enumerate_and_reduce(tf, env):
    e = tf.data.Dataset.from_tensor_slices([10.0, 20.0]).enumerate(start=5)
    total = tf.data.Dataset.range(5).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)
    pair = tf.data.Dataset.range(4).reduce((tf.constant(0, tf.int64), tf.constant(1, tf.int64)),
                                          lambda s, x: (s[0] + x, s[1] * (x + 1)))
    return [_all(e), int(total), [int(pair[0]), int(pair[1])], e.element_spec[0].dtype.name]


def case_dataset_shard(tf, env):
    ds = tf.data.Dataset.range(10)
    return [_all(ds.shard(3, 0)), _all(ds.shard(3, 2)), int(ds.shard(3, 1).cardinality())]


def case_dataset_shard_bad_index(tf, env):
    return _all(tf.data.Dataset.range(10).shard(3, 3))


def case_dataset_flat_map_and_interleave(tf, env):
    ds = tf.data.Dataset.range(1, 4)
    flat = ds.flat_map(lambda x: tf.data.Dataset.range(x))
    inter = ds.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
    return [_all(flat), _all(inter)]


def case_dataset_unbatch_and_rebatch(tf, env):
    ds = tf.data.Dataset.range(7).batch(3)
    return [_all(ds.unbatch()), _all(ds.rebatch(2)), _all(ds.unbatch().batch(4, drop_remainder=True))]


def case_dataset_padded_batch(tf, env):
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
    a = ds.padded_batch(2)
    b = ds.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64))
    return [_all(a), _all(b), list(a.element_spec.shape), list(b.element_spec.shape)]


def case_dataset_window(tf, env):
    ds = tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True)
    return [[_all(w) for w in ds], _all(tf.data.Dataset.range(5).window(2).flat_map(lambda w: w.batch(2)))]


def case_dataset_cache_in_memory_replays_the_first_pass(tf, env):
    calls = [0]

    def gen():
        calls[0] += 1
        yield from range(3)

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64)).cache()
    return [_all(ds), _all(ds), calls[0]]


def case_dataset_map_parallel_and_deterministic(tf, env):
    ds = tf.data.Dataset.range(20).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    return [_all(ds), _all(tf.data.Dataset.range(5).map(lambda x: (x, 2.5)))]


def case_dataset_map_python_float_is_float32(tf, env):
    ds = tf.data.Dataset.range(2).map(lambda x: (tf.cast(x, tf.float32), 1.5, 3))
    return [s.dtype.name for s in ds.element_spec]


def case_dataset_options_auto_shard_policy(tf, env):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    ds = tf.data.Dataset.range(3).with_options(options)
    return [_all(ds), str(ds.options().experimental_distribute.auto_shard_policy)]


def case_dataset_take_while_and_scan_like(tf, env):
    ds = tf.data.Dataset.range(10).take_while(lambda x: x < 4)
    return _all(ds)


def case_dataset_batch_of_strings_and_dicts(tf, env):
    ds = tf.data.Dataset.from_tensor_slices({"name": ["a", "bb", "c"], "n": [1, 2, 3]}).batch(2)
    return _all(ds)


def case_dataset_repeat_then_batch_cardinality(tf, env):
    ds = tf.data.Dataset.range(5).repeat(2).batch(3)
    return [int(ds.cardinality()), _all(ds)]


def case_dataset_filter_cardinality_unknown(tf, env):
    ds = tf.data.Dataset.range(5).filter(lambda x: x > 1)
    return [int(ds.cardinality()), int(tf.data.experimental.UNKNOWN_CARDINALITY),
            int(tf.data.experimental.INFINITE_CARDINALITY)]


# -- Keras optimizers and learning-rate schedules (issue 17) --------------------------------------------
GRADS = [np.array([0.5, -1.0], np.float32), np.array([0.2, 0.3], np.float32), np.array([-0.4, 0.1], np.float32)]


def _run(tf, optimizer):
    var = tf.Variable([1.0, -2.0])
    for g in GRADS:
        optimizer.apply_gradients([(tf.constant(g), var)])
    return [round(float(v), 5) for v in var.numpy()]


def case_keras_optimizers_three_steps(tf, env):
    o = tf.keras.optimizers
    return {"sgd": _run(tf, o.SGD(0.1)), "momentum": _run(tf, o.SGD(0.1, momentum=0.9)),
            "nesterov": _run(tf, o.SGD(0.1, momentum=0.9, nesterov=True)), "adam": _run(tf, o.Adam(0.1)),
            "adamw": _run(tf, o.AdamW(0.1, weight_decay=0.1)), "rmsprop": _run(tf, o.RMSprop(0.1)),
            "rmsprop_centered_momentum": _run(tf, o.RMSprop(0.1, momentum=0.5, centered=True)),
            "adagrad": _run(tf, o.Adagrad(0.1)), "sgd_weight_decay": _run(tf, o.SGD(0.1, weight_decay=0.5))}


def case_keras_optimizers_by_name(tf, env):
    return [type(tf.keras.optimizers.get(n)).__name__ for n in ("sgd", "adam", "adamw", "rmsprop", "adagrad")]


def case_keras_learning_rate_schedules(tf, env):
    s = tf.keras.optimizers.schedules
    exp = s.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
    stair = s.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5, staircase=True)
    piece = s.PiecewiseConstantDecay([2, 4], [1.0, 0.5, 0.1])
    cos = s.CosineDecay(0.2, decay_steps=4, alpha=0.1)
    warm = s.CosineDecay(0.0, decay_steps=4, warmup_target=0.2, warmup_steps=2)
    return [[round(float(f(step)), 6) for step in range(7)] for f in (exp, stair, piece, cos, warm)]


def case_keras_optimizer_with_a_schedule(tf, env):
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.5, decay_steps=1, decay_rate=0.5)
    optimizer = tf.keras.optimizers.SGD(schedule)
    out = _run(tf, optimizer)
    return [out, round(float(optimizer.learning_rate), 6), int(optimizer.iterations)]


def case_keras_learning_rate_set_between_traced_steps(tf, env):
    var = tf.Variable(1.0)
    optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        optimizer.apply_gradients([(tf.constant(1.0), var)])

    step()
    optimizer.learning_rate = 0.01
    step()
    return [round(float(var), 6), round(float(optimizer.learning_rate), 6)]


def case_keras_setting_the_rate_of_a_scheduled_optimizer(tf, env):
    optimizer = tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.ExponentialDecay(0.5, 1, 0.5))
    optimizer.learning_rate = 0.1


# -- Keras losses and activations (issue 17) --------------------------------------------------------------
def _r(x):
    return [round(float(v), 5) for v in np.ravel(x.numpy() if hasattr(x, "numpy") else x)]


def case_keras_losses_values(tf, env):
    L = tf.keras.losses
    f = lambda v: np.array(v, np.float32)  # noqa: E731
    yb, pb = f([[0.0, 1.0], [1.0, 1.0]]), f([[0.3, 0.8], [0.9, 0.4]])
    yc, pc = f([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), f([[0.2, 0.7, 0.1], [0.5, 0.3, 0.2]])
    logits = f([[1.0, 2.0, -1.0], [0.5, 0.1, 2.0]])
    yr, pr = f([[1.0, 2.0], [0.5, -1.0]]), f([[1.5, 0.5], [0.0, 2.5]])
    return {
        "bce": _r(L.BinaryCrossentropy()(yb, pb)),
        "bce_logits_smoothing": _r(L.BinaryCrossentropy(from_logits=True, label_smoothing=0.2)(yb, pb)),
        "bce_none": _r(L.BinaryCrossentropy(reduction=None)(yb, pb)),
        "cce": _r(L.CategoricalCrossentropy()(yc, pc)),
        "cce_logits_smoothing": _r(L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)(yc, logits)),
        "scce": _r(L.SparseCategoricalCrossentropy()(np.array([1, 0]), pc)),
        "scce_logits_sum": _r(L.SparseCategoricalCrossentropy(from_logits=True, reduction="sum")(np.array([1, 2]),
                                                                                                logits)),
        "mse": _r(L.MeanSquaredError()(yr, pr)), "mae": _r(L.MeanAbsoluteError()(yr, pr)),
        "huber": _r(L.Huber()(yr, pr)), "huber_delta": _r(L.Huber(delta=0.5)(yr, pr)),
        "weighted": _r(L.MeanSquaredError()(yr, pr, sample_weight=f([1.0, 3.0]))),
        "mean_with_sample_weight": _r(L.MeanAbsoluteError(reduction="mean_with_sample_weight")(
            yr, pr, sample_weight=f([1.0, 3.0]))),
    }


def case_keras_loss_functions_by_name(tf, env):
    L = tf.keras.losses
    y, p = [[0.0, 1.0]], [[0.25, 0.75]]
    return [_r(L.get(name)(y, p)) for name in ("binary_crossentropy", "mse", "mae", "huber",
                                                 "categorical_crossentropy", "mean_absolute_error")] + \
        [_r(L.binary_crossentropy(y, p)), _r(L.mae(y, p)), _r(L.huber(y, p))]


def case_keras_crossentropy_of_saturated_sigmoid_and_softmax_outputs(tf, env):
    x = tf.constant([[30.0, -30.0], [-25.0, 40.0]])
    probs = tf.keras.activations.sigmoid(x)
    soft = tf.keras.activations.softmax(x)
    plain = tf.constant(probs.numpy())
    return [_r(tf.keras.losses.binary_crossentropy([[0.0, 1.0], [1.0, 0.0]], probs)),
            _r(tf.keras.losses.binary_crossentropy([[0.0, 1.0], [1.0, 0.0]], plain)),
            _r(tf.keras.losses.categorical_crossentropy([[0.0, 1.0], [1.0, 0.0]], soft))]


def case_keras_legacy_reduction_names(tf, env):
    R = tf.keras.losses.Reduction
    return [R.SUM, R.NONE, R.SUM_OVER_BATCH_SIZE, R.AUTO]


def case_keras_fit_binary_crossentropy_sigmoid(tf, env):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.set_weights([np.array([[2.0], [-3.0]], np.float32), np.array([0.5], np.float32)])
    x = np.array([[1.0, 0.0], [0.0, 1.0], [5.0, -5.0], [-6.0, 6.0]], np.float32)
    y = np.array([[1.0], [0.0], [0.0], [1.0]], np.float32)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    return {k: [round(v, 5) for v in vals] for k, vals in sorted(history.history.items())}


# -- Keras metrics (issue 17) ---------------------------------------------------------------------------
def _f(x):
    return round(float(x), 5)


def case_keras_metric_classes(tf, env):
    M = tf.keras.metrics
    f = lambda v: np.array(v, np.float32)  # noqa: E731
    yb, pb = f([[0], [1], [1], [0]]), f([[0.3], [0.8], [0.4], [0.6]])
    yc, pc = f([[0, 1, 0], [1, 0, 0]]), f([[0.2, 0.7, 0.1], [0.5, 0.3, 0.2]])
    out = {}
    mean = M.Mean()
    mean.update_state([1.0, 2.0, 3.0])
    mean.update_state([10.0], sample_weight=[2.0])
    out["mean"] = _f(mean.result())
    total = M.Sum()
    total.update_state([1.0, 2.0])
    out["sum"] = _f(total.result())
    out["accuracy"] = _f(M.Accuracy()(f([1, 2, 3]), f([1, 2, 4])))
    out["binary_accuracy"] = _f(M.BinaryAccuracy()(yb, pb))
    out["binary_accuracy_threshold"] = _f(M.BinaryAccuracy(threshold=0.7)(yb, pb))
    out["categorical_accuracy"] = _f(M.CategoricalAccuracy()(yc, pc))
    out["sparse_categorical_accuracy"] = _f(M.SparseCategoricalAccuracy()(np.array([1, 2]), pc))
    out["top_k"] = _f(M.TopKCategoricalAccuracy(k=2)(yc, pc))
    out["sparse_top_k"] = _f(M.SparseTopKCategoricalAccuracy(k=1)(np.array([1, 1]), pc))
    out["precision"] = _f(M.Precision()(yb, pb))
    out["recall"] = _f(M.Recall()(yb, pb))
    out["precision_thresholds"] = [_f(v) for v in M.Precision(thresholds=[0.35, 0.7])(yb, pb)]
    out["auc"] = _f(M.AUC()(yb, pb))
    out["auc_pr"] = _f(M.AUC(curve="PR")(yb, pb))
    out["auc_minoring"] = _f(M.AUC(num_thresholds=5, summation_method="minoring")(yb, pb))
    out["mse"] = _f(M.MeanSquaredError()(yb, pb))
    out["mae"] = _f(M.MeanAbsoluteError()(yb, pb))
    out["bce"] = _f(M.BinaryCrossentropy()(yb, pb))
    weighted = M.BinaryAccuracy()
    weighted.update_state(yb, pb, sample_weight=f([1, 0, 2, 1]))
    out["weighted"] = _f(weighted.result())
    weighted.reset_state()
    out["after_reset"] = _f(weighted.result())
    return out


def case_keras_metric_automatic_names(tf, env):
    return [tf.keras.metrics.AUC().name.split("_")[0], tf.keras.metrics.BinaryAccuracy().name.rsplit("_", 1)[0]
            if tf.keras.metrics.BinaryAccuracy().name != "binary_accuracy" else "binary_accuracy",
            tf.keras.metrics.TopKCategoricalAccuracy(name="t").name]


def case_keras_metrics_in_a_custom_training_loop(tf, env):
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    loss_mean = tf.keras.metrics.Mean(name="loss")

    @tf.function
    def step(y, logits):
        accuracy.update_state(y, logits)
        loss_mean.update_state(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))

    step(tf.constant([0, 1]), tf.constant([[2.0, 0.5], [0.1, 0.3]]))
    step(tf.constant([1, 1]), tf.constant([[2.0, 0.5], [0.9, 0.3]]))
    first = [_f(accuracy.result()), _f(loss_mean.result())]
    accuracy.reset_state()
    return first + [_f(accuracy.result()), accuracy.name, loss_mean.name]


def case_keras_fit_with_metric_objects(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.set_weights([np.array([[1.0], [-1.0]], np.float32), np.array([0.1], np.float32)])
    x = np.array([[1.0, 0.5], [0.2, 1.0], [2.0, -1.0], [-1.0, 0.5], [0.5, 0.5], [1.5, 1.0]], np.float32)
    y = np.array([[1], [0], [1], [0], [1], [0]], np.float32)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                  metrics=[tf.keras.metrics.Precision(name="p"), tf.keras.metrics.Recall(name="r"),
                           tf.keras.metrics.AUC(name="auc"), "mae", tf.keras.metrics.BinaryAccuracy(name="acc")])
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    logs = model.evaluate(x, y, batch_size=3, verbose=0, return_dict=True)
    return [{k: [_f(v) for v in vals] for k, vals in sorted(history.history.items())},
            {k: _f(v) for k, v in sorted(logs.items())}]


def case_keras_fit_with_auc_under_mirrored_strategy(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1, activation="sigmoid")])
        model.set_weights([np.array([[1.0], [-1.0]], np.float32), np.array([0.1], np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                      metrics=[tf.keras.metrics.AUC(name="auc"), tf.keras.metrics.Precision(name="precision")])
    x = np.array([[1.0, 0.5], [0.2, 1.0], [2.0, -1.0], [-1.0, 0.5], [0.5, 0.5], [1.5, 1.0], [0.0, 1.0],
                  [1.0, 0.0]], np.float32)
    y = np.array([[1], [0], [1], [0], [1], [0], [0], [1]], np.float32)
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    return {k: _f(v) for k, v in sorted(logs.items())}


# -- Keras callbacks (issue 17) ---------------------------------------------------------------------------
def _regression(tf, lr=0.05):
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5]], np.float32), np.array([0.0], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="mse", metrics=["mae"])
    x = np.linspace(-1, 1, 16).astype(np.float32).reshape(-1, 1)
    return model, x, 3.0 * x + 1.0


def _h(history):
    return {k: [round(float(v), 5) for v in vals] for k, vals in sorted(history.history.items())}


def case_keras_early_stopping_restores_the_best_weights(tf, env):
    model, x, y = _regression(tf, lr=1.4)  # diverging: the loss grows after the first epochs
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, restore_best_weights=True)
    history = model.fit(x, y, batch_size=16, epochs=20, verbose=0, shuffle=False, callbacks=[stop])
    return [_h(history), stop.stopped_epoch, stop.best_epoch, [round(float(w), 5) for w in
                                                                  np.ravel(model.get_weights()[0])]]


def case_keras_early_stopping_on_validation_with_min_delta_and_baseline(tf, env):
    model, x, y = _regression(tf)
    stop = tf.keras.callbacks.EarlyStopping(monitor="val_mae", min_delta=0.05, patience=1, baseline=2.5)
    history = model.fit(x, y, batch_size=4, epochs=10, verbose=0, shuffle=False, validation_split=0.25,
                        callbacks=[stop])
    return [len(history.history["loss"]), stop.stopped_epoch, round(float(stop.best), 5)]


def case_keras_reduce_lr_on_plateau(tf, env):
    model, x, y = _regression(tf, lr=1.4)
    reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_lr=0.1, cooldown=1)
    history = model.fit(x, y, batch_size=16, epochs=8, verbose=0, shuffle=False, callbacks=[reduce])
    return _h(history)


def case_keras_learning_rate_scheduler(tf, env):
    model, x, y = _regression(tf)
    scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False, callbacks=[scheduler])
    return _h(history)


def case_keras_learning_rate_scheduler_one_argument(tf, env):
    model, x, y = _regression(tf)
    scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))
    history = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False, callbacks=[scheduler])
    return _h(history)


def case_keras_terminate_on_nan(tf, env):
    model, x, y = _regression(tf, lr=1e6)
    history = model.fit(x, y * 1e20, batch_size=4, epochs=3, verbose=0, shuffle=False,
                        callbacks=[tf.keras.callbacks.TerminateOnNaN()])
    return [len(history.history["loss"]), bool(np.isfinite(history.history["loss"][-1]))]


def case_keras_early_stopping_auto_mode_needs_a_direction(tf, env):
    model, x, y = _regression(tf)
    stop = tf.keras.callbacks.EarlyStopping(monitor="unknown_metric")
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, callbacks=[stop])


# -- Keras layers, functional graphs and the small CNN of issue 17 ------------------------------------------
IMAGES = (np.arange(2 * 5 * 5 * 2, dtype=np.float32).reshape(2, 5, 5, 2) % 7 - 3.0) / 3.0


def _rl(x, digits=5):
    return np.round(np.asarray(x.numpy() if hasattr(x, "numpy") else x, np.float64), digits).tolist()


def _seeded(shape, scale=0.3, offset=0):
    return ((np.arange(int(np.prod(shape))) * 7 + offset) % 11 - 5).reshape(shape).astype(np.float32) * scale / 5


def case_keras_conv_and_pooling_layers(tf, env):
    L = tf.keras.layers
    conv = L.Conv2D(3, 3, padding="same", activation="relu")
    conv.build((None, 5, 5, 2))
    conv.set_weights([_seeded((3, 3, 2, 3)), np.array([0.1, -0.1, 0.0], np.float32)])
    valid = L.Conv2D(2, (2, 3), strides=2)
    valid.build((None, 5, 5, 2))
    valid.set_weights([_seeded((2, 3, 2, 2), offset=3), np.zeros(2, np.float32)])
    conv1 = L.Conv1D(2, 3, padding="valid")
    conv1.build((None, 5, 2))
    conv1.set_weights([_seeded((3, 2, 2), offset=1), np.array([0.5, 0.0], np.float32)])
    x = tf.constant(IMAGES)
    return [_rl(conv(x)), _rl(valid(x)), list(valid.compute_output_shape((None, 5, 5, 2))),
            _rl(conv1(tf.constant(IMAGES[:, 0]))), _rl(L.MaxPooling2D()(x)), _rl(L.AveragePooling2D(2, 1, "same")(x)),
            _rl(L.GlobalAveragePooling2D()(x)), _rl(L.GlobalMaxPooling2D()(x)), _rl(L.MaxPooling1D(2)(x[:, 0])),
            _rl(L.GlobalAveragePooling1D()(x[:, 0]))]


def case_keras_normalization_layers(tf, env):
    L = tf.keras.layers
    x = tf.constant(IMAGES[:, :2, :2, :])
    bn = L.BatchNormalization()
    bn.build((None, 2, 2, 2))
    bn.set_weights([np.array([1.5, 0.5], np.float32), np.array([0.1, -0.2], np.float32),
                    np.array([0.2, -0.1], np.float32), np.array([2.0, 0.5], np.float32)])
    inference = bn(x, training=False)
    training = bn(x, training=True)
    ln = L.LayerNormalization()
    flat = tf.reshape(x, [2, 8])
    norm = L.Normalization()
    norm.adapt(np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 20.0]], np.float32))
    return [_rl(inference), _rl(training), [_rl(w) for w in bn.get_weights()], _rl(ln(flat)),
            _rl(norm(np.array([[2.0, 25.0]], np.float32))), [_rl(w) for w in norm.get_weights()],
            [w.name.split("/")[-1].split(":")[0] for w in bn.weights],
            [len(bn.trainable_weights), len(bn.non_trainable_weights)]]


def case_keras_core_and_merging_layers(tf, env):
    L = tf.keras.layers
    x = tf.constant([[1.0, -2.0, 3.0, 0.5]])
    emb = L.Embedding(5, 2)
    emb.build((None, 3))
    emb.set_weights([np.arange(10, dtype=np.float32).reshape(5, 2) / 10])
    return [_rl(L.Dropout(0.5)(x, training=False)), _rl(L.Rescaling(1 / 255.0, offset=-1)(tf.constant([[255.0, 0.0]]))),
            _rl(L.Reshape((2, 2))(x)), list(L.Reshape((-1, 2)).compute_output_shape((None, 4))),
            _rl(emb(np.array([[0, 4, 2]]))), _rl(L.Concatenate()([x, x * 2])), _rl(L.Add()([x, x, x])),
            _rl(L.Multiply()([x, x])), _rl(L.Subtract()([x, x * 3])), _rl(L.Average()([x, x * 3])),
            _rl(L.Maximum()([x, -x])), _rl(L.Lambda(lambda t: t * 2 + 1)(x)),
            _rl(L.Flatten()(tf.constant(IMAGES)))[0][:4]]


def case_keras_dropout_in_training(tf, env):
    x = tf.ones([200, 10])
    out = tf.keras.layers.Dropout(0.25)(x, training=True).numpy()
    values = sorted(set(np.round(out.ravel(), 5).tolist()))
    zero_fraction = float((out == 0).mean())
    return [values, 0.15 < zero_fraction < 0.35]


def case_keras_functional_graph_with_merges_and_arithmetic(tf, env):
    a = tf.keras.Input(shape=(2,), name="a")
    b = tf.keras.Input(shape=(2,), name="b")
    dense = tf.keras.layers.Dense(2, name="shared")
    merged = tf.keras.layers.Concatenate(name="cat")([dense(a), dense(b)])
    total = tf.keras.layers.Dense(1, name="out")(merged * 2.0 + 1.0)
    model = tf.keras.Model(inputs=[a, b], outputs=total)
    model.set_weights([np.array([[1.0, 0.5], [-0.5, 1.0]], np.float32), np.array([0.1, 0.0], np.float32),
                       np.array([[0.2], [0.4], [-0.3], [0.1]], np.float32), np.array([0.05], np.float32)])
    out = model([np.array([[1.0, 2.0]], np.float32), np.array([[0.5, -1.0]], np.float32)])
    return [_rl(out), [type(layer).__name__ for layer in model.layers], model.get_layer("cat").name,
            model.get_layer(index=0).name, len(model.weights)]


def _cnn(tf):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(5, 5, 2)), L.Conv2D(3, 3, activation="relu"),
                                 L.MaxPooling2D(), L.BatchNormalization(), L.Flatten(), L.Dense(2)])
    model.set_weights([_seeded((3, 3, 2, 3)), np.array([0.1, -0.1, 0.05], np.float32),
                       np.ones(3, np.float32), np.zeros(3, np.float32), np.zeros(3, np.float32),
                       np.ones(3, np.float32), _seeded((3, 2), offset=2), np.zeros(2, np.float32)])
    return model


def _cnn_data():
    x = np.concatenate([IMAGES, IMAGES[::-1] * 0.5, -IMAGES, IMAGES * 0.25]).astype(np.float32)
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    return x, y


def case_keras_small_cnn_two_epochs(tf, env):
    model = _cnn(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True), metrics=["accuracy"])
    x, y = _cnn_data()
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [{k: [round(v, 5) for v in vals] for k, vals in sorted(history.history.items())},
            _rl(model.layers[2].moving_mean), _rl(model.predict(x[:2], verbose=0))]


def case_keras_small_cnn_two_epochs_mirrored(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = _cnn(tf)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True), metrics=["accuracy"])
    x, y = _cnn_data()
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [{k: [round(v, 5) for v in vals] for k, vals in sorted(history.history.items())},
            _rl(model.layers[2].moving_mean)]


# -- Keras training API: on_batch, initial_epoch, steps_per_epoch, clone_model, autocast (issue 17) -------
def _api_model(tf):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(3, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.5]], np.float32), np.zeros(3, np.float32),
                       np.array([[0.4], [-0.6], [0.2]], np.float32), np.array([0.1], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return model


API_X = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]])  # float64: Keras casts to float32
API_Y = np.array([[1.0], [0.0], [-1.0], [2.0]])


def case_keras_train_and_test_on_batch(tf, env):
    model = _api_model(tf)
    first = model.train_on_batch(API_X, API_Y)
    second = model.train_on_batch(API_X, API_Y, return_dict=True)
    tested = model.test_on_batch(API_X, API_Y)
    predicted = model.predict_on_batch(API_X)
    return [[round(float(v), 5) for v in first], {k: round(float(v), 5) for k, v in second.items()},
            [round(float(v), 5) for v in tested], np.round(predicted, 5).tolist(), str(predicted.dtype)]


def case_keras_fit_initial_epoch_and_steps_per_epoch(tf, env):
    model = _api_model(tf)
    history = model.fit(API_X, API_Y, batch_size=2, epochs=3, initial_epoch=1, shuffle=False, verbose=0)
    ds = tf.data.Dataset.from_tensor_slices((API_X.astype(np.float32), API_Y.astype(np.float32))).batch(2).repeat()
    second = model.fit(ds, epochs=2, steps_per_epoch=3, verbose=0)
    return [history.epoch, [round(v, 5) for v in history.history["loss"]],
            [round(v, 5) for v in second.history["loss"]]]


def case_keras_model_shapes_counts_and_clone(tf, env):
    model = _api_model(tf)
    clone = tf.keras.models.clone_model(model)
    a = tf.keras.Input(shape=(3,))
    functional = tf.keras.Model(a, tf.keras.layers.Dense(2)(tf.keras.layers.Dense(4)(a)))
    functional_clone = tf.keras.models.clone_model(functional)
    return [list(model.output_shape), model.count_params(), clone.count_params(),
            [type(layer).__name__ for layer in clone.layers], clone.layers[0].units,
            any(np.array_equal(w1, w2) for w1, w2 in zip(model.get_weights(), clone.get_weights()) if w1.ndim == 2),
            list(functional.output_shape), functional_clone.count_params(), len(functional_clone.layers)]


def case_keras_float64_inputs_are_cast_to_float32(tf, env):
    model = _api_model(tf)
    out = model(API_X)
    return [out.dtype.name, np.round(out.numpy(), 5).tolist()]


# -- Keras LSTM and GRU (issue 17) ------------------------------------------------------------------------
SEQ = (np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3) % 5 - 2.0) / 2.0


def _w(shape, offset=0, scale=0.4):
    return ((np.arange(int(np.prod(shape))) * 5 + offset) % 13 - 6).reshape(shape).astype(np.float32) * scale / 6


def _rr(x):
    return np.round(np.asarray(x.numpy() if hasattr(x, "numpy") else x, np.float64), 5).tolist()


def case_keras_lstm_outputs_and_states(tf, env):
    lstm = tf.keras.layers.LSTM(3, return_sequences=True, return_state=True)
    lstm.build((None, 4, 3))
    lstm.set_weights([_w((3, 12)), _w((3, 12), 1), _w((12,), 2)])
    sequence, h, c = lstm(tf.constant(SEQ))
    last = tf.keras.layers.LSTM(3)
    last.build((None, 4, 3))
    last.set_weights([_w((3, 12)), _w((3, 12), 1), _w((12,), 2)])
    fresh = tf.keras.layers.LSTM(2)
    fresh.build((None, 4, 3))
    return [_rr(sequence), _rr(h), _rr(c), _rr(last(tf.constant(SEQ))), _rr(fresh.get_weights()[2]),
            [list(w.shape) for w in lstm.get_weights()]]


def case_keras_gru_outputs(tf, env):
    gru = tf.keras.layers.GRU(3, return_sequences=True)
    gru.build((None, 4, 3))
    gru.set_weights([_w((3, 9)), _w((3, 9), 1), _w((2, 9), 2)])
    old = tf.keras.layers.GRU(3, reset_after=False)
    old.build((None, 4, 3))
    old.set_weights([_w((3, 9)), _w((3, 9), 1), _w((9,), 2)])
    return [_rr(gru(tf.constant(SEQ))), _rr(old(tf.constant(SEQ))), [list(w.shape) for w in gru.get_weights()]]


def case_keras_lstm_model_trains(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(4, 3)), tf.keras.layers.LSTM(3), tf.keras.layers.Dense(1)])
    model.set_weights([_w((3, 12)), _w((3, 12), 1), _w((12,), 2), _w((3, 1), 3), np.zeros(1, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    x = np.concatenate([SEQ, -SEQ, SEQ * 0.5])
    y = np.array([[1.0], [-1.0], [0.5], [0.0], [0.25], [-0.5]], np.float32)
    history = model.fit(x, y, batch_size=3, epochs=3, shuffle=False, verbose=0)
    return [round(v, 5) for v in history.history["loss"]]


@isolated
def case_keras_small_cnn_synchronized_batch_norm_mirrored(tf, env):
    L = tf.keras.layers
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(5, 5, 2)), L.Conv2D(3, 3, activation="relu"),
                                     L.MaxPooling2D(), L.BatchNormalization(synchronized=True), L.Flatten(),
                                     L.Dense(2)])
        model.set_weights([_seeded((3, 3, 2, 3)), np.array([0.1, -0.1, 0.05], np.float32),
                           np.ones(3, np.float32), np.zeros(3, np.float32), np.zeros(3, np.float32),
                           np.ones(3, np.float32), _seeded((3, 2), offset=2), np.zeros(2, np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True), metrics=["accuracy"])
    x, y = _cnn_data()
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [{k: [round(v, 5) for v in vals] for k, vals in sorted(history.history.items())},
            _rl(model.layers[2].moving_mean), _rl(model.layers[2].moving_variance)]


# -- Keras models of several inputs (issue 17) --------------------------------------------------------------
def _two_input_model(tf):
    a = tf.keras.Input(shape=(2,), name="a")
    b = tf.keras.Input(shape=(3,), name="b")
    out = tf.keras.layers.Dense(1, name="out")(tf.keras.layers.Concatenate(name="cat")([a, b]))
    model = tf.keras.Model({"a": a, "b": b}, out)
    model.set_weights([np.array([[0.1], [0.2], [-0.3], [0.4], [0.5]], np.float32), np.zeros(1, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return model


def case_keras_fit_with_dict_inputs(tf, env):
    model = _two_input_model(tf)
    xa = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)
    xb = np.linspace(0, 2, 12, dtype=np.float32).reshape(4, 3)
    y = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)
    history = model.fit({"a": xa, "b": xb}, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    return [[round(v, 5) for v in history.history["loss"]],
            np.round(model.predict({"a": xa, "b": xb}, verbose=0), 5).ravel().tolist()]


@isolated
def case_keras_fit_with_list_inputs_mirrored(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        a = tf.keras.Input(shape=(2,))
        b = tf.keras.Input(shape=(3,))
        out = tf.keras.layers.Dense(1)(tf.keras.layers.Concatenate()([a, b]))
        model = tf.keras.Model([a, b], out)
        model.set_weights([np.array([[0.1], [0.2], [-0.3], [0.4], [0.5]], np.float32), np.zeros(1, np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    xa = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)
    xb = np.linspace(0, 2, 12, dtype=np.float32).reshape(4, 3)
    y = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)
    history = model.fit([xa, xb], y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [round(v, 5) for v in history.history["loss"]]


# -- loops read the variables they (or branches and loops inside them) write, each iteration ---------------
def case_nested_loops_writing_a_variable_the_outer_loop_reads(tf, env):
    v = tf.Variable(1.0)

    @tf.function
    def f():
        def outer(i, total):
            def inner(j):
                v.assign_add(1.0)
                return [j + 1]
            tf.while_loop(lambda j: j < 2, inner, [0])
            return i + 1, total + v.read_value()
        return tf.while_loop(lambda i, t: i < 3, outer, [0, tf.constant(0.0)])[1]

    return [float(f()), float(v)]


def case_cond_inside_a_loop_writing_a_variable(tf, env):
    v = tf.Variable(0.0)

    @tf.function
    def f():
        def body(i, total):
            tf.cond(i % 2 == 0, lambda: v.assign_add(1.0), lambda: v.assign_add(10.0))
            return i + 1, total + v * 1.0
        return tf.while_loop(lambda i, t: i < 4, body, [0, tf.constant(0.0)])[1]

    return [float(f()), float(v)]


def case_autograph_loop_reading_a_variable_it_writes_in_a_branch(tf, env):
    v = tf.Variable(1.0)

    @tf.function
    def f(n):
        total = tf.constant(0.0)
        for i in tf.range(n):
            if i % 2 == 0:
                v.assign(v * 2.0)
            total += v
        return total

    return [float(f(tf.constant(5))), float(v)]


@isolated
def case_keras_metric_updated_in_each_replica(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
        mean = tf.keras.metrics.Mean()

    @tf.function
    def step(y, logits):
        accuracy.update_state(y, logits)
        mean.update_state(tf.reduce_sum(logits, axis=1))

    ds = tf.data.Dataset.from_tensor_slices((np.array([0, 1, 1, 0]), np.array(
        [[2.0, 0.5], [0.1, 0.3], [0.9, 0.3], [0.2, 0.1]], np.float32))).batch(4)
    for y, logits in strategy.experimental_distribute_dataset(ds):
        strategy.run(step, args=(y, logits))
    return [round(float(accuracy.result()), 5), round(float(mean.result()), 5)]


@isolated
def case_distribute_datasets_from_function_shards_by_input_context(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    seen = []

    def dataset_fn(context):
        seen.append([context.num_input_pipelines, context.input_pipeline_id, context.num_replicas_in_sync,
                     context.get_per_replica_batch_size(4)])
        ds = tf.data.Dataset.range(8).shard(context.num_input_pipelines, context.input_pipeline_id)
        return ds.batch(context.get_per_replica_batch_size(4))

    batches = []
    for batch in strategy.distribute_datasets_from_function(dataset_fn):
        batches.append([part.numpy().tolist() for part in strategy.experimental_local_results(batch)])
    return [seen, batches]


def case_keras_summary_mentions_every_layer_and_the_parameter_count(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(3, name="first"),
                                 tf.keras.layers.Dense(2, name="second")], name="tiny")
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    return ["tiny" in text, "first" in text and "second" in text, "23" in text, model.count_params()]


# -- cluster description: ClusterSpec, TF_CONFIG and cluster resolvers (issue 18) --------------------------
def case_cluster_spec_basics(tf, env):
    spec = tf.train.ClusterSpec({"worker": ["localhost:2222", "localhost:2223"], "ps": ["localhost:2224"]})
    return [sorted(spec.jobs), spec.num_tasks("worker"), spec.task_indices("worker"), spec.task_address("ps", 0),
            spec.job_tasks("worker"), spec.as_dict(), bool(spec), bool(tf.train.ClusterSpec({}))]


def case_cluster_spec_sparse_tasks(tf, env):
    spec = tf.train.ClusterSpec({"worker": {1: "host1:2222", 3: "host3:2222"}})
    return [spec.task_indices("worker"), spec.num_tasks("worker"), spec.job_tasks("worker"),
            spec.as_dict()["worker"] == {1: "host1:2222", 3: "host3:2222"}]


def case_cluster_spec_errors(tf, env):
    out = []
    spec = tf.train.ClusterSpec({"worker": ["a:1"]})
    for call in (lambda: spec.num_tasks("ps"), lambda: spec.task_address("worker", 5),
                 lambda: tf.train.ClusterSpec({"worker": "a:1"}), lambda: tf.train.ClusterSpec(["a:1"]),
                 lambda: tf.train.ClusterSpec({"worker": {"x": "a:1"}})):
        try:
            call()
            out.append("ok")
        except Exception as error:  # noqa: BLE001
            out.append(type(error).__name__)
    return out


def case_cluster_spec_equality_and_copy(tf, env):
    a = tf.train.ClusterSpec({"worker": ["a:1", "b:2"]})
    b = tf.train.ClusterSpec(a)
    c = tf.train.ClusterSpec({"worker": ["a:1"]})
    return [a == b, a == c, a != c, b.as_dict()]


def case_tf_config_cluster_resolver(tf, env):
    config = {"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"]},
              "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}
    saved = os.environ.get("TF_CONFIG")
    os.environ["TF_CONFIG"] = json.dumps(config)
    try:
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return [resolver.cluster_spec().as_dict(), resolver.task_type, resolver.task_id, resolver.rpc_layer,
                resolver.master(), resolver.master("chief", 0), resolver.environment]
    finally:
        if saved is None:
            del os.environ["TF_CONFIG"]
        else:
            os.environ["TF_CONFIG"] = saved


def case_tf_config_resolver_without_tf_config(tf, env):
    saved = os.environ.pop("TF_CONFIG", None)
    try:
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return [resolver.cluster_spec().as_dict(), resolver.task_type, resolver.task_id, resolver.master()]
    finally:
        if saved is not None:
            os.environ["TF_CONFIG"] = saved


def case_simple_cluster_resolver(tf, env):
    spec = tf.train.ClusterSpec({"worker": ["a:1", "b:2"]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, task_type="worker", task_id=1,
                                                                      rpc_layer="grpc")
    return [resolver.cluster_spec().as_dict(), resolver.task_type, resolver.task_id, resolver.master(),
            resolver.master("worker", 0)]


# -- gradients through variable slices (GRU biases), TensorArrays in branches ------------------------------
def case_tensor_array_written_in_a_branch_inside_a_loop(tf, env):
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            if i % 2 == 0:
                ta = ta.write(i, tf.cast(i, tf.float32) * 10.0)
            else:
                ta = ta.write(i, -1.0)
        return ta.stack()
    return f(tf.constant(5)).numpy().tolist()


@isolated
def case_keras_gru_fit_mirrored_two_epochs(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    seq = (np.arange(4 * 3 * 2, dtype=np.float32).reshape(4, 3, 2) % 5 - 2.0) / 2.0
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(3, 2)), tf.keras.layers.GRU(2),
                                     tf.keras.layers.Dense(1)])
        model.set_weights([w * 0 + ((np.arange(w.size).reshape(w.shape) % 7 - 3) / 10.0).astype(np.float32)
                           for w in model.get_weights()])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(seq, np.array([[1.0], [0.0], [-1.0], [0.5]], np.float32), batch_size=4, epochs=2,
                        shuffle=False, verbose=0)
    return [round(v, 5) for v in history.history["loss"]]


def _recurrent_fit(tf, mirrored, env, layer="GRU"):
    seq = (np.arange(4 * 3 * 2, dtype=np.float32).reshape(4, 3, 2) % 5 - 2.0) / 2.0
    import contextlib
    scope = tf.distribute.MirroredStrategy(env.devices).scope() if mirrored else contextlib.nullcontext()
    with scope:
        model = tf.keras.Sequential([tf.keras.Input(shape=(3, 2)), getattr(tf.keras.layers, layer)(2),
                                     tf.keras.layers.Dense(1)])
        model.set_weights([((np.arange(w.size).reshape(w.shape) % 7 - 3) / 10.0).astype(np.float32)
                           for w in model.get_weights()])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(seq, np.array([[1.0], [0.0], [-1.0], [0.5]], np.float32), batch_size=4, epochs=3,
                        shuffle=False, verbose=0)
    return [round(v, 5) for v in history.history["loss"]]


def case_keras_gru_fit_single(tf, env):
    return _recurrent_fit(tf, False, env)


@isolated
def case_keras_gru_fit_mirrored(tf, env):
    return _recurrent_fit(tf, True, env)


def case_keras_lstm_fit_single(tf, env):
    return _recurrent_fit(tf, False, env, "LSTM")


@isolated
def case_keras_lstm_fit_mirrored_three_epochs(tf, env):
    return _recurrent_fit(tf, True, env, "LSTM")


def case_gradient_through_a_variable_slice(tf, env):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[0] * 3.0) + tf.reduce_sum(v[:, 1] ** 2)
    eager = tape.gradient(y, v).numpy().tolist()

    @tf.function
    def traced():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v[1] * 2.0)
        return tape.gradient(y, v)

    return [eager, traced().numpy().tolist()]


# -- embeddings with repeated ids, strided SAME convolutions, activation gradients in graphs -------------
def _pattern_weights(shape, offset=0):
    return ((np.arange(int(np.prod(shape))) * 7 + offset) % 11 - 5).reshape(shape).astype(np.float32) / 10


def case_keras_embedding_model_trains_with_adam(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,), dtype="int32"), tf.keras.layers.Embedding(6, 3),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    model.set_weights([_pattern_weights((6, 3)), _pattern_weights((12, 1), 3), np.zeros(1, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    x = np.array([[0, 1, 2, 3], [5, 5, 1, 0], [2, 2, 2, 2], [4, 3, 1, 0]], np.int32)
    history = model.fit(x, np.array([[1.0], [-1.0], [0.5], [0.0]], np.float32), batch_size=2, epochs=3,
                        shuffle=False, verbose=0)
    return [[round(v, 5) for v in history.history["loss"]], np.round(model.get_weights()[0], 4).tolist()]


def case_keras_strided_same_conv_and_average_pool_train_with_rmsprop(tf, env):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(7, 7, 2)), L.Conv2D(4, 3, strides=2, padding="same",
                                                                          activation="elu"),
                                 L.AveragePooling2D(3, strides=1, padding="same"), L.GlobalMaxPooling2D(),
                                 L.Dense(2, activation="softmax")])
    model.set_weights([_pattern_weights((3, 3, 2, 4)), np.zeros(4, np.float32), _pattern_weights((4, 2), 5),
                       np.zeros(2, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.RMSprop(0.01), loss="categorical_crossentropy",
                  metrics=["accuracy", tf.keras.metrics.AUC(name="auc")])
    x = _pattern_weights((6, 7, 7, 2), 1) * 3
    y = np.eye(2, dtype=np.float32)[[0, 1, 1, 0, 1, 0]]
    history = model.fit(x, y, batch_size=3, epochs=3, shuffle=False, verbose=0)
    return {k: [round(v, 5) for v in vals] for k, vals in sorted(history.history.items())}


def case_keras_layer_default_names(tf, env):
    L = tf.keras.layers
    pool = L.MaxPooling2D().name
    return [L.Conv2D(1, 1).name.split("_")[0], pool.rsplit("_", 1)[0] if pool[-1].isdigit() else pool,
            L.LSTM(1).name.split("_")[0], L.GlobalAveragePooling1D().name.startswith("global_average_pooling1d"),
            L.BatchNormalization().name.startswith("batch_normalization")]


def case_activation_gradients_inside_a_function(tf, env):
    x = tf.constant([-1.5, -0.2, 0.3, 2.0, 7.0])

    @tf.function
    def grads(x):
        out = []
        for fn in (tf.nn.elu, tf.nn.selu, tf.nn.relu6, tf.nn.leaky_relu, tf.nn.softplus, tf.nn.gelu):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(fn(x))
            out.append(tape.gradient(y, x))
        return out

    return [[round(float(v), 5) for v in g.numpy()] for g in grads(x)]


def case_optimizers_add_squares_of_repeated_embedding_rows(tf, env):
    out = []
    for make in (lambda: tf.keras.optimizers.Adam(0.1), lambda: tf.keras.optimizers.RMSprop(0.1),
                 lambda: tf.keras.optimizers.Adagrad(0.1), lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9)):
        table = tf.Variable(np.zeros((3, 1), np.float32))
        optimizer = make()
        for _ in range(2):
            with tf.GradientTape() as tape:
                rows = tf.gather(table, [0, 0, 2])
                loss = tf.reduce_sum(rows * tf.constant([[1.0], [2.0], [-1.0]]))
            optimizer.apply_gradients([(tape.gradient(loss, table), table)])
        out.append([round(float(v), 5) for v in table.numpy().ravel()])
    return out


def _shared_weights(shape, offset=0):
    return ((np.arange(int(np.prod(shape))) * 5 + offset) % 9 - 4).reshape(shape).astype(np.float32) / 10


def case_keras_shared_layer_functional_training(tf, env):
    a = tf.keras.Input(shape=(3,))
    b = tf.keras.Input(shape=(3,))
    shared = tf.keras.layers.Dense(2, activation="tanh")
    merged = tf.keras.layers.Add()([shared(a), shared(b)])
    out = tf.keras.layers.Dense(1)(merged)
    model = tf.keras.Model([a, b], out)
    model.set_weights([_shared_weights((3, 2)), np.zeros(2, np.float32), _shared_weights((2, 1), 1),
                       np.zeros(1, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.2), loss="mse")
    xa, xb = _shared_weights((6, 3), 2) * 3, _shared_weights((6, 3), 3) * 3
    y = _shared_weights((6, 1), 4) * 5
    history = model.fit([xa, xb], y, batch_size=3, epochs=3, shuffle=False, verbose=0)
    return [[round(v, 5) for v in history.history["loss"]], len(model.layers), len(model.weights)]


def case_keras_softmax_sparse_crossentropy_with_label_smoothing_cce_and_validation(tf, env):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), L.Dense(5, activation="relu"), L.BatchNormalization(),
                                 L.Dense(3, activation="softmax")])
    model.set_weights([_shared_weights((4, 5)), np.zeros(5, np.float32), np.ones(5, np.float32),
                       np.zeros(5, np.float32), np.zeros(5, np.float32), np.ones(5, np.float32),
                       _shared_weights((5, 3), 2), np.zeros(3, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.CategoricalCrossentropy(label_smoothing=0.1),
                  metrics=["accuracy", tf.keras.metrics.TopKCategoricalAccuracy(k=2, name="top2")])
    x = _shared_weights((10, 4), 5) * 4
    y = np.eye(3, dtype=np.float32)[[0, 1, 2, 1, 0, 2, 2, 1, 0, 1]]
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0, validation_split=0.2,
                        sample_weight=np.linspace(0.5, 1.5, 10).astype(np.float32))
    return {k: [round(v, 4) for v in vals] for k, vals in sorted(history.history.items())}


@isolated
def case_keras_fit_on_a_mapped_prefetched_dataset_mirrored(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(-1, 1)
    ds = (tf.data.Dataset.from_tensor_slices((x, 2 * x - 1)).map(lambda a, b: (a * 2.0, b),
                                                                   num_parallel_calls=tf.data.AUTOTUNE)
          .batch(8).prefetch(tf.data.AUTOTUNE))
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
        model.set_weights([np.array([[0.3]], np.float32), np.array([0.1], np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(ds, epochs=3, verbose=0)
    return {k: [round(v, 5) for v in vals] for k, vals in sorted(history.history.items())}


def case_keras_steps_per_epoch_with_arrays(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.3]], np.float32), np.array([0.1], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(-1, 1)
    history = model.fit(x, 2 * x, batch_size=4, epochs=4, steps_per_epoch=2, shuffle=False, verbose=0)
    return [round(v, 5) for v in history.history["loss"]]


def case_keras_adam_global_clipnorm_and_schedule_in_fit(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(3, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.5]], np.float32), np.zeros(3, np.float32),
                       np.array([[0.4], [-0.6], [0.2]], np.float32), np.array([0.1], np.float32)])
    schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([2, 4], [0.1, 0.05, 0.01])
    model.compile(optimizer=tf.keras.optimizers.Adam(schedule, global_clipnorm=0.5), loss="mae")
    x = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
    y = np.array([[3.0], [0.0], [-2.0], [4.0]], np.float32)
    history = model.fit(x, y, batch_size=2, epochs=4, shuffle=False, verbose=0)
    return [round(v, 5) for v in history.history["loss"]]




def case_tensor_array_with_break_in_autograph(tf, env):
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        n = 0
        for v in x:
            if v < 0:
                break
            ta = ta.write(n, v * 2.0)
            n += 1
        return ta.stack()
    return f(tf.constant([1.0, 2.0, -1.0, 4.0])).numpy().tolist()


def case_dataset_loop_with_tensor_array_in_function(tf, env):
    @tf.function
    def collect(ds):
        ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for x in ds:
            ta = ta.write(i, x * x)
            i += 1
        return ta.stack()
    return collect(tf.data.Dataset.range(5).filter(lambda x: x % 2 == 0)).numpy().tolist()


# -- Keras regularizers -----------------------------------------------------------------------------------
def case_keras_weight_regularizers_in_fit_and_losses(tf, env):
    L = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
                                 L.Dense(3, activation="relu", kernel_regularizer=tf.keras.regularizers.L2(0.1),
                                         bias_regularizer="l1"),
                                 L.Dense(1, kernel_regularizer=tf.keras.regularizers.L1L2(l1=0.01, l2=0.02))])
    model.set_weights([np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.5]], np.float32),
                       np.array([0.1, -0.1, 0.2], np.float32),
                       np.array([[0.4], [-0.6], [0.2]], np.float32), np.array([0.1], np.float32)])
    before = [round(float(v), 6) for v in model.losses]
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    x = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
    y = np.array([[1.0], [0.0], [-1.0], [2.0]], np.float32)
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    evaluated = model.evaluate(x, y, verbose=0)
    return [before, [round(v, 5) for v in history.history["loss"]], round(float(evaluated), 5),
            [round(float(v), 5) for v in model.losses], float(tf.keras.regularizers.L2(0.5)(tf.constant([1.0, 2.0])))]


def case_keras_regularizers_by_name(tf, env):
    R = tf.keras.regularizers
    w = tf.constant([[1.0, -2.0], [0.5, 0.0]])
    return [round(float(R.get("l1")(w)), 5), round(float(R.get("l2")(w)), 5), round(float(R.L1L2(l1=0.1, l2=0.2)(w)), 5),
            round(float(R.l2(0.3)(w)), 5), R.L1(0.2).get_config()]


@isolated
def case_keras_weight_regularizers_under_mirrored_strategy(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
                                     tf.keras.layers.Dense(1, kernel_regularizer=tf.keras.regularizers.L2(0.1))])
        model.set_weights([np.array([[0.5], [-0.3]], np.float32), np.array([0.1], np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    x = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
    y = np.array([[1.0], [0.0], [-1.0], [2.0]], np.float32)
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return [[round(v, 5) for v in history.history["loss"]], np.round(model.get_weights()[0], 5).ravel().tolist()]


@isolated
def case_keras_predict_and_evaluate_uneven_batches_mirrored(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
        model.set_weights([np.array([[0.5], [-0.3]], np.float32), np.array([0.1], np.float32)])
        model.compile(optimizer="sgd", loss="mae", metrics=["mse"])
    x = np.linspace(-1, 1, 14, dtype=np.float32).reshape(7, 2)
    y = np.linspace(0, 1, 7, dtype=np.float32).reshape(7, 1)
    predicted = model.predict(x, batch_size=4, verbose=0)
    logs = model.evaluate(x, y, batch_size=4, verbose=0, sample_weight=np.arange(1, 8, dtype=np.float32),
                          return_dict=True)
    return [np.round(predicted, 5).ravel().tolist(), {k: round(v, 5) for k, v in sorted(logs.items())}]


# -- arithmetic, dtype and broadcasting semantics, each eagerly and inside a function -----------------------
def _typed_case(expression, traced=False, session=False):
    """The dtype and value `expression(tf)` computes (floats rounded), or the error class it raises;
    with `traced`, computed inside a tf.function; with `session`, built in a TF1 graph and run by a Session."""
    def case(tf, env):
        if session:
            graph = tf.compat.v1.Graph()
            with graph.as_default():
                result = expression(tf)
                value = np.asarray(tf.compat.v1.Session(graph=graph).run(result))
        else:
            result = tf.function(lambda: expression(tf))() if traced else expression(tf)
            value = np.asarray(result.numpy())
        return [result.dtype.name, _rounded(value) if value.dtype.kind == "f" else value.tolist()]
    return case


def _in_every_mode(prefix, expressions):
    """Cases `<prefix><name>`, `..._traced` and `..._session` for each expression."""
    for name, expression in expressions.items():
        globals()[f"{prefix}{name}"] = _typed_case(expression)
        globals()[f"{prefix}{name}_traced"] = _typed_case(expression, traced=True)
        globals()[f"{prefix}{name}_session"] = _typed_case(expression, session=True)


_NEG = [-7, -3, 0, 3, 7]
_NANS = [float("nan"), 1.0, -2.0]
_in_every_mode("case_semantics_", {
    "int_truediv_is_float64": lambda tf: tf.constant([7, -7]) / tf.constant([2, 2]),
    "int_divide_is_float64": lambda tf: tf.math.divide(tf.constant([1, 3]), tf.constant([4, 4])),
    "int64_truediv": lambda tf: tf.truediv(tf.constant([7], tf.int64), tf.constant([2], tf.int64)),
    "int_floordiv_negative": lambda tf: tf.constant(_NEG) // tf.constant([2, 2, 2, -2, -2]),
    "int_floormod_negative": lambda tf: tf.constant(_NEG) % tf.constant([2, 2, 2, -2, -2]),
    "float_floormod_negative": lambda tf: tf.constant([-7.5, 7.5, -0.5]) % tf.constant([2.0, -2.0, 2.0]),
    "float_floordiv_negative": lambda tf: tf.constant([-7.5, 7.5, -0.5]) // tf.constant([2.0, -2.0, 2.0]),
    "truncatediv": lambda tf: tf.truncatediv(tf.constant(_NEG), tf.constant([2, 2, 2, -2, -2])),
    "truncatemod": lambda tf: tf.truncatemod(tf.constant(_NEG), tf.constant([2, 2, 2, -2, -2])),
    "float_division_by_zero": lambda tf: tf.constant([1.0, -1.0, 0.0]) / 0.0,
    "float_floordiv_by_zero": lambda tf: tf.math.floordiv(tf.constant([1.0, -1.0]), 0.0),
    "divide_no_nan": lambda tf: tf.math.divide_no_nan(tf.constant([1.0, 0.0, 3.0]), tf.constant([0.0, 0.0, 2.0])),
    "xdivy_xlogy": lambda tf: tf.stack([tf.math.xdivy(tf.constant([0.0, 2.0]), tf.constant([0.0, 4.0])),
                                        tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 4.0]))]),
    "reduce_mean_of_ints_truncates": lambda tf: tf.reduce_mean(tf.constant([1, 2, 2])),
    "reduce_mean_of_negative_ints": lambda tf: tf.reduce_mean(tf.constant([-1, -2]), axis=0),
    "reduce_sum_of_bools": lambda tf: tf.reduce_sum(tf.constant([True, True])),
    "reduce_prod_of_empty": lambda tf: tf.reduce_prod(tf.zeros([0])),
    "reduce_sum_keepdims_two_axes": lambda tf: tf.reduce_sum(tf.ones([2, 3, 4]), axis=[0, 2], keepdims=True),
    "reduce_sum_negative_axis": lambda tf: tf.reduce_sum(tf.reshape(tf.range(6.0), [2, 3]), axis=-1),
    "reduce_max_with_nan": lambda tf: tf.reduce_max(tf.constant(_NANS)),
    "reduce_min_with_nan": lambda tf: tf.reduce_min(tf.constant(_NANS)),
    "maximum_with_nan": lambda tf: tf.maximum(tf.constant(_NANS), 0.0),
    "minimum_with_nan": lambda tf: tf.minimum(tf.constant(_NANS), 0.0),
    "argmax_with_nan": lambda tf: tf.argmax(tf.constant([1.0, float("nan"), 3.0])),
    "argmax_ties_first": lambda tf: tf.argmax(tf.constant([[1, 3, 3], [2, 2, 1]]), axis=1),
    "argmin_ties_first_int32": lambda tf: tf.argmin(tf.constant([2, 1, 1]), output_type=tf.int32),
    "relu_of_nan": lambda tf: tf.nn.relu(tf.constant(_NANS)),
    "clip_by_value_int": lambda tf: tf.clip_by_value(tf.constant([-5, 0, 5]), -2, 3),
    "clip_by_value_nan": lambda tf: tf.clip_by_value(tf.constant(_NANS), -1.0, 0.5),
    "round_and_rint": lambda tf: tf.stack([tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5])),
                                           tf.math.rint(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5]))]),
    "cast_float_to_int_truncates": lambda tf: tf.cast(tf.constant([3.7, -3.7, 0.5, -0.5]), tf.int32),
    "cast_int_to_bool": lambda tf: tf.cast(tf.constant([0, 2, -1]), tf.bool),
    "cast_bool_to_float": lambda tf: tf.cast(tf.constant([True, False]), tf.float32),
    "cast_int64_to_int32_wraps": lambda tf: tf.cast(tf.constant([2**31 + 5], tf.int64), tf.int32),
    "cast_float_to_uint8": lambda tf: tf.cast(tf.constant([1.9, 255.0, 254.6]), tf.uint8),
    "saturate_cast": lambda tf: tf.dtypes.saturate_cast(tf.constant([-5.0, 300.0, 7.9]), tf.uint8),
    "uint8_add_wraps": lambda tf: tf.constant([250], tf.uint8) + tf.constant([10], tf.uint8),
    "int32_multiply_wraps": lambda tf: tf.constant([2**30]) * 4,
    "int_pow": lambda tf: tf.pow(tf.constant([2, 3, -2]), tf.constant([3, 0, 3])),
    "int_pow_negative_exponent": lambda tf: tf.pow(tf.constant([2]), tf.constant([-1])),
    "float_pow_negative_base": lambda tf: tf.pow(tf.constant([-8.0, -2.0]), tf.constant([1.0 / 3.0, 2.0])),
    "int_tensor_plus_python_float": lambda tf: tf.constant([1, 2]) + 1.5,
    "int_tensor_times_python_int": lambda tf: tf.constant([1, 2]) * 3,
    "float_tensor_plus_python_int": lambda tf: tf.constant([1.5]) + 2,
    "python_float_minus_tensor": lambda tf: 1.0 - tf.constant([0.25, 2.0]),
    "int32_plus_int64": lambda tf: tf.constant([1]) + tf.constant([1], tf.int64),
    "float32_plus_float64": lambda tf: tf.constant([1.0]) + tf.constant([1.0], tf.float64),
    "float64_tensor_from_numpy_default": lambda tf: tf.constant(np.array([1.5, 2.0])) * 2,
    "constant_from_mixed_python_list": lambda tf: tf.constant([1, 2.5]),
    "constant_large_python_int_is_int64": lambda tf: tf.constant([2**31, 1]),
    "broadcast_column_and_row": lambda tf: tf.constant([[1.0], [2.0]]) + tf.constant([10.0, 20.0, 30.0]),
    "broadcast_incompatible": lambda tf: tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0]),
    "sign_and_abs_int": lambda tf: tf.stack([tf.sign(tf.constant([-3, 0, 4])), tf.abs(tf.constant([-3, 0, 4]))]),
    "abs_of_int32_min_wraps": lambda tf: tf.abs(tf.constant([-2**31])),
    "negative_of_uint8": lambda tf: tf.negative(tf.constant([1], tf.uint8)),
    "sqrt_and_log_edges": lambda tf: tf.stack([tf.sqrt(tf.constant([-1.0, 0.0, 4.0])),
                                               tf.math.log(tf.constant([-1.0, 0.0, 1.0]))]),
    "rsqrt_and_reciprocal": lambda tf: tf.stack([tf.math.rsqrt(tf.constant([0.0, 4.0])),
                                                 tf.math.reciprocal(tf.constant([0.0, 4.0]))]),
    "sigmoid_and_softplus_extremes": lambda tf: tf.stack([tf.sigmoid(tf.constant([-100.0, 0.0, 100.0])),
                                                          tf.nn.softplus(tf.constant([-100.0, 0.0, 100.0]))]),
    "softmax_of_a_row_with_minus_inf": lambda tf: tf.nn.softmax(tf.constant([[0.0, -float("inf"), 1.0]])),
    "log_softmax_large_logits": lambda tf: tf.nn.log_softmax(tf.constant([1000.0, 0.0, -1000.0])),
    "softmax_axis0": lambda tf: tf.nn.softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0),
    "squared_difference_int": lambda tf: tf.math.squared_difference(tf.constant([1, -2]), tf.constant([4, 2])),
    "add_n_three": lambda tf: tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), tf.constant([5.0, 6.0])]),
    "add_n_mismatched_shapes": lambda tf: tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0])]),
    "range_float_delta": lambda tf: tf.range(0.0, 1.0, 0.3),
    "range_negative_delta": lambda tf: tf.range(5, 0, -2),
    "range_int_and_float_limit": lambda tf: tf.range(0, 2.5),
    "range_dtype_int64": lambda tf: tf.range(3, dtype=tf.int64),
    "bitwise_ops": lambda tf: tf.stack([tf.bitwise.bitwise_and(tf.constant([12, 5]), tf.constant([10, 3])),
                                        tf.bitwise.bitwise_or(tf.constant([12, 5]), tf.constant([10, 3])),
                                        tf.bitwise.bitwise_xor(tf.constant([12, 5]), tf.constant([10, 3])),
                                        tf.bitwise.left_shift(tf.constant([1, 3]), tf.constant([2, 1])),
                                        tf.bitwise.right_shift(tf.constant([-8, 8]), tf.constant([1, 2]))]),
    "logical_ops": lambda tf: tf.stack([tf.logical_and(tf.constant([True, False]), tf.constant([True, True])),
                                        tf.logical_or(tf.constant([True, False]), tf.constant([False, False])),
                                        tf.math.logical_xor(tf.constant([True, False]), tf.constant([True, True]))]),
    "logical_and_of_ints": lambda tf: tf.logical_and(tf.constant([1]), tf.constant([0])),
    "equal_with_broadcast_and_nan": lambda tf: tf.equal(tf.constant([[float("nan")], [1.0]]), tf.constant([1.0, 2.0])),
    "where_one_argument_is_int64_coordinates": lambda tf: tf.where(tf.constant([[True, False], [False, True]])),
    "where_three_arguments_broadcast": lambda tf: tf.where(tf.constant([True, False]), tf.constant([[1, 2], [3, 4]]),
                                                           tf.constant(0)),
    "one_hot_out_of_range_index_is_zeros": lambda tf: tf.one_hot([-1, 1, 3], 3),
    "one_hot_axis0": lambda tf: tf.one_hot([0, 2], 3, axis=0),
    "tile_with_zero_multiple": lambda tf: tf.tile(tf.constant([[1, 2]]), [0, 2]),
    "split_sizes_with_minus_one": lambda tf: tf.stack(tf.split(tf.range(6), [2, -1, 2])[::2]),
    "split_uneven": lambda tf: tf.split(tf.range(5), 2)[0],
    "squeeze_non_unit_axis": lambda tf: tf.squeeze(tf.ones([2, 1]), axis=0),
    "expand_dims_negative_axis": lambda tf: tf.shape(tf.expand_dims(tf.ones([2, 3]), -1)),
    "reshape_with_minus_one": lambda tf: tf.reshape(tf.range(6), [-1, 2]),
    "reshape_bad_size": lambda tf: tf.reshape(tf.range(6), [4, -1]),
    "concat_int32_with_int64": lambda tf: tf.concat([tf.constant([1]), tf.constant([2], tf.int64)], 0),
    "concat_negative_axis": lambda tf: tf.concat([tf.ones([1, 2]), tf.zeros([1, 2])], -1),
    "stack_negative_axis": lambda tf: tf.shape(tf.stack([tf.ones([2, 3])] * 4, axis=-1)),
    "transpose_default_reverses_axes": lambda tf: tf.shape(tf.transpose(tf.ones([2, 3, 4]))),
    "matmul_int32": lambda tf: tf.matmul(tf.constant([[1, 2]]), tf.constant([[3], [4]])),
    "matmul_batch_broadcast": lambda tf: tf.shape(tf.matmul(tf.ones([3, 1, 2, 4]), tf.ones([5, 4, 6]))),
    "matmul_dtype_mismatch": lambda tf: tf.matmul(tf.ones([2, 2]), tf.ones([2, 2], tf.float64)),
    "matmul_inner_dim_mismatch": lambda tf: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3])),
    "cumsum_of_bools": lambda tf: tf.cumsum(tf.constant([True, True])),
    "math_sign_of_nan": lambda tf: tf.sign(tf.constant(_NANS)),
    "square_int_overflow": lambda tf: tf.square(tf.constant([50000])),
    "floor_of_int": lambda tf: tf.floor(tf.constant([1, 2])),
    "exp_of_int": lambda tf: tf.exp(tf.constant([1, 2])),
    "mod_of_python_floats": lambda tf: tf.math.floormod(-1.0, tf.constant(3.0)),
    "bincount": lambda tf: tf.math.bincount(tf.constant([1, 1, 4, 0])),
    "bincount_minlength_weights": lambda tf: tf.math.bincount(tf.constant([1, 1, 2]),
                                                              weights=tf.constant([0.5, 1.0, 2.0]), minlength=5),
    "reduce_euclidean_norm": lambda tf: tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1),
    "polyval": lambda tf: tf.math.polyval([tf.constant(2.0), tf.constant(1.0), tf.constant(-1.0)],
                                          tf.constant([0.0, 2.0])),
    "cumulative_logsumexp": lambda tf: tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 1.0])),
    "argmax_of_bools": lambda tf: tf.argmax(tf.constant([False, True, True])),
    "reverse_sequence": lambda tf: tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1,
                                                       batch_axis=0),
    "fill_dtype_from_value": lambda tf: tf.fill([2], 3),
    "zeros_like_keeps_dtype": lambda tf: tf.zeros_like(tf.constant([1, 2], tf.int64)),
    "ones_like_with_dtype": lambda tf: tf.ones_like(tf.constant([1, 2]), dtype=tf.float32),
    "eye_rectangular": lambda tf: tf.eye(2, 3),
    "eye_batch": lambda tf: tf.shape(tf.eye(2, batch_shape=[3])),
})


def _gradient_of(tf, fn, value):
    x = tf.Variable(value)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(fn(x))
    grad = tape.gradient(y, x)
    return None if grad is None else _rounded(grad.numpy())


for _name, _expression in {
    "divide_no_nan_gradient": lambda tf: _gradient_of(tf, lambda x: tf.math.divide_no_nan(x, tf.constant([0.0, 4.0])),
                                                      [1.0, 2.0]),
    "xlogy_gradient_at_zero": lambda tf: _gradient_of(tf, lambda x: tf.math.xlogy(x, tf.constant([0.0, 2.0])),
                                                      [0.0, 3.0]),
    "rint_has_no_gradient": lambda tf: _gradient_of(tf, tf.math.rint, [0.4, 1.6]),
    "cumulative_logsumexp_gradient": lambda tf: _gradient_of(
        tf, lambda x: tf.math.cumulative_logsumexp(x) * tf.constant([1.0, -2.0, 0.5]), [0.0, 1.0, -1.0]),
    "cumulative_logsumexp_exclusive_reverse_gradient": lambda tf: _gradient_of(
        tf, lambda x: tf.math.cumulative_logsumexp(x, exclusive=True, reverse=True)[:2], [0.5, 1.0, -1.0]),
    "reverse_sequence_gradient": lambda tf: _gradient_of(
        tf, lambda x: tf.reverse_sequence(x, [2, 3], seq_axis=1) * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
}.items():
    globals()[f"case_semantics_{_name}"] = (lambda e: lambda tf, env: e(tf))(_expression)

_in_every_mode("case_semantics_", {
    "cumulative_logsumexp_wide_range": lambda tf: tf.math.cumulative_logsumexp(tf.constant([-1000.0, 0.0, -50.0])),
    "cumulative_logsumexp_exclusive_reverse": lambda tf: tf.math.cumulative_logsumexp(
        tf.constant([[0.0, 0.0, 1.0], [2.0, -1.0, 0.5]]), axis=1, exclusive=True, reverse=True),
    "bincount_maxlength": lambda tf: tf.math.bincount(tf.constant([1, 1, 4]), maxlength=3),
    "bincount_of_a_matrix": lambda tf: tf.math.bincount(tf.constant([[1, 2], [2, 0]])),
    "bincount_of_nothing": lambda tf: tf.math.bincount(tf.constant([], tf.int32)),
    "bincount_negative": lambda tf: tf.math.bincount(tf.constant([-1, 2])),
    "bincount_dtype_int64": lambda tf: tf.math.bincount(tf.constant([0, 0, 2]), dtype=tf.int64),
    "sparse_softmax_xent_of_rank_3_logits": lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant([[0, 2], [1, 1]]), logits=tf.constant([[[0.854, 0.698, 0.598], [0.088, 0.86, 0.018]],
                                                                 [[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]])),
    "sparse_softmax_xent_rank_mismatch": lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant([0, 2]), logits=tf.ones([1, 2, 3])),
    "raw_sparse_softmax_xent_needs_2d_logits": lambda tf: tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(
        features=tf.ones([1, 2, 3]), labels=tf.constant([[0, 2]]))[0],
    "bias_add_channels_first": lambda tf: tf.nn.bias_add(tf.reshape(tf.range(24.0), [2, 3, 2, 2]),
                                                         tf.constant([1.0, 10.0, 100.0]), data_format="NCHW"),
    "bias_add_channels_first_1d": lambda tf: tf.nn.bias_add(tf.ones([2, 3, 4]), tf.constant([1.0, 2.0, 3.0]),
                                                            data_format="NCW"),
    "or_of_ints_is_bitwise": lambda tf: tf.constant([6, 12]) | 1,
    "reflected_or_of_ints": lambda tf: 1 | tf.constant([6, 12]),
    "and_xor_invert_of_ints": lambda tf: tf.stack([tf.constant([6, 12]) & 4, tf.constant([6, 12]) ^ 5,
                                                   ~tf.constant([6, 12])]),
    "xor_and_invert_of_bools": lambda tf: tf.stack([tf.constant([True, False]) ^ tf.constant([True, True]),
                                                    ~tf.constant([True, False])]),
    "or_of_floats": lambda tf: tf.constant([1.5]) | 1,
    "or_of_bool_and_int": lambda tf: tf.constant([True]) | tf.constant([1]),
    "bucketize": lambda tf: tf.raw_ops.Bucketize(input=tf.constant([[-5, 10000], [150, 10], [5, 100]]),
                                                 boundaries=[0.0, 10.0, 100.0]),
    "bucketize_floats_on_a_boundary": lambda tf: tf.raw_ops.Bucketize(input=tf.constant([0.5, 0.4, 2.0]),
                                                                      boundaries=[0.5, 1.5]),
    "bucketize_unsorted_boundaries": lambda tf: tf.raw_ops.Bucketize(input=tf.constant([1.0]),
                                                                     boundaries=[3.0, 1.0]),
    "bincount_of_floats_counts_them_as_int32": lambda tf: tf.math.bincount(tf.constant([[1.0, 2.7], [2.0, 0.0]]),
                                                                           axis=-1, minlength=3, maxlength=3,
                                                                           binary_output=True),
    "bincount_last_axis_of_a_vector": lambda tf: tf.math.bincount(tf.constant([1, 2, 2, 5]), axis=-1, minlength=7),
    "bincount_last_axis_of_a_vector_binary": lambda tf: tf.math.bincount(tf.constant([1, 2, 2, 5]), axis=-1,
                                                                         minlength=3, binary_output=True),
    "bincount_last_axis_of_rank_3": lambda tf: tf.math.bincount(tf.constant([[[1, 2]], [[2, 5]]]), axis=-1),
    "shift_amounts_are_clamped": lambda tf: tf.stack([
        tf.cast(tf.bitwise.left_shift(tf.constant([1], tf.int8), tf.constant([9], tf.int8)), tf.int32),
        tf.bitwise.right_shift(tf.constant([-8]), tf.constant([40]))]),
    "invert_uint8": lambda tf: tf.bitwise.invert(tf.constant([0, 5], tf.uint8)),
    "saturate_cast_int_to_uint8": lambda tf: tf.dtypes.saturate_cast(tf.constant([-1, 300, 70000]), tf.uint8),
    "saturate_cast_float_to_int32": lambda tf: tf.dtypes.saturate_cast(tf.constant([1e10, -1e10, 5.5]), tf.int32),
    "truediv_int16_is_float32": lambda tf: tf.truediv(tf.constant([1], tf.int16), tf.constant([2], tf.int16)),
    "divide_uint8_is_float32": lambda tf: tf.constant([3], tf.uint8) / tf.constant([2], tf.uint8),
    "divide_int64_by_python_int": lambda tf: tf.divide(tf.constant([1], tf.int64), 2),
    "truncatediv_floats": lambda tf: tf.truncatediv(tf.constant([-7.5, 7.5]), tf.constant([2.0, -2.0])),
    "truncatemod_floats": lambda tf: tf.truncatemod(tf.constant([-7.5, 7.5]), tf.constant([2.0, -2.0])),
    "truncatediv_by_zero": lambda tf: tf.truncatediv(tf.constant([1]), tf.constant([0])),
    "reduce_euclidean_norm_int": lambda tf: tf.math.reduce_euclidean_norm(tf.constant([3, 4, 1])),
    "reduce_euclidean_norm_keepdims": lambda tf: tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0]]), 1, True),
    "logical_xor_broadcast": lambda tf: tf.math.logical_xor(tf.constant([[True], [False]]), tf.constant([True, False])),
    "reverse_sequence_batch_axis_1": lambda tf: tf.reverse_sequence(tf.constant([[1, 2], [3, 4], [5, 6]]), [3, 1],
                                                                    seq_axis=0, batch_axis=1),
    "reverse_sequence_too_long": lambda tf: tf.reverse_sequence(tf.constant([[1, 2]]), [3], seq_axis=1),
    "polyval_int": lambda tf: tf.math.polyval([tf.constant(1), tf.constant(0), tf.constant(-2)], tf.constant([3, 4])),
    "eye_batch_values": lambda tf: tf.eye(2, 3, batch_shape=[2], dtype=tf.int32),
})


_M = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
_in_every_mode("case_semantics_", {
    "slice_negative_step": lambda tf: tf.constant(_M)[::-1, ::-2],
    "slice_out_of_range_bounds_clamp": lambda tf: tf.constant(_M)[1:10, -10:2],
    "slice_empty_range": lambda tf: tf.constant(_M)[1:1],
    "slice_ellipsis_and_newaxis": lambda tf: tf.shape(tf.constant(_M)[..., tf.newaxis, 0]),
    "slice_negative_index_shrinks": lambda tf: tf.constant(_M)[-1, -1],
    "slice_with_a_scalar_tensor_index": lambda tf: tf.constant(_M)[tf.constant(1)],
    "gather_negative_index": lambda tf: tf.gather(tf.constant([1, 2, 3]), [-1]),
    "reduce_mean_of_empty_is_nan": lambda tf: tf.reduce_mean(tf.zeros([0])),
    "reduce_sum_over_an_empty_axis": lambda tf: tf.reduce_sum(tf.ones([2, 0]), axis=1),
    "reduce_all_of_empty": lambda tf: tf.reduce_all(tf.zeros([0], tf.bool)),
    "reduce_mean_float16": lambda tf: tf.reduce_mean(tf.constant([60000.0, 60000.0, 1.0], tf.float16)),
    "reduce_sum_float16_large": lambda tf: tf.reduce_sum(tf.constant([40000.0, 40000.0], tf.float16)),
    "reduce_variance_keepdims": lambda tf: tf.math.reduce_variance(tf.constant(_M), axis=1, keepdims=True),
    "count_nonzero_keepdims_dtype": lambda tf: tf.math.count_nonzero(tf.constant(_M), axis=0, keepdims=True,
                                                                     dtype=tf.int32),
    "top_k_k_zero": lambda tf: tf.math.top_k(tf.constant([1.0, 3.0]), k=0).values,
    "argsort_stable_ties": lambda tf: tf.argsort(tf.constant([2, 1, 2, 1, 2]), stable=True),
    "argsort_descending_ties": lambda tf: tf.argsort(tf.constant([2, 1, 2, 1, 2]), direction="DESCENDING",
                                                     stable=True),
    "unique_with_counts": lambda tf: tf.unique_with_counts(tf.constant([4, 1, 4, 2, 1])).count,
    "concat_a_single_tensor": lambda tf: tf.concat([tf.constant([1, 2])], 0),
    "tile_int64_multiples": lambda tf: tf.tile(tf.constant([1, 2]), tf.constant([2], tf.int64)),
    "reshape_scalar_to_matrix": lambda tf: tf.reshape(tf.constant(5.0), [1, 1]),
    "expand_dims_at_rank": lambda tf: tf.shape(tf.expand_dims(tf.ones([2, 3]), 2)),
    "squeeze_everything": lambda tf: tf.squeeze(tf.ones([1, 1, 1])),
    "range_float_dtype": lambda tf: tf.range(5, dtype=tf.float32),
    "range_negative_limit_only": lambda tf: tf.range(-3),
    "range_float_start": lambda tf: tf.range(0.5, 2),
    "shape_out_type_int64": lambda tf: tf.shape(tf.ones([2, 3]), out_type=tf.int64),
    "size_of_empty": lambda tf: tf.size(tf.ones([2, 0])),
    "rank_of_scalar": lambda tf: tf.rank(tf.constant(1.0)),
    "zeros_bool": lambda tf: tf.zeros([2], tf.bool),
    "fill_float_value": lambda tf: tf.fill(tf.constant([2, 1]), 1.5),
    "one_hot_matrix_axis1": lambda tf: tf.one_hot([[0, 2], [1, 0]], 3, on_value=5, off_value=-1, axis=1),
    "floor_of_negative_half": lambda tf: tf.floor(tf.constant([-0.5, 0.5, -1.5])),
    "abs_of_complex": lambda tf: tf.abs(tf.constant([3 + 4j], tf.complex64)),
    "complex_parts": lambda tf: tf.stack([tf.math.real(tf.complex(1.0, 2.0)), tf.math.imag(tf.complex(1.0, 2.0)),
                                          tf.math.angle(tf.complex(0.0, 1.0))]),
    "conj": lambda tf: tf.math.imag(tf.math.conj(tf.constant([1 + 2j], tf.complex64))),
    "log_sigmoid": lambda tf: tf.math.log_sigmoid(tf.constant([-100.0, 0.0, 100.0])),
    "softsign_and_silu": lambda tf: tf.stack([tf.nn.softsign(tf.constant([-3.0, 1.0])),
                                              tf.nn.silu(tf.constant([-3.0, 1.0]))]),
    "erf_and_erfc": lambda tf: tf.stack([tf.math.erf(tf.constant([0.5, -1.0])), tf.math.erfc(tf.constant([0.5, -1.0]))]),
    "l2_loss": lambda tf: tf.nn.l2_loss(tf.constant(_M)),
    "moments_keepdims": lambda tf: tf.stack(tf.nn.moments(tf.constant(_M), axes=[1], keepdims=True)),
    "softmax_xent_unnormalised_labels": lambda tf: tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.constant([[2.0, 0.0, 1.0]]), logits=tf.constant([[1.0, 2.0, 3.0]])),
    "sparse_softmax_xent_int64_labels": lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant([2, 0], tf.int64), logits=tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])),
    "sigmoid_xent_large_logits": lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.constant([1.0, 0.0]), logits=tf.constant([-200.0, 200.0])),
    "segment_max_min_mean_prod": lambda tf: tf.stack([f(tf.constant([1.0, 5.0, 2.0, 3.0]), tf.constant([0, 0, 1, 1]))
                                                      for f in (tf.math.segment_max, tf.math.segment_min,
                                                                tf.math.segment_mean, tf.math.segment_prod)]),
    "unsorted_segment_min_prod": lambda tf: tf.stack([
        tf.math.unsorted_segment_min(tf.constant([1.0, 5.0, 2.0]), tf.constant([1, 0, 1]), 3),
        tf.math.unsorted_segment_prod(tf.constant([1.0, 5.0, 2.0]), tf.constant([1, 0, 1]), 3)]),
    "clip_by_norm_axes": lambda tf: tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.3, 0.4]]), 1.0, axes=[1]),
    "cumsum_int_last_axis": lambda tf: tf.cumsum(tf.constant([[1, 2], [3, 4]]), axis=-1, reverse=True),
    "transpose_conjugate": lambda tf: tf.math.imag(tf.transpose(tf.constant([[1 + 1j, 2 - 1j]], tf.complex64),
                                                                conjugate=True)),
    "maximum_of_int_and_python_float": lambda tf: tf.maximum(tf.constant([1, 5]), 2),
    "where_with_scalar_branches": lambda tf: tf.where(tf.constant([True, False]), 1.0, 0.0),
    "boolean_mask_with_a_list": lambda tf: tf.boolean_mask([1, 2, 3], [True, False, True]),
    "cast_complex_to_float": lambda tf: tf.cast(tf.constant([1 + 2j], tf.complex64), tf.float32),
    "math_sign_float16": lambda tf: tf.sign(tf.constant([-2.0, 0.0], tf.float16)),
})


_in_every_mode("case_semantics_", {
    "relu_of_int32": lambda tf: tf.nn.relu(tf.constant([-2, 3])),
    "relu6_of_float64": lambda tf: tf.nn.relu6(tf.constant([-1.0, 7.0], tf.float64)),
    "softmax_float64": lambda tf: tf.nn.softmax(tf.constant([1.0, 2.0], tf.float64)),
    "softmax_float16": lambda tf: tf.nn.softmax(tf.constant([1.0, 2.0], tf.float16)),
    "sigmoid_float16": lambda tf: tf.sigmoid(tf.constant([-20.0, 0.5], tf.float16)),
    "tanh_int": lambda tf: tf.tanh(tf.constant([1, 2])),
    "leaky_relu_int": lambda tf: tf.nn.leaky_relu(tf.constant([-2, 3])),
    "elu_float64": lambda tf: tf.nn.elu(tf.constant([-1.0, 2.0], tf.float64)),
    "log_softmax_axis0": lambda tf: tf.nn.log_softmax(tf.constant([[1.0, 2.0], [3.0, 0.0]]), axis=0),
    "conv2d_float64": lambda tf: tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64),
                                              1, "VALID"),
    "conv2d_int32": lambda tf: tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.int32), tf.ones([2, 2, 1, 1], tf.int32),
                                            1, "VALID"),
    "max_pool_float64": lambda tf: tf.nn.max_pool2d(tf.reshape(tf.range(16.0, dtype=tf.float64), [1, 4, 4, 1]),
                                                    2, 2, "VALID"),
    "avg_pool_same_edges": lambda tf: tf.nn.avg_pool2d(tf.reshape(tf.range(9.0), [1, 3, 3, 1]), 2, 2, "SAME"),
    "bias_add_int": lambda tf: tf.nn.bias_add(tf.constant([[1, 2]]), tf.constant([10, 20])),
    "matmul_float16": lambda tf: tf.matmul(tf.constant([[0.1, 0.2]], tf.float16),
                                           tf.constant([[3.0], [4.0]], tf.float16)),
    "batch_matmul_adjoint": lambda tf: tf.linalg.matmul(tf.ones([2, 3, 2]), tf.ones([2, 3, 2]), adjoint_a=True),
    "matmul_a_is_sparse_hint": lambda tf: tf.matmul(tf.eye(2), tf.ones([2, 2]), a_is_sparse=True),
    "dropout_rate_one": lambda tf: tf.nn.dropout(tf.ones([2]), rate=1.0),
    "softmax_xent_float64": lambda tf: tf.nn.softmax_cross_entropy_with_logits(
        tf.constant([[0.0, 1.0]], tf.float64), tf.constant([[1.0, 2.0]], tf.float64)),
    "sparse_xent_float16": lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        tf.constant([1]), tf.constant([[1.0, 2.0]], tf.float16)),
    "moments_of_ints": lambda tf: tf.nn.moments(tf.constant([1, 2, 4]), axes=[0])[0],
    "normalize_moments_like_l2_normalize_int": lambda tf: tf.math.l2_normalize(tf.constant([3, 4])),
    "one_hot_float16": lambda tf: tf.one_hot([1], 2, dtype=tf.float16),
    "reduce_std_float64": lambda tf: tf.math.reduce_std(tf.constant([1.0, 2.0, 4.0], tf.float64)),
})


_in_every_mode("case_semantics_", {
    "gather_with_batch_dims": lambda tf: tf.gather(tf.constant([[1, 2, 3], [4, 5, 6]]), [[2, 0], [1, 1]],
                                                   batch_dims=1),
    "gather_with_batch_dims_of_a_3d_tensor": lambda tf: tf.gather(tf.reshape(tf.range(24.0), [2, 3, 4]),
                                                                  [[0, 2], [1, 1]], batch_dims=1),
    "gather_with_batch_dims_out_of_range": lambda tf: tf.gather(tf.constant([[1, 2]]), [[2]], batch_dims=1),
})


def case_semantics_gather_with_batch_dims_gradient(tf, env):
    return _gradient_of(tf, lambda x: tf.gather(x, [[2, 0], [1, 1]], batch_dims=1) * tf.constant([[1.0, 2.0],
                                                                                                  [3.0, 4.0]]),
                        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


_NORM_INPUT = [[[3.0, -1.0, 2.0], [4.0, 5.0, -6.0]], [[1.0, 0.5, 0.0], [-2.0, 1.0, 1.0]]]
_in_every_mode("case_semantics_", {
    "matrix_norm_spectral": lambda tf: tf.norm(tf.constant([[3.0, 0.0], [4.0, 5.0]]), ord=2, axis=[0, 1]),
    "matrix_norm_1_batched": lambda tf: tf.norm(tf.constant(_NORM_INPUT), ord=1, axis=[-2, -1]),
    "matrix_norm_inf_keepdims": lambda tf: tf.norm(tf.constant(_NORM_INPUT), ord=np.inf, axis=[1, 2],
                                                   keepdims=True),
    "matrix_norm_2_over_outer_axes": lambda tf: tf.norm(tf.constant(_NORM_INPUT), ord=2, axis=[0, 2]),
    "matrix_norm_2_keepdims": lambda tf: tf.shape(tf.norm(tf.constant(_NORM_INPUT), ord=2, axis=[0, 2],
                                                          keepdims=True)),
    "matrix_norm_bad_ord": lambda tf: tf.norm(tf.constant(_NORM_INPUT), ord=3, axis=[1, 2]),
})


def _variable_case(body):
    """A case running `body(tf, v)` on a fresh variable v = [1.0, 2.0, 3.0], eagerly and (as `_traced`) inside a
    tf.function that creates nothing; the value is [result, variable afterwards], floats rounded."""
    def run(tf, traced):
        v = tf.Variable([1.0, 2.0, 3.0])
        result = tf.function(lambda: body(tf, v))() if traced else body(tf, v)
        plain = None if result is None else np.asarray(getattr(result, "numpy", lambda: result)())
        shown = None if plain is None else (_rounded(plain) if plain.dtype.kind == "f" else plain.tolist())
        return [shown, _rounded(v.numpy())]
    return (lambda tf, env: run(tf, False)), (lambda tf, env: run(tf, True))


for _name, _body in {
    "assign_add_returns_the_new_value": lambda tf, v: v.assign_add([1.0, 1.0, 1.0]),
    "assign_sub_twice_in_order": lambda tf, v: (v.assign_sub([1.0, 0.0, 0.0]), v.assign_sub([1.0, 0.0, 0.0]))[1],
    "read_after_assign_sees_the_new_value": lambda tf, v: (v.assign(v * 2.0), v.read_value() + 1.0)[1],
    "read_before_assign_keeps_the_old_value": lambda tf, v: (lambda old: (v.assign([0.0, 0.0, 0.0]), old)[1])(
        v.read_value()),
    "slice_assign": lambda tf, v: v[1].assign(9.0),
    "slice_assign_range": lambda tf, v: v[1:].assign([7.0, 8.0]),
    "scatter_nd_update": lambda tf, v: v.scatter_nd_update([[0], [2]], [5.0, 6.0]),
    "assign_wrong_shape": lambda tf, v: v.assign([1.0, 2.0]),
    "assign_wrong_dtype": lambda tf, v: v.assign(tf.constant([1, 2, 3])),
    "assign_python_ints": lambda tf, v: v.assign([4, 5, 6]),
    "variable_plus_python_number": lambda tf, v: v + 1,
    "variable_times_tensor": lambda tf, v: v * tf.constant([2.0, 2.0, 2.0]),
    "variable_in_reduce_sum": lambda tf, v: tf.reduce_sum(v),
    "variable_slice_read": lambda tf, v: v[::2],
    "assign_in_a_loop": lambda tf, v: [v.assign_add([1.0, 0.0, 0.0]) for _ in range(3)][-1],
}.items():
    globals()[f"case_variable_{_name}"], globals()[f"case_variable_{_name}_traced"] = _variable_case(_body)


def case_variable_dtypes_inferred(tf, env):
    return [tf.Variable(1).dtype.name, tf.Variable(1.5).dtype.name, tf.Variable([True]).dtype.name,
            tf.Variable(np.float64(1.0)).dtype.name, tf.Variable(2**40).dtype.name]


def case_variable_not_trainable_is_not_watched(tf, env):
    v = tf.Variable(2.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * v
    return [tape.gradient(y, v) is None, tape.watched_variables() == ()]


def _listed(ds):
    return [np.asarray(x).tolist() if not isinstance(x, (tuple, dict)) else
            ({k: np.asarray(v).tolist() for k, v in x.items()} if isinstance(x, dict) else
             [np.asarray(v).tolist() for v in x]) for x in ds.as_numpy_iterator()]


for _name, _expression in {
    "batch_drop_remainder": lambda tf: _listed(tf.data.Dataset.range(7).batch(3, drop_remainder=True)),
    "batch_keeps_the_remainder": lambda tf: _listed(tf.data.Dataset.range(7).batch(3)),
    "zip_stops_at_the_shortest": lambda tf: _listed(tf.data.Dataset.zip((tf.data.Dataset.range(3),
                                                                         tf.data.Dataset.range(5)))),
    "take_minus_one_is_everything": lambda tf: _listed(tf.data.Dataset.range(4).take(-1)),
    "skip_minus_one_is_nothing": lambda tf: _listed(tf.data.Dataset.range(4).skip(-1)),
    "repeat_zero_is_empty": lambda tf: _listed(tf.data.Dataset.range(4).repeat(0)),
    "cardinalities": lambda tf: [int(tf.data.Dataset.range(5).repeat().cardinality()),
                                 int(tf.data.Dataset.range(5).filter(lambda x: x > 2).cardinality()),
                                 int(tf.data.Dataset.range(5).batch(2).cardinality()),
                                 int(tf.data.Dataset.range(5).batch(2, drop_remainder=True).cardinality()),
                                 int(tf.data.Dataset.range(5).skip(7).cardinality()),
                                 int(tf.data.Dataset.range(5).take(3).repeat(2).cardinality())],
    "from_tensor_slices_mismatched_lengths": lambda tf: _listed(tf.data.Dataset.from_tensor_slices(([1, 2],
                                                                                                   [1, 2, 3]))),
    "padded_batch_with_a_padding_value": lambda tf: _listed(tf.data.Dataset.range(1, 4).map(
        lambda x: tf.fill([x], x)).padded_batch(2, padding_values=tf.constant(-1, tf.int64))),
    "window_shift_stride_drop": lambda tf: [_listed(w) for w in tf.data.Dataset.range(7).window(
        3, shift=2, stride=2, drop_remainder=True)],
    "enumerate_start": lambda tf: _listed(tf.data.Dataset.from_tensor_slices([5, 6]).enumerate(start=10)),
    "reduce_with_a_tuple_state": lambda tf: [np.asarray(v).tolist() for v in tf.data.Dataset.range(1, 5).reduce(
        (tf.constant(0, tf.int64), tf.constant(1, tf.int64)), lambda s, x: (s[0] + x, s[1] * x))],
    "range_with_dtype_and_negative_step": lambda tf: _listed(tf.data.Dataset.range(5, 0, -2, output_type=tf.int32)),
    "range_empty": lambda tf: _listed(tf.data.Dataset.range(0)),
    "concatenate_mismatched_types": lambda tf: _listed(tf.data.Dataset.range(2).concatenate(
        tf.data.Dataset.from_tensor_slices([1.0]))),
    "map_returning_a_dict": lambda tf: _listed(tf.data.Dataset.range(2).map(lambda x: {"x": x, "y": x * 2})),
    "filter_on_a_dict": lambda tf: _listed(tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3]}).filter(
        lambda d: d["a"] % 2 == 1)),
    "batched_element_spec": lambda tf: str(tf.data.Dataset.range(5).batch(2).element_spec),
    "batched_element_spec_drop_remainder": lambda tf: str(tf.data.Dataset.range(5).batch(2, True).element_spec),
    "unbatch_of_scalars": lambda tf: _listed(tf.data.Dataset.range(3).unbatch()),
    "shard_more_than_elements": lambda tf: _listed(tf.data.Dataset.range(3).shard(5, 4)),
    "take_while": lambda tf: _listed(tf.data.Dataset.range(6).take_while(lambda x: x < 3)),
    "apply": lambda tf: _listed(tf.data.Dataset.range(3).apply(lambda ds: ds.map(lambda x: x + 1))),
}.items():
    globals()[f"case_data_{_name}"] = (lambda e: lambda tf, env: e(tf))(_expression)


def case_function_closure_over_a_python_value_is_read_at_trace_time(tf, env):
    box = {"a": 1}
    f = tf.function(lambda: box["a"] * tf.constant(2))
    first = int(f())
    box["a"] = 5
    return [first, int(f())]


def case_function_closure_over_a_variable_reads_it_each_call(tf, env):
    v = tf.Variable(1.0)
    f = tf.function(lambda: v * 2.0)
    first = float(f())
    v.assign(5.0)
    return [first, float(f())]


def case_function_traces_once_per_python_value_and_once_per_tensor_shape(tf, env):
    traces = []

    @tf.function
    def f(x, flag):
        traces.append(1)
        return x * 2 if flag else x
    out = [f(tf.constant(1.0), True), f(tf.constant(2.0), True), f(tf.constant(2.0), False),
           f(tf.constant([1.0, 2.0]), True), f(tf.constant([3.0, 4.0]), True)]
    return [len(traces)] + [np.asarray(o).tolist() for o in out]


def case_function_returns_python_values_and_structures(tf, env):
    out = tf.function(lambda x: {"n": 3, "t": x + 1, "pair": (x, None)})(tf.constant(1))
    return [int(out["n"]), hasattr(out["n"], "numpy"), int(out["t"]), int(out["pair"][0]), out["pair"][1] is None]


def case_function_input_signature_refuses_another_shape(tf, env):
    f = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([2], tf.float32)])
    return np.asarray(f(tf.constant([1.0, 2.0, 3.0]))).tolist()


def case_function_input_signature_refuses_another_dtype(tf, env):
    f = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([None], tf.float32)])
    return np.asarray(f(tf.constant([1, 2]))).tolist()


def case_function_nested_calls_and_keyword_arguments(tf, env):
    inner = tf.function(lambda x, scale=1.0: x * scale)
    outer = tf.function(lambda x: inner(x, scale=3.0) + inner(x))
    return [float(outer(tf.constant(2.0))), float(outer(x=tf.constant(1.0)))]


def case_function_python_side_effects_run_only_while_tracing(tf, env):
    seen = []

    @tf.function
    def f(x):
        seen.append("traced")
        tf.print("x")   # a graph op: runs every call
        return x + 1
    f(tf.constant(1))
    f(tf.constant(2))
    return seen


def case_function_python_loop_over_a_tensor_shape_unrolls(tf, env):
    @tf.function
    def total(x):
        s = tf.constant(0.0)
        for i in range(x.shape[0]):
            s += x[i] * float(i)
        return s
    return float(total(tf.constant([1.0, 2.0, 3.0])))


def case_function_concrete_function_structured_outputs(tf, env):
    f = tf.function(lambda x: (x, x * 2))
    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    a, b = concrete(tf.constant([1.0, 2.0]))
    return [np.asarray(a).tolist(), np.asarray(b).tolist()]


def case_keras_more_losses(tf, env):
    y_true = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32)
    y_pred = np.array([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]], np.float32)
    L = tf.keras.losses
    losses = {"kld": L.KLDivergence(), "poisson": L.Poisson(), "log_cosh": L.LogCosh(),
              "cosine": L.CosineSimilarity(axis=-1), "hinge_of_0_1_labels": L.Hinge(),
              "squared_hinge": L.SquaredHinge(),
              "categorical_hinge": L.CategoricalHinge(), "mape": L.MeanAbsolutePercentageError(),
              "msle": L.MeanSquaredLogarithmicError()}
    values = {k: round(float(loss(y_true, y_pred)), 5) for k, loss in losses.items()}
    values["hinge_of_signs"] = round(float(L.Hinge()(y_true * 2 - 1, y_pred)), 5)
    values["poisson_weighted_none"] = _rounded(L.Poisson(reduction="none")(y_true, y_pred, sample_weight=[1.0, 0.5]))
    values["names"] = [L.KLDivergence().name, L.LogCosh().name, L.MeanAbsolutePercentageError().name]
    return values


def case_keras_fit_with_a_hinge_loss_by_name(tf, env):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.3]], np.float32), np.array([0.1], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="squared_hinge")
    x = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
    y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    return [_rounded(history.history["loss"]), _rounded(model.get_weights()[0])]


# -- TensorFlow semantics Keras 3 relies on (issue: tf.keras is Keras 3): conversion protocol, bitcast, convolution
class _ProtocolValue:
    """An object that is not a tensor but converts to one through TensorFlow's `__tf_tensor__` protocol."""

    def __init__(self, tf, value):
        self.tf, self.value = tf, value

    def __tf_tensor__(self, dtype=None, name=None):
        return self.tf.constant(self.value, dtype=dtype)


_IMAGE = [[[[float((i * 7 + j * 3 + c) % 5) for c in range(2)] for j in range(5)] for i in range(5)]]
_KERNEL = [[[[float((a + b + i - o) % 3) - 1.0 for o in range(3)] for i in range(2)] for b in range(3)] for a in range(3)]
_in_every_mode("case_keras_needs_", {
    "bitcast_float_to_int32": lambda tf: tf.bitcast(tf.constant([1.0, -2.0]), tf.int32),
    "bitcast_to_a_narrower_type_adds_a_dimension": lambda tf: tf.bitcast(tf.constant([1.0, -2.0]), tf.uint8),
    "bitcast_to_a_wider_type_eats_the_last_dimension": lambda tf: tf.bitcast(
        tf.constant([[1, 2, 3, 4], [5, 6, 7, 8]], tf.uint8), tf.int32),
    "bitcast_int64_to_float64": lambda tf: tf.bitcast(tf.constant([4607182418800017408], tf.int64), tf.float64),
    "bitcast_with_the_wrong_last_dimension": lambda tf: tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int16),
    "bitcast_of_bool_is_refused": lambda tf: tf.bitcast(tf.constant([True]), tf.uint8),
    "convolution_2d_same": lambda tf: tf.nn.convolution(tf.constant(_IMAGE), tf.constant(_KERNEL), padding="SAME"),
    "convolution_1d_strided_valid": lambda tf: tf.nn.convolution(
        tf.constant(_IMAGE[0][0:1]), tf.constant(_KERNEL[0]), strides=2, padding="VALID"),
    "conversion_protocol_in_an_op": lambda tf: tf.add(_ProtocolValue(tf, [1.0, 2.0]), 1.0),
    "conversion_protocol_with_a_dtype": lambda tf: tf.convert_to_tensor(_ProtocolValue(tf, [1, 2]), dtype=tf.int64),
})


def case_keras_needs_conversion_protocol_keeps_a_variable_differentiable(tf, env):
    variable = tf.Variable([1.0, 2.0])

    class VariableLike:  # as a Keras variable wraps a tf.Variable
        def __tf_tensor__(self, dtype=None, name=None):
            return tf.convert_to_tensor(variable, dtype=dtype)

    wrapped = VariableLike()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.multiply(wrapped, wrapped))
    traced = tf.function(lambda: tf.reduce_sum(tf.multiply(wrapped, 3.0)))
    first = float(traced())
    variable.assign([2.0, 2.0])
    return [tape.gradient(loss, variable).numpy().tolist(), first, float(traced())]


def case_keras_needs_tensors_accept_attributes(tf, env):
    tensor = tf.constant([1.0])
    tensor._keras_logits = "logits"

    @tf.function
    def traced(x):
        y = x * 2.0
        y._keras_mask = None
        return y
    return [tensor._keras_logits, traced(tensor).numpy().tolist()]


def case_keras_needs_jit_compile_runs(tf, env):
    return tf.function(lambda x: x * 2.0 + 1.0, jit_compile=True)(tf.constant([1.0, 2.0])).numpy().tolist()


_in_every_mode("case_keras_needs_", {
    "autopacking_a_list_of_tensors_and_numbers": lambda tf: tf.convert_to_tensor(
        [tf.constant(1.0), tf.constant(2.0) * 2.0, 3.0]),
    "autopacking_nested_lists": lambda tf: tf.convert_to_tensor([[tf.constant(1.0), 2.0], [3.0, tf.constant(4.0)]]),
    "autopacking_a_tensor_beside_a_literal_row": lambda tf: tf.convert_to_tensor([tf.constant([1, 2]), [3, 4]]),
    "autopacking_in_an_op": lambda tf: tf.add([tf.constant(1.0), 2.0], 1.0),
    "autopacking_mixed_dtypes_is_refused": lambda tf: tf.convert_to_tensor([tf.constant(1), tf.constant(1.0)]),
})


def case_keras_needs_autopacking_keeps_gradients(tf, env):
    a, b = tf.Variable(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        packed = tf.reduce_sum(tf.convert_to_tensor([a, b, 3.0]) * 2.0)
        added = tf.reduce_sum(tf.add([a, b], 1.0))
    return [float(tape.gradient(packed, a)), float(tape.gradient(added, a))]


def case_keras_needs_sync_on_read_variables(tf, env):
    """Keras metrics' variables: each replica updates its own copy; reading outside a replica combines them."""
    strategy = tf.distribute.MirroredStrategy(env.devices)
    out = {}
    for aggregation in ("SUM", "MEAN", "ONLY_FIRST_REPLICA"):
        with strategy.scope():
            variable = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                                   aggregation=getattr(tf.VariableAggregation, aggregation), trainable=False)

        def step():
            replica = tf.distribute.get_replica_context().replica_id_in_sync_group
            variable.assign_add(tf.cast(replica, tf.float32) + 1.0)
            return variable.read_value()

        eager = [float(x) for x in strategy.experimental_local_results(strategy.run(step))]
        traced = [float(x) for x in strategy.experimental_local_results(strategy.run(tf.function(step)))]
        row = [eager, traced, float(variable.read_value()),
               [float(x.numpy()) for x in strategy.experimental_local_results(variable)]]
        for update in (lambda: variable.assign(6.0), lambda: variable.assign_add(2.0)):
            try:
                update()
                row.append([float(x.numpy()) for x in strategy.experimental_local_results(variable)])
            except ValueError:
                row.append("ValueError")
        row += [float(tf.function(lambda: variable.read_value())()), float(variable.numpy())]
        out[aggregation] = row
    with strategy.scope():
        plain = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ, trainable=False)
    strategy.run(lambda: plain.assign_add(1.0))
    try:
        plain.read_value()
        out["NONE"] = "read"
    except ValueError:
        out["NONE"] = "ValueError"
    return out


def case_keras_needs_strategy_reduce_over_a_nested_structure(tf, env):
    strategy = tf.distribute.MirroredStrategy(env.devices)

    def step():
        replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        return {"loss": replica + 1.0, "parts": [tf.constant([1.0, 2.0]) * (replica + 1.0), replica * 3.0]}
    result = strategy.run(step)
    summed, mean = strategy.reduce("SUM", result, axis=None), strategy.reduce("MEAN", result, axis=None)
    return [[float(summed["loss"]), summed["parts"][0].numpy().tolist(), float(summed["parts"][1])],
            [float(mean["loss"]), mean["parts"][0].numpy().tolist(), float(mean["parts"][1])]]


def case_image_resize_methods(tf, env):
    rng = np.random.default_rng(0)
    images = rng.random((2, 5, 7, 3)).astype(np.float32)
    out = {}
    for method in ("bilinear", "nearest", "area", "bicubic"):
        # bicubic is compared when enlarging only: shrinking, placeflow's weights differ from TF's by up to 5e-4
        for size in ((10, 14),) if method == "bicubic" else ((9, 4), (3, 3), (10, 14)):
            out[f"{method}{size}"] = np.round(tf.image.resize(images, size, method=method).numpy(), 5).tolist()
    out["uint8_nearest"] = tf.image.resize(np.arange(12, dtype=np.uint8).reshape(3, 4, 1), (6, 2),
                                           method="nearest").numpy().ravel().tolist()
    out["uint8_bilinear_dtype"] = tf.image.resize(np.zeros((3, 4, 1), np.uint8), (6, 2)).dtype.name
    return out


def case_keras_lookup_and_encoding_layers(tf, env):
    lookup = tf.keras.layers.StringLookup()
    lookup.adapt(np.array(["a", "b", "b", "c", "c", "c"]))
    counts = tf.keras.layers.StringLookup(vocabulary=["x", "y"], output_mode="count")
    hot = tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
    return {"vocabulary": [str(v) for v in lookup.get_vocabulary()],
            "ids": lookup(tf.constant([["c", "a", "zz"]])).numpy().tolist(),
            "counts": counts(tf.constant([["x", "x", "q"]])).numpy().tolist(),
            "multi_hot": hot(tf.constant([[0, 1], [3, 3]])).numpy().tolist(),
            "integer": tf.keras.layers.IntegerLookup(vocabulary=[10, 20])(tf.constant([10, 30, 20])).numpy().tolist(),
            "resizing": np.round(tf.keras.layers.Resizing(3, 2)(np.arange(24, dtype=np.float32).reshape(1, 4, 3, 2))
                                 .numpy(), 5).tolist()}


# -- realistic Keras programs (issue 27): deterministic weights, so TF's numbers are comparable --------------------
def _set_pattern(model):
    model.set_weights([_pattern_weights(tuple(w.shape), i) for i, w in enumerate(model.get_weights())])
    return model


def case_keras_program_functional_two_outputs_with_loss_weights(tf, env):
    L = tf.keras.layers
    inputs = tf.keras.Input(shape=(4,), name="features")
    hidden = L.Dense(6, activation="tanh", name="hidden")(inputs)
    score = L.Dense(1, name="score")(hidden)
    label = L.Dense(3, activation="softmax", name="label")(hidden)
    model = _set_pattern(tf.keras.Model(inputs, {"score": score, "label": label}))
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02),
                  loss={"score": "mse", "label": "sparse_categorical_crossentropy"},
                  loss_weights={"score": 0.5, "label": 2.0}, metrics={"label": ["accuracy"]})
    x = _pattern_weights((12, 4), 1) * 3
    y = {"score": x.sum(axis=1, keepdims=True), "label": (np.arange(12) % 3).astype(np.int32)}
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    evaluated = model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True)
    return {"history": {k: _rounded(v) for k, v in sorted(history.history.items())},
            "evaluate": {k: round(float(v), 5) for k, v in sorted(evaluated.items())},
            "outputs": [name for name in model.output_names]}


def case_keras_program_subclassed_train_step_and_config(tf, env):
    @tf.keras.utils.register_keras_serializable(package="conformance")
    class Scaled(tf.keras.Model):
        def __init__(self, units=3, factor=0.5, **kwargs):
            super().__init__(**kwargs)
            self.units, self.factor = units, factor
            self.dense = tf.keras.layers.Dense(units)
            self.head = tf.keras.layers.Dense(1)
            self.seen = tf.keras.metrics.Sum(name="seen")

        def call(self, x):
            return self.head(tf.nn.relu(self.dense(x))) * self.factor

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.seen.update_state(tf.cast(tf.shape(x)[0], tf.float32))
            return {"loss": loss, "seen": self.seen.result()}

        def get_config(self):
            return {**super().get_config(), "units": self.units, "factor": self.factor}

    model = Scaled(units=3, factor=0.5)
    model(X[:1])
    _set_pattern(model)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
    history = model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    clone = Scaled.from_config(model.get_config())
    return {"history": {k: _rounded(v) for k, v in sorted(history.history.items())},
            "config": {k: model.get_config()[k] for k in ("units", "factor")},
            "clone": [type(clone).__name__, clone.units, clone.factor],
            "prediction": _rounded(model.predict(X, verbose=0))}


def case_keras_program_cnn_with_callbacks(tf, env):
    import os
    import tempfile
    L = tf.keras.layers
    model = _set_pattern(tf.keras.Sequential([
        tf.keras.Input(shape=(6, 6, 1)), L.Conv2D(2, 3, activation="relu"), L.MaxPooling2D(),
        L.Flatten(), L.Dense(2, activation="softmax")]))
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    x = _pattern_weights((8, 6, 6, 1), 2)
    y = (np.arange(8) % 2).astype(np.int32)
    folder = tempfile.mkdtemp()
    log = os.path.join(folder, "log.csv")
    callbacks = [tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=10.0),
                 tf.keras.callbacks.CSVLogger(log),
                 tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "best.keras"), monitor="loss",
                                                    save_best_only=True),
                 tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, min_delta=10.0)]
    history = model.fit(x, y, batch_size=4, epochs=6, shuffle=False, verbose=0, callbacks=callbacks)
    with open(log) as handle:
        rows = handle.read().splitlines()
    best = tf.keras.models.load_model(os.path.join(folder, "best.keras"))
    return {"epochs": len(history.history["loss"]), "loss": _rounded(history.history["loss"]),
            "learning_rate": _rounded(history.history["learning_rate"]), "csv_header": rows[0],
            "csv_rows": len(rows) - 1, "best_predicts": _rounded(best.predict(x[:2], verbose=0))}


def case_keras_program_save_and_load_a_keras_archive(tf, env):
    import os
    import tempfile
    L = tf.keras.layers
    model = _set_pattern(tf.keras.Sequential([tf.keras.Input(shape=(3,)), L.Dense(4, activation="relu"),
                                              L.BatchNormalization(), L.Dense(2)]))
    weights = model.get_weights()
    weights[5] = np.abs(weights[5]) + 0.5  # the moving variance must be positive
    model.set_weights(weights)
    # SGD with momentum (its state is saved): Adam would turn float noise in a constant BatchNormalization
    # column's gradient (~1e-9, summed in different orders by TF and NumPy) into visible updates
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9), loss="mse")
    x = _pattern_weights((6, 3), 4)
    model.fit(x, x[:, :2], batch_size=3, epochs=2, shuffle=False, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "model.keras")
    model.save(path)
    again = tf.keras.models.load_model(path)
    again.fit(x, x[:, :2], batch_size=3, epochs=1, shuffle=False, verbose=0)  # the optimizer state came back too
    model.fit(x, x[:, :2], batch_size=3, epochs=1, shuffle=False, verbose=0)
    return {"same_after_one_more_epoch": _rounded(again.predict(x, verbose=0)),
            "original": _rounded(model.predict(x, verbose=0)),
            "layers": [type(layer).__name__ for layer in again.layers]}


def case_keras_program_mixed_precision(tf, env):
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        L = tf.keras.layers
        model = _set_pattern(tf.keras.Sequential([tf.keras.Input(shape=(4,)), L.Dense(8, activation="relu"),
                                                  L.Dense(1, dtype="float32")]))
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        x = _pattern_weights((8, 4), 5)
        history = model.fit(x, x.sum(axis=1, keepdims=True), batch_size=4, epochs=2, shuffle=False, verbose=0)
        return {"compute": model.layers[0].compute_dtype, "variable": model.layers[0].variable_dtype,
                "optimizer": type(model.optimizer).__name__, "loss": [round(v, 3) for v in history.history["loss"]],
                "output_dtype": str(model(x[:1]).dtype.name)}
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


def case_cond_whose_branches_return_none_runs_for_its_effects(tf, env):
    counter = tf.Variable(0.0)

    @tf.function
    def bump(flag):
        def yes():
            counter.assign_add(1.0)
        return tf.cond(flag, yes, lambda: None)
    results = [bump(tf.constant(True)), bump(tf.constant(False)), bump(tf.constant(True))]
    return {"results": [r is None for r in results], "counter": float(counter.numpy())}


def case_image_rgb_to_hsv_and_back(tf, env):
    rng = np.random.default_rng(0)
    images = rng.random((4, 5, 3)).astype(np.float32)
    images[0, 0] = [0.5, 0.5, 0.5]  # grey: no hue, no saturation
    images[0, 1] = 0.0  # black
    hsv = tf.image.rgb_to_hsv(images)
    return {"hsv": np.round(hsv.numpy(), 5).tolist(), "back": np.round(tf.image.hsv_to_rgb(hsv).numpy(), 5).tolist()}


def case_image_projective_transform_modes(tf, env):
    rng = np.random.default_rng(0)
    images = rng.random((2, 5, 6, 2)).astype(np.float32)
    angle = 0.4
    transforms = np.array([[np.cos(angle), -np.sin(angle), 1.3, np.sin(angle), np.cos(angle), -0.7, 0.01, -0.02],
                           [1.2, 0.1, -2.0, 0.0, 0.8, 1.5, 0.0, 0.0]], np.float32)
    out = {}
    for interpolation in ("NEAREST", "BILINEAR"):
        for mode in ("CONSTANT", "REFLECT", "WRAP", "NEAREST"):
            out[interpolation + "_" + mode] = np.round(tf.raw_ops.ImageProjectiveTransformV3(
                images=images, transforms=transforms, output_shape=[7, 4], fill_value=0.25,
                interpolation=interpolation, fill_mode=mode).numpy(), 5).tolist()
    out["uint8"] = tf.raw_ops.ImageProjectiveTransformV3(
        images=(images * 255).astype(np.uint8), transforms=transforms, output_shape=[5, 6], fill_value=0.0,
        interpolation="BILINEAR", fill_mode="REFLECT").numpy().ravel().tolist()
    return out


# -- tf.signal (issue 28): transforms, framing, windows, mel and cepstra, eagerly, traced and in a Session --------
def _parts(tf, y):
    return tf.stack([tf.math.real(y), tf.math.imag(y)])


_SIGNAL = [[0.5, -1.0, 2.0, 0.25, -0.75, 1.5, 0.0, 3.0, -2.0, 1.0, 0.5, -0.5]]
_SPECTRUM = [[1.0 + 2.0j, -0.5 + 0.25j, 3.0 - 1.0j, 0.0 + 0.5j, -1.0 - 1.0j]]
_in_every_mode("case_signal_", {
    "fft": lambda tf: _parts(tf, tf.signal.fft(tf.constant(_SPECTRUM, tf.complex64))),
    "ifft2d": lambda tf: _parts(tf, tf.signal.ifft2d(tf.constant(_SPECTRUM * 2, tf.complex64))),
    "fft3d": lambda tf: _parts(tf, tf.signal.fft3d(tf.constant([_SPECTRUM * 2], tf.complex64))),
    "fft_of_floats": lambda tf: tf.signal.fft(tf.constant([1.0, 2.0])),
    "rfft": lambda tf: _parts(tf, tf.signal.rfft(tf.constant(_SIGNAL))),
    "rfft_cropped": lambda tf: _parts(tf, tf.signal.rfft(tf.constant(_SIGNAL), [7])),
    "rfft_padded": lambda tf: _parts(tf, tf.signal.rfft(tf.constant(_SIGNAL), [16])),
    "rfft2d": lambda tf: _parts(tf, tf.signal.rfft2d(tf.reshape(tf.constant(_SIGNAL), [3, 4]))),
    "irfft": lambda tf: tf.signal.irfft(tf.constant(_SPECTRUM, tf.complex64)),
    "irfft_odd_length": lambda tf: tf.signal.irfft(tf.constant(_SPECTRUM, tf.complex64), [9]),
    "irfft2d": lambda tf: tf.signal.irfft2d(tf.constant(_SPECTRUM * 3, tf.complex64), [3, 6]),
    "fftshift": lambda tf: tf.signal.fftshift(tf.reshape(tf.range(12), [3, 4])),
    "ifftshift_axis": lambda tf: tf.signal.ifftshift(tf.reshape(tf.range(12), [3, 4]), axes=1),
    "frame": lambda tf: tf.signal.frame(tf.constant(_SIGNAL), 5, 3),
    "frame_pad_end": lambda tf: tf.signal.frame(tf.constant(_SIGNAL), 5, 3, pad_end=True, pad_value=9.0),
    "overlap_and_add": lambda tf: tf.signal.overlap_and_add(tf.signal.frame(tf.constant(_SIGNAL), 4, 2), 2),
    "hann_window_periodic": lambda tf: tf.signal.hann_window(7),
    "hann_window_symmetric": lambda tf: tf.signal.hann_window(8, periodic=False),
    "hamming_window": lambda tf: tf.signal.hamming_window(6),
    "kaiser_window": lambda tf: tf.signal.kaiser_window(7, beta=6.0),
    "kaiser_bessel_derived_window": lambda tf: tf.signal.kaiser_bessel_derived_window(8),
    "vorbis_window": lambda tf: tf.signal.vorbis_window(6),
    "stft": lambda tf: _parts(tf, tf.signal.stft(tf.constant(_SIGNAL), 6, 3)),
    "stft_pad_end_hamming": lambda tf: _parts(tf, tf.signal.stft(tf.constant(_SIGNAL), 5, 2, 8,
                                                                 tf.signal.hamming_window, pad_end=True)),
    "inverse_stft": lambda tf: tf.signal.inverse_stft(
        tf.signal.stft(tf.constant(_SIGNAL), 4, 2), 4, 2, window_fn=tf.signal.inverse_stft_window_fn(2)),
    "linear_to_mel_weight_matrix": lambda tf: tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 3000.0),
    "mfccs": lambda tf: tf.signal.mfccs_from_log_mel_spectrograms(tf.reshape(tf.constant(_SIGNAL), [2, 6])),
    "dct2": lambda tf: tf.signal.dct(tf.constant(_SIGNAL)),
    "dct2_ortho": lambda tf: tf.signal.dct(tf.constant(_SIGNAL), norm="ortho"),
    "dct1": lambda tf: tf.signal.dct(tf.constant(_SIGNAL), type=1),
    "dct3_truncated": lambda tf: tf.signal.dct(tf.constant(_SIGNAL), type=3, n=8),
    "dct4_ortho_padded": lambda tf: tf.signal.dct(tf.constant(_SIGNAL), type=4, n=14, norm="ortho"),
    "idct2": lambda tf: tf.signal.idct(tf.constant(_SIGNAL)),
    "dct1_ortho": lambda tf: tf.signal.dct(tf.constant(_SIGNAL), type=1, norm="ortho"),
    "mdct": lambda tf: tf.signal.mdct(tf.constant(_SIGNAL), 8),
    "inverse_mdct": lambda tf: tf.signal.inverse_mdct(tf.signal.mdct(tf.constant(_SIGNAL), 8)),
})


def _signal_gradients(tf):
    x = tf.constant(_SIGNAL)
    z = tf.constant(_SPECTRUM, tf.complex64)
    weights = tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        spectrum = tf.signal.rfft(x)
        power = tf.reduce_sum(tf.math.real(spectrum * tf.math.conj(spectrum)) * weights)
        inverse = tf.reduce_sum(tf.signal.irfft(z) * tf.range(1.0, 9.0))
        transformed = tf.signal.fft(z)
        mixed = tf.reduce_sum(tf.math.real(transformed) + 0.5 * tf.math.imag(transformed * transformed))
        stft = tf.signal.stft(x, 6, 3)
        stft_power = tf.reduce_sum(tf.abs(tf.math.real(stft)) + tf.math.imag(stft) ** 2)
    return {"rfft": tape.gradient(power, x), "irfft": _parts(tf, tape.gradient(inverse, z)),
            "fft": _parts(tf, tape.gradient(mixed, z)), "stft": tape.gradient(stft_power, x)}


def case_signal_gradients(tf, env):
    return _rounded_relative({k: [v] for k, v in _signal_gradients(tf).items()})


def case_signal_gradients_traced(tf, env):
    return _rounded_relative({k: [v] for k, v in tf.function(lambda: _signal_gradients(tf))().items()})


def case_complex_gradients_follow_tensorflows_conjugate_convention(tf, env):
    """d/dz of a real loss of complex ops: upstream times the conjugate derivative, as TensorFlow."""
    z = tf.constant([0.3 + 0.4j, -1.2 + 0.7j, 0.5 - 0.25j], tf.complex64)
    w = tf.constant([1.1 - 0.3j, 0.2 + 0.9j, -0.6 - 0.1j], tf.complex64)
    out = {}
    for name, fn in (("mul", lambda a, b: a * b), ("div", lambda a, b: a / b), ("square", lambda a, b: a * a + b),
                     ("exp", lambda a, b: tf.exp(a) * b), ("log", lambda a, b: tf.math.log(a) + b),
                     ("sqrt", lambda a, b: tf.sqrt(a) * b), ("sin_cos", lambda a, b: tf.sin(a) * tf.cos(b)),
                     ("reciprocal", lambda a, b: tf.math.reciprocal(a) + b),
                     ("matmul", lambda a, b: tf.matmul(a[None, :], b[:, None])),
                     ("reduce_prod", lambda a, b: tf.reduce_prod(a) * b),
                     ("squared_difference", lambda a, b: tf.math.squared_difference(a, b)),
                     ("divide_no_nan", lambda a, b: tf.math.divide_no_nan(a, b))):
        with tf.GradientTape() as tape:
            tape.watch([z, w])
            y = fn(z, w)
            loss = tf.reduce_sum(tf.math.real(y) + 0.3 * tf.math.imag(y))
        grads = tape.gradient(loss, [z, w])
        out[name] = [_rounded(tf.math.real(g).numpy(), 5) + _rounded(tf.math.imag(g).numpy(), 5) for g in grads]
    out["squared_difference_value"] = _rounded(tf.math.real(tf.math.squared_difference(z, w)).numpy(), 5) + \
        _rounded(tf.math.imag(tf.math.squared_difference(z, w)).numpy(), 5)
    return out


@isolated
def case_custom_gradient_of_a_function_that_reads_variables(tf, env):
    """grad_fn receives `variables` and returns their gradients (Keras's float8 layers use this). Recorded in a
    fresh process: the TypeError raised inside TF 2.21's custom_gradient leaves its variable watcher open, and
    later tf.function traces in the same process return other cases' values."""
    v = tf.Variable([1.0, 2.0])

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * 3.0, [dy * x * 10.0]
        return x * v, grad

    def grads():
        with tf.GradientTape() as tape:
            x = tf.constant([0.5, -1.0])
            tape.watch(x)
            loss = tf.reduce_sum(scaled(x))
        return tape.gradient(loss, [x, v])

    @tf.custom_gradient
    def without_variables_argument(x):
        return x * v, lambda dy: dy

    try:
        without_variables_argument(tf.constant([1.0, 1.0]))
        refused = None
    except TypeError as error:
        refused = str(error).split(":")[0]
    @tf.custom_gradient
    def doubled(x, scale):  # a variable passed in arrives as a tensor; its gradient comes from grad_fn's inputs
        return x * scale, lambda dy: (dy * 2.0, dy * 7.0)

    def grads_of_a_variable_argument():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(doubled(tf.constant([1.0, 3.0]), v))
        return tape.gradient(loss, v)

    return {"eager": [g.numpy().tolist() for g in grads()],
            "traced": [g.numpy().tolist() for g in tf.function(grads)()], "refused": refused,
            "variable_argument": grads_of_a_variable_argument().numpy().tolist(),
            "variable_argument_traced": tf.function(grads_of_a_variable_argument)().numpy().tolist()}



# -- TF API names Keras and users reach for (issue 28), eagerly, traced and in a Session -------------------------
_in_every_mode("case_api_", {
    "searchsorted_rows": lambda tf: tf.searchsorted([[1, 3, 5, 7], [2, 4, 6, 8]], [[3, 6], [1, 9]]),
    "searchsorted_right_int64": lambda tf: tf.searchsorted([1.0, 3.0, 3.0, 5.0], [3.0, 4.0], side="right",
                                                           out_type=tf.int64),
    "searchsorted_bad_side": lambda tf: tf.searchsorted([1.0], [1.0], side="middle"),
    "invert_permutation": lambda tf: tf.math.invert_permutation([3, 4, 0, 2, 1]),
    "invert_permutation_duplicate": lambda tf: tf.math.invert_permutation([0, 0, 1]),
    "nextafter": lambda tf: (tf.math.nextafter(tf.constant([1.0, 0.5]), tf.constant([2.0, -1.0])) -
                             tf.constant([1.0, 0.5])) * 2.0 ** 24,
    "erfinv": lambda tf: tf.math.erfinv([-0.999, -0.5, 0.0, 0.3, 0.9999, 1.0, 1.5]),
    "erfinv_float64": lambda tf: tf.math.erfinv(tf.constant([-0.25, 0.75], tf.float64)),
    "linalg_cross": lambda tf: tf.linalg.cross([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], [[4.0, 5.0, 6.0], [1.0, 0.0, 0.0]]),
    "linalg_logdet": lambda tf: tf.linalg.logdet([[[4.0, 1.0], [1.0, 3.0]], [[2.0, 0.5], [0.5, 1.0]]]),
    "linalg_pinv": lambda tf: tf.linalg.pinv([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    "linalg_pinv_singular": lambda tf: tf.linalg.pinv([[1.0, 2.0], [2.0, 4.0]]),
    "linalg_matrix_rank": lambda tf: tf.linalg.matrix_rank([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]]),
    "depth_to_space": lambda tf: tf.nn.depth_to_space(tf.reshape(tf.range(32.0), [1, 2, 2, 8]), 2),
    "space_to_depth": lambda tf: tf.nn.space_to_depth(tf.reshape(tf.range(32.0), [1, 4, 4, 2]), 2),
    "depth_to_space_indivisible": lambda tf: tf.nn.depth_to_space(tf.ones([1, 2, 2, 6]), 2),
    "inside_function": lambda tf: tf.constant(tf.inside_function()),
    "segment_max_with_an_empty_segment": lambda tf: tf.math.segment_max([[1.0, 2.0], [5.0, 0.0], [3.0, 3.0]],
                                                                        [0, 0, 2]),
    "segment_min_with_an_empty_segment_int": lambda tf: tf.math.segment_min([1, 5, 3], [0, 0, 3]),
    "unsorted_segment_max_with_an_empty_segment": lambda tf: tf.math.unsorted_segment_max([1.0, 5.0], [0, 2], 3),
    "tensor_scatter_nd_max": lambda tf: tf.tensor_scatter_nd_max([1.0, 5.0, 3.0, 0.0], [[0], [1], [1], [3]],
                                                                 [4.0, 2.0, 7.0, -1.0]),
    "tensor_scatter_nd_min_2d": lambda tf: tf.tensor_scatter_nd_min(tf.ones([2, 2], tf.int32), [[0, 1], [1, 0]],
                                                                    [-3, 5]),
    "tensor_scatter_nd_max_out_of_range": lambda tf: tf.tensor_scatter_nd_max(tf.zeros([3]), [[5]], [1.0]),
})


def _erfinv_and_logdet_gradients(tf):
    x = tf.constant([-0.5, 0.1, 0.8])
    m = tf.constant([[4.0, 1.0], [1.0, 3.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, m])
        inverse = tf.reduce_sum(tf.math.erfinv(x) * tf.constant([1.0, 2.0, 3.0]))
        logdet = tf.linalg.logdet(m)
        crossed = tf.reduce_sum(tf.linalg.cross(tf.reshape(tf.concat([x, x], 0), [2, 3]), tf.ones([2, 3])) ** 2)
    return [tape.gradient(inverse, x), tape.gradient(logdet, m), tape.gradient(crossed, x)]


def case_api_gradients_of_erfinv_logdet_and_cross(tf, env):
    return [_rounded(g.numpy(), 4) for g in _erfinv_and_logdet_gradients(tf)]


def case_api_gradients_of_erfinv_logdet_and_cross_traced(tf, env):
    return [_rounded(g.numpy(), 4) for g in tf.function(lambda: _erfinv_and_logdet_gradients(tf))()]


def _asserting(tf, value):
    tf.debugging.Assert(value > 0, ["value must be positive:", value])
    return value + 1


def _kernel_text(tf, expression):
    """The kernel's own text of the error `expression` raises eagerly (without TF's op prefix and suffix)."""
    try:
        expression(tf)
    except tf.errors.OpError as error:
        return [type(error).__name__, error.message.split(" [Op:")[0].split("}} ")[-1]]
    return None


def case_kernel_texts_reshape_and_matmul(tf, env):
    x, row = tf.constant([1.0, 2.0, 3.0]), tf.ones([1, 3])
    texts = {name: _kernel_text(tf, expression) for name, expression in {
        "reshape_multiple": lambda tf: tf.reshape(x, [4, -1]),
        "reshape_count": lambda tf: tf.reshape(x, [2, 2]),
        "reshape_two_unknown": lambda tf: tf.reshape(x, [-1, -1]),
        "reshape_into_zero": lambda tf: tf.reshape(x, [0, -1]),
        "matmul": lambda tf: tf.matmul(row, row),
        "matmul_transposed": lambda tf: tf.matmul(row, row, transpose_a=True, transpose_b=True),
        "batch_matmul": lambda tf: tf.matmul(tf.ones([2, 1, 3]), tf.ones([2, 1, 3])),
        "batch_matmul_batches": lambda tf: tf.matmul(tf.ones([2, 1, 3]), tf.ones([3, 3, 3])),
    }.items()}
    empty = {f"{list(shape)}->{target}": list(tf.reshape(tf.zeros(shape), target).shape)
             for shape, target in [([0], [0, -1]), ([0, 3], [-1, 0, 2]), ([0, 3], [0, -1, 5]), ([0], [2, -1])]}
    traced = tf.function(lambda t: tf.reshape(t, [0, -1]))(tf.zeros([0]))
    return {"texts": texts, "empty_reshapes": empty, "empty_reshape_traced": list(traced.shape)}


def _raised(call):
    """[error class, message] of what `call()` raises; ['returned', repr-free summary] when it returns."""
    try:
        value = call()
    except Exception as error:  # noqa: BLE001 - the class and text are the outcome
        return [type(error).__name__, getattr(error, "message", str(error))]
    return ["returned", None if value is None else type(value).__name__]


def _graph_failure(error_text):
    """The kernel text and node of a graph error laid out as TF's (after the frames, before the node line)."""
    body = error_text.split("\n\n")[-1]
    text, _, node = body.partition("\n\t [[{{node ")
    return [text, node.split("}}")[0]]


def case_debugging_assertions_eagerly(tf, env):
    x = tf.constant([1.0, -2.0, 3.0, -4.0, 5.0])
    d = tf.debugging
    calls = {
        "positive": lambda: d.assert_positive(x), "positive_summarize": lambda: d.assert_positive(x, summarize=2),
        "positive_scalar": lambda: d.assert_positive(tf.constant(-1)),
        "positive_holds": lambda: d.assert_positive(tf.constant([1.0])),
        "negative": lambda: d.assert_negative(x), "non_negative": lambda: d.assert_non_negative(x, message="hey"),
        "non_positive": lambda: d.assert_non_positive(x),
        "near": lambda: d.assert_near(tf.constant([1.0]), tf.constant([2.0]), message="m", rtol=0.1, atol=0.2),
        "near_float64": lambda: d.assert_near(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64)),
        "near_holds": lambda: d.assert_near(tf.constant([1.0]), tf.constant([1.0 + 1e-7])),
        "integer": lambda: d.assert_integer(x, message="m"), "integer_holds": lambda: d.assert_integer(tf.constant(1)),
        "rank": lambda: d.assert_rank(x, 2, message="m"),
        "rank_at_least": lambda: d.assert_rank_at_least(x, 3, message="m"),
        "rank_at_least_holds": lambda: d.assert_rank_at_least(x, 1),
        "rank_in": lambda: d.assert_rank_in(x, [0, 2], message="m"), "rank_in_holds": lambda: d.assert_rank_in(x, [1]),
        "scalar": lambda: d.assert_scalar(x, message="m"), "scalar_holds": lambda: d.assert_scalar(tf.constant(3)),
        "type": lambda: d.assert_type(x, tf.int32, message="m"), "type_holds": lambda: d.assert_type(x, tf.float32),
        "all_finite": lambda: d.assert_all_finite(x / 0.0, "inf!"),
        "same_float_int": lambda: d.assert_same_float_dtype([tf.constant(1)]),
        "same_float_against": lambda: d.assert_same_float_dtype([x], tf.float64),
        "proper_string": lambda: d.assert_proper_iterable("abc"),
        "proper_list": lambda: d.assert_proper_iterable([1, 2]),
    }
    out = {name: _raised(call) for name, call in calls.items()}
    out["all_finite"][1] = out["all_finite"][1].split("}} ")[-1].split(" [Op:")[0]  # TF's eager op prefix
    out["same_float_dtypes"] = [d.assert_same_float_dtype([x, x]).name, d.assert_same_float_dtype().name]
    out["is_numeric"] = [d.is_numeric_tensor(v) for v in (tf.constant(True), tf.constant("a"), tf.constant(1),
                                                          [1.0], tf.constant(1j))]
    out["traceback_filtering"] = d.is_traceback_filtering_enabled()
    return out


def case_debugging_assertions_traced(tf, env):
    d, out = tf.debugging, {}
    checks = {
        "positive": lambda v: d.assert_positive(v), "negative": lambda v: d.assert_negative(v, message="m"),
        "non_negative": lambda v: d.assert_non_negative(v), "non_positive": lambda v: d.assert_non_positive(v),
        "near": lambda v: d.assert_near(v, v + 1.0), "assert": lambda v: d.Assert(v[0] > 5.0, ["big?", v]),
    }
    for name, check in checks.items():
        def body(v, check=check):
            check(v)
            return v + 0.0
        try:
            tf.function(body)(tf.constant([1.0, -2.0]))
            out[name] = "ran"
        except tf.errors.InvalidArgumentError as error:
            out[name] = _graph_failure(error.message)

    def static_check(v):
        tf.debugging.assert_positive(tf.constant([1.0, -3.0]), message="static")
        return v
    try:
        tf.function(static_check)(tf.constant(1))
    except tf.errors.InvalidArgumentError as error:  # at trace time; TF wraps it in AutoGraph's "in user code"
        text = error.message.split("InvalidArgumentError: ", 1)[-1]
        out["static"] = text.replace("\n    ", "\n").rstrip("\n")
    return out


def case_assert_op_data_summaries(tf, env):
    out = {}
    def body(a, b, c, d, e):
        tf.debugging.Assert(False, [a, b, c, d, e, "text", tf.constant(["s1", "s2"]), 'q"u\'o\\te\nnl\t\u00e9',
                                    tf.constant([b"\x01z", b"x"])], summarize=4)
        return a
    try:
        tf.function(body)(tf.constant([1 / 3, -2.0, 1e-7, 2.5e10, 7.0]), tf.constant([[1, 2], [3, 4]]),
                          tf.constant([True, False]), tf.constant(3.0), tf.zeros([2, 2, 2]))
    except tf.errors.InvalidArgumentError as error:
        out["mixed"] = _graph_failure(error.message)[0]
    def rows(a):
        tf.debugging.Assert(False, [a])
        return a
    try:
        tf.function(rows)(tf.reshape(tf.range(12.0), [3, 4]))
    except tf.errors.InvalidArgumentError as error:
        out["rows"] = _graph_failure(error.message)[0]
    return out


def case_api_assert_passes_and_fails(tf, env):
    out = {"passes": int(_asserting(tf, tf.constant(2))),
           "passes_traced": int(tf.function(lambda: _asserting(tf, tf.constant(3)))()),
           "returns_none_eagerly": tf.debugging.Assert(True, ["x"]) is None}
    for mode, run in (("eager", lambda: _asserting(tf, tf.constant(-2))),
                      ("traced", lambda: tf.function(lambda: _asserting(tf, tf.constant(-2)))())):
        try:
            run()
            out[mode] = None
        except tf.errors.InvalidArgumentError as error:
            out[mode] = str(error).split("\n")[0].split(" [Op:")[0].split("}} ")[-1]  # without TF's node prefix
    return out


# -- RaggedTensor (issue 28) and the text model of issue 27 -------------------------------------------------------
def _ragged_parts(rt):
    return {"rows": [[v.decode() if isinstance(v, bytes) else v for v in row] for row in rt.to_list()],
            "row_splits": rt.row_splits.numpy().tolist()}


def case_ragged_tensors(tf, env):
    words = tf.strings.split(tf.constant(["a b", "", "c  d e"]))
    lengths = tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [2, 0, 2])
    return {
        "split": _ragged_parts(words), "split_shape": list(words.shape), "ragged_rank": words.ragged_rank,
        "split_sep": _ragged_parts(tf.strings.split(tf.constant(["a,b", "c"]), sep=",")),
        "to_tensor": [[v.decode() for v in row] for row in words.to_tensor(default_value="_").numpy()],
        "to_tensor_shape": [[v.decode() for v in row] for row in
                            words.to_tensor(default_value="_", shape=[None, 2]).numpy()],
        "to_tensor_wider": words.to_tensor(shape=[3, 4]).shape.as_list(),
        "from_row_lengths": _ragged_parts(lengths), "row_lengths": lengths.row_lengths().numpy().tolist(),
        "nrows": int(lengths.nrows()), "value_rowids": lengths.value_rowids().numpy().tolist(),
        "map_flat_values": tf.ragged.map_flat_values(lambda x: x * 10, lengths).to_list(),
        "constant": tf.ragged.constant([[1, 2], [3]]).to_list(),
        "from_tensor_padding": tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0).to_list(),
        "from_tensor_lengths": tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], lengths=[1, 3]).to_list(),
        "from_value_rowids": tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4).to_list(),
        "is_ragged": isinstance(words, tf.RaggedTensor),
    }


def case_ragged_tensor_bad_row_splits(tf, env):
    return tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 2]).to_list()


def case_ragged_split_and_pad_traced(tf, env):
    padded = tf.function(lambda x: tf.strings.split(x).to_tensor(shape=[None, 3]))(tf.constant(["x y", "z"]))
    return [[v.decode() for v in row] for row in padded.numpy()]


def _text_model(tf):
    keras = tf.keras
    texts = np.array(["The cat sat on the mat.", "A dog barked!", "The dog and the cat", "Birds fly high", "the end"])
    labels = np.array([0.0, 1.0, 0.0, 1.0, 1.0], np.float32)
    vectorize = keras.layers.TextVectorization(max_tokens=20, output_sequence_length=6)
    vectorize.adapt(texts)
    data = tf.data.Dataset.from_tensor_slices((texts, labels)).batch(2).map(lambda x, y: (vectorize(x), y))
    model = keras.Sequential([keras.Input(shape=(6,), dtype="int64"), keras.layers.Embedding(20, 4),
                              keras.layers.Bidirectional(keras.layers.LSTM(3)),
                              keras.layers.Dense(1, activation="sigmoid")])
    model.set_weights([np.sin(np.arange(w.size, dtype=np.float32) * 0.37 + i).reshape(w.shape) * 0.5
                       for i, w in enumerate(model.get_weights())])
    model.compile(keras.optimizers.SGD(0.1), "binary_crossentropy")
    history = model.fit(data, epochs=3, verbose=0)
    return {"vocabulary": [str(w) for w in vectorize.get_vocabulary()],
            "encoded": vectorize(texts).numpy().tolist(), "loss": _rounded(history.history["loss"], 4),
            "prediction": _rounded(model.predict(vectorize(texts[:2]), verbose=0), 4)}


@isolated
def case_keras_program_text_model_with_text_vectorization_and_bidirectional_lstm(tf, env):
    """TextVectorization (split into a RaggedTensor, looked up, padded) feeding a bidirectional LSTM; the last
    batch is smaller, so the traced step is retraced with an unknown batch dimension."""
    return _text_model(tf)



@replicas(4)
def case_keras_fit_and_evaluate_logs_metrics_under_four_replicas(tf, env):
    """The logged loss and metrics of a Keras fit under MirroredStrategy on four devices (2 examples each)."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(16, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) > 0).astype(np.float32)
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(1, activation="sigmoid")])
        model.set_weights([np.sin(np.arange(w.size, dtype=np.float32) + i).reshape(w.shape) * 0.5
                           for i, w in enumerate(model.get_weights())])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                      metrics=["accuracy", tf.keras.metrics.AUC(name="auc"), "mae"])
    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    evaluated = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    return {"replicas": strategy.num_replicas_in_sync,
            "history": {k: _rounded(v, 4) for k, v in sorted(history.history.items())},
            "evaluate": {k: round(float(v), 4) for k, v in sorted(evaluated.items())}}


@isolated  # the global mixed precision policy is process state
def case_keras_mixed_precision_fit_under_mirrored_strategy(tf, env):
    """Keras's LossScaleOptimizer under two replicas: its merge_call runs call_for_each_replica."""
    keras = tf.keras
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(16, 2)
        y = (x[:, :1] * 0.7 - x[:, 1:] * 0.2).astype(np.float32)
        strategy = tf.distribute.MirroredStrategy(env.devices)
        with strategy.scope():
            model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, activation="relu"),
                                      keras.layers.Dense(1, dtype="float32")])
            model.set_weights([np.cos(np.arange(w.size, dtype=np.float32) + i).reshape(w.shape) * 0.5
                               for i, w in enumerate(model.get_weights())])
            model.compile(keras.optimizers.SGD(0.1), "mse")
        history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
        return {"loss": _rounded(history.history["loss"], 4), "optimizer": type(model.optimizer).__name__,
                "scale": float(model.optimizer.dynamic_scale.numpy()),
                "weights": _rounded(np.concatenate([w.ravel() for w in model.get_weights()]), 3)}
    finally:
        keras.mixed_precision.set_global_policy("float32")


def case_embedding_adam_fit_under_mirrored_strategy_gathers_indexed_slices(tf, env):
    """Embedding gradients (IndexedSlices) are all-gathered across replicas, so Adam's update of each row is
    TF's (a dense all-reduce squares the summed rows instead)."""
    keras = tf.keras
    x = np.array([[1, 2, 2], [0, 3, 1], [2, 2, 4], [4, 0, 1]], np.int32)
    y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
    strategy = tf.distribute.MirroredStrategy(env.devices)
    with strategy.scope():
        model = keras.Sequential([keras.Input((3,), dtype="int32"), keras.layers.Embedding(5, 3),
                                  keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1)])
        model.set_weights([np.sin(np.arange(w.size, dtype=np.float32) + i).reshape(w.shape) * 0.5
                           for i, w in enumerate(model.get_weights())])
        model.compile(keras.optimizers.Adam(0.1), "mse")
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return {"loss": _rounded(history.history["loss"], 5), "embedding": _rounded(model.get_weights()[0], 4)}


# -- tf.image geometry, dtypes, colours and quality (issue 28), eagerly, traced and in a Session -------------------
_RGB_2X3 = [[[0.1, 0.5, 0.9], [0.2, 0.4, 0.6], [0.3, 0.8, 0.05]], [[0.7, 0.2, 0.4], [0.95, 0.05, 0.5], [0.6, 0.6, 0.6]]]
_in_every_mode("case_image_", {
    "flip_left_right": lambda tf: tf.image.flip_left_right(tf.constant(_RGB_2X3)),
    "flip_up_down_batch": lambda tf: tf.image.flip_up_down(tf.constant([_RGB_2X3])),
    "transpose": lambda tf: tf.image.transpose(tf.constant(_RGB_2X3)),
    "rot90_k1": lambda tf: tf.image.rot90(tf.constant(_RGB_2X3)),
    "rot90_k2_batch": lambda tf: tf.image.rot90(tf.constant([_RGB_2X3]), k=2),
    "rot90_k3": lambda tf: tf.image.rot90(tf.constant(_RGB_2X3), k=3),
    "crop_to_bounding_box": lambda tf: tf.image.crop_to_bounding_box(tf.reshape(tf.range(48.0), [4, 4, 3]), 1, 2, 2, 2),
    "crop_to_bounding_box_too_big": lambda tf: tf.image.crop_to_bounding_box(tf.ones([4, 4, 3]), 3, 0, 2, 2),
    "pad_to_bounding_box": lambda tf: tf.image.pad_to_bounding_box(tf.ones([2, 2, 1]), 1, 2, 4, 5),
    "resize_with_crop_or_pad": lambda tf: tf.image.resize_with_crop_or_pad(tf.reshape(tf.range(30.0), [5, 6, 1]), 3,
                                                                           8),
    "central_crop": lambda tf: tf.image.central_crop(tf.reshape(tf.range(100.0), [10, 10, 1]), 0.35),
    "convert_uint8_to_float": lambda tf: tf.image.convert_image_dtype(tf.constant([[[0, 128, 255]]], tf.uint8),
                                                                      tf.float32),
    "convert_float_to_uint8": lambda tf: tf.image.convert_image_dtype(tf.constant([[[0.0, 0.5, 1.0, 1.2]]]),
                                                                      tf.uint8),
    "convert_float_to_uint8_saturate": lambda tf: tf.image.convert_image_dtype(
        tf.constant([[[0.0, 0.5, 1.0, 1.2, -0.3]]]), tf.uint8, saturate=True),
    "convert_uint8_to_int16": lambda tf: tf.image.convert_image_dtype(tf.constant([[[1, 128, 255]]], tf.uint8),
                                                                      tf.int16),
    "convert_int32_to_uint8": lambda tf: tf.image.convert_image_dtype(tf.constant([[[2 ** 30, 2 ** 24]]]), tf.uint8),
    "adjust_brightness": lambda tf: tf.image.adjust_brightness(tf.constant(_RGB_2X3), 0.2),
    "adjust_brightness_uint8": lambda tf: tf.image.adjust_brightness(tf.constant([[[10, 200, 250]]], tf.uint8), 0.1),
    "adjust_contrast": lambda tf: tf.image.adjust_contrast(tf.constant(_RGB_2X3), 1.7),
    "adjust_gamma": lambda tf: tf.image.adjust_gamma(tf.constant(_RGB_2X3), 2.2, 0.9),
    "rgb_to_grayscale": lambda tf: tf.image.rgb_to_grayscale(tf.constant(_RGB_2X3)),
    "rgb_to_grayscale_uint8": lambda tf: tf.image.rgb_to_grayscale(tf.constant([[[10, 200, 250]]], tf.uint8)),
    "grayscale_to_rgb": lambda tf: tf.image.grayscale_to_rgb(tf.constant([[[0.5], [0.25]]])),
    "rgb_to_yiq": lambda tf: tf.image.rgb_to_yiq(tf.constant(_RGB_2X3)),
    "yiq_to_rgb": lambda tf: tf.image.yiq_to_rgb(tf.constant(_RGB_2X3)),
    "rgb_to_yuv": lambda tf: tf.image.rgb_to_yuv(tf.constant(_RGB_2X3)),
    "yuv_to_rgb": lambda tf: tf.image.yuv_to_rgb(tf.constant(_RGB_2X3)),
    "per_image_standardization": lambda tf: tf.image.per_image_standardization(tf.constant(_RGB_2X3)),
    "per_image_standardization_uint8": lambda tf: tf.image.per_image_standardization(
        tf.constant([[[10, 200, 250], [0, 0, 0]]], tf.uint8)),
    "image_gradients": lambda tf: tf.stack(tf.image.image_gradients(tf.constant([_RGB_2X3]))),
    "total_variation": lambda tf: tf.image.total_variation(tf.constant(_RGB_2X3)),
    "total_variation_batch": lambda tf: tf.image.total_variation(tf.constant([_RGB_2X3, _RGB_2X3])),
    "psnr": lambda tf: tf.image.psnr(tf.constant(_RGB_2X3), tf.constant(_RGB_2X3) * 0.9, max_val=1.0),
    "sobel_edges": lambda tf: tf.image.sobel_edges(tf.reshape(tf.range(32.0), [1, 4, 4, 2])),
})


def _second_order(tf):
    """Second-order gradients: through a convolution's filter gradient and a max pool's gradient, a Hessian
    diagonal from nested tapes, and a gradient through a loop inside a function."""
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.sin(x) * x ** 3)
        g = inner.gradient(y, x)
    hessian = outer.gradient(g, x)
    image = tf.reshape(tf.range(16.0), [1, 4, 4, 1]) / 10.0
    kernel = tf.ones([2, 2, 1, 1]) * 0.5
    with tf.GradientTape() as outer:
        outer.watch([image, kernel])
        with tf.GradientTape() as inner:
            inner.watch([image, kernel])
            y = tf.reduce_sum(tf.nn.conv2d(image, kernel, 1, "VALID") ** 2)
        kernel_grad = inner.gradient(y, kernel)
        s = tf.reduce_sum(kernel_grad * kernel_grad)
    conv_second = outer.gradient(s, image)
    with tf.GradientTape() as outer:
        outer.watch(image)
        with tf.GradientTape() as inner:
            inner.watch(image)
            y = tf.reduce_sum(tf.nn.max_pool2d(image * image, 2, 2, "VALID"))
        s = tf.reduce_sum(inner.gradient(y, image) * image)
    pool_second = outer.gradient(s, image)
    return {"hessian": [hessian], "conv": [conv_second], "max_pool": [pool_second]}


def case_second_order_gradients(tf, env):
    return _rounded_relative(_second_order(tf))


def case_second_order_gradients_traced(tf, env):
    """Inside a function the ops gradient rules build are recorded by the outer tape too (they were not: the
    traced Hessian was wrong, the convolution's second order None)."""
    return _rounded_relative(tf.function(lambda: _second_order(tf))())


def case_gradient_through_a_loop_inside_a_function(tf, env):
    v = tf.Variable(2.0)

    @tf.function
    def loop_gradient():
        with tf.GradientTape() as tape:
            y = tf.constant(1.0)
            for _ in tf.range(3):
                y = y * v
        return tape.gradient(y, v)
    return float(loop_gradient())


_GAMMA_POINTS = [-2.5, -1.5, -0.5, 1e-3, 0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 100.0, 0.0, -1.0, -2.0]
_in_every_mode("case_special_", {
    "lgamma": lambda tf: tf.math.lgamma(tf.constant(_GAMMA_POINTS)),
    "lgamma_float64": lambda tf: tf.math.lgamma(tf.constant(_GAMMA_POINTS, tf.float64)),
    "digamma": lambda tf: tf.math.digamma(tf.constant(_GAMMA_POINTS)),
    "digamma_float64": lambda tf: tf.math.digamma(tf.constant(_GAMMA_POINTS, tf.float64)),
    "zeta": lambda tf: tf.math.zeta(tf.constant([2.0, 3.0, 4.5, 2.0, 2.0, 1.0, 0.5, 3.0]),
                                    tf.constant([1.0, 2.0, 0.5, -1.5, 10.0, 2.0, 2.0, -2.0])),
    "polygamma": lambda tf: tf.math.polygamma(tf.constant([0.0, 1.0, 2.0, 3.0, 1.5, 1.0]),
                                              tf.constant([0.5, 2.0, 3.7, 10.0, 2.0, -1.5])),
    "erfcinv": lambda tf: tf.math.erfcinv(tf.constant([0.01, 0.5, 1.0, 1.2, 1.99, 0.0, 2.0, 2.5])),
    "ndtri": lambda tf: tf.math.ndtri(tf.constant([0.01, 0.3, 0.5, 0.9, 0.999, 0.0, 1.0, 1.5])),
    "multiply_no_nan": lambda tf: tf.math.multiply_no_nan(tf.constant([float("nan"), float("inf"), 2.0, 3.0]),
                                                          tf.constant([0.0, 0.0, 4.0, 0.5])),
    "reciprocal_no_nan": lambda tf: tf.math.reciprocal_no_nan(tf.constant([0.0, 2.0, -4.0])),
    "scalar_mul": lambda tf: tf.math.scalar_mul(3.0, tf.constant([1.0, -2.0])),
    "is_non_decreasing": lambda tf: tf.stack([tf.math.is_non_decreasing(tf.constant([1, 2, 2, 3])),
                                              tf.math.is_non_decreasing(tf.constant([[1, 2], [1, 3]]))]),
    "is_strictly_increasing": lambda tf: tf.stack([tf.math.is_strictly_increasing(tf.constant([1, 2, 2])),
                                                   tf.math.is_strictly_increasing(tf.constant([[1, 2], [3, 4]]))]),
    "xlog1py": lambda tf: tf.math.xlog1py(tf.constant([0.0, 0.0, 2.0, 1.0]), tf.constant([-1.0, float("nan"), 1.0,
                                                                                              0.5])),
    "zero_fraction": lambda tf: tf.math.zero_fraction(tf.constant([[0.0, 1.0], [0.0, 0.0]])),
    "nn_zero_fraction": lambda tf: tf.nn.zero_fraction(tf.constant([0, 3, 0])),
    "accumulate_n": lambda tf: tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]),
    "unsorted_segment_sqrt_n": lambda tf: tf.math.unsorted_segment_sqrt_n(
        tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]), tf.constant([0, 0, 2, 2, 2]), 4),
})


def case_special_gradients(tf, env):
    x = tf.constant([0.5, 2.0, 3.7, -1.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        lgamma, digamma = tf.math.lgamma(x), tf.math.digamma(x)
        polygamma = tf.math.polygamma(tf.constant(1.0), x)
        zeta = tf.math.zeta(tf.constant(3.0), x + 3.0)
        ndtri = tf.math.ndtri(tf.sigmoid(x))
        no_nan = tf.math.multiply_no_nan(x, tf.constant([0.0, 1.0, 2.0, 0.0]))
        xlog1py = tf.math.xlog1py(x, x + 2.0)
    return {name: _rounded(np.asarray(tape.gradient(value, x).numpy())) for name, value in {
        "lgamma": lgamma, "digamma": digamma, "polygamma": polygamma, "zeta": zeta, "ndtri": ndtri,
        "multiply_no_nan": no_nan, "xlog1py": xlog1py}.items()}


_SQUARE = [[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]]
_GENERAL = [[0.0, 2.0, 1.0], [3.0, 1.0, -1.0], [1.0, -2.0, 4.0]]
_in_every_mode("case_linalg_", {
    "eye": lambda tf: tf.linalg.eye(2, 3, batch_shape=[2], dtype=tf.float64),
    "matvec": lambda tf: tf.linalg.matvec(tf.constant(_GENERAL), tf.constant([1.0, 2.0, 3.0])),
    "matvec_transposed": lambda tf: tf.linalg.matvec(tf.constant([_GENERAL, _SQUARE]), tf.constant([1.0, 0.0, -1.0]),
                                                     transpose_a=True),
    "normalize": lambda tf: tf.stack([tf.linalg.normalize(tf.constant([[3.0, 4.0], [0.0, 2.0]]), axis=1)[0],
                                      tf.linalg.normalize(tf.constant([[3.0, 4.0], [0.0, 2.0]]), ord=1)[0]]),
    "normalize_norm": lambda tf: tf.linalg.normalize(tf.constant([[3.0, 4.0], [0.0, 2.0]]), axis=0)[1],
    "set_diag": lambda tf: tf.linalg.set_diag(tf.zeros([2, 3, 3]), tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    "tensor_diag": lambda tf: tf.linalg.tensor_diag(tf.constant([[1, 2], [3, 4]])),
    "tensor_diag_part": lambda tf: tf.linalg.tensor_diag_part(tf.reshape(tf.range(16.0), [2, 2, 2, 2])),
    "global_norm": lambda tf: tf.linalg.global_norm([tf.constant([3.0, 4.0]), None, tf.constant([[12.0]])]),
    "cholesky_solve": lambda tf: tf.linalg.cholesky_solve(tf.linalg.cholesky(tf.constant(_SQUARE)),
                                                          tf.constant([[1.0], [2.0], [3.0]])),
    "eigvalsh": lambda tf: tf.linalg.eigvalsh(tf.constant(_SQUARE)),
    "eigvals": lambda tf: tf.math.real(tf.linalg.eigvals(tf.constant([[2.0, 1.0], [0.0, 3.0]]))),
    "lu_packed": lambda tf: tf.linalg.lu(tf.constant(_GENERAL))[0],
    "lu_permutation": lambda tf: tf.linalg.lu(tf.constant(_GENERAL))[1],
    "lu_solve": lambda tf: tf.linalg.lu_solve(*tf.linalg.lu(tf.constant(_GENERAL)), tf.constant([[1.0], [0.0], [2.0]])),
    "lu_reconstruct": lambda tf: tf.linalg.lu_reconstruct(*tf.linalg.lu(tf.constant([_GENERAL, _SQUARE]))),
    "lu_matrix_inverse": lambda tf: tf.linalg.lu_matrix_inverse(*tf.linalg.lu(tf.constant(_GENERAL))),
    "expm": lambda tf: tf.linalg.expm(tf.constant([[0.0, 1.0], [-2.0, -3.0]])),
    "expm_large": lambda tf: tf.linalg.expm(tf.constant(_GENERAL, tf.float64) * 3.0),
})


def case_linalg_eig_reconstructs(tf, env):
    a = tf.constant([[2.0, 1.0], [1.0, 3.0], ], tf.float64)
    e, v = tf.linalg.eig(a)
    values, vectors = e.numpy(), v.numpy()
    back = vectors @ np.diag(values) @ np.linalg.inv(vectors)
    return {"dtypes": [e.dtype.name, v.dtype.name], "values": _rounded(np.sort(np.real(values))),
            "reconstructed": _rounded(np.real(back)), "unit_vectors": _rounded(np.linalg.norm(vectors, axis=0))}


def case_linalg_new_gradients(tf, env):
    a = tf.constant(_GENERAL)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        matvec = tf.reduce_sum(tf.linalg.matvec(a, tf.constant([1.0, 2.0, 3.0])) ** 2)
        normalized = tf.reduce_sum(tf.linalg.normalize(a, axis=1)[0][:, 0])
        expm = tf.reduce_sum(tf.linalg.expm(a * 0.1))
    return {name: _rounded(np.asarray(tape.gradient(value, a).numpy())) for name, value in {
        "matvec": matvec, "normalize": normalized, "expm": expm}.items()}


def case_linalg_lu_has_no_gradient(tf, env):
    a = tf.constant(_GENERAL)
    with tf.GradientTape() as tape:
        tape.watch(a)
        solved = tf.reduce_sum(tf.linalg.lu_solve(*tf.linalg.lu(a), tf.constant([[1.0], [0.0], [2.0]])))
    return _rounded(np.asarray(tape.gradient(solved, a).numpy()))


_NN_IMAGE = np.arange(2 * 3 * 3 * 4, dtype=np.float32).reshape(2, 3, 3, 4) / 10.0 - 3.0
_in_every_mode("case_nn_more_", {
    "in_top_k": lambda tf: tf.nn.in_top_k(tf.constant([1, 0, 2]), tf.constant([[0.1, 0.9, 0.0], [0.8, 0.2, 0.8],
                                                                             [0.5, 0.4, 0.1]]), 1),
    "top_k": lambda tf: tf.nn.top_k(tf.constant([3.0, 1.0, 4.0, 1.5]), 2).values,
    "crelu": lambda tf: tf.nn.crelu(tf.constant([[-1.0, 2.0], [3.0, -4.0]])),
    "crelu_axis0": lambda tf: tf.nn.crelu(tf.constant([[-1.0, 2.0], [3.0, -4.0]]), axis=0),
    "lrn": lambda tf: tf.nn.local_response_normalization(tf.constant(_NN_IMAGE), depth_radius=1, bias=2.0, alpha=0.5,
                                                         beta=0.75),
    "lrn_defaults": lambda tf: tf.nn.lrn(tf.constant(_NN_IMAGE)),
    "log_poisson_loss": lambda tf: tf.nn.log_poisson_loss(tf.constant([0.0, 1.0, 2.0, 5.0]),
                                                          tf.constant([0.5, -1.0, 1.0, 2.0])),
    "log_poisson_loss_full": lambda tf: tf.nn.log_poisson_loss(tf.constant([0.0, 1.0, 2.0, 5.0]),
                                                               tf.constant([0.5, -1.0, 1.0, 2.0]), compute_full_loss=True),
    "sufficient_statistics": lambda tf: tf.concat([tf.reshape(part, [-1]) for part in tf.nn.sufficient_statistics(
        tf.constant([[1.0, 2.0], [3.0, 5.0]]), [0], shift=tf.constant([1.0, 1.0]))], axis=0),
    "sufficient_statistics_keepdims": lambda tf: tf.concat([tf.reshape(part, [-1]) for part in
                                                            tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0],
                                                                                                     [3.0, 5.0]]),
                                                                                        [1], keepdims=True)[:3]], 0),
    "normalize_moments": lambda tf: tf.stack(list(tf.nn.normalize_moments(
        tf.constant(2.0), tf.constant([2.0, 5.0]), tf.constant([4.0, 17.0]), tf.constant([1.0, 1.0])))),
    "weighted_moments": lambda tf: tf.stack(list(tf.nn.weighted_moments(
        tf.constant([[1.0, 2.0], [3.0, 5.0], [0.0, 1.0]]), [0], tf.constant([[1.0], [2.0], [0.0]])))),
    "weighted_moments_keepdims": lambda tf: tf.nn.weighted_moments(
        tf.constant([[1.0, 2.0], [3.0, 5.0]]), [1], tf.constant([1.0, 3.0]), keepdims=True)[1],
    "weighted_cross_entropy": lambda tf: tf.nn.weighted_cross_entropy_with_logits(
        tf.constant([0.0, 1.0, 1.0, 0.5]), tf.constant([-2.0, 0.5, 30.0, -30.0]), 3.0),
    "atrous_conv2d": lambda tf: tf.nn.atrous_conv2d(tf.constant(_NN_IMAGE), tf.ones([2, 2, 4, 2]) * 0.1, 2, "SAME"),
    "batch_norm_global": lambda tf: tf.nn.batch_norm_with_global_normalization(
        tf.constant([[1.0, 2.0]]), tf.constant([0.5, 1.0]), tf.constant([4.0, 1.0]), tf.constant([0.1, 0.2]),
        tf.constant([2.0, 3.0]), 0.001, True),
    "batch_norm_global_unscaled": lambda tf: tf.nn.batch_norm_with_global_normalization(
        tf.constant([[1.0, 2.0]]), tf.constant([0.5, 1.0]), tf.constant([4.0, 1.0]), tf.constant([0.1, 0.2]),
        tf.constant([2.0, 3.0]), 0.001, False),
})


def case_nn_more_gradients(tf, env):
    x = tf.constant(_NN_IMAGE[:1, :2, :2])
    logits = tf.constant([-2.0, 0.5, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, logits])
        lrn = tf.reduce_sum(tf.nn.local_response_normalization(x, 1, 2.0, 0.5, 0.75) ** 2)
        crelu = tf.reduce_sum(tf.nn.crelu(x) * 1.5)
        poisson = tf.reduce_sum(tf.nn.log_poisson_loss(tf.constant([0.0, 2.0, 5.0]), logits, compute_full_loss=True))
        weighted = tf.reduce_sum(tf.nn.weighted_cross_entropy_with_logits(tf.constant([0.0, 1.0, 0.5]), logits, 3.0))
    return {"lrn": _rounded(tape.gradient(lrn, x).numpy()), "crelu": _rounded(tape.gradient(crelu, x).numpy()),
            "poisson": _rounded(tape.gradient(poisson, logits).numpy()),
            "weighted": _rounded(tape.gradient(weighted, logits).numpy())}


_FOLD_X = [1.0, 2.0, 3.0, 4.0]
_in_every_mode("case_fold_", {
    "scan": lambda tf: tf.scan(lambda a, v: a + v, tf.constant(_FOLD_X)),
    "scan_initializer": lambda tf: tf.scan(lambda a, v: a * v, tf.constant(_FOLD_X), initializer=tf.constant(2.0)),
    "scan_reverse": lambda tf: tf.scan(lambda a, v: a + v, tf.constant(_FOLD_X), reverse=True),
    "scan_structure": lambda tf: tf.stack(tf.scan(lambda a, v: (a[0] + v, a[1] * v), tf.constant(_FOLD_X),
                                                  initializer=(tf.constant(0.0), tf.constant(1.0)))),
    "scan_tuple_elems": lambda tf: tf.scan(lambda a, v: a + v[0] * v[1], (tf.constant(_FOLD_X), tf.constant(_FOLD_X)),
                                           initializer=tf.constant(0.0)),
    "scan_matrices": lambda tf: tf.scan(lambda a, v: tf.matmul(a, v), tf.reshape(tf.range(8.0), [2, 2, 2]),
                                        initializer=tf.eye(2)),
    "scan_empty_with_initializer": lambda tf: tf.scan(lambda a, v: a + v, tf.zeros([0]), initializer=tf.constant(5.0)),
    "foldl": lambda tf: tf.foldl(lambda a, v: a - v, tf.constant(_FOLD_X)),
    "foldl_initializer": lambda tf: tf.foldl(lambda a, v: a - v, tf.constant(_FOLD_X), initializer=tf.constant(10.0)),
    "foldr": lambda tf: tf.foldr(lambda a, v: a - v, tf.constant(_FOLD_X)),
    "foldr_initializer": lambda tf: tf.foldr(lambda a, v: a - v, tf.constant(_FOLD_X), initializer=tf.constant(10.0)),
    "foldl_empty_with_initializer": lambda tf: tf.foldl(lambda a, v: a + v, tf.zeros([0]),
                                                        initializer=tf.constant(5.0)),
    "foldl_ints": lambda tf: tf.foldl(lambda a, v: a * 10 + v, tf.constant([1, 2, 3])),
})


def case_fold_empty_without_initializer_eagerly(tf, env):
    return tf.foldl(lambda a, v: a + v, tf.zeros([0]))


def case_fold_gradients(tf, env):
    x = tf.constant(_FOLD_X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        scanned = tf.reduce_sum(tf.scan(lambda a, v: a * v + 1.0, x) ** 2)
        folded = tf.foldr(lambda a, v: a * v - v, x, initializer=tf.constant(0.5))
    return {"scan": _rounded(tape.gradient(scanned, x).numpy()), "foldr": _rounded(tape.gradient(folded, x).numpy())}


_in_every_mode("case_script_", {
    "py_function": lambda tf: tf.py_function(lambda a: a * 2.0 + 1.0, [tf.constant([1.0, 2.0, 3.0])], tf.float32),
    "py_function_ops_inside": lambda tf: tf.py_function(lambda a, b: tf.matmul(a, b), [tf.eye(2) * 3.0,
                                                        tf.constant([[1.0, 2.0], [3.0, 4.0]])], tf.float32),
    "py_function_two_outputs": lambda tf: tf.stack([tf.cast(t, tf.float32) for t in tf.py_function(
        lambda a: [a + 1.0, tf.cast(a, tf.int32) * 2], [tf.constant([1.5, 2.5])], [tf.float32, tf.int32])]),
    "py_function_wrong_dtype": lambda tf: tf.py_function(lambda a: tf.cast(a, tf.int32), [tf.constant([1.0])],
                                                         tf.float32),
    "py_function_raises_value_error": lambda tf: tf.py_function(lambda a: int("x"), [tf.constant(1.0)], tf.float32),
    "py_function_raises_zero_division": lambda tf: tf.py_function(lambda a: 1 / 0, [tf.constant(1.0)], tf.float32),
    "py_function_raises_stop_iteration": lambda tf: tf.py_function(lambda a: next(iter([])), [tf.constant(1.0)],
                                                                   tf.float32),
    "py_function_raises_index_error": lambda tf: tf.py_function(lambda a: [][1], [tf.constant(1.0)], tf.float32),
    "py_function_raises_not_implemented": lambda tf: tf.py_function(_raise_not_implemented, [tf.constant(1.0)],
                                                                    tf.float32),
    "numpy_function": lambda tf: tf.numpy_function(lambda a: np.sort(a)[::-1].copy(), [tf.constant([2.0, 9.0, 4.0])],
                                                   tf.float32),
    "numpy_function_strings": lambda tf: tf.strings.length(tf.numpy_function(
        lambda a: np.asarray([v.upper() + b"!" * len(v) for v in a], dtype=object), [tf.constant(["ab", "c"])],
        tf.string)),
    "numpy_function_int64_scalar": lambda tf: tf.numpy_function(lambda a: np.int64(a.size), [tf.zeros([2, 3])],
                                                                tf.int64),
    "numpy_function_raises_type_error": lambda tf: tf.numpy_function(lambda a: a + "x", [tf.constant(1.0)],
                                                                     tf.float32),
})


def _raise_not_implemented(a):
    raise NotImplementedError("not here")


def case_script_numpy_function_wrong_dtype_traced(tf, env):
    return tf.function(lambda: tf.numpy_function(lambda a: a.astype(np.float64), [tf.constant([1.0])],
                                                 tf.float32))().numpy().tolist()


def case_script_numpy_function_wrong_dtype_eagerly_keeps_it(tf, env):
    kept = tf.numpy_function(lambda a: a.astype(np.float64), [tf.constant([1.0])], tf.float32)
    return [kept.dtype.name, kept.numpy().tolist()]


def case_script_py_function_gradients(tf, env):
    x = tf.constant([0.5, 1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.py_function(lambda a: tf.sin(a) * a, [x], tf.float32))
    eager = tape.gradient(y, x)

    @tf.function
    def traced(v):
        with tf.GradientTape() as inner:
            inner.watch(v)
            out = tf.reduce_sum(tf.py_function(lambda a: tf.exp(a) * a, [v], tf.float32) ** 2)
        return inner.gradient(out, v)
    return {"eager": _rounded(eager.numpy()), "traced": _rounded(traced(x).numpy())}


def case_script_numpy_function_has_no_gradient(tf, env):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.numpy_function(lambda a: a * a, [x], tf.float32))
    return str(tape.gradient(y, x))


def case_script_py_function_in_dataset_map(tf, env):
    dataset = tf.data.Dataset.range(4).map(lambda v: tf.py_function(lambda a: a * 10 + 1, [v], tf.int64))
    return [int(v) for v in dataset]


def case_script_py_function_runs_each_call_in_function(tf, env):
    calls = []

    @tf.function
    def step(v):
        tf.py_function(lambda: calls.append(1), [], [])
        return v + 1.0
    step(tf.constant(1.0))
    step(tf.constant(2.0))
    return len(calls)


def _kind_and_values(result):
    if isinstance(result, (list, tuple)):
        return [type(result).__name__, [int(v.numpy()) for v in result]]
    return ["tensor", int(result.numpy())]


def _v1_control_flow(tf):
    v1, x = tf.compat.v1, tf.constant(1)
    return {
        "while_bare_body": lambda: v1.while_loop(lambda i: i < 5, lambda i: i + 1, [x]),
        "while_list_body": lambda: v1.while_loop(lambda i: i < 5, lambda i: [i + 1], [x]),
        "while_tuple": lambda: v1.while_loop(lambda i: i < 5, lambda i: (i + 1,), (x,)),
        "while_same_structure": lambda: v1.while_loop(lambda i: i < 5, lambda i: i + 1, [x],
                                                      return_same_structure=True),
        "while_two": lambda: v1.while_loop(lambda i, s: i < 5, lambda i, s: [i + 1, s * 2], [x, x]),
        "while_no_iteration": lambda: v1.while_loop(lambda i: i < 0, lambda i: i + 1, [x]),
        "cond_list": lambda: v1.cond(x > 0, lambda: [x + 1], lambda: [x - 1]),
        "cond_tuple_strict": lambda: v1.cond(x > 0, lambda: (x + 1,), lambda: (x - 1,), strict=True),
        "cond_old_names": lambda: v1.cond(x > 0, fn1=lambda: x + 10, fn2=lambda: x - 10),
    }


def _kind_or_error(fn):
    try:
        return _kind_and_values(fn())
    except Exception as error:  # noqa: BLE001 - the class is the outcome
        return type(error).__name__


def case_v1_control_flow_eagerly(tf, env):
    return {name: _kind_or_error(fn) for name, fn in _v1_control_flow(tf).items()}


def case_v1_control_flow_traced(tf, env):
    return {name: _kind_or_error(tf.function(fn)) for name, fn in _v1_control_flow(tf).items()}


def case_v2_while_loop_bare_scalar_body_eagerly(tf, env):
    return tf.while_loop(lambda i: i < 5, lambda i: i + 1, [tf.constant(1)])


def _serialize_examples(tf):
    return [tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant(3), tf.constant([True, False]),
            tf.constant(["ab", ""]), tf.zeros([0, 2]), tf.constant([1 + 2j], tf.complex64),
            tf.constant([1.5], tf.float16), tf.constant([2**40], tf.int64), tf.constant([7], tf.uint8)]


def case_io_serialize_tensor_bytes(tf, env):
    return [tf.io.serialize_tensor(v).numpy().hex() for v in _serialize_examples(tf)]


def case_io_parse_tensor_round_trip_traced(tf, env):
    @tf.function
    def round_trip(v):
        return tf.io.parse_tensor(tf.io.serialize_tensor(v), v.dtype)
    return [round_trip(v).numpy().tolist() if v.dtype != tf.string else [b.decode() for b in round_trip(v).numpy()]
            for v in _serialize_examples(tf) if v.dtype not in (tf.complex64,)]


_in_every_mode("case_io_parse_tensor_", {
    "float_matrix": lambda tf: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([[1.0, 2.0], [3.0, 4.0]])),
                                                  tf.float32),
    "type_mismatch": lambda tf: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(1.0)), tf.int32),
    "garbage": lambda tf: tf.io.parse_tensor(tf.constant(b"\xff\xff"), tf.int32),
    "not_a_scalar": lambda tf: tf.io.parse_tensor(tf.constant([b"a"]), tf.int32),
})


def case_outer_tape_through_function_calls(tf, env):
    x = tf.constant([3.0, 1.0])
    v = tf.Variable([1.0, 2.0])
    square = tf.function(lambda a: a * a)
    mixed = tf.function(lambda a: tf.reduce_sum(v * tf.sin(a)) + tf.cast(tf.shape(a)[0], tf.float32))
    pair = tf.function(lambda a, n: (a * 2.0, n + 1))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        squared = square(x)
        mixed_value = mixed(x)
        doubled, counted = pair(x, tf.constant(3))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            cubed = square(x) * x
        first = inner.gradient(cubed, x)
    nested = tf.function(lambda a: square(a) + 1.0)
    with tf.GradientTape() as again:
        again.watch(x)
        through_nested = nested(x)
    return {"square": _rounded(tape.gradient(squared, x).numpy()),
            "mixed": [_rounded(g.numpy()) for g in tape.gradient(mixed_value, [x, v])],
            "pair": _rounded(tape.gradient(doubled, x).numpy()), "int_output": str(tape.gradient(counted, x)),
            "second_order": _rounded(outer.gradient(first, x).numpy()),
            "nested": _rounded(again.gradient(through_nested, x).numpy())}


def case_outer_tape_through_keras_batchnorm_in_function(tf, env):
    keras = tf.keras
    inputs = keras.Input((4,))
    hidden = keras.layers.BatchNormalization()(keras.layers.Dense(3, kernel_initializer="ones")(inputs))
    model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(hidden))
    forward = tf.function(lambda a: model(a, training=True))
    x = tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / 3)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(forward(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    return {"grads": [_rounded(g.numpy()) for g in grads],
            "moving_mean": _rounded(model.layers[2].moving_mean.numpy())}


def _values(t, digits=7):
    return np.round(np.asarray(t.numpy(), dtype=np.float64), digits).tolist()


def case_philox_stateless_draws(tf, env):
    out = {}
    for dtype in (tf.float32, tf.float64, tf.float16, tf.bfloat16):
        out[f"uniform_{dtype.name}"] = _values(tf.random.stateless_uniform([6], seed=[1, 2], dtype=dtype))
    for dtype in (tf.float32, tf.float64, tf.float16):
        out[f"normal_{dtype.name}"] = _values(tf.random.stateless_normal([5], seed=[3, 4], dtype=dtype), 5)
        out[f"truncated_{dtype.name}"] = _values(tf.random.stateless_truncated_normal([7], seed=[5, 6], dtype=dtype), 5)
    out["int32"] = _values(tf.random.stateless_uniform([7], seed=[7, 8], minval=-5, maxval=100, dtype=tf.int32))
    out["int64"] = [int(v) for v in tf.random.stateless_uniform([5], seed=[7, 8], minval=-5, maxval=2**40,
                                                                dtype=tf.int64).numpy()]
    out["scaled"] = _values(tf.random.stateless_uniform([2, 3], seed=[123456789, -5], minval=-2.0, maxval=3.0))
    out["negative_seed"] = _values(tf.random.stateless_uniform([4], seed=tf.constant([-7, 2**31 - 1], tf.int32)))
    out["int64_seed"] = _values(tf.random.stateless_uniform([4], seed=tf.constant([2**40 + 3, -2**50], tf.int64)))
    out["traced"] = _values(tf.function(lambda s: tf.random.stateless_uniform([3], seed=s))(tf.constant([1, 2])))
    return out


def case_philox_generator(tf, env):
    g = tf.random.Generator.from_seed(1)
    out = {"state0": g.state.numpy().tolist(), "normal": _values(g.normal([3]), 5), "state1": g.state.numpy().tolist(),
           "uniform": _values(g.uniform([5], minval=-1.0, maxval=2.0)),
           "ints": _values(g.uniform([4], minval=0, maxval=10, dtype=tf.int32)),
           "full": [int(v) for v in g.uniform_full_int([2], dtype=tf.int64).numpy()],
           "truncated": _values(g.truncated_normal([3]), 5)}
    g.skip(10)
    out["after_skip"] = g.state.numpy().tolist()
    out["seeds"] = g.make_seeds(2).numpy().tolist()
    first, second = g.split(2)
    out["split"] = [first.state.numpy().tolist(), second.state.numpy().tolist(), _values(first.normal([2]), 5)]
    g.reset_from_seed(7)
    out["reset"] = _values(g.normal([2], dtype=tf.float64), 12)
    keyed = tf.random.Generator.from_key_counter(key=5, counter=[1, 2], alg="philox")
    out["key_counter"] = [keyed.state.numpy().tolist(), _values(keyed.uniform([2]))]
    step = tf.function(lambda: g.normal([2]))
    out["traced"] = [_values(step(), 5), _values(step(), 5), g.state.numpy().tolist()]
    out["create_rng_state"] = [tf.random.create_rng_state(1234, "philox").numpy().tolist(),
                               tf.random.create_rng_state([12, 34], "philox").numpy().tolist()]
    return out


def case_philox_stateful_with_seeds(tf, env):
    tf.random.set_seed(42)
    out = {"global": [_values(tf.random.uniform([3])), _values(tf.random.uniform([3])),
                      _values(tf.random.normal([2]), 5)],
           "op_seed": [_values(tf.random.uniform([2], seed=1)), _values(tf.random.uniform([2], seed=1)),
                       _values(tf.random.normal([2], seed=1), 5)],
           "kinds": [_values(tf.random.truncated_normal([3], seed=2), 5),
                     _values(tf.random.uniform([3], minval=0, maxval=10, dtype=tf.int32, seed=3)),
                     _values(tf.random.uniform([2], dtype=tf.float64, seed=4), 12)]}
    tf.random.set_seed(42)
    out["repeat"] = _values(tf.random.uniform([3]))
    draws = tf.function(lambda: (tf.random.uniform([2]), tf.random.normal([2]), tf.random.uniform([2], seed=7)))
    out["traced"] = [[_values(t, 5) for t in draws()] for _ in range(2)]
    tf.random.set_seed(0)
    out["zero_seeds"] = _values(tf.random.uniform([2], seed=0))
    out["scaled"] = [_values(tf.random.uniform([2], minval=-2.0, maxval=3.0, seed=9)),
                     _values(tf.random.normal([2], mean=1.0, stddev=2.0, seed=9), 5)]
    return out


def case_philox_keras_seeded_initializers_and_dropout(tf, env):
    keras = tf.keras
    out = {"glorot": _values(keras.initializers.GlorotUniform(seed=42)((2, 3))),
           "he_normal": _values(keras.initializers.HeNormal(seed=1)((3,)), 5),
           "truncated": _values(keras.initializers.TruncatedNormal(seed=5)((4,)), 5),
           "uniform64": _values(keras.initializers.RandomUniform(-1, 1, seed=3)((3,), dtype="float64"), 12)}
    keras.utils.set_random_seed(7)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dropout(0.5, seed=1),
                              keras.layers.Dense(1)])
    out["weights"] = [_values(w, 6) for w in model.weights]
    out["dropout_output"] = _values(model(np.ones((2, 3), np.float32), training=True), 5)
    return out


def _data_items(ds):
    def plain(x):
        if isinstance(x, (tuple, dict)):
            return repr(x)
        value = np.asarray(x).tolist()
        return value.decode() if isinstance(value, bytes) else value
    return [plain(x) for x in ds.as_numpy_iterator()]


def _data_outcome(fn):
    try:
        return fn()
    except Exception as error:  # noqa: BLE001 - the class and the message's TF part are the outcome
        import re
        message = str(error)
        message = message[message.find("}} ") + 3:] if "}} " in message else message
        return [type(error).__name__, re.sub(r" \[Op:\w+\]( name: .*)?$", "", message)]  # TF's C++ framing


def case_data_grouping_and_sources(tf, env):
    ds = tf.data.Dataset.range(10)
    seqs = tf.data.Dataset.from_generator(lambda: ([1] * n for n in [1, 5, 2, 7, 3, 8, 2]),
                                          output_signature=tf.TensorSpec([None], tf.int32))
    cases = {
        "scan": lambda: _data_items(ds.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 2))),
        "scan_tuple": lambda: _data_items(tf.data.Dataset.zip((ds, ds)).scan(
            tf.constant(1, tf.int64), lambda s, e: (s + e[0], (s, e[1])))),
        "unique": lambda: _data_items(tf.data.Dataset.from_tensor_slices([1, 2, 1, 3, 2]).unique()),
        "unique_strings": lambda: _data_items(tf.data.Dataset.from_tensor_slices(["a", "b", "a"]).unique()),
        "unique_floats": lambda: tf.data.Dataset.from_tensor_slices([1.0, 2.0]).unique(),
        "single": lambda: ds.take(1).get_single_element().numpy().tolist(),
        "single_two": lambda: ds.take(2).get_single_element(),
        "single_empty": lambda: ds.take(0).get_single_element(),
        "group_by_window": lambda: _data_items(ds.group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), 3)),
        "group_by_window_func": lambda: _data_items(ds.group_by_window(
            lambda x: x % 3, lambda k, w: w.batch(5), window_size_func=lambda k: k + 1)),
        "group_by_window_both": lambda: ds.group_by_window(lambda x: x % 3, lambda k, w: w, 2, lambda k: k),
        "bucket": lambda: _data_items(seqs.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2])),
        "bucket_to_boundary": lambda: _data_items(seqs.bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [3, 6, 9], [2, 2, 2, 2], pad_to_bucket_boundary=True)),
        "bucket_drop": lambda: _data_items(seqs.bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2], drop_remainder=True)),
        "bucket_bad_sizes": lambda: seqs.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 2]),
        "counter": lambda: _data_items(tf.data.Dataset.counter(5, 2).take(3)),
        "cardinality": lambda: [int(ds.cardinality()), ds.cardinality().dtype.name,
                                int(tf.data.experimental.cardinality(ds.repeat())),
                                tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY],
        "choose": lambda: _data_items(tf.data.Dataset.choose_from_datasets(
            [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)],
            tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 0, 0, 1], np.int64)))),
        "choose_without_stop": lambda: _data_items(tf.data.Dataset.choose_from_datasets(
            [tf.data.Dataset.range(1), tf.data.Dataset.range(10, 13)],
            tf.data.Dataset.from_tensor_slices(np.array([0, 0, 1, 1], np.int64)), stop_on_empty_dataset=False)),
        "sample_everything_once": lambda: sorted(_data_items(tf.data.Dataset.sample_from_datasets(
            [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], seed=1))),
        "list_files_none": lambda: tf.data.Dataset.list_files("/nonexistent-placeflow/*.txt"),
    }
    return {name: _data_outcome(fn) for name, fn in cases.items()}


def case_data_experimental_transformations(tf, env):
    experimental, ds = tf.data.experimental, tf.data.Dataset.range(6)
    cases = {
        "scan": lambda: _data_items(ds.apply(experimental.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s)))),
        "unique": lambda: _data_items(tf.data.Dataset.from_tensor_slices([3, 3, 1]).apply(experimental.unique())),
        "group_by_window": lambda: _data_items(ds.apply(experimental.group_by_window(
            lambda x: x % 2, lambda k, w: w.batch(2), 2))),
        "take_while": lambda: _data_items(ds.apply(experimental.take_while(lambda x: x < 3))),
        "unbatch": lambda: _data_items(ds.batch(4).apply(experimental.unbatch())),
        "enumerate": lambda: _data_items(ds.take(2).apply(experimental.enumerate_dataset(5))),
        "shuffle_and_repeat": lambda: sorted(_data_items(ds.take(3).apply(experimental.shuffle_and_repeat(3, 2, 1)))),
        "map_and_batch": lambda: _data_items(ds.apply(experimental.map_and_batch(lambda x: x * 2, 4))),
        "map_and_batch_drop": lambda: _data_items(ds.apply(experimental.map_and_batch(lambda x: x * 2, 4,
                                                                                      drop_remainder=True))),
        "parallel_interleave": lambda: _data_items(tf.data.Dataset.range(3).apply(experimental.parallel_interleave(
            lambda x: tf.data.Dataset.range(x, x + 2), 2))),
        "assert_cardinality": lambda: [_data_items(ds.apply(experimental.assert_cardinality(6))),
                                       int(ds.apply(experimental.assert_cardinality(6)).cardinality())],
        "assert_cardinality_fewer": lambda: _data_items(ds.apply(experimental.assert_cardinality(8))),
        "assert_cardinality_more": lambda: _data_items(ds.apply(experimental.assert_cardinality(3))),
        "assert_cardinality_one": lambda: _data_items(ds.take(0).apply(experimental.assert_cardinality(1))),
        "get_single_element": lambda: experimental.get_single_element(ds.take(1)).numpy().tolist(),
        "get_structure": lambda: repr(experimental.get_structure(ds)),
        "from_list": lambda: _data_items(experimental.from_list([(1, "a"), (2, "b")])),
        "from_list_dicts": lambda: _data_items(experimental.from_list([{"x": 1.5}, {"x": 2.5}])),
        "counter": lambda: _data_items(experimental.Counter(3).take(2)),
        "at": lambda: experimental.at(ds, 4).numpy().tolist(),
        "at_past_the_end": lambda: experimental.at(ds, 9),
    }
    return {name: _data_outcome(fn) for name, fn in cases.items()}


def case_philox_seed_helpers(tf, env):
    return {"split": tf.random.split([1, 2]).numpy().tolist(),
            "split3_int64": tf.random.split(tf.constant([1, 2], tf.int64), 3).numpy().tolist(),
            "fold_in": tf.random.fold_in([1, 2], 7).numpy().tolist(),
            "fold_in_int64": tf.random.fold_in(tf.constant([3, 4], tf.int64), tf.constant(5, tf.int64)).numpy().tolist(),
            "experimental_split": tf.random.experimental.stateless_split([5, 6]).numpy().tolist(),
            "experimental_generator": _values(tf.random.experimental.Generator.from_seed(3).normal([1]), 5),
            "full_uint32": tf.random.stateless_uniform([3], seed=[1, 2], minval=None, maxval=None,
                                                       dtype=tf.uint32).numpy().tolist()}


def case_image_random_augmentations(tf, env):
    images = tf.constant((np.arange(2 * 4 * 5 * 3).reshape(2, 4, 5, 3) % 17 / 16.0).astype(np.float32))
    pixels = tf.constant((np.arange(4 * 5 * 3).reshape(4, 5, 3) * 7 % 256).astype(np.uint8))
    cases = {
        "stateless_flip_left_right": lambda: _values(tf.image.stateless_random_flip_left_right(images, seed=[1, 2])),
        "stateless_flip_up_down_3d": lambda: _values(tf.image.stateless_random_flip_up_down(images[0], seed=[3, 2])),
        "stateless_brightness": lambda: _values(tf.image.stateless_random_brightness(images, 0.2, seed=[1, 2]), 5),
        "stateless_contrast": lambda: _values(tf.image.stateless_random_contrast(images, 0.2, 0.9, seed=[5, 2]), 5),
        "stateless_hue": lambda: _values(tf.image.stateless_random_hue(images, 0.3, seed=[1, 2]), 5),
        "stateless_saturation": lambda: _values(tf.image.stateless_random_saturation(images, 0.2, 1.9, seed=[1, 2]),
                                                5),
        "stateless_crop": lambda: _values(tf.image.stateless_random_crop(images, [1, 2, 3, 3], seed=[1, 2])),
        "adjust_hue_uint8": lambda: _values(tf.image.adjust_hue(pixels, 0.4)),
        "adjust_saturation_uint8": lambda: _values(tf.image.adjust_saturation(pixels, 1.7)),
        "adjust_hue_negative": lambda: _values(tf.image.adjust_hue(images, -0.7), 5),
        "max_delta_too_large": lambda: tf.image.random_hue(images, 0.6),
        "upper_below_lower": lambda: tf.image.random_contrast(images, 0.5, 0.2),
        "crop_larger_than_image": lambda: tf.image.random_crop(pixels, [9, 2, 3]),
    }
    out = {name: _data_outcome(fn) for name, fn in cases.items()}
    tf.random.set_seed(3)
    out["seeded_flip"] = _values(tf.image.random_flip_left_right(images, seed=4))
    out["seeded_brightness"] = _values(tf.image.random_brightness(images, 0.3), 5)
    out["seeded_crop"] = _values(tf.image.random_crop(pixels, [2, 2, 3], seed=1))
    return out


def _plain_values(value):
    if isinstance(value, (list, tuple)):
        return [_plain_values(v) for v in value]
    return np.asarray(value.numpy()).tolist() if hasattr(value, "numpy") else value


def case_top_level_initializers_and_partitions(tf, env):
    cases = {
        "zeros": lambda: tf.zeros_initializer()((2, 2)),
        "ones_int": lambda: tf.ones_initializer()((3,), tf.int32),
        "constant_values": lambda: tf.constant_initializer([1, 2, 3, 4])((2, 2)),
        "constant_scalar": lambda: tf.constant_initializer(2.5)((2,)),
        "random_normal_seeded": lambda: _values(tf.random_normal_initializer(0.0, 2.0, seed=3)((3,)), 5),
        "random_uniform_seeded": lambda: tf.random_uniform_initializer(-1, 1, seed=3)((3,)),
        "random_uniform_ints": lambda: tf.random_uniform_initializer(0, 10, seed=3)((3,), tf.int32),
        "random_normal_ints": lambda: tf.random_normal_initializer(seed=3)((3,), tf.int32),
        "configs": lambda: [tf.random_normal_initializer(1.0, 2.0, 5).get_config(),
                            tf.constant_initializer(3).get_config()],
        "dynamic_partition": lambda: tf.dynamic_partition(tf.constant([10, 20, 30, 40, 50]),
                                                          tf.constant([0, 0, 1, 1, 0]), 2),
        "dynamic_partition_rows": lambda: tf.dynamic_partition(tf.constant([[1, 2], [3, 4], [5, 6]]),
                                                               tf.constant([1, 0, 1]), 3),
        "dynamic_partition_bad": lambda: tf.dynamic_partition(tf.constant([1, 2]), tf.constant([0, 5]), 2),
        "dynamic_stitch": lambda: tf.dynamic_stitch(
            [tf.constant([6]), tf.constant([4, 1]), tf.constant([[5, 2], [0, 3]])],
            [tf.constant([61.0]), tf.constant([41.0, 11.0]), tf.constant([[51.0, 21.0], [1.0, 31.0]])]),
        "dynamic_stitch_duplicates": lambda: tf.dynamic_stitch([tf.constant([0, 1]), tf.constant([1, 2])],
                                                               [tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]),
        "dynamic_stitch_rows": lambda: tf.dynamic_stitch([tf.constant([1, 0])], [tf.constant([[1.0, 2.0], [3.0, 4.0]])]),
        "unravel_index": lambda: tf.unravel_index(tf.constant([5, 7, 0]), tf.constant([3, 4])),
        "unravel_index_scalar": lambda: tf.unravel_index(tf.constant(1621), tf.constant([6, 7, 8, 9])),
        "unravel_index_bad": lambda: tf.unravel_index(tf.constant([12]), tf.constant([3, 4])),
        "histogram": lambda: tf.histogram_fixed_width(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]), [0.0, 5.0], 5),
        "histogram_bins": lambda: tf.histogram_fixed_width_bins(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]),
                                                                [0.0, 5.0], nbins=5),
        "saturate_cast": lambda: tf.saturate_cast(tf.constant([-300.0, 12.7, 300.0]), tf.uint8),
        "saturate_cast_ints": lambda: tf.saturate_cast(tf.constant([2**40, -2**40], tf.int64), tf.int32),
        "realdiv": lambda: tf.realdiv(tf.constant([1.0, 3.0]), tf.constant([2.0, 4.0])),
        "tensor_scatter_nd_sub": lambda: tf.tensor_scatter_nd_sub(tf.constant([1, 2, 3, 4]), [[1], [3]], [10, 20]),
        "identity_n": lambda: tf.identity_n([tf.constant(1), tf.constant([2.0, 3.0])]),
        "tuple": lambda: tf.tuple([tf.constant(1), None, tf.constant(2)]),
        "hessians_eagerly": lambda: tf.hessians(tf.constant(1.0), [tf.constant(1.0)]),
    }
    out = {name: _data_outcome(lambda fn=fn: _plain_values(fn())) for name, fn in cases.items()}
    out["realdiv_of_ints"] = _data_outcome(lambda: tf.realdiv(tf.constant([1, 3]), tf.constant([2, 4])))[0]

    def scope():
        with tf.name_scope("outer"):
            with tf.name_scope("inner"):
                return tf.get_current_name_scope()
    out["name_scope"] = scope()
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.grad_pass_through(lambda v: tf.round(v * 1.7))(x) * 3.0)
    out["grad_pass_through"] = tape.gradient(y, x).numpy().tolist()
    with tf.Graph().as_default():
        v = tf.constant([1.0, 2.0])
        hessian = tf.hessians(tf.reduce_sum(v ** 3), v)
        with tf.compat.v1.Session() as session:
            out["hessians_in_a_graph"] = session.run(hessian)[0].tolist()
    return out


def case_train_moving_average_and_coordinator(tf, env):
    import threading
    v, w = tf.Variable([1.0, 2.0]), tf.Variable(3.0, dtype=tf.float64)
    ema = tf.train.ExponentialMovingAverage(0.9)
    out = {"first_apply": [ema.apply([v, w]), ema.average(v).numpy().tolist(), ema.average_name(v),
                           ema.average(v).name]}
    v.assign([3.0, 5.0])
    w.assign(7.0)
    ema.apply([v, w])
    out["second_apply"] = [ema.average(v).numpy().tolist(), float(ema.average(w).numpy())]
    step = tf.Variable(3)
    counted = tf.train.ExponentialMovingAverage(0.99, num_updates=step)
    counted.apply([v])
    v.assign([0.0, 0.0])
    counted.apply([v])
    out["num_updates"] = counted.average(v).numpy().tolist()

    @tf.function
    def traced():
        v.assign_add([1.0, 1.0])
        ema.apply([v])
    traced()
    traced()
    out["in_function"] = _values(ema.average(v), 6)
    out["restore_names"] = sorted(ema.variables_to_restore())
    coordinator = tf.train.Coordinator()

    def worker(index):
        with coordinator.stop_on_exception():
            while not coordinator.should_stop():
                if index == 1:
                    raise ValueError("boom")
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    try:
        coordinator.join(threads)
        out["join"] = "returned"
    except ValueError as error:
        out["join"] = str(error)
    clean = tf.train.Coordinator()
    clean.request_stop(tf.errors.OutOfRangeError(None, None, "done"))
    clean.join([])
    out["clean_stop"] = clean.should_stop()
    return out


def case_sparse_segments_lbeta_approx_top_k(tf, env):
    data = tf.constant([[1.0, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]])
    matrix = tf.constant([[1.0, 5.0, 3.0], [9.0, 2.0, 4.0]])
    cases = {
        "segment_sum": lambda: tf.sparse.segment_sum(data, tf.constant([0, 1]), tf.constant([0, 0])),
        "segment_sum_two": lambda: tf.sparse.segment_sum(data, tf.constant([0, 1, 2]), tf.constant([0, 0, 1])),
        "segment_sum_unsorted": lambda: tf.sparse.segment_sum(data, tf.constant([0, 1, 2]), tf.constant([0, 2, 0]),
                                                              num_segments=4),
        "segment_mean": lambda: tf.sparse.segment_mean(data, tf.constant([0, 2, 2]), tf.constant([0, 0, 2])),
        "segment_sqrt_n": lambda: tf.sparse.segment_sqrt_n(data, tf.constant([0, 1, 2]), tf.constant([0, 0, 1])),
        "segment_sqrt_n_counted": lambda: tf.sparse.segment_sqrt_n(data, tf.constant([0, 1, 2]),
                                                                   tf.constant([0, 0, 3]), num_segments=5),
        "lbeta": lambda: tf.math.lbeta(tf.constant([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]])),
        "approx_max_k": lambda: tf.math.approx_max_k(matrix, 2),
        "saturate_cast_complex": lambda: tf.saturate_cast(tf.constant([1e10 + 2j, -5 + 1j]), tf.uint8),
    }
    out = {name: _data_outcome(lambda fn=fn: _plain_values(fn())) for name, fn in cases.items()}
    out["approx_min_k_first_axis"] = _data_outcome(lambda: tf.math.approx_min_k(matrix, 1, reduction_dimension=0))[0]
    return out


def _ragged_plain(value):
    if isinstance(value, tuple):
        return [_ragged_plain(v) for v in value]
    if hasattr(value, "to_list"):
        return _decoded(value.to_list())
    return _decoded(value.numpy().tolist())


def _decoded(value):
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    return value.hex() if isinstance(value, bytes) else value


def case_strings_unicode(tf, env):
    words = tf.constant(["héllo", "wörld €", ""])
    bad = tf.constant([b"ab\xffc\xe2\x82", b"\xf0\x9f\x98\x80x"])
    cases = {
        "decode": lambda: tf.strings.unicode_decode(words, "UTF-8"),
        "decode_scalar": lambda: tf.strings.unicode_decode("añb", "UTF-8"),
        "decode_with_offsets": lambda: tf.strings.unicode_decode_with_offsets(words, "UTF-8"),
        "decode_invalid": lambda: tf.strings.unicode_decode(bad, "UTF-8"),
        "decode_invalid_offsets": lambda: tf.strings.unicode_decode_with_offsets(bad, "UTF-8"),
        "decode_invalid_ignored": lambda: tf.strings.unicode_decode(bad, "UTF-8", errors="ignore"),
        "decode_invalid_strict": lambda: tf.strings.unicode_decode(bad, "UTF-8", errors="strict"),
        "decode_controls": lambda: tf.strings.unicode_decode("a\x01b\x7f", "UTF-8", replace_control_characters=True),
        "decode_replacement": lambda: tf.strings.unicode_decode(bad, "UTF-8", replacement_char=63),
        "split": lambda: tf.strings.unicode_split(words, "UTF-8"),
        "split_scalar": lambda: tf.strings.unicode_split("añ€", "UTF-8"),
        "split_with_offsets": lambda: tf.strings.unicode_split_with_offsets(words, "UTF-8"),
        "split_invalid": lambda: tf.strings.unicode_split(bad, "UTF-8"),
        "encode_ragged": lambda: tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [8364], []]), "UTF-8"),
        "encode_vector": lambda: tf.strings.unicode_encode([72, 105, 0x1F600], "UTF-8"),
        "encode_matrix_utf16": lambda: tf.strings.unicode_encode([[72, 105], [97, 98]], "UTF-16-BE"),
        "encode_invalid": lambda: tf.strings.unicode_encode([72, 0xD800, 0x110000], "UTF-8"),
        "encode_invalid_strict": lambda: tf.strings.unicode_encode([72, 0xD800], "UTF-8", errors="strict"),
        "transcode": lambda: tf.strings.unicode_transcode(["héllo", "€"], "UTF-8", "UTF-16-BE"),
        "transcode_round_trip": lambda: tf.strings.unicode_transcode(tf.strings.unicode_transcode(
            ["héllo", "€"], "UTF-8", "UTF-32-BE"), "UTF-32-BE", "UTF-8"),
        "transcode_invalid": lambda: tf.strings.unicode_transcode(bad, "UTF-8", "UTF-8"),
        "bytes_split": lambda: tf.strings.bytes_split(["hé", "ab"]),
        "bytes_split_scalar": lambda: tf.strings.bytes_split("hé"),
        "traced": lambda: tf.function(lambda s: tf.strings.unicode_decode(s, "UTF-8").flat_values)(words),
        "unknown_encoding": lambda: tf.strings.unicode_decode(words, "KOI8-R-XX"),
    }
    return {name: _data_outcome(lambda fn=fn: _ragged_plain(fn())) for name, fn in cases.items()}


def case_test_case_harness(tf, env):
    import unittest
    outcomes = {}

    class Checks(tf.test.TestCase):
        def runTest(self):
            x = tf.constant([1.0, 2.0])
            self.assertAllClose({"a": x, "b": (x, x)}, {"a": [1.0, 2.0], "b": ([1.0, 2.0], [1.0, 2.0])})
            self.assertAllEqual(self.evaluate(x * 2), [2.0, 4.0])
            outcomes["seeded_numpy"] = round(float(np.random.rand()), 6)
            outcomes["seeded_tf"] = round(float(tf.random.uniform([])), 6)
            for name, check in (("close", lambda: self.assertAllClose([1.0, 2.0], [1.0, 2.5])),
                                ("equal_shapes", lambda: self.assertAllEqual([1], [1, 1])),
                                ("greater", lambda: self.assertAllGreater([1, 2], 1)),
                                ("in_set", lambda: self.assertAllInSet([3], {1})),
                                ("in_range", lambda: self.assertAllInRange([1, 2], 1, 2, open_lower_bound=True))):
                try:
                    check()
                    outcomes[name] = "passed"
                except AssertionError:
                    outcomes[name] = "AssertionError"
            with self.assertRaisesOpError("Incompatible shapes|broadcast"):
                self.evaluate(tf.constant([1, 2]) + tf.constant([1, 2, 3]))
            theoretical, numerical = tf.test.compute_gradient(lambda a: a * a * 3.0, [tf.constant([1.0, 2.0])])
            outcomes["jacobians"] = [np.round(theoretical[0], 4).tolist(), np.round(numerical[0], 2).tolist()]
    result = unittest.TestResult()
    Checks().run(result)
    outcomes["errors"] = [str(e[1]).splitlines()[-1] for e in result.errors + result.failures]
    return outcomes


def case_math_bessel_functions(tf, env):
    x = tf.constant([-20.0, -3.0, -0.5, 0.0, 0.1, 1.0, 7.5, 14.9, 15.1, 30.0, 100.0], tf.float64)
    out = {}
    for name in ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"):
        fn = getattr(tf.math, name)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        out[name] = [float(f"{v:.11g}") for v in y.numpy().tolist()]
        out[name + "_grad"] = [float(f"{v:.11g}") for v in tape.gradient(tf.reduce_sum(y), x).numpy().tolist()]
    out["float32"] = _values(tf.math.bessel_i0e(tf.constant([1.0, 50.0])), 6)
    out["traced"] = _values(tf.function(lambda v: tf.math.bessel_i1(v))(tf.constant([2.0])), 5)
    return out


def case_io_csv_raw_base64_compressed(tf, env):
    import gzip
    import zlib
    records = ["1,2.5,hello,7", "3,,\"a,b\",8", "5,4.25,\"say \"\"hi\"\"\",9"]
    cases = {
        "csv": lambda: tf.io.decode_csv(records, [[0], [0.0], [""], tf.constant([0], tf.int64)]),
        "csv_defaults": lambda: tf.io.decode_csv(["1,,x,"], [[0], [9.5], ["d"], [4]]),
        "csv_required": lambda: tf.io.decode_csv(["1,,x,4"], [[0], tf.constant([], tf.float32), [""], [0]]),
        "csv_field_count": lambda: tf.io.decode_csv(["1,2"], [[0], [0], [0]]),
        "csv_bad_int": lambda: tf.io.decode_csv(["x,2"], [[0], [0]]),
        "csv_bad_float": lambda: tf.io.decode_csv(["1,abc"], [[0], [0.0]]),
        "csv_delimiter": lambda: tf.io.decode_csv(["1|2"], [[0], [0]], field_delim="|"),
        "csv_no_quotes": lambda: tf.io.decode_csv(['"1",2'], [[""], [0]], use_quote_delim=False),
        "csv_na_value": lambda: tf.io.decode_csv(["NA,2"], [[7], [0]], na_value="NA"),
        "csv_select_cols": lambda: tf.io.decode_csv(["1,2,3,4"], [[0], [0]], select_cols=[1, 3]),
        "csv_scalar": lambda: tf.io.decode_csv("1,2", [[0], [0.0]]),
        "csv_matrix": lambda: tf.io.decode_csv([["1,2", "3,4"]], [[0], [0]]),
        "csv_float_forms": lambda: tf.io.decode_csv(["1e3,-inf,nan, 2"], [[0.0], [0.0], [0.0], [0.0]]),
        "csv_traced": lambda: tf.function(lambda r: tf.io.decode_csv(r, [[0], [0.0]]))(tf.constant(["1,2", "3,4"])),
        "raw": lambda: tf.io.decode_raw(tf.constant([b"\x01\x02\x03\x04", b"\x05\x06\x07\x08"]), tf.int16),
        "raw_big_endian": lambda: tf.io.decode_raw(b"\x01\x02\x03\x04", tf.int16, little_endian=False),
        "raw_fixed_length": lambda: tf.io.decode_raw([b"\x01\x02\x03", b"\x04"], tf.uint8, fixed_length=4),
        "raw_sizes_differ": lambda: tf.io.decode_raw([b"\x01\x02\x03", b"\x04"], tf.int16),
        "base64": lambda: tf.io.encode_base64([b"hello?>", b"\xff\xfe"]),
        "base64_padded": lambda: tf.io.encode_base64([b"hello?>"], pad=True),
        "base64_round_trip": lambda: tf.io.decode_base64(tf.io.encode_base64([b"hello?>", b"\xff\xfe"])),
        "base64_invalid": lambda: tf.io.decode_base64(["@@@"]),
        "zlib": lambda: tf.io.decode_compressed([zlib.compress(b"abc")], compression_type="ZLIB"),
        "gzip": lambda: tf.io.decode_compressed([gzip.compress(b"abc", mtime=0)], compression_type="GZIP"),
        "uncompressed": lambda: tf.io.decode_compressed([b"abc"]),
        "trailing_nul_bytes": lambda: tf.constant([b"ab\x00", b"\x00"]),
    }
    def plain(value):
        return _ragged_plain(tuple(value) if isinstance(value, list) else value)
    return {name: _data_outcome(lambda fn=fn: plain(fn())) for name, fn in cases.items()}


def case_strings_ngrams_and_segment_join(tf, env):
    words = tf.constant(["a", "b", "c", "d"])
    cases = {
        "bigrams": lambda: tf.strings.ngrams(words, 2),
        "trigrams_separator": lambda: tf.strings.ngrams(words, 3, separator="_"),
        "several_widths": lambda: tf.strings.ngrams(words, [1, 3]),
        "padded": lambda: tf.strings.ngrams(words, 3, pad_values="#"),
        "padded_pair_width": lambda: tf.strings.ngrams(words, 3, pad_values=("<", ">"), padding_width=1),
        "short": lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 3),
        "short_preserved": lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 3, preserve_short_sequences=True),
        "batch": lambda: tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2),
        "ragged": lambda: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 2),
        "ragged_padded": lambda: tf.strings.ngrams(tf.ragged.constant([["a", "b"], ["d"], []]), 2, pad_values="*"),
        "segment_join_negative": lambda: tf.strings.unsorted_segment_join(["a", "b", "c", "d"], [1, 0, 1, -1], 3,
                                                                          separator="+"),
        "segment_join": lambda: tf.strings.unsorted_segment_join(["a", "b", "c", "d"], [1, 0, 1, 2], 3, separator="+"),
        "segment_join_rows": lambda: tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"], ["e", "f"]],
                                                                      [0, 1, 0], 2),
        "segment_join_out_of_range": lambda: tf.strings.unsorted_segment_join(["a"], [3], 2),
    }
    return {name: _data_outcome(lambda fn=fn: _ragged_plain(fn())) for name, fn in cases.items()}


def case_autograph_conditional_and_boolean_expressions(tf, env):
    @tf.function
    def choose(x):
        return x * 2 if x > 0 else x - 1

    @tf.function
    def logic(x):
        both = tf.reduce_sum(x) > 0 and tf.reduce_max(x) < 10
        negated = not tf.reduce_min(x) > 0
        either = (tf.reduce_sum(x) < -100) or (tf.reduce_sum(x) > 1)
        return both, negated, either

    @tf.function
    def python_values(x, n):
        k = n or 5
        m = (n and 3) if n is not None else -1
        return x * k + m
    return {"if_expression": [float(choose(tf.constant(v))) for v in (3.0, -3.0)],
            "boolean_ops": [[bool(t) for t in logic(tf.constant(v))] for v in ([1.0, 2.0], [-1.0, 20.0])],
            "python_operands": [float(python_values(tf.constant(2.0), 0)), float(python_values(tf.constant(2.0), 4))]}


def case_linalg_tridiagonal_and_banded(tf, env):
    diagonals = tf.constant([[2.0, 1.0, 3.0, 9.0], [4.0, 5.0, 6.0, 7.0], [9.0, 1.0, 2.0, 3.0]])
    rhs = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    bands = tf.constant([[2.0, 3.0, 4.0, 5.0], [9.0, 1.0, 2.0, 3.0]])
    alpha, beta = tf.constant([1.0, 2.0, 3.0], tf.float64), tf.constant([0.5, 0.25], tf.float64)
    out = {
        "solve": tf.linalg.tridiagonal_solve(diagonals, rhs),
        "solve_vector": tf.linalg.tridiagonal_solve(diagonals, tf.constant([1.0, 2.0, 3.0, 4.0])),
        "solve_sequence": tf.linalg.tridiagonal_solve((diagonals[0], diagonals[1], diagonals[2]), rhs,
                                                      diagonals_format="sequence"),
        "solve_transposed_rhs": tf.linalg.tridiagonal_solve(diagonals, tf.transpose(rhs), transpose_rhs=True),
        "matmul": tf.linalg.tridiagonal_matmul(diagonals, rhs),
        "matmul_batched": tf.linalg.tridiagonal_matmul(tf.stack([diagonals, diagonals * 2]), tf.stack([rhs, rhs])),
        "banded_lower": tf.linalg.banded_triangular_solve(bands, rhs),
        "banded_upper": tf.linalg.banded_triangular_solve(bands, rhs, lower=False),
        "banded_adjoint": tf.linalg.banded_triangular_solve(bands, rhs, adjoint=True),
        "eigh_tridiagonal": tf.linalg.eigh_tridiagonal(alpha, beta),
        "eigh_tridiagonal_indices": tf.linalg.eigh_tridiagonal(alpha, beta, select="i", select_range=[1, 2]),
    }
    out = {name: _values(value, 5) for name, value in out.items()}
    x = tf.identity(diagonals)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(x, rhs) ** 2)
    out["gradient"] = [abs(v) if v == 0 else v for v in np.round(tape.gradient(y, x).numpy(), 5).reshape(-1).tolist()]
    return out



def case_linalg_linear_operators(tf, env):
    L = tf.linalg

    def r(t):
        value = t.numpy()
        return [abs(v) if v == 0 else v for v in np.round(np.asarray(value, np.float64), 4).reshape(-1).tolist()]
    out = {}
    A = tf.constant([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]])
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    full = L.LinearOperatorFullMatrix(A, is_self_adjoint=True, is_positive_definite=True)
    out["full"] = _data_outcome(lambda: [r(full.matmul(x)), r(full.solve(x)), r(full.determinant()), r(full.log_abs_determinant()), r(full.trace()), r(full.diag_part()), list(full.shape), int(full.domain_dimension), full.dtype.name])
    out["full2"] = _data_outcome(lambda: [r(full.matvec(tf.constant([1., 0., 1.]))), r(full.inverse().to_dense()), r(full.cholesky().to_dense()), r(full.eigvals()), r(full.add_to_tensor(tf.ones([3, 3]))), r(full.matmul(x, adjoint_arg=False, adjoint=True))])
    d = L.LinearOperatorDiag(tf.constant([1., 2., 3.]))
    out["diag"] = _data_outcome(lambda: [r(d.to_dense()), r(d.matmul(x)), r(d.solve(x)), r(d.determinant()), d.is_self_adjoint, d.is_square])
    i = L.LinearOperatorIdentity(3, batch_shape=[2])
    out["ident"] = _data_outcome(lambda: [list(i.shape), r(i.to_dense()[1]), r(i.matmul(x))])
    s = L.LinearOperatorScaledIdentity(3, 2.5)
    out["scaled"] = _data_outcome(lambda: [r(s.to_dense()), r(s.determinant())])
    t = L.LinearOperatorLowerTriangular(A)
    out["tril"] = _data_outcome(lambda: [r(t.to_dense()), r(t.solve(x)), r(t.log_abs_determinant())])
    z = L.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False)
    out["zeros"] = _data_outcome(lambda: [r(z.to_dense()), z.is_square])
    c = L.LinearOperatorComposition([d, full])
    out["comp"] = _data_outcome(lambda: [r(c.to_dense()), r(c.matmul(x)), c.name])
    out["adjoint"] = _data_outcome(lambda: r(L.LinearOperatorAdjoint(L.LinearOperatorFullMatrix([[1., 2.], [3., 4.]])).to_dense()))
    out["inversion"] = _data_outcome(lambda: [r(L.LinearOperatorInversion(full).to_dense()), r(L.LinearOperatorInversion(full).matmul(x))])
    k = L.LinearOperatorKronecker([L.LinearOperatorFullMatrix([[1., 2.], [3., 4.]]), L.LinearOperatorFullMatrix([[0., 1.], [1., 0.]])])
    out["kron"] = _data_outcome(lambda: [r(k.to_dense()), list(k.shape)])
    b = L.LinearOperatorBlockDiag([L.LinearOperatorFullMatrix([[1., 2.], [3., 4.]]), L.LinearOperatorDiag([5.])])
    out["blockdiag"] = _data_outcome(lambda: r(b.to_dense()))
    bl = L.LinearOperatorBlockLowerTriangular([[L.LinearOperatorFullMatrix([[1., 2.], [3., 4.]])], [L.LinearOperatorFullMatrix([[5., 6.]]), L.LinearOperatorDiag([7.])]])
    out["blocklower"] = _data_outcome(lambda: r(bl.to_dense()))
    h = L.LinearOperatorHouseholder([1., 1., 0.])
    out["householder"] = _data_outcome(lambda: [r(h.to_dense()), r(h.determinant())])
    lr = L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag([1., 2., 3.]), u=[[1.], [0.], [1.]], diag_update=[2.])
    out["lowrank"] = _data_outcome(lambda: r(lr.to_dense()))
    p = L.LinearOperatorPermutation([2, 0, 1])
    out["perm"] = _data_outcome(lambda: [r(p.to_dense()), r(p.matvec([10., 20., 30.]))])
    tp = L.LinearOperatorToeplitz(col=[1., 2., 3.], row=[1., 4., 5.])
    out["toeplitz"] = _data_outcome(lambda: r(tp.to_dense()))
    tri = L.LinearOperatorTridiag(tf.constant([[2., 1., 0.], [4., 5., 6.], [0., 1., 2.]]))
    out["tridiag"] = _data_outcome(lambda: r(tri.to_dense()))
    circ = L.LinearOperatorCirculant(tf.constant(np.array([6., -2. + 2j, -2., -2. - 2j], np.complex64)), input_output_dtype=tf.float32)
    out["circ"] = _data_outcome(lambda: r(circ.to_dense()))
    out["compose_op"] = _data_outcome(lambda: r((d @ full).to_dense()))
    out["errors"] = _data_outcome(lambda: L.LinearOperatorIdentity(2, is_non_singular=False))
    return out


def case_debugging_assert_shapes(tf, env):
    x, y, p = tf.zeros([10, 3]), tf.ones([10, 7]), tf.Variable([1.0, 2.0, 3.0])
    check = tf.debugging.assert_shapes
    calls = {
        "holds": lambda: check([(x, ("N", "Q")), (y, ("N", "D")), (p, ("Q",)), (1.0, ())]),
        "rank": lambda: check([(p, ("N", "Q"))]),
        "symbol": lambda: check([(x, ("N", "D")), (y, ("N", "D"))]),
        "explicit": lambda: check([(x, (10, 4))], message="hey: "),
        "outer_star": lambda: check([(x, ("*", 3))]),
        "outer_star_rank": lambda: check([(p, ("*", "A", 3))]),
        "outer_ellipsis": lambda: check([(tf.zeros([2, 5, 3]), (..., "Q")), (x, ("N", "Q"))]),
        "any_size": lambda: check([(x, (".", None))]),
        "scalar_shape": lambda: check([(tf.zeros([1]), ())]),
        "scalar_shape_fails": lambda: check([(tf.zeros([2]), ())]),
    }
    out = {name: _raised(call) for name, call in calls.items()}

    def traced(spec):
        def body(a):
            result = tf.debugging.assert_shapes([(a, spec)])
            return tf.identity(a) if result is None else a
        return _raised(lambda: tf.function(body)(x))
    out["traced_holds"], out["traced_fails"] = traced(("N", 3)), traced(("N", 4))
    out["traced_fails"][1] = out["traced_fails"][1].split("ValueError: ")[-1].strip()  # TF adds AutoGraph's frame

    def dynamic(a, b):
        tf.debugging.assert_shapes([(a, ("N",)), (b, ("N",))])
        return a
    f = tf.function(dynamic, input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None])])
    out["run_time_holds"] = f(tf.zeros([3]), tf.zeros([3])).numpy().tolist()
    try:
        f(tf.zeros([3]), tf.zeros([4]))
    except tf.errors.InvalidArgumentError as error:
        out["run_time_fails"] = _graph_failure(error.message)
    return out


def case_lookup_static_vocabulary_table(tf, env):
    init = tf.lookup.KeyValueTensorInitializer(["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    words = tf.constant(["emerson", "lake", "palmer", "king", "crimson", ""])
    ints = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 3)
    out = {"eager": table.lookup(words).numpy().tolist(), "size": int(table.size()),
           "dtypes": [table.key_dtype.name, table.value_dtype.name],
           "int_keys": ints.lookup(tf.constant([10, 20, 30, 31, 7], tf.int64)).numpy().tolist(),
           "traced": tf.function(lambda k: table.lookup(k))(tf.constant([["lake", "zzz"]])).numpy().tolist()}
    out["errors"] = [_raised(lambda: tf.lookup.StaticVocabularyTable(init, num_oov_buckets=0)),
                     _raised(lambda: tf.lookup.StaticVocabularyTable(
                         tf.lookup.KeyValueTensorInitializer(["a"], tf.constant([0], tf.int32)), 2)),
                     _raised(lambda: table.lookup(tf.constant([1])))]
    return out


def case_image_patches_crops_and_nms(tf, env):
    rng = np.random.default_rng(0)
    img = tf.constant(rng.random((2, 6, 7, 3), dtype=np.float32))
    out = {}
    for pad in ["VALID", "SAME"]:
        for k, s, r in [((1, 2, 2, 1), (1, 2, 2, 1), (1, 1, 1, 1)), ((1, 3, 2, 1), (1, 1, 3, 1), (1, 2, 1, 1))]:
            p = tf.image.extract_patches(img, k, s, r, pad)
            out[f"patches_{pad}_{k[1]}{k[2]}"] = [list(p.shape), p.numpy().round(5).tolist()]
    traced = tf.function(lambda x: tf.image.extract_patches(x, (1, 3, 3, 1), (1, 2, 2, 1), (1, 1, 1, 1), "SAME"))
    out["patches_traced"] = traced(img).numpy().round(5).tolist()
    out["resize_with_pad"] = tf.image.resize_with_pad(img, 5, 9).numpy().round(5).tolist()
    out["resize_with_pad_nearest"] = tf.image.resize_with_pad(img[0], 10, 4, method="nearest").numpy().round(5).tolist()
    boxes = tf.constant([[0.1, 0.2, 0.7, 0.9], [0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.2, 0.1], [-0.2, 0.1, 1.3, 0.5]])
    out["crop_and_resize"] = tf.image.crop_and_resize(img, boxes, [0, 1, 1, 0], [3, 4]).numpy().round(5).tolist()
    out["crop_nearest"] = tf.image.crop_and_resize(img, boxes, [0, 1, 1, 0], [2, 5], method="nearest",
                                                   extrapolation_value=-1.0).numpy().round(5).tolist()
    out["crop_1x1"] = tf.image.crop_and_resize(img, boxes[:2], [0, 1], [1, 1]).numpy().round(5).tolist()
    crop = tf.function(lambda x, b: tf.image.crop_and_resize(x, b, [1, 0, 0, 1], [2, 2]))
    out["crop_traced"] = crop(img, boxes).numpy().round(5).tolist()
    b = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                     [0, 100, 1, 101], [1, 1, 0, 0]], tf.float32)
    sc = tf.constant([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.9])
    out["nms"] = tf.image.non_max_suppression(b, sc, 5, 0.5).numpy().tolist()
    out["nms_threshold"] = tf.image.non_max_suppression(b, sc, 10, 0.5, score_threshold=0.55).numpy().tolist()
    out["nms_ties"] = tf.image.non_max_suppression(b, tf.ones([7]), 10, 0.3).numpy().tolist()
    indices, scores = tf.image.non_max_suppression_with_scores(b, sc, 6, 1.0, soft_nms_sigma=0.5)
    out["soft_nms"] = [indices.numpy().tolist(), scores.numpy().round(6).tolist()]
    out["nms_traced"] = tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 3))(b, sc).numpy().tolist()
    x = tf.Variable(img)
    with tf.GradientTape() as tape:
        y = (tf.reduce_sum(tf.image.crop_and_resize(x, boxes, [0, 1, 1, 0], [3, 4]) ** 2)
             + tf.reduce_sum(tf.image.extract_patches(x, (1, 2, 2, 1), (1, 1, 1, 1), (1, 1, 1, 1), "SAME") ** 2))
    out["gradient"] = tape.gradient(y, x).numpy().round(4).tolist()
    out["errors"] = [_raised(lambda: tf.image.non_max_suppression(b, sc, -1)),
                     _raised(lambda: tf.image.extract_patches(img, (1, 2, 2, 1), (1, 1, 1, 1), (1, 1, 1, 1), "FULL"))]
    for error in out["errors"]:  # the kernel's text, without TF's node prefix and op suffix
        error[1] = error[1].splitlines()[0].split("}} ")[-1].split(" [Op:")[0].split("\n")[0]
    return out


def _plain_data(x):
    """An element as plain JSON values (strings decoded)."""
    if isinstance(x, dict):
        return {k: _plain_data(v) for k, v in sorted(x.items())}
    if isinstance(x, (tuple, list)):
        return [_plain_data(v) for v in x]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype == object:
        items = [v.decode() if isinstance(v, bytes) else v for v in a.reshape(-1).tolist()]
        return items[0] if a.ndim == 0 else items
    value = a.tolist()
    return value.decode() if isinstance(value, bytes) else value


def case_data_csv_sql_reducers_tables(tf, env):
    import os
    import sqlite3
    import tempfile
    folder = tempfile.mkdtemp()
    csv_path = os.path.join(folder, "f1.csv")
    with open(csv_path, "w") as f:
        f.write('a,b,c\n1,2.5,x\n3,,y\n"5",6.0,"z,w"\n')
    data, out = tf.data, {}
    out["csv"] = [_plain_data(e) for e in data.experimental.CsvDataset(csv_path, [tf.int32, tf.constant(-1.0),
                                                                                  tf.string], header=True)]
    out["csv_select"] = [_plain_data(e) for e in data.experimental.CsvDataset(csv_path, [0, 0.0], header=True,
                                                                              select_cols=[0, 1])]
    try:
        out["csv_missing"] = [_plain_data(e) for e in data.experimental.CsvDataset(
            csv_path, [tf.int32, tf.float32, tf.string], header=True)]
    except tf.errors.InvalidArgumentError as error:
        out["csv_missing"] = error.message.split("}} ")[-1].split(" [Op:")[0]
    out["make_csv"] = [_plain_data(e) for e in data.experimental.make_csv_dataset(
        csv_path, batch_size=2, shuffle=False, num_epochs=1, column_defaults=[0, 0.0, "?"])]
    out["make_csv_inferred"] = [_plain_data(e) for e in data.experimental.make_csv_dataset(
        csv_path, batch_size=3, shuffle=False, num_epochs=1)]
    out["make_csv_label"] = [_plain_data(e) for e in data.experimental.make_csv_dataset(
        csv_path, batch_size=3, shuffle=False, num_epochs=1, label_name="a", select_columns=["a", "b"],
        column_defaults=[0, 0.0])]
    reducer = data.experimental.Reducer(lambda k: tf.constant(0, tf.int64), lambda s, x: s + x, lambda s: s)
    out["group_by_reducer"] = sorted(_plain_data(e) for e in data.Dataset.range(10).apply(
        data.experimental.group_by_reducer(lambda x: x % 3, reducer)))
    out["pad_to_cardinality"] = [_plain_data(e) for e in data.Dataset.from_tensor_slices({"x": [1, 2]}).apply(
        data.experimental.pad_to_cardinality(4))]
    pairs = data.Dataset.from_tensor_slices((tf.constant(["a", "b"]), tf.constant([7, 8], tf.int64)))
    out["table_from_dataset"] = _plain_data(data.experimental.table_from_dataset(pairs, default_value=-1).lookup(
        tf.constant(["b", "a", "q"])))
    vocabulary = data.Dataset.from_tensor_slices(tf.constant(["x", "y", "z"]))
    out["index_table"] = _plain_data(data.experimental.index_table_from_dataset(vocabulary, num_oov_buckets=2).lookup(
        tf.constant(["z", "x", "nope"])))
    database = os.path.join(folder, "t.db")
    connection = sqlite3.connect(database)
    connection.execute("create table t (n integer, s text, f real)")
    connection.executemany("insert into t values (?,?,?)", [(1, "a", 0.5), (2, "b", 1.5)])
    connection.commit()
    connection.close()
    out["sql"] = [_plain_data(e) for e in data.experimental.SqlDataset(
        "sqlite", database, "select n, s, f from t order by n", (tf.int32, tf.string, tf.float64))]
    out["sql_one_column"] = [_plain_data(e) for e in data.experimental.SqlDataset(
        "sqlite", database, "select s from t order by n", tf.string)]
    optional = data.experimental.get_next_as_optional(iter(data.Dataset.range(2)))
    out["get_next_as_optional"] = [bool(optional.has_value()), int(optional.get_value())]
    numpy_iterator = data.Dataset.range(2).as_numpy_iterator()
    out["numpy_iterator"] = [type(numpy_iterator).__name__, isinstance(numpy_iterator, data.NumpyIterator),
                             [int(v) for v in numpy_iterator]]
    out["optional_alias"] = data.experimental.Optional is tf.experimental.Optional
    out["empty_string_constant"] = list(tf.constant([], dtype=tf.string).shape)
    return out


def _sparse_plain(s):
    return {"indices": s.indices.numpy().tolist(), "values": s.values.numpy().tolist(),
            "shape": s.dense_shape.numpy().tolist()}


def case_sparse_eye_fill_slice_split_softmax(tf, env):
    out = {"eye": _sparse_plain(tf.sparse.eye(3, 4)),
           "eye_int": [_sparse_plain(tf.sparse.eye(2, dtype=tf.int32)), tf.sparse.eye(2, dtype=tf.int32).dtype.name]}
    a = tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.0, 2.0, 3.0], [4, 5])
    filled, empty = tf.sparse.fill_empty_rows(a, -1.0)
    out["fill_empty_rows"] = [_sparse_plain(filled), empty.numpy().tolist()]
    out["reset_shape"] = _sparse_plain(tf.sparse.reset_shape(a))
    out["reset_shape_new"] = _sparse_plain(tf.sparse.reset_shape(a, [5, 6]))
    out["reset_shape_small"] = _raised(lambda: tf.sparse.reset_shape(a, [2, 2]))[0]
    out["slice"] = _sparse_plain(tf.sparse.slice(a, [1, 0], [3, 2]))
    out["slice_past"] = _sparse_plain(tf.sparse.slice(a, [2, 3], [5, 5]))
    b = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 4]], [1.0, 2.0, 3.0, 0.5, 0.5, 2.0], [3, 5])
    out["softmax"] = tf.sparse.softmax(b).values.numpy().round(6).tolist()
    out["split"] = [_sparse_plain(s) for s in tf.sparse.split(sp_input=b, num_split=2, axis=1)]
    out["split0"] = [_sparse_plain(s) for s in tf.sparse.split(sp_input=b, num_split=3, axis=0)]
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], tf.constant([0, 3, 2, 1], tf.int64), [3, 4])
    out["to_indicator"] = tf.sparse.to_indicator(ids, 4).numpy().tolist()
    masked = tf.sparse.mask(tf.IndexedSlices(tf.constant([[1.0], [2.0], [3.0]]), tf.constant([0, 4, 7]),
                                             tf.constant([10, 1])), tf.constant([4]))
    out["mask"] = [masked.values.numpy().tolist(), masked.indices.numpy().tolist()]
    return out


def _ragged_with_dtypes(r):
    return {"values": r.values.numpy().tolist(), "splits": r.row_splits.numpy().tolist(), "dtype": r.dtype.name,
            "splits_dtype": r.row_splits.dtype.name}


def case_ragged_range_mask_stack_cross(tf, env):
    out = {"range": _ragged_with_dtypes(tf.ragged.range([0, 5, 8], [3, 3, 12], [1, -1, 2])),
           "range_limits_only": _ragged_with_dtypes(tf.ragged.range([2, 0, 4])),
           "range_float": _ragged_with_dtypes(tf.ragged.range([0.5, 1.0], [2.0, 2.0], 0.5)),
           "splits_to_ids": tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]).numpy().tolist(),
           "splits_to_ids_dtype": tf.ragged.row_splits_to_segment_ids(tf.constant([0, 1, 3], tf.int32)).dtype.name,
           "ids_to_splits": tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2], num_segments=4).numpy().tolist(),
           "ids_to_splits_default": tf.ragged.segment_ids_to_row_splits([0, 1, 1]).numpy().tolist()}
    out["boolean_mask"] = _ragged_with_dtypes(tf.ragged.boolean_mask(
        tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant([[True, False, True], [False, False, True]])))
    out["boolean_mask_1d"] = tf.ragged.boolean_mask(tf.constant([1, 2, 3]), tf.constant([True, False, True])).numpy().tolist()
    out["stack"] = _ragged_with_dtypes(tf.ragged.stack([tf.constant([1, 2]), tf.constant([3]), tf.constant([4, 5, 6])]))
    out["stack_dynamic_partitions"] = _ragged_with_dtypes(tf.ragged.stack_dynamic_partitions(
        tf.constant([10, 20, 30, 40, 50]), tf.constant([1, 0, 1, 3, 1]), 4))
    x, y = tf.ragged.constant([["a", "b"], ["c"]]), tf.ragged.constant([["d"], ["e", "f"]])
    out["cross"] = [[v.decode() for v in row] for row in tf.ragged.cross([x, y]).to_list()]
    out["cross_hashed"] = tf.ragged.cross_hashed([x, y], num_buckets=10).to_list()
    out["to_list_after_range"] = tf.ragged.range([3, 1]).to_list()
    return out


def case_second_derivatives_through_gradient_ops(tf, env):
    """Hessian-vector products whose first gradients are pools, slices, concats and top_k (their gradient ops
    differentiated again), eagerly and traced."""
    rng = np.random.RandomState(3)
    x4 = tf.constant(rng.rand(1, 4, 4, 2))
    x5 = tf.constant(rng.rand(1, 3, 3, 2, 1).astype(np.float32))
    v = tf.constant(rng.rand(6))

    def hvp(fn, x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(fn(x) ** 2)
            g = inner.gradient(y, x)
            gv = tf.reduce_sum(g * tf.cast(tf.reshape(tf.range(tf.size(x)), tf.shape(x)), x.dtype))
        return outer.gradient(gv, x)

    programs = {
        "max_pool2d": (lambda x: tf.nn.max_pool2d(x, 2, 1, "SAME"), x4),
        "max_pool2d_tiled": (lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), x4),
        "max_pool3d": (lambda x: tf.nn.max_pool3d(x, 2, 1, "SAME"), x5),
        "avg_pool3d": (lambda x: tf.nn.avg_pool3d(x, 2, 1, "VALID"), x5),
        "strided_slice": (lambda x: x[1:4:2] * x[0], v),
        "concat": (lambda x: tf.concat([x[:2], x * x], 0), v),
        "top_k": (lambda x: tf.math.top_k(tf.reshape(x, [2, 3]), 2).values * 3.0, v),
        "batch_gather": (lambda x: tf.gather(tf.reshape(x, [2, 3]), [[2, 0], [1, 1]], batch_dims=1) ** 3, v),
        "cumulative_logsumexp": (lambda x: tf.math.cumulative_logsumexp(x, reverse=True) * (x - 0.5), v),
        "softmax_xent": (lambda x: tf.nn.softmax_cross_entropy_with_logits(
            tf.constant([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], tf.float64), tf.reshape(x, [2, 3])), v),
        "cholesky": (lambda x: tf.linalg.cholesky(tf.reshape(x, [2, 3])[:, :2] @ tf.transpose(
            tf.reshape(x, [2, 3])[:, :2]) + tf.eye(2, dtype=tf.float64)), v),
    }
    refused = {}
    for name, fn in {"sparse_xent": lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
            tf.constant([1, 2]), tf.reshape(x, [2, 3]))}.items():
        try:
            hvp(fn, v)
            refused[name] = None
        except LookupError as error:
            refused[name] = ["LookupError", str(error).split("\n")[0]]
    out = {"refused": refused}
    for name, (fn, x) in programs.items():
        out[name] = np.round(hvp(fn, x).numpy(), 5).ravel().tolist()
        traced = tf.function(lambda x, fn=fn: hvp(fn, x))(x)
        out[name + "_traced"] = np.round(traced.numpy(), 5).ravel().tolist()
    return out


def case_py_function_gradients(tf, env):
    """tf.py_function's gradients eagerly and traced: first order to its inputs; a second derivative, and the
    gradient of a variable the function reads without taking it as an input, are None (the body runs as one op)."""
    x = tf.constant(2.0)
    w = tf.Variable(3.0)

    def f(v):
        return tf.py_function(lambda a: a * a * w, [v], tf.float32)

    def grads(x):   # (one gradient per tape: TF's py_function gives its recorded tape to the first one only)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        with tf.GradientTape() as tape:
            y = f(x)
        return g, outer.gradient(g, x), tape.gradient(y, w)

    def shown(values):
        return [None if v is None else round(float(v.numpy()), 5) for v in values]
    return {"eager": shown(grads(x)), "traced": shown(tf.function(grads)(x))}


def case_arguments_that_were_ignored(tf, env):
    """Arguments placeflow accepted and ignored before (found by scanning for unused parameters): each now does what
    TF does with it or raises TF's class."""
    def outcome(fn):
        try:
            value = fn()
        except Exception as error:  # noqa: BLE001 - the class is the result
            return type(error).__name__
        return value.numpy().tolist() if hasattr(value, "numpy") else value

    z = tf.constant([[1 + 2j, 3j]], tf.complex64)
    ragged = tf.ragged.constant([[1, 2], [3]])
    out = {f"alg_{alg}": outcome(lambda alg=alg: tf.random.stateless_uniform([2], [1, 2], alg=alg))
           for alg in ("philox", "auto_select", "threefry", "bogus")}
    out["alg_split_threefry"] = outcome(lambda: tf.random.experimental.stateless_split([1, 2], alg="threefry"))
    out["transpose_conjugate"] = [[str(v) for v in row] for row in
                                  tf.linalg.matrix_transpose(z, conjugate=True).numpy().tolist()]
    out["transpose_plain"] = [[str(v) for v in row] for row in tf.linalg.matrix_transpose(z).numpy().tolist()]
    words = tf.constant(["straße É", "ÀB c"])
    out["upper_ascii"] = [w.decode() for w in tf.strings.upper(words).numpy()]
    out["upper_utf8"] = [w.decode() for w in tf.strings.upper(words, encoding="utf-8").numpy()]
    out["lower_ascii"] = [w.decode() for w in tf.strings.lower(words).numpy()]
    out["lower_utf8"] = [w.decode() for w in tf.strings.lower(words, encoding="utf-8").numpy()]
    out["lower_latin1"] = outcome(lambda: tf.strings.lower(words, encoding="latin1"))
    out["lower_traced"] = [w.decode() for w in tf.function(lambda s: tf.strings.lower(s))(words).numpy()]
    out["ragged_constant_int32"] = tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32).row_splits.dtype.name
    out["ragged_from_tensor_int32"] = tf.RaggedTensor.from_tensor(
        [[1, 2], [3, 4]], row_splits_dtype=tf.int32).row_splits.dtype.name
    out["from_row_splits_list"] = tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 3]).row_splits.dtype.name
    out["row_lengths"] = {axis: outcome(lambda axis=axis: ragged.row_lengths(axis=axis)) for axis in (0, 1, -1, -2, 2)}
    out["assert_equal_eager"] = repr(tf.debugging.assert_equal(1, 1))
    return out


def case_signatures_as_tensorflow(tf, env):
    """Arguments TF's signatures have that placeflow lacked (found by comparing every implemented function's
    parameters with TF's recorded signature): strided_slice's begin/end/strides and masks, diag offsets, TF's
    keyword names; eagerly and traced."""
    def outcome(fn):
        try:
            value = fn()
        except Exception as error:  # noqa: BLE001 - the class is the result
            return type(error).__name__
        return value.numpy().tolist() if hasattr(value, "numpy") else value

    m = tf.reshape(tf.range(12.0), [3, 4])
    d = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    calls = {
        "strided_plain": lambda: tf.strided_slice(m, [0, 1], [2, 3]),
        "strided_steps_begin_mask": lambda: tf.strided_slice(m, [0, 1], [3, 4], [2, 2], begin_mask=1),
        "strided_shrink": lambda: tf.strided_slice(m, [1, 0], [2, 4], [1, 1], shrink_axis_mask=1),
        "strided_end_mask_negative": lambda: tf.strided_slice(m, [-1, 3], [0, 0], [-1, -1], end_mask=3),
        "strided_new_axis": lambda: tf.strided_slice(m, [0, 0], [1, 2], [1, 1], new_axis_mask=1),
        "strided_ellipsis": lambda: tf.strided_slice(m, [0, 1], [1, 3], [1, 1], ellipsis_mask=1),
        "diag_k1": lambda: tf.linalg.diag(d, k=1),
        "diag_km1_padding": lambda: tf.linalg.diag(d, k=-1, padding_value=9),
        "diag_part_k1": lambda: tf.linalg.diag_part(m, k=1),
        "diag_part_km2": lambda: tf.linalg.diag_part(m, k=-2),
        "diag_bad_align": lambda: tf.linalg.diag(d, align="X"),
        "identity_input": lambda: tf.identity(input=d),
        "to_number_input": lambda: tf.strings.to_number(input=["1.5", "2"]),
        "to_hash_bucket_input": lambda: tf.strings.to_hash_bucket(input=["a", "b"], num_buckets=7),
        "l2_normalize_dim": lambda: tf.math.l2_normalize([3.0, 4.0], dim=0),
        "gather_nd_policy_default": lambda: tf.gather_nd([[1, 2]], [[0, 1]], bad_indices_policy=""),
    }
    out = {name: outcome(fn) for name, fn in calls.items()}
    for name in ("strided_plain", "strided_shrink", "strided_end_mask_negative", "diag_k1", "diag_part_km2"):
        out[name + "_traced"] = outcome(tf.function(calls[name]))
    return out
