"""``bower import`` of a phone's export: a zip of its game logs.

The web build's "Export logs" (``bower web``) hands over one zip holding
every game's log as a sync would have read it, ``DEVICE/GAME.log`` each
(``5131a7e0b0e5f00d/g0001.log``). Each is stored as ``bower sync`` stores a
Pico's: the device and game ids from the member's name, held by the gate
against the log's header, a corrupt line salvaged as sync salvages it.

The archive is hostile input, read without trusting it: its size is
bounded before it is read (``inputs.read_input``), its members counted
before they are parsed, each member's and the archive's uncompressed bytes
bounded as they are inflated (a zip bomb stops at the bound), only stored
or deflated members, no encrypted ones; a member's name is never a path,
only two ids, each by the gate's id rule.

::

    items = from_archive(data)        # [Item], or ImportProblem
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

from bower_host.db import MAX_LOG_BYTES
from bower_host.importer.common import ImportProblem, Item, show
from bower_host.inputs import IMPORT_LIMIT
from bower_host.names import ID_RULE, id_problem

#: The first bytes of a zip archive (a local file header; an empty archive's end record).
MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: Most game logs in one archive: a game a day for fifty years.
MAX_MEMBERS = 20_000
#: Most bytes all its logs may come to, inflated: what bower reads of any file.
MAX_TOTAL = IMPORT_LIMIT
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_FAILURES = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
             ValueError, OSError, struct.error, KeyError, IndexError, OverflowError)


def is_archive(data: bytes) -> bool:
    return data[:4] in MAGIC


def from_archive(data: bytes, device: str | None = None) -> list[Item]:
    """The game logs of a phone's export, each as its own device's log
    (``device``: refuse another's).

    :raises ImportProblem: the archive, or a member, is not what an export holds.
    """
    # Every central directory entry begins with this signature, so there
    # are no more entries than it occurs: counted before zipfile parses one.
    if data.count(b"PK\x01\x02") > MAX_MEMBERS:
        raise ImportProblem(f"a zip archive of more than {MAX_MEMBERS:,} members, more than an export holds")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except _FAILURES:
        raise ImportProblem("a zip archive bower cannot read (damaged or cut short)") from None
    out: list[Item] = []
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename
        if name in seen:
            raise ImportProblem(f"the archive holds {show(name)} twice")
        seen.add(name)
        dev, key = _ids(name)
        if device and dev != device:
            raise ImportProblem(f"member {show(name)} is a log of device {dev}, not {device}")
        if key is None:
            continue        # (a directory entry: DEVICE/)
        raw = _member(zf, info, MAX_TOTAL - total)
        total += len(raw)
        out.append(Item(raw, dev, key, f"{key}.log", salvage=True))
    if not out:
        raise ImportProblem("the zip archive holds no game logs (DEVICE/GAME.log), as a phone's export does")
    return out


def _ids(name: str) -> tuple[str, str | None]:
    # (device, game id) a member's name gives: DEVICE/GAME.log, or DEVICE/
    # for a directory (game id None); anything else is refused.
    parts = name.split("/")
    if len(parts) == 2 and parts[1] == "":
        parts = [parts[0]]
    elif len(parts) == 2 and parts[1].endswith(".log"):
        parts[1] = parts[1][:-4]
    else:
        raise ImportProblem(f"member {show(name)} is not DEVICE/GAME.log, as a phone's export names its logs")
    for p in parts:
        if id_problem(p):
            raise ImportProblem(f"member {show(name)}: {show(p)} is not an id ({ID_RULE})")
    return parts[0], parts[1] if len(parts) == 2 else None


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, room: int) -> bytes:
    # The member's bytes, inflated no further than a log or the archive's
    # room allows, whatever its header claims.
    name = show(info.filename)
    if info.flag_bits & 1:
        raise ImportProblem(f"member {name} is encrypted")
    if info.compress_type not in _METHODS:
        raise ImportProblem(f"member {name} is compressed by method {info.compress_type} (an export's are "
                            "stored or deflated)")
    limit = min(MAX_LOG_BYTES, room)
    try:
        with zf.open(info) as f:
            raw = f.read(limit + 1)
    except zipfile.BadZipFile as e:
        what = "its data does not match its CRC" if "CRC" in str(e) else "it is damaged or cut short"
        raise ImportProblem(f"member {name}: {what}") from None
    except _FAILURES:
        raise ImportProblem(f"member {name} is damaged or cut short") from None
    if len(raw) > limit:
        if limit < MAX_LOG_BYTES:
            raise ImportProblem(f"the archive's logs come to more than {MAX_TOTAL >> 20} MB, more than bower reads")
        raise ImportProblem(f"member {name} is more than the {MAX_LOG_BYTES >> 20} MB a game log can be")
    return raw
