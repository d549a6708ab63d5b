"""The raw log archive: ``<library>.raw/<device>/<id>.log``, written
atomically, a good log only ever replaced by a longer version of itself; another
version of a stored game goes under a name
that never replaces anything (``<id>.<sha>.log``). A refused log is not
archived (``db.gate``); older bowers archived them as
``<id>.mismatch-<sha>.log``, which are never read as stored logs."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path

from euchre import log as elog

from bower_host.db.errors import LibraryError
from bower_host.db.logs import decode

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_name(text: str) -> str:
    """``text`` as a single safe file name component (no separators, no dots first)."""
    s = _SAFE.sub("_", str(text)).lstrip(".")
    return s[:80] or "_"


def _dir(raw_dir: Path, device: str) -> Path:
    d = raw_dir / safe_name(device)
    d.mkdir(parents=True, exist_ok=True)
    return d


def archive_log(raw_dir: Path, device: str, key: str, raw: bytes) -> tuple[Path, Callable[[], None] | None]:
    """Write ``raw`` as ``<device>/<key>.log`` under ``raw_dir``: an existing
    different file is only replaced when it is an earlier version of this
    log (its lines are a prefix of ours); otherwise ours goes under a new
    name (``archive_new``).

    :returns: where it is, and what undoes the write (None: nothing was
        written), for a library whose commit then fails.
    """
    path = _dir(raw_dir, device) / f"{safe_name(key)}.log"
    before = None
    if path.exists():
        before = path.read_bytes()
        if before == raw:
            return path, None
        if not is_earlier(before, raw):
            return archive_new(raw_dir, device, f"{safe_name(key)}.{hashlib.sha256(raw).hexdigest()[:12]}", raw)
    write_atomic(path, raw)
    return path, _undo(path, before)


def archived_other(raw_dir: Path, device: str, key: str, raw: bytes) -> Path | None:
    """The archived ``<device>/<key>.log`` when it holds another log than
    ``raw`` that is not an earlier version of it, else None (read only)."""
    path = raw_dir / safe_name(device) / f"{safe_name(key)}.log"
    try:
        have = path.read_bytes()
    except OSError:
        return None
    return None if have == raw or is_earlier(have, raw) else path


def _undo(path: Path, before: bytes | None) -> Callable[[], None]:
    def undo() -> None:
        try:
            if before is None:
                path.unlink(missing_ok=True)
            else:
                write_atomic(path, before)
        except OSError:
            pass        # (the commit failed too: the caller reports that)
    return undo


def archive_new(raw_dir: Path, device: str, stem: str, raw: bytes) -> tuple[Path, Callable[[], None] | None]:
    """Write ``raw`` under ``raw_dir/<device>/`` as ``<stem>.log`` or a name
    that never replaces a different file (``<stem>-1.log``, ...).

    :raises LibraryError: a thousand different copies already.
    """
    d = _dir(raw_dir, device)
    stem = safe_name(stem)
    for i in range(1000):
        path = d / (f"{stem}.log" if i == 0 else f"{stem}-{i}.log")
        if not path.exists():
            write_atomic(path, raw)
            return path, _undo(path, None)
        if path.read_bytes() == raw:
            return path, None
    raise LibraryError(f"too many archived copies of {stem} in {d}")


def is_earlier(have: bytes, new: bytes) -> bool:
    """Is the archived log ``have`` an earlier version of ``new``: its bytes,
    or its good lines, a prefix of new's?"""
    if new.startswith(have):
        return True
    try:
        h = decode(have.decode("utf-8"))
        n = decode(new.decode("utf-8"))
    except (UnicodeDecodeError, elog.LogError):
        return False
    return h.header == n.header and n.records[:len(h.records)] == h.records


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a temporary file, fsync, rename)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def archived_logs(raw_dir: Path) -> list[Path]:
    """The archive's logs that were stored (``<id>.log``, then other
    versions ``<id>.<sha>.log``), not the refused ``.mismatch-`` ones."""
    try:
        if not raw_dir.is_dir():
            return []
        logs = [p for p in raw_dir.glob("*/*.log") if ".mismatch-" not in p.name and p.is_file()]
    except OSError:
        return []
    return sorted(logs, key=lambda p: (p.parent.name, p.name.count("."), p.name))
