"""Amending a finished hand (issue 25, euchre.amend): ``amend N`` and hand
N's outcome as quick score re-score every later hand and find the game's
end again, exactly as a game entered correctly from the start.

The issue's case, in every variant: a game whose hand 2 went wrong is
amended after hand 5 and must then agree, score by score and end by end,
with a fresh game whose hand 2 was entered right, and go on agreeing to
its end. Then the game's end moving both ways, the rules that refuse an
amendment (each naming its rule, changing nothing), undo, the log's
replay on a fresh game, checkpoints, card mode and a club round's
acceptance.
"""

import random

import pytest

from euchre import Game, Rules, IllegalAction, log
from euchre.hand import SCORED

VARIANTS = [("classic", {}), ("classic", {"std": True, "defend_alone": True}), ("five", {}),
            ("callpartner", {}), ("ultimate", {}), ("three", {}), ("six", {}), ("two", {}),
            ("classic", {"round_hands": 12})]


def _quick_hand(g, rng):
    # A realistic quick hand: somebody makes trump, mostly makes it (the
    # calling variants first name the partner, or alone).
    starts = [e for e in g.legal_actions() if e.startswith("quick ") and e != "quick none"]
    h = [rng.choice(starts)]
    g.apply(h[-1])
    partner = [e for e in g.legal_actions() if e.startswith(("reveal", "alone"))]
    if partner:
        h.append(rng.choice(partner))
        g.apply(h[-1])
    ends = g.legal_actions()
    made = [e for e in ends if e.startswith("quick made") and "notrick" not in e]
    h.append(rng.choice(made) if made and rng.random() < 0.7 else rng.choice(ends))
    g.apply(h[-1])
    return h


def _play(variant, options, hands, amend_at=None, amend=None):
    g = Game(Rules(variant, options))
    for i, h in enumerate(hands):
        if amend_at == i:
            for e in amend:
                g.apply(e)
        if g.result:
            break
        for e in h:
            g.apply(e)
    return g


def _script(variant, options, seed, n=12):
    # ``n`` hands told quick (a game long enough, its end left to chance).
    rng = random.Random(seed)
    g = Game(Rules(variant, dict(options, winning_score=99) if "round_hands" not in options else options))
    hands = []
    for _ in range(n):
        if g.result:
            break
        hands.append(_quick_hand(g, rng))
    return hands


@pytest.mark.parametrize("variant,options", VARIANTS, ids=lambda x: x if isinstance(x, str) else "-".join(x))
def test_hand_2_amended_after_hand_5_agrees_with_a_game_entered_right(variant, options):
    for seed in range(6):
        hands = _script(variant, options, seed)
        right = _script(variant, options, seed + 1000)[1]
        wrong = list(hands)
        good = list(hands)
        good[1] = right
        fixed = _play(variant, options, wrong[:5])
        if fixed.result:
            continue   # (ended before hand 5: nothing to amend after it)
        fixed.apply("amend 2")
        for e in right:
            fixed.apply(e)
        fresh = _play(variant, options, good[:5])
        assert fixed.scores == fresh.scores and fixed.result == fresh.result, (seed, fixed.last_amend)
        assert fixed.hand_no == fresh.hand_no and fixed.dealer == fresh.dealer
        n, old, new, was, now, _, end = fixed.last_amend
        assert (n, now, end) == (2, fresh.scores, fresh.result)
        # and on to the end, hand by hand
        for h in hands[5:]:
            if fresh.result:
                break
            for e in h:
                fixed.apply(e)
                fresh.apply(e)
            assert fixed.scores == fresh.scores and fixed.result == fresh.result


def _classic(hands, winning_score=10):
    g = Game(Rules("classic", winning_score=winning_score), ["Ann", "Bob", "Cy", "Di"])
    for h in hands:
        for e in h:
            g.apply(e)
    return g


MADE_NS = ["quick 0", "quick made"]
MADE_EW = ["quick 1", "quick made"]


def test_the_issues_case_a_loner_not_a_march_in_full_entry():
    # hand 1 entered in full as a march (2); it was a lone march (4)
    g = _classic([["up H", "pass", "order", "tricks 5"], MADE_EW, MADE_NS])
    assert g.scores == [3, 1, 3, 1]
    g.apply("amend 1")
    g.apply("quick 0")
    g.apply("quick march alone")
    assert g.scores == [5, 1, 5, 1] and g.result is None
    assert g.last_amend == (1, [2, 0, 2, 0], [4, 0, 4, 0], [3, 1, 3, 1], [5, 1, 5, 1], None, None)
    assert g.events()[-3:] == ["amend 1", "quick 0", "quick march alone"]
    assert g.hand_no == 4 and g.dealer == 3


def test_an_amendment_can_end_the_game_earlier_and_later_hands_then_count_for_nothing():
    # N/S 8 after three hands, E/W take hand 4; a march in hand 3 was a loner
    g = _classic([["quick 0", "quick march alone"], ["quick 0", "quick march"], ["quick 0", "quick march"],
                  MADE_EW, MADE_EW])
    assert g.scores == [8, 2, 8, 2] and not g.result
    g.apply("amend 2")
    g.apply("quick 0")
    g.apply("quick march alone")
    # 4 + 4 = 8 after hand 2, 10 after hand 3: over there
    assert g.result == ((0, 2), "win") and g.scores == [10, 0, 10, 0]
    assert g.is_terminal() and g.legal_actions() == [] and g.hand_no == 4
    assert g.last_amend[5:] == (None, ((0, 2), "win"))
    with pytest.raises(IllegalAction, match="over"):
        g.apply("quick 1")
    # amended back, it goes on after the last hand played (hand 6 next)
    g.apply("amend 2")
    g.apply("quick 0")
    g.apply("quick march")
    assert g.result is None and g.scores == [8, 2, 8, 2] and g.hand_no == 6 and g.dealer == 1


def test_an_amendment_at_the_end_can_let_the_game_go_on():
    g = _classic([["quick 0", "quick march alone"], ["quick 0", "quick march alone"], MADE_EW,
                  ["quick 0", "quick march"]])
    assert g.result == ((0, 2), "win") and g.scores == [10, 1, 10, 1]
    assert g.amendable() == [1, 2, 3, 4]
    g.apply("amend 4")
    g.apply("quick 0")
    g.apply("quick made")
    assert g.result is None and g.scores == [9, 1, 9, 1] and g.hand_no == 5 and g.dealer == 0
    g.apply("quick 0")
    g.apply("quick made")
    assert g.result == ((0, 2), "win") and g.hand_no == 6


def _unchanged(g, text):
    before = (g.events(), g.checkpoint(), g.scores, g.result, g.amendable())
    with pytest.raises(IllegalAction) as e:
        g.apply(text)
    assert (g.events(), g.checkpoint(), g.scores, g.result, g.amendable()) == before
    return str(e.value)


def test_refusals_name_their_rule_and_change_nothing():
    g = _classic([MADE_NS, ["redeal"], MADE_EW])
    assert g.amendable() == [1, 3]
    assert "misdeal" in _unchanged(g, "amend 2")
    assert "no finished hand 4" in _unchanged(g, "amend 4")
    g.apply("up H")
    assert g.amendable() == []
    assert "between hands" in _unchanged(g, "amend 1")
    g.undo()
    g.apply("amend 1")
    assert "quick score" in _unchanged(g, "up H")
    assert "quick score" in _unchanged(g, "redeal")
    assert g.amendable() == []
    g.apply("quick 1")
    g.undo()
    g.undo()
    assert g.amending is None and g.amendable() == [1, 3] and g.events()[-1] == "quick made"


def test_a_throw_in_may_become_a_played_hand_and_the_deal_stays():
    g = _classic([["quick none"], MADE_EW])
    assert g.dealer == 2 and g.scores == [0, 1, 0, 1]
    g.apply("amend 1")
    g.apply("quick 0")
    g.apply("quick march")
    assert g.scores == [2, 1, 2, 1] and g.dealer == 2 and g.hand_no == 3


@pytest.mark.parametrize("variant,options", VARIANTS[:5], ids=lambda x: x if isinstance(x, str) else "-")
def test_the_log_replays_to_the_same_game_and_checkpoints_resume(variant, options):
    hands = _script(variant, options, 7)
    g = _play(variant, options, hands[:4])
    if g.result:
        return
    g.apply("amend 3")
    for e in _script(variant, options, 8)[0]:
        g.apply(e)
    for e in hands[4]:
        g.apply(e)
    text = log.dumps(g)
    r = log.loads(text)[0]
    assert (r.scores, r.result, r.hand_no, r.checkpoint()) == (g.scores, g.result, g.hand_no, g.checkpoint())
    # a checkpoint after the amendment resumes without the earlier hands
    ck = g.checkpoint()
    s = Game(g.rules, g.players)
    s.restore(ck)
    assert (s.scores, s.hand_no, s.dealer) == (g.scores, g.hand_no, g.dealer)
    # ... and cannot amend them: the whole log is replayed for that
    with pytest.raises(IllegalAction, match="replay the whole log"):
        s.apply("amend 3")


def test_mid_amendment_the_checkpoint_is_the_one_before_it():
    g = _classic([MADE_NS, MADE_EW, MADE_NS])
    ck = g.checkpoint()
    g.apply("amend 2")
    g.apply("quick 1")
    assert g.checkpoint() == ck
    s = Game(g.rules, g.players)
    s.restore(ck)
    with pytest.raises(IllegalAction, match="replay the whole log"):
        s.apply("amend 2")
    # undo past an amendment in a restored game: the whole log
    s.restore(ck)
    s.apply(MADE_EW[0])
    g.undo()
    g.apply("quick 1")
    g.apply("quick march alone")
    assert g.scores == [2, 4, 2, 4]


def test_a_game_ended_by_an_amendment_resumes_from_the_log():
    g = _classic([["quick 0", "quick march alone"], ["quick 0", "quick march"], ["quick 0", "quick march"],
                  MADE_EW])
    g.apply("amend 2")
    g.apply("quick 0")
    g.apply("quick march alone")
    assert g.result
    r = log.loads(log.dumps(g))[0]
    assert (r.scores, r.result, r.last_amend) == (g.scores, g.result, g.last_amend)
    # its checkpoint is from before the amendment: restored, the amendment
    # needs the whole log (the device then replays it)
    s = Game(g.rules, g.players)
    s.restore(g.checkpoint())
    assert s.hand_no == 5 and s.result is None


def test_card_mode_hands_are_amended_as_table_mode_outcomes():
    from euchre.bot import choose
    from euchre.cardmode import shuffled_deck
    g = Game(Rules("classic"), cards=True)
    rng = random.Random(3)
    while g.hand_no < 3:
        if not g.legal_actions():
            g.deal(shuffled_deck(g.rules, rng.randrange))
        else:
            g.apply_id(choose(g.hand))
    before = list(g.scores)
    pts = g.last_amend
    assert pts is None
    g.apply("amend 1")
    g.apply("quick 1")
    g.apply("quick march alone")
    assert g.scores[1] >= 4 and g.scores != before
    r = log.loads(log.dumps(g))[0]
    assert r.scores == g.scores
    assert g.legal_actions() == []   # (card mode: the next hand's deal)
    # no deal while an amendment is under way: its hand's inputs first
    g.apply("amend 1")
    ck = g.checkpoint()
    with pytest.raises(IllegalAction, match="quick score"):
        g.deal(shuffled_deck(g.rules, rng.randrange))
    assert g.checkpoint() == ck and g.amending is not None and g.hand.events == 0


def test_a_club_rounds_accepted_result_changes_only_when_accepted_again():
    g = Game(Rules("classic", round_hands=3), ["Ann", "Bob", "Cy", "Di"])
    for h in [MADE_NS, MADE_EW, MADE_EW]:
        for e in h:
            g.apply(e)
    assert g.result == ((1, 3), "win")
    g.apply("accept")
    assert "accept it again" in _unchanged(g, "amend 2")
    g.undo()   # the acceptance taken back
    g.apply("amend 2")
    assert "quick score" in _unchanged(g, "accept")   # (the amendment's inputs first)
    g.apply("quick 0")
    g.apply("quick march")
    assert g.result == ((0, 2), "win") and g.scores == [3, 1, 3, 1] and not g.accepted
    g.apply("accept")
    assert g.accepted


def test_every_finished_hand_is_in_the_history():
    from euchre.amend import records
    g = _classic([MADE_NS, ["redeal"], ["quick none"], MADE_EW])
    assert [(r[0], r[1], r[2]) for r in records(g)] == [(1, SCORED, 0), (2, 2, 1), (3, 1, 1), (4, SCORED, 2)]
    assert records(g)[3][3] == [0, 1, 0, 1]
