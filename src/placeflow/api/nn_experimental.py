"""tf.nn.experimental: stateless_dropout (Keras 3's Dropout calls it with a seed tensor from its SeedGenerator)."""

from ..eager.convert import convert_to_tensor


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """x with each element zeroed with probability `rate` (drawn from `seed` alone, a [2] int tensor) and the
    rest scaled by 1 / (1 - rate). The same seed gives the same mask (placeflow's stream, not TF's Philox)."""
    from . import array_ops, math_ops, random
    if rng_alg not in (None, "auto_select"):
        raise NotImplementedError(f"stateless_dropout(rng_alg={rng_alg!r}) is not implemented in placeflow: it has "
                                  "one stateless generator; leave rng_alg None.")
    x = convert_to_tensor(x)
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    if rate == 0.0:
        return math_ops.identity(x)
    shape = array_ops.shape(x) if noise_shape is None else noise_shape
    uniform = random.stateless_uniform(shape, seed, dtype=x.dtype)
    keep = math_ops.cast(uniform >= rate, x.dtype)
    return x * keep * (1.0 / (1.0 - rate))


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """x with each element zeroed where uniform_sampler(shape, dtype) < rate, the rest scaled by 1 / (1 - rate)."""
    from .nn_more import general_dropout as dropout
    return dropout(x, rate, uniform_sampler, noise_shape, name)
