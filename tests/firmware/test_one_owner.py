"""One owner per piece of state, and walls a reader (and a type checker) can see (issue 24).

* No class in engine/ or firmware/ defines ``__getattr__``: a name that
  does not exist is an AttributeError (and a type checker's error), never a
  call forwarded somewhere by a table. (A *module* ``__getattr__``, the
  engine's lazy package face, is not a class's.)
* No firmware module reads a private (``_x``) name of an object it did not
  define: ``st._id`` of another module's store, ``p._ok`` of another module.
  Only ``self._x`` and ``cls._x`` read private names; what another module
  needs is public and documented (bower.store's Store declares its state
  for its extras).
* The player-name rule is written once, in bower's package init (the roster and a
  club round's seats take it from there).

tests/test_checks.py holds the type checker to the first point:
``Store(...).no_such_thing()`` is an error.
"""

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fakefs import FakeFS
from bower.store import extra

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "engine").rglob("*.py")) + sorted((REPO / "firmware").rglob("*.py"))
FIRMWARE = sorted((REPO / "firmware").rglob("*.py"))


def class_getattrs(tree):
    # "Class.__getattr__" for each class that defines one (or __getattribute__).
    return [c.name + "." + f.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
            for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            and f.name in ("__getattr__", "__getattribute__")]


def private_reads(tree):
    # Every ``x._name`` (and getattr/setattr/hasattr(x, "_name")) where x is
    # not self or cls; dunders (``__class__``) are not private names.
    out = []

    def private(name):
        return name.startswith("_") and not name.startswith("__")

    def own(node):
        return isinstance(node, ast.Name) and node.id in ("self", "cls")

    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and private(n.attr) and not own(n.value):
            out.append("%d: %s" % (n.lineno, ast.unparse(n)))
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(n.args) > 1
              and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)
              and private(n.args[1].value) and not own(n.args[0])):
            out.append("%d: %s" % (n.lineno, ast.unparse(n)))
    return out


def test_there_is_code_to_scan():
    names = {p.name for p in SHIPPED}
    assert {"store.py", "past.py", "boot.py", "prefs.py", "hand.py", "clubsetup.py", "__init__.py"} <= names


def test_no_class_in_engine_or_firmware_defines_getattr():
    found = [f"{p.relative_to(REPO)}: {c}" for p in SHIPPED for c in class_getattrs(ast.parse(p.read_text()))]
    assert found == []


def test_no_firmware_module_reads_a_private_name_of_anything_but_self():
    found = [f"{p.relative_to(REPO)}:{r}" for p in FIRMWARE for r in private_reads(ast.parse(p.read_text()))]
    assert found == []


def test_the_scans_find_what_they_look_for():
    tree = ast.parse(
        "class S:\n"
        "    def __getattr__(self, name):\n"
        "        return 1\n"
        "    def f(self, st):\n"
        "        return self._a, cls._b, st._id, self.__class__, getattr(st, '_g'), getattr(self, '_h')\n"
        "def __getattr__(name):\n"      # a module's: allowed
        "    return p._ok(1)\n")
    assert class_getattrs(tree) == ["S.__getattr__"]
    assert sorted(private_reads(tree)) == ["5: getattr(st, '_g')", "5: st._id", "7: p._ok"]


def test_the_store_forwards_nothing_it_does_not_name():
    from bower.store import Store

    st = Store("/", fs=FakeFS(), device="d")
    with pytest.raises(AttributeError):
        st.no_such_thing(1, 2, 3)   # pyright: ignore[reportAttributeAccessIssue]
    with pytest.raises(AttributeError):
        st._boot()    # pyright: ignore[reportAttributeAccessIssue]  (was forwarded to the store's extras)
    assert st.resume() is None and extra("past").games(st) == [] and st.count() == 0


def test_the_name_rule_is_written_once():
    # The rule's refusal is raised in bower's package init only; the roster and a
    # club round's players are checked by it.
    raising = [p.name for p in FIRMWARE if '"bad name %r"' in p.read_text()]
    assert raising == ["__init__.py"]
    from bower.clubsetup import check
    from bower import check_names

    setup = {"night": "n1", "table": 1, "tables": 2, "round": 1, "move": "fixed", "hands": 8, "minutes": 0,
             "scoring": {"loner": 4, "set_loner": 2, "renege": 2}, "next": [1, 1, 1, 1],
             "players": ["Ann", "Bob", "Cy", "Di"]}
    assert check(dict(setup))["players"] == ["Ann", "Bob", "Cy", "Di"]
    for bad in (" Ann", "Ann ", "", "Bartholom", "Ann\t", "\u00e9", "Ann"):
        players = ["Bob", "Cy", "Di", bad]     # ("Ann" twice below: once each)
        if bad == "Ann":
            players = ["Ann", "Bob", "Cy", "Ann"]
        with pytest.raises(ValueError, match="bad name"):
            check_names(players)
        with pytest.raises(ValueError, match="bad name"):
            check(dict(setup, players=players))


def test_the_ui_tests_memory_store_keeps_to_the_store_api():
    # tests/firmware/uikit.py's MemStore stands in for Store in the UI
    # tests: each method it has, Store has, with the same parameters.
    import inspect

    from bower.store import Store
    from uikit import MemStore

    for name, f in vars(MemStore).items():
        if callable(f) and not name.startswith("_"):
            assert hasattr(Store, name), name
            assert inspect.signature(f) == inspect.signature(getattr(Store, name)), name
