"""The BFC pool on a real GPU: CuPy allocations come from it (skipped cleanly without CUDA and CuPy)."""

import os

import pytest

import placeflow as tf
from placeflow.config.context import context, reset_context
from placeflow.runtime import registry

pytestmark = pytest.mark.cuda
MIB = 1 << 20
experimental = tf.config.experimental


@pytest.fixture
def real_gpus():
    env = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_DISABLE_CUDA", "PLACEFLOW_SIMULATED_GPUS")}
    reset_context(env)
    yield
    reset_context(env)  # drops the pools: their regions go back to the driver


def split_first_gpu(limits):
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=m)
                                                     for m in limits])


def gpu_allocator(index=0):
    return registry.find(context(), f"/job:localhost/replica:0/task:0/device:GPU:{index}").memory.allocator


def test_kernel_outputs_are_chunks_of_the_pool(real_gpus):
    with tf.device("/GPU:0"):
        x = tf.ones([MIB])
        y = x * 2
    allocator = gpu_allocator()
    regions = [(r.ptr, r.ptr + r.size) for r in allocator.regions]
    for ptr in (x._value.data.ptr, y._value.data.ptr):
        assert any(lo <= ptr < hi for lo, hi in regions)
    assert experimental.get_memory_info("GPU:0")["current"] >= 8 * MIB
    assert float(y.numpy().sum()) == 2.0 * MIB
    del x, y
    assert experimental.get_memory_info("GPU:0")["current"] == 0


def test_host_to_gpu_copies_are_charged_to_the_pool(real_gpus):
    import numpy as np
    t = tf.constant(np.ones(MIB, dtype=np.float32))
    assert t.device.endswith("GPU:0")
    assert experimental.get_memory_info("GPU:0")["current"] >= 4 * MIB


def test_two_1024_mb_logical_gpus_refuse_1_5_gb_and_accept_0_5_gb(real_gpus):
    split_first_gpu([1024, 1024])
    for name in ("GPU:0", "GPU:1"):
        with tf.device(name):
            with pytest.raises(tf.errors.ResourceExhaustedError) as caught:
                tf.zeros([384, 1024, 1024])
            half = tf.zeros([128, 1024, 1024])
        first = str(caught.value).splitlines()[0]
        assert first.startswith("OOM when allocating ") and f"by allocator GPU_{name[-1]}_bfc [Op:Fill]" in first
        assert half.device.endswith(name)
        assert experimental.get_memory_info(name)["current"] == 512 * MIB
        del half


def test_preallocation_reserves_the_limit_in_one_cuda_buffer(real_gpus):
    import cupy
    gpu = tf.config.list_physical_devices("GPU")[0]
    experimental.set_memory_growth(gpu, False)
    experimental.set_per_process_memory_fraction(0.05)
    tf.constant(1.0)
    stats = experimental.memory_stats("GPU:0")
    assert stats["num_regions"] == 1 and stats["bytes_reserved"] == stats["bytes_limit"]
    total = context().physical_info(gpu).gpu.total_memory  # NVML's total, as TensorFlow reads it
    assert stats["bytes_limit"] == int(total * 0.05) & ~255
    assert stats["bytes_limit"] <= cupy.cuda.runtime.memGetInfo()[1]


def test_release_unused_memory_returns_regions_to_the_driver(real_gpus):
    import cupy
    with tf.device("/GPU:0"):
        keep = tf.ones([256])
        big = tf.ones([256 * MIB])
    free_before = cupy.cuda.runtime.memGetInfo()[0]
    del big
    released = experimental.release_unused_memory("GPU:0")
    assert released >= 1024 * MIB
    assert cupy.cuda.runtime.memGetInfo()[0] - free_before >= released - 64 * MIB
    assert keep.numpy()[0] == 1.0


def _in_region(allocator, array) -> bool:
    ptr = array.data.ptr
    return any(r.ptr <= ptr < r.ptr + r.size for r in allocator.regions)


def test_a_traced_step_writes_variables_on_two_virtual_gpus_through_their_own_pools(real_gpus):
    split_first_gpu([256, 256])
    variables = []
    for name in ("/GPU:0", "/GPU:1"):
        with tf.device(name):
            variables.append(tf.Variable(tf.ones([1024, 256])))

    @tf.function
    def step():
        for v in variables:
            v.assign_add(v * 0.5)
            v.assign(v * 2.0)
        return [tf.reduce_sum(v) for v in variables]

    for _ in range(2):
        totals = step()
    assert [float(t) for t in totals] == [1024 * 256 * 9.0] * 2  # 1 -> 3 -> 9
    for index, v in enumerate(variables):
        assert v.device.endswith(f"GPU:{index}")
        assert _in_region(gpu_allocator(index), v._value)          # written through its own pool
        assert not _in_region(gpu_allocator(1 - index), v._value)  # never the other device's
        assert v._value.device.id == 0                              # both virtual GPUs are physical GPU 0
    assert experimental.get_memory_info("GPU:1")["current"] >= 1024 * 256 * 4


def test_a_traced_chain_on_the_gpu_frees_at_last_use_and_forwards_into_cupy_buffers(real_gpus):
    import gc

    import numpy as np
    data = np.random.RandomState(0).rand(1024, 1024).astype(np.float32)   # 4 MiB
    with tf.device("/GPU:0"):
        x = tf.constant(data)
    chain = tf.function(lambda x: tf.nn.relu(tf.tanh(x * 2.0 + 1.0) * 3.0 - 0.5) / 2.0)
    for _ in range(2):
        chain(x)
    gc.collect()
    before = experimental.get_memory_info("GPU:0")["current"]
    experimental.reset_memory_stats("GPU:0")
    out = chain(x)
    assert experimental.get_memory_info("GPU:0")["peak"] - before == 4 * MIB   # one buffer for six ops
    expected = np.maximum(np.tanh(data * np.float32(2.0) + np.float32(1.0)) * np.float32(3.0) - np.float32(0.5),
                          0) / np.float32(2.0)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(x.numpy(), data)                               # the input is never written
    del out
    gc.collect()
    assert experimental.get_memory_info("GPU:0")["current"] == before


def test_a_gpu_variable_update_writes_in_place_unless_a_read_is_alive(real_gpus):
    import numpy as np
    with tf.device("/GPU:0"):
        v = tf.Variable(np.ones((1024, 1024), np.float32))
        delta = tf.ones([1024, 1024])
    buffer = v._value.data.ptr
    v.assign_sub(delta)                                    # no read alive: into the variable's own buffer
    assert v._value.data.ptr == buffer
    read = v.read_value()
    v.assign_add(delta * 3.0)                              # a read is alive: copy on write
    assert v._value.data.ptr != buffer
    np.testing.assert_array_equal(read.numpy(), np.zeros((1024, 1024), np.float32))
    np.testing.assert_array_equal(v.numpy(), np.full((1024, 1024), 3.0, np.float32))


def test_a_tape_on_the_gpu_keeps_only_what_gradients_read(real_gpus):
    import numpy as np
    with tf.device("/GPU:0"):
        w = tf.Variable(np.full((256, 256), 0.01, np.float32))
        x = tf.ones([256, 256])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w) + 1.0) * 2.0)
        grad = tape.gradient(loss, w)
    np.testing.assert_allclose(grad.numpy(), np.full((256, 256), 512.0, np.float32))
    assert grad.device.endswith("GPU:0")
