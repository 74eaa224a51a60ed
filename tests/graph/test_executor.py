"""The executor: partitioning with copies, concurrency (measured by step-stats overlap), errors, tracing."""

import json
import linecache
import traceback
import threading

import numpy as np
import pytest

import placeflow as tf
from placeflow.python.client import timeline
from placeflow.graph import intra_op

FULL_TRACE = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)


def traced_run(sess, fetches, feed_dict=None):
    metadata = tf.compat.v1.RunMetadata()
    value = sess.run(fetches, feed_dict=feed_dict, options=FULL_TRACE, run_metadata=metadata)
    return value, metadata.step_stats


def overlaps(first, second) -> bool:
    return first.all_start_micros < second.all_end_micros and second.all_start_micros < first.all_end_micros


def two_branches(devices, size=384):
    outs = []
    for device in devices:
        with tf.device(device):
            x = tf.constant(np.random.RandomState(0).rand(size, size).astype(np.float32) / size)
            outs.append(tf.matmul(tf.matmul(x, x, name=f"first_{device[-1]}"), x, name=f"second_{device[-1]}"))
    with tf.device(devices[0]):
        return tf.add_n(outs, name="total")


def by_name(stats):
    return {n.node_name: n for n in stats.all_nodes()}


def concurrent_matmuls(stats) -> bool:
    matmuls = [n for n in stats.all_nodes() if n.op == "MatMul"]
    return any(overlaps(a, b) for a in matmuls for b in matmuls if a is not b)


def test_branches_on_two_gpus_run_concurrently_with_copies(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/gpu:0", "/gpu:1"])
        sess = tf.compat.v1.Session()
        expected = sess.run(total)
        for _ in range(5):  # a loaded machine may serialize one run; one overlap is proof enough
            value, stats = traced_run(sess, total)
            if concurrent_matmuls(stats):
                break
        else:
            pytest.fail("the MatMuls of the two GPUs never overlapped")
    np.testing.assert_allclose(value, expected, rtol=1e-5)
    nodes = by_name(stats)
    assert nodes["first_1"].device.endswith("GPU:1") and nodes["first_1"].output_bytes == [384 * 384 * 4]
    copies = sorted(n.op for n in stats.all_nodes() if n.op in ("_Send", "_Recv"))
    assert copies == ["_Recv", "_Send"]  # one tensor crosses from GPU:1 to GPU:0
    recv = next(n for n in stats.all_nodes() if n.op == "_Recv")
    assert recv.device.endswith("GPU:0") and recv.node_name.startswith("second_1/_")
    assert {d.device[-5:] for d in stats.dev_stats} == {"GPU:0", "GPU:1"}


def test_independent_matmuls_on_one_cpu_run_concurrently_when_blas_has_one_thread(make_context, one_blas_thread):
    make_context()
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/cpu:0", "/cpu:0"], size=512)
        sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2))
        sess.run(total)
        threads = set()
        for _ in range(5):  # a loaded machine may serialize one run; one overlap is proof enough
            _, stats = traced_run(sess, total)
            threads |= {n.thread_id for n in stats.all_nodes() if n.op == "MatMul"}
            if concurrent_matmuls(stats):
                break
        else:
            pytest.fail("two independent MatMuls on one CPU never overlapped")
    assert threads == {"CPU:0/inter_op_0", "CPU:0/inter_op_1"}


@pytest.mark.usefixtures("two_blas_threads")
def test_independent_matmuls_on_one_cpu_run_inline_with_every_blas_thread(make_context):
    """BLAS spreads each matmul over the cores already: side by side they would only share them (and each get
    fewer threads also where only one runs), so the step runs inline, in the caller's thread."""
    make_context()
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/cpu:0", "/cpu:0"], size=128)
        sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2))
        expected = sess.run(total)
        plan = next(iter(sess._plans.values()))
        assert not plan.parallel and plan.width == 1
        _, stats = traced_run(sess, total)
    assert {n.thread_id for n in stats.all_nodes() if n.op == "MatMul"} == {threading.current_thread().name}
    x = np.random.RandomState(0).rand(128, 128).astype(np.float32) / 128
    np.testing.assert_allclose(expected, 2 * (x @ x) @ x, rtol=1e-5)


def test_independent_elementwise_branches_on_one_cpu_still_run_in_parallel(make_context):
    """Large elementwise kernels run on one core each: two of them side by side use two."""
    make_context()
    with tf.compat.v1.Graph().as_default():
        x = tf.constant(np.ones((512, 512), np.float32))
        total = tf.add(tf.exp(x) * 2.0, tf.sqrt(x) + 1.0, name="total")
        sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2))
        value = sess.run(total)
        plan = next(iter(sess._plans.values()))
        assert plan.parallel and not plan.per_device and plan.width == 2
    np.testing.assert_allclose(value, np.exp(1.0) * 2 + 2.0, rtol=1e-6)


def _plan_of_session_step(build):
    with tf.compat.v1.Graph().as_default():
        fetch = build()
        sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2))
        value = sess.run(fetch)
        return next(iter(sess._plans.values())), value


@pytest.mark.usefixtures("two_blas_threads")
def test_a_matmul_bound_step_on_the_cpu_runs_inline_though_its_elementwise_branches_could_overlap(make_context):
    make_context()
    data = np.ones((1024, 1024), np.float32)

    def build():
        x = tf.constant(data)
        return tf.matmul(x, x) + (tf.exp(x) * 2.0) + (tf.sqrt(x) + 1.0)
    plan, value = _plan_of_session_step(build)
    assert not plan.parallel and plan.width == 1
    np.testing.assert_allclose(value, 1024.0 + np.exp(1.0) * 2 + 2.0, rtol=1e-5)


@pytest.mark.usefixtures("two_blas_threads")
def test_a_step_whose_elementwise_work_outweighs_its_matmuls_keeps_its_parallel_branches(make_context):
    make_context()
    small, large = np.ones((8, 8), np.float32), np.ones((512, 512), np.float32)

    def build():
        x = tf.constant(large)
        y = tf.constant(small)
        return tf.reduce_sum(tf.matmul(y, y)) + tf.reduce_sum(tf.exp(x) * 2.0 + tf.sqrt(x) * 3.0)
    plan, value = _plan_of_session_step(build)
    assert plan.parallel and not plan.per_device and plan.width == 2
    np.testing.assert_allclose(value, 8.0 * 64 + 512 * 512 * (np.exp(1.0) * 2 + 3.0), rtol=1e-5)


def test_logical_cpus_each_run_their_branch(make_context):
    make_context()
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/cpu:0", "/cpu:1"])
        sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(device_count={"CPU": 2}))
        _, stats = traced_run(sess, total)
    nodes = by_name(stats)
    # one straight-line program per device: CPU:1's on its lane, the first device's in the calling thread
    assert nodes["first_1"].thread_id.startswith("CPU:1/inter_op")
    assert nodes["first_0"].thread_id == threading.current_thread().name


def test_inline_and_parallel_plans_agree(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/gpu:0", "/gpu:1"], size=64)
        small = tf.reduce_sum(total) * 2.0
        sess = tf.compat.v1.Session()
        parallel = sess.run(small)
        serial = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=-1))
        plan_key = next(iter(sess._plans))
        assert sess._plans[plan_key].parallel
        np.testing.assert_allclose(serial.run(small), parallel, rtol=1e-5)


def test_an_error_cancels_the_step_and_names_the_node(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=None, name="x")
        with tf.device("/gpu:0"):
            heavy = tf.matmul(tf.ones([256, 256]), tf.ones([256, 256]))
        with tf.device("/gpu:1"):
            broken = tf.matmul(x, tf.ones([256, 256]), name="broken")
            after = tf.reduce_sum(broken, name="after")
        total = tf.add(tf.reduce_sum(heavy), after)
        sess = tf.compat.v1.Session()
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[\[\{\{node broken\}\}\]\]"):
            sess.run(total, feed_dict={x: np.ones((3, 5), np.float32)})
        assert sess.run(total, feed_dict={x: np.ones((2, 256), np.float32)}) == 256 ** 3 + 2 * 256 ** 2


def test_control_dependencies_are_honoured_in_parallel_runs(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        with tf.device("/gpu:0"):
            v = tf.Variable(np.zeros((128, 128), np.float32), name="v")
            update = v.assign(tf.matmul(tf.ones([128, 128]), tf.ones([128, 128])))
        with tf.device("/gpu:1"):
            other = tf.matmul(tf.ones([128, 128]), tf.ones([128, 128]))
        with tf.control_dependencies([update]):
            after = v.read_value()
        sess = tf.compat.v1.Session()
        sess.run(v.initializer)
        result, stats = traced_run(sess, [after, other])
    assert result[0][0, 0] == 128.0
    nodes = by_name(stats)
    assert nodes[after.op.name].all_start_micros >= nodes[update.op.name].all_end_micros


def test_chrome_trace_has_a_track_per_device_and_copies(make_context, tmp_path):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/gpu:0", "/gpu:1"], size=64)
        _, stats = traced_run(tf.compat.v1.Session(), total)
    trace = json.loads(timeline.Timeline(stats).generate_chrome_trace_format())
    processes = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "process_name"}
    assert processes == {"/job:localhost/replica:0/task:0/device:GPU:0", "/job:localhost/replica:0/task:0/device:GPU:1"}
    copy_events = [e for e in trace["traceEvents"] if e.get("cat") == "copy"]
    assert {e["name"] for e in copy_events} == {"_Send", "_Recv"}
    tracks = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "thread_name"}
    assert "copies" in tracks
    path = timeline.write_chrome_trace(stats, str(tmp_path / "step.json"))
    assert json.loads(open(path).read())["traceEvents"]
    starts = [e for e in trace["traceEvents"] if e["ph"] == "s"]
    ends = {e["id"]: e for e in trace["traceEvents"] if e["ph"] == "f"}
    assert starts and all(ends[s["id"]]["ts"] >= s["ts"] - 1e-3 for s in starts)  # arrows go forward in time
    recv = next(e for e in copy_events if e["name"] == "_Recv")
    assert any(ends[s["id"]]["tid"] == recv["tid"] and ends[s["id"]]["pid"] == recv["pid"] for s in starts)
    plain = json.loads(timeline.Timeline(stats).generate_chrome_trace_format(show_dataflow=False))
    assert not any(e["ph"] in ("s", "f") for e in plain["traceEvents"])
    with pytest.raises(NotImplementedError, match="show_memory=True"):
        timeline.Timeline(stats).generate_chrome_trace_format(show_memory=True)


def test_inline_plan_is_generated_code_naming_its_nodes(make_context):
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=[2], name="x")
        y = tf.exp(x * 2.0, name="y")
        sess = tf.compat.v1.Session()
        assert sess.run(y, feed_dict={x: [0.0, 0.5]}).tolist() == pytest.approx([1.0, np.e])
    plan = next(iter(sess._plans.values()))
    assert not plan.parallel
    assert plan.inline.source.splitlines() == [
        "def step(F, R=None):",
        "    v0 = F[0]  # x (Placeholder) on CPU:0",
        "    v2 = N2(v0, C1); del v0  # mul (Mul) on CPU:0",
        "    v3 = N3(v2); del v2  # y (Exp) on CPU:0",
        "    return [v3]",
    ]
    filename = plan.inline.__code__.co_filename
    assert linecache.getline(filename, 4) == "    v3 = N3(v2); del v2  # y (Exp) on CPU:0\n"


def test_a_failing_line_names_its_node_in_the_traceback(make_context):
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=[None], name="x")
        y = tf.compat.v1.placeholder(tf.float32, shape=[None], name="y")
        first = tf.exp(x, name="first")
        total = tf.add(first, y, name="total")
        sess = tf.compat.v1.Session()
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(total, feed_dict={x: [1.0, 2.0], y: [1.0, 2.0, 3.0]})
    assert "[[{{node total}}]]" in info.value.message
    cause = "".join(traceback.format_exception(info.value.__cause__))
    assert "# total (AddV2) on CPU:0" in cause


def test_lanes_are_shared_across_sessions_unless_per_session(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/gpu:0", "/gpu:1"], size=64)
        own = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(use_per_session_threads=True))
        own.run(total)
        assert set(own._own_lanes) == {"/job:localhost/replica:0/task:0/device:GPU:0",
                                       "/job:localhost/replica:0/task:0/device:GPU:1"}
        workers = [t for lane in own._own_lanes.values() for t in lane._threads]
        own.close()
    for worker in workers:
        worker.join(timeout=5)
    assert not any(w.is_alive() for w in workers)


def _blas_threads_seen_by_a_step(make_context, side, **config):
    """The BLAS thread count while a function's step (a side x side matmul, then a Python callback) runs, the
    plan's one_blas_thread, and the count after the step."""
    make_context(**config)
    seen = []

    def record(value):
        seen.append(intra_op.blas_threads())
        return value

    @tf.function
    def step(x):
        return tf.py_function(record, [tf.matmul(x, x)], tf.float32)

    x = tf.constant(np.ones((side, side), np.float32))
    step(x)
    return seen[-1], step.get_concrete_function(x)._plan.one_blas_thread, intra_op.blas_threads()


@pytest.mark.usefixtures("two_blas_threads")
def test_a_step_whose_blas_calls_are_all_small_runs_them_on_one_blas_thread_and_restores_the_count(make_context):
    """A 64x64 matmul (0.5 MFLOP) gains nothing from a second BLAS thread, whose spinning after it would slow
    the step's other kernels: one thread while the step runs, two again after."""
    during, flagged, after = _blas_threads_seen_by_a_step(make_context, 64)
    assert (during, flagged, after) == (1, True, 2)


@pytest.mark.usefixtures("two_blas_threads")
def test_a_step_with_a_large_matmul_keeps_every_blas_thread(make_context):
    during, flagged, after = _blas_threads_seen_by_a_step(make_context, 512)   # 268 MFLOP
    assert (during, flagged, after) == (2, False, 2)


@pytest.mark.usefixtures("two_blas_threads")
def test_a_simulated_gpu_step_keeps_the_blas_threads_a_gpu_step_would_not_touch(make_context):
    during, flagged, _ = _blas_threads_seen_by_a_step(make_context, 64, PLACEFLOW_SIMULATED_GPUS="1")
    assert (during, flagged) == (2, False)


@pytest.mark.usefixtures("two_blas_threads")
@pytest.mark.parametrize("configured,expected", [(0, 1), (2, 2)])
def test_configured_intra_op_threads_win_over_the_small_call_rule(make_context, configured, expected):
    make_context()
    seen = []
    with tf.compat.v1.Graph().as_default():
        x = tf.constant(np.ones((64, 64), np.float32))
        fetch = tf.compat.v1.py_func(lambda v: seen.append(intra_op.blas_threads()) or v, [tf.matmul(x, x)],
                                     tf.float32)
        config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=configured)
        tf.compat.v1.Session(config=config).run(fetch)
    assert seen == [expected]
