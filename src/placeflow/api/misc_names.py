"""Assorted TensorFlow 2.21 names: tf.conv and the V2 Conv2D backprops, tf.approx_top_k, tf.ragged_fill_empty_rows
(and its gradient), tf.test's benchmark and decorator helpers, tf.types.experimental's abstract types, and
tf.saved_model's Asset, VariablePolicy and fingerprints.

The facades (test.py, types/, saved_model/) export these; the names needing upper layers (distributed values,
servers) are wired there."""

from __future__ import annotations

import abc
import collections
import enum
import functools
import inspect
import logging
import os
import time
import typing

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.tensor import EagerTensor
from ..framework import build_errors, dtypes, errors
from ..framework.protobuf_wire import field_bytes, field_double, field_varint, fields
from ..framework.tf_types import Tensor as _TensorBase
from ..framework.tracking import Trackable

log = logging.getLogger("placeflow.test")

# -- tf.conv, tf.conv2d_backprop_{filter,input}_v2 ------------------------------------------------------------------


def _invalid(message: str):
    return errors.InvalidArgumentError(None, None, message)


def conv(input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST",  # noqa: A002
         dilations=(), batch_dims=1, groups=1, name=None):
    """TensorFlow's generic Conv op: a 2-D or 3-D channels-last convolution (rank from `filter`)."""
    from .indexing import pad
    from .nn import conv2d, conv3d
    x, w = convert_to_tensor(input), convert_to_tensor(filter)
    _check_conv_args(x, w, data_format, batch_dims, groups, padding)
    spatial = len(w.shape) - 2
    if padding == "EXPLICIT":
        pairs = np.asarray(list(explicit_paddings), dtype=np.int64).reshape(-1, 2)
        if pairs.shape[0] != spatial + 2:
            raise _invalid(f"explicit_paddings must have {2 * (spatial + 2)} values (two per dimension); got "
                           f"{list(explicit_paddings)}.")
        x, padding = pad(x, pairs.tolist()), "VALID"
    elif list(explicit_paddings):
        raise _invalid(f"explicit_paddings {list(explicit_paddings)} need padding='EXPLICIT'; got {padding!r}.")
    rates = list(dilations) or [1] * (spatial + 2)
    if len(rates) != spatial + 2 or rates[0] != 1 or rates[-1] != 1:
        raise _invalid(f"dilations must have {spatial + 2} values, 1 in the batch and channel dimensions; got "
                       f"{list(dilations)}.")
    op = conv2d if spatial == 2 else conv3d
    return op(x, w, list(strides), padding, dilations=rates[1:-1], name=name)


def _check_conv_args(x, w, data_format, batch_dims, groups, padding):
    if len(w.shape) not in (4, 5):
        graph_text = f"Input tensor must be rank 4 or 5, excluding extra batch dimensions, but got: {len(x.shape)}" \
            if len(x.shape) not in (4, 5) else f"Filter must be rank 4 or 5, but got: {len(w.shape)}"
        raise build_errors.invalid(graph_text, f"The filter must be rank 4 or 5 but got {len(w.shape)}")
    if padding not in ("SAME", "VALID", "EXPLICIT"):
        raise build_errors.string_not_allowed("Conv", "padding", padding, ("SAME", "VALID", "EXPLICIT"), (
            f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: \"SAME\", \"VALID\", "
            f"\"EXPLICIT\""))
    if data_format != "CHANNELS_LAST":
        raise NotImplementedError(f"tf.conv(data_format={data_format!r}) is not implemented in placeflow: "
                                  "transpose the input to channels-last and use data_format='CHANNELS_LAST'.")
    if batch_dims != 1 or groups != 1:
        raise NotImplementedError(f"tf.conv(batch_dims={batch_dims}, groups={groups}) is not implemented in "
                                  "placeflow: reshape to one batch dimension; split grouped channels yourself.")
    if len(x.shape) != len(w.shape):
        raise _invalid(f"The input must have {len(w.shape) - 2} spatial dimensions (rank {len(w.shape)}, as the "
                       f"filter) but has shape {tuple(x.shape)}")


def _check_v2(data_format, explicit_paddings, dilations, padding):
    if data_format != "NHWC" or list(explicit_paddings) or list(dilations) != [1, 1, 1, 1] or padding not in (
            "SAME", "VALID"):
        raise NotImplementedError(
            "conv2d_backprop_*_v2 with data_format other than NHWC, explicit paddings or dilations is not "
            "implemented in placeflow: transpose to NHWC and use padding 'SAME' or 'VALID' without dilations.")


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                              explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of Conv2D with respect to its filter, whose shape `filter` gives (its values are unused).

    TensorFlow 2.21's CPU build has no kernel for this op (NotFoundError); placeflow computes it on every device."""
    from .array_ops import _ints
    from .nn import _four
    _check_v2(data_format, explicit_paddings, dilations, padding)
    x, w = convert_to_tensor(input), convert_to_tensor(filter)
    g = convert_to_tensor(out_backprop, dtype=x.dtype)
    return _run("Conv2DBackpropFilter", (x, g), x.dtype, {"filter_sizes": _ints(list(w.shape)),
                                                          "strides": _four(strides, "strides"), "padding": padding},
                name)


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                             explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of Conv2D with respect to its input, whose shape `input` gives (its values are unused).

    TensorFlow 2.21's CPU build has no kernel for this op (NotFoundError); placeflow computes it on every device."""
    from .array_ops import _ints
    from .nn import _four
    _check_v2(data_format, explicit_paddings, dilations, padding)
    x, w = convert_to_tensor(input), convert_to_tensor(filter)
    g = convert_to_tensor(out_backprop, dtype=w.dtype)
    return _run("Conv2DBackpropInput", (w, g), w.dtype, {"input_sizes": _ints(list(x.shape)),
                                                         "strides": _four(strides, "strides"), "padding": padding},
                name)


def _run(op, inputs, dtype, attrs, name):
    from ..eager.execute import execute
    return execute(op, inputs, dtype, attrs, name=name)


# -- tf.approx_top_k -------------------------------------------------------------------------------------------------

def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """(values, indices) of the k largest (or smallest) entries along `reduction_dimension`, exactly (as TensorFlow's
    CPU kernel): half, bfloat16 or float input. TensorFlow's CPU kernel refuses is_max_k=False (NotFoundError);
    placeflow computes the smallest k exactly, as its approx_min_k."""
    from .special_math import approx_max_k, approx_min_k
    pick = approx_max_k if is_max_k else approx_min_k
    values, indices = pick(input, k, reduction_dimension, recall_target, reduction_input_size_override,
                           aggregate_to_topk, name)
    return values, indices


# -- tf.ragged_fill_empty_rows ---------------------------------------------------------------------------------------

RaggedFillEmptyRows = collections.namedtuple(
    "RaggedFillEmptyRows", ["output_value_rowids", "output_values", "empty_row_indicator", "reverse_index_map"])
RaggedFillEmptyRowsGrad = collections.namedtuple("RaggedFillEmptyRowsGrad", ["d_values", "d_default_value"])


def _host_ints(value, what):
    from ..framework import graph_mode
    if graph_mode.active() is not None:
        raise NotImplementedError(f"tf.{what} inside a traced placeflow.function is not implemented: call it eagerly.")
    return np.asarray(convert_to_tensor(value, dtype=dtypes.int64).numpy(), dtype=np.int64)


def _check_fill_shapes(rowids, vals, default) -> None:
    for what, shape, rank in (("value_rowids", rowids.shape, 1), ("values", vals.shape, 1),
                              ("default_value", default.shape, 0)):
        if len(shape) != rank:
            raise _invalid(f"{what} must be a {'vector' if rank else 'scalar'}, saw: "
                           f"[{','.join(str(d) for d in shape)}]. Pass flat values and a scalar default_value.")


def _fill_plan(rowids, nrows: int, count: int):
    """(output row ids, source positions (count = the default value), empty-row flags, reverse index map)."""
    if count != rowids.shape[0]:
        raise _invalid(f"The length of `values` ({count}) must match the first dimension of `value_rowids` "
                       f"({rowids.shape[0]}).")
    bad = np.flatnonzero((rowids < 0) | (rowids >= nrows))
    if bad.size:
        raise _invalid(f"indices({bad[0]}, 0) is invalid: {rowids[bad[0]]} >= {nrows}")
    empty = np.bincount(rowids, minlength=nrows) == 0
    out_rows = np.concatenate([rowids, np.flatnonzero(empty)])
    order = np.argsort(out_rows, kind="stable")
    reverse = np.empty(count, np.int64)
    reverse[order[order < count]] = np.flatnonzero(order < count)
    return out_rows[order], np.minimum(order, count), empty, reverse


def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    """The ragged rows of (value_rowids, values) with each empty row of `nrows` given one `default_value`
    (TensorFlow's RaggedFillEmptyRows); differentiable in `values` and `default_value`."""
    from .array_ops import concat, reshape
    from .indexing import gather
    if build_errors.building():
        return _fill_when_run(value_rowids, values, nrows, default_value)
    rowids = _host_ints(value_rowids, "ragged_fill_empty_rows")
    n = int(_host_ints(nrows, "ragged_fill_empty_rows"))
    vals = convert_to_tensor(values)
    default = convert_to_tensor(default_value, dtype=vals.dtype)
    _check_fill_shapes(rowids, vals, default)
    out_rows, sources, empty, reverse = _fill_plan(rowids, n, int(vals.shape[0]))
    pool = concat([vals, reshape(default, [1])], 0)
    return RaggedFillEmptyRows(convert_to_tensor(out_rows), gather(pool, sources), convert_to_tensor(empty),
                               convert_to_tensor(reverse))


def _fill_when_run(value_rowids, values, nrows, default_value):
    """ragged_fill_empty_rows while a graph is built: TF's shape checks now, the row plan from the row ids' values
    when the graph runs (a host callback), the values gathered by graph ops (so gradients reach them)."""
    from .array_ops import concat, reshape, shape
    from .indexing import gather
    from .script_ops import numpy_function
    rowids = convert_to_tensor(value_rowids, dtype=dtypes.int64)
    n = convert_to_tensor(nrows, dtype=dtypes.int64)
    vals = convert_to_tensor(values)
    default = convert_to_tensor(default_value, dtype=vals.dtype)
    for tensor, rank in ((rowids, 1), (vals, 1), (n, 0), (default, 0)):
        if tensor.shape is not None and len(tensor.shape) != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {len(tensor.shape)} for "
                             f"'{{{{node RaggedFillEmptyRows}}}}'")
    counts = (rowids.shape[0] if rowids.shape is not None else None, vals.shape[0] if vals.shape is not None else None)
    if None not in counts and counts[0] != counts[1]:
        raise ValueError(f"Dimensions must be equal, but are {counts[0]} and {counts[1]} for "
                         f"'{{{{node RaggedFillEmptyRows}}}}'")
    out_rows, sources, empty, reverse = numpy_function(
        lambda r, k, c: list(_fill_plan(np.asarray(r, np.int64), int(k), int(c))),
        [rowids, n, shape(vals, out_type=dtypes.int64)[0]], [dtypes.int64] * 2 + [dtypes.bool, dtypes.int64],
        stateful=False)
    pool = concat([vals, reshape(default, [1])], 0)
    return RaggedFillEmptyRows(out_rows, gather(pool, sources), empty, reverse)


def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None):
    """(gradient for `values`, gradient for `default_value`) of ragged_fill_empty_rows from its outputs' gradient."""
    from .indexing import gather
    from .math_ops import reduce_sum, subtract
    grads = convert_to_tensor(grad_values)
    if build_errors.building():  # the gather checks the indices when the graph runs
        d_values = gather(grads, convert_to_tensor(reverse_index_map, dtype=dtypes.int64))
        return RaggedFillEmptyRowsGrad(d_values, subtract(reduce_sum(grads), reduce_sum(d_values)))
    reverse = _host_ints(reverse_index_map, "ragged_fill_empty_rows_grad")
    if reverse.size and (reverse.min() < 0 or reverse.max() >= grads.shape[0]):
        raise _invalid(f"reverse_index_map {reverse.tolist()} must index the {grads.shape[0]} gradient rows.")
    d_values = gather(grads, reverse)
    return RaggedFillEmptyRowsGrad(d_values, subtract(reduce_sum(grads), reduce_sum(d_values)))


# -- tf.test helpers -------------------------------------------------------------------------------------------------


def benchmark_config():
    """The session config TensorFlow's benchmarks use: grappler's dependency optimization off. placeflow has no
    graph rewriter, so that is the default ConfigProto."""
    from ..config.proto import ConfigProto
    return ConfigProto()


def disable_with_predicate(pred, skip_message):
    """Decorate a test method so that it skips with `skip_message` when `pred()` is true at call time."""
    def decorator(test):
        @functools.wraps(test)
        def run(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return test(self, *args, **kwargs)
        return run
    return decorator


def with_eager_op_as_function(cls=None, only_as_function=False):
    """Returns the test class unchanged: ops run eagerly in one way only in placeflow (as TensorFlow 2.21, where
    eager ops always run as functions, this decorator adds nothing)."""
    return cls if cls is not None else (lambda decorated: decorated)


def assert_equal_graph_def(expected, actual):
    """AssertionError unless two placeflow Graphs hold the same nodes (name, op, inputs, device, attributes)."""
    from ..graph.graph import Graph
    for label, graph in (("expected", expected), ("actual", actual)):
        if not isinstance(graph, Graph):
            raise TypeError(f"Expected tf.Graph for argument '{label}' not {type(graph).__name__}: placeflow has no "
                            "GraphDef protos; pass the Graphs (e.g. a ConcreteFunction's .graph).")
    mine, theirs = _nodes(expected), _nodes(actual)
    if mine != theirs:
        raise AssertionError(_graph_difference(mine, theirs))


def _nodes(graph) -> dict:
    return {op.name: repr(op.node_def) for op in graph.get_operations()}


def _graph_difference(expected: dict, actual: dict) -> str:
    only_expected, only_actual = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
    if only_expected or only_actual:
        return f"Graphs differ: nodes only in expected: {only_expected}; only in actual: {only_actual}"
    name = next(n for n in sorted(expected) if expected[n] != actual[n])
    return f"Graphs differ at node {name!r}: expected {expected[name]}, actual {actual[name]}"


def sync_devices():
    """Wait until every GPU has finished the work queued on it (nothing to wait for on CPUs)."""
    import sys
    cupy = sys.modules.get("cupy")
    if cupy is None:
        return
    for index in range(cupy.cuda.runtime.getDeviceCount()):
        with cupy.cuda.Device(index):
            cupy.cuda.Device(index).synchronize()


class Benchmark:
    """tf.test.Benchmark: report timings of `benchmark*` methods (logged, and written as BenchmarkEntries to
    $TEST_REPORT_FILE_PREFIX<name> when that variable is set, as TensorFlow does)."""

    @classmethod
    def is_abstract(cls) -> bool:
        """True for a class that defines no benchmark methods itself (TensorFlow's test)."""
        return len(cls.mro()) <= 2

    def _get_name(self, overwrite_name=None) -> str:
        """'Class.method' of the benchmark method running now (or `overwrite_name`)."""
        if overwrite_name:
            return f"{type(self).__name__}.{overwrite_name}"
        for frame in inspect.stack()[1:]:
            if frame.frame.f_locals.get("self") is self and frame.function.startswith("benchmark"):
                return f"{type(self).__name__}.{frame.function}"
        raise ValueError("Unable to determine the calling benchmark method: call report_benchmark from a method "
                         "whose name starts with 'benchmark', or pass name=.")

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None, name=None,
                         metrics=None):
        """Log one benchmark result (and write it to $TEST_REPORT_FILE_PREFIX<name> when that is set)."""
        name = self._get_name(name)
        log.info("Benchmark [%s] iters: %s, wall_time: %s, cpu_time: %s, throughput: %s, extras: %s, metrics: %s",
                 name, iters, wall_time, cpu_time, throughput, extras, metrics)
        prefix = os.environ.get("TEST_REPORT_FILE_PREFIX")
        if prefix:
            entry = _benchmark_entry(name, iters, cpu_time, wall_time, throughput, extras or {}, metrics or [])
            with open(prefix + name.replace("/", "__"), "wb") as f:
                f.write(field_bytes(1, entry))

    def evaluate(self, tensors):
        """The values of `tensors` (a nest) as NumPy arrays: run in the default Session in graph mode."""
        from ..framework import nest
        from ..graph.session import get_default_session
        session = get_default_session()
        if session is not None:
            return session.run(tensors)
        return nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, tensors)

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10, store_trace=False,
                         store_memory_usage=True, name=None, extras=None, mbs=0):
        """Run `op_or_tensor` in `sess` burn_iters + min_iters times and report the median wall time of the last
        min_iters runs (memory usage is not measured: placeflow records no per-op allocations here)."""
        if store_trace:
            raise NotImplementedError("run_op_benchmark(store_trace=True) is not implemented in placeflow: it "
                                      "records no step traces here.")
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.perf_counter()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.perf_counter() - start)
        wall = float(np.median(deltas))
        result = {"iters": min_iters, "wall_time": wall, "extras": dict(extras or {}), "name": self._get_name(name)}
        if mbs:
            result["throughput"] = mbs / wall
        self.report_benchmark(iters=min_iters, wall_time=wall, throughput=result.get("throughput"),
                              extras=result["extras"], name=name)
        return result


def _benchmark_entry(name, iters, cpu_time, wall_time, throughput, extras, metrics) -> bytes:
    out = field_bytes(1, name) + (field_varint(2, int(iters)) if iters else b"")
    for number, value in ((3, cpu_time), (4, wall_time), (5, throughput)):
        out += field_double(number, float(value)) if value is not None else b""
    for key, value in sorted(extras.items()):
        inner = field_double(1, float(value)) if isinstance(value, (int, float)) else field_bytes(2, str(value))
        out += field_bytes(6, field_bytes(1, str(key)) + field_bytes(2, inner))
    for metric in metrics:
        if set(metric) - {"name", "value"}:
            raise NotImplementedError(f"report_benchmark metrics with {sorted(set(metric) - {'name', 'value'})} "
                                      "are not implemented in placeflow: give each metric a name and value only.")
        out += field_bytes(7, field_bytes(1, metric["name"]) + field_double(2, float(metric["value"])))
    return out


# -- tf.types.experimental -------------------------------------------------------------------------------------------


class Callable(abc.ABC):
    """A callable TensorFlow function with a FunctionType (placeflow's Function and ConcreteFunction are)."""

    @property
    @abc.abstractmethod
    def function_type(self):
        """The FunctionType of this callable."""

    def __call__(self, *args, **kwargs):
        """Call the function (subclasses run it)."""
        raise NotImplementedError(f"{type(self).__name__} does not define __call__.")


class AtomicFunction(Callable):
    """A function the runtime calls as one op (placeflow has none of its own: its traces run as placed graphs)."""


class FunctionType(inspect.Signature):
    """The signature of a TensorFlow function: its parameters and captures (placeflow's traces capture none in
    this form, so `captures` is always empty here)."""

    def __init__(self, parameters=None, captures=None, **kwargs):
        super().__init__(parameters, **kwargs)
        if captures:
            raise NotImplementedError("FunctionType(captures=...) is not implemented in placeflow.")
        self._captures = collections.OrderedDict()

    @property
    def captures(self):
        """The captured values (none)."""
        return self._captures


def function_type_of(function) -> FunctionType:
    """The FunctionType of a placeflow Function (its Python parameters) or ConcreteFunction (one parameter per
    traced tensor argument, annotated with its TensorSpec)."""
    from ..framework.tensor_spec import TensorSpec
    python_function = getattr(function, "python_function", None)
    if python_function is not None:
        return FunctionType(list(inspect.signature(python_function).parameters.values()))
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return FunctionType([inspect.Parameter(t.op.name, kind, annotation=TensorSpec(t.shape, t.dtype, t.op.name))
                         for t in function.inputs])


@typing.runtime_checkable
class SupportsTracingProtocol(typing.Protocol):
    """Objects that give their own TraceType for tracing (`__tf_tracing_type__`)."""

    @abc.abstractmethod
    def __tf_tracing_type__(self, context):
        """The TraceType of this object."""


class TraceType(abc.ABC):
    """The type of a traced argument: subtyping, common supertypes and placeholders (for user subclasses)."""

    @abc.abstractmethod
    def is_subtype_of(self, other) -> bool:
        """Whether this type is a subtype of `other`."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific supertype of this type and `others`, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """A value of this type to trace with."""

    @abc.abstractmethod
    def __eq__(self, other) -> bool:
        pass

    @abc.abstractmethod
    def __hash__(self) -> int:
        pass


TensorLike = typing.Union[_TensorBase, EagerTensor, int, float, bool, str, bytes, complex, tuple, list,
                          np.ndarray, np.generic]


class DistributedValues(abc.ABC):
    """Values with one component per replica (placeflow's distribute values register here)."""


class Mirrored(DistributedValues):
    """Distributed values whose components are kept equal (placeflow's Mirrored and MirroredVariable)."""


class PerReplica(DistributedValues):
    """Distributed values with one, possibly different, component per replica (placeflow's PerReplica)."""


# -- tf.saved_model: Asset, VariablePolicy, fingerprints -------------------------------------------------------------


class Asset(Trackable):
    """A file a SavedModel depends on; `asset_path` is its path as a string tensor. placeflow's SavedModel does not
    copy asset files: saving an object that holds one is refused (refuse_assets)."""

    def __init__(self, path):
        self._path = convert_to_tensor(os.fspath(path) if isinstance(path, os.PathLike) else path,
                                       dtype=dtypes.string)

    @property
    def asset_path(self):
        """The file's path (a string tensor)."""
        return self._path


class VariablePolicy(enum.Enum):
    """How a SavedModel treats variables' devices and distributed variables; placeflow writes NONE only."""

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    def _save_variable_devices(self) -> bool:
        return self != VariablePolicy.NONE

    def _expand_distributed_variables(self) -> bool:
        return self == VariablePolicy.EXPAND_DISTRIBUTED_VARIABLES

    @staticmethod
    def from_obj(obj) -> "VariablePolicy":
        """The policy for None, a VariablePolicy, or its value's name (case-insensitive)."""
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        key = str(obj).lower()
        for policy in VariablePolicy:
            if key == str(policy.value):
                return policy
        raise ValueError(f"Received invalid VariablePolicy value: {obj}.")


def refuse_assets(obj) -> None:
    """NotImplementedError naming the first Asset that `obj` (about to be saved) holds."""
    from ..checkpoint import object_graph
    for found in object_graph.walk(obj)[0]:
        if isinstance(found, Asset):
            raise NotImplementedError(
                f"Saving a tf.saved_model.Asset ({found.asset_path.numpy().decode(errors='replace')!r}) is not "
                "implemented in placeflow: its SavedModel does not copy asset files into assets/. Keep the file "
                "beside the model and give its path to the loaded model instead.")


FINGERPRINT_FILENAME = "fingerprint.pb"
_FINGERPRINT_FIELDS = ("saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
                       "saved_object_graph_hash", "checkpoint_hash")
FINGERPRINT_VERSION = 4  # FingerprintDef.version.producer, as TensorFlow 2.21 writes


class Fingerprint:
    """A SavedModel's fingerprint: 64-bit hashes of its parts (TensorFlow's FingerprintDef). `version` is the
    producer version as an int (TensorFlow gives the VersionDef message)."""

    def __init__(self, saved_model_checksum=None, graph_def_program_hash=None, signature_def_hash=None,
                 saved_object_graph_hash=None, checkpoint_hash=None, version=None):
        self.saved_model_checksum = saved_model_checksum
        self.graph_def_program_hash = graph_def_program_hash
        self.signature_def_hash = signature_def_hash
        self.saved_object_graph_hash = saved_object_graph_hash
        self.checkpoint_hash = checkpoint_hash
        self.version = version

    @classmethod
    def from_proto(cls, proto) -> "Fingerprint":
        """A Fingerprint from a FingerprintDef (serialized, or a message with SerializeToString)."""
        data = proto.SerializeToString() if hasattr(proto, "SerializeToString") else bytes(proto)
        found = _parse_fingerprint(data)
        return cls(**{name: found.get(i + 1, 0) for i, name in enumerate(_FINGERPRINT_FIELDS)},
                   version=found.get("producer", 0))

    def singleprint(self) -> str:
        """The four hashes that identify the model, joined by '/' (as TensorFlow)."""
        return "/".join(str(getattr(self, name)) for name in _FINGERPRINT_FIELDS[1:])

    def __eq__(self, other) -> bool:
        return isinstance(other, Fingerprint) and all(
            getattr(self, n) == getattr(other, n) for n in _FINGERPRINT_FIELDS + ("version",))

    __hash__ = None

    def __repr__(self) -> str:
        return f"Fingerprint({', '.join(str(getattr(self, n)) for n in _FINGERPRINT_FIELDS)})"

    def __str__(self) -> str:
        lines = [f"  {n}: {getattr(self, n)}" for n in _FINGERPRINT_FIELDS]
        return "\n".join(["SavedModel Fingerprint"] + lines + [f"  version producer: {self.version}"])


def _parse_fingerprint(data: bytes) -> dict:
    """{field number: value} of a FingerprintDef, with its VersionDef's producer under 'producer'."""
    found = {}
    for number, _, value in fields(data):
        if number == 6:
            found["producer"] = next((v for n, _, v in fields(value) if n == 1), 0)
        else:
            found[number] = value
    return found


def read_fingerprint(export_dir) -> Fingerprint:
    """The Fingerprint of the SavedModel in `export_dir` (read from its fingerprint.pb)."""
    path = os.path.join(os.fspath(export_dir), FINGERPRINT_FILENAME)
    if not os.path.exists(path):
        raise FileNotFoundError(f"SavedModel Fingerprint Error: Could not find fingerprint in directory: "
                                f"{export_dir}. Save the model with tf.saved_model.save to write one.")
    with open(path, "rb") as f:
        return Fingerprint.from_proto(f.read())


def write_fingerprint(export_dir, graph_file: str) -> None:
    """Write fingerprint.pb for a placeflow SavedModel, with FarmHash Fingerprint64 (TensorFlow's hash) of:
    the graph file's bytes (saved_model_checksum; TensorFlow hashes saved_model.pb), its functions, signatures
    and objects as sorted JSON (graph_def_program_hash, signature_def_hash, saved_object_graph_hash; TensorFlow
    hashes its protos, so these numbers differ from TensorFlow's for the same model) and variables/variables.index
    (checkpoint_hash, as TensorFlow). The file is a FingerprintDef that TensorFlow reads."""
    import json
    from ..ops.string_hashes import fingerprint64
    export_dir = os.fspath(export_dir)
    with open(os.path.join(export_dir, graph_file), "rb") as f:
        raw = f.read()
    document = json.loads(raw)
    parts = [json.dumps(document.get(key), sort_keys=True).encode() for key in ("functions", "signatures", "objects")]
    index = os.path.join(export_dir, "variables", "variables.index")
    checkpoint = 0
    if os.path.exists(index):
        with open(index, "rb") as f:
            checkpoint = fingerprint64(f.read())
    hashes = [fingerprint64(raw)] + [fingerprint64(part) for part in parts] + [checkpoint]
    body = b"".join(field_varint(i + 1, value) for i, value in enumerate(hashes))
    body += field_bytes(6, field_varint(1, FINGERPRINT_VERSION))
    with open(os.path.join(export_dir, FINGERPRINT_FILENAME), "wb") as f:
        f.write(body)
