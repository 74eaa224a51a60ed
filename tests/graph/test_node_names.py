"""Node and scope names are validated and made unique as TensorFlow 2.21 does (texts recorded from it)."""

import pytest

import placeflow as tf

PATTERN = r"Accepted names conform to Regex /re.compile\('\^\[A-Za-z0-9.\]\[A-Za-z0-9_.\\\\\\\\/>-\]\*\$'\)/"


def test_names_are_uniquified_case_insensitively():
    with tf.Graph().as_default():
        names = [tf.constant(1, name=n).op.name for n in ("dup", "dup", "DUP", "dup_1", "ok.1/2>3-4")]
    assert names == ["dup", "dup_1", "DUP_2", "dup_1_1", "ok.1/2>3-4"]  # TF 2.21


def test_a_trailing_slash_name_is_used_as_is_and_may_not_repeat():
    with tf.Graph().as_default():
        assert tf.constant(1, name="a/").op.name == "a"
        with pytest.raises(ValueError, match="Duplicate node name in graph: 'a'"):
            tf.constant(1, name="a/")
        assert tf.constant(1, name="a").op.name == "a_1"


@pytest.mark.parametrize("bad", ["b\nc", "nul\x00x", "-x", "_x", "x y", "x:0", ""])
def test_invalid_node_names_are_refused(bad):
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=f"is not a valid node name. {PATTERN}"):
            tf.constant(1, name=bad)


@pytest.mark.parametrize("bad", ["sp ace", "-s", "_s", "s\n"])
def test_invalid_root_scope_names_are_refused(bad):
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"is not a valid root scope name. A root scope name has to match the "
                                             r"following pattern: \^\[A-Za-z0-9.\]"):
            with tf.name_scope(bad):
                pass


def test_function_arguments_with_leading_underscores_get_the_default_name():
    @tf.function
    def f(_x):
        return _x * 2.0

    assert float(f(tf.constant(1.5))) == 3.0
    assert f.get_concrete_function(tf.constant(1.5)).graph.get_operations()[0].name == "Placeholder"  # as TF
