"""tf.RaggedTensor and tf.ragged: the type exists (Keras and user code test `isinstance(x, tf.RaggedTensor)`),
but no ragged tensor can be made in placeflow yet: every constructor says so by name."""


def _refuse(name):
    raise NotImplementedError(f"{name} is not implemented in placeflow (no ragged tensors yet): pad the rows "
                              "to one length (e.g. with tf.keras.utils.pad_sequences) and use a dense tensor.")


class RaggedTensor:
    """A tensor whose rows have different lengths: not implemented in placeflow; constructors refuse."""

    def __init__(self, *args, **kwargs):
        _refuse("tf.RaggedTensor")

    @classmethod
    def from_tensor(cls, *args, **kwargs):
        """Not implemented in placeflow."""
        _refuse("tf.RaggedTensor.from_tensor")

    @classmethod
    def from_row_lengths(cls, *args, **kwargs):
        """Not implemented in placeflow."""
        _refuse("tf.RaggedTensor.from_row_lengths")

    @classmethod
    def from_row_splits(cls, *args, **kwargs):
        """Not implemented in placeflow."""
        _refuse("tf.RaggedTensor.from_row_splits")

    @classmethod
    def from_value_rowids(cls, *args, **kwargs):
        """Not implemented in placeflow."""
        _refuse("tf.RaggedTensor.from_value_rowids")


def constant(*args, **kwargs):
    """Not implemented in placeflow (tf.ragged.constant)."""
    _refuse("tf.ragged.constant")


def map_flat_values(*args, **kwargs):
    """Not implemented in placeflow (tf.ragged.map_flat_values)."""
    _refuse("tf.ragged.map_flat_values")
