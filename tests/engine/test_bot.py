# portable: runs under MicroPython
# The heuristic bot plays every variant to the end and beats random play.

from euchre import Game, Hand, Rules
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.hand import P_TURN
from helpers import Rand

VARIANTS = (("classic", {}),
            ("classic", {"canadian": True, "partners_best": True, "defend_alone": True,
                         "farmers": True, "ace_no_face": True, "joker": True}),
            ("five", {}), ("five", {"jokers": True, "four_eights": True}),
            ("callpartner", {"std": True}), ("ultimate", {}),
            ("three", {}), ("three", {"alone": True, "min_rank": 7, "std": True}),
            ("six", {}), ("six", {"jokers": True}), ("two", {}), ("two", {"joker": True, "min_rank": 9}),
            ("classic", {"misdeal_passes": True}))


def _play_hand(rules, dealer, rng, bot_seats):
    h = Hand(rules, dealer, True)
    h.deal(shuffled_deck(rules, rng.below))
    while not h.is_terminal():
        legal = h.legal_ids()
        if h.phase != P_TURN and h.current_player() in bot_seats:
            a = choose(h)
            assert a in legal, (a, legal)
            h.apply_id(a)
        else:
            h.apply_legal(rng.below(len(legal)))
    return h


def test_bots_finish_a_game_of_every_variant():
    for name, opts in VARIANTS:
        rules = Rules(name, **opts)
        rng = Rand(11)
        g = Game(rules, cards=True)
        while not g.is_terminal():
            h = g.hand
            if h.phase == 0:
                g.deal(shuffled_deck(rules, rng.below))
            elif h.phase == P_TURN:
                g.apply_id(h.legal_ids()[rng.below(len(h.legal_ids()))])
            else:
                g.apply_id(choose(h))
        assert max(g.scores) >= rules.winning_score, (name, g.scores)
        assert g.result is not None


def test_bot_side_outscores_random_players():
    # Seats 0 and 2 (and 4) are bots; the others choose at random.
    for name, opts in VARIANTS:
        rules = Rules(name, **opts)
        rng = Rand(5)
        totals = [0] * rules.num_players
        for i in range(60):
            h = _play_hand(rules, i % rules.num_players, rng, (0, 2, 4))
            for s in range(rules.num_players):
                totals[s] += h.points[s]
        bots = sum(totals[0::2]) / len(totals[0::2])
        others = sum(totals[1::2]) / len(totals[1::2])
        assert bots > others * 1.3, (name, totals)
