"""One owner for the store (issue 37, point 1).

bower.store's Store is the only code that assigns a Store's fields: the
store's extras (bower.boot, bower.past, bower.prefs) read what they need and
return values, and Store keeps them. A store is reached as ``st``,
``store``, or an object's ``.store`` (``self.store``, ``app.store``); an
assignment, augmented assignment, ``del`` or ``setattr`` of one of its
attributes anywhere in firmware/bower but store.py fails this test. And no
module of firmware/ is over 600 lines.
"""

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOWER = sorted((REPO / "firmware" / "bower").glob("*.py"))
STORE_NAMES = ("st", "store")


def _is_store(node):
    # Does this expression name a store (st, store, x.store, x.y.store)?
    if isinstance(node, ast.Name):
        return node.id in STORE_NAMES
    return isinstance(node, ast.Attribute) and node.attr == "store"


def _targets(node):
    # The assignment targets of a statement, tuples unpacked.
    if isinstance(node, ast.Assign):
        todo = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        todo = [node.target]
    elif isinstance(node, ast.Delete):
        todo = list(node.targets)
    elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        todo = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        todo = [node.optional_vars]
    else:
        return
    while todo:
        t = todo.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            todo.extend(t.elts)
        elif isinstance(t, ast.Starred):
            todo.append(t.value)
        else:
            yield t


def store_writes(tree):
    # "line: code" for each assignment to an attribute of a store.
    out = []
    for n in ast.walk(tree):
        for t in _targets(n):
            if isinstance(t, ast.Attribute) and _is_store(t.value):
                out.append("%d: %s" % (t.lineno, ast.unparse(t)))
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr")
                and n.args and _is_store(n.args[0])):
            out.append("%d: %s" % (n.lineno, ast.unparse(n)))
    return out


def test_the_scan_finds_every_kind_of_write():
    tree = ast.parse(
        "st.next_no = 1\n"
        "st.gid, st.size = g, 0\n"
        "store.hot += [1]\n"
        "self.store.summary = None\n"
        "app.store.roster: list = []\n"
        "setattr(st, 'warmed', 1)\n"
        "del st.gid\n"
        "for st.x in y: pass\n"
        "st.hot.append(1)\n"          # a call: the owner's list, not a field assigned
        "self.x = st.gid\n"           # a read
        "s.gid = 1\n"                 # not a store's name
        "setattr(p, 'value', 1)\n")
    assert sorted(store_writes(tree)) == [
        "1: st.next_no", "2: st.gid", "2: st.size", "3: store.hot", "4: self.store.summary",
        "5: app.store.roster", "6: setattr(st, 'warmed', 1)", "7: st.gid", "8: st.x"]


def test_there_is_a_store_to_scan():
    names = {p.name for p in BOWER}
    assert "store.py" in names and len(names) > 20
    # the owner itself assigns its fields (as self.X): the scan is of the others
    assert store_writes(ast.parse((REPO / "firmware/bower/store.py").read_text())) == []


def test_no_module_but_store_assigns_a_field_of_the_store():
    found = [f"{p.relative_to(REPO)}:{w}" for p in BOWER if p.name != "store.py"
             for w in store_writes(ast.parse(p.read_text()))]
    assert found == []


def test_no_firmware_module_is_over_600_lines():
    long = [f"{p.relative_to(REPO)}: {n}" for p in sorted((REPO / "firmware").rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > 600]
    assert long == []
