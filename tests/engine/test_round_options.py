# portable: runs under MicroPython
# Classic's club-round options (host/CLUB.md): a round of N hands ends by
# itself, scored the night's way, and is accepted as a logged event; undo,
# checkpoints and logs keep all of it. Plain asserts.

from euchre import Game, Rules, IllegalAction
from euchre import log
from euchre.clubround import may_end
from euchre.clubround import ROUND_OPTIONS

P = ["Ann", "Bob", "Cy", "Di"]


def rnd(hands=4, **kw):
    o = {"winning_score": 99, "round_hands": hands}
    o.update(kw)
    return Rules("classic", o)


def play(rules, events):
    g = Game(rules, P, dealer=0)
    for e in events:
        g.apply(e)
    return g


def refused(exc, fn, *a):
    try:
        fn(*a)
    except exc as e:
        return str(e)
    raise AssertionError("not refused")


def test_round_options_only_with_round_hands():
    assert "round_hands" not in Rules("classic").options          # an ordinary game logs none
    assert Rules("classic", {"round_hands": 0}).options == Rules("classic").options
    assert "requires round_hands" in refused(ValueError, Rules, "classic", {"round_hands": 0, "lone_march": 5})
    refused(ValueError, Rules, "classic", {"lone_march": 5})                # no round: no such option
    r = rnd(8, lone_march=5, set_loner=4, renege_points=3)
    assert [r.options[k] for k in ROUND_OPTIONS] == [8, 5, 4, 3]
    assert Rules(r.to_dict()["variant"], r.to_dict()["options"]) == r
    for bad in ({"round_hands": 100}, {"round_hands": True}, {"lone_march": 3}, {"set_loner": 5},
                {"renege_points": 0}, {"renege_points": True}):
        refused(ValueError, Rules, "classic", dict(bad, round_hands=bad.get("round_hands", 8)))
    refused(ValueError, Rules, "five", {"round_hands": 8})        # Classic only


def test_the_nights_scoring():
    r = rnd(8, lone_march=5, set_loner=3, renege_points=1)
    # S orders alone and marches: 5; S alone again, euchred: 3 to E/W
    g = play(r, ["up H", "pass", "order alone", "tricks 5"])
    assert g.scores == [5, 0, 5, 0]
    g = play(r, ["up H", "pass", "order alone", "tricks 2"])
    assert g.scores == [0, 3, 0, 3]
    g = play(r, ["up H", "pass", "order", "tricks 2"])          # no loner: the usual 2
    assert g.scores == [0, 2, 0, 2]
    g = play(r, ["up H", "pass", "order", "renege 0"])          # renege: 1 to the other side
    assert g.scores == [0, 1, 0, 1]
    g = play(r, ["up H", "pass", "order alone", "renege 1"])    # in a lone hand: the loner's 5
    assert g.scores == [5, 0, 5, 0]
    g = play(Rules("classic"), ["up H", "pass", "order alone", "tricks 5"])
    assert g.scores == [4, 0, 4, 0]                             # not a round: Classic's 4


def test_a_round_ends_after_its_hands_a_redeal_not_counted():
    g = play(rnd(2), ["up H", "redeal", "up H", "pass", "order", "tricks 3"])
    assert g.counted == 1 and not g.result and g.hand_no == 3
    for e in ["up S"] + ["pass"] * 8:                            # thrown in: counted
        g.apply(e)
    assert g.counted == 2 and g.result == ((0, 2), "win") and g.scores == [1, 0, 1, 0]
    assert g.legal_actions() == ["accept"]
    assert "over" in refused(IllegalAction, g.apply, "up H")


def test_level_rounds_go_to_the_side_that_scored_last():
    g = play(rnd(2), ["up H", "pass", "order", "tricks 3", "up H", "pass", "order", "tricks 3"])
    assert g.scores == [1, 1, 1, 1] and g.result[0] == (1, 3)  # E/W scored the later hand
    g = play(rnd(1), ["up H"] + ["pass"] * 8)
    assert g.scores == [0, 0, 0, 0] and g.result[0] == (0, 2)  # nothing scored: N/S


def test_accept_once_at_the_end_or_between_hands_and_undo_takes_it_back():
    g = play(rnd(4), ["up H", "pass"])
    assert "club round" in refused(IllegalAction, g.apply, "accept")     # mid-hand
    refused(IllegalAction, play(rnd(4), []).apply, "accept")             # nothing played
    refused(IllegalAction, play(Rules("classic"), ["up H", "pass", "order", "tricks 3"]).apply, "accept")
    g = play(rnd(4), ["up H", "pass", "order", "tricks 3"])
    assert may_end(g)
    g.apply("accept")                                                     # time called
    assert g.result and g.accepted and g.counted == 1
    refused(IllegalAction, g.apply, "accept")
    g.undo()
    assert not g.result and not g.accepted and g.legal_actions()[0] == "up C"
    g = play(rnd(1), ["up H", "pass", "order", "tricks 3", "accept"])
    assert g.events()[-1] == "accept" and g.accepted
    g.undo()
    assert g.result and not g.accepted


def test_accept_is_listed_exactly_when_apply_takes_it():
    # Between a round's hands (time called) as at its end: legal_actions
    # offers what apply accepts. Not mid-hand, not before the first hand.
    g = play(rnd(4), [])
    assert "accept" not in g.legal_actions()
    for e in ["up H", "pass", "order", "tricks 3"]:
        g.apply(e)
        assert ("accept" in g.legal_actions()) == (e == "tricks 3"), e
    assert g.legal_actions()[-1] == "accept" and "up H" in g.legal_actions()
    g.apply("accept")
    assert g.result and g.legal_actions() == []
    g = Game(rnd(4), P, dealer=0, cards=True)                # card mode: at the deal too
    assert g.legal_actions() == []
    g.apply("deal " + " ".join(["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH",
                                "QH KH AH 9S TS", "JS QS KS AS"]))
    assert "accept" not in g.legal_actions()
    g = play(Rules("classic"), ["up H", "pass", "order", "tricks 3"])
    assert "accept" not in g.legal_actions()                  # not a round


def test_checkpoint_log_and_replay_keep_the_round():
    events = ["up H", "pass", "order alone", "tricks 5", "up S", "redeal", "up S"] + ["pass"] * 8 + \
        ["up D", "order", "tricks 4", "accept"]
    r = rnd(3, lone_march=5)
    g = Game(r, P, dealer=0)
    for i in range(len(events) + 1):
        if i:
            g.apply(events[i - 1])
        # from the checkpoint plus the events after it, the same state
        ck = g.checkpoint()
        h = Game(r, P, dealer=0)
        h.restore(ck)
        for e in events[ck[0]:i]:
            h.apply(e)
        assert (h.scores, h.counted, h.last_side, h.result, h.accepted, h.hand_no) == \
            (g.scores, g.counted, g.last_side, g.result, g.accepted, g.hand_no), i
    g2, dropped = log.loads(log.dumps(g))
    assert g2.accepted and g2.scores == [5, 1, 5, 1] and g2.result[0] == (0, 2) and dropped is None
