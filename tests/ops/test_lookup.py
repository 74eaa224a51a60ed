"""tf.lookup hash tables, eagerly and inside function (where their updates run in program order)."""

import numpy as np
import pytest

import placeflow as tf


def test_static_hash_table_looks_up_keys_with_a_default():
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([1, 2], tf.int64)), -1)
    assert table.lookup(tf.constant([["a", "z"], ["b", "a"]])).numpy().tolist() == [[1, -1], [2, 1]]
    assert int(table.size()) == 2 and table.key_dtype == tf.string and table.value_dtype == tf.int64
    keys, values = table.export()
    assert keys.numpy().tolist() == [b"a", b"b"] and values.numpy().tolist() == [1, 2]
    with pytest.raises(TypeError, match="Keys must be dtype string"):
        table.lookup(tf.constant([1]))


def test_text_file_initializer_reads_lines_and_line_numbers(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("cat\ndog\nbird\n")
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(vocab), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    assert table.lookup(tf.constant(["dog", "bird", "cow"])).numpy().tolist() == [1, 2, -1]


def test_mutable_hash_table_updates_in_program_order_inside_function():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0)
    table.insert(["x", "y"], tf.constant([3, 4], tf.int64))

    @tf.function
    def step(keys):
        table.insert(keys, tf.constant([9], tf.int64))
        found = table.lookup(keys)
        table.remove(keys)
        return found, table.lookup(keys), table.size()
    found, after_removal, size = step(tf.constant(["w"]))
    assert found.numpy().tolist() == [9] and after_removal.numpy().tolist() == [0] and int(size) == 2
    assert table.lookup(["y", "q"]).numpy().tolist() == [4, 0]


def test_keras_string_and_integer_lookup_layers_give_tensorflows_numbers():
    layer = tf.keras.layers.StringLookup()
    layer.adapt(np.array(["a", "b", "b", "c", "c", "c"]))
    assert [str(v) for v in layer.get_vocabulary()] == ["[UNK]", "c", "b", "a"]  # recorded from TF 2.21
    assert layer(tf.constant([["c", "a", "zz"]])).numpy().tolist() == [[1, 3, 0]]
    assert tf.keras.layers.IntegerLookup(vocabulary=[10, 20])(tf.constant([10, 30, 20])).numpy().tolist() == \
        [1, 0, 2]
    one_hot = tf.keras.layers.StringLookup(vocabulary=["x", "y"], output_mode="one_hot")(tf.constant(["y", "q"]))
    assert one_hot.dtype == tf.int64 and one_hot.numpy().tolist() == [[0, 0, 1], [1, 0, 0]]


def test_text_helpers_and_unique_of_strings():
    assert tf.compat.as_text(b"abc") == "abc" and tf.compat.as_bytes("abc") == b"abc"
    with pytest.raises(TypeError):
        tf.compat.as_text(3)
    values, index = tf.unique(tf.constant(["b", "a", "b"]))
    assert values.numpy().tolist() == [b"b", b"a"] and index.numpy().tolist() == [0, 1, 0]
