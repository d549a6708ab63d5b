"""The options of tests/engine/test_more_options.py on the device (issue 36):
Three-Handed's and Six-Handed's joker, Classic's and Six-Handed's
lone_euchre_4, Two-Handed's same_dealer. Each is a row of its variants'
options screens only, off unless switched on and then absent from the
setup (later options: euchre.rules LATER); on, the game's log records it
and the hand plays by it. (Their screens are golden files:
options_joker_three, options_joker_jokers_six, same_dealer_two,
rules_lone_euchre_six.)
"""

import os
import sys

import pytest

from bower_host import simhw
simhw.install()

sys.path.insert(0, os.path.dirname(__file__))

from uikit import Driver  # noqa: E402

ALL = ("classic", "five", "callpartner", "ultimate", "three", "six", "two")
OFFERED = {"joker": ("classic", "three", "six", "two"), "lone_euchre_4": ("classic", "six"),
           "same_dealer": ("two",)}
LABEL = {"joker": "Joker", "lone_euchre_4": "Set loner 4", "same_dealer": "Pass: redeal"}


@pytest.mark.parametrize("opt", sorted(OFFERED))
def test_only_its_variants_offer_it_and_it_toggles_back_to_absent(opt):
    for v in ALL:
        d = Driver()
        d.choose("new")
        d.choose(v)
        rows = dict((val, lab) for lab, val in d.rows())
        if v not in OFFERED[opt]:
            assert opt not in rows, v
            continue
        assert rows[opt].startswith(LABEL[opt]) and rows[opt].endswith("off"), (v, rows[opt])
        d.choose(opt)
        assert d.app.setup["options"][opt] is True
        assert dict((val, lab) for lab, val in d.rows())[opt].endswith("on")
        d.choose(opt)
        if opt in d.app.setup["options"]:
            assert v in ("classic", "two") and opt == "joker"   # (an option since the first logs: kept, off)
            assert d.app.setup["options"][opt] is False
        else:
            assert v != "classic" or opt != "joker"


def test_six_handed_takes_one_joker_or_both_and_says_so():
    d = Driver()
    d.choose("new")
    d.choose("six")
    d.choose("jokers")
    d.choose("joker")
    assert d.app.setup["options"].get("joker") is None and d.app.setup["options"]["jokers"] is True
    assert "Joker or Jokers: one" in " ".join(d.screen())
    d.choose("jokers")
    d.choose("joker")
    assert d.app.setup["options"]["joker"] is True and d.app.setup["options"]["jokers"] is False


def test_a_two_handed_game_with_same_dealer_deals_again_after_both_pass():
    d = Driver()
    d.new_game("two", {"same_dealer": True}, ["A", "B"], dealer=0)
    assert d.app.game.header()["options"]["same_dealer"] is True
    for e in ["up H", "pass", "pass", "pass", "pass"]:
        d.enter(e)
    assert d.app.game.dealer == 0
    assert d.screen()[-1].split() == ["OK:", "A", "deals"]
    d = Driver()
    d.new_game("two", None, ["A", "B"], dealer=0)
    assert "same_dealer" not in d.app.game.header()["options"]
    for e in ["up H", "pass", "pass", "pass", "pass"]:
        d.enter(e)
    assert d.app.game.dealer == 1 and d.screen()[-1].split() == ["OK:", "B", "deals"]


def test_a_euchred_loner_scores_4_with_lone_euchre_4_in_quick_score():
    for opts, want in (({"lone_euchre_4": True}, 4), (None, 2)):
        d = Driver()
        d.new_game("six", opts, None, dealer=0, quick=True)
        d.enter("quick 1")
        d.enter("quick euchred alone")
        assert d.app.game.scores == [want, 0, want, 0, want, 0], opts


def test_a_three_handed_joker_game_names_the_suit_of_a_joker_turned_up():
    d = Driver()
    d.new_game("three", {"joker": True}, ["A", "B", "C"], dealer=0)
    assert len(d.app.game.rules.deck) == 25
    d.enter("up HJ")
    assert [v for _, v in d.rows()] == ["name C", "name D", "name H", "name S", "redeal"]
    assert d.screen()[:2] == ["big joker up", "A names:"]
    d.enter("name D")
    d.enter("order")
    d.enter("tricks 3")
    assert d.app.game.scores == [0, 1, 0]
