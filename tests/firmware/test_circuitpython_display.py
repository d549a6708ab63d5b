"""The CircuitPython display path with Adafruit's real packages: adafruit_ssd1306
(PyPI adafruit-circuitpython-ssd1306), adafruit_framebuf and adafruit_bus_device,
on a fake busio.I2C (tests/firmware/fake_circuitpython.py) that feeds the
SSD1306 model (bower_host.oledsim).

adafruit_ssd1306 is imported as on a CircuitPython board, with no ``framebuf``
module, so it draws with adafruit_framebuf; bower.cpdisplay makes that draw
MicroPython's pixels (8x8 font, MicroPython's clipping). Every picture here is
compared byte for byte with the MicroPython path: the framebuf shim (checked
against a real MicroPython by test_framebuf_shim.py), micropython-lib's
ssd1306 driver and the golden screens.
"""

import os
import random
import subprocess
import sys

import adafruit_framebuf
import fake_circuitpython as fcp
import framebuf
import pytest
import ssd1306
import test_golden_screens as golden

from bower import cpfont, gfx
from bower.display import Display
from bower_host.oledsim import SSD1306Model

ADA, CPD = fcp.adafruit()
FRAME = 7 + 1 + 1024          # a full show: window command + control byte + frame


@pytest.fixture(autouse=True)
def _fresh_state():
    fcp.reset()


def adafruit_stack(addr=0x3C):
    # bower.cpdisplay's driver on a fake busio.I2C with an SSD1306 model.
    model = SSD1306Model(addr)
    fcp.reset(model)
    i2c = fcp.busio.I2C(fcp.board.GP5, fcp.board.GP4, frequency=400000)
    drv = CPD.driver(i2c, addr)
    return Display(drv), drv, i2c, model


def micropython_stack():
    # micropython-lib's driver on machine.I2C's stand-in: the reference.
    from bower_host.oledsim import FakeI2C
    bus = FakeI2C()
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    return Display(drv), drv, bus, bus.device


def frame(drv):
    # The 1024 frame bytes of a driver (Adafruit's buffer has a 0x40 byte first).
    b = bytes(drv.buffer)
    return b[1:] if len(b) == 1025 else b


def shim_frame(draw):
    buf = bytearray(1024)
    draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


# --- the packages, as CircuitPython loads them ----------------------------------------


def test_the_driver_draws_with_adafruit_framebuf_as_on_circuitpython():
    assert ADA.framebuf is adafruit_framebuf and ADA.__version__ == "2.12.24"
    assert adafruit_framebuf.__version__ == "1.6.12"
    import adafruit_bus_device.i2c_device as i2c_device
    assert i2c_device.__version__ == "5.2.17"
    disp, drv, i2c, model = adafruit_stack()
    assert isinstance(drv, CPD.SSD1306_I2C) and isinstance(drv, ADA.SSD1306_I2C)
    assert isinstance(drv, adafruit_framebuf.FrameBuffer) and not isinstance(drv, framebuf.FrameBuffer)
    assert sys.modules["framebuf"] is framebuf        # the shim is back for everyone else


def test_adafruit_framebuf_alone_would_draw_other_pixels(tmp_path, monkeypatch):
    # Why bower.cpdisplay exists: Adafruit's own text() wants font5x8.bin next
    # to code.py, and its rect() draws a border where the frame clips it.
    monkeypatch.chdir(tmp_path)
    model = SSD1306Model()
    fcp.reset(model)
    plain = ADA.SSD1306_I2C(128, 64, fcp.busio.I2C(fcp.board.GP5, fcp.board.GP4))
    with pytest.raises(OSError):
        plain.text("Bower", 0, 0, 1)
    plain.fill(0)
    plain.rect(120, 60, 20, 20, 1)
    want = shim_frame(lambda fb: fb.rect(120, 60, 20, 20, 1))
    assert frame(plain) != want
    disp, drv, i2c, model = adafruit_stack()
    drv.rect(120, 60, 20, 20, 1)
    assert frame(drv) == want


def test_cpfont_is_micropythons_font():
    # What a real MicroPython's FrameBuffer.text draws, character by
    # character (tools/extract_font.py renders it under the wasm port).
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "extract_font.py")
    spec = importlib.util.spec_from_file_location("extract_font", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    font, version = tool.render_font()
    assert cpfont.FONT == font and len(cpfont.FONT) == 8 * 96, version
    assert (cpfont.FIRST, cpfont.LAST) == (tool.FIRST, tool.LAST)


# --- drawing: every primitive the UI uses, against MicroPython's --------------------------

_TEXTS = ["Bower", "Ann: order up", "\x10\x11\x12\x13", "caf\u00e9 \u2660", "a\x00hidden", "~\x7f\x1f",
          "", "0123456789ABCDEFGH", "Scores: hand 12"]


def _random_calls(rng, n):
    calls = []
    for _ in range(n):
        op = rng.choice(["fill", "pixel", "hline", "vline", "fill_rect", "rect", "rectf", "line", "text",
                         "text", "text"])
        c = rng.choice([0, 1, 1, 2])
        x, y = rng.randint(-20, 140), rng.randint(-20, 76)
        w, h = rng.randint(-3, 140), rng.randint(-3, 70)
        if op == "fill":
            calls.append(("fill", (c,)))
        elif op == "pixel":
            calls.append(("pixel", (x, y, c)))
        elif op in ("hline", "vline"):
            calls.append((op, (x, y, w, c)))
        elif op == "fill_rect":
            calls.append(("fill_rect", (x, y, w, h, c)))
        elif op == "rect":
            calls.append(("rect", (x, y, w, h, c)))
        elif op == "rectf":
            calls.append(("rect", (x, y, w, h, c, True)))
        elif op == "line":
            calls.append(("line", (x, y, rng.randint(-20, 140), rng.randint(-20, 76), c)))
        else:
            s = rng.choice(_TEXTS + ["".join(chr(rng.randint(0, 300)) for _ in range(rng.randint(1, 20)))])
            calls.append(("text", (s, x, y) if rng.random() < 0.2 else (s, x, y, c)))
    return calls


def test_every_primitive_draws_micropythons_pixels():
    disp, drv, i2c, model = adafruit_stack()
    ref = bytearray(1024)
    fb = framebuf.FrameBuffer(ref, 128, 64, framebuf.MONO_VLSB)
    rng = random.Random(1306)
    for _i in range(60):
        calls = _random_calls(rng, 25)
        for name, args in calls:
            getattr(drv, name)(*args)
            getattr(fb, name)(*args)
        assert frame(drv) == bytes(ref), "after %r" % (calls,)
        for _ in range(20):
            x, y = rng.randint(-2, 130), rng.randint(-2, 66)
            assert drv.pixel(x, y) == fb.pixel(x, y), (x, y)


def test_text_at_every_row_offset_and_clipped_at_each_edge():
    # '#', '&', '/' and glyph 127 have their last column lit: a glyph that
    # starts 7 pixels left of the frame still shows it.
    disp, drv, i2c, model = adafruit_stack()
    for s in ("Hi\x10!\u00e9", "#&/\x7f"):
        for y in range(-9, 66):
            for x in (-15, -13, -8, -7, -1, 0, 3, 120, 121, 125, 127):
                for c in (1, 0):
                    def draw(fb, s=s, x=x, y=y, c=c):
                        fb.fill(1 - c)
                        fb.text(s, x, y, c)
                    drv.fill(1 - c)
                    drv.text(s, x, y, c)
                    assert frame(drv) == shim_frame(draw), (s, x, y, c)


# --- the screens -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(golden.SCENARIOS))
def test_golden_screen_through_adafruit_is_pixel_identical(name):
    # The UI draws into Adafruit's driver; the model's display RAM, filled by
    # the bytes on the fake busio.I2C, is the golden picture.
    d = golden.SCENARIOS[name]()
    disp, drv, i2c, model = adafruit_stack()
    d.app.render(drv)
    assert disp.show() == FRAME
    with open("%s/%s.txt" % (golden.GOLDEN, name)) as f:
        want = f.read()
    got = "\n".join("".join("#" if model.gddram[(y >> 3) * 128 + x] >> (y & 7) & 1 else "."
                            for x in range(128)) for y in range(64)) + "\n"
    assert got == want, "screen %s differs from its golden file through the Adafruit path" % name
    assert bytes(model.gddram) == frame(drv)


def test_partial_refreshes_send_what_micropython_sends():
    # The golden screens one after another on one display (each a partial
    # refresh of the one before), on both stacks: same RAM, same transactions.
    ada, ada_drv, i2c, ada_model = adafruit_stack()
    mp, mp_drv, bus, mp_model = micropython_stack()
    ada_model.clear_stats()
    mp_model.clear_stats()
    assert ada.show() == mp.show() == FRAME          # the first show is a full frame
    sent = []
    order = sorted(golden.SCENARIOS)
    order = order + order[::-3]                      # and some transitions backwards
    for i, name in enumerate(order):
        app = golden.SCENARIOS[name]().app
        app.render(ada_drv)
        app.render(mp_drv)
        a = ada.show()
        m = mp.show()
        assert a == m, name
        assert bytes(ada_model.gddram) == bytes(mp_model.gddram) == frame(mp_drv), name
        sent.append(a)
        # Then one pixel flips (a cursor blink): one byte of data goes.
        x, y = (37 * i) % 128, (11 * i) % 64
        for drv in (ada_drv, mp_drv):
            drv.pixel(x, y, 1 - drv.pixel(x, y))
        assert ada.show() == mp.show() == 7 + 1 + 1, name
        assert bytes(ada_model.gddram) == bytes(mp_model.gddram) == frame(mp_drv), name
    assert ada_model.transactions == mp_model.transactions
    assert ada_model.commands == mp_model.commands
    assert max(sent) <= FRAME and min(sent) > 0
    # Every write went through adafruit_bus_device with the bus locked (the
    # fake busio.I2C refuses writes without the lock), and none is left held.
    assert i2c.writes and all(addr == 0x3C for addr, data in i2c.writes) and not i2c.locked


def test_one_changed_pixel_sends_one_byte_of_data():
    disp, drv, i2c, model = adafruit_stack()
    disp.show()
    model.clear_stats()
    drv.pixel(77, 42, 1)
    assert disp.show() == 7 + 1 + 1
    assert model.commands == [(0x21, 77, 77), (0x22, 5, 5)]
    assert model.gddram[5 * 128 + 77] == 1 << 2 and bytes(model.gddram) == frame(drv)
    assert drv.buffer[0] == 0x40                       # the borrowed control byte is put back
    assert disp.show() == 0


def test_adafruit_init_contrast_and_power_reach_the_panel():
    disp, drv, i2c, model = adafruit_stack()
    # adafruit_bus_device probed the address with an empty write; the driver
    # set the panel up in horizontal addressing and switched it on.
    assert i2c.writes[0] == (0x3C, b"")
    assert model.display_on and model.mode == 0 and model.charge_pump and model.contrast == 0xFF
    assert model.seg_remap and model.com_reversed and not model.unknown and not model.bad_control
    assert disp.contrast(31) == 3 and model.contrast == 31
    assert disp.power(False) == 2 and not model.display_on
    assert model.visible() == bytes(1024)
    drv.text("back", 0, 0, 1)
    assert disp.power(True) == 2 and disp.show() == FRAME
    assert model.display_on and model.visible() == frame(drv)


def test_no_display_on_the_bus_is_an_error_at_driver_creation():
    fcp.reset()                                        # nothing attached
    i2c = fcp.busio.I2C(fcp.board.GP5, fcp.board.GP4)
    with pytest.raises(ValueError, match="No I2C device at address: 0x3c"):
        CPD.driver(i2c, 0x3C)
    assert not i2c.locked


def test_a_narrow_panel_uses_the_middle_columns():
    model = SSD1306Model()
    fcp.reset(model)
    drv = CPD.driver(fcp.busio.I2C(fcp.board.GP5, fcp.board.GP4), 0x3C, 64, 48)
    disp = Display(drv)
    gfx.text(drv, "\x12 64", 0, 8)
    disp.show()
    model.clear_stats()
    drv.pixel(0, 0, 1)
    disp.show()
    assert model.commands == [(0x21, 32, 32), (0x22, 0, 0)]


# --- a CircuitPython build that has MicroPython's framebuf ---------------------------------


def test_with_a_builtin_framebuf_the_driver_is_adafruits_own():
    ada, cpd = fcp.adafruit(native=True)
    assert ada.framebuf is framebuf
    model = SSD1306Model()
    fcp.reset(model)
    drv = cpd.driver(fcp.busio.I2C(fcp.board.GP5, fcp.board.GP4), 0x3C)
    assert type(drv) is ada.SSD1306_I2C
    disp = Display(drv)
    for name in ("home", "bid1_five", "hand_over_classic", "button_test"):
        app = golden.SCENARIOS[name]().app
        app.render(drv)
        disp.show()
        assert bytes(model.gddram) == shim_frame(app.render), name


# --- on a real MicroPython VM -------------------------------------------------------------

_MP_CHECK = r'''
import framebuf
from tests.firmware.ssd1306_model import MiniSSD1306
from bower import cpdisplay
from bower.display import Display
import adafruit_ssd1306


class I2C:
    # busio.I2C as adafruit_bus_device uses it.
    def __init__(self, dev):
        self.dev = dev
        self.locked = False

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def writeto(self, addr, buf, *, start=0, end=None):
        assert self.locked and addr == self.dev.addr
        data = bytes(memoryview(buf)[start:len(buf) if end is None else end])
        if data:
            self.dev.write(data)


assert adafruit_ssd1306.framebuf.__name__ == "adafruit_framebuf"
model = MiniSSD1306()
drv = cpdisplay.driver(I2C(model), 0x3C)
assert type(drv) is cpdisplay.SSD1306_I2C
disp = Display(drv)
ref = bytearray(1024)
fb = framebuf.FrameBuffer(ref, 128, 64, framebuf.MONO_VLSB)
seed = [1306]


def rnd(a, b):
    seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return a + seed[0] % (b - a + 1)


texts = ["Bower", "Ann: order up", "\x10\x11\x12\x13", "caf\u00e9 \u2660", "a\x00b", "~\x7f\x1f", ""]
for batch in range(40):
    for k in range(25):
        op = rnd(0, 8)
        c = rnd(0, 2)
        x, y, w, h = rnd(-20, 140), rnd(-20, 76), rnd(-3, 140), rnd(-3, 70)
        call = (("fill", (c,)), ("pixel", (x, y, c)), ("hline", (x, y, w, c)), ("vline", (x, y, h, c)),
                ("fill_rect", (x, y, w, h, c)), ("rect", (x, y, w, h, c, rnd(0, 1) == 1)),
                ("line", (x, y, rnd(-20, 140), rnd(-20, 76), c)),
                ("text", (texts[rnd(0, len(texts) - 1)], x, y, c)), ("text", ("Hi!", x, y)))[op]
        getattr(drv, call[0])(*call[1])
        getattr(fb, call[0])(*call[1])
    assert bytes(drv.buf) == bytes(ref), ("differs after batch", batch, call)
    disp.show()
    assert bytes(model.gddram) == bytes(ref), batch
print("CHECK OK", batch + 1)
'''


def test_on_a_micropython_vm_cpdisplay_draws_what_the_builtin_framebuf_draws(tmp_path):
    # CircuitPython's VM is MicroPython's: run bower.cpdisplay on Adafruit's
    # (unchanged) drawing code under MicroPython 1.27 (WebAssembly) and compare
    # with MicroPython's own C framebuf, 1,000 random calls. adafruit_ssd1306
    # is made to miss the built-in framebuf, and finds i2c_device beside it.
    import adafruit_bus_device.i2c_device as i2c_device
    src = open(ADA.__file__).read()
    for old, new in (("\n    import framebuf\n", "\n    import _no_framebuf_on_circuitpython as framebuf\n"),
                     ("\nfrom adafruit_bus_device import i2c_device, spi_device\n",
                      "\nimport i2c_device\nspi_device = None\n")):
        assert src.count(old) == 1, old
        src = src.replace(old, new)
    (tmp_path / "adafruit_ssd1306.py").write_text(src)
    for mod in (adafruit_framebuf, i2c_device):
        (tmp_path / mod.__file__.replace("\\", "/").rsplit("/", 1)[1]).write_text(open(mod.__file__).read())
    (tmp_path / "check.py").write_text(_MP_CHECK)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.run(["node", os.path.join(repo, "tests", "mpy", "run_script.mjs"), str(tmp_path / "check.py")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "CHECK OK 40" in proc.stdout, proc.stdout + proc.stderr
