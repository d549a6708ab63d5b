# Options by their names in full (euchre.names.OPTION_ALIASES): the public
# API reads as the rule, the log keeps the short key it always had.

import pytest

from euchre import Game, Rules, log
from euchre.names import OPTION_ALIASES
from euchre.rules import OPTIONS


def test_stick_the_dealer_is_std_in_the_log():
    r = Rules("classic", stick_the_dealer=True)
    assert r.std is True and r.stick_the_dealer is True and r.to_dict()["options"]["std"] is True
    assert "stick_the_dealer" not in r.to_dict()["options"]
    g = Game(r, dealer=0)
    for e in ["up H"] + ["pass"] * 7:
        g.apply(e)
    assert "pass" not in g.legal_actions()          # the dealer is stuck
    assert log.loads(log.dumps(g))[0].rules == r


@pytest.mark.parametrize("full, key", OPTION_ALIASES)
def test_every_long_name_stands_for_an_option(full, key):
    assert key in OPTIONS and full not in OPTIONS
    r = Rules("classic", {full: 7 if key == "winning_score" else True})
    assert r.options[key] == (7 if key == "winning_score" else True)


@pytest.mark.parametrize("full, key", OPTION_ALIASES)
def test_a_long_name_and_its_key_together_are_refused_naming_both(full, key):
    # (not "has no option": the variant has it, given twice)
    v = 7 if key == "winning_score" else True
    for given in ({full: v, key: v}, {key: v, full: v}):
        with pytest.raises(ValueError, match="^%s and %s are one option: give it once$" % (key, full)):
            Rules("classic", given)
    with pytest.raises(ValueError, match="std and stick_the_dealer are one option"):
        Rules("classic", {"std": False}, stick_the_dealer=True)


def test_a_long_name_of_an_option_the_variant_lacks_is_refused_by_that_name():
    with pytest.raises(ValueError, match="Ultimate Euchre has no option 'stick_the_dealer'"):
        Rules("ultimate", stick_the_dealer=True)
