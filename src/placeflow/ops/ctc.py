"""CTC kernels on the host: the dense-label loss of tf.nn.ctc_loss (TensorFlow's batched forward-backward over
start/label/blank states, log space, float64 inside), TF's CTCLoss op (sparse labels, blank last), and the
greedy and beam-search decoders. Each loss returns (loss, d loss / d logits) as TF's fused kernels do."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import FailedPreconditionError, InvalidArgumentError
from .emit import is_unconnected, reshape
from .registry import NOT_DIFFERENTIABLE, define
from .shape_rules import Incompatible

LOSS_TYPES = (d.float32, d.float64)
_LOG_0 = float(np.float32(np.log(1e-307)))   # the dense loss's "impossible" state weight: finite, as TF's


def _host(a):
    """A kernel argument as a NumPy array (CuPy arrays copied to the host)."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _lse(x, axis, keepdims=False):
    """log(sum(exp(x))) along `axis`; all -inf gives -inf (never NaN)."""
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


def _log_softmax(x):
    return x - _lse(x, -1, keepdims=True)


def _loss_grad(e, g_loss, g_grad=None):
    """d loss / d logits = upstream loss gradient (per example) times the kernel's gradient output; a second
    derivative is refused, as TensorFlow refuses it for this fused op."""
    if not is_unconnected(g_grad):
        raise LookupError("Currently there is no way to take the second derivative of ctc_loss due to the fused "
                          "implementation's interaction with tf.gradients()")
    batch_axis = 1 if e.attrs.get("time_major", True) else 0
    shape = [1, 1, 1]
    shape[batch_axis] = -1
    return [reshape(g_loss, shape) * e.outputs[1]] + [None] * (len(e.inputs) - 1)


def _loss_shape(shapes, attrs):
    logits, lengths = shapes[0], shapes[3]
    if logits is not None and len(logits) != 3:
        raise Incompatible(f"Shape must be rank 3 but is rank {len(logits)}")
    if lengths is not None and len(lengths) != 1:
        raise Incompatible(f"Shape must be rank 1 but is rank {len(lengths)}")
    if logits is not None and lengths is not None and attrs.get("time_major", True) and \
            None not in (logits[1], lengths[0]) and logits[1] != lengths[0]:
        raise Incompatible(f"Dimensions must be equal, but are {logits[1]} and {lengths[0]}")
    if logits is None:
        return [(None,), None]
    return [(logits[1] if attrs.get("time_major", True) else logits[0],), tuple(logits)]


def _rank3(a, what="inputs"):
    if a.ndim != 3:
        raise InvalidArgumentError(None, None, f"{what} is not a 3-Tensor: got shape {list(a.shape)}")


def _vector(a, size, what):
    if a.ndim != 1 or a.shape[0] != size:
        raise InvalidArgumentError(None, None, f"Incompatible shapes: {what} has shape {list(a.shape)}, expected "
                                               f"[{size}] (one per example)")


# -- the dense-label loss (tf.nn.ctc_loss with a dense labels tensor) ---------------------------------------------

def _dense_transitions(labels):
    """log transition weights [batch, to, from] over states: start 0, labels 1..U, blanks U+1..2U+1."""
    batch, width = labels.shape
    states = 2 * (width + 1)
    counts = np.zeros((batch, states, states))
    pairs = [(1, 0)] + [(k + 1, width + 1 + k) for k in range(width)] + [(width + 1 + k, k) for k in range(width + 1)]
    for to, frm in pairs:
        counts[:, to, frm] += 1.0
    counts += np.eye(states)
    for k in range(1, width):   # label k -> label k + 1 unless the two labels repeat
        counts[:, k + 1, k] += (labels[:, k - 1] != labels[:, k]).astype(np.float64)
    with np.errstate(divide="ignore"):
        return np.log(counts)


@define("CTCLossDense", (d.float32,), gpu=(), shape=_loss_shape, grad=_loss_grad, dtype=lambda t, a: [t, t],
        grad_reads=((), (1,)))
def _ctc_loss_dense(xp, logits, labels, label_length, logit_length, blank_index=0, time_major=True):
    """(loss, gradient) of dense padded labels; the blank is moved to class 0 as TF's dense loss does."""
    x = _host(logits).astype(np.float64)
    _rank3(x, "logits")
    x = x if time_major else x.transpose(1, 0, 2)
    frames, batch, classes = x.shape
    labels, label_length, logit_length = _host(labels), _host(label_length), _host(logit_length)
    if labels.ndim != 2 or labels.shape[0] != batch:
        raise InvalidArgumentError(None, None, f"Incompatible shapes: labels has shape {list(labels.shape)}, logits "
                                               f"have batch size {batch}")
    for what, lengths in (("label_length", label_length), ("logit_length", logit_length)):
        _vector(lengths, batch, what)
    order = np.arange(classes)   # the blank first, sliced as TF slices (an out-of-range index included)
    order = np.concatenate([order[blank_index:blank_index + 1], order[:blank_index], order[blank_index + 1:]])
    labels = np.where(labels < blank_index, labels + 1, labels).astype(np.int64)
    log_probs = _log_softmax(x[:, :, order])
    width, count = labels.shape[1], len(order)
    states = 2 * (width + 1)
    valid = (labels >= 0) & (labels < count)
    picked = np.take_along_axis(log_probs, np.where(valid, labels, 0)[None].repeat(frames, 0), axis=2)
    observed = np.concatenate([np.full((frames, batch, 1), -np.inf), np.where(valid[None], picked, 0.0),
                               np.repeat(log_probs[:, :, :1], width + 1, axis=2)], axis=2)
    trans = _dense_transitions(labels)
    start = np.where(np.arange(states) == 0, 0.0, _LOG_0)[None].repeat(batch, 0)
    final = np.full((batch, states), _LOG_0)
    ends = (label_length >= 0) & (label_length <= width)
    final[ends, label_length[ends]] = 0.0
    final[ends, width + 1 + label_length[ends]] = 0.0
    mask = (np.arange(frames)[:, None] < logit_length[None, :]).astype(np.float64)
    forward = [start]
    for t in range(frames):
        alpha = _lse(forward[-1][:, None, :] + trans, -1) + observed[t]
        forward.append(alpha - _lse(alpha, -1, keepdims=True))
    backward, carry, total = [final], final, np.zeros(batch)
    for t in range(frames - 1, -1, -1):
        beta = _lse((carry + observed[t])[:, :, None] + trans, 1)
        norm = _lse(beta, -1, keepdims=True)
        total += norm[:, 0] * mask[t]
        carry = (beta - norm) * mask[t][:, None] + final * (1.0 - mask[t][:, None])
        backward.append(carry)
    backward.reverse()
    posterior = np.stack(forward[1:]) + np.stack(backward[1:])
    with np.errstate(divide="ignore"):
        posterior = posterior - _lse(posterior, -1, keepdims=True) + np.log(mask)[:, :, None]
    occupation = np.zeros((frames, batch, count))
    occupation[:, :, 0] = np.exp(_lse(posterior[:, :, width + 1:], -1))
    rows, ks = np.nonzero((labels >= 1) & (labels < count))   # label states add to their class (blank: class 0)
    np.add.at(occupation, (slice(None), rows, labels[rows, ks]), np.exp(posterior[:, rows, ks + 1]))
    rotated = (np.exp(log_probs) - occupation) * mask[:, :, None]
    grad = np.zeros_like(x)
    np.add.at(grad, (slice(None), slice(None), order), rotated)
    grad, loss = grad if time_major else grad.transpose(1, 0, 2), -(backward[0][:, 0] + total)
    return xp.asarray(loss.astype(logits.dtype)), xp.asarray(grad.astype(logits.dtype))


# -- TF's CTCLoss op: sparse labels, blank = num_classes - 1 ------------------------------------------------------

def _batch_labels(indices, values, batch, seq_len):
    """The label sequence of each example, validated as TF's CTCLoss validates its SparseTensor."""
    if indices.ndim != 2 or values.ndim != 1 or indices.shape[0] != values.shape[0]:
        raise InvalidArgumentError(None, None, f"labels_indices must be a matrix [N, 2] and labels_values a vector "
                                               f"[N]; got {list(indices.shape)} and {list(values.shape)}")
    bound = [batch, int(indices[:, 1].max()) + 1 if len(indices) else 0]
    for i, row in enumerate(indices.tolist()):
        if i and row <= indices[i - 1].tolist():
            raise InvalidArgumentError(None, None, f"label SparseTensor is not valid: indices[{i}] = "
                                                   f"[{row[0]},{row[1]}] is out of order. Many sparse ops require "
                                                   "sorted indices.")
        if not (0 <= row[0] < bound[0] and 0 <= row[1] < bound[1]):
            raise InvalidArgumentError(None, None, f"label SparseTensor is not valid: indices[{i}] = "
                                                   f"[{row[0]},{row[1]}] is out of bounds: need 0 <= index < "
                                                   f"[{bound[0]},{bound[1]}]")
    rows = [[int(v) for (row, _), v in zip(indices.tolist(), values.tolist()) if row == b] for b in range(batch)]
    negative = [b for b, length in enumerate(seq_len.tolist()) if length < 0]
    if negative:
        raise InvalidArgumentError(None, None, f"seq_len({negative[0]}) < 0")
    return rows


def _label_sequence(row, b, classes, collapse):
    """A row's labels: nonnegative; a label >= num_classes - 1 (null) ends it, and only nulls may follow."""
    if not row:
        raise InvalidArgumentError(None, None, f"Labels length is zero in batch {b}")
    if min(row) < 0:
        raise InvalidArgumentError(None, None, f"All labels must be nonnegative integers, batch: {b} labels: "
                                               f"{','.join(map(str, row))}")
    out = []
    for i, label in enumerate(row):
        if label >= classes - 1:
            if any(later < classes - 1 for later in row[i:]):
                raise InvalidArgumentError(None, None, (
                    f"Saw a non-null label (index >= num_classes - 1) following a null label, batch: {b} num_classes:"
                    f" {classes} labels: {','.join(map(str, row))} labels seen so far: {','.join(map(str, out))}"))
            break
        if not (collapse and out and out[-1] == label):
            out.append(label)
    return out


def _alpha(emit_y, stay, skip):
    """Forward log probabilities [frames, states] (each frame's emission included): a state is entered from
    itself where `stay`, from the state before, and from two before where `skip`."""
    frames, size = emit_y.shape
    alpha = np.full((frames, size), -np.inf)
    alpha[0, :2] = emit_y[0, :2]
    for t in range(1, frames):
        prev = alpha[t - 1]
        terms = [np.where(stay, prev, -np.inf), np.concatenate([[-np.inf], prev[:-1]]),
                 np.where(skip, np.concatenate([[-np.inf, -np.inf], prev])[:size], -np.inf)]
        alpha[t] = _lse(np.stack(terms), 0) + emit_y[t]
    return alpha


def _occupation(log_y, labels, merge, blank):
    """(log p(labels), per-frame class occupation probabilities) by alpha-beta over blank-interleaved states;
    beta is the alpha of the reversed frames and states (the topology is symmetric)."""
    ext = [blank] + [v for label in labels for v in (label, blank)]
    stay = np.array([merge or s == blank for s in ext])
    skip = np.array([s >= 2 and ext[s] != blank and not (merge and ext[s] == ext[s - 2]) for s in range(len(ext))])
    emit_y = log_y[:, ext]
    alpha = _alpha(emit_y, stay, skip)
    beta = _alpha(emit_y[::-1, ::-1], stay[::-1], np.concatenate([skip[2:], [False, False]])[::-1])[::-1, ::-1]
    log_p = _lse(alpha[-1, -2:], 0)
    occupation = np.zeros(log_y.shape)
    if np.isfinite(log_p):
        np.add.at(occupation, (slice(None), ext), np.exp(alpha + beta - emit_y - log_p))
    return log_p, occupation


@define("CTCLoss", LOSS_TYPES, gpu=(), shape=_loss_shape, grad=_loss_grad, dtype=lambda t, a: [t, t],
        grad_reads=((), (1,)))
def _ctc_loss(xp, inputs, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
              ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    """TF's CTCLoss: per-example -log p(labels | logits) and its gradient; inputs [max_time, batch, classes]."""
    x = _host(inputs).astype(np.float64)
    _rank3(x)
    frames, batch, classes = x.shape
    seq_len = _host(sequence_length).astype(np.int64)
    _length_checks(x, seq_len, InvalidArgumentError)
    rows = _batch_labels(_host(labels_indices).astype(np.int64), _host(labels_values), batch, seq_len)
    loss, grad = np.zeros(batch), np.zeros_like(x)
    for b in range(batch):
        labels = _label_sequence(rows[b], b, classes, preprocess_collapse_repeated)
        length = int(seq_len[b])
        if len(labels) > length:
            if ignore_longer_outputs_than_inputs:
                continue
            raise InvalidArgumentError(None, None, (
                f"Not enough time for target transition sequence (required: {len(labels)}, available: {length})"
                f"{b}You can turn this error into a warning by using the flag ignore_longer_outputs_than_inputs"))
        if length == 0:
            continue
        log_y = _log_softmax(x[:length, b])
        log_p, occupation = _occupation(log_y, labels, ctc_merge_repeated, classes - 1)
        loss[b] = -log_p
        grad[:length, b] = np.exp(log_y) - occupation
    return xp.asarray(loss.astype(inputs.dtype)), xp.asarray(grad.astype(inputs.dtype))


# -- decoders --------------------------------------------------------------------------------------------------

def _length_checks(x, seq_len, error=FailedPreconditionError):
    """inputs 3-D and one sequence length (at most max_time) per example; the decoders' errors are
    FailedPreconditionError, CTCLoss's InvalidArgumentError, as in TF."""
    _rank3(x)
    if seq_len.ndim != 1:
        raise InvalidArgumentError(None, None, f"sequence_length is not a vector: got shape {list(seq_len.shape)}")
    frames, batch = x.shape[:2]
    if len(seq_len) != batch:
        raise error(None, None, f"len(sequence_length) != batch_size.  len(sequence_length):  {len(seq_len)} "
                                f"batch_size: {batch}")
    longer = [b for b, length in enumerate(seq_len.tolist()) if length > frames]
    if longer:
        raise error(None, None, f"sequence_length({longer[0]}) <= {frames}")


def _sparse_outputs(xp, paths):
    """(indices [N, 2], values [N], dense_shape [2]) int64 of one label sequence per example."""
    indices = [[b, i] for b, path in enumerate(paths) for i in range(len(path))]
    values = [v for path in paths for v in path]
    width = max((len(p) for p in paths), default=0)
    return (xp.asarray(np.array(indices, np.int64).reshape(-1, 2)), xp.asarray(np.array(values, np.int64)),
            xp.asarray(np.array([len(paths), width], np.int64)))


def _decoder_checks(shapes, attrs, op):
    """TF's shape function of the decoders: inputs [time, batch, classes], sequence_length [batch]; its attribute
    minimums."""
    inputs, lengths = shapes[0], shapes[1]
    if inputs is not None and len(inputs) != 3:
        raise Incompatible(f"Shape must be rank 3 but is rank {len(inputs)}")
    if lengths is not None and len(lengths) != 1:
        raise Incompatible(f"Shape must be rank 1 but is rank {len(lengths)}")
    if inputs is not None and lengths is not None and None not in (inputs[1], lengths[0]) and \
            inputs[1] != lengths[0]:
        raise Incompatible(f"Dimensions must be equal, but are {inputs[1]} and {lengths[0]}")
    for attr in ("beam_width", "top_paths"):
        if attr in attrs and int(attrs[attr]) < 1:
            raise Incompatible(f"Attr '{attr}' of '{op}' Op passed {int(attrs[attr])} less than minimum 1")


def _greedy_shape(shapes, attrs):
    _decoder_checks(shapes, attrs, "CTCGreedyDecoder")
    batch = shapes[0][1] if shapes[0] is not None and len(shapes[0]) == 3 else None
    return [(None, 2), (None,), (2,), (batch, 1)]


@define("CTCGreedyDecoder", LOSS_TYPES, gpu=(), shape=_greedy_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda t, a: [d.int64, d.int64, d.int64, t])
def _greedy_decoder(xp, inputs, sequence_length, merge_repeated=True, blank_index=-1):
    """Best class per frame, blanks dropped (and repeats merged); log probability -sum of the frames' maxima."""
    x, seq_len = _host(inputs), _host(sequence_length).astype(np.int64)
    _length_checks(x, seq_len)
    classes = x.shape[2]
    if not -classes <= blank_index < classes:
        raise InvalidArgumentError(None, None, f"blank_index expected to be between {-classes} and {classes - 1} but "
                                               f"was {blank_index}")
    blank = blank_index % classes
    best, paths = np.argmax(x, axis=2), []   # the first of equal maxima, as TF's
    inside = np.arange(x.shape[0])[:, None] < seq_len[None, :]
    scores = -np.sum(np.where(inside, x.max(axis=2), 0), axis=0).astype(x.dtype)[:, None]
    for b, length in enumerate(seq_len.tolist()):
        row = best[:max(length, 0), b].tolist()
        paths.append([c for t, c in enumerate(row) if c != blank and not (merge_repeated and t and c == row[t - 1])])
    return (*_sparse_outputs(xp, paths), xp.asarray(scores))


def _beam_shape(shapes, attrs):
    _decoder_checks(shapes, attrs, "CTCBeamSearchDecoder")
    paths = int(attrs.get("top_paths", 1))
    batch = shapes[0][1] if shapes[0] is not None and len(shapes[0]) == 3 else None
    return [(None, 2)] * paths + [(None,)] * paths + [(2,)] * paths + [(batch, paths)]


@define("CTCBeamSearchDecoder", LOSS_TYPES, gpu=(), shape=_beam_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda t, a: [d.int64] * (3 * int(a.get("top_paths", 1))) + [t])
def _beam_search_decoder(xp, inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """TF's prefix beam search (blank last, frames log-softmax normalized): top_paths sequences per example."""
    x, seq_len = _host(inputs), _host(sequence_length).astype(np.int64)
    for attr, value in (("beam_width", beam_width), ("top_paths", top_paths)):
        if value < 1:
            raise InvalidArgumentError(None, None, f"Value for attr '{attr}' of {value} must be at least minimum 1")
    _length_checks(x, seq_len)
    if top_paths > beam_width:
        raise InvalidArgumentError(None, None, "requested more paths than the beam width.")
    found = [beam_search(_log_softmax(x[:max(length, 0), b].astype(np.float64)), beam_width, top_paths,
                         merge_repeated) for b, length in enumerate(seq_len.tolist())]
    outputs = [_sparse_outputs(xp, [paths[j] for paths, _ in found]) for j in range(top_paths)]
    scores = np.array([probs for _, probs in found], x.dtype).reshape(len(found), top_paths)
    return (*[o[0] for o in outputs], *[o[1] for o in outputs], *[o[2] for o in outputs], xp.asarray(scores))


class _Beam:
    """A prefix in the beam tree: its last label, parent, children, and (blank, label, total) log probabilities
    at the previous frame (old) and this one (new)."""

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.reset()

    def active(self):
        return self.new[2] != -np.inf

    def reset(self):
        self.old, self.new = [-np.inf] * 3, [-np.inf] * 3

    def child(self, label):
        if label not in self.children:
            self.children[label] = _Beam(self, label)
        return self.children[label]

    def labels(self, merge_repeated):
        out, node = [], self
        while node.parent is not None:
            out, node = [node.label] + out, node.parent
        return [v for i, v in enumerate(out) if not (merge_repeated and i and v == out[i - 1])]


def _add(a, b):
    """log(exp(a) + exp(b)) as TF's decoder computes it (-inf is zero)."""
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    return max(a, b) + np.log1p(np.exp(-abs(a - b)))


def beam_search(log_probs, beam_width, top_paths, merge_repeated):
    """([top_paths label sequences], [their log probabilities]) of one example's [frames, classes] log
    probabilities; the blank is the last class. The beam keeps the beam_width most probable prefixes."""
    blank = log_probs.shape[1] - 1
    root = _Beam(None, -1)
    root.new = [0.0, -np.inf, 0.0]
    leaves = [root]
    for frame in log_probs:
        branches, leaves = sorted(leaves, key=lambda e: -e.new[2]), []
        for entry in branches:
            entry.old = list(entry.new)
        for entry in branches:
            parent = entry.parent
            if parent is not None:
                if parent.active():
                    previous = parent.old[0] if entry.label == parent.label else parent.old[2]
                    entry.new[1] = _add(entry.new[1], previous)
                entry.new[1] += frame[entry.label]
            entry.new[0] = entry.old[2] + frame[blank]
            entry.new[2] = _add(entry.new[0], entry.new[1])
            leaves.append(entry)
        branches.sort(key=lambda e: -e.old[2])

        def bottom():
            return min(leaves, key=lambda e: e.new[2])

        def candidate(total):   # a prefix enters a full beam only above its least probable one
            return total > -np.inf and (len(leaves) < beam_width or total > bottom().new[2])

        for entry in branches:
            if not candidate(entry.old[2]):
                continue
            for label in range(len(frame)):
                if label == blank:
                    continue
                child = entry.child(label)
                if child.active():
                    continue
                previous = entry.old[0] if label == entry.label else entry.old[2]
                child.new = [-np.inf, frame[label] + previous, frame[label] + previous]
                if candidate(child.new[2]):
                    if len(leaves) == beam_width:
                        worst = bottom()   # leaves the beam; its previous-frame values stay readable
                        worst.new = [-np.inf] * 3
                        leaves.remove(worst)
                    leaves.append(child)
                else:
                    child.reset()
    if top_paths > len(leaves):
        raise InvalidArgumentError(None, None, "Less leaves in the beam search than requested.")
    best = sorted(leaves, key=lambda e: -e.new[2])[:top_paths]
    return [e.labels(merge_repeated) for e in best], [e.new[2] for e in best]
