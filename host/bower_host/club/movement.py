"""Who sits where: the three movements of a club night, as pure functions.

A round's seating is a list of tables (table 1 first), each a tuple of four
player numbers by seat ``(N, E, S, W)`` -- the engine's seats 0 to 3,
clockwise, so N & S and E & W are partners -- plus the players on a bye.
Nothing here touches the library or the clock; host/CLUB.md states each rule.

* :func:`progressive` -- winners up, losers down, partners split. The two
  winners of table t move up to table t - 1 (at table 1 they stay), the two
  losers move down to t + 1 (at the last table they stay). Each table then
  holds two pairs that come from different tables; the pair from the
  lower-numbered table is ``a``, the other ``b`` (each ordered by its old
  seat), and they sit ``N=a0, E=b0, S=b1, W=a1``: every new partnership
  joins one player of each pair.
* :func:`fixed` -- N stays, S down 1 (to table t - 1), E up 1 (t + 1),
  W up 2 (t + 2), table numbers modulo the number of tables; everyone keeps
  their compass seat. No partnership repeats within as many rounds as there
  are tables.
* :func:`partners_schedule` -- every pair of players partners once (a whist
  tournament's partnerships): a round-robin 1-factorisation of the players
  plus ``n % 4`` phantoms; a player partnered with a phantom sits out, and
  in a round with an odd number of real pairs one pair sits out too (never
  a player who sat out that way before: n % 4 or n % 4 + 1 byes each).
  Over the whole schedule (``n + n % 4 - 1`` rounds) every pair partners at
  most once, and exactly once except ``C(n % 4, 2)`` pairs (0, 0, 1 or 3):
  the fewest a schedule that long can miss, since each round seats only
  ``n // 4`` tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

SEATS = ("N", "E", "S", "W")
NS, EW = 0, 1           # sides: seats 0 & 2, seats 1 & 3


@dataclass(frozen=True)
class Round:
    """One round's seating: ``tables[t]`` = (N, E, S, W) of table t + 1."""
    tables: tuple
    byes: tuple = field(default=())

    def players(self) -> list:
        return [p for t in self.tables for p in t] + list(self.byes)

    def where(self, player) -> tuple | None:
        """``(table number, seat index)`` of ``player``, or None on a bye."""
        for t, seats in enumerate(self.tables):
            if player in seats:
                return t + 1, seats.index(player)
        return None


def partner_seat(seat: int) -> int:
    return (seat + 2) % 4


def side_of(seat: int) -> int:
    return seat % 2


def side_pair(seats, side: int) -> tuple:
    """The two partners of ``side`` at a table, in seat order."""
    return seats[side], seats[side + 2]


def first_round(order, tables: int) -> Round:
    """Round 1 of the progressive and fixed movements: players in ``order``
    fill table 1 N, E, S, W, then table 2, ...

    :raises ValueError: not exactly four players per table.
    """
    order = tuple(order)
    if tables < 1 or len(order) != 4 * tables:
        raise ValueError(f"{len(order)} players cannot fill {tables} tables of four")
    return Round(tuple(order[4 * t:4 * t + 4] for t in range(tables)))


def progressive(prev: Round, winners) -> Round:
    """The next round after ``prev`` when ``winners[t]`` (NS or EW) won table t + 1.

    :raises ValueError: a winner per table is missing or not NS/EW.
    """
    tables = prev.tables
    n = len(tables)
    if len(winners) != n or any(w not in (NS, EW) for w in winners):
        raise ValueError(f"need the winning side (0 = N/S, 1 = E/W) of each of the {n} tables, got {list(winners)}")
    won = [side_pair(tables[t], winners[t]) for t in range(n)]
    lost = [side_pair(tables[t], 1 - winners[t]) for t in range(n)]
    out = []
    for t in range(n):
        if n == 1:
            a, b = won[0], lost[0]
        elif t == 0:
            a, b = won[0], won[1]              # table 1: its winners stay, table 2's come up
        elif t == n - 1:
            a, b = lost[t - 1], lost[t]        # last table: its losers stay, the one above's come down
        else:
            a, b = lost[t - 1], won[t + 1]
        out.append((a[0], b[0], b[1], a[1]))
    return Round(tuple(out), prev.byes)


#: Fixed movement: table shift per seat per round (N stays, E up 1, S down 1, W up 2).
FIXED_SHIFT = (0, 1, -1, 2)


def fixed(prev: Round) -> Round:
    """The next round of the fixed seat movement."""
    n = len(prev.tables)
    out = []
    for t in range(n):
        out.append(tuple(prev.tables[(t - FIXED_SHIFT[s]) % n][s] for s in range(4)))
    return Round(tuple(out), prev.byes)


def schedule_length(n: int) -> int:
    """Rounds in the whole partners schedule for ``n`` players."""
    if n < 4:
        raise ValueError(f"{n} players: a table needs four")
    return n + n % 4 - 1


def _pairs(n: int, r: int) -> tuple:
    """Round ``r``'s pairs of schedule places: ``(real pairs, places on a bye)``
    before a pair is set aside (circle method; places >= n are phantoms)."""
    m = n + n % 4                 # with the phantoms: always even
    k = r - 1
    # Circle method: place m - 1 is fixed, the others turn.
    pairs = [(k, m - 1)]
    for i in range(1, m // 2):
        pairs.append(((k + i) % (m - 1), (k - i) % (m - 1)))
    real, byes = [], []
    for a, b in pairs:
        if a < n and b < n:
            real.append((min(a, b), max(a, b)))
        else:
            byes += [x for x in (a, b) if x < n]
    return real, byes


@lru_cache(maxsize=64)
def _set_aside(n: int) -> dict:
    """``{round: index of the real pair that sits out}`` for the rounds with
    an odd number of real pairs: the first pair neither of whose players sat
    out in an earlier such round (so nobody sits out more than once more)."""
    out = {}
    used: set = set()
    for r in range(1, schedule_length(n) + 1):
        real, _ = _pairs(n, r)
        if len(real) % 2:
            i = next((i for i, (a, b) in enumerate(real) if a not in used and b not in used), len(real) - 1)
            out[r] = i
            used |= set(real[i])
    return out


def partners_round(order, r: int) -> Round:
    """Round ``r`` (1-based) of the partners schedule; ``order`` lists the
    players (their place in the schedule is their place in ``order``).

    :raises ValueError: fewer than 4 players, or no such round.
    """
    order = tuple(order)
    n = len(order)
    if not 1 <= r <= schedule_length(n):
        raise ValueError(f"the partners schedule for {n} players has rounds 1 to {schedule_length(n)}, not {r}")
    real, byes = _pairs(n, r)
    if len(real) % 2:
        byes += list(real.pop(_set_aside(n)[r]))
    tables = []
    for i in range(0, len(real), 2):
        (a0, a1), (b0, b1) = real[i], real[i + 1]
        tables.append((order[a0], order[b0], order[a1], order[b1]))
    return Round(tuple(tables), tuple(order[x] for x in sorted(byes)))


def partners_schedule(order) -> list:
    """Every round of the partners schedule."""
    return [partners_round(order, r) for r in range(1, schedule_length(len(order)) + 1)]
