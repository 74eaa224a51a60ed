"""Eager op dispatch: place (cached) -> copy inputs -> run the kernel -> wrap -> log.

The hot path is one ContextVar read, one dict lookup keyed on what decides placement
(op, requested device, dtype, variable device), an identity check per input, the kernel,
and a flag check for logging. Everything else happens once per key in `_decide`.
"""

from __future__ import annotations

from ..config import context as context_module
from ..config.placement_log import logger as placement_logger
from ..framework import errors, graph_mode, interpreter
from ..placement import policy, report
from ..placement.scope import current as current_scope
from ..placement.scope import resolve
from ..runtime.transfer import copy_array
from . import tape
from .tensor import EagerTensor

_current_graph = graph_mode.current
COPY_EXEMPT_OPS = frozenset({"Identity", "_EagerConst", "VarHandleOp"})  # explicit placements
numerics_check = None  # f(op, inputs, outputs) while tf.debugging.enable_check_numerics is on, else None


class OpInfo:
    """What a device function sees of an op: its type, name and dtype."""

    __slots__ = ("type", "name", "dtype", "device")

    def __init__(self, op_type, name, dtype):
        self.type, self.name, self.dtype, self.device = op_type, name or op_type, dtype, ""

    def __repr__(self):
        return f"<OpInfo {self.type} name={self.name!r} dtype={self.dtype}>"


def execute(op: str, inputs, dtype, attrs=None, resource=None, name=None):
    """Run `op` eagerly on the device placement chooses; returns an EagerTensor (or a list)."""
    graph = _current_graph.get()
    if (graph is not None or graph_mode.process_default is not None) and graph is not graph_mode.EAGER:
        return (graph or graph_mode.process_default).run_op(op, inputs, dtype, attrs, resource, name)  # records
    ctx = context_module._context or context_module.context()
    scope = current_scope.get()
    if scope is None:
        key = (op, None, dtype, resource)
    elif scope.fn is None:
        key = (op, scope.key, dtype, resource)
    else:
        key = (op, resolve(scope, OpInfo(op, name, dtype)), dtype, resource)
    decision = ctx.placement_cache.get(key)
    if decision is None:
        decision = _decide(ctx, key, name)
    device = decision.device
    count = len(inputs)
    if count == 2:  # most ops take one or two inputs: no comprehension frame for them
        x, y = inputs
        args = (x._value if x.__class__ is EagerTensor and x._device is device else _to_device(x, device, op, 0, ctx),
                y._value if y.__class__ is EagerTensor and y._device is device else _to_device(y, device, op, 1, ctx))
    elif count == 1:
        x = inputs[0]
        args = (x._value if x.__class__ is EagerTensor and x._device is device else _to_device(x, device, op, 0, ctx),)
    else:
        args = [x._value if x.__class__ is EagerTensor and x._device is device else _to_device(x, device, op, i, ctx)
                for i, x in enumerate(inputs)]
    decision.count += 1
    out = device.run(op, decision.fn, args, attrs, name, decision.presize, dtype)
    if out.__class__ is tuple:
        outputs = [EagerTensor(o, device) for o in out]
    else:
        outputs = EagerTensor(out, device)
    if ctx.log_device_placement:
        placement_logger.info("Executing op %s in device %s", op, device.name)
    if numerics_check is not None:  # tf.debugging.enable_check_numerics (api/check_numerics.py)
        numerics_check(op, inputs, outputs)
    if tape.active_count:
        tape.record(op, attrs, inputs, outputs)
    return outputs


def _decide(ctx, key, name):
    op, requested, dtype, resource = key
    try:
        decision = policy.place(ctx, op, requested, dtype, resource)
    except errors.OpError as exc:
        if name and exc.message.count(" name: \n") == 1:
            exc._message = exc.message.replace(" name: \n", f" name: {name}\n", 1)
            exc.args = (exc._message,)
        raise
    ctx.placement_cache[key] = decision
    return decision


def _to_device(value, device, op, index, ctx):
    """An input that is not already on `device`: a host literal, or a tensor to copy."""
    if value.__class__ is not EagerTensor:
        return value if device.host_backed else device.upload(value)
    src = value._device
    if (ctx.strict_placement or ctx.device_policy != "silent") and op not in COPY_EXEMPT_OPS:
        _check_copy_policy(ctx, value, src, device, op, index)
    copied = copy_array(value._value, src, device)
    if copied is not value._value:
        report.count_copy(src.name, device.name, copied.nbytes)
    return copied


_warned_copies: set = set()


def _check_copy_policy(ctx, value, src, device, op, index) -> None:
    """Strict placement and set_device_policy: refuse (or log) an implicit copy between devices."""
    policy = "explicit" if ctx.strict_placement else ctx.device_policy
    if policy == "silent_for_int32" and value.dtype.name == "int32":
        return
    if policy == "warn":
        key = (op, src.name, device.name)
        if key not in _warned_copies:
            _warned_copies.add(key)
            placement_logger.warning("Copying the input #%d of %s from %s to %s (device policy 'warn').", index, op,
                                     src.name, device.name)
        return
    fix = ("strict placement forbids implicit copies; copy explicitly as shown, or turn it off with "
           "placeflow.config.experimental.set_strict_placement(False)." if ctx.strict_placement else
           f"the device policy {policy!r} forbids implicit copies; copy explicitly as shown, or "
           "placeflow.config.experimental.set_device_policy('silent').")
    raise errors.InvalidArgumentError(None, None, (
        f"Tensors on conflicting devices: cannot compute {op} as input #{index} was expected to be on "
        f"{device.name} but is actually on {src.name} (operation running on {device.name}) Tensors can be "
        f"copied explicitly using: `with tf.device(device_name): x = tf.identity(x)` [Op:{op}]\nplaceflow: {fix}"))


class EagerInterpreter(interpreter.Interpreter):
    """Ops run now (framework/interpreter.py): gradient rules in op definitions build their ops through it."""

    def run_op(self, op, inputs, dtype, attrs=None, resource=None, name=None):
        """`execute`: place, copy the inputs, run the kernel."""
        return execute(op, inputs, dtype, attrs, resource, name)

    def convert(self, value, dtype=None):
        """tf.convert_to_tensor, eagerly."""
        from .convert import convert_to_tensor
        return convert_to_tensor(value, dtype=dtype)


interpreter.eager = EagerInterpreter()
