"""A traced function as data, and back: the graph format of placeflow's SavedModel (saved_model_save/load.py).

A function is its ops as records (name, type, attributes, inputs, control inputs, output specs, requested
device, the variable it reads or writes), its argument placeholders and its outputs. Attributes are encoded
as JSON with tags for what JSON lacks (dtypes, arrays kept apart in an .npz, slices, bytes, tuples, nested
branch and loop bodies); an attribute of any other kind (a Python function, a dataset) refuses the save,
naming the op. Nothing is pickled: loading runs no code from the file.
"""

from __future__ import annotations

import base64

import numpy as np

from ..framework import dtypes
from ..framework import nest


class Encoder:
    """Encodes functions, collecting their arrays and the variables they use (by position)."""

    def __init__(self, variable_index):
        self.arrays: dict = {}
        self._variable_index = variable_index  # eager Variable -> its index among the saved variables

    def function(self, concrete) -> dict:
        """A ConcreteFunction (or a branch/loop body's) as JSON-able data."""
        ops = concrete.graph.get_operations()
        index = {op: i for i, op in enumerate(ops)}
        return {"name": concrete.name,
                "ops": [self._op(op, index) for op in ops],
                "inputs": [[index[t.op], t.value_index] for t in concrete.inputs],
                "leaves": [self._leaf(leaf, index) for leaf in concrete._leaves],
                "structure": _template(concrete.structured_outputs)}

    def _op(self, op, index) -> dict:
        variable = None
        if op.resource is not None:
            if op.resource not in self._variable_index:
                raise AssertionError(
                    f"Tried to export a function which references an 'untracked' resource: op {op.name!r} "
                    f"({op.type}) uses {op.resource!r}. TensorFlow objects (e.g. tf.Variable) captured by "
                    "functions must be tracked by assigning them to an attribute of a tracked object or of the "
                    "main object directly.")
            variable = self._variable_index[op.resource]
        return {"name": op.name, "type": op.type, "dtype": _dtype_name(op.dtype),
                "attrs": {key: self._value(value, op, key) for key, value in op.attrs.items()
                          if key != "gradient"},
                "inputs": [[index[t.op], t.value_index] for t in op.inputs],
                "controls": [index[c] for c in op.control_inputs if c in index],
                "outputs": [[_dtype_name(t.dtype), _shape(t._shape)] for t in op.outputs],
                "device": op.device or "", "variable": variable, "had_gradient": "gradient" in op.attrs}

    def _leaf(self, leaf, index):
        if hasattr(leaf, "op") and hasattr(leaf, "value_index"):
            return {"tensor": [index[leaf.op], leaf.value_index]}
        return {"value": self._value(leaf, None, "output")}

    def _value(self, value, op, key):
        from .control_flow import Body
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, dtypes.DType):
            return {"$dtype": value.name}
        if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
            name = f"a{len(self.arrays)}"
            self.arrays[name] = np.asarray(value)
            return {"$array": name, "scalar": isinstance(value, np.generic)}
        if isinstance(value, np.ndarray):  # strings: bytes objects
            return {"$strings": [base64.b64encode(v).decode() for v in value.reshape(-1)], "shape": list(value.shape)}
        if isinstance(value, bytes):
            return {"$bytes": base64.b64encode(value).decode()}
        if isinstance(value, slice):
            return {"$slice": [self._value(v, op, key) for v in (value.start, value.stop, value.step)]}
        if value is Ellipsis:
            return {"$ellipsis": True}
        if isinstance(value, tuple):
            return {"$tuple": [self._value(v, op, key) for v in value]}
        if isinstance(value, list):
            return [self._value(v, op, key) for v in value]
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {"$dict": {k: self._value(v, op, key) for k, v in value.items()}}
        if isinstance(value, Body):
            body = self.function(value._function)
            body["body_inputs"] = len(value.inputs)
            return {"$body": body}
        where = f"op {op.name!r} ({op.type}), attribute {key!r}" if op is not None else "a function output"
        raise NotImplementedError(f"Saving {where} holding {type(value).__name__} ({value!r:.80}) is not implemented "
                                  "in placeflow's SavedModel: only tensors, dtypes, numbers, strings and branch/loop "
                                  "bodies can be written without pickling Python objects.")


class Decoder:
    """Rebuilds functions from Encoder's data, with the saved arrays and the restored variables."""

    def __init__(self, arrays, variables):
        self._arrays, self._variables = arrays, variables

    def function(self, data, graph=None):
        """The ConcreteFunction `data` describes (its graph rebuilt op by op)."""
        from .function import ConcreteFunction, FuncGraph
        graph = FuncGraph(data["name"]) if graph is None else graph
        built = []
        with graph.as_default():
            for record in data["ops"]:
                built.append(self._op(graph, record, built))
        inputs = [built[i].outputs[port] for i, port in data["inputs"]]
        leaves = [built[leaf["tensor"][0]].outputs[leaf["tensor"][1]] if "tensor" in leaf
                  else self._value(leaf["value"]) for leaf in data["leaves"]]
        structure = _pack(data["structure"], leaves)
        return ConcreteFunction(data["name"], graph, inputs, structure, leaves)

    def _op(self, graph, record, built):
        inputs = [built[i].outputs[port] for i, port in record["inputs"]]
        attrs = {key: self._value(value) for key, value in record["attrs"].items()}
        if record.get("had_gradient"):  # a branch or loop's gradient was Python code: not saved
            attrs["gradient"] = _unsaved_gradient(record["type"], record["name"])
        resource = None if record["variable"] is None else self._variables[record["variable"]]
        outputs = [(_dtype(d), None if s is None else tuple(s)) for d, s in record["outputs"]]
        with graph.device(record["device"] or None):
            op = graph.create_op(record["type"], inputs, attrs, _dtype(record["dtype"]), record["name"], outputs,
                                 resource=resource)
        op.control_inputs.extend(built[i] for i in record["controls"] if built[i] not in op.control_inputs)
        return op

    def _value(self, value):
        if isinstance(value, list):
            return [self._value(v) for v in value]
        if not isinstance(value, dict):
            return value
        if "$dtype" in value:
            return dtypes.as_dtype(value["$dtype"])
        if "$array" in value:
            array = self._arrays[value["$array"]]
            return array[()] if value["scalar"] else array
        if "$strings" in value:
            items = [base64.b64decode(v) for v in value["$strings"]]
            return np.array(items + [None], dtype=object)[:-1].reshape(value["shape"])
        if "$bytes" in value:
            return base64.b64decode(value["$bytes"])
        if "$slice" in value:
            return slice(*(self._value(v) for v in value["$slice"]))
        if "$ellipsis" in value:
            return Ellipsis
        if "$tuple" in value:
            return tuple(self._value(v) for v in value["$tuple"])
        if "$dict" in value:
            return {k: self._value(v) for k, v in value["$dict"].items()}
        if "$body" in value:
            return self._body(value["$body"])
        raise ValueError(f"Unknown attribute encoding {sorted(value)} in a placeflow SavedModel: the file was "
                         "written by a newer placeflow, or is damaged.")

    def _body(self, data):
        from .control_flow import Body
        function = self.function(data)
        body = Body(function.graph, function.inputs[:data["body_inputs"]], function.structured_outputs,
                    function._leaves)
        body._function = function
        return body


def _unsaved_gradient(op_type, name):
    def refuse(*_):
        raise LookupError(f"No gradient for {op_type} op {name!r} of a function loaded from a placeflow SavedModel: "
                          "the gradients of branches and loops are not saved (not implemented). Differentiate the "
                          "original function, or one without tf.cond/tf.while_loop.")
    return refuse


def _template(structure):
    """The output structure with its leaves replaced by their positions (JSON-able)."""
    leaves = nest.flatten(structure, True)
    counter = iter(range(len(leaves)))
    return _encode_structure(nest.map_structure(lambda _: {"$leaf": next(counter)}, structure, expand_composites=True)
                             if leaves else structure)


def _encode_structure(value):
    if isinstance(value, dict) and "$leaf" not in value:
        return {"$dict": {str(k): _encode_structure(v) for k, v in value.items()}}
    if isinstance(value, tuple):
        return {"$tuple": [_encode_structure(v) for v in value]}
    if isinstance(value, list):
        return [_encode_structure(v) for v in value]
    return value


def _pack(template, leaves):
    if isinstance(template, dict) and "$leaf" in template:
        return leaves[template["$leaf"]]
    if isinstance(template, dict) and "$dict" in template:
        return {k: _pack(v, leaves) for k, v in template["$dict"].items()}
    if isinstance(template, dict) and "$tuple" in template:
        return tuple(_pack(v, leaves) for v in template["$tuple"])
    if isinstance(template, list):
        return [_pack(v, leaves) for v in template]
    return template


def _dtype_name(dtype):
    return None if dtype is None else dtypes.as_dtype(dtype).name


def _dtype(name):
    return None if name is None else dtypes.as_dtype(name)


def _shape(shape):
    return None if shape is None else [None if d is None else int(d) for d in shape]
