"""The club movements: who sits where in every round, for 3 to 30 tables.

Each rule is checked against an independent statement of it (where a player
goes, computed per player rather than per table) plus the invariants: each
player sits exactly once per round or is on a bye; progressive splits every
partnership; fixed repeats no partnership within as many rounds as tables;
the partners schedule pairs everyone at most once and exactly once except
the C(n % 4, 2) pairs the round count leaves no room for.
"""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest

from bower_host.club import movement as mv

TABLES = (1, 2, 3, 4, 5, 7, 10, 16, 23, 30)


def check_seated_once(rnd: mv.Round, players) -> None:
    seen = rnd.players()
    assert sorted(seen) == sorted(players), "each player seated exactly once or on a bye"
    for t in rnd.tables:
        assert len(t) == 4 and len(set(t)) == 4


def partnerships(rnd: mv.Round) -> set:
    return {frozenset((t[0], t[2])) for t in rnd.tables} | {frozenset((t[1], t[3])) for t in rnd.tables}


def test_first_round_fills_tables_in_order():
    r = mv.first_round(range(8), 2)
    assert r.tables == ((0, 1, 2, 3), (4, 5, 6, 7)) and r.byes == ()
    assert r.where(6) == (2, 2)
    with pytest.raises(ValueError, match="cannot fill"):
        mv.first_round(range(9), 2)


def test_progressive_small_example_by_hand():
    # Table 1: N/S (0, 2) beat E/W (1, 3); table 2: E/W (5, 7) beat N/S (4, 6).
    r = mv.progressive(mv.first_round(range(8), 2), [mv.NS, mv.EW])
    # Table 1 keeps its winners (0, 2) and gets table 2's (5, 7), split:
    # N=0, E=5, S=7, W=2. Table 2: table 1's losers (1, 3) and its own (4, 6).
    assert r.tables == ((0, 5, 7, 2), (1, 4, 6, 3))


@pytest.mark.parametrize("tables", TABLES)
def test_progressive_every_round(tables):
    rng = random.Random(tables)
    players = list(range(4 * tables))
    rng.shuffle(players)
    r = mv.first_round(players, tables)
    for _ in range(12):
        winners = [rng.randrange(2) for _ in range(tables)]
        nxt = mv.progressive(r, winners)
        check_seated_once(nxt, players)
        # Independently, per player: where each one must be.
        for t, seats in enumerate(r.tables, 1):
            won = winners[t - 1]
            for s, p in enumerate(seats):
                goes_up = s % 2 == won
                want = max(1, t - 1) if goes_up else min(tables, t + 1)
                got, seat = nxt.where(p)
                assert got == want, (p, t, goes_up)
                # Partners split: nobody sits with the same partner again.
                old_partner = seats[(s + 2) % 4]
                assert nxt.tables[got - 1][(seat + 2) % 4] != old_partner
        # Each table's new partnerships join one player of each arriving pair.
        for seats in nxt.tables if tables > 1 else ():
            came_from = [r.where(p)[0] for p in seats]
            assert came_from[0] != came_from[2] and came_from[1] != came_from[3]
        r = nxt


def test_progressive_refuses_missing_winners():
    with pytest.raises(ValueError, match="winning side"):
        mv.progressive(mv.first_round(range(8), 2), [0])
    with pytest.raises(ValueError):
        mv.progressive(mv.first_round(range(8), 2), [0, 2])


@pytest.mark.parametrize("tables", TABLES)
def test_fixed_every_round(tables):
    players = list(range(4 * tables))
    r0 = mv.first_round(players, tables)
    r = r0
    seen_pairs: set = set()
    shift = {0: 0, 1: +1, 2: -1, 3: +2}          # N stays, E up 1, S down 1, W up 2
    for k in range(max(tables, 3)):
        check_seated_once(r, players)
        # Closed form: the player in seat s of table t at round k+1 started at
        # table t - k * shift[s] (tables counted modulo their number), same seat.
        for t in range(tables):
            for s in range(4):
                assert r.tables[t][s] == r0.tables[(t - k * shift[s]) % tables][s]
        if k < tables:
            pairs = partnerships(r)
            assert not (pairs & seen_pairs), "a partnership repeated within as many rounds as tables"
            seen_pairs |= pairs
        r = mv.fixed(r)
    if tables > 1:
        assert mv.fixed(r0).tables[0][2] == r0.tables[1][2], "S moves down: table 2's South comes to table 1"
        assert mv.fixed(r0).tables[1 % tables][1] == r0.tables[0][1], "E moves up: table 1's East goes to table 2"


@pytest.mark.parametrize("n", list(range(4, 41)) + [43, 62, 81, 100, 119, 120, 122, 123])
def test_partners_schedule(n):
    order = [f"p{i}" for i in range(n)]
    rounds = mv.partners_schedule(order)
    assert len(rounds) == n + n % 4 - 1 == mv.schedule_length(n)
    count: dict = {}
    byes = {p: 0 for p in order}
    for r in rounds:
        check_seated_once(r, order)
        assert len(r.tables) == n // 4, "every round seats as many tables as the players fill"
        assert len(r.byes) == n % 4
        for p in r.byes:
            byes[p] += 1
        for pair in partnerships(r):
            count[pair] = count.get(pair, 0) + 1
    assert max(count.values()) == 1, "nobody partners anyone twice"
    missing = comb(n, 2) - len(count)
    assert missing == comb(n % 4, 2), "exactly once, except the pairs the round count leaves no room for"
    if n % 4 in (0, 1):
        assert len(count) == comb(n, 2)
    # Byes are spread: n % 4 each, one more for the players of a missed pair.
    assert set(byes.values()) <= {n % 4, n % 4 + 1}


def test_partners_first_rounds_never_repeat_a_partnership():
    # A night plays only the first rounds of a long schedule: still no repeats.
    order = list(range(120))
    seen: set = set()
    for r in range(1, 11):
        pairs = partnerships(mv.partners_round(order, r))
        assert not pairs & seen
        seen |= pairs


def test_partners_round_bounds():
    with pytest.raises(ValueError, match="rounds 1 to 11"):
        mv.partners_round(range(12), 12)
    with pytest.raises(ValueError):
        mv.schedule_length(3)


def test_partners_is_not_trivially_the_same_tables():
    # Opponents change too: table 1's four players differ from round to round.
    order = list(range(16))
    firsts = {frozenset(mv.partners_round(order, r).tables[0]) for r in range(1, 16)}
    assert len(firsts) == 15
    assert all(len(set(itertools.chain(*mv.partners_round(order, r).tables))) == 16 for r in range(1, 16))
