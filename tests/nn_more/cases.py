"""Cases for the tf.nn additions, run by TensorFlow 2.21 (record_tf_nn_more.py) and placeflow (test_nn_more.py):
each `case_<name>(tf)` returns JSON-able results: values rounded, dtypes, shapes, or [error class, first line]."""

import math

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error

RNG = np.random.RandomState(11)
IMG = RNG.randn(2, 5, 6, 3).astype(np.float32)
SMALL = RNG.randn(1, 4, 5, 2)
FILT = RNG.randn(2, 3, 2)
EMB = RNG.randn(6, 3)
X8 = np.arange(2 * 5 * 4, dtype=np.float32).reshape(2, 5, 4, 1)


def values(x, tol=None):
    """A tensor's values rounded to 6 decimals, with dtype and shape (and a looser tolerance where stated)."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    flat = [("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else
            ("nan" if isinstance(v, float) and math.isnan(v) else v)
            for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}
    return out if tol is None else dict(out, tol=tol)


def grads(tf, fn, *arrays):
    """(fn(*xs), d sum(fn * weights) / d xs) under a GradientTape, xs float64 constants."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        w = tf.constant(np.arange(1, int(np.prod(y.shape)) + 1, dtype=np.float64).reshape(y.shape) / 7.0)
        total = tf.reduce_sum(y * tf.cast(w, y.dtype))
    return [values(y)] + [values(g) for g in tape.gradient(total, xs)]


def case_space_to_batch_nd(tf):
    x = tf.constant(X8)
    out = tf.space_to_batch_nd(x, [2, 2], [[0, 1], [0, 0]])
    back = tf.batch_to_space(out, [2, 2], [[0, 1], [0, 0]])
    return [values(out), values(back), values(tf.nn.space_to_batch(x, [1, 2], [[1, 2], [0, 2]])),
            values(tf.space_to_batch(tf.constant(np.arange(12.).reshape(1, 6, 2)), [3], [[0, 0]])),
            values(tf.batch_to_space(tf.constant(np.arange(16.).reshape(4, 2, 2, 1)), 2, [[0, 1], [1, 0]]))]


def case_space_to_batch_errors(tf):
    x = tf.constant(X8)
    return [error(lambda: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])),
            error(lambda: tf.space_to_batch_nd(x, [0, 2], [[0, 0], [0, 0]])),
            error(lambda: tf.space_to_batch_nd(x, [2, 2], [[0, -1], [0, 0]])),
            error(lambda: tf.space_to_batch_nd(x, [2, 2], [[0, 1]])),
            error(lambda: tf.batch_to_space(x, [2, 2], [[0, 0], [0, 0]])),
            error(lambda: tf.batch_to_space(tf.zeros([4, 2, 2, 1]), [2, 2], [[0, 5], [0, 0]]))]


def case_required_paddings(tf):
    a = tf.required_space_to_batch_paddings([5, 4], [2, 3])
    b = tf.required_space_to_batch_paddings([5, 4], [2, 3], [[1, 0], [0, 2]])
    return [values(a[0]), values(a[1]), values(b[0]), values(b[1])]


def case_with_space_to_batch(tf):
    x = tf.constant(SMALL)
    rng = np.random.RandomState(75)  # its own draws: a case's values never depend on order
    w = tf.constant(rng.randn(2, 2, 2, 3))

    def op(value, num_spatial_dims, padding):
        return tf.nn.conv2d(value, w, 1, padding)
    return [values(tf.nn.with_space_to_batch(x, [2, 2], "SAME", op, filter_shape=[2, 2])),
            values(tf.nn.with_space_to_batch(x, [2, 1], "VALID", op)),
            values(tf.nn.with_space_to_batch(x, [1, 1], "SAME", op)),
            error(lambda: tf.nn.with_space_to_batch(x, [2, 2], "SAME", op))]


def case_pool(tf):
    x = tf.constant(IMG)
    return [values(tf.nn.pool(x, [2, 2], "MAX")), values(tf.nn.pool(x, [2, 3], "AVG", strides=[2, 2], padding="SAME")),
            values(tf.nn.pool(x, [2, 2], "MAX", dilations=[2, 2])),
            values(tf.nn.pool(-x, [2, 2], "MAX", dilations=[2, 1])),
            values(tf.nn.pool(x, [3, 2], "AVG", dilations=[1, 2])),
            values(tf.nn.pool(x[:, :, 0], [2], "MAX", strides=[2])),
            values(tf.nn.pool(x[:, :, :, :, None][..., 0:1, :], [2, 2, 1], "AVG")),
            values(tf.nn.pool(x, [2, 2], "MAX", data_format="NCHW"))]


def case_pool_errors(tf):
    x = tf.constant(IMG)
    return [error(lambda: tf.nn.pool(x, [2, 2], "MAX", strides=[2, 2], dilations=[2, 2])),
            error(lambda: tf.nn.pool(x, [2, 2], "MAX", strides=[3, 3])),
            error(lambda: tf.nn.pool(x, [2, 2], "MIN")),
            error(lambda: tf.nn.pool(x, [2, 2, 2, 2], "MAX")),
            error(lambda: tf.nn.pool(x, [2, 2], "AVG", dilations=[2, 2], padding="SAME"))]


def case_pool_gradient(tf):
    return grads(tf, lambda x: tf.nn.pool(x, [2, 2], "AVG", dilations=[2, 2]), SMALL)


def case_dilation2d(tf):
    x, f = tf.constant(SMALL), tf.constant(FILT)
    return [values(tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])),
            values(tf.nn.dilation2d(x, f, [1, 2, 1, 1], "VALID", "NHWC", [1, 1, 2, 1])),
            values(tf.nn.dilation2d(x, f, [1, 2, 2, 1], "SAME", "NHWC", [1, 2, 1, 1])),
            values(tf.nn.erosion2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])),
            values(tf.nn.erosion2d(x, f, [1, 1, 2, 1], "VALID", "NHWC", [1, 2, 1, 1]))]


def case_dilation2d_gradients(tf):
    return (grads(tf, lambda x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]), SMALL, FILT)
            + grads(tf, lambda x, f: tf.nn.erosion2d(x, f, [1, 2, 1, 1], "VALID", "NHWC", [1, 1, 2, 1]), SMALL, FILT))


def case_dilation2d_errors(tf):
    x = tf.constant(X8)
    return [error(lambda: tf.nn.dilation2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], "SAME", "NCHW", [1, 1, 1, 1])),
            error(lambda: tf.nn.dilation2d(x, tf.zeros([2, 2, 2]), [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])),
            error(lambda: tf.nn.dilation2d(x, tf.zeros([2, 2, 1]), [1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])),
            error(lambda: tf.nn.dilation2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], "FULL", "NHWC", [1, 1, 1, 1])),
            error(lambda: tf.nn.erosion2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], "SAME", "NCHW", [1, 1, 1, 1]))]


def case_max_pool_with_argmax(tf):
    x = tf.constant(IMG)
    a = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")
    b = tf.nn.max_pool_with_argmax(x, [1, 3, 2, 1], [1, 2, 1, 1], "VALID", include_batch_in_index=True,
                                   output_dtype=tf.int32)
    ties = tf.nn.max_pool_with_argmax(tf.constant([[[[1.], [1.]], [[1.], [0.]]]]), 2, 1, "SAME")
    ints = tf.nn.max_pool_with_argmax(tf.constant(np.arange(24, dtype=np.int32).reshape(1, 4, 6, 1)), 2, 2, "VALID")
    return [values(a.output), values(a.argmax), values(b[0]), values(b[1]), values(ties[0]), values(ties[1]),
            values(ints[0]), values(ints[1])]


def case_max_pool_with_argmax_gradient(tf):
    return (grads(tf, lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0], SMALL)
            + grads(tf, lambda x: tf.nn.max_pool_with_argmax(x, 3, 1, "VALID", include_batch_in_index=True)[0],
                    np.concatenate([SMALL, SMALL * 2])))


def case_max_pool_with_argmax_errors(tf):
    x = tf.constant(X8)
    return [error(lambda: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME", data_format="NCHW")),
            error(lambda: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME", output_dtype=tf.float32))]


def case_depthwise_backprops(tf):
    x = tf.constant(SMALL)
    rng = np.random.RandomState(157)  # its own draws: a case's values never depend on order
    w = tf.constant(rng.randn(2, 3, 2, 2))
    g1 = tf.constant(rng.randn(1, 4, 5, 4))
    g2 = tf.constant(rng.randn(1, 2, 2, 4))
    return [values(tf.nn.depthwise_conv2d_backprop_input([1, 4, 5, 2], w, g1, [1, 1, 1, 1], "SAME")),
            values(tf.nn.depthwise_conv2d_backprop_filter(x, [2, 3, 2, 2], g1, [1, 1, 1, 1], "SAME")),
            values(tf.nn.depthwise_conv2d_backprop_input([1, 4, 5, 2], w, g2, [1, 2, 2, 1], "VALID")),
            values(tf.nn.depthwise_conv2d_backprop_filter(x, [2, 3, 2, 2], g2, [1, 2, 2, 1], "VALID"))]


def case_depthwise_backprop_gradients(tf):
    rng = np.random.RandomState(167)  # its own draws: a case's values never depend on order
    w = rng.randn(2, 2, 2, 1)
    g = rng.randn(1, 4, 5, 2)
    return (grads(tf, lambda w_, g_: tf.nn.depthwise_conv2d_backprop_input([1, 4, 5, 2], w_, g_, [1, 1, 1, 1],
                                                                          "SAME"), w, g)
            + grads(tf, lambda x_, g_: tf.nn.depthwise_conv2d_backprop_filter(x_, [2, 2, 2, 1], g_, [1, 1, 1, 1],
                                                                             "SAME"), SMALL, g))


def case_atrous_conv2d_transpose(tf):
    x = tf.constant(SMALL)
    rng = np.random.RandomState(177)  # its own draws: a case's values never depend on order
    w = tf.constant(rng.randn(2, 3, 3, 2))
    out = [values(tf.nn.atrous_conv2d_transpose(x, w, [1, 4, 5, 3], 2, "SAME")),
           values(tf.nn.atrous_conv2d_transpose(x, w, [1, 6, 9, 3], 2, "VALID")),
           values(tf.nn.atrous_conv2d_transpose(x, w, [1, 4, 5, 3], 1, "SAME"))]
    errs = [error(lambda: tf.nn.atrous_conv2d_transpose(x, tf.zeros([2, 2, 3, 1], tf.float64), [1, 4, 5, 3], 2,
                                                        "SAME")),
            error(lambda: tf.nn.atrous_conv2d_transpose(x, w, [1, 4, 5, 3], 2, "FULL")),
            error(lambda: tf.nn.atrous_conv2d_transpose(x, w, [1, 4, 5, 2], 2, "SAME")),
            error(lambda: tf.nn.atrous_conv2d_transpose(x, w, [1, 4, 5, 3], 0, "SAME"))]
    return out + errs + grads(tf, lambda a, b: tf.nn.atrous_conv2d_transpose(a, b, [1, 4, 5, 3], 2, "SAME"),
                              SMALL, rng.randn(2, 2, 3, 2))


def _sparse(tf, indices, vals, shape, dtype):
    return tf.SparseTensor(tf.constant(np.array(indices, np.int64).reshape(-1, len(shape))),
                           tf.constant(np.array(vals, dtype)), shape)


def case_embedding_lookup_sparse(tf):
    params = tf.constant(EMB)
    ids = _sparse(tf, [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]], [1, 3, 1, 5, 0], [4, 3], np.int64)
    wts = _sparse(tf, [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]], [0.5, 2.0, 1.0, 3.0, -1.0], [4, 3], np.float64)
    out = [values(tf.nn.embedding_lookup_sparse(params, ids, None, combiner=c)) for c in ("sum", "mean", "sqrtn")]
    out += [values(tf.nn.embedding_lookup_sparse(params, ids, wts, combiner=c)) for c in ("sum", "mean", "sqrtn")]
    out.append(values(tf.nn.embedding_lookup_sparse(params, ids, wts, max_norm=1.0)))
    out.append(values(tf.nn.embedding_lookup_sparse([params], ids, None)))
    out.append(error(lambda: tf.nn.embedding_lookup_sparse(params, ids, None, combiner="max")))
    return out


def case_embedding_lookup_sparse_gradient(tf):
    ids = _sparse(tf, [[0, 0], [0, 1], [1, 0]], [1, 3, 1], [2, 2], np.int64)
    wts = _sparse(tf, [[0, 0], [0, 1], [1, 0]], [0.5, 2.0, 1.0], [2, 2], np.float64)
    params = tf.constant(EMB)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.nn.embedding_lookup_sparse(params, ids, wts, combiner="sqrtn", max_norm=1.5)
        total = tf.reduce_sum(y * tf.constant(np.arange(6.).reshape(2, 3)))
    return [values(y), values(tf.convert_to_tensor(tape.gradient(total, params)))]


def case_safe_embedding_lookup_sparse(tf):
    params = tf.constant(EMB)
    ids = _sparse(tf, [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]], [1, 3, -1, 5, 0, 2], [5, 3], np.int64)
    wts = _sparse(tf, [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]], [0.5, 2.0, 1.0, 3.0, -1.0, 0.0], [5, 3],
                  np.float64)
    ids3 = _sparse(tf, [[0, 0, 0], [0, 1, 1], [1, 1, 0]], [1, 2, 4], [2, 2, 2], np.int64)
    out = [values(tf.nn.safe_embedding_lookup_sparse(params, ids, None, combiner=c)) for c in ("sum", "mean", "sqrtn")]
    out += [values(tf.nn.safe_embedding_lookup_sparse(params, ids, wts, combiner=c)) for c in ("sum", "mean", "sqrtn")]
    out.append(values(tf.nn.safe_embedding_lookup_sparse(params, ids, wts, default_id=4, max_norm=1.0)))
    out.append(values(tf.nn.safe_embedding_lookup_sparse([params], ids3)))
    return out


def case_collapse_repeated(tf):
    labels = tf.constant([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0], [5, 6, 6, 6, 7]])
    a = tf.nn.collapse_repeated(labels, tf.constant([5, 2, 3]))
    b = tf.function(lambda l, s: tf.nn.collapse_repeated(l, s))(labels, tf.constant([4, 5, 5]))
    return [values(a[0]), values(a[1]), values(b[0]), values(b[1])]


def case_ctc_unique_labels(tf):
    a = tf.nn.ctc_unique_labels(tf.constant([[3, 1, 3, 2], [5, 5, 0, 0], [1, 2, 3, 4]]))
    b = tf.function(tf.nn.ctc_unique_labels)(tf.constant([[7, 7, 7], [1, 0, 1]], tf.int64))
    return [values(a[0]), values(a[1]), values(b[0]), values(b[1])]


def case_isotonic_regression(tf):
    rng = np.random.RandomState(245)  # its own draws: a case's values never depend on order
    data = rng.randn(3, 6)
    out = []
    for kwargs in ({}, {"decreasing": False}, {"axis": 0}, {"decreasing": False, "axis": 0}):
        y, seg = tf.nn.isotonic_regression(tf.constant(data), **kwargs)
        out += [values(y), values(seg)]
    y, seg = tf.nn.isotonic_regression([[3., 3., 1., 4., 2.]])
    out += [values(y), values(seg)]
    for dtype in (np.int8, np.int32, np.int64, np.float16):
        y, seg = tf.nn.isotonic_regression(tf.constant(np.array([[1, 2, 0, 5]], dtype)))
        out += [values(y), values(seg)]
    y, _ = tf.function(lambda v: tf.nn.isotonic_regression(v, decreasing=False))(tf.constant(data))
    return out + [values(y)]


def case_isotonic_regression_gradient(tf):
    return grads(tf, lambda x: tf.nn.isotonic_regression(x)[0], np.array([[1.0, 3.0, 2.0, 0.5, 0.7], [5, 4, 6, 1, 2]]))


def case_general_dropout(tf):
    x = tf.constant(IMG[0, :2])

    def sampler(shape, dtype):
        return tf.reshape(tf.cast(tf.range(tf.reduce_prod(shape)) % 5, dtype) / 5.0, shape)
    return [values(tf.nn.experimental.general_dropout(x, 0.5, sampler)),
            values(tf.nn.experimental.general_dropout(x, 0.3, sampler, noise_shape=[2, 1, 3])),
            values(tf.nn.experimental.general_dropout(x, 0.0, sampler)),
            values(tf.function(lambda v: tf.nn.experimental.general_dropout(v, 0.25, sampler))(x)),
            error(lambda: tf.nn.experimental.general_dropout(x, 1.0, sampler)),
            error(lambda: tf.nn.experimental.general_dropout(tf.constant([1, 2]), 0.5, sampler))]


def case_compute_accidental_hits(tf):
    a = tf.nn.compute_accidental_hits(tf.constant([[1, 2], [3, 3], [0, 9]], tf.int64),
                                      tf.constant([3, 1, 3, 5, 9], tf.int64), 2)
    b = tf.function(lambda t, s: tf.nn.compute_accidental_hits(t, s, 1))(tf.constant([[4], [2]], tf.int64),
                                                                         tf.constant([2, 4, 4], tf.int64))
    return [values(a.indices), values(a.ids), values(a.weights), values(b[0]), values(b[1]), values(b[2])]


TRUE = np.array([[1, 5], [3, 0], [7, 7]], np.int64)


def _counts(result, sampled_too=False):
    """The true classes' expected counts (the sampled ones' too where the samples are not random), shape, dtype."""
    out = [values(result[1]), values(result[0].shape.as_list()), result[0].dtype.name]
    return out + [values(result[0]), values(result[2])] if sampled_too else out


def case_sampler_expected_counts(tf):
    t = tf.constant(TRUE)
    out = _counts(tf.random.uniform_candidate_sampler(t, 2, 4, False, 10, seed=3))
    out += _counts(tf.random.log_uniform_candidate_sampler(t, 2, 5, False, 20, seed=3))
    out += _counts(tf.random.fixed_unigram_candidate_sampler(t, 2, 3, False, 8, unigrams=[1., 2., 3., 4., 5., 6.],
                                                             distortion=0.75, num_reserved_ids=2))
    out += _counts(tf.nn.fixed_unigram_candidate_sampler(tf.constant([[1], [0]], tf.int64), 1, 3, False, 2,
                                                         unigrams=[1., 2., 3., 4.], num_shards=2, shard=1))
    out += _counts(tf.nn.all_candidate_sampler(t, 2, 8, True), sampled_too=True)
    learned = [_counts(tf.random.learned_unigram_candidate_sampler(t, 2, 3, False, 9, seed=77)) for _ in range(3)]
    return out + learned


def case_sampler_errors(tf):
    t = tf.constant(TRUE)
    return [error(lambda: tf.random.uniform_candidate_sampler(t, 2, 11, True, 10)),
            error(lambda: tf.random.uniform_candidate_sampler(tf.constant([[1]]), 1, 3, True, 10)),
            error(lambda: tf.random.uniform_candidate_sampler(t, 1, 3, True, 10)),
            error(lambda: tf.random.fixed_unigram_candidate_sampler(t, 2, 3, False, 6, unigrams=[1., 2., 3., 4.])),
            error(lambda: tf.nn.all_candidate_sampler(t, 2, 6, True)),
            error(lambda: tf.random.log_uniform_candidate_sampler(t, 2, 3, False, 6))]


def _losses(tf, num_true, remove):
    rng = np.random.RandomState(5)
    weights, biases = tf.constant(rng.randn(10, 4)), tf.constant(rng.randn(10))
    inputs = tf.constant(rng.randn(3, 4))
    labels = tf.constant(np.array([[1, 4], [2, 2], [9, 0]])[:, :num_true], tf.int64)
    sampled = (tf.constant([4, 2, 7, 0], tf.int64), tf.constant(rng.uniform(0.1, 1.5, (3, num_true))),
               tf.constant(rng.uniform(0.1, 1.5, 4)))
    out = []
    for loss in (tf.nn.nce_loss, tf.nn.sampled_softmax_loss):
        with tf.GradientTape() as tape:
            tape.watch([weights, biases, inputs])
            y = loss(weights, biases, labels, inputs, 4, 10, num_true=num_true, sampled_values=sampled,
                     remove_accidental_hits=remove)
            total = tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0], tf.float64))
        gw, gb, gx = tape.gradient(total, [weights, biases, inputs])
        out += [values(y), values(tf.convert_to_tensor(gw)), values(tf.convert_to_tensor(gb)), values(gx)]
    return out


def case_nce_and_sampled_softmax(tf):
    return _losses(tf, 1, False) + _losses(tf, 1, True)


def case_nce_and_sampled_softmax_num_true_2(tf):
    return _losses(tf, 2, True) + _losses(tf, 2, False)


def case_losses_in_function(tf):
    rng = np.random.RandomState(6)
    w, b, x = tf.constant(rng.randn(8, 3)), tf.constant(rng.randn(8)), tf.constant(rng.randn(2, 3))
    labels = tf.constant([[3], [5]], tf.int64)
    sampled = (tf.constant([5, 1, 2], tf.int64), tf.constant([[0.3], [0.6]], tf.float64),
               tf.constant([0.2, 0.4, 0.9], tf.float64))
    fn = tf.function(lambda w_, b_, x_: tf.nn.sampled_softmax_loss(w_, b_, labels, x_, 3, 8, sampled_values=sampled))
    nce = tf.function(lambda w_, b_, x_: tf.nn.nce_loss(w_, b_, labels, x_, 3, 8, sampled_values=sampled))
    return [values(fn(w, b, x)), values(nce(w, b, x))]


def case_function_traces(tf):
    x, f = tf.constant(SMALL), tf.constant(FILT)
    dil = tf.function(lambda a, b: tf.nn.dilation2d(a, b, [1, 1, 1, 1], "SAME", "NHWC", [1, 2, 1, 1]))
    arg = tf.function(lambda a: tf.nn.max_pool_with_argmax(a, 2, 1, "VALID"))
    pool = tf.function(lambda a: tf.nn.pool(a, [2, 2], "MAX", dilations=[1, 2]))
    s2b = tf.function(lambda a: tf.space_to_batch_nd(a, [2, 1], [[0, 0], [1, 0]]))
    return [values(dil(x, f)), values(arg(x)[0]), values(arg(x)[1]), values(pool(x)), values(s2b(x))]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
