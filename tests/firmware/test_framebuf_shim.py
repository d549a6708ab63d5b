"""bower_host.framebuf against MicroPython's own framebuf, byte for byte.

One battery of drawings (hand-picked edge cases plus seeded random ones, in
every format) runs once under the real MicroPython 1.27 (WebAssembly, one
Node process for the lot) and once under CPython with the shim; every
resulting buffer, every returned value and every exception type must match.
"""

import os
import random
import shutil
import subprocess

import pytest

import framebuf as shim  # bower_host.framebuf, installed by tests/conftest.py
from bower import cpfont as font8x8

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_SCRIPT = os.path.join(REPO_ROOT, "tests", "mpy", "run_script.mjs")

# Runs under MicroPython and CPython alike: builds each case's frame buffer,
# applies its operations and prints one line per case.
RUNNER = r'''
import array
import binascii
import framebuf


def _arg(a):
    if isinstance(a, tuple) and a and a[0] in ("fb", "tuple"):
        kind, w, h, fmt, data = a
        buf = bytearray(binascii.unhexlify(data))
        return framebuf.FrameBuffer(buf, w, h, fmt) if kind == "fb" else (buf, w, h, fmt)
    if isinstance(a, tuple) and a and a[0] == "array":
        return array.array(a[1], a[2])
    if isinstance(a, tuple) and a and a[0] == "bytes":
        return bytes(a[1])
    return a


def run(cases, emit):
    for name, spec, ops in cases:
        w, h, fmt, stride, size = spec
        buf = bytearray(size)
        try:
            if stride is None:
                fb = framebuf.FrameBuffer(buf, w, h, fmt)
            else:
                fb = framebuf.FrameBuffer(buf, w, h, fmt, stride)
        except Exception as e:
            emit("%s init:%s" % (name, type(e).__name__))
            continue
        results = []
        for op in ops:
            args = [_arg(a) for a in op[1:]]
            try:
                r = getattr(fb, op[0])(*args)
            except Exception as e:
                r = "!" + type(e).__name__
            if r is not None:
                results.append(r)
        emit("%s %s %r" % (name, binascii.hexlify(buf).decode(), results))
'''

FORMATS = {
    "MONO_VLSB": 0, "RGB565": 1, "GS4_HMSB": 2, "MONO_HLSB": 3, "MONO_HMSB": 4, "GS2_HMSB": 5, "GS8": 6,
}


def _size(w, h, fmt):
    if fmt == 0:
        return w * ((h + 7) // 8)
    if fmt in (3, 4):
        return ((w + 7) // 8) * h
    bits = {1: 16, 2: 4, 5: 2, 6: 8}[fmt]
    return (w * bits + 7) // 8 * h


def _spec(w, h, fmt=0):
    return (w, h, fmt, None, _size(w, h, fmt))


OLED = _spec(128, 64)


def _glyph_cases():
    every = "".join(chr(c) for c in range(32, 128))
    ops = [("text", every[i * 16:(i + 1) * 16], 0, i * 8) for i in range(6)]
    cases = [("font-grid", OLED, ops)]
    # Every glyph at every vertical shift, in a buffer whose height is not a
    # multiple of 8 (a partial last page), clipped at both sides.
    for shift in range(-8, 9):
        cases.append(("font-y%d" % shift, _spec(37, 13), [("text", every, -5 - 8 * k, shift) for k in range(0, 96, 4)]))
    cases += [
        ("text-utf8", OLED, [("text", "caf\u00e9 \u2665 \u00bd", 0, 0), ("text", "\x01\x1f\x7f", 0, 10)]),
        ("text-nul", OLED, [("text", "ab\x00cd", 3, 3)]),
        ("text-bytes", OLED, [("text", ("bytes", b"BYTES\xff"), 0, 20)]),
        ("text-color0", OLED, [("fill", 1), ("text", "erase", 10, 30, 0), ("text", "two", 10, 45, 2)]),
        ("text-offscreen", OLED, [("text", "far", 128, 0), ("text", "far", 0, 64), ("text", "far", -24, 0),
                                  ("text", "far", 0, -8), ("text", "edge", 121, 57), ("text", "edge", -29, -7)]),
        ("text-float", OLED, [("text", "x", 1.5, 0), ("text", "x", 0, 0, 1.0)]),
        ("text-bytearray", OLED, [("text", bytearray(b"x"), 0, 0)]),
    ]
    return cases


def _shape_cases():
    return [
        ("fill", OLED, [("fill", 1), ("fill_rect", 10, 10, 20, 20, 0), ("fill", 0), ("pixel", 0, 0, 1)]),
        ("fill-true", OLED, [("fill", True), ("pixel", 5, 5), ("pixel", -1, 0), ("pixel", 128, 63)]),
        ("fill-rect-clip", OLED, [("fill_rect", -5, -5, 10, 10, 1), ("fill_rect", 120, 60, 20, 20, 1),
                                  ("fill_rect", 50, 3, 0, 5, 1), ("fill_rect", 50, 3, 5, -1, 1),
                                  ("fill_rect", 128, 0, 5, 5, 1), ("fill_rect", 40, 13, 30, 27, 1)]),
        ("hvline", OLED, [("hline", -10, 0, 200, 1), ("vline", 127, -3, 100, 1), ("hline", 5, 63, 3, 1),
                          ("vline", 64, 7, 2, 1), ("hline", 0, 64, 10, 1), ("vline", -1, 0, 10, 1)]),
        ("rect", OLED, [("rect", 0, 0, 128, 64, 1), ("rect", 10, 10, 1, 1, 1), ("rect", 20, 20, 30, 15, 1, True),
                        ("rect", -3, 40, 10, 30, 1), ("rect", 60, 5, 9, 9, 1, 0), ("rect", 70, 5, 0, 9, 1)]),
        ("rect-small", OLED, [("rect", 0, 0, 2, 2, 1), ("rect", 5, 5, 1, 3, 1, True), ("pixel", 0, 0)]),
        ("lines", OLED, [("line", 0, 0, 127, 63, 1), ("line", 127, 0, 0, 63, 1), ("line", 5, 60, 5, 60, 1),
                         ("line", -50, 10, 200, 30, 1), ("line", 64, -20, 70, 100, 1), ("line", 30, 5, 10, 50, 1),
                         ("line", 90, 40, 91, 2, 1), ("line", 100, 10, 20, 12, 0)]),
        ("ellipse", OLED, [("ellipse", 64, 32, 30, 20, 1), ("ellipse", 10, 10, 15, 4, 1, True),
                           ("ellipse", 120, 60, 12, 12, 1, True, 5), ("ellipse", 40, 40, 0, 0, 1),
                           ("ellipse", 70, 10, 0, 6, 1), ("ellipse", 90, 50, 7, 0, 1, True),
                           ("ellipse", -3, 30, 8, 8, 1, False, 9)]),
        ("poly", OLED, [("poly", 10, 5, ("array", "h", [0, 0, 30, 10, 5, 40]), 1),
                        ("poly", 60, 5, ("array", "h", [0, 0, 30, 10, 5, 40, 20, 20]), 1, True),
                        ("poly", 100, 30, ("array", "h", [-20, -20, 40, 0, 0, 40, 10, 10]), 1, True),
                        ("poly", 0, 50, ("bytes", [0, 0, 20, 0, 20, 10]), 1, True),
                        ("poly", 0, 0, ("array", "h", [5, 5]), 1, True),
                        ("poly", 0, 0, ("array", "h", []), 1),
                        ("poly", 0, 0, [1, 2, 3, 4], 1)]),
        ("scroll", OLED, [("text", "scroll me", 0, 0), ("fill_rect", 60, 30, 20, 20, 1), ("scroll", 3, 5),
                          ("scroll", -7, -2), ("scroll", 0, 9), ("scroll", 200, 0), ("scroll", 0, -64),
                          ("scroll", -127, 63)]),
        ("pixel-get", _spec(10, 10), [("pixel", 3, 4, 1), ("pixel", 3, 4), ("pixel", 9, 9, 7), ("pixel", 9, 9),
                                      ("pixel", 10, 0, 1), ("pixel", 0, 10), ("pixel", 2, 2, 1.5)]),
        ("bad-size", (128, 64, 0, None, 1023), [("fill", 1)]),
        ("bad-stride", (128, 64, 0, 100, 1024), [("fill", 1)]),
        ("bad-format", (8, 8, 9, None, 64), [("fill", 1)]),
        ("stride", (20, 16, 0, 32, 64), [("fill", 1), ("text", "stride", -3, 3, 0), ("line", 0, 15, 19, 0, 0)]),
    ]


def _blit_cases():
    rng = random.Random(7)
    icon = bytes(rng.randrange(256) for _ in range(8))
    hl = bytes(rng.randrange(256) for _ in range(2 * 12))
    gs = bytes(rng.randrange(256) for _ in range(6 * 5))
    cases = [
        ("blit-vlsb", OLED, [("blit", ("fb", 8, 8, 0, icon.hex()), x, y) for x, y in
                             [(0, 0), (-3, 2), (124, 60), (127, 63), (-7, -7), (-8, 0), (128, 0), (60, -5)]]),
        ("blit-key", OLED, [("fill", 1), ("blit", ("fb", 8, 8, 0, icon.hex()), 10, 10, 1),
                            ("blit", ("fb", 8, 8, 0, icon.hex()), 30, 10, 0),
                            ("blit", ("fb", 8, 8, 0, icon.hex()), 50, 10, -1)]),
        ("blit-hlsb", OLED, [("blit", ("fb", 12, 12, 3, hl[:24].hex()), 5, 5),
                             ("blit", ("fb", 12, 12, 4, hl[:24].hex()), 40, 33, 0)]),
        ("blit-tuple", OLED, [("blit", ("tuple", 8, 8, 0, icon.hex()), 100, 3)]),
        ("blit-palette", OLED, [("blit", ("fb", 12, 5, 2, gs.hex()), 3, 3, -1, ("fb", 16, 1, 2, "0f0f0f0f0f0f0f0f")),
                                ("blit", ("fb", 8, 8, 0, icon.hex()), 20, 20, 1, ("fb", 2, 1, 3, "40"))]),
        ("blit-not-fb", OLED, [("blit", ("bytes", [1, 2]), 0, 0)]),
        ("blit-into-gs8", _spec(20, 10, 6), [("blit", ("fb", 8, 8, 0, icon.hex()), 2, 1, -1)]),
    ]
    return cases


def _random_cases(n=160, seed=2024):
    rng = random.Random(seed)
    specs = [OLED, _spec(37, 13), _spec(9, 21)] + [_spec(23, 11, f) for f in FORMATS.values()]
    chars = [chr(c) for c in range(1, 200)]

    def c():
        return rng.choice([0, 1, 1, 1, 2, 5, 255, 0xFFFF, 3000])

    cases = []
    for k in range(n):
        spec = rng.choice(specs)
        w, h = spec[0], spec[1]

        def x(w=w):
            return rng.randint(-w // 2, w + w // 2)

        def y(h=h):
            return rng.randint(-h // 2, h + h // 2)

        def d(w=w, h=h):
            return rng.randint(-8, max(w, h))

        ops = []
        for _ in range(rng.randint(1, 8)):
            kind = rng.choice(["fill_rect", "rect", "line", "hline", "vline", "pixel", "text", "text", "ellipse",
                               "poly", "scroll", "fill"])
            if kind == "fill_rect":
                ops.append((kind, x(), y(), d(), d(), c()))
            elif kind == "rect":
                ops.append((kind, x(), y(), d(), d(), c(), rng.random() < 0.5))
            elif kind == "line":
                ops.append((kind, x(), y(), x(), y(), c()))
            elif kind in ("hline", "vline"):
                ops.append((kind, x(), y(), d(), c()))
            elif kind == "pixel":
                ops.append((kind, x(), y(), c()) if rng.random() < 0.7 else (kind, x(), y()))
            elif kind == "text":
                s = "".join(rng.choice(chars) for _ in range(rng.randint(0, 12))).replace("\x00", "")
                ops.append((kind, s, x(), y(), c()))
            elif kind == "ellipse":
                ops.append((kind, x(), y(), rng.randint(0, 30), rng.randint(0, 30), c(), rng.random() < 0.5,
                            rng.randint(0, 31)))
            elif kind == "poly":
                pts = [v for _ in range(rng.randint(1, 6)) for v in (rng.randint(-20, 40), rng.randint(-20, 40))]
                ops.append((kind, x(), y(), ("array", "h", pts), c(), rng.random() < 0.6))
            elif kind == "scroll":
                ops.append((kind, rng.randint(-w - 2, w + 2), rng.randint(-h - 2, h + 2)))
            else:
                ops.append((kind, c()))
        cases.append(("random-%d" % k, spec, ops))
    return cases


def all_cases():
    return _glyph_cases() + _shape_cases() + _blit_cases() + _random_cases()


def _run_micropython(tmp_path, cases):
    node = shutil.which("node")
    if node is None:
        pytest.fail("`node` is not on PATH: install Node.js 20+, then run `make setup`", pytrace=False)
    script = tmp_path / "framebuf_cases.py"
    script.write_text(RUNNER + "\nCASES = " + repr(cases) + "\nrun(CASES, print)\n" + KEYWORD_PROBE, encoding="utf-8")
    proc = subprocess.run([node, RUN_SCRIPT, str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, "MicroPython run failed:\n" + proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout.splitlines()


def _run_shim(cases):
    lines = []
    g = {"__name__": "framebuf_cases"}
    exec(RUNNER + "\nrun(CASES, emit)\n" + KEYWORD_PROBE.replace("print(", "emit("),
         dict(g, CASES=cases, emit=lines.append))
    return lines


# rect() with a keyword argument: a TypeError on MicroPython (C functions take
# no keywords), so it must be one in the simulator too.
KEYWORD_PROBE = r'''
_kb = bytearray(8)
_kfb = framebuf.FrameBuffer(_kb, 8, 8, framebuf.MONO_VLSB)
try:
    _kfb.rect(0, 0, 4, 4, 1, f=True)
    print("keyword-rect accepted")
except TypeError:
    print("keyword-rect TypeError")
'''


def test_shim_draws_exactly_what_micropython_draws(tmp_path):
    cases = all_cases()
    mp_lines = _run_micropython(tmp_path, cases)
    py_lines = _run_shim(cases)
    mp_out = mp_lines
    assert len(py_lines) == len(cases) + 1
    assert len(mp_out) == len(py_lines), "MicroPython printed %d lines for %d cases:\n%s" % (
        len(mp_out), len(cases), "\n".join(mp_lines[-20:]))
    mismatches = [(m, p) for m, p in zip(mp_out, py_lines) if m != p]
    if mismatches:
        m, p = mismatches[0]
        name = m.split(" ", 1)[0]
        case = next((c for c in cases if c[0] == name), None)
        pytest.fail("%d of %d cases differ; first: %s\n ops: %r\n MicroPython: %s\n shim:        %s" % (
            len(mismatches), len(cases), name, case and case[2], m[:400], p[:400]))
    assert py_lines[-1] == "keyword-rect TypeError"


def test_font_table_is_complete_and_glyph_A_is_what_micropython_draws():
    # The full comparison above covers every glyph; this pins the data module.
    assert font8x8.FIRST == 32 and font8x8.LAST == 127
    assert len(font8x8.FONT) == 96 * 8
    buf = bytearray(8)
    shim.FrameBuffer(buf, 8, 8, shim.MONO_VLSB).text("A", 0, 0)
    assert bytes(buf) == font8x8.FONT[(ord("A") - 32) * 8:(ord("A") - 31) * 8]
    assert any(buf)


def test_shim_rejects_what_micropython_rejects():
    buf = bytearray(1024)
    fb = shim.FrameBuffer(buf, 128, 64, shim.MONO_VLSB)
    with pytest.raises(TypeError):
        fb.pixel(1.5, 0, 1)  # w / 2 on CPython 3 is a float: caught in the simulator
    with pytest.raises(TypeError):
        fb.fill_rect(0, 0, 10 / 2, 4, 1)
    with pytest.raises(TypeError):
        fb.rect(0, 0, 4, 4, 1, f=True)
    with pytest.raises(TypeError):
        fb.text(bytearray(b"x"), 0, 0)
    with pytest.raises(TypeError):
        shim.FrameBuffer(bytes(1024), 128, 64, shim.MONO_VLSB)
    with pytest.raises(ValueError):
        shim.FrameBuffer(bytearray(1023), 128, 64, shim.MONO_VLSB)
    with pytest.raises(TypeError):
        shim.FrameBuffer(bytearray(1024), 128, 64)  # the format is required


def test_subclass_attributes_do_not_collide_with_a_driver():
    # The SSD1306 drivers set width/height/buffer/pages on self; Adafruit's
    # hands the FrameBuffer a memoryview that skips its control byte.
    class Driver(shim.FrameBuffer):
        def __init__(self):
            self.width, self.height, self.pages = 128, 64, 8
            self.buffer = bytearray(1025)
            self.buffer[0] = 0x40
            super().__init__(memoryview(self.buffer)[1:], 128, 64, shim.MONO_VLSB)

    d = Driver()
    d.fill(1)
    d.text("ok", 0, 0, 0)
    assert isinstance(d.buffer, bytearray) and d.buffer[0] == 0x40
    assert d.buffer[1] == 0xFF and d.buffer[1024] == 0xFF
    assert d.pixel(0, 0) == 1 and d.pixel(2, 2) == 0  # 'o' erased pixels
