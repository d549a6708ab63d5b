"""The device app's modules import one way (issue 15, section 1).

Every import between modules of firmware/bower counts, at module level or
inside a function (a lazy import is still a dependency), and so does a
module name handed to ``__import__`` (bower.ui warms its menus that way).
``from bower import unload`` is the package itself, which imports nothing.
"""

import ast
import re
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "bower"
MODULES = {p.stem for p in FIRMWARE.glob("*.py")} - {"__init__"}


def imports(path: Path) -> set:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("bower."))
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "bower":
                out.update("bower." + a.name for a in node.names if a.name in MODULES)
            elif node.module.startswith("bower."):
                out.add(node.module)
        elif isinstance(node, ast.FunctionDef) and any(
                isinstance(c, ast.Call) and getattr(c.func, "id", "") == "__import__" for c in ast.walk(node)):
            out.update(c.value for c in ast.walk(node)
                       if isinstance(c, ast.Constant) and isinstance(c.value, str)
                       and re.fullmatch(r"bower\.\w+", c.value))
    return out


def graph() -> dict:
    return {"bower." + p.stem: imports(p) for p in FIRMWARE.glob("*.py") if p.stem != "__init__"}


def cycles(g: dict) -> list:
    found, state = [], {}

    def visit(n, path):
        state[n] = 1
        for m in sorted(g.get(n, ())):
            if state.get(m) == 1:
                found.append(path[path.index(m):] + [m])
            elif m not in state:
                visit(m, path + [m])
        state[n] = 2
    for n in sorted(g):
        if n not in state:
            visit(n, [n])
    return found


def test_no_import_circle_in_the_device_app():
    g = graph()
    assert g["bower.ui"] >= {"bower.home", "bower.screens", "bower.play"}   # the scan sees lazy imports
    assert cycles(g) == []


def test_the_scan_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_class_is_swapped():
    for p in FIRMWARE.glob("*.py"):
        assert "__class__ =" not in p.read_text(), p
