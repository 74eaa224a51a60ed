"""Each op admits the dtypes TensorFlow 2.21's op definition admits (tf_2_21_op_dtypes.json, recorded by
record_tf_op_dtypes.py): never one TensorFlow refuses (that would compute where TensorFlow raises), and
the ones placeflow has no kernel for yet are listed here, so the list only shrinks on purpose."""

import json
import pathlib

import pytest

import placeflow  # noqa: F401 - defines every op
from placeflow.framework import dtypes
from placeflow.ops.registry import op_def

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21_op_dtypes.json").read_text())["ops"]
KNOWN = {d.name for d in dtypes.ALL_DTYPES}   # TensorFlow's quantized types have no placeflow counterpart

_COMPLEX = {"complex64", "complex128"}
_INTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
NOT_YET = {  # admitted by TensorFlow, refused by placeflow as not admitted (no kernel written yet; Reciprocal
    # admits TF's integers and says NotFoundError: no kernel)
    "AsString": {"string"},
    "ResourceApplyGradientDescent": _COMPLEX | _INTS,
    "ClipByValue": _COMPLEX, "FloorDiv": _COMPLEX, "TruncateDiv": _COMPLEX,
    "Round": _COMPLEX, "Rsqrt": _COMPLEX, "Sigmoid": _COMPLEX, "Sign": _COMPLEX, "Tanh": _COMPLEX,
    "MaxPool": _INTS - {"uint32", "uint64"}, "MaxPoolGrad": _INTS, "Multinomial": _INTS,
    "RealDiv": _INTS,
}


@pytest.mark.parametrize("op", sorted(RECORDED))
def test_op_admits_what_tensorflow_admits(op):
    ours = {d.name for d in op_def(op).allowed}
    theirs = set(RECORDED[op]) & KNOWN
    assert ours - theirs == set(), f"{op} admits {sorted(ours - theirs)}, which TensorFlow refuses"
    assert theirs - ours == NOT_YET.get(op, set()), f"{op}: TensorFlow admits {sorted(theirs - ours)} too"


def test_the_record_covers_the_common_ops():
    assert {"AddV2", "MatMul", "Neg", "Abs", "Less", "Pow", "Sum", "Conv2D"} <= set(RECORDED)
