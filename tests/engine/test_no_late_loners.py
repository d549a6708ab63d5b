"""Option ``no_late_loners`` (issue 36), for the partnership games with lone
hands (Classic, Six-Handed): a side within 2 points of the target may not
go alone -- "NO LONERS ON 8 OR 9" in the league games of users.igl.net's
Euchre Ranch (docs/RULES.md cites the page), played to 10. Its partners
still make trump with each other; the other side may go alone. Off (the
default) anyone may, as before, and nothing of it is in the log.
"""

import pytest

from euchre import Game, IllegalAction, Rules
from euchre.later import barred_seats

MARCH_NS = ["quick 0", "quick march"]       # N/S (seats 0 and 2) take all five: 2


def _classic(scores_ns, **kw):
    # A Classic game where N/S have ``scores_ns`` (marches and a made hand).
    g = Game(Rules("classic", no_late_loners=True, **kw), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    for _ in range(scores_ns // 2):
        for e in MARCH_NS:
            g.apply(e)
    if scores_ns % 2:
        g.apply("quick 0")
        g.apply("quick made")
    assert g.scores[0] == scores_ns
    return g


def _refused(g, text):
    before = (g.events(), g.checkpoint())
    with pytest.raises(IllegalAction) as e:
        g.apply(text)
    assert (g.events(), g.checkpoint()) == before
    return str(e.value)


def _to_seat(g, seat):
    # Round 1 of a full entry, passing until ``seat`` is to bid.
    g.apply("up H")
    while g.hand.turn != seat:
        g.apply("pass")


@pytest.mark.parametrize("ns, barred", [(7, False), (8, True), (9, True)])
def test_a_side_at_8_or_9_may_not_order_alone(ns, barred):
    g = _classic(ns)
    seat = next(s for s in (0, 2) if s != g.dealer and (s - g.dealer) % 4 != 0)
    _to_seat(g, seat)
    if barred:
        assert "order alone" not in g.legal_actions() and "order" in g.legal_actions()
        why = _refused(g, "order alone")
        assert "no loners at 8 or 9" in why and "option no_late_loners" in why, why
        g.apply("order")
        assert not g.hand.alone
    else:
        g.apply("order alone")
        assert g.hand.alone


def test_the_other_side_may_still_go_alone_and_make_it():
    g = _classic(8)
    seat = next(s for s in (1, 3) if s != g.dealer)
    _to_seat(g, seat)
    g.apply("order alone")
    assert g.hand.alone and g.hand.maker == seat


def test_nor_in_round_2_nor_in_quick_score():
    g = _classic(9)
    g.apply("up H")
    for _ in range(4):
        g.apply("pass")
    while g.hand.turn not in (0, 2):
        g.apply("pass")
    assert "no loners at 8 or 9" in _refused(g, "call S alone")
    g = _classic(8)
    g.apply("quick 0")
    assert "no loners at 8 or 9" in _refused(g, "quick march alone")
    g.apply("quick march")
    assert g.scores[0] == 10 and g.result == ((0, 2), "win")


def test_off_anyone_may_and_the_log_holds_nothing_of_it():
    g = Game(Rules("classic"), dealer=0)
    for _ in range(4):
        for e in MARCH_NS:
            g.apply(e)
    g.apply("quick 0")
    g.apply("quick march alone")
    assert g.scores[0] == 12
    assert "no_late_loners" not in Rules("classic").options
    assert Rules("classic", no_late_loners=False) == Rules("classic")
    assert Rules("classic", no_late_loners=True).options["no_late_loners"] is True


def test_canadian_dealers_partner_at_8_orders_with_the_dealer():
    # 004's Canadian loner: the dealer's partner who orders up must go
    # alone; at 8 that seat may not, so it orders up with its partner.
    g = _classic(8, canadian=True)
    partner = (g.dealer + 2) % 4
    assert partner in (0, 2)
    _to_seat(g, partner)
    assert "order" in g.legal_actions() and "order alone" not in g.legal_actions()


def test_the_target_sets_the_line_and_six_handed_has_it():
    r = Rules("classic", no_late_loners=True, winning_score=15)
    assert barred_seats(r, [12, 0, 12, 0], 15) == 0
    assert barred_seats(r, [13, 0, 13, 0], 15) == 0b0101
    six = Rules("six", no_late_loners=True)
    assert barred_seats(six, [8, 9, 8, 9, 8, 9], 10) == 0b111111
    assert barred_seats(six, [0, 8, 0, 8, 0, 8], 10) == 0b101010
    g = Game(six, dealer=0)
    for _ in range(4):
        g.apply("quick 1")
        g.apply("quick march")
    assert g.scores[1] == 8
    g.apply("quick 1")
    assert "no loners at 8 or 9" in _refused(g, "quick march alone")
    for v in ("five", "callpartner", "ultimate", "three", "two"):
        with pytest.raises(ValueError, match="no option 'no_late_loners'"):
            Rules(v, no_late_loners=True)


def test_a_checkpoint_and_an_amendment_keep_the_bar():
    g = _classic(8)
    r = Game(g.rules, g.players, dealer=0)
    r.restore(g.checkpoint())
    r.apply("quick 0")
    assert "no loners at 8 or 9" in _refused(r, "quick march alone")
    # Hand 5 made at 8 (9 now): amended, it still may not have gone alone;
    # hand 1, at 0, may.
    g.apply("quick 0")
    g.apply("quick made")
    assert g.scores[0] == 9
    g.apply("amend 5")
    g.apply("quick 0")
    assert "no loners at 8 or 9" in _refused(g, "quick made alone")
    g.apply("quick march")
    assert g.result == ((0, 2), "win")
    g.apply("amend 1")
    g.apply("quick 0")
    g.apply("quick march alone")
    assert g.last_amend[2] == [4, 0, 4, 0] and g.scores[0] == 10     # (4 6 8 10: over after hand 4)
