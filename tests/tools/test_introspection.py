"""device_lib, placeflow.test and the `placeflow devices` CLI."""

import re

import placeflow as tf
from placeflow.python.client import device_lib
from placeflow.tools.cli import main
from tests.helpers import run_python


def test_list_local_devices_cpu_text_format(make_context):
    make_context()
    (cpu,) = device_lib.list_local_devices()
    assert re.fullmatch(r'name: "/device:CPU:0"\ndevice_type: "CPU"\nmemory_limit: 268435456\nlocality \{\n\}\n'
                        r"incarnation: \d+\nxla_global_id: -1\n", str(cpu))
    assert device_lib.list_local_devices()[0].incarnation == cpu.incarnation


def test_list_local_devices_gpus_do_not_initialize(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="1:2GiB")
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("GPU")[0],
        [tf.config.LogicalDeviceConfiguration(1024), tf.config.LogicalDeviceConfiguration(512)])
    devices = device_lib.list_local_devices()
    assert [(d.name, d.device_type, d.memory_limit) for d in devices] == [
        ("/device:CPU:0", "CPU", 268435456), ("/device:GPU:0", "GPU", 1 << 30), ("/device:GPU:1", "GPU", 1 << 29)]
    text = str(devices[1])
    assert 'physical_device_desc: "device: 0, name: placeflow simulated GPU, pci bus id: 0000:01:00.0, simulated' in text
    assert "  bus_id: 1\n  links {\n    link {\n      device_id: 1\n      type: \"SAME_DEVICE\"" in text
    assert not ctx.initialized


def test_list_local_devices_honours_device_count(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")

    class Config:
        device_count = {"GPU": 1}
    assert [d.name for d in device_lib.list_local_devices(Config())] == ["/device:CPU:0", "/device:GPU:0"]


def test_gpu_helpers_with_simulated_gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    assert tf.test.is_gpu_available() is True
    assert tf.test.is_gpu_available(cuda_only=True) is False
    assert tf.test.is_gpu_available(min_cuda_compute_capability=(3, 5)) is False
    assert tf.test.gpu_device_name() == "/device:GPU:0"


def test_gpu_helpers_without_gpus(make_context):
    make_context()
    assert tf.test.is_gpu_available() is False
    assert tf.test.gpu_device_name() == ""
    assert isinstance(tf.test.is_built_with_cuda(), bool)


def test_devices_cli_table(make_context, capsys):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:2GiB")
    tf.config.experimental.set_memory_growth(tf.config.list_physical_devices("GPU")[0], False)
    tf.config.experimental.set_memory_growth(tf.config.list_physical_devices("GPU")[1], False)
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("GPUs: 2 simulated GPU(s) from PLACEFLOW_SIMULATED_GPUS=2:2GiB")
    assert re.search(r"/physical_device:GPU:1\s+GPU\s+SIMULATED\s+2.0 GiB\s+off \(preallocate\)\s+yes", out)
    assert re.search(r"/job:localhost/replica:0/task:0/device:GPU:0\s+GPU\s+/physical_device:GPU:0\s+2048 MB\s+off\s+SIMULATED", out)
    assert "Logical devices (runtime not initialized yet)" in out


def test_devices_cli_says_why_there_is_no_gpu():
    out = run_python("", args=["-m", "placeflow", "devices"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("GPUs: CUDA disabled by PLACEFLOW_DISABLE_CUDA=1")


def test_demo_runs_every_section():
    out = run_python("", args=["-m", "placeflow", "demo", "--simulated-gpus", "4"])
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Using 4 SIMULATED GPUs" in out.stdout
    assert "1 Physical GPU, 2 Logical GPUs" in out.stdout
    assert "4 Physical GPUs, 1 Logical GPU" in out.stdout
    assert "Physical devices cannot be modified after being initialized" in out.stdout
    assert "Executing op AddN in device /job:localhost/replica:0/task:0/device:CPU:0" in out.stdout
    assert "21 of 21 demo sections ran cleanly." in out.stdout
