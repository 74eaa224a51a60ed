"""tf.print writes tensors as TensorFlow 2.21 does (the expected text below is what TF 2.21 printed for the same
program): its float digits, bools as 1/0, quoted strings in arrays, rows on their own lines; and it prints into
a reassigned sys.stderr (contextlib.redirect_stderr) instead of refusing."""

import contextlib
import io

import placeflow as tf

TF_2_21_PRINTED = """[0.333333343 1e-05 100]
[1.5 2.25]
[0 1 2 ... 17 18 19]
[[1 2]
 [3 4]]
["a" "b"]
[1 0]
3.5
hi
1e+10
[[1.5 2]
 [3 4.25]]
text|[1 2]|7
"""


def _program():
    for value in [[1 / 3, 1e-5, 100.0], [1.5, 2.25], list(range(20)), [[1, 2], [3, 4]], ["a", "b"], [True, False],
                  3.5, "hi", 1e10, [[1.5, 2], [3, 4.25]]]:
        tf.print(tf.constant(value))
    tf.print("text", tf.constant([1, 2]), 7, sep="|")


def test_print_formats_tensors_as_tensorflow():
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        _program()
    assert captured.getvalue() == TF_2_21_PRINTED


def test_print_inside_a_function_into_a_redirected_stderr():
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        tf.function(lambda x: tf.print("x =", x, summarize=2))(tf.range(10))
    assert captured.getvalue() == "x = [0 1 ... 8 9]\n"
