# portable: runs under MicroPython
"""Each rule stated once: the hand's rule methods (``must_call``,
``may_call``, ``ways``, ``declaring``, ``may_declare``, ``partner_bar``,
``lone_defenders``) are what table mode's legal actions are built from and
what euchre.why's messages test; table mode's legal actions come from one
function per phase; and a finished hand has an outcome code next to its
reason.

Seeds (../shared/seeds/): 000 Five-Handed, 001 Call-Your-Partner, 002
Ultimate, 003 Classic house rules, 004 Classic book chapter.
"""

from euchre import Game, Rules, IllegalAction
from euchre import actions as A
from euchre import hand as H
from euchre.cards import parse_card
from euchre.notation import outcome_text

from helpers import CLASSIC_TO_5


def play(variant, opts, events, dealer=0):
    g = Game(Rules(variant, **opts), dealer=dealer)
    for e in events:
        g.apply(e)
    return g


def message(g, event):
    try:
        g.apply(event)
    except IllegalAction as e:
        return str(e)
    assert False, "%r was accepted" % event


def test_one_legal_function_per_phase():
    # Every phase has an entry; the table-mode phases their own function,
    # named for the phase, the others (card mode's, the end) none.
    t = H._LEGAL
    assert len(t) == H.P_QUICK + 1
    named = {H.P_UP: "_legal_up", H.P_NAME: "_legal_name", H.P_BID1: "_legal_bid1",
             H.P_BID2: "_legal_bid2", H.P_DEFEND: "_legal_defend", H.P_MAKER: "_legal_maker",
             H.P_PLAY: "_legal_play", H.P_REVEAL: "_legal_reveal", H.P_NOTRICK: "_legal_notrick",
             H.P_QPARTNER: "_legal_quick", H.P_QUICK: "_legal_quick"}   # (a quick hand: euchre.quick)
    for p in range(len(t)):
        assert t[p].__name__ == named.get(p, "_legal_none"), (p, t[p])
    # Card mode's way back to table mode is the same function.
    g = play("classic", {}, ["up H"])
    assert g.hand._table_legal() == H._legal(g.hand) == g.hand.legal_ids()


def test_stick_the_dealer():
    # 004, option std: the dealer may not pass in round 2; 000/002 always.
    for variant, opts, n in (("classic", {"std": True}, 4), ("five", {}, 5), ("ultimate", {}, 4)):
        g = play(variant, opts, ["up H"] + ["pass"] * (2 * n - 1))
        h = g.hand
        assert h.turn == h.dealer and h.must_call()
        assert A.PASS not in h.legal_ids()
        assert "stick the dealer" in message(g, "pass")
        # The seat before the dealer may pass.
        g = play(variant, opts, ["up H"] + ["pass"] * (2 * n - 2))
        assert not g.hand.must_call() and A.PASS in g.hand.legal_ids()
    g = play("classic", {}, ["up H"] + ["pass"] * 7)
    assert not g.hand.must_call() and A.PASS in g.hand.legal_ids()


def test_turned_down_suit():
    # 004: "You can't bid the suit of the original upturned card during the
    # second bidding stage."
    g = play("classic", {}, ["up H"] + ["pass"] * 4)
    h = g.hand
    for s in range(4):
        assert h.may_call(s) == (s != 2)
        assert (A.action(A.CALL, s) in h.legal_ids()) == h.may_call(s)
    assert "hearts was turned down" in message(g, "call H")


def test_ways_to_make_trump():
    # Flags of order/call: 0 with partner, 1 alone, 2 alone with partner's
    # best (003); Canadian loner (004) for the dealer's partner in round 1.
    def ways(variant, opts, events):
        h = play(variant, opts, events).hand
        w = list(h.ways())
        kind = A.ORDER if h.phase == H.P_BID1 else A.CALL
        suit = A.NOSUIT if kind == A.ORDER else 0
        assert [f for f in range(3) if A.action(kind, suit, f) in h.legal_ids()] == w
        return w

    assert ways("classic", {}, ["up H"]) == [0, 1]
    assert ways("classic", {"partners_best": True}, ["up H"]) == [0, 1, 2]
    assert ways("classic", {"canadian": True}, ["up H", "pass"]) == [1]
    assert ways("classic", {"canadian": True, "partners_best": True}, ["up H", "pass"]) == [1, 2]
    assert ways("classic", {"canadian": True}, ["up H"] + ["pass"] * 5) == [0, 1]
    assert ways("classic", {"canadian": True}, ["up H", "pass", "pass"]) == [0, 1]
    assert ways("five", {}, ["up H"]) == [0]
    assert ways("callpartner", {}, ["up H"]) == [0]
    g = play("classic", {"canadian": True}, ["up H", "pass"])
    assert "Canadian loner" in message(g, "order")
    assert "partner's best is not in play" in message(play("classic", {}, ["up H"]), "order alone best")
    assert "after trump is made" in message(play("five", {}, ["up H"]), "order alone")


def test_declarations_before_the_first_bid():
    # 003 farmers and ace no face, 002 twos and threes: before the first bid,
    # one farmer per hand.
    g = play("classic", {"farmers": True, "ace_no_face": True}, ["up H"])
    h = g.hand
    assert h.declaring()
    assert h.may_declare(A.FARMERS) and h.may_declare(A.ACENOFACE) and h.may_declare(A.NINETENS)
    assert not h.may_declare(A.TWOS)
    g.apply("farmers 2")
    h = g.hand
    assert h.declaring() and not h.may_declare(A.FARMERS) and h.may_declare(A.ACENOFACE)
    assert A.action(A.FARMERS, 1) not in h.legal_ids()
    assert "only one farmer" in message(g, "farmers 1")
    g.apply("pass")
    h = g.hand
    assert not h.declaring() and not h.may_declare(A.ACENOFACE)
    assert "before the first bid" in message(g, "acenoface 3")
    g = play("ultimate", {}, ["up H"])
    assert g.hand.may_declare(A.TWOS) and A.action(A.TWOS, 0) in g.hand.legal_ids()
    g.apply("twos 0")
    assert not g.hand.may_declare(A.TWOS)


def test_partner_card():
    # 000: never a permanent trump; 001: a non-trump card.
    for variant, bars, refused, why in (
            ("five", (("2S", 1), ("2H", 1), ("JH", 0), ("AH", 0), ("AS", 0)), "partner 2S", "permanent trump"),
            ("callpartner", (("JH", 2), ("JD", 2), ("AH", 2), ("AS", 0), ("JC", 0)), "partner AH",
             "must not be a trump")):
        g = play(variant, {}, ["up H", "order"])
        h = g.hand
        assert h.phase == H.P_MAKER
        for name, bar in bars:
            c = parse_card(name)
            assert h.partner_bar(c) == bar, name
            assert (A.action(A.PARTNER, c) in h.legal_ids()) == (bar == 0), name
        assert why in message(g, refused)


def test_lone_defenders():
    # 004 (option defend_alone): either defender, never a maker.
    g = play("classic", {"defend_alone": True}, ["up H", "order"])
    h = g.hand
    assert h.maker == 1 and tuple(h.lone_defenders()) == (2, 0)
    assert [A.action(A.DEFEND, s) for s in (2, 0, A.NOBODY)] == h.legal_ids()[:3]
    assert "makers' side" in message(g, "defend 3")


def _outcomes(events, variant="classic", opts=None):
    g = Game(Rules(variant, **(opts or {})), dealer=0)
    out = []
    for e in events:
        g.apply(e)
        last = g.last_hand
        if last is not None and (not out or out[-1][0] is not last):
            out.append((last, last.outcome, outcome_text(last.outcome, last.renege)))
    return [x[1:] for x in out]


def test_outcome_codes():
    # A finished hand has a code (``outcome``; a renege's seat in
    # ``renege``), and euchre.notation words it.
    assert _outcomes(CLASSIC_TO_5) == [
        ("made", "made"), ("made_alone", "made alone"), ("lone_march", "lone march"),
        ("misdeal", "misdeal"), ("euchred", "euchred"), ("march", "march")]
    assert _outcomes(["up H"] + ["pass"] * 8) == [("all_passed", "all passed")]
    assert _outcomes(["up H", "order", "renege 3"]) == [("renege", "renege by seat 3")]
    assert _outcomes(["up H", "order", "defend 2", "tricks 2"], opts={"defend_alone": True}) == [
        ("defend_euchre", "euchred by a lone defender")]
    assert _outcomes(["up H", "order alone best", "tricks 5"], opts={"partners_best": True}) == [
        ("best_march", "lone march with partner's best")]
    assert _outcomes(["up H", "acenoface 2"], opts={"ace_no_face": True}) == [
        ("ace_no_face", "ace no face")]
    assert _outcomes(["up H", "ninetens 2"], opts={"ace_no_face": True}) == [
        ("nines_tens", "nines and tens")]
    assert _outcomes(["up H", "order", "partner AS", "tricks 5", "reveal none"], "five") == [
        ("unpartnered_march", "march without a partner")]
    assert _outcomes(["up H", "order", "alone", "throwin 3"], "five") == [("throw_in", "throw-in")]
    g = play("classic", {}, ["up H"])
    assert g.hand.outcome is None and not hasattr(g.hand, "reason")
