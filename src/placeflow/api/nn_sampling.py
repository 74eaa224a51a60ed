"""Candidate samplers (tf.random.*_candidate_sampler, also under tf.nn), compute_accidental_hits, and the sampled
losses nce_loss and sampled_softmax_loss.

The expected counts are TensorFlow's exactly; the sampled classes are drawn from a NumPy generator seeded as
tf.random's ops are, so a seed repeats placeflow's samples but not TensorFlow's (whose Philox stream the samplers
do not reproduce). Pass `sampled_values` to the losses to make them deterministic."""

import threading

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors, graph_mode

_learned: dict = {}      # sampler attributes -> LearnedCounts (TF's eager kernel cache keeps them across calls)
_lock = threading.Lock()


def _true_classes(true_classes, op):
    if hasattr(true_classes, "dtype"):
        t = convert_to_tensor(true_classes)
        if t.dtype != dtypes.int64:
            if graph_mode.active() is not None:  # TF checks input types while the graph is built
                raise TypeError(f"Input 'true_classes' of '{op}' Op has type {t.dtype.name} that does not match "
                                f"expected type of int64.")
            raise errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #0(zero-based) was expected "
                                                          f"to be a int64 tensor but is a {t.dtype.name} tensor")
        return t
    return convert_to_tensor(true_classes, dtype=dtypes.int64)


def _sampler(op, kind, true_classes, num_true, num_sampled, unique, range_max, seed, name, **extra):
    from collections import namedtuple
    from .random import _generator, get_seed
    true = _true_classes(true_classes, op)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max), "kind": kind, "generator": _generator(seed), **extra}
    if kind == "learned":
        from ..ops.nn_sampling import LearnedCounts
        if graph_mode.active() is not None:  # a graph's op has its own kernel, and so its own counts (as TF's)
            attrs["state"] = LearnedCounts(attrs["range_max"])
        else:
            key = (attrs["num_true"], attrs["num_sampled"], attrs["unique"], attrs["range_max"], get_seed(seed))
            with _lock:
                attrs["state"] = _learned.setdefault(key, LearnedCounts(attrs["range_max"]))
    outputs = execute(op, (true,), dtypes.int64, attrs, name=name)
    return namedtuple(op, ["sampled_candidates", "true_expected_count", "sampled_expected_count"])(*outputs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """num_sampled classes drawn uniformly from [0, range_max) (distinct when `unique`), with the expected counts of
    the true and sampled classes."""
    return _sampler("UniformCandidateSampler", "uniform", true_classes, num_true, num_sampled, unique, range_max,
                    seed, name)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Classes drawn with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) (Zipfian), with expected counts."""
    return _sampler("LogUniformCandidateSampler", "log_uniform", true_classes, num_true, num_sampled, unique,
                    range_max, seed, name)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Classes drawn in proportion to 1 + how often each was a true class in earlier calls with the same
    arguments (this call's true classes counted after it samples)."""
    return _sampler("LearnedUnigramCandidateSampler", "learned", true_classes, num_true, num_sampled, unique,
                    range_max, seed, name)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(), seed=None,
                                    name=None):
    """Classes drawn in proportion to unigrams ** distortion (ids below num_reserved_ids never; a shard keeps the
    ids with id % num_shards == shard), with expected counts."""
    if vocab_file:
        raise NotImplementedError("fixed_unigram_candidate_sampler(vocab_file=...) is not implemented in placeflow; "
                                  "pass the counts as `unigrams`.")
    weights = [0.0] * int(num_reserved_ids) + [float(u) ** float(distortion) for u in unigrams]
    weights = [w for i, w in enumerate(weights) if i % int(num_shards) == int(shard)]
    if len(weights) != int(range_max):
        raise errors.InvalidArgumentError(None, None, f"range is {int(range_max)} must be equal to weights size  "
                                                      f"{len(weights)}")
    return _sampler("FixedUnigramCandidateSampler", "fixed", true_classes, num_true, num_sampled, unique, range_max,
                    seed, name, unigrams=tuple(np.asarray(weights, np.float32).astype(float).tolist()))


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """The classes 0 .. num_sampled - 1, each with expected count 1."""
    return _sampler("AllCandidateSampler", "all", true_classes, num_true, num_sampled, unique, num_sampled, seed,
                    name)


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(row, sampled position, -FLT_MAX) for every sampled candidate equal to a true class of that row."""
    from collections import namedtuple
    true = _true_classes(true_classes, "ComputeAccidentalHits")
    sampled = convert_to_tensor(sampled_candidates, dtype=dtypes.int64)
    outputs = execute("ComputeAccidentalHits", (true, sampled), dtypes.int64, {"num_true": int(num_true)}, name=name)
    return namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])(*outputs)


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                    subtract_log_q, remove_accidental_hits, seed=None):
    """(logits [batch, num_true + num_sampled], labels of the same shape): the true classes' logits first."""
    from . import array_ops, math_ops
    from .indexing import gather, tensor_scatter_nd_update
    from .nn_embedding import _params
    weights, biases = _params(weights), _params(biases)
    inputs = convert_to_tensor(inputs, dtype=weights.dtype)
    labels = math_ops.cast(convert_to_tensor(labels), dtypes.int64)
    labels_flat = array_ops.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(array_ops.reshape(labels, [-1, num_true]), num_true,
                                                       num_sampled, True, num_classes, seed)
    sampled, true_expected, sampled_expected = (math_ops.stop_gradient(convert_to_tensor(v)) for v in sampled_values)
    sampled = math_ops.cast(sampled, dtypes.int64)
    all_ids = array_ops.concat([labels_flat, sampled], 0)
    all_w = gather(weights, all_ids)
    n_true = int(np.prod(labels.shape))
    dim = int(weights.shape[1])
    true_w = array_ops.reshape(all_w[:n_true], [-1, num_true, dim])
    sampled_w = all_w[n_true:]
    all_b = gather(biases, all_ids)
    true_b = array_ops.reshape(all_b[:n_true], [-1, num_true])
    sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True) + all_b[n_true:]
    true_logits = math_ops.reduce_sum(array_ops.expand_dims(inputs, 1) * true_w, axis=2) + true_b
    if remove_accidental_hits:
        rows, ids, hit = compute_accidental_hits(array_ops.reshape(labels, [-1, num_true]), sampled, num_true)
        where = array_ops.stack([math_ops.cast(rows, dtypes.int64), ids], axis=1)
        hits = tensor_scatter_nd_update(array_ops.zeros_like(sampled_logits, dtypes.float32), where, hit)
        sampled_logits += math_ops.cast(hits, sampled_logits.dtype)  # a class twice in a row is hit once
    if subtract_log_q:
        true_logits -= math_ops.log(math_ops.cast(true_expected, true_logits.dtype))
        sampled_logits -= math_ops.log(math_ops.cast(sampled_expected, true_logits.dtype))
    logits = array_ops.concat([true_logits, sampled_logits], 1)
    targets = array_ops.concat([array_ops.ones_like(true_logits) / num_true, array_ops.zeros_like(sampled_logits)], 1)
    return logits, targets


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, name="nce_loss"):
    """The noise-contrastive estimation loss per example: sigmoid cross-entropy of the true classes (target
    1 / num_true) and the sampled ones (target 0), logits corrected by the log of their expected counts."""
    from . import math_ops
    from .nn import sigmoid_cross_entropy_with_logits
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                      sampled_values, True, remove_accidental_hits)
    return math_ops.reduce_sum(sigmoid_cross_entropy_with_logits(labels=targets, logits=logits), axis=1)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, seed=None, name="sampled_softmax_loss"):
    """The softmax cross-entropy over the true and sampled classes only, logits corrected by the log of their
    expected counts (accidental hits removed by default)."""
    from . import math_ops
    from .nn import softmax_cross_entropy_with_logits
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                      sampled_values, True, remove_accidental_hits, seed)
    return softmax_cross_entropy_with_logits(labels=math_ops.stop_gradient(targets), logits=logits)
