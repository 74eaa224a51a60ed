"""tf.io.read_file / write_file (ops, ordered inside `function`) and tf.io.gfile on local paths, with
TensorFlow 2.21's error classes and texts (recorded by hand from TF: the texts quoted below)."""

import pytest

import placeflow as tf


def test_write_then_read_eagerly_and_in_a_function(tmp_path):
    path = str(tmp_path / "nested" / "a.txt")
    assert tf.io.write_file(path, "hello") is None  # TF: None eagerly; the directory is created
    assert tf.io.read_file(path).numpy() == b"hello"

    @tf.function
    def rewrite(p):
        tf.io.write_file(p, "from a function")
        return tf.io.read_file(p)  # after the write, in program order

    assert rewrite(tf.constant(path)).numpy() == b"from a function"


def test_reading_a_missing_file_is_not_found_error(tmp_path):
    missing = str(tmp_path / "missing.txt")
    with pytest.raises(tf.errors.NotFoundError, match="missing.txt; No such file or directory"):
        tf.io.read_file(missing)
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: string"):
        tf.io.read_file(tf.constant(3))


def test_gfile(tmp_path):
    base = str(tmp_path)
    with tf.io.gfile.GFile(tf.io.gfile.join(base, "d.txt"), "w") as handle:
        handle.write("line1\nline2\n")
    with tf.io.gfile.GFile(tf.io.gfile.join(base, "d.txt")) as handle:
        assert handle.readlines() == ["line1\n", "line2\n"]
    with tf.io.gfile.GFile(tf.io.gfile.join(base, "d.txt"), "rb") as handle:
        assert handle.read() == b"line1\nline2\n" and handle.size() == 12
    tf.io.gfile.makedirs(tf.io.gfile.join(base, "x", "y"))
    assert tf.io.gfile.isdir(tf.io.gfile.join(base, "x", "y")) and tf.io.gfile.exists(tf.io.gfile.join(base, "d.txt"))
    assert sorted(tf.io.gfile.listdir(base)) == ["d.txt", "x"]
    assert tf.io.gfile.glob(tf.io.gfile.join(base, "*.txt")) == [tf.io.gfile.join(base, "d.txt")]
    tf.io.gfile.copy(tf.io.gfile.join(base, "d.txt"), tf.io.gfile.join(base, "e.txt"))
    with pytest.raises(tf.errors.AlreadyExistsError):
        tf.io.gfile.copy(tf.io.gfile.join(base, "d.txt"), tf.io.gfile.join(base, "e.txt"))
    tf.io.gfile.rename(tf.io.gfile.join(base, "e.txt"), tf.io.gfile.join(base, "f.txt"))
    assert tf.io.gfile.stat(tf.io.gfile.join(base, "f.txt")).length == 12
    tf.io.gfile.remove(tf.io.gfile.join(base, "f.txt"))
    tf.io.gfile.rmtree(tf.io.gfile.join(base, "x"))
    assert sorted(tf.io.gfile.listdir(base)) == ["d.txt"]
    walked = list(tf.io.gfile.walk(base))
    assert walked[0][2] == ["d.txt"]


def test_gfile_errors_are_tensorflows():
    with pytest.raises(tf.errors.NotFoundError, match="^/nonexistent/x; No such file or directory$"):
        tf.io.gfile.GFile("/nonexistent/x").read()
    with pytest.raises(tf.errors.NotFoundError, match="^Could not find directory /nonexistent$"):
        tf.io.gfile.listdir("/nonexistent")
    with pytest.raises(tf.errors.NotFoundError, match="^/nonexistent; No such file or directory$"):
        tf.io.gfile.remove("/nonexistent")
    with pytest.raises(tf.errors.UnimplementedError, match="File system scheme 'gs' not implemented"):
        tf.io.gfile.exists("gs://bucket/model")
