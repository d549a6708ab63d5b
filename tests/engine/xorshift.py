# A helper of the engine tests (imported under MicroPython too).
"""A seeded random source that gives the same numbers on CPython and
MicroPython (whose random module differs), for tests that must replay the
same games on both."""


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
