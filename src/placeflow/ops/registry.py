"""The op registry: each op declared once, with everything every layer needs to know about it.

`define` records one `OpDef`: the kernel body and the dtypes it accepts per device type, the
static shape rule, the output dtype rule, the gradient (or the NOT_DIFFERENTIABLE mark), whether
constant folding may run it while a plan is built, and its cost class for the scheduler. Eager
dispatch, placement, the graph builder, constant folding, the partitioner and the tape all read
this one record; a new op costs one definition.

The GPU table is deliberately TensorFlow-like: some ops or dtypes have no GPU kernel (Cast,
per seed 002; int32 variables, per seed 003; strings everywhere) and fall back to the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..framework import dtypes as d
from ..framework import op_table

FLOATS = frozenset({d.float16, d.bfloat16, d.float32, d.float64})
COMPLEX = frozenset({d.complex64, d.complex128})
INTS = frozenset({d.int8, d.int16, d.int32, d.int64, d.uint8, d.uint16, d.uint32, d.uint64})
NUMBERS = FLOATS | COMPLEX | INTS
REAL_NUMBERS = FLOATS | INTS
SIGNED_INTS = frozenset({d.int8, d.int16, d.int32, d.int64})
ALL = NUMBERS | {d.bool}
ANY = ALL | {d.string}
NARROW = frozenset(d.NARROW_DTYPES)   # tf.dtypes.experimental's float8/float4/int4/int2: cast, copy and reshape only

NOT_DIFFERENTIABLE = "not differentiable"   # the gradient mark of ops with no gradient (as tf.no_gradient)
CHEAP, HEAVY, BY_SIZE = "cheap", "heavy", "by size"   # cost classes: never / always / when large, expensive


@dataclass(frozen=True)
class Kernel:
    """A kernel body `fn(xp, *arrays, **attrs)` and the dtypes it accepts on one device type.

    `presize(args, attrs) -> (shape, numpy dtype)`, when given, is the output known before the kernel
    runs (Fill's shape and dtype), so a device can refuse it before anything is allocated.
    `forward(xp, out, *arrays, **attrs)`, when given, computes the same output into `out`, an input
    array of the output's shape and dtype that dies at this op (buffer forwarding, as TensorFlow's
    `forward_input_or_allocate_output`); `forward_inputs` are the input positions it may write into."""

    op: str
    device_type: str
    dtypes: frozenset
    fn: object
    presize: object = None
    forward: object = None
    forward_inputs: tuple = ()


@dataclass(frozen=True)
class OpDef:
    """One op: its kernels by device type, shape and dtype rules, gradient, folding and cost.

    `shape(input_shapes, attrs)` gives the output's static shape (None entries unknown), or a list of
    shapes for an op with several outputs; `dtype(input_dtype, attrs)` the outputs' dtype.
    `gradient(entry, *upstream)` returns one gradient (or None) per input, or is NOT_DIFFERENTIABLE.
    `shape_only_inputs` are inputs of which the op reads only shape and dtype (foldable when known).
    `grad_reads` = (input indices, output indices) whose values the gradient reads (None: all of them);
    an eager tape keeps only those values alive, as TensorFlow's tape does."""

    name: str
    kernels: dict
    shape: object
    dtype: object
    gradient: object
    foldable: bool = False
    shape_only_inputs: tuple = ()
    cost: str = BY_SIZE
    allowed: frozenset = frozenset()   # the dtypes the op accepts at all (TF's op def); kernels may cover fewer
    grad_reads: tuple = None
    buffer: object = None   # how the kernel allocates its output, for shape-only estimation (see `define`)
    scratch: object = None  # f(input shapes, attrs) -> bytes of temporaries the CuPy kernel takes (see `define`)


_OPS = op_table.OPS     # op name -> OpDef (framework/op_table.py, so lower layers can read definitions)


def define(op: str, dtypes=NUMBERS, *, shape, grad, gpu=None, cpu=True, dtype=None, foldable=False,
           shape_only_inputs=(), cost=BY_SIZE, presize=None, allowed=None, forward=None, forward_inputs=(0,),
           grad_reads=None, complex_convention=False, buffer=None, scratch=None):
    """Decorator: declare `op` with the decorated kernel body (see OpDef for the rules).

    The kernel runs on CPU for `dtypes` and on GPU for `gpu` (default: `dtypes`; () for none);
    `dtype` is the output dtype rule (default: from a `dtype`/`output_type`/`out_type` attribute,
    else the input's). `allowed`: the dtypes the op admits at all (default: its kernels'); a dtype outside
    is InvalidArgumentError, one inside with no kernel NotFoundError, as in TensorFlow. `forward`: the
    kernel writing into a dying input (see Kernel), allowed for the inputs at `forward_inputs`. `grad_reads`:
    the (inputs, outputs) whose values the gradient reads (see OpDef). A gradient rule is written as the
    upstream gradient times the derivative; for complex inputs it is conjugated to TensorFlow's convention
    (`conjugated`) unless `complex_convention` says the rule already follows it (Real, Conj, the FFTs, ...).
    `buffer` says how the kernel allocates its output, which shape-only estimation (runtime/estimating.py)
    reproduces: None, a new array of the output's shape; "view", a view of a new array of that size (a
    reshaped product); or f(input shapes, attrs) -> the shape of a larger new array whose leading corner
    the output is (a padded buffer). `scratch(input shapes, attrs, itemsize) -> [bytes]`: the temporaries the kernel
    allocates before its output and frees after it (on a CUDA GPU they come from the device's pool), which an
    estimate for a modelled GPU charges."""
    if op in _OPS:
        raise ValueError(f"Op {op!r} is already defined; each op is declared once.")
    if cost not in (CHEAP, HEAVY, BY_SIZE):
        raise ValueError(f"Unknown cost class {cost!r} for op {op!r}; expected CHEAP, HEAVY or BY_SIZE.")

    def decorate(fn):
        kernels = {}
        if cpu:
            kernels["CPU"] = Kernel(op, "CPU", frozenset(dtypes), fn, presize, forward, tuple(forward_inputs))
        gpu_dtypes = dtypes if gpu is None else gpu
        if gpu_dtypes:
            kernels["GPU"] = Kernel(op, "GPU", frozenset(gpu_dtypes) - {d.string}, fn, presize, forward,
                                    tuple(forward_inputs))
        admitted = frozenset(allowed) if allowed is not None else frozenset(dtypes) | frozenset(gpu_dtypes or ())
        rule = grad
        if callable(grad) and admitted & COMPLEX and not complex_convention:
            rule = conjugated(grad)
        _OPS[op] = OpDef(op, kernels, shape, dtype or dtype_from_attrs, rule, foldable, tuple(shape_only_inputs),
                         cost, admitted, grad_reads, buffer, scratch)
        return fn
    return decorate


op_def = op_table.op_def


def find_kernel(op: str, device_type: str, dtype) -> Kernel | None:
    """The kernel of `op` on `device_type` accepting `dtype` (None: any), or None."""
    definition = _OPS.get(op)
    kernel = definition.kernels.get(device_type) if definition is not None else None
    if kernel is None or (dtype is not None and dtype not in kernel.dtypes):
        return None
    return kernel


def list_kernels(op: str) -> list:
    """[(device_type, sorted dtype names)] registered for `op`, so users see why an op fell back."""
    definition = _OPS.get(op)
    if definition is None:
        raise ValueError(f"Unknown op {op!r}. Known ops: {', '.join(sorted(registered_ops()))}.")
    return sorted((k.device_type, sorted(t.name for t in k.dtypes)) for k in definition.kernels.values())


def registered_ops() -> set:
    """Names of every defined op."""
    return set(_OPS)


def differentiable_ops() -> set:
    """Names of the ops that have a gradient."""
    return {name for name, definition in _OPS.items() if callable(definition.gradient)}


def dtype_from_attrs(dtype, attrs):
    """The default dtype rule: a `dtype`/`output_type`/`out_type` attribute, else the input's dtype."""
    if attrs:
        for key in ("dtype", "output_type", "out_type"):
            if key in attrs:
                return d.as_dtype(attrs[key])
    return dtype


def bool_output(dtype, attrs):
    """The dtype rule of comparisons and logical ops."""
    return d.bool


def conjugated(rule):
    """`rule` in TensorFlow's convention for complex inputs, upstream times the *conjugate* derivative: as
    every rule is linear in the upstream gradients, that is conj(rule(conj(upstream)))."""
    def gradient(entry, *upstream):
        if not any(getattr(t, "dtype", None) in COMPLEX for t in entry.inputs):
            return rule(entry, *upstream)
        from .emit import emit
        results = rule(entry, *[_conj(u, emit) for u in upstream])
        return [_conj(r, emit) for r in results]
    gradient.__wrapped__ = rule
    return gradient


def _conj(gradient, emit):
    if gradient is None or getattr(gradient, "dtype", None) not in COMPLEX:
        return gradient
    if hasattr(gradient, "indices") and hasattr(gradient, "values"):  # IndexedSlices: conjugate the rows
        return type(gradient)(emit("Conj", (gradient.values,), gradient.dtype), gradient.indices, gradient.dense_shape)
    return emit("Conj", (gradient,), gradient.dtype)


def no_gradient_yet(op: str):
    """The gradient of an op TensorFlow differentiates and placeflow does not yet: it raises LookupError."""
    def gradient(e, *grads):
        raise LookupError(f"placeflow does not implement the gradient of {op} yet (TensorFlow has one); compute it "
                          f"outside the tape or use placeflow.stop_gradient on its outputs.")
    return gradient


def no_gradient_registered(op: str):
    """The gradient of an op TensorFlow registers none for (not even 'not differentiable'): LookupError, as TF's."""
    def gradient(e, *grads):
        raise LookupError(f"gradient registry has no entry for: {op}")
    gradient.unregistered = True   # a function call's gradient refuses such ops at the call (graph/function_gradient)
    return gradient


def presize_from_attrs(args, attrs) -> tuple:
    """The output of an op whose `shape` and `dtype` attributes say what it makes (Fill, random ops)."""
    return attrs["shape"], attrs["dtype"].numpy_dtype


def presize_like_input(args, attrs) -> tuple:
    """The output of an op with its first input's shape and dtype (ZerosLike, OnesLike)."""
    return args[0].shape, args[0].dtype
