"""Rebuilding a damaged library from its own raw archive (``bower library rebuild``)."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path

from bower_host.db.archive import archived_logs
from bower_host.db.errors import LibraryDamaged, LibraryError, check_file_path, write_hint
from bower_host.db.library import Library
from bower_host.db.paths import default_path, real_path, side_path
from bower_host.db.sides import adopt_legacy_side_files, sqlite_file


def rebuild(path: str | os.PathLike | None = None, clock=time.time) -> tuple[Path, Path | None, dict, list]:
    """Make the damaged (or missing) library at ``path`` anew from its own
    raw logs (``<file>.raw/``).

    The new library is built beside the old file, which is then kept as
    ``<name>.damaged-<time>`` (never deleted) and replaced. A sound library
    (``Library.verify``), another program's file, a library of a newer
    bower and a file that is not a library and has no raw logs of its own
    are refused, untouched.

    Every raw log goes through the library's gate again (``Library.add_log``):
    one it refuses is not brought back, and is named in what is returned.

    :returns: ``(path, where the old file was kept or None, {status: count},
        [(raw log, why it was refused)])``.
    :raises LibraryError: refused (why, in one line), no raw logs, or the
        directory cannot be written.
    """
    path = real_path(path or None)
    logs = rebuild_check(path)
    tmp = path.with_name(path.name + ".rebuild")
    counts: dict = {}
    lost: list = []
    try:
        for p in (tmp, tmp.with_name(tmp.name + "-journal")):
            p.unlink(missing_ok=True)
        with Library(tmp, clock=clock, sides=path) as lib:
            # One fsync of the finished file below instead of one per game.
            lib.conn.execute("PRAGMA synchronous = OFF")
            for f in logs:
                r = lib.add_log(f.read_bytes(), f.parent.name, f.name)
                counts[r.status] = counts.get(r.status, 0) + 1
                if r.status == "refused":
                    lost.append((f, r.why))
                if r.damaged and r.status != "duplicate":
                    counts["damaged"] = counts.get("damaged", 0) + 1
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        kept = None
        if path.exists():
            kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S', time.localtime(clock()))}")
            os.replace(path, kept)
            for ext in ("-journal", "-wal", "-shm"):
                side = path.with_name(path.name + ext)
                if side.exists():
                    os.replace(side, kept.with_name(kept.name + ext))
        os.replace(tmp, path)
    except (OSError, sqlite3.Error) as e:
        raise LibraryError(f"cannot rebuild the game library {path}: {e}{write_hint(path, e)}") from None
    return path, kept, counts, lost


def rebuild_check(path: str | os.PathLike | None = None) -> list[Path]:
    """Refuse what ``rebuild`` must not replace (see there), before anything
    is written, even a lock file.

    :returns: the raw logs to rebuild from (``<file>.raw/``).
    :raises LibraryError: why not, in one line.
    """
    shown = Path(path).expanduser() if path else default_path()
    check_file_path(shown)
    path = real_path(shown)
    adopted = adopt_legacy_side_files(path, missing_ok=True)
    if adopted and adopted[0] == "moved":
        print(f"bower: {adopted[1]}", file=sys.stderr)
    if adopted and adopted[0] == "left":
        # Its logs may be there: a library rebuilt without them would lack games.
        raise LibraryError(f"cannot rebuild {path} from its own raw logs alone: {adopted[1]}")
    raw_dir = side_path(path, "raw")
    logs = archived_logs(raw_dir)
    if os.path.lexists(path):
        _refuse_unless_damaged(path, raw_dir, bool(logs))
    if not logs:
        raise LibraryError(f"no raw logs in {raw_dir} to rebuild the game library {path} from")
    return logs


def _refuse_unless_damaged(path: Path, raw_dir: Path, has_logs: bool) -> None:
    # ``rebuild`` replaces only a damaged library: raise LibraryError for
    # anything else, which stays as it is.
    if not path.is_file():
        raise LibraryError(f"{path} is not a file: give --db the game library to rebuild (nothing was changed)")
    if path.stat().st_size == 0 and not has_logs:
        # Opening it would make it an empty library.
        raise LibraryError(f"{path} is an empty file, not a Bower game library, and there are no raw logs in "
                           f"{raw_dir} to rebuild one from: nothing was changed")
    try:
        with Library(path, create=False) as lib:
            lib.verify()
            n = lib.count()
    except LibraryDamaged as e:
        if has_logs:
            return
        if sqlite_file(path):
            raise LibraryError(f"the game library {path} is damaged, and there are no raw logs in {raw_dir} to "
                               "rebuild it from: nothing was changed") from None
        raise LibraryError(f"{path} is not a Bower game library ({e.why}), and "
                           f"there are no raw logs in {raw_dir} to rebuild one from: nothing was changed") from None
    raise LibraryError(f"the game library {path} is sound ({n} game(s); `bower library check` finds nothing "
                       "wrong): rebuild remakes only a damaged library, so nothing was changed")
