"""Cases for tf.distribute's additions, run by TensorFlow 2.21 (record_tf_distribute_more.py) and placeflow
(test_recorded.py): each `case_<name>(tf)` returns JSON-able results, or [error class, first line]."""

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error

SHAPES = [[6, 1], [6, 4], [7], [10, 3, 2], [1, 5], [1000, 64], [3, 300], [0, 4], [33, 17]]
DTYPES = ["float32", "float64", "int8", "bool", "string", "int64", "float16"]


def _grid(tf, partitioner, shapes=SHAPES):
    out = []
    for shape in shapes:
        for dtype in DTYPES:
            for axis in range(len(shape)):
                if 0 in shape and axis:
                    continue
                out.append(partitioner(tf.TensorShape(shape), getattr(tf, dtype), axis=axis))
    return out


def case_fixed_shards(tf):
    make = tf.distribute.experimental.partitioners.FixedShardsPartitioner
    return [_grid(tf, make(n)) for n in (1, 2, 3, 8)]


def case_min_size(tf):
    make = tf.distribute.experimental.partitioners.MinSizePartitioner
    settings = [(4, 2), (4, 10), (1, 1000), (64, 3), (1000, 5), (8, 4, 2), (256 << 10, 1), (100, 7, 5)]
    return [_grid(tf, make(*s)) for s in settings] + [make()(tf.TensorShape([1 << 20, 4]), tf.float32),
                                                      make(max_shards=64)(tf.TensorShape([1 << 20, 4]), tf.float32)]


def case_max_size(tf):
    make = tf.distribute.experimental.partitioners.MaxSizePartitioner
    settings = [(4,), (4, 2), (1024,), (16, 3), (100, None, 5), (7.5,), (1, 1000), (64, None, 1)]
    shapes = [s for s in SHAPES if s[0]]  # TensorFlow divides by zero on an empty axis (placeflow: 1 shard)
    return [_grid(tf, make(*s), shapes) for s in settings]


def case_partitioner_errors(tf):
    part = tf.distribute.experimental.partitioners
    return [error(lambda: part.MinSizePartitioner(0)), error(lambda: part.MinSizePartitioner(4, 0)),
            error(lambda: part.MinSizePartitioner(4, 2, 0)), error(lambda: part.MaxSizePartitioner(0)),
            error(lambda: part.MaxSizePartitioner(-3)), error(lambda: part.MaxSizePartitioner(4, None, 0)),
            error(lambda: part.MaxSizePartitioner(4)(tf.TensorShape([None, 4]), tf.float32)),
            issubclass(part.MaxSizePartitioner, part.Partitioner),
            issubclass(part.FixedShardsPartitioner, part.Partitioner)]


def case_value_context(tf):
    context = tf.distribute.experimental.ValueContext(1, 3)
    default = tf.distribute.experimental.ValueContext()
    return [context.replica_id_in_sync_group, context.num_replicas_in_sync,
            default.replica_id_in_sync_group, default.num_replicas_in_sync]


def case_input_options(tf):
    options = tf.distribute.InputOptions()
    custom = tf.distribute.InputOptions(experimental_fetch_to_device=False, experimental_per_replica_buffer_size=3,
                                        experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA)
    return [options.experimental_fetch_to_device, options.experimental_replication_mode.value,
            options.experimental_place_dataset_on_device, options.experimental_per_replica_buffer_size,
            custom.experimental_fetch_to_device, custom.experimental_per_replica_buffer_size,
            custom.experimental_replication_mode.name, [m.value for m in tf.distribute.InputReplicationMode],
            error(lambda: tf.distribute.InputOptions(bogus=1)), repr(options)]


def case_run_options(tf):
    options = tf.distribute.RunOptions()
    custom = tf.distribute.RunOptions(experimental_bucketizing_dynamic_shape=True)
    return [options.experimental_enable_dynamic_batch_size, options.experimental_bucketizing_dynamic_shape,
            options.experimental_xla_options, custom.experimental_bucketizing_dynamic_shape,
            error(lambda: tf.distribute.RunOptions(bogus=1)), repr(options)]


def case_collective_hints(tf):
    hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=32, timeout_seconds=5.0)
    default = tf.distribute.experimental.CollectiveHints()
    return [hints.bytes_per_pack, hints.timeout_seconds, hints.implementation.value, default.bytes_per_pack,
            default.timeout_seconds,
            error(lambda: tf.distribute.experimental.CollectiveHints(bytes_per_pack=-1))]


X = np.random.RandomState(3).randn(12, 3).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)


def _rounded(x):
    return np.round(np.asarray(x.numpy() if hasattr(x, "numpy") else x, np.float64), 6).tolist()


def _central(tf):
    return tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])


def _linear_variables(tf, strategy):
    with strategy.scope():
        w = tf.Variable(np.array([[0.5], [-0.25], [0.1]], np.float32), name="w")
        b = tf.Variable([0.0], name="b")
        last = tf.Variable(0.0, aggregation=tf.VariableAggregation.MEAN, name="last_loss")
    return w, b, last


def _replica_step(tf, w, b, last, batch):
    def step(xb, yb):
        with tf.GradientTape() as tape:
            error = tf.matmul(xb, w) + b - yb
            loss = tf.nn.compute_average_loss(tf.reduce_sum(tf.square(error), axis=1), global_batch_size=4)
        grads = tape.gradient(loss, [w, b])

        def apply(strategy, grads):
            for grad, var in zip(grads, [w, b]):
                total = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, grad, destinations=var)
                strategy.extended.update(var, lambda v, g: v.assign_sub(0.1 * g), args=(total,))
        tf.distribute.get_replica_context().merge_call(apply, args=(grads,))
        last.assign(loss)
        return loss
    return step(*batch)


def case_central_storage_custom_loop(tf):
    strategy = _central(tf)
    w, b, last = _linear_variables(tf, strategy)
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((X, Y)).batch(4))

    @tf.function
    def train(batch):
        per_replica = strategy.run(lambda *args: _replica_step(tf, w, b, last, args), args=batch)
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
    losses = [_rounded(train(batch)) for _ in range(2) for batch in dataset]
    return [losses, _rounded(w), _rounded(b), _rounded(last), strategy.num_replicas_in_sync,
            len(strategy.experimental_local_results(w)), w.device.endswith("CPU:0"),
            [d.rsplit("/", 1)[-1] for d in strategy.extended.worker_devices],
            [d.rsplit("/", 1)[-1] for d in strategy.extended.parameter_devices]]


def case_central_storage_eager_steps(tf):
    strategy = _central(tf)
    w, b, _ = _linear_variables(tf, strategy)
    out = []
    for batch in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((X, Y)).batch(6)):
        def grads(xb, yb):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(tf.matmul(xb, w) + b - yb)) / 6.0
            gw, gb = tape.gradient(loss, [w, b])
            context = tf.distribute.get_replica_context()
            return loss, gw, context.all_reduce(tf.distribute.ReduceOp.SUM, gb)
        loss, gw, gb = strategy.run(grads, args=batch)
        total_w = strategy.reduce(tf.distribute.ReduceOp.SUM, gw, axis=None)
        w.assign_sub(0.05 * total_w)
        b.assign_sub(0.05 * strategy.experimental_local_results(gb)[0])
        out.append([_rounded(strategy.reduce("SUM", loss, axis=None)),
                    _rounded(strategy.reduce("MEAN", gw, axis=None))])
    return [out, _rounded(w), _rounded(b)]


def case_central_storage_values(tf):
    strategy = _central(tf)
    values = strategy.experimental_distribute_values_from_function(
        lambda context: tf.constant(float(context.replica_id_in_sync_group + 1) * context.num_replicas_in_sync))
    parts = strategy.experimental_local_results(values)
    with strategy.scope():
        total = tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM)
        plain = tf.Variable(1.0)

    def add(value):
        total.assign_add(value)
        return tf.distribute.get_replica_context().replica_id_in_sync_group
    ids = strategy.run(add, args=(values,))
    batches = [[_rounded(p) for p in strategy.experimental_local_results(x)]
               for x in strategy.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(3))]
    return [[_rounded(p) for p in parts], _rounded(total), [int(i) for i in strategy.experimental_local_results(ids)],
            _rounded(strategy.reduce("MEAN", values, axis=None)), batches,
            error(lambda: strategy.run(lambda: plain.assign_add(1.0))), _rounded(plain),
            _rounded(strategy.reduce("SUM", strategy.run(lambda x: x * 2.0, args=(values,)), axis=None))]


def case_central_storage_run_options(tf):
    """(TensorFlow 2.21's CentralStorageStrategy.experimental_distribute_dataset fails with AttributeError on any
    InputOptions, a typo in its code: placeflow's honouring of them is tested in test_central_storage.py.)"""
    strategy = _central(tf)
    result = strategy.run(lambda: tf.constant(2.0), options=tf.distribute.RunOptions())
    return _rounded(strategy.reduce("SUM", result, axis=None))


def case_set_strategy(tf):
    first, second = _central(tf), tf.distribute.OneDeviceStrategy("/cpu:0")
    tf.distribute.experimental_set_strategy(first)
    out = [tf.distribute.get_strategy() is first, tf.distribute.has_strategy(),
           tf.distribute.in_cross_replica_context()]
    tf.distribute.experimental_set_strategy(second)
    out.append(tf.distribute.get_strategy() is second)
    out.append(error(lambda: first.scope().__enter__()))
    tf.distribute.experimental_set_strategy(None)
    out.append(tf.distribute.has_strategy())
    with first.scope():
        out.append(error(lambda: tf.distribute.experimental_set_strategy(second)))
        out.append(error(lambda: tf.distribute.experimental_set_strategy(None)))
    out.append(tf.distribute.has_strategy())
    return out


def fit_model(tf, strategy):
    """A small Keras classifier trained 3 epochs under `strategy`: (model, history)."""
    rng = np.random.RandomState(0)
    x, y = rng.randn(16, 5).astype(np.float32), rng.randint(0, 3, 16).astype(np.int32)
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(8, activation="relu", kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1)),
            tf.keras.layers.Dense(3, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=2))])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9), metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    return model, history


def case_central_storage_keras_fit(tf):
    """The weights only: TensorFlow 2.21's CentralStorageStrategy reports skewed metrics in fit's history
    (accuracy 5/12 of 16 examples); placeflow's history equals MirroredStrategy's (test_central_storage.py)."""
    model, _ = fit_model(tf, _central(tf))
    return [_rounded(w) for w in model.get_weights()]


SLURM = {"SLURM_PROCID": "3", "SLURM_STEP_NUM_TASKS": "4", "SLURM_STEP_NODELIST": "node[01-02]",
         "SLURM_STEP_TASKS_PER_NODE": "2(x2)"}
MIXED = {"SLURM_PROCID": "4", "SLURM_STEP_NUM_TASKS": "6", "SLURM_STEP_NODELIST": "a1,b[3-4,7]",
         "SLURM_STEP_TASKS_PER_NODE": "1,2(x2),1"}


def _slurm(tf, env, **kwargs):
    """SlurmClusterResolver(**kwargs) in the Slurm environment `env`: its cluster, task, master, accelerators and
    the CUDA_VISIBLE_DEVICES it sets (the process's environment is restored afterwards)."""
    import os
    saved = dict(os.environ)
    try:
        for name in [n for n in os.environ if n.startswith("SLURM_") or n == "CUDA_VISIBLE_DEVICES"]:
            del os.environ[name]
        os.environ.update(env)
        resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(**kwargs)
        before = [resolver.task_type, resolver.task_id, resolver.master(), resolver.num_accelerators()]
        spec = resolver.cluster_spec().as_dict()
        return before + [spec, list(resolver.get_task_info()), resolver.master(),
                         resolver.master("worker", 0, rpc_layer=""), os.environ.get("CUDA_VISIBLE_DEVICES"),
                         resolver.rpc_layer]
    except Exception as exc:  # noqa: BLE001 - the class is the recorded result
        return [type(exc).__name__, str(exc).splitlines()[0]]
    finally:
        os.environ.clear()
        os.environ.update(saved)


def case_slurm_resolver(tf):
    return [_slurm(tf, SLURM, gpus_per_node=4), _slurm(tf, SLURM, gpus_per_node=4, gpus_per_task=1),
            _slurm(tf, SLURM, gpus_per_node=4, jobs={"ps": 1, "worker": 3}),
            _slurm(tf, SLURM, gpus_per_node=4, jobs={"worker": 3, "chief": 1}, port_base=9000),
            _slurm(tf, dict(SLURM, CUDA_VISIBLE_DEVICES="0,1,2")), _slurm(tf, MIXED, gpus_per_node=2),
            _slurm(tf, SLURM, gpus_per_node=4, tasks_per_node={"node01": 1, "node02": 3}),
            _slurm(tf, SLURM, gpus_per_node=4, tasks_per_node=2),
            _slurm(tf, SLURM, gpus_per_node=4, auto_set_gpu=False),
            _slurm(tf, SLURM, gpus_per_node=4, rpc_layer="grpc+verbs"),
            _slurm(tf, dict(SLURM, SLURM_STEP_NODELIST="x-[9-11]", SLURM_STEP_TASKS_PER_NODE="1(x3)",
                            SLURM_STEP_NUM_TASKS="3", SLURM_PROCID="0"), gpus_per_node=2)]


def case_slurm_resolver_errors(tf):
    without = {name: {k: v for k, v in SLURM.items() if k != name} for name in SLURM}
    return [_slurm(tf, SLURM, gpus_per_node=4, jobs={"worker": 5}),
            _slurm(tf, SLURM, gpus_per_node=4, jobs={"worker": 3}),
            _slurm(tf, SLURM, gpus_per_node=4, gpus_per_task=3), _slurm(tf, MIXED, gpus_per_node=2, tasks_per_node=1),
            _slurm(tf, SLURM, gpus_per_node=4, tasks_per_node=3)] + \
        [_slurm(tf, without[name], gpus_per_node=1) for name in sorted(without)]


def case_union_resolver(tf):
    resolvers = tf.distribute.cluster_resolver
    a = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["a:1", "a:2"]}), master="grpc://a:1",
                                        task_type="worker", task_id=1, num_accelerators={"GPU": 2}, rpc_layer="grpc")
    b = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"ps": ["p:1"]}), master="p:1", task_type="ps", task_id=0)
    c = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": {2: "a:3"}}))
    d = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["z:1"]}))
    union = resolvers.UnionResolver(a, b)
    named = resolvers.UnionResolver(a, b, task_type="ps", task_id=2, rpc_layer="http")
    union_ba = resolvers.UnionResolver(b, a)
    out = [union.cluster_spec().as_dict(), union.master(), union.task_type, union.task_id, union.rpc_layer,
           union.num_accelerators(), union_ba.master(), union_ba.task_type, union_ba.num_accelerators(),
           resolvers.UnionResolver(a, c).cluster_spec().as_dict(),
           resolvers.UnionResolver(a, d).cluster_spec().as_dict(),
           named.task_type, named.task_id, named.rpc_layer, named.master("worker", 0),
           named.master("worker", 0, rpc_layer="grpc"), error(lambda: resolvers.UnionResolver()),
           error(lambda: resolvers.UnionResolver(a, "x")), isinstance(union, resolvers.ClusterResolver)]
    union.task_type, union.task_id = "chief", 4
    return out + [union.task_type, union.task_id, a.task_type]


def case_refused_resolvers(tf):
    return [error(lambda: tf.distribute.cluster_resolver.KubernetesClusterResolver())]

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
