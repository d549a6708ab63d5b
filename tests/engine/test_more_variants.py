# portable: runs under MicroPython
"""Whole games of the variants for three, six and two players (docs/RULES.md),
in table mode (scripted, hand by hand, as a table would enter them) and in
card mode (every card, played by the bot): scores, game end, the event log
replayed byte for byte, undo and checkpoints.

The rules and their sources are in docs/RULES.md; the scoring of single
hands, each case with its source, is in test_scoring.py.

Plain asserts only (this file also runs under MicroPython).
"""

from euchre import Game, Rules, log
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.hand import P_TURN
from euchre.morevariants import NAMES as MORE_VARIANTS, VARIANTS as MORE_DATA
from helpers import Rand, fingerprint


def bid(n, dealer, maker, up="H", alone=False):
    """Round 1: ``maker`` orders the upcard, everyone before passes."""
    return ["up " + up] + ["pass"] * ((maker - dealer - 1) % n) + ["order alone" if alone else "order"]


# Each hand: (its events, the scores after it). The dealer moves left after
# every hand but a redeal.
THREE_GAME = [
    # dealer 0: seat 1 marches (52pickup: 3)
    (bid(3, 0, 1) + ["tricks 5"], [0, 3, 0]),
    # dealer 1: seat 2 euchred: each defender, seats 0 and 1, scores 2
    (bid(3, 1, 2) + ["tricks 2"], [2, 5, 0]),
    # dealer 2: seat 0 makes 4, trick by trick (1)
    (bid(3, 2, 0) + ["won 0", "won 1", "won 0", "won 0", "won 0"], [3, 5, 0]),
    # dealer 0: all pass twice: the deal passes (no stick the dealer)
    (["up C"] + ["pass"] * 6, [3, 5, 0]),
    # dealer 1: a misdeal: the same dealer deals again
    (["up C", "redeal"], [3, 5, 0]),
    # dealer 1: seat 2 calls spades in round 2 and marches
    (["up C", "pass", "pass", "pass", "call S", "tricks 5"], [3, 5, 3]),
    # dealer 2: seat 0 orders, euchred with one trick: seats 1 and 2 score 2
    (bid(3, 2, 0) + ["tricks 1"], [3, 7, 5]),
    # dealer 0: seat 2 reneges: it loses 2 (as Five-Handed)
    (bid(3, 0, 1) + ["won 1", "renege 2"], [3, 7, 3]),
    # dealer 1: the dealer takes it up and marches (claimed): seat 1 has 10
    (bid(3, 1, 1) + ["claim 1"], [3, 10, 3]),
]

SIX_GAME = [
    # dealer 0: seat 1 alone, all five: 5 to seats 1 3 5
    (bid(6, 0, 1, alone=True) + ["tricks 5"], [0, 5, 0, 5, 0, 5]),
    # dealer 1: seat 2 makes 3
    (bid(6, 1, 2) + ["tricks 3"], [1, 5, 1, 5, 1, 5]),
    # dealer 2: seat 3 euchred
    (bid(6, 2, 3) + ["won 3", "won 0", "won 2", "won 4", "won 5"], [3, 5, 3, 5, 3, 5]),
    # dealer 3: everybody passes twice
    (["up D"] + ["pass"] * 12, [3, 5, 3, 5, 3, 5]),
    # dealer 4: seat 0 reneges: seats 1 3 5 score 2
    (bid(6, 4, 5) + ["renege 0"], [3, 7, 3, 7, 3, 7]),
    # dealer 5: seat 0 marches for seats 0 2 4
    (bid(6, 5, 0, "C") + ["tricks 5"], [5, 7, 5, 7, 5, 7]),
    # dealer 0: seat 1 makes 4
    (bid(6, 0, 1) + ["tricks 4"], [5, 8, 5, 8, 5, 8]),
    # dealer 1: seat 3 alone, trick by trick (its partners 1 and 5 sit out)
    (bid(6, 1, 3, alone=True) + ["won 3"] * 5, [5, 13, 5, 13, 5, 13]),
]

TWO_GAME = [
    # dealer 0: the non-dealer orders up and makes 3
    (bid(2, 0, 1) + ["tricks 3"], [0, 1]),
    # dealer 1: the dealer adopts and is euchred
    (["up S", "pass", "order", "tricks 1"], [2, 1]),
    # dealer 0: the non-dealer makes spades in round 2 and marches
    (["up D", "pass", "pass", "call S", "tricks 5"], [2, 3]),
    # dealer 1: both pass twice: the former non-dealer deals (Keller)
    (["up C", "pass", "pass", "pass", "pass"], [2, 3]),
    # dealer 0: the non-dealer reneges: the dealer scores 2
    (bid(2, 0, 1) + ["won 0", "renege 1"], [4, 3]),
    # dealer 1: the non-dealer orders up and makes 3: 5 points, the game
    (bid(2, 1, 0) + ["won 0", "won 1", "won 0", "won 1", "won 0"], [5, 3]),
]

GAMES = {"three": (THREE_GAME, ((1,), "win")), "six": (SIX_GAME, ((1, 3, 5), "win")),
         "two": (TWO_GAME, ((0,), "win"))}


def scripted(variant, upto=None):
    """The scripted game of ``variant``, its hands applied (the first ``upto``)."""
    hands = GAMES[variant][0]
    g = Game(Rules(variant), dealer=0)
    for events, _ in hands[:upto]:
        for e in events:
            g.apply(e)
    return g


def test_scripted_table_games_score_hand_by_hand():
    for variant in MORE_VARIANTS:
        hands, result = GAMES[variant]
        g = Game(Rules(variant), dealer=0)
        dealer = 0
        for i in range(len(hands)):
            events, scores = hands[i]
            assert g.dealer == dealer, (variant, i, g.dealer)
            for e in events:
                g.apply(e)
            assert g.scores == scores, (variant, i, g.scores)
            assert g.hand_no == i + 2
            if g.last_hand.result != 2:  # (REDEAL keeps the dealer)
                dealer = (dealer + 1) % g.rules.num_players
            assert (g.result is not None) == (i == len(hands) - 1), (variant, i, g.result)
        assert g.result == result, (variant, g.result)
        assert g.legal_actions() == []


def test_scripted_games_replay_byte_for_byte():
    for variant in MORE_VARIANTS:
        g = scripted(variant)
        text = log.dumps(g)
        g2, dropped = log.loads(text)
        assert dropped is None and g2.scores == g.scores and g2.result == g.result
        assert fingerprint(g2) == fingerprint(g)
        assert log.dumps(g2) == text, variant
        assert '"variant": "%s"' % variant in text.split("\n")[0]


def test_undo_every_event_to_the_start_and_redo():
    for variant in MORE_VARIANTS:
        g = scripted(variant)
        events = g.events()
        states = []
        while g.event_count():
            states.append(fingerprint(g))
            g.undo()
        assert g.scores == [0] * g.rules.num_players and g.hand_no == 1
        for e in events:
            g.apply(e)
        assert fingerprint(g) == states[0], variant


def test_checkpoints_resume_every_hand():
    # A device resumes from the checkpoint at a hand's start: the rest of
    # the game then scores the same as the whole replay.
    for variant in MORE_VARIANTS:
        hands = GAMES[variant][0]
        whole = scripted(variant)
        for k in range(len(hands)):
            g = scripted(variant, k)
            ck = g.checkpoint()
            r = Game(Rules(variant), dealer=0)
            r.restore(ck)
            assert r.scores == g.scores and r.dealer == g.dealer and r.hand_no == g.hand_no
            for events, _ in hands[k:]:
                for e in events:
                    r.apply(e)
            assert r.scores == whole.scores and r.result == whole.result, (variant, k)


def test_standings_and_names():
    g = Game(Rules("six"), ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    assert g.standings() == [("Ann & Cy & Ed", 0), ("Bob & Di & Flo", 0)]
    g = Game(Rules("three"))
    assert g.players == ["A", "B", "C"] and g.standings() == [("A", 0), ("B", 0), ("C", 0)]
    assert Game(Rules("six")).players == ["A", "B", "C", "D", "E", "F"]
    assert scripted("six").winner_names() == ["B", "D", "F"]
    for v in MORE_VARIANTS:
        assert MORE_DATA[v]["title"] == Rules(v).title


def test_six_handed_start_keeps_partners_alike():
    g = Game(Rules("six"), None, 0, start=[3, 4, 3, 4, 3, 4])
    assert g.scores == [3, 4, 3, 4, 3, 4]
    try:
        Game(Rules("six"), None, 0, start=[3, 4, 3, 4, 2, 4])
        assert False, "partners started apart"
    except ValueError:
        pass


# ----- game end --------------------------------------------------------------

def play_hands(g, hands):
    for events in hands:
        for e in events:
            g.apply(e)
    return g


def test_three_handed_defenders_reaching_the_target_together_share_the_win():
    # docs/RULES.md (Three-Handed): the game ends after a hand in which
    # anyone reaches the target; the highest wins, a tie shares the win.
    g = Game(Rules("three", winning_score=4))
    play_hands(g, [bid(3, 0, 1) + ["tricks 0"],   # 2 0 2
                   bid(3, 1, 0) + ["tricks 5"],   # 5 0 2: seat 0 reaches 4 alone
                   ])
    assert g.result == ((0,), "win"), g.result
    g = Game(Rules("three", winning_score=4))
    play_hands(g, [bid(3, 0, 1) + ["tricks 0"],   # 2 0 2
                   bid(3, 1, 1) + ["tricks 2"]])  # 4 0 4: both defenders reach it
    assert g.scores == [4, 0, 4] and g.result == ((0, 2), "shared"), g.result


def test_three_handed_play_on_needs_a_single_leader():
    g = Game(Rules("three", winning_score=4, play_on=True))
    play_hands(g, [bid(3, 0, 1) + ["tricks 0"], bid(3, 1, 1) + ["tricks 2"]])
    assert g.scores == [4, 0, 4] and g.result is None
    play_hands(g, [bid(3, 2, 0) + ["tricks 3"]])
    assert g.scores == [5, 0, 4] and g.result == ((0,), "win")


def test_six_handed_first_side_to_the_target():
    g = Game(Rules("six", winning_score=5))
    play_hands(g, [bid(6, 0, 1, alone=True) + ["tricks 4"],    # 1 for 1 3 5
                   bid(6, 1, 2, alone=True) + ["tricks 5"]])   # 5 for 0 2 4
    assert g.scores == [5, 1, 5, 1, 5, 1] and g.result == ((0, 2, 4), "win")


def test_two_handed_first_to_five_by_default():
    # Cassell's: five points make the game (for two players).
    g = Game(Rules("two"))
    assert g.rules.winning_score == 5
    play_hands(g, [bid(2, 0, 1) + ["tricks 5"],    # the non-dealer marches: 0 2
                   bid(2, 1, 0) + ["tricks 2"]])   # the non-dealer euchred: 0 4
    assert g.scores == [0, 4] and g.result is None
    play_hands(g, [bid(2, 0, 1) + ["tricks 3"]])
    assert g.scores == [0, 5] and g.result == ((1,), "win")


# ----- card mode: whole games --------------------------------------------------

CARD_GAMES = (("three", {}), ("three", {"alone": True, "min_rank": 7, "march": 2, "std": True}),
              ("six", {}), ("six", {"jokers": True, "std": True}),
              ("two", {}), ("two", {"joker": True, "min_rank": 9, "std": True}))


def test_card_mode_whole_games_by_the_bot():
    for variant, opts in CARD_GAMES:
        rules = Rules(variant, **opts)
        rng = Rand(17)
        g = Game(rules, dealer=1, cards=True)
        undone = 0
        while not g.is_terminal():
            h = g.hand
            if h.phase == 0:
                g.deal(shuffled_deck(rules, rng.below))
                continue
            if h.phase == P_TURN:
                a = h.legal_ids()[rng.below(len(h.legal_ids()))]
            else:
                a = choose(h)
            assert a in h.legal_ids()
            g.apply_id(a)
            if rng.below(40) == 0:
                # Undo the event and enter it again: the same state.
                after, last = fingerprint(g), g.events()[-1]
                g.undo()
                g.apply(last)
                assert fingerprint(g) == after
                undone += 1
            if h.is_terminal() and h.result == 0:
                assert sum(h.tricks) == rules.hand_size
                active = rules.num_players - sum(h.out)
                assert len(h.play.played) == active * rules.hand_size
        assert max(g.scores) >= rules.winning_score and g.result is not None, (variant, g.scores)
        assert undone, variant
        text = log.dumps(g)
        g2, dropped = log.loads(text)
        assert dropped is None and g2.scores == g.scores and g2.result == g.result
        assert log.dumps(g2) == text, (variant, opts)


def test_refusals_name_the_rule():
    # euchre.why words what a variant for three, six or two players refuses.
    cases = [
        ("three", {}, ["up H"], "order alone", "option alone"),
        ("three", {}, ["up H", "order"], "won 3", "no seat 3"),
        ("six", {}, ["up H", "order alone"], "won 3", "seat 3 sits out"),
        ("six", {}, ["up H"], "order alone best", "partner's best is not part of Six-Handed"),
        ("two", {}, ["up H"], "order alone", "going alone is not allowed in Two-Handed Euchre"),
        ("two", {"std": True}, ["up H", "pass", "pass", "pass"], "pass", "stick the dealer"),
    ]
    for variant, opts, events, bad, words in cases:
        g = Game(Rules(variant, **opts))
        for e in events:
            g.apply(e)
        before = (g.events(), g.legal_actions())
        try:
            g.apply(bad)
            assert False, (variant, bad)
        except ValueError as e:
            assert words in str(e), (variant, bad, str(e))
        assert (g.events(), g.legal_actions()) == before
