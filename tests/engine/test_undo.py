# portable: runs under MicroPython
"""Undo (RULES.md: "any recorded step can be taken back, one at a time, to
the game's start"): every undo restores the earlier state exactly, across
hand boundaries, misdeals and the end of the game, in table and card mode;
at the start there is nothing to undo.

Plain asserts only (this file also runs under MicroPython: keep it fast).
"""

from euchre import Rules, Game, IllegalAction, card_name
from helpers import CLASSIC_TO_5, fingerprint

# A short Classic game to 5 (table mode): five scored hands and a misdeal;
# E/W win 6-4 on the last event.
CLASSIC = CLASSIC_TO_5

DEAL1 = "deal 9C TC JC QC KC/AC 9D TD JD QD/KD AD 9H TH JH/QH KH AH 9S TS/JS QS KS AS"
DEAL2 = "deal AS KS QS JS TS/9S AH KH QH JH/TH 9H AD KD QD/JD TD 9D AC KC/QC JC TC 9C"


def snapshot(g):
    """Everything observable about a game's state."""
    h = g.hand
    cards = None
    if g.cards and not g.is_terminal() and h.play.hands is not None:
        cards = ([list(x) for x in h.play.hands], list(h.play.kitty), list(h.play.played), list(h.play.trick))
    return (fingerprint(g), list(g.scores), g.events(), g.dealer, g.hand_no,
            g.legal_actions(), g.current_player(), g.is_terminal(), g.result, cards)


def raises_illegal(fn):
    try:
        fn()
    except IllegalAction as e:
        return str(e)
    raise AssertionError("expected IllegalAction")


def undo_to_start(g, snaps):
    """Undo one event at a time; each undo must give the saved state."""
    for i in range(len(snaps) - 2, -1, -1):
        g.undo()
        assert snapshot(g) == snaps[i], "after undoing to %d events" % i
    assert g.event_count() == 0
    raises_illegal(g.undo)
    assert snapshot(g) == snaps[0]


def play_recorded(g, events):
    snaps = [snapshot(g)]
    for e in events:
        g.apply(e)
        snaps.append(snapshot(g))
    return snaps


def pick(g, step):
    """A fixed, varied choice among the legal actions (same on every port)."""
    legal = g.legal_actions()
    return legal[(step * 7 + 3) % len(legal)]


def test_undo_at_start_raises():
    for name in ("classic", "five", "callpartner", "ultimate"):
        for cards in (False, True):
            g = Game(Rules(name), cards=cards)
            before = snapshot(g)
            msg = raises_illegal(g.undo)
            assert "undo" in msg
            assert snapshot(g) == before


def test_undo_table_game_to_start():
    g = Game(Rules("classic", winning_score=5), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    snaps = play_recorded(g, CLASSIC)
    assert g.is_terminal() and g.scores == [4, 6, 4, 6]
    undo_to_start(g, snaps)
    assert g.scores == [0, 0, 0, 0] and g.dealer == 0 and g.hand_no == 1
    assert g.players == ["Ann", "Bob", "Cy", "Di"]


def test_undo_after_game_over_and_redo():
    g = Game(Rules("classic", winning_score=5), dealer=0)
    for e in CLASSIC[:-1]:
        g.apply(e)
    before_end = snapshot(g)
    g.apply(CLASSIC[-1])
    over = snapshot(g)
    assert g.is_terminal() and g.legal_actions() == []
    raises_illegal(lambda: g.apply("up H"))
    g.undo()
    assert snapshot(g) == before_end
    assert not g.is_terminal() and "tricks 5" in g.legal_actions()
    g.apply(CLASSIC[-1])
    assert snapshot(g) == over


def test_undo_then_branch():
    g = Game(Rules("classic", winning_score=5), dealer=0)
    for e in CLASSIC[:4]:
        g.apply(e)
    assert g.scores == [1, 0, 1, 0] and g.dealer == 1
    g.undo()   # tricks 3
    g.undo()   # order
    assert g.events() == ["up H", "pass"] and g.dealer == 0
    g.apply("pass")
    g.apply("order alone")   # seat 3 now, alone
    g.apply("won 3")
    g.apply("claim 3")
    assert g.events() == ["up H", "pass", "pass", "order alone", "won 3", "claim 3"]
    assert g.scores == [0, 4, 0, 4]
    fresh = Game(Rules("classic", winning_score=5), dealer=0)
    for e in g.events():
        fresh.apply(e)
    assert fingerprint(fresh) == fingerprint(g)


def test_undo_card_mode_across_hands():
    g = Game(Rules("classic"), dealer=2, cards=True)
    snaps = [snapshot(g)]
    g.apply(DEAL1)
    snaps.append(snapshot(g))
    step = 0
    deals = [DEAL2]
    while len(snaps) < 80 and not g.is_terminal():
        if g.hand.phase == 0:   # the next hand waits for its deal
            if not deals:
                break
            g.apply(deals.pop())
        else:
            g.apply(pick(g, step))
        step += 1
        snaps.append(snapshot(g))
    assert g.hand_no >= 2, "the game went past a hand boundary"
    undo_to_start(g, snaps)
    assert g.hand.phase == 0 and g.hand.play.hands is None


def test_undo_a_deal_then_deal_again():
    g = Game(Rules("classic"), dealer=1, cards=True)
    start = snapshot(g)
    g.apply(DEAL1)
    dealt = snapshot(g)
    assert card_name(g.hand.play.kitty[0]) == "JS"  # the upcard
    g.undo()
    assert snapshot(g) == start
    g.apply(DEAL2)
    assert card_name(g.hand.play.kitty[0]) == "QC" and g.events() == [DEAL2]
    g.undo()
    g.apply(DEAL1)
    assert snapshot(g) == dealt


def test_undo_five_handed_table_game():
    g = Game(Rules("five"), dealer=4)
    snaps = [snapshot(g)]
    step = 0
    while len(snaps) < 45 and not g.is_terminal():
        g.apply(pick(g, step))
        step += 1
        snaps.append(snapshot(g))
    assert g.hand_no >= 2
    undo_to_start(g, snaps)


def test_undo_ultimate_card_mode():
    g = Game(Rules("ultimate"), dealer=0, cards=True)
    deck = [c for c in g.rules.deck]
    # A fixed shuffle (same on every port): deal every 7th card.
    order = [deck[(i * 7) % len(deck)] for i in range(len(deck))]
    assert sorted(order) == sorted(deck)
    snaps = [snapshot(g)]
    g.deal(order)
    snaps.append(snapshot(g))
    step = 0
    while len(snaps) < 30 and g.hand.phase != 0 and not g.is_terminal():
        g.apply(pick(g, step))
        step += 1
        snaps.append(snapshot(g))
    undo_to_start(g, snaps)


def test_checkpoint_restore_resumes_without_earlier_hands():
    # Resuming from the checkpoint of any event gives the same state as the
    # full replay, and undo after a restore steps back to the checkpoint.
    full = Game(Rules("classic", winning_score=5))
    for i in range(len(CLASSIC) + 1):
        ck = full.checkpoint()
        start = ck[0]
        g = Game(Rules("classic", winning_score=5))
        g.restore(ck)
        for e in CLASSIC[start:i]:
            g.apply(e)
        assert fingerprint(g)[:4] == fingerprint(full)[:4], i
        assert g.event_count() == i
        assert g.legal_actions() == full.legal_actions()
        assert g.checkpoint() == ck
        # The hand before the checkpoint's is still known (the device shows it).
        if start and g.hand.events == 0 and not g.result:
            a, b = g.last_hand, full.last_hand
            assert (a.result, a.outcome, a.renege, list(a.points)) == (b.result, b.outcome, b.renege, list(b.points))
        # Undo back to the checkpoint, then no further.
        for _ in range(i - start):
            g.undo()
        assert g.event_count() == start
        assert g.scores == ck[3:7]
        msg = raises_illegal(g.undo) if start else None
        assert start == 0 or "checkpoint" in msg
        if i < len(CLASSIC):
            full.apply(CLASSIC[i])
    assert full.result is not None


def test_a_checkpoint_carries_the_last_hand_as_values_and_refuses_old_words():
    # The last hand's outcome is its code and the seat that reneged (a
    # resumed device words them itself); a checkpoint an older bower wrote
    # (the hand's words in their place) is refused with ValueError, so the
    # device replays the whole log instead.
    g = Game(Rules("classic"), ["A", "B", "C", "D"])
    for e in ("up H", "order", "renege 3", "up S"):
        g.apply(e)
    ck = g.checkpoint()
    # [events, hand_no, dealer, 4 scores, result, outcome, renege, 4 points]
    assert ck == [3, 2, 1, 2, 0, 2, 0, 0, "renege", 3, 2, 0, 2, 0], ck
    r = Game(Rules("classic"), ["A", "B", "C", "D"])
    r.restore(ck)
    last = r.last_hand
    assert (last.result, last.outcome, last.renege, last.points) == (0, "renege", 3, [2, 0, 2, 0])
    for e in ("up S", "pass"):
        r.apply(e)
    assert r.event_count() == 5 and r.checkpoint() == ck
    old = ck[:8] + ["renege by seat 3"] + ck[10:]
    for bad in (old, ck[:8] + ["made"] + ck[10:], ck[:8] + ["made", 3] + ck[10:], ck[:8] + ["renege", -1] + ck[10:]):
        try:
            Game(Rules("classic"), ["A", "B", "C", "D"]).restore(bad)
        except ValueError as e:
            assert "bad checkpoint" in str(e), e
            continue
        raise AssertionError("accepted %r" % (bad,))


def test_restore_refuses_a_checkpoint_of_another_game():
    g = Game(Rules("five"))
    for bad in ([0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 7, 0, 0, 0, 0, 0]):
        try:
            g.restore(bad)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (bad,))
