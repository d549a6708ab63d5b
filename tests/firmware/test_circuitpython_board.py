"""bower.board on "CircuitPython": run() with fake board/busio/digitalio/
microcontroller/supervisor/pwmio modules (tests/firmware/fake_circuitpython.py),
Adafruit's real adafruit_ssd1306 + adafruit_framebuf + adafruit_bus_device
(through bower.cpdisplay) and the SSD1306 model behind the fake busio.I2C.

bower.board is loaded afresh with sys.implementation.name == "circuitpython"
and `machine` made unimportable, so the CircuitPython branch is what runs.
Every frame checked went pins -> Buttons -> App -> Display -> Adafruit driver
-> adafruit_bus_device -> busio.I2C -> the model's display RAM, and is
compared with a separate App drawn into MicroPython's framebuf.
"""

import importlib.util
import json
import os
import sys
import tempfile
import types

import fake_circuitpython as fcp
import fake_machine as fm
import framebuf
import pytest

from bower import boardcfg
from bower import keys as K
from bower.store import Store
from bower.ui import App
from bower_host.oledsim import SSD1306Model
from bower_host.framing import encode_request, parse_reply

UP, DOWN, OK, BACK = 2, 3, 6, 7          # GPIOs of the default board.json
BOARD_PY = os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "bower", "board.py")


@pytest.fixture
def cp(monkeypatch):
    # A bower.board module as CircuitPython imports it, with the fake modules
    # and the Adafruit-framebuf flavour of adafruit_ssd1306 / bower.cpdisplay.
    ada, cpd = fcp.adafruit()
    for name, mod in fcp.modules().items():
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setitem(sys.modules, "adafruit_ssd1306", ada)
    monkeypatch.setitem(sys.modules, "bower.cpdisplay", cpd)
    monkeypatch.setitem(sys.modules, "machine", None)      # import machine -> ImportError
    real = sys.implementation
    impl = types.SimpleNamespace(**vars(real))
    impl.name = "circuitpython"
    spec = importlib.util.spec_from_file_location("cp_bower_board", BOARD_PY)
    mod = importlib.util.module_from_spec(spec)
    sys.implementation = impl
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.implementation = real    # CPython again for the rest (store, link)
    assert mod._CP and not hasattr(mod, "machine")
    return mod


class Stopper:
    def __init__(self, clock, until, limit=200000):
        self.clock, self.until, self.limit, self.calls = clock, until, limit, 0

    def __call__(self):
        self.calls += 1
        assert self.calls < self.limit, "the loop spins without sleeping"
        return self.clock.t >= self.until


def press(pin, t, ms=80):
    return [(t, lambda: fcp.set_level(pin, 0)), (t + ms, lambda: fcp.set_level(pin, 1))]


def boot(board, tmp_path, calls=(), until=1000, cfg=None, devices=None, name="flash", stdin_data=b""):
    model = SSD1306Model()
    fcp.reset(*([model] if devices is None else devices))
    cfg_path = tmp_path / (name + ".json")
    cfg_path.write_text(json.dumps(cfg if cfg is not None else boardcfg.DEFAULTS))
    root = tmp_path / name
    root.mkdir(exist_ok=True)
    clock = fm.Clock()
    for t, fn in calls:
        clock.at(t, fn)
    r, w = os.pipe()
    os.write(w, stdin_data)
    stdin = os.fdopen(r, "rb", buffering=0)
    out = []
    try:
        board.run(str(cfg_path), str(root), clock, Stopper(clock, until), stdin, out.append)
    finally:
        stdin.close()
        os.close(w)
    return model, clock, out, root


def reference(tmp_path, events, mask=0):
    root = tempfile.mkdtemp(prefix="ref", dir=str(tmp_path))
    info = {"version": "0.2.0", "device": fcp.STATE.uid.hex(), "board": boardcfg.load("/nonexistent")}
    app = App(Store(root, device=info["device"]), info, now_ms=0)
    for i, ev in enumerate(events):
        app.handle(ev, 100 * (i + 1))
    app.buttons_seen(mask)
    buf = bytearray(1024)
    app.render(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


def test_boots_to_the_home_screen_through_adafruit_ssd1306(cp, tmp_path):
    model, clock, out, root = boot(cp, tmp_path, until=500)
    assert model.display_on and any(model.gddram)
    assert bytes(model.gddram) == reference(tmp_path, [])
    i2c, = fcp.STATE.i2c
    assert (i2c.sda.name, i2c.scl.name, i2c.frequency) == ("GP4", "GP5", 400000)
    assert not i2c.locked
    drv_types = {type(o).__name__ for o in fcp.STATE.claimed.values()}
    assert drv_types == {"DigitalInOut", "I2C"}
    for gp in (UP, DOWN, OK, BACK):
        pin = fcp.STATE.claimed["GP%d" % gp]
        assert pin.direction is fcp.Direction.INPUT and pin.pull is fcp.Pull.UP
    assert fcp.STATE.claimed["LED"].direction is fcp.Direction.OUTPUT
    assert root.is_dir() and list(root.iterdir()) == []   # nothing written to boot
    assert clock.slept >= 400 and out == []           # idle: the loop sleeps, sends nothing


def test_link_reports_microcontroller_uid_as_the_device_id(cp, tmp_path):
    model, clock, out, root = boot(cp, tmp_path, press(DOWN, 100), until=400,
                                   stdin_data=encode_request("t1", "HELLO", 1))
    replies = [parse_reply(line) for line in b"".join(out).splitlines(True)]
    replies = [r for r in replies if r is not None]
    assert len(replies) == 1 and replies[0].status == "OK", out
    assert "dev=" + fcp.STATE.uid.hex() in replies[0].words
    assert bytes(model.gddram) == reference(tmp_path, [K.DOWN])


def test_a_button_press_moves_the_screen(cp, tmp_path):
    # OK opens "New game", DOWN moves its cursor (screens without the
    # host disk's free space on them).
    model, clock, out, root = boot(cp, tmp_path, press(OK, 100) + press(DOWN, 300), until=600)
    want = reference(tmp_path, [K.OK, K.DOWN])
    assert bytes(model.gddram) == want
    assert want != reference(tmp_path, [K.OK]) and want != reference(tmp_path, [])


def test_button_test_screen_and_a_long_press(cp, tmp_path):
    # Home -> Settings -> Button test, then UP and BACK held together.
    calls = press(DOWN, 100) + press(OK, 300)
    for i in range(3):
        calls += press(DOWN, 500 + 200 * i)
    calls += press(OK, 1200)
    calls += [(1400, lambda: fcp.set_level(UP, 0)), (1400, lambda: fcp.set_level(BACK, 0))]
    model, clock, out, root = boot(cp, tmp_path, calls, until=1600)
    events = [K.DOWN, K.OK, K.DOWN, K.DOWN, K.DOWN, K.OK, K.UP]
    assert bytes(model.gddram) == reference(tmp_path, events, mask=0b1001)


def _with(**parts):
    cfg = json.loads(json.dumps(boardcfg.DEFAULTS))
    for k, v in parts.items():
        cfg[k].update(v)
    return cfg


def test_encoder_is_polled_and_its_push_is_ok(cp, tmp_path):
    cfg = _with(encoder={"enabled": True})

    def levels(a, b):
        return lambda: (fcp.set_level(10, a), fcp.set_level(11, b))

    # The push (OK) opens "New game"; one detent clockwise (DOWN), a step
    # every 20 ms so the loop polls each, moves its cursor.
    calls = [(0, levels(1, 1))] + press(12, 100)
    for i, (a, b) in enumerate([(0, 1), (0, 0), (1, 0), (1, 1)]):
        calls.append((400 + 20 * i, levels(a, b)))
    model, clock, out, root = boot(cp, tmp_path, calls, until=800, cfg=cfg)
    assert fcp.STATE.claimed["GP12"].pull is fcp.Pull.UP
    assert fcp.STATE.claimed["GP10"].pull is fcp.Pull.UP
    assert bytes(model.gddram) == reference(tmp_path, [K.OK, K.DOWN])


def test_buzzer_beeps_on_a_press(cp, tmp_path):
    cfg = _with(buzzer={"enabled": True})
    boot(cp, tmp_path, press(DOWN, 100), until=400, cfg=cfg)
    pwm, = fcp.STATE.pwm
    assert pwm.pin.name == "GP15" and pwm.frequency == 2000
    assert pwm.log[0] == 0 and pwm.log[1] > 0 and pwm.log[-1] == 0 and len(pwm.log) == 3


def test_no_display_blinks_and_says_so(cp, tmp_path, capsys):
    model, clock, out, root = boot(cp, tmp_path, until=2100, devices=[])
    assert "nothing answers on I2C0 (SDA GP4, SCL GP5)" in capsys.readouterr().out
    assert [v for p, v in fcp.STATE.outputs if p == "LED"] == [1, 0] * 4
    assert not fcp.STATE.i2c[0].locked


def test_a_crash_shows_the_error_and_a_press_reloads(cp, tmp_path, monkeypatch, capsys):
    def broken(self, ev, now):
        raise ValueError("boom at the table")

    monkeypatch.setattr(App, "handle", broken)
    with pytest.raises(fcp.ReloadRequested):
        boot(cp, tmp_path, press(OK, 100) + press(BACK, 1500), until=5000)
    assert fcp.STATE.reloads == 1
    assert "Bower error: ValueError: boom at the table" in capsys.readouterr().out
    assert "ValueError: boom at the table" in (tmp_path / "flash" / "crash.log").read_text()


def test_the_clock_wraps_like_ticks_ms(cp, monkeypatch):
    import time
    now = [(1 << 30) * 1000000 - 5000000]            # 5 ms before the wrap, in ns
    monkeypatch.setattr(time, "monotonic_ns", lambda: now[0])
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)
    from bower.cpboard import Clock
    c = Clock()
    a = c.ticks_ms()
    now[0] += 12000000
    b = c.ticks_ms()
    assert a == (1 << 30) - 5 and b == 7 and c.ticks_diff(b, a) == 12
    c.sleep_ms(25)
    assert slept == [0.025]


class _TextSerial:
    # CircuitPython's sys.stdin: text, read(1) blocks, so the link may read
    # only what supervisor.runtime.serial_bytes_available announces.
    def __init__(self, data, runtime):
        self.data, self.runtime = data.decode("ascii"), runtime
        self.runtime.serial_bytes_available = len(self.data)

    def read(self, n):
        assert self.data, "read() with nothing waiting would block on a board"
        c, self.data = self.data[:n], self.data[n:]
        self.runtime.serial_bytes_available = len(self.data)
        return c


def test_link_without_select_reads_what_the_serial_announces(cp, tmp_path, monkeypatch):
    from bower.link import Link
    runtime = types.SimpleNamespace(serial_bytes_available=0)
    monkeypatch.setitem(sys.modules, "select", None)           # CircuitPython has no select
    monkeypatch.setattr(sys.modules["supervisor"], "runtime", runtime, raising=False)
    root = tmp_path / "flash"
    root.mkdir()
    store = Store(str(root), device="e6614103e7")
    out = []
    stdin = _TextSerial(b"REPL noise\n" + encode_request("t1", "HELLO", 1) + encode_request("t2", "LIST"),
                        runtime)
    link = Link(store, {"version": "0.2.0", "device": "e6614103e7", "board": {}}, out.append,
                stdin=stdin)
    for _ in range(5):
        link.poll()
    replies = [parse_reply(line) for line in b"".join(out).splitlines(True)]
    assert [(r.tag, r.status) for r in replies if r is not None][:2] == [("t1", "OK"), ("t2", "OK")], out
    assert runtime.serial_bytes_available == 0
