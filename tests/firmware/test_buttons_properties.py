"""Property tests (hypothesis) for bower.buttons: contact bounce never adds
or loses an event. CPython only; the portable file has the scripted cases.

Debounce is leading-edge: a change counts at once and changes in the next
20 ms are bounce. So a bounce train (all its flips) must end within 20 ms of
the edge it follows, as a tactile switch's does (a few ms)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bower.buttons import Buttons, Encoder
from bower.keys import UP, DOWN, OK, BACK, BACK_LONG, BACK_DOWN

# Bounce: (ms at the new level, ms back at the old one) pairs before the
# level settles, the whole train within the 20 ms lockout.
chatter = st.lists(st.tuples(st.integers(1, 4), st.integers(1, 4)), max_size=2)
hold = st.one_of(st.integers(60, 500), st.integers(720, 1500))   # not within a bounce of 600
press = st.tuples(st.integers(60, 400), hold, chatter, chatter)   # gap, hold, bounce in, bounce out


def timeline(presses, bit, bouncy):
    # [(t, level)] changes for one button. A bounce train starts at the edge
    # and flips back and forth before the level settles (the press and its
    # hold keep their times: the edge is where the event belongs).
    out, t = [], 0
    for gap, held, b_in, b_out in presses:
        t += gap
        for edge, bounce in ((bit, b_in), (0, b_out)):
            out.append((t, edge))
            if bouncy:
                u = t
                for back, again in bounce:
                    u += back
                    out.append((u, bit - edge))
                    u += again
                    out.append((u, edge))
            t += held if edge else 0
    return out, t + 1000


def events(changes, end):
    b = Buttons()
    got, k, mask = [], 0, 0
    for t in range(end):
        while k < len(changes) and changes[k][0] <= t:
            mask = changes[k][1]
            k += 1
        got.extend(b.update(mask, t))
    return got


@settings(max_examples=60, deadline=None)
@given(st.lists(press, min_size=1, max_size=4), st.sampled_from([(1, UP, None), (4, OK, "once"),
                                                                  (8, BACK, BACK_LONG)]))
def test_bounce_changes_nothing(presses, button):
    bit, short, long_ = button
    clean = events(*timeline(presses, bit, False))
    bouncy = events(*timeline(presses, bit, True))
    assert bouncy == clean
    if long_ == "once":
        assert clean == [OK] * len(presses)
    elif long_ is not None:
        # Two events per press: its edge, then long when held 600 ms or
        # more, else short.
        want = []
        for p in presses:
            want += [BACK_DOWN, long_ if p[1] >= 600 else short]
        assert clean == want
    else:
        # UP: one on press, then repeats at 400 + 120 k ms while held.
        assert clean == [UP] * sum(1 + (0 if p[1] <= 400 else (p[1] - 401) // 120 + 1) for p in presses)


CW = ((0, 1), (0, 0), (1, 0), (1, 1))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.lists(st.integers(0, 3), min_size=4, max_size=4)),
                max_size=12))
def test_encoder_bounce_changes_nothing(turns):
    e = Encoder()
    got, want = [], []
    state = (1, 1)
    for clockwise, flickers in turns:
        seq = CW if clockwise else tuple(reversed(CW[:3])) + ((1, 1),)
        want.append(DOWN if clockwise else UP)
        for s, n in zip(seq, flickers):
            for _ in range(n):          # the moving line chatters back and forth
                got.extend(e.update(*s))
                got.extend(e.update(*state))
            got.extend(e.update(*s))
            state = s
    assert got == want
