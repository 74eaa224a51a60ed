"""placeflow.signal: Fourier transforms (ops/spectral.py), framing, short-time Fourier transforms, windows, mel
filterbanks, MFCCs and discrete cosine transforms, composed of ops as TensorFlow composes them (so they
differentiate and run inside `function`)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import array_ops, indexing, math_ops


# -- Fourier transforms -----------------------------------------------------------------------------------------

def _complex_input(value):
    return convert_to_tensor(value)  # the op's type constraint refuses real tensors, as TensorFlow's


def _transform(op: str, rank: int):
    def transform(input, name=None):  # noqa: A002 - TensorFlow's parameter name
        x = _complex_input(input)
        _check_rank(x, rank, op)
        return execute(op, (x,), x.dtype, name=name)
    transform.__name__ = op.lower()
    transform.__doc__ = f"The {'inverse ' if op.startswith('I') else ''}{rank}-D discrete Fourier transform over " \
                        f"the innermost {rank} dimension{'s' if rank > 1 else ''} ({op})."
    return transform


def _check_rank(x, rank: int, op: str):
    if x.shape is not None and len(x.shape) < rank:
        raise ValueError(f"{op} needs an input of rank {rank} or more; got shape {tuple(x.shape)}.")


fft, ifft = _transform("FFT", 1), _transform("IFFT", 1)
fft2d, ifft2d = _transform("FFT2D", 2), _transform("IFFT2D", 2)
fft3d, ifft3d = _transform("FFT3D", 3), _transform("IFFT3D", 3)


def _lengths(fft_length, default: list, rank: int) -> tuple:
    if fft_length is None:
        if None in default:
            raise ValueError("fft_length is needed when the transformed dimensions are not known while building.")
        return tuple(int(n) for n in default)
    known = array_ops.get_static_value(fft_length)
    if known is None:
        raise NotImplementedError("an fft_length known only when the graph runs is not implemented in placeflow; "
                                  "pass a Python list or a constant.")
    lengths = tuple(int(n) for n in np.atleast_1d(known))
    if len(lengths) != rank:
        raise ValueError(f"fft_length must have {rank} element{'s' if rank > 1 else ''}; got {list(lengths)}.")
    return lengths


def _real_transform(op: str, rank: int):
    def transform(input_tensor, fft_length=None, name=None):
        x = convert_to_tensor(input_tensor)
        if x.dtype not in (dtypes.float32, dtypes.float64):
            x = math_ops.cast(x, dtypes.float32)
        _check_rank(x, rank, op)
        lengths = _lengths(fft_length, list(x.shape[-rank:]), rank)
        return execute(op, (x,), x.dtype, {"fft_length": lengths}, name=name)
    transform.__name__ = op.lower()
    transform.__doc__ = f"The {rank}-D discrete Fourier transform of a real tensor over its innermost dimensions " \
                        f"(the non-negative frequencies of the last one), cropped or padded to fft_length ({op})."
    return transform


def _inverse_real_transform(op: str, rank: int):
    def transform(input_tensor, fft_length=None, name=None):
        x = _complex_input(input_tensor)
        _check_rank(x, rank, op)
        dims = list(x.shape[-rank:])
        default = dims[:-1] + [None if dims[-1] is None else 2 * (int(dims[-1]) - 1)]
        lengths = _lengths(fft_length, default, rank)
        return execute(op, (x,), x.dtype, {"fft_length": lengths}, name=name)
    transform.__name__ = op.lower()
    transform.__doc__ = f"The inverse of rfft{'' if rank == 1 else f'{rank}d'}: a real signal of fft_length from its " \
                        f"non-negative frequencies ({op})."
    return transform


rfft, irfft = _real_transform("RFFT", 1), _inverse_real_transform("IRFFT", 1)
rfft2d, irfft2d = _real_transform("RFFT2D", 2), _inverse_real_transform("IRFFT2D", 2)
rfft3d, irfft3d = _real_transform("RFFT3D", 3), _inverse_real_transform("IRFFT3D", 3)


def _shift(x, axes, sign: int):
    x = convert_to_tensor(x)
    rank = len(x.shape)
    axes = list(range(rank)) if axes is None else [int(a) for a in np.atleast_1d(axes)]
    shifts = [sign * (int(x.shape[a]) // 2) for a in axes]
    return array_ops.roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """The zero frequency moved to the middle of `axes` (all when None)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift."""
    return _shift(x, axes, -1)


# -- framing ----------------------------------------------------------------------------------------------------

def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of `frame_length` every `frame_step` samples along `axis` (a new axis after it); with
    pad_end, the end is padded with `pad_value` so every sample is in a frame."""
    x = convert_to_tensor(signal)
    rank = len(x.shape)
    axis = int(axis) % rank
    if x.shape[axis] is None:
        raise NotImplementedError("tf.signal.frame of an axis whose length is known only when the graph runs is "
                                  "not implemented in placeflow; give the signal a static length.")
    length, size, step = int(x.shape[axis]), int(frame_length), int(frame_step)
    if pad_end:
        frames = -(-length // step)
        padded = max((frames - 1) * step + size, length)
        paddings = [[0, 0]] * rank
        paddings[axis] = [0, padded - length]
        x = indexing.pad(x, paddings, constant_values=pad_value)
    else:
        frames = max(0, 1 + (length - size) // step)
    starts = np.arange(frames)[:, None] * step + np.arange(size)[None, :]
    return indexing.gather(x, convert_to_tensor(starts.astype(np.int32)), axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """Frames [..., frames, frame_length] added back into one signal, each `frame_step` after the last."""
    x = convert_to_tensor(signal)
    frames, size, step = int(x.shape[-2]), int(x.shape[-1]), int(frame_step)
    length = (frames - 1) * step + size if frames else 0
    positions = (np.arange(frames)[:, None] * step + np.arange(size)[None, :]).reshape(-1)
    batch = list(x.shape[:-2])
    flat = array_ops.reshape(x, [-1, frames * size])
    moved = array_ops.transpose(flat)  # [frames * size, batch]
    summed = math_ops.unsorted_segment_sum(moved, positions.astype(np.int32), length)
    return array_ops.reshape(array_ops.transpose(summed), batch + [length])


# -- windows ----------------------------------------------------------------------------------------------------

def _window_length(window_length) -> int:
    known = array_ops.get_static_value(window_length)
    if known is None:
        raise NotImplementedError("a window_length known only when the graph runs is not implemented in placeflow.")
    return int(known)


def _raised_cosine(window_length, periodic, dtype, a: float, b: float):
    length, dtype = _window_length(window_length), dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type; got {dtype.name}.")
    if length == 1:
        return array_ops.ones([1], dtype)
    kind = dtype.numpy_dtype.type
    even = 1 - length % 2
    denominator = kind(length + int(bool(periodic)) * even - 1)
    count = np.arange(length, dtype=dtype.numpy_dtype)
    argument = kind(2 * np.pi) * count / denominator
    return convert_to_tensor((kind(a) - kind(b) * np.cos(argument)).astype(dtype.numpy_dtype), dtype=dtype)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.5 - 0.5 cos(2 pi n / N): the Hann window (periodic: N is the length, for spectral analysis)."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.54 - 0.46 cos(2 pi n / N): the Hamming window."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def _i0e(values):
    """The exponentially scaled modified Bessel function of order 0, in float64."""
    values = np.abs(np.asarray(values, np.float64))
    return np.exp(-values) * np.i0(values)


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser window with shape parameter `beta`."""
    length, dtype = _window_length(window_length), dtypes.as_dtype(dtype)
    if length == 1:
        return array_ops.ones([1], dtype)
    half = (length - 1) / 2
    argument = np.arange(-half, half + 0.1).astype(dtype.numpy_dtype).astype(np.float64)
    numerator = float(beta) * np.sqrt(np.maximum(1.0 - argument ** 2 / half ** 2, 0.0))
    window = np.exp(numerator - float(beta)) * _i0e(numerator) / _i0e(float(beta))
    return convert_to_tensor(window.astype(dtype.numpy_dtype), dtype=dtype)


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser-Bessel-derived window (for MDCTs)."""
    length, dtype = _window_length(window_length), dtypes.as_dtype(dtype)
    half = length // 2
    kaiser = array_ops.get_static_value(kaiser_window(half + 1, beta, dtype)).astype(np.float64)
    cumulative = np.cumsum(kaiser)
    rising = np.sqrt(cumulative[:-1] / cumulative[-1])
    return convert_to_tensor(np.concatenate([rising, rising[::-1]]).astype(dtype.numpy_dtype), dtype=dtype)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """sin(pi / 2 * sin(pi (n + 0.5) / N) ** 2): the Vorbis power-complementary window."""
    length, dtype = _window_length(window_length), dtypes.as_dtype(dtype)
    n = np.arange(length, dtype=np.float64)
    window = np.sin(np.pi / 2 * np.sin(np.pi * (n + 0.5) / length) ** 2)
    return convert_to_tensor(window.astype(dtype.numpy_dtype), dtype=dtype)


# -- short-time Fourier transforms ------------------------------------------------------------------------------

def _next_power_of_two(value: int) -> int:
    return 1 << max(0, int(value) - 1).bit_length()


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """The short-time Fourier transform: rfft of each windowed frame ([..., frames, fft_length // 2 + 1])."""
    x = convert_to_tensor(signals)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        x = math_ops.cast(x, dtypes.float32)
    frame_length = int(frame_length)
    fft_length = _next_power_of_two(frame_length) if fft_length is None else int(fft_length)
    framed = frame(x, frame_length, int(frame_step), pad_end=pad_end)
    if window_fn is not None:
        framed = math_ops.multiply(framed, window_fn(frame_length, dtype=x.dtype))
    return rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window function for inverse_stft that undoes `forward_window_fn`'s overlapping windows."""
    def window_fn(frame_length, dtype):
        forward = forward_window_fn(frame_length, dtype=dtype)
        squared = np.square(array_ops.get_static_value(forward).astype(np.float64))
        step = int(frame_step)
        overlaps = -(-int(frame_length) // step)
        padded = np.pad(squared, (0, overlaps * step - int(frame_length))).reshape(overlaps, step)
        denominator = np.tile(padded.sum(axis=0, keepdims=True), (overlaps, 1)).reshape(-1)[:int(frame_length)]
        return math_ops.divide(forward, convert_to_tensor(denominator.astype(forward.dtype.numpy_dtype)))
    return window_fn


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """Signals from their short-time Fourier transforms (with inverse_stft_window_fn's window, the inverse of
    stft)."""
    x = _complex_input(stfts)
    frame_length = int(frame_length)
    fft_length = _next_power_of_two(frame_length) if fft_length is None else int(fft_length)
    frames = irfft(x, [fft_length])[..., :frame_length]
    if fft_length < frame_length:
        rank = len(frames.shape)
        frames = indexing.pad(frames, [[0, 0]] * (rank - 1) + [[0, frame_length - fft_length]])
    if window_fn is not None:
        frames = math_ops.multiply(frames, window_fn(frame_length, dtype=frames.dtype))
    return overlap_and_add(frames, int(frame_step))


# -- mel filterbanks and cepstra ----------------------------------------------------------------------------------

def _hertz_to_mel(frequencies):
    return math_ops.multiply(1127.0, math_ops.log(math_ops.add(1.0, math_ops.divide(frequencies, 700.0))))


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """A [num_spectrogram_bins, num_mel_bins] matrix of triangular mel filters (HTK's mel scale), as
    TensorFlow builds it."""
    dtype = dtypes.as_dtype(dtype)
    bins, mels = int(num_spectrogram_bins), int(num_mel_bins)
    lower, upper, rate = float(lower_edge_hertz), float(upper_edge_hertz), float(sample_rate)
    if mels <= 0 or bins <= 0 or rate <= 0.0:
        raise ValueError(f"num_mel_bins, num_spectrogram_bins and sample_rate must be positive; got {mels}, {bins}, "
                         f"{rate}.")
    if lower < 0.0 or lower >= upper or upper > rate / 2.0:
        raise ValueError(f"lower_edge_hertz ({lower}) must be in [0, upper_edge_hertz ({upper})) and "
                         f"upper_edge_hertz at most the Nyquist frequency ({rate / 2.0}).")
    nyquist = convert_to_tensor(rate / 2.0, dtype=dtype)
    linear = math_ops.linspace(convert_to_tensor(0.0, dtype=dtype), nyquist, bins)[1:]
    spectrogram_mel = array_ops.expand_dims(_hertz_to_mel(linear), 1)
    edges = math_ops.linspace(_hertz_to_mel(convert_to_tensor(lower, dtype=dtype)),
                              _hertz_to_mel(convert_to_tensor(upper, dtype=dtype)), mels + 2)
    lower_mel = array_ops.reshape(edges[:-2], [1, mels])
    center_mel = array_ops.reshape(edges[1:-1], [1, mels])
    upper_mel = array_ops.reshape(edges[2:], [1, mels])
    rising = math_ops.divide(math_ops.subtract(spectrogram_mel, lower_mel), math_ops.subtract(center_mel, lower_mel))
    falling = math_ops.divide(math_ops.subtract(upper_mel, spectrogram_mel), math_ops.subtract(upper_mel, center_mel))
    weights = math_ops.maximum(convert_to_tensor(0.0, dtype=dtype), math_ops.minimum(rising, falling))
    return indexing.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients: the orthonormal DCT-II of log mel spectrograms (as HTK scales it)."""
    x = convert_to_tensor(log_mel_spectrograms)
    bins = int(x.shape[-1])
    return math_ops.multiply(dct(x, type=2), math_ops.rsqrt(convert_to_tensor(bins * 2.0, dtype=x.dtype)))


# -- discrete cosine transforms (a matrix product: exact, differentiable, any device) ------------------------------

def _dct_matrix(kind: int, size: int, norm, numpy_dtype) -> np.ndarray:
    """M with dct(x) = x @ M for a length-`size` signal."""
    n = np.arange(size)[:, None].astype(np.float64)
    k = np.arange(size)[None, :].astype(np.float64)
    if kind == 1:
        matrix = 2.0 * np.cos(np.pi * n * k / (size - 1))
        matrix[0, :] = 1.0
        matrix[-1, :] = np.cos(np.pi * k[0])
    elif kind == 2:
        matrix = 2.0 * np.cos(np.pi * k * (2 * n + 1) / (2 * size))
        if norm == "ortho":
            matrix *= np.sqrt(1.0 / (2 * size))
            matrix[:, 0] *= np.sqrt(0.5)
    elif kind == 3:
        matrix = 2.0 * np.cos(np.pi * n * (2 * k + 1) / (2 * size))
        matrix[0, :] = 1.0
        if norm == "ortho":
            matrix *= np.sqrt(1.0 / (2 * size))
            matrix[0, :] *= np.sqrt(2.0)
    else:
        matrix = 2.0 * np.cos(np.pi * (2 * n + 1) * (2 * k + 1) / (4 * size))
        if norm == "ortho":
            matrix *= np.sqrt(1.0 / (2 * size))
    return matrix.astype(numpy_dtype)


def _check_dct(type, n, axis, norm):  # noqa: A002 - TensorFlow's parameter name
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types I, II, III and IV (I)DCT are supported; got type={type}.")
    if int(axis) != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    if n is not None and int(n) < 1:
        raise ValueError(f"Invalid n: {n}; n must be positive.")


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The discrete cosine transform of types I-IV along the last axis (truncated or zero-padded to n)."""
    _check_dct(type, n, axis, norm)
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise ValueError(f"dct takes float32 or float64 signals; got {x.dtype.name}.")
    size = int(x.shape[-1])
    if n is not None and int(n) != size:
        x = x[..., :int(n)] if int(n) < size else indexing.pad(
            x, [[0, 0]] * (len(x.shape) - 1) + [[0, int(n) - size]])
        size = int(n)
    if type == 1 and size < 2:
        raise ValueError(f"The Type-I DCT needs a signal of length 2 or more; got {size}.")
    matrix = convert_to_tensor(_dct_matrix(type, size, norm, x.dtype.numpy_dtype))
    return math_ops.tensordot(x, matrix, 1)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse DCT: type II's is type III and back, types I and IV their own (divide by 2N, or 2(N - 1) for
    type I, unless norm='ortho')."""
    _check_dct(type, n, axis, norm)
    return dct(input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, axis, norm)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified DCT of frames of half-overlapping `frame_length` samples (a multiple of 4)."""
    frame_length = int(frame_length)
    if frame_length % 4:
        raise ValueError(f"The frame length must be a multiple of 4; got {frame_length}.")
    x = convert_to_tensor(signals)
    framed = frame(x, frame_length, frame_length // 2, pad_end=pad_end)
    if window_fn is not None:
        framed = math_ops.multiply(framed, window_fn(frame_length, dtype=framed.dtype))
    a, b, c, d = array_ops.split(framed, 4, axis=-1)
    first = math_ops.subtract(math_ops.negative(indexing.reverse(c, [-1])), d)
    second = math_ops.subtract(a, indexing.reverse(b, [-1]))
    return dct(array_ops.concat([first, second], -1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The inverse of mdct (overlap-added, windowed frames)."""
    x = convert_to_tensor(mdcts)
    half = int(x.shape[-1])
    if norm is None:
        halves = math_ops.multiply(dct(x, type=4), convert_to_tensor(0.5 / half, dtype=x.dtype))
    else:
        halves = dct(x, type=4, norm=norm)
    first, second = array_ops.split(halves, 2, axis=-1)
    frames = array_ops.concat([second, math_ops.negative(indexing.reverse(second, [-1])),
                               math_ops.negative(indexing.reverse(first, [-1])), math_ops.negative(first)], -1)
    if window_fn is not None:
        frames = math_ops.multiply(frames, window_fn(2 * half, dtype=frames.dtype))
    return overlap_and_add(frames, half)




# -- N-dimensional transforms over chosen axes (TensorFlow has GPU kernels only for these) ------------------------

def _nd_plan(x, fft_length, axes, norm, what: str):
    if norm not in (None, "backward"):
        raise NotImplementedError(f"tf.signal.{what}(norm={norm!r}) is not implemented in placeflow; only the "
                                  f"default normalization is.")
    rank = len(x.shape)
    axes = list(range(rank)) if axes is None else [int(a) % rank for a in np.atleast_1d(axes)]
    if fft_length is None:
        return axes, None
    lengths = [int(n) for n in np.atleast_1d(array_ops.get_static_value(fft_length))]
    if len(lengths) != len(axes):
        raise ValueError(f"fft_length ({lengths}) must have one length per axis ({axes}).")
    return axes, lengths


def _along(x, axis: int, transform):
    """transform applied to `x` with `axis` moved last (and back)."""
    rank = len(x.shape)
    if axis == rank - 1:
        return transform(x)
    perm = [d for d in range(rank) if d != axis] + [axis]
    inverse = np.argsort(perm).tolist()
    return array_ops.transpose(transform(array_ops.transpose(x, perm)), inverse)


def _fitted(x, axis: int, length):
    if length is None or int(x.shape[axis]) == length:
        return x
    size = int(x.shape[axis])
    if length < size:
        return indexing.gather(x, np.arange(length, dtype=np.int32), axis=axis)
    paddings = [[0, 0]] * len(x.shape)
    paddings[axis] = [0, length - size]
    return indexing.pad(x, paddings)


def fftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The N-D discrete Fourier transform over `axes` (all when None), cropped or padded to fft_length."""
    x = convert_to_tensor(input_tensor)
    axes, lengths = _nd_plan(x, fft_length, axes, norm, "fftnd")
    for index, axis in enumerate(axes):
        x = _along(_fitted(x, axis, None if lengths is None else lengths[index]), axis, fft)
    return x


def ifftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The inverse of fftnd."""
    x = convert_to_tensor(input_tensor)
    axes, lengths = _nd_plan(x, fft_length, axes, norm, "ifftnd")
    for index, axis in enumerate(axes):
        x = _along(_fitted(x, axis, None if lengths is None else lengths[index]), axis, ifft)
    return x


def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The N-D transform of a real tensor over `axes`: the non-negative frequencies of the last of them."""
    x = convert_to_tensor(input_tensor)
    axes, lengths = _nd_plan(x, fft_length, axes, norm, "rfftnd")
    last = None if lengths is None else lengths[-1]
    x = _along(x, axes[-1], lambda t: rfft(t, None if last is None else [last]))
    for index, axis in enumerate(axes[:-1]):
        x = _along(_fitted(x, axis, None if lengths is None else lengths[index]), axis, fft)
    return x


def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The inverse of rfftnd: a real tensor of fft_length over `axes`."""
    x = convert_to_tensor(input_tensor)
    axes, lengths = _nd_plan(x, fft_length, axes, norm, "irfftnd")
    for index, axis in enumerate(axes[:-1]):
        x = _along(_fitted(x, axis, None if lengths is None else lengths[index]), axis, ifft)
    last = None if lengths is None else lengths[-1]
    return _along(x, axes[-1], lambda t: irfft(t, None if last is None else [last]))
