"""Small inputs that used to be taken silently: each is refused with a message that names the fix."""

import pytest

import placeflow as tf
from placeflow.config.simulated import parse_simulated_gpus


def test_memory_limit_must_be_an_int_not_a_bool(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    with pytest.raises(ValueError, match=r"memory_limit must be a positive number of MB \(an int, e.g. "
                                         r"memory_limit=1024\), got True"):
        tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=True)])


@pytest.mark.parametrize("value, text", [
    ("100000", "asks for more simulated GPUs than placeflow makes"),
    ("257", "asks for more simulated GPUs than placeflow makes"),
    ("\uff12", "is not understood"),                  # a full-width digit 2: ASCII digits only
    ("2:\u0661GiB", "is not understood"),              # an Arabic-Indic digit 1
    ("2:99999999999TiB", "more than 1 PiB"),
])
def test_simulated_gpu_counts_and_sizes_are_bounded_and_ascii(value, text):
    with pytest.raises(ValueError, match=text):
        parse_simulated_gpus(value)
    assert parse_simulated_gpus("256:1MiB") == (256, 1 << 20)


def test_thread_counts_are_capped(make_context):
    make_context()
    with pytest.raises(ValueError, match="Inter op parallelism of 1000000 threads is more than placeflow starts"):
        tf.config.threading.set_inter_op_parallelism_threads(10**6)
    with pytest.raises(ValueError, match="Intra op parallelism of -5000 threads"):
        tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(intra_op_parallelism_threads=-5000))
    tf.config.threading.set_inter_op_parallelism_threads(4096)


@pytest.mark.parametrize("name", ["/GPU:" + "9" * 5000, "/task:" + "9" * 5000, "/GPU:2147483648"])
def test_huge_device_indices_get_our_message_not_pythons(name):
    with pytest.raises(ValueError, match="is larger than 2147483647, the largest index a device name can hold") as info:
        tf.DeviceSpec.from_string(name)
    assert len(str(info.value)) < 600 and "4300 digits" not in str(info.value)
