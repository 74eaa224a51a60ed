"""placeflow: TensorFlow's heterogeneous-device system on NumPy and CuPy.

Use it as `import placeflow as tf`. Importing never imports CuPy nor touches CUDA.
"""

from . import (  # noqa: F401
    autograph, compat, config, data, debugging, distribute, errors, nest, saved_model, summary, python, sysconfig, test,
    train, types, version,
)
from . import ops as _ops  # noqa: F401  (defines every op)
from .api import operators as _operators  # noqa: F401  (installs Python operators on tensors)
from .eager.tape import GradientTape, UnconnectedGradients  # noqa: F401
from .api import (  # noqa: F401
    bitwise, experimental, image, io, linalg, lookup, math, nn, random, sets, signal, sparse, strings,
)
from .api.sparse import SparseTensor  # noqa: F401
from .api import ragged  # noqa: F401
from .api import audio, autodiff, queue_ops as queue  # noqa: F401  (tf.audio, tf.autodiff, tf.queue)
from .api.ragged import RaggedTensor  # noqa: F401
from .api.indexed_slices import IndexedSlices  # noqa: F401
from .api.map_ops import foldl, foldr, map_fn, scan, vectorized_map  # noqa: F401
from .api.script_ops import numpy_function, py_function  # noqa: F401
from .api.initializers_v2 import (  # noqa: F401
    constant_initializer, ones_initializer, random_normal_initializer, random_uniform_initializer, zeros_initializer,
)
from .api.partition_ops import (  # noqa: F401
    dynamic_partition, dynamic_stitch, get_current_name_scope, grad_pass_through, guarantee_const, hessians,
    histogram_fixed_width, histogram_fixed_width_bins, identity_n, is_symbolic_tensor, realdiv, tensor_scatter_nd_sub,
    timestamp, unravel_index,
)
from .api.math_ops import saturate_cast  # noqa: F401,E402
from .api.strided_slice import strided_slice  # noqa: F401,E402  (TF's signature: begin, end, strides, masks)
from .api.nn_pooling import (  # noqa: F401,E402
    batch_to_space, required_space_to_batch_paddings, space_to_batch, space_to_batch_nd,
)
from .api.partition_ops import tuple_ as tuple  # noqa: F401,E402,A001 - TensorFlow's name
from .api.array_ops import (  # noqa: F401
    concat, expand_dims, eye, fill, one_hot, ones, ones_like, range, reshape, shape, split, squeeze, stack,
    tile, transpose, zeros, zeros_like,
)
from .eager.convert import constant, convert_to_tensor  # noqa: F401
from .api.indexing import (  # noqa: F401
    boolean_mask, broadcast_to, gather, gather_nd, meshgrid, newaxis, pad, rank, reverse, scatter_nd, shape_n, size,
    slice, tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min, tensor_scatter_nd_update, unique,
    unique_with_counts, unstack,
)
from .api.clip_ops import clip_by_global_norm, clip_by_norm  # noqa: F401
from .api.division_ops import truediv, truncatediv, truncatemod  # noqa: F401
from .api.math_ops import complex, conj, imag, real  # noqa: F401
from .api.math_ops import invert_permutation, searchsorted  # noqa: F401
from .api.special_math import scalar_mul  # noqa: F401
from .api.array_ops import (  # noqa: F401
    bitcast, broadcast_dynamic_shape, broadcast_static_shape, ensure_shape, get_static_value, repeat, reverse_sequence,
    roll, sequence_mask,
)
from .api.strings import as_string, fingerprint  # noqa: F401
from .api.device import device  # noqa: F401
from .api.math_ops import (  # noqa: F401
    abs, add, add_n, argmax, argmin, argsort, cast, ceil, clip_by_value, count_nonzero, cumsum,
    divide, einsum, equal, exp, floor, greater, greater_equal, identity, less, less_equal, linspace, log,
    logical_and, logical_not, logical_or, matmul, maximum, minimum, multiply, negative, norm, not_equal, pow,
    reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, round,
    sigmoid, sign, sort, sqrt, square, stop_gradient, subtract, tanh, tensordot, where,
    acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, sin, sinh, tan,
)
from .eager.tensor import EagerTensor as Tensor  # noqa: F401
from .api.operators import is_tensor  # noqa: F401
from .api.custom_gradient import custom_gradient  # noqa: F401
from .api.control_flow import case, cond, switch_case, while_loop  # noqa: F401
from .graph.gradients import gradients  # noqa: F401
from .api.debugging_ops import print_ as print  # noqa: F401,A004 - TensorFlow's tf.print
from .api.debugging_ops import (  # noqa: F401
    Assert, assert_equal, assert_greater, assert_greater_equal, assert_less, assert_less_equal, assert_rank,
)
from .config.placement_log import get_logger  # noqa: F401
from .eager.variables import Variable, variable_creator_scope  # noqa: F401
from .distribute.reduce_op import VariableAggregation, VariableSynchronization  # noqa: F401
from .graph.function import function  # noqa: F401
from .api.linalg import eig, eigvals  # noqa: F401,E402 - top-level aliases
from .api.linalg_more import (  # noqa: F401,E402 - linalg_more.py
    edit_distance, extract_volume_patches, matrix_square_root, parallel_stack,
)
from .api.fft_nd import fftnd, ifftnd, irfftnd, rfftnd  # noqa: F401,E402 - fft_nd.py
from .api.random_more import random_index_shuffle  # noqa: F401,E402 - random_more.py
from .api.module import Module  # noqa: F401
from .api.tensor_array import TensorArray  # noqa: F401
from .api import raw_ops  # noqa: F401
from .api.tensor_proto import make_ndarray, make_tensor_proto  # noqa: F401,E402
from .graph.graph import Graph  # noqa: F401
from .graph.v1_api import (  # noqa: F401
    control_dependencies, executing_eagerly, group, init_scope, inside_function, name_scope, no_op,
)
from .framework.tensor_shape import TensorShape  # noqa: F401
from .framework.tensor_spec import TensorSpec, TypeSpec  # noqa: F401
from .api.type_specs import (  # noqa: F401
    IndexedSlicesSpec, NoneTensorSpec, OptionalSpec, RaggedTensorSpec, SparseTensorSpec, TensorArraySpec,
    type_spec_from_value,
)
from .api.gradient_registry import (  # noqa: F401
    AggregationMethod, RegisterGradient, no_gradient, recompute_grad, register_tensor_conversion_function,
)
from .framework import dtypes
from .framework.device_spec import DeviceSpec
from .framework.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64, half,
    int8, int16, int32, int64, string, uint8, uint16, uint32, uint64,
)
from .framework.dtypes import qint8, qint16, qint32, quint8, quint16, resource, variant  # noqa: F401,E402
from .api.misc_names import (  # noqa: F401,E402 - misc_names.py
    approx_top_k, conv, conv2d_backprop_filter_v2, conv2d_backprop_input_v2, ragged_fill_empty_rows,
    ragged_fill_empty_rows_grad,
)
dtypes.complex = complex  # tf.dtypes.complex is the tf.complex function (dtypes cannot import the api layer)

from . import internal as __internal__  # noqa: E402,F401  (tf.__internal__, for Keras 3)
from . import _facade_names  # noqa: E402,F401  (names of upper layers in lower layers' public namespaces)

__version__ = version.VERSION          # '2.21.0+placeflow.0.1.0': TF 2 version checks keep working
__placeflow_version__ = version.PLACEFLOW_VERSION


def __getattr__(name):
    if name == "keras":  # Keras 3 itself, loaded on first use (see keras.py)
        import importlib
        return importlib.import_module(".keras", __name__)
    raise AttributeError(f"module 'placeflow' has no attribute {name!r}")


__all__ = ["DeviceSpec", "DType", "as_dtype", "compat", "config", "debugging", "dtypes", "errors",
           "python", "test"]


def _refuse_missing_tensorflow_names():
    """TensorFlow's public names placeflow lacks raise NotImplementedError naming them (framework/tf_api.py)."""
    import sys
    from .framework import tf_api
    tf_api.install(sys.modules[__name__])


_refuse_missing_tensorflow_names()
