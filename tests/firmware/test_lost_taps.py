"""No press is lost while the device is busy (issue 13, section 3).

The real loop (bower.board.run) with the real UI, store and display on the
fake `machine`, where every pass serves a USB request that takes 150 ms (a
sync answering GETs): longer than a tap. Taps of 30-60 ms land anywhere in
those passes; the pin interrupts queue their edges, so each one counts. The
same run with the interrupts not firing loses most of them: the check can
fail.
"""

import random

import fake_machine as fm
import pytest

fm.install()

from bower import board, link, ui  # noqa: E402
from test_board_loop import DOWN, OK, boot  # noqa: E402

BUSY_MS = 150


def run_taps(tmp_path, monkeypatch, taps, irq=True, calls=(), until=None):
    # taps: [(t, gpio, ms held)]; calls: [(t, fn)] run when the clock gets
    # there; irq: level changes fire the pin interrupts. Returns the events
    # the app handled.
    seen = []
    handle = ui.App.handle

    def counting(self, ev, now):
        seen.append(ev)
        return handle(self, ev, now)

    monkeypatch.setattr(ui.App, "handle", counting)
    clock_box = []

    def busy_poll(self):
        # A request that keeps the loop for BUSY_MS, time passing ms by ms
        # (so the pins change, and interrupt, at their own times).
        c = clock_box[0]
        for _ in range(BUSY_MS):
            c.t += 1
            c._apply()

    monkeypatch.setattr(link.Link, "poll", busy_poll)
    real_run = board.run

    def run(cfg, root, clock, stop, stdin, write):
        clock_box.append(clock)
        fm.auto_irq = irq
        return real_run(cfg, root, clock, stop, stdin, write)

    monkeypatch.setattr(board, "run", run)
    script = []
    for t, pin, ms in taps:
        script += [(t, pin, 0), (t + ms, pin, 1)]
    if until is None:
        until = max(t + ms for t, _, ms in taps) + 1000
    boot(tmp_path, script, until=until, calls=calls)
    return seen


def spread(n, seed, pins):
    rnd = random.Random(seed)
    t, out = 1000, []
    for _ in range(n):
        t += rnd.randint(90, 400)
        out.append((t, rnd.choice(pins), rnd.randint(30, 60)))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_tap_counts_while_the_link_keeps_the_loop_busy(tmp_path, monkeypatch, seed):
    taps = spread(15, seed, [DOWN])
    seen = run_taps(tmp_path, monkeypatch, taps)
    assert seen.count(2) == len(taps), seen          # 2 = keys.DOWN


def test_taps_of_30_ms_on_every_button_kind(tmp_path, monkeypatch):
    # DOWN x3 then OK: Settings -> opened (the home menu's third row).
    taps = [(1000, DOWN, 30), (1200, DOWN, 30), (1400, OK, 30)]
    seen = run_taps(tmp_path, monkeypatch, taps)
    assert seen == [2, 2, 3], seen


def test_without_interrupts_short_taps_are_lost(tmp_path, monkeypatch):
    # The control: polling alone misses taps shorter than a busy pass.
    taps = spread(15, 1, [DOWN])
    seen = run_taps(tmp_path, monkeypatch, taps, irq=False)
    assert seen.count(2) < len(taps) - 3, seen


def test_a_tap_inside_a_flash_write_counts_from_its_latched_interrupt(tmp_path, monkeypatch):
    # With interrupts off (a flash erase), a whole tap comes and goes; the
    # GPIO latches the edge and the handler runs once afterwards, reading the
    # button released again. Seeing the level it saw last means the edge in
    # between was missed: it queues the press and the release.
    def latched_tap(pin, t0):
        def fire():
            p = fm.pins[pin]
            fm.fire(p)            # the one interrupt, after the write
        return [(t0, lambda: fm.set_level(pin, 0)), (t0 + 40, lambda: fm.set_level(pin, 1)),
                (t0 + 45, fire)]

    calls = latched_tap(DOWN, 1000) + latched_tap(DOWN, 1400) + latched_tap(OK, 1800)
    # No interrupt during the taps themselves: only the latched one fires.
    seen = run_taps(tmp_path, monkeypatch, (), irq=False, calls=calls, until=3000)
    assert seen == [2, 2, 3], seen
