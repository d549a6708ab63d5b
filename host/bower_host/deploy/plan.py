"""``bower deploy``, steps 3 and 4: scan the device and plan the copy.

:data:`SCAN_SCRIPT` runs on the Pico and lists what is there
(:func:`parse_scan` reads its output into a :class:`DeviceState`);
:func:`make_plan` compares that with the built items.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bower_host.deploy.build import DeployError, Item, MICROPYTHON, mpy_header


#: Device directories that belong to Bower entirely (stale files are removed).
OWNED_DIRS = ("/lib/euchre", "/lib/bower")
_IN_OWNED = tuple(d + "/" for d in OWNED_DIRS)   # (not /lib/bowerpak.mpy, /lib/bower.pak)

#: Marker of the scan script's output lines.
SCAN_TAG = "BOWER-SCAN"

# Runs on the Pico (MicroPython). Prints, one per line:
#   BOWER-SCAN I <mpy> <platform> <version>
#   BOWER-SCAN D <dir>                 (a directory that exists)
#   BOWER-SCAN F <sha256 hex or -> <path>
#   BOWER-SCAN E                       (end: the output is complete)
# Paths are device paths; ROOT (empty on a Pico) prefixes them on the
# filesystem so tests can scan a subdirectory of a MicroPython filesystem.
SCAN_SCRIPT = """\
import os, sys
try:
    import hashlib
except ImportError:
    hashlib = None
from binascii import hexlify
R = %(root)r
T = %(tag)r
def h(p):
    if hashlib is None or not hasattr(hashlib, "sha256"):
        return "-"
    d = hashlib.sha256()
    b = bytearray(512)
    m = memoryview(b)
    with open(R + p, "rb") as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            d.update(m[:n])
    return hexlify(d.digest()).decode()
def isdir(p):
    try:
        return os.stat(R + p)[0] & 0x4000 != 0
    except OSError:
        return False
def walk(d):
    if not isdir(d):
        return
    print(T, "D", d)
    for e in sorted(os.ilistdir(R + d)):
        p = d + "/" + e[0]
        if e[1] & 0x4000:
            walk(p)
        else:
            print(T, "F", h(p), p)
v = sys.implementation.version
print(T, "I", getattr(sys.implementation, "_mpy", 0), sys.platform, "%%d.%%d.%%d" %% v[:3])
for d in %(dirs)r:
    if isdir(d):
        print(T, "D", d)
for d in %(walk)r:
    walk(d)
for p in %(files)r:
    try:
        if os.stat(R + p)[0] & 0x4000 == 0:
            print(T, "F", h(p), p)
    except OSError:
        pass
print(T, "E")
"""


@dataclass
class DeviceState:
    """What the scan found on the device."""

    files: dict[str, str | None] = field(default_factory=dict)  # path -> sha256 hex (None: no hashlib)
    dirs: set[str] = field(default_factory=set)
    mpy: int = 0          # sys.implementation._mpy
    platform: str = ""
    version: str = ""


@dataclass
class Plan:
    copy: list[Item]
    same: list[Item]
    mkdirs: list[str]
    remove: list[str]      # files
    rmdirs: list[str]      # directories, deepest first

    @property
    def empty(self) -> bool:
        return not (self.copy or self.mkdirs or self.remove or self.rmdirs)


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


def scan_request(items: list[Item]) -> dict:
    """What the scan script must look at for these items."""
    dirs = {"/lib"}
    for it in items:
        d = _parent(it.remote)
        while d != "/":
            dirs.add(d)
            d = _parent(d)
    files = sorted({it.remote for it in items if not it.remote.startswith(_IN_OWNED)}
                   | {shadow for shadow, _ in _shadows(items)})
    return {"dirs": sorted(dirs), "walk": list(OWNED_DIRS), "files": files}


def _shadows(items: list[Item]) -> list[tuple[str, str]]:
    """(x.py, x.mpy) pairs outside the owned dirs: x.py would shadow x.mpy."""
    return [(it.remote[:-4] + ".py", it.remote) for it in items
            if it.remote.endswith(".mpy") and not it.remote.startswith(_IN_OWNED)]


def scan_script(request: dict, root: str = "") -> str:
    return SCAN_SCRIPT % {"root": root, "tag": SCAN_TAG, **request}


def parse_scan(output: str) -> DeviceState:
    """Read the scan script's output (other lines, e.g. a banner, are skipped)."""
    state = DeviceState()
    done = False
    for raw in output.splitlines():
        line = raw.strip()
        if not line.startswith(SCAN_TAG + " "):
            continue
        parts = line.split(" ", 3)
        kind = parts[1] if len(parts) > 1 else ""
        if kind == "I" and len(parts) == 4:
            mpy, rest = parts[2], parts[3].split(" ")
            state.mpy = int(mpy) if mpy.isdigit() else 0
            state.platform = rest[0]
            state.version = rest[1] if len(rest) > 1 else ""
        elif kind == "D" and len(parts) >= 3:
            state.dirs.add(line.split(" ", 2)[2])
        elif kind == "F" and len(parts) == 4:
            state.files[parts[3]] = None if parts[2] == "-" else parts[2]
        elif kind == "E":
            done = True
    if not done:
        tail = "\n".join(output.strip().splitlines()[-6:])
        raise DeployError("the scan of the device did not complete; its output ended with:\n" + tail)
    return state


def check_compatible(state: DeviceState, items: list[Item]) -> None:
    """Refuse a device whose MicroPython cannot load the compiled files."""
    want = next(mpy_header(it.local.read_bytes())[0] for it in items if it.remote.endswith(".mpy"))
    have = state.mpy & 0xFF
    if have != want:
        raise DeployError(
            f"the device runs MicroPython {state.version or '?'} ({state.platform or '?'}), which loads "
            f".mpy version {have or 'none'}, but these files are version {want}: flash MicroPython "
            f"{MICROPYTHON} (hardware/README.md, 'Flash MicroPython')")


def make_plan(items: list[Item], state: DeviceState | None) -> Plan:
    """Compare what should be on the device with what the scan found.

    ``state`` None (no device): everything is copied.
    """
    if state is None:
        state = DeviceState()
    copy = [it for it in items if state.files.get(it.remote, "") != it.sha256]
    same = [it for it in items if it not in copy]
    wanted_dirs = set()
    for it in items:
        d = _parent(it.remote)
        while d != "/":
            wanted_dirs.add(d)
            d = _parent(d)
    mkdirs = sorted(d for d in wanted_dirs if d not in state.dirs)
    wanted = {it.remote for it in items}
    remove = sorted(p for p in state.files if p.startswith(tuple(d + "/" for d in OWNED_DIRS))
                    and p not in wanted)
    remove += [py for py, _ in _shadows(items) if py in state.files]
    rmdirs = sorted((d for d in state.dirs if d.startswith(tuple(o + "/" for o in OWNED_DIRS))
                     and d not in wanted_dirs), key=lambda d: (-d.count("/"), d))
    # main.py goes last: a half-finished deploy never boots new code on old modules.
    copy.sort(key=lambda it: it.remote == "/main.py")
    return Plan(copy, same, mkdirs, remove, rmdirs)
