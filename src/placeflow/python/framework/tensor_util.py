"""`tensorflow.python.framework.tensor_util.is_tf_type` (keras export/saved_model_export_archive.py)."""


def is_tf_type(x) -> bool:
    """Whether `x` is a tensor, variable or composite tensor."""
    from ...internal.types import CompositeTensor, Tensor
    return isinstance(x, (Tensor, CompositeTensor))
