"""placeflow.nest: TensorFlow's tf.nest (flatten, pack_sequence_as, map_structure, ...)."""

from .framework.nest import (  # noqa: F401
    assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as,
)
