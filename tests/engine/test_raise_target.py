"""Three-Handed's option ``raise_target`` (issue 36): when two or more
players are at or over the target after a hand, the target goes up by 10
and play goes on. searchamateur.com, *Euchre and Ecarte* (docs/RULES.md
cites the page): "If both players have reached 10 points at the end of a
round, the goal is extended by ten points." It writes it for two players,
where only one scores a hand; in Bower only Three-Handed can have two reach
the target together (both defenders score a euchre), so the option is
Three-Handed's. Off (the default) a tie shares the win; option play_on
plays on to a single leader; the two are refused together.
"""

import pytest

from euchre import Game, IllegalAction, Rules, log

from test_more_variants import bid, play_hands

EUCHRED_1 = bid(3, 0, 1) + ["tricks 0"]     # dealer 0: seat 1 euchred: seats 0 and 2 score 2


def _game(**kw):
    return Game(Rules("three", winning_score=4, raise_target=True, **kw))


def _tied():
    # 2 0 2, then 4 0 4: both defenders reach 4 together
    return play_hands(_game(), [EUCHRED_1, bid(3, 1, 1) + ["tricks 2"]])


# Each case: the hands after _tied(), each (maker, how it went) and bid by
# whoever deals then, and after them the scores, the target and the result.
CASES = [
    ("one more point alone is not enough now", [(0, ["tricks 3"])], [5, 0, 4], 14, None),
    ("a renege cannot bring the target down", [(0, ["won 0", "renege 2"])], [4, 0, 2], 14, None),
    ("alone at the raised target wins", [(0, ["tricks 5"])] * 3 + [(0, ["tricks 3"])], [14, 0, 4], 14,
     ((0,), "win")),
    ("two at the raised target raise it again", [(1, ["tricks 0"])] * 5, [14, 0, 14], 24, None),
]


def test_off_a_tie_shares_the_win_and_the_option_is_not_in_the_log():
    g = play_hands(Game(Rules("three", winning_score=4)), [EUCHRED_1, bid(3, 1, 1) + ["tricks 2"]])
    assert g.result == ((0, 2), "shared") and g.target == 0     # (0: the rules' winning_score; no field)
    assert "raise_target" not in Rules("three").options
    assert Rules("three", raise_target=False).to_dict() == Rules("three").to_dict()
    assert Rules("three", raise_target=True).options["raise_target"] is True


def test_two_reaching_the_target_together_raise_it_by_ten_and_play_goes_on():
    g = _tied()
    assert g.scores == [4, 0, 4] and g.target == 14 and g.result is None and not g.is_terminal()
    assert g.legal_actions()


@pytest.mark.parametrize("name, hands, scores, target, result", CASES, ids=[c[0] for c in CASES])
def test_after_the_raise(name, hands, scores, target, result):
    g = _tied()
    for maker, then in hands:
        play_hands(g, [bid(3, g.dealer, maker) + then])
    assert (g.scores, g.target, g.result) == (scores, target, result), name


def test_a_checkpoint_keeps_the_raised_target_and_a_bad_one_is_refused():
    g = _tied()
    ck = g.checkpoint()
    assert ck[-1] == 14
    r = Game(g.rules)
    r.restore(ck)
    assert (r.scores, r.target, r.hand_no, r.dealer) == (g.scores, 14, g.hand_no, g.dealer)
    for e in bid(3, 2, 0) + ["tricks 3"]:
        r.apply(e)
    assert r.result is None and r.scores == [5, 0, 4]
    for bad in (ck[:-1] + [15], ck[:-1] + [-6], ck[:-1] + ["14"], ck[:-1]):
        with pytest.raises(ValueError, match="checkpoint"):
            Game(g.rules).restore(bad)
    # (off, the checkpoint is what it always was)
    plain = play_hands(Game(Rules("three", winning_score=4)), [EUCHRED_1])
    assert len(plain.checkpoint()) == 3 + 3 + 3 + 3


def test_undo_and_a_replayed_log_give_the_target_back():
    g = _tied()
    g.undo()
    assert g.target == 4 and g.scores == [2, 0, 2]
    g.apply("tricks 2")
    assert g.target == 14
    lines = log.dumps(g)
    again, _ = log.loads(lines)
    assert (again.scores, again.target, again.result) == ([4, 0, 4], 14, None)


def test_an_amended_hand_finds_the_target_again():
    g = _tied()
    # hand 2 was made by seat 1 after all: 2 1 2, nobody at 4, the target back at 4
    g.apply("amend 2")
    g.apply("quick 1")
    g.apply("quick made")
    assert (g.scores, g.target, g.result) == ([2, 1, 2], 4, None)
    # ... and euchred again: raised again
    g.apply("amend 2")
    g.apply("quick 1")
    g.apply("quick euchred")
    assert (g.scores, g.target, g.result) == ([4, 0, 4], 14, None)


def test_quick_score_raises_it_as_full_entry_does():
    g = _game()
    for e in ("quick 1", "quick euchred", "quick 1", "quick euchred"):
        g.apply(e)
    assert (g.scores, g.target, g.result) == ([4, 0, 4], 14, None)


def test_refusals_name_the_rule():
    with pytest.raises(ValueError, match="play_on and raise_target"):
        Rules("three", raise_target=True, play_on=True)
    for v in ("classic", "five", "callpartner", "ultimate", "six", "two"):
        with pytest.raises(ValueError, match="no option 'raise_target'"):
            Rules(v, raise_target=True)
    with pytest.raises(ValueError, match="raise_target must be one of"):
        Rules("three", raise_target=1)
    g = _tied()
    with pytest.raises(IllegalAction):
        g.apply("tricks 9")
    assert g.target == 14
