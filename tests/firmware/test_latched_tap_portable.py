# portable: runs under MicroPython
# A tap that comes and goes while a flash write holds the interrupts off,
# then the next tap of the same button after a long loop pass (found by
# test_sync_taps_portable's runs with heavier flash timing). The pin's
# interrupt runs once when the write ends, and its handler (board._Edge)
# queues the missed press and the release it reads at the same ms; the
# debounce (bower.buttons, 20 ms) takes that release for a bounce of the
# press and leaves it to the next loop pass that samples the pins. When that
# pass comes late (the loop busy: a sync request, a resume, several flash
# writes), the release is dated then, and the same button pressed again
# within 20 ms of that sample is taken for a bounce of it: the tap is lost.
# (A second tap before that sample merges with the first instead; a press
# latched by a write whose release comes within 20 ms of the write's end
# does the same.) Real board._Edge and bower.buttons.Buttons, plain asserts.

import fake_machine as fm

fm.install()

from bower import board  # noqa: E402
from bower import keys as K  # noqa: E402
from bower.buttons import Buttons  # noqa: E402


def _rig():
    b = Buttons()
    level = [1]     # DOWN, active low: released
    now = [0]
    e = board._Edge(1, lambda: level[0], 1, b, lambda: now[0])
    seen = []

    def loop_pass(t):
        seen.extend(b.update(0 if level[0] else 2, t))

    def edge(v, t):
        # The pin's interrupt at t (after a level change, or latched).
        level[0] = v
        now[0] = t
        e.edge(None)
    return seen, loop_pass, edge, level


def test_a_latched_tap_then_the_next_tap_after_a_late_pass():
    seen, loop_pass, edge, level = _rig()
    loop_pass(900)
    # DOWN tapped 1000-1030 inside an erase (interrupts off 990-1040): the
    # interrupt runs once, at 1040, and reads it released.
    level[0] = 0
    level[0] = 1
    edge(1, 1040)
    loop_pass(1041)       # the pass the write was in ends
    loop_pass(1150)       # the next one comes late (a sync request)
    edge(0, 1160)         # the next DOWN tap, 160 ms after the first
    edge(1, 1190)
    loop_pass(1250)
    assert seen == [K.DOWN, K.DOWN], seen


def test_a_latched_tap_then_the_next_tap_before_the_next_pass():
    seen, loop_pass, edge, level = _rig()
    loop_pass(900)
    level[0] = 0
    level[0] = 1
    edge(1, 1040)         # as above
    loop_pass(1041)
    edge(0, 1200)         # the next tap, while the loop is still busy
    edge(1, 1230)
    loop_pass(1300)
    assert seen == [K.DOWN, K.DOWN], seen


def test_a_press_latched_then_released_just_after_the_write():
    seen, loop_pass, edge, level = _rig()
    loop_pass(900)
    level[0] = 0          # DOWN pressed at 1000, inside an erase (990-1040):
    edge(0, 1040)         # its interrupt runs at 1040
    edge(1, 1045)         # released at 1045 (held 45 ms; 5 ms after the write)
    loop_pass(1046)
    edge(0, 1200)         # the next tap, while the loop is still busy
    edge(1, 1230)
    loop_pass(1300)
    assert seen == [K.DOWN, K.DOWN], seen
