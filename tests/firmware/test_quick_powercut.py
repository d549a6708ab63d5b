# Power cuts in quick score (issue 25): a game of each variant told quick
# through the keys on the real store over a flash with a power switch, with
# quick score switched off for a hand and on again in the game menu. Cut
# the power anywhere (every third unit of flash work, and around every
# write, create, rename and remove): the device boots to the game as it was
# after the last input whose write was done, or with the input in flight
# too, never less: the same events, scores, quick score setting and game
# screen. The flash of a run cut at N is the uncut run's trace up to N
# (FakeFS.cuts, as in test_store_powercut).

import sys

sys.path.insert(0, "tests/firmware")

import pytest

from fakefs import FakeFS
from powercut import Recorder, reboots
from uikit import table_game, hands_of, set_quick
from euchre import hand as H


def observe(app):
    # What a reboot must bring back: the game's events and scores, the
    # setting, and a quick score screen's title (a menu over it is not
    # kept, nor full entry's trick-by-trick view).
    g = app.game
    top = app.stack[-1]
    title = None
    if g and not g.result and getattr(top, "game_screen", False) and (
            g.hand.phase in (H.P_QPARTNER, H.P_QUICK) or g.hand.phase == H.P_UP and app.store.settings["quick"]):
        title = top.title
    return (g.event_count() if g else None, list(g.scores) if g else None,
            app.store.settings["quick"], title)




def run(variant, seed):
    events, ref = table_game(variant, seed)
    hands, _ = hands_of(variant, events)
    fs = FakeFS()
    d = Recorder(fs, observe)
    d.new_game(variant, quick=True)
    start = len(d.marks)
    for i, (full, told, scores) in enumerate(hands):
        quick = told is not None and i != 2
        if quick != bool(d.app.store.settings["quick"]):
            set_quick(d, quick)
        for e in told if quick else full:
            d.enter(e)
        assert d.app.game.scores == scores
    assert d.app.game.result == ref.result
    return fs, d.marks, start


@pytest.mark.parametrize("variant,seed", [("classic", 2), ("five", 3), ("callpartner", 4), ("ultimate", 5),
                                          ("six", 6), ("three", 8)])
def test_a_power_cut_loses_at_most_the_input_in_flight(variant, seed):
    fs, marks, start = run(variant, seed)
    checked = 0
    for cut, _app, got, done, flight in reboots(fs, marks, start, 3, observe):
        # (A game-over screen comes back as itself; a game in play as its
        # next input's screen.)
        assert got[:3] in (done[:3], flight[:3]), (variant, cut, got, done, flight)
        titles = [s[3] for s in (done, flight) if s[:3] == got[:3] and s[3] is not None]
        assert not titles or got[3] in titles, (variant, cut, got, done, flight)
        checked += 1
    assert checked > 300, checked
