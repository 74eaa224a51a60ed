"""What one op costs (FLOPs, bytes of device memory, matrix units or not) and how long that takes on a model.

`op_cost` takes an op's name, its inputs' and outputs' static (shape, dtype) and its attrs as placeflow records
them; ops named by TensorFlow but not (yet) registered in placeflow (BatchMatMulV2, FusedBatchNormV3,
ResourceApplyAdam, ...) are costed by TF's input order and attrs. `op_time` is a roofline: a launch latency plus
the longer of computing and moving the bytes. `all_reduce_time` follows the data each all-reduce moves.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

from .models import DeviceModel, Link, dtype_name, link_between, model_of

# FLOPs per element. Cheap arithmetic, comparisons, logic and selects count 1; a clip (two compares) or squared
# difference 2. A division, square root or
# reciprocal counts 4 (a reciprocal approximation refined by Newton steps). A transcendental (exp, log, sin,
# tanh, erf, pow, ...) counts 16: a range reduction plus a polynomial of about 8 fused multiply-adds. The
# special functions (lgamma, digamma, Bessel, incomplete gamma/beta, zeta, ...) count 64: series of several
# transcendental terms.
DIVIDE, TRANSCENDENTAL, SPECIAL = 4, 16, 64

_PER_ELEMENT = {
    **dict.fromkeys(("RealDiv", "Div", "DivNoNan", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod",
                     "Reciprocal", "Inv", "Sqrt", "Rsqrt", "Xdivy", "Softsign"), DIVIDE),
    **dict.fromkeys(("Relu6", "ClipByValue", "LeakyRelu", "SquaredDifference"), 2),
    **dict.fromkeys(("Exp", "Expm1", "Log", "Log1p", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Atan2",
                     "Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh", "Sigmoid", "Softplus", "Elu",
                     "Selu", "Erf", "Erfc", "Pow", "Xlogy", "Xlog1py", "ComplexAbs", "Angle"),
                    TRANSCENDENTAL),
    **dict.fromkeys(("Lgamma", "Digamma", "Polygamma", "Igamma", "Igammac", "IgammaGradA", "Betainc", "Zeta",
                     "Erfinv", "Erfcinv", "Ndtri", "Spence", "Expint", "Dawsn", "FresnelCos", "FresnelSin",
                     "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1", "BesselK0",
                     "BesselK0e", "BesselK1", "BesselK1e", "BesselY0", "BesselY1", "RandomGammaGrad"), SPECIAL),
}
# Elementwise ops costed at one FLOP per output element (and the inputs and output moved once).
ELEMENTWISE = frozenset((
    "Abs", "Neg", "Sign", "Square", "Floor", "Ceil", "Round", "Rint", "Relu", "ReluGrad", "AddV2", "Add", "Sub",
    "Mul", "Maximum", "Minimum", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
    "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert",
    "LeftShift", "RightShift", "IsNan", "IsInf", "IsFinite", "SelectV2", "Select", "Conj", "Real", "Imag",
    "Complex", "ZerosLike", "OnesLike", "NextAfter", "AddN", "CheckNumerics",
)) | frozenset(_PER_ELEMENT)

# Ops that only relabel a buffer (or read metadata): no FLOPs, no bytes. ReadVariableOp returns the variable's
# own buffer, as TensorFlow's does (a copy happens only on a later write while the read is alive: not modelled).
ALIASING = frozenset((
    "Reshape", "ExpandDims", "Squeeze", "Identity", "IdentityN", "StopGradient", "Snapshot", "Bitcast",
    "PreventGradient", "EnsureShape", "PlaceholderWithDefault", "Placeholder", "Shape", "ShapeN", "Size", "Rank",
    "NoOp", "_Arg", "_Retval", "VarHandleOp", "ReadVariableOp", "Const", "_EagerConst",
))
# Transfers and collectives: their time is transfer_time / all_reduce_time over the links, not device work.
COMMUNICATION = frozenset(("_Send", "_Recv", "_NcclAllReduce", "CollectiveReduceV2"))

REDUCTIONS = frozenset(("Sum", "Mean", "Prod", "Max", "Min", "All", "Any", "ArgMax", "ArgMin", "EuclideanNorm",
                        "Cumsum", "Cumprod", "BiasAddGrad", "_ReduceToShapeOf"))

MATMULS = {"MatMul": ("transpose_a", "transpose_b"), "BatchMatMul": ("adj_x", "adj_y"),
           "BatchMatMulV2": ("adj_x", "adj_y"), "BatchMatMulV3": ("adj_x", "adj_y")}
CONVOLUTIONS = frozenset(("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Conv3D",
                          "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"))
DEPTHWISE = frozenset(("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                       "DepthwiseConv2dNativeBackpropFilter"))
POOLS = frozenset(("MaxPool", "AvgPool", "MaxPool3D", "AvgPool3D", "MaxPoolWithArgmax", "_MaxPoolGradGrad",
                   "_MaxPool3DGradGrad", "MaxPoolV2"))
POOL_GRADS = frozenset(("MaxPoolGrad", "AvgPoolGrad", "MaxPool3DGrad", "AvgPool3DGrad", "MaxPoolGradV2"))

# Optimizer updates: (state tensors read and written besides the gradient, FLOPs per element). Counted per element
# of the variable: Adam updates m (3 FLOPs), v (4) and the variable through sqrt, divide and scale (11).
OPTIMIZERS = {
    "ApplyGradientDescent": (1, 2), "ApplyMomentum": (2, 4), "ApplyKerasMomentum": (2, 4),
    "ApplyAdam": (3, 18), "ApplyAdamWithAmsgrad": (4, 19), "ApplyAdaMax": (3, 12), "ApplyAdagrad": (2, 12),
    "ApplyAdagradV2": (2, 12), "ApplyAdagradDA": (3, 16), "ApplyAdadelta": (3, 20), "ApplyRMSProp": (3, 16),
    "ApplyCenteredRMSProp": (4, 20), "ApplyFtrl": (3, 40), "ApplyFtrlV2": (3, 42), "ApplyAddSign": (2, 10),
    "ApplyPowerSign": (2, 24), "ApplyProximalGradientDescent": (1, 8), "ApplyProximalAdagrad": (2, 16),
}
# Variable writes: (multiple of the value's bytes moved, FLOPs per element).
ASSIGNS = {"AssignVariableOp": (2, 0), "Assign": (2, 0), "_SliceAssignVariableOp": (2, 0),
           "AssignAddVariableOp": (3, 1), "AssignSubVariableOp": (3, 1), "AssignAdd": (3, 1), "AssignSub": (3, 1)}
MOVES = frozenset(("Transpose", "ConjugateTranspose", "ConcatV2", "Concat", "Pack", "Unpack", "Split", "SplitV",
                   "Slice", "StridedSlice", "Tile", "PadV2", "Pad", "MirrorPad", "ReverseV2", "BroadcastTo",
                   "_ConcatGrad"))
GATHERS = frozenset(("GatherV2", "GatherNd", "Gather", "ResourceGather", "_BatchGather"))
SCATTERS = frozenset(("ScatterNd", "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterMax",
                      "TensorScatterMin", "ResourceScatterAdd", "ResourceScatterUpdate", "UnsortedSegmentSum",
                      "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd", "_GatherGrad"))


@dataclass(frozen=True)
class Cost:
    """An op's work: FLOPs, bytes read plus written in device memory, and whether it runs on matrix units."""

    flops: float
    bytes: float
    matmul: bool


def op_cost(op: str, inputs: list, outputs: list, attrs: dict) -> Cost:
    """The Cost of `op` given its inputs' and outputs' [(shape tuple, dtype)] and its attrs."""
    inputs, outputs, attrs = _checked(op, inputs, "inputs"), _checked(op, outputs, "outputs"), attrs or {}
    for rule in _RULES:
        cost = rule(op, inputs, outputs, attrs)
        if cost is not None:
            return cost
    return Cost(sum(_elements(s) for s, _ in outputs), _bytes(inputs) + _bytes(outputs), False)


def op_time(model: DeviceModel, cost: Cost, dtype, tensor_float_32: bool = True) -> float:
    """Seconds `cost` takes on `model` in `dtype`: launch_latency + max(flops / peak, bytes / bandwidth); 0 for an
    op without work (it relabels a buffer, or its tensors are empty: no kernel is launched)."""
    if not cost.flops and not cost.bytes:
        return 0.0
    peak = model.flops_for(dtype, cost.matmul, tensor_float_32)
    return model.launch_latency + max(cost.flops / peak, cost.bytes / model.bandwidth)


def transfer_time(link: Link, nbytes: int) -> float:
    """Seconds to copy `nbytes` over `link`: latency + nbytes / bandwidth."""
    if not isinstance(link, Link):
        raise TypeError(f"transfer_time needs a placeflow.perf.Link (e.g. from link_between), got {link!r}.")
    return link.latency + _nonnegative("nbytes", nbytes) / link.bandwidth


ALGORITHMS = ("NcclAllReduce", "HierarchicalCopyAllReduce", "ReductionToOneDevice")


def all_reduce_time(algorithm: str, nbytes: int, devices: list) -> float:
    """Seconds to all-reduce `nbytes` on each of `devices` (runtime devices or names) with the named
    cross-device-ops algorithm; 0 for one device."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"Unknown all-reduce algorithm {algorithm!r}; expected one of {', '.join(ALGORITHMS)} "
                         "(the class name of the strategy's cross_device_ops).")
    nbytes, devices = _nonnegative("nbytes", nbytes), list(devices)
    if len(devices) <= 1:
        return 0.0
    return _ALL_REDUCE[algorithm](nbytes, devices)


def _ring(nbytes, devices) -> float:
    """Reduce-scatter then all-gather round the ring: 2(n-1)/n of the buffer through the slowest link, and
    2(n-1) steps each paying the largest latency."""
    n = len(devices)
    links = [_link(devices[i], devices[(i + 1) % n]) for i in range(n)]
    slowest = min(link.bandwidth for link in links)
    return 2 * (n - 1) / n * nbytes / slowest + 2 * (n - 1) * max(link.latency for link in links)


def _tree(nbytes, devices) -> float:
    """placeflow's HierarchicalCopyAllReduce: a binary tree of pairwise copies and adds up (pairs of one level in
    parallel), then the sum copied back down the same tree."""
    total, step, n = 0.0, 1, len(devices)
    while step < n:
        pairs = [(low, low + step) for low in range(0, n - step, 2 * step)]
        up = max(transfer_time(_link(devices[hi], devices[lo]), nbytes) + _add_time(devices[lo], nbytes, 2)
                 for lo, hi in pairs)
        down = max(transfer_time(_link(devices[lo], devices[hi]), nbytes) for lo, hi in pairs)
        total, step = total + up + down, step * 2
    return total


def _to_one(nbytes, devices) -> float:
    """ReductionToOneDevice: every other device's buffer copied to the first, add_n there, the sum copied back;
    the copies in and out share the first device's links, so they are counted one after another."""
    root, others = devices[0], devices[1:]
    gather = sum(transfer_time(_link(d, root), nbytes) for d in others)
    scatter = sum(transfer_time(_link(root, d), nbytes) for d in others)
    return gather + _add_time(root, nbytes, len(devices)) + scatter


_ALL_REDUCE = {"NcclAllReduce": _ring, "HierarchicalCopyAllReduce": _tree, "ReductionToOneDevice": _to_one}


def _link(src, dst) -> Link:
    link = link_between(src, dst)
    if link is None:
        raise ValueError(f"No link is modelled between {_name(src)} and {_name(dst)}: give the devices performance "
                         "models (tf.config.experimental.set_performance_model, or PLACEFLOW_SIMULATED_GPUS=8:H100).")
    return link


def _add_time(device, nbytes, count: int) -> float:
    """Adding `count` buffers of `nbytes` (float32 assumed: 4 bytes an element) on `device`."""
    model = model_of(device)
    if model is None:
        raise ValueError(f"{_name(device)} has no performance model; set one with "
                         "tf.config.experimental.set_performance_model(device, 'H100').")
    cost = Cost((count - 1) * nbytes / 4, (count + 1) * nbytes, False)
    return op_time(model, cost, "float32")


def _name(device) -> str:
    return getattr(device, "name", str(device))


# -- validation and sizes --------------------------------------------------------------------------------------

def _checked(op: str, entries, what: str) -> list:
    if not isinstance(op, str):
        raise TypeError(f"op_cost needs the op's name as a string (e.g. 'MatMul'), got {op!r}.")
    if not isinstance(entries, (list, tuple)):
        raise TypeError(f"op_cost({op!r}) {what} must be a list of (shape tuple, dtype) pairs, got {entries!r}.")
    checked = []
    for entry in entries:
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], (list, tuple))):
            raise TypeError(f"op_cost({op!r}) {what}: {entry!r} is not a (shape tuple, dtype) pair, e.g. "
                            "((1024, 1024), np.float32).")
        shape, dtype = entry
        if not all(_size(d) for d in shape):
            raise ValueError(f"op_cost({op!r}) {what}: shape {tuple(shape)!r} has a dimension that is not a known "
                             "size >= 0; cost ops by their static shapes (every dimension an int).")
        checked.append((tuple(operator.index(d) for d in shape), dtype))
    return checked


def _size(dim) -> bool:
    """Whether `dim` is a known dimension: an int (or NumPy integer) >= 0."""
    return hasattr(dim, "__index__") and not isinstance(dim, bool) and operator.index(dim) >= 0


def _nonnegative(label: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{label} must be a number of bytes >= 0, got {value!r}.")
    return value


def _elements(shape) -> int:
    return math.prod(shape)


def _itemsize(dtype) -> int:
    from ..framework.dtypes import as_dtype
    return as_dtype(dtype).size


def _bytes(entries) -> float:
    return sum(_elements(s) * _itemsize(t) for s, t in entries)


def _largest(entries):
    """The (shape, dtype) with the most elements (a variable update's full-size tensor)."""
    return max(entries, key=lambda e: _elements(e[0]))


def _complex_factor(dtype) -> int:
    return 4 if dtype_name(dtype).startswith("complex") else 1  # a complex multiply-add is 4 real ones


# -- the rules, tried in order -----------------------------------------------------------------------------------

def _aliasing(op, inputs, outputs, attrs):
    if op in ALIASING or op in COMMUNICATION:
        return Cost(0, 0, False)
    return None


def _matmul(op, inputs, outputs, attrs):
    if op not in MATMULS:
        return None
    a_shape, a_dtype = inputs[0]
    transpose_a = attrs.get(MATMULS[op][0], False)
    inner = a_shape[-2] if transpose_a else a_shape[-1]
    flops = 2 * _elements(outputs[0][0]) * inner * _complex_factor(a_dtype)
    return Cost(flops, _bytes(inputs) + _bytes(outputs), True)


def _convolution(op, inputs, outputs, attrs):
    """2 FLOPs per multiply-add: every element on the output side of the forward conv (the output, or the
    incoming gradient of a backprop) times the filter's window and input channels (filter shape [:-1])."""
    if op not in CONVOLUTIONS:
        return None
    out_side = inputs[-1][0] if "Backprop" in op else outputs[0][0]
    filter_shape = outputs[0][0] if "BackpropFilter" in op else inputs[-2][0] if "BackpropInput" in op \
        else inputs[1][0]
    flops = 2 * _elements(out_side) * _elements(filter_shape[:-1]) * _complex_factor(inputs[-1][1])
    return Cost(flops, _bytes(inputs) + _bytes(outputs), True)


def _depthwise(op, inputs, outputs, attrs):
    """Each output-side element is one channel's window: 2 * window FLOPs (vector units, not tensor cores)."""
    if op not in DEPTHWISE:
        return None
    out_side = inputs[-1][0] if "Backprop" in op else outputs[0][0]
    filter_shape = outputs[0][0] if "BackpropFilter" in op else inputs[-2][0] if "BackpropInput" in op \
        else inputs[1][0]
    return Cost(2 * _elements(out_side) * _elements(filter_shape[:-2]), _bytes(inputs) + _bytes(outputs), False)


def _pool(op, inputs, outputs, attrs):
    """One compare or add per window element of each output (an average adds one divide per output); a pooling
    gradient walks the same windows from the incoming gradient (MaxPoolGradWithArgmax: one add per element)."""
    if op == "MaxPoolGradWithArgmax":
        return Cost(_elements(inputs[1][0]), _bytes(inputs) + _bytes(outputs), False)
    if op not in POOLS and op not in POOL_GRADS:
        return None
    window = _elements(attrs.get("ksize", (1,)))
    per_output = window + (1 if "Avg" in op else 0)
    side = inputs[-1][0] if op in POOL_GRADS else outputs[0][0]
    return Cost(_elements(side) * per_output, _bytes(inputs) + _bytes(outputs), False)


def _elementwise(op, inputs, outputs, attrs):
    if op not in ELEMENTWISE:
        return None
    per = _PER_ELEMENT.get(op, 1) * (len(inputs) - 1 if op == "AddN" else 1)
    return Cost(_elements(outputs[0][0]) * per if outputs else 0, _bytes(inputs) + _bytes(outputs), False)


def _reduction(op, inputs, outputs, attrs):
    """One FLOP per input element (a mean divides each output once more; logsumexp is transcendental)."""
    if op not in REDUCTIONS and op != "CumulativeLogsumexp":
        return None
    per = TRANSCENDENTAL + 1 if op == "CumulativeLogsumexp" else 1
    extra = _elements(outputs[0][0]) if op == "Mean" else 0
    return Cost(_elements(inputs[0][0]) * per + extra, _bytes(inputs) + _bytes(outputs), False)


def _softmax(op, inputs, outputs, attrs):
    """Per logit: max (1), subtract (1), exp (T), sum (1), divide or log-subtract (1) = 4 + T. Cross entropy adds
    the log (T), the label product and sum (2) and the backprop subtract (1); the sparse form picks one label per
    row instead of a product (1)."""
    logits = _elements(inputs[0][0]) if inputs else 0
    per = {"Softmax": 4 + TRANSCENDENTAL, "LogSoftmax": 4 + TRANSCENDENTAL,
           "SoftmaxCrossEntropyWithLogits": 7 + 2 * TRANSCENDENTAL,
           "SparseSoftmaxCrossEntropyWithLogits": 6 + 2 * TRANSCENDENTAL}.get(op)
    if per is None:
        return None
    return Cost(logits * per, _bytes(inputs) + _bytes(outputs), False)


def _bias(op, inputs, outputs, attrs):
    if op not in ("BiasAdd", "BiasAddV1"):
        return None
    return Cost(_elements(outputs[0][0]), _bytes(inputs) + _bytes(outputs), False)


def _batch_norm(op, inputs, outputs, attrs):
    """Training: statistics (sum, square-sum: 3 FLOPs an element, x read once) then normalize (x - mean) * scale'
    + offset (2: an FMA after folding), x read again and y written. Inference: one FMA per element, x read and y
    written. The gradient: reductions of dy and dy * x_hat (4), then dx (4); dy and x read twice, dx written."""
    if op not in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3", "FusedBatchNormGrad",
                  "FusedBatchNormGradV2", "FusedBatchNormGradV3"):
        return None
    x_shape, x_dtype = inputs[1] if "Grad" in op else inputs[0]
    n, size = _elements(x_shape), _itemsize(x_dtype)
    small = _bytes([e for e in inputs + outputs if _elements(e[0]) != n])
    training = attrs.get("is_training", True)
    if "Grad" in op:
        return Cost(8 * n, 5 * n * size + small, False)
    return Cost((5 if training else 2) * n, (3 if training else 2) * n * size + small, False)


def _cast(op, inputs, outputs, attrs):
    if op not in ("Cast", "SaturateCast"):
        return None
    return Cost(_elements(outputs[0][0]), _bytes(inputs) + _bytes(outputs), False)


def _move(op, inputs, outputs, attrs):
    """Data movement only: every output byte written, the same bytes read (shape/axis inputs are read too)."""
    if op not in MOVES:
        return None
    return Cost(0, 2 * _bytes(outputs), False)


def _gather(op, inputs, outputs, attrs):
    """A gather reads the rows it writes, plus the indices. A scatter or segment reduction combines each update
    (the largest input) once: its inputs read, its output written."""
    if op in GATHERS:
        return Cost(0, 2 * _bytes(outputs) + _bytes(inputs[1:2]), False)
    if op in SCATTERS:
        return Cost(_elements(_largest(inputs)[0]), _bytes(inputs) + _bytes(outputs), False)
    return None


def _variable(op, inputs, outputs, attrs):
    """Variable writes and optimizer updates, counted on the largest input (the value, delta or gradient; a
    resource handle input has no size): state tensors and the gradient read, the states written."""
    base = op[len("Resource"):] if op.startswith("ResourceApply") else op
    if base not in OPTIMIZERS and op not in ASSIGNS:
        return None
    shape, dtype = _largest(inputs)
    n, size = _elements(shape), _itemsize(dtype)
    if op in ASSIGNS:
        moved, per = ASSIGNS[op]
        return Cost(n * per, moved * n * size, False)
    states, per = OPTIMIZERS[base]
    return Cost(n * per, (2 * states + 1) * n * size, False)


_RULES = (_aliasing, _matmul, _convolution, _depthwise, _pool, _elementwise, _reduction, _softmax, _bias,
          _batch_norm, _cast, _move, _gather, _variable)
