"""placeflow.function: trace a Python function into a graph once per input signature, then run the graph.

A signature is the dtype, shape and device of each tensor argument plus the value of every other
argument; a new signature traces again. The traced graph is placed by the graph placer (soft
placement on, as in TensorFlow), pruned to its outputs and stateful ops, and compiled once into an
execution plan; a call then costs a dictionary lookup plus the plan.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import logging
import threading
import weakref

import numpy as np

from ..config import context as context_module
from ..config.placement_log import logger as placement_logger
from ..eager import tape
from ..eager.convert import host_array
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..framework import errors, graph_mode, nest
from ..framework.device_spec import DeviceSpec
from ..ops.debug import SIDE_EFFECT_OPS
from ..framework.tensor_spec import TensorSpec, TypeSpec
from ..placement import cost_model, cost_model_placer, policy
from ..placement.scope import current as current_scope
from ..runtime import registry
from . import error_layout, pipeline, step_stats
from .graph import VALID_OP_NAME, Graph, Tensor

_ids = itertools.count(1)


class InaccessibleTensorError(ValueError):
    """A tensor used outside the graph (a loop or branch body) that made it, as TF's class of that name."""


def out_of_scope(tensor, graph) -> InaccessibleTensorError:
    """TF's error for `tensor`, made inside a body graph that has ended, used in `graph`: its text lists where
    the tensor was made."""
    frames = "".join(f"    File \"{file}\", line {line}, in {function}\n"
                     for file, line, function in tensor.op.creation_frames)
    return InaccessibleTensorError(
        f"{tensor!r} is out of scope and cannot be used here. Use return values, explicit Python locals or "
        f"TensorFlow collections to access it.\nPlease see https://www.tensorflow.org/guide/function"
        f"#all_outputs_of_a_tffunction_must_be_return_values for more information.\n\n{tensor!r} was defined "
        f"here:\n{frames}\nThe tensor {tensor!r} cannot be accessed from FuncGraph(name={graph.name}), because it "
        f"was defined in FuncGraph(name={getattr(tensor.op.graph, 'name', '?')}), which is out of scope.")


def encloses(graph, other) -> bool:
    """Whether `graph` is `other` or one of the graphs `other` (a body) is nested in."""
    while other is not None:
        if other is graph:
            return True
        other = getattr(other, "outer", None)
    return False


class FuncGraph(Graph):
    """The graph of one trace. Variables created while tracing are lifted out and created eagerly."""

    is_function_graph = True

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.first_trace = True
        self.created_variables: list = []   # the variables this trace (its bodies included) created
        self.initializes_in_graph = False   # one of them takes its initial value when the trace runs

    def create_op(self, op_type, inputs, attrs=None, dtype=None, name=None, outputs=(), resource=None):
        """Graph.create_op, refusing an input from a loop or branch body that has ended (TF's error)."""
        for tensor in inputs:   # a tensor of a loop or branch body that has ended: TF's error, naming it
            if tensor.op.graph is not self and encloses(self, tensor.op.graph):
                raise out_of_scope(tensor, self)
        return super().create_op(op_type, inputs, attrs, dtype, name, outputs, resource)

    def lift_variable(self, *args, **kwargs):
        """Create a Variable eagerly, outside the trace (allowed on the first trace only). An initial value
        computed by the trace (e.g. from the function's inputs) is assigned by the trace itself when it runs:
        the variable is made eagerly with zeros of that shape, and the first call initializes it, as TF's
        conditional initialization does."""
        if not self.first_trace:
            raise ValueError("placeflow.function only supports singleton Variables created on the first call. "
                             "Make sure the Variable is only created once or created outside placeflow.function.")
        from .static_values import static_value
        from .v1_api import init_scope
        root = self
        while getattr(root, "outer", None) is not None:
            root = root.outer
        if len(args) > len(_VARIABLE_PARAMETERS):
            with init_scope():
                return Variable(*args, **kwargs)   # Python's TypeError for the extra arguments
        bound = dict(zip(_VARIABLE_PARAMETERS, args), **kwargs)
        initial = bound.get("initial_value")
        in_graph = isinstance(initial, Tensor)
        if in_graph and static_value(initial) is not None:   # known while tracing: created with its value
            bound["initial_value"], in_graph = static_value(initial), False
        if in_graph:
            bound["initial_value"] = _placeholder_value(initial)
        with init_scope():
            variable = Variable(**bound)
        if in_graph:
            variable.assign(initial, read_value=False)   # a write of this trace: runs on the first call
            root.initializes_in_graph = True
        root.created_variables.append(variable)
        return variable


_VARIABLE_PARAMETERS = ("initial_value", "trainable", "name", "dtype", "shape", "synchronization", "aggregation",
                        "constraint")


def _placeholder_value(initial):
    """Zeros of a traced initial value's shape and dtype (what the variable holds until the first call)."""
    shape = initial.shape
    if shape is None or None in tuple(shape):
        raise NotImplementedError(f"A Variable created inside placeflow.function from a value the function computes "
                                  f"needs a fully known shape; got {initial!r}. Create it outside the function, or "
                                  f"from a value whose shape is known when the function is traced.")
    dtype = initial.dtype.numpy_dtype
    return np.full(tuple(shape), b"" if dtype == np.object_ else 0, dtype)


class ConcreteFunction:
    """One trace: its graph, argument and output tensors, and (after the first call) its plan."""

    def __init__(self, name, graph, arg_tensors, outputs_structure, output_leaves, output_template=None):
        self.name, self.graph = name, graph
        self.inputs = arg_tensors
        self.structured_outputs = outputs_structure
        self._output_template = outputs_structure if output_template is None else output_template
        self._leaves = output_leaves
        self._plan = None
        self._build_lock = threading.Lock()
        self._ran_on = None
        self._placed_by = None   # (cost-model placement: {op: device}, the measurements it saw), else None
        self._initializing = None   # the trace that created (and initializes) its variables: runs the first call
        self.function_name = f"__inference_{name}_{next(_ids)}"

    def _build(self, ctx) -> None:
        """Place the graph, prune it to its outputs and stateful ops, and compile its plan (first call)."""
        reasons: dict = {}
        placed = pipeline.place(self.graph.get_operations(), {}, ctx, ctx.soft_device_placement,
                                ctx.log_device_placement, reasons)
        self._placed_by = (dict(placed), cost_model.measurements_version()) if ctx.placer == "cost_model" else None
        fetch_tensors = [leaf for leaf in self._leaves if isinstance(leaf, Tensor)]
        stateful = [op for op in self.graph.get_operations()
                    if (op.resource is not None and op.type != "ReadVariableOp") or op.type in SIDE_EFFECT_OPS
                    or op.attrs.get("_stateful")]
        plan = pipeline.plan(fetch_tensors, self.inputs, placed, targets=stateful, reasons=reasons)
        used = {n.device.name: n.device for n in plan.nodes if n.kind not in ("const", "feed", "send")}
        self._ran_on = next(iter(used.values())) if len(used) == 1 else registry.devices(ctx)[0]
        self._plan = plan

    def _replace_if_drifted(self) -> None:
        """The cost-model placer's rule: times measured since this trace was placed that differ enough from the
        model's (cost_model_placer.drifted) make the next call place and plan it again."""
        with self._build_lock:
            if self._placed_by is None or self._placed_by[1] == cost_model.measurements_version():
                return
            placed, _ = self._placed_by
            self._placed_by = (placed, cost_model.measurements_version())
            if cost_model_placer.drifted(placed):
                self._plan = None

    def pretty_printed_signature(self, verbose=True) -> str:
        """The trace's arguments, output and captured variables as text (TF's layout)."""
        inputs = "\n".join(f"  {t.op.name} (POSITIONAL_OR_KEYWORD): {TensorSpec(t.shape, t.dtype, t.op.name)!r}"
                            for t in self.inputs) or "  None"
        outputs = nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype) if isinstance(t, Tensor) else t,
                                     self.structured_outputs)
        captures = "\n".join(f"  {v.name}: {TensorSpec(v.shape, v.dtype)!r}" for v in self.variables) or "  None"
        return f"Input Parameters:\n{inputs}\nOutput Type:\n  {outputs!r}\nCaptures:\n{captures}"

    @property
    def variables(self) -> tuple:
        """The variables the trace reads or writes (its branch and loop bodies' too), each once."""
        found: dict = {}
        graphs = [self.graph]
        while graphs:
            for op in graphs.pop().get_operations():
                if isinstance(op.resource, Variable):
                    found.setdefault(id(op.resource), op.resource)
                graphs.extend(value._function.graph for value in op.attrs.values()
                              if getattr(value, "_function", None) is not None)
        return tuple(found.values())

    @property
    def trainable_variables(self) -> tuple:
        """The trainable ones of `variables`."""
        return tuple(v for v in self.variables if v.trainable)

    @property
    def structured_input_signature(self):
        """The (args, kwargs) specs of the tensor arguments this trace takes, as TensorSpecs."""
        return tuple(TensorSpec(t.shape, t.dtype, t.op.name) for t in self.inputs), {}

    def __call__(self, *args, **kwargs):
        """Run the traced graph on tensor arguments matching the shapes and dtypes it was traced for."""
        from ..eager.convert import convert_to_tensor
        leaves = list(args) + self._keyword_leaves(len(args), kwargs)
        if len(leaves) != len(self.inputs):  # nested structures: their tensor leaves, in order
            leaves = [a for a in nest.flatten((args, kwargs), True) if isinstance(a, EagerTensor)]
        if len(leaves) != len(self.inputs):
            raise TypeError(f"{self.function_name} takes {len(self.inputs)} tensor arguments, got {len(leaves)}: "
                            f"{args!r}. Pass one tensor per traced argument ({self.structured_input_signature}).")
        tensors = []
        for value, placeholder in zip(leaves, self.inputs):
            tensor = value if isinstance(value, EagerTensor) else convert_to_tensor(value, dtype=placeholder.dtype)
            spec = TensorSpec(placeholder.shape, placeholder.dtype)
            if not spec.is_compatible_with(tensor):
                raise TypeError(f"Binding inputs to {self.function_name} failed: can not cast "
                                f"{TensorSpec(tuple(tensor.shape), tensor.dtype)!r} to {spec!r}. Call it with "
                                f"tensors matching the traced signature, or get a new concrete function.")
            tensors.append(tensor)
        return self.call_flat(tensors)

    def _keyword_leaves(self, positional: int, kwargs: dict) -> list:
        """Keyword arguments in the order of the traced arguments they name (TF binds them by name: f(b=.., a=..)
        is f(a, b)); an unknown name is TF's TypeError. Nested keyword structures keep their given order."""
        names = [t.op.name for t in self.inputs[positional:]]
        unknown = [k for k in kwargs if k not in names]
        if not unknown:
            return [kwargs[name] for name in names if name in kwargs]
        if all(not isinstance(v, (list, tuple, dict)) for v in kwargs.values()):
            raise TypeError(f"Binding inputs to {self.function_name} failed: got an unexpected keyword argument "
                            f"{unknown[0]!r}; its arguments after the {positional} positional one(s): {names}.")
        return list(kwargs.values())

    def call_flat(self, tensors):
        """Run on the flat list of eager tensor arguments; returns the outputs in their structure. Under an
        active GradientTape the call is recorded, so gradients flow through it (function_gradient.py)."""
        if self._initializing is not None:
            initializing = self._take_initializing()
            if initializing is not None:
                return initializing.call_flat(tensors)
        try:
            leaves = self._call_leaves(tensors)
        except errors.OpError as error:
            laid_out = error_layout.in_function_layout(error, self.function_name)
            if laid_out is error:
                raise
            raise laid_out from error.__cause__  # the kernel's own error stays the cause
        result = self._packed(leaves)
        if tape.active_count:
            from .function_gradient import record_call
            record_call(self, list(tensors), leaves)
        return result

    def _take_initializing(self):
        """The initializing trace, once (the first call runs it; later calls run this one)."""
        with self._build_lock:
            initializing, self._initializing = self._initializing, None
        return initializing

    def _call_flat(self, tensors):
        """call_flat without TF's error layout: a branch or loop body's errors are laid out by its caller."""
        return self._packed(self._call_leaves(tensors))

    def _packed(self, leaves):
        if self.structured_outputs is None and not leaves:
            return None  # a body run for its effects (a cond whose branches return None)
        return nest.pack_as(self._output_template, leaves, True)

    def _call_leaves(self, tensors) -> list:
        """The output leaves of one run (eager tensors, and the Python values the trace returned)."""
        ctx = context_module._context or context_module.context()
        if self._placed_by is not None and self._placed_by[1] != cost_model.measurements_version():
            self._replace_if_drifted()
        if self._plan is None:
            with self._build_lock:
                if self._plan is None:
                    self._build(ctx)
        plan = self._plan
        values = self._run(plan, tensors, ctx)
        if ctx.log_device_placement:
            placement_logger.info("Executing op %s in device %s", self.function_name, self._call_device(ctx).name)
        results = iter([EagerTensor(plan.nodes[i].device.charge(v), plan.nodes[i].device)
                        for (i, _), v in zip(plan.fetches, values)])
        return [next(results) if isinstance(leaf, Tensor) else leaf for leaf in self._leaves]

    def _call_device(self, ctx):
        """Where the call ran, as TensorFlow logs it: the device the call was pinned to, else the one
        device every node ran on, else the default device."""
        scope = current_scope.get()
        if scope is not None and scope.key:
            spec = DeviceSpec.from_string(scope.key)
            found = policy.matching(registry.devices(ctx), spec, registry.DEVICE_TYPE_PRIORITY)
            if found:
                return found[0]
        return self._ran_on

    def _run(self, plan, tensors, ctx) -> list:
        feeds = [t._value for t in tensors]
        if not step_stats.function_step_listeners:
            return pipeline.run(plan, feeds, ctx.threads("inter"), ctx.threads("intra"))
        stats = step_stats.StepStats()
        collector = step_stats.StepStatsCollector(stats)
        values = pipeline.run(plan, feeds, ctx.threads("inter"), ctx.threads("intra"), collector)
        for listener in list(step_stats.function_step_listeners):
            listener(stats)
        return values


class Function:
    """A Python function that runs as a placed, planned graph (TensorFlow's tf.function)."""

    def __init__(self, python_function, input_signature=None, name=None, reduce_retracing=False, autograph=True):
        self._python_function = python_function
        self._autograph = bool(autograph)
        self._signature = inspect.signature(python_function)
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = _checked_signature(input_signature)
        self._reduce_retracing = bool(reduce_retracing)
        self._relaxed: dict = {}  # reduce_retracing: (dtypes, ranks, devices, structure) -> shapes seen so far
        self._cache: dict = {}
        self._tracing_count = 0
        self._trace_locks: dict = {}  # cache key -> lock: first calls from several threads trace once
        self._trace_locks_lock = threading.Lock()
        self._bound: dict = {}   # id(instance) -> (weak reference to it, its Function): methods, see __get__
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self):
        """The wrapped Python function."""
        return self._python_function

    @property
    def input_signature(self):
        """The TensorSpecs every call must match, or None."""
        return self._input_signature

    def _list_all_concrete_functions(self) -> list:
        """Every trace made so far, each once (TF's name; Keras's export reads it)."""
        seen: dict = {}
        for concrete in list(self._cache.values()):
            seen.setdefault(id(concrete), concrete)
        return list(seen.values())

    def experimental_get_tracing_count(self) -> int:
        """How many times the function has been traced."""
        return self._tracing_count

    def __get__(self, instance, owner):
        """One Function (and trace cache) per instance. As in TF, it holds the instance weakly (so a decorated
        method keeps no instance alive) and is dropped with it; an instance that cannot be weakly referenced
        keeps its Function in its own __dict__."""
        if instance is None:
            return self
        key = id(instance)
        entry = self._bound.get(key)
        if entry is not None and entry[0]() is instance:
            return entry[1]
        try:
            reference = weakref.ref(instance, functools.partial(_forget_instance, self._bound, key))
        except TypeError:
            return self._bound_on_instance(instance, owner)
        bound = Function(_WeakMethod(self._python_function, reference), self._input_signature, self._name,
                         self._reduce_retracing, self._autograph)
        with self._trace_locks_lock:   # threads binding at once share one Function
            entry = self._bound.get(key)
            if entry is None or entry[0]() is not instance:
                entry = self._bound[key] = (reference, bound)
        return entry[1]

    def _existing_binding(self, instance):
        """The Function __get__ bound to `instance` so far, or None (SavedModel export lists those)."""
        entry = self._bound.get(id(instance))
        if entry is not None and entry[0]() is instance:
            return entry[1]
        return getattr(instance, "__dict__", {}).get(f"_placeflow_function_{id(self)}")

    def _bound_on_instance(self, instance, owner):
        """The Function of an instance that has no weak references, kept on the instance (or made per call)."""
        slot = f"_placeflow_function_{id(self)}"
        bound = getattr(instance, "__dict__", {}).get(slot)
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self._input_signature, self._name,
                             self._reduce_retracing, self._autograph)
            if hasattr(instance, "__dict__"):  # setdefault is atomic: threads binding at once share one Function
                bound = instance.__dict__.setdefault(slot, bound)
        return bound

    def __call__(self, *args, **kwargs):
        if graph_mode.active() is not None or _functions_run_eagerly:  # inline the Python body (in another
            body = self._python_function                                # graph being built, or run eagerly)
            if self._autograph and autograph_converter is not None and not _functions_run_eagerly:
                body = _autograph_of(body)   # converted as its own trace would be
            return body(*args, **kwargs)
        if self._input_signature is not None:
            tensors = self._bind_signature(args, kwargs)
            return self._concrete_for_signature().call_flat(tensors)
        key = _fast_key(args, kwargs)
        if key is not None:
            concrete = self._cache.get(key)
            if concrete is None:
                concrete = self._cache[key] = self._concrete(args, kwargs)[0]
            tensors = args if len(concrete.inputs) == len(args) else [a for a in args if a.__class__ is EagerTensor]
            return concrete.call_flat(tensors)
        concrete, tensors = self._concrete(args, kwargs)
        return concrete.call_flat(tensors)

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The trace for these arguments (traced now if new); with an input_signature, no arguments needed.
        Arguments may be TensorSpecs: the trace then takes any tensor matching the spec."""
        if self._input_signature is not None:
            if args or kwargs:
                self._bind_signature(args, kwargs)
            return self._concrete_for_signature()
        if any(isinstance(leaf, TensorSpec) for leaf in nest.flatten((args, kwargs), True)):
            args, kwargs = nest.map_structure(_spec_to_argument, (args, kwargs))
        return self._concrete(args, kwargs)[0]

    def _bind_signature(self, args, kwargs) -> list:
        """The call's arguments as tensors matching the input_signature, in its order (TypeError if not)."""
        from ..eager.convert import convert_to_tensor
        specs = self._input_signature
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"Binding inputs to tf.function failed due to `{exc}`. Received args: {args} and "
                            f"kwargs: {kwargs} for signature: {self._signature}.") from None
        values = list(bound.args) + list(bound.kwargs.values())
        if len(values) != len(specs):
            raise TypeError(f"Binding inputs to tf.function failed due to `{len(values)} arguments for an "
                            f"input_signature of {len(specs)}`. Received args: {args} and kwargs: {kwargs}.")
        tensors = []
        for value, spec in zip(values, specs):
            if isinstance(value, TensorSpec):   # get_concrete_function(spec): the spec must fit the signature's
                tensor = value
            else:
                tensor = value if isinstance(value, EagerTensor) else convert_to_tensor(value, dtype=spec.dtype)
            if not spec.is_compatible_with(tensor):
                got = value if isinstance(value, TensorSpec) else TensorSpec(tuple(tensor.shape), tensor.dtype)
                raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast {got!r} to {spec!r}`. "
                                f"Received args: {args} and kwargs: {kwargs} for signature: {self._signature}.")
            tensors.append(tensor)
        return tensors

    def _concrete_for_signature(self) -> ConcreteFunction:
        key = ("input_signature", _call_context())
        concrete = self._cache.get(key)
        if concrete is None:
            with self._trace_lock(key):
                concrete = self._cache.get(key)
                if concrete is None:
                    specs = self._input_signature
                    placeholders = [_SpecArgument(spec) for spec in specs]
                    concrete = self._cache[key] = self._trace(tuple(placeholders), {},
                                                              [_spec_shape(spec) for spec in specs])
        return concrete

    def _concrete(self, args, kwargs):
        leaves = []
        structure = _walk((args, kwargs), leaves)
        if any(isinstance(leaf, np.ndarray) for leaf in leaves):
            args, kwargs = _tensors_from_arrays(args), _tensors_from_arrays(kwargs)
            leaves = []
            structure = _walk((args, kwargs), leaves)
        tensors = [leaf for leaf in leaves if isinstance(leaf, EagerTensor)]
        key = (_signature_key(leaves, structure), _call_context())
        concrete = self._cache.get(key)
        if concrete is None:
            shapes = self._relaxed_shapes(leaves, structure) if self._reduce_retracing else None
            traced_key = key if shapes is None else (("relaxed", tuple(shapes)), key[0][1], key[1])
            with self._trace_lock(traced_key):
                concrete = self._cache.get(traced_key)
                if concrete is None:
                    concrete = self._cache[traced_key] = self._relaxed_or_exact(args, kwargs, shapes, key)
            self._cache[key] = concrete
        return concrete, tensors

    def _relaxed_or_exact(self, args, kwargs, shapes, key):
        """The trace with relaxed `shapes`; where placeflow needs a dimension known while building that the
        relaxation left unknown (NotImplementedError naming it, e.g. a TensorArray's element shape in a Keras
        LSTM when the last batch is smaller), the trace of this call's exact shapes instead."""
        if shapes is None:
            return self._trace(args, kwargs, None)
        try:
            return self._trace(args, kwargs, shapes)
        except NotImplementedError:
            exact = self._cache.get(key)
            return exact if exact is not None else self._trace(args, kwargs, None)

    def _relaxed_shapes(self, leaves, structure):
        """reduce_retracing: the shapes to trace with, generalized (None) where calls of the same dtypes and
        ranks differed; None for the first call of its kind (traced with its exact shapes, as TF)."""
        tensors = [leaf for leaf in leaves if isinstance(leaf, EagerTensor)]
        kind = (_signature_key([leaf if not isinstance(leaf, EagerTensor) else None for leaf in leaves], structure),
                tuple((t._value.dtype, len(t.shape), t._device) for t in tensors), _call_context())
        shapes = [tuple(t.shape) for t in tensors]
        with self._trace_locks_lock:
            seen = self._relaxed.get(kind)
            if seen is None:
                self._relaxed[kind] = shapes
                return None
            merged = [tuple(a if a == b else None for a, b in zip(old, new)) for old, new in zip(seen, shapes)]
            self._relaxed[kind] = merged
        return merged

    def _trace_lock(self, key):
        """One lock per trace: calls that need different traces (e.g. each replica's) never wait for each
        other, so a trace paused in a merge call cannot block another replica's."""
        with self._trace_locks_lock:
            return self._trace_locks.setdefault(key, threading.RLock())

    def _trace(self, args, kwargs, shapes=None) -> ConcreteFunction:
        """The trace calls with these arguments run. As in TF, a first trace that created variables is traced
        again, and the second trace is the one calls run: creating variables there (on any call but the first)
        raises ValueError. The first trace runs once, for the first call, when it initializes a variable from a
        value it computes."""
        concrete = self._trace_once(args, kwargs, shapes)
        if not concrete.graph.created_variables:
            return concrete
        again = self._trace_once(args, kwargs, shapes)
        if concrete.graph.initializes_in_graph:
            again._initializing = concrete
        return again

    def _trace_once(self, args, kwargs, shapes=None) -> ConcreteFunction:
        with self._trace_locks_lock:
            self._tracing_count += 1
            first = self._tracing_count == 1
        graph = FuncGraph(self._name)
        graph.first_trace = first
        names = _argument_names(self._signature, args, kwargs)
        body = self._python_function
        if self._autograph and autograph_converter is not None:  # tensor if/while become cond/while_loop
            body = _autograph_of(body)
        for traced in {id(self._python_function): self._python_function, id(body): body}.values():
            error_layout.name_nested_code(traced)
        with graph.as_default():
            symbolic_args, arg_tensors = _symbolic_arguments(graph, (args, kwargs), names, shapes)
            call_args, call_kwargs = symbolic_args
            outputs = body(*call_args, **call_kwargs)
            template = _output_template(outputs)
            leaves = [_graph_output(graph, leaf) for leaf in nest.flatten(template, True)]
        return ConcreteFunction(self._name, graph, arg_tensors, outputs, leaves, template)


def _forget_instance(table: dict, key: int, reference) -> None:
    """A weak reference's callback: drop the dead instance's bound Function (unless the id was reused)."""
    entry = table.get(key)
    if entry is not None and entry[0] is reference:
        table.pop(key, None)


class _WeakMethod:
    """A method bound to an instance held weakly: the python function of a Function decorating a method. It
    looks like a bound method (__func__, __self__, the signature without `self`) to tracing. As TF's, it passes
    None as `self` once the instance is gone (`Model().method(x)` drops the instance before the call: a method
    that does not use `self` still runs)."""

    def __init__(self, function, reference):
        self.__func__, self._reference = function, reference
        for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
            setattr(self, attribute, getattr(function, attribute, None))
        parameters = list(inspect.signature(function).parameters.values())[1:]
        self.__signature__ = inspect.signature(function).replace(parameters=parameters)

    @property
    def __self__(self):
        return self._reference()

    def __call__(self, *args, **kwargs):
        return self.__func__(self._reference(), *args, **kwargs)

    def __get__(self, instance, owner):
        return self

    def with_function(self, function) -> "_WeakMethod":
        """The same weak binding of another function (the method's AutoGraph rewrite)."""
        return _WeakMethod(function, self._reference)


def _autograph_of(fn):
    """`fn` with AutoGraph's rewrite (a weakly bound method keeps its weak binding)."""
    if isinstance(fn, _WeakMethod):
        return fn.with_function(autograph_converter(fn.__func__))
    return autograph_converter(fn)


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None,
             name=None):
    """Compile `func` into a placed graph traced once per input signature (usable as a decorator)."""
    if jit_compile or experimental_compile:
        _log_no_xla_once()
    _refuse_unimplemented(experimental_implements=experimental_implements,
                          experimental_autograph_options=experimental_autograph_options,
                          experimental_attributes=experimental_attributes,
                          experimental_follow_type_hints=experimental_follow_type_hints)
    reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
    if func is None:
        return lambda f: Function(f, input_signature, name, reduce_retracing, autograph)
    return Function(func, input_signature, name, reduce_retracing, autograph)


_functions_run_eagerly = False


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Make every `function` call run its Python body eagerly (for debugging), or trace again."""
    global _functions_run_eagerly
    _functions_run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether `function` calls run eagerly (run_functions_eagerly)."""
    return _functions_run_eagerly


_no_xla_logged = []


def _log_no_xla_once() -> None:
    """jit_compile=True (which Keras asks for) runs as a plain function: placeflow has no XLA. Said once."""
    if not _no_xla_logged:
        _no_xla_logged.append(True)
        logging.getLogger("placeflow").warning(
            "placeflow has no XLA: function(jit_compile=True) runs as a plain placeflow.function (a traced graph, "
            "placed, planned and run op by op, without fusion). This is logged once.")


def _refuse_unimplemented(**options) -> None:
    """`function` options placeflow does not implement raise when set, never pass silently."""
    given = sorted(name for name, value in options.items() if value)
    if given:
        raise NotImplementedError(f"placeflow.function does not implement {', '.join(given)}; leave "
                                  f"{' and '.join(given)} unset (placeflow has no XLA, and traces Python as is).")


def _checked_signature(signature):
    if signature is None:
        return None
    other = next((s for s in signature if isinstance(s, TypeSpec) and not isinstance(s, TensorSpec)), None) \
        if isinstance(signature, (list, tuple)) else None
    if other is not None:
        raise NotImplementedError(f"A placeflow.function input_signature holding a {type(other).__name__} is not "
                                  f"implemented (traced functions take dense tensors); got {other!r}.")
    if not isinstance(signature, (list, tuple)) or not all(isinstance(s, TensorSpec) for s in signature):
        raise TypeError(f"input_signature must be a list of placeflow.TensorSpec (nested structures are not "
                        f"implemented), got {signature!r}.")
    return tuple(signature)


_PLAIN_VALUES = frozenset({type(None), bool, int, float, str})


def _fast_key(args, kwargs):
    """The cache key of a call whose positional arguments are eager tensors and plain Python values (the
    common case: a training step's batch, sample weights None, a batch size), else None."""
    if kwargs:
        return None
    parts = []
    for a in args:
        cls = a.__class__
        if cls is EagerTensor:
            parts.append((a._value.dtype, a._value.shape, a._device))
        elif cls in _PLAIN_VALUES:
            parts.append(("value", cls, a))   # a new value traces again, as in TensorFlow
        else:
            return None
    return tuple(parts), _call_context()


autograph_converter = None  # fn -> fn with tensor if/while rewritten (set by the api layer's autograph)
call_context_hooks: list = []  # fn() -> hashable: what else about the call site selects a trace (distribute adds
                               # the strategy and replica: each replica of strategy.run traces its own graph)


def _call_context() -> tuple:
    """What about the call site, besides the arguments, selects a trace: the device scope (its ops are
    placed by it when traced) and whatever upper layers registered."""
    scope = current_scope.get()
    where = None if scope is None else (scope.key, scope.fn)
    if not call_context_hooks:
        return (where,)
    return (where,) + tuple(hook() for hook in call_context_hooks)


def _tensors_from_arrays(structure):
    leaves = nest.flatten(structure)
    if not any(isinstance(leaf, np.ndarray) for leaf in leaves):
        return structure
    from ..eager.convert import convert_to_tensor
    return nest.pack_as(structure, [convert_to_tensor(x) if isinstance(x, np.ndarray) else x for x in leaves])


def _signature_key(leaves, structure):
    parts = []
    for leaf in leaves:
        if isinstance(leaf, EagerTensor):
            parts.append((leaf._value.dtype, leaf._value.shape, leaf._device))
        elif isinstance(leaf, _SpecArgument):
            parts.append(("spec", leaf.dtype, leaf.shape))
        elif isinstance(leaf, Variable):
            parts.append(("variable", id(leaf)))
        else:
            try:
                hash(leaf)
                parts.append(("value", type(leaf), leaf))
            except TypeError:
                parts.append(("object", id(leaf)))
    return tuple(parts), structure


def _walk(structure, leaves: list):
    """Append the leaves of `structure` (as nest.flatten with composites expanded) to `leaves`; return a
    hashable description of its nesting (one pass for both: this runs on every call)."""
    if isinstance(structure, dict):
        keys = sorted(structure, key=str)
        return ("dict",) + tuple((str(k), _walk(structure[k], leaves)) for k in keys)
    if isinstance(structure, (list, tuple)):
        return (type(structure).__name__,) + tuple(_walk(item, leaves) for item in structure)
    if hasattr(type(structure), "_nest_components"):
        return (type(structure).__name__,) + tuple(_walk(item, leaves) for item in structure._nest_components())
    leaves.append(structure)
    return "*"


def _argument_names(signature, args, kwargs) -> list:
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return []
    names = []
    for name, value in bound.arguments.items():
        count = len([leaf for leaf in nest.flatten(value, True) if isinstance(leaf, (EagerTensor, _SpecArgument))])
        names.extend([name] if count == 1 else [f"{name}_{i}" for i in range(count)])
    return names


def _spec_to_argument(leaf):
    return _SpecArgument(leaf) if isinstance(leaf, TensorSpec) else leaf


def _spec_shape(spec):
    """A spec's shape as a graph tensor's: a tuple, or None when the rank is unknown (TensorSpec(None))."""
    return None if spec.shape.rank is None else tuple(spec.shape)


class _SpecArgument:
    """An input_signature entry standing in for an argument while tracing: a dtype and shape, no value."""

    def __init__(self, spec):
        self.dtype, self.shape, self.device = spec.dtype, _spec_shape(spec), None
        self.name = spec.name


def _symbolic_arguments(graph, structure, names, shapes=None):
    """The traced graph's `_Arg` tensors for the tensor leaves of `structure` (shapes: what to trace with,
    None dimensions allowed; default: each tensor's own)."""
    leaves = nest.flatten(structure, True)
    tensors, replaced = [], []
    for leaf in leaves:
        if isinstance(leaf, _SpecArgument):
            name = leaf.name or (names[len(tensors)] if len(tensors) < len(names) else "args")
            if not VALID_OP_NAME.fullmatch(name):
                name = "Placeholder"
            op = graph.create_op("_Arg", [], {}, leaf.dtype, name, [(leaf.dtype, leaf.shape)])
            tensors.append(op.outputs[0])
            replaced.append(op.outputs[0])
        elif isinstance(leaf, EagerTensor):
            name = names[len(tensors)] if len(tensors) < len(names) else "args"
            if not VALID_OP_NAME.fullmatch(name):  # e.g. a parameter `_x`: TensorFlow's default name
                name = "Placeholder"
            shape = tuple(leaf.shape) if shapes is None else shapes[len(tensors)]
            op = graph.create_op("_Arg", [], {"_pinned_device": leaf.device}, leaf.dtype, name, [(leaf.dtype, shape)])
            tensors.append(op.outputs[0])
            replaced.append(op.outputs[0])
        else:
            replaced.append(leaf)
    return nest.pack_as(structure, replaced, True), tensors


class _OutputParts:
    """A returned SparseTensor, RaggedTensor or IndexedSlices, seen by nest as its component tensors (which the
    function returns) and rebuilt from their values after each call, as TF returns composite tensors."""

    def __init__(self, value):
        self.value = value

    def _nest_components(self) -> tuple:
        return tuple(self.value._function_output_parts())

    def _nest_rebuild(self, parts):
        return self.value._from_function_output_parts(parts)


def _output_template(structure):
    """`structure` with its composite tensors (classes defining `_function_output_parts`) as _OutputParts."""
    if hasattr(type(structure), "_function_output_parts"):
        return _OutputParts(structure)
    if isinstance(structure, dict):
        return type(structure)((k, _output_template(v)) for k, v in structure.items())
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*(_output_template(v) for v in structure))
    if isinstance(structure, (list, tuple)):
        return type(structure)(_output_template(v) for v in structure)
    return structure


_NUMBERS = (bool, int, float, complex, np.generic, np.ndarray)


def _graph_output(graph, leaf):
    """A returned leaf as the function returns it: tensors and None as they are; a captured eager tensor or a
    Python/NumPy number becomes a constant of the graph (TF returns numbers as tensors too)."""
    if isinstance(leaf, Tensor):
        if leaf.op.graph is not graph and encloses(graph, leaf.op.graph):   # made in a loop or branch body
            raise out_of_scope(leaf, graph)
        return leaf
    if leaf is None:
        return leaf
    if leaf.__class__ is EagerTensor or isinstance(leaf, _NUMBERS):
        from .build import as_graph_tensor
        return as_graph_tensor(graph, leaf if leaf.__class__ is EagerTensor else host_array(leaf))
    if isinstance(leaf, Variable):
        return leaf._as_tensor()
    if type(leaf).__module__.split(".")[0] == "placeflow":  # composites (ragged, sparse, datasets...)
        return leaf
    from ..eager.convert import as_tensor_or_none
    tensor = as_tensor_or_none(leaf)  # e.g. a Keras variable
    if tensor is not None:
        return tensor
    from .build import as_graph_tensor
    try:
        return as_graph_tensor(graph, host_array(leaf))
    except (TypeError, ValueError):
        raise TypeError(f"To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        f"ExtensionTypes or None values; in compilation of {graph.name}, found return value of type "
                        f"{type(leaf).__name__}, which is not a Tensor or ExtensionType.") from None
