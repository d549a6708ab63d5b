# portable: runs under MicroPython
"""boardcfg on the interpreter it ships to: MicroPython (and CPython too).

Plain asserts only, no pytest features: tests/mpy/run_tests.mjs runs this file
under the WebAssembly MicroPython, pytest runs it under CPython.
"""

import json
import sys

from bower import boardcfg


def _copy(d):
    return json.loads(json.dumps(d))


def _tmp_path(name):
    if sys.implementation.name == "micropython":
        return "/" + name
    import tempfile  # CPython only

    return tempfile.gettempdir() + "/" + name


def _error(cfg):
    try:
        boardcfg.validate(cfg)
    except ValueError as e:
        return str(e)
    return None


def test_defaults_validate():
    assert boardcfg.validate(_copy(boardcfg.DEFAULTS)) == boardcfg.DEFAULTS


def test_load_without_a_file_gives_a_copy_of_the_defaults():
    cfg = boardcfg.load("/no/such/board.json")
    assert cfg == boardcfg.DEFAULTS
    cfg["display"]["i2c"]["addr"] = 61
    assert boardcfg.DEFAULTS["display"]["i2c"]["addr"] == 60


def test_load_merges_a_partial_file():
    path = _tmp_path("bower_test_board.json")
    with open(path, "w") as f:
        f.write('{"buttons": {"back": 8}, "encoder": {"enabled": true}}')
    cfg = boardcfg.load(path)
    assert cfg["buttons"]["back"] == 8
    assert cfg["buttons"]["up"] == boardcfg.DEFAULTS["buttons"]["up"]
    assert cfg["encoder"]["enabled"] is True
    assert cfg["encoder"]["a"] == boardcfg.DEFAULTS["encoder"]["a"]


def test_load_reports_broken_json():
    path = _tmp_path("bower_test_broken.json")
    with open(path, "w") as f:
        f.write('{"buttons": ')
    try:
        boardcfg.load(path)
    except ValueError as e:
        assert "not valid JSON" in str(e)
    else:
        assert False, "broken JSON was accepted"


def test_validation_messages():
    d = boardcfg.DEFAULTS
    cases = [
        (("buttons", "ok"), d["buttons"]["up"], "used twice"),
        (("buttons", "up"), 25, "GP25 is not on the Pico header"),
        (("buttons", "up"), 23, "GP23 is not on the Pico header"),
        (("buttons", "up"), 29, "GP29 is not on the Pico header"),
        (("display", "i2c", "scl"), 7, "same I2C block"),
        (("display", "i2c", "sda"), 3, "cannot be SDA on I2C0"),
        (("display", "i2c", "addr"), 0x80, "out of range"),
        (("display", "driver"), "sh1106", "not supported by the firmware yet"),
        (("display", "rotate"), 90, "display.rotate must be 0 or 180"),
        (("display", "rotate"), False, "display.rotate must be 0 or 180"),
        (("display", "rotate"), "180", "display.rotate must be 0 or 180"),
    ]
    for path, value, expected in cases:
        cfg = _copy(d)
        node = cfg
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        msg = _error(cfg)
        assert msg is not None and expected in msg, (path, value, msg)


def test_used_pins_follow_the_options():
    cfg = _copy(boardcfg.DEFAULTS)
    roles = [r for r, _ in boardcfg.used_pins(cfg)]
    assert roles == ["display.i2c.sda", "display.i2c.scl", "buttons.up", "buttons.down", "buttons.ok", "buttons.back"]
    cfg["encoder"]["enabled"] = True
    cfg["buzzer"]["enabled"] = True
    assert len(boardcfg.used_pins(cfg)) == 10
    assert _error(cfg) is None


def test_rotate_is_0_or_180():
    for value in (0, 180):
        cfg = _copy(boardcfg.DEFAULTS)
        cfg["display"]["rotate"] = value
        assert _error(cfg) is None, value
    assert boardcfg.DEFAULTS["display"]["rotate"] == 0
