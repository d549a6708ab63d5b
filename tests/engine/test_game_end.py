# portable: runs under MicroPython
"""Game end, variant by variant (RULES.md), with scores built by playing real
table-mode hands through ``Game.apply``.

Seeds: 000 Five-Handed, 001 Call-Your-Partner, 002 Ultimate (+ common rules),
003 Classic house rules, 004 Classic book chapter (../shared/seeds/).
"""

from euchre import Game, Rules, IllegalAction


def bid(g, maker, upcard="C"):
    """Events of a first-round bid: maker orders the upcard."""
    n = g.rules.num_players
    return ["up " + upcard] + ["pass"] * ((maker - g.dealer - 1) % n) + ["order"]


def apply_all(g, events):
    for e in events:
        g.apply(e)
    return g.last_hand


def team_hand(g, maker, tricks, alone=False):
    """Classic / Ultimate: ``maker`` orders hearts; the makers take ``tricks``."""
    ev = bid(g, maker, "H")
    if alone:
        ev[-1] = "order alone"
    return apply_all(g, ev + ["tricks %d" % tricks])


def team_renege(g, maker, offender):
    return apply_all(g, bid(g, maker, "H") + ["renege %d" % offender])


def called_hand(g, maker, partner, winners):
    """Five-Handed / Call-Your-Partner: ``maker`` orders clubs and calls the
    AH, held by ``partner`` (a seat; None: the maker goes alone; "none": the
    AH is never played). ``winners``: the seat that took each trick."""
    ev = bid(g, maker, "C")
    if partner is None:
        ev.append("alone")
    else:
        ev.append("partner AH")
        if partner != "none":
            ev.append("reveal %d" % partner)
    ev += ["won %d" % w for w in winners]
    if partner == "none":
        ev.append("reveal none")
    return apply_all(g, ev)


def march(g, maker, partner):
    """Maker and partner take all five, each at least one: 2 each."""
    return called_hand(g, maker, partner, [maker, partner, maker, maker, partner])


def made(g, maker, partner, d1, d2):
    """Maker 2 tricks, partner 1, defenders d1 and d2 one each: 1 each."""
    return called_hand(g, maker, partner, [maker, partner, d1, maker, d2])


def assert_over(g, winners, kind):
    assert g.result == (winners, kind), (g.result, g.scores)
    assert g.is_terminal()
    assert g.legal_actions() == []
    n = len(g.events())
    for e in ("up H", "pass", "redeal"):
        try:
            g.apply(e)
            assert False, "%s accepted after the game ended" % e
        except IllegalAction as ex:
            assert "game is over" in str(ex), str(ex)
    assert len(g.events()) == n


# ----- Classic --------------------------------------------------------------

def test_classic_first_side_to_10_wins():
    # 003: "The first team to amass ten points in this fashion wins the game."
    g = Game(Rules("classic"))
    for _i in range(4):
        team_hand(g, 1, 5)
        assert g.result is None
    assert g.scores == [0, 8, 0, 8]
    team_hand(g, 0, 3)            # the other side scores meanwhile
    team_hand(g, 3, 4)
    assert g.scores == [1, 9, 1, 9] and g.result is None
    team_hand(g, 1, 3)
    assert g.scores == [1, 10, 1, 10]
    assert_over(g, (1, 3), "win")


def test_classic_win_by_euchre_and_overshoot():
    g = Game(Rules("classic"))
    for _i in range(4):
        team_hand(g, 0, 5)        # side 0: 8
    team_hand(g, 3, 3, alone=True)  # side 1: 1
    assert g.scores == [8, 1, 8, 1] and g.result is None
    team_hand(g, 1, 2, alone=True)  # side 1 euchred on a loner: side 0 +2
    assert g.scores == [10, 1, 10, 1]
    assert_over(g, (0, 2), "win")
    g = Game(Rules("classic"))
    for _i in range(4):
        team_hand(g, 2, 5)
    team_hand(g, 1, 3)
    team_hand(g, 1, 3)
    team_hand(g, 2, 3)            # side 0: 9
    assert g.scores == [9, 2, 9, 2] and g.result is None
    team_hand(g, 0, 5, alone=True)  # 13
    assert g.scores == [13, 2, 13, 2]
    assert_over(g, (0, 2), "win")


def test_classic_winning_score_5():
    # 004: "You can also play to 5 points for a shorter game."
    for target, hands in ((5, 3), (10, 5), (7, 4), (1, 1)):
        g = Game(Rules("classic", winning_score=target))
        for _i in range(hands - 1):
            team_hand(g, 1, 5)
            assert g.result is None, (target, g.scores)
        team_hand(g, 3, 5)
        assert g.scores[1] >= target
        assert_over(g, (1, 3), "win")


def test_classic_game_end_after_renege_hand():
    # RULES.md: "The game-end check runs after every scored hand, renege
    # hands included."
    g = Game(Rules("classic"))
    for _i in range(4):
        team_hand(g, 0, 5)
    assert g.scores == [8, 0, 8, 0] and g.result is None
    h = team_renege(g, 0, 1)      # seat 1 reneges: side 0 +2
    assert h.points == [2, 0, 2, 0]
    assert_over(g, (0, 2), "win")
    # 4 for a renege against a lone hand, from 6.
    g = Game(Rules("classic"))
    for _i in range(3):
        team_hand(g, 1, 5)
    apply_all(g, bid(g, 3, "H")[:-1] + ["order alone", "renege 2"])
    assert g.scores == [0, 10, 0, 10]
    assert_over(g, (1, 3), "win")


def test_classic_renege_deduct_does_not_end_the_game():
    g = Game(Rules("classic", renege_deduct=True))
    for _i in range(4):
        team_hand(g, 0, 5)
    team_renege(g, 0, 1)
    assert g.scores == [8, -2, 8, -2]
    assert g.result is None
    team_hand(g, 2, 5)
    assert_over(g, (0, 2), "win")


def test_classic_thrown_in_hands_do_not_score():
    g = Game(Rules("classic", winning_score=1))
    apply_all(g, ["up H"] + ["pass"] * 8)
    assert g.last_hand.result == 1 and g.result is None and g.dealer == 1
    apply_all(g, ["redeal"])
    assert g.last_hand.result == 2 and g.result is None and g.dealer == 1
    team_hand(g, 2, 3)
    assert_over(g, (0, 2), "win")


# ----- Five-Handed ----------------------------------------------------------

def test_five_handed_tie_at_10_continues():
    # 000: "The game ends when a player reaches ten or more points while
    # holding at least a one point advantage over all other competitors."
    g = Game(Rules("five"))
    for _i in range(5):
        march(g, 1, 2)
        assert g.result is None
    assert g.scores == [0, 10, 10, 0, 0]
    assert g.result is None
    assert g.legal_actions()[:4] == ["up C", "up D", "up H", "up S"]
    made(g, 2, 4, 0, 1)           # seat 1 takes a defender's trick: no points
    assert g.scores == [0, 10, 11, 0, 1]
    assert_over(g, (2,), "win")


def test_five_handed_11_vs_10_wins():
    g = Game(Rules("five"))
    for _i in range(4):
        march(g, 1, 2)
    made(g, 1, 3, 0, 4)
    assert g.scores == [0, 9, 8, 1, 0] and g.result is None
    march(g, 2, 1)
    assert g.scores == [0, 11, 10, 1, 0]
    assert_over(g, (1,), "win")


def test_five_handed_nobody_at_10_no_end():
    g = Game(Rules("five"))
    for _i in range(4):
        march(g, 3, 4)
    made(g, 3, 0, 1, 2)
    assert g.scores == [1, 0, 0, 9, 8] and g.result is None


def test_five_handed_leader_must_reach_10():
    # 9 vs 0: a lead, but not 10 yet; the renege hand is checked too.
    g = Game(Rules("five"))
    for _i in range(4):
        march(g, 0, 1)
    made(g, 0, 2, 3, 4)
    assert g.scores == [9, 8, 1, 0, 0] and g.result is None
    apply_all(g, bid(g, 0) + ["partner AH", "renege 1"])
    assert g.scores == [9, 6, 1, 0, 0] and g.result is None
    called_hand(g, 0, None, [0, 0, 0, 0, 0])   # lone march: +4
    assert g.scores == [13, 6, 1, 0, 0]
    assert_over(g, (0,), "win")


def test_five_handed_renege_hand_can_end_the_game():
    # RULES.md: "The game-end check runs after every scored hand, renege
    # hands included." 10 vs 10 goes on; the co-leader's renege (-2) leaves
    # seat 1 with 10 and a lead.
    g = Game(Rules("five"))
    for _i in range(5):
        march(g, 1, 2)
    assert g.scores == [0, 10, 10, 0, 0] and g.result is None
    h = apply_all(g, bid(g, 3) + ["partner AH", "renege 2"])
    assert h.points == [0, 0, -2, 0, 0]
    assert g.scores == [0, 10, 8, 0, 0]
    assert_over(g, (1,), "win")


def test_callpartner_play_on_renege_hand_can_end_the_game():
    g = Game(Rules("callpartner", play_on=True))
    for _i in range(5):
        march(g, 1, 2)
    assert g.result is None
    apply_all(g, bid(g, 0) + ["partner AH", "renege 1"])   # -2, nobody else scores
    assert g.scores == [0, 8, 10, 0, 0]
    assert_over(g, (2,), "win")


def test_five_handed_alternate_ending_single_reacher():
    # 000: "The game ends when a player or players reach ten or more points."
    g = Game(Rules("five", alternate_ending=True))
    for _i in range(4):
        march(g, 1, 2)
    march(g, 1, 3)
    assert g.scores == [0, 10, 8, 2, 0]
    assert_over(g, (1,), "win")


def test_five_handed_alternate_ending_lower_start_wins():
    # 000: "Should multiple players reach ten or more points simultaneously,
    # the winner is the player with the lowest score at the start of the hand."
    for alternate, result in ((True, ((2,), "win")), (False, ((1,), "win"))):
        g = Game(Rules("five", alternate_ending=alternate))
        for _i in range(4):
            march(g, 1, 2)
        made(g, 1, 3, 0, 4)
        assert g.scores == [0, 9, 8, 1, 0] and g.result is None
        march(g, 2, 1)
        assert g.scores == [0, 11, 10, 1, 0]
        assert g.result == result, (alternate, g.result)


def test_five_handed_alternate_ending_tie_is_a_draw():
    # 000: "If a single winner can not be selected, the game is a draw
    # amongst those players with ten or more points."
    g = Game(Rules("five", alternate_ending=True))
    for _i in range(5):
        march(g, 1, 2)
    assert g.scores == [0, 10, 10, 0, 0]
    assert_over(g, (1, 2), "draw")


def test_five_handed_alternate_ending_draw_includes_every_reacher():
    # Three reach 10 in one hand: two started it on 8, one on 9. The two on
    # 8 tie, so the draw is among all three players with 10 or more.
    g = Game(Rules("five", alternate_ending=True))
    for _i in range(4):
        # Seat 1 alone, euchred: seats 0, 2, 3, 4 take a trick each, +2.
        called_hand(g, 1, None, [0, 2, 3, 4, 1])
    assert g.scores == [8, 0, 8, 8, 8]
    apply_all(g, bid(g, 1) + ["partner AH", "renege 4"])
    made(g, 3, 1, 0, 2)           # 0 and 2 take defenders' tricks: no points
    assert g.scores == [8, 1, 8, 9, 6] and g.result is None
    called_hand(g, 1, None, [0, 2, 3, 4, 1])
    assert g.scores == [10, 1, 10, 11, 8]
    assert_over(g, (0, 2, 3), "draw")


def test_five_handed_winning_score_option():
    g = Game(Rules("five", winning_score=4))
    march(g, 1, 2)
    assert g.result is None
    march(g, 1, 2)                # 4 vs 4: no lead
    assert g.scores == [0, 4, 4, 0, 0] and g.result is None
    made(g, 3, 1, 0, 2)           # seat 1 takes the partner's trick: 5
    assert g.scores == [0, 5, 4, 1, 0]
    assert_over(g, (1,), "win")


# ----- Call-Your-Partner ----------------------------------------------------

def test_callpartner_highest_wins():
    # RULES.md: "The game ends after a hand in which anyone reaches the
    # target; the highest score wins".
    g = Game(Rules("callpartner"))
    for _i in range(4):
        march(g, 1, 2)
    made(g, 1, 3, 0, 4)
    assert g.scores == [0, 9, 8, 1, 0] and g.result is None
    march(g, 2, 1)
    assert g.scores == [0, 11, 10, 1, 0]
    assert_over(g, (1,), "win")


def test_callpartner_single_reacher_wins_without_a_lead():
    # A partner with no trick still scores (RULES.md) and takes seat 4 to 2.
    g = Game(Rules("callpartner"))
    for _i in range(4):
        march(g, 0, 3)
    assert g.scores == [8, 0, 0, 8, 0]
    called_hand(g, 0, 4, [0, 0, 0, 0, 0])   # partner 4 took nothing, still +2
    assert g.scores == [10, 0, 0, 8, 2]
    assert_over(g, (0,), "win")


def test_callpartner_tie_for_highest_shares_the_win():
    # RULES.md: "players tied for the highest share the win."
    g = Game(Rules("callpartner"))
    for _i in range(5):
        march(g, 1, 2)
    assert g.scores == [0, 10, 10, 0, 0]
    assert_over(g, (1, 2), "shared")


def test_callpartner_tie_among_four_reachers():
    g = Game(Rules("callpartner"))
    for _i in range(4):
        called_hand(g, 1, None, [1, 0, 0, 0, 0])   # lone caller euchred: 4 x +2
        assert g.result is None
    assert g.scores == [8, 0, 8, 8, 8]
    called_hand(g, 1, "none", [0, 1, 2, 3, 0])     # buried card, euchred
    assert g.scores == [10, 0, 10, 10, 10]
    assert_over(g, (0, 2, 3, 4), "shared")


def test_callpartner_highest_among_reachers():
    g = Game(Rules("callpartner"))
    for _i in range(4):
        called_hand(g, 1, None, [1, 0, 0, 0, 0])
    called_hand(g, 4, "none", [4, 0, 4, 0, 4])     # buried card, made 3: +1
    assert g.scores == [8, 0, 8, 8, 9] and g.result is None
    called_hand(g, 1, "none", [0, 1, 2, 3, 0])     # euchred: 0, 2, 3, 4 +2
    assert g.scores == [10, 0, 10, 10, 11]
    assert_over(g, (4,), "win")


def test_callpartner_play_on_needs_a_lead():
    # RULES.md: "*Option*: play on until a single player leads (as
    # Five-Handed)."
    g = Game(Rules("callpartner", play_on=True))
    for _i in range(5):
        march(g, 1, 2)
    assert g.scores == [0, 10, 10, 0, 0]
    assert g.result is None
    made(g, 4, 2, 0, 1)
    assert g.scores == [0, 10, 11, 0, 1]
    assert_over(g, (2,), "win")


def test_callpartner_winning_score_option():
    g = Game(Rules("callpartner", winning_score=5))
    called_hand(g, 3, None, [3, 3, 3, 3, 3])
    assert g.scores == [0, 0, 0, 5, 0]
    assert_over(g, (3,), "win")
    g = Game(Rules("callpartner", winning_score=6))
    called_hand(g, 3, None, [3, 3, 3, 3, 3])
    assert g.result is None


# ----- Ultimate -------------------------------------------------------------

def test_ultimate_first_side_to_35():
    # 002: "First team to 35 points wins."
    g = Game(Rules("ultimate"))
    for _i in range(4):
        team_hand(g, 1, 11)       # 7 a hand
        assert g.result is None
    assert g.scores == [0, 28, 0, 28]
    team_hand(g, 0, 6)
    team_hand(g, 2, 6)
    team_hand(g, 1, 5)            # euchred: side 0 +7
    assert g.scores == [17, 28, 17, 28] and g.result is None
    team_hand(g, 3, 6)
    assert g.scores == [17, 33, 17, 33] and g.result is None
    team_renege(g, 1, 2)          # 7 to the other side: 40
    assert g.scores == [17, 40, 17, 40]
    assert_over(g, (1, 3), "win")


def test_ultimate_exactly_35_by_made_hands():
    g = Game(Rules("ultimate"))
    for _i in range(6):
        team_hand(g, 2, 8)
        assert g.result is None
    assert g.scores == [30, 0, 30, 0]
    team_hand(g, 0, 10)
    assert g.scores == [35, 0, 35, 0]
    assert_over(g, (0, 2), "win")


def test_ultimate_winning_score_option():
    g = Game(Rules("ultimate", winning_score=10))
    team_hand(g, 1, 6)
    assert g.result is None
    team_hand(g, 1, 6)
    assert_over(g, (1, 3), "win")
