"""Golden screens: every screen type of the device, per variant, drawn by the
UI core into MicroPython's framebuf (CPython shim, MicroPython's own font) and
compared pixel for pixel with tests/firmware/golden/<name>.txt ('#' lit).

After an intended change of the look, regenerate with
``BOWER_REGOLDEN=1 .venv/bin/python -m pytest tests/firmware/test_golden_screens.py``
and review the diff (``bower sim --keys ... --screenshot`` shows them large).
"""

import os
import sys

import pytest
from bower_host import simhw
simhw.install()
import framebuf  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__)))

from uikit import Driver, Rng  # noqa: E402
from bower import keys as K  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


def bitmap(app):
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    app.render(fb)
    rows = []
    for y in range(64):
        rows.append("".join("#" if buf[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128)))
    return "\n".join(rows) + "\n"


SEATS = {"five": 5, "callpartner": 5, "three": 3, "six": 6, "two": 2}   # (else 4)


def drive(variant, events, options=None, players=("Ann", "Bob", "Cy", "Di", "Eve", "Flo"), quick=None):
    d = Driver(rand=Rng(7).randrange)
    if variant == "six":
        d.store.roster.append("Flo")
    d.new_game(variant, options, list(players[:SEATS.get(variant, 4)]), quick=quick)
    for e in events:
        d.enter(e)
    return d


SCENARIOS = {
    "home": lambda: Driver(),
    "new_game": lambda: _keys(Driver(), "o"),
    "options_classic": lambda: _path(Driver(), ["new", "classic"]),
    "options_five": lambda: _path(Driver(), ["new", "five"]),
    "players_classic": lambda: _path(Driver(), ["new", "classic", "next"]),
    "player_picker": lambda: _path(Driver(), ["new", "classic", "next", 1]),
    "first_dealer": lambda: _path(Driver(), ["new", "five", "next", "next"]),
    "black_jack_draw": lambda: _path(Driver(rand=Rng(3).randrange), ["new", "classic", "next", "next", -1]),
    "settings": lambda: _path(Driver(), ["settings"]),
    "settings_web": lambda: _path(_exporting(Driver(), 0), ["settings"]),   # (a board that exports: the browser's)
    "export_none": lambda: _path(_exporting(Driver(), 0), ["settings", "export"]),
    "export_three": lambda: _path(_exporting(Driver(), 3), ["settings", "export"]),
    "about": lambda: _path(Driver(), ["about"]),
    "button_test": lambda: _buttons(),
}
for v in ("classic", "five", "callpartner", "ultimate"):
    SCENARIOS["upcard_" + v] = (lambda v=v: drive(v, []))
    SCENARIOS["bid1_" + v] = (lambda v=v: drive(v, ["up H"]))
    SCENARIOS["bid2_" + v] = (lambda v=v: drive(v, ["up H"] + ["pass"] * (5 if v in ("five", "callpartner") else 4)))
SCENARIOS.update({
    "name_two_five": lambda: drive("five", ["up 2S"]),
    "joker_bid_ultimate": lambda: drive("ultimate", ["up HJ"]),
    "declare_classic": lambda: _sub(drive("classic", ["up H"], {"farmers": True}), "declare"),
    "defend_classic": lambda: drive("classic", ["up H", "order alone"], {"defend_alone": True}),
    "partner_card_five": lambda: drive("five", ["up S", "pass", "order"]),
    "partner_card_callpartner": lambda: drive("callpartner", ["up S", "pass", "order"]),
    "makers_took_classic": lambda: drive("classic", ["up H", "pass", "order"]),
    "makers_took_ultimate": lambda: drive("ultimate", ["up C", "order"]),
    "trick_classic": lambda: _path(drive("classic", ["up H", "pass", "order"]), ["by trick"]),
    "trick_five": lambda: drive("five", ["up S", "pass", "order", "partner JS", "won 2"]),
    "trick_callpartner": lambda: drive("callpartner", ["up S", "order", "partner AH", "won 2"]),
    "makers_took_five": lambda: drive("five", ["up S", "pass", "order", "partner JS"]),
    "makers_took_callpartner_alone": lambda: drive("callpartner", ["up S", "order", "alone"]),
    "no_trick_five": lambda: drive("five", ["up S", "pass", "order", "partner JS", "tricks 3", "reveal 4"]),
    "no_trick_euchred_five": lambda: drive("five", ["up S", "pass", "order", "partner JS", "tricks 1", "reveal 4"]),
    "more_five": lambda: _sub(_path(drive("five", ["up S", "pass", "order", "partner JS"]), ["by trick"]), "more"),
    "claim_classic": lambda: _sub(drive("classic", ["up H", "pass", "order"]), "claim"),
    "reveal_five": lambda: drive("five", ["up S", "pass", "order", "partner JS"]
                                 + ["won 2", "won 4", "won 2", "won 1", "won 2"]),
    "hand_over_classic": lambda: drive("classic", ["up H", "pass", "order", "tricks 5"]),
    "hand_over_euchred_classic": lambda: drive("classic", ["up H", "pass", "order", "tricks 2"]),
    "hand_over_five": lambda: drive("five", ["up S", "pass", "order", "partner JS"]
                                    + ["won 2", "won 4", "won 2", "won 1", "won 2", "reveal 4"]),
    "hand_over_callpartner": lambda: drive("callpartner", ["up S", "order", "partner AH", "won 2", "won 2", "won 3",
                                                           "won 3", "won 4", "reveal 3"]),
    "hand_over_ultimate": lambda: drive("ultimate", ["up C", "order", "tricks 11"]),
    "misdeal_classic": lambda: drive("classic", ["redeal"]),
    # Option misdeal_passes (issue 36): on the options screen, in the rules
    # view, and a misdeal's result naming the next dealer (the one left).
    "options_misdeal_on": lambda: _path(Driver(), ["new", "classic", "misdeal_passes"]),
    "rules_misdeal_ultimate": lambda: _path(_keys(drive("ultimate", [], {"misdeal_passes": True}), "O"), ["rules"]),
    "misdeal_passes_classic": lambda: drive("classic", ["redeal"], {"misdeal_passes": True}),
    "misdeal_passes_two": lambda: drive("two", ["up H", "redeal"], {"misdeal_passes": True}),
    # Three-Handed's raise_target (issue 36): on its options screen, and the
    # scores after both defenders passed 5 together: "to 15".
    "options_raise_target_on": lambda: _path(Driver(), ["new", "three", "raise_target"]),
    # Presets (issue 36): first under New game, a preset's dealer menu.
    "new_game_presets": lambda: _keys(_with_presets(), "o"),
    "preset_dealer": lambda: _keys(_with_presets(), "oo"),
    # Classic's no_late_loners (issue 36) on its options screen.
    "options_no_late_loners_on": lambda: _path(Driver(), ["new", "classic", "no_late_loners"]),
    # Issue 36's joker (Three-, Six-Handed), same_dealer (Two-Handed),
    # lone_euchre_4 (Classic, Six-Handed): tests/firmware/test_more_options_ui.py.
    "options_joker_three": lambda: _path(Driver(), ["new", "three", "joker"]),
    "options_joker_jokers_six": lambda: _path(Driver(), ["new", "six", "jokers", "joker"]),
    "same_dealer_two": lambda: drive("two", ["up H", "pass", "pass", "pass", "pass"], {"same_dealer": True}),
    "rules_lone_euchre_six": lambda: _keys(_path(_keys(drive("six", [], {"lone_euchre_4": True, "joker": True}), "O"),
                                                 ["rules"]), "dddd"),
    "scores_raised_three": lambda: _menu_scores(drive(
        "three", ["up H", "order", "tricks 0", "up H", "pass", "pass", "order", "tricks 2",
                  "up H", "pass", "order", "tricks 1"], {"winning_score": 5, "raise_target": True})),
    "game_menu": lambda: _keys(drive("classic", ["up H"]), "O"),
    "scores_five": lambda: _menu_scores(drive("five", ["up S", "pass", "order", "partner JS"] + ["won 2"] * 5)),
    "rules_classic": lambda: _path(_keys(drive("classic", [], {"std": True, "canadian": True}), "O"), ["rules"]),
    "game_over_classic": lambda: drive("classic", ["up H", "order alone", "tricks 5"] * 3, {"winning_score": 10}),
    "game_over_five_draw": lambda: _five_draw(),
    "after_game": lambda: _keys(drive("classic", ["up H", "order alone", "tricks 5"] * 3), "o"),
    "bid1_dealer_classic": lambda: drive("classic", ["up H", "pass", "pass", "pass"]),
    "leave_game": lambda: _path(_keys(drive("classic", ["up H"]), "O"), ["home", "new"]),
    "note_two_rows": lambda: _note(drive("classic", ["up H"]), "g0001 line 12: torn, dropped"),
    # Quick score (bower.quick): who made trump, the partner, how it ended.
    "quick_start_classic": lambda: quick("classic", []),
    "quick_end_classic": lambda: quick("classic", ["quick 0"]),
    "quick_next_hand_classic": lambda: quick("classic", ["quick 1", "quick march"]),
    "quick_start_five": lambda: quick("five", ["quick 2", "reveal 4", "quick march"]),
    "quick_partner_five": lambda: quick("five", ["quick 2"]),
    "quick_end_five": lambda: quick("five", ["quick 2", "reveal 4"]),
    "quick_took_none_five": lambda: _sub(quick("five", ["quick 1", "reveal 3"]), "Who took none?"),
    "quick_more_classic": lambda: _sub(quick("classic", ["quick 1"], {"defend_alone": True}), "Also"),
    "quick_end_callpartner_alone": lambda: quick("callpartner", ["quick 3", "alone"]),
    "quick_round_classic": lambda: _round_quick(),
    "game_menu_between_hands": lambda: _keys(quick("ultimate", ["quick 0", "quick made"]), "O"),
    # Amending a hand (bower.amend): the list, its question, what changed.
    "amend_list_five": lambda: _path(_keys(quick("five", _FIVE3), "O"), ["amend"]),
    "amend_start_classic": lambda: _amend(quick("classic", _CLASSIC3), 2, []),
    "amend_changed_classic": lambda: _amend(quick("classic", _CLASSIC3), 2, ["quick 0", "quick march alone"]),
    "amend_changed_five": lambda: _amend(quick("five", _FIVE3), 2, ["quick 1", "reveal 3", "quick march"]),
    # Three-, Six- and Two-Handed (issue 26).
    "options_three": lambda: _path(Driver(), ["new", "three"]),
    "options_six": lambda: _path(Driver(), ["new", "six"]),
    "options_two": lambda: _path(Driver(), ["new", "two"]),
    "players_six": lambda: _path(_roster6(Driver()), ["new", "six", "next"]),
    "first_dealer_six": lambda: _path(_roster6(Driver()), ["new", "six", "next", "next"]),
    "rules_six": lambda: _path(_keys(drive("six", [], {"jokers": True}), "O"), ["rules"]),
    "upcard_three": lambda: drive("three", []),
    "upcard_six": lambda: drive("six", []),
    "upcard_two": lambda: drive("two", []),
    "bid1_three_alone": lambda: drive("three", ["up H"], {"alone": True}),
    "bid1_six": lambda: drive("six", ["up H"]),
    "bid1_dealer_two": lambda: drive("two", ["up H", "pass"]),
    "bid2_two": lambda: drive("two", ["up H", "pass", "pass"]),
    "makers_took_three": lambda: drive("three", ["up H", "pass", "order"]),
    "makers_took_six_alone": lambda: drive("six", ["up H", "pass", "order alone"]),
    "trick_six": lambda: drive("six", ["up H", "pass", "order", "won 2"]),
    "hand_over_three": lambda: drive("three", ["up H", "pass", "order", "tricks 2"]),
    "hand_over_six": lambda: drive("six", ["up H", "pass", "order alone", "tricks 5"]),
    "hand_over_two": lambda: drive("two", ["up H", "order", "tricks 5"]),
    "scores_six": lambda: _menu_scores(drive("six", ["up H", "pass", "order", "tricks 3"])),
    "game_over_three_shared": lambda: drive("three", ["up H", "pass", "pass", "pass", "call S", "tricks 1"] * 7),
    "game_over_six": lambda: drive("six", ["up H", "order alone", "tricks 5"] * 3),
    "game_over_two": lambda: drive("two", ["up H", "order", "tricks 5"] * 3),
    "quick_start_six": lambda: drive("six", [], quick=True),
    "quick_end_six": lambda: drive("six", ["quick 1"], quick=True),
    "quick_start_three": lambda: drive("three", ["quick 2", "quick euchred"], quick=True),
    "quick_end_two": lambda: drive("two", ["quick 1"], quick=True),
})
_CLASSIC3 = ["quick 0", "quick made", "quick 0", "quick march", "quick 1", "quick euchred"]
_FIVE3 = ["quick 0", "reveal 2", "quick made", "quick 1", "alone", "quick march", "quick 3", "reveal 4",
          "quick euchred"]


def _amend(d, n, events):
    _path(_keys(d, "O"), ["amend"])
    d.choose(label="H%d " % n)
    for e in events:
        d.enter(e)
    return d


def _roster6(d):
    d.store.roster.append("Flo")
    return d


def quick(variant, events, options=None):
    # A game in quick score, chosen in its options.
    d = Driver(rand=Rng(7).randrange)
    n = 5 if variant in ("five", "callpartner") else 4
    d.new_game(variant, options, ["Ann", "Bob", "Cy", "Di", "Eve"][:n], quick=True)
    for e in events:
        d.enter(e)
    return d


def _round_quick():
    # A club round of 8 hands in quick score, after a hand.
    from euchre import Game, Rules
    from bower.newgame import start_game
    d = Driver()
    d.store.settings["quick"] = 1
    start_game(d.app, Game(Rules("classic", {"round_hands": 8}), ["Ann", "Bob", "Cy", "Di"]))
    d.app.tick(0)
    d.enter("quick 0")
    d.enter("quick euchred")
    return d


def _exporting(d, games):
    # The board's export hook (bower.webboard's): it says how many games it hands over.
    d.app.info["export"] = lambda: games
    return d


def _with_presets():
    # A device with two presets on its (fake) flash, at home.
    from fakefs import FakeFS
    from bower import presets
    from bower.store import Store
    fs = FakeFS()
    st = Store("", fs=fs, device="e6614103e7")
    st.set_roster(["Ann", "Bob", "Cy", "Di", "Eve"])
    presets.save(st, [{"name": "Friday rules", "variant": "classic", "options": {"std": True}, "target": 11},
                      {"name": "Kids", "variant": "three", "options": {}, "quick": True}])
    return Driver(store=Store("", fs=fs.reboot(), device="e6614103e7"), rand=Rng(7).randrange)


def _note(d, text):
    d.app.notify(text)
    return d


def _keys(d, keys):
    d.keys(keys)
    return d


def _path(d, values):
    for v in values:
        d.choose(v)
    return d


def _sub(d, kind):
    for _label, v in d.rows():
        if isinstance(v, tuple) and v[0] == kind:
            d.choose(v)
            return d
    raise AssertionError("no %s row" % kind)


def _menu_scores(d):
    d.press(K.OK)          # acknowledge the hand
    d.keys("O")            # game menu
    d.choose("scores")
    return d


def _buttons():
    d = _path(Driver(), ["settings", "test"])
    d.app.buttons_seen(0b0101)
    d.press(K.DOWN)
    return d


def _five_draw():
    # Five-Handed, alternate ending: two players reach 10 in the same hand
    # from the same score -> a draw.
    d = drive("five", [], {"alternate_ending": True, "winning_score": 5})
    g = d.app.game
    while not g.result:
        legal = g.legal_actions()
        # The maker (seat after dealer) orders and calls the next seat's card;
        # both take tricks every hand: they march together.
        h = g.hand
        if h.phase == 5:
            e = "order" if "order" in legal else legal[0]
        elif h.phase == 8:
            e = [a for a in legal if a.startswith("partner")][0]
        elif h.phase == 13:
            e = "won %d" % (h.maker if h.tricks[h.maker] < 3 else (h.maker + 1) % 5)
        elif h.phase == 14:
            e = "reveal %d" % ((h.maker + 1) % 5)
        else:
            e = [a for a in legal if a != "redeal"][0]
        d.enter(e)
        g = d.app.game
    return d


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden_screen(name):
    d = SCENARIOS[name]()
    got = bitmap(d.app)
    path = os.path.join(GOLDEN, name + ".txt")
    if os.environ.get("BOWER_REGOLDEN") or not os.path.exists(path):
        if not os.environ.get("BOWER_REGOLDEN"):
            pytest.fail("no golden file %s: run with BOWER_REGOLDEN=1 to create it" % path)
        with open(path, "w") as f:
            f.write(got)
        return
    with open(path) as f:
        want = f.read()
    if got != want:
        diff = [i for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())) if a != b]
        pytest.fail("screen %s differs from its golden file in rows %s:\n%s" % (name, diff[:8], got))


def test_every_golden_file_has_a_scenario():
    names = set(n[:-4] for n in os.listdir(GOLDEN) if n.endswith(".txt"))
    assert names == set(SCENARIOS)
