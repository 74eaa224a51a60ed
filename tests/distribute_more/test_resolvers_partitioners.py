"""Where placeflow's Slurm resolver and partitioners go past TensorFlow 2.21 (whose results they otherwise match,
test_recorded.py): inputs on which TensorFlow crashes with an internal error get a clear one, or an answer."""

import os

import pytest

import placeflow as tf
from placeflow.distribute import slurm_resolver
from tests.distribute_more.cases import SLURM

partitioners = tf.distribute.experimental.partitioners


@pytest.fixture
def slurm_env(monkeypatch):
    """Slurm's variables; CUDA_VISIBLE_DEVICES, which the resolver sets, is restored (or removed) afterwards."""
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # recorded first, so a value the resolver sets is undone
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    for name in [n for n in os.environ if n.startswith("SLURM_")]:
        monkeypatch.delenv(name)
    for name, value in SLURM.items():
        monkeypatch.setenv(name, value)
    return monkeypatch


def test_host_lists_and_task_counts_expand():
    assert slurm_resolver.expand_hostlist("a1,b[3-4,7],c") == ["a1", "b3", "b4", "b7", "c"]
    assert slurm_resolver.expand_hostlist("n[08-10]") == ["n08", "n09", "n10"]
    assert slurm_resolver.expand_hostlist("r[1-2]n[3,5]") == ["r1n3", "r1n5", "r2n3", "r2n5"]
    assert slurm_resolver.expand_tasks_per_node("2(x3),1") == [2, 2, 2, 1]
    with pytest.raises(ValueError, match="low-high"):
        slurm_resolver.expand_hostlist("n[5-2]")
    with pytest.raises(ValueError, match="n\\(xk\\)"):
        slurm_resolver.expand_tasks_per_node("2(y3)")


def test_nodes_without_gpus_get_none(slurm_env):
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=0)  # TensorFlow: range() error
    assert resolver.cluster_spec().num_tasks("worker") == 4
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "" and resolver.num_accelerators() == {"GPU": 0}


def test_a_rank_outside_the_step_is_refused(slurm_env):
    slurm_env.setenv("SLURM_PROCID", "7")  # TensorFlow: IndexError
    with pytest.raises(RuntimeError, match="SLURM_PROCID 7 is outside"):
        tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=4)


def test_gpus_without_nvidia_smi_or_cuda_visible_devices(slurm_env):
    slurm_env.setenv("PATH", "/nonexistent")  # TensorFlow: FileNotFoundError of nvidia-smi
    with pytest.raises(RuntimeError, match="gpus_per_node"):
        tf.distribute.cluster_resolver.SlurmClusterResolver()


def test_the_resolver_feeds_a_cluster_to_multi_worker_code(slurm_env):
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=2, jobs={"chief": 1, "worker": 3})
    spec = resolver.cluster_spec()
    assert isinstance(spec, tf.train.ClusterSpec) and spec.task_address("chief", 0) == "node01:8888"
    assert (resolver.task_type, resolver.task_id) == ("worker", 2)


def test_union_refuses_clashing_task_indices():
    resolvers = tf.distribute.cluster_resolver
    one = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": {0: "a:1"}}))
    other = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": {0: "b:1", 3: "b:2"}}))
    with pytest.raises(KeyError, match="Duplicate task index 0"):
        resolvers.UnionResolver(one, other).cluster_spec()


def test_gce_and_tpu_resolvers_are_refused_by_name():
    for name in ("GCEClusterResolver", "TPUClusterResolver"):
        with pytest.raises(NotImplementedError, match=name):
            getattr(tf.distribute.cluster_resolver, name)()


def test_partitioners_take_lists_and_check_their_input():
    assert partitioners.FixedShardsPartitioner(3)([2, 5], tf.float32, axis=1) == [1, 3]  # TensorFlow: AttributeError
    with pytest.raises(ValueError, match="num_shards"):
        partitioners.FixedShardsPartitioner(0)
    with pytest.raises(ValueError, match="out of range"):
        partitioners.MinSizePartitioner(4, 2)(tf.TensorShape([6]), tf.float32, axis=1)  # TensorFlow: IndexError
    with pytest.raises(ValueError, match="fully defined"):
        partitioners.MinSizePartitioner(4, 2)(tf.TensorShape([None, 4]), tf.float32)  # TensorFlow: TypeError
    assert partitioners.MaxSizePartitioner(4)(tf.TensorShape([0, 4]), tf.float32) == [1, 1]  # TF: ZeroDivisionError
    with pytest.raises(NotImplementedError, match="__call__"):
        partitioners.Partitioner()([4], tf.float32)
