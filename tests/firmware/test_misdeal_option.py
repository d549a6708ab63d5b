"""Option misdeal_passes on the device (issue 36): a row of every variant's
options screen, off unless switched on and then absent from the setup as
the engine keeps it; switched on, the game's log records it and a misdeal's
result names the player on the left as the next dealer. (Its screens are
golden files: options_misdeal_on, rules_misdeal_ultimate,
misdeal_passes_classic, misdeal_passes_two.)
"""

import os
import sys

from bower_host import simhw
simhw.install()

sys.path.insert(0, os.path.dirname(__file__))

from uikit import Driver  # noqa: E402

ALL = ("classic", "five", "callpartner", "ultimate", "three", "six", "two")


def test_every_variants_options_offer_it_off_and_it_toggles_back_to_absent():
    for v in ALL:
        d = Driver()
        d.choose("new")
        d.choose(v)
        rows = dict((val, lab) for lab, val in d.rows())
        assert rows["misdeal_passes"].startswith("Misdeal pass") and rows["misdeal_passes"].endswith("off"), v
        d.choose("misdeal_passes")
        assert d.app.setup["options"]["misdeal_passes"] is True
        d.choose("misdeal_passes")
        assert "misdeal_passes" not in d.app.setup["options"], v


def test_a_game_with_it_logs_it_and_the_misdeal_passes_the_deal():
    d = Driver()
    d.new_game("five", {"misdeal_passes": True}, ["A", "B", "C", "D", "E"], dealer=2)
    g = d.app.game
    assert g.rules.misdeal_passes and g.header()["options"]["misdeal_passes"] is True
    d.enter("redeal")
    assert d.app.game.dealer == 3
    assert d.screen()[-1].split() == ["OK:", "D", "deals"]


def test_without_it_the_same_dealer_deals_again():
    d = Driver()
    d.new_game("five", None, ["A", "B", "C", "D", "E"], dealer=2)
    assert "misdeal_passes" not in d.app.game.header()["options"]
    d.enter("redeal")
    assert d.app.game.dealer == 2 and d.screen()[-1].split() == ["OK:", "C", "deals"]
