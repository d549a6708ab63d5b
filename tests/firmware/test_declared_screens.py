"""Screens that declare what they are, ids from end to end (issue 37, point 3).

* A screen's roles for the app (game screen, a bid's BACK, home, live,
  action rows, idle work, footer) are its class's: bower.menu's ``Screen``
  gives the defaults, and no module sets a role on a screen it built.
* The app reads the roles as attributes: no ``getattr`` in bower.ui.
* Every input goes in as an action id: ``App.act(text)`` is gone, and no
  row of a hand's menus holds text for the app to parse (an action id, a
  tag of bower.menu, or a "..." row's kind or title with its ids).
"""

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fakefs import FakeFS
from uikit import Rng
from bower import keys as K
from bower.menu import Screen
from bower.store import Store
from bower.ui import App

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = sorted((REPO / "firmware" / "bower").glob("*.py"))
ROLES = ("game_screen", "pass_id", "home", "live", "ids", "warm", "foot", "handle", "draw")


def _trees():
    for p in FIRMWARE:
        yield p.name, ast.parse(p.read_text())


def test_no_role_is_set_on_a_built_screen():
    out = []
    for name, tree in _trees():
        for n in ast.walk(tree):
            if isinstance(n, (ast.Assign, ast.AugAssign)):
                for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                    if isinstance(t, ast.Attribute) and t.attr in ROLES and not (
                            isinstance(t.value, ast.Name) and t.value.id == "self"):
                        out.append("%s:%d %s" % (name, n.lineno, ast.unparse(t)))
    assert out == []


def test_the_app_reads_roles_without_getattr():
    tree = ast.parse((REPO / "firmware" / "bower" / "ui.py").read_text())
    calls = [n.lineno for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr"]
    assert calls == []


def test_every_screen_class_is_a_screen():
    # Each class of the firmware with a draw method (a screen) derives
    # from bower.menu's Screen, so it has every role's default.
    import importlib
    found = []
    for name, tree in _trees():
        for c in ast.walk(tree):
            if isinstance(c, ast.ClassDef) and any(isinstance(f, ast.FunctionDef) and f.name == "draw"
                                                    for f in c.body):
                mod = importlib.import_module("bower." + name[:-3])
                found.append((name, c.name, issubclass(getattr(mod, c.name), Screen)))
    assert len(found) >= 6
    assert [f for f in found if not f[2]] == []


def test_no_text_inputs():
    assert not hasattr(App, "act")


def _value_ok(v):
    if type(v) is int:
        return True
    return (type(v) is tuple and len(v) == 2 and type(v[0]) in (int, str) and type(v[1]) is list
            and all(_value_ok(x) for x in v[1]))


def test_a_hands_rows_hold_ids_and_tags():
    # Random presses through games of every kind of entry (full, trick by
    # trick, quick score, declarations): every row of every menu of action
    # rows on top is an id, a tag or a "..." row's (kind or title, [ids]).
    rnd = Rng(37)
    store = Store("", fs=FakeFS(), device="0123456789abcdef")
    app = App(store, {"version": "t", "device": "0123456789abcdef"}, rnd.randrange)
    keys = (K.OK, K.OK, K.OK, K.DOWN, K.DOWN, K.UP, K.BACK, K.OK_LONG)
    seen = 0
    now = 0
    for _ in range(6000):
        now += 100
        app.handle(keys[rnd.randrange(len(keys))], now)
        app.tick(now)
        top = app.stack[-1]
        if top.ids:
            seen += 1
            bad = [top.value(i) for i in range(len(top.items)) if not _value_ok(top.value(i))]
            assert bad == [], (top.title, bad)
    assert seen > 1000, seen
