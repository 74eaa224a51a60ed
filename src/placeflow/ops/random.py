"""Random ops: values drawn on the host from a seeded generator, so every device agrees."""

from . import shape_rules as rules
from .registry import FLOATS, NOT_DIFFERENTIABLE, define, presize_from_attrs


@define("RandomUniform", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE, presize=presize_from_attrs)
def _uniform(xp, shape, minval, maxval, dtype, generator):
    values = generator.uniform(minval, maxval, size=shape).astype(dtype.numpy_dtype)
    return xp.asarray(values)


@define("RandomStandardNormal", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _normal(xp, shape, mean, stddev, dtype, generator):
    values = (generator.standard_normal(size=shape) * stddev + mean).astype(dtype.numpy_dtype)
    return xp.asarray(values)
