"""Bower's code imports one way, and no two modules import each other (issue 24).

The floors, lowest first: the engine (``euchre``: engine/euchre), the
firmware (``bower``: firmware/bower, plus firmware/main.py and the drivers
in firmware/lib), the host (``bower_host``: host/bower_host) and the tools
(tools/*.py). A module may import its own floor and the floors below it,
never one above: the engine imports nothing of the others, the firmware
never imports the host, nothing imports a tool.

Within all of them together, the import graph has no circle. Every import
counts, wherever it is written: at module level, inside a function (a lazy
import ties two modules as surely as a top-level one), under
``if TYPE_CHECKING:``, and a module loaded by its name (a string naming a
module in a file that calls ``importlib.import_module`` or ``__import__``:
``bower_host.cli`` loads the command modules so). ``from pkg import name``
is an edge to ``pkg.name`` when that is a module, else to ``pkg`` itself.

The device link commands know nothing of club nights: ``bower_host.commands.sync``
and what it is built on (``syncer``, ``connect``, ``protocol``,
``framing``, ``transport``) import no ``bower_host.club`` module; ``bower sync``'s
caller (``bower_host.cli``) wires the club's handling of a stored game in.

Not counted: the implicit import of a package's ``__init__`` by its
submodules (Python's own order) and names built at run time
(``"euchre." + mod``).

tests/engine/test_module_graph.py and tests/firmware/test_imports.py check
the rest of those packages' rules (no class swapping, where computed
imports may be); this one is the whole house.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Floor number -> its name; higher floors may import lower ones only.
FLOORS = {0: "engine", 1: "firmware", 2: "host", 3: "tools"}
#: The host's device link: no club module below it.
LINK = ("bower_host.commands.sync", "bower_host.syncer", "bower_host.connect", "bower_host.protocol",
        "bower_host.framing", "bower_host.transport")


def _files() -> dict:
    """{module name: (path, floor, is a package)} of every shipped module."""
    out = {}

    def package(directory: Path, floor: int) -> None:
        for path in sorted(directory.rglob("*.py")):
            parts = list(path.relative_to(directory.parent).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts.pop()
            out[".".join(parts)] = (path, floor, is_pkg)

    def loose(paths, floor: int) -> None:
        for path in paths:
            out[path.stem] = (path, floor, False)

    package(ROOT / "engine" / "euchre", 0)
    package(ROOT / "firmware" / "bower", 1)
    loose([ROOT / "firmware" / "main.py", *sorted((ROOT / "firmware" / "lib").glob("*.py"))], 1)
    package(ROOT / "host" / "bower_host", 2)
    loose(sorted((ROOT / "tools").glob("*.py")), 3)
    return out


def _known(name: str, modules) -> str | None:
    """The module ``name`` is, or the nearest package above it that is known."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _type_checking(node) -> bool:
    t = node.test
    return isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" or \
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"


def _loads_by_name(tree) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "__import__" or \
                    isinstance(f, ast.Attribute) and f.attr == "import_module":
                return True
    return False


def imports(name: str, path: Path, is_pkg: bool, modules) -> list:
    """[(imported module, line, how)] for module ``name``: how is
    ``module-level``, ``function-level``, ``type-checking`` or ``by name``."""
    tree = ast.parse(path.read_text(), str(path))
    here = name if is_pkg else name.rpartition(".")[0]
    out = []

    def add(target, line, how):
        if target is not None and target != name and (target, line, how) not in out:
            out.append((target, line, how))

    def visit(node, how):
        for child in ast.iter_child_nodes(node):
            inner = how
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and how == "module-level":
                inner = "function-level"
            elif isinstance(child, ast.If) and _type_checking(child):
                inner = "type-checking"
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(_known(alias.name, modules), child.lineno, how)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = here.split(".") if here else []
                    up = up[:len(up) - (child.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                for alias in child.names:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    add(sub if sub in modules else _known(base, modules), child.lineno, how)
            visit(child, inner)

    visit(tree, "module-level")
    if _loads_by_name(tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in modules:
                add(node.value, node.lineno, "by name")
    return out


def import_graph(modules=None) -> dict:
    """{module: [(imported module, line, how)]} of every shipped module."""
    modules = modules or _files()
    return {name: imports(name, path, is_pkg, modules) for name, (path, _, is_pkg) in modules.items()}


def circles(graph: dict) -> list:
    """The strongly connected sets of two or more modules (Tarjan), each as
    (sorted modules, [(a, b, line, how)] of the edges inside it)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target, _, _ in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                m = stack.pop()
                on_stack.discard(m)
                group.append(m)
                if m == node:
                    break
            if len(group) > 1:
                inside = set(group)
                out.append((sorted(group), [(a, b, line, how) for a in sorted(group)
                                            for b, line, how in graph.get(a, ()) if b in inside]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def upward(graph: dict, modules: dict) -> list:
    """[(a, b, line, how)] for each import of a higher floor's module."""
    return [(a, b, line, how) for a in sorted(graph) for b, line, how in graph[a]
            if modules[b][1] > modules[a][1]]


def _edge(e) -> str:
    a, b, line, how = e
    return f"{a} -> {b} (line {line}, {how})"


def test_imports_run_one_way_without_circles():
    modules = _files()
    graph = import_graph(modules)
    edges = {(a, b): how for a, targets in graph.items() for b, _, how in targets}
    # The scan sees every kind of import, in every floor (a scan that missed
    # some would pass for the wrong reason) ...
    assert {f for _, f, _ in modules.values()} == set(FLOORS)
    assert edges[("bower_host.cli", "bower_host.commands.sync")] == "by name"            # COMMAND_MODULES
    assert edges[("bower_host.commands.club", "bower_host.club.phones")] == "function-level"
    assert edges[("bower_host.simlink", "bower.link")] == "module-level"
    assert edges[("bower_host.egn", "euchre")] == "type-checking"
    assert any(a.startswith("bower.") and b.startswith("euchre") for a, b in edges)
    assert ("bench_pico_sync", "bench_pico") in edges and ("bench_sync", "bower_host.db") in edges
    # ... and finds a circle and an arrow up where there is one.
    planted = {"a": [("b", 1, "module-level")], "b": [("c", 2, "function-level")], "c": [("a", 3, "by name")],
               "d": [("a", 4, "module-level")]}
    assert [m for m, _ in circles(planted)] == [["a", "b", "c"]]
    assert upward({"x": [("y", 5, "module-level")], "y": []}, {"x": (None, 0, False), "y": (None, 2, False)})

    found = circles(graph)
    up = upward(graph, modules)
    report = [f"circle {' <-> '.join(m)}:\n    " + "\n    ".join(map(_edge, e)) for m, e in found]
    report += [f"{FLOORS[modules[e[0]][1]]} imports {FLOORS[modules[e[1]][1]]}: {_edge(e)}" for e in up]
    report += [f"the device link knows a club: {_edge((a, b, line, how))}" for a in LINK
               for b, line, how in graph.get(a, ()) if b.startswith("bower_host.club")]
    assert not report, "imports that do not run one way:\n" + "\n".join(report)
