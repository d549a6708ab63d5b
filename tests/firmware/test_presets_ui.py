"""Presets on the device's screens (issue 36 point 2), over the real store
on a fake flash: New game lists the group's presets first, and two presses
(OK on the preset, OK on its dealer) put the first hand up with the
preset's variant, options, target and quick score; "Save as preset" on the
game-over menu (DOWN, OK) keeps the setup just played, named by its variant
and target; a refused entry shows its rule and the others are offered; a
power cut in that save leaves the old presets or the new.
"""

import os
import sys

from bower_host import simhw
simhw.install()

sys.path.insert(0, os.path.dirname(__file__))

from fakefs import FakeFS, PowerCut  # noqa: E402
from uikit import Driver  # noqa: E402
from bower import keys as K, presets  # noqa: E402
from bower.store import Store  # noqa: E402

DEV = "e6614103e7"
FRIDAY = {"name": "Friday", "variant": "classic", "options": {"std": True, "canadian": True}, "target": 11,
          "quick": True}
KIDS = {"name": "Kids", "variant": "three", "options": {"raise_target": True}, "quick": False}


def _device(ps=(), roster=("Ann", "Bob", "Cy", "Di", "Eve")):
    fs = FakeFS()
    st = Store("", fs=fs, device=DEV)
    st.set_roster(list(roster))
    if ps:
        presets.save(st, list(ps))
    return fs, Driver(store=Store("", fs=fs.reboot(), device=DEV))


def _new_game(d):
    d.choose("new")
    assert d.top().title == "New game"


def test_two_presses_from_new_game_to_the_first_hand_with_a_preset():
    fs, d = _device([FRIDAY, KIDS])
    _new_game(d)
    labels = [lab for lab, _ in d.rows()]
    assert labels[:3] == ["Friday", "Kids", "Classic"], labels
    n = d.presses
    d.press(K.OK)                       # Friday (the cursor is on it)
    assert d.top().title == "Friday" and d.rows()[d.top().cursor][0] == "Ann deals", d.rows()
    d.press(K.OK)                       # Ann deals
    assert d.presses - n == 2
    g = d.app.game
    assert g is not None and g.hand_no == 1 and not g.hand.events
    assert (g.rules.name, g.rules.std, g.rules.canadian, g.rules.winning_score) == ("classic", True, True, 11)
    assert g.players == ["Ann", "Bob", "Cy", "Di"] and g.dealer == 0
    assert d.store.settings["quick"] == 1              # the preset's quick score, kept as the setting
    assert "New" not in d.screen()[0]                  # the first hand's screen


def test_a_presets_rules_are_shown_in_full_before_it_starts():
    fs, d = _device([FRIDAY, KIDS])
    _new_game(d)
    d.press(K.OK)                       # Friday
    from bower.newgame import RULES_ROW
    d.choose(RULES_ROW)
    v = d.top()
    assert v.title == "Friday", v.title
    rows = {ln[:12].strip(): ln[12:].strip() for ln in v.lines if len(ln) > 12}
    assert rows.get("Play to") == "11" and rows.get("Stick dealer") == "on" and rows.get("Canadian") == "on", v.lines
    assert rows.get("Quick score") == "on", v.lines
    d.press(K.OK)                       # back to the dealer menu
    assert d.top().title == "Friday" and d.app.game is None


def test_a_preset_of_three_players_takes_the_roster_and_players_can_be_changed_first():
    fs, d = _device([FRIDAY, KIDS])
    _new_game(d)
    d.choose(("preset", presets.check(KIDS)))
    assert d.top().title == "Kids"
    from bower.newgame import PLAYERS_ROW
    d.choose(PLAYERS_ROW)
    assert d.top().title == "Players"
    d.choose(0)                          # seat A: another name
    d.choose("Di")
    d.choose("next")                     # back to Kids' dealer menu, with Di in seat A
    assert d.top().title == "Kids" and d.rows()[1][0] == "Di deals", d.rows()
    d.choose(1)
    g = d.app.game
    assert g.rules.name == "three" and g.rules.raise_target and g.players[0] == "Di"
    assert d.store.settings["quick"] == 0


def _played_out(g):
    # Side 0 marches until the game is over (quick score).
    while not g.result:
        g.apply("quick 0")
        g.apply("quick march")


def test_save_as_preset_keeps_the_setup_just_played_in_two_presses():
    _, d = _device(roster=("Ann", "Bob", "Cy", "Di", "Eve", "Flo"))
    fs = d.store.fs
    d.new_game("six", {"winning_score": 7, "jokers": True}, ["Ann", "Bob", "Cy", "Di", "Eve", "Flo"], dealer=0)
    _played_out(d.app.game)
    d.app.show_game()
    for _ in range(4):
        if getattr(d.top(), "title", "") == "Game over":
            break
        d.press(K.OK)
    assert d.top().title == "Game over", d.top()
    n = d.presses
    d.press(K.DOWN)
    d.press(K.OK)
    assert d.presses - n == 2 and d.app.toast == "Preset: Six-Hand 7", d.app.toast
    st = Store("", fs=fs.reboot(), device=DEV)
    assert presets.load(st) == ([{"name": "Six-Hand 7", "variant": "six", "options": {"std": False, "jokers": True},
                                  "target": 7, "quick": False}], [])
    d.press(K.OK)                        # the same setup again: kept once
    assert len(presets.load(Store("", fs=fs.reboot(), device=DEV))[0]) == 1


def test_a_refused_entry_says_its_rule_and_the_others_are_offered():
    fs, d = _device([FRIDAY, KIDS])
    raw = bytes(fs.files["/presets"]).replace(b'"three"', b'"four"')
    from euchre.logline import decode_line, encode_line
    rec = decode_line(bytes(fs.files["/presets"]).decode())
    rec["presets"][1]["variant"] = "four"
    fs.files["/presets"] = bytearray(encode_line(rec).encode())
    assert raw
    d = Driver(store=Store("", fs=fs.reboot(), device=DEV))
    _new_game(d)
    assert [lab for lab, _ in d.rows()][:2] == ["Friday", "Classic"]
    assert d.app.toast == "preset 'Kids': variant 'four': not one Bower has", d.app.toast


def test_a_power_cut_in_save_as_preset_leaves_the_old_presets_or_the_new():
    from bower.presets import save_played as save_preset

    def run(cut):
        _, d = _device([FRIDAY])
        d.new_game("classic", None, ["Ann", "Bob", "Cy", "Di"], dealer=0)
        g = d.app.game
        _played_out(g)
        fs = d.store.fs         # (the flash the app's store writes)
        start = fs.spent
        fs.cut = None if cut is None else start + cut
        try:
            save_preset(d.app, g.rules)
        except PowerCut:
            pass
        fs.cut = None
        return fs.spent - start, presets.load(Store("", fs=fs.reboot(), device=DEV))
    n, got = run(None)
    assert n > 100 and [p["name"] for p in got[0]] == ["Friday", "Classic 10"], (n, got)
    seen = set()
    # (every unit of the writes' first and last 8: the opens, the close, the
    # rename; every 5th inside the temporary file's bytes)
    for cut in list(range(8)) + list(range(8, n - 8, 5)) + list(range(n - 8, n + 1)):
        _, got = run(cut)
        names = [p["name"] for p in got[0]]
        assert got[1] == [] and names in (["Friday"], ["Friday", "Classic 10"]), (cut, got)
        seen.add(len(names))
    assert seen == {1, 2}
