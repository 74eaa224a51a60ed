"""placeflow's tf.io protocol buffers (SequenceExample and its parsing, the new feature kinds, TensorProto,
SparseTensor serialization, JSON Examples, file patterns, ClusterDef/JobDef/ServerDef) equal TensorFlow 2.21's
recorded results (cases.py, record_tf_io_protos.py): bytes exactly, floats within 1e-5, errors by class."""

import json
import math
import pathlib

import pytest

import placeflow as tf
from tests.io_protos.cases import CASES, OURS_SERVER, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]


def _same(ours, theirs, where="result", tol=1e-5):
    if isinstance(theirs, float) and not isinstance(ours, str):
        assert isinstance(ours, (int, float)) and (math.isclose(ours, theirs, rel_tol=tol, abs_tol=tol) or
                                                   (math.isnan(ours) and math.isnan(theirs))), \
            f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) and theirs[0].endswith(
            ("Error", "Exception")):
        assert isinstance(ours, list) and ours[0] == theirs[0], f"{where}: raised {ours}, TensorFlow {theirs}"
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, f"{where}[{i}]", tol)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
        for key in theirs:
            _same(ours[key], theirs[key], f"{where}.{key}", tol)
    else:
        assert ours == theirs, f"{where}: {ours} != {theirs}"


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


def test_the_server_def_tensorflow_parsed_is_what_placeflow_writes():
    cluster = tf.train.ClusterSpec({"worker": ["a:1", "b:2"], "ps": {0: "c:3", 3: "d:4"}}).as_cluster_def()
    server = tf.train.ServerDef(cluster=cluster, job_name="worker", task_index=1, protocol="grpc", port=5, replica=-1)
    assert server.SerializeToString().hex() == OURS_SERVER
    assert tf.train.ServerDef.FromString(bytes.fromhex(OURS_SERVER)) == server


def test_unimplemented_parts_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="variant"):
        tf.io.serialize_sparse(tf.sparse.SparseTensor([[0]], [1.0], [2]), out_type=tf.variant)
    with pytest.raises(NotImplementedError, match="allow_broadcast"):
        tf.make_tensor_proto([1.0], shape=[2], allow_broadcast=True)
    with pytest.raises(NotImplementedError, match="default_session_config"):
        tf.train.ServerDef(default_session_config=object())


def test_parsing_inside_a_function_is_refused_by_name():
    @tf.function
    def parse(records):
        return tf.io.parse_sequence_example(records, sequence_features={"v": tf.io.VarLenFeature(tf.int64)})

    with pytest.raises(NotImplementedError, match="parse_sequence_example"):
        parse(tf.constant([b""]))
