"""Every forwarding kernel (an op writing into a dying input, graph/liveness + runtime/forwarding) computes
exactly what its allocating kernel computes, bit for bit, into the buffer it was given."""

import numpy as np
import pytest

from placeflow.framework import dtypes
from placeflow.ops.registry import registered_ops, op_def

FORWARDING = sorted(op for op in registered_ops() if op_def(op).kernels.get("CPU") is not None
                    and op_def(op).kernels["CPU"].forward is not None)
DTYPES = (np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8)


def _inputs(op, kernel, dtype, rs):
    count = 2 if (1 in kernel.forward_inputs or op in ("BiasAdd", "ReluGrad")) else 1
    values = [(rs.rand(64, 33) * 4 - 1).astype(dtype) for _ in range(count)]
    if op == "BiasAdd":
        values[1] = rs.rand(33).astype(dtype)
    if op == "AddN":
        values.append(values[0] * 2)
    return values


def test_the_forwarding_ops_cover_the_elementwise_family():
    assert {"AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Relu", "Tanh", "Sigmoid", "Exp", "Sqrt", "Softmax",
            "LogSoftmax", "BiasAdd", "ReluGrad", "AddN", "Abs", "Square"} <= set(FORWARDING)


@pytest.mark.parametrize("op", FORWARDING)
def test_forwarding_kernel_equals_the_allocating_kernel_bit_for_bit(op):
    kernel = op_def(op).kernels["CPU"]
    rs = np.random.RandomState(0)
    checked = 0
    for dtype in DTYPES:
        if dtypes.as_dtype(dtype) not in kernel.dtypes:
            continue
        arrays = _inputs(op, kernel, dtype, rs)
        with np.errstate(all="ignore"):
            expected = kernel.fn(np, *[a.copy() for a in arrays])
            for position in kernel.forward_inputs:
                if position >= len(arrays) or arrays[position].shape != expected.shape \
                        or arrays[position].dtype != expected.dtype:
                    continue
                copies = [a.copy() for a in arrays]
                got = kernel.forward(np, copies[position], *copies)
                assert got is copies[position], f"{op} ({dtype.__name__}) did not write into input {position}"
                np.testing.assert_array_equal(got, expected, err_msg=f"{op} ({dtype.__name__}), input {position}")
                checked += 1
    assert checked, f"no dtype of {op} was checked"
