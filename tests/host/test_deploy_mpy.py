"""What bower deploy puts on a Pico, tried on a real MicroPython (the npm
WebAssembly port, one Node run for the whole file):

* the device-side scan script (deploy.SCAN_SCRIPT) reports exactly the files
  and SHA-256 hashes the host computes, stale files included;
* the deployed .mpy files load (nothing else is on sys.path) and the
  deployed main.py boots bower.board on fake hardware: a press on a pin
  reaches the SSD1306 model's display RAM.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys

import pytest

from bower_host import deploy as D
from bower_host.deploy import build as DB
from bower_host.deploy import plan as DP

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_SCRIPT = os.path.join(REPO, "tests", "mpy", "run_script.mjs")
ROOT = "/dev0"          # where the "device" filesystem lives inside MicroPython

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_deploy import FakeDevice  # noqa: E402

EXTRA = {   # stale files a previous install could have left
    "/lib/bower/ui.py": b"raise ImportError('the old source must not load')\n",
    "/lib/bower/gone/__init__.mpy": b"M\x06\x00\x1f",
    "/lib/ssd1306.py": b"raise ImportError('shadow')\n",
}

BOOT = r'''
import binascii, json, os, sys
R = %(root)r
FILES = %(files)r

def mkdirs(path):
    cur = ""
    for part in path.split("/")[1:-1]:
        cur += "/" + part
        try:
            os.mkdir(cur)
        except OSError:
            pass

for p in FILES:
    mkdirs(R + p)
    with open(R + p, "wb") as f:
        f.write(binascii.a2b_base64(FILES[p].encode()))

exec(%(scan)r)

for p in %(extra)r:
    os.remove(R + p)          # what deploy would remove; then boot

# Only the deployed files (and the test fakes) can be imported now.
saved_path = list(sys.path)
sys.path[:] = [R + "/lib", "/tests/firmware"]
import fake_machine as fm
fm.install()
import ssd1306
from ssd1306_model import FakeI2C
import euchre, euchre.log, euchre.game
from bower import board, boardcfg, keys, ui, store, link, display, buttons, screens, play, gfx
print("CHECK imported", len([m for m in sys.modules if m.split(".")[0] in ("euchre", "bower", "ssd1306")]))
cfg = boardcfg.load(R + "/board.json")
print("CHECK addr", cfg["display"]["i2c"]["addr"])
# deploy's record of the check (/board.ok) stands for the check at boot.
print("CHECK ok", board._checked(R + "/board.json") == cfg)

bus = FakeI2C()
fm.attach_i2c(bus)
clock = fm.Clock()
clock.at(100, 3, 0)       # DOWN pressed ...
clock.at(180, 3, 1)       # ... and released
out = []
real_run = board.run

def run():
    real_run(R + "/board.json", R + "/", clock, lambda: clock.t >= 500, None, out.append)

board.run = run
with open(R + "/main.py") as f:
    exec(f.read(), {"__name__": "__main__"})

import framebuf
info = {"version": "0.2.0", "device": binascii.hexlify(fm.UID).decode(), "board": cfg}
app = ui.App(store.Store(R + "/ref", device="x"), info)
app.handle(keys.DOWN, 100)
buf = bytearray(1024)
app.render(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
print("CHECK screen", bytes(bus.device.gddram) == bytes(buf), any(buf))
print("CHECK games", "games" in os.listdir(R))
sys.path[:] = saved_path      # the harness needs its own path back
'''


def _node():
    node = shutil.which("node")
    if node is None:
        pytest.fail("`node` is not on PATH: install Node.js 20+ and npm, then `make test`", pytrace=False)
    return node


def test_deployed_files_scan_load_and_boot_on_micropython(tmp_path):
    dev = FakeDevice()
    D.deploy(dev, build=tmp_path / "build", out=lambda s: None)
    for p, data in EXTRA.items():
        dev.put(p, data)
    files = {p: base64.b64encode(data).decode() for p, data in dev.files.items()}
    items = DB.build_items(D.REPO_ROOT, tmp_path / "build2", "armv6m",
                          D.REPO_ROOT / "hardware" / "board.json")
    request = DP.scan_request(items)
    script = tmp_path / "boot_deployed.py"
    script.write_text(BOOT % {"root": ROOT, "files": files, "scan": DP.scan_script(request, ROOT),
                              "extra": sorted(EXTRA)})
    proc = subprocess.run([_node(), RUN_SCRIPT, str(script)], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out

    # The scan, as MicroPython ran it, against the host's view of the same files.
    state = DP.parse_scan(out)
    assert state.version.startswith("1.") and state.mpy & 0xFF == 6, out
    expect = dev.scan(request)
    assert state.files == expect.files
    assert state.dirs == expect.dirs
    for p, data in dev.files.items():
        if p in state.files:
            assert state.files[p] == hashlib.sha256(data).hexdigest()
    plan = DP.make_plan(items, state)
    assert plan.copy == [] and sorted(plan.remove) == sorted(EXTRA)
    assert plan.rmdirs == ["/lib/bower/gone"]

    checks = dict(re.findall(r"^CHECK (\w+) (.*)$", out, re.M))
    assert int(checks["imported"]) >= 20, out
    assert checks["addr"] == "60"
    assert checks["ok"] == "True", out
    assert checks["screen"] == "True True", out
    assert checks["games"] == "False"    # a new device boots without writing
