"""The misc-names additions equal TensorFlow 2.21's recorded results (cases.py, record_tf_misc_names.py): floats
within 1e-5, everything else exactly, errors by class. TensorFlow also read back the event file and SavedModel
fingerprint that write_program.py makes with placeflow ("reads" in tf_2_21.json): this test makes them again and
decodes them with placeflow's own reader, comparing with what TensorFlow read."""

import glob
import json
import os
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from placeflow.framework.protobuf_wire import fields
from tests.misc_names import write_program
from tests.misc_names.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDING = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())
RECORDED = RECORDING["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


# -- the files TensorFlow read ---------------------------------------------------------------------------------------


def _message(data) -> dict:
    """{field number: [values]} of one protobuf message."""
    out: dict = {}
    for number, _, value in fields(data):
        out.setdefault(number, []).append(value)
    return out


def _nodes(graph_def: bytes, with_attrs: bool) -> list:
    nodes = []
    for node in _message(graph_def).get(1, []):
        node = _message(node)
        entry = [node[1][0].decode(), node[2][0].decode(), [i.decode() for i in node.get(3, [])]]
        if with_attrs:
            entry.append(sorted(_message(attr)[1][0].decode() for attr in node.get(5, [])))
        nodes.append(entry)
    return nodes


def _string_tensor(tensor: bytes) -> list:
    proto = _message(tensor)
    assert proto[1] == [7]  # DT_STRING
    return proto.get(8, [])


def _value(step, value: dict) -> dict:
    metadata = _message(value.get(9, [b""])[0])
    plugin = _message(metadata.get(1, [b""])[0])
    entry = {"step": step, "tag": value[1][0].decode(), "plugin": plugin.get(1, [b""])[0].decode(),
             "content": plugin.get(2, [b""])[0].hex(), "data_class": metadata.get(4, [0])[0],
             "kind": "simple_value" if 2 in value else "tensor"}
    if 2 in value:
        entry["simple_value"] = float(np.frombuffer(value[2][0].to_bytes(4, "little"), "<f4")[0])
    elif entry["plugin"] == "audio":
        table = np.array(_string_tensor(value[8][0]), dtype=object).reshape(-1, 2)
        decoded = [tf.audio.decode_wav(row[0]) for row in table]
        entry["audio"] = [[round(float(x), 6) for x in d.audio.numpy().reshape(-1)] + [int(d.sample_rate)]
                          for d in decoded]
        entry["labels"] = [row[1].decode() for row in table]
    elif entry["plugin"] == "graph_run_metadata_graph":
        run = _message(_string_tensor(value[8][0])[0])
        entry["function_graphs"] = [_nodes(_message(g)[2][0], False) for g in run.get(4, [])]
    return entry


def _read_events(logdir) -> list:
    from tests.summary.test_summary import _records
    read = []
    for path in glob.glob(os.path.join(logdir, "events.out.tfevents.*")):
        for body in _records(pathlib.Path(path)):
            event = _message(body)
            step = event.get(2, [0])[0]
            if 4 in event:
                read.append({"step": step, "graph": _nodes(event[4][0], True)})
            for summary in event.get(5, []):
                read.extend(_value(step, _message(v)) for v in _message(summary).get(1, []))
    return read


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("misc_names"))
    write_program.write(tf, out)
    return out


def test_the_event_file_reads_as_tensorflow_read_it(written):
    _same(_read_events(os.path.join(written, "logs")), RECORDING["reads"]["events"], "events")


def test_the_fingerprint_reads_as_tensorflow_read_it(written):
    fingerprint = tf.saved_model.experimental.read_fingerprint(os.path.join(written, "model"))
    found = [fingerprint.saved_model_checksum, fingerprint.graph_def_program_hash, fingerprint.signature_def_hash,
             fingerprint.saved_object_graph_hash, fingerprint.checkpoint_hash, fingerprint.version]
    assert [bool(v) for v in found] == RECORDING["reads"]["fingerprint_fields_set"]
    assert fingerprint.version == RECORDING["reads"]["fingerprint_version"]
    again = tf.saved_model.experimental.read_fingerprint(os.path.join(written, "model"))
    assert again == fingerprint and fingerprint.singleprint().count("/") == 3


# -- what placeflow refuses or does differently, by name -------------------------------------------------------------


def test_quantized_tensors_are_refused_by_name():
    for make in (lambda: tf.constant(1, tf.qint8), lambda: tf.convert_to_tensor([1, 2], tf.quint16),
                 lambda: tf.cast(tf.constant([1.0]), tf.qint8)):
        with pytest.raises(NotImplementedError, match="quantized type"):
            make()
    with pytest.raises(NotImplementedError, match="qint32"):
        tf.qint32.numpy_dtype
    assert tf.as_dtype("qint16") is tf.qint16 and tf.dtypes.as_dtype(tf.qint8.as_numpy_dtype) is tf.qint8


def test_trace_on_refuses_the_profiler():
    with pytest.raises(NotImplementedError, match="profiler"):
        tf.summary.trace_on(graph=True, profiler=True)
    with pytest.raises(NotImplementedError, match="profiler_outdir"):
        tf.summary.trace_export("t", profiler_outdir="/tmp/x")


def test_audio_refuses_other_encodings_and_ranks(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with pytest.raises(ValueError, match="encoding"):
            tf.summary.audio("a", np.zeros((1, 4, 1), np.float32), 8000, encoding="mp3")
        with pytest.raises(ValueError, match="rank 3"):
            tf.summary.audio("a", np.zeros((4, 1), np.float32), 8000)
    assert tf.summary.audio("a", np.zeros((1, 4, 1), np.float32), 8000, step=0) is False  # no default writer


def test_summaries_inside_a_traced_function_are_refused(tmp_path):
    @tf.function
    def f():
        tf.summary.graph(tf.Graph())
        return tf.constant(0)

    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with pytest.raises(NotImplementedError, match="traced placeflow.function"):
            f()


def test_conv_refuses_what_it_cannot_honour():
    x, w = np.ones((1, 4, 4, 2), np.float32), np.ones((2, 2, 2, 2), np.float32)
    with pytest.raises(NotImplementedError, match="CHANNELS_FIRST"):
        tf.conv(x, w, [1, 1, 1, 1], "VALID", data_format="CHANNELS_FIRST")
    with pytest.raises(NotImplementedError, match="groups=2"):
        tf.conv(x, w[:, :, :1], [1, 1, 1, 1], "VALID", groups=2)
    with pytest.raises(NotImplementedError, match="dilations"):
        tf.conv2d_backprop_filter_v2(x, w, np.ones((1, 3, 3, 2), np.float32), [1, 1, 1, 1], "VALID",
                                     dilations=[1, 2, 2, 1])


def test_approx_top_k_min_k_is_exact():
    """TF 2.21's CPU kernel has is_max_k=True only (NotFoundError); placeflow computes the smallest k exactly."""
    x = np.array([[3.0, -1.0, 2.0, 0.5]], np.float32)
    values, indices = tf.approx_top_k(x, 2, is_max_k=False)
    assert values.numpy().tolist() == [[-1.0, 0.5]] and indices.numpy().tolist() == [[1, 3]]


def test_ragged_fill_empty_rows_inside_a_function_reads_the_row_ids_when_it_runs():
    fill = tf.function(lambda r: tf.ragged_fill_empty_rows(r, tf.constant([1.0, 2.0]), 3, 9.0))
    first, second = fill(tf.constant([0, 2], tf.int64)), fill(tf.constant([1, 1], tf.int64))
    assert first.output_values.numpy().tolist() == [1.0, 9.0, 2.0]
    assert second.output_values.numpy().tolist() == [9.0, 1.0, 2.0, 9.0]
    assert second.empty_row_indicator.numpy().tolist() == [True, False, True]
    with pytest.raises(tf.errors.InvalidArgumentError, match="is invalid"):
        fill(tf.constant([0, 3], tf.int64))


def test_variable_policies_other_than_none_are_refused_at_save():
    policy = tf.saved_model.experimental.VariablePolicy
    assert tf.saved_model.SaveOptions(experimental_variable_policy=policy.NONE)._given == []
    assert tf.saved_model.SaveOptions(experimental_variable_policy="save_variable_devices")._given == [
        "experimental_variable_policy"]
    with pytest.raises(ValueError, match="invalid VariablePolicy"):
        tf.saved_model.SaveOptions(experimental_variable_policy="bad")


def test_saving_an_asset_is_refused_by_name(tmp_path):
    module = tf.Module()
    module.vocabulary = tf.saved_model.Asset(str(tmp_path / "vocab.txt"))
    with pytest.raises(NotImplementedError, match="vocab.txt"):
        tf.saved_model.save(module, str(tmp_path / "model"))


def test_assert_equal_graph_def_compares_placeflow_graphs():
    def make(scale):
        graph = tf.Graph()
        with graph.as_default():
            tf.multiply(tf.constant(1.0, name="a"), scale, name="out")
        return graph
    tf.test.assert_equal_graph_def(make(2.0), make(2.0))
    other = tf.Graph()
    with other.as_default():
        tf.constant(1.0, name="b")
    with pytest.raises(AssertionError, match="only in expected"):
        tf.test.assert_equal_graph_def(make(2.0), other)


def test_function_types_describe_placeflow_functions():
    f = tf.function(lambda x: x * 2.0)
    concrete = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    parameters = list(concrete.function_type.parameters.values())
    assert [p.annotation for p in parameters] == [tf.TensorSpec([3], tf.float32, parameters[0].name)]
    with pytest.raises(NotImplementedError, match="captures"):
        tf.types.experimental.FunctionType([], captures={"a": 1})


def test_distributed_values_register_with_the_abstract_types():
    from placeflow.distribute.values import Mirrored, PerReplica
    assert isinstance(PerReplica((tf.constant(1.0), tf.constant(2.0))), tf.types.experimental.distributed.PerReplica)
    assert isinstance(Mirrored((tf.constant(1.0),)), tf.types.experimental.distributed.Mirrored)


def test_create_local_cluster_starts_reachable_servers():
    workers, ps = tf.test.create_local_cluster(2, 1)
    try:
        assert [s.server_def["job_name"] for s in workers + ps] == ["worker", "worker", "ps"]
        assert [s.server_def["task_index"] for s in workers + ps] == [0, 1, 0]
        assert len({s.target for s in workers + ps}) == 3 and workers[0].target.startswith("grpc://localhost:")
        assert sorted(workers[0].server_def["cluster"]) == ["ps", "worker"]
    finally:
        for server in workers + ps:
            server._stop()
    with pytest.raises(ValueError, match="num_workers"):
        tf.test.create_local_cluster(0, 1)


def test_benchmarks_run_ops_in_a_session():
    class Bench(tf.test.Benchmark):
        def benchmark_add(self):
            graph = tf.Graph()
            with graph.as_default():
                total = tf.add(tf.constant(1.0), 2.0)
            with tf.compat.v1.Session(graph=graph) as session:
                return self.run_op_benchmark(session, total, burn_iters=1, min_iters=3, mbs=4)

    result = Bench().benchmark_add()
    assert result["name"] == "Bench.benchmark_add" and result["iters"] == 3 and result["wall_time"] > 0
    assert result["throughput"] == pytest.approx(4 / result["wall_time"])
    with pytest.raises(NotImplementedError, match="store_trace"):
        Bench().run_op_benchmark(None, None, store_trace=True)
    assert Bench().evaluate({"a": tf.constant([1, 2])})["a"].tolist() == [1, 2]
