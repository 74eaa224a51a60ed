"""The object graph of a checkpoint: which objects hold which saved values, as TF's TrackableObjectGraph.

Saving walks the dependencies breadth-first from the root (children in the order they were tracked), so
node 0 is the root and each value's key is the path of local names by which the walk first reached its
object, e.g. `model/layers/0/.ATTRIBUTES/VARIABLE_VALUE`. The graph itself is saved as the string tensor
`_CHECKPOINTABLE_OBJECT_GRAPH`; restoring matches it to live objects by local names, not by keys."""

from __future__ import annotations

from ..framework.protobuf_wire import field_bytes, field_varint, fields, signed64
from ..framework.tracking import Trackable

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VARIABLE_VALUE = "VARIABLE_VALUE"


def escape_local_name(name: str) -> str:
    """A local name as a key component: '.' doubled, '/' as '.S' (TF's escaping)."""
    return name.replace(".", "..").replace("/", ".S")


def children_of(obj) -> dict:
    """{local name: child} of a trackable in the order it tracked them."""
    if not isinstance(obj, Trackable):
        return {}
    return dict(obj._trackable_children("checkpoint"))


def serialize_values(obj) -> dict:
    """{attribute name: tensor} of the values `obj` itself saves (a variable: VARIABLE_VALUE)."""
    serialize = getattr(obj, "_serialize_to_tensors", None)
    if serialize is None:
        return {}
    return serialize()


def full_name(obj) -> str:
    """The variable's own name (TF's name-based key), '' for other objects."""
    return getattr(obj, "_shared_name", "") if getattr(obj, "_should_act_as_resource_variable", False) \
        or _is_variable(obj) else ""


def _is_variable(obj) -> bool:
    from ..eager.variables import Variable
    return isinstance(obj, Variable)


class SavedNode:
    """One node of an object graph: children [(node id, local name)], attributes [(name, full name, key)]."""

    __slots__ = ("children", "attributes", "slot_variables", "has_values")

    def __init__(self):
        self.children: list = []
        self.attributes: list = []
        self.slot_variables: list = []
        self.has_values = False


def walk(root) -> tuple:
    """(objects in breadth-first order, their SavedNodes, {id(object): path names}) from `root`."""
    objects, nodes, paths = [root], [SavedNode()], {id(root): ()}
    ids = {id(root): 0}
    at = 0
    while at < len(objects):
        obj, node = objects[at], nodes[at]
        for name, child in children_of(obj).items():
            if id(child) not in ids:
                ids[id(child)] = len(objects)
                objects.append(child)
                nodes.append(SavedNode())
                paths[id(child)] = paths[id(obj)] + (name,)
            node.children.append((ids[id(child)], name))
        at += 1
    return objects, nodes, paths


def checkpoint_key(path: tuple, attribute: str) -> str:
    """The key of one saved value: escaped path, then `.ATTRIBUTES/<attribute>`."""
    return "/".join([escape_local_name(n) for n in path] + [".ATTRIBUTES", escape_local_name(attribute)])


def mark_values(nodes: list) -> None:
    """Set has_values on each node that holds a value or leads to one (TF's has_checkpoint_values)."""
    parents: dict = {}
    for index, node in enumerate(nodes):
        for child, _ in node.children:
            parents.setdefault(child, []).append(index)
    frontier = [i for i, node in enumerate(nodes) if node.attributes or node.slot_variables]
    for index in frontier:
        nodes[index].has_values = True
    while frontier:
        index = frontier.pop()
        for parent in parents.get(index, ()):
            if not nodes[parent].has_values:
                nodes[parent].has_values = True
                frontier.append(parent)


def encode(nodes: list) -> bytes:
    """The serialized TrackableObjectGraph of `nodes`."""
    out = bytearray()
    for node in nodes:
        body = b"".join(field_bytes(1, _optional(1, node_id) + field_bytes(2, name)) for node_id, name in node.children)
        body += b"".join(field_bytes(2, field_bytes(1, name) + field_bytes(2, full) + field_bytes(3, key))
                         for name, full, key in node.attributes)
        body += b"".join(field_bytes(3, _optional(1, original) + field_bytes(2, slot) + _optional(3, slot_id))
                         for original, slot, slot_id in node.slot_variables)
        body += field_bytes(5, field_varint(1, 1) if node.has_values else b"")
        out += field_bytes(1, body)
    return bytes(out)


def _optional(number: int, value: int) -> bytes:
    return field_varint(number, value) if value else b""


def decode(data: bytes) -> list:
    """The SavedNodes of a serialized TrackableObjectGraph."""
    nodes = []
    for number, _, node_bytes in fields(data):
        if number != 1:
            continue
        node = SavedNode()
        for field, _, value in fields(node_bytes):
            if field == 1:
                node.children.append(_reference(value))
            elif field == 2:
                node.attributes.append(_attribute(value))
            elif field == 3:
                node.slot_variables.append(_slot(value))
            elif field == 5:
                node.has_values = any(n == 1 and v for n, _, v in fields(value))
        nodes.append(node)
    return nodes


def _reference(data: bytes) -> tuple:
    node_id, name = 0, ""
    for number, _, value in fields(data):
        if number == 1:
            node_id = signed64(value)
        elif number == 2:
            name = value.decode("utf-8")
    return node_id, name


def _attribute(data: bytes) -> tuple:
    texts = {1: "", 2: "", 3: ""}
    for number, _, value in fields(data):
        if number in texts:
            texts[number] = value.decode("utf-8")
    return texts[1], texts[2], texts[3]


def _slot(data: bytes) -> tuple:
    original, slot, slot_id = 0, "", 0
    for number, _, value in fields(data):
        if number == 1:
            original = signed64(value)
        elif number == 2:
            slot = value.decode("utf-8")
        elif number == 3:
            slot_id = signed64(value)
    return original, slot, slot_id
