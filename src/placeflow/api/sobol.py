"""tf.math.sobol_sample: points of the Sobol low-discrepancy sequence (TensorFlow's values; the Joe-Kuo direction
numbers of ops/sobol_directions.py, for up to 1111 dimensions)."""

from __future__ import annotations

from ..eager.execute import execute
from ..framework import build_errors, dtypes, errors

_TF_MAX_DIM = 21200


def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None):
    """[num_results, dim] points of the Sobol sequence in [0, 1), after its first `skip` + 1 points (the first is
    all zeros), in Gray-code order."""
    from ..ops.sobol_directions import MAX_DIM
    if any(_at_run_time(v) for v in (dim, num_results, skip)):  # inside a function, computed by the graph
        return _of_tensors(dim, num_results, skip, dtypes.as_dtype(dtype), name)
    dim, num_results, skip = (_int32(v) for v in (dim, num_results, skip))
    dtype = dtypes.as_dtype(dtype)
    _check_dtype(dtype)
    _check(dim >= 1, "dim must be at least one")
    _check(dim <= _TF_MAX_DIM, f"dim must be at most {_TF_MAX_DIM}")
    _check(num_results >= 1, "num_results must be at least one")
    _check(skip >= 0, "skip must be non-negative")
    if dim > MAX_DIM:
        raise NotImplementedError(f"sobol_sample(dim={dim}) is not implemented in placeflow: it has the Joe-Kuo "
                                  f"direction numbers of the first {MAX_DIM} dimensions (TensorFlow has "
                                  f"{_TF_MAX_DIM}); ask for dim <= {MAX_DIM}.")
    attrs = {"dim": dim, "num_results": num_results, "skip": skip, "dtype": dtype}
    return execute("SobolSample", (), dtype, attrs, name=name)


def _check_dtype(dtype) -> None:
    if dtype not in (dtypes.float32, dtypes.float64):
        raise build_errors.dtype_not_allowed("dtype", dtype, ("float32", "float64"), (
            f"Value for attr 'dtype' of {_c_name(dtype)} is not in the list of allowed values: float, double (op "
            f"SobolSample)"))


def _at_run_time(value) -> bool:
    """Whether `value` is a tensor of the graph being built whose value is known only when it runs."""
    from .array_ops import get_static_value
    return build_errors.building() and hasattr(value, "dtype") and not hasattr(value, "numpy") and \
        get_static_value(value) is None


def _of_tensors(dim, num_results, skip, dtype, name):
    """SobolSample on int32 scalar tensors (the kernel checks their values when the graph runs)."""
    from ..eager.convert import convert_to_tensor
    _check_dtype(dtype)
    tensors = tuple(convert_to_tensor(v, dtype=dtypes.int32) for v in (dim, num_results, skip))
    return execute("_SobolSampleOfTensors", tensors, dtypes.int32, {"dtype": dtype}, name=name)


def _c_name(dtype) -> str:
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise errors.InvalidArgumentError(None, None, f"{message} [Op:SobolSample]")


def _int32(value) -> int:
    """A scalar int32 argument's value (a Python integer or a tensor known while building)."""
    from .array_ops import get_static_value
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        known = get_static_value(value)
        if known is None:
            raise NotImplementedError(f"sobol_sample needs {value!r} while building the graph in placeflow; pass a "
                                      "Python integer or a constant.")
        value = known.item()
    if isinstance(value, float) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int32")
    return int(value)
