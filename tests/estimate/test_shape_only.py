"""Shape-only estimation (PLACEFLOW_ESTIMATE=1): the same allocator, placement, lifetimes and forwarding as a real
run on simulated GPUs, with no data: peaks equal the real run's, data reads refuse, small values still compute."""

import gc
import resource

import numpy as np
import pytest

import placeflow as tf
from placeflow.runtime.shape_only import ShapeOnly, ShapeOnlyReadError

from ..memory import memory_programs

MULTI_DEVICE_TOLERANCE = 0.002   # two device programs interleave by thread timing: the real run's own order varies


def _figures(make_context, name, estimating):
    env = {"PLACEFLOW_SIMULATED_GPUS": "2" if name == "mirrored_step" else "1"}
    if estimating:
        env["PLACEFLOW_ESTIMATE"] = "1"
    make_context(**env)
    step = memory_programs.PROGRAMS[name](tf)
    figures = memory_programs.measure(tf, step, "GPU:0")
    del step
    gc.collect()
    return figures


@pytest.mark.parametrize("name", sorted(memory_programs.PROGRAMS))
def test_the_estimated_peak_is_the_real_runs(make_context, name):
    real = _figures(make_context, name, False)
    estimated = _figures(make_context, name, True)
    assert estimated["left_after_step"] == real["left_after_step"] == 0
    if name == "mirrored_step":
        assert estimated["peak_above_resident"] == pytest.approx(real["peak_above_resident"],
                                                                 rel=MULTI_DEVICE_TOLERANCE)
    else:
        assert estimated["peak_above_resident"] == real["peak_above_resident"], (estimated, real)


def test_large_tensors_carry_no_data_and_take_no_host_memory(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64GiB", PLACEFLOW_ESTIMATE="1")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    x = tf.random.normal([16384, 16384])          # 1 GiB
    y = tf.nn.relu(x * 2.0 + 1.0) @ x               # a 1 GiB product and three 1 GiB intermediates
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert isinstance(y._value, ShapeOnly) and y.shape == (16384, 16384)
    assert grown < 256 * 1024, f"estimating grew the process by {grown} KiB"
    info = tf.config.experimental.get_memory_info("GPU:0")
    assert info["current"] >= 2 << 30 and info["peak"] >= 3 << 30


def test_reading_a_shape_only_tensor_names_the_line(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="1")
    loss = tf.reduce_mean(tf.random.normal([256, 256]))
    for read in (lambda: loss.numpy(), lambda: float(loss), lambda: bool(loss > 0), lambda: print(loss)):
        with pytest.raises(ShapeOnlyReadError, match=r"test_shape_only\.py:\d+: reads the data of a (float32|bool) "
                                                     r"tensor of shape \(\) .* PLACEFLOW_ESTIMATE=zeros"):
            read()


def test_zeros_can_be_asked_for(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="zeros")
    x = tf.random.normal([256, 256])
    assert float(tf.reduce_sum(x * 3.0)) == 0.0
    assert x.numpy().shape == (256, 256) and not x.numpy().any()


def test_small_values_shapes_and_loop_counters_are_computed(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="1")
    x = tf.random.normal([512, 300])
    assert tf.shape(x).numpy().tolist() == [512, 300] and int(tf.size(x)) == 153600
    steps = tf.constant(0)
    while steps < 3:                                # Python control flow on a small tensor
        steps += 1
    assert int(steps) == 3

    @tf.function
    def loop(x):
        return tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * 0.5), (tf.constant(0), x))
    count, y = loop(x)
    assert int(count) == 4 and y.shape == (512, 300) and isinstance(y._value, ShapeOnly)


def test_running_out_of_memory_is_the_same_error_at_the_same_op(make_context):
    def program():
        x = tf.random.normal([1024, 1024])        # 4 MiB each on a 10 MiB GPU: the third fails
        y = x * 2.0
        return x, y, y + 1.0
    errors = []
    for estimating in (False, True):
        env = {"PLACEFLOW_SIMULATED_GPUS": "1:10MiB"}
        if estimating:
            env["PLACEFLOW_ESTIMATE"] = "1"
        make_context(**env)
        with pytest.raises(tf.errors.ResourceExhaustedError) as caught:
            program()
        errors.append(caught.value.message.split("\n")[0])
    assert errors[0] == errors[1] and "AddV2" in errors[0]


def test_an_op_whose_shape_depends_on_values_is_refused_by_name(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="1")
    x = tf.random.normal([512, 512])
    with pytest.raises(tf.errors.UnimplementedError, match="Where: its output's shape depends on its input's values"):
        tf.where(x > 0.0)


def test_a_bad_setting_is_refused(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="maybe")
    with pytest.raises(ValueError, match="PLACEFLOW_ESTIMATE='maybe' is not understood"):
        tf.constant(1.0) + 1.0


def test_host_input_pipelines_still_compute(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="1")
    data = tf.data.Dataset.from_tensor_slices(np.arange(6, dtype=np.float32)).map(lambda v: v * 2.0).batch(3)
    assert [b.numpy().tolist() for b in data] == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]


def test_prefetching_is_filled_in_the_callers_thread_as_a_worker_keeps_it_ahead(make_context):
    """An estimate never depends on how a prefetch worker's copies interleave with the step: while an element is
    consumed the buffer is full and one more element is in the (would-be) worker's hand, every time."""
    import threading
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="1")
    produced = []

    def elements():
        for i in range(8):
            produced.append((i, threading.current_thread()))
            yield np.float32(i)

    data = tf.data.Dataset.from_generator(elements, output_signature=tf.TensorSpec([], tf.float32)).prefetch(2)
    seen = []
    for value in data:
        seen.append((float(value.numpy()), len(produced)))
    assert [v for v, _ in seen] == [float(i) for i in range(8)]
    assert [n for _, n in seen] == [4, 5, 6, 7, 8, 8, 8, 8]
    assert {thread for _, thread in produced} == {threading.current_thread()}


def test_a_source_error_reaches_the_consumer_after_the_elements_prefetched_before_it(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_ESTIMATE="1")

    def elements():
        yield from (np.float32(i) for i in range(3))
        raise RuntimeError("the source broke")

    data = tf.data.Dataset.from_generator(elements, output_signature=tf.TensorSpec([], tf.float32)).prefetch(2)
    seen = []
    with pytest.raises(Exception, match="the source broke"):
        for value in data:
            seen.append(float(value.numpy()))
    assert seen == [0.0, 1.0, 2.0]
