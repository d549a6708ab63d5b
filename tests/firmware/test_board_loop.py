"""bower.board.run(): the real main loop with the real UI, store, link and
display, on a fake `machine` (tests/firmware/fake_machine.py), a fake clock
and the SSD1306 model behind a fake I2C bus (bower_host.oledsim).

Buttons are "pressed" by scheduling pin levels on the fake clock, so every
frame checked here went pins -> Buttons -> App -> Display -> ssd1306 driver
-> I2C bytes -> the model's display RAM. The expected pictures come from a
separate App fed the same events and drawn into a plain frame buffer.
"""

import json
import os
import tempfile

import fake_machine as fm
import framebuf
import pytest

fm.install()

from bower import board, boardcfg  # noqa: E402  (needs the fake machine first)
from bower import keys as K  # noqa: E402
from bower.store import Store  # noqa: E402
from bower.ui import App  # noqa: E402
from bower_host.oledsim import FakeI2C, SSD1306Model  # noqa: E402
from bower_host.framing import encode_request, parse_reply  # noqa: E402

UP, DOWN, OK, BACK = 2, 3, 6, 7          # GPIOs of the default board.json
DEVICE = fm.UID.hex()


class Stopper:
    # stop() for board.run: true once the fake clock reaches `until`; fails
    # the test if the loop spins without time passing.
    def __init__(self, clock, until, limit=200000):
        self.clock, self.until, self.limit, self.calls = clock, until, limit, 0

    def __call__(self):
        self.calls += 1
        assert self.calls < self.limit, "the loop spins without sleeping"
        return self.clock.t >= self.until


class Booted:
    pass


def press(pin, t, ms=80):
    # An active-low button held from t for ms.
    return [(t, pin, 0), (t + ms, pin, 1)]


def boot(tmp_path, script=(), until=1000, cfg=None, bus=None, start=0, settings=None,
         stdin_data=b"", name="flash", calls=()):
    # script: [(t, gpio, level)]; calls: [(t, fn)] run when the clock gets there.
    fm.reset_state()
    if bus is None:
        bus = FakeI2C()
    fm.attach_i2c(bus)
    cfg_path = tmp_path / "board.json"
    cfg_path.write_text(json.dumps(cfg if cfg is not None else boardcfg.DEFAULTS))
    root = tmp_path / name          # the device's flash ("/")
    root.mkdir(exist_ok=True)
    if settings is not None:
        s = Store(str(root), device=DEVICE)
        s.save_settings(dict(s.settings, **settings))
    clock = fm.Clock(start)
    for t, pin, level in script:
        clock.at(t, pin, level)
    for t, fn in calls:
        clock.at(t, fn)
    r, w = os.pipe()
    os.write(w, stdin_data)
    stdin = os.fdopen(r, "rb", buffering=0)
    out = []
    b = Booted()
    b.bus, b.clock, b.out, b.root, b.cfg_path = bus, clock, out, root, cfg_path
    try:
        board.run(str(cfg_path), str(root), clock, Stopper(clock, until), stdin, out.append)
    finally:
        stdin.close()
        os.close(w)
    return b


def info(cfg=None):
    return {"version": "0.2.0", "device": DEVICE, "board": cfg or boardcfg.load("/nonexistent")}


def reference(tmp_path, events, mask=0):
    # What a fresh App shows after `events` (times 100 ms apart).
    root = tempfile.mkdtemp(prefix="ref", dir=str(tmp_path))
    app = App(Store(root, device=DEVICE), info(), now_ms=0)
    for i, ev in enumerate(events):
        app.handle(ev, 100 * (i + 1))
    app.buttons_seen(mask)
    buf = bytearray(1024)
    app.render(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


def model(b):
    return b.bus.device


# --- booting -------------------------------------------------------------------


def test_boot_draws_the_home_screen_on_the_display(tmp_path):
    b = boot(tmp_path, until=500)
    m = model(b)
    assert m.display_on
    assert bytes(m.gddram) == reference(tmp_path, [])
    assert any(m.gddram), "blank screen"
    assert fm.i2c_log == [(0, 4, 5, 400000)]          # I2C0 on GP4/GP5 at 400 kHz
    for gp in (UP, DOWN, OK, BACK):
        assert fm.pins[gp].pull == fm.Pin.PULL_UP and fm.pins[gp].mode == fm.Pin.IN
    # Idle: the loop sleeps instead of spinning, and sends nothing more.
    assert b.clock.slept >= 400
    assert b.out == []
    # A new device boots without writing to its flash (the first game does).
    assert b.root.is_dir() and list(b.root.iterdir()) == []


def test_boot_sends_one_frame_and_lights_the_panel_only_once_it_is_drawn(tmp_path):
    # The set-up goes in one transaction with the panel left dark; the first
    # frame fills the display RAM, and only then does the panel light: no
    # blank frame first (a 1 KB transfer, 26 ms at 400 kHz), no noise shown.
    # The chip ends up set up exactly as micropython-lib's own init does it.
    import ssd1306
    bus = FakeI2C()
    dev = bus.device
    lit_with = []
    write = dev.write

    def watch(data):
        was = dev.display_on
        write(data)
        if dev.display_on and not was:
            lit_with.append(bytes(dev.gddram))
    dev.write = watch
    b = boot(tmp_path, until=500, bus=bus)
    assert lit_with == [reference(tmp_path, [])]
    assert dev.bytes < 1024 + 60, dev.transactions     # one frame and its commands
    assert dev.transactions[0] == 27 and max(dev.transactions) == 1025
    ref = FakeI2C()
    ssd1306.SSD1306_I2C(128, 64, ref, 0x3C)
    skip = ("gddram", "transactions", "commands", "data_bytes", "col", "page", "_pending", "write")
    state = {k: v for k, v in vars(model(b)).items() if k not in skip}
    assert state == {k: v for k, v in vars(ref.device).items() if k not in skip}


def test_presses_on_the_pins_drive_the_app(tmp_path):
    # Home -> Settings -> three rows down -> Button test, all by pin levels.
    script = press(DOWN, 100) + press(OK, 300)
    for i in range(3):
        script += press(DOWN, 500 + 200 * i)
    script += press(OK, 1200)
    b = boot(tmp_path, script, until=1500)
    expected = reference(tmp_path, [K.DOWN, K.OK, K.DOWN, K.DOWN, K.DOWN, K.OK])
    assert bytes(model(b).gddram) == expected
    assert reference(tmp_path, []) != expected


def test_button_test_screen_sees_the_raw_buttons(tmp_path):
    script = press(DOWN, 100) + press(OK, 300)
    for i in range(3):
        script += press(DOWN, 500 + 200 * i)
    script += press(OK, 1200) + [(1400, UP, 0), (1400, BACK, 0)]   # held at the end
    b = boot(tmp_path, script, until=1600)
    events = [K.DOWN, K.OK, K.DOWN, K.DOWN, K.DOWN, K.OK, K.UP]
    assert bytes(model(b).gddram) == reference(tmp_path, events, mask=0b1001)


def test_long_press_and_auto_repeat_through_the_loop(tmp_path):
    # DOWN held 700 ms: the press, then repeats 400, 520 and 640 ms into it =
    # 4 DOWNs on the home menu (3 items: the reference knows where that lands).
    b = boot(tmp_path, press(DOWN, 100, 700), until=1200)
    assert bytes(model(b).gddram) == reference(tmp_path, [K.DOWN] * 4)
    assert bytes(model(b).gddram) != reference(tmp_path, [K.DOWN] * 3)


def test_time_wrap_of_ticks_ms(tmp_path):
    # ticks_ms wraps at 2**30 in the middle of the presses.
    script = press(DOWN, 100) + press(UP, 300) + press(OK, 500)
    b = boot(tmp_path, script, until=800, start=(1 << 30) - 250)
    assert bytes(model(b).gddram) == reference(tmp_path, [K.DOWN, K.UP, K.OK])


def test_link_answers_on_the_serial_port_while_the_app_runs(tmp_path):
    b = boot(tmp_path, press(DOWN, 100), until=400, stdin_data=encode_request("t1", "HELLO", 1))
    replies = [parse_reply(line) for line in b"".join(b.out).splitlines(True)]
    replies = [r for r in replies if r is not None]
    assert len(replies) == 1 and replies[0].tag == "t1" and replies[0].status == "OK", b.out
    assert "dev=" + DEVICE in replies[0].words and "fw=0.2.0" in replies[0].words
    # ... and the table saw nothing of it.
    assert bytes(model(b).gddram) == reference(tmp_path, [K.DOWN])


def test_dim_and_sleep_reach_the_display_and_a_press_wakes_it(tmp_path):
    settings = {"dim_s": 1, "off_s": 2}
    b = boot(tmp_path, until=1500, settings=settings)
    assert model(b).display_on and model(b).contrast == 255 // 8     # dimmed
    b = boot(tmp_path, until=2500, settings=settings, name="flash2")
    assert not model(b).display_on                                   # asleep: panel off
    b = boot(tmp_path, press(OK, 2500), until=2800, settings=settings, name="flash3")
    m = model(b)
    assert m.display_on and m.contrast == 255
    # The waking press only wakes: still the home screen.
    assert bytes(m.gddram) == reference(tmp_path, [])


# --- encoder and buzzer ------------------------------------------------------------------


def _with(**parts):
    cfg = json.loads(json.dumps(boardcfg.DEFAULTS))
    for k, v in parts.items():
        cfg[k].update(v)
    return cfg


def test_encoder_turns_and_push_through_pin_interrupts(tmp_path):
    cfg = _with(encoder={"enabled": True})

    def turn(states):
        # Set the A/B levels and fire the pin interrupt, as the hardware does.
        def go():
            for a, b in states:
                fm.set_level(10, a)
                fm.set_level(11, b)
                fm.fire(fm.pins[10])
        return go

    cw = [(0, 1), (0, 0), (1, 0), (1, 1)]
    bouncy_ccw = [(1, 0), (1, 1), (1, 0), (0, 0), (1, 0), (0, 0), (0, 1), (1, 1)]
    script = [(0, 10, 1), (0, 11, 1)] + press(12, 600)      # the push acts as OK
    b = boot(tmp_path, script, until=900, cfg=cfg, calls=[(200, turn(cw)), (400, turn(bouncy_ccw))])
    assert fm.pins[10].handler is not None and fm.pins[11].handler is not None
    assert fm.pins[12].pull == fm.Pin.PULL_UP
    # Clockwise is DOWN, then back UP, and the push picks "New game".
    assert bytes(model(b).gddram) == reference(tmp_path, [K.DOWN, K.UP, K.OK])
    assert bytes(model(b).gddram) != reference(tmp_path, [K.DOWN, K.OK])


def test_buzzer_beeps_briefly_on_accepted_input(tmp_path):
    cfg = _with(buzzer={"enabled": True})
    boot(tmp_path, press(DOWN, 100), until=400, cfg=cfg)
    duty = [v for pin, what, v in fm.pwm_log if pin == 15 and what == "duty"]
    assert duty[0] == 0 and duty[1] > 0 and duty[-1] == 0 and len(duty) == 3, fm.pwm_log
    # BACK: one click, on the press (its release says nothing more).
    boot(tmp_path, press(BACK, 100, ms=150), until=600, cfg=cfg, name="flash3")
    duty = [v for pin, what, v in fm.pwm_log if pin == 15 and what == "duty"]
    assert duty[0] == 0 and duty[1] > 0 and duty[-1] == 0 and len(duty) == 3, fm.pwm_log
    # No buzzer configured: no PWM at all.
    boot(tmp_path, press(DOWN, 100), until=400, name="flash2")
    assert fm.pwm_log == []


# --- failures ----------------------------------------------------------------------------


class _EmptyBus(FakeI2C):
    # A bus where nothing answers (no display wired).
    def __init__(self):
        FakeI2C.__init__(self)
        self.devices = {}


def _led():
    return [v for p, v in fm.out_log if p == "LED"]


def test_no_display_blinks_twice_and_waits_for_it(tmp_path, capsys):
    b = boot(tmp_path, until=4500, bus=_EmptyBus())
    out = capsys.readouterr().out
    assert "nothing answers on I2C0 (SDA GP4, SCL GP5)" in out
    assert out.count("nothing answers") == 3          # every cycle, for a late `mpremote repl`
    # Two blinks per 2-second cycle, three cycles by 4.5 s.
    assert _led() == [1, 0] * 6
    assert b.out == []


def test_wrong_address_names_what_answers(tmp_path, capsys):
    boot(tmp_path, until=2100, bus=FakeI2C(SSD1306Model(addr=0x3D)))
    out = capsys.readouterr().out
    assert "no display at 0x3C (60) on I2C0; the bus has 0x3D" in out
    assert _led() == [1, 0] * 6                       # three blinks, twice


def test_display_plugged_in_late_then_boots(tmp_path, capsys):
    bus = _EmptyBus()
    real = FakeI2C()

    def plug():
        bus.devices = real.devices

    boot(tmp_path, until=4500, bus=bus, calls=[(3000, plug)])
    assert "display found at 0x3C" in capsys.readouterr().out
    assert bytes(real.device.gddram) == reference(tmp_path, [])
    assert real.device.display_on


def test_bad_board_json_blinks_four_times_and_logs(tmp_path, capsys):
    cfg = _with(buttons={"up": 25})
    b = boot(tmp_path, until=2000, cfg=cfg)
    out = capsys.readouterr().out
    assert "GP25 is not on the Pico header" in out
    assert _led() == [1, 0] * 4                      # four blinks in the first 2 s
    assert "board.json: buttons.up: GP25" in (b.root / "crash.log").read_text()
    assert fm.i2c_log == []                                 # nothing else was set up


def _screen(title, lines, foot):
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    fb.text(title, 0, 0, 1)
    fb.hline(0, 10, 128, 1)
    for i, line in enumerate(lines):
        fb.text(line, 0, 14 + 8 * i, 1)
    if foot:
        fb.text(foot, 0, 56, 1)
    return bytes(buf)


def test_crash_logs_shows_the_error_and_soft_resets_on_a_press(tmp_path, monkeypatch, capsys):
    def broken(self, ev, now):
        raise ValueError("boom at the table")

    monkeypatch.setattr(App, "handle", broken)
    bus = FakeI2C()
    seen = []
    calls = [(1000, lambda: seen.append(bytes(bus.device.gddram)))]
    with pytest.raises(fm.SoftReset):
        boot(tmp_path, press(OK, 100) + press(BACK, 1500), until=5000, bus=bus, calls=calls)
    log = (tmp_path / "flash" / "crash.log").read_text()
    assert log.count("\n") == 1
    assert "v0.2.0 ValueError: boom at the table | " in log and "in broken" in log
    assert "Bower error: ValueError: boom at the table" in capsys.readouterr().out
    # While it waited for the press, the screen said what happened.
    assert seen == [_screen("Bower error", ["ValueError: boom", " at the table"], "Press a button")]


def test_hardware_that_cannot_be_set_up_blinks_five_times(tmp_path, monkeypatch, capsys):
    def no_i2c(*args, **kw):
        raise ValueError("bad I2C pins")

    monkeypatch.setattr(fm, "I2C", no_i2c)
    b = boot(tmp_path, until=2000)
    assert _led() == [1, 0] * 5
    assert "Bower error: ValueError: bad I2C pins" in capsys.readouterr().out
    assert "ValueError: bad I2C pins" in (b.root / "crash.log").read_text()


def test_crash_log_is_bounded(tmp_path, monkeypatch):
    def broken(self, ev, now):
        raise RuntimeError("again")

    monkeypatch.setattr(App, "handle", broken)
    root = tmp_path / "flash"
    root.mkdir()
    (root / "crash.log").write_text("x" * 5000 + "\n")
    with pytest.raises(fm.SoftReset):
        boot(tmp_path, press(OK, 100) + press(OK, 600), until=3000)
    assert (root / "crash.old").stat().st_size == 5001
    assert "RuntimeError: again" in (root / "crash.log").read_text()
    assert (root / "crash.log").stat().st_size < 1000


def test_ctrl_c_stops_cleanly_with_a_clear_screen(tmp_path, capsys):
    def ctrl_c():
        raise KeyboardInterrupt

    b = boot(tmp_path, press(DOWN, 100), until=10000, calls=[(300, ctrl_c)])   # returns normally
    assert b.clock.t < 400
    assert "Bower stopped (Ctrl-C)" in capsys.readouterr().out
    expect = _screen("Bower stopped", ["USB REPL", "", "Ctrl-D or", "replug: restart"], "")
    assert bytes(model(b).gddram) == expect and model(b).display_on


def test_main_py_boots_the_board():
    src = open(os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "main.py")).read()
    code = [ln for ln in src.splitlines() if ln.strip() and not ln.startswith("#")]
    # The modules' pack first (firmware/lib/bowerpak.py), when there is one.
    assert code == ["try:", "    import bowerpak", "    bowerpak.mount()", "except ImportError:", "    pass",
                    "from bower import board", "board.run()"]


def test_the_first_quiet_spell_after_boot_warms_the_menus(tmp_path, monkeypatch):
    # The home screen boots without the other menus (bower.screens) and the
    # game screens (bower.play); the loop loads them while the device sits
    # at the home screen, a module per pass, so the first OK does not.
    calls = []
    real = App.warm

    def warm(self):
        calls.append(self.now)
        return real(self)
    monkeypatch.setattr(App, "warm", warm)
    boot(tmp_path, until=500)
    assert calls and calls[0] <= 200     # warmed 120 ms into the first quiet spell


def test_a_game_started_on_the_board_is_dated_by_the_clock_the_host_set(tmp_path):
    # CLOCK over the link, then New game -> Classic -> players -> Ann deals.
    script = press(OK, 200) + press(OK, 400) + press(OK, 600) + press(OK, 800) + press(DOWN, 1000) \
        + press(OK, 1200)
    b = boot(tmp_path, script, until=1800, stdin_data=encode_request("t1", "CLOCK", 1763800000))
    with open(b.root / "games" / "g0001.log") as f:
        header = json.loads(f.readline())[0]
    assert 1763800000 <= header["started"] <= 1763800002, header
