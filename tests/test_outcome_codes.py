"""A hand's outcome travels as values, never as a sentence (issue 24).

The engine gives a finished hand an ``outcome`` code (one of
``euchre.hand.OUTCOMES``) and, for a renege, the seat (``renege``); a
restored game's ``HandSummary`` and its checkpoint carry the same values;
the host's library stores the code. The words for people are made from the
values where they are shown (euchre.notation's ``outcome_text`` on the
host, bower.menu's ``reason`` on the device) and nothing reads them back.

This scan of the source says so for the whole house:

* the device (firmware/) and the engine read no ``reason`` attribute: a
  hand has none (the device's words are made from the code);
* nowhere is a hand's ``reason`` (an attribute, a row's ``"reason"`` or a
  variable of that name) taken apart: no method called on it
  (``startswith``, ``split``...), no slice or index, no comparison, no
  ``int()`` or ``re`` of it;
* the renege's sentence is worded in one place (euchre.notation).

``ALLOWED`` names what still does, with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (file, function) -> why it still reads words back.
ALLOWED = {
    ("host/bower_host/db/schema.py", "_v3"): (
        "the schema version 3 migration, run once on a library older than that: its hands held the "
        "renege's seat only in the words; migrations are appended, never edited"),
}


def _files(root, *dirs):
    for d in dirs:
        yield from sorted((root / d).rglob("*.py"))


def _parents(tree):
    out = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            out[c] = n
    return out


def _function_of(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node.name
    return None


def _is_reason(n):
    # A read of some hand's words: x.reason, x["reason"], or a name ``reason``.
    return (isinstance(n, ast.Attribute) and n.attr == "reason"
            or isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value == "reason"
            or isinstance(n, ast.Name) and n.id == "reason") and isinstance(n.ctx, ast.Load)


def _taken_apart(n, parents):
    # Whether the words read at ``n`` are parsed: str(n) is looked through.
    p = parents.get(n)
    if isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id == "str" and n in p.args:
        n, p = p, parents.get(p)
    if isinstance(p, ast.Attribute):
        return True     # a method of the text: startswith, split, rsplit, find, ...
    if isinstance(p, ast.Subscript) and p.value is n:
        return True     # a slice or an index
    if isinstance(p, ast.Compare):
        return True
    if isinstance(p, ast.Call) and n in p.args:
        f = p.func
        if isinstance(f, ast.Name) and f.id in ("int", "float"):
            return True
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "re":
            return True
    return False


def _scan(root=ROOT):
    found = []
    for path in _files(root, "engine", "firmware", "host"):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = _parents(tree)
        device = rel.startswith(("engine/", "firmware/"))
        for n in ast.walk(tree):
            where = (rel, _function_of(n, parents))
            if where in ALLOWED:
                continue
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and "renege by seat" in n.value \
                    and rel != "engine/euchre/notation.py":
                found.append(f"{rel}:{n.lineno}: the renege's words outside euchre.notation")
            if not _is_reason(n):
                continue
            if device and isinstance(n, ast.Attribute):
                found.append(f"{rel}:{n.lineno}: reads .reason (a hand has an outcome code, not words)")
            elif _taken_apart(n, parents):
                found.append(f"{rel}:{n.lineno}: takes a hand's words apart")
    return found


def test_no_sentence_is_parsed_back_into_a_value():
    assert _scan() == []


def test_the_allowed_exceptions_still_exist():
    # An entry of ALLOWED that no longer needs to be there is removed.
    for rel, func in ALLOWED:
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.FunctionDef) and n.name == func for n in ast.walk(tree)), (rel, func)


def test_the_scan_finds_what_it_forbids(tmp_path):
    # The scan catches the device's old parse (bower.menu at f5d4598).
    old = '''
def reason(g, r):
    if r.startswith("renege by seat "):
        return "renege: " + g.players[int(r[15:])]
    return r

def title(g, last):
    return reason(g, last.reason)

def note(h):
    return h["reason"].split(" ")[-1]
'''
    d = tmp_path / "firmware" / "bower"
    d.mkdir(parents=True)
    (d / "menu.py").write_text(old)
    for sub in ("engine", "host"):
        (tmp_path / sub).mkdir()
    found = _scan(tmp_path)
    assert sorted(found) == [
        "firmware/bower/menu.py:11: takes a hand's words apart",
        "firmware/bower/menu.py:3: the renege's words outside euchre.notation",
        "firmware/bower/menu.py:8: reads .reason (a hand has an outcome code, not words)"], found
