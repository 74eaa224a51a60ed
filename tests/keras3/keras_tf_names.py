"""List every `tf.*` name chain that the installed Keras 3 uses, and which of them placeflow lacks.

Run: `python tests/keras3/keras_tf_names.py [--missing]`. Reads Keras's source files (never copies them):
every module alias bound by `import tensorflow as tf`, `from tensorflow import data as tf_data`,
`import tensorflow.summary as summary`, and every attribute chain hanging off one of those aliases.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path


def keras_source_root() -> Path:
    """The installed Keras's `keras/src` folder (imports nothing of Keras)."""
    import importlib.util
    spec = importlib.util.find_spec("keras")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("Keras 3 is not installed: pip install 'keras>=3.15,<3.16'")
    return Path(list(spec.submodule_search_locations)[0]) / "src"


def _aliases(tree: ast.Module) -> dict:
    """Local names bound to a tensorflow module, mapped to the dotted path they stand for."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for name in node.names:
                if name.name == "tensorflow" or name.name.startswith("tensorflow."):
                    if name.asname:
                        aliases[name.asname] = name.name
                    elif name.name == "tensorflow":
                        aliases["tensorflow"] = "tensorflow"
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and (
                node.module == "tensorflow" or node.module.startswith("tensorflow.")):
            for name in node.names:
                aliases[name.asname or name.name] = f"{node.module}.{name.name}"
        elif isinstance(node, ast.ImportFrom) and node.module == "keras.src.utils.module_utils":
            for name in node.names:  # Keras's lazy `tensorflow` module (its preprocessing layers use it)
                if name.name == "tensorflow":
                    aliases[name.asname or name.name] = "tensorflow"
    return aliases


def _chain(node) -> list | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id] + parts[::-1]
    return None


def chains_in(path: Path) -> set:
    """Every full `tensorflow.x.y` chain that the file at `path` uses."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = _aliases(tree)
    found = {f"{aliases[name]}" for name in aliases}
    lazy = {"available", "initialize", "module"}  # keras.src.utils.module_utils.LazyModule's own attributes
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            chain = _chain(node)
            if chain and chain[0] in aliases and not (len(chain) == 2 and chain[1] in lazy):
                found.add(".".join([aliases[chain[0]]] + chain[1:]))
    return _longest_only(found)


def _longest_only(chains: set) -> set:
    return {c for c in chains if not any(other.startswith(c + ".") for other in chains)} | {
        c for c in chains if c.count(".") == 0}


def keras_tf_chains(root: Path | None = None, *, tests: bool = False) -> dict:
    """{chain: [files using it]} over Keras's source (its *_test.py files only when `tests`)."""
    root = root or keras_source_root()
    uses = {}
    for path in sorted(root.rglob("*.py")):
        if path.name.endswith("_test.py") != tests and not tests:
            continue
        for chain in chains_in(path):
            uses.setdefault(chain, []).append(str(path.relative_to(root.parent)))
    return uses


def missing_in_placeflow(chains) -> list:
    """The chains that placeflow, standing in for tensorflow, cannot resolve (or resolves to a by-name refusal
    of a TensorFlow name it lacks, framework/tf_api.py)."""
    import importlib
    import types
    from placeflow.framework.tf_api import is_refusal
    from placeflow.tools import as_tensorflow
    as_tensorflow.install()
    missing = []
    for chain in sorted(chains):
        parts = chain.split(".")
        obj, ok = None, False
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            ok = True
            for attribute in parts[cut:]:
                if not hasattr(obj, attribute):
                    ok = False
                    break
                obj = getattr(obj, attribute)
            break
        stand_in_module = isinstance(obj, types.ModuleType) and "every name refuses" in (obj.__doc__ or "")
        if not ok or is_refusal(obj) or stand_in_module:
            missing.append(chain)
    return missing


if __name__ == "__main__":
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    uses = keras_tf_chains()
    names = missing_in_placeflow(uses) if "--missing" in sys.argv else sorted(uses)
    for chain in names:
        print(f"{chain:70s} {len(uses[chain]):3d} file(s), e.g. {uses[chain][0]}")
    print(f"# {len(names)} of {len(uses)} chains{' missing in placeflow' if '--missing' in sys.argv else ''}")
