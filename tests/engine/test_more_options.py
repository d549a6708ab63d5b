"""The options of issue 36 that came with this file, each from its source
(docs/RULES.md cites them):

- Three-Handed's ``joker``: a 25th (or, with ``min_rank`` 7, a 33rd) card,
  the highest trump [rule6] [kct]; turned up, the dealer names its suit
  (as Classic's, 004).
- Six-Handed's ``joker``: one joker, 33 cards [ref6b: "sevens and eights
  are added to make 33 cards"], beside ``jokers`` (both, 34); not both.
- Classic's and Six-Handed's ``lone_euchre_4``: a euchred lone maker gives
  the defenders 4, not 2 ([Laws] law 3; 003 says 2, the default).
- Two-Handed's ``same_dealer``: when both pass twice the same dealer deals
  again [24-card two: "deal may stay with the same dealer or may switch to
  the other player"]; Keller's rule (the other player deals) stays the
  default.

Each is a later option (euchre.rules LATER): absent from the log while off.
The scoring tables (tests/engine/cases) hold their scored hands; this file
the rest: decks, refusals, the deal that follows, card mode, quick score,
the log.
"""

import pytest

from euchre import Game, IllegalAction, Rules
from euchre.cards import HIGH_JOKER
from euchre import log

from test_scoring import card_hand

ALL_PASS_TWO = ["up H", "pass", "pass", "pass", "pass"]


@pytest.mark.parametrize("variant, opts, cards, kitty", [
    ("three", {"joker": True}, 25, 10),
    ("three", {"joker": True, "min_rank": 7}, 33, 18),
    ("six", {"joker": True}, 33, 3),
    ("six", {"jokers": True}, 34, 4),
])
def test_a_joker_is_the_highest_trump(variant, opts, cards, kitty):
    r = Rules(variant, **opts)
    assert (len(r.deck), r.kitty) == (cards, kitty)
    assert HIGH_JOKER in r.deck
    for trump in range(4):
        assert r.trump_order(trump)[0] == HIGH_JOKER
    assert Rules(variant).options.get("joker") is None   # off: not in the log
    assert HIGH_JOKER not in Rules(variant).deck


def test_six_handed_takes_one_joker_or_both_not_the_two_options():
    with pytest.raises(ValueError) as e:
        Rules("six", joker=True, jokers=True)
    assert "joker" in str(e.value) and "jokers" in str(e.value) and "choose one" in str(e.value)


@pytest.mark.parametrize("variant, opt", [("five", "joker"), ("two", "lone_euchre_4"), ("classic", "same_dealer"),
                                          ("ultimate", "joker"), ("three", "lone_euchre_4")])
def test_a_variant_refuses_an_option_it_has_not(variant, opt):
    with pytest.raises(ValueError) as e:
        Rules(variant, **{opt: True})
    assert "has no option %r" % opt in str(e.value)


def test_three_handed_joker_card_mode_the_dealer_names_its_suit():
    # The joker turned up: the dealer names its suit first, then bidding as
    # usual; the joker, now the dealer's, beats the right bower.
    h = card_hand("three", ["9H TS QS KS AS", "JS 9C TC QC KC", "9D TD QD KD AD"], "HJ",
                  [], {"joker": True})
    assert [a for a in h.legal_actions() if a.startswith("name")] == ["name C", "name D", "name H", "name S"]
    h.apply_action("name S")
    h.apply_action("order")        # seat 1 orders: the dealer takes the joker
    assert (h.trump, h.maker) == (3, 1)
    h.apply_action("discard 9H")
    assert HIGH_JOKER in h.play.hands[0]
    h.apply_action("JS")      # seat 1 leads the right bower
    h.apply_action("9D")
    h.apply_action("HJ")      # the dealer: the joker
    assert h.leader == 0 and h.tricks[0] == 1


def test_lone_euchre_4_quick_score_and_card_mode():
    g = Game(Rules("classic", lone_euchre_4=True), dealer=0)
    g.apply("quick 1")
    g.apply("quick euchred alone")
    assert g.last_hand.points == [4, 0, 4, 0]
    g = Game(Rules("classic"), dealer=0)
    g.apply("quick 1")
    g.apply("quick euchred alone")
    assert g.last_hand.points == [2, 0, 2, 0]     # 003: "still 2 points"
    # Card mode: seat 1 orders hearts alone on nothing and takes no trick.
    h = card_hand("classic", ["JH JD AH KH QH", "9C TC 9S TS 9D", "TD QD KD AD AC", "KC QC JC TH QS"],
                  "9H JS KS AS", ["order alone"], {"lone_euchre_4": True})
    h.apply_action("discard QH")
    while not h.is_terminal():
        h.apply_action(h.legal_actions()[0])
    assert (h.maker, h.alone, h.maker_tricks()) == (1, 1, 0)
    assert (h.points, h.outcome) == ([4, 0, 4, 0], "euchred")


def test_two_handed_same_dealer_deals_again_after_both_pass_twice():
    g = Game(Rules("two", same_dealer=True), dealer=0)
    for e in ALL_PASS_TWO:
        g.apply(e)
    assert g.last_hand.outcome == "all_passed" and g.scores == [0, 0]
    assert g.hand.dealer == 0
    # Keller, the default: the former non-dealer deals.
    g = Game(Rules("two"), dealer=0)
    for e in ALL_PASS_TWO:
        g.apply(e)
    assert g.hand.dealer == 1
    assert "same_dealer" not in Rules("two").options


def test_same_dealer_quick_score_and_card_mode():
    g = Game(Rules("two", same_dealer=True), dealer=1)
    g.apply("quick none")
    assert g.last_hand.outcome == "all_passed" and g.hand.dealer == 1
    # Stick the dealer: nobody is no input (the dealer must name trump).
    g = Game(Rules("two", same_dealer=True, std=True), dealer=0)
    with pytest.raises(IllegalAction):
        g.apply("quick none")
    from euchre.cardmode import shuffled_deck
    g = Game(Rules("two", same_dealer=True), dealer=0, cards=True)
    g.deal(shuffled_deck(g.rules, lambda n: 0))
    assert g.legal_actions() == ["pass", "order"]
    for _ in range(4):
        g.apply("pass")
    assert g.last_hand.outcome == "all_passed" and g.hand.dealer == 0


def test_same_dealer_survives_the_log_undo_and_amending_refuses_the_redeal():
    g = Game(Rules("two", same_dealer=True), ["Ann", "Bob"], dealer=0)
    for e in ALL_PASS_TWO + ["up S", "order", "tricks 5"]:
        g.apply(e)
    assert g.scores == [0, 2] and g.hand.dealer == 1
    r = log.loads(log.dumps(g))[0]
    assert r.scores == [0, 2] and r.hand.dealer == 1
    assert r.rules.options["same_dealer"] is True
    s = Game(g.rules, g.players)
    s.restore(g.checkpoint())
    assert s.hand.dealer == 1 and s.scores == [0, 2]
    # (an all-pass redeal is no finished hand to amend, as a misdeal)
    with pytest.raises(IllegalAction) as e:
        g.apply("amend 1")
    assert "dealt again" in str(e.value)
    g.undo()
    g.undo()
    g.undo()
    g.undo()      # back into the redealt hand's bidding
    assert g.hand.dealer == 0

