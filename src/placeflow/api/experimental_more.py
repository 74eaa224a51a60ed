"""tf.experimental's execution switches: async_scope, async_clear_error, function_executor_type and
enable_strict_mode.

placeflow's eager execution is synchronous: every op has finished (or raised) when its call returns, so
`async_scope` only marks a region (ops in it run as anywhere else, errors surface at the op that caused them)
and `async_clear_error` has no pending error to clear. placeflow has one function executor, TensorFlow's
default: `function_executor_type` accepts that one (None or "") and refuses others by name."""

from __future__ import annotations

import contextlib
import functools

# TensorFlow 2.21's public functions marked deprecated (their docstrings say so): in strict mode calling one
# raises RuntimeError. Those placeflow implements are made to raise too (see enable_strict_mode).
DEPRECATED_APIS = (
    "config.experimental.get_memory_usage", "config.experimental_functions_run_eagerly",
    "config.experimental_run_functions_eagerly", "data.experimental.Counter", "data.experimental.RandomDataset",
    "data.experimental.TFRecordWriter", "data.experimental.bucket_by_sequence_length",
    "data.experimental.choose_from_datasets", "data.experimental.dense_to_ragged_batch",
    "data.experimental.dense_to_sparse_batch", "data.experimental.enumerate_dataset",
    "data.experimental.get_next_as_optional", "data.experimental.get_single_element",
    "data.experimental.group_by_window", "data.experimental.ignore_errors", "data.experimental.load",
    "data.experimental.make_saveable_from_iterator", "data.experimental.map_and_batch",
    "data.experimental.parallel_interleave", "data.experimental.parse_example_dataset",
    "data.experimental.rejection_resample", "data.experimental.sample_from_datasets", "data.experimental.save",
    "data.experimental.scan", "data.experimental.shuffle_and_repeat", "data.experimental.snapshot",
    "data.experimental.take_while", "data.experimental.unbatch", "data.experimental.unique",
    "experimental.dtensor.run_on", "feature_column.bucketized_column",
    "feature_column.categorical_column_with_hash_bucket", "feature_column.categorical_column_with_identity",
    "feature_column.categorical_column_with_vocabulary_file",
    "feature_column.categorical_column_with_vocabulary_list", "feature_column.crossed_column",
    "feature_column.embedding_column", "feature_column.indicator_column", "feature_column.make_parse_example_spec",
    "feature_column.numeric_column", "feature_column.sequence_categorical_column_with_hash_bucket",
    "feature_column.sequence_categorical_column_with_identity",
    "feature_column.sequence_categorical_column_with_vocabulary_file",
    "feature_column.sequence_categorical_column_with_vocabulary_list", "feature_column.sequence_numeric_column",
    "feature_column.shared_embeddings", "feature_column.weighted_categorical_column", "guarantee_const",
    "math.accumulate_n", "quantization.quantize_and_dequantize", "test.is_gpu_available",
    "xla.experimental.compile")

_STRICT = {"on": False, "replaced": []}   # replaced: [(namespace, name, original function)]


@contextlib.contextmanager
def async_scope():
    """A region TensorFlow may run asynchronously; placeflow runs every op synchronously, so errors are raised
    by the op that caused them, inside or outside the scope."""
    yield


def async_clear_error() -> None:
    """Clear pending asynchronous errors: placeflow runs ops synchronously, so there are none to clear."""


_DEFAULT_EXECUTORS = (None, "")


@contextlib.contextmanager
def function_executor_type(executor_type):
    """Run the functions called in this scope with `executor_type`: placeflow has only TensorFlow's default
    executor (None or ""); another is refused by name."""
    if executor_type not in _DEFAULT_EXECUTORS:
        raise NotImplementedError(f"tf.experimental.function_executor_type({executor_type!r}) is not implemented "
                                  f"in placeflow: it has one function executor, TensorFlow's default; pass None "
                                  f"(or '') or leave the scope out.")
    yield


def _strict_wrapper(name, original):
    @functools.wraps(original)
    def deprecated(*args, **kwargs):
        raise RuntimeError(f"This behavior has been deprecated, which raises an error in strict mode. "
                           f"(tf.{name} is deprecated in TensorFlow 2.21; use its replacement, see its docs.)")
    deprecated._placeflow_strict_original = original
    return deprecated


def _namespace_and_function(name):
    """(the placeflow namespace holding `name` ('math.accumulate_n'), its function), or None where placeflow
    does not implement it."""
    import sys
    parent, value = None, sys.modules["placeflow"]
    for part in name.split("."):
        try:
            parent, value = value, getattr(value, part)
        except (AttributeError, NotImplementedError):
            return None
    if getattr(value, "_placeflow_refusal", False) or not callable(value) or isinstance(value, type):
        return None
    return parent, value


def enable_strict_mode() -> None:
    """From now on, calling a deprecated API (DEPRECATED_APIS, through its public name) raises RuntimeError,
    as in TensorFlow (where it cannot be switched off again)."""
    if _STRICT["on"]:
        return
    for name in DEPRECATED_APIS:
        found = _namespace_and_function(name)
        if found is not None:
            namespace, original = found
            setattr(namespace, name.rpartition(".")[2], _strict_wrapper(name, original))
            _STRICT["replaced"].append((namespace, name.rpartition(".")[2], original))
    _STRICT["on"] = True


def strict_mode_names() -> list:
    """The deprecated placeflow functions strict mode makes raise (those of DEPRECATED_APIS placeflow has)."""
    return [name for name in DEPRECATED_APIS if _namespace_and_function(name) is not None]
