"""MultiWorkerMirroredStrategy across worker processes on loopback (gloo through torch.distributed).

Each test starts real worker processes with their own TF_CONFIG (tests/distribute/loopback.py) running a
program of multi_worker_programs.py, and compares them with the same program in one process.
"""

import importlib.util
import json

import numpy as np
import pytest

import placeflow as tf

from . import loopback

PROGRAMS = loopback.HERE / "multi_worker_programs.py"
# What TensorFlow 2.21 computed for the same programs on 2 workers and in one process (record_tf_multi_worker.py)
TF = json.loads((loopback.HERE / "tf_2_21_multi_worker.json").read_text())
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="needs torch.distributed (gloo): the `distributed` extra")


@needs_torch
@pytest.mark.parametrize("local_gpus", [0, 2], ids=["one-cpu-replica-per-worker", "two-gpu-replicas-per-worker"])
def test_two_worker_custom_loop_reproduces_single_process_training(local_gpus):
    workers = loopback.run_cluster(PROGRAMS, "linear", PLACEFLOW_SIMULATED_GPUS=local_gpus)
    alone = loopback.run_alone(PROGRAMS, "linear", PLACEFLOW_SIMULATED_GPUS=2 * local_gpus)
    replicas = max(2 * local_gpus, 2)
    assert [w["replicas"] for w in workers] == [replicas, replicas] and alone["replicas"] == max(2 * local_gpus, 1)
    if local_gpus == 0:  # TensorFlow's 2 CPU workers trained to the same weights and losses
        for ours, theirs in zip(workers, TF["linear"]["workers"]):
            assert (ours["w"], ours["b"]) == pytest.approx((theirs["w"], theirs["b"]), abs=1e-6)
            assert ours["own_task_sum"] == theirs["own_task_sum"]
            np.testing.assert_allclose(ours["losses"], theirs["losses"], rtol=1e-5)
    for worker in workers:
        assert worker["own_task_sum"] == 3.0
        assert worker["w"] == pytest.approx(alone["w"], abs=1e-6)
        assert worker["b"] == pytest.approx(alone["b"], abs=1e-6)
        np.testing.assert_allclose(worker["losses"], alone["losses"], rtol=1e-5)
    assert abs(alone["w"] - 3.0) < 0.5 and abs(alone["b"] - 1.0) < 0.2  # it did train


@needs_torch
@pytest.mark.cuda
def test_two_workers_sharing_one_cuda_gpu_train_like_one_process():
    """Both workers see the one GPU: NCCL needs a GPU per rank, so they reduce through the host (gloo)."""
    workers = loopback.run_cluster(PROGRAMS, "linear", PLACEFLOW_DISABLE_CUDA="")
    alone = loopback.run_alone(PROGRAMS, "linear", PLACEFLOW_DISABLE_CUDA="")
    for worker in workers:
        assert worker["w"] == pytest.approx(alone["w"], abs=1e-5) and worker["b"] == pytest.approx(alone["b"], abs=1e-5)


@needs_torch
def test_keras_fit_across_two_workers_stops_as_in_tensorflow_and_runs_on_one(tmp_path):
    # Keras 3 reduces each step's scalar logs with strategy.reduce("MEAN", v, axis=0) once several workers run,
    # which TensorFlow 2.21 refuses for a 0-d value (tensorflow/tensorflow#72388): so does placeflow. Custom
    # training loops across workers (the other tests here) are the way to train on several hosts.
    workers = loopback.run_cluster(PROGRAMS, "fit", CKPT_DIR=tmp_path)
    for worker in workers:
        assert worker == {"fit_error": "ValueError",
                          "message": worker["message"]} and "Invalid reduction dimension 0" in worker["message"]
    (tmp_path / "alone").mkdir()
    alone = loopback.run_alone(PROGRAMS, "fit", CKPT_DIR=tmp_path / "alone")
    assert alone["checkpoint_written"] and alone["history"]["loss"][-1] < alone["history"]["loss"][0]


@needs_torch
def test_input_is_sharded_by_data_and_reductions_span_every_worker():
    first, second = loopback.run_cluster(PROGRAMS, "input")
    assert [first, second] == TF["input"]["workers"]  # TensorFlow's sharding, contexts and reductions
    # each global batch of 4 is cut into one piece per replica; worker w keeps piece w
    assert first["rows"] == [[0, 1], [4, 5], [8, 9]] and second["rows"] == [[2, 3], [6, 7], [10, 11]]
    assert first["contexts"] == [[2, 0, 2]] and second["contexts"] == [[2, 1, 2]]
    assert first["from_function"] == [[0, 2], [4, 6]] and second["from_function"] == [[1, 3], [5, 7]]
    for worker in (first, second):  # replica r holds (r + 1) * [1, 1]; every worker gets the same reductions
        assert worker["reduced"] == {"sum": [3.0, 3.0], "mean": [1.5, 1.5], "mean_axis": 1.5, "mean_axis_traced": 1.5}
        assert worker["gathered"] == [1.0, 1.0, 2.0, 2.0]


@needs_torch
def test_a_killed_worker_fails_the_survivors_step_with_unavailable_and_a_new_cluster_forms():
    ports = loopback.free_ports(2)
    survivor = loopback.start(PROGRAMS, ["fault", "survivor"], loopback.worker_env(loopback.tf_config(ports, 0),
                                                                                  REFORM="1"))
    victim = loopback.start(PROGRAMS, ["fault", "victim"], loopback.worker_env(loopback.tf_config(ports, 1)))
    try:
        assert loopback.result(victim)["first"] == [2.0, 2.0]
        victim.wait(timeout=30)
        replacement = loopback.start(PROGRAMS, ["fault", "replacement"],
                                     loopback.worker_env(loopback.tf_config(ports, 1)))
        out = loopback.result(survivor)
        assert out["first"] == [2.0, 2.0]
        assert out["error"] == "UnavailableError" and out["seconds"] < 10.0, out
        assert "connection closed" in out["message"] and "new MultiWorkerMirroredStrategy" in out["message"]
        assert out["reformed"] == [2.0, 2.0]
        assert loopback.result(replacement)["first"] == [2.0, 2.0]
    finally:
        for process in (survivor, victim):
            if process.poll() is None:
                process.kill()


@needs_torch
def test_a_silent_worker_fails_the_step_at_the_configured_deadline():
    ports = loopback.free_ports(2)
    survivor = loopback.start(PROGRAMS, ["fault", "survivor"],
                              loopback.worker_env(loopback.tf_config(ports, 0), STEP_TIMEOUT="2"))
    silent = loopback.start(PROGRAMS, ["fault", "silent"],
                            loopback.worker_env(loopback.tf_config(ports, 1), STEP_TIMEOUT="2"))
    try:
        out = loopback.result(survivor)
        assert out["error"] == "UnavailableError" and 1.5 < out["seconds"] < 8.0, out
        assert "did not answer within 2 s" in out["message"]
    finally:
        silent.kill()


def test_without_tf_config_the_strategy_is_one_worker(monkeypatch, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    monkeypatch.delenv("TF_CONFIG", raising=False)
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.num_replicas_in_sync == 2 and strategy.extended.num_workers == 1
    assert strategy.extended.should_checkpoint and strategy.cluster_resolver.task_type is None
    with strategy.scope():
        v = tf.Variable(1.0)
    result = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", v * 1.0))
    assert [float(r) for r in strategy.experimental_local_results(result)] == [2.0, 2.0]


def test_tasks_outside_chief_and_worker_jobs_and_bad_options_are_refused(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]},
                                                "task": {"type": "ps", "index": 0}}))
    with pytest.raises(ValueError, match="not a 'chief' or 'worker' task"):
        tf.distribute.MultiWorkerMirroredStrategy()
    with pytest.raises(ValueError, match="timeout_seconds must be positive"):
        tf.distribute.experimental.CommunicationOptions(timeout_seconds=0)
    monkeypatch.delenv("TF_CONFIG")
    with pytest.raises(ValueError, match="needs CUDA GPUs"):
        tf.distribute.experimental.MultiWorkerMirroredStrategy(
            communication=tf.distribute.experimental.CollectiveCommunication.NCCL,
            cluster_resolver=tf.distribute.cluster_resolver.SimpleClusterResolver(
                tf.train.ClusterSpec({"worker": ["127.0.0.1:1", "127.0.0.1:2"]}), task_type="worker", task_id=0))


def test_file_sharding_of_a_dataset_without_files_is_refused(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    from placeflow.distribute import multi_worker
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.FILE
    with pytest.raises(tf.errors.NotFoundError, match="AutoShardPolicy.FILE"):
        multi_worker._shards(tf.data.Dataset.range(4).with_options(options))
    assert multi_worker._shards(tf.data.Dataset.range(4)) is True


@needs_torch
def test_a_worker_started_after_the_collective_deadline_still_joins_within_the_rendezvous_timeout():
    """Group formation waits for late workers up to PLACEFLOW_RENDEZVOUS_TIMEOUT_S (it gave up after the
    collective deadline): here the collective deadline is 2 s and the second worker starts 5 s late."""
    import time
    ports = loopback.free_ports(2)
    env = {"PLACEFLOW_COLLECTIVE_TIMEOUT_S": "2", "PLACEFLOW_RENDEZVOUS_TIMEOUT_S": "30"}
    first = loopback.start(PROGRAMS, ["linear"], loopback.worker_env(loopback.tf_config(ports, 0), **env))
    try:
        time.sleep(5)
        second = loopback.start(PROGRAMS, ["linear"], loopback.worker_env(loopback.tf_config(ports, 1), **env))
        results = [loopback.result(first), loopback.result(second)]
        assert results[0]["replicas"] == results[1]["replicas"] == 2, results
        assert (results[0]["w"], results[0]["b"]) == (results[1]["w"], results[1]["b"]), results
    finally:
        for process in (first,):
            if process.poll() is None:
                process.kill()


def test_a_port_outside_0_65535_in_tf_config_is_a_clear_value_error(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["127.0.0.1:70000", "127.0.0.1:2"]},
                                                "task": {"type": "worker", "index": 1}}))
    with pytest.raises(ValueError, match="port 70000, outside 0-65535"):
        tf.distribute.MultiWorkerMirroredStrategy()
