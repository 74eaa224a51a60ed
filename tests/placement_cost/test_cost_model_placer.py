"""The cost-model placer ("cost_model", placement/cost_model_placer.py): its predictions, its memory awareness,
and the simple placer's hard constraints and errors kept. No wall-clock assertions: times are predicted."""

import logging
import math

import numpy as np
import pytest

import placeflow as tf
from placeflow.runtime import step_clock
from placeflow.config.context import context
from placeflow.placement import cost_model, cost_model_placer, schedulers
from placeflow.runtime import registry
from tests.placement_cost import graphs

v1 = tf.compat.v1
FULL = "/job:localhost/replica:0/task:0/device:"


@pytest.fixture(autouse=True)
def _simple_again():
    yield
    tf.config.experimental.set_placer("simple")
    cost_model.forget_measurements()


def _graph(build, *args, **kwargs):
    graph = v1.Graph()
    with graph.as_default():
        out = build(*args, **kwargs)
    return graph, out


# -- the schedulers on plain DAGs ------------------------------------------------------------------------
def _dag(cost, inputs, devices=2, memory=None, capacity=None, latency=1.0, bandwidth=1.0, allowed=None):
    n = len(cost)
    return schedulers.Dag(cost=cost, inputs=inputs, group=list(range(n)),
                          allowed=allowed or [tuple(range(devices))] * n, memory=memory or [0] * n,
                          capacity=capacity or [math.inf] * devices,
                          latency=[[latency] * devices for _ in range(devices)],
                          bandwidth=[[bandwidth] * devices for _ in range(devices)])


def test_two_independent_ops_run_side_by_side_and_a_chain_stays_on_one_device():
    fork = _dag([[4.0, 4.0], [4.0, 4.0]], [[], []])
    for name, schedule in schedulers.run(fork, schedulers.ALGORITHMS).items():
        assert schedule.predicted == 4.0, name
        assert sorted(schedule.device) == [0, 1], name
    chain = _dag([[4.0, 4.0]] * 3, [[], [(0, (0, 0), 10.0)], [(1, (1, 0), 10.0)]])
    for name, schedule in schedulers.run(chain, schedulers.ALGORITHMS).items():
        assert schedule.predicted == 12.0 and len(set(schedule.device)) == 1, name
    assert schedulers.lower_bound(fork) == 4.0 and schedulers.lower_bound(chain) == 12.0


def test_copies_sharing_a_link_serialise():
    # two producers on device 0 (forced) feed two consumers forced onto device 1: the copies queue on one link
    dag = _dag([[1.0, math.inf]] * 2 + [[math.inf, 1.0]] * 2, [[], [], [(0, (0, 0), 5.0)], [(1, (1, 0), 5.0)]],
               allowed=[(0,), (0,), (1,), (1,)], latency=0.0)
    predicted, finish = schedulers.simulate(dag, [0, 0, 1, 1], [0, 1, 2, 3])
    assert finish[:2] == [1.0, 2.0]
    assert finish[2:] == [7.0, 12.0]   # the second copy starts when the first is done (6.0), not at 2.0
    assert predicted == 12.0


def test_a_device_without_room_is_not_eligible():
    # three 6-byte groups, two devices of 10 bytes and a slow unlimited third: one group must go to the third
    dag = _dag([[1.0, 1.0, 50.0]] * 3, [[], [], []], devices=3, memory=[6, 6, 6], capacity=[10, 10, math.inf])
    for name, schedule in schedulers.run(dag, list(schedulers.ALGORITHMS) + list(schedulers.BASELINES)).items():
        assert sorted(schedule.device) == [0, 1, 2], name
        assert schedule.memory_bound, name


def test_favorite_children_are_a_matching_of_the_heaviest_edges():
    dag = _dag([[1.0, 1.0]] * 4, [[], [(0, (0, 0), 1.0)], [(0, (0, 0), 9.0)], [(1, (1, 0), 3.0), (2, (2, 0), 2.0)]])
    assert schedulers.favorite_children(dag) == [2, 3, None, None]


# -- placing real graphs ----------------------------------------------------------------------------------
def test_the_placer_is_registered_and_simple_stays_the_default(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:H100")
    assert tf.config.experimental.get_placer() == "simple"
    tf.config.experimental.set_placer("cost_model")
    assert tf.config.experimental.get_placer() == "cost_model"


def test_a_4_layer_lstm_over_4_gpus_predicts_at_most_0_6_of_one(make_context):
    """Ops large enough that the devices, not the host issuing them one by one (20 us each), bound the step: a
    512-unit LSTM's ops take less than the host's issue, and there one GPU is best (the placer then keeps it)."""
    make_context(PLACEFLOW_SIMULATED_GPUS="4:80GiB:H100")
    graph, _ = _graph(graphs.lstm, layers=4, steps=32, hidden=8192, batch=1024)
    found, bound = cost_model_placer.evaluate(graph.get_operations(), context(),
                                              cost_model_placer.ALGORITHMS + ("single device",))
    best = min(t for name, t in found.items() if name != "single device")
    assert bound <= best <= 0.6 * found["single device"]


@pytest.fixture
def free_host(monkeypatch):
    """A host that issues ops at no cost (PLACEFLOW_HOST_COSTS of zeros): small ops are then worth spreading."""
    monkeypatch.setattr(step_clock, "_host_costs", dict.fromkeys(step_clock.HOST_SECONDS, 0.0))


def test_a_session_under_cost_model_spreads_the_lstm_and_reports_its_plan(make_context, free_host):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:80GiB:H100")
    tf.experimental.reset_placement_report()
    tf.config.experimental.set_placer("cost_model")
    graph, out = _graph(graphs.lstm, layers=2, steps=4, hidden=512, batch=64)
    feeds = {graph.get_tensor_by_name(f"x{t}:0"): np.full((64, 512), 0.1 * t, np.float32) for t in range(4)}
    with v1.Session(graph=graph) as sess:
        _initialize(sess, graph)
        got = sess.run(out, feeds)
    report = tf.experimental.placement_report()
    run = report.placements[-1]
    assert run.placer == "cost_model" and run.lower_bound <= run.predicted
    assert f"cost_model placer: {run.algorithm}, predicted step" in str(report)
    assert {row["reason"] for row in report.ops} >= {"earliest finish"}   # the op rows carry the reasons
    assert set(run.candidates) >= {"heft", "m-etf", "m-sct", "single device"}
    assert {reason for _, _, _, reason, _ in run.rows} <= {"earliest finish", "memory", "colocation",
                                                           "fastest device", "default"}
    assert len({device for _, _, device, _, _ in run.rows}) > 1
    with v1.Session(graph=graph) as sess:   # the same graph, placed by the simple placer, computes the same
        tf.config.experimental.set_placer("simple")
        _initialize(sess, graph)
        np.testing.assert_allclose(got, sess.run(out, feeds), rtol=1e-6)


def _initialize(sess, graph) -> None:
    sess.run([op for op in graph.get_operations() if op.type == "Assign"])


def _train(placer, device=None, steps=3):
    tf.config.experimental.set_placer(placer)
    graph = v1.Graph()
    with graph.as_default(), tf.device(device):
        loss, train = graphs.too_large()
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        return [float(sess.run([loss, train])[0]) for _ in range(steps)]


def test_a_model_too_large_for_one_gpu_trains_under_cost_model_as_on_the_cpu(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:64MiB:H100")   # 160 MiB of variables, 4 GPUs of 64 MiB
    spread = _train("cost_model")
    np.testing.assert_allclose(spread, _train("simple", "/CPU:0"), rtol=1e-5)
    placed = {row[2] for run in tf.experimental.placement_report().placements for row in run.rows}
    assert sum(name.endswith(("GPU:0", "GPU:1", "GPU:2", "GPU:3")) for name in placed) >= 2


def test_the_same_model_runs_out_of_memory_under_simple(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:64MiB:H100")
    with pytest.raises(tf.errors.ResourceExhaustedError, match="GPU_0_bfc"):
        _train("simple", steps=1)


@pytest.mark.parametrize("name", sorted(graphs.SMALL))
def test_never_slower_than_one_device_predicted(make_context, name):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:80GiB:H100")
    graph, _ = _graph(graphs.SMALL[name])
    found, bound = cost_model_placer.evaluate(graph.get_operations(), context(),
                                              cost_model_placer.ALGORITHMS + ("single device",))
    chosen = min(found.values())   # what the placer keeps: its best, or the single device when no better
    assert bound <= chosen <= found["single device"]


# -- the simple placer's constraints and errors, kept ------------------------------------------------------
def _place(placer, build, soft=False):
    """(placements by op name, error) of the graph `build` makes, placed by `placer`."""
    tf.config.experimental.set_placer(placer)
    graph, out = _graph(build)
    sess = v1.Session(graph=graph, config=v1.ConfigProto(allow_soft_placement=soft))
    try:
        sess.run(out)
    except Exception as exc:  # noqa: BLE001 - compared below
        return None, exc
    return {op.name: device.name for op, device in sess._placed.items()}, None


def _pinned():
    with tf.device("/GPU:1"):
        a = tf.constant(np.ones((64, 64), np.float32), name="a")
        b = tf.matmul(a, a, name="b")
    with tf.device("/CPU:0"):
        c = tf.reduce_sum(b, name="c")
    return c


def _colocated():
    v = v1.Variable(np.ones((8, 8), np.float32), name="v")
    with tf.device("/GPU:1"):
        w = v1.Variable(np.ones((8, 8), np.float32), name="w")
    with v1.colocate_with(w):
        total = tf.add(tf.matmul(v, v), 1.0, name="total")
    return [v1.global_variables_initializer(), total]


def _missing_gpu():
    with tf.device("/GPU:7"):
        return tf.add(tf.constant(1.0), 2.0, name="y")


def _int_cast():
    with tf.device("/GPU:0"):
        return tf.cast(tf.constant([1, 2]) * 3, tf.float32, name="cast")


def test_pins_are_honoured(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    placed, error = _place("cost_model", _pinned)
    assert error is None
    assert placed["b"] == FULL + "GPU:1" and placed["c"] == FULL + "CPU:0" and placed["a"] == FULL + "GPU:1"


def test_colocation_groups_share_a_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    placed, error = _place("cost_model", _colocated)
    assert error is None
    assert placed["w"] == placed["w/read"] == placed["w/Assign"] == placed["total"] == FULL + "GPU:1"
    assert placed["v"] == placed["v/read"] == placed["v/Assign"]


def test_kernel_availability_is_honoured_like_simple(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    simple, _ = _place("simple", _int_cast, soft=True)
    cost, error = _place("cost_model", _int_cast, soft=True)
    assert error is None and cost["cast"] == simple["cast"]


@pytest.mark.parametrize("build", [_missing_gpu, _int_cast], ids=["missing device", "no gpu kernel"])
def test_errors_are_the_simple_placers(make_context, build):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    _, simple = _place("simple", build)
    _, cost = _place("cost_model", build)
    assert type(simple) is type(cost) and type(cost) is tf.errors.InvalidArgumentError
    assert str(cost) == str(simple)


def test_soft_placement_falls_back_with_the_same_warning(make_context, caplog):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    with caplog.at_level(logging.WARNING, logger="placeflow"):
        placed, error = _place("cost_model", _missing_gpu, soft=True)
    assert error is None and placed["y"].startswith(FULL)   # the cheapest remaining device (a scalar: the CPU)
    assert "y (AddV2) fell back from /device:GPU:7 to" in caplog.text


def test_strict_placement_raises_as_under_simple(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    tf.config.experimental.set_strict_placement(True)
    try:
        _, simple = _place("simple", _missing_gpu, soft=True)
        _, cost = _place("cost_model", _missing_gpu, soft=True)
    finally:
        tf.config.experimental.set_strict_placement(False)
    assert type(cost) is tf.errors.InvalidArgumentError and str(cost) == str(simple)


def test_the_log_line_names_the_placer(make_context, capsys):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:H100")
    tf.config.experimental.set_placer("cost_model")
    graph, out = _graph(lambda: tf.matmul(tf.ones([4, 4]), tf.ones([4, 4]), name="m"))
    with v1.Session(graph=graph, config=v1.ConfigProto(log_device_placement=True)) as sess:
        sess.run(out)
    lines = capsys.readouterr().err.splitlines()
    assert any(line.startswith(f"m: (MatMul): {FULL}") and "[placer cost_model: " in line for line in lines)


def test_measured_times_replace_the_model(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:H100")
    graph, out = _graph(lambda: tf.matmul(tf.ones([8, 8]), tf.ones([8, 8]), name="m"))
    model = cost_model.CostModel(registry.devices(context()))
    op = graph.get_operation_by_name("m")
    modelled = model.op_times(op, range(len(model.devices)))
    cost_model.record_time("MatMul", [(8, 8), (8, 8)], "GPU", 0.25)
    cost_model.record_time("MatMul", [(8, 8), (8, 8)], "GPU", 0.75)
    measured = model.op_times(op, range(len(model.devices)))
    assert measured[:2] == [0.5, 0.5] and measured[2] == modelled[2] and modelled[0] < 0.5
    with pytest.raises(ValueError, match="seconds must be a finite number >= 0"):
        cost_model.record_time("MatMul", [], "GPU", -1.0)


def test_a_function_is_placed_again_when_measured_times_drift_from_the_model(make_context):
    """TensorFlow's whitepaper placer uses "the measured computation time in previous runs": a trace placed by the
    cost model is placed again at its next call once recorded times differ from the model's by more than
    cost_model_placer.DRIFT_FACTOR on ops making more than DRIFT_SHARE of its predicted time."""
    make_context(PLACEFLOW_SIMULATED_GPUS="2:80GiB:H100")
    tf.config.experimental.set_placer("cost_model")
    tf.experimental.reset_placement_report()
    x = tf.constant(np.ones((512, 512), np.float32))

    @tf.function
    def step(x):
        return tf.reduce_sum(tf.tanh(x @ x) @ x)

    step(x)
    placements = len(tf.experimental.placement_report().placements)
    cost_model.record_time("Tanh", [(512, 512)], "GPU", 7e-6)   # within 2x of the model (5.6 us): no drift
    step(x)
    assert len(tf.experimental.placement_report().placements) == placements
    cost_model.record_time("MatMul", [(512, 512), (512, 512)], "GPU", 0.5)   # half a second: far off the model
    value = step(x)
    assert len(tf.experimental.placement_report().placements) == placements + 1
    np.testing.assert_allclose(float(value), float(tf.reduce_sum(tf.tanh(x @ x) @ x)), rtol=1e-5)
    cost_model.forget_measurements()


def test_the_placer_reads_the_op_times_a_real_run_recorded(make_context, tmp_path):
    """PLACEFLOW_OP_TIMES (runtime/op_times.py), which estimates read, is the placer's measurement too."""
    import json
    from placeflow.runtime import op_times
    key = op_times.key_of_shapes("MatMul", [((64, 64), np.float32), ((64, 64), np.float32)], "GPU")
    times = tmp_path / "times.json"
    times.write_text(json.dumps({"op_times": {key: {"seconds": 0.006, "calls": 2}}}))
    make_context(PLACEFLOW_SIMULATED_GPUS="1:1GiB:H100", PLACEFLOW_OP_TIMES=str(times))
    graph = v1.Graph()
    with graph.as_default():
        a = v1.placeholder(tf.float32, [64, 64])
        tf.matmul(a, a)
    matmul = [op for op in graph.get_operations() if op.type == "MatMul"][0]
    model = cost_model.CostModel(registry.devices(context()))
    gpu = [k for k, d in enumerate(model.devices) if d.device_type == "GPU"][0]
    assert model.op_times(matmul, [gpu])[gpu] == pytest.approx(0.003)
    op_times.reset()


def test_lifetime_peaks_free_each_output_after_its_last_reader():
    """a -> b -> c, 10 bytes each, on one device: at most two outputs are alive at once (20), not all three."""
    dag = schedulers.Dag(cost=[[1.0], [1.0], [1.0]], inputs=[[], [(0, (0, 0), 10)], [(1, (1, 0), 10)]],
                         group=[0, 1, 2], allowed=[(0,), (0,), (0,)], memory=[10, 10, 10], capacity=[25.0],
                         latency=[[0.0]], bandwidth=[[math.inf]], kept=[0, 0, 0], output=[10, 10, 10])
    _, finish = schedulers.simulate(dag, [0, 0, 0], [0, 1, 2])
    assert schedulers.lifetime_peaks(dag, [0, 0, 0], finish) == [20.0]


def test_outputs_freed_at_their_last_reader_let_a_chain_stay_on_a_small_gpu(make_context):
    """Eight 8 MiB tanh outputs would hold 64 MiB if kept for the whole step (more than a 64 MiB GPU's room); the
    executor frees each after its reader, so the chain fits: the placer keeps it on the GPU and it runs there."""
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64MiB:H100")
    tf.config.experimental.set_placer("cost_model")
    tf.experimental.reset_placement_report()
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2048, 1024], name="x")
        h = x
        for _ in range(8):
            h = tf.tanh(h * 1.01)
        out = tf.reduce_sum(h)
    value = np.random.default_rng(0).random((2048, 1024), np.float32)
    with v1.Session(graph=graph) as sess:
        got = sess.run(out, {x: value})
    run = tf.experimental.placement_report().placements[-1]
    assert "(by lifetimes)" in run.algorithm
    assert {device for _, op_type, device, _, _ in run.rows if op_type == "Tanh"} == {
        "/job:localhost/replica:0/task:0/device:GPU:0"}
    expected = value
    for _ in range(8):
        expected = np.tanh(expected * np.float32(1.01))
    assert got == pytest.approx(float(expected.sum()), rel=1e-4)


def test_device_functions_are_honoured(make_context):
    """A device function (seed 003's `with tf.device(fn)`) pins what it returns, under cost_model as under simple."""
    make_context(PLACEFLOW_SIMULATED_GPUS="2:80GiB:H100")
    tf.config.experimental.set_placer("cost_model")
    tf.experimental.reset_placement_report()
    graph = v1.Graph()
    with graph.as_default(), tf.device(lambda op: "/device:CPU:0" if op.type == "MatMul" else "/device:GPU:1"):
        x = v1.placeholder(tf.float32, [256, 256], name="x")
        out = tf.reduce_sum(tf.tanh(tf.matmul(x, x)))
    with v1.Session(graph=graph) as sess:
        sess.run(out, {x: np.ones((256, 256), np.float32) * 0.01})
    devices = {op_type: device for _, op_type, device, _, _ in tf.experimental.placement_report().placements[-1].rows}
    assert devices["MatMul"].endswith("CPU:0") and devices["Tanh"].endswith("GPU:1") and devices["Sum"].endswith("GPU:1")
