"""tf.debugging's remaining assertions: signs, nearness, dtypes, ranks and scalars, with TensorFlow 2.21's texts.

Eagerly an assertion checks at once and returns None (InvalidArgumentError listing its data as TF's
`_pretty_print` does); in a graph it returns the Assert op that checks when it runs, and, as TF, fails
while building when both sides are known statically. Shape and dtype checks are static: ValueError or
TypeError at the call, as in TensorFlow.
"""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.tensor import EagerTensor
from ..framework import dtypes, errors, graph_mode
from ..graph.graph import Tensor as GraphTensor
from . import debugging_ops
from ..graph.v1_api import name_scope
from .array_ops import get_static_value

def _prefix(message) -> str:
    return f"{message}.  " if message else ""


def _described(x) -> str:
    """How TF names `x` in an assertion's data: its shape and dtype eagerly, its graph name in a graph."""
    if isinstance(x, EagerTensor):
        return f"shape={tuple(x.shape)} dtype={x.dtype.name}"
    return x.name


def _pretty(item, summarize) -> str:
    """One data item as TensorFlow's eager assertions print it: a scalar as it is, else a list of strings."""
    if isinstance(item, EagerTensor):
        array = item.numpy()
        if np.ndim(array) == 0:
            return str(array)
        flat = np.asarray(array).reshape(-1)
        items = [str(value) for value in flat[:summarize]]
        if len(items) < flat.size:
            items.append("...")
        return str(items)
    return str(item)


def _sign_assert(x, symbol, compare, message, summarize, name, joined=False):
    """Check `compare(x, 0)` everywhere; `symbol` words the condition as TF does."""
    from .math_ops import less, less_equal, reduce_all
    x = convert_to_tensor(x)
    lines = [f"Condition x {symbol} 0 did not hold element-wise:", f"x ({_described(x)}) = "]
    data = [_prefix(message), *(["".join(lines)] if joined else lines), x]
    summarize = 3 if summarize is None else int(summarize)
    if graph_mode.active() is None:
        if not bool(np.all(compare(x.numpy(), 0))):
            raise errors.InvalidArgumentError(None, None, "\n".join(_pretty(item, summarize) for item in data))
        return None
    static = get_static_value(x)
    if static is not None and not np.all(compare(static, 0)):
        raise errors.InvalidArgumentError(None, None, "\n".join(str(static if item is x else item) for item in data))
    compare_op, compare_name = {">": (less, "assert_less"), "<": (less, "assert_less"),
                                ">=": (less_equal, "assert_less_equal"), "<=": (less_equal, "assert_less_equal")}[symbol]
    with name_scope(name or _SIGN_NAMES[symbol]), name_scope(compare_name):
        zero = convert_to_tensor(0, dtype=x.dtype)
        pair = (zero, x) if symbol in (">", ">=") else (x, zero)  # TF: x > 0 is 0 < x
        return _guarded_assert(reduce_all(compare_op(*pair)), data, summarize)


_SIGN_NAMES = {">": "assert_positive", "<": "assert_negative", ">=": "assert_non_negative", "<=": "assert_non_positive"}


def _guarded_assert(holds, data, summarize):
    """The Assert node as TF's check_ops build it (under their scope, named as debugging_ops.graph_assert says)."""
    return debugging_ops.graph_assert(holds, [convert_to_tensor(item) for item in data], summarize)


def assert_positive(x, message=None, summarize=None, name=None):
    """InvalidArgumentError unless every element of `x` is > 0."""
    return _sign_assert(x, ">", np.greater, message, summarize, name)


def assert_negative(x, message=None, summarize=None, name=None):
    """InvalidArgumentError unless every element of `x` is < 0."""
    return _sign_assert(x, "<", np.less, message, summarize, name)


def assert_non_negative(x, message=None, summarize=None, name=None):
    """InvalidArgumentError unless every element of `x` is >= 0."""
    return _sign_assert(x, ">=", np.greater_equal, message, summarize, name)


def assert_non_positive(x, message=None, summarize=None, name=None):
    """InvalidArgumentError unless every element of `x` is <= 0 (TF's text runs two of its lines together)."""
    return _sign_assert(x, "<=", np.less_equal, message, summarize, name, joined=True)


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """InvalidArgumentError unless |x - y| <= atol + rtol * |y| everywhere (default tolerances: 10 epsilon)."""
    from .math_ops import abs as absolute, add, less_equal, multiply, reduce_all, subtract
    with name_scope(name or "assert_near"):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype=x.dtype, name="y")
        finfo = np.finfo(x.dtype.as_numpy_dtype)  # a complex dtype's is its parts'
        real = dtypes.as_dtype(finfo.dtype)
        rtol = convert_to_tensor(10 * finfo.eps if rtol is None else rtol, dtype=real, name="rtol")
        atol = convert_to_tensor(10 * finfo.eps if atol is None else atol, dtype=real, name="atol")
        data = [_prefix(message), f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}",
                f"x ({_described(x)}) = ", x, f"y ({_described(y)}) = ", y]
        holds = reduce_all(less_equal(absolute(subtract(x, y)), add(atol, multiply(rtol, absolute(y)))))
        if graph_mode.active() is None:
            return debugging_ops.Assert(holds, data, summarize=summarize)
        return _guarded_assert(holds, data, summarize)


def assert_integer(x, message=None, name=None):
    """TypeError unless `x` has an integer dtype (a static check)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        where = "tensor" if isinstance(x, EagerTensor) else x.name
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: {where} of dtype {x.dtype}')
    return _static_pass("statically_determined_was_integer")


def _static_pass(name):
    """What a static assertion returns: None eagerly, a no-op in a graph (as TF)."""
    if graph_mode.active() is None:
        return None
    from ..graph.v1_api import no_op
    return no_op(name=name)


def _rank(x):
    """The static rank of `x`, None when unknown."""
    shape = x.shape
    if shape is None:
        return None
    return getattr(shape, "rank", len(shape))


def _name_of(x) -> str:
    return "" if isinstance(x, EagerTensor) else x.name


def assert_rank_at_least(x, rank, message=None, name=None):
    """ValueError unless `x` has at least `rank` dimensions (known statically)."""
    x = convert_to_tensor(x)
    have = _rank(x)
    if have is not None and have < int(rank):
        raise ValueError(f"{_prefix(message)}Tensor {_name_of(x)} must have rank at least {int(rank)}.  Received "
                         f"rank {have}, shape {tuple(x.shape)}")
    if have is None:
        raise NotImplementedError("assert_rank_at_least of a tensor of unknown rank is not implemented in placeflow "
                                  "(TF checks it when the op runs); give the tensor a known rank.")
    return _static_pass("static_checks_determined_all_ok")


def assert_rank_in(x, ranks, message=None, name=None):
    """ValueError unless the rank of `x` is one of `ranks` (known statically)."""
    x = convert_to_tensor(x)
    ranks = tuple(int(r) for r in ranks)
    have = _rank(x)
    if have is None:
        raise NotImplementedError("assert_rank_in of a tensor of unknown rank is not implemented in placeflow "
                                  "(TF checks it when the op runs); give the tensor a known rank.")
    if have not in ranks:
        raise ValueError(f"{_prefix(message)}Tensor {_name_of(x)} must have rank in {ranks}.  Received rank {have}, "
                         f"shape {tuple(x.shape)}")
    return _static_pass("static_checks_determined_all_ok")


def assert_scalar(tensor, message=None, name=None):
    """ValueError unless `tensor` is a scalar (known statically); returns None, as TF 2's."""
    tensor = convert_to_tensor(tensor)
    have = _rank(tensor)
    if have is None:
        raise ValueError(f"{_prefix(message)}A static shape is required for assert_scalar; got an unknown rank.")
    if have != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {tuple(tensor.shape)}.")
    return None


def assert_type(tensor, tf_type, message=None, name=None):
    """TypeError unless `tensor` has dtype `tf_type` (a static check)."""
    tensor = convert_to_tensor(tensor)
    expected = dtypes.as_dtype(tf_type)
    if tensor.dtype != expected:
        where = "tensor" if isinstance(tensor, EagerTensor) else tensor.name
        raise TypeError(f"{_prefix(message)}{where} must be of type {expected!r}; got {tensor.dtype!r}")
    return _static_pass("static_type_assert")


def assert_all_finite(x, message, name=None):
    """`x`, or InvalidArgumentError '<message> : Tensor had NaN values' (or Inf) when it runs."""
    return debugging_ops.check_numerics(x, message, name=name)


def is_numeric_tensor(tensor) -> bool:
    """Whether `tensor` is a tensor of a number dtype (integers, floats, complex; not bool nor string)."""
    if not isinstance(tensor, (EagerTensor, GraphTensor)):
        return False
    dtype = tensor.dtype
    return bool(dtype.is_integer or dtype.is_floating or dtype.is_complex)


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of `tensors` (and `dtype`); ValueError when they differ or are not floats.
    With neither, float32."""
    first = None
    for tensor in tensors or ():
        if dtype is None:
            dtype, first = tensor.dtype, tensor
        elif tensor.dtype != dtype:
            against = "" if first is None else f" as {first}"
            raise ValueError(f"{tensor}, type={tensor.dtype}, must be of the same type ({dtype}){against}.")
    if dtype is None:
        return dtypes.float32
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


def assert_proper_iterable(values):
    """TypeError unless `values` is an iterable other than a tensor, an array or a string."""
    if isinstance(values, (EagerTensor, GraphTensor, np.ndarray, str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
