"""placeflow: TensorFlow's heterogeneous-device system on NumPy and CuPy.

Use it as `import placeflow as tf`. Importing never imports CuPy nor touches CUDA.
"""

from . import compat, config, debugging, errors, python, test  # noqa: F401
from .framework import dtypes
from .framework.device_spec import DeviceSpec
from .framework.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64, half,
    int8, int16, int32, int64, string, uint8, uint16, uint32, uint64,
)

__version__ = "0.1.0"
__all__ = ["DeviceSpec", "DType", "as_dtype", "compat", "config", "debugging", "dtypes", "errors",
           "python", "test"]
