"""Every CuPy name placeflow's source spells out (`cupy.cuda.UnownedMemory`, `cupyx.scipy.special`, ...) exists
in the installed CuPy, so the CUDA path cannot fail on a real GPU for a misspelt or removed API. Needs CuPy
importable (no GPU needed: nothing is called); skipped without it, as on CI, which installs no CuPy. Calls
through `xp` are the kernels' and run in the `cuda` tests."""

import ast
import importlib
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "placeflow"


def _chains(tree) -> set:
    """Dotted names rooted at `cupy` or `cupyx` in a module's AST."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts, value = [node.attr], node.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in ("cupy", "cupyx"):
                found.add(".".join([value.id] + parts[::-1]))
    return found


def _spelled_out() -> set:
    names = set()
    for path in SRC.rglob("*.py"):
        names |= _chains(ast.parse(path.read_text()))
    return names


def _resolves(name: str) -> bool:
    parts = name.split(".")
    obj = importlib.import_module(parts[0])
    for index, part in enumerate(parts[1:], start=1):
        if not hasattr(obj, part):
            try:
                obj = importlib.import_module(".".join(parts[:index + 1]))
                continue
            except ImportError:
                return False
        obj = getattr(obj, part)
    return True


def test_the_source_spells_out_the_cuda_glue():
    names = _spelled_out()
    assert {"cupy.cuda.UnownedMemory", "cupy.cuda.MemoryPointer", "cupy.cuda.using_allocator"} <= names


def test_every_cupy_name_placeflow_uses_exists_in_the_installed_cupy():
    pytest.importorskip("cupy", reason="CuPy is not installed here (CI installs none); runs where it is")
    missing = sorted(name for name in _spelled_out() if not _resolves(name))
    assert missing == []
