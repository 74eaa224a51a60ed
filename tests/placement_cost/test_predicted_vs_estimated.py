"""The cost-model placer's prediction of a step against the same placement run shape-only (PLACEFLOW_ESTIMATE=1),
whose step clock times each op by the same performance models on the executor's own schedule.

Placements on GPUs only: where the placer puts ops on the CPU, the CPU lane's dataflow runner takes them in the
order they become ready in real time, which a shape-only run does not reproduce, and the two differ by up to 25%
(measured: wide branches of 8,192 units on 4 GPUs with 5 ops on the CPU, predicted 8.9 ms, run 10.7-11.8 ms)."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import context
from placeflow.placement import cost_model_placer
from placeflow.runtime import registry, step_clock
from tests.placement_cost import graphs

v1 = tf.compat.v1
CASES = {  # large enough ops that the devices, not the host issuing them, bound the step; placements on GPUs only
    "wide branches on 2 GPUs": (lambda: graphs.wide(branches=4, depth=4, size=4096, batch=1024), 2),
    "wide branches on 4 GPUs": (lambda: graphs.wide(branches=8, depth=3, size=4096, batch=1024), 4),
    "a chain on 2 GPUs (its weights on the other)": (lambda: graphs.chain(depth=8, size=8192, batch=1024), 2),
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
    build, gpus = CASES[name]
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
    simulated = step_clock.summary()["steps"][-1]
    run = tf.experimental.placement_report().placements[-1]
    devices = {row[0]: registry.find(context(), row[2]) for row in run.rows}
    ops = _needed(graph, out)
    predicted = cost_model_placer.predict(ops, {op: devices[op.name] for op in ops}, context())
    assert len({devices[op.name] for op in ops if op.type in ("MatMul", "VariableV2")}) == gpus   # it spread
    assert all(devices[op.name].device_type == "GPU" for op in ops)
    assert predicted == pytest.approx(simulated, rel=0.10), (predicted, simulated)
