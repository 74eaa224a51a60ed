"""tf.compat.v1's sub-namespaces that hold TensorFlow 1 names beside the TF2 ones: compat.v1.data,
compat.v1.random and compat.v1.ragged answer their TF1-only names, and every other name from placeflow's
namespace of the same name."""

from __future__ import annotations

import importlib
import types


class V1Namespace(types.ModuleType):
    """A module whose attributes are its TF1-only names, then those of the placeflow module it extends."""

    def __init__(self, name: str, base: str, extra: dict):
        super().__init__(name, f"TensorFlow 1's {name.rsplit('.', 1)[-1]} namespace: {base} plus TF1 names.")
        self._base, self._extra = base, extra

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_base", "_extra"):
            raise AttributeError(name)
        if name in self._extra:
            module_name, attribute = self._extra[name]
            return getattr(importlib.import_module(module_name), attribute)
        try:
            return getattr(self._base_namespace(), name)
        except AttributeError:
            raise AttributeError(f"{self.__name__} has no attribute {name!r}") from None

    def _base_namespace(self):
        """placeflow's namespace this one extends (an attribute path such as placeflow.random)."""
        package, *path = self._base.split(".")
        namespace = importlib.import_module(package)
        for part in path:
            namespace = getattr(namespace, part)
        return namespace

    def __dir__(self):
        return sorted(set(self._extra) | set(dir(self._base_namespace())))


data = V1Namespace("placeflow.compat.v1.data", "placeflow.data", {
    "get_output_types": ("placeflow.data.legacy_output", "get_output_types"),
    "get_output_shapes": ("placeflow.data.legacy_output", "get_output_shapes"),
    "get_output_classes": ("placeflow.data.legacy_output", "get_output_classes"),
})

random = V1Namespace("placeflow.compat.v1.random", "placeflow.random", {
    "set_random_seed": ("placeflow.api.random", "set_seed"),
    "multinomial": ("placeflow.api.tf1_random", "multinomial"),
    "stateless_multinomial": ("placeflow.api.tf1_random", "stateless_multinomial"),
})

ragged = V1Namespace("placeflow.compat.v1.ragged", "placeflow.ragged", {
    "RaggedTensorValue": ("placeflow.api.tf1_values", "RaggedTensorValue"),
})
