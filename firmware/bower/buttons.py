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
# Timing (ms), leading-edge debounce: a level change counts the moment it is
# seen, unless it comes within _DEBOUNCE of the last change counted for that
# button (contact bounce). A change hidden by that lockout and not undone by
# a later edge counts as made when the lockout ended, once the next edge or
# sample shows it (a late loop pass must not date it late: the next tap
# would look like its bounce).
#   UP / DOWN: the event fires on the press; held, it repeats after _DELAY,
#     then every _RATE.
#   OK: fires on the press (it has no long-press meaning).
#   BACK: BACK_DOWN fires on the press; then a short press fires BACK on
#     release if held < _LONG; held _LONG or more, BACK_LONG fires once
#     while still held, nothing on release.
# Times may wrap like time.ticks_ms() (period 2**30).
#
# Edges from pin interrupts: ``edge(i, pressed, t)`` only writes three ints
# into a preallocated ring (no allocation: it may run in a hard interrupt),
# and the next update() replays them in order before its own sample, so a
# tap shorter than a busy loop pass still counts.

from bower.keys import UP, DOWN, OK, BACK, BACK_LONG, BACK_DOWN

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_DEBOUNCE = const(20)
_LONG = const(600)
_DELAY = const(400)
_RATE = const(120)
_RING = const(48)            # 16 edges of 3 ints

_HALF = const(0x20000000)    # half the ticks period
_MASK = const(0x3FFFFFFF)    # ticks period - 1

# Event per bit, and how the key behaves: 0 repeats while held, 1 fires once
# on the press, 2 fires BACK_DOWN on the press, then on release (short) or
# while held (long).
_SHORT = (UP, DOWN, OK, BACK)
_MODE = (0, 0, 1, 2)


class _Key:
    def __getitem__(self, k):
        return k


# A ready-made [:] slice: `del out[_ALL]` empties a list in place without
# allocating (`del out[:]` builds a slice object each time on MicroPython,
# and list.clear() shrinks the storage).
_ALL = _Key()[:]


def ticks_diff(a, b):
    # a - b for ticks_ms() values (wrapping at 2**30), without big ints
    # (firmware/DEVICE.md, 5).
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
        self._stable = 0       # debounced mask
        self._armed = 0        # bits that changed once (their lockout applies)
        self._since = [0] * count    # when each button's last change counted
        self._next = [0] * count     # next auto-repeat time (UP/DOWN)
        self._down = [0] * count     # when each press counted
        self._longed = 0       # bits whose long event already fired
        self._hid = 0          # bits with a change hidden by the lockout ...
        self._hlev = 0         # ... and the level it left
        self._out = []
        self._q = [0] * _RING  # edges from interrupts: button, pressed, time
        self._qr = 0
        self._qw = 0

    def pressed(self):
        # Debounced mask of the buttons held now.
        return self._stable

    def edge(self, i, pressed, t):
        # A pin interrupt saw button i become pressed (1) or released (0) at
        # t. Allocation-free; a full ring drops the edge (the sample catches up).
        w = self._qw
        n = w + 3
        if n == _RING:
            n = 0
        if n == self._qr:
            return
        q = self._q
        q[w] = i
        q[w + 1] = pressed
        q[w + 2] = t
        self._qw = n

    def waiting(self):
        # True when interrupts queued edges that no update() has seen.
        return self._qr != self._qw

    def update(self, mask, now):
        out = self._out
        del out[_ALL]
        q = self._q
        while self._qr != self._qw:
            r = self._qr
            self._change(q[r], q[r + 1], q[r + 2])
            r += 3
            self._qr = 0 if r == _RING else r
        for i in range(self.count):
            bit = 1 << i
            level = mask & bit
            if (level != 0) != (self._stable & bit != 0):
                self._change(i, level, now)
            else:
                self._hid &= ~bit    # whatever the lockout hid was undone
            if self._stable & bit:
                self._held(i, now)
        return out

    def _change(self, i, level, t):
        bit = 1 << i
        if self._hid & bit:
            # A change the lockout hid, that nothing undid until the
            # lockout ended: it stood when a sample would have seen it
            # (a latched tap's release, or a late loop pass).
            end = _add(self._since[i], _DEBOUNCE)
            if ticks_diff(t, end) >= 0:
                self._hid &= ~bit
                self._change(i, self._hlev & bit, end)
        if (level != 0) == (self._stable & bit != 0):
            self._hid &= ~bit
            return
        if self._armed & bit and ticks_diff(t, self._since[i]) < _DEBOUNCE:
            # A bounce, or the real change (then kept for the lockout's end).
            self._hid |= bit
            if level:
                self._hlev |= bit
            else:
                self._hlev &= ~bit
            return
        self._armed |= bit
        self._since[i] = t
        self._stable ^= bit
        mode = _MODE[i]
        if level:
            self._down[i] = t
            self._longed &= ~bit
            if mode != 2:
                self._out.append(_SHORT[i])
                self._next[i] = _add(t, _DELAY)
            else:
                self._out.append(BACK_DOWN)
        elif mode == 2 and not self._longed & bit:
            # Released before anyone saw it reach _LONG (a stalled loop):
            # judged by how long it was really held.
            held = ticks_diff(t, self._down[i])
            self._out.append(BACK_LONG if held >= _LONG else _SHORT[i])

    def _held(self, i, now):
        mode = _MODE[i]
        if mode == 0:
            late = ticks_diff(now, self._next[i])
            if late >= 0:
                self._out.append(_SHORT[i])
                # One event per sample: after a stall, resume the rhythm
                # from now instead of firing a burst.
                self._next[i] = _add(now if late >= _RATE else self._next[i], _RATE)
        elif mode == 2:
            bit = 1 << i
            if not self._longed & bit and ticks_diff(now, self._down[i]) >= _LONG:
                self._longed |= bit
                self._out.append(BACK_LONG)


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
