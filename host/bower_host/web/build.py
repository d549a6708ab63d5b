"""``bower web build``: the device as a static site (issue 33).

The site is the very same ``euchre`` and ``bower`` packages the Pico runs,
compiled by mpy-cross into one pack (``bower.pak``, the Pico's format), run
by MicroPython's WebAssembly port (``runtime/``, shipped with this package:
no Node.js needed) through the browser board ``bower.webboard``; the page
around it (``static/``: the canvas, the four buttons, the browser's storage)
is ``app.js``. A service worker caches every file of the build under the
build's version, so after the first load the app starts with the network off,
and a new build is taken on the next start, never in the middle of a game.

::

    files = build(Path("site"))       # {name: bytes}, written whole or not at all

Nothing runs on a server: any static HTTPS host serves the directory.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
from pathlib import Path

from bower_host.deploy.build import compile_sources

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
RUNTIME = HERE / "runtime"
#: The files the page fetches, cached by the service worker.
#: The firmware's modules only CircuitPython loads (bower.board picks them there).
CIRCUITPYTHON_ONLY = ("cpboard.py", "cpdisplay.py", "cpfont.py")
SHELL = ("index.html", "app.js", "style.css", "manifest.webmanifest", "icon-192.png", "icon-512.png",
         "icon-maskable.png", "micropython.mjs", "micropython.wasm", "bower.pak")


def _sources() -> list[tuple[Path, str, str]]:
    # The installed engine, firmware and display driver (a checkout's, under
    # `pip install -e .`): (source, path in MicroPython's /lib, kind).
    import bower
    import euchre
    import ssd1306

    out = []
    for pkg, dest, kind in ((euchre, "/lib/euchre", "engine"), (bower, "/lib/bower", "firmware")):
        top = Path(str(pkg.__file__)).resolve().parent
        for src in sorted(top.rglob("*.py")):
            if "__pycache__" in src.parts or src.name in CIRCUITPYTHON_ONLY:
                continue
            out.append((src, f"{dest}/{src.relative_to(top).with_suffix('.mpy').as_posix()}", kind))
    out.append((Path(str(ssd1306.__file__)).resolve(), "/lib/ssd1306.mpy", "lib"))
    return out


def pack() -> bytes:
    """Every module the browser loads, compiled (bytecode for any port) into
    one pack in the Pico's format (``firmware/lib/bowerpak.py``)."""
    with tempfile.TemporaryDirectory(prefix="bower-web-") as d:
        items = compile_sources(_sources(), Path(d), None)
        return next(it for it in items if it.kind == "pack").local.read_bytes()


def _icon(size: int, maskable: bool) -> bytes:
    # The device as an icon: a dark screen with its B; a maskable icon keeps
    # the B inside the middle 80 % that every launcher's mask leaves.
    from PIL import Image, ImageDraw

    from bower_host.screen import BACKGROUND, OLED_WHITE
    img = Image.new("RGB", (size, size), (22, 26, 34))
    draw = ImageDraw.Draw(img)
    pad = size // 5 if maskable else size // 10
    draw.rounded_rectangle((pad, pad, size - pad, size - pad), radius=size // 12, fill=BACKGROUND)
    # A blocky B, pixel by pixel, as the device's 8x8 font draws it.
    rows = ["11110", "10001", "10001", "11110", "10001", "10001", "11110"]
    cell = (size - 2 * pad) // 11
    x0 = (size - 5 * cell) // 2
    y0 = (size - 7 * cell) // 2
    for y, row in enumerate(rows):
        for x, bit in enumerate(row):
            if bit == "1":
                draw.rectangle((x0 + x * cell, y0 + y * cell, x0 + (x + 1) * cell - 2, y0 + (y + 1) * cell - 2),
                               fill=OLED_WHITE)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _manifest() -> bytes:
    doc = {
        "name": "Bower: the Euchre scorekeeper", "short_name": "Bower",
        "description": "Whose deal, whose bid, and the score: the Bower device on a phone.",
        "start_url": "./", "scope": "./", "display": "standalone", "orientation": "any",
        "background_color": "#161a22", "theme_color": "#161a22",
        "icons": [{"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "icon-512.png", "sizes": "512x512", "type": "image/png"},
                  {"src": "icon-maskable.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"}],
    }
    return (json.dumps(doc, indent=2) + "\n").encode()


def build() -> dict[str, bytes]:
    """Every file of the site, by name."""
    from bower_host import __version__

    files: dict[str, bytes] = {}
    for name in ("index.html", "app.js", "style.css"):
        files[name] = (STATIC / name).read_bytes()
    for name in ("micropython.mjs", "micropython.wasm", "LICENSE-micropython.txt"):
        files[name] = (RUNTIME / name).read_bytes()
    files["bower.pak"] = pack()
    files["manifest.webmanifest"] = _manifest()
    files["icon-192.png"] = _icon(192, False)
    files["icon-512.png"] = _icon(512, False)
    files["icon-maskable.png"] = _icon(512, True)
    # The build's version: the service worker's cache is named after it, so
    # a new build is a new cache, taken on the next start.
    digest = hashlib.sha256()
    for name in SHELL:
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    version = f"{__version__}-{digest.hexdigest()[:12]}"
    files["version.json"] = json.dumps({"version": version, "runtime": (RUNTIME / "VERSION").read_text().strip(),
                                        "files": list(SHELL)}).encode()
    sw = (STATIC / "sw.js").read_text()
    # Each file the worker keeps, with its SHA-256: it takes a copy from the
    # browser's HTTP cache (the page has just fetched it: no second
    # download) only when that copy is this build's.
    cached = {name: hashlib.sha256(files[name]).hexdigest() for name in (*SHELL, "version.json")}
    files["sw.js"] = sw.replace("__VERSION__", version).replace("__FILES__", json.dumps(cached)).encode()
    return files
