"""tf.queue cases (see cases.py). Cases with threads join them with timeouts: none can hang."""

from __future__ import annotations

import threading
import time

from tests.io_queue_audio.cases import _try, _v


def _in_thread(fn, timeout=20.0):
    """Run fn in a thread; its result (or error) once done, 'still waiting' when it blocks past `timeout`."""
    box = {}
    worker = threading.Thread(target=lambda: box.setdefault("r", _try(fn)), daemon=True)
    worker.start()
    worker.join(timeout)
    return box.get("r", "still waiting"), worker


def case_queue_fifo_named(tf):
    q = tf.queue.FIFOQueue(5, [tf.float32, tf.int32], shapes=[[], [2]], names=["a", "b"])
    out = [[d.name for d in q.dtypes], [s.as_list() for s in q.shapes], q.names, isinstance(q, tf.queue.QueueBase)]
    out.append(_try(lambda: q.enqueue({"a": 1., "b": [1, 2]})))
    out.append(_try(lambda: q.enqueue([1., [1, 2]])))
    out.append(_try(lambda: q.enqueue({"a": 1.})))
    out.append(_try(lambda: q.enqueue({"a": 1., "b": [1, 2, 3]})))
    out.append(_try(lambda: q.enqueue_many({"a": [2., 3.], "b": [[3, 4], [5, 6]]})))
    out.append(_v(q.size()))
    out.append(_try(q.dequeue))
    out.append(_try(lambda: q.dequeue_many(2)))
    q.enqueue({"a": 7., "b": [0, 0]})
    out.append(_v(q.is_closed()))
    q.close()
    out.append(_v(q.is_closed()))
    out.append(_try(lambda: q.enqueue({"a": 7., "b": [0, 0]})))
    out.append(_try(lambda: q.dequeue_many(2)))
    out.append(_try(lambda: q.dequeue_up_to(2)))
    out.append(_try(q.dequeue))
    out.append(_try(lambda: q.dequeue_up_to(2)))
    out.append(_try(lambda: q.dequeue_many(0)))
    return out


def case_queue_fifo_unnamed(tf):
    q = tf.queue.FIFOQueue(10, tf.float32)
    out = [[s.rank for s in q.shapes], q.names, [d.name for d in q.dtypes]]
    out.append(_try(lambda: q.enqueue(1.)))
    out.append(_try(lambda: q.enqueue([5., 6.])))  # one component: the list's first value (TensorFlow zips)
    out.append(_try(lambda: q.enqueue_many(3.)))
    out.append(_try(lambda: q.dequeue_many(2)))
    out.append(_try(lambda: q.dequeue_up_to(2)))
    out.append(_try(q.dequeue))
    waiting, worker = _in_thread(q.dequeue, timeout=1.0)
    out.append(waiting)
    out.append(_try(lambda: q.enqueue("a"))[0])
    q3 = tf.queue.FIFOQueue(10, tf.float32, shapes=[2])
    out.append(_try(lambda: q3.enqueue([1.])))
    out.append(_try(lambda: q3.enqueue_many([[1.]])))
    out.append(_try(lambda: q3.enqueue_many(tf.zeros([0, 2]))))
    out.append(_try(lambda: q3.enqueue_many([[1., 2.], [3., 4.]])))
    out.append(_try(lambda: q3.dequeue_many(-1)))
    waiting3, worker3 = _in_thread(lambda: q3.dequeue_up_to(1), timeout=1.0)
    out.append(waiting3)
    out.append(_try(q3.size))
    q4 = tf.queue.FIFOQueue(10, (tf.int64,), shapes=[[]])
    q4.enqueue((4,))
    q4.enqueue_many([[5, 6]])
    out.append(_try(q4.dequeue))
    out.append(_try(lambda: q4.dequeue_many(2)))
    for queue, thread in ((q, worker), (q3, worker3)):
        queue.close(cancel_pending_enqueues=True)  # a waiting dequeue ends (OutOfRangeError)
        thread.join(10)
        out.append(not thread.is_alive())
    return out


def case_queue_construction_errors(tf):
    return [_try(lambda: tf.queue.FIFOQueue(10, [tf.float32], names=["a", "b"])),
            _try(lambda: tf.queue.FIFOQueue(10, [tf.float32], shapes=[[1], [2]]))[0],
            _try(lambda: tf.queue.PaddingFIFOQueue(10, [tf.float32]))[0],
            _try(lambda: tf.queue.FIFOQueue(5, tf.float32, shapes=[[None]])),
            _try(lambda: tf.queue.PriorityQueue(10, [tf.string]))[0]]


def case_queue_padding(tf):
    pq = tf.queue.PaddingFIFOQueue(10, [tf.float32, tf.string], shapes=[[None], []])
    out = [[s.as_list() for s in pq.shapes]]
    pq.enqueue([[1., 2.], "a"])
    pq.enqueue([[3.], "b"])
    pq.enqueue([[4., 5., 6.], "c"])
    out.append(_try(lambda: pq.dequeue_many(2)))
    out.append(_try(pq.dequeue))
    out.append(_try(lambda: pq.enqueue_many([[[1.], [2.]], ["x", "y"]])))
    out.append(_try(lambda: pq.enqueue([[[1.]], "z"])))
    pq.close()
    out.append(_try(lambda: pq.dequeue_up_to(5)))
    out.append(_try(lambda: pq.dequeue_up_to(5)))
    return out


def case_queue_priority(tf):
    pr = tf.queue.PriorityQueue(10, [tf.string], shapes=[[]])
    out = [[d.name for d in pr.dtypes], [s.as_list() for s in pr.shapes], pr.names]
    pr.enqueue((3, "c"))
    pr.enqueue((1, "a"))
    pr.enqueue_many(([2, 0], ["b", "z"]))
    out.append(_try(pr.dequeue))
    out.append(_try(lambda: pr.dequeue_many(2)))
    out.append(_try(lambda: pr.enqueue(("x",)))[0])
    out.append(_try(pr.size))
    return out


def case_queue_random_shuffle(tf):
    rs = tf.queue.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=1)
    rs.enqueue_many([[1, 2, 3, 4, 5]])
    first = rs.dequeue_many(3).numpy().tolist()
    out = [len(first), all(v in (1, 2, 3, 4, 5) for v in first), _v(rs.size())]
    box = {}
    waiting = threading.Thread(target=lambda: box.setdefault("r", int(rs.dequeue().numpy())), daemon=True)
    waiting.start()
    waiting.join(0.5)  # 2 left = min_after_dequeue: blocks until closed
    out.append("r" not in box)
    rs.close()
    waiting.join(10)
    rest = [int(v) for v in rs.dequeue_up_to(3).numpy()]
    out.append(sorted(first + rest + [box.get("r")]))
    out.append(_try(rs.dequeue))
    unknown = tf.queue.RandomShuffleQueue(10, 0, tf.int32)
    out.append(_try(lambda: unknown.dequeue_many(1)))
    return out


def case_queue_blocking_threads(tf):
    q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])
    out = []
    result, worker = _in_thread(q.dequeue, timeout=0.3)  # empty: waits
    out.append(result)
    q.enqueue(7)
    worker.join(10)
    out.append(not worker.is_alive())
    q.enqueue_many([[1, 2]])
    blocked, producer = _in_thread(lambda: q.enqueue(3), timeout=0.3)  # full: waits
    out.append(blocked)
    out.append(_try(q.dequeue))
    producer.join(10)
    out.append(not producer.is_alive())
    out.append(_try(lambda: q.dequeue_many(2)))
    waiting, consumer = _in_thread(lambda: q.dequeue_many(2), timeout=0.3)
    q.close()
    consumer.join(10)
    out.append(not consumer.is_alive())
    return out


def case_queue_close_cancel(tf):
    q = tf.queue.FIFOQueue(1, tf.int32, shapes=[[]])
    q.enqueue(1)
    box = {}
    producer = threading.Thread(target=lambda: box.setdefault("r", _try(lambda: q.enqueue(2))), daemon=True)
    producer.start()
    time.sleep(0.3)
    q.close(cancel_pending_enqueues=True)
    producer.join(10)
    out = [box.get("r", "still waiting")[0], _try(q.dequeue), _try(q.dequeue)]
    q2 = tf.queue.FIFOQueue(1, tf.int32, shapes=[[]])
    q2.enqueue(1)
    box2 = {}
    producer2 = threading.Thread(target=lambda: box2.setdefault("r", _try(lambda: q2.enqueue(2))), daemon=True)
    producer2.start()
    time.sleep(0.3)
    consumer = threading.Thread(target=lambda: (time.sleep(0.5), box2.setdefault("d", _try(q2.dequeue))), daemon=True)
    consumer.start()
    q2.close()  # blocks until the pending enqueue completed: the consumer makes room
    consumer.join(10)
    producer2.join(10)
    out.append(box2.get("d", "still waiting"))
    out += [box2.get("r", "still waiting"), _try(q2.dequeue), _try(q2.dequeue)]
    return out


QUEUE_CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
