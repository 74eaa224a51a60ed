"""op_cost formulas on hand-computed examples, op_time's roofline, transfer_time and all_reduce_time."""

import numpy as np
import pytest

from placeflow import perf
from placeflow.perf import op_costs
from placeflow.perf.op_costs import Cost, op_cost

F32, F16, F64 = np.float32, np.float16, np.float64


def t(*shape, dtype=F32):
    return (tuple(shape), dtype)


def test_a_1024_cubed_matmul():
    cost = op_cost("MatMul", [t(1024, 1024), t(1024, 1024)], [t(1024, 1024)], {})
    assert cost == Cost(2 * 1024**3, 3 * 1024 * 1024 * 4, True)


def test_matmul_transposes_and_batches():
    # a is [k, m] = [64, 32] transposed: m=32, k=64, n=16
    assert op_cost("MatMul", [t(64, 32), t(64, 16)], [t(32, 16)], {"transpose_a": True}).flops == 2 * 32 * 16 * 64
    assert op_cost("MatMul", [t(32, 64), t(16, 64)], [t(32, 16)], {"transpose_b": True}).flops == 2 * 32 * 16 * 64
    batched = op_cost("BatchMatMulV2", [t(8, 10, 20), t(20, 30)], [t(8, 10, 30)], {"adj_x": False})
    assert batched.flops == 2 * 8 * 10 * 30 * 20 and batched.matmul
    assert op_cost("BatchMatMulV3", [t(4, 20, 10), t(4, 20, 30)], [t(4, 10, 30)], {"adj_x": True}).flops == \
        2 * 4 * 10 * 30 * 20
    complex_mm = op_cost("MatMul", [t(2, 3, dtype=np.complex64)] + [t(3, 4, dtype=np.complex64)],
                         [t(2, 4, dtype=np.complex64)], {})
    assert complex_mm.flops == 4 * 2 * 2 * 4 * 3


def test_conv2d_and_its_backprops_cost_the_same_flops():
    x, w, y = t(8, 32, 32, 16), t(3, 3, 16, 64), t(8, 32, 32, 64)
    flops = 2 * 8 * 32 * 32 * 64 * 3 * 3 * 16
    forward = op_cost("Conv2D", [x, w], [y], {"strides": (1, 1, 1, 1), "padding": "SAME"})
    assert forward == Cost(flops, (8 * 32 * 32 * 16 + 3 * 3 * 16 * 64 + 8 * 32 * 32 * 64) * 4, True)
    assert op_cost("Conv2DBackpropInput", [w, y], [x], {"input_sizes": (8, 32, 32, 16)}).flops == flops
    assert op_cost("Conv2DBackpropInput", [t(4, dtype=np.int32), w, y], [x], {}).flops == flops  # TF's inputs
    assert op_cost("Conv2DBackpropFilter", [x, y], [w], {"filter_sizes": (3, 3, 16, 64)}).flops == flops
    assert op_cost("Conv3D", [t(2, 8, 8, 8, 4), t(3, 3, 3, 4, 8)], [t(2, 6, 6, 6, 8)], {}).flops == \
        2 * 2 * 6 * 6 * 6 * 8 * 27 * 4


def test_depthwise_conv_runs_on_vector_units():
    cost = op_cost("DepthwiseConv2dNative", [t(1, 10, 10, 8), t(3, 3, 8, 2)], [t(1, 8, 8, 16)], {})
    assert cost.flops == 2 * 8 * 8 * 16 * 9 and not cost.matmul


def test_pooling_and_grads():
    attrs = {"ksize": (1, 2, 2, 1), "strides": (1, 2, 2, 1), "padding": "VALID"}
    x, y = t(4, 8, 8, 3), t(4, 4, 4, 3)
    assert op_cost("MaxPool", [x], [y], attrs).flops == 4 * 4 * 4 * 3 * 4
    assert op_cost("AvgPool", [x], [y], attrs).flops == 4 * 4 * 4 * 3 * 5  # plus the divide
    assert op_cost("MaxPoolGrad", [x, y, y], [x], attrs).flops == 4 * 4 * 4 * 3 * 4
    assert op_cost("AvgPoolGrad", [t(4, dtype=np.int32), y], [x], attrs).flops == 4 * 4 * 4 * 3 * 5
    assert op_cost("MaxPool3D", [t(1, 4, 4, 4, 1)], [t(1, 2, 2, 2, 1)], {"ksize": (1, 2, 2, 2, 1)}).flops == 8 * 8


def test_elementwise_costs_by_output_and_transcendentals_cost_more():
    add = op_cost("AddV2", [t(1000), t(1)], [t(1000)], {})
    assert add == Cost(1000, (1000 + 1 + 1000) * 4, False)
    assert op_cost("Exp", [t(1000)], [t(1000)], {}).flops == 1000 * op_costs.TRANSCENDENTAL
    assert op_cost("RealDiv", [t(10), t(10)], [t(10)], {}).flops == 10 * op_costs.DIVIDE
    assert op_cost("Lgamma", [t(10)], [t(10)], {}).flops == 10 * op_costs.SPECIAL
    assert op_cost("AddN", [t(10)] * 3, [t(10)], {}).flops == 20


def test_reductions_softmax_and_cross_entropy():
    assert op_cost("Sum", [t(100, 10), t(1, dtype=np.int32)], [t(100)], {}) == Cost(1000, 4000 + 4 + 400, False)
    assert op_cost("Mean", [t(100, 10)], [t(10)], {}).flops == 1010
    softmax = 4 + op_costs.TRANSCENDENTAL
    assert op_cost("Softmax", [t(32, 10)], [t(32, 10)], {}).flops == 320 * softmax
    assert op_cost("LogSoftmax", [t(32, 10)], [t(32, 10)], {}).flops == 320 * softmax
    xent = op_cost("SoftmaxCrossEntropyWithLogits", [t(32, 10), t(32, 10)], [t(32), t(32, 10)], {})
    assert xent.flops == 320 * (7 + 2 * op_costs.TRANSCENDENTAL)
    sparse = op_cost("SparseSoftmaxCrossEntropyWithLogits", [t(32, 10), t(32, dtype=np.int64)], [t(32), t(32, 10)], {})
    assert sparse.flops == 320 * (6 + 2 * op_costs.TRANSCENDENTAL) and sparse.bytes == (320 + 32 * 2 + 32 + 320) * 4


def test_bias_and_batch_norm():
    assert op_cost("BiasAdd", [t(64, 128), t(128)], [t(64, 128)], {}) == Cost(8192, (8192 * 2 + 128) * 4, False)
    assert op_cost("BiasAddGrad", [t(64, 128)], [t(128)], {}) == Cost(8192, (8192 + 128) * 4, False)
    x, c = t(8, 4, 4, 16), t(16)
    n = 8 * 4 * 4 * 16
    train = op_cost("FusedBatchNormV3", [x, c, c, c, c], [x, c, c, c, c, c], {"is_training": True})
    assert train == Cost(5 * n, 3 * n * 4 + 9 * 16 * 4, False)
    infer = op_cost("FusedBatchNormV3", [x, c, c, c, c], [x, c, c, c, c, c], {"is_training": False})
    assert infer.flops == 2 * n and infer.bytes == 2 * n * 4 + 9 * 16 * 4
    grad = op_cost("FusedBatchNormGradV3", [x, x, c, c, c, c], [x, c, c, c, c], {"is_training": True})
    assert grad.flops == 8 * n and grad.bytes == 5 * n * 4 + 8 * 16 * 4


def test_cast_moves_and_gathers():
    assert op_cost("Cast", [t(100)], [t(100, dtype=F16)], {}) == Cost(100, 600, False)
    assert op_cost("Transpose", [t(10, 20), t(2, dtype=np.int32)], [t(20, 10)], {}) == Cost(0, 1600, False)
    assert op_cost("ConcatV2", [t(10, 4), t(10, 6), t(dtype=np.int32)], [t(10, 10)], {}) == Cost(0, 800, False)
    gather = op_cost("GatherV2", [t(1000, 64), t(32, dtype=np.int32), t(dtype=np.int32)], [t(32, 64)], {})
    assert gather == Cost(0, 2 * 32 * 64 * 4 + 32 * 4, False)


@pytest.mark.parametrize("op", ["Reshape", "ExpandDims", "Squeeze", "Identity", "StopGradient", "ReadVariableOp",
                                "Shape"])
def test_reshape_like_ops_alias(op):
    assert op_cost(op, [t(100, 100), t(2, dtype=np.int32)], [t(10000)], {}) == Cost(0, 0, False)


def test_variable_writes_and_optimizer_updates():
    n = 1000
    assert op_cost("AssignVariableOp", [t(n), t(n)], [t(n)], {}) == Cost(0, 2 * n * 4, False)
    assert op_cost("AssignAddVariableOp", [t(n), t(n)], [t(n)], {}) == Cost(n, 3 * n * 4, False)
    # placeflow's ResourceApplyGradientDescent takes the value and the delta (alpha is an attr)
    assert op_cost("ResourceApplyGradientDescent", [t(n), t(n)], [t(n)], {"alpha": 0.1}) == Cost(2 * n, 3 * n * 4,
                                                                                                   False)
    handle = ((), "resource")
    adam_inputs = [handle] * 3 + [t()] * 6 + [t(n)]  # TF's: var, m, v, 6 scalars, grad
    assert op_cost("ResourceApplyAdam", adam_inputs, [], {}) == Cost(18 * n, 7 * n * 4, False)
    assert op_cost("ApplyMomentum", [t(n), t(n), t(), t(n), t()], [t(n)], {}) == Cost(4 * n, 5 * n * 4, False)


def test_the_generic_default_and_communication():
    assert op_cost("Dilation2D", [t(10), t(10)], [t(5)], {}) == Cost(5, 100, False)
    assert op_cost("_Send", [t(10)], [], {}) == Cost(0, 0, False)


@pytest.mark.parametrize("args, error, text", [
    (("MatMul", [((2, None), F32)], [], {}), ValueError, r"shape \(2, None\) has a dimension that is not a known"),
    (("MatMul", [((2, -1), F32)], [], {}), ValueError, r"shape \(2, -1\) has a dimension"),
    (("MatMul", [(2, 2)], [], {}), TypeError, r"inputs: \(2, 2\) is not a \(shape tuple, dtype\) pair"),
    (("MatMul", "a", [], {}), TypeError, r"inputs must be a list of \(shape tuple, dtype\) pairs, got 'a'"),
    ((3, [], [], {}), TypeError, r"op's name as a string"),
])
def test_bad_arguments_are_refused(args, error, text):
    with pytest.raises(error, match=text):
        op_cost(*args)


# -- op_time: the roofline ------------------------------------------------------------------------------------------

def test_a_big_matmul_is_compute_bound():
    h100 = perf.preset("H100")
    cost = op_cost("MatMul", [t(8192, 8192, dtype=F16)] * 2, [t(8192, 8192, dtype=F16)], {})
    expected = h100.launch_latency + 2 * 8192**3 / 989.4e12
    assert perf.op_time(h100, cost, F16) == pytest.approx(expected)
    assert perf.op_time(h100, cost, F16) < perf.op_time(perf.preset("A100-80GB"), cost, F16) < \
        perf.op_time(perf.preset("V100"), cost, F16)


def test_an_elementwise_add_is_memory_bound():
    a100 = perf.preset("A100-80GB")
    cost = op_cost("AddV2", [t(1 << 26)] * 2, [t(1 << 26)], {})
    assert perf.op_time(a100, cost, F32) == pytest.approx(a100.launch_latency + 3 * 4 * (1 << 26) / 2039e9)


def test_a_tiny_op_costs_its_launch_a_view_nothing_and_tf32_is_switchable():
    h100 = perf.preset("H100")
    assert perf.op_time(h100, op_cost("AddV2", [t(3), t(3)], [t(3)], {}), F32) == \
        pytest.approx(h100.launch_latency, rel=1e-3)
    assert perf.op_time(h100, op_cost("Identity", [t(3)], [t(3)], {}), F32) == 0.0   # launches no kernel
    assert perf.op_time(h100, op_cost("Reshape", [t(4), t(2)], [t(2, 2)], {}), F32) == 0.0
    cost = Cost(1e12, 0, True)
    assert perf.op_time(h100, cost, F32) == pytest.approx(h100.launch_latency + 1e12 / 494.7e12)
    assert perf.op_time(h100, cost, F32, tensor_float_32=False) == pytest.approx(h100.launch_latency + 1e12 / 66.9e12)
    assert perf.op_time(h100, cost, F64) == pytest.approx(h100.launch_latency + 1e12 / 66.9e12)


def test_transfer_time():
    link = perf.Link("test", 1e9, 1e-5)
    assert perf.transfer_time(link, 10**9) == pytest.approx(1 + 1e-5)
    assert perf.transfer_time(link, 0) == 1e-5
    with pytest.raises(ValueError, match=r"nbytes must be a number of bytes >= 0, got -1"):
        perf.transfer_time(link, -1)
    with pytest.raises(TypeError, match=r"needs a placeflow.perf.Link"):
        perf.transfer_time(None, 1)


# -- all_reduce_time ------------------------------------------------------------------------------------------------

def _gpus(n):
    return [f"/GPU:{i}" for i in range(n)]


def test_ring_all_reduce(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="8:H100")
    nbytes, link = 1 << 30, perf.PRESETS["H100"].peer_link
    expected = 2 * 7 / 8 * nbytes / link.bandwidth + 14 * link.latency
    assert perf.all_reduce_time("NcclAllReduce", nbytes, _gpus(8)) == pytest.approx(expected)
    assert perf.all_reduce_time("NcclAllReduce", nbytes, _gpus(1)) == 0
    assert perf.all_reduce_time("ReductionToOneDevice", nbytes, []) == 0


def test_the_slowest_link_sets_the_ring(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:H100")
    fast = perf.all_reduce_time("NcclAllReduce", 1 << 28, _gpus(4))
    perf.set_performance_model("/GPU:2", "T4")
    slow = perf.all_reduce_time("NcclAllReduce", 1 << 28, _gpus(4))
    assert slow == pytest.approx(2 * 3 / 4 * (1 << 28) / 16e9 + 6 * 10e-6) and slow > 10 * fast


def test_tree_and_reduction_to_one_device_by_their_data_movement(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="4:V100")
    v100, nbytes = perf.PRESETS["V100"], 1 << 28
    copy = v100.peer_link.latency + nbytes / v100.peer_link.bandwidth

    def add(count):
        return v100.launch_latency + (count + 1) * nbytes / v100.bandwidth

    tree = perf.all_reduce_time("HierarchicalCopyAllReduce", nbytes, _gpus(4))
    assert tree == pytest.approx(2 * (copy + add(2) + copy))  # two levels: up (copy, add) and down (copy)
    assert perf.all_reduce_time("ReductionToOneDevice", nbytes, _gpus(4)) == pytest.approx(3 * copy + add(4) + 3 * copy)
    ring = perf.all_reduce_time("NcclAllReduce", nbytes, _gpus(4))
    assert ring < perf.all_reduce_time("HierarchicalCopyAllReduce", nbytes, _gpus(4)) < \
        perf.all_reduce_time("ReductionToOneDevice", nbytes, _gpus(4))


def test_all_reduce_refusals(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with pytest.raises(ValueError, match=r"Unknown all-reduce algorithm 'Ring'; expected one of NcclAllReduce, "
                                         r"HierarchicalCopyAllReduce, ReductionToOneDevice"):
        perf.all_reduce_time("Ring", 10, _gpus(2))
    with pytest.raises(ValueError, match=r"No link is modelled between /GPU:0 and /GPU:1: give the devices"):
        perf.all_reduce_time("NcclAllReduce", 10, _gpus(2))
