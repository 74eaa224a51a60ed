"""The package's layers import only the layers below them (function-local imports included), and
distribute's modules import each other without cycles."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "placeflow"
LAYERS = ["framework", "config", "perf", "memory", "runtime", "ops", "placement", "eager", "checkpoint", "graph", "api",
          "data",
          "distribute", "keras", "tools"]
FACADES = {"__init__", "__main__", "_facade_names", "compat", "python", "errors", "debugging", "test", "train", "nest",
           "sysconfig", "version", "autograph", "internal", "compiler", "keras", "init_ops", "summary", "saved_model", "types"}


def imports_of(path: Path) -> list:
    """Every placeflow module `path` imports relatively, as a tuple of package parts."""
    parts = list(path.relative_to(ROOT).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = parts[: len(parts) - (node.level - 1)]
            if node.module:
                found.append(tuple(base + node.module.split(".")))
            else:
                found.extend(tuple(base + [alias.name]) for alias in node.names)
    return found


def layer_of(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else parts[0][:-3]


def test_no_layer_imports_a_layer_above_it():
    upward = []
    for path in ROOT.rglob("*.py"):
        layer = layer_of(path)
        if layer in FACADES:
            continue
        assert layer in LAYERS, f"{path} is in no layer; add it to DESIGN.md's list and to LAYERS"
        for target in imports_of(path):
            target_layer = target[0] if target else ""
            if target_layer in FACADES or (target_layer in LAYERS and
                                           LAYERS.index(target_layer) > LAYERS.index(layer)):
                upward.append(f"{path.relative_to(ROOT)} imports {'.'.join(target)}")
    assert upward == []


def test_distribute_modules_import_each_other_without_cycles():
    package = ROOT / "distribute"
    graph = {}
    for path in package.glob("*.py"):
        graph[path.stem] = {t[1] for t in imports_of(path) if len(t) > 1 and t[0] == "distribute"
                            and t[1] != path.stem} - {"__init__"}
    visiting, done = set(), set()

    def visit(module, trail):
        assert module not in visiting, f"import cycle: {' -> '.join(trail + [module])}"
        if module in done:
            return
        visiting.add(module)
        for target in graph.get(module, ()):
            visit(target, trail + [module])
        visiting.discard(module)
        done.add(module)
    for module in graph:
        if module != "__init__":
            visit(module, [])
