"""Option no_late_loners on the device (issue 36): a row of Classic's and
Six-Handed's options screens only, off unless switched on and then absent
from the setup; switched on, a side at 8 or 9 is offered no lone result in
quick score, while the other side is (the bidding screens list the
engine's legal bids: tests/engine/test_no_late_loners.py). (Its screen is the
golden file options_no_late_loners_on.)
"""

import os
import sys

from bower_host import simhw
simhw.install()

sys.path.insert(0, os.path.dirname(__file__))

from uikit import Driver  # noqa: E402

MARCH_NS = ["quick 0", "quick march"]


def test_only_classic_and_six_offer_it_and_it_toggles_back_to_absent():
    for v in ("five", "callpartner", "ultimate", "three", "two"):
        d = Driver()
        d.choose("new")
        d.choose(v)
        assert "no_late_loners" not in [val for _, val in d.rows()], v
    for v in ("classic", "six"):
        d = Driver()
        d.choose("new")
        d.choose(v)
        rows = dict((val, lab) for lab, val in d.rows())
        assert rows["no_late_loners"].startswith("No lone 8-9") and rows["no_late_loners"].endswith("off"), v
        d.choose("no_late_loners")
        assert d.app.setup["options"]["no_late_loners"] is True
        d.choose("no_late_loners")
        assert "no_late_loners" not in d.app.setup["options"], v


def _at_8(on):
    # Quick score: N/S march four times.
    d = Driver()
    d.new_game("classic", {"no_late_loners": True} if on else None, ["A", "B", "C", "D"], dealer=0, quick=True)
    for _ in range(4):
        for e in MARCH_NS:
            d.enter(e)
    assert d.app.game.scores[0] == 8
    return d


def _ends(d, side):
    # The rows offered for how side ``side``'s hand ended.
    d.enter("quick %d" % side)
    return [lab for lab, _ in d.rows()]


def test_at_8_the_side_is_offered_no_lone_result_and_the_other_side_is():
    rows = _ends(_at_8(True), 0)
    assert rows and not any("alone" in r for r in rows), rows
    rows = _ends(_at_8(True), 1)
    assert any("alone" in r for r in rows), rows
    rows = _ends(_at_8(False), 0)
    assert any("alone" in r for r in rows), rows
