"""ClusterSpec and the cluster resolvers beyond the conformance cases: TF_CONFIG errors, accelerators."""

import json

import pytest

import placeflow as tf


def test_tf_config_is_read_when_asked_and_bad_json_is_refused(monkeypatch):
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["h:1", "h:2"]},
                                                "task": {"type": "worker", "index": "1"}}))
    assert resolver.task_id == 1 and resolver.master() == "h:2" and resolver.master(rpc_layer="grpc") == "grpc://h:2"
    monkeypatch.setenv("TF_CONFIG", "{not json")
    with pytest.raises(ValueError, match="TF_CONFIG is not valid JSON"):
        resolver.cluster_spec()
    explicit = tf.distribute.cluster_resolver.TFConfigClusterResolver(task_type="chief", task_id=0)
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": ["c:9"]}}))
    assert (explicit.task_type, explicit.task_id, explicit.master()) == ("chief", 0, "c:9")


def test_resolvers_count_this_processs_gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    spec = tf.train.ClusterSpec({"worker": ["a:1"]})
    assert tf.distribute.cluster_resolver.SimpleClusterResolver(spec).num_accelerators() == {"GPU": 2}
    assert tf.distribute.cluster_resolver.SimpleClusterResolver(spec, num_accelerators={"GPU": 1}) \
        .num_accelerators() == {"GPU": 1}
    assert tf.train.ClusterSpec(spec.as_cluster_def()) == spec
