"""Math ops: elementwise arithmetic and comparisons, matmul, casts and reductions, with their gradients.

Kernel bodies are written once against `xp` (NumPy or CuPy).
"""

import math

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InternalError, InvalidArgumentError, UnimplementedError
from . import shape_rules as rules
from .emit import (binary, cast, compare, emit, matmul, negative, ones_like, reduce_mean, reduce_sum,
                   reduce_to, reshape, shape_of, where, zeros_like)
from .host_reductions import leading_sum, normalized_axes
from .registry import (ALL, ANY, CHEAP, COMPLEX, FLOATS, HEAVY, INTS, NARROW, NOT_DIFFERENTIABLE, NUMBERS, REAL_NUMBERS,
                       SIGNED_INTS, bool_output, define)

INEXACT = FLOATS | COMPLEX
# what a gradient reads (OpDef.grad_reads): only shapes and dtypes, the inputs' values, the output's value
SHAPES_ONLY, INPUTS_ONLY, OUTPUT_ONLY = ((), ()), ((0, 1), ()), ((), (0,))


# -- binary elementwise ------------------------------------------------------------------------------------

def _add_grad(e, g):
    return binary(e, g, g)


def _sub_grad(e, g):
    return binary(e, g, negative(g))


def _mul_grad(e, g):
    x, y = e.inputs
    return binary(e, g * y, g * x)


def _div_grad(e, g):
    x, y = e.inputs
    return binary(e, g / y, negative(g) * x / (y * y))


def _pow_grad(e, g):
    x, y = e.inputs
    z = e.outputs[0]
    positive = x > 0
    safe_log = emit("Log", (where(positive, x, ones_like(z)),))
    return binary(e, g * y * emit("Pow", (x, y - 1)), g * z * where(positive, safe_log, zeros_like(z)))


def _select_grad(e, g, mask):
    zeros = zeros_like(g)
    return binary(e, where(mask, g, zeros), where(mask, zeros, g))


def _maximum_grad(e, g):
    x, y = e.inputs
    return _select_grad(e, g, compare("GreaterEqual", x + zeros_like(g), y))


def _minimum_grad(e, g):
    x, y = e.inputs
    return _select_grad(e, g, compare("LessEqual", x + zeros_like(g), y))


def _squared_difference_grad(e, g):
    x, y = e.inputs
    dx = g * 2.0 * (x - y)
    return binary(e, dx, negative(dx))


def _binary(op, fn, dtypes=NUMBERS, grad=NOT_DIFFERENTIABLE, dtype=None, foldable=False, ufunc=None,
            grad_reads=None, complex_convention=False):
    """Declare a broadcasting binary op; `ufunc` names the array function that can write into a dying input."""
    forward = None if ufunc is None else _ufunc_into(ufunc)
    define(op, dtypes, shape=rules.broadcast, grad=grad, dtype=dtype, foldable=foldable, forward=forward,
           forward_inputs=(0, 1), grad_reads=grad_reads, complex_convention=complex_convention)(fn)


def _ufunc_into(name):
    """A forwarding kernel: array function `name` of the inputs, written into `out`."""
    def kernel(xp, out, *arrays):
        return getattr(xp, name)(*arrays, out=out)
    return kernel


def _truncate_div(xp, a, b):
    """Quotient rounded toward zero (C's division), in the inputs' dtype."""
    if a.dtype.kind == "f":
        return xp.trunc(a / b).astype(a.dtype, copy=False)
    quotient = xp.floor_divide(a, b)
    inexact = (quotient * b != a) & ((a < 0) != (b < 0))
    return (quotient + inexact.astype(quotient.dtype)).astype(xp.result_type(a, b), copy=False)


def _shift(numpy_shift):
    """A bit shift whose amount is clamped to [0, bits - 1], as TensorFlow's kernels clamp it."""
    def kernel(xp, a, b):
        amount = xp.clip(b, 0, a.dtype.itemsize * 8 - 1).astype(a.dtype, copy=False)
        return numpy_shift(xp)(a, amount)
    return kernel


_binary("AddV2", lambda xp, a, b: xp.add(a, b), grad=_add_grad, foldable=True, ufunc="add",
        grad_reads=SHAPES_ONLY)
_binary("Sub", lambda xp, a, b: xp.subtract(a, b), grad=_sub_grad, foldable=True, ufunc="subtract",
        grad_reads=SHAPES_ONLY)
_binary("Mul", lambda xp, a, b: xp.multiply(a, b), grad=_mul_grad, foldable=True, ufunc="multiply",
        grad_reads=INPUTS_ONLY)
_binary("RealDiv", lambda xp, a, b: xp.divide(a, b).astype(a.dtype, copy=False), INEXACT, _div_grad, foldable=True,
        ufunc="divide", grad_reads=INPUTS_ONLY)
def _integer_divisor_checked(fn, truncating=False):
    """Integer division by zero is an error on the CPU, as in TF (NumPy would give 0 with a warning):
    InvalidArgumentError, or for the truncating ops TF's InternalError; on a GPU, as TF's kernel, the
    result is left to the device (no sync to check)."""
    def kernel(xp, a, b):
        if xp is np and b.dtype.kind in "iu" and not np.all(b):
            if truncating:
                raise InternalError(None, None, "Unexpected error in binary operator (only integer div and mod "
                                                "should have errors)\nplaceflow: an integer divisor is 0.")
            raise InvalidArgumentError(None, None, "Integer division by zero")
        return fn(xp, a, b)
    return kernel


_binary("FloorDiv", _integer_divisor_checked(lambda xp, a, b: xp.floor_divide(a, b)), REAL_NUMBERS)
_binary("FloorMod", _integer_divisor_checked(lambda xp, a, b: xp.mod(a, b)), REAL_NUMBERS)
_binary("Pow", lambda xp, a, b: xp.power(a, b), FLOATS | COMPLEX | SIGNED_INTS, _pow_grad, ufunc="power")
_binary("Maximum", lambda xp, a, b: xp.maximum(a, b), REAL_NUMBERS, _maximum_grad, foldable=True, ufunc="maximum")
_binary("Minimum", lambda xp, a, b: xp.minimum(a, b), REAL_NUMBERS, _minimum_grad, foldable=True, ufunc="minimum")
def _squared_difference(xp, a, b):
    """(a - b)^2; for complex numbers conj(a - b) (a - b), as TensorFlow's kernel (its gradient is then
    2 g (a - b), TensorFlow's rule, already in its complex convention)."""
    difference = a - b
    if difference.dtype.kind != "c":
        return xp.square(difference)
    return (xp.square(difference.real) + xp.square(difference.imag)).astype(difference.dtype)


_binary("SquaredDifference", _squared_difference, FLOATS | COMPLEX | {d.int32, d.int64}, _squared_difference_grad,
        complex_convention=True)
for _name, _fn, _dtypes in (("Equal", "equal", ALL | {d.string}), ("NotEqual", "not_equal", ALL | {d.string}),
                            ("Less", "less", REAL_NUMBERS),
                            ("LessEqual", "less_equal", REAL_NUMBERS), ("Greater", "greater", REAL_NUMBERS),
                            ("GreaterEqual", "greater_equal", REAL_NUMBERS)):
    _binary(_name, (lambda f: lambda xp, a, b: getattr(xp, f)(a, b))(_fn), _dtypes, dtype=bool_output)


def _equal_shapes(shapes, attrs=None):
    """Both inputs' shape, which must be the same (no broadcasting): ApproximateEqual's shape function."""
    first, second = shapes
    if first is None or second is None:
        return first if second is None else second
    if len(first) != len(second):
        raise rules.Incompatible(f"Shapes must be equal rank, but are {len(first)} and {len(second)}")
    rules.same_shapes(shapes)   # raises on a known dimension that differs
    return first


def _approximate_equal(xp, a, b, tolerance=1e-5):
    """|a - b| < tolerance elementwise (the float attribute read in the inputs' dtype), inputs of one shape."""
    if a.shape != b.shape:
        raise InvalidArgumentError(None, None, f"x and y must be of the same shape. x shape: "
                                               f"{rules.shape_text(a.shape)}. y shape: {rules.shape_text(b.shape)}")
    return xp.abs(a - b) < xp.asarray(np.float32(tolerance), dtype=a.dtype)


define("ApproximateEqual", {d.float32, d.float64}, shape=_equal_shapes, grad=NOT_DIFFERENTIABLE, dtype=bool_output,
       allowed=NUMBERS)(_approximate_equal)

_binary("TruncateDiv", _integer_divisor_checked(lambda xp, a, b: _truncate_div(xp, a, b), True), REAL_NUMBERS)
_binary("TruncateMod", _integer_divisor_checked(lambda xp, a, b: xp.fmod(a, b), True), FLOATS | {d.int32, d.int64})
_binary("LogicalAnd", lambda xp, a, b: xp.logical_and(a, b), {d.bool}, dtype=bool_output)
_binary("LogicalOr", lambda xp, a, b: xp.logical_or(a, b), {d.bool}, dtype=bool_output)
_binary("BitwiseAnd", lambda xp, a, b: xp.bitwise_and(a, b), INTS, ufunc="bitwise_and")
_binary("BitwiseOr", lambda xp, a, b: xp.bitwise_or(a, b), INTS, ufunc="bitwise_or")
_binary("BitwiseXor", lambda xp, a, b: xp.bitwise_xor(a, b), INTS, ufunc="bitwise_xor")
_binary("LeftShift", _shift(lambda xp: xp.left_shift), INTS)
_binary("RightShift", _shift(lambda xp: xp.right_shift), INTS)


# -- unary elementwise -------------------------------------------------------------------------------------

def _unary(op, fn, dtypes=NUMBERS, grad=NOT_DIFFERENTIABLE, dtype=None, foldable=False, ufunc=None,
           grad_reads=None):
    """Declare an elementwise unary op; `ufunc` names the array function that can write into its dying input."""
    forward = None if ufunc is None else _ufunc_into(ufunc)
    define(op, dtypes, shape=rules.same, grad=grad, dtype=dtype, foldable=foldable, forward=forward,
           grad_reads=grad_reads)(fn)


_unary("LogicalNot", lambda xp, a: xp.logical_not(a), {d.bool}, dtype=bool_output)
_unary("Neg", lambda xp, a: xp.negative(a), FLOATS | COMPLEX | SIGNED_INTS, lambda e, g: [negative(g)], foldable=True,
       ufunc="negative", grad_reads=SHAPES_ONLY)
_unary("Abs", lambda xp, a: xp.abs(a), FLOATS | SIGNED_INTS, lambda e, g: [g * emit("Sign", (e.inputs[0],))],
       ufunc="absolute")
_unary("Sign", lambda xp, a: xp.sign(a), FLOATS | SIGNED_INTS, lambda e, g: [zeros_like(g)],  # TF: zeros
       ufunc="sign", grad_reads=SHAPES_ONLY)
_unary("Square", lambda xp, a: xp.square(a), grad=lambda e, g: [g * 2.0 * e.inputs[0]], foldable=True, ufunc="square",
       grad_reads=INPUTS_ONLY)
_unary("Exp", lambda xp, a: xp.exp(a), INEXACT, lambda e, g: [g * e.outputs[0]], ufunc="exp",
       grad_reads=OUTPUT_ONLY)
_unary("Log", lambda xp, a: xp.log(a), INEXACT, lambda e, g: [g / e.inputs[0]], ufunc="log",
       grad_reads=INPUTS_ONLY)
_unary("Sqrt", lambda xp, a: xp.sqrt(a), INEXACT, lambda e, g: [g * 0.5 / e.outputs[0]], ufunc="sqrt",
       grad_reads=OUTPUT_ONLY)
_unary("Rsqrt", lambda xp, a: 1 / xp.sqrt(a), FLOATS, lambda e, g: [g * -0.5 * e.outputs[0] * e.outputs[0] * e.outputs[0]])
define("Reciprocal", INEXACT, shape=rules.same, grad=lambda e, g: [negative(g) * e.outputs[0] * e.outputs[0]],
       allowed=INEXACT | SIGNED_INTS)(lambda xp, a: 1 / a)  # TF admits signed integers; no kernel for them here
define("Identity", ANY | NARROW, shape=rules.same, grad=lambda e, g: [g], cost=CHEAP,
       grad_reads=SHAPES_ONLY)(lambda xp, a: a)
define("StopGradient", ANY, shape=rules.same, grad=NOT_DIFFERENTIABLE, cost=CHEAP)(lambda xp, a: a)
_unary("Floor", lambda xp, a: xp.floor(a), FLOATS, ufunc="floor")   # TensorFlow: no gradient for Floor, Ceil, Round
_unary("Ceil", lambda xp, a: xp.ceil(a), FLOATS, ufunc="ceil")
_unary("Round", lambda xp, a: xp.round(a), FLOATS | SIGNED_INTS)   # half to even, as TensorFlow
_unary("Rint", lambda xp, a: xp.rint(a), FLOATS, ufunc="rint")
_unary("Invert", lambda xp, a: xp.invert(a), INTS, ufunc="invert")
_unary("Log1p", lambda xp, a: xp.log1p(a), INEXACT, lambda e, g: [g / (1.0 + e.inputs[0])], ufunc="log1p")
_unary("Expm1", lambda xp, a: xp.expm1(a), INEXACT, lambda e, g: [g * (e.outputs[0] + 1.0)], ufunc="expm1")
_unary("IsNan", lambda xp, a: xp.isnan(a), FLOATS, dtype=bool_output)


def _one_over_root(x, sign):
    """1 / sqrt(1 + sign * x * x), the derivative pieces of asin, acos and asinh/acosh."""
    return emit("Rsqrt", (1.0 + sign * x * x,))


_unary("Sin", lambda xp, a: xp.sin(a), INEXACT, lambda e, g: [g * emit("Cos", (e.inputs[0],))], foldable=True,
       ufunc="sin")
_unary("Cos", lambda xp, a: xp.cos(a), INEXACT, lambda e, g: [negative(g) * emit("Sin", (e.inputs[0],))],
       foldable=True, ufunc="cos")
_unary("Tan", lambda xp, a: xp.tan(a), INEXACT, lambda e, g: [g * (1.0 + e.outputs[0] * e.outputs[0])], ufunc="tan")
_unary("Asin", lambda xp, a: xp.arcsin(a), INEXACT, lambda e, g: [g * _one_over_root(e.inputs[0], -1.0)],
       ufunc="arcsin")
_unary("Acos", lambda xp, a: xp.arccos(a), INEXACT, lambda e, g: [negative(g) * _one_over_root(e.inputs[0], -1.0)],
       ufunc="arccos")
_unary("Atan", lambda xp, a: xp.arctan(a), INEXACT, lambda e, g: [g / (1.0 + e.inputs[0] * e.inputs[0])],
       ufunc="arctan")
_unary("Sinh", lambda xp, a: xp.sinh(a), INEXACT, lambda e, g: [g * emit("Cosh", (e.inputs[0],))], ufunc="sinh")
_unary("Cosh", lambda xp, a: xp.cosh(a), INEXACT, lambda e, g: [g * emit("Sinh", (e.inputs[0],))], ufunc="cosh")
_unary("Asinh", lambda xp, a: xp.arcsinh(a), INEXACT, lambda e, g: [g * _one_over_root(e.inputs[0], 1.0)],
       ufunc="arcsinh")
_unary("Acosh", lambda xp, a: xp.arccosh(a), INEXACT, lambda e, g: [g / emit("Sinh", (e.outputs[0],))], ufunc="arccosh")
_unary("Atanh", lambda xp, a: xp.arctanh(a), INEXACT, lambda e, g: [g / (1.0 - e.inputs[0] * e.inputs[0])],
       ufunc="arctanh")


def _atan2_grad(e, g):
    y, x = e.inputs
    scale = g / (x * x + y * y)
    return binary(e, scale * x, negative(scale) * y)


_binary("Atan2", lambda xp, a, b: xp.arctan2(a, b), FLOATS, _atan2_grad, ufunc="arctan2")
_unary("IsInf", lambda xp, a: xp.isinf(a), FLOATS, dtype=bool_output)
_unary("IsFinite", lambda xp, a: xp.isfinite(a), FLOATS, dtype=bool_output)


def _cumulative_axis(a, axis):
    axis = int(axis)
    if not -a.ndim <= axis < max(a.ndim, 1):
        raise InvalidArgumentError(None, None, f"ValueError: axis {axis} is out of range for a tensor of rank "
                                               f"{a.ndim}; expected an axis in [{-a.ndim}, {a.ndim}).")
    return axis % max(a.ndim, 1)


def _cumulate(xp, a, axis, exclusive, reverse, combine, identity):
    axis = _cumulative_axis(a, axis)
    if a.ndim == 0:
        return a.copy()
    if reverse:
        a = xp.flip(a, axis)
    out = combine(a, axis=axis, dtype=a.dtype)
    if exclusive:  # shift by one along the axis, the identity first
        head = tuple(slice(0, 1) if d == axis else slice(None) for d in range(a.ndim))
        body = tuple(slice(0, -1) if d == axis else slice(None) for d in range(a.ndim))
        out = xp.concatenate([xp.full_like(out[head], identity), out[body]], axis=axis)
    return xp.flip(out, axis) if reverse else out


def _cumsum_grad(e, g):
    attrs = e.attrs
    return [emit("Cumsum", (g,), attrs={"axis": attrs.get("axis", 0), "exclusive": attrs.get("exclusive", False),
                                       "reverse": not attrs.get("reverse", False)})]


def _cumprod_grad(e, g):
    """TensorFlow's formula: the reversed cumulative sum of product * g, divided by x with no NaN (0 where x is
    0, as TF's div_no_nan gives)."""
    attrs = e.attrs
    x, product = e.inputs[0], e.outputs[0]
    summed = emit("Cumsum", (product * g,), attrs={"axis": attrs.get("axis", 0),
                                                   "exclusive": attrs.get("exclusive", False),
                                                   "reverse": not attrs.get("reverse", False)})
    zero = compare("Equal", x, zeros_like(x))
    return [where(zero, zeros_like(summed), summed / where(zero, ones_like(x), x))]


@define("Cumsum", NUMBERS, shape=rules.same, grad=_cumsum_grad)
def _cumsum(xp, a, axis=0, exclusive=False, reverse=False):
    return _cumulate(xp, a, axis, exclusive, reverse, xp.cumsum, 0)


@define("Cumprod", NUMBERS, shape=rules.same, grad=_cumprod_grad)
def _cumprod(xp, a, axis=0, exclusive=False, reverse=False):
    return _cumulate(xp, a, axis, exclusive, reverse, xp.cumprod, 1)


# -- n-ary, matmul, cast ---------------------------------------------------------------------------------

def _add_n_grad(e, g):
    return [reduce_to(g, shape_of(x)) for x in e.inputs]


def _add_n_into(xp, out, *arrays):
    """AddN written into `out`, one of the first two inputs: the same additions in the same order."""
    _check_add_n_shapes(arrays)
    if len(arrays) == 1:
        return out  # the sum of one dying input is that input's buffer
    xp.add(arrays[0], arrays[1], out=out)
    for array in arrays[2:]:
        out += array
    return out


def _check_add_n_shapes(arrays):
    if any(a.shape != arrays[0].shape for a in arrays):
        raise InvalidArgumentError(None, None, (
            f"Inputs to operation AddN must have the same size and shape.  Input 0: {list(arrays[0].shape)} != "
            f"input {next(i for i, a in enumerate(arrays) if a.shape != arrays[0].shape)}: "
            f"{list(next(a for a in arrays if a.shape != arrays[0].shape).shape)}"))


@define("AddN", NUMBERS, shape=rules.same_shapes, grad=_add_n_grad, forward=_add_n_into, forward_inputs=(0, 1),
        grad_reads=SHAPES_ONLY)
def _add_n(xp, *arrays):
    _check_add_n_shapes(arrays)
    if len(arrays) == 1:
        return arrays[0].copy()
    total = xp.add(arrays[0], arrays[1])  # one pass for the first two, not a copy and an add
    for array in arrays[2:]:
        total += array
    return total


def _matmul_grad(e, g):
    """The operands' gradients, summed back over batch dimensions an operand was broadcast along (a matrix
    times a batch of matrices: the matrix's gradient adds every batch's)."""
    a, b = e.inputs
    return [_unbroadcast(grad, x) for grad, x in zip(_matmul_grads(e, a, b, g), (a, b))]


def _matmul_grads(e, a, b, g):
    ta, tb = e.attrs.get("transpose_a", False), e.attrs.get("transpose_b", False)
    if not ta and not tb:
        return [matmul(g, b, transpose_b=True), matmul(a, g, transpose_a=True)]
    if ta and not tb:
        return [matmul(b, g, transpose_b=True), matmul(a, g)]
    if not ta and tb:
        return [matmul(g, b), matmul(g, a, transpose_a=True)]
    return [matmul(b, g, transpose_a=True, transpose_b=True), matmul(g, a, transpose_a=True, transpose_b=True)]


def _unbroadcast(grad, operand):
    grad_shape, shape = shape_of(grad), shape_of(operand)
    if len(grad_shape) == len(shape) and grad_shape[:-2] == shape[:-2]:
        return grad
    return reduce_to(grad, shape)


_MATMUL_DTYPES = FLOATS | COMPLEX | {d.int32, d.int64, d.uint8, d.uint16, d.uint32, d.uint64}  # TF's: no int8/16


@define("MatMul", _MATMUL_DTYPES, shape=rules.matmul, grad=_matmul_grad, cost=HEAVY, grad_reads=INPUTS_ONLY)
def _matmul(xp, a, b, transpose_a=False, transpose_b=False):
    for index, array in enumerate((a, b)):
        if array.ndim < 2:
            raise InvalidArgumentError(None, None, (
                f"In[{index}] is not a matrix. Instead it has shape {list(array.shape)}\nplaceflow: tf.matmul "
                "multiplies matrices (or batches of them); for vectors use tf.tensordot(a, b, 1) or reshape them."))
    given = a, b
    if transpose_a:
        a = a.T if a.ndim == 2 else xp.swapaxes(a, -1, -2)
    if transpose_b:
        b = b.T if b.ndim == 2 else xp.swapaxes(b, -1, -2)
    try:
        return xp.matmul(a, b)
    except ValueError:
        shapes = [list(array.shape) for array in given]
        raise InvalidArgumentError(None, None, _matmul_mismatch(*shapes, transpose_a, transpose_b)) from None


def _matmul_mismatch(shape_a: list, shape_b: list, transpose_a: bool, transpose_b: bool) -> str:
    """TensorFlow's text (its CPU build's) for matrices or batches that cannot be multiplied."""
    def text(shape):
        return "[" + ",".join(str(dim) for dim in shape) + "]"
    try:
        np.broadcast_shapes(tuple(shape_a[:-2]), tuple(shape_b[:-2]))
    except ValueError:
        return f"In[0] and In[1] must have compatible batch dimensions: {text(shape_a)} vs. {text(shape_b)}"
    message = f"Matrix size-incompatible: In[0]: {text(shape_a)}, In[1]: {text(shape_b)}"
    if len(shape_a) > 2 or len(shape_b) > 2:
        message += f" {int(transpose_a)} {int(transpose_b)}"
    return message


def _cast_grad(e, g):
    x = e.inputs[0]
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return [None]
    return [cast(g, x.dtype)]


@define("Cast", ALL | NARROW, gpu=(), shape=rules.same, grad=_cast_grad, foldable=True,  # seed 002: CPU kernel only
        grad_reads=SHAPES_ONLY)
def _cast(xp, a, dtype):
    if dtype.numpy_dtype.kind == "O":
        raise UnimplementedError(None, None, (
            f"Cast {d.cpp_name(d.as_dtype(a.dtype))} to string is not supported\n"
            "placeflow: use tf.strings.as_string."))
    if a.dtype.kind == "c" and dtype.numpy_dtype.kind != "c":  # the real part, as TF (without NumPy's warning)
        a = xp.real(a)
    return a.astype(dtype.numpy_dtype)


# -- reductions -----------------------------------------------------------------------------------------

# NumPy's ufunc reductions, called directly: np.sum and friends add a Python wrapper to every call
_HOST_REDUCTIONS = {"sum": np.add.reduce, "max": np.maximum.reduce, "min": np.minimum.reduce,
                    "prod": np.multiply.reduce}


def _reduced_axes(e):
    axis = e.attrs.get("axis")
    if getattr(e.inputs[0], "shape", ()) is None:  # a graph tensor of unknown rank (e.g. a py_function's output)
        axes = [] if axis is None else [int(a) for a in np.atleast_1d(axis)]
        if any(a < 0 for a in axes):
            raise NotImplementedError(f"The gradient of a reduction over negative axes {axes} of a tensor of unknown "
                                      "rank is not implemented in placeflow; give the tensor a shape (set_shape).")
        return axes  # [] with axis=None: the scalar (or all-ones keepdims) gradient broadcasts over every axis
    rank = len(shape_of(e.inputs[0]))
    axes = range(rank) if axis is None else np.atleast_1d(axis)
    return sorted(int(a) % rank for a in axes) if rank else []


def _expand_back(e, g):
    """The upstream gradient with the reduced dimensions restored (size 1), ready to broadcast."""
    if e.attrs.get("keepdims"):
        return g
    shape = list(shape_of(e.inputs[0]))
    for axis in _reduced_axes(e):
        shape[axis] = 1
    return reshape(g, shape)


def _broadcast_back(e, g, mean=False):
    """One _ReduceGrad op: the upstream gradient broadcast back over the reduced axes (divided by their size)."""
    attrs = {"axes": tuple(_reduced_axes(e)), "keepdims": bool(e.attrs.get("keepdims")), "mean": mean}
    return emit("_ReduceGrad", (g, e.inputs[0]), g.dtype, attrs)


def _extremum_grad(e, g):
    x = e.inputs[0]
    z = _expand_back(e, e.outputs[0])
    mask = cast(compare("Equal", x, z + zeros_like(x)), x.dtype)
    ties = _expand_back(e, reduce_sum(mask, axis=e.attrs.get("axis"), keepdims=e.attrs.get("keepdims", False)))
    return [mask * _expand_back(e, g) / ties]


def _prod_grad(e, g):
    """d prod / d x = the product of the other entries reduced with x (TensorFlow's zero-safe form: exclusive
    cumulative products from both ends, not prod / x)."""
    return [_expand_back(e, g) * _product_of_others(e.inputs[0], _reduced_axes(e))]


def _product_of_others(x, axes):
    """Each entry's product of the other entries over `axes`: along the last axis, the entries before it times
    those after it; over more axes, that times the others' whole products along it over the remaining axes."""
    if not axes:
        return ones_like(x)
    last = {"axis": axes[-1], "exclusive": True}
    along = emit("Cumprod", (x,), attrs=last) * emit("Cumprod", (x,), attrs=dict(last, reverse=True))
    if len(axes) == 1:
        return along
    whole = emit("Prod", (x,), attrs={"axis": (axes[-1],), "keepdims": True})
    return along * _product_of_others(whole, axes[:-1])


_EMPTY_IDENTITY = {"max": "lowest", "min": "highest"}


def _empty_extremum(xp, a, axis, keepdims, name):
    shape = xp.sum(xp.zeros(a.shape, dtype=np.int8), axis=axis, keepdims=keepdims).shape
    if a.dtype.kind == "f":
        fill = -np.inf if name == "max" else np.inf
    else:
        info = np.iinfo(a.dtype)
        fill = info.min if name == "max" else info.max
    return xp.full(shape, fill, dtype=a.dtype)


def _host_float_mean(a, axis, keepdims):
    """NumPy's float mean (pairwise sum in the input's dtype, TF's accumulation for halves too, then one
    division) without np.mean's Python layer, whose warnings (an empty mean, an overflowing sum) no filter
    on placeflow's kernels can silence: TF returns nan and inf silently."""
    total = leading_sum(a, axis, keepdims)
    if total is None:
        total = np.add.reduce(a, axis=axis, keepdims=keepdims, dtype=a.dtype)
    count = np.intp(math.prod(a.shape[i] for i in _axes_of(a, axis)))
    if isinstance(total, np.ndarray):  # divided as np.mean divides: by an intp, into the sum's dtype
        return np.true_divide(total, count, out=total, casting="unsafe")
    return total.dtype.type(total / count)


def _axes_of(a, axis):
    return range(a.ndim) if axis is None else normalized_axes(axis, a.ndim)


def _check_distinct_axes(a, axis) -> None:
    """TF's InvalidArgumentError for a reduction axis named twice (as 0 and -rank, say)."""
    if axis is None or not a.ndim:
        return
    seen = set()
    for index in np.atleast_1d(axis):
        if -a.ndim <= int(index) < a.ndim and int(index) % a.ndim in seen:
            raise InvalidArgumentError(None, None, f"Invalid reduction arguments: Axes contains duplicate "
                                                   f"dimension: {int(index) % a.ndim}")
        seen.add(int(index) % a.ndim)


def _reduction(op, name, dtypes, grad, foldable=False, grad_reads=None):
    host = _HOST_REDUCTIONS.get(name)

    def kernel(xp, a, axis=None, keepdims=False):
        reduce = host if host is not None and xp is np else getattr(xp, name)
        _check_distinct_axes(a, axis)
        if not a.size and name in _EMPTY_IDENTITY:  # TF: the identity of max is the lowest value, of min the highest
            return _empty_extremum(xp, a, axis, keepdims, name)
        if name == "mean" and a.dtype.kind in "iu" and not a.size:  # TF: an empty integer mean is 0
            return xp.zeros(xp.sum(xp.zeros(a.shape, dtype=np.int8), axis=axis, keepdims=keepdims).shape, a.dtype)
        if name == "mean" and a.dtype.kind == "f" and xp is np:
            return _host_float_mean(a, axis, keepdims)
        if name == "mean" and a.dtype.kind == "f" and a.dtype.itemsize < 4:  # TF accumulates halves as halves
            return xp.mean(a, axis=axis, keepdims=keepdims, dtype=a.dtype)
        result = leading_sum(a, axis, keepdims) if name == "sum" and xp is np else None
        if result is None:
            result = reduce(a, axis=axis, keepdims=keepdims)
        return result.astype(a.dtype, copy=False) if op in ("Sum", "Mean", "Prod") and a.dtype.kind != "b" else result
    define(op, dtypes, shape=rules.reduce, grad=grad, foldable=foldable, grad_reads=grad_reads)(kernel)


_reduction("Sum", "sum", NUMBERS, lambda e, g: [_broadcast_back(e, g)], foldable=True, grad_reads=SHAPES_ONLY)
_reduction("Mean", "mean", INEXACT | REAL_NUMBERS, lambda e, g: [_broadcast_back(e, g, mean=True)], foldable=True,
           grad_reads=SHAPES_ONLY)
_reduction("Max", "max", REAL_NUMBERS, _extremum_grad)
_reduction("Min", "min", REAL_NUMBERS, _extremum_grad)
_reduction("Prod", "prod", NUMBERS, _prod_grad)
_reduction("All", "all", {d.bool}, NOT_DIFFERENTIABLE)
_reduction("Any", "any", {d.bool}, NOT_DIFFERENTIABLE)


def _reduce_grad_grad(e, g):
    axes = list(e.attrs.get("axes", ()))
    reduce = reduce_mean if e.attrs.get("mean") else reduce_sum
    return [reduce(g, axis=axes, keepdims=e.attrs.get("keepdims", False)) if axes else g, None]


@define("_ReduceGrad", NUMBERS, shape=rules.second_input, grad=_reduce_grad_grad, foldable=True,
        shape_only_inputs=(1,))
def _reduce_grad(xp, grad, like, axes=(), keepdims=False, mean=False):
    """The gradient of Sum (Mean): `grad` with the reduced axes restored, broadcast to `like`'s shape (/ count)."""
    if not keepdims and axes:
        grad = xp.expand_dims(grad, tuple(axes))
    out = xp.broadcast_to(grad, like.shape)
    if mean:
        count = like.size // max(grad.size, 1)
        return (out / max(count, 1)).astype(like.dtype, copy=False)
    return xp.ascontiguousarray(out).reshape(like.shape)  # a scalar stays a scalar (CuPy makes it (1,))


@define("_ReduceToShapeOf", NUMBERS, shape=rules.second_input, foldable=True, shape_only_inputs=(1,),
        grad=lambda e, g: [emit("_ReduceGrad", (g, e.inputs[0]), g.dtype, {"axes": (), "keepdims": False}), None])
def _reduce_to_shape_of(xp, grad, like):
    """`grad` summed over the dimensions broadcasting added or stretched, to `like`'s shape (TF's
    BroadcastGradientArgs + Sum, for shapes known only when the graph runs)."""
    lead = grad.ndim - like.ndim
    out = grad
    if lead > 0:
        out = leading_sum(grad, tuple(range(lead))) if xp is np else None
        out = grad.sum(axis=tuple(range(lead))) if out is None else out
    stretched = tuple(i for i, dim in enumerate(like.shape) if dim == 1 and out.shape[i] != 1)
    if stretched:
        out = out.sum(axis=stretched, keepdims=True)
    return xp.ascontiguousarray(out).reshape(like.shape).astype(grad.dtype, copy=False)


def _without_nans(xp, a, fill):
    """`a` with NaNs replaced by `fill`: TensorFlow's ArgMax/ArgMin pass over NaNs (an all-NaN slice gives 0)."""
    if a.dtype.kind != "f":
        return a
    nans = xp.isnan(a)
    if xp is np and not nans.any():  # (on a GPU, asking would cost a device-to-host sync)
        return a
    return xp.where(nans, a.dtype.type(fill), a)


def _check_arg_axis(a, axis) -> None:
    """TF's ArgMax/ArgMin refuse to reduce an empty axis (there is no index to return)."""
    if a.ndim and a.shape[axis] == 0:
        shape = ",".join(str(dim) for dim in a.shape)
        raise InvalidArgumentError(None, None, f"Reduction axis {axis % a.ndim} is empty in shape [{shape}]")


@define("ArgMax", REAL_NUMBERS | {d.bool}, shape=rules.arg_reduce, grad=NOT_DIFFERENTIABLE)
def _argmax(xp, a, axis=0, output_type=d.int64):
    _check_arg_axis(a, axis)
    return xp.argmax(_without_nans(xp, a, -np.inf), axis=axis).astype(output_type.numpy_dtype)


@define("ArgMin", REAL_NUMBERS | {d.bool}, shape=rules.arg_reduce, grad=NOT_DIFFERENTIABLE)
def _argmin(xp, a, axis=0, output_type=d.int64):
    _check_arg_axis(a, axis)
    return xp.argmin(_without_nans(xp, a, np.inf), axis=axis).astype(output_type.numpy_dtype)


# -- selection -------------------------------------------------------------------------------------------

def _clip_grad(e, g):
    x, low, high = e.inputs
    inside = compare("GreaterEqual", x, low) & compare("LessEqual", x, high)
    return [where(inside, g, zeros_like(g)), None, None]


@define("ClipByValue", REAL_NUMBERS, shape=rules.broadcast, grad=_clip_grad)
def _clip(xp, a, low, high):
    return xp.maximum(xp.minimum(a, high), low)  # TF's order: with low > high every value becomes low


def _select_v2_grad(e, g):
    condition, x, y = e.inputs
    zeros = zeros_like(g)
    return [None, reduce_to(where(condition, g, zeros), shape_of(x)), reduce_to(where(condition, zeros, g), shape_of(y))]


@define("SelectV2", ALL, shape=rules.broadcast, grad=_select_v2_grad)
def _select(xp, condition, a, b):
    return xp.where(condition, a, b)


@define("Where", ALL, shape=rules.where_indices, grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: d.int64)
def _where_indices(xp, condition):
    return xp.argwhere(condition).astype(xp.int64)


def _bincount_shape(shapes, attrs):
    if attrs.get("axis") == -1:
        return None if shapes[0] is None else (shapes[0][0], None)
    return (None,)


@define("Bincount", {d.int32, d.int64, d.float32, d.float64}, shape=_bincount_shape, grad=NOT_DIFFERENTIABLE)
def _bincount(xp, values, weights=None, minlength=0, maxlength=None, dtype=d.int32, axis=None,
              binary_output=False):
    """How often each value 0, 1, ... occurs in `values` (weighted: the sum of its weights; binary: whether it
    occurs); axis=-1 counts each row of a matrix on its own."""
    if values.size and int(values.min()) < 0:
        raise InvalidArgumentError(None, None, "Input arr must be non-negative!")
    length = max(int(values.max()) + 1 if values.size else 0, int(minlength))
    if maxlength is not None:
        length = min(length, int(maxlength))
    rows = [values.reshape(-1)] if axis is None else list(values.reshape(values.shape[0], -1))
    row_weights = [None] * len(rows) if weights is None else (
        [weights.reshape(-1)] if axis is None else list(weights.reshape(weights.shape[0], -1)))
    out = []
    for row, weight in zip(rows, row_weights):
        keep = row < length
        counts = xp.bincount(row[keep], weights=None if weight is None else weight[keep], minlength=length)[:length]
        out.append((counts > 0) if binary_output else counts)
    result = out[0] if axis is None else (xp.stack(out) if out else xp.zeros((0, length)))
    return result.astype(dtype.numpy_dtype)


def _cumulative_logsumexp_grad(e, g):
    """TensorFlow's rule: the positive and negative parts of g, each pushed back in log space."""
    x, out = e.inputs[0], e.outputs[0]
    attrs = dict(e.attrs, reverse=not e.attrs.get("reverse", False))
    lowest = zeros_like(g) + float(g.dtype.min)  # TF's choice over -inf: no inf - inf in second derivatives
    zeros = zeros_like(g)

    def pushed_back(part):
        positive = compare("Greater", part, zeros)
        logged = where(positive, emit("Log", (where(positive, part, ones_like(g)),)), lowest)
        return emit("Exp", (emit("CumulativeLogsumexp", (logged - out,), g.dtype, attrs) + x,))
    return [pushed_back(g) - pushed_back(negative(g))]


@define("CumulativeLogsumexp", FLOATS, shape=rules.same, grad=_cumulative_logsumexp_grad)
def _cumulative_logsumexp(xp, a, axis=0, exclusive=False, reverse=False):
    """log(cumsum(exp(a))) along `axis`, exact at every position (a running logaddexp)."""
    x = xp.flip(a, axis) if reverse else a
    x = x.astype(xp.float64) if x.dtype.itemsize < 4 else x
    out = xp.logaddexp.accumulate(x, axis=axis) if xp is np else _log_add_scan(xp, x, axis)
    if exclusive:
        first = xp.full_like(xp.take(out, [0], axis=axis), -xp.inf)
        out = xp.concatenate([first, xp.take(out, range(out.shape[axis] - 1), axis=axis)], axis=axis)
    return (xp.flip(out, axis) if reverse else out).astype(a.dtype, copy=False)


def _log_add_scan(xp, x, axis):
    """logaddexp.accumulate along `axis` for array modules without ufunc.accumulate (CuPy raises
    NotImplementedError): a Hillis-Steele scan, ceil(log2(n)) logaddexp passes, each exact as logaddexp."""
    out = xp.moveaxis(x, axis, 0).copy()
    step = 1
    while step < out.shape[0]:
        out[step:] = xp.logaddexp(out[step:], out[:-step])  # the right side is computed before it is stored
        step *= 2
    return xp.moveaxis(out, 0, axis)


@define("Bucketize", {d.int32, d.int64, d.float32, d.float64}, shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.int32)
def _bucketize(xp, a, boundaries=()):
    """The index of each value's bucket among the sorted `boundaries` (a value equal to a boundary goes
    above it), as int32."""
    edges = xp.asarray(np.asarray(boundaries, np.float64))
    return xp.searchsorted(edges, a.astype(np.float64), side="right").astype(np.int32)



def _bound(side: str):
    def kernel(xp, sorted_inputs, values, out_type=d.int32):
        """For each row, where each value would be inserted into the sorted row (TF's LowerBound/UpperBound)."""
        rows, found = sorted_inputs.reshape(-1, sorted_inputs.shape[-1]), values.reshape(-1, values.shape[-1])
        out = xp.stack([xp.searchsorted(row, wanted, side=side) for row, wanted in zip(rows, found)]) if len(rows) \
            else xp.zeros(found.shape, np.int64)
        return out.reshape(values.shape).astype(out_type.numpy_dtype)
    return kernel


for _name, _side in (("LowerBound", "left"), ("UpperBound", "right")):
    define(_name, REAL_NUMBERS, shape=lambda shapes, attrs: shapes[1], grad=NOT_DIFFERENTIABLE,
           dtype=lambda dtype, attrs: attrs.get("out_type", d.int32))(_bound(_side))


@define("InvertPermutation", {d.int32, d.int64}, shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _invert_permutation(xp, x):
    """y with y[x[i]] = i; x must be a permutation of 0..n-1."""
    host = x.get() if hasattr(x, "get") else np.asarray(x)
    if host.ndim != 1:
        raise InvalidArgumentError(None, None, "invert_permutation expects a 1D vector.")
    n = host.size
    if n and (host.min() < 0 or host.max() >= n or len(np.unique(host)) != n):
        bad = next(int(v) for i, v in enumerate(host) if v < 0 or v >= n or int(v) in host[:i])
        raise InvalidArgumentError(None, None, f"{bad} is not between 0 and {n}" if not 0 <= bad < n else
                                   f"{bad} is duplicated in the input.")
    out = np.empty_like(host)
    out[host] = np.arange(n, dtype=host.dtype)
    return xp.asarray(out)


_binary("NextAfter", lambda xp, a, b: xp.nextafter(a, b), {d.float32, d.float64})


def _erfinv_grad(e, g):
    """d erfinv(x) / dx = sqrt(pi) / 2 * exp(erfinv(x)^2)."""
    y = e.outputs[0]
    return [g * emit("Exp", (y * y,)) * (float(np.sqrt(np.pi)) / 2.0)]


@define("Erfinv", FLOATS, shape=rules.same, grad=_erfinv_grad)
def _erfinv(xp, a):
    """The inverse error function: Giles's approximation refined by Newton steps on erf (host, float64)."""
    from .nn import _erf_host
    host = (a.get() if hasattr(a, "get") else np.asarray(a)).astype(np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1.0 - host) * (1.0 + host))
        p_small, p_large = _giles(w - 2.5, np.sqrt(np.maximum(w, 5.0)) - 3.0)
        y = np.where(w < 5.0, p_small, p_large) * host
        for _ in range(2):  # Newton on erf(y) = x
            y = y - (_erf_host(y) - host) / (2.0 / np.sqrt(np.pi) * np.exp(-y * y))
    y = np.where(host == 1.0, np.inf, np.where(host == -1.0, -np.inf, y))
    y = np.where(np.abs(host) > 1.0, np.nan, y)
    return xp.asarray(y.astype(a.dtype))


def _giles(ws, wl):
    """Giles's single-precision polynomials for erfinv (for w < 5 and w >= 5)."""
    p_small = np.polyval([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                          -0.00125372503, -0.00417768164, 0.246640727, 1.50140941], ws)
    p_large = np.polyval([-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                          -0.0076224613, 0.00943887047, 1.00167406, 2.83297682], wl)
    return p_small, p_large
