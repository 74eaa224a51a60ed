"""TF1 graphs the cost-model placer is measured on (tests/placement_cost and benchmarks/placement.py).

Each builder makes its ops in the current default graph and returns the tensor to fetch. Weights are
variables (a variable is a colocation group with its reads and updates); shapes are static.
"""

import numpy as np

import placeflow as tf

v1 = tf.compat.v1


def _weight(name, shape, scale=0.05, seed=0):
    if np.prod(shape) > 1 << 22:   # a large weight: its initial value is an op of the graph, not host data
        return v1.Variable(tf.random.uniform(shape, -scale, scale, seed=seed), name=name)
    values = np.random.default_rng(seed).uniform(-scale, scale, shape).astype(np.float32)
    return v1.Variable(values, name=name)


def chain(depth=24, size=1024, batch=256):
    """One long chain of matmul + tanh: no parallelism (a placer can only lose by spreading it)."""
    h = v1.placeholder(tf.float32, [batch, size], name="x")
    for k in range(depth):
        h = tf.tanh(tf.matmul(h, _weight(f"w{k}", [size, size], seed=k)))
    return h


def wide(branches=8, depth=6, size=1024, batch=256):
    """Independent branches of matmul + relu from one input, summed."""
    x = v1.placeholder(tf.float32, [batch, size], name="x")
    outs = []
    for b in range(branches):
        h = x
        for k in range(depth):
            h = tf.nn.relu(tf.matmul(h, _weight(f"b{b}_w{k}", [size, size], seed=b * depth + k)))
        outs.append(h)
    return tf.add_n(outs)


def lstm(layers=4, steps=32, hidden=512, batch=64):
    """A stacked LSTM unrolled `steps` steps, built layer by layer from matmul/add/tanh/sigmoid cells."""
    inputs = [v1.placeholder(tf.float32, [batch, hidden], name=f"x{t}") for t in range(steps)]
    for layer in range(layers):
        wx = {g: _weight(f"l{layer}_wx_{g}", [hidden, hidden], seed=10 * layer + k) for k, g in enumerate("ifog")}
        wh = {g: _weight(f"l{layer}_wh_{g}", [hidden, hidden], seed=10 * layer + 4 + k) for k, g in enumerate("ifog")}
        h = c = tf.zeros([batch, hidden])
        outputs = []
        for x in inputs:
            gate = {g: tf.matmul(x, wx[g]) + tf.matmul(h, wh[g]) for g in "ifog"}
            c = tf.sigmoid(gate["f"]) * c + tf.sigmoid(gate["i"]) * tf.tanh(gate["g"])
            h = tf.sigmoid(gate["o"]) * tf.tanh(c)
            outputs.append(h)
        inputs = outputs
    return tf.add_n(inputs)


def inception(blocks=4, size=28, channels=192, batch=32):
    """Inception-style blocks: 1x1, 3x3, 5x5 convolutions and a pooled 1x1, concatenated."""
    h = v1.placeholder(tf.float32, [batch, size, size, channels], name="x")
    for b in range(blocks):
        quarter = channels // 4
        branch = [tf.nn.relu(tf.nn.conv2d(h, _weight(f"b{b}_1x1", [1, 1, channels, quarter], seed=b), 1, "SAME"))]
        for k, width in ((3, 3), (5, 5)):
            reduced = tf.nn.relu(tf.nn.conv2d(h, _weight(f"b{b}_r{k}", [1, 1, channels, quarter], seed=b + k), 1,
                                              "SAME"))
            branch.append(tf.nn.relu(tf.nn.conv2d(reduced, _weight(f"b{b}_{k}x{k}", [k, k, quarter, quarter],
                                                                   seed=b + 2 * k), 1, "SAME")))
        pooled = tf.nn.max_pool2d(h, 3, 1, "SAME")
        branch.append(tf.nn.relu(tf.nn.conv2d(pooled, _weight(f"b{b}_pool", [1, 1, channels, quarter], seed=b + 9),
                                              1, "SAME")))
        h = tf.concat(branch, 3)
    return h


def transformer(layers=6, tokens=1024, width=1024):
    """A stack of single-head transformer layers on `tokens` x `width` activations."""
    h = v1.placeholder(tf.float32, [tokens, width], name="x")
    for k in range(layers):
        q, key, value = (tf.matmul(h, _weight(f"l{k}_{n}", [width, width], seed=4 * k + i))
                         for i, n in enumerate(("q", "k", "v")))
        attention = tf.nn.softmax(tf.matmul(q, key, transpose_b=True) * (1.0 / width ** 0.5))
        h = h + tf.matmul(tf.matmul(attention, value), _weight(f"l{k}_o", [width, width], seed=4 * k + 3))
        h = h - tf.reduce_mean(h, axis=1, keepdims=True)
        ffn = tf.nn.relu(tf.matmul(h, _weight(f"l{k}_f1", [width, 4 * width], seed=100 + k)))
        h = h + tf.matmul(ffn, _weight(f"l{k}_f2", [4 * width, width], seed=200 + k))
    return h


def too_large(layers=10, size=2048, batch=8):
    """Dense layers whose float32 weights (16 MiB each at size 2048) outgrow one small GPU: returns
    (loss, train op) of plain SGD."""
    x = tf.constant(np.random.default_rng(1).uniform(-1, 1, (batch, size)).astype(np.float32))
    h = x
    for k in range(layers):
        h = tf.tanh(tf.matmul(h, _weight(f"dense{k}", [size, size], scale=0.02, seed=k)))
    loss = tf.reduce_sum(h * h)
    return loss, v1.train.GradientDescentOptimizer(0.01).minimize(loss)


GRAPHS = {"chain": chain, "wide branches": wide, "lstm": lstm, "inception": inception,
          "transformer": transformer, "too large": lambda: too_large()[0]}
SMALL = {"chain": lambda: chain(depth=6, size=256, batch=32),
         "wide branches": lambda: wide(branches=4, depth=3, size=256, batch=32),
         "lstm": lambda: lstm(layers=2, steps=6, hidden=128, batch=16),
         "inception": lambda: inception(blocks=2, size=8, channels=32, batch=4),
         "transformer": lambda: transformer(layers=2, tokens=128, width=128),
         "too large": lambda: too_large(layers=3, size=256)[0]}
