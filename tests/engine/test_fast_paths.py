# portable: runs under MicroPython
"""The speed and memory work keeps the engine's behaviour (plain asserts).

* Every field of a fresh hand reads as documented, in both modes (on
  CPython the fields are slots: one left unset would raise AttributeError).
* Card mode's shortcuts agree with the plain table-mode computation they
  replace: the bidding lists cached per Rules, the legal plays worked out
  as soon as the previous card is played, the next active seat, the card
  winning each trick (from a table of values per suit led); checked at
  every step of random hands of every variant with the options that change
  them (lone hands, a lone defender, partner's best, Canadian loner, stick
  the dealer, jokers).
* ``euchre.log``'s whole-log functions, which live in ``euchre.logfile``,
  are reachable as ``euchre.log.<name>`` and by ``from euchre.log import``.
* Error messages, which live in ``euchre.messages``, still read in full.
* The explanations of a refused action (``euchre.why``) are loaded by the
  hand to word the refusal and, under MicroPython (the device), dropped
  again at once; a host keeps them.
"""

from euchre import Hand, Rules, IllegalAction, log
from euchre import actions as A
from euchre import hand as H
from euchre.cardmode import shuffled_deck, played_by
from helpers import Rand

FIELDS = {"upcard": -1, "maker": -1, "partner": -1, "partner_card": -1,
          "lone_defender": -1, "farmer": -1, "twos": -1, "renege": -1,
          "declarer": -1, "leader": -1,
          "result": -1, "up_suit": 4, "turned_down": 4, "trump": 4, "alone": 0,
          "tricks_played": 0, "bids": 0, "events": 0, "picked_up": False,
          "turned": False, "points": None, "outcome": None}
PLAY_FIELDS = {"led": -1, "best": -1, "best_seat": -1, "first_lead": -1, "hands": None, "kitty": None,
               "dealt": None, "trick": [], "played": []}   # (card mode's: Hand.play)


def test_fresh_hand_fields():
    for cards in (False, True):
        h = Hand(Rules("five"), dealer=3, cards=cards)
        for k in FIELDS:
            assert getattr(h, k) == FIELDS[k], (cards, k, getattr(h, k))
        assert h.n == 5 and h.dealer == 3 and h.turn == 3 and h.cards == cards
        assert list(h.out) == [0] * 5 and list(h.tricks) == [0] * 5
        if cards:
            for k in PLAY_FIELDS:
                assert getattr(h.play, k) == PLAY_FIELDS[k], k
        else:
            assert h.play is None    # (a table-mode hand has no cards)
        assert h.phase == (H.P_DEAL if cards else H.P_UP)
        assert h.returns() == [0] * 5
        if cards:
            assert list(h.play.played) == [] and played_by(h) == []
            assert h.legal_ids() == []
        else:
            assert h.legal_actions()[:2] == ["up C", "up D"]


def _follow(h, hand):
    # The legal plays, worked out the slow way.
    if h.play.trick:
        led = h._eff[h.play.trick[0]]
        ids = [A.action(A.PLAY, c) for c in hand if h._eff[c] == led]
        if ids:
            return ids
    return [A.action(A.PLAY, c) for c in hand]


CONFIGS = (("classic", {}),
           ("classic", {"std": True, "canadian": True, "defend_alone": True,
                        "partners_best": True, "joker": True}),
           ("classic", {"loner_lead": "LEFT_OF_LONER", "farmers": True, "ace_no_face": True}),
           ("five", {"jokers": True}), ("callpartner", {}), ("ultimate", {}))


def test_card_mode_shortcuts_agree_with_the_plain_rules():
    for name, opts in CONFIGS:
        rules = Rules(name, **opts)
        rng = Rand(len(name) * 7919 + len(opts))
        for n in range(16):
            h = Hand(rules, dealer=n % rules.num_players, cards=True)
            h.deal(shuffled_deck(rules, rng.below))
            seats_played = []  # who played each card, as the test saw it
            while not h.is_terminal():
                legal = h.legal_ids()
                p = h.phase
                if p == H.P_BID1 or p == H.P_BID2:
                    # The cached list is the one table mode would build,
                    # without table mode's "redeal".
                    assert legal == H._legal(h), (name, opts, p, legal)
                elif p == H.P_PLAY:
                    assert legal == _follow(h, h.play.hands[h.turn]), (name, opts)
                    seats = [s for s in range(h.n) if not h.out[s]]
                    assert h.turn in seats
                    if h.play.trick:
                        # Play goes round the seats that are in, in order.
                        last = seats_played[-1]
                        want = seats[(seats.index(last) + 1) % len(seats)]
                        assert h.turn == want, (name, opts, seats_played, h.turn)
                    else:
                        assert h.turn == h.leader
                assert legal, (name, opts, p)
                trick = list(zip(h.play.trick, seats_played[len(seats_played) - len(h.play.trick):]))
                played = h.tricks_played
                seat = h.turn
                if legal[0] == A.PASS and rng.below(5):
                    h.apply_legal(0)  # mostly pass: round 2 and stuck dealers too
                else:
                    a = h.apply_legal(rng.below(len(legal)))
                    if p == H.P_PLAY:
                        seats_played.append(seat)
                        trick.append((A.arg_of(a), seat))
                        _check_trick(rules, h, trick, played)
                # played_by works out who played each card from the tricks.
                assert played_by(h) == seats_played, (name, opts)
            assert h.legal_ids() == []


def _winner(rules, trump, trick):
    # The seat taking a trick, the plain way: the highest trump, else the
    # highest card of the suit led (rules.eff and rules.power).
    eff, power = rules.eff[trump], rules.power[trump]
    led = eff[trick[0][0]]
    best = trick[0]
    for c, s in trick[1:]:
        e = eff[c]
        if (e == trump or e == led) and power[c] > power[best[0]]:
            best = (c, s)
    return best[1]


def _check_trick(rules, h, trick, played):
    # After a play: the card winning the trick so far (card mode keeps it
    # with a table of values per suit led) is the plain rules' winner, and
    # a finished trick went to that seat, who leads next.
    if h.tricks_played == played:
        assert h.play.best_seat == _winner(rules, h.trump, trick), (trick, h.play.best_seat)
        assert h.play.best == trick[[s for c, s in trick].index(h.play.best_seat)][0]
    else:
        w = _winner(rules, h.trump, trick)
        assert h.play.best_seat == w, (trick, h.play.best_seat, w)
        if not h.is_terminal():
            assert h.leader == w and h.turn == w and h.play.trick == []


def test_apply_id_refuses_a_card_not_in_the_eager_list():
    # The legal plays are worked out before anyone asks; a refused play
    # must leave them and the state alone.
    rules = Rules("classic")
    h = Hand(rules, dealer=0, cards=True)
    h.deal(list(rules.deck))
    h.apply_action("order")  # seat 1 orders the upcard; the dealer discards
    while h.phase != H.P_PLAY:
        h.apply_legal(0)
    h.apply_legal(0)  # a lead: the next seat must follow if it can
    legal = list(h.legal_ids())
    others = [A.action(A.PLAY, c) for c in h.play.hands[h.turn] if A.action(A.PLAY, c) not in legal]
    before = (list(h.play.played), h.turn, list(h.play.hands[h.turn]))
    for a in others + [A.action(A.PLAY, h.play.hands[(h.turn + 1) % 4][0])]:
        try:
            h.apply_id(a)
        except IllegalAction:
            pass
        else:
            assert False, "accepted %d" % a
        assert h.legal_ids() == legal
        assert (list(h.play.played), h.turn, list(h.play.hands[h.turn])) == before


def test_whole_log_functions_are_reachable_from_euchre_log():
    from euchre.log import dumps, loads, read_lines, replay_lines
    from euchre import logfile
    assert (dumps, loads, read_lines, replay_lines) == (
        logfile.dumps, logfile.loads, logfile.read_lines, logfile.replay_lines)
    assert log.loads is logfile.loads
    try:
        _ = log.no_such_function
    except AttributeError:
        pass
    else:
        assert False, "euchre.log.no_such_function exists"


def test_error_messages_read_in_full():
    def message_of(fn):
        try:
            fn()
        except ValueError as e:
            return str(e)
        assert False, "no error"
    assert message_of(lambda: Rules("bridge")) == \
        "unknown variant 'bridge' (one of: classic, five, callpartner, ultimate, three, six, two)"
    assert message_of(lambda: Rules("classic", std=1)) == \
        "std must be one of (False, True), not 1"
    assert message_of(lambda: Rules("ultimate", winning_score=100)) == \
        "winning_score must be a whole number from 1 to 99, not 100"
    assert message_of(lambda: Rules("classic", farmers_no_call=True)) == \
        "farmers_nines_only and farmers_no_call require farmers"
    assert message_of(lambda: Hand(Rules("classic")).deal([])) == \
        "no deal now: this hand is in table mode"
    assert message_of(lambda: log.decode_line('["up H","00000000"]', 7)) == \
        "line 7: CRC mismatch (corrupted)"
    assert message_of(lambda: Hand(Rules("classic")).apply_action("up X")) == \
        "malformed action 'up X'"


def test_the_hand_drops_the_explanations_on_the_device():
    import sys
    import euchre
    host = sys.implementation.name != "micropython"
    for _ in range(2):
        # (twice: dropped, it loads again for the next refusal)
        h = Hand(Rules("classic"))
        try:
            h.apply_id(A.PASS)  # the upcard comes first
        except IllegalAction as e:
            msg = str(e)
        else:
            assert False, "accepted pass before the upcard"
        assert msg.startswith("pass is not legal now (upcard, waiting for seat 0); legal: up C"), msg
        assert ("euchre.why" in sys.modules) == host
        assert ("why" in euchre.__dict__) == host
        assert h.legal_ids() == H._legal(h)
