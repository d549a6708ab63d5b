"""A thousand random card-mode games per variant (hypothesis).

test_properties.py checks every step of a few hundred games per variant
against an independent model of RULES.md. This module plays many more
whole games, each from a hypothesis seed, with the checks that stay cheap
at that count:

* every card is accounted for (hands, kitty, cards played) after every
  event, and each seat holds what the rules deal it;
* the card played is one of the legal plays, and a seat that could follow
  the effective suit led did;
* a scored hand's trick counts sum to the hand size; who played each card
  (``cardmode.played_by``) goes round the seats in play;
* the serialised log replays to the same scores and state, bit-exactly;
* undoing an event and redoing it gives the same state (once per game).
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from euchre import Game, Rules, log
from euchre import actions as A
from euchre.cardmode import played_by
from euchre.hand import P_PLAY, SCORED
from helpers import fingerprint

# Games per variant, each to the winning score (about 7,500 hands of Classic;
# with test_properties.py's, over a thousand games of every variant).
GAMES = {"classic": 1000, "five": 1000, "callpartner": 1000, "ultimate": 1000, "three": 1000,
         "six": 1000, "two": 1000}
# Options that change the deck or who plays, so that each run covers them.
OPTIONS = {"classic": ({}, {"joker": True, "defend_alone": True, "partners_best": True},
                       {"no_late_loners": True, "canadian": True, "lone_euchre_4": True}),
           "five": ({}, {"jokers": True, "four_eights": True}),
           "callpartner": ({}, {"std": True}),
           "ultimate": ({},),
           "three": ({}, {"min_rank": 7, "alone": True, "joker": True}, {"raise_target": True, "winning_score": 5},
                     {"joker": True}),
           "six": ({}, {"jokers": True}, {"no_late_loners": True, "lone_euchre_4": True}, {"joker": True}),
           "two": ({}, {"min_rank": 9, "joker": True}, {"same_dealer": True})}


def _cards_accounted_for(g, deck):
    h = g.hand
    if h.play.hands is None:
        return
    held = list(h.play.kitty) + list(h.play.played)
    for cards in h.play.hands:
        held += cards
    assert sorted(held) == deck, "cards lost or duplicated"


def play_game(name, options, seed):
    rnd = random.Random(seed)
    rules = Rules(name, **options)
    deck = sorted(rules.deck)
    g = Game(rules, dealer=rnd.randrange(rules.num_players), cards=True)
    redo_at = rnd.randrange(400)
    steps = 0
    while not g.is_terminal():
        h = g.hand
        if h.phase == 0:
            cards = list(rules.deck)
            rnd.shuffle(cards)
            g.deal(cards)
            _cards_accounted_for(g, deck)
            continue
        legal = h.legal_ids()
        a = legal[rnd.randrange(len(legal))]
        playing = h.phase == P_PLAY
        seat, hand_before = h.turn, list(h.play.hands[h.turn]) if playing else None
        before = fingerprint(g) if steps == redo_at else None
        g.apply_id(a)
        steps += 1
        if playing:
            assert A.arg_of(a) in hand_before and A.arg_of(a) not in h.play.hands[seat]
            _check_play_after(h, seat, A.arg_of(a), hand_before)
        if before is not None:
            after, last = fingerprint(g), g.events()[-1]
            g.undo()
            assert fingerprint(g) == before, "undo gives the state before"
            g.apply(last)
            assert fingerprint(g) == after, "redo gives the same state"
        _cards_accounted_for(g, deck)
        if h.is_terminal() and h.result == SCORED:
            assert sum(h.tricks) == rules.hand_size
            _check_seats(h)
    text = log.dumps(g)
    g2, dropped = log.loads(text)
    assert dropped is None and g2.scores == g.scores and g2.result == g.result
    assert fingerprint(g2) == fingerprint(g)
    assert log.dumps(g2) == text, "replay re-dumps bit-exactly"
    return g


def _check_play_after(h, seat, card, hand_before):
    # The card followed the effective suit led when the seat held one.
    k = h.n - sum(h.out)
    played = h.play.played
    first = (len(played) - 1) // k * k
    lead = played[first]
    if card != lead:
        led = h._eff[lead]
        if any(h._eff[c] == led for c in hand_before):
            assert h._eff[card] == led, "seat %d had to follow" % seat


def _check_seats(h):
    # Each trick goes round the seats in play, clockwise from its leader.
    by = played_by(h)
    seats = [s for s in range(h.n) if not h.out[s]]
    k = len(seats)
    assert len(by) == len(h.play.played) == k * h.rules.hand_size
    for i in range(0, len(by), k):
        start = seats.index(by[i])
        assert by[i:i + k] == [seats[(start + j) % k] for j in range(k)]


CASES = [(name, opts, GAMES[name] // len(OPTIONS[name]))
         for name in GAMES for opts in OPTIONS[name]]


@pytest.mark.parametrize("name,options,games", CASES,
                         ids=[n + "".join("-" + k for k in sorted(o)) for n, o, _ in CASES])
def test_thousands_of_random_games(name, options, games):
    @settings(max_examples=games, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=2 ** 32 - 1))
    def run(seed):
        play_game(name, options, seed)

    run()
