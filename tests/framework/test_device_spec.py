"""Device names: a table of valid and invalid spellings, merging, replace, and a round-trip property."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from placeflow import DeviceSpec
from placeflow.compat import v1
from placeflow.framework.device_spec import canonical_name, is_complete_specification, short_name

VALID = [
    ("", ""),
    ("/", ""),
    ("/cpu:0", "/device:CPU:0"),
    ("/CPU:0", "/device:CPU:0"),
    ("/gpu:1", "/device:GPU:1"),
    ("/GPU:0", "/device:GPU:0"),
    ("GPU:0", "/device:GPU:0"),
    ("gpu:0", "/device:GPU:0"),
    ("gpu", "/device:GPU:*"),
    ("/GPU", "/device:GPU:*"),
    ("cpu:*", "/device:CPU:*"),
    ("/device:GPU:1", "/device:GPU:1"),
    ("/device:gpu:0", "/device:GPU:0"),
    ("/device:CPU:*", "/device:CPU:*"),
    ("/device:tpu:0", "/device:TPU:0"),
    ("/device:MyFunnyDevice:2", "/device:MyFunnyDevice:2"),
    ("/job:localhost/replica:0/task:0/device:GPU:1", "/job:localhost/replica:0/task:0/device:GPU:1"),
    ("/job:foo/replica:1/task:2/device:GPU:3", "/job:foo/replica:1/task:2/device:GPU:3"),
    ("/job:worker/task:3", "/job:worker/task:3"),
    ("/job:*/replica:4/gpu:*", "/replica:4/device:GPU:*"),
    ("/replica:1/task:0/cpu:0", "/replica:1/task:0/device:CPU:0"),
    ("/GPU:0/task:3", "/task:3/device:GPU:0"),
    ("/gpu:*/job:*/replica:4", "/replica:4/device:GPU:*"),
    ("job:foo", "/job:foo"),
    ("/job:foo_bar/replica:1/task:2/gpu:3", "/job:foo_bar/replica:1/task:2/device:GPU:3"),
    ("/job:ps/device:GPU:10", "/job:ps/device:GPU:10"),
    ("//gpu:0", "/device:GPU:0"),
]

INVALID = [
    # (input, text the error must contain, suggested spelling or None)
    ("/job:muu/device:GPU:2/cpu:0", "Multiple device types are not allowed while parsing the device spec: "
     "/job:muu/device:GPU:2/cpu:0.", "/job:muu/device:GPU:2"),
    ("/foo:1", "Unknown attribute 'foo' is encountered while parsing the device spec: '/foo:1'.", None),
    ("/devcie:GPU:0", "Unknown attribute 'devcie'", "/device:GPU:0"),
    ("/gpu0", "lacks the ':'", "/gpu:0"),
    ("CPU:GPU", "'GPU' is not a non-negative integer", "CPU:0"),
    ("CPU:", "the device index after ':' is empty", "CPU:0"),
    ("/gpu:x", "'x' is not a non-negative integer", "/gpu:0"),
    ("/device:GPU:abc", "'abc' is not a non-negative integer", "/device:GPU:0"),
    ("/replica:x", "the replica number 'x'", "/replica:0"),
    ("/device:GPU:1:2", "too many ':'-separated parts", "/device:GPU:1"),
    ("/device:GPU", "Unknown attribute 'device' is encountered while parsing the device spec: '/device:GPU'.",
     "/device:GPU:0"),  # TF 2.21 refuses a device type without an index after 'device:'

    # TensorFlow accepts these silently; placeflow refuses them (docs/device-names.md).
    ("/task:-1", "the task number must be a non-negative integer", "/task:0"),
    ("/gpu:-1", "the device index must be a non-negative integer", "/gpu:0"),
    ("/replica:-2/cpu:0", "the replica number must be a non-negative integer", "/replica:0/cpu:0"),
    (" /gpu:0", "surrounding whitespace", "/gpu:0"),
    ("/gpu:0\n", "surrounding whitespace", "/gpu:0"),
    ("/job:", "the job name is empty", "/job:localhost"),
    ("/job:/gpu:0", "the job name is empty", "/job:localhost/gpu:0"),
    ("/job:123/gpu:0", "the job name '123' must start with a letter", "/job:localhost/gpu:0"),
    ("/device:9x:0", "the device type '9x' must start with a letter", None),
]


@pytest.mark.parametrize("name,canonical", VALID)
def test_valid_names_parse_to_their_canonical_form(name, canonical):
    assert DeviceSpec.from_string(name).to_string() == canonical


@pytest.mark.parametrize("name,text,suggestion", INVALID)
def test_invalid_names_are_refused_with_a_teaching_error(name, text, suggestion):
    with pytest.raises(ValueError) as info:
        DeviceSpec.from_string(name)
    message = str(info.value)
    assert text in message
    assert repr(name) in message  # quotes the bad input
    assert "A device name looks like '/job:localhost/replica:0/task:0/device:GPU:0'" in message
    if suggestion is None:
        assert "Did you mean" not in message
    else:
        assert message.endswith(f"Did you mean {suggestion!r}?")
        DeviceSpec.from_string(suggestion)  # the suggestion itself is valid


def test_vector_count_meets_the_table_size():
    assert len(VALID) + len(INVALID) >= 40


def test_non_string_is_refused_like_tensorflow():
    with pytest.raises(ValueError, match=r"Expecting a string device name. Got <class 'int'>\(3\)"):
        DeviceSpec.from_string(3)


def test_fields_and_repr():
    spec = DeviceSpec.from_string("/job:j/replica:0/task:1/device:CPU:2")
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == ("j", 0, 1, "CPU", 2)
    assert repr(spec) == "<DeviceSpec(job=j, replica=0, task=1, device_type=CPU, device_index=2)>"


def test_constructor_matches_tensorflow():
    assert DeviceSpec(job="j", replica=0, task=1, device_type="CPU", device_index=2).to_string() == \
        "/job:j/replica:0/task:1/device:CPU:2"
    assert DeviceSpec(job="foo", replica=12, task=3, device_type="GPU").to_string() == \
        "/job:foo/replica:12/task:3/device:GPU:*"
    assert DeviceSpec(device_type="gpu", device_index=0).to_string() == "/device:GPU:0"


@pytest.mark.parametrize("kwargs", [{"replica": -1}, {"task": "1"}, {"device_index": True}, {"job": ""},
                                    {"device_type": "G P U"}])
def test_constructor_refuses_bad_fields(kwargs):
    with pytest.raises(ValueError, match="DeviceSpec"):
        DeviceSpec(**kwargs)


def test_make_merged_spec_lets_the_argument_win():
    merged = DeviceSpec.from_string("/job:foo/replica:0").make_merged_spec(DeviceSpec.from_string("/task:1/device:GPU:2"))
    assert merged.to_string() == "/job:foo/replica:0/task:1/device:GPU:2"


def test_merge_chain_from_tensorflow_tests():
    spec = DeviceSpec()
    expected = ["/task:1/device:CPU:0", "/job:boo/task:1/device:GPU:0", "/job:muu/task:1/device:CPU:2",
                "/job:muu/task:1/device:MyFunnyDevice:2"]
    for name, want in zip(["/task:1/cpu:0", "/job:boo/device:GPU:0", "/job:muu/cpu:2",
                           "/job:muu/device:MyFunnyDevice:2"], expected):
        spec = spec.make_merged_spec(DeviceSpec.from_string(name))
        assert spec.to_string() == want


def test_replace_overrides_and_clears():
    spec = DeviceSpec.from_string("/job:foo/task:3/device:CPU:0")
    assert spec.replace(task=None, replica=12).to_string() == "/job:foo/replica:12/device:CPU:0"
    assert spec.to_string() == "/job:foo/task:3/device:CPU:0"
    with pytest.raises(TypeError, match="unknown field"):
        spec.replace(gpu=1)


def test_spec_is_immutable_hashable_and_equal_by_name():
    a, b = DeviceSpec.from_string("/gpu:0"), DeviceSpec.from_string("/device:GPU:0")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError, match="immutable"):
        a.device_index = 1
    assert a.parse_from_string("/cpu:1").to_string() == "/device:CPU:1"
    assert a.to_string() == "/device:GPU:0"


def test_v1_spec_is_mutable():
    spec = v1.DeviceSpec(job="ps")
    spec.device_type = "gpu"
    spec.merge_from(DeviceSpec.from_string("/task:2/device:GPU:1"))
    assert spec.to_string() == "/job:ps/task:2/device:GPU:1"
    assert spec.parse_from_string("/cpu:0") is spec and spec.to_string() == "/device:CPU:0"


def test_helpers():
    assert canonical_name("/replica:0") == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert canonical_name("GPU:1") == "/job:localhost/replica:0/task:0/device:GPU:1"
    assert canonical_name("gpu") == "/job:localhost/replica:0/task:0/device:GPU:0"
    assert short_name("/job:localhost/replica:0/task:0/device:GPU:1") == "/device:GPU:1"
    assert is_complete_specification(DeviceSpec.from_string("/gpu:*"),
                                     DeviceSpec.from_string("/job:w/replica:1/task:2/device:GPU:3"))
    assert not is_complete_specification(DeviceSpec.from_string("/device:GPU:2"),
                                         DeviceSpec.from_string("/job:w/replica:1/task:2/device:GPU:1"))


names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
numbers = st.none() | st.integers(min_value=0, max_value=10_000)
specs = st.builds(DeviceSpec, job=st.none() | names, replica=numbers, task=numbers,
                  device_type=st.none() | st.sampled_from(["CPU", "GPU", "TPU"]) | names,
                  device_index=numbers)


@given(specs)
def test_round_trip_through_the_canonical_string(spec):
    if spec.device_type is None and spec.device_index is not None:
        spec = spec.replace(device_index=None)  # an index without a type has no spelling
    assert DeviceSpec.from_string(spec.to_string()) == spec
