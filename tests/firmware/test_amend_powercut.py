# Power cuts while a hand is amended (issue 25, bower.amend): a Classic and
# a Five-Handed game told quick through the keys on the real store over a
# flash with a power switch; after hand 4, hand 2 is amended from the game
# menu (its list, quick score's questions, the change screen), and one more
# hand is told. Cut the power anywhere in the amendment and after it (every
# unit of flash work, and around every write, create, rename and
# remove): the device boots to the game as it was after the last input
# whose write was done, or with the input in flight too, never less, and a
# boot in the middle of the amendment shows its next question. The flash of
# a run cut at N is the uncut run's trace up to N (FakeFS.cuts, as in
# test_store_powercut).

import sys

sys.path.insert(0, "tests/firmware")

import pytest

from fakefs import FakeFS
from powercut import Recorder, reboots
from bower import keys as K

HANDS = {
    "classic": ([["quick 0", "quick made"], ["quick 1", "quick march"], ["quick 0", "quick made"],
                 ["quick 1", "quick made"]], ["quick 0", "quick march alone"], ["quick 0", "quick made"]),
    "five": ([["quick 0", "reveal 2", "quick made"], ["quick 1", "alone", "quick made"],
              ["quick 2", "reveal 4", "quick euchred"], ["quick 3", "reveal 0", "quick made"]],
             ["quick 1", "reveal 3", "quick march"], ["quick 4", "reveal 1", "quick made"]),
}


def observe(app):
    # What a reboot must bring back: the game's events and scores, and
    # whether (and which hand) an amendment is under way, with its screen.
    g = app.game
    top = app.stack[-1]
    if g is None:
        return None
    amending = g.amend_no if g.amending is not None else 0
    title = top.title if amending and getattr(top, "game_screen", False) else None
    return (g.event_count(), list(g.scores), amending, g.result), title




def run(variant):
    before, amended, after = HANDS[variant]
    fs = FakeFS()
    d = Recorder(fs, observe)
    d.new_game(variant, quick=True)
    for h in before:
        for e in h:
            d.enter(e)
    start = len(d.marks)
    d.press(K.OK_LONG)
    d.choose("amend")
    d.choose(label="H2 ")
    for e in amended:
        d.enter(e)
    assert d.top().title == "Hand 2 amended"
    d.press(K.OK)
    for e in after:
        d.enter(e)
    return fs, d.marks, start, d.app.game


@pytest.mark.parametrize("variant", sorted(HANDS))
def test_a_power_cut_in_an_amendment_loses_at_most_the_input_in_flight(variant):
    fs, marks, start, game = run(variant)
    assert game.last_amend[0] == 2
    checked = mid = 0
    for cut, _app, got, done, flight in reboots(fs, marks, start, 1, observe):
        assert got[0] in (done[0], flight[0]), (variant, cut, got, done, flight)
        if got[0][2]:
            # mid-amendment: its next question is up
            mid += 1
            assert got[1] is not None and (got[1].startswith("Amend H2") or "partner" in got[1]
                                           or "made it" in got[1]), (cut, got)
        checked += 1
    assert checked > 100 and mid > 10, (checked, mid)
