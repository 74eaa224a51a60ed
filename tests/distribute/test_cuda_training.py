"""MirroredStrategy on real GPUs (skipped cleanly without CUDA and CuPy).

With one physical GPU the replicas are virtual GPUs on it, as TensorFlow allows; NCCL refuses two
ranks on one physical GPU, so there the collective sums on the GPU itself, and NCCL proper is
checked with one rank per physical GPU.
"""

import os

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import reset_context

from .test_equivalence import train

pytestmark = pytest.mark.cuda


@pytest.fixture
def two_gpus():
    env = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_DISABLE_CUDA", "PLACEFLOW_SIMULATED_GPUS")}
    reset_context(env)
    gpus = tf.config.list_physical_devices("GPU")
    if len(gpus) < 2:
        config = tf.config.LogicalDeviceConfiguration(memory_limit=1024)
        tf.config.set_logical_device_configuration(gpus[0], [config, config])
    return ["/gpu:0", "/gpu:1"]


@pytest.mark.parametrize("all_reduce", ["ReductionToOneDevice", "HierarchicalCopyAllReduce", "NcclAllReduce"])
def test_mirrored_fit_on_gpus_matches_one_gpu(two_gpus, all_reduce):
    import cupy
    reference, reference_history = train(tf.distribute.OneDeviceStrategy(two_gpus[0]), "sgd")
    strategy = tf.distribute.MirroredStrategy(two_gpus, cross_device_ops=getattr(tf.distribute, all_reduce)())
    model, history = train(strategy, "sgd")
    for got, expected in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(history.history["loss"], reference_history.history["loss"], rtol=1e-4)
    kernel = model.weights[0].value  # the tf.Variable a Keras variable holds: here a MirroredVariable
    assert [c.device for c in kernel.values] == [
        "/job:localhost/replica:0/task:0/device:GPU:0", "/job:localhost/replica:0/task:0/device:GPU:1"]
    assert all(isinstance(c._value, cupy.ndarray) for c in kernel.values)


def test_eager_all_reduce_on_gpus(two_gpus):
    strategy = tf.distribute.MirroredStrategy(two_gpus, cross_device_ops=tf.distribute.NcclAllReduce())
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1))
    total = strategy.reduce(tf.distribute.ReduceOp.SUM, values, axis=None)
    assert total.numpy().tolist() == [3.0, 6.0]
    mean = strategy.run(lambda v: tf.distribute.get_replica_context().all_reduce("MEAN", v), args=(values,))
    assert [m.numpy().tolist() for m in strategy.experimental_local_results(mean)] == [[1.5, 3.0]] * 2


def test_nccl_communicator_one_rank_per_physical_gpu():
    import cupy
    from placeflow.distribute import collective
    from placeflow.distribute.reduce_op import ReduceOp
    env = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_DISABLE_CUDA", "PLACEFLOW_SIMULATED_GPUS")}
    reset_context(env)
    if not collective.nccl_available():
        pytest.skip("CuPy was built without NCCL")
    count = len(tf.config.list_physical_devices("GPU"))
    devices = [collective._runtime_device(f"/job:localhost/replica:0/task:0/device:GPU:{i}") for i in range(count)]
    arrays = []
    for rank, device in enumerate(devices):
        with device.activate():
            arrays.append(cupy.full(5, rank + 1.0, dtype=cupy.float32))
    outputs = collective._nccl(arrays, devices, ReduceOp.MEAN)
    expected = sum(range(1, len(devices) + 1)) / len(devices)
    for out, device in zip(outputs, devices):
        assert out.device.id == device.cuda_ordinal
        np.testing.assert_allclose(cupy.asnumpy(out), np.full(5, expected, dtype=np.float32))
