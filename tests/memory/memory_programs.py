"""A memory suite: programs whose step peak and leftover bytes are compared with TensorFlow 2.21's own.

Each `program_<name>(tf)` builds everything once (variables, inputs, `tf.function` tracing happens in the
two warm-up calls) and returns a zero-argument `step` that does one step. The programs use only their `tf`
parameter, so the same code runs with `import tensorflow as tf` and with `import placeflow as tf`; inputs are
deterministic float32 (numpy RandomState). Shapes are chosen so that the figures are tens of MiB, dominated
by tensor sizes rather than by small bookkeeping allocations.

`measure(tf, step, device)` gives, in bytes:
    peak_above_resident  the step's peak in use less what was resident before it (its working set)
    held_after_step      in use right after the step, with its result still referenced, less resident
    left_after_step      in use after dropping the result and collecting garbage, less resident
    result_bytes         the bytes of the tensors the step returned
    resident             in use before the measured step (variables, inputs, slots)
TensorFlow is measured on 'CPU:0' (its CPU BFC allocator, TF_CPU_ALLOCATOR_USE_BFC=true); placeflow on
'GPU:0' (a simulated GPU, PLACEFLOW_SIMULATED_GPUS=1), where its default placement runs these programs.

Run one program in this process (what record_tf_memory.py does in a fresh subprocess per program):
    TF_CPU_ALLOCATOR_USE_BFC=true python tests/memory/memory_programs.py run tensorflow elementwise_chain_eager
    PLACEFLOW_SIMULATED_GPUS=1 PYTHONPATH=src python3 tests/memory/memory_programs.py run placeflow cnn_step_function
Compare placeflow (the current tree, a fresh subprocess per program) with the recorded tf_2_21_memory.json:
    python3 tests/memory/memory_programs.py compare
"""

from __future__ import annotations

import gc
import json
import os
import pathlib
import subprocess
import sys

import numpy as np

MIB = 1 << 20
HERE = pathlib.Path(__file__).resolve().parent
RECORDING = HERE / "tf_2_21_memory.json"


# ---------------------------------------------------------------------------------------------- harness

def _short(device_name: str) -> str:
    """'/job:localhost/replica:0/task:0/device:GPU:1' -> 'GPU:1'."""
    return device_name.rsplit("device:", 1)[-1].upper()


def result_bytes(result, device: str | None = None) -> int:
    """Bytes of the tensors in `result` (nested lists, tuples, dicts), only those on `device` if given."""
    if isinstance(result, dict):
        return sum(result_bytes(v, device) for v in result.values())
    if isinstance(result, (list, tuple)):
        return sum(result_bytes(v, device) for v in result)
    size = getattr(getattr(result, "dtype", None), "size", None)  # a tensor's DType (numpy dtypes have none)
    if size is None or getattr(result, "shape", None) is None:
        return 0
    if device is not None and _short(getattr(result, "device", "") or "") != device.upper():
        return 0
    return int(np.prod([int(d) for d in result.shape], dtype=np.int64)) * int(size)


def measure(tf, step, device="GPU:0"):
    """Two warm-up steps (tracing, slots), settle, then one measured step, read on `device` ('CPU:0' under
    TensorFlow, 'GPU:0' under placeflow). A list or tuple of device names gives {name: figures} for each."""
    devices = [device] if isinstance(device, str) else list(device)
    info = tf.config.experimental.get_memory_info
    for _ in range(2):
        result = step()
        del result
    gc.collect()
    resident = {d: info(d)["current"] for d in devices}
    for d in devices:
        tf.config.experimental.reset_memory_stats(d)
    result = step()
    after = {d: info(d) for d in devices}
    returned = {d: result_bytes(result, d if len(devices) > 1 else None) for d in devices}
    del result
    gc.collect()
    final = {d: info(d)["current"] for d in devices}
    figures = {d: {"peak_above_resident": after[d]["peak"] - resident[d],
                   "held_after_step": after[d]["current"] - resident[d],
                   "left_after_step": final[d] - resident[d],
                   "result_bytes": returned[d],
                   "resident": resident[d]} for d in devices}
    return figures[device] if isinstance(device, str) else figures


# --------------------------------------------------------------------------------------------- programs

def _random(seed, *shape, scale=1.0):
    return (np.random.RandomState(seed).standard_normal(shape) * scale).astype(np.float32)


def _labels(seed, rows, classes):
    return np.random.RandomState(seed).randint(0, classes, size=rows).astype(np.int32)


def _chain(tf, x):
    """Ten elementwise ops, unary and binary, each giving a tensor the size of x."""
    y = x * 2.0              # 1
    y = y + 1.0              # 2
    y = tf.tanh(y)           # 3
    y = y * x                # 4
    y = y - x                # 5
    y = tf.abs(y)            # 6
    y = tf.sqrt(y)           # 7
    y = tf.sigmoid(y)        # 8
    y = tf.maximum(y, x)     # 9
    return tf.square(y)      # 10


def program_elementwise_chain_function(tf):
    """The 10-op chain on a 16 MiB (2048x2048) float32 tensor inside tf.function; the input made outside."""
    x = tf.constant(_random(0, 2048, 2048))
    chain = tf.function(lambda t: _chain(tf, t))
    return lambda: chain(x)


def program_elementwise_chain_eager(tf):
    """The same chain, eagerly: each op's result stays referenced until the next one replaces it."""
    x = tf.constant(_random(0, 2048, 2048))
    return lambda: _chain(tf, x)


def _mlp(tf, widths=(1024, 4096, 4096, 10), batch=256, seed=1):
    """Variables (weights and biases), inputs and labels of an MLP."""
    variables = []
    for index, (fan_in, fan_out) in enumerate(zip(widths[:-1], widths[1:])):
        variables.append(tf.Variable(_random(seed + index, fan_in, fan_out, scale=np.sqrt(2.0 / fan_in)),
                                     name=f"w{index}"))
        variables.append(tf.Variable(np.zeros(fan_out, np.float32), name=f"b{index}"))
    x = tf.constant(_random(seed + 10, batch, widths[0]))
    y = tf.constant(_labels(seed + 11, batch, widths[-1]))
    return variables, x, y


def _mlp_step(tf, variables, x, y, lr=0.01):
    """Forward with relu, sparse softmax cross-entropy, GradientTape, `v.assign_sub(lr * g)` per variable."""
    with tf.GradientTape() as tape:
        h = x
        for index in range(0, len(variables), 2):
            h = tf.matmul(h, variables[index]) + variables[index + 1]
            if index + 2 < len(variables):
                h = tf.nn.relu(h)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h))
    grads = tape.gradient(loss, variables)
    for variable, grad in zip(variables, grads):
        variable.assign_sub(lr * grad)
    return loss


def program_mlp_train_step_eager(tf):
    """MLP 1024-4096-4096-10, batch 256, one SGD step eagerly (about 80 MiB of weights)."""
    variables, x, y = _mlp(tf)
    return lambda: _mlp_step(tf, variables, x, y)


def program_mlp_train_step_function(tf):
    """The same step inside tf.function; left_after_step shows whether the step keeps anything."""
    variables, x, y = _mlp(tf)
    train = tf.function(lambda a, b: _mlp_step(tf, variables, a, b))
    return lambda: train(x, y)


def program_matmul_chain_function(tf):
    """Eight chained 1024x1024 matmuls (4 MiB each) in tf.function; weights scaled to keep values bounded."""
    weights = [tf.constant(_random(20 + i, 1024, 1024, scale=1.0 / 32.0)) for i in range(8)]
    x = tf.constant(_random(19, 1024, 1024))

    @tf.function
    def chain(a, ws):
        for w in ws:
            a = tf.matmul(a, w)
        return a
    return lambda: chain(x, weights)


def program_attention_function(tf):
    """softmax(q k^T / sqrt(64)) v, batch 8, 1024 tokens, 64 dims: 32 MiB scores, 2 MiB q, k, v, output."""
    q, k, v = (tf.constant(_random(30 + i, 8, 1024, 64)) for i in range(3))

    @tf.function
    def attention(q, k, v):
        scores = tf.matmul(q, k, transpose_b=True) * (1.0 / 8.0)
        return tf.matmul(tf.nn.softmax(scores, axis=-1), v)
    return lambda: attention(q, k, v)


def program_adam_step_function(tf):
    """A hand-written Adam update (m and v slots as tf.Variables, `assign`) on a 1024x1024 weight whose gradient
    comes from a tape (least squares on a 256x1024 batch), in tf.function."""
    w = tf.Variable(_random(40, 1024, 1024, scale=1.0 / 32.0), name="w")
    m = tf.Variable(np.zeros((1024, 1024), np.float32), name="m")
    v = tf.Variable(np.zeros((1024, 1024), np.float32), name="v")
    t = tf.Variable(0.0, name="t")
    x = tf.constant(_random(41, 256, 1024))
    target = tf.constant(_random(42, 256, 1024))
    lr, beta1, beta2, epsilon = 0.001, 0.9, 0.999, 1e-7

    @tf.function
    def adam(x, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - target))
        g = tape.gradient(loss, w)
        t.assign_add(1.0)
        m.assign(beta1 * m + (1.0 - beta1) * g)
        v.assign(beta2 * v + (1.0 - beta2) * tf.square(g))
        rate = lr * tf.sqrt(1.0 - tf.pow(beta2, t)) / (1.0 - tf.pow(beta1, t))
        w.assign_sub(rate * m / (tf.sqrt(v) + epsilon))
        return loss
    return lambda: adam(x, target)


def program_cnn_step_function(tf):
    """A small CNN train step in tf.function: batch 64 of 32x32x3 (NHWC), conv 3x3x32 (8 MiB activations),
    relu, 2x2 max_pool, conv 3x3x64 (4 MiB), relu, max_pool, dense 4096->10, sparse softmax cross-entropy,
    tape, assign_sub. TensorFlow's CPU Conv2D and Conv2DBackpropFilter/Input allocate scratch (im2col and
    packing buffers) through the allocator, which its peak includes."""
    k1 = tf.Variable(_random(50, 3, 3, 3, 32, scale=np.sqrt(2.0 / 27)), name="k1")
    b1 = tf.Variable(np.zeros(32, np.float32), name="b1")
    k2 = tf.Variable(_random(51, 3, 3, 32, 64, scale=np.sqrt(2.0 / 288)), name="k2")
    b2 = tf.Variable(np.zeros(64, np.float32), name="b2")
    w = tf.Variable(_random(52, 8 * 8 * 64, 10, scale=np.sqrt(1.0 / 4096)), name="w")
    b = tf.Variable(np.zeros(10, np.float32), name="b")
    variables = [k1, b1, k2, b2, w, b]
    images = tf.constant(_random(53, 64, 32, 32, 3))
    labels = tf.constant(_labels(54, 64, 10))

    @tf.function
    def train(images, labels):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(images, k1, strides=1, padding="SAME") + b1)
            h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding="VALID")
            h = tf.nn.relu(tf.nn.conv2d(h, k2, strides=1, padding="SAME") + b2)
            h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding="VALID")
            logits = tf.matmul(tf.reshape(h, [64, 8 * 8 * 64]), w) + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        grads = tape.gradient(loss, variables)
        for variable, grad in zip(variables, grads):
            variable.assign_sub(0.01 * grad)
        return loss
    return lambda: train(images, labels)


def program_while_loop_function(tf):
    """tf.while_loop, 10 iterations of a 4-op elementwise body on a 16 MiB tensor, in tf.function."""
    x = tf.constant(_random(60, 2048, 2048))

    @tf.function
    def loop(x):
        _, y = tf.while_loop(lambda i, y: i < 10,
                             lambda i, y: (i + 1, tf.tanh(y * 1.1 + 0.1) * 0.9),
                             (tf.constant(0), x))
        return y
    return lambda: loop(x)


def program_cond_function(tf):
    """tf.cond between two 3-op elementwise branches on a 16 MiB tensor (the predicate is an input), in
    tf.function; the true branch runs."""
    x = tf.constant(_random(70, 2048, 2048))
    p = tf.constant(1.0)

    @tf.function
    def choose(x, p):
        return tf.cond(p > 0.0, lambda: tf.tanh(x * 2.0 + 1.0), lambda: tf.sigmoid(x) * x - x)
    return lambda: choose(x, p)


def program_session_train_step(tf):
    """A TF1 graph (placeholders, get_variable with constant_initializer, GradientDescentOptimizer.minimize) of
    the MLP 1024-4096-4096-10 run by a tf.compat.v1.Session; the step is `sess.run(train_op, feed_dict=...)`
    (1 MiB of features fed). get_variable is given shape= and a constant_initializer: TF refuses shape= with a
    constant tensor initializer, placeflow requires shape= for one."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    widths = (1024, 4096, 4096, 10)
    with graph.as_default():
        x = v1.placeholder(tf.float32, [256, 1024], name="x")
        y = v1.placeholder(tf.int32, [256], name="y")
        h = x
        for index, (fan_in, fan_out) in enumerate(zip(widths[:-1], widths[1:])):
            w = v1.get_variable(f"w{index}", shape=[fan_in, fan_out], initializer=v1.constant_initializer(
                _random(1 + index, fan_in, fan_out, scale=np.sqrt(2.0 / fan_in))))
            b = v1.get_variable(f"b{index}", shape=[fan_out], initializer=v1.zeros_initializer())
            h = tf.matmul(h, w) + b
            if index + 2 < len(widths):
                h = tf.nn.relu(h)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h))
        train_op = v1.train.GradientDescentOptimizer(0.01).minimize(loss)
        init = v1.global_variables_initializer()
    sess = v1.Session(graph=graph)
    sess.run(init)
    feed = {x: _random(11, 256, 1024), y: _labels(12, 256, 10)}

    def step():
        return sess.run(train_op, feed_dict=feed)
    step.session = sess  # keeps the session (and its variables) alive as long as the step
    return step


def program_keras_fit_step(tf):
    """Keras Sequential Input(1024) -> Dense(2048, relu) -> Dense(10), SGD, sparse categorical cross-entropy
    from logits; the step is `model.train_on_batch(x, y)` on one NumPy batch of 256 (XLA off)."""
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input(shape=(1024,)),
                                 tf.keras.layers.Dense(2048, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=False)
    x, y = _random(80, 256, 1024), _labels(81, 256, 10)
    return lambda: model.train_on_batch(x, y)


def program_mirrored_step(tf):
    """MirroredStrategy over 2 devices (2 simulated GPUs under placeflow, 2 logical CPUs under TensorFlow):
    `strategy.run` of an MLP 1024-2048-10 train step (per-replica batch 256, MEAN-aggregated variables updated
    by assign_sub in replica context) inside tf.function; measured on each replica's device.

    Under TensorFlow 2.21 the two logical CPUs share the one process-wide CPU allocator: get_memory_info('CPU:0')
    and get_memory_info('CPU:1') return the same numbers (both replicas together; a tensor made under
    tf.device('CPU:1') raises both), and reset_memory_stats of either resets that one allocator. The step's
    local results (both replicas' losses) report device CPU:0 there, so result_bytes counts them under CPU:0."""
    gpus = tf.config.list_logical_devices("GPU")
    devices = [d.name for d in (gpus if len(gpus) >= 2 else tf.config.list_logical_devices("CPU"))[:2]]
    strategy = tf.distribute.MirroredStrategy(devices)
    with strategy.scope():
        variables = [
            tf.Variable(_random(90, 1024, 2048, scale=np.sqrt(2.0 / 1024)), aggregation=tf.VariableAggregation.MEAN),
            tf.Variable(np.zeros(2048, np.float32), aggregation=tf.VariableAggregation.MEAN),
            tf.Variable(_random(91, 2048, 10, scale=np.sqrt(2.0 / 2048)), aggregation=tf.VariableAggregation.MEAN),
            tf.Variable(np.zeros(10, np.float32), aggregation=tf.VariableAggregation.MEAN)]
    features = [_random(92 + r, 256, 1024) for r in range(2)]
    labels = [_labels(94 + r, 256, 10) for r in range(2)]
    xs = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(features[ctx.replica_id_in_sync_group]))
    ys = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(labels[ctx.replica_id_in_sync_group]))

    def replica_step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, variables[0]) + variables[1])
            logits = tf.matmul(h, variables[2]) + variables[3]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, variables)
        for variable, grad in zip(variables, grads):
            variable.assign_sub(0.01 * grad)
        return loss

    @tf.function
    def train(xs, ys):
        return strategy.run(replica_step, args=(xs, ys))

    def step():
        return strategy.experimental_local_results(train(xs, ys))
    step.devices = [_short(d) for d in devices]
    step.strategy = strategy
    return step


PROGRAMS = {name[len("program_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("program_")}


# ----------------------------------------------------------------------------------------------- running

def default_device(backend: str) -> str:
    return "CPU:0" if backend == "tensorflow" else "GPU:0"


def environment(name: str, backend: str) -> dict:
    """The environment variables a fresh process for `name` under `backend` needs."""
    if backend == "tensorflow":
        return {"TF_CPU_ALLOCATOR_USE_BFC": "true", "TF_CPP_MIN_LOG_LEVEL": "3"}
    return {"PLACEFLOW_SIMULATED_GPUS": "2" if name == "mirrored_step" else "1"}


def run(name: str, backend: str) -> dict:
    """Build program `name` with `backend` ('tensorflow' or 'placeflow') in this process and measure it."""
    if backend == "tensorflow":
        import tensorflow as tf
        if name == "mirrored_step":  # two logical CPUs on the one physical CPU (as tests/conformance/record_tf.py)
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    else:
        import placeflow as tf
    step = PROGRAMS[name](tf)
    return measure(tf, step, getattr(step, "devices", default_device(backend)))


def run_fresh(name: str, backend: str, python: str = sys.executable, extra_env: dict | None = None) -> dict:
    """`run(name, backend)` in a fresh Python process (so no allocator state carries over)."""
    env = dict(os.environ, **environment(name, backend), **(extra_env or {}))
    out = subprocess.run([python, str(pathlib.Path(__file__).resolve()), "run", backend, name],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"{name} under {backend} failed (exit {out.returncode}):\n{out.stderr[-4000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _mib(n) -> str:
    return "-" if n is None else f"{n / MIB:9.2f}"


def compare() -> None:
    """Each program under placeflow (the tree this file is in, fresh process each) beside tf_2_21_memory.json."""
    recorded = json.loads(RECORDING.read_text())["programs"]
    src = str(HERE.parent.parent / "src")
    extra = {"PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    print(f"{'program':28} {'TF/pf device':13} {'TF peak':>9} {'TF left':>9} {'pf peak':>9} {'pf left':>9}   (MiB)")
    for name in PROGRAMS:
        try:
            mine = run_fresh(name, "placeflow", extra_env=extra)
        except RuntimeError as error:
            print(f"{name:28} placeflow failed: {str(error).splitlines()[-1]}")
            continue
        theirs = recorded.get(name, {})
        rows = mine.items() if "peak_above_resident" not in mine else [("GPU:0", mine)]
        tf_rows = list(theirs.items()) if "peak_above_resident" not in theirs else [("CPU:0", theirs)]
        for index, (device, figures) in enumerate(rows):
            tf_device, tf_figures = tf_rows[index] if index < len(tf_rows) else ("-", {})
            print(f"{name:28} {tf_device + '/' + device:13} {_mib(tf_figures.get('peak_above_resident'))} "
                  f"{_mib(tf_figures.get('left_after_step'))} {_mib(figures['peak_above_resident'])} "
                  f"{_mib(figures['left_after_step'])}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        print(json.dumps(run(sys.argv[3], sys.argv[2]), sort_keys=True))
    elif sys.argv[1:] == ["compare"]:
        compare()
    else:
        sys.exit(__doc__)
