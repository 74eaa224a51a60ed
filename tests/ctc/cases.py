"""CTC cases run by TensorFlow 2.21 (record_tf_ctc.py) and placeflow (test_ctc.py): each `case_<name>(tf)` returns
JSON-able results: values rounded, dtypes, shapes, or [error class, first line of the message]."""

import math

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error

RNG = np.random.RandomState(7)
LOGITS = RNG.randn(6, 3, 5).astype(np.float32)          # [frames, batch, classes]
BIG = RNG.randn(8, 2, 6).astype(np.float32)
DENSE = np.array([[1, 2, 2], [3, 3, 0], [4, 0, 0]], np.int32)


def values(x, tol=None):
    """A tensor's (or array's) values rounded to 6 decimals, inf as a string; with its dtype and shape (and the
    tolerance to compare them with, where TensorFlow's float32 arithmetic needs a looser one than 1e-5)."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    flat = [("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else
            ("nan" if isinstance(v, float) and math.isnan(v) else v)
            for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}
    return out if tol is None else dict(out, tol=tol)


def sparse(st):
    """A SparseTensor's indices, values and dense shape as lists."""
    return [st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()]


def sp(tf, rows, dtype="int32"):
    """SparseTensor labels with one row per example."""
    idx = [[b, i] for b, row in enumerate(rows) for i in range(len(row))]
    vals = [v for row in rows for v in row]
    return tf.SparseTensor(tf.constant(np.array(idx, np.int64).reshape(-1, 2)), tf.constant(np.array(vals, dtype)),
                           [len(rows), max(1, max(len(r) for r in rows))])


def loss_and_grad(tf, fn, logits=LOGITS):
    """(loss, d sum(loss * weights) / d logits) under a GradientTape."""
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = fn(x)
        total = tf.reduce_sum(loss * tf.constant(np.arange(1, loss.shape[0] + 1, dtype=np.float32)))
    return loss, tape.gradient(total, x)


def case_dense_time_major(tf):
    loss, grad = loss_and_grad(tf, lambda x: tf.nn.ctc_loss(DENSE, x, [3, 2, 0], [6, 5, 4]))
    return [values(loss), values(grad)]


def case_dense_batch_major(tf):
    logits = LOGITS.transpose(1, 0, 2)
    loss, grad = loss_and_grad(tf, lambda x: tf.nn.ctc_loss(DENSE, x, [3, 2, 1], [6, 6, 3], logits_time_major=False),
                               logits)
    return [values(loss), values(grad)]


def case_dense_too_short(tf):
    """logit_length shorter than the labels with their blanks: TF's dense loss is a large finite value."""
    loss, grad = loss_and_grad(tf, lambda x: tf.nn.ctc_loss(DENSE, x, [3, 2, 1], [3, 3, 1]))
    g = grad.numpy()
    # the unreachable example's gradient comes from float32 arithmetic at TF's log(1e-307) scale: within 1e-3
    return [values(loss), values(g[:, 2]), values(g[:, 0], 1e-3), values(g[:, 1], 1e-3)]


def case_dense_blank_index(tf):
    out = [values(tf.nn.ctc_loss(DENSE, LOGITS, [3, 2, 1], [6, 5, 4], blank_index=b)) for b in (4, -1, 2, -3)]
    loss, grad = loss_and_grad(tf, lambda x: tf.nn.ctc_loss(DENSE, x, [3, 2, 1], [6, 5, 4], blank_index=2))
    return out + [values(grad)]


def case_dense_lengths_beyond(tf):
    """logit_length past the frames and label_length past the labels, as TF's masks read them."""
    return values(tf.nn.ctc_loss(DENSE, LOGITS, [3, 2, 4], [6, 9, 4]))


def case_dense_int64_and_half(tf):
    a = tf.nn.ctc_loss(tf.constant(DENSE, tf.int64), LOGITS, tf.constant([3, 2, 1], tf.int64),
                       tf.constant([6, 5, 4], tf.int64))
    b = tf.nn.ctc_loss(DENSE, tf.cast(LOGITS, tf.float16), [3, 2, 1], [6, 5, 4])
    return [values(a), values(b, 1e-2)]


def case_sparse_labels(tf):
    labels = sp(tf, [[1, 2, 2], [3, 3], [4]])
    out = [values(tf.nn.ctc_loss(labels, LOGITS, None, [6, 5, 4], blank_index=b)) for b in (0, 4, -1, 2)]
    loss, grad = loss_and_grad(tf, lambda x: tf.nn.ctc_loss(labels, x, None, [6, 5, 4], blank_index=0))
    return out + [values(grad)]


def case_sparse_batch_major_and_unreachable(tf):
    labels = sp(tf, [[1, 2, 2], [3, 3], [4]])
    a = tf.nn.ctc_loss(labels, LOGITS.transpose(1, 0, 2), None, [6, 5, 4], logits_time_major=False, blank_index=0)
    loss, grad = loss_and_grad(tf, lambda x: tf.nn.ctc_loss(labels, x, None, [6, 3, 4], blank_index=0))
    return [values(a), values(loss), values(grad)]


def case_v1_ctc_loss(tf):
    v1 = tf.compat.v1.nn.ctc_loss
    labels = sp(tf, [[0, 1, 1], [2, 2], [3]])
    out = [values(v1(labels, LOGITS, [6, 5, 4])),
           values(v1(labels, LOGITS, [6, 3, 4], ctc_merge_repeated=False)),
           values(v1(labels, LOGITS, [6, 3, 4], preprocess_collapse_repeated=True)),
           values(v1(labels, LOGITS.transpose(1, 0, 2), [6, 5, 4], time_major=False)),
           values(v1(labels, tf.constant(LOGITS.astype(np.float64)), [6, 5, 4])),
           values(v1(sp(tf, [[0, 4], [2, 9], [3]]), LOGITS, [6, 5, 4]))]
    loss, grad = loss_and_grad(tf, lambda x: v1(labels, x, [6, 2, 4], ignore_longer_outputs_than_inputs=True))
    longer, longer_grad = loss_and_grad(tf, lambda x: v1(labels, x, [2, 5, 4], ignore_longer_outputs_than_inputs=True))
    return out + [values(loss), values(grad), values(longer), values(longer_grad)]


def case_in_function(tf):
    labels = sp(tf, [[1, 2, 2], [3, 3], [4]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            dense = tf.nn.ctc_loss(DENSE, x, [3, 2, 1], [6, 5, 4])
            sparse_loss = tf.nn.ctc_loss(labels, x, None, [6, 5, 4], blank_index=0)
            total = tf.reduce_sum(dense) + tf.reduce_sum(sparse_loss)
        decoded, log_probs = tf.nn.ctc_greedy_decoder(x, [6, 5, 4])
        return dense, sparse_loss, tape.gradient(total, x), decoded[0].indices, decoded[0].values, log_probs

    dense, sparse_loss, grad, indices, decoded, log_probs = step(tf.constant(LOGITS))
    return [values(dense), values(sparse_loss), values(grad), indices.numpy().tolist(), decoded.numpy().tolist(),
            values(log_probs)]


def case_greedy_decoder(tf):
    out = []
    for kwargs in ({}, {"merge_repeated": False}, {"blank_index": 0}, {"blank_index": -2, "merge_repeated": False}):
        decoded, log_probs = tf.nn.ctc_greedy_decoder(LOGITS, [6, 4, 0], **kwargs)
        out.append([sparse(decoded[0]), values(log_probs)])
    decoded, log_probs = tf.nn.ctc_greedy_decoder(tf.constant(BIG.astype(np.float64)), [8, 5])
    return out + [[sparse(decoded[0]), values(log_probs)]]


def case_beam_search_decoder(tf):
    out = []
    for inputs, lengths, width, paths in ((LOGITS, [6, 4, 2], 4, 3), (LOGITS, [6, 4, 2], 1, 1),
                                          (BIG, [8, 7], 10, 4), (BIG, [8, 7], 100, 1), (BIG * 3, [8, 0], 5, 1)):
        decoded, log_probs = tf.nn.ctc_beam_search_decoder(inputs, lengths, beam_width=width, top_paths=paths)
        out.append([[sparse(d) for d in decoded], values(log_probs)])
    decoded, log_probs = tf.compat.v1.nn.ctc_beam_search_decoder(BIG, [8, 6], beam_width=6, top_paths=3)
    return out + [[[sparse(d) for d in decoded], values(log_probs)]]


def _keras_data():
    rng = np.random.RandomState(3)
    y_pred = rng.rand(2, 6, 5).astype(np.float32)
    y_pred /= y_pred.sum(-1, keepdims=True)
    return np.array([[1, 2, 0], [3, 3, 4]], np.int32), y_pred


def case_keras_ctc(tf):
    keras = tf.keras
    y_true, y_pred = _keras_data()
    loss = keras.losses.CTC()(y_true, y_pred)
    per_example = keras.ops.ctc_loss(y_true, y_pred, np.array([2, 3]), np.array([6, 5]), mask_index=0)
    greedy, greedy_scores = keras.ops.ctc_decode(y_pred, np.array([6, 4]), strategy="greedy")
    beam, beam_scores = keras.ops.ctc_decode(y_pred, np.array([6, 4]), strategy="beam_search", beam_width=4,
                                             top_paths=2)
    return [values(loss), values(per_example), np.asarray(greedy).tolist(), values(greedy_scores),
            np.asarray(beam).tolist(), values(beam_scores)]


def case_keras_fit_step(tf):
    keras = tf.keras
    y_true, _ = _keras_data()
    x = np.random.RandomState(5).rand(2, 6, 4).astype(np.float32)
    model = keras.Sequential([keras.Input((6, 4)), keras.layers.Dense(
        5, activation="softmax", kernel_initializer=keras.initializers.Constant(
            np.linspace(-1, 1, 20).reshape(4, 5)), bias_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.CTC())
    history = model.fit(x, y_true, batch_size=2, epochs=2, verbose=0, shuffle=False)
    return [round(v, 5) for v in history.history["loss"]] + [values(model.layers[0].kernel)]


def case_bad_inputs(tf):
    labels = sp(tf, [[1, 2], [3], [4]])
    return [
        error(lambda: tf.nn.ctc_loss(labels, LOGITS, None, [6, 5, 4])),
        error(lambda: tf.nn.ctc_loss(labels, LOGITS, None, [7, 5, 4], blank_index=0)),
        error(lambda: tf.nn.ctc_loss(labels, LOGITS, None, [6, 5], blank_index=0)),
        error(lambda: tf.nn.ctc_loss(sp(tf, [[1, 2], [], [4]]), LOGITS, None, [6, 5, 4], blank_index=0)),
        error(lambda: tf.nn.ctc_loss(labels, LOGITS, None, [1, 5, 4], blank_index=4)),
        error(lambda: tf.compat.v1.nn.ctc_loss(sp(tf, [[0, -1], [1], [2]]), LOGITS, [6, 5, 4])),
        error(lambda: tf.compat.v1.nn.ctc_loss(sp(tf, [[0, 4, 1], [1], [2]]), LOGITS, [6, 5, 4])),
        error(lambda: tf.compat.v1.nn.ctc_loss(sp(tf, [[0, 1, 1], [1], [2]]), LOGITS, [2, 5, 4])),
        error(lambda: tf.compat.v1.nn.ctc_loss(tf.constant(DENSE), LOGITS, [6, 5, 4])),
        error(lambda: tf.nn.ctc_loss(tf.constant(DENSE.astype(np.float32)), LOGITS, [3, 2, 1], [6, 5, 4])),
        error(lambda: tf.nn.ctc_loss(DENSE, tf.constant(LOGITS.astype(np.float64)), [3, 2, 1], [6, 5, 4])),
        error(lambda: tf.nn.ctc_loss(DENSE, LOGITS, [3, 2], [6, 5, 4])),
        error(lambda: tf.nn.ctc_greedy_decoder(LOGITS, [7, 5, 4])),
        error(lambda: tf.nn.ctc_greedy_decoder(LOGITS, [6, 5])),
        error(lambda: tf.nn.ctc_greedy_decoder(LOGITS, [6, 5, 4], blank_index=5)),
        error(lambda: tf.nn.ctc_greedy_decoder(LOGITS[0], [6, 5, 4])),
        error(lambda: tf.nn.ctc_beam_search_decoder(LOGITS, [6, 5, 4], beam_width=2, top_paths=3)),
        error(lambda: tf.nn.ctc_beam_search_decoder(LOGITS, [6, 5, 7])),
        error(lambda: tf.nn.ctc_beam_search_decoder(LOGITS, [0, 5, 4], top_paths=2)),
        error(lambda: tf.nn.ctc_beam_search_decoder(LOGITS, [6, 5, 4], beam_width=0)),
    ]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
