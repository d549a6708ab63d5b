"""Option ``misdeal_passes`` (issue 36): a misdeal passes the deal to the
left instead of the same dealer dealing again. Leeds and Dwight, *The Laws
of Euchre* (Somerset Club of Boston, 1888), law 41: "A misdeal loses the
deal." (docs/RULES.md cites the page.) Off, the default, a misdeal is
redealt by the same dealer (docs/RULES.md, "Reneges and misdeals").

Every variant has misdeals (table mode's ``redeal``, before the deal is
entered, in the bidding and before the first trick), so the cases are a
table over all seven: who deals after a misdeal, off and on.
"""

import pytest

from euchre import Game, Rules, IllegalAction, log
from euchre.hand import REDEAL, THROWN_IN
from euchre.morevariants import NAMES as MORE
from euchre.rules import VARIANTS, variant_names

ALL = list(variant_names()) + list(MORE)

# variant, players, events before the misdeal (dealer 1; "" none), the
# dealer after it with the option off (same dealer) and on (to the left)
CASES = [
    ("classic", 4, "", 1, 2),
    ("classic", 4, "up H|pass|pass", 1, 2),
    ("classic", 4, "up H|order", 1, 2),
    ("five", 5, "up H|pass", 1, 2),
    ("callpartner", 5, "up H|pass|pass|pass", 1, 2),
    ("ultimate", 4, "up H", 1, 2),
    ("three", 3, "up H|pass|pass|pass", 1, 2),
    ("six", 6, "up H|pass", 1, 2),
    ("six", 6, "", 1, 2),
    ("two", 2, "up H|pass", 1, 0),   # two players: left of seat 1 is seat 0
]


def _game(variant, on, events, dealer=1):
    g = Game(Rules(variant, misdeal_passes=True) if on else Rules(variant), dealer=dealer)
    for e in events.split("|") if events else ():
        g.apply(e)
    return g


def test_every_variant_has_misdeals_and_the_option():
    assert sorted(ALL) == sorted(list(VARIANTS) + list(MORE))
    for v in ALL:
        g = _game(v, True, "")
        assert "redeal" in g.legal_actions(), v
        assert Rules(v, misdeal_passes=True).to_dict()["options"]["misdeal_passes"] is True


@pytest.mark.parametrize("variant,n,events,off,on", CASES)
def test_who_deals_after_a_misdeal(variant, n, events, off, on):
    for opt, dealer, result in ((False, off, REDEAL), (True, on, THROWN_IN)):
        g = _game(variant, opt, events)
        assert "redeal" in g.legal_actions(), (variant, events)
        g.apply("redeal")
        h = g.last_hand
        assert (h.outcome, h.result, g.dealer, g.hand_no) == ("misdeal", result, dealer, 2), (variant, opt)
        assert g.scores == [0] * len(g.scores)
        assert g.hand.dealer == dealer


@pytest.mark.parametrize("variant", ALL)
def test_off_is_the_old_rule_and_the_old_log(variant):
    # Off (given or not): the same Rules, the same header as before issue 36.
    assert Rules(variant, misdeal_passes=False) == Rules(variant)
    assert "misdeal_passes" not in Rules(variant, misdeal_passes=False).options
    assert "misdeal_passes" not in Game(Rules(variant)).header()["options"]


def test_bad_values_are_refused_with_the_rule():
    for bad in (1, "on", None):
        with pytest.raises(ValueError, match="misdeal_passes"):
            Rules("classic", misdeal_passes=bad)


def test_ace_no_face_keeps_its_own_rule():
    # 003: ace no face is "redealt" (same dealer) whatever misdeal_passes says.
    g = Game(Rules("classic", ace_no_face=True, misdeal_passes=True), dealer=3)
    g.apply("up H")
    g.apply("acenoface 2")
    assert g.last_hand.result == REDEAL and g.dealer == 3


def test_a_misdeal_in_the_first_trick_and_in_quick_score():
    # (until the first trick is in, as before: CASES has the first trick)
    g = _game("classic", True, "up H|order")
    g.apply("won 2")
    assert "redeal" not in g.legal_actions()
    g = _game("classic", True, "")
    g.apply("quick 0")
    g.undo()
    g.apply("redeal")
    assert g.dealer == 2
    g.apply("quick 0")
    g.apply("quick made")
    assert g.dealer == 3 and g.scores == [1, 0, 1, 0]


def test_undo_gives_the_deal_back():
    g = _game("classic", True, "up H")
    g.apply("redeal")
    assert g.dealer == 2
    g.undo()
    assert g.dealer == 1 and g.hand_no == 1 and g.events() == ["up H"]


def test_the_log_and_checkpoints_replay_it():
    g = _game("five", True, "up H|pass")
    g.apply("redeal")
    g.apply("redeal")
    assert g.dealer == 3
    text = log.dumps(g)
    r = log.loads(text)[0]
    assert (r.dealer, r.hand_no, r.rules) == (3, 3, g.rules)
    s = Game(g.rules, g.players)
    s.restore(g.checkpoint())
    assert (s.dealer, s.hand_no) == (3, 3)
    # the same events without the option: the same dealer throughout
    old = _game("five", False, "up H|pass")
    old.apply("redeal")
    old.apply("redeal")
    assert old.dealer == 1


def test_amending_a_passed_misdeal_keeps_the_later_dealers():
    # On, a misdeal passed the deal as a throw-in does: it may become a
    # played hand and every later hand keeps its dealer. No hand becomes a
    # misdeal (quick score has no misdeal while amending), on or off.
    g = _game("classic", True, "")
    g.apply("redeal")
    g.apply("quick 1")
    g.apply("quick made")
    assert g.amendable() == [1, 2] and g.dealer == 3
    g.apply("amend 1")
    with pytest.raises(IllegalAction, match="quick score"):
        g.apply("redeal")
    g.apply("quick 0")
    g.apply("quick march")
    assert g.scores == [2, 1, 2, 1] and g.dealer == 3 and g.hand_no == 3
    # off: the misdeal stays as it was, as before issue 36
    g = _game("classic", False, "")
    g.apply("redeal")
    with pytest.raises(IllegalAction, match="misdeal"):
        g.apply("amend 1")


def test_card_mode_has_no_misdeal():
    # Card mode deals on the device: nothing to misdeal, the option is inert.
    from euchre import Hand
    from euchre.cardmode import shuffled_deck
    from helpers import Rand
    for v in ALL:
        r = Rules(v, misdeal_passes=True)
        h = Hand(r, 0, True)
        h.deal(shuffled_deck(r, Rand(3).below))
        assert "redeal" not in h.legal_actions(), v


def test_a_club_round_counts_a_passed_misdeal_as_it_counts_a_throw_in():
    # A round counts the hands that passed the deal on (docs/RULES.md).
    for on, dealer, counted in ((False, 0, 0), (True, 1, 1)):
        g = Game(Rules("classic", round_hands=4, misdeal_passes=on))
        g.apply("redeal")
        assert (g.dealer, g.counted) == (dealer, counted)
