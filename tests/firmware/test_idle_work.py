"""Work the device does while a menu waits, so the press after it does not
(tools/bench_pico.py measures the presses): the rules of the variant under
the cursor, built once for the whole setup; littlefs's first block
allocation after power-on (a walk of the whole filesystem) done during the
setup of a game, once; the log format's strings written without walking
their characters.
"""

import json
import sys

from hypothesis import given, strategies as st

from bower.keys import UP, DOWN, OK
from bower.store import Store, extra
from bower.ui import App
import euchre.game  # (loaded first: it keeps the real Rules while a test counts them)
import euchre.rules
from euchre import logline

from fakefs import FakeFS, PowerCut


class Counted:
    # euchre.rules.Rules, counting the Rules built.
    def __init__(self, real):
        self.real = real
        self.n = 0

    def __call__(self, *a, **k):
        self.n += 1
        return self.real(*a, **k)


def idle(app):
    n = 0
    while app.warm():
        n += 1
    return n


def boot(fs):
    return App(Store("/", fs=fs, device="e6614c31"), {})


def _games(s, n):
    # ``n`` one-hand Classic games recorded on store ``s``, each finished; the last.
    from euchre import Game, Rules
    for _ in range(n):
        g = Game(Rules("classic", winning_score=1), ["Ann", "Bob", "Cy", "Di"], dealer=0)
        s.new_game(g, started=1750000000)
        for e in ("up H", "pass", "order", "tricks 3"):
            g.apply(e)
            s.record(g, e)
    return g


def test_the_rules_are_built_while_the_variant_menu_waits_and_once_per_setup(monkeypatch):
    # (the setup's menus, bower.newgame, imported afresh by the app with the
    # counting Rules: other tests may have loaded, dropped or reloaded it)
    built = Counted(euchre.rules.Rules)
    monkeypatch.setattr(euchre.rules, "Rules", built)
    monkeypatch.delitem(sys.modules, "bower.screens", raising=False)
    monkeypatch.delitem(sys.modules, "bower.newgame", raising=False)
    app = boot(FakeFS())
    idle(app)
    app.handle(OK, 0)                        # Home: New game -> the variant menu
    assert app.stack[-1].title == "New game"
    idle(app)
    assert built.n == 1                      # Classic, under the cursor
    app.handle(DOWN, 0)
    idle(app)
    assert built.n == 2                      # the next variant, as the cursor moves
    app.handle(DOWN, 0)
    app.handle(DOWN, 0)
    app.handle(DOWN, 0)                      # Three-Handed (issue 26): not built while
    idle(app)                                # the cursor passes (its data would load)
    assert built.n == 2 and app.stack[-1].value(app.stack[-1].cursor) == "three"
    for _ in range(4):
        app.handle(UP, 0)                    # back to Classic
    idle(app)
    assert built.n == 3
    app.handle(OK, 0)                        # Classic picked: its rules were ready
    assert built.n == 3 and app.setup["variant"] == "classic"
    assert app.stack[-1].text(0) == "Next: players"
    app.handle(OK, 0)                        # the players menu asks again: the same rules
    assert app.stack[-1].title == "Players" and built.n == 3
    app.back()
    app.handle(DOWN, 0)
    app.handle(OK, 0)                        # an option changed: new rules, once
    assert built.n == 4
    app.stack[-1].cursor = 0
    app.handle(OK, 0)
    assert app.stack[-1].title == "Players" and built.n == 4


def test_setting_up_a_game_warms_the_allocator_once_per_power_on():
    fs = FakeFS()
    app = boot(fs)
    idle(app)
    assert "/games" not in fs.dirs            # a new device writes nothing at boot ...
    app.handle(OK, 0)
    idle(app)
    assert "/games" not in fs.dirs            # ... nor in the variant menu
    app.handle(OK, 0)                        # Classic: a game is being set up
    idle(app)
    assert "/games" in fs.dirs                # made while the options menu waits
    ops = len(fs.trace)
    app.handle(DOWN, 0)
    idle(app)
    assert len(fs.trace) == ops              # once per power-on
    # A device that has its games directory: one made and removed, nothing left.
    fs = fs.reboot()
    app = boot(fs)
    idle(app)
    app.handle(OK, 0)
    app.handle(OK, 0)
    before = len(fs.trace)
    idle(app)
    assert [op for op, path, _, _ in fs.trace[before:]] == ["mkdir", "rmdir"]
    assert sorted(fs.dirs) == ["", "/games"]


def test_a_power_cut_in_the_allocator_warm_up_loses_nothing():
    def setup(fs):
        app = boot(fs)
        app.handle(OK, 0)
        app.handle(OK, 0)
        return app

    dry = FakeFS(dirs={"": 1, "/games": 1})
    app = setup(dry)
    start = len(dry.trace)
    idle(app)
    assert [op for op, _, _, _ in dry.trace[start:]] == ["mkdir", "rmdir"]
    cut = dry.trace[start][2]                # the power fails right after the probe's mkdir
    fs = FakeFS(cut, dirs={"": 1, "/games": 1})
    app = setup(fs)
    try:
        idle(app)
    except PowerCut:
        pass
    fs = fs.reboot()
    assert "/games/a.tmp" in fs.dirs
    app = setup(fs)                          # boots as ever; the next setup clears it
    idle(app)
    assert sorted(fs.dirs) == ["", "/games"]


@given(st.text())
def test_json_strings_are_json_and_round_trip(text):
    out = logline.canonical_json(text)
    assert json.loads(out) == text
    if all(ord(c) <= 0xFFFF for c in text):
        assert out == json.dumps(text)     # (astral characters: raw UTF-8, as MicroPython's json reads them)


def test_a_new_hands_checkpoint_waits_until_the_app_is_idle():
    # The input that ends a hand goes to the log at once; the next hand's
    # checkpoint (its own file: a flash erase on the Pico) when the app is
    # next idle. A power cut between the two resumes the same game, one
    # hand more replayed.
    from euchre import Game, Rules

    fs = FakeFS()
    s = Store("/", fs=fs, device="e6614c31")
    g = Game(Rules("classic"), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    s.new_game(g, started=1750000000)
    for e in ("up H", "pass", "order", "tricks 5"):
        g.apply(e)
        s.record(g, e)
    assert g.hand_no == 2 and "/games/g0001.ck" not in fs.files
    r, info = Store("/", fs=fs.reboot(), device="e6614c31").resume()
    assert (r.scores, r.hand_no, r.event_count()) == (g.scores, 2, g.event_count()) and not info["checkpoint"]
    app = App(s, {})
    app.game = g
    assert app.warm() and "/games/g0001.ck" in fs.files     # idle in the hand: written
    assert not app.warm()
    r, info = Store("/", fs=fs.reboot(), device="e6614c31").resume()
    assert (r.scores, r.hand_no, r.event_count()) == (g.scores, 2, g.event_count()) and info["checkpoint"]


def test_the_game_over_screen_loads_the_archive_its_next_press_needs(monkeypatch):
    # Home and a new game both need the store's archive (dropped during the
    # hands): loaded while the game-over screen waits, not on the press.
    from euchre import Game, Rules

    app = boot(FakeFS())
    g = Game(Rules("classic", winning_score=1), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    for e in ("up H", "pass", "order", "tricks 3"):
        g.apply(e)
    assert g.result
    app.game = g
    monkeypatch.delitem(sys.modules, "bower.past")
    idle(app)
    assert "bower.past" in sys.modules
    app.game = None                          # Home: no game, the archive as it is
    app.store.low_space()                    # (as the game's start asked, bower.newgame)
    monkeypatch.delitem(sys.modules, "bower.past")
    idle(app)
    assert "bower.past" not in sys.modules


def test_the_archive_moves_wait_for_home_not_the_game_over_screen():
    # Moving older games to the archive commits to the games directory; on
    # the game-over screen that would leave littlefs a compaction of it for
    # the press that leaves the screen. They wait for Home.
    fs = FakeFS()
    s = Store("/", fs=fs, device="e6614c31")
    g = _games(s, 2)
    assert "/games/g0001.log" in fs.files
    app = App(s, {})
    app.game = g                             # the game-over screen of g0002
    idle(app)
    assert "/games/g0001.log" in fs.files
    app.game = None                          # Home
    idle(app)
    assert "/games/g0001.log" not in fs.files and "/past/g0001.log" in fs.files


def test_a_boot_to_home_moves_the_older_games_to_past_when_idle(monkeypatch):
    # After a boot the older games in the games directory go to past/ while
    # the home screen waits, whether or not anything loaded bower.past yet
    # (a fresh device has not: the boot's code is bower.boot).
    fs = FakeFS()
    s = Store("/", fs=fs, device="e6614c31")
    _games(s, 3)
    s.close()
    monkeypatch.delitem(sys.modules, "bower.past")
    s = Store("/", fs=fs.reboot(), device="e6614c31")
    assert s.resume() is None and s.resume(1) is None
    assert "bower.past" not in sys.modules
    app = App(s, {})
    idle(app)
    assert "bower.past" in sys.modules
    assert [p for p in ("/games/g0001.log", "/games/g0002.log") if p in fs.files] == []
    assert "/past/g0001.log" in fs.files and "/past/g0002.log" in fs.files and "/games/g0003.log" in fs.files
    assert [(g["id"], g["state"]) for g in extra("past").games(s)] == [("g0001", "finished"), ("g0002", "finished"),
                                                          ("g0003", "finished")]


def test_a_boot_loads_no_past_games_code_before_the_home_screen_waits(monkeypatch):
    # The boot's own code is bower.boot (given back once it is over):
    # bower.past, some 8 KB on a Pico, waits for the first idle, whether
    # the device is new (no settings yet) or has games.
    from euchre import Game, Rules

    fs = FakeFS()
    monkeypatch.delitem(sys.modules, "bower.past", raising=False)
    s = Store("/", fs=fs, device="e6614c31")
    assert "bower.past" not in sys.modules and s.resume() is None and s.resume(1) is None
    assert "bower.past" not in sys.modules and "bower.boot" not in sys.modules
    g = Game(Rules("classic", winning_score=1), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    s.new_game(g, started=1750000000)
    monkeypatch.delitem(sys.modules, "bower.past")
    s = Store("/", fs=fs.reboot(), device="e6614c31")
    r = s.resume()                           # the game, resumed before its first input
    assert r and r[0].event_count() == 0 and "bower.past" not in sys.modules
