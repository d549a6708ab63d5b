# portable: runs under MicroPython
# bower.board.run() on the real MicroPython (and CPython): the main loop with
# the real UI, store, link, display and ssd1306 driver, on the fake machine
# module, a fake clock and the SSD1306 model behind a fake I2C bus
# (ssd1306_model: the compact MicroPython model there, oledsim's here).
# Plain asserts only; tests/firmware/test_board.py has the full CPython suite.

import binascii
import time
import json
import os
import sys

import fake_machine as fm

fm.install()

import framebuf  # noqa: E402
from bower import board, boardcfg  # noqa: E402
from bower import keys as K  # noqa: E402
from bower.store import Store  # noqa: E402
from bower.ui import App  # noqa: E402
from ssd1306_model import FakeI2C  # noqa: E402

MP = sys.implementation.name == "micropython"
UP, DOWN, OK, BACK = 2, 3, 6, 7
DEVICE = binascii.hexlify(fm.UID).decode()
_made = [0]
_last = [None]      # the flash directory of the latest boot()


def tmpdir():
    if MP:
        # A fresh name (the native unix port's /tmp is the machine's own).
        while True:
            _made[0] += 1
            d = "/tmp/bower_board_%d_%d" % (time.ticks_us() & 0xFFFFFF, _made[0])
            try:
                os.mkdir(d)
                return d
            except OSError:
                pass
    import tempfile
    return tempfile.mkdtemp(prefix="bower_board_")


class Serial:
    # The USB serial as the link sees it: pollable, holding `data`.
    def __init__(self, data=b""):
        if MP:
            import io

            class S(io.IOBase):
                def __init__(self, data):
                    self.data = bytearray(data)

                def ioctl(self, req, arg):
                    return (arg & 1 if self.data else 0) if req == 3 else 0

                def read(self, n=-1):
                    out = bytes(self.data[:n])
                    self.data = self.data[n:]
                    return out
            self.stream = S(data)
            self._w = None
        else:
            r, w = os.pipe()
            os.write(w, data)
            self.stream = os.fdopen(r, "rb", 0)
            self._w = w

    def close(self):
        if self._w is not None:
            self.stream.close()
            os.close(self._w)


def press(pin, t, ms=80):
    return [(t, pin, 0), (t + ms, pin, 1)]


def boot(script=(), until=800, calls=(), data=b""):
    fm.reset_state()
    bus = FakeI2C()
    fm.attach_i2c(bus)
    d = tmpdir()
    _last[0] = d
    cfg = d + "/board.json"
    with open(cfg, "w") as f:
        f.write(json.dumps(boardcfg.DEFAULTS))
    clock = fm.Clock()
    for t, pin, level in script:
        clock.at(t, pin, level)
    for t, fn in calls:
        clock.at(t, fn)
    out = []
    ser = Serial(data)
    try:
        board.run(cfg, d + "/", clock, lambda: clock.t >= until, ser.stream, out.append)
    finally:
        ser.close()
    return bus.device, out, d, clock


def reference(events):
    app = App(Store(tmpdir(), device=DEVICE),
              {"version": "0.2.0", "device": DEVICE, "board": boardcfg.DEFAULTS}, now_ms=0)
    for i, ev in enumerate(events):
        app.handle(ev, 100 * (i + 1))
    buf = bytearray(1024)
    app.render(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


def test_presses_on_pins_reach_the_display():
    model, out, d, clock = boot(press(DOWN, 100) + press(UP, 300) + press(OK, 500))
    assert model.display_on
    assert bytes(model.gddram) == reference([K.DOWN, K.UP, K.OK])
    assert bytes(model.gddram) != reference([])
    assert clock.slept > 300          # idle loops sleep
    assert os.listdir(d) == ["board.json"]   # no flash write before a game starts


def test_link_answers_a_handshake():
    body = b"#B? t1 HELLO 1"
    req = body + b" " + (b"%08x" % (binascii.crc32(body) & 0xFFFFFFFF)) + b"\n"
    model, out, d, clock = boot(until=300, data=req)
    text = b"".join(out)
    assert text.startswith(b"#B! t1 OK "), text
    assert (b"dev=" + DEVICE.encode()) in text and b"fw=0.2.0" in text


def test_crash_is_logged_shown_and_a_press_soft_resets():
    def broken(self, ev, now):
        raise ValueError("boom")

    saved = App.handle
    App.handle = broken
    seen = []
    try:
        try:
            boot(press(OK, 100) + press(BACK, 900), until=3000,
                 calls=[(600, lambda: seen.append(fm.bus.device.display_on))])
        except fm.SoftReset:
            pass
        else:
            raise AssertionError("no soft reset")
    finally:
        App.handle = saved
    with open(_last[0] + "/crash.log") as f:
        line = f.read()
    assert "ValueError: boom" in line and line.endswith("\n"), line
    assert seen == [True]


def test_ctrl_c_returns_to_the_repl():
    def ctrl_c():
        raise KeyboardInterrupt

    model, out, d, clock = boot(until=5000, calls=[(200, ctrl_c)])
    assert clock.t < 300 and model.display_on
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    fb.text("Bower stopped", 0, 0, 1)
    assert bytes(model.gddram)[:128] == bytes(buf)[:128]
