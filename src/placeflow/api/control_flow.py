"""tf.cond, tf.case, tf.switch_case and tf.while_loop: Python control flow eagerly; If and While ops (with
traced bodies) while a graph or a `function` is built."""

from __future__ import annotations

from ..eager import tape
from ..eager.convert import convert_to_tensor
from ..eager.tape import GradientTape
from ..framework import dtypes, graph_mode, nest
from ..framework.tensor_shape import TensorShape
from ..graph import control_flow as cf
from . import array_ops, indexing, math_ops
from . import tensor_array
from .tensor_array import TensorArray


def _eager_truth(pred) -> bool:
    value = convert_to_tensor(pred)
    if value.dtype == dtypes.bool and value.shape.num_elements() != 1:  # TF: NumPy's truth value of the array
        raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or "
                         "a.all()")
    if value.dtype != dtypes.bool or value.shape.num_elements() != 1:
        raise TypeError(f"The predicate must be a boolean scalar tensor, got {value!r}.")
    return bool(value.numpy().reshape(()))


def cond(pred, true_fn=None, false_fn=None, name=None):
    """true_fn() if pred else false_fn(): only the chosen branch runs (also inside a graph)."""
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("true_fn and false_fn must be callable.")
    if graph_mode.active() is None:
        return true_fn() if _eager_truth(pred) else false_fn()
    pred = convert_to_tensor(pred)
    if pred.dtype != dtypes.bool:
        raise TypeError(f"The predicate must be a boolean tensor, got {pred.dtype.name}.")
    return _build_if(pred, [true_fn, false_fn], name or "cond")


def _build_if(pred, fns, name):
    bodies = [cf.trace_body(fn, f"{name}_branch{i}") for i, fn in enumerate(fns)]
    if any(b.structure is None for b in bodies) and not all(b.structure is None for b in bodies):
        raise ValueError(f"The branches of {name} must return the same structure; one returned None and another "
                         f"{[b.structure for b in bodies if b.structure is not None][0]!r}.")
    counts = {len(b.leaves) for b in bodies}
    if len(counts) != 1:
        raise ValueError(f"The branches of {name} must return the same structure; they return "
                         f"{[b.structure for b in bodies]}.")
    for body in bodies[1:]:
        nest.assert_same_structure(bodies[0].structure, body.structure, check_types=False)
    captured = cf.captured_union(bodies)
    for body in bodies:
        body.finalize(captured)
    specs = cf.output_specs(bodies)
    graph = graph_mode.active()
    stateful = any(b.stateful for b in bodies)

    def gradient(entry, *upstream):
        return _if_gradient(entry, fns, captured, upstream, name, bodies)

    attrs = {"then_branch": bodies[0], "else_branch": bodies[1], "output_specs": tuple(specs),
             "gradient": gradient, "_stateful": stateful}
    op = graph.create_op("If", [pred] + captured, attrs, specs[0][0] if specs else None, name, specs)
    if stateful:
        cf.run_stateful_order(graph, op, bodies)
    tape.record("If", op.attrs, [pred] + captured, list(op.outputs))
    if bodies[0].structure is None:
        return None  # both branches returned None: the cond runs for what its branches do
    return nest.pack_as(bodies[0].structure, op.outputs, True)


def _if_gradient(entry, fns, captured, upstream, name, forward_bodies):
    """The If gradient: another If whose branches re-run the forward branches under a tape."""
    pred = entry.inputs[0]
    grad_specs = [(u.dtype, tuple(u.shape) if u.shape is not None else None) for u in upstream]

    def branch_gradient(fn):
        def grad_fn(*upstream_placeholders):
            with GradientTape(watch_accessed_variables=False) as recorder:  # ops record the enclosing tensors
                recorder.watch(captured)
                outputs = nest.flatten(fn())
            grads = recorder.gradient(outputs, captured, output_gradients=list(upstream_placeholders))
            return [g if g is not None else array_ops.zeros_like(t) for g, t in zip(grads, captured)]
        return grad_fn

    hoisted = {}
    for body in forward_bodies:
        hoisted.update(body.graph.hoisted)  # the re-run reads the variables through the same enclosing reads
    grad_bodies = [cf.trace_body(branch_gradient(fn), f"{name}_grad{i}", grad_specs, hoisted=hoisted)
                   for i, fn in enumerate(fns)]
    extra = cf.captured_union(grad_bodies)
    for body in grad_bodies:
        body.finalize(extra)
    specs = cf.output_specs(grad_bodies)
    graph = graph_mode.active()
    op = graph.create_op("If", [pred] + list(upstream) + extra, {
        "then_branch": grad_bodies[0], "else_branch": grad_bodies[1], "output_specs": tuple(specs),
        "gradient": _no_second_order}, specs[0][0] if specs else None, f"{name}_grad", specs)
    return [None] + list(op.outputs)


def _no_second_order(entry, *upstream):
    raise LookupError("placeflow does not implement second-order gradients through tf.cond.")


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The function of the first pair whose predicate holds (default when none does), as nested conds."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if not pairs:
        if default is None:
            raise ValueError("case needs at least one (predicate, function) pair or a default.")
        return default()
    if default is None:
        default = pairs[-1][1]
        pairs = pairs[:-1]
        if not pairs:
            return default()
    if exclusive or strict:
        raise NotImplementedError("case(exclusive=True / strict=True) is not implemented in placeflow.")
    result = default
    for pred, fn in reversed(pairs):
        result = (lambda p, f, rest: (lambda: cond(p, f, rest)))(pred, fn, result)
    return result()


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """branch_fns[branch_index]() (default, else the last branch, when out of range)."""
    fns = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(enumerate(branch_fns))
    index = convert_to_tensor(branch_index)
    if default is None:
        default = fns[-1][1]
    if graph_mode.active() is None:
        chosen = int(index.numpy())
        return dict(fns).get(chosen, default)()
    return case([(math_ops.equal(index, key), fn) for key, fn in fns], default=default)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """Repeat loop_vars = body(*loop_vars) while cond(*loop_vars) (at most maximum_iterations times).
    parallel_iterations is a scheduling hint (placeflow runs iterations in order); back_prop=False stops
    gradients at the outputs. swap_memory=True permits TF to move values kept for the gradient to host
    memory; placeflow keeps them on their device (the same values; no swapping; docs/divergences.md)."""
    if not back_prop:
        return nest.map_structure(math_ops.stop_gradient, while_loop(
            cond, body, loop_vars, shape_invariants, parallel_iterations, True, False, maximum_iterations, name))
    if not isinstance(loop_vars, (list, tuple, dict)):  # TensorFlow's (odd) text for a lone tensor
        raise ValueError("'loop_vars' must be provided.\nplaceflow: pass the loop variables as a list or tuple, "
                         "e.g. loop_vars=[i].")
    structure = loop_vars
    if graph_mode.active() is None:
        values, count = [_loop_value(v) for v in nest.flatten(loop_vars)], 0
        while (maximum_iterations is None or count < int(maximum_iterations)) and \
                _eager_truth(cond(*nest.pack_as(structure, values))):
            result = body(*nest.pack_as(structure, values))
            if isinstance(structure, (list, tuple)) and getattr(result, "shape", None) == () and \
                    maximum_iterations is None:  # TF iterates the body's lone result (with a maximum, it nests it)
                raise TypeError("Cannot iterate over a scalar tensor.")
            nest.assert_same_structure(_as_list(structure), _as_list(result), check_types=False)
            values = [_loop_value(v) for v in nest.flatten(result)]
            count += 1
        return nest.pack_as(structure, values)
    if maximum_iterations is not None and not isinstance(maximum_iterations, int):
        known = array_ops.get_static_value(maximum_iterations)
        if known is None:  # known only when the graph runs: count iterations in the loop itself, as TF does
            return _counted_while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, name)
        maximum_iterations = int(known)
    structure = _with_array_shapes(cond, body, nest.pack_as(structure, [_loop_value(v) for v in
                                                                         nest.flatten(structure)]))
    return _graph_while_loop(cond, body, structure, shape_invariants, maximum_iterations, name or "while")


def _graph_while_loop(cond, body, structure, shape_invariants, maximum_iterations, name, hoisted=None):
    """The While op for a loop built in a graph, with its gradient; `hoisted` reuses enclosing reads of
    variables ({id(variable): read}, as the forward loop's when its gradient re-traces the body)."""
    flat = nest.flatten(structure, True)
    invariants = _flat_invariants(shape_invariants, len(flat))
    specs = [(v.dtype, _invariant(v, invariants[i] if invariants else None)) for i, v in enumerate(flat)]

    def traced_body(*values):
        result = body(*nest.pack_as(structure, list(values), True))
        return _flat_result(structure, result)

    def trace(specs, hoist):
        shared = dict(hoisted or {}) if hoist else None
        return (cf.trace_body(lambda *vs: [cond(*nest.pack_as(structure, list(vs), True))], f"{name}_cond", specs,
                              hoist_reads=hoist, hoisted=shared),
                cf.trace_body(traced_body, f"{name}_body", specs, hoist_reads=hoist, hoisted=shared))

    # A variable the loop only reads is read once before it (so tapes see the read and gradients reach the
    # variable); one the body writes is read by every iteration (each must see the last one's write).
    hoist = True
    cond_body, loop_body = trace(specs, hoist)
    if _writes_what_it_hoisted(cond_body, loop_body):
        hoist = False
        cond_body, loop_body = trace(specs, hoist)
    relaxed = _relaxed_specs(loop_body, specs)
    if relaxed != specs:  # the body leaves a dimension unknown that entered known: trace again without it
        specs = relaxed
        cond_body, loop_body = trace(specs, hoist)
    _check_body_outputs(loop_body, specs)
    captured = cf.captured_union([cond_body, loop_body])
    for traced in (cond_body, loop_body):
        traced.finalize(captured)
    graph = graph_mode.active()
    stateful = cond_body.stateful or loop_body.stateful
    reads = {**cond_body.graph.hoisted, **loop_body.graph.hoisted}

    def gradient(entry, *upstream):
        if stateful:
            raise LookupError(f"placeflow does not implement gradients through a tf.while_loop ({name}) whose body "
                              f"writes variables or has side effects; move the writes out of the loop.")
        return _while_gradient(cond, loop_body, structure, specs, entry, upstream, maximum_iterations, name, reads)

    attrs = {"cond": cond_body, "body": loop_body, "loop_vars": len(flat), "output_specs": tuple(specs),
             "maximum_iterations": None if maximum_iterations is None else int(maximum_iterations),
             "gradient": gradient, "_stateful": stateful}
    op = graph.create_op("While", flat + captured, attrs, specs[0][0], name, specs)
    cf.run_stateful_order(graph, op, [cond_body, loop_body])
    tape.record("While", op.attrs, flat + captured, list(op.outputs))
    return nest.pack_as(structure, op.outputs, True)


def _flat_result(structure, result) -> list:
    if isinstance(structure, (list, tuple)) and len(structure) == 1 and not nest.is_nested(result):
        result = [result]  # TF accepts a lone tensor for one loop variable in graphs (not eagerly)
    nest.assert_same_structure(_as_list(structure), _as_list(result), check_types=False)
    return nest.flatten([_loop_value(v) for v in nest.flatten(result)], True)


def _writes_what_it_hoisted(*bodies) -> bool:
    written = set().union(*(b.graph.written for b in bodies))
    return any(id_ in written for b in bodies for id_ in b.graph.hoisted)


def _while_gradient(cond, loop_body, structure, specs, entry, upstream, maximum_iterations, name, reads):
    """Gradients of a While op's inputs: a loop that re-runs the forward loop recording each iteration's
    loop variables, then a loop over the iterations in reverse that back-propagates through the body (both
    replay the forward loop's traced body)."""
    count = len(specs)
    captured = list(entry.inputs[count:])
    for index, (dtype, shape) in enumerate(specs):
        if shape is None or None in tuple(shape)[1:]:
            raise LookupError(f"placeflow does not implement gradients through a tf.while_loop ({name}) whose loop "
                              f"variable {index} changes shape beyond its first dimension (shape {shape}); keep the "
                              f"other dimensions fixed.")
    iterations, readers = _record_iterations(cond, loop_body, structure, specs, entry.inputs[:count],
                                             maximum_iterations, name, reads)
    floats = [i for i, (dtype, _) in enumerate(specs) if dtype.is_floating]
    outer = [j for j, t in enumerate(captured) if t.dtype.is_floating]
    start = [upstream[i] if upstream[i] is not None else array_ops.zeros_like(entry.outputs[i]) for i in floats]

    def back_body(k, grads, totals):
        values = [read(k) for read in readers]
        with GradientTape(watch_accessed_variables=False) as recorder:
            recorder.watch(values)
            recorder.watch([captured[j] for j in outer])
            result = cf.replay(loop_body, values)
        sources = [values[i] for i in floats] + [captured[j] for j in outer]
        found = recorder.gradient([result[i] for i in floats], sources, output_gradients=list(grads))
        found = [g if g is not None else array_ops.zeros_like(s) for g, s in zip(found, sources)]
        return k - 1, found[:len(floats)], [math_ops.add(t, g) for t, g in zip(totals, found[len(floats):])]

    _, grads, totals = _graph_while_loop(
        lambda k, grads, totals: math_ops.greater_equal(k, 0), back_body,
        [math_ops.subtract(iterations, 1), start, [array_ops.zeros_like(captured[j]) for j in outer]],
        None, None, f"{name}_grad", reads)
    result = [None] * len(entry.inputs)
    for position, i in enumerate(floats):
        result[i] = grads[position]
    for position, j in enumerate(outer):
        result[count + j] = totals[position]
    return result


def _record_iterations(cond, loop_body, structure, specs, initial, maximum_iterations, name, reads):
    """(number of iterations, one reader per loop variable: reader(k) is its value at iteration k's start).
    A variable of fixed shape is kept in a TensorArray; one whose first dimension varies (a growing
    TensorArray's buffer) has its rows appended to one tensor, with each iteration's offset and row count."""
    fixed = [None not in shape for _, shape in specs]
    arrays = [TensorArray(dtype, size=0, dynamic_size=True, element_shape=shape)
              for (dtype, shape), known in zip(specs, fixed) if known]
    rows = [array_ops.zeros([0] + list(shape[1:]), dtype) for (dtype, shape), known in zip(specs, fixed) if not known]
    offsets = [TensorArray(dtypes.int32, size=0, dynamic_size=True, element_shape=[]) for _ in rows]
    counts = [TensorArray(dtypes.int32, size=0, dynamic_size=True, element_shape=[]) for _ in rows]

    def record_body(n, arrays, rows, offsets, counts, values):
        fixed_values = iter([v for v, known in zip(values, fixed) if known])
        varying = [v for v, known in zip(values, fixed) if not known]
        arrays = [array.write(n, next(fixed_values)) for array in arrays]
        offsets = [o.write(n, array_ops.shape(r)[0]) for o, r in zip(offsets, rows)]
        counts = [c.write(n, array_ops.shape(v)[0]) for c, v in zip(counts, varying)]
        rows = [array_ops.concat([r, v], 0) for r, v in zip(rows, varying)]
        return n + 1, arrays, rows, offsets, counts, cf.replay(loop_body, list(values))

    invariants = ([()] + [(None,) + tuple(shape) for (_, shape), known in zip(specs, fixed) if known]
                  + [(None,) + tuple(shape[1:]) for (_, shape), known in zip(specs, fixed) if not known]
                  + [(None,)] * (2 * len(rows)) + [shape for _, shape in specs])
    n, arrays, rows, offsets, counts, _ = _graph_while_loop(
        lambda n, a, r, o, c, values: cond(*nest.pack_as(structure, list(values), True)), record_body,
        [convert_to_tensor(0), arrays, rows, offsets, counts, list(initial)], invariants, maximum_iterations,
        f"{name}_record", reads)
    fixed_arrays, varying = iter(arrays), iter(zip(rows, offsets, counts))
    readers = [(lambda a: a.read)(next(fixed_arrays)) if known else _rows_reader(*next(varying)) for known in fixed]
    return n, readers


def _rows_reader(rows, offsets, counts):
    def read(k):
        start = offsets.read(k)
        return indexing.gather(rows, array_ops.range(start, math_ops.add(start, counts.read(k))))
    return read
def _loop_value(value):
    """A loop variable as the loop carries it: a TensorArray as is, anything else as a tensor (of the graph
    being built, if any: an eager tensor a traced function closes over becomes its constant)."""
    if isinstance(value, TensorArray):
        return value
    tensor = convert_to_tensor(value)
    graph = graph_mode.active()
    if graph is not None and not hasattr(tensor, "op"):
        from ..graph.build import as_graph_tensor
        return as_graph_tensor(graph, tensor)
    return tensor


def _with_array_shapes(cond, body, structure):
    """`structure` with every TensorArray that has no element shape yet given the shape the body writes
    (learned from a first trace of the body, which is discarded; TensorFlow's TensorLists need no shape).
    The shapes are collected as the arrays learn them, so a probe that fails later (a branch of the body
    could not join an array with no shape yet) still tells them."""
    leaves = nest.flatten(structure)
    if not any(isinstance(v, TensorArray) and v.element_shape is None for v in leaves):
        return structure
    flat = nest.flatten(structure, True)
    specs = [(v.dtype, tuple(v.shape) if v.shape is not None else None) for v in flat]
    learned: dict = {}
    failure = None

    def probe(*values):
        body(*nest.pack_as(structure, list(values), True))
        return []

    with tensor_array.shapes_learned_into(learned):
        try:
            cf.trace_body(probe, "while_shape_probe", specs, hoist_reads=False)
        except Exception as error:  # noqa: BLE001 - the shapes learned before it may be all we need
            failure = error
    shaped = []
    for before in leaves:
        if isinstance(before, TensorArray) and before.element_shape is None:
            shape = learned.get(id(before._lineage))
            if shape is None:
                if failure is not None:
                    raise failure
                raise ValueError("A TensorArray enters a loop without an element shape and the loop body writes "
                                 "none; give it element_shape=[...].")
            before = before._with_element_shape(shape)
        shaped.append(before)
    return nest.pack_as(structure, shaped)


def _flat_invariants(shape_invariants, count: int):
    """One shape (or None) per flat loop variable; a lone shape (a TensorShape or a list of dims) is one shape."""
    if shape_invariants is None:
        return None
    lone = isinstance(shape_invariants, TensorShape) or (
        isinstance(shape_invariants, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape_invariants))
    shapes = [shape_invariants] if lone and count == 1 else list(shape_invariants)
    if len(shapes) != count:
        raise ValueError(f"shape_invariants has {len(shapes)} shapes for {count} loop variables.")
    return shapes


def _counted_while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, name):
    """while_loop with a run-time `maximum_iterations`: an iteration counter joins the loop variables."""
    limit = math_ops.cast(convert_to_tensor(maximum_iterations), dtypes.int32)
    single = not isinstance(loop_vars, (list, tuple))
    variables = [loop_vars] if single else list(loop_vars)

    def counted_cond(count, *values):
        return math_ops.logical_and(math_ops.less(count, limit), cond(*values))

    def counted_body(count, *values):
        result = body(*values)
        return [count + 1] + ([result] if single or len(variables) == 1 and not isinstance(result, (list, tuple))
                              else list(result))

    invariants = None if shape_invariants is None else [TensorShape([])] + (
        [shape_invariants] if single else list(shape_invariants))
    outputs = while_loop(counted_cond, counted_body, [convert_to_tensor(0)] + variables, invariants,
                         name=name)[1:]
    if single:
        return outputs[0]
    return tuple(outputs) if isinstance(loop_vars, tuple) else outputs


def _as_list(result):
    return list(result) if isinstance(result, tuple) else result


def _invariant(value, invariant):
    if invariant is None:
        return tuple(value.shape) if value.shape is not None else None
    return tuple(None if d is None else int(d) for d in invariant)


def _relaxed_specs(body, specs) -> list:
    """specs with a dimension made unknown where the body's output leaves it unknown (else the loop would
    treat the entry size as fixed, and fold shapes wrongly from the second iteration)."""
    relaxed = []
    for leaf, (dtype, shape) in zip(body.leaves, specs):
        out = tuple(leaf.shape) if leaf.shape is not None else None
        if shape is not None and out is not None and len(out) == len(shape):
            shape = tuple(None if got is None else want for want, got in zip(shape, out))
        elif shape is not None and out is None:
            shape = None
        relaxed.append((dtype, shape))
    return relaxed if len(relaxed) == len(specs) else specs


def _check_body_outputs(body, specs) -> None:
    if len(body.leaves) != len(specs):
        raise ValueError(f"The loop body returned {len(body.leaves)} values for {len(specs)} loop variables.")
    for index, (leaf, (dtype, shape)) in enumerate(zip(body.leaves, specs)):
        if leaf.dtype != dtype:
            raise TypeError(f"Loop variable {index} enters the loop as {dtype.name} but the body makes it "
                            f"{leaf.dtype.name}.")
        out = tuple(leaf.shape) if leaf.shape is not None else None
        if shape is not None and out is not None and (len(out) != len(shape) or any(
                want is not None and got is not None and want != got for want, got in zip(shape, out))):
            raise ValueError(f"Input tensor {index} enters the loop with shape {shape}, but has shape {out} after "
                             f"one iteration. To allow the shape to vary across iterations, use the "
                             f"`shape_invariants` argument of tf.while_loop to specify a less-specific shape.")


def cond_v1(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """compat.v1's cond: eagerly (strict=False) a branch's one-element list or tuple comes back as its element;
    in graphs TF 2's cond runs (which keeps it), as TensorFlow 2.21 does. fn1/fn2 are the old names."""
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
        false_fn = fn2
    result = cond(pred, true_fn, false_fn, name)
    if graph_mode.active() is None and not strict and isinstance(result, (list, tuple)) and len(result) == 1:
        return result[0]
    return result


def while_loop_v1(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
                  swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """compat.v1's while_loop (its argument order): with one loop variable in a list or tuple the body may
    return it bare; the result is then bare too (unless return_same_structure), and in graphs it always is,
    as TensorFlow 2.21's."""
    try_to_pack = isinstance(loop_vars, (list, tuple)) and len(loop_vars) == 1 and not return_same_structure
    packed = []

    def packing_body(*values):
        result = body(*values)
        if try_to_pack and not isinstance(result, (list, tuple)):
            packed.append(True)
            return type(loop_vars)([result])
        return result
    in_graph = graph_mode.active() is not None
    result = while_loop(cond, packing_body, loop_vars, shape_invariants, parallel_iterations, back_prop,
                        swap_memory, maximum_iterations, name)
    return result[0] if packed or (in_graph and try_to_pack) else result
