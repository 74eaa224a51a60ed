"""`tensorflow.compiler.tf2xla.python.xla.dynamic_update_slice` (keras backend/tensorflow/core.py `slice_update`)."""


def dynamic_update_slice(operand, update, indices, name=None):
    """`operand` with `update` written at `indices` (clamped so the update fits, as XLA's op)."""
    from ....api import array_ops, indexing, math_ops
    from ....eager.convert import convert_to_tensor
    operand = convert_to_tensor(operand)
    update = convert_to_tensor(update, dtype=operand.dtype)
    starts = math_ops.cast(convert_to_tensor(indices), "int32")
    limits = indexing.shape(operand, out_type="int32") - indexing.shape(update, out_type="int32")
    starts = math_ops.minimum(math_ops.maximum(starts, 0), limits)
    ranges = [array_ops.range(update.shape[axis]) + starts[axis] for axis in range(len(update.shape))]
    grid = array_ops.stack(indexing.meshgrid(*ranges, indexing="ij"), axis=-1)
    return indexing.tensor_scatter_nd_update(operand, grid, update, name=name)


