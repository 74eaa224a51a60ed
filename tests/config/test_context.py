"""The Context: lazy initialization, frozen configuration with the init site, and every setter."""

import pytest

import placeflow as tf
from placeflow.config.context import context

LDC = tf.config.LogicalDeviceConfiguration


def names(devices):
    return [d.name for d in devices]


def test_listing_physical_devices_does_not_initialize(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="2")
    tf.config.list_physical_devices()
    tf.config.get_visible_devices()
    assert not ctx.initialized


def test_listing_logical_devices_initializes_and_records_the_site(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="2")
    assert names(tf.config.list_logical_devices()) == ["/device:CPU:0", "/device:GPU:0", "/device:GPU:1"]
    assert ctx.initialized
    assert ctx.init_site.startswith(__file__ + ":") and ctx.init_site.endswith("(by list_logical_devices())")


def test_changes_after_initialization_raise_with_tensorflows_words_and_the_site(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.list_logical_devices()
    cases = [
        (lambda: tf.config.set_visible_devices(gpus[0], "GPU"), "Visible devices cannot be modified after being initialized"),
        (lambda: tf.config.experimental.set_memory_growth(gpus[0], False), "Physical devices cannot be modified after being initialized"),
        (lambda: tf.config.set_logical_device_configuration(gpus[0], [LDC(512)]), "Virtual devices cannot be modified after being initialized"),
        (lambda: tf.config.threading.set_inter_op_parallelism_threads(2), "Inter op parallelism cannot be modified after initialization."),
        (lambda: tf.config.threading.set_intra_op_parallelism_threads(2), "Intra op parallelism cannot be modified after initialization."),
    ]
    for change, text in cases:
        with pytest.raises(RuntimeError) as info:
            change()
        first_line, second_line = str(info.value).split("\n")
        assert first_line == text
        assert f"initialized at {__file__}:" in second_line and "by list_logical_devices()" in second_line


def test_unchanged_settings_after_initialization_are_silent_no_ops(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.list_logical_devices()
    tf.config.set_visible_devices(tf.config.list_physical_devices())
    tf.config.experimental.set_memory_growth(gpus[0], True)
    tf.config.threading.set_inter_op_parallelism_threads(0)


def test_visible_devices_hide_gpus_by_type(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="3")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.set_visible_devices(gpus[2], "GPU")
    assert tf.config.get_visible_devices("GPU") == [gpus[2]]
    assert tf.config.get_visible_devices("CPU") == tf.config.list_physical_devices("CPU")
    assert names(tf.config.list_logical_devices("GPU")) == ["/device:GPU:0"]


def test_visible_devices_can_hide_every_gpu(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    tf.config.set_visible_devices([], "GPU")
    assert tf.config.list_logical_devices("GPU") == []


def test_the_cpu_must_stay_visible(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with pytest.raises(ValueError, match="The CPU must stay visible"):
        tf.config.set_visible_devices(tf.config.list_physical_devices("GPU"))


def test_unknown_or_mistyped_devices_are_refused(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    with pytest.raises(ValueError, match=r"Unrecognized device: PhysicalDevice\(name='/physical_device:GPU:7'"):
        tf.config.set_visible_devices(tf.config.PhysicalDevice("/physical_device:GPU:7", "GPU"))
    with pytest.raises(ValueError, match="Unrecognized device: .*not of type 'CPU'"):
        tf.config.set_visible_devices(gpu, "CPU")


def test_memory_growth_defaults_on_and_can_be_turned_off(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    gpus = tf.config.list_physical_devices("GPU")
    assert tf.config.experimental.get_memory_growth(gpus[0]) is True
    for gpu in gpus:
        tf.config.experimental.set_memory_growth(gpu, False)
    assert tf.config.experimental.get_memory_growth(gpus[1]) is False
    assert [d.memory_growth for d in context().ensure_initialized() if d.device_type == "GPU"] == [False, False]


def test_memory_growth_must_agree_across_gpus(make_context):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.experimental.set_memory_growth(gpus[0], False)
    with pytest.raises(ValueError, match="Memory growth cannot differ between GPU devices"):
        tf.config.list_logical_devices()
    assert not ctx.initialized  # the user can still fix it
    tf.config.experimental.set_memory_growth(gpus[1], False)
    assert len(tf.config.list_logical_devices("GPU")) == 2


@pytest.mark.parametrize("forced,expected", [("true", True), ("false", False), ("FALSE", False)])
def test_force_allow_growth_env_overrides_the_setting(make_context, forced, expected, caplog):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", TF_FORCE_GPU_ALLOW_GROWTH=forced)
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.experimental.set_memory_growth(gpu, not expected)
    assert tf.config.experimental.get_memory_growth(gpu) is expected
    assert "Overriding allow_growth setting because the TF_FORCE_GPU_ALLOW_GROWTH" in caplog.text


def test_force_allow_growth_garbage_is_reported_and_ignored(make_context, caplog):
    make_context(PLACEFLOW_SIMULATED_GPUS="1", TF_FORCE_GPU_ALLOW_GROWTH="yes")
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.experimental.set_memory_growth(gpu, False)
    assert tf.config.experimental.get_memory_growth(gpu) is False
    assert "TF_FORCE_GPU_ALLOW_GROWTH='yes' is not 'true' or 'false'" in caplog.text


def test_memory_growth_only_for_gpus_and_not_with_virtual_devices(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    cpu, gpu = tf.config.list_physical_devices()
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU and non-Pluggable devices"):
        tf.config.experimental.set_memory_growth(cpu, True)
    tf.config.set_logical_device_configuration(gpu, [LDC(1024)])
    with pytest.raises(ValueError, match="Cannot set memory growth on device when virtual devices configured"):
        tf.config.experimental.set_memory_growth(gpu, True)


def test_split_one_gpu_into_two_logical_gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:4GiB")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.set_logical_device_configuration(gpus[0], [LDC(memory_limit=1024), LDC(memory_limit=1024)])
    assert tf.config.get_logical_device_configuration(gpus[0]) == [LDC(1024), LDC(1024)]
    assert tf.config.experimental.get_virtual_device_configuration(gpus[1]) is None
    assert names(tf.config.list_logical_devices("GPU")) == ["/device:GPU:0", "/device:GPU:1", "/device:GPU:2"]
    devices = [d for d in context().ensure_initialized() if d.device_type == "GPU"]
    assert [d.physical.device for d in devices] == [gpus[0], gpus[0], gpus[1]]
    assert [d.memory_limit for d in devices] == [1 << 30, 1 << 30, 4 << 30]


def test_device_ordinals_reorder_logical_gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    gpus = tf.config.list_physical_devices("GPU")
    tf.config.set_logical_device_configuration(
        gpus[0], [LDC(100, experimental_device_ordinal=1), LDC(200, experimental_device_ordinal=0)])
    devices = [d for d in context().ensure_initialized() if d.device_type == "GPU"]
    assert [d.memory_limit >> 20 for d in devices] == [200, 4096, 100]


def test_split_the_cpu_into_logical_cpus(make_context):
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [LDC(), LDC(), LDC()])
    assert names(tf.config.list_logical_devices("CPU")) == ["/device:CPU:0", "/device:CPU:1", "/device:CPU:2"]


@pytest.mark.parametrize("device_type,configs,text", [
    ("CPU", [LDC(memory_limit=10)], "Setting memory limit on CPU virtual devices is currently not supported"),
    ("CPU", [LDC(experimental_priority=1)], "Setting experimental_priority on CPU virtual  devices is currently not supported"),
    ("CPU", [LDC(experimental_device_ordinal=1)], "Setting experimental_device_ordinal on CPU virtual  devices"),
    ("GPU", [LDC()], "Setting memory limit is required for GPU virtual devices"),
    ("GPU", [LDC(-5)], r"memory_limit must be a positive number of MB \(an int, e.g. memory_limit=1024\), got -5"),
    ("GPU", [LDC(10, experimental_priority=0), LDC(10)], "priority must be specified for all virtual devices"),
    ("GPU", [LDC(10, experimental_device_ordinal=0), LDC(10)], "device_ordinals must be specified for all virtual devices"),
    ("GPU", [LDC(3000), LDC(3000)], r"ask for 6000 MB in all \(\[3000, 3000\]\), but the device has 4096 MB"),
    ("GPU", ["1024"], "Expected placeflow.config.LogicalDeviceConfiguration entries, got '1024'"),
])
def test_logical_configuration_is_validated(make_context, device_type, configs, text):
    ctx = make_context(PLACEFLOW_SIMULATED_GPUS="1:4GiB")
    device = tf.config.list_physical_devices(device_type)[0]
    with pytest.raises(ValueError, match=text):
        tf.config.set_logical_device_configuration(device, configs)
    assert ctx.logical_configuration(device) is None  # a refused change leaves no trace


def test_threading_settings(make_context):
    make_context()
    assert tf.config.threading.get_inter_op_parallelism_threads() == 0
    tf.config.threading.set_inter_op_parallelism_threads(2)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    assert tf.config.threading.get_inter_op_parallelism_threads() == 2
    assert tf.config.threading.get_intra_op_parallelism_threads() == 1
    with pytest.raises(TypeError, match="Thread count must be an int, got '2'"):
        tf.config.threading.set_inter_op_parallelism_threads("2")


def test_soft_placement_and_logging_change_any_time(make_context):
    make_context()
    assert tf.config.get_soft_device_placement() is True
    tf.config.list_logical_devices()
    tf.config.set_soft_device_placement(False)
    assert tf.config.get_soft_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    assert tf.debugging.get_log_device_placement() is True


def test_logical_device_configuration_repr():
    assert repr(LDC()) == ("LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, "
                           "experimental_device_ordinal=None)")
    assert tf.config.experimental.VirtualDeviceConfiguration is LDC
