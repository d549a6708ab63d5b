#!/usr/bin/env python3
"""Generate Bower's wiring docs from hardware/board.json.

Writes, from the one pin map the firmware also loads:

  hardware/WIRING.md          table GPIO <-> header pin <-> part <-> role
  hardware/schematic.svg      schematic drawing of the same connections
  hardware/wokwi/diagram.json the same circuit for the Wokwi simulator

so the three cannot disagree with board.json or with each other.

    python3 hardware/gen_docs.py           # (re)write the files
    python3 hardware/gen_docs.py --check   # exit 1 if a file is out of date

CPython 3.8+, standard library only. board.json is checked with the
firmware's own validator (firmware/bower/boardcfg.py) before anything is
written.
"""

import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BOARD_JSON = os.path.join(HERE, "board.json")
BOARDCFG_PY = os.path.join(ROOT, "firmware", "bower", "boardcfg.py")

OUT_WIRING = os.path.join(HERE, "WIRING.md")
OUT_SVG = os.path.join(HERE, "schematic.svg")
OUT_WOKWI = os.path.join(HERE, "wokwi", "diagram.json")

# Wokwi's MicroPython for the simulated Pico on wokwi.com: the release Bower
# is built for (MICROPYTHON in host/bower_host/deploy/build.py; a test checks).
WOKWI_ENV = "micropython-20260406-v1.28.0"


def load_boardcfg():
    spec = importlib.util.spec_from_file_location("bower_boardcfg", BOARDCFG_PY)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


boardcfg = load_boardcfg()

# ---------------------------------------------------------------------------
# The Pico's 40-pin header, top view with the USB connector at the top:
# pins 1-20 run down the left edge, pins 21-40 run up the right edge
# (pin 40, VBUS, is top right, next to the USB connector).
GND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
PIN_3V3 = 36
PIN_VSYS = 39
SPECIAL_PINS = {30: "RUN", 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 39: "VSYS", 40: "VBUS"}


def header():
    """{physical pin: name} for all 40 pins."""
    pins = {}
    for gp, phys in boardcfg.HEADER_PIN.items():
        pins[phys] = "GP%d" % gp
    for p in GND_PINS:
        pins[p] = "GND"
    pins.update(SPECIAL_PINS)
    assert sorted(pins) == list(range(1, 41)), "header map must cover pins 1-40 exactly once"
    return pins


HEADER = header()


def side(phys):
    return "left" if phys <= 20 else "right"


def row(phys):
    """Row 0-19 from the top of the board."""
    return phys - 1 if phys <= 20 else 40 - phys


def wokwi_pin(phys):
    name = HEADER[phys]
    if name == "GND":
        return "GND.%d" % (GND_PINS.index(phys) + 1)
    return {"3V3(OUT)": "3V3"}.get(name, name)


def nearest_gnd(phys):
    """The GND pin closest to ``phys`` on the same edge of the board."""
    same = [g for g in GND_PINS if side(g) == side(phys)]
    return min(same, key=lambda g: (abs(row(g) - row(phys)), g))


def alt_functions(gpio):
    out = []
    for bus in (0, 1):
        if gpio in boardcfg.I2C_SDA[bus]:
            out.append("I2C%d SDA" % bus)
        if gpio in boardcfg.I2C_SCL[bus]:
            out.append("I2C%d SCL" % bus)
    if gpio in (26, 27, 28):
        out.append("ADC%d" % (gpio - 26))
    return out


# ---------------------------------------------------------------------------
# The circuit, as data. Every output below is rendered from this list.


def circuit(cfg):
    """List of parts; each part has terminals wired to header pins.

    part:     {"id", "ref", "name", "kind", "optional", "enabled", "config", "terms"}
    terminal: {"pin": part pin name, "phys": header pin, "net": "signal"|"gnd"|"3v3",
               "role": text, "gpio": int or None}
    """
    i2c = cfg["display"]["i2c"]
    btn = cfg["buttons"]
    enc = cfg["encoder"]
    bz = cfg["buzzer"]
    hp = boardcfg.HEADER_PIN

    def sig(pin, gpio, role):
        return {"pin": pin, "phys": hp[gpio], "net": "signal", "role": role, "gpio": gpio}

    def gnd(pin, near_gpio):
        return {"pin": pin, "phys": nearest_gnd(hp[near_gpio]), "net": "gnd", "role": "ground", "gpio": None}

    def v33(pin, role="3.3 V supply"):
        return {"pin": pin, "phys": PIN_3V3, "net": "3v3", "role": role, "gpio": None}

    parts = []
    parts.append({
        "id": "oled1", "ref": "U2", "name": "OLED", "kind": "oled", "optional": False, "enabled": True,
        "config": "display",
        "title": "SSD1306 OLED %dx%d, I2C 0x%02X" % (cfg["display"]["width"], cfg["display"]["height"], i2c["addr"]),
        "sub": "SSD1306 %dx%d I2C 0x%02X" % (cfg["display"]["width"], cfg["display"]["height"], i2c["addr"]),
        "terms": [
            gnd("GND", i2c["sda"]),
            v33("VCC"),
            sig("SCL", i2c["scl"], "I2C%d SCL (display clock)" % i2c["bus"]),
            sig("SDA", i2c["sda"], "I2C%d SDA (display data)" % i2c["bus"]),
        ],
    })
    if btn["active_low"]:
        pull, other = "internal pull-up, pressed = low", None
    else:
        pull, other = "internal pull-down, pressed = high", "3v3"
    for n, name in enumerate(boardcfg.BUTTONS):
        gpio = btn[name]
        far = v33("2", "3.3 V (buttons are active high)") if other else gnd("2", gpio)
        parts.append({
            "id": "btn_" + name, "ref": "SW%d" % (n + 1), "name": name.upper(), "kind": "button",
            "optional": False, "enabled": True, "config": "buttons." + name,
            "title": "%s button" % name.upper(),
            "terms": [sig("1", gpio, "%s button (%s)" % (name.upper(), pull)), far],
        })
    parts.append({
        "id": "enc1", "ref": "SW5", "name": "ENCODER", "kind": "encoder", "optional": True,
        "enabled": enc["enabled"], "config": "encoder",
        "title": "EC11 / KY-040 rotary encoder",
        "sub": "EC11 / KY-040 with push",
        "terms": [
            sig("CLK", enc["a"], "encoder A (turn = UP/DOWN), internal pull-up"),
            sig("DT", enc["b"], "encoder B, internal pull-up"),
            sig("SW", enc["push"], "encoder push (= OK), internal pull-up"),
            v33("+", "3.3 V (KY-040 module only; a bare EC11 has no + pin)"),
            gnd("GND", enc["a"]),
        ],
    })
    parts.append({
        "id": "bz1", "ref": "BZ1", "name": "PIEZO", "kind": "buzzer", "optional": True,
        "enabled": bz["enabled"], "config": "buzzer",
        "title": "passive piezo buzzer",
        "terms": [
            sig("+", bz["pin"], "piezo drive (PWM)"),
            gnd("-", bz["pin"]),
        ],
    })
    return parts


# ---------------------------------------------------------------------------
# WIRING.md


def fmt_gpio(t):
    return "GP%d" % t["gpio"] if t["gpio"] is not None else "-"


def fmt_phys(phys):
    name = HEADER[phys]
    return str(phys) if name.startswith("GP") else "%d (%s)" % (phys, name)


def render_wiring(cfg):
    parts = circuit(cfg)
    i2c = cfg["display"]["i2c"]
    L = []
    a = L.append
    a("# Bower wiring")
    a("")
    a("<!-- Generated by hardware/gen_docs.py from hardware/board.json. Do not edit by hand:")
    a("     change board.json, then run `python3 hardware/gen_docs.py`. -->")
    a("")
    a("Board: **%s** (Raspberry Pi Pico, Pico W, Pico 2 and Pico 2 W share this header). "
      "Pin numbers are the physical header pins: with the USB connector at the top, "
      "pin 1 (GP0) is top left, pins 1-20 run down the left edge and pins 21-40 run back up "
      "the right edge, so pin 40 (VBUS) is top right. The drawing is in "
      "[schematic.svg](schematic.svg)." % cfg["board"])
    a("")
    a("## Connections")
    a("")
    a("| GPIO | Header pin | Part | Part pin | Role |")
    a("|------|-----------|------|----------|------|")
    for p in parts:
        if p["optional"] and not p["enabled"]:
            continue
        for t in p["terms"]:
            a("| %s | %s | %s %s | %s | %s |" % (fmt_gpio(t), fmt_phys(t["phys"]), p["ref"], p["title"],
                                                t["pin"], t["role"]))
    a("")
    a("Any GND pin will do for a ground wire; the table names the nearest one. "
      "Several grounds can share one header pin: daisy-chain them.")
    a("")
    a("Notes:")
    a("")
    a("- The OLED module has its own I2C pull-up resistors, so SDA and SCL need nothing else. "
      "I2C%d runs at %d Hz, address %d (0x%02X); if the screen stays blank, see the "
      "troubleshooting section of [README.md](README.md)." % (i2c["bus"], i2c["freq"], i2c["addr"], i2c["addr"]))
    if cfg["buttons"]["active_low"]:
        a("- Buttons need no resistors: the firmware turns on the Pico's internal pull-ups "
          "(about 50 kOhm), so an idle button reads 1 and a pressed one reads 0 "
          "(`\"active_low\": true`). Wire one leg to the GPIO and the diagonally opposite leg to GND.")
    else:
        a("- Buttons are wired to 3.3 V and read with the internal pull-downs "
          "(`\"active_low\": false`): idle reads 0, pressed reads 1.")
    a("- Pico 2 / Pico 2 W: the RP2350's internal pull-downs are unreliable (erratum RP2350-E9): "
      "wire buttons to GND with `\"active_low\": true`, or add an external pull-down of "
      "8.2 kOhm or less to each button GPIO.")
    a("- A 6x6 mm tactile switch has four legs joined inside in two pairs; two *diagonally "
      "opposite* legs are always a switched pair, so use those (or check with a multimeter: "
      "the pair should only connect while the button is pressed).")
    a("")
    optional = [p for p in parts if p["optional"]]
    a("## Optional parts")
    a("")
    a("| Part | In board.json | GPIO | Header pin | Part pin | Role |")
    a("|------|---------------|------|-----------|----------|------|")
    for p in optional:
        state = "`%s.enabled: %s`" % (p["config"], "true" if p["enabled"] else "false")
        for t in p["terms"]:
            a("| %s %s | %s | %s | %s | %s | %s |" % (p["ref"], p["title"], state, fmt_gpio(t),
                                                     fmt_phys(t["phys"]), t["pin"], t["role"]))
    a("")
    a("Parts marked `enabled: false` are ignored by the firmware; wire them to the pins above and set "
      "`enabled` to `true` in board.json (then `bower deploy`) to use them. The encoder's turn acts "
      "as UP/DOWN and its push as OK; keep the BACK button.")
    a("")
    a("The buzzer must be a piezo transducer (a multimeter reads it as open). An electromagnetic "
      "\"passive buzzer\" (a coil of about 16-42 Ohm) must not be wired straight to a GPIO: it "
      "would draw far more than the pin can give. Drive one through an NPN transistor (1 kOhm "
      "into the base) with a 1N4148 diode across it, or use a piezo.")
    a("")
    a("## Battery power (optional)")
    a("")
    a("USB power needs nothing extra. For a battery, feed a 1-cell LiPo through a charger board "
      "(TP4056 module with protection, or an Adafruit LiPo charger / PowerBoost) into **VSYS, "
      "pin %d**, through a Schottky diode (1N5817 or similar: anode to the charger's OUT+/BAT+, "
      "cathode to VSYS), and the charger's OUT-/GND to any GND pin (pin 38 is next to VSYS). "
      "The diode keeps USB's 5 V (which reaches VSYS through the Pico's own diode from VBUS) from "
      "back-feeding the charger, so USB and battery can both be connected. Never connect a "
      "battery to VBUS (pin 40) or 3V3 (pin 36)." % PIN_VSYS)
    a("")
    a("## Pico header, pin by pin")
    a("")
    used = {}
    for p in parts:
        for t in p["terms"]:
            if p["optional"] and not p["enabled"]:
                label = "(%s %s, optional, disabled)" % (p["ref"], t["pin"])
            else:
                label = "%s %s" % (p["ref"], t["pin"])
            used.setdefault(t["phys"], []).append(label)
    used.setdefault(PIN_VSYS, []).append("(battery via Schottky diode, optional)")
    a("| Left pin | Name | Connected to | | Right pin | Name | Connected to |")
    a("|---------:|------|--------------|-|----------:|------|--------------|")
    for r in range(20):
        lp, rp = r + 1, 40 - r
        a("| %d | %s | %s | | %d | %s | %s |" % (
            lp, pin_title(lp), ", ".join(used.get(lp, [])),
            rp, pin_title(rp), ", ".join(used.get(rp, []))))
    a("")
    return "\n".join(L)


def pin_title(phys):
    name = HEADER[phys]
    if phys == 33:
        return "GND (AGND)"
    if name.startswith("GP"):
        alts = alt_functions(int(name[2:]))
        if alts:
            return "%s (%s)" % (name, ", ".join(alts))
    return name


# ---------------------------------------------------------------------------
# schematic.svg

PITCH = 22          # vertical distance between header pins in the drawing
PICO_W = 220
STUB = 26           # pin stub length outside the Pico outline
CHAN = 13           # spacing of the vertical wire channels
PART_W = 210
MARGIN = 24
TOP = 120           # y of the Pico outline's top edge
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"

COLORS = {"signal": "#1f5fbf", "gnd": "#222222", "3v3": "#c0392b", "off": "#9a9a9a"}


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class Svg:
    def __init__(self):
        self.items = []

    def add(self, s):
        self.items.append(s)

    def line(self, x1, y1, x2, y2, color="#000", width=1.6, dash=False):
        d = ' stroke-dasharray="6 4"' if dash else ""
        self.add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"%s/>'
                 % (x1, y1, x2, y2, color, width, d))

    def poly(self, pts, color="#000", width=1.6, dash=False, fill="none"):
        d = ' stroke-dasharray="6 4"' if dash else ""
        self.add('<polyline points="%s" fill="%s" stroke="%s" stroke-width="%g"%s/>'
                 % (" ".join("%g,%g" % p for p in pts), fill, color, width, d))

    def rect(self, x, y, w, h, stroke="#000", fill="none", width=1.6, dash=False, rx=0):
        d = ' stroke-dasharray="6 4"' if dash else ""
        self.add('<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" stroke="%s" stroke-width="%g"%s/>'
                 % (x, y, w, h, rx, fill, stroke, width, d))

    def circle(self, x, y, r, stroke="#000", fill="none", width=1.4):
        self.add('<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="%s" stroke-width="%g"/>'
                 % (x, y, r, fill, stroke, width))

    def text(self, x, y, s, size=12, anchor="start", color="#000", weight="normal", style="normal"):
        self.add('<text x="%g" y="%g" font-size="%g" text-anchor="%s" fill="%s" font-weight="%s" '
                 'font-style="%s">%s</text>' % (x, y, size, anchor, color, weight, style, esc(s)))


def gnd_symbol(svg, x, y, color, label):
    """Ground symbol hanging from (x, y) downwards, with a pin hint."""
    svg.line(x, y, x, y + 10, color)
    svg.line(x - 9, y + 10, x + 9, y + 10, color, 2)
    svg.line(x - 6, y + 14, x + 6, y + 14, color, 2)
    svg.line(x - 3, y + 18, x + 3, y + 18, color, 2)
    svg.text(x, y + 31, label, 10, "middle", color)


def v33_symbol(svg, x, y, color, label):
    """Supply flag above (x, y)."""
    svg.line(x, y, x, y - 10, color)
    svg.poly([(x - 8, y - 10), (x + 8, y - 10)], color, 2)
    svg.text(x, y - 15, label, 10, "middle", color)


def pin_y(phys):
    return TOP + 34 + row(phys) * PITCH


def block_geometry(p):
    """(head, height, space_below) of a part's block in the drawing.

    head: top of the block to its first signal terminal.
    """
    n = len([t for t in p["terms"] if t["net"] == "signal"])
    if p["kind"] == "button":
        return 36, 76, 14
    if p["kind"] == "buzzer":
        return 46, 86, 14
    if p["kind"] == "battery":
        return 40, 84, 14
    note = 14 if p["optional"] else 0
    head = 50 + note
    return head, head + (n - 1) * PITCH + 36, 50


def layout_side(parts, which):
    """Place the blocks of one side; return (blocks, wires)."""
    blocks = []
    next_free = TOP - 40
    for p in parts:
        sigs = sorted([t for t in p["terms"] if t["net"] == "signal"], key=lambda t: row(t["phys"]))
        head, height, below = block_geometry(p)
        # terminals sit on half rows, so a terminal never shares a y with a pin row
        top = pin_y(sigs[0]["phys"]) + PITCH / 2.0 - head
        while top < next_free:
            top += PITCH
        term_y = [top + head + i * PITCH for i in range(len(sigs))]
        blocks.append({"part": p, "top": top, "height": height, "sigs": sigs, "term_y": term_y})
        next_free = top + height + below
    wires = []
    for b in blocks:
        for t, ty in zip(b["sigs"], b["term_y"]):
            wires.append({"block": b, "term": t, "ty": ty, "py": pin_y(t["phys"])})
    return blocks, wires


def crossings(wires, chans, term_x, stub_x):
    """Count crossings between orthogonal wires routed through their channels."""
    segs = []
    for w, c in zip(wires, chans):
        segs.append(((term_x, w["ty"]), (c, w["ty"]), (c, w["py"]), (stub_x, w["py"])))
    n = 0
    for i in range(len(segs)):
        for j in range(len(segs)):
            if i == j:
                continue
            a, b = segs[i], segs[j]
            # horizontal pieces of i against the vertical piece of j
            vx, vy1, vy2 = b[1][0], min(b[1][1], b[2][1]), max(b[1][1], b[2][1])
            for (x1, y), (x2, _) in ((a[0], a[1]), (a[2], a[3])):
                lo, hi = min(x1, x2), max(x1, x2)
                if lo < vx < hi and vy1 < y < vy2:
                    n += 1
    return n


def assign_channels(wires, which, chan_x0):
    """Pick a channel per wire, keeping crossings low (deterministic local search)."""
    if not wires:
        return []
    # channel positions, nearest the parts first
    step = CHAN if which == "left" else -CHAN
    slots = [chan_x0 + i * step for i in range(len(wires))]
    # start: wires heading down take the outer channels in reverse order
    order = sorted(range(len(wires)), key=lambda i: (wires[i]["py"] > wires[i]["ty"], -wires[i]["ty"]))
    perm = [0] * len(wires)
    for slot, i in enumerate(order):
        perm[i] = slot
    term_x = chan_x0 - step
    stub_x = slots[-1] + step

    def cost(p):
        return crossings(wires, [slots[k] for k in p], term_x, stub_x)

    best = cost(perm)
    improved = True
    while improved and best:
        improved = False
        for i in range(len(wires)):
            for j in range(i + 1, len(wires)):
                q = list(perm)
                q[i], q[j] = q[j], q[i]
                c = cost(q)
                if c < best:
                    perm, best, improved = q, c, True
    return [slots[k] for k in perm]


def draw_block(svg, b, which, term_x):
    """Draw one part block. term_x is where its signal terminals end."""
    p = b["part"]
    off = p["optional"] and not p["enabled"]
    dash = p["optional"]
    col = COLORS["off"] if off else "#000"
    top, h = b["top"], b["height"]
    face = 1 if which == "left" else -1          # +1: terminals on the right edge
    box_r = term_x - face * 22                    # edge of the block facing the Pico
    box_l = box_r - face * PART_W
    x0, x1 = min(box_l, box_r), max(box_l, box_r)
    mid = (x0 + x1) / 2.0
    near = "end" if face == 1 else "start"
    note = ""
    if p["optional"]:
        note = "optional, enabled" if p["enabled"] else "optional, disabled in board.json"
    sig_col = COLORS["off"] if off else COLORS["signal"]
    gnd_col = COLORS["off"] if off else COLORS["gnd"]
    v_col = COLORS["off"] if off else COLORS["3v3"]
    others = sorted([t for t in p["terms"] if t["net"] != "signal"], key=lambda t: t["net"] != "gnd")

    def lead(x_from, y, color):
        svg.line(x_from, y, term_x, y, color, 1.6, dash)
        svg.circle(term_x, y, 2.2, color, color)

    if p["kind"] == "button":
        y = b["term_y"][0]
        far = others[0]
        svg.text(mid, top + 13, "%s  %s" % (p["ref"], p["title"]), 12, "middle", col, "bold")
        cx_near = box_r - face * 50
        cx_far = box_r - face * 100
        cm = (cx_far + cx_near) / 2.0
        lead(cx_near, y, sig_col)
        svg.circle(cx_near, y, 3, col, "#fff")
        svg.circle(cx_far, y, 3, col, "#fff")
        svg.line(cx_far - face * 2, y - 5, cx_near + face * 3, y - 13, col, 1.8)   # lever
        svg.line(cm, y - 9, cm, y - 17, col, 1.4)                                  # plunger
        svg.line(cm - 7, y - 17, cm + 7, y - 17, col, 1.4)
        fx = cx_far - face * 26
        if far["net"] == "gnd":
            svg.line(cx_far, y, fx, y, gnd_col, 1.6, dash)
            gnd_symbol(svg, fx, y, gnd_col, "GND pin %d" % far["phys"])
            pull = "int. pull-up"
        else:
            svg.line(cx_far, y, fx, y, v_col, 1.6, dash)
            v33_symbol(svg, fx, y, v_col, "")
            svg.text(fx, y + 16, "3V3 pin %d" % far["phys"], 10, "middle", v_col)
            pull = "int. pull-down"
        svg.text((cx_far + box_r) / 2.0, y + 20, pull, 10, "middle", col, style="italic")
        return

    if p["kind"] == "buzzer":
        y = b["term_y"][0]
        svg.text(mid, top + 13, "%s  %s" % (p["ref"], p["title"]), 12, "middle", col, "bold")
        bx = box_r - face * 60                        # piezo body, near edge
        lead(bx, y, sig_col)
        svg.rect(min(bx, bx - face * 16), y - 11, 16, 22, col, "#fff", 1.6, dash, 2)
        svg.text(bx + face * 7, y - 4, "+", 11, "middle", col)
        fx = bx - face * 16 - face * 22
        svg.line(bx - face * 16, y, fx, y, gnd_col, 1.6, dash)
        gnd_symbol(svg, fx, y, gnd_col, "GND pin %d" % others[0]["phys"])
        if note:
            svg.text(mid, top + 28, note, 10, "middle", col, style="italic")
        return

    if p["kind"] == "battery":
        y = b["term_y"][0]
        svg.text(mid, top + 13, "%s  %s" % (p["ref"], p["title"]), 12, "middle", col, "bold")
        dx = box_r - face * 40                        # diode cathode bar
        lead(dx, y, COLORS["3v3"])
        svg.poly([(dx - face * 14, y - 8), (dx - face * 14, y + 8), (dx, y), (dx - face * 14, y - 8)],
                 col, 1.4, False, "#fff")
        svg.line(dx, y - 8, dx, y + 8, col, 2)
        svg.text(dx - face * 7, y - 12, "1N5817", 9, "middle", col)
        cell = dx - face * 74
        svg.line(dx - face * 14, y, cell, y, COLORS["3v3"], 1.6, True)
        svg.rect(min(cell, cell - face * 70), y - 14, 70, 28, col, "#fff", 1.4, True, 4)
        svg.text(cell - face * 35, y - 1, "charger", 10, "middle", col)
        svg.text(cell - face * 35, y + 10, "+ LiPo", 10, "middle", col)
        svg.text(cell + face * 3, y - 4, "+", 10, near, col)
        gx = cell - face * 35
        svg.line(gx, y + 14, gx, y + 20, COLORS["gnd"], 1.6, True)
        gnd_symbol(svg, gx, y + 20, COLORS["gnd"], "GND pin %d" % p["gnd_pin"])
        svg.text(dx - face * 7, y + 24, "optional", 10, "middle", col, style="italic")
        return

    # boxed module: OLED or encoder
    svg.rect(x0, top, x1 - x0, h, col, "#fff", 1.6, dash, 6)
    svg.text(mid, top + 16, "%s  %s" % (p["ref"], p["name"]), 12, "middle", col, "bold")
    svg.text(mid, top + 31, p["sub"], 10, "middle", col)
    if note:
        svg.text(mid, top + 45, note, 10, "middle", col, style="italic")
    if p["kind"] == "oled":
        sx = x0 + 14 if face == 1 else x1 - 84
        svg.rect(sx, top + 40, 70, 30, col, "#14213d", 1.2, False, 2)
        svg.text(sx + 35, top + 59, "128x64", 10, "middle", "#8ecae6")
    for t, y in zip(b["sigs"], b["term_y"]):
        svg.line(box_r, y, box_r, y, sig_col)
        lead(box_r, y, sig_col)
        svg.text(box_r - face * 6, y + 4, t["pin"], 11, near, col)
    # power terminals along the bottom edge, on the side away from the Pico
    for i, t in enumerate(others):
        x = box_l + face * (22 + i * 64)
        svg.text(x, top + h - 6, t["pin"], 11, "middle", col)
        if t["net"] == "gnd":
            svg.line(x, top + h, x, top + h + 6, gnd_col, 1.6, dash)
            gnd_symbol(svg, x, top + h + 6, gnd_col, "GND pin %d" % t["phys"])
        else:
            svg.line(x, top + h, x, top + h + 10, v_col, 1.6, dash)
            svg.line(x, top + h + 10, x + face * 30, top + h + 10, v_col, 1.6, dash)
            svg.text(x + face * 34, top + h + 14, "3V3(OUT) pin %d" % t["phys"], 10,
                     "start" if face == 1 else "end", v_col)


def render_svg(cfg):
    parts = circuit(cfg)
    battery = {
        "id": "bat", "ref": "BT1", "name": "BATTERY", "kind": "battery", "optional": True, "enabled": True,
        "title": "LiPo 3.7 V + charger", "gnd_pin": 38,
        "terms": [{"pin": "OUT+", "phys": PIN_VSYS, "net": "signal", "role": "VSYS", "gpio": None}],
    }

    def part_side(p):
        rows = [t["phys"] for t in p["terms"] if t["net"] == "signal"]
        left = sum(1 for r in rows if side(r) == "left")
        return "left" if left * 2 >= len(rows) else "right"

    def first_row(p):
        return min(row(t["phys"]) for t in p["terms"] if t["net"] == "signal")

    by_side = {"left": [], "right": []}
    for p in parts:
        by_side[part_side(p)].append(p)
    by_side["right"].append(battery)
    for s in by_side:
        by_side[s].sort(key=first_row)

    lb, lw = layout_side(by_side["left"], "left")
    rb, rw = layout_side(by_side["right"], "right")

    left_term_x = MARGIN + PART_W + 22
    left_chan0 = left_term_x + 16
    pico_x = left_chan0 + max(len(lw), 1) * CHAN + 14 + STUB
    right_stub = pico_x + PICO_W + STUB
    right_chan0 = right_stub + 14 + max(len(rw), 1) * CHAN - CHAN
    right_term_x = right_chan0 + 16
    width = right_term_x + 22 + PART_W + MARGIN

    bottom = TOP + 34 + 19 * PITCH + 34
    for b in lb + rb:
        bottom = max(bottom, b["top"] + b["height"] + 40)
    legend_y = bottom + 30
    height = legend_y + 118

    svg = Svg()
    svg.add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="%s">' % (width, height, width, height, FONT))
    svg.add('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (width, height))
    svg.text(MARGIN, 30, "Bower: Raspberry Pi Pico wiring", 18, "start", "#000", "bold")
    svg.text(MARGIN, 50, "Generated by hardware/gen_docs.py from hardware/board.json (board: %s). "
             "Pico seen from the top, USB connector up." % cfg["board"], 11, "start", "#444")

    # Pico outline, USB connector and header
    body_h = 19 * PITCH + 68
    svg.rect(pico_x, TOP, PICO_W, body_h, "#1b5e20", "#e8f5e9", 2, False, 8)
    svg.rect(pico_x + PICO_W / 2.0 - 24, TOP - 16, 48, 22, "#555", "#d9d9d9", 1.6, False, 3)
    svg.text(pico_x + PICO_W / 2.0, TOP - 22, "micro-USB", 10, "middle", "#555")
    cx, cy = pico_x + PICO_W / 2.0, TOP + body_h / 2.0
    svg.add('<text x="%g" y="%g" font-size="17" text-anchor="middle" fill="#1b5e20" font-weight="bold" '
            'transform="rotate(-90 %g %g)">Raspberry Pi Pico</text>' % (cx - 4, cy, cx - 4, cy))
    svg.add('<text x="%g" y="%g" font-size="11" text-anchor="middle" fill="#1b5e20" '
            'transform="rotate(-90 %g %g)">top view, pin 1 = GP0</text>' % (cx + 14, cy, cx + 14, cy))

    used = {}
    for p in parts + [battery]:
        for t in p["terms"]:
            if t["net"] == "signal" or p["kind"] == "battery":
                used.setdefault(t["phys"], []).append(p)
    for phys in range(1, 41):
        name = HEADER[phys]
        y = pin_y(phys)
        on = [p for p in used.get(phys, []) if not (p["optional"] and not p["enabled"])]
        if name == "GND":
            col = COLORS["gnd"]
        elif name in ("3V3(OUT)", "VSYS", "VBUS"):
            col = COLORS["3v3"]
        elif on:
            col = COLORS["signal"]
        else:
            col = "#8a8a8a"
        weight = "bold" if (on or name in ("GND", "3V3(OUT)", "VSYS")) else "normal"
        if side(phys) == "left":
            svg.line(pico_x - STUB, y, pico_x, y, col, 2.2 if on else 1.4)
            svg.rect(pico_x + 4, y - 8, 22, 16, col, "#fff", 1, False, 3)
            svg.text(pico_x + 15, y + 4, phys, 10, "middle", col, "bold")
            svg.text(pico_x + 31, y + 4, name, 11, "start", col, weight)
        else:
            svg.line(pico_x + PICO_W, y, pico_x + PICO_W + STUB, y, col, 2.2 if on else 1.4)
            svg.rect(pico_x + PICO_W - 26, y - 8, 22, 16, col, "#fff", 1, False, 3)
            svg.text(pico_x + PICO_W - 15, y + 4, phys, 10, "middle", col, "bold")
            svg.text(pico_x + PICO_W - 31, y + 4, name, 11, "end", col, weight)

    # wires and parts
    for which, blocks, wires, term_x, chan0, stub_x in (
            ("left", lb, lw, left_term_x, left_chan0, pico_x - STUB),
            ("right", rb, rw, right_term_x, right_chan0, right_stub)):
        chans = assign_channels(wires, which, chan0)
        for w, cx in zip(wires, chans):
            p = w["block"]["part"]
            off = p["optional"] and not p["enabled"]
            col = COLORS["off"] if off else (COLORS["3v3"] if p["kind"] == "battery" else COLORS["signal"])
            svg.poly([(term_x, w["ty"]), (cx, w["ty"]), (cx, w["py"]), (stub_x, w["py"])], col, 1.6,
                     p["optional"])
            svg.circle(stub_x, w["py"], 2.2, col, col)
            t = w["term"]
            if t["gpio"] is not None:
                lx = stub_x - 4 if which == "left" else stub_x + 4
                svg.text(lx, w["py"] - 4, "GP%d" % t["gpio"], 9, "end" if which == "left" else "start", col)
        for b in blocks:
            draw_block(svg, b, which, term_x)

    # legend
    ly = legend_y
    svg.line(MARGIN, ly - 18, width - MARGIN, ly - 18, "#ccc", 1)
    svg.text(MARGIN, ly, "Legend", 12, "start", "#000", "bold")
    svg.line(MARGIN, ly + 16, MARGIN + 30, ly + 16, COLORS["signal"], 1.6)
    svg.text(MARGIN + 38, ly + 20, "signal wire, labelled with its GPIO; header pin numbers are in the boxes",
             11)
    svg.line(MARGIN, ly + 36, MARGIN + 30, ly + 36, COLORS["off"], 1.6, True)
    svg.text(MARGIN + 38, ly + 40, "dashed: optional part; grey: disabled in board.json "
             "(\"enabled\": false), ignored by the firmware", 11)
    gnd_symbol(svg, MARGIN + 15, ly + 48, COLORS["gnd"], "")
    pull = "pull-ups (active low)" if cfg["buttons"]["active_low"] else "pull-downs (active high)"
    svg.text(MARGIN + 38, ly + 64, "ground: any GND pin, the nearest is named; buttons use the RP2040's "
             "internal %s, no resistors" % pull, 11)
    svg.text(MARGIN + 38, ly + 84, "OLED: I2C%d at 0x%02X (%d), %d Hz; the module has its own SDA/SCL pull-ups"
             % (cfg["display"]["i2c"]["bus"], cfg["display"]["i2c"]["addr"], cfg["display"]["i2c"]["addr"],
                cfg["display"]["i2c"]["freq"]), 11)
    svg.text(MARGIN + 38, ly + 104, "battery: charger OUT+ -> Schottky diode -> VSYS (pin 39); "
             "never into VBUS or 3V3", 11)
    svg.add("</svg>")
    return "\n".join(svg.items) + "\n"


# ---------------------------------------------------------------------------
# wokwi/diagram.json

WOKWI_KEYS = {"up": "ArrowUp", "down": "ArrowDown", "ok": "Enter", "back": "Escape"}
WOKWI_COLORS = {"up": "blue", "down": "blue", "ok": "green", "back": "red"}
WIRE_COLORS = {"signal": "green", "gnd": "black", "3v3": "red"}


def render_wokwi(cfg):
    parts = circuit(cfg)
    wparts = [{"type": "wokwi-pi-pico", "id": "pico", "top": 0, "left": 0, "attrs": {"env": WOKWI_ENV}}]
    conns = []
    y_btn = 0
    for p in parts:
        if p["optional"] and not p["enabled"]:
            continue
        if p["kind"] == "oled":
            wparts.append({"type": "board-ssd1306", "id": p["id"], "top": -110, "left": -160,
                           "attrs": {"i2cAddress": "0x%02x" % cfg["display"]["i2c"]["addr"]}})
            names = {"GND": "GND", "VCC": "VCC", "SCL": "SCL", "SDA": "SDA"}
        elif p["kind"] == "button":
            key = p["id"][4:]
            wparts.append({"type": "wokwi-pushbutton", "id": p["id"], "top": 10 + y_btn, "left": -170,
                           "attrs": {"color": WOKWI_COLORS[key], "label": p["name"], "key": WOKWI_KEYS[key]}})
            y_btn += 60
            names = {"1": "1.r", "2": "2.l"}
        elif p["kind"] == "encoder":
            wparts.append({"type": "wokwi-ky-040", "id": p["id"], "top": 260, "left": -190, "attrs": {}})
            names = {"CLK": "CLK", "DT": "DT", "SW": "SW", "+": "VCC", "GND": "GND"}
        elif p["kind"] == "buzzer":
            wparts.append({"type": "wokwi-buzzer", "id": p["id"], "top": 120, "left": 130,
                           "attrs": {"volume": "0.1"}})
            names = {"+": "2", "-": "1"}
        for t in p["terms"]:
            conns.append(["pico:" + wokwi_pin(t["phys"]), "%s:%s" % (p["id"], names[t["pin"]]),
                          WIRE_COLORS[t["net"]], []])
    # No "$serialMonitor" wires: without them Wokwi's serial monitor and its
    # RFC 2217 bridge use the Pico's USB serial, where MicroPython's REPL is,
    # so `bower deploy`, `mpremote` and `bower sync` reach it. Wired to
    # GP0/GP1 they would talk to UART0 instead, where the REPL is not.
    diagram = {
        "version": 1,
        "author": "Bower (generated by hardware/gen_docs.py from hardware/board.json)",
        "editor": "wokwi",
        "parts": wparts,
        "connections": conns,
        "dependencies": {},
    }
    return json.dumps(diagram, indent=2) + "\n"


# ---------------------------------------------------------------------------


def outputs(board_json=BOARD_JSON):
    cfg = boardcfg.load(board_json)
    return {
        OUT_WIRING: render_wiring(cfg),
        OUT_SVG: render_svg(cfg),
        OUT_WOKWI: render_wokwi(cfg),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if a generated file differs from what is committed")
    ap.add_argument("--board", default=BOARD_JSON, help="board.json to read (default: %(default)s)")
    args = ap.parse_args(argv)
    try:
        files = outputs(args.board)
    except ValueError as e:
        print("gen_docs: %s" % e, file=sys.stderr)
        return 2
    stale = []
    for path, text in files.items():
        rel = os.path.relpath(path, ROOT)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                current = f.read()
        except OSError:
            current = None
        if current == text:
            continue
        if args.check:
            stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote %s" % rel)
    if stale:
        print("gen_docs: out of date with hardware/board.json: %s\n"
              "run: python3 hardware/gen_docs.py" % ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
