"""A task of a loopback cluster for test_cluster_restart.py: form the cluster, step once, print one RESULT line.

DIE_IN=gloo: SIGKILL this process as it starts connecting its gloo group, i.e. after it joined the cluster's
rendezvous and before its group exists (a task killed while the group forms); DIE_AFTER_S delays the kill
by that many seconds (its peers meanwhile join and wait for it).
WAIT_FOR_GO=1: import everything, print READY, and form the cluster only once a line arrives on stdin (a restart
whose imports are already done, so that the test does not wait for them).
"""

import json
import os
import sys
import time

import torch.distributed as dist

if os.environ.get("DIE_IN") == "gloo":
    _real = dist.ProcessGroupGloo

    class _DiesWhenConnecting:
        _Options = _real._Options
        create_device = staticmethod(_real.create_device)

        def __new__(cls, *args, **kwargs):
            time.sleep(float(os.environ.get("DIE_AFTER_S", "0")))
            os.kill(os.getpid(), 9)

    dist.ProcessGroupGloo = _DiesWhenConnecting

import placeflow as tf  # noqa: E402 - after the patch above

if os.environ.get("WAIT_FOR_GO"):
    print("READY", flush=True)
    sys.stdin.readline()
start = time.monotonic()
strategy = tf.distribute.MultiWorkerMirroredStrategy()
formed_s = time.monotonic() - start


@tf.function
def step():
    return strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))


print("RESULT " + json.dumps({"sum": float(step()), "formed_s": formed_s, "workers": strategy.extended.num_workers}),
      flush=True)
