"""Every tf.* name chain the installed Keras uses resolves in placeflow, except the listed known gaps.

The list (known_missing.txt) is a ratchet: a chain Keras starts to use that placeflow lacks fails this test,
and so does a listed chain that placeflow has gained (take it off the list)."""

import pathlib

import placeflow as tf
from tests.keras3.keras_tf_names import keras_tf_chains, missing_in_placeflow

KNOWN = pathlib.Path(__file__).with_name("known_missing.txt")


def _known() -> set:
    return {line.strip() for line in KNOWN.read_text().splitlines() if line.strip() and not line.startswith("#")}


def test_keras_uses_no_tf_name_placeflow_lacks_beyond_the_known_gaps():
    tf.keras  # noqa: B018 - loads Keras (its `import tensorflow` then means placeflow)
    uses = keras_tf_chains()
    assert len(uses) > 450  # the scan found Keras's TensorFlow backend and its lazy `tensorflow` users
    missing = set(missing_in_placeflow(uses))
    assert sorted(missing - _known()) == [], "Keras uses these tf names that placeflow lacks"
    assert sorted(_known() - missing) == [], "placeflow has these now: take them off known_missing.txt"
