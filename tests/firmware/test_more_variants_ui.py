# The device with the variants for three, six and two players (issue 26):
# Three-Handed (each for themselves, the maker against the other two),
# Six-Handed (seats A C E against B D F) and Two-Handed (Keller, 1887),
# through the keys. Their menu rows load no variant data (their tables,
# euchre.morevariants, load when one is chosen, and go when a game of
# another variant starts); each options menu is the engine's; six seats
# take names and a first dealer; the standings name three a side; and a
# power cut or a reboot mid-game brings the game back to the same end.
# (Whole games of each, in full and in quick score, are in test_ui_games
# and test_quick_score, which MicroPython runs too; their screens' fit is
# test_text_fit's, their look test_golden_screens'.)

import sys
import tempfile

sys.path.insert(0, "tests/firmware")

import pytest

from fakefs import FakeFS
from powercut import INFO, Recorder, reboots
from uikit import Driver, MemStore, Canvas, Rng, table_game
from bower.store import Store
from bower.ui import App
from bower import keys as K
from euchre import Rules


NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Flo"]
MORE = ("three", "six", "two")




def drop_more():
    # As a device that never loaded them (this interpreter may have).
    import euchre
    sys.modules.pop("euchre.morevariants", None)
    euchre.__dict__.pop("morevariants", None)


def warm(d):
    # What the board loop does while the device waits for a key.
    while d.app.warm():
        pass


# ----- the variant menu and setup -----------------------------------------------

def test_the_variant_menu_lists_them_without_loading_their_data():
    from euchre import rules
    from bower import screens
    assert screens.MORE == rules.MORE_VARIANTS       # the engine's list, in its order
    drop_more()
    d = Driver(store=MemStore(NAMES))
    d.choose("new")
    assert [lab for lab, _ in d.rows()] == ["Classic", "Five-Handed", "Call Partner", "Ultimate",
                                            "Three-Handed", "Six-Handed", "Two-Handed"]
    for ev in [K.UP] * 3 + [K.DOWN] * 10:              # UP from Classic: over Two-Handed first
        d.press(ev)
        warm(d)
    assert "euchre.morevariants" not in sys.modules
    d.press(K.UP, d.top().cursor)
    d.choose("classic")
    d.choose("next")
    d.choose("next")
    d.choose(0)
    d.enter("up H")
    assert "euchre.morevariants" not in sys.modules
    # A new variant chosen: its data loads ...
    d.press(K.OK_LONG)
    d.choose("home")
    d.choose("new")
    d.choose("yes")
    d.choose("three")
    assert "euchre.morevariants" in sys.modules
    assert d.top().title == "Three-Handed"
    # ... and goes again when a game of the four starts instead.
    d.press(K.BACK)
    d.choose("five")
    d.choose("next")
    d.choose("next")
    d.choose(1)
    assert d.app.game.rules.name == "five" and "euchre.morevariants" not in sys.modules
    import euchre
    assert "morevariants" not in euchre.__dict__


@pytest.mark.parametrize("variant", MORE)
def test_each_options_menu_is_the_engines(variant):
    d = Driver(store=MemStore(NAMES))
    d.choose("new")
    d.choose(variant)
    opts = Rules(variant).options
    # (then the later options it takes, Rules.later: absent while off)
    later = list(Rules(variant).later)
    assert [v for _, v in d.rows()] == ["next"] + sorted(opts) + later + ["quick"]
    assert d.app.setup["options"] == opts
    for k in sorted(opts) + later:
        # Every value of every option, round to the first; the engine takes each.
        seen = []
        first = opts.get(k, False)
        for _ in range(12):
            seen.append(d.app.setup["options"].get(k, False))
            d.choose(k)
            Rules(variant, d.app.setup["options"])
            if d.app.setup["options"].get(k, False) == first:
                break
        assert d.app.setup["options"].get(k, False) == first and len(seen) > 1, (k, seen)
    assert d.app.setup["options"] == opts


def test_six_seats_their_names_and_the_first_dealer():
    d = Driver(store=MemStore(NAMES))
    d.choose("new")
    d.choose("six")
    d.choose("next")
    assert d.top().title == "Players" and d.top().info == ("A+C+E vs B+D+F",)
    assert [lab for lab, _ in d.rows()] == ["Next: dealer"] + ["%s: %s" % (s, n) for s, n in zip("ABCDEF", NAMES)]
    d.choose(5)                                        # seat F's picker: its letter, then the roster
    assert d.top().title == "Seat F" and d.rows()[0][0] == "F"
    d.choose("F")
    d.choose(0)
    d.choose("Flo")                                    # Ann's seat to Flo: F's gone from the roster's rows
    d.choose("next")
    assert [lab for lab, _ in d.rows()][1:] == ["Flo deals", "Bob deals", "Cy deals", "Di deals",
                                                 "Eve deals", "F deals"]
    d.choose(5)
    g = d.app.game
    assert g.players == ["Flo", "Bob", "Cy", "Di", "Eve", "F"] and g.dealer == 5
    assert d.screen()[0] == "H1 F deals"
    # Two players: the first black jack decides.
    d = Driver(store=MemStore(NAMES), rand=Rng(3).randrange)
    d.new_game("two", None, ["Di", "Cy"], dealer=-1)
    rows = d.screen()
    assert rows[0] == "First black jack" and rows[-1].endswith(" deals first")
    d.press(K.OK)
    assert d.app.game.dealer == ["Di", "Cy"].index(rows[-1].split(" ")[0])


# ----- a hand's screens --------------------------------------------------------

def test_a_three_handed_hand_on_the_screens():
    d = Driver(store=MemStore(NAMES))
    d.new_game("three", {"alone": True}, ["Ann", "Bob", "Cy"], dealer=0)
    assert d.screen()[:3] == ["H1 Ann deals", "Deal 2-3 kitty 9", "Upcard?"]
    d.enter("up H")
    assert [lab for lab, _ in d.rows()][:3] == ["order up", "order up alone", "pass (BACK)"]
    d.enter("pass")
    d.enter("order")
    rows = d.screen()
    # The maker plays alone against the other two: the count is Cy's.
    assert rows[0].endswith(" Cy made") and rows[1:3] == ["Ann discards", "Bob leads"], rows
    assert "Cy took 3" in rows
    d.enter("tricks 2")                                # euchred: the other two score 2 each
    rows = d.screen()
    assert rows == ["euchred", "Ann 2 +2", "Bob 2 +2", "Cy 0", "OK:  Bob  deals"], rows
    d.enter("up S")
    d.enter("order alone")                             # Cy declares a lone hand: its march is 4
    d.enter("tricks 5")
    assert d.app.game.scores == [2, 2, 4]


def test_a_two_handed_hand_on_the_screens():
    # Keller: the non-dealer orders up or passes, then the dealer takes it
    # up ("adopts" it) or passes; the non-dealer always leads.
    d = Driver(store=MemStore(NAMES))
    d.new_game("two", None, ["Ann", "Bob"], dealer=0)
    assert d.screen()[:4] == ["H1 Ann deals", "Deal 2-3", "kitty 22", "Upcard?"]
    d.enter("up C")
    assert d.screen()[1] == "Bob:" and [lab for lab, _ in d.rows()][0] == "order up"
    d.enter("pass")
    assert d.screen()[1] == "Ann (dealer):" and [lab for lab, _ in d.rows()][0] == "pick up"
    d.enter("order")
    rows = d.screen()
    assert rows[1:3] == ["Ann discards", "Bob leads"] and "Ann took 3" in rows
    d.enter("tricks 5")
    assert d.app.game.scores == [2, 0]


def test_six_handed_standings_name_three_a_side():
    d = Driver(store=MemStore(NAMES))
    d.new_game("six", None, NAMES, dealer=0)
    d.enter("up H")
    d.enter("pass")
    d.enter("order alone")                             # Cy alone: Ann and Eve sit out
    rows = d.screen()
    assert rows[0].endswith(" Cy alone") and "Cy took 5" in rows
    d.enter("tricks 5")                                # a lone march: 5
    rows = d.screen()
    # (the scores in large digits beside each side's names: not text)
    assert rows == ["lone march", "Ann", "Cy +5", "Eve", "Bob", "Di", "Flo", "OK:  Bob  deals"], rows
    d.press(K.OK)
    d.press(K.OK_LONG)
    d.choose("scores")
    assert d.screen() == ["Scores: hand 2", "Ann", "Cy", "Eve", "Bob", "Di", "Flo", "to 10,  Bob  deals"]
    d.press(K.OK)
    d.choose("game")
    for e in ["up S", "order alone", "tricks 5"]:      # Cy again: 10, the game
        d.enter(e)
    rows = d.screen()
    assert rows == ["Game over", "Ann", "Cy won", "Eve", "Bob", "Di", "Flo", "Ann+Cy+Eve win"], rows
    assert d.app.game.result == ((0, 2, 4), "win")
    # Another game with the same six: straight to the first dealer.
    d.press(K.OK)
    d.choose("same")
    assert d.top().title == "First dealer"
    assert [lab for lab, _ in d.rows()][1:] == [n + " deals" for n in NAMES]
    d.choose(3)
    g = d.app.game
    assert g.rules.name == "six" and g.players == NAMES and g.dealer == 3 and not any(g.scores)


# ----- power cuts and reboots ----------------------------------------------------

def observe(app):
    # What a reboot must bring back: the events, the scores, the screen.
    g = app.game
    c = Canvas()
    app.render(c)
    return (g.event_count() if g else None, list(g.scores) if g else None,
            c.screen_text()[0] if g and getattr(app.stack[-1], "game_screen", False) else None)




def test_a_power_cut_mid_game_loses_at_most_the_input_in_flight():
    # A Six-Handed game entered in full on the real store over a flash with
    # a power switch; the power cut around every write and every fifth
    # unit of flash work: the device boots to the game as it was after the
    # last input whose write was done, or with the input in flight too,
    # and every tenth such game goes on to the same end.
    events, ref = table_game("six", 7)
    fs = FakeFS()
    d = Recorder(fs, observe)
    d.new_game("six")
    start = len(d.marks)
    for e in events:
        d.enter(e)
    assert d.app.game.result == ref.result and d.app.game.scores == ref.scores
    checked = went_on = 0
    for cut, app, got, done, flight in reboots(fs, d.marks, start, 5, observe):
        assert got[:2] in (done[:2], flight[:2]), (cut, got, done, flight)
        checked += 1
        if checked % 10 == 0 and app.game is not None and not app.game.result:
            # The game goes on from where the reboot left it, to the same end.
            r = Driver(app, app.store)
            for e in events[app.game.event_count():]:
                r.enter(e)
            assert app.game.scores == ref.scores and app.game.result == ref.result, cut
            went_on += 1
    assert checked > 200 and went_on > 10, (checked, went_on)


def test_reboot_after_every_input_resumes_the_same_screen():
    # A Three-Handed game (with its options) on the real flash store:
    # rebooting after any input brings back the same screen, and the game
    # ends as the engine's.
    options = {"alone": True, "march": 2}
    events, ref = table_game("three", 8, options)
    with tempfile.TemporaryDirectory() as root:
        d = Driver(App(Store(root, device=INFO["device"]), INFO))
        d.new_game("three", options)
        for i, e in enumerate(events):
            d.enter(e)
            c = Canvas()
            d.app.render(c)
            before = c.screen_text(), bytes(c.buffer)
            d = Driver(App(Store(root, device=INFO["device"]), INFO))
            c = Canvas()
            d.app.render(c)
            assert (c.screen_text(), bytes(c.buffer)) == before, (i, e)
        assert d.app.game.scores == ref.scores and d.app.game.result == ref.result
        assert d.screen()[0] == {"win": "Game over", "shared": "Shared win"}[ref.result[1]]
