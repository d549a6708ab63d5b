# portable: runs under MicroPython
# Interrupt handlers never allocate (issue 27, point 1). A hard interrupt
# runs with the heap locked; a handler that allocates raises MemoryError
# there and MicroPython switches the pin's interrupt off, after which
# presses are seen only by polling (../shared/pico-timing.md, "At 084a52c").
#
# The real loop (bower.board.run) boots on the fake `machine` with every
# optional part on (encoder, buzzer); the fake records every handler the
# firmware gives to Pin.irq, hard or not, and each one is then called with
# the heap locked, at both levels of its pin, as often as a bouncing contact
# would. Under MicroPython (the native unix port: tests/test_micropython.py
# also runs this file against the modules `bower deploy` compiles) the heap
# really is locked; under CPython the same checks run unlocked.

import json
import sys

import fake_machine as fm

fm.install()

from bower import board, boardcfg  # noqa: E402
from ssd1306_model import FakeI2C  # noqa: E402
from test_board_portable import tmpdir  # noqa: E402

MP = sys.implementation.name == "micropython"
BUTTONS = (2, 3, 6, 7)      # boardcfg.DEFAULTS: UP DOWN OK BACK
ENCODER = (10, 11)


def _cfg():
    cfg = json.loads(json.dumps(boardcfg.DEFAULTS))
    cfg["encoder"]["enabled"] = True
    cfg["buzzer"]["enabled"] = True
    return cfg


def _boot(until, calls=()):
    # board.run with the encoder and buzzer on; returns the events handled.
    from bower import ui
    fm.reset_state()
    fm.attach_i2c(FakeI2C())
    d = tmpdir()
    path = d + "/board.json"
    with open(path, "w") as f:
        f.write(json.dumps(_cfg()))
    clock = fm.Clock()
    for t, fn in calls:
        clock.at(t, fn)
    seen = []
    handle = ui.App.handle

    def counting(self, ev, now):
        seen.append(ev)
        return handle(self, ev, now)
    ui.App.handle = counting
    try:
        board.run(path, d + "/", clock, lambda: clock.t >= until, None, lambda b: len(b))
    finally:
        ui.App.handle = handle
    return seen


def _hammer(n):
    # Every recorded handler, heap locked, n times at each level of its pin.
    for entry in list(fm.irq_log):
        p = entry[0]
        for _ in range(n):
            for level in (0, 1):
                fm.levels[p.id] = level
                fm.fire(p)


def test_every_interrupt_handler_runs_with_the_heap_locked():
    _boot(100, calls=[(50, lambda: _hammer(20))])
    ids = sorted([p.id for p, h, t, hard in fm.irq_log])
    assert ids == sorted(BUTTONS + ENCODER), ids
    assert [p.id for p, h, t, hard in fm.irq_log if hard] == list(BUTTONS)
    assert fm.irq_errors == [], fm.irq_errors
    for entry in fm.irq_log:
        assert entry[0].handler is not None, "interrupt of GP%d switched off" % entry[0].id


def test_edges_caught_with_the_heap_locked_reach_the_app():
    # A tap whose level the loop never samples (both edges inside one pass):
    # only the interrupt, heap locked, can have seen it.
    def tap(pin):
        def go():
            fm.levels[pin] = 0
            fm.fire(fm.pins[pin])
            fm.levels[pin] = 1
            fm.fire(fm.pins[pin])
        return go
    seen = _boot(900, calls=[(200, tap(3)), (400, tap(3)), (600, tap(2))])
    assert fm.irq_errors == [], fm.irq_errors
    assert seen == [2, 2, 1], seen       # keys.DOWN, DOWN, UP


def test_the_check_can_fail_an_allocating_handler():
    # The control: a closure over six names (the handler board.py had) is
    # refused by a locked heap, and the fake then disables it as the port does.
    if not MP:
        return
    fm.reset_state()
    a = b = c = d = e = f = 1
    p = fm.Pin(9, fm.Pin.IN, fm.Pin.PULL_UP)

    def edge(pin):
        return a + b + c + d + e + f
    p.irq(edge, fm.Pin.IRQ_FALLING, hard=True)
    fm.fire(p)
    assert len(fm.irq_errors) == 1 and isinstance(fm.irq_errors[0][1], MemoryError), fm.irq_errors
    assert p.handler is None


def test_a_tap_while_the_app_loads_counts():
    # A tap that comes and goes while the store and the app load (a resume
    # replays the game: most of a second on the Pico) is caught by the pin
    # interrupt, set up before them, and counts once the loop runs.
    from bower import ui
    init = ui.App.__init__

    def loading(self, *a, **k):
        init(self, *a, **k)
        fm.auto_irq = True
        fm.set_level(3, 0)      # DOWN, active low
        fm.set_level(3, 1)
        fm.auto_irq = False
    ui.App.__init__ = loading
    try:
        seen = _boot(300)
    finally:
        ui.App.__init__ = init
    assert fm.irq_errors == [], fm.irq_errors
    assert seen == [2], seen             # keys.DOWN
