"""Environment variables, each read in a fresh interpreter as a user would set them."""

from tests.helpers import run_python

LIST = """
import placeflow as tf
for d in tf.config.list_logical_devices():
    print(d.name)
"""


def test_simulated_gpus_env():
    out = run_python(LIST, {"PLACEFLOW_SIMULATED_GPUS": "2:1GiB"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["/device:CPU:0", "/device:GPU:0", "/device:GPU:1"]


def test_cuda_visible_devices_env_orders_and_hides():
    code = """
    import placeflow as tf
    from placeflow.config.context import context
    for gpu in tf.config.list_physical_devices('GPU'):
        print(context().physical_info(gpu).gpu.pci_bus_id)
    """
    out = run_python(code, {"PLACEFLOW_SIMULATED_GPUS": "4", "CUDA_VISIBLE_DEVICES": "2,0"})
    assert out.stdout.split() == ["0000:03:00.0", "0000:01:00.0"], out.stderr
    for hidden in ("", "-1"):
        out = run_python(code, {"PLACEFLOW_SIMULATED_GPUS": "4", "CUDA_VISIBLE_DEVICES": hidden})
        assert out.returncode == 0 and out.stdout == "", out.stderr


def test_cuda_visible_devices_by_uuid_env():
    out = run_python(LIST, {"PLACEFLOW_SIMULATED_GPUS": "4",
                            "CUDA_VISIBLE_DEVICES": "GPU-51a1a7ed-0000-4000-8000-000000000003"})
    assert out.stdout.split() == ["/device:CPU:0", "/device:GPU:0"], out.stderr


def test_cuda_device_order_env_is_read():
    out = run_python(LIST, {"PLACEFLOW_SIMULATED_GPUS": "1", "CUDA_DEVICE_ORDER": "BOGUS"})
    assert out.returncode == 0
    assert "Ignoring CUDA_DEVICE_ORDER='BOGUS'" in out.stderr


def test_force_allow_growth_env():
    code = """
    import placeflow as tf
    print(tf.config.experimental.get_memory_growth(tf.config.list_physical_devices('GPU')[0]))
    """
    for value, expected in (("false", "False"), ("true", "True")):
        out = run_python(code, {"PLACEFLOW_SIMULATED_GPUS": "1", "TF_FORCE_GPU_ALLOW_GROWTH": value})
        assert out.stdout.strip() == expected, out.stderr


def test_bad_simulated_env_is_a_clear_error():
    out = run_python(LIST, {"PLACEFLOW_SIMULATED_GPUS": "two"})
    assert out.returncode == 1
    assert "ValueError: PLACEFLOW_SIMULATED_GPUS='two' is not understood" in out.stderr


def test_import_never_imports_cupy_nor_any_optional_heavy_module(tmp_path):
    """What keeps `import placeflow` light (benchmarks/import_time.py times it): no CuPy, no Keras, no file
    formats, no distributed engines, until a program uses them."""
    fake = tmp_path / "cupy"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise RuntimeError('placeflow imported cupy')\n")
    code = f"""
    import sys
    sys.path.insert(0, {str(tmp_path)!r})
    import placeflow as tf
    tf.config.list_physical_devices()
    tf.config.list_logical_devices()
    heavy = ("cupy", "keras", "h5py", "tqdm", "tensorboardX", "torch", "ray", "threadpoolctl", "scipy")
    print(sorted(name for name in heavy if name in sys.modules))
    """
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
