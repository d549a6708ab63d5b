"""The engine's modules depend one way, and no object changes its class (CPython only: ast).

Every ``import`` of a ``euchre`` module inside engine/euchre is read from the
source, at module level *and* inside functions: a function-level import is
how an optional part is loaded on first use (card mode, the explanations,
whole logs), and it ties the two modules together as surely as a top-level
one, so it counts. ``from euchre import hand`` is an edge to
``euchre.hand``; ``from euchre import Rules`` (a name the package resolves)
would be an edge to the package itself. The graph of these edges must have
no cycle: a module that loads an optional extra is never imported back by
it (they share constants through a leaf such as ``euchre.phases``).

Not counted: the implicit edge from every submodule to its package (Python
imports ``euchre/__init__.py`` first, by design), and the package's
``__getattr__``, which imports a submodule by a name it looks up in a table.
So that no edge hides from this test, computed imports (``__import__``,
``importlib``) are allowed in ``__init__.py`` only, and ``__init__.py``
imports no engine module statically.

Class swapping (``obj.__class__ = Other``, or through ``setattr``) is
refused in the whole shipped tree (engine, firmware, host, tools): behaviour
that differs goes through explicit delegation instead.
"""

import ast
import pathlib

from test_import_graph import circles   # (tests/: one Tarjan for the engine's graph and the whole house's)

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine" / "euchre"
PACKAGE = "euchre"


def _imports(path, package, modules):
    """(target module, line, "module" | "function") for each engine import in ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    out = []

    def visit(node, level):
        for child in ast.iter_child_nodes(node):
            inner = "function" if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.Lambda)) else level
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name == package or alias.name.startswith(package + "."):
                        out.append((alias.name, child.lineno, level))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    # (relative: from . import x, from .x import y)
                    base = package + ("." + base if base else "")
                if base == package:
                    for alias in child.names:
                        sub = package + "." + alias.name
                        out.append((sub if sub in modules else package, child.lineno, level))
                elif base.startswith(package + "."):
                    out.append((base, child.lineno, level))
            visit(child, inner)

    visit(tree, "module")
    return out


def _computed_imports(path):
    """Lines of ``__import__(...)`` / ``importlib`` uses in ``path``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            lines.append(node.lineno)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n.split(".")[0] == "importlib" for n in names):
                lines.append(node.lineno)
    return lines


def module_graph(pkg_dir, package=PACKAGE):
    """{module: [(imported module, line, level)]} for the package in ``pkg_dir``."""
    files = {}
    for path in sorted(pkg_dir.glob("*.py")):
        name = package if path.stem == "__init__" else package + "." + path.stem
        files[name] = path
    return {name: _imports(path, package, files) for name, path in files.items()}, files


def describe(circle):
    modules, edges = circle
    return "%s: %s" % (" <-> ".join(modules), "; ".join(
        "%s -> %s (line %d, %s-level)" % (a, b, line, level) for a, b, line, level in edges))


def test_the_engine_has_modules_and_imports():
    graph, _ = module_graph(ENGINE)
    assert {"euchre.hand", "euchre.cardmode", "euchre.why", "euchre.log", "euchre.game"} <= set(graph)
    edges = {(a, b) for a, targets in graph.items() for b, _, _ in targets}
    # Both kinds of import are seen: card mode is loaded inside a function.
    assert ("euchre.cardmode", "euchre.actions") in edges
    assert any(level == "function" for targets in graph.values() for _, _, level in targets)


def test_no_import_circle_in_the_engine():
    graph, _ = module_graph(ENGINE)
    # (the package resolves names lazily: a static import back to it would
    # close a circle through every module)
    assert PACKAGE not in {b for targets in graph.values() for b, _, _ in targets}, graph
    assert graph[PACKAGE] == [], "euchre/__init__.py imports engine modules: %s" % graph[PACKAGE]
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(map(describe, found))


def test_only_the_package_imports_by_computed_name():
    _, files = module_graph(ENGINE)
    found = {name: _computed_imports(path) for name, path in files.items() if name != PACKAGE}
    found = {k: v for k, v in found.items() if v}
    assert not found, "imports this test cannot see: %s" % found


def test_the_circle_check_finds_circles(tmp_path):
    # A lazy (function-level) import back to a module that imports this one
    # at module level is a circle; so is a longer loop; a one-way chain is not.
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text("def extra():\n    from pkg import extra as e\n    return e\n")
    (pkg / "extra.py").write_text("from pkg.core import extra\n")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("import pkg.c\n")
    (pkg / "c.py").write_text("from pkg.a import x\n")
    (pkg / "leaf.py").write_text("x = 1\n")
    (pkg / "top.py").write_text("from pkg import leaf, core\n\ndef f():\n    from pkg.leaf import x\n")
    graph, _ = module_graph(pkg, "pkg")
    found = circles(graph)
    assert sorted(m for m, _ in found) == [["pkg.a", "pkg.b", "pkg.c"], ["pkg.core", "pkg.extra"]], \
        [describe(c) for c in found]
    lazy = [describe(c) for c in found if c[0] == ["pkg.core", "pkg.extra"]][0]
    assert lazy.count("function-level") == 1 and lazy.count("module-level") == 1, lazy


# ----- class swapping ----------------------------------------------------------

SHIPPED = sorted(p for d in ("engine", "firmware", "host", "tools") for p in (ROOT / d).rglob("*.py"))


def class_swaps(path):
    """Lines where ``path`` assigns ``__class__`` (statement or setattr)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Attribute) and sub.attr == "__class__":
                    out.append(node.lineno)
        if (isinstance(node, ast.Call) and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and node.args[1].value == "__class__"
                and ((isinstance(node.func, ast.Name) and node.func.id == "setattr")
                     or (isinstance(node.func, ast.Attribute) and node.func.attr == "__setattr__"))):
            out.append(node.lineno)
    return out


def test_no_code_assigns_class():
    assert any(p.name == "cardmode.py" for p in SHIPPED)
    found = {str(p.relative_to(ROOT)): class_swaps(p) for p in SHIPPED}
    found = {k: v for k, v in found.items() if v}
    assert not found, "class swapping: %s" % found


def test_the_class_swap_check_finds_swaps(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("h.__class__ = Other\n"
                   "a, b.__class__ = 1, Other\n"
                   "setattr(h, '__class__', Other)\n"
                   "object.__setattr__(h, '__class__', Other)\n"
                   "x = h.__class__\n"
                   "if type(h) is h.__class__: pass\n")
    assert class_swaps(bad) == [1, 2, 3, 4]
