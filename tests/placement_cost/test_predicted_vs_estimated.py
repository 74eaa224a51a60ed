"""The cost-model placer's prediction of a step against the same placement run shape-only (PLACEFLOW_ESTIMATE=1),
whose step clock times each op by the same performance models as the executor takes the ops in modelled time
(executor.run_in_modelled_order), with ops on GPUs only and with ops on the CPU as well."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import context
from placeflow.placement import cost_model_placer
from placeflow.runtime import registry, step_clock
from tests.placement_cost import graphs

v1 = tf.compat.v1
CASES = {  # name: (graph, GPUs, whether the placer puts some of its ops on the CPU)
    "wide branches on 2 GPUs": (lambda: graphs.wide(branches=4, depth=4, size=4096, batch=1024), 2, False),
    "wide branches on 4 GPUs": (lambda: graphs.wide(branches=8, depth=3, size=4096, batch=1024), 4, False),
    "a chain on 2 GPUs (its weights on the other)": (lambda: graphs.chain(depth=8, size=8192, batch=1024), 2, False),
    "wide branches on 4 GPUs and the CPU": (lambda: graphs.wide(branches=8, depth=3, size=8192, batch=1024), 4, True),
    "an LSTM on 4 GPUs and the CPU": (lambda: graphs.lstm(layers=4, steps=8, hidden=8192, batch=1024), 4, True),
}


def _needed(graph, fetch) -> list:
    wanted, stack = set(), [fetch.op]
    while stack:
        op = stack.pop()
        if op not in wanted:
            wanted.add(op)
            stack.extend(t.op for t in op.inputs)
            stack.extend(op.control_inputs)
    return [op for op in graph.get_operations() if op in wanted]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_placers_prediction_agrees_with_the_estimated_step_within_10_percent(make_context, name):
    build, gpus, on_cpu = CASES[name]
    make_context(PLACEFLOW_SIMULATED_GPUS=f"{gpus}:80GiB:H100", PLACEFLOW_ESTIMATE="1")
    tf.config.experimental.set_placer("cost_model")
    tf.experimental.reset_placement_report()
    graph = v1.Graph()
    with graph.as_default():
        out = build()
        init = v1.global_variables_initializer()
    feeds = {op.outputs[0]: np.zeros(op.outputs[0].shape.as_list(), np.float32)
             for op in graph.get_operations() if op.type == "Placeholder"}
    with v1.Session(graph=graph) as session:
        session.run(init)
        session.run(out, feeds)
        step_clock.reset()
        session.run(out, feeds)
        session.run(out, feeds)
    first, simulated = step_clock.summary()["steps"][-2:]
    assert first == pytest.approx(simulated, rel=1e-9)   # not a matter of how the executor's threads interleaved
    run = tf.experimental.placement_report().placements[-1]
    devices = {row[0]: registry.find(context(), row[2]) for row in run.rows}
    ops = _needed(graph, out)
    predicted = cost_model_placer.predict(ops, {op: devices[op.name] for op in ops}, context())
    assert len({devices[op.name] for op in ops if op.type == "MatMul" or op.type == "VariableV2" and
                devices[op.name].device_type == "GPU"}) == gpus   # it spread
    assert any(devices[op.name].device_type == "CPU" for op in ops) == on_cpu
    assert predicted == pytest.approx(simulated, rel=0.10), (predicted, simulated)
