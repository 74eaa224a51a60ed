"""Random kernels: values drawn on the host from a seeded generator, so every device agrees."""

from .registry import FLOATS, presize_from_attrs, register


@register("RandomUniform", FLOATS, presize=presize_from_attrs)
def _uniform(xp, shape, minval, maxval, dtype, generator):
    values = generator.uniform(minval, maxval, size=shape).astype(dtype.numpy_dtype)
    return xp.asarray(values)


@register("RandomStandardNormal", FLOATS, presize=presize_from_attrs)
def _normal(xp, shape, mean, stddev, dtype, generator):
    values = (generator.standard_normal(size=shape) * stddev + mean).astype(dtype.numpy_dtype)
    return xp.asarray(values)
