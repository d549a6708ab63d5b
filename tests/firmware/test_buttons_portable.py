# portable: runs under MicroPython
# Buttons and Encoder (bower.buttons) driven with scripted levels and a fake
# clock: the same file runs under CPython pytest and under the real
# MicroPython (tests/mpy/run_tests.mjs). Plain asserts only.

import gc
import sys

from bower.buttons import Buttons, Encoder, ticks_diff
from bower.keys import UP, DOWN, OK, BACK, BACK_LONG, BACK_DOWN

B_UP = 1
B_DOWN = 2
B_OK = 4
B_BACK = 8
PERIOD = 1 << 30


def drive(levels, end, step=5, start=0, buttons=None):
    # levels: [(t, mask)] level changes (sorted, relative ms); samples every
    # `step` ms from 0 to `end` inclusive; returns [(t, event)].
    b = buttons or Buttons()
    out = []
    mask = 0
    k = 0
    t = 0
    while t <= end:
        while k < len(levels) and levels[k][0] <= t:
            mask = levels[k][1]
            k += 1
        now = (start + t) % PERIOD
        for ev in b.update(mask, now):
            out.append((t, ev))
        t += step
    return out


def names(events):
    return [ev for _, ev in events]


def test_ok_fires_on_the_press_edge():
    # Leading edge: OK acts at the first sample that shows it pressed.
    assert drive([(0, B_OK), (100, 0)], 300) == [(0, OK)]
    assert drive([(0, B_OK), (100, 0)], 300, step=1) == [(0, OK)]


def test_back_fires_back_down_on_the_edge_then_back_on_release_when_short():
    assert drive([(0, B_BACK), (100, 0)], 300) == [(0, BACK_DOWN), (100, BACK)]


def test_bounce_within_the_lockout_is_ignored():
    # Changes within 20 ms of the last counted one are contact bounce.
    assert drive([(0, B_UP), (2, 0), (3, B_UP), (6, 0), (9, B_UP), (200, 0)], 400, step=1) == [(0, UP)]
    # A real release 20 ms after the press counts; the next press too.
    assert names(drive([(0, B_UP), (20, 0), (45, B_UP), (80, 0)], 300, step=1)) == [UP, UP]


def test_a_change_hidden_by_the_lockout_is_caught_after_it():
    # A 10 ms tap: released inside the lockout; the sample at 20 ms sees it.
    b = Buttons()
    assert b.update(B_OK, 0) == [OK]
    assert b.update(0, 10) == []
    assert b.pressed() == B_OK
    assert b.update(0, 20) == []
    assert b.pressed() == 0
    assert b.update(B_OK, 45) == [OK]


def test_ok_has_no_long_press_back_has():
    assert drive([(0, B_OK), (1500, 0)], 2000) == [(0, OK)]
    ev = drive([(0, B_BACK), (2500, 0)], 3000)
    assert ev == [(0, BACK_DOWN), (600, BACK_LONG)], ev


def test_long_threshold_is_600_ms():
    assert names(drive([(0, B_BACK), (599, 0)], 1000, step=1)) == [BACK_DOWN, BACK]
    assert names(drive([(0, B_BACK), (600, 0)], 1000, step=1)) == [BACK_DOWN, BACK_LONG]


def test_up_fires_on_press_then_repeats():
    ev = drive([(0, B_UP), (1000, 0)], 1200)
    times = [t for t, e in ev if e == UP]
    assert len(ev) == len(times)
    # First event on the edge, then 400 ms delay, 120 ms rate.
    assert times == [0, 400, 520, 640, 760, 880], times


def test_down_repeat_with_a_coarse_loop():
    ev = drive([(0, B_DOWN), (700, 0)], 1000, step=10)
    assert ev == [(0, DOWN), (400, DOWN), (520, DOWN), (640, DOWN)], ev


def test_bouncy_contacts_give_one_event_per_press():
    # Each press and release chatters for ~10 ms, sampled every ms.
    press = [(0, B_OK), (2, 0), (3, B_OK), (6, 0), (9, B_OK)]
    release = [(150, 0), (151, B_OK), (153, 0), (157, B_OK), (158, 0)]
    assert drive(press + release, 400, step=1) == [(0, OK)]
    back = [(t, m and B_BACK) for t, m in press + release]
    assert drive(back, 400, step=1) == [(0, BACK_DOWN), (150, BACK)]
    up = [(0, B_UP), (1, 0), (4, B_UP), (5, 0), (7, B_UP), (200, 0), (203, B_UP), (205, 0)]
    assert names(drive(up, 400, step=1)) == [UP]


def test_two_buttons_at_once():
    # UP held for 600 ms while OK is tapped in the middle.
    ev = drive([(0, B_UP), (100, B_UP | B_OK), (200, B_UP), (600, 0)], 800)
    assert ev == [(0, UP), (100, OK), (400, UP), (520, UP)], ev
    # OK and BACK pressed together and held: OK at once, BACK's long event.
    ev = drive([(0, B_OK | B_BACK), (800, 0)], 1000)
    assert ev == [(0, OK), (0, BACK_DOWN), (600, BACK_LONG)], ev


def test_stalled_loop_still_classifies_by_real_duration():
    b = Buttons()
    assert b.update(B_BACK, 0) == [BACK_DOWN]
    assert b.update(B_BACK, 25) == []
    assert b.update(0, 900) == [BACK_LONG]  # the loop stalled; the release says how long
    assert b.update(0, 920) == []
    # A long stall while UP is held gives one repeat, not a burst.
    b = Buttons()
    assert b.update(B_UP, 0) == [UP]
    assert b.update(B_UP, 20) == []
    assert b.update(B_UP, 2000) == [UP]
    assert b.update(B_UP, 2100) == []
    assert b.update(B_UP, 2120) == [UP]


def test_edges_from_interrupts_count_taps_between_samples():
    # A 30 ms tap that began and ended while the loop was busy (no sample
    # saw it): the interrupt's edges still make the event, in order.
    for bit, i, want in ((B_OK, 2, [OK]), (B_UP, 0, [UP]), (B_BACK, 3, [BACK_DOWN, BACK])):
        b = Buttons()
        assert not b.waiting()
        b.edge(i, 1, 100)
        b.edge(i, 0, 130)
        assert b.waiting()
        assert b.update(0, 400) == want, (bit, want)
        assert not b.waiting()
        assert b.pressed() == 0
    # Two taps of OK during one busy pass: two OKs.
    b = Buttons()
    for t in (100, 160):
        b.edge(2, 1, t)
        b.edge(2, 0, t + 30)
    assert b.update(0, 400) == [OK, OK]
    # Interrupt bounce is filtered like sampled bounce.
    b = Buttons()
    for t, lv in ((100, 1), (101, 0), (103, 1), (160, 0), (161, 1), (162, 0)):
        b.edge(2, lv, t)
    assert b.update(0, 400) == [OK]


def test_a_full_ring_drops_edges_but_the_sample_catches_up():
    b = Buttons()
    for k in range(40):
        b.edge(0, k % 2 == 0, 100 + 30 * k)
    ev = b.update(B_UP, 5000)
    assert 1 <= len(ev) <= 16 and set(ev) == {UP}, ev
    assert b.pressed() == B_UP


def test_ticks_wrap_around():
    start = PERIOD - 300
    for levels, end in (([(0, B_UP), (1000, 0)], 1200), ([(0, B_OK), (250, 0)], 500),
                        ([(0, B_BACK), (900, 0)], 1000)):
        assert drive(levels, end, start=start) == drive(levels, end), levels
    assert ticks_diff(5, PERIOD - 5) == 10
    assert ticks_diff(PERIOD - 5, 5) == -10


def test_pressed_reports_debounced_levels():
    b = Buttons()
    b.update(B_OK | B_UP, 0)
    assert b.pressed() == B_OK | B_UP
    b.update(0, 5)              # within the lockout: still held
    assert b.pressed() == B_OK | B_UP
    b.update(0, 20)
    assert b.pressed() == 0


def test_fewer_buttons():
    b = Buttons(count=3)
    assert names(drive([(0, B_BACK), (100, 0), (200, B_OK), (300, 0)], 500, buttons=b)) == [OK]
    try:
        Buttons(count=5)
    except ValueError:
        pass
    else:
        raise AssertionError("count=5 accepted")


def test_update_does_not_allocate_in_steady_state():
    if sys.implementation.name != "micropython":
        return  # gc.mem_alloc is MicroPython's; the check needs it
    b = Buttons()
    e = Encoder()
    script = (0, B_UP, B_UP, 0, B_OK, B_OK | B_DOWN, B_DOWN, 0, B_BACK, 0)
    quad = ((1, 1), (0, 1), (0, 0), (1, 0))

    def run(t0, n):
        t = t0
        for i in range(n):
            mask = script[(i // 7) % 10]
            if i % 50 == 0:
                b.edge(2, 1, t)
                b.edge(2, 0, t)
            b.update(mask, t)
            q = quad[(i // 3) % 4]
            e.update(q[0], q[1], t)
            t += 5
        return t

    t = run(0, 3000)          # warm up: output lists reach their size
    gc.collect()
    before = gc.mem_alloc()
    run(t, 3000)
    after = gc.mem_alloc()
    assert after == before, "allocated %d bytes" % (after - before)


# --- encoder ----------------------------------------------------------------

CW = ((0, 1), (0, 0), (1, 0), (1, 1))       # from rest (1, 1): a leads
CCW = ((1, 0), (0, 0), (0, 1), (1, 1))


def turn(enc, samples):
    out = []
    for a, b in samples:
        out.extend(enc.update(a, b, 0))
    return out


def bouncy(samples, prev=(1, 1)):
    # Every edge chatters: new, old, new, old, new (only the line that moved).
    out = []
    for s in samples:
        out.extend([s, prev, s, prev, s])
        prev = s
    return out


def test_encoder_one_detent_each_way():
    assert turn(Encoder(), CW) == [DOWN]
    assert turn(Encoder(), CCW) == [UP]


def test_encoder_several_detents_with_bounce():
    e = Encoder()
    assert turn(e, bouncy(CW * 5)) == [DOWN] * 5
    assert turn(e, bouncy(CCW * 3)) == [UP] * 3


def test_encoder_jitter_at_rest_and_half_turns_do_nothing():
    e = Encoder()
    assert turn(e, [(0, 1), (1, 1), (0, 1), (1, 1), (1, 0), (1, 1)]) == []
    # Half a detent forward and back again.
    assert turn(e, [(0, 1), (0, 0), (0, 1), (1, 1)]) == []
    assert turn(e, CW) == [DOWN]


def test_encoder_missed_sample_still_counts():
    # The poll missed (0, 1): 11 -> 00 is a double change (ignored), the
    # remaining two quarter steps still decide the direction.
    assert turn(Encoder(), [(0, 0), (1, 0), (1, 1)]) == [DOWN]


def test_encoder_interrupt_mode_and_reversed_direction():
    e = Encoder(cw=UP, ccw=DOWN)
    for a, b in bouncy(CW * 2 + CCW):
        e.step(a, b)       # what a pin interrupt would call
    ev = e.events()
    assert sorted(ev) == sorted([UP, UP, DOWN]), ev
    assert e.events() == []
