"""tf.autodiff.ForwardAccumulator: forward-mode automatic differentiation (Jacobian-vector products).

While the accumulator is entered it sits on the tape stack (eager/tape.py) and sees every op the dispatcher
runs. For an op reading tensors that have tangents it computes the outputs' tangents exactly with the
"double backward" trick over the registered reverse-mode gradients: the gradient rule g(u) = J^T u is linear
in the upstream u, so J t = d <g(u), t> / du, taken at u = 1 (u = 0 is a kink of piecewise rules such as
CumulativeLogsumexp's) with an inner GradientTape. A rule the tangent cannot flow through is refused by name.

Ordering as TensorFlow's: the tangent computations of an accumulator are seen by the tapes and accumulators
entered before it (outer ones: Hessian-vector products, forward-over-forward), never by those entered after it.
Only floating-point and complex tensors carry tangents (an integer primal keeps its own tangent, but ops
do not propagate it, as in TensorFlow).
"""

from __future__ import annotations

import contextlib

from ..framework import nest
from ..ops import indexed_slices
from ..ops.registry import NOT_DIFFERENTIABLE, differentiable_ops, op_def
from . import tape as tape_module

_VALID_UNCONNECTED = ("none", "zero")
# ops whose value, not derivative, is passed on: seeing one on the upstream's path loses no tangent
_VALUE_FREE = frozenset({"ZerosLike", "OnesLike", "StopGradient", "Shape", "Size", "Rank"})


class _UpstreamPaths:
    """Sits on the tape stack while a gradient rule runs: follows which tensors derive from the upstream
    gradients and notes a non-differentiable op on that path (the tangent would be silently lost there)."""

    _recording = True

    def __init__(self, upstream):
        self.derived = {id(u) for u in upstream}
        self.keep = list(upstream)  # the ids stay valid while the rule runs
        self.blocked: set = set()
        self._watched_variables: dict = {}   # tape.variable_read's protocol: this watches no variable
        self._watch_accessed = False

    def _record(self, op, attrs, inputs, outs) -> None:
        if not any(id(x) in self.derived for x in inputs):
            return
        self.keep.extend(outs)
        self.derived.update(id(out) for out in outs)
        definition = op_def(op)
        if (definition is not None and definition.gradient is NOT_DIFFERENTIABLE and op not in _VALUE_FREE
                and any(_differentiable(out.dtype) for out in outs)):
            self.blocked.add(op)

    def reaches(self, tensor) -> bool:
        return id(tensor) in self.derived

    @contextlib.contextmanager
    def watching(self):
        stack = tape_module._stack()
        stack.append(self)
        try:
            yield self
        finally:
            stack.remove(self)


def _check_paths(op, paths, grads, tangents) -> None:
    """Refuse, by name, a gradient rule through which a tangent cannot flow (never a silent zero)."""
    if paths.blocked:
        raise NotImplementedError(f"Forward-mode differentiation (ForwardAccumulator) of '{op}' is not implemented "
                                  f"in placeflow: its gradient uses {sorted(paths.blocked)[0]}, which has no "
                                  f"gradient of its own. Use GradientTape (reverse mode) for it.")
    for grad, tangent in zip(grads, tangents):
        if grad is not None and tangent is not None and not paths.reaches(getattr(grad, "values", grad)):
            raise NotImplementedError(f"Forward-mode differentiation (ForwardAccumulator) of '{op}' is not "
                                      f"implemented in placeflow: its gradient is computed outside the ops the "
                                      f"tape sees. Use GradientTape (reverse mode) for it.")


def _differentiable(dtype) -> bool:
    return dtype.is_floating or dtype.is_complex


class _VariableReads:
    """Stands in for a tape's `_variable_reads` (tape.variable_read calls setdefault(id, []).append(key)):
    a read of a watched variable takes that variable's tangent."""

    def __init__(self, accumulator):
        self._accumulator = accumulator

    def setdefault(self, variable_id, default):
        accumulator = self._accumulator

        class _Binder:
            @staticmethod
            def append(tensor):
                tangent = accumulator._variable_tangents.get(variable_id)
                if tangent is not None:
                    accumulator._set(tensor, tangent)
        return _Binder


class ForwardAccumulator:
    """Computes Jacobian-vector products of the ops run while entered, for the given primals and tangents."""

    def __init__(self, primals, tangents):
        from .convert import convert_to_tensor
        nest.assert_same_structure(primals, tangents, check_types=False)
        self._tangents: dict = {}            # id(tensor) -> (weak reference, tangent)
        self._variable_tangents: dict = {}   # id(variable) -> tangent
        self._watched_variables: dict = {}   # tape.variable_read's protocol: id(variable) -> variable
        self._watch_accessed = False
        self._variable_reads = _VariableReads(self)
        self._recording = False
        self._entered = False
        for primal, tangent in zip(nest.flatten(primals), nest.flatten(tangents)):
            primal = tape_module._resolve(primal)
            if hasattr(primal, "_as_tensor") and hasattr(primal, "assign"):
                self._watched_variables[id(primal)] = primal
                self._variable_tangents[id(primal)] = convert_to_tensor(tangent, dtype=primal.dtype)
            else:
                primal = convert_to_tensor(primal)
                self._set(primal, convert_to_tensor(tangent, dtype=primal.dtype))

    # -- the tape-stack protocol -------------------------------------------------------------------
    def __enter__(self):
        if self._entered:
            raise ValueError("Accumulator is already recording.")
        tape_module._stack().append(self)
        self._entered = self._recording = True
        with tape_module._count_lock:
            tape_module.active_count += 1
        return self

    def __exit__(self, *exc):
        stack = tape_module._stack()
        if self in stack:
            stack.remove(self)
        self._entered = self._recording = False
        with tape_module._count_lock:
            tape_module.active_count -= 1
        return False

    def _track(self, tensor):
        return tensor  # tape.variable_read's protocol: the "key" handed to _VariableReads is the tensor itself

    def _set(self, tensor, tangent) -> None:
        self._tangents[id(tensor)] = (tape_module._reference(tensor), tangent)

    def _tangent(self, tensor):
        found = self._tangents.get(id(tensor))
        if found is not None and found[0]() is tensor:
            return found[1]
        return None

    def _record(self, op, attrs, inputs, outs) -> None:
        """Called for each op run while entered: give its floating outputs their tangents."""
        tangents = [self._tangent(x) for x in inputs]
        tangents = [t if t is not None and _differentiable(t.dtype) else None for t in tangents]
        if all(t is None for t in tangents):
            return
        attrs = attrs or {}
        custom = attrs.get(tape_module.CUSTOM_GRADIENT)
        definition = op_def(op) if custom is None else None
        grad_fn = custom if custom is not None else (definition.gradient if definition is not None else None)
        if grad_fn is NOT_DIFFERENTIABLE:
            return
        if grad_fn is None:
            raise LookupError(f"No gradient defined for operation '{op}' (forward-mode needs it). placeflow "
                              f"defines gradients for: {', '.join(sorted(differentiable_ops()))}.")
        if not any(_differentiable(out.dtype) for out in outs):
            return
        with self._inner_paused():
            out_tangents = _jvp(grad_fn, op, attrs, inputs, outs, tangents)
        for out, tangent in zip(outs, out_tangents):
            if tangent is not None:
                self._set(out, tangent)

    @contextlib.contextmanager
    def _inner_paused(self):
        """This accumulator and everything entered after it stop recording (outer ones keep recording)."""
        stack = tape_module._stack()
        inner = stack[stack.index(self):] if self in stack else [self]
        saved = [(item, item._recording) for item in inner]
        for item in inner:
            item._recording = False
        try:
            yield
        finally:
            for item, recording in saved:
                item._recording = recording

    # -- the public method -------------------------------------------------------------------------
    def jvp(self, primals, unconnected_gradients="none"):
        """The tangents of `primals` (a nested structure of tensors computed while the accumulator was entered):
        None (or zeros with unconnected_gradients='zero') for those that do not depend on the watched primals."""
        unconnected = getattr(unconnected_gradients, "value", unconnected_gradients)
        if unconnected not in _VALID_UNCONNECTED:
            raise ValueError(f"{unconnected_gradients!r} is not a valid UnconnectedGradients")

        def one(tensor):
            if not hasattr(tensor, "dtype") or not hasattr(tensor, "shape"):
                raise AttributeError(f"'{type(tensor).__name__}' object has no attribute '_id'")
            tangent = self._tangent(tensor)
            if tangent is None and unconnected == "zero":
                with self._inner_paused():
                    return tape_module._execute("ZerosLike", (tensor,), tensor.dtype)
            return tangent
        return nest.pack_as(primals, [one(t) for t in nest.flatten(primals)])


def _jvp(grad_fn, op, attrs, inputs, outs, tangents) -> list:
    """The outputs' tangents of one op: J t = d <g(u), t> / du with g its gradient rule (linear in u)."""
    from .tape import GradientTape, Entry, _as_tensors
    entry = Entry(op, attrs, _as_tensors(inputs), list(outs))
    with GradientTape(watch_accessed_variables=False, persistent=True) as inner:
        upstream = []
        for out in outs:
            u = tape_module._execute("OnesLike", (out,), out.dtype)  # any u: the rule is linear in it
            if _differentiable(out.dtype):
                inner.watch(u)
            upstream.append(u)
        paths = _UpstreamPaths(upstream)
        with tape_module._forward_device(outs[0]), paths.watching():
            grads = grad_fn(entry, *upstream)
        unconnected = getattr(grad_fn, "unconnected", None)  # a function call's: inputs no output depends on
        if unconnected is not None:
            grads = [None if cut else g for g, cut in zip(grads, unconnected)]
        _check_paths(op, paths, grads, tangents)
        terms = []
        for grad, tangent in zip(grads, tangents):
            if grad is None or tangent is None:
                continue
            grad = indexed_slices.densify(grad)
            if grad.dtype != tangent.dtype:
                continue
            if tangent.dtype.is_complex:  # gradients are conjugated (TF's convention): J t = conj(d <g(u), conj t> / du)
                tangent = tape_module._execute("Conj", (tangent,), tangent.dtype)
            product = tape_module._execute("Mul", (grad, tangent), grad.dtype)
            terms.append(_reduce_sum(product))
        if not terms:
            return [None] * len(outs)
        total = terms[0] if len(terms) == 1 else tape_module._execute("AddN", terms, terms[0].dtype)
    watched = [u for u, out in zip(upstream, outs) if _differentiable(out.dtype)]
    results = iter(indexed_slices.densify(g) if g is not None else None for g in inner.gradient(total, watched))
    return [next(results) if _differentiable(out.dtype) else None for out in outs]


def _reduce_sum(tensor):
    return tape_module._execute("Sum", (tensor,), tensor.dtype, {"axis": None, "keepdims": False})
