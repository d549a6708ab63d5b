"""``legal_actions()`` lists every action ``apply`` accepts (CPython only:
hypothesis).

Random club rounds (Classic with random round options, table or card
mode) are played with random legal actions; at every step each probe that
is not listed must be refused, and change nothing. The probes: ``accept``
(a round's game-level action), every action the engine can name with a
small argument, and the listed actions of the moment. (A card-mode deal is
the one input never listed: ``deal`` is a chance event, see
``Hand.legal_ids``.) Corrections are listed apart, as undo is not play:
``amend N`` is accepted exactly for the hands ``amendable()`` lists.
"""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from euchre import Game, IllegalAction, Rules
from euchre import actions as A
from euchre.cardmode import shuffled_deck

P = ["Ann", "Bob", "Cy", "Di"]


def _names():
    # Every action text the engine can name with an argument up to 6 (plus
    # none / no suit), flags 0-2: what a player could try.
    out = set()
    for kind in range(32):
        if kind == A.DEAL:
            continue
        for arg in list(range(7)) + [A.NOBODY, A.NOSUIT]:
            for flag in range(3):
                try:
                    out.add(A.action_name(A.action(kind, arg, flag)))
                except (IndexError, ValueError):
                    pass
    return sorted(out)


NAMES = _names()


def _round(rng):
    o = {"winning_score": rng.choice((5, 10, 99)), "round_hands": rng.randrange(1, 6),
         "lone_march": rng.choice((4, 5)), "set_loner": rng.choice((2, 3, 4)),
         "renege_points": rng.choice((1, 2, 3, 4)), "std": rng.random() < 0.5,
         "defend_alone": rng.random() < 0.3}
    return Rules("classic", o)


def _refused(g, text):
    before = (g.events(), g.checkpoint(), g.legal_actions(), g.result, g.accepted)
    try:
        g.apply(text)
    except IllegalAction:
        after = (g.events(), g.checkpoint(), g.legal_actions(), g.result, g.accepted)
        assert after == before, text
        return
    raise AssertionError("apply(%r) accepted what legal_actions() did not list: %r"
                         % (text, before[2]))


def _accepted_then_undone(g, text):
    before = (g.events(), g.checkpoint(), g.legal_actions(), g.result, g.scores)
    g.apply(text)
    assert g.amending is not None, text
    g.undo()
    assert (g.events(), g.checkpoint(), g.legal_actions(), g.result, g.scores) == before, text


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), cards=st.booleans())
def test_every_action_apply_accepts_is_listed(seed, cards):
    rng = random.Random(seed)
    g = Game(_round(rng), P, dealer=rng.randrange(4), cards=cards)
    for _ in range(400):
        legal = g.legal_actions()
        between = not g.hand.events or g.result
        # Every probe at the states around a hand's end, a few elsewhere.
        probes = NAMES if between else rng.sample(NAMES, 12)
        amendable = ["amend %d" % n for n in g.amendable()]
        for text in ["accept"] + probes:
            if text not in legal + amendable:
                _refused(g, text)
        for text in amendable[:2]:
            _accepted_then_undone(g, text)
        if g.is_terminal() and not legal:
            return
        if not legal:
            g.deal(shuffled_deck(g.rules, rng.randrange))     # card mode: a deal
            continue
        # (accept now and then: most rounds reach their last hand)
        pick = [e for e in legal if e != "accept"] or legal
        g.apply("accept" if "accept" in legal and rng.random() < 0.1 else rng.choice(pick))
    raise AssertionError("the round did not end")
