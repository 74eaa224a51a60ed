"""Performance models: the presets, custom models, PLACEFLOW_SIMULATED_GPUS's preset field, model_of and
link_between, tf.config.experimental.set/get_performance_model, and that nothing is modelled without a model."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import placeflow as tf
from placeflow import perf
from placeflow.config.simulated import parse_simulated_gpus, parse_simulated_spec

GIB = 1 << 30
ENV = "PLACEFLOW_SIMULATED_GPUS"


# -- PLACEFLOW_SIMULATED_GPUS=<count>[:<size>][:<preset>] ------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    ("8:80GiB:H100", (8, 80 * GIB, "H100")), ("8:H100", (8, 80 * GIB, "H100")),
    ("2:a100-40gb", (2, 40 * GIB, "A100-40GB")), ("1:2GiB:t4", (1, 2 * GIB, "T4")), ("3:L4", (3, 24 * GIB, "L4")),
    ("4:2GiB", (4, 2 * GIB, None)), ("4", (4, 4 * GIB, None)), (None, (0, 4 * GIB, None)),
])
def test_the_preset_field_is_parsed(value, expected):
    assert parse_simulated_spec(value) == expected
    assert parse_simulated_gpus(value) == expected[:2]


@pytest.mark.parametrize("value", ["8:H200", "8:80GiB:x100", "4:GiB"])
def test_an_unknown_preset_is_refused_with_the_list(value):
    with pytest.raises(ValueError) as info:
        parse_simulated_spec(value)
    text = str(info.value)
    assert repr(value) in text and "names no performance-model preset" in text
    assert "H100, A100-40GB, A100-80GB, V100, T4, L4, CPU" in text and f"'{ENV}=8:80GiB:H100'" in text


@pytest.mark.parametrize("value", ["8:80GiB:H100:x", "8:H100:80GiB", "8::H100", "8:80XB:H100"])
def test_a_malformed_value_shows_the_preset_form(value):
    with pytest.raises(ValueError, match="is not understood") as info:
        parse_simulated_spec(value)
    assert f"'{ENV}=8:H100'" in str(info.value)


def test_simulated_gpus_carry_their_preset(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:H100")
    gpus = tf.config.list_physical_devices("GPU")
    assert len(gpus) == 2 and tf.config.experimental.get_memory_info("GPU:0")["current"] == 0
    assert [perf.model_of(f"/GPU:{i}").name for i in range(2)] == ["H100-SXM-80GB"] * 2
    assert tf.config.experimental.get_performance_model(gpus[1]) is perf.PRESETS["H100"]


# -- presets ----------------------------------------------------------------------------------------------------

def test_presets_are_the_documented_ones_and_case_insensitive():
    assert list(perf.PRESETS) == ["H100", "A100-40GB", "A100-80GB", "V100", "T4", "L4", "CPU"]
    assert perf.preset("h100") is perf.preset(" H100 ") is perf.PRESETS["H100"]
    with pytest.raises(ValueError, match=r"No performance-model preset is named 'H200'\. Expected one of H100, "
                                         r"A100-40GB, A100-80GB, V100, T4, L4, CPU"):
        perf.preset("H200")


def test_every_preset_names_its_source_and_is_valid():
    for name, model in perf.PRESETS.items():
        assert perf.models.validated(model) is model
        assert ("datasheet" in model.source or name == "CPU") and model.source.count("http") >= (name != "CPU")
        assert model.flops_for(np.float64, False) <= model.flops_for(np.float32, False)
        assert model.flops_for(np.float32, True) >= model.flops_for(np.float32, False)


NEWER_IS_FASTER = [
    lambda m: m.flops_for(np.float64, False), lambda m: m.flops_for(np.float32, False),
    lambda m: m.flops_for(np.float16, False), lambda m: m.flops_for(np.float64, True),
    lambda m: m.flops_for(np.float32, True), lambda m: m.flops_for(np.float16, True),
    lambda m: m.flops_for("bfloat16", True), lambda m: m.bandwidth, lambda m: m.peer_link.bandwidth,
    lambda m: m.host_link.bandwidth,
]


@pytest.mark.parametrize("number", range(len(NEWER_IS_FASTER)))
def test_h100_beats_a100_beats_v100(number):
    h100, a100_80, a100_40, v100 = (perf.preset(n) for n in ("H100", "A100-80GB", "A100-40GB", "V100"))
    get = NEWER_IS_FASTER[number]
    assert get(h100) > get(a100_80) >= get(a100_40) > get(v100)
    assert h100.memory == a100_80.memory > a100_40.memory > v100.memory


def test_dense_peaks_not_sparsity_peaks():
    assert perf.preset("H100").matmul_flops["float16"] == pytest.approx(989.4e12)
    assert perf.preset("A100-80GB").flops_for("float32", True) == pytest.approx(156e12)  # TF32 on by default
    assert perf.preset("A100-80GB").flops_for("float32", True, tensor_float_32=False) == pytest.approx(19.5e12)
    assert perf.preset("L4").matmul_flops["bfloat16"] == pytest.approx(121e12)
    assert perf.preset("V100").flops_for("bfloat16", True) == perf.preset("V100").matmul_flops["float32"]
    assert perf.preset("T4").flops_for(tf.int16, False) == perf.preset("T4").flops["float32"]  # not listed


# -- custom -------------------------------------------------------------------------------------------------------

def test_custom_replaces_numbers_and_merges_tables():
    model = perf.custom("H100", bandwidth=2e12, flops={"float32": 1e13}, peer_link={"bandwidth": 1e11})
    assert model.bandwidth == 2e12 and model.flops["float32"] == 1e13 and model.flops["float64"] == 33.5e12
    assert model.peer_link.bandwidth == 1e11 and model.peer_link.name.startswith("NVLink")
    assert model.name == "H100-SXM-80GB (custom)"
    assert "replaced by custom(): bandwidth, flops, peer_link" in model.source
    assert perf.custom(perf.preset("CPU"), name="my host", memory=16 * GIB).memory == 16 * GIB


def test_custom_without_a_base_needs_every_field():
    with pytest.raises(TypeError, match=r"custom\(\) without a base needs every field .* missing \['memory'"):
        perf.custom(bandwidth=1e12)
    whole = {f: getattr(perf.preset("T4"), f) for f in ("memory", "flops", "matmul_flops", "bandwidth",
                                                       "launch_latency", "peer_link", "host_link")}
    assert perf.custom(**whole).name == "custom"


@pytest.mark.parametrize("numbers, error, text", [
    ({"bandwith": 1e12}, TypeError, r"unknown field\(s\) \['bandwith'\]; a DeviceModel has name, memory"),
    ({"bandwidth": -1}, ValueError, r"bandwidth must be a positive finite number, got -1"),
    ({"bandwidth": float("inf")}, ValueError, r"bandwidth must be a positive finite number, got inf"),
    ({"flops": {"float16": 0}}, ValueError, r"flops\['float16'\] must be a positive finite number, got 0"),
    ({"flops": 3e12}, TypeError, r"expected a dict of dtype name -> FLOP/s"),
    ({"host_link": 5}, TypeError, r"expected a placeflow.perf.Link or a dict"),
    ({"launch_latency": True}, ValueError, r"launch_latency must be a positive finite number, got True"),
    ({"memory": 1.5e9}, ValueError, r"memory is a whole number of bytes \(an int, e.g. 80 << 30\), got 1500000000.0"),
])
def test_custom_refuses_bad_numbers(numbers, error, text):
    with pytest.raises(error, match=text):
        perf.custom("H100", **numbers)


def test_custom_base_must_be_a_preset_or_model():
    with pytest.raises(TypeError, match=r"base must be a preset name, a DeviceModel or None"):
        perf.custom(3)


# -- model_of, link_between, set/get_performance_model ------------------------------------------------------------

def test_nothing_is_modelled_without_a_model(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    assert perf.model_of("/GPU:0") is perf.model_of("/CPU:0") is None
    assert perf.link_between("/GPU:0", "/GPU:1") is perf.link_between("/CPU:0", "/GPU:0") is None
    assert tf.config.experimental.get_performance_model("/GPU:0") is None
    assert tf.reduce_sum(tf.constant([1.0, 2.0])).numpy() == 3.0  # ops run as ever


def test_a_cpu_is_modelled_once_any_device_is(make_context):
    make_context()
    assert perf.model_of("/CPU:0") is None
    tf.config.experimental.set_performance_model("/CPU:0", {"base": "CPU", "bandwidth": 1e11})
    assert perf.model_of("/CPU:0").bandwidth == 1e11
    make_context(PLACEFLOW_SIMULATED_GPUS="1:V100")
    assert perf.model_of("/CPU:0") is perf.PRESETS["CPU"]


def test_set_performance_model_takes_a_name_a_model_or_numbers(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="3:A100-40GB")
    gpu0, gpu1, _ = tf.config.list_physical_devices("GPU")
    tf.config.experimental.set_performance_model(gpu0, "v100")
    tf.config.experimental.set_performance_model("/GPU:1", perf.preset("L4"))
    tf.config.experimental.set_performance_model(tf.config.list_logical_devices("GPU")[2], {"bandwidth": 2e12})
    assert perf.model_of("/GPU:0").name == "V100-SXM2-32GB"
    assert tf.config.experimental.get_performance_model(gpu0).name == "V100-SXM2-32GB"
    assert perf.model_of("/job:localhost/replica:0/task:0/device:GPU:1").name == "L4-24GB"
    third = perf.model_of("/GPU:2")  # numbers replace those of the device's preset
    assert third.bandwidth == 2e12 and third.flops == perf.preset("A100-40GB").flops
    tf.config.experimental.set_performance_model(gpu0, None)
    assert perf.model_of("/GPU:0").name == "A100-SXM-40GB"
    assert tf.config.experimental.get_performance_model(gpu1).name == "A100-SXM-40GB"  # logical one set, not this


def test_set_performance_model_refuses_bad_devices_and_models(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with pytest.raises(ValueError, match=r"No device of this process is named '/GPU:5'"):
        tf.config.experimental.set_performance_model("/GPU:5", "H100")
    with pytest.raises(TypeError, match=r"must be a preset name \(H100, .*\), a placeflow.perf.DeviceModel or a "
                                        r"dict of numbers; got 3"):
        tf.config.experimental.set_performance_model("/GPU:0", 3)
    with pytest.raises(TypeError, match=r"custom\(\) without a base needs every field"):
        tf.config.experimental.set_performance_model("/GPU:0", {"bandwidth": 1e12})
    with pytest.raises(ValueError, match=r"No performance-model preset is named 'H200'"):
        tf.config.experimental.set_performance_model("/GPU:0", "H200")
    assert perf.model_of("/job:worker/replica:0/task:1/device:GPU:0") is None  # another task: not modelled


def test_model_of_a_runtime_device(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="2:T4")
    from placeflow.runtime.registry import devices
    found = {d.name: perf.model_of(d) for d in devices(ctx)}
    assert [m.name for m in found.values()] == ["T4-16GB", "T4-16GB", perf.PRESETS["CPU"].name]


def test_links(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:H100")
    assert perf.link_between("/GPU:0", "/GPU:1").name == "NVLink 4 (H100 SXM)"
    host = perf.PRESETS["H100"].host_link
    assert perf.link_between("/GPU:0", "/CPU:0") == perf.link_between("/CPU:0", "/GPU:1") == host
    assert perf.link_between("/GPU:0", "/GPU:0") is None
    tf.config.experimental.set_performance_model("/GPU:1", "T4")
    assert perf.link_between("/GPU:0", "/GPU:1").name == "PCIe 3.0 x16"  # the slower end's


def test_two_logical_devices_of_one_gpu_copy_through_its_memory(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:H100")
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(1024)] * 2)
    link = perf.link_between("/GPU:0", "/GPU:1")
    assert link.name == "device memory (one GPU)" and link.bandwidth == perf.PRESETS["H100"].bandwidth / 2


# -- import time ----------------------------------------------------------------------------------------------------

def test_perf_adds_little_to_import_placeflow(tmp_path):
    """perf's modules (which the placer imports) are a small share of `import placeflow`, with bytecode cached."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path), "PYTHONPATH": str(pathlib.Path(tf.__file__).parents[1])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(2):  # the first run writes the bytecode
        run = subprocess.run([sys.executable, "-X", "importtime", "-c", "import placeflow"], env=env,
                             capture_output=True, text=True, check=True)
    rows = [line.split("|") for line in run.stderr.splitlines() if line.startswith("import time:") and "|" in line]
    own = {r[2].strip(): int(r[0].split(":")[1]) for r in rows if r[0].split(":")[1].strip().isdigit()}
    total = {r[2].strip(): int(r[1]) for r in rows if r[1].strip().isdigit()}
    perf_share = sum(t for name, t in own.items() if name.startswith("placeflow.perf")) / total["placeflow"]
    assert perf_share < 0.05, f"placeflow.perf takes {perf_share:.1%} of import placeflow"
