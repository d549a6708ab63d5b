"""Three-Handed's option raise_target on the device (issue 36): a row of its
options screen only, off unless switched on and then absent from the setup
as the engine keeps it; refused beside play on, with a note; switched on,
the game's log records it and the scores screen shows the raised target.
(Its screens are golden files: options_raise_target_on, scores_raised_three.)
"""

import os
import sys

from bower_host import simhw
simhw.install()

sys.path.insert(0, os.path.dirname(__file__))

from uikit import Driver  # noqa: E402
from bower import keys as K  # noqa: E402

TIE = ["up H", "order", "tricks 0",                     # dealer A: B euchred: A and C 2
       "up H", "pass", "pass", "order", "tricks 2",     # dealer B: B euchred again: 4
       "up H", "pass", "order", "tricks 1"]             # dealer C: and again: A and C 6, over 5


def test_only_three_handed_offers_it_and_it_toggles_back_to_absent():
    for v in ("classic", "five", "callpartner", "ultimate", "six", "two"):
        d = Driver()
        d.choose("new")
        d.choose(v)
        assert "raise_target" not in [val for _, val in d.rows()], v
    d = Driver()
    d.choose("new")
    d.choose("three")
    rows = dict((val, lab) for lab, val in d.rows())
    assert rows["raise_target"].startswith("Tie +10") and rows["raise_target"].endswith("off")
    d.choose("raise_target")
    assert d.app.setup["options"]["raise_target"] is True
    d.choose("raise_target")
    assert "raise_target" not in d.app.setup["options"]


def test_beside_play_on_it_is_refused_with_a_note_and_nothing_changes():
    d = Driver()
    d.choose("new")
    d.choose("three")
    d.choose("play_on")
    d.choose("raise_target")
    assert d.app.toast and "raise_target" not in d.app.setup["options"]
    assert d.app.setup["options"]["play_on"] is True


def test_a_tie_at_the_target_raises_it_and_the_scores_say_so():
    d = Driver()
    d.new_game("three", {"winning_score": 5, "raise_target": True}, ["A", "B", "C"], dealer=0)
    g = d.app.game
    assert g.header()["options"]["raise_target"] is True
    for e in TIE:
        d.enter(e)
    assert (g.scores, g.target, g.result) == ([6, 0, 6], 15, None)
    d.press(K.OK)
    d.keys("O")
    d.choose("scores")
    assert "to 15" in " ".join(d.screen())


def test_without_it_the_tie_shares_the_win():
    d = Driver()
    d.new_game("three", {"winning_score": 5}, ["A", "B", "C"], dealer=0)
    assert "raise_target" not in d.app.game.header()["options"]
    for e in TIE:
        d.enter(e)
    assert d.app.game.result == ((0, 2), "shared")
