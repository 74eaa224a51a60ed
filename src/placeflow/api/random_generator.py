"""tf.random.Generator with TensorFlow's Philox state: the same seed gives TensorFlow's values.

The state is an int64 [3] variable on the host: a 128-bit counter (two int64) and a 64-bit key. Each draw
reads the state and advances the counter by 256 per value drawn (TF's RngReadAndSkip), then draws with the
stateless kernels from the state it read (the counter and key as they were)."""

from __future__ import annotations

import enum
import threading

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, graph_mode
from . import math_ops

_STATE_SIZE = 3


class Algorithm(enum.Enum):
    """The random algorithms (tf.random.Algorithm): placeflow has Philox (AUTO_SELECT chooses it)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _algorithm(alg) -> int:
    if alg is None:
        return Algorithm.PHILOX.value
    if isinstance(alg, Algorithm):
        value = alg.value
    elif isinstance(alg, str):
        names = {"philox": 1, "threefry": 2, "auto_select": 3}
        if alg.lower() not in names:
            raise ValueError(f"Unsupported algorithm id: {alg}")
        value = names[alg.lower()]
    else:
        value = int(alg)
    if value == Algorithm.THREEFRY.value:
        raise NotImplementedError("tf.random.Algorithm.THREEFRY is not implemented in placeflow; use PHILOX (or "
                                  "AUTO_SELECT, which is Philox on the host).")
    if value not in (1, 3):
        raise ValueError(f"Unsupported algorithm id: {value}")
    return value


def create_rng_state(seed, alg):
    """The initial state for `seed` (an integer: split into 64-bit words; a vector: zeros padded in front)."""
    _algorithm(alg)
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        words = []
        for _ in range(_STATE_SIZE):
            words.append(seed & 0xFFFFFFFFFFFFFFFF)
            seed >>= 64
    else:
        words = [int(v) & 0xFFFFFFFFFFFFFFFF for v in np.asarray(seed).reshape(-1)[:_STATE_SIZE]]
        words = [0] * (_STATE_SIZE - len(words)) + words
    return convert_to_tensor(np.asarray(words, dtype=np.uint64).view(np.int64))


class Generator:
    """A random stream with a state variable (tf.random.Generator), giving TensorFlow's values."""

    def __init__(self, copy_from=None, state=None, alg=None):
        from ..eager.variables import Variable
        from ..placement.device_scope import device
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("When `copy_from` is not None, `state` and `alg` must be None.")
            state, alg = copy_from.state.read_value(), copy_from.algorithm
        elif state is None:
            raise ValueError("Generator needs `copy_from` or `state` (or use Generator.from_seed).")
        self._alg = _algorithm(alg)
        value = convert_to_tensor(np.asarray(state.numpy() if hasattr(state, "numpy") else state).astype(np.int64))
        if tuple(value.shape) != (_STATE_SIZE,):
            raise ValueError(f"Shapes {list(value.shape)} and [{_STATE_SIZE}] are incompatible")
        with graph_mode.suspended(), device("/cpu:0"):
            self._state_var = Variable(value, trainable=False, name="Variable")
        self._lock = threading.Lock()

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose stream depends only on `seed`."""
        alg = _algorithm(alg)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator starting at `state`."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator starting at `counter` (two int64) with `key` (one int64)."""
        counter = [int(v) for v in np.asarray(counter).reshape(-1)]
        return cls(state=np.asarray(counter + [int(key)], dtype=np.int64), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        from .check_numerics import op_determinism_enabled
        if op_determinism_enabled():
            raise RuntimeError('"from_non_deterministic_state" cannot be called when determinism is enabled.')
        seed = np.random.SeedSequence().generate_state(_STATE_SIZE, np.uint64)
        return cls(state=seed.view(np.int64), alg=alg)

    @property
    def state(self):
        """The state variable (int64 [3]: counter, key)."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        """The algorithm's id (1: Philox)."""
        return self._alg

    @property
    def key(self):
        """The key: the state's last element."""
        return self._state_var[-1]

    def reset(self, state) -> None:
        """Set the state."""
        self._state_var.assign(np.asarray(state, dtype=np.int64))

    def reset_from_seed(self, seed) -> None:
        """Set the state from_seed(seed) would start with."""
        self._state_var.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter) -> None:
        """Set the state to `counter` and `key`."""
        self._state_var.assign(np.asarray([int(v) for v in np.asarray(counter).reshape(-1)] + [int(key)], np.int64))

    def skip(self, delta):
        """Advance the state as drawing `delta` values would; returns the state before."""
        delta = math_ops.cast(convert_to_tensor(delta), dtypes.int64)
        with self._lock:  # eagerly, one draw's read and write together (threads draw disjoint values)
            before = self._state_var.read_value()
            self._state_var.assign(execute("_PhiloxStateSkip", (before, delta), dtypes.int64))
        return before

    def _draw(self, op, shape, dtype, **attrs):
        from .array_ops import _ints
        shape = _ints(shape)
        state = self.skip(int(np.prod(shape, dtype=np.int64)))
        return execute(op, (state,), dtype, dict(attrs, shape=shape, dtype=dtype, from_state=True))

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform values from [minval, maxval) (integers: both bounds, or neither for the full range)."""
        from .random import _float, _known
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dtype!r}, minval and maxval must be both `None` or both "
                                 f"non-`None`; got minval={minval} and maxval={maxval}")
            if minval is None:
                return self.uniform_full_int(shape, dtype)
            return self._draw("StatelessRandomUniformIntV2", shape, dtype, minval=int(minval), maxval=int(maxval))
        maxval = 1.0 if maxval is None else maxval
        if _known(minval) and _known(maxval):
            return self._draw("StatelessRandomUniformV2", shape, dtype, minval=_float(minval), maxval=_float(maxval))
        unit = self._draw("StatelessRandomUniformV2", shape, dtype, minval=0.0, maxval=1.0)
        low, high = (math_ops.cast(convert_to_tensor(v), dtype) for v in (minval, maxval))
        return math_ops.add(unit * (high - low), low)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        """Integers over the dtype's whole range."""
        return self._draw("StatelessRandomUniformFullIntV2", shape, dtypes.as_dtype(dtype))

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values."""
        return self._scaled("StatelessRandomNormalV2", shape, mean, stddev, dtypes.as_dtype(dtype))

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values within two standard deviations."""
        return self._scaled("StatelessTruncatedNormalV2", shape, mean, stddev, dtypes.as_dtype(dtype))

    def _scaled(self, op, shape, mean, stddev, dtype):
        from .random import _float, _known
        if _known(mean) and _known(stddev):
            return self._draw(op, shape, dtype, mean=_float(mean), stddev=_float(stddev))
        unit = self._draw(op, shape, dtype, mean=0.0, stddev=1.0)
        mean, stddev = (math_ops.cast(convert_to_tensor(v), dtype) for v in (mean, stddev))
        return math_ops.add(unit * stddev, mean)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Not implemented: TensorFlow's stateful binomial sampler."""
        raise NotImplementedError("tf.random.Generator.binomial is not implemented in placeflow; use "
                                  "tf.random.stateless_binomial with seeds from make_seeds().")

    def make_seeds(self, count=1):
        """[2, count] int64 seeds for stateless ops (a key and a zero each)."""
        from .array_ops import stack, zeros_like
        keys = self.uniform_full_int([count], dtype=dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each keyed by a value drawn from this one (their counters start at 0)."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64).numpy()
        return [Generator(state=np.asarray([0, 0, int(key)], dtype=np.int64), alg=self._alg) for key in keys]


_global_generator = None
_global_lock = threading.Lock()


def get_global_generator() -> Generator:
    """The process's generator (from the global seed when set_seed was called, else non-deterministic)."""
    global _global_generator
    with _global_lock:
        if _global_generator is None:
            from .random import _global_seed
            _global_generator = Generator.from_seed(_global_seed) if _global_seed is not None else \
                Generator.from_non_deterministic_state()
        return _global_generator


def set_global_generator(generator) -> None:
    """Replace the process's generator."""
    global _global_generator
    with _global_lock:
        _global_generator = generator
