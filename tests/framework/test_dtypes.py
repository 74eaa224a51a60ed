"""dtypes: TensorFlow names mapped to NumPy, comparisons, conversions and errors."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.framework import dtypes


@pytest.mark.parametrize("dtype,np_type", [
    (tf.float16, np.float16), (tf.float32, np.float32), (tf.float64, np.float64), (tf.int8, np.int8),
    (tf.int16, np.int16), (tf.int32, np.int32), (tf.int64, np.int64), (tf.uint8, np.uint8),
    (tf.uint16, np.uint16), (tf.uint32, np.uint32), (tf.uint64, np.uint64), (tf.bool, np.bool_),
    (tf.complex64, np.complex64), (tf.complex128, np.complex128),
])
def test_dtype_maps_to_numpy(dtype, np_type):
    assert dtype.as_numpy_dtype is np_type
    assert tf.as_dtype(np_type) is dtype
    assert tf.as_dtype(np.dtype(np_type)) is dtype
    assert tf.as_dtype(dtype.name) is dtype
    assert dtype == np_type and dtype == dtype.name
    assert dtype.size == np.dtype(np_type).itemsize


def test_bfloat16_comes_from_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert tf.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16
    assert tf.as_dtype(ml_dtypes.bfloat16) is tf.bfloat16
    assert tf.bfloat16.is_floating and tf.bfloat16.size == 2


def test_bfloat16_without_ml_dtypes_says_how_to_install(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)
    fresh = dtypes.DType("bfloat16", None, "f")
    with pytest.raises(TypeError, match=r"pip install 'placeflow\[bfloat16\]'"):
        fresh.as_numpy_dtype


def test_aliases_and_predicates():
    assert tf.half is tf.float16 and tf.double is tf.float64
    assert tf.float32.is_floating and not tf.float32.is_integer
    assert tf.uint8.is_integer and tf.uint8.is_unsigned and not tf.int8.is_unsigned
    assert tf.complex64.is_complex and tf.bool.is_bool
    assert repr(tf.float32) == "tf.float32" and str(tf.int64) == "<dtype: 'int64'>"  # TF 2.21
    assert tf.float32 != tf.float64 and tf.float32 != "not a dtype"
    assert len({tf.float32, tf.as_dtype("float32")}) == 1


def test_unknown_dtype_lists_the_names():
    with pytest.raises(TypeError, match="Cannot convert 'float33' to a placeflow dtype.*float32"):
        tf.as_dtype("float33")


def test_dtypes_pickle_to_the_same_object():
    import pickle
    assert pickle.loads(pickle.dumps(tf.int32)) is tf.int32


def test_the_package_version_is_the_one_pyproject_declares():
    import pathlib
    import re
    pyproject = (pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    declared = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    assert tf.__placeflow_version__ == declared and tf.__version__ == f"2.21.0+placeflow.{declared}"


def test_the_narrow_experimental_dtypes_cast_and_refuse_arithmetic():
    float8 = tf.dtypes.experimental.float8_e4m3fn
    assert float8.is_floating and float8.size == 1 and float8.max == 448 and float8.min == -448
    assert tf.dtypes.experimental.int4.max == 7 and tf.dtypes.experimental.uint4.min == 0
    narrow = tf.cast(tf.constant([1.3, 500.0, -3.2]), float8)
    assert narrow.dtype == float8
    values = tf.cast(narrow, tf.float32).numpy()  # recorded from TF 2.21: 1.25, nan (out of range), -3.25
    assert values[0] == 1.25 and np.isnan(values[1]) and values[2] == -3.25
    traced = tf.function(lambda: tf.cast(tf.cast(tf.constant([1.3]), float8), tf.float32))()
    assert traced.numpy().tolist() == [1.25]
    with pytest.raises(tf.errors.InvalidArgumentError, match="float8_e4m3fn is not in the list"):
        narrow + narrow
    assert tf.as_dtype(np.dtype(tf.dtypes.experimental.float8_e5m2.as_numpy_dtype)) is tf.dtypes.experimental.float8_e5m2
