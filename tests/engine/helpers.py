# Helpers of the engine tests (imported under MicroPython too).
"""Shared by the engine tests: a seeded random source that gives the same
numbers on CPython and MicroPython (whose random module differs), and a
scripted table-mode Classic game."""

# A Classic game to 5 (table mode, first dealer seat 0): five scored hands
# and a misdeal; E/W win 6-4 on the last event.
#   hand 1, dealer 0: seat 1 passes, seat 2 orders hearts, makers take 3 -> N/S 1
#   hand 2, dealer 1: round 1 passes, seat 2 calls diamonds alone, takes 4 -> N/S 2
#   hand 3, dealer 2: seat 3 orders clubs alone and marches -> E/W 4
#   hand 4, dealer 3: misdeal, same dealer; seat 1 orders, takes 1: euchred -> N/S 4
#   hand 5, dealer 0: seat 1 orders spades and marches -> E/W 6: E/W win
CLASSIC_TO_5 = ["up H", "pass", "order", "tricks 3",
                "up S", "pass", "pass", "pass", "pass", "call D alone",
                "won 2", "won 2", "won 1", "won 2", "won 2",
                "up C", "order alone", "won 3", "won 3", "won 3", "won 3", "won 3",
                "redeal", "up D", "pass", "order", "tricks 1",
                "up S", "order", "tricks 5"]


class Rand:
    # xorshift32.
    def __init__(self, seed):
        self.x = seed or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n


def fingerprint(g):
    # A value that is equal for equal game states.
    h = g.hand
    return (tuple(g.scores), g.dealer, g.hand_no, g.result,
            None if g.result else (h.phase, h.current_player(), tuple(h.legal_ids()),
                                   h.trump, h.maker, bytes(h.tricks)),
            tuple(g._ids), g.target)
