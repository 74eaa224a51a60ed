"""compat.v1.Session: places a graph (once per node), plans each fetch signature, and runs it.

Process-wide options of its ConfigProto (devices, GPU memory, thread counts) configure the runtime
the first time; session options (log_device_placement, allow_soft_placement, per-session thread
pools) belong to the session.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from ..config import proto
from ..config.context import check_thread_count, context
from ..config.placement_log import ensure_handler, logger as placement_logger
from ..runtime import kernel_errors, registry
from ..runtime.transfer import to_host
from ..framework import errors, nest
from . import error_layout, intra_op, pipeline
from .graph import Operation, Tensor, get_default_graph
from .state import VariableStore
from .step_stats import RunMetadata, StepStatsCollector

_default = threading.local()


def _context_config() -> proto.ConfigProto:
    """The options a Session without a config gets, as TensorFlow's context gives them.

    Soft placement is the value set by `tf.config.set_soft_device_placement`, else whether the thread
    runs eagerly when the Session is made (so a Session made inside `Graph.as_default()` or after
    `disable_eager_execution()` places strictly); placement logging is `set_log_device_placement`'s.
    """
    from ..config.api import get_soft_device_placement
    ctx = context()
    return proto.ConfigProto(allow_soft_placement=get_soft_device_placement(),
                             log_device_placement=ctx.log_device_placement)


class Session:
    """Runs fetches of a graph: `sess.run(fetches, feed_dict)`; a context manager that closes itself."""

    def __init__(self, target="", graph=None, config=None):
        if target:
            raise errors.UnimplementedError(None, None, (
                f"Session target {target!r} is not supported: placeflow runs in-process only. Pass target=''."))
        self._late_step = None  # a step that outlived its RunOptions timeout, still finishing
        self._config = config if config is not None else _context_config()
        proto.apply_process_options(self._config, threads=False)
        check_thread_count("inter", self._config.inter_op_parallelism_threads)
        check_thread_count("intra", self._config.intra_op_parallelism_threads)
        self._graph = graph if graph is not None else get_default_graph()
        self._ctx = context()
        self._devices = registry.devices(self._ctx)
        self._soft = bool(self._config.allow_soft_placement)
        self._log = bool(self._config.log_device_placement)
        self._placed: dict = {}
        self._reasons: dict = {}
        self._placed_version = -1
        self._plans: dict = {}
        self._store = VariableStore()
        self._own_lanes = {} if self._config.use_per_session_threads else None
        self._closed = False
        self._lock = threading.Lock()
        intra = self._config.intra_op_parallelism_threads or self._ctx.threads("intra")
        if intra > 0:
            intra_op.set_blas_threads(intra)
        if self._log:
            _log_device_mapping(self._devices)

    # -- public API ----------------------------------------------------------------------------------
    @property
    def graph(self):
        """The graph this session runs."""
        return self._graph

    def list_devices(self) -> list:
        """The devices this session can use."""
        return list(self._devices)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Compute `fetches` (a tensor, op, name, variable, or nested list/tuple/dict of them) given `feed_dict`."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves = nest.flatten(fetches)
        elements = [self._fetch_element(leaf) for leaf in leaves]
        feeds, feed_values = self._feeds(feed_dict or {})
        plan = self._plan(elements, feeds)
        devices = {n.feed_index: n.device for n in plan.nodes if n.kind == "feed"}
        placed_values = [_on_device(value, devices.get(i)) for i, value in enumerate(feed_values)]
        collector = None
        if options is not None and options.trace_level > 0:
            run_metadata = run_metadata if run_metadata is not None else RunMetadata()
            collector = StepStatsCollector(run_metadata.step_stats)
        self._wait_for_late_step()
        timeout_ms = _checked_options(options)
        try:
            if timeout_ms:
                outputs = self._execute_with_deadline(plan, placed_values, collector, timeout_ms)
            else:
                outputs = self._execute(plan, placed_values, collector)
        except errors.OpError as error:
            if isinstance(error, errors.ResourceExhaustedError):
                placed_values = None  # a kept error must not pin the feeds' device copies (nor the step's buffers)
                kernel_errors.drop_refused_buffers(error)
            laid_out = error_layout.in_session_layout(error)
            if laid_out is error:
                raise
            raise laid_out from error.__cause__  # the kernel's own error stays the cause
        results = [None if isinstance(e, Operation) else _to_numpy(v) for e, v in zip(elements, outputs)]
        return nest.pack_as(fetches, results) if isinstance(fetches, (list, tuple, dict)) else results[0]

    def close(self) -> None:
        """Release the session's variables and thread pools; later runs raise."""
        if self._own_lanes:
            for lane in self._own_lanes.values():
                lane.close()
        self._closed = True
        self._store = VariableStore()
        self._plans.clear()

    def as_default(self):
        """Make this the session `Tensor.eval()` and `Operation.run()` use, on this thread."""
        return _as_default(self)

    def __enter__(self):
        self._default_cm = _as_default(self)
        self._default_cm.__enter__()
        self._graph_cm = self._graph.as_default()  # as in TF: the session's graph is the default inside
        self._graph_cm.__enter__()
        return self

    def __exit__(self, *exc):
        self._graph_cm.__exit__(*exc)
        self._default_cm.__exit__(*exc)
        self.close()
        return False

    def __del__(self):
        own = getattr(self, "_own_lanes", None)
        if own:
            for lane in own.values():
                lane.close()

    # -- internals --------------------------------------------------------------------------------------
    def _fetch_element(self, fetch):
        """The graph element a fetch names; an unknown name is TF's ValueError quoting the fetch."""
        try:
            return self._graph.as_graph_element(fetch)
        except (KeyError, ValueError) as error:
            if not isinstance(fetch, str):
                raise
            reason = error.args[0] if error.args else str(error)
            raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a Tensor. ({reason!r})") from None

    def _feed_element(self, key):
        """The graph element a feed_dict key names; a bad key is TF's TypeError."""
        try:
            return self._graph.as_graph_element(key)
        except (KeyError, ValueError) as error:
            if not isinstance(key, str):
                raise
            if ":" not in key:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: The name {key!r} looks like an (invalid) "
                                "Operation name, not a Tensor. Tensor names must be of the form "
                                "\"<op_name>:<output_index>\".") from None
            raise TypeError(f"Cannot interpret feed_dict key as Tensor: {error.args[0]}") from None

    def _feeds(self, feed_dict):
        tensors, values = [], []
        for key, value in feed_dict.items():
            element = self._feed_element(key)
            tensor = element.outputs[0] if isinstance(element, Operation) else element
            if not isinstance(tensor, Tensor):
                raise TypeError(f"The key {key!r} of feed_dict cannot be interpreted as a Tensor.")
            tensors.append(tensor)
            values.append(_feed_array(tensor, value))
        return tensors, values

    def _plan(self, elements, feeds):
        key = (tuple(id(e) for e in elements), tuple(id(t) for t in feeds), self._graph.version)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        with self._lock:
            if self._placed_version != self._graph.version:
                pipeline.place(self._graph.get_operations(), self._placed, self._ctx, self._soft, self._log,
                               self._reasons)
                self._placed_version = self._graph.version
            plan = pipeline.plan(elements, feeds, self._placed, store=self._store, reasons=self._reasons)
            self._plans[key] = plan
        return plan

    def _execute_with_deadline(self, plan, feed_values, collector, timeout_ms):
        """The step in a helper thread; DeadlineExceededError if it has not finished after `timeout_ms`."""
        outcome, done = {}, threading.Event()

        def step():
            try:
                outcome["values"] = self._execute(plan, feed_values, collector)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                outcome["error"] = exc
            finally:
                done.set()

        thread = threading.Thread(target=step, name="placeflow_session_step", daemon=True)
        thread.start()
        if not done.wait(timeout_ms / 1000.0):
            self._late_step = thread
            raise errors.DeadlineExceededError(None, None, (
                f"Timed out waiting for notification\nplaceflow: the step ran longer than timeout_in_ms={timeout_ms}. "
                "It cannot be cancelled half way: it finishes in the background (its variable writes land then), "
                "and the next run of this Session waits for it."))
        if "error" in outcome:
            raise outcome["error"]
        return outcome["values"]

    def _wait_for_late_step(self) -> None:
        late, self._late_step = self._late_step, None
        if late is not None:
            late.join()

    def _execute(self, plan, feed_values, collector):
        inter = self._config.inter_op_parallelism_threads or self._ctx.threads("inter")
        intra = self._config.intra_op_parallelism_threads or self._ctx.threads("intra")
        return pipeline.run(plan, feed_values, inter, intra, collector, self._own_lanes)


def _checked_options(options) -> int:
    """The step's timeout in ms (0: none); RunOptions fields placeflow does not implement are refused."""
    if options is None:
        return 0
    if options.inter_op_thread_pool:
        raise NotImplementedError("RunOptions(inter_op_thread_pool=...) is not implemented: placeflow Sessions have "
                                  "one inter-op pool (set its size with ConfigProto(inter_op_parallelism_threads=)).")
    if options.output_partition_graphs:
        raise NotImplementedError("RunOptions(output_partition_graphs=True) is not implemented in placeflow: use "
                                  "placeflow.experimental.placement_report() or the step stats (trace_level).")
    timeout = options.timeout_in_ms
    if isinstance(timeout, bool) or not isinstance(timeout, int) or timeout < 0:
        raise ValueError(f"RunOptions timeout_in_ms must be a non-negative int (0: no timeout), got {timeout!r}.")
    return timeout


class InteractiveSession(Session):
    """A Session that makes itself the default on creation (for shells and notebooks)."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._interactive_cm = _as_default(self)
        self._interactive_cm.__enter__()

    def close(self) -> None:
        """Close, and stop being the default session."""
        super().close()
        stack = _stack()
        if self in stack:
            stack.remove(self)


def _stack() -> list:
    if not hasattr(_default, "stack"):
        _default.stack = []
    return _default.stack


@contextlib.contextmanager
def _as_default(session):
    stack = _stack()
    stack.append(session)
    try:
        yield session
    finally:
        if stack and stack[-1] is session:
            stack.pop()


def get_default_session():
    """The innermost default session of this thread, or None."""
    stack = _stack()
    return stack[-1] if stack else None


def default_session_for(element, session=None) -> Session:
    """`session`, else the default session; ValueError (TensorFlow's text) when there is none."""
    session = session if session is not None else get_default_session()
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use `with "
                         "sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    return session


def _on_device(value, device):
    if device is None or device.device_type == "CPU":
        return value
    return device.upload(value)


def _feed_array(tensor, value) -> np.ndarray:
    array = np.asarray(value)
    dtype = tensor.dtype
    if dtype is not None and array.dtype != dtype.numpy_dtype:
        try:
            array = array.astype(dtype.numpy_dtype)
        except (TypeError, ValueError) as exc:  # NumPy's class, as TF lets it through
            raise type(exc)(f"{exc} (feeding {value!r} to Tensor {tensor.name!r} of dtype {dtype.name})") from None
    shape = tensor.shape
    if shape is not None and (len(shape) != array.ndim or
                              any(d is not None and d != a for d, a in zip(shape, array.shape))):
        expected = "(" + ", ".join("?" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
        raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor {tensor.name!r}, which has shape "
                         f"'{expected}'")
    return array


def _to_numpy(value):
    if value is None:
        return None
    array = to_host(value) if not isinstance(value, np.ndarray) else np.array(value, copy=True)
    return array[()] if array.ndim == 0 else array  # the caller's own array: a variable or constant stays intact


def _log_device_mapping(devices) -> None:
    ensure_handler()
    described = [d for d in devices if d.info.physical.description and d.device_type != "CPU"]
    if not described:
        placement_logger.info("Device mapping: no known devices.")
        return
    lines = [f"{d.name} -> {d.info.physical.description}" for d in described]
    placement_logger.info("Device mapping:\n%s", "\n".join(lines))


__all__ = ["InteractiveSession", "Session", "get_default_session"]
