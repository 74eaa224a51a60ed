"""Programs run by every worker of a loopback cluster (tests/distribute/test_multi_worker.py).

`python multi_worker_programs.py <program> [role]`, with TF_CONFIG set per worker; each program prints one
JSON line starting with RESULT. Each program is also run in one process (no TF_CONFIG) for the reference.
With PROGRAM_LIBRARY=tensorflow the programs run on TensorFlow (record_tf_multi_worker.py records them).
"""

import json
import os
import sys
import time

import numpy as np

if os.environ.get("PROGRAM_LIBRARY") == "tensorflow":  # record_tf_multi_worker.py: the same program under TF
    import tensorflow as tf
else:
    import placeflow as tf


def strategy(timeout_seconds=None):
    """MultiWorkerMirroredStrategy from TF_CONFIG; a one-worker MirroredStrategy without TF_CONFIG."""
    if not os.environ.get("TF_CONFIG"):
        return tf.distribute.MirroredStrategy()
    options = tf.distribute.experimental.CommunicationOptions(timeout_seconds=timeout_seconds)
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


def linear_regression(role=None):
    """The custom loop of issue 18: y = 3x + 1 on linspace(-1, 1, 64), global batch 16, SGD 0.2."""
    s = strategy()
    x = np.linspace(-1, 1, 64).astype(np.float32).reshape(-1, 1)
    ds = tf.data.Dataset.from_tensor_slices((x, 3 * x + 1)).batch(16)
    with s.scope():
        w, b = tf.Variable(0.5), tf.Variable(0.0)

    @tf.function
    def step(batch):
        def replica(batch):
            xb, yb = batch
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((w * xb + b - yb) ** 2) / 16.0
            grads = tf.distribute.get_replica_context().all_reduce("SUM", tape.gradient(loss, [w, b]))
            w.assign_sub(0.2 * grads[0])
            b.assign_sub(0.2 * grads[1])
            return loss
        return s.reduce("SUM", s.run(replica, args=(batch,)), axis=None)

    losses = [float(step(batch)) for _ in range(3) for batch in s.experimental_distribute_dataset(ds)]
    out = {"w": float(w.numpy()), "b": float(b.numpy()), "losses": losses, "replicas": s.num_replicas_in_sync}
    if os.environ.get("TF_CONFIG"):  # this task's own /job:/task: name means its devices
        task = json.loads(os.environ["TF_CONFIG"])["task"]
        with tf.device(f"/job:{task['type']}/task:{task['index']}/device:CPU:0"):
            out["own_task_sum"] = float(tf.reduce_sum(tf.constant([1.0, 2.0])))
    return out


def keras_fit(role=None):
    """A Keras model fit on 64 rows, global batch 16, with a metric; weights and history."""
    s = strategy()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.25
    with s.scope():
        tf.keras.utils.set_random_seed(7)
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    checkpoint = os.path.join(os.environ["CKPT_DIR"], f"w{s.extended.worker_index}.weights.h5")
    try:
        history = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(16), epochs=3, verbose=0,
                            callbacks=[tf.keras.callbacks.ModelCheckpoint(checkpoint, save_weights_only=True)])
    except ValueError as error:  # Keras 3's fit across workers (see test_multi_worker.py)
        return {"fit_error": type(error).__name__, "message": str(error).splitlines()[0]}
    evaluated = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    predicted = model.predict(x[:5], batch_size=2, verbose=0)
    return {"weights": [w.tolist() for w in model.get_weights()], "history": history.history,
            "evaluate": evaluated, "predict": predicted.tolist(), "checkpoint_written": os.path.exists(checkpoint)}


def input_and_reductions(role=None):
    """Who gets which rows: auto-sharded batches, datasets_from_function contexts, reduce and gather."""
    s = strategy()
    ds = tf.data.Dataset.range(12).batch(4)
    rows = [local.numpy().tolist() for batch in s.experimental_distribute_dataset(ds)
            for local in s.experimental_local_results(batch)]
    contexts = []

    def dataset_fn(context):
        contexts.append([context.num_input_pipelines, context.input_pipeline_id, context.num_replicas_in_sync])
        return tf.data.Dataset.range(8).shard(context.num_input_pipelines, context.input_pipeline_id).batch(2)
    from_function = [local.numpy().tolist() for batch in s.distribute_datasets_from_function(dataset_fn)
                     for local in s.experimental_local_results(batch)]
    def replica_values():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32) * tf.ones([2])
    per_replica = s.run(replica_values)
    reduced = {"sum": s.reduce("SUM", per_replica, axis=None).numpy().tolist(),
               "mean": s.reduce("MEAN", per_replica, axis=None).numpy().tolist(),
               "mean_axis": float(s.reduce("MEAN", per_replica, axis=0).numpy()),
               "mean_axis_traced": float(tf.function(lambda: s.reduce("MEAN", s.run(replica_values), axis=0))())}
    gathered = s.gather(per_replica, axis=0).numpy().tolist()
    return {"rows": rows, "contexts": contexts, "from_function": from_function, "reduced": reduced,
            "gathered": gathered}


def fault(role):
    """A step, then the victim dies: the survivor's next step raises UnavailableError; it then forms a new
    cluster with a restarted worker ('replacement') and steps again."""
    def make():
        s = strategy(timeout_seconds=float(os.environ.get("STEP_TIMEOUT", "10")))

        @tf.function
        def step():
            return s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant([1.0, 1.0])))
        return step

    step = make()
    out = {"first": step().numpy().tolist()}
    if role == "victim":
        print("RESULT " + json.dumps(out), flush=True)
        os.kill(os.getpid(), 9)
    if role == "silent":
        print("RESULT " + json.dumps(out), flush=True)
        time.sleep(60)
    if role == "survivor":
        start = time.monotonic()
        try:
            step()
            out["error"] = None
        except tf.errors.UnavailableError as error:
            out["error"], out["message"] = "UnavailableError", str(error)
        out["seconds"] = time.monotonic() - start
        if os.environ.get("REFORM"):
            out["reformed"] = make()().numpy().tolist()
    return out


def memory(role=None):
    """An MLP 1024-2048-10 step (strategy.run, SUM all-reduce, SGD) three times on one simulated GPU per worker:
    the peak on GPU:0 (tests/estimate compares runs with PLACEFLOW_ESTIMATE=1 against real ones)."""
    s = strategy()
    rng = np.random.default_rng(0)
    with s.scope():
        w1 = tf.Variable(rng.standard_normal((1024, 2048)).astype(np.float32) * 0.03)
        w2 = tf.Variable(rng.standard_normal((2048, 10)).astype(np.float32) * 0.03)
    x = tf.constant(rng.standard_normal((256, 1024)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, 256).astype(np.int32))

    @tf.function
    def step():
        def replica():
            with tf.GradientTape() as tape:
                logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
            grads = tf.distribute.get_replica_context().all_reduce("SUM", tape.gradient(loss, [w1, w2]))
            w1.assign_sub(0.01 * grads[0])
            w2.assign_sub(0.01 * grads[1])
            return loss
        return s.run(replica)

    for _ in range(3):
        step()
    return {"peak": tf.config.experimental.get_memory_info("GPU:0")["peak"]}


PROGRAMS = {"linear": linear_regression, "fit": keras_fit, "input": input_and_reductions, "fault": fault,
            "memory": memory}

if __name__ == "__main__":
    result = PROGRAMS[sys.argv[1]](sys.argv[2] if len(sys.argv) > 2 else None)
    print("RESULT " + json.dumps(result), flush=True)
