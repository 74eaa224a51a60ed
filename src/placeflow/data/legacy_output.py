"""TensorFlow 1's views of a dataset's element structure: tf.compat.v1.data.get_output_types, get_output_shapes
and get_output_classes, read from `element_spec` (a dtype, a TensorShape and a class per component)."""

from __future__ import annotations

from ..framework import nest


def _element_spec(dataset_or_iterator):
    spec = getattr(dataset_or_iterator, "element_spec", None)
    if spec is None:
        raise TypeError(f"expected a tf.data.Dataset or iterator, got {type(dataset_or_iterator).__name__}: it has "
                        "no element_spec")
    return spec


def get_output_types(dataset_or_iterator):
    """The dtype of each component of the elements, in the elements' structure."""
    return nest.map_structure(lambda spec: spec.dtype, _element_spec(dataset_or_iterator))


def get_output_shapes(dataset_or_iterator):
    """The static shape (a TensorShape) of each component of the elements, in the elements' structure."""
    return nest.map_structure(lambda spec: spec.shape, _element_spec(dataset_or_iterator))


def get_output_classes(dataset_or_iterator):
    """The class of each component: tf.Tensor for a TensorSpec, tf.sparse.SparseTensor for a SparseTensorSpec,
    the spec itself otherwise (as TensorFlow reports it)."""
    from ..eager.tensor import EagerTensor  # placeflow's tf.Tensor
    from ..framework.tensor_spec import TensorSpec

    def classify(spec):
        if isinstance(spec, TensorSpec):
            return EagerTensor
        value_type = getattr(spec, "value_type", None)
        if value_type is not None and getattr(value_type, "__name__", "") == "SparseTensor":
            return value_type
        return spec
    return nest.map_structure(classify, _element_spec(dataset_or_iterator))
