"""tf.train.TrackableView (the live object graph) and tf.train.CheckpointView (a saved one): children,
descendants, and which saved nodes match which live objects."""

from __future__ import annotations

from ..framework.tracking import Trackable
from . import object_graph
from .tensor_bundle import BundleReader


class TrackableView:
    """The dependency graph of live trackables from `root`."""

    def __init__(self, root):
        self.root = root

    @classmethod
    def children(cls, obj, save_type="checkpoint", **kwargs) -> dict:
        """{local name: child trackable} of `obj`."""
        return dict(obj._trackable_children(save_type, **kwargs))

    def descendants(self) -> list:
        """Every trackable reachable from the root (the root first), breadth-first."""
        return object_graph.walk(self.root)[0]


class CheckpointView:
    """The object graph saved in a checkpoint, by node id (0 is the root)."""

    def __init__(self, save_path):
        reader = BundleReader(str(save_path))
        self._nodes = object_graph.decode(reader.tensor(object_graph.OBJECT_GRAPH_KEY).item())

    def children(self, node_id) -> dict:
        """{local name: node id} of a saved node's children."""
        return {name: child for child, name in self._nodes[node_id].children}

    def descendants(self) -> list:
        """The node ids reachable from the root, breadth-first (the root first)."""
        return list(self._descendants_with_paths())

    def _descendants_with_paths(self) -> dict:
        paths, queue = {0: "root"}, [0]
        while queue:
            node_id = queue.pop(0)
            for child, name in self._nodes[node_id].children:
                if child != 0 and child not in paths:
                    paths[child] = f"{paths[node_id]}.{name}"
                    queue.append(child)
        return paths

    def match(self, obj) -> dict:
        """{node id: live trackable} for the saved nodes that `obj`'s graph has at the same names."""
        if not isinstance(obj, Trackable):
            raise ValueError(f"Expected a Trackable, got {obj} of type {type(obj)}.")
        matched, queue, visited = {0: obj}, [(0, obj)], set()
        while queue:
            node_id, trackable = queue.pop(0)
            live = TrackableView.children(trackable)
            for name, child_id in self.children(node_id).items():
                if child_id in visited or child_id == 0 or name not in live:
                    continue
                if child_id not in matched:
                    matched[child_id] = live[name]
                    queue.append((child_id, live[name]))
            visited.add(node_id)
        return matched

    def diff(self, obj) -> tuple:
        """(matched {node id: trackable}, node ids only in the checkpoint, trackables only in `obj`'s graph)."""
        matched = self.match(obj)
        matched_ids = {id(t) for t in matched.values()}
        only_saved = [node_id for node_id in self.descendants() if node_id not in matched]
        only_live = [t for t in TrackableView(obj).descendants() if id(t) not in matched_ids]
        return matched, only_saved, only_live
