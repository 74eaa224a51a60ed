"""The devices of shape-only estimation (PLACEFLOW_ESTIMATE=1): a simulated GPU and the host CPU whose
kernels make shape-only outputs instead of computing.

Every kernel call still goes through `Device.run` or a plan node's call, and each output is still charged
to the device's BFC pool, so placement, lifetimes, forwarding, copy-on-write variable updates, OOMs and
`get_memory_info` are those of a real run. What a call does:

- no shape-only input: small work is computed (on a GPU only when every output has at most SMALL elements:
  shapes, loop counters, scalars; the host CPU computes whatever it is given: input pipelines);
  a larger GPU output is made shape-only from the op's shape rule;
- a shape-only input: the outputs come from the op's shape rule; an in-place variable update returns
  the variable's own buffer; ops that only view or move data (VIEW_OPS) and ops whose output shape the
  rule cannot tell run their kernel on the shape-only arrays' zero pages, so views stay views;
  metadata ops (Shape, Size, Rank) compute their real, small results; control flow (If, While) runs its
  bodies, whose ops are estimated; Python functions (py_function) and iterators run; ops whose output shape
  depends on the data (DATA_DEPENDENT) are refused by name.
Each op's modelled time goes to the step clock (runtime/step_clock.py).
"""

from __future__ import annotations

import functools
import threading

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import ResourceExhaustedError, UnimplementedError
from ..memory.oom import DeviceOutOfMemory
from ..framework.op_table import op_def
from . import step_clock
from .device import HostCPU, SimulatedGPU, _reraise
from . import forwarding
from .shape_only import ShapeOnly, host_data, owns_memory, shape_only

SMALL = 1024   # outputs of at most this many elements, from real inputs, are computed on a GPU
METADATA = frozenset({"Shape", "ShapeN", "Size", "Rank", "BroadcastArgs", "BroadcastGradientArgs"})
ALWAYS_RUN = METADATA | {  # control flow runs its bodies (their ops are estimated), Python functions and iterators run
    "If", "While", "EagerPyFunc", "PyFunc", "PyFuncStateless", "_IteratorGetNext", "_IteratorStart"}
VIEW_OPS = frozenset({
    "Identity", "IdentityN", "StopGradient", "PreventGradient", "Snapshot", "EnsureShape", "CheckNumerics",
    "CheckNumericsV2", "Reshape", "ExpandDims", "Squeeze", "Transpose", "Slice", "StridedSlice", "Split",
    "SplitV", "Unpack", "Bitcast", "BroadcastTo", "ReverseV2", "ReadVariableOp", "PlaceholderWithDefault",
    "_Arg", "_Retval", "Real", "Imag", "MatrixDiagPartV3", "DebugIdentity", "Print", "PrintV2", "VarHandleOp",
    "AssignVariableOp"})
NEW_VARIABLE_VALUE = frozenset({"ResourceApplyGradientDescent"})   # a variable update's kernel returns the new value
DATA_DEPENDENT = frozenset({
    "Where", "Unique", "UniqueV2", "UniqueWithCounts", "UniqueWithCountsV2", "ListDiff", "SetDiff1D",
    "DynamicPartition", "NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionV3", "NonMaxSuppressionV4",
    "NonMaxSuppressionV5", "StringSplit", "StringSplitV2", "RaggedGather", "BooleanMask", "CTCGreedyDecoder",
    "CTCBeamSearchDecoder", "SparseFillEmptyRows", "Bincount", "DenseBincount"})


def run(device, real_run, op, fn, args, attrs, name, presize, dtype, planned=False):
    """One kernel call on an estimating device (a plan's node when `planned`); `real_run(op, fn, args, attrs, name,
    presize)` computes."""
    given = [a for a in args if isinstance(a, ShapeOnly)]
    _making.label = name or op
    try:
        if op in ALWAYS_RUN or (not given and (device.device_type == "CPU" or _small_work(op, args, attrs, dtype,
                                                                                      presize))):
            out = real_run(op, fn, args, attrs, name, presize)
            if not given:
                out = _drop_large(device, out)
        else:
            try:
                out = _estimated(device, op, fn, args, attrs or {}, dtype, presize, bool(given))
            except BaseException as exc:  # noqa: BLE001 - as Device.run converts kernel failures
                _reraise(exc, op, name, device)
    except ResourceExhaustedError as exc:
        _note_oom(device, op, name, exc)
        raise
    step_clock.ran(device, op, args, out, attrs, dtype, name, planned)
    return out


_making = threading.local()   # the op whose outputs are being charged (for the allocation records)
first_oom: dict = {}          # the first OOM of the run: op, device, bytes asked, bytes free (estimate reports)


def _note_oom(device, op, name, exc) -> None:
    if first_oom:
        return
    source = exc
    while source is not None and not isinstance(source, DeviceOutOfMemory):
        source = source.__cause__ or source.__context__
    asked = getattr(source, "nbytes", None)
    stats = device.memory.allocator.stats()
    first_oom.update(op=op, name=name or op, device=device.name, bytes_asked=asked,
                     bytes_free=stats["bytes_limit"] - stats["bytes_in_use"], message=str(exc).split("\n")[0])


class AllocationRecord:
    """What an estimating GPU's pool holds and held: the buffers alive at its peak with the ops that made them,
    and in-use bytes after every allocation and free (for the memory plot)."""

    def __init__(self, memory):
        self.memory = memory
        self.live: dict = {}          # id(root) -> (bytes, label, shape, dtype name)
        self.at_peak: list = []       # the largest buffers alive when the pool last reached a new peak
        self.peak = 0
        self.timeline: list = []      # (modelled seconds of the device, bytes in use)
        self._adopt, self._died = memory.adopt, memory._died
        memory._died = self.died

    def adopt(self, array):
        """The device's charge: the pool's, then the record of a new buffer."""
        allocator, owners = self.memory.allocator, self.memory._owners
        root = array
        while isinstance(getattr(root, "base", None), np.ndarray):
            root = root.base
        owner = owners.get(id(root))
        known = owner is not None and owner() is root
        out = self._adopt(array)
        if not known and id(root) in owners:   # a new buffer of this pool
            self.live[id(root)] = (root.nbytes, getattr(_making, "label", "?"), tuple(root.shape), root.dtype.name)
            self.timeline.append((step_clock.now(), allocator.in_use))
            if allocator.in_use > self.peak:
                self.peak = allocator.in_use
                self.at_peak = sorted(self.live.values(), key=lambda entry: -entry[0])[:12]
        return out

    def died(self, owner) -> None:
        """A buffer's last view died: its bytes go back (the pool's own callback), and leave the record."""
        self._died(owner)
        self.live.pop(owner.key, None)
        if step_clock is not None:   # (None while the interpreter shuts down and buffers die last)
            self.timeline.append((step_clock.now(), self.memory.allocator.in_use))


def _small_work(op, args, attrs, dtype, presize) -> bool:
    """Whether a call with only real inputs makes only small outputs (computed) or an unknown shape (computed:
    its inputs are small, and the outputs are made shape-only afterwards when large)."""
    predicted, _ = predict(op, args, attrs or {}, dtype, presize)
    return predicted is None or all(_elements(shape) <= SMALL for _, shape in predicted)


def _drop_large(device, out):
    """Outputs computed from real inputs that came out large become shape-only (their data is not needed)."""
    if device.device_type == "CPU":
        return out
    if out.__class__ is tuple:
        return tuple(_as_shape_only(device, o) for o in out)
    return _as_shape_only(device, out)


def _as_shape_only(device, array):
    if isinstance(array, np.ndarray) and not isinstance(array, ShapeOnly) and array.size > SMALL:
        return charged(device, shape_only(array.shape, array.dtype))
    return array


def _estimated(device, op, fn, args, attrs, dtype, presize, given):
    if op in DATA_DEPENDENT and given:
        raise UnimplementedError(None, None, (
            f"{op}: its output's shape depends on its input's values, which shape-only estimation does not have. "
            f"Estimate the program with that op's input computed for real (a small tensor), or outside "
            f"PLACEFLOW_ESTIMATE."))
    if attrs.get("_in_place"):
        return args[0]   # an update written into the variable's own buffer: nothing new is allocated
    if op in NEW_VARIABLE_VALUE:
        return charged(device, shape_only(args[0].shape, args[0].dtype))
    predicted, several = (None, False) if op in VIEW_OPS else predict(op, args, attrs, dtype, presize)
    if predicted is None:
        return _on_zero_pages(device, fn, args, attrs)
    if presize is not None:
        device.check_fits(*predicted[0][::-1])
    definition = op_def(op)
    scratch = _scratch(device, definition, args, attrs, predicted[0][0])
    buffer = definition.buffer if len(predicted) == 1 else None
    outs = tuple(charged(device, _new_output(buffer, args, attrs, shape, np_dtype)) for np_dtype, shape in predicted)
    del scratch
    return outs if several else outs[0]


def _scratch(device, definition, args, attrs, np_dtype) -> list:
    """The temporaries the op's CuPy kernel takes before its output (OpDef.scratch), charged while the output is
    made: only on a GPU with a performance model, which stands for a CUDA GPU (a simulated GPU's NumPy
    temporaries are host memory, which its pool does not see)."""
    if definition.scratch is None or device.device_type != "GPU" or step_clock.model_of(device) is None:
        return []
    sizes = definition.scratch([tuple(np.shape(a)) for a in args], attrs, np.dtype(np_dtype).itemsize)
    return [charged(device, shape_only((size,), np.uint8)) for size in sizes if size]


def _new_output(buffer, args, attrs, shape, np_dtype):
    """A new shape-only output allocated as the op's kernel allocates it (OpDef.buffer)."""
    if buffer is None:
        return shape_only(shape, np_dtype)
    if buffer == "view":
        return shape_only(shape, np_dtype).reshape(shape)
    root = shape_only(buffer([tuple(np.shape(a)) for a in args], attrs), np_dtype)
    return root[tuple(slice(0, s) for s in shape)]


def _on_zero_pages(device, fn, args, attrs):
    """Run the kernel itself on the shape-only inputs' zero pages: views stay views of the input's buffer;
    anything it makes is marked shape-only and charged."""
    out = fn(device.xp, *args, **attrs) if attrs else fn(device.xp, *args)
    if out.__class__ is tuple:
        return tuple(charged(device, _marked(o)) for o in out)
    return charged(device, _marked(out))


def charged(device, array):
    """`array` charged to `device`, kept as it is (the charge returns a plain view of a NumPy subclass)."""
    if isinstance(array, np.ndarray):
        device.charge(array)
    return array


def _marked(array):
    if isinstance(array, np.ndarray) and not isinstance(array, ShapeOnly):
        return array.view(ShapeOnly)
    return array


def predict(op, args, attrs, dtype, presize):
    """([(numpy dtype, shape)] of the op's outputs from its presize or shape rule, or None when not fully known;
    whether the op has several outputs)."""
    if presize is not None:
        shape, np_dtype = presize(args, attrs)
        return [(np.dtype(np_dtype), tuple(int(s) for s in shape))], False
    definition = op_def(op)
    if definition is None:
        return None, False
    shapes = [tuple(np.shape(a)) for a in args]
    op_dtype = dtype if dtype is not None else _dtype_of(args)
    try:
        out_dtype, shape = definition.dtype(op_dtype, attrs), definition.shape(shapes, attrs)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, ZeroDivisionError):
        return None, False
    several = isinstance(shape, list)
    shapes_out = shape if several else [shape]
    dtypes_out = out_dtype if isinstance(out_dtype, (list, tuple)) else [out_dtype] * len(shapes_out)
    result = []
    for out_dtype, shape in zip(dtypes_out, shapes_out):
        if shape is None or any(s is None for s in shape) or out_dtype is None:
            return None, several
        result.append((d.as_dtype(out_dtype).numpy_dtype, tuple(int(s) for s in shape)))
    return result, several


def _dtype_of(args):
    for a in args:
        if isinstance(a, np.ndarray):
            return d.as_dtype(a.dtype)
    return None


def _elements(shape) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def forwarding_call(device, op, kernel, attrs, positions, name=None, dtype=None, sole=None):
    """A plan node's callable that forwards into a dying input as a real run does (runtime/forwarding.py): a
    shape-only input that owns its buffer becomes the output itself; a real one is written into."""
    normal = device.node_call(op, kernel.fn, attrs, kernel.presize, name=name, dtype=dtype)
    real_into = functools.partial(kernel.forward, device.xp, **attrs)

    def into(out, *args):
        if out.__class__ is ShapeOnly:
            step_clock.ran(device, op, args, out, attrs, dtype, name, True)
            return out
        return real_into(out, *args)
    return forwarding.forwarding_call(normal, into, positions, owns=_owns_its_buffer, sole=sole)


def _owns_its_buffer(array) -> bool:
    """A writeable array owning its memory: a real one (base None) or a shape-only root (its base a mapping)."""
    if not isinstance(array, np.ndarray) or not array.flags.writeable:
        return False
    return owns_memory(array) if array.__class__ is ShapeOnly else array.__class__ is np.ndarray and array.base is None


class _Estimating:
    """What both estimating devices share: kernel calls through `run`, plan nodes, forwarding, reads."""

    __slots__ = ()

    def run(self, op, fn, args, attrs=None, name=None, presize=None, dtype=None):
        """A kernel call, estimated (see the module docstring)."""
        return run(self, super().run, op, fn, args, attrs, name, presize, dtype)

    def node_call(self, op, fn, attrs, presize=None, name=None, dtype=None):
        """A plan node's callable: `run` with the node's op, kernel, attributes, name and dtype."""
        real = super().run
        return lambda *args: run(self, real, op, fn, args, attrs, name, presize, dtype, True)

    def forwarding_node_call(self, op, kernel, attrs, positions, name=None, dtype=None, sole=None):
        """A plan node's callable that forwards into a dying input (shape-only or real)."""
        return forwarding_call(self, op, kernel, attrs, positions, name, dtype, sole)

    def to_host(self, array) -> np.ndarray:
        """The data of a real array; a shape-only one reads as zeros when asked for, else refuses."""
        return host_data(array) if isinstance(array, ShapeOnly) else super().to_host(array)


class EstimatingGPU(_Estimating, SimulatedGPU):
    """A simulated GPU that estimates: shape-only outputs above SMALL elements, charged to its BFC pool."""

    __slots__ = ("record",)
    estimating = True

    def __init__(self, info, memory):
        super().__init__(info, memory)
        self.record = AllocationRecord(memory)
        self.charge = self.record.adopt

    def upload(self, host_value):
        """A host value placed on this GPU: a private copy when small, else a shape-only buffer of its size."""
        array = np.asarray(host_value)
        if array.size > SMALL and not array.dtype.hasobject:
            return charged(self, shape_only(array.shape, array.dtype))
        return super().upload(host_value)


class EstimatingCPU(_Estimating, HostCPU):
    """The host CPU while estimating: computes real inputs (input pipelines), estimates shape-only ones."""

    __slots__ = ()
    estimating = True

    def node_call(self, op, fn, attrs, presize=None, name=None, dtype=None):
        """A plan node on the host: the bare kernel for real inputs (counted per step by the plan), estimated
        outputs (uncharged, as the plan counts host bytes) for shape-only ones."""
        real = HostCPU.node_call(self, op, fn, attrs, presize)
        if op in ALWAYS_RUN:
            return real

        def call(*args):
            for a in args:
                if isinstance(a, ShapeOnly):
                    out = _estimated(self, op, fn, args, attrs or {}, dtype, presize, True)
                    step_clock.ran(self, op, args, out, attrs, dtype, name, True)
                    return out
            return real(*args)
        return call
