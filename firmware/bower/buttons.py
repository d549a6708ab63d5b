# Buttons and rotary encoder: raw levels in, bower.keys events out.
#
# Pure logic (no machine, no time): the board loop samples the pins into a
# bitmask and passes the time in ms, so tests drive it with scripted levels
# and a fake clock on CPython and MicroPython alike.
#
#   b = Buttons()
#   for ev in b.update(mask, time.ticks_ms()):   # bit0 UP, 1 DOWN, 2 OK, 3 BACK
#       app.handle(ev, now)
#
# update() returns the same list object every call (refilled, never
# reallocated once it has grown): use the events before the next call.
#
# Timing (ms): a level counts once it has been stable for _DEBOUNCE.
#   UP / DOWN: the event fires on the press; held, it repeats after _DELAY,
#     then every _RATE.
#   OK / BACK: short press fires on release if held < _LONG; held _LONG or
#     more, OK_LONG / BACK_LONG fires once while still held, nothing on release.
# Times may wrap like time.ticks_ms() (period 2**30).

from bower.keys import UP, DOWN, OK, BACK, OK_LONG, BACK_LONG

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_DEBOUNCE = const(20)
_LONG = const(600)
_DELAY = const(400)
_RATE = const(120)

_HALF = const(0x20000000)    # half the ticks period
_MASK = const(0x3FFFFFFF)    # ticks period - 1

# Event per bit, and what holding it does: a long event, or 0 = auto-repeat.
_SHORT = (UP, DOWN, OK, BACK)
_HELD = (0, 0, OK_LONG, BACK_LONG)


class _Key:
    def __getitem__(self, k):
        return k


# A ready-made [:] slice: `del out[_ALL]` empties a list in place without
# allocating (`del out[:]` builds a slice object each time on MicroPython,
# and list.clear() shrinks the storage).
_ALL = _Key()[:]


def ticks_diff(a, b):
    # a - b for ticks_ms() values (wrapping at 2**30), without big ints.
    d = (a - b) & _MASK
    if d >= _HALF:
        d -= _HALF
        d -= _HALF
    return d


def _add(t, d):
    # (t + d) mod 2**30 for 0 <= d < 2**29, without big ints.
    if t > _MASK - d:
        return (t - _HALF) + d - _HALF
    return t + d


class Buttons:
    def __init__(self, count=4):
        if count < 1 or count > 4:
            raise ValueError("Buttons: count must be 1..4")
        self.count = count
        self._raw = 0          # last sampled mask
        self._stable = 0       # debounced mask
        self._since = [0] * count    # when each raw bit last changed
        self._down = [0] * count     # when each debounced press began
        self._next = [0] * count     # next auto-repeat time (UP/DOWN)
        self._longed = 0       # bits whose long event already fired
        self._out = []

    def pressed(self):
        # Debounced mask of the buttons held now.
        return self._stable

    def update(self, mask, now):
        out = self._out
        del out[_ALL]
        changed = mask ^ self._raw
        self._raw = mask
        for i in range(self.count):
            bit = 1 << i
            if changed & bit:
                self._since[i] = now
            level = mask & bit
            if level != self._stable & bit:
                if ticks_diff(now, self._since[i]) >= _DEBOUNCE:
                    self._stable ^= bit
                    if level:
                        self._press(i, now)
                    else:
                        self._release(i, now)
            elif level and ticks_diff(now, self._since[i]) >= _DEBOUNCE:
                # Held and steady (a release bounce is not a hold).
                self._held(i, now)
        return out

    def _press(self, i, now):
        # The press counts from when the level settled, not from this sample.
        t = self._since[i]
        self._down[i] = t
        self._longed &= ~(1 << i)
        if _HELD[i] == 0:
            self._out.append(_SHORT[i])
            self._next[i] = _add(t, _DELAY)
        self._held(i, now)

    def _held(self, i, now):
        held = _HELD[i]
        if held == 0:
            late = ticks_diff(now, self._next[i])
            if late >= 0:
                self._out.append(_SHORT[i])
                # One event per sample: after a stall, resume the rhythm
                # from now instead of firing a burst.
                self._next[i] = _add(now if late >= _RATE else self._next[i], _RATE)
        elif not self._longed & (1 << i) and ticks_diff(now, self._down[i]) >= _LONG:
            self._longed |= 1 << i
            self._out.append(held)

    def _release(self, i, now):
        held = _HELD[i]
        if held == 0 or self._longed & (1 << i):
            return
        # Released before anyone saw it reach _LONG (a stalled loop): judge
        # by how long it was really held.
        if ticks_diff(self._since[i], self._down[i]) >= _LONG:
            self._out.append(held)
        else:
            self._out.append(_SHORT[i])


# Quadrature transitions: index (previous << 2) | current, state (a << 1) | b;
# +1 one quarter step clockwise (a leads: 11 01 00 10 11), -1 the other way,
# 0 no change or an impossible double change (a missed sample).
_QUAD = (0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0)


class Encoder:
    # EC11 / KY-040 with detents: four transitions per detent, resting at
    # a = b = 1 with pull-ups. Contact bounce flips one line back and forth,
    # which the table turns into +1 -1 +1 ... so it cancels out; a detent is
    # counted only when the lines come back to rest having moved at least
    # two quarter steps one way. Clockwise is DOWN (next item), as on most
    # menus; swapping a and b in board.json reverses it.
    #
    # step(a, b) only updates counters (no allocation) and may run in a pin
    # interrupt; events() turns the detents counted since the last call into
    # UP/DOWN events. update(a, b, now) is both, for polling.

    def __init__(self, rest=3, cw=DOWN, ccw=UP):
        self._rest = rest
        self._state = rest
        self._acc = 0
        self._cw = 0       # detents counted (written by step only)
        self._ccw = 0
        self._cw_done = 0  # detents turned into events (events() only)
        self._ccw_done = 0
        self._ev_cw = cw
        self._ev_ccw = ccw
        self._out = []

    def step(self, a, b):
        s = (2 if a else 0) | (1 if b else 0)
        prev = self._state
        if s == prev:
            return
        self._state = s
        self._acc += _QUAD[(prev << 2) | s]
        if s == self._rest:
            if self._acc >= 2:
                self._cw += 1
            elif self._acc <= -2:
                self._ccw += 1
            self._acc = 0

    def events(self):
        out = self._out
        del out[_ALL]
        while self._cw_done != self._cw:
            self._cw_done += 1
            out.append(self._ev_cw)
        while self._ccw_done != self._ccw:
            self._ccw_done += 1
            out.append(self._ev_ccw)
        return out

    def update(self, a, b, now=0):
        # now is accepted for symmetry with Buttons.update; detents need no
        # timing.
        self.step(a, b)
        return self.events()
