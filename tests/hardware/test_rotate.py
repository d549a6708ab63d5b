"""board.json "display": {"rotate": 180}: the OLED mounted upside down.

The SSD1306 turns the picture itself (segment remap A0, COM scan C0), so the
frame buffer and the display RAM stay as drawn and only what the panel
shows is turned. Checked on the SSD1306 model (bower_host.oledsim), whose
``visible()`` maps display RAM to the panel through those two registers:
for bower.display.Display on both drivers (micropython-lib's and
Adafruit's, as bower.board builds them) and for a whole boot of bower.board
with a board.json that says 180.
"""

import copy
import json
import os
import sys
from pathlib import Path

import pytest

from bower import boardcfg
from bower.display import Display
from bower_host import oledsim

FIRMWARE_TESTS = str(Path(__file__).resolve().parents[1] / "firmware")
if FIRMWARE_TESTS not in sys.path:
    sys.path.insert(0, FIRMWARE_TESTS)

import fake_machine as fm  # noqa: E402

W, H = 128, 64


def pixel(buf, x, y):
    return buf[(y >> 3) * W + x] >> (y & 7) & 1


def turned(buf):
    """``buf`` (MONO_VLSB 128x64) turned by 180 degrees, pixel by pixel."""
    out = bytearray(W * H // 8)
    for y in range(H):
        for x in range(W):
            if pixel(buf, W - 1 - x, H - 1 - y):
                out[(y >> 3) * W + x] |= 1 << (y & 7)
    return bytes(out)


def draw(fb):
    # Not symmetric in either direction: a turned picture differs from it.
    fb.fill(0)
    fb.text("Bower", 0, 0, 1)
    fb.fill_rect(100, 50, 20, 6, 1)


def micropython_driver():
    import ssd1306

    bus = oledsim.FakeI2C()
    return ssd1306.SSD1306_I2C(W, H, bus, 0x3C), bus.device


def adafruit_driver():
    import fake_circuitpython as fcp

    _, cpd = fcp.adafruit()
    model = oledsim.SSD1306Model(0x3C)
    fcp.reset(model)
    i2c = fcp.busio.I2C(fcp.board.GP5, fcp.board.GP4, frequency=400000)
    return cpd.driver(i2c, 0x3C), model


def frame(drv):
    b = bytes(drv.buffer)
    return b[1:] if len(b) == W * H // 8 + 1 else b   # Adafruit's buffer starts with 0x40


@pytest.mark.parametrize("make", [micropython_driver, adafruit_driver], ids=["micropython-lib", "adafruit"])
def test_display_rotate_180_turns_what_the_panel_shows(make):
    drv, model = make()
    disp = Display(drv, 180)
    draw(drv)
    disp.show()
    assert bytes(model.gddram) == frame(drv)          # RAM holds the frame as drawn ...
    assert model.visible() == turned(frame(drv))      # ... the panel shows it turned
    assert model.visible() != frame(drv)
    assert (0xA0,) in model.commands and (0xC0,) in model.commands
    # Partial refreshes after that land turned too.
    drv.fill_rect(0, 20, 8, 8, 1)
    assert 0 < disp.show() < 7 + 1 + 1024
    assert model.visible() == turned(frame(drv))


@pytest.mark.parametrize("make", [micropython_driver, adafruit_driver], ids=["micropython-lib", "adafruit"])
def test_display_rotate_0_is_upright_and_sends_nothing_extra(make):
    drv, model = make()
    model.clear_stats()
    disp = Display(drv, 0)
    assert model.bytes == 0
    draw(drv)
    disp.show()
    assert model.visible() == frame(drv)


# --- the whole device: board.json -> bower.board -> the panel --------------------------------


def boot(tmp_path, rotate):
    fm.install()
    from bower import board

    fm.reset_state()
    bus = oledsim.FakeI2C()
    fm.attach_i2c(bus)
    cfg = copy.deepcopy(boardcfg.DEFAULTS)
    cfg["display"]["rotate"] = rotate
    d = tmp_path / ("rot%d" % rotate)
    d.mkdir()
    (d / "board.json").write_text(json.dumps(cfg))
    clock = fm.Clock()
    r, w = os.pipe()
    stdin = os.fdopen(r, "rb", 0)
    try:
        board.run(str(d / "board.json"), str(d) + "/", clock, lambda: clock.t >= 400, stdin, [].append)
    finally:
        stdin.close()
        os.close(w)
    return bus.device


def test_board_json_rotate_180_boots_upside_down(tmp_path):
    upright = boot(tmp_path, 0)
    flipped = boot(tmp_path, 180)
    home = bytes(upright.gddram)
    assert upright.display_on and flipped.display_on
    assert home != bytes(W * H // 8)                   # the home screen was drawn
    assert upright.visible() == home
    assert bytes(flipped.gddram) == home               # the same picture in RAM ...
    assert flipped.visible() == turned(home)           # ... shown upside down


# --- the setting itself ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 180])
def test_rotate_0_and_180_are_accepted(value):
    cfg = copy.deepcopy(boardcfg.DEFAULTS)
    cfg["display"]["rotate"] = value
    assert boardcfg.validate(cfg)["display"]["rotate"] == value


@pytest.mark.parametrize("value", [90, 270, -180, 360, "180", 180.0, True, False, None])
def test_other_rotations_are_refused_with_the_reason(value):
    cfg = copy.deepcopy(boardcfg.DEFAULTS)
    cfg["display"]["rotate"] = value
    pattern = r"display\.rotate must be 0 or 180 .*got %s" % repr(value).replace(".", r"\.")
    with pytest.raises(ValueError, match=pattern):
        boardcfg.validate(cfg)


def test_a_board_json_without_rotate_is_upright(tmp_path):
    p = tmp_path / "board.json"
    p.write_text('{"display": {"i2c": {"addr": 61}}}')
    assert boardcfg.load(str(p))["display"]["rotate"] == 0
