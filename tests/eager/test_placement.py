"""The placement policy in eager mode: scopes, defaults, fallbacks, strict mode, errors, report, threads."""

import logging
import threading

import numpy as np
import pytest

import placeflow as tf

FULL = "/job:localhost/replica:0/task:0/device:"


@pytest.fixture
def gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    tf.experimental.reset_placement_report()


def ones():
    return tf.constant([[1.0, 2.0], [3.0, 4.0]])


def test_unscoped_ops_prefer_gpu0(gpus):
    assert ones().device == FULL + "GPU:0"
    assert tf.matmul(ones(), ones()).device == FULL + "GPU:0"


def test_without_gpus_everything_runs_on_cpu0(make_context):
    make_context()
    assert tf.matmul(ones(), ones()).device == FULL + "CPU:0"


@pytest.mark.parametrize("name,expected", [
    ("/cpu:0", "CPU:0"), ("/GPU:1", "GPU:1"), ("GPU:1", "GPU:1"), ("gpu", "GPU:0"),
    ("/job:localhost/replica:0/task:0/device:GPU:1", "GPU:1"), ("/device:CPU:*", "CPU:0"),
])
def test_scope_spellings(gpus, name, expected):
    with tf.device(name):
        assert ones().device == FULL + expected


def test_scope_accepts_specs_logical_devices_and_none(gpus):
    with tf.device(tf.DeviceSpec(device_type="GPU", device_index=1)):
        assert ones().device == FULL + "GPU:1"
    with tf.device(tf.config.list_logical_devices("GPU")[1]):
        assert ones().device == FULL + "GPU:1"
    with tf.device("/cpu:0"):
        with tf.device(None):
            assert ones().device == FULL + "GPU:0"
        with tf.device(""):
            assert ones().device == FULL + "CPU:0"


def test_nested_scopes_merge_field_by_field(gpus):
    with tf.device("/GPU:1"):
        with tf.device("/job:localhost/task:0"):
            assert ones().device == FULL + "GPU:1"
        with tf.device("CPU"):  # index inherited from the outer scope, as in TensorFlow
            a = tf.identity(ones())
    # CPU:1 does not exist: soft placement drops type and index, as TensorFlow does, so GPU:0 runs it.
    assert a.device == FULL + "GPU:0"


def test_scope_exit_out_of_order_is_refused(gpus):
    outer, inner = tf.device("/cpu:0"), tf.device("/gpu:0")
    outer.__enter__()
    inner.__enter__()
    with pytest.raises(RuntimeError, match="Exiting device scope without proper scope nesting"):
        outer.__exit__(None, None, None)
    inner.__exit__(None, None, None)
    outer.__exit__(None, None, None)


def test_variables_colocate_their_reads_and_assigns(gpus):
    with tf.device("/GPU:1"):
        v = tf.Variable([1.0, 2.0])
    with tf.device("/cpu:0"):
        read = v.read_value()
        v.assign_add([1.0, 1.0])
    assert read.device == v.device == FULL + "GPU:1"
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
    report = {(r["op"], r["device"], r["reason"]) for r in tf.experimental.placement_report().ops}
    assert ("ReadVariableOp", "GPU:1", "variable") in report and ("AssignAddVariableOp", "GPU:1", "variable") in report


def test_kernel_fallback_is_recorded(gpus):
    x = tf.cast(tf.constant([1, 2]), tf.float32)
    assert x.device == FULL + "CPU:0"
    rows = [r for r in tf.experimental.placement_report().ops if r["op"] == "Cast"]
    assert rows == [{"op": "Cast", "device": "CPU:0", "reason": "kernel fallback",
                     "detail": "no GPU kernel for int32", "count": 1}]


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_soft_fallback_is_logged_once_per_op_and_request(gpus):
    collect = Collect()
    logging.getLogger("placeflow.placement").addHandler(collect)
    try:
        for _ in range(3):
            with tf.device("/GPU:5"):
                tf.identity(ones())
    finally:
        logging.getLogger("placeflow.placement").removeHandler(collect)
    warnings = collect.messages
    assert warnings == ["_EagerConst fell back from GPU:5 to GPU:0: no device GPU:5 exists.",
                        "Identity fell back from GPU:5 to GPU:0: no device GPU:5 exists."]
    rows = {r["op"]: r for r in tf.experimental.placement_report().ops if r["reason"] == "soft fallback"}
    assert rows["Identity"]["count"] == 3 and rows["Identity"]["detail"] == "requested GPU:5: no device GPU:5 exists"


def test_no_kernel_without_soft_placement_names_the_fix(gpus):
    tf.config.set_soft_device_placement(False)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        with tf.device("/GPU:0"):
            tf.cast(tf.constant([1, 2]), tf.float32)
    message = str(info.value)
    assert message.startswith(f"Could not satisfy device specification '{FULL}GPU:0'. enable_soft_placement=0. "
                              "Supported device types [CPU]. All available devices [")
    assert "[Op:Cast] name: \nplaceflow: no GPU kernel for Cast with int32" in message
    assert "list_kernels('Cast')" in message


def test_another_job_is_an_unknown_device_even_with_soft_placement(gpus):
    with pytest.raises(RuntimeError) as info:
        with tf.device("/job:worker/task:3"):
            ones()
    assert isinstance(info.value, tf.errors.InvalidArgumentError)
    assert str(info.value).startswith("Error copying tensor to device: /job:worker/replica:0/task:3/device:CPU:0. "
                                      "/job:worker/replica:0/task:3/device:CPU:0 unknown device.")


def test_no_kernel_anywhere_is_not_found(gpus):
    # TensorFlow's Reciprocal admits integers; placeflow has no integer kernel for it on any device
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node Reciprocal\}\} = "
                                                      r"Reciprocal\[T=int32\]\nAll kernels registered for op "
                                                      r"Reciprocal:"):
        tf.math.reciprocal(tf.constant([1, 2]))


def test_copies_are_counted_between_devices(gpus):
    with tf.device("/GPU:0"):
        a = ones()
    with tf.device("/GPU:1"):
        b = tf.add(a, a)  # one tensor, copied once per input
    with tf.device("/cpu:0"):
        tf.identity(b)
    copies = {(c["source"], c["destination"]): (c["count"], c["bytes"])
              for c in tf.experimental.placement_report().copies}
    assert copies == {("GPU:0", "GPU:1"): (2, 32), ("GPU:1", "CPU:0"): (1, 16)}
    assert "GPU:0 -> GPU:1" in str(tf.experimental.placement_report())


def test_copies_produce_separate_memory(gpus):
    with tf.device("/cpu:0"):
        a = ones()
    with tf.device("/GPU:0"):
        b = tf.identity(a)
    assert not np.shares_memory(a.numpy(), b._value)


def test_strict_placement_refuses_fallbacks_and_implicit_copies(gpus):
    tf.config.experimental.set_strict_placement(True)
    assert tf.config.experimental.get_strict_placement()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Strict placement: Cast would run on CPU:0: no GPU "
                                                             "kernel for int32"):
        tf.cast(tf.constant([1, 2]), tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Strict placement: _EagerConst asked for GPU:5"):
        with tf.device("/GPU:5"):
            ones()
    with tf.device("/cpu:0"):
        a = ones()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensors on conflicting devices: cannot compute MatMul "
                                                             "as input #0 was expected to be on .*GPU:0"):
        tf.matmul(a, a)
    with tf.device("/GPU:0"):
        b = tf.identity(a)  # the explicit copy is allowed
    assert tf.matmul(b, b).device == FULL + "GPU:0"
    tf.config.experimental.set_strict_placement(False)
    assert tf.matmul(a, a).device == FULL + "GPU:0"


def test_device_functions_work_in_eager_mode(gpus):
    seen = []

    def by_type(op):
        seen.append(op.type)
        return "/GPU:1" if op.type == "MatMul" else None

    with tf.device("/cpu:0"):
        with tf.device(by_type):
            a = ones()
            c = tf.matmul(a, a)
    assert a.device == FULL + "CPU:0" and c.device == FULL + "GPU:1"
    assert seen == ["_EagerConst", "MatMul"]


def test_scopes_are_per_thread(gpus):
    results, barrier = {}, threading.Barrier(3)

    def work(name):
        with tf.device(name):
            barrier.wait()
            for _ in range(200):
                results.setdefault(name, set()).add(tf.add(ones(), ones()).device)

    threads = [threading.Thread(target=work, args=(n,)) for n in ("/cpu:0", "/GPU:0", "/GPU:1")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"/cpu:0": {FULL + "CPU:0"}, "/GPU:0": {FULL + "GPU:0"}, "/GPU:1": {FULL + "GPU:1"}}
    assert ones().device == FULL + "GPU:0"  # the main thread's scope is untouched


def test_placement_log_goes_through_the_logger(gpus, capsys):
    tf.debugging.set_log_device_placement(True)
    ones()
    assert capsys.readouterr().err == f"Executing op _EagerConst in device {FULL}GPU:0\n"
    logging.getLogger("placeflow.placement").setLevel(logging.WARNING)  # users can silence it
    ones()
    assert capsys.readouterr().err == ""
    logging.getLogger("placeflow.placement").setLevel(logging.INFO)
    tf.debugging.set_log_device_placement(False)
    ones()
    assert capsys.readouterr().err == ""


def test_list_kernels_explains_fallbacks():
    assert [t for t, _ in tf.config.experimental.list_kernels("MatMul")] == ["CPU", "GPU"]
    gpu_variable_dtypes = dict(tf.config.experimental.list_kernels("VarHandleOp"))["GPU"]
    assert "float32" in gpu_variable_dtypes and "int32" not in gpu_variable_dtypes
    with pytest.raises(ValueError, match="Unknown op 'MatMull'"):
        tf.config.experimental.list_kernels("MatMull")


def test_string_tensors_under_a_gpu_scope_live_on_the_host(gpus):
    with tf.device("GPU:0"):
        text = tf.constant(["ab", "cde"])
        lengths = tf.strings.length(tf.strings.join([text, text]))
        numbers = lengths * 2  # int32 maths goes back to the GPU

    @tf.function
    def traced(x):
        with tf.device("GPU:1"):
            return tf.strings.length(x)

    assert text.device == FULL + "CPU:0" and lengths.device == FULL + "CPU:0"
    assert numbers.device == FULL + "GPU:0" and numbers.numpy().tolist() == [8, 12]
    assert traced(text).device == FULL + "CPU:0" and traced(text).numpy().tolist() == [2, 3]
