"""Physical-device discovery: CPU always, simulated GPUs, and the reason GPUs are missing."""

import ctypes

import pytest

import placeflow as tf
from placeflow.config import cuda_probe


def test_one_cpu_and_no_gpu_without_cuda_or_simulation(make_context):
    ctx = make_context()
    assert tf.config.list_physical_devices() == [tf.config.PhysicalDevice("/physical_device:CPU:0", "CPU")]
    assert tf.config.list_physical_devices("GPU") == []
    assert "disabled by PLACEFLOW_DISABLE_CUDA" in ctx.gpu_reason


def test_simulated_gpus_are_gpu_devices(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="3:1GiB")
    gpus = tf.config.list_physical_devices("GPU")
    assert [g.name for g in gpus] == [f"/physical_device:GPU:{i}" for i in range(3)]
    assert all(g.device_type == "GPU" for g in gpus)
    assert ctx.physical_info(gpus[0]).total_memory == 1 << 30
    assert "3 simulated GPU(s)" in ctx.gpu_reason and "real CUDA GPUs are not used" in ctx.gpu_reason


def test_simulated_gpus_honour_cuda_visible_devices(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="4", CUDA_VISIBLE_DEVICES="3,1")
    gpus = tf.config.list_physical_devices("GPU")
    assert len(gpus) == 2
    assert [ctx.physical_info(g).gpu.pci_bus_id for g in gpus] == ["0000:04:00.0", "0000:02:00.0"]
    assert "2 of 4 visible through CUDA_VISIBLE_DEVICES='3,1'" in ctx.gpu_reason


def test_bad_simulated_value_fails_at_first_listing(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="lots")
    with pytest.raises(ValueError, match="PLACEFLOW_SIMULATED_GPUS='lots' is not understood"):
        tf.config.list_physical_devices()


def test_probe_reports_a_missing_driver(monkeypatch):
    def no_driver(name, *args, **kwargs):
        raise OSError(f"{name}: cannot open shared object file")
    monkeypatch.setattr(ctypes, "CDLL", no_driver)
    probe = cuda_probe.probe_cuda({})
    assert probe.gpus == [] and probe.reason.startswith("no NVIDIA driver found (libcuda.so.1")


def test_probe_reports_missing_cupy(monkeypatch):
    monkeypatch.setattr(ctypes, "CDLL", lambda name, *a, **k: object())
    monkeypatch.setattr(cuda_probe.importlib.util, "find_spec", lambda name: None)
    probe = cuda_probe.probe_cuda({})
    assert "CuPy is not installed" in probe.reason and "placeflow[cuda12]" in probe.reason


def test_probe_can_be_disabled():
    assert cuda_probe.probe_cuda({"PLACEFLOW_DISABLE_CUDA": "1"}).reason == \
        "CUDA disabled by PLACEFLOW_DISABLE_CUDA=1"


def test_device_details(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    cpu, gpu = tf.config.list_physical_devices()
    assert tf.config.experimental.get_device_details(cpu) == {}
    assert tf.config.experimental.get_device_details(gpu) == {"device_name": "placeflow simulated GPU",
                                                              "simulated": True}
    with pytest.raises(ValueError, match="device must be a tf.config.PhysicalDevice, but got: 'GPU:0'"):
        tf.config.experimental.get_device_details("GPU:0")


@pytest.mark.cuda
def test_real_gpus_are_found_with_a_compute_capability():
    import os
    from placeflow.config.context import reset_context
    reset_context(dict(os.environ, PLACEFLOW_SIMULATED_GPUS=""))
    gpus = tf.config.list_physical_devices("GPU")
    assert gpus
    details = tf.config.experimental.get_device_details(gpus[0])
    assert len(details["compute_capability"]) == 2 and details["device_name"]
