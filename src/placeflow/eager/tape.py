"""GradientTape: records the ops run on watched tensors, then differentiates them in reverse order.

Recording costs one module-global check per op while no tape is active. Gradient functions come
from the gradient registry (ops layer) and are built from public ops, so the backward pass runs on
the devices placement chooses: each gradient op runs under the device of its forward op.

Memory as TensorFlow's tape spends it: a tape knows tensors by tape-unique keys (ids checked with weak
references, since an id is reused once its tensor dies), not by holding them; an entry keeps only
the values its gradient reads (the op's `grad_reads`), the others as shape-only stand-ins; the
backward pass drops each entry and each upstream gradient once used, and a non-persistent tape
forgets everything after `gradient`.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import weakref

import numpy as np

from ..framework.nest import flatten, pack_as
from ..ops import indexed_slices
from ..ops.indexed_slices import IndexedSlices
from ..ops.registry import NOT_DIFFERENTIABLE, differentiable_ops, op_def
from ..placement import scope as scope_module
from .tensor import EagerTensor

_local = threading.local()
active_count = 0          # tapes recording anywhere in the process; the dispatcher checks this first
_count_lock = threading.Lock()


def _stack() -> list:
    if not hasattr(_local, "tapes"):
        _local.tapes = []
    return _local.tapes


CUSTOM_GRADIENT = "_custom_gradient"  # an entry attribute: gradient(entry, *upstream) given by tf.custom_gradient


def record_custom(inputs, outputs, gradient) -> None:
    """Record one entry whose gradient is `gradient(entry, *upstream)` (tf.custom_gradient)."""
    record("_CustomGradient", {CUSTOM_GRADIENT: gradient}, inputs, outputs)


def paused_everywhere():
    """A context in which no active tape records (the body of a custom-gradient function)."""
    stack = contextlib.ExitStack()
    for tape in list(_stack()):
        stack.enter_context(_Paused(tape))
    return stack


class Entry:
    """One recorded op: its type, attributes, inputs and outputs (what its gradient function reads), and
    on a tape the keys of its inputs (None: not watched) and outputs."""

    __slots__ = ("op", "attrs", "inputs", "outputs", "input_keys", "output_keys")

    def __init__(self, op, attrs, inputs, outputs, input_keys=None, output_keys=None):
        self.op, self.attrs, self.inputs, self.outputs = op, attrs or {}, inputs, outputs
        self.input_keys, self.output_keys = input_keys, output_keys


def record(op: str, attrs, inputs, outputs) -> None:
    """Called by the dispatcher after each op while tapes are active: tapes watching an input record it."""
    tapes = _stack()
    if not tapes:
        return
    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    for tape in tapes:
        if tape._recording:
            tape._record(op, attrs, inputs, outs)


def _kept(op: str, attrs, tensors, reads) -> list:
    """The tensors an entry keeps: those at indices `reads` (None: all), shape-only stand-ins for the rest."""
    if reads is None or CUSTOM_GRADIENT in attrs:
        return list(tensors)
    return [t if i in reads else _stand_in(t) for i, t in enumerate(tensors)]


def _stand_in(tensor):
    """A tensor with `tensor`'s shape, dtype and device but no memory of its own (a broadcast zero): what
    a gradient that reads only shapes sees. Graph tensors stay (they hold no values)."""
    value = getattr(tensor, "_value", None)
    if value is None or not hasattr(value, "shape"):
        return tensor
    device = tensor._device
    with device.activate():
        xp = device.xp
        zero = xp.broadcast_to(xp.zeros((), dtype=value.dtype), value.shape)
    return EagerTensor(zero, device)


def _reference(tensor):
    """A weak reference to `tensor` (a strong one for objects that take none)."""
    try:
        return weakref.ref(tensor)
    except TypeError:
        return lambda: tensor


def _as_tensors(inputs) -> list:
    """Gradient rules build ops from an entry's inputs: literals (host arrays) become constants."""
    if not any(isinstance(x, (np.ndarray, np.generic)) for x in inputs):
        return list(inputs)
    from .convert import constant
    return [constant(x) if isinstance(x, (np.ndarray, np.generic)) else x for x in inputs]


def variable_read(variable, tensor) -> None:
    """Called when a variable is read: tapes watching it (or watching accessed variables) track the read."""
    for tape in _stack():
        if not tape._recording:
            continue
        if id(variable) in tape._watched_variables or (tape._watch_accessed and variable.trainable):
            tape._watched_variables[id(variable)] = variable
            tape._variable_reads.setdefault(id(variable), []).append(tape._track(tensor))


class GradientTape:
    """Record operations on watched tensors and variables, then compute gradients with `gradient`."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._recording = False
        self._used = False
        self._entries: list = []
        self._keys: dict = {}               # id(tensor) -> (reference, key) of every tensor the tape tracks
        self._serial = itertools.count(1)
        self._watched_variables: dict = {}  # id(variable) -> variable
        self._variable_reads: dict = {}     # id(variable) -> [keys of its reads while recording]

    def _key_of(self, tensor):
        """The tape's key of `tensor`, or None when the tape does not track it."""
        found = self._keys.get(id(tensor))
        if found is not None and found[0]() is tensor:
            return found[1]
        return None

    def _track(self, tensor) -> int:
        """Track `tensor` (once); returns its key."""
        key = self._key_of(tensor)
        if key is None:
            key = next(self._serial)
            self._keys[id(tensor)] = (_reference(tensor), key)
        return key

    def _record(self, op, attrs, inputs, outs) -> None:
        """Record one op if it reads a tracked tensor: its outputs become tracked."""
        input_keys = [self._key_of(x) for x in inputs]
        if all(k is None for k in input_keys):
            return
        output_keys = [self._track(out) for out in outs]
        definition = op_def(op)
        reads = definition.grad_reads if definition is not None else None
        attrs = attrs or {}
        self._entries.append(Entry(op, attrs, _kept(op, attrs, _as_tensors(inputs), reads and reads[0]),
                                   _kept(op, attrs, outs, reads and reads[1]), input_keys, output_keys))

    def __enter__(self):
        global active_count
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active "
                             "tape: exit its `with` block first (or use a second tf.GradientTape)")
        _stack().append(self)
        self._recording = True
        self._entered = True
        with _count_lock:
            active_count += 1
        return self

    def __exit__(self, *exc):
        self._pop()
        return False

    def _pop(self) -> None:
        """Stop recording for good: leave the tape stack (once, whether by __exit__ or by gradient())."""
        global active_count
        stack = _stack()
        if self in stack:
            stack.remove(self)
            with _count_lock:
                active_count -= 1
        self._recording = False

    def watch(self, tensor) -> None:
        """Record operations on `tensor` (a tensor, a variable, a composite tensor such as a SparseTensor, whose
        component tensors are watched, or a nested structure of them)."""
        for item in _flat(tensor):
            item = _resolve(item)
            if hasattr(item, "_as_tensor") and hasattr(item, "assign"):
                self._watched_variables[id(item)] = item
            else:
                for component in _watchable_components(item):
                    self._track(component)

    def watched_variables(self) -> tuple:
        """The variables this tape watched, in the order they were first watched."""
        return tuple(self._watched_variables.values())

    def stop_recording(self):
        """A context in which operations are not recorded."""
        return _Paused(self)

    def reset(self) -> None:
        """Forget everything recorded so far, watched variables included (as exiting and re-entering the
        context with a new tape would)."""
        self._forget()
        self._watched_variables = {}

    def _forget(self) -> None:
        """Drop the recorded ops and tracked tensors (a non-persistent tape after its one gradient call keeps
        the variables it watched, which watched_variables() still reports)."""
        self._entries, self._keys, self._variable_reads = [], {}, {}

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients="none"):
        """d(sum of target) / d(each source): tensors or variables, in the structure of `sources`.

        Called inside the tape's own context, a persistent tape records the gradient computation too (so a
        later call can differentiate it: higher-order gradients); a non-persistent tape stops recording."""
        if (self._used and not self._persistent) or not self.__dict__.get("_entered"):  # (TF: never entered too)
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        unconnected_gradients = _unconnected_choice(unconnected_gradients)
        if self._recording and not self._persistent:
            self._pop()
        self._used = True
        flat_sources = _flat(sources)
        flat_targets = [_resolve(t) for t in _flat(target)]
        seeds = _flat(output_gradients) if output_gradients is not None else [None] * len(flat_targets)
        pause = _Paused(self) if not self._recording else contextlib.nullcontext()
        with pause:
            # A variable as a target stands for itself (TF differentiates its handle): it seeds its own
            # gradient as a source, when the tape watches it, and nothing upstream of its reads.
            tensor_targets, tensor_seeds, variable_seeds = [], [], {}
            for item, seed in zip(flat_targets, seeds):
                if _is_variable(item):
                    if id(item) in self._watched_variables:
                        seed = seed if seed is not None else _execute("OnesLike", (item._as_tensor(),), item.dtype)
                        _accumulate(variable_seeds, id(item), seed)
                elif seed is not None or _trainable(item):
                    tensor_targets.append(item)
                    tensor_seeds.append(seed)
            grads = self._backprop(tensor_targets, tensor_seeds, self._source_keys(flat_sources),
                                   consume=not self._persistent)
            results = [self._source_gradient(s, grads, unconnected_gradients, variable_seeds)
                       for s in flat_sources]
        if not self._persistent:
            self._forget()
        return pack_as(sources, results)

    def _source_keys(self, sources) -> set:
        """The keys whose gradients `gradient` returns: the source tensors' and the source variables' reads."""
        keys = set()
        for source in sources:
            source = _resolve(source)
            if hasattr(source, "_as_tensor") and hasattr(source, "assign"):
                keys.update(self._variable_reads.get(id(source), ()))
            else:
                keys.add(self._key_of(source))
        return keys

    def jacobian(self, target, sources, unconnected_gradients="none", parallel_iterations=None,
                 experimental_use_pfor=True):
        """d target[i...] / d source[j...] for every element pair: shape target.shape + source.shape, per source
        (one backward pass per element of `target`)."""
        self._check_loop_jacobian("jacobian", experimental_use_pfor)
        return self._jacobian(target, sources, unconnected_gradients, batch=False)

    def batch_jacobian(self, target, source, unconnected_gradients="none", parallel_iterations=None,
                       experimental_use_pfor=True):
        """Per example b: d target[b, i...] / d source[b, j...]; shape [batch] + target.shape[1:] + source.shape[1:]
        (examples must not depend on each other, as TensorFlow assumes)."""
        target_shape, source_shape = _resolve(target).shape, _resolve(source).shape
        for name, shape in (("target", target_shape), ("source", source_shape)):
            if len(shape) < 2:
                raise ValueError(f"batch_jacobian: the {name}'s shape {tuple(shape)} must have rank at least 2 "
                                 "(a batch dimension first, then the example's dimensions)")
        if None not in (target_shape[0], source_shape[0]) and int(target_shape[0]) != int(source_shape[0]):
            raise ValueError(f"Need first dimension of target shape {tuple(target_shape)} and source shape "
                             f"{tuple(source_shape)} to match (the batch size)")
        self._check_loop_jacobian("batch_jacobian", experimental_use_pfor)
        return self._jacobian(target, source, unconnected_gradients, batch=True)

    def _check_loop_jacobian(self, name: str, use_pfor: bool) -> None:
        """TF computes a jacobian with experimental_use_pfor=False by calling gradient() once per element, which
        eagerly needs a persistent tape; it refuses otherwise, and so does placeflow."""
        from ..framework import graph_mode
        if not use_pfor and not self._persistent and graph_mode.active() is None:
            raise RuntimeError(f"GradientTape must be created with persistent=True to compute the {name} with "
                               "eager execution enabled and with experimental_use_pfor set to False.")

    def _jacobian(self, target, sources, unconnected, batch: bool):
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        unconnected = _unconnected_choice(unconnected)
        self._used = True
        target = _resolve(target)
        flat_sources = [_resolve(s) for s in _flat(sources)]
        shape = tuple(int(d) for d in target.shape)
        if 0 in shape:  # no element to differentiate: the jacobian is empty (TF returns zeros of its shape)
            results = [_empty_jacobian(shape, s, target.dtype, batch) for s in flat_sources]
            if not self._persistent:
                self._forget()
            return pack_as(sources, results)
        rows = []
        with _Paused(self):
            count = int(np.prod(shape[1:] if batch else shape)) if (shape[1:] if batch else shape) else 1
            for index in range(count):
                seed = np.zeros(shape, dtype=target.dtype.numpy_dtype)
                if batch:
                    seed.reshape(shape[0], -1)[:, index] = 1
                else:
                    seed.reshape(-1)[index] = 1
                grads = self._backprop([target], [_constant(seed, target.dtype)], self._source_keys(flat_sources))
                rows.append([self._source_gradient(s, grads, unconnected) for s in flat_sources])
        if not self._persistent:
            self._forget()
        results = [_stack_rows([row[k] for row in rows], shape, s, batch) for k, s in enumerate(flat_sources)]
        return pack_as(sources, results)

    # -- backward pass ----------------------------------------------------------------------------
    def _backprop(self, targets, seeds, keep, consume=False) -> dict:
        """{key: gradient} of the tracked tensors; upstream gradients not in `keep` are dropped once their
        entry ran; `consume`: drop each entry once it ran (its forward values go with it)."""
        grads: dict = {}
        for index, target in enumerate(targets):
            seed = seeds[index] if seeds is not None else None
            seed = seed if seed is not None else _execute("OnesLike", (target,), target.dtype)
            _accumulate(grads, self._track(target), seed)
        entries = self._entries
        for position in range(len(entries) - 1, -1, -1):
            entry = entries[position]
            if consume:
                entries[position] = None
            upstream = [grads.get(key) if key in keep else grads.pop(key, None) for key in entry.output_keys]
            if all(g is None for g in upstream):
                continue
            custom = entry.attrs.get(CUSTOM_GRADIENT)
            definition = op_def(entry.op) if custom is None else None
            grad_fn = custom if custom is not None else (definition.gradient if definition is not None else None)
            if grad_fn is NOT_DIFFERENTIABLE:
                continue
            if grad_fn is None:
                raise LookupError(f"No gradient defined for operation '{entry.op}'. placeflow defines "
                                  f"gradients for: {', '.join(sorted(differentiable_ops()))}.")
            upstream = [indexed_slices.densify(g) if g is not None else _unconnected(out)
                        for g, out in zip(upstream, entry.outputs)]
            with _forward_device(entry.outputs[0]):
                input_grads = grad_fn(entry, *upstream)
            input_keys = entry.input_keys
            del upstream, entry  # a consumed entry's forward values die here, not at the end of the pass
            for key, grad in zip(input_keys, input_grads):
                if grad is not None and key is not None:
                    _accumulate(grads, key, grad)
        return grads

    def _source_gradient(self, source, grads, unconnected, variable_seeds=None):
        source = _resolve(source)
        if _is_variable(source):
            parts = [grads[k] for k in self._variable_reads.get(id(source), []) if k in grads]
            if variable_seeds and id(source) in variable_seeds:
                parts.append(variable_seeds[id(source)])
            grad = _sum(parts)
        else:
            grad = grads.get(self._key_of(source))
        if grad is None and unconnected == UnconnectedGradients.ZERO:
            shape = tuple(source.shape)
            return _execute("Fill", (), source.dtype, {"shape": shape, "dtype": source.dtype, "value": 0})
        return grad


def _stack_rows(rows, target_shape, source, batch: bool):
    """The per-element gradients of one source as a jacobian tensor (None when no element depends on it);
    built from ops, so it works while a function is traced too."""
    from ..ops.emit import emit, reshape, transpose, zeros_like
    if all(r is None for r in rows):
        return None
    source_shape = tuple(int(d) for d in source.shape)
    rows = [indexed_slices.densify(r) if isinstance(r, IndexedSlices) else r for r in rows]
    like = next(r for r in rows if r is not None)
    parts = [zeros_like(like) if r is None else r for r in rows]
    stacked = emit("Pack", tuple(parts), like.dtype, {"axis": 0})  # [elements, *source]
    if not batch:
        return reshape(stacked, target_shape + source_shape)
    rank = len(source_shape)
    moved = transpose(stacked, [1, 0] + list(range(2, rank + 1)))  # [batch, elements, *source[1:]]
    return reshape(moved, (target_shape[0],) + target_shape[1:] + source_shape[1:])


def _empty_jacobian(target_shape, source, dtype, batch: bool):
    """The jacobian of a target without elements: zeros of the shape it would have."""
    source_shape = tuple(int(d) for d in source.shape)
    shape = target_shape + (source_shape[1:] if batch else source_shape)
    return _execute("Fill", (), dtype, {"shape": shape, "dtype": dtype, "value": 0})


class UnconnectedGradients:
    """What gradient() returns for sources the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


def _unconnected_choice(value) -> str:
    """'none' or 'zero' from a string or an UnconnectedGradients member; ValueError for anything else."""
    choice = getattr(value, "value", value)
    if choice not in (UnconnectedGradients.NONE, UnconnectedGradients.ZERO):
        raise ValueError(f"Unknown value for unconnected_gradients: {choice!r}; expected 'none' or 'zero' "
                         "(tf.UnconnectedGradients.NONE or .ZERO)")
    return choice


def _trainable(tensor) -> bool:
    """Whether a target seeds a gradient: any numeric or boolean dtype (an integer output of a differentiated
    function gets its zero gradients, as in TF); a string (or resource, variant) target seeds nothing, so its
    sources get None rather than an error."""
    dtype = getattr(tensor, "dtype", None)
    return getattr(dtype, "name", None) not in ("string", "resource", "variant")


def _is_variable(item) -> bool:
    """Whether the tape treats `item` as a variable (tracked through its reads)."""
    return hasattr(item, "_as_tensor") and hasattr(item, "assign")


def _watchable_components(item) -> list:
    """The tensors watch() tracks for `item`: itself, or a composite tensor's floating components; ValueError
    for anything that is not a tensor (a NumPy array, a Python number, ...)."""
    if isinstance(item, IndexedSlices):
        return [item.values]
    if hasattr(item, "dense_shape") and hasattr(item, "indices") and hasattr(item, "values"):  # SparseTensor
        return [item.values]
    if hasattr(item, "flat_values") and hasattr(item, "row_splits"):  # RaggedTensor
        return [item.flat_values]
    if isinstance(item, (np.ndarray, np.generic, int, float, complex, bool, str, bytes)) or \
            not (hasattr(item, "dtype") and hasattr(item, "shape")):
        raise ValueError(f"GradientTape.watch: passed in object {item!r} of type {type(item).__name__!r}, not "
                         "a tf.Tensor, tf.Variable or composite tensor; convert it with tf.constant first")
    return [item]


class _Paused:
    def __init__(self, tape):
        self._tape, self._saved = tape, None

    def __enter__(self):
        self._saved, self._tape._recording = self._tape._recording, False
        return self

    def __exit__(self, *exc):
        self._tape._recording = self._saved
        return False


def _constant(array, dtype):
    from .convert import constant
    return constant(array, dtype=dtype)


def _unconnected(out):
    from ..ops.emit import unconnected_zeros
    return unconnected_zeros(out)


def _execute(op, inputs, dtype, attrs=None):
    from .execute import execute
    return execute(op, inputs, dtype, attrs)


@contextlib.contextmanager
def _forward_device(tensor):
    """Run a gradient under the device of its forward op (eager tensors know it)."""
    device = getattr(tensor, "_device", None)
    if device is None:
        yield
        return
    token = scope_module.current.set(scope_module.make_scope(device.name, scope_module.current.get()))
    try:
        yield
    finally:
        scope_module.current.reset(token)


def _accumulate(grads, key, grad) -> None:
    previous = grads.get(key)
    if previous is None:
        grads[key] = grad
    elif isinstance(previous, IndexedSlices) or isinstance(grad, IndexedSlices):
        grads[key] = indexed_slices.add(previous, grad)
    else:
        grads[key] = _execute("AddV2", (previous, grad), grad.dtype)


def _sum(parts):
    if not parts:
        return None
    if any(isinstance(part, IndexedSlices) for part in parts):
        total = parts[0]
        for part in parts[1:]:
            total = indexed_slices.add(total, part)
        return total
    return parts[0] if len(parts) == 1 else _execute("AddN", parts, parts[0].dtype)


def _resolve(item):
    """The variable a tape tracks for `item` (a distributed variable names its current replica's copy; an
    object that acts as a resource variable, as Keras 3's Variable does, names the variable it wraps)."""
    if getattr(item, "_should_act_as_resource_variable", False):
        wrapped = getattr(item, "value", None)
        if hasattr(wrapped, "_as_tensor") and hasattr(wrapped, "assign"):
            item = wrapped
    target = getattr(item, "_watch_target", None)
    return target() if target is not None else item


def _flat(structure) -> list:
    return [] if structure is None else flatten(structure)
