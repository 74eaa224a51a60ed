"""Variable updates are atomic: concurrent assign_add from many threads loses none (eager, function, Session)."""

import threading

import placeflow as tf

THREADS, UPDATES = 8, 300


def _hammer(update) -> None:
    barrier = threading.Barrier(THREADS)

    def work():
        barrier.wait()
        for _ in range(UPDATES):
            update()
    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_eager_assign_add_from_threads_is_exact(make_context):
    v = tf.Variable(0.0)
    _hammer(lambda: v.assign_add(1.0))
    assert float(v.numpy()) == THREADS * UPDATES


def test_function_assign_add_from_threads_is_exact(make_context):
    v = tf.Variable(0, dtype=tf.int64)
    step = tf.function(lambda: v.assign_add(tf.constant(1, tf.int64)))
    step()
    _hammer(step)
    assert int(v.numpy()) == THREADS * UPDATES + 1


def test_session_assign_add_from_threads_is_exact(make_context):
    with tf.compat.v1.Graph().as_default():
        v = tf.compat.v1.Variable(0.0)
        increment = v.assign_add(1.0)
        session = tf.compat.v1.Session()
        session.run(tf.compat.v1.global_variables_initializer())
        _hammer(lambda: session.run(increment.op))
        assert session.run(v) == THREADS * UPDATES
