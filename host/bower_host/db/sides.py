"""Each library's side files, and an older bower's shared ones.

A library keeps its side files beside its file, named after it
(``paths.side_path``). Bowers before this kept ``raw/`` and ``partial/`` in
the library's directory, shared by every library there:
``adopt_legacy_side_files`` gives them to the library they belong to when
that is certain. What is a Bower library at all is told here too: another
program's SQLite file (``foreign_tables``) or a file that is not a whole
database (``header_problem``) is never opened as one.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from contextlib import suppress
from pathlib import Path

from bower_host.db.archive import safe_name, write_atomic
from bower_host.db.paths import real_path, side_path
from bower_host.db.schema import BOWER_TABLES

#: The side files an older bower kept in the library's directory, shared.
LEGACY_SIDES = ("raw", "partial")
#: What those directories hold: ``<device>/<file>`` with these endings only.
_LEGACY_FILES = {"raw": (".log", ".log.tmp"), "partial": (".part",)}
_SQLITE_MAGIC = b"SQLite format 3\x00"


def foreign_tables(conn: sqlite3.Connection) -> list[str]:
    """The tables of another program's database: it has tables, and none of
    Bower's (a library with every table dropped has none at all)."""
    have = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(r[0]).startswith("sqlite_")]
    return [] if not have or BOWER_TABLES & set(have) else sorted(have)


def header_problem(path: Path) -> str | None:
    """Why the existing file ``path`` is not a whole SQLite database, or None
    (an empty or missing file is None too: SQLite makes a new one there)."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return None             # missing, or a directory: SQLite says why
    if not head:
        return None
    if head[:16] != _SQLITE_MAGIC:
        return "not an SQLite database"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if len(head) < 100 or page < 512 or page & (page - 1) or size < page:
        return f"cut short: {size} bytes, less than a whole page"
    return None


def sqlite_file(path: Path) -> bool:
    """Does ``path`` begin as an SQLite database does? Read only."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == _SQLITE_MAGIC
    except OSError:
        return False


def _library_file(path: Path) -> bool:
    """Is ``path`` (maybe) a Bower library: an SQLite file with one of
    Bower's tables, or one too damaged to tell. Read only."""
    if not path.is_file() or not sqlite_file(path):
        return False
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (sqlite3.Error, ValueError, OSError):
        return True
    try:
        return not foreign_tables(conn) and bool(
            conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'").fetchone())
    except sqlite3.Error:
        return True
    finally:
        conn.close()


def _legacy_files(kind: str, d: Path) -> list[Path] | None:
    """The files of an older bower's ``raw/`` or ``partial/`` directory
    ``d``, or None when it holds anything else (then it is not bower's)."""
    out = []
    try:
        for sub in d.iterdir():
            if sub.is_symlink() or not sub.is_dir():
                return None
            for f in sub.iterdir():
                if f.is_symlink() or not f.is_file() or not f.name.endswith(_LEGACY_FILES[kind]):
                    return None
                out.append(f)
    except OSError:
        return None
    return out


def _raw_paths(path: Path) -> dict[str, str] | None:
    # ``{archive path: SHA-256}`` of the library's games, or None if it
    # cannot be read. Only paths bower writes (``<device>/<file>.log``).
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (sqlite3.Error, ValueError, OSError):
        return None
    try:
        rows = conn.execute("SELECT raw_path, raw_sha256 FROM games WHERE raw_path IS NOT NULL").fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    out = {}
    for rel, sha in rows:
        parts = Path(str(rel)).parts
        if len(parts) == 2 and all(x == safe_name(x) for x in parts) and parts[1].endswith(".log"):
            out[str(rel)] = str(sha)
    return out


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def adopt_legacy_side_files(path: Path, missing_ok: bool = False) -> tuple[str, str] | None:
    """Give the library ``path`` what is its own of an older bower's shared
    ``raw/`` and ``partial/`` in its directory (host/EXPORTS.md, "The
    library's files"). Only a Bower library takes them (an SQLite file with
    Bower's tables, or one too damaged to tell; a missing file only for
    ``rebuild``: ``missing_ok``), and only directories that hold nothing but
    what bower writes there (``<device>/<id>.log``, ``<device>/<id>.part``).

    * The only library in the directory, without side files of its own:
      ``raw/`` and ``partial/`` are renamed to ``<file>.raw/`` and
      ``<file>.partial/`` (when it can be read, ``raw/`` must hold a log of
      one of its games).
    * Otherwise (another library there: another SQLite file with Bower's
      tables or too damaged to tell, the library's own ``.damaged-`` copies
      aside; or it has its own already): the logs its games name are
      copied into ``<file>.raw/``, each only if its SHA-256 is the one the
      game was stored with, so another library's log of the same device
      and id is never taken. ``raw/`` and ``partial/`` stay for the others.
      A library that cannot be read cannot say which logs are its own:
      nothing is taken, and the line says so (unless it has its own
      ``<file>.raw/``: it was opened before, and its logs copied then).

    :returns: ``("moved", line)`` when something was renamed or copied,
        ``("left", line)`` when this library's logs may be in ``raw/`` but
        were left there (why, and what to do), or None: nothing to do.
    """
    d = path.parent
    found = {k: d / k for k in LEGACY_SIDES
             if (d / k).is_dir() and not (d / k).is_symlink() and _legacy_files(k, d / k)}
    if not found:
        return None
    exists = os.path.lexists(path)
    if exists and not _library_file(path) or not exists and not missing_ok:
        return None             # a new file, an empty one or another program's: never
    refs = _raw_paths(path) if exists else None
    own = side_path(path, "raw")
    others = sorted(f.name for f in _dir_files(d) if f != path
                    and not f.name.startswith((path.name + ".", path.name + "-")) and _library_file(f))
    todo = [k for k in found if not os.path.lexists(side_path(path, k))]
    if not others and todo == list(found):
        if "raw" in found and refs is not None and not any((found["raw"] / r).is_file() for r in refs):
            return None         # none of its games' logs: an older bower's archive of another library
        moved = []
        for k, src in found.items():
            try:
                os.rename(src, side_path(path, k))
            except OSError as e:
                return "left", (f"cannot move {src}/ to {side_path(path, k).name}/ "
                                f"({getattr(e, 'strerror', None) or e}): left as it is")
            moved.append(f"{src.name}/ to {side_path(path, k).name}/")
        return "moved", (f"moved an older bower's {' and '.join(moved)} in {d}: each library now keeps its own "
                         "side files, named after it")
    if "raw" not in found:
        return None             # unfinished downloads only: fetched again from the start if need be
    shared = f"{found['raw']}/, an older bower's archive shared by " + (
        f"the libraries in {d} ({path.name}, {', '.join(others[:3])}{', ...' if len(others) > 3 else ''})"
        if others else f"the libraries that were in {d}")
    if refs is None:
        if own.is_dir():
            return None         # opened before, readable: its logs were copied then (below)
        return "left", (f"{shared}, may hold this library's raw logs, but it cannot be read to tell which: "
                        f"they were left there; move them into {own.name}/ by hand (host/EXPORTS.md, "
                        "\"The library's files\")")
    copied = 0
    for rel, sha in sorted(refs.items()):
        src, dst = found["raw"] / rel, own / rel
        if os.path.lexists(dst) or not src.is_file() or _sha256(src) != sha:
            continue
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(dst, src.read_bytes())
        except OSError as e:
            return "left", (f"cannot copy {path.name}'s raw logs to {own.name}/ "
                            f"({getattr(e, 'strerror', None) or e}) from {shared}: left there")
        copied += 1
    if not copied:
        return None
    return "moved", (f"copied {copied} raw log(s) of {path.name}'s games to {own.name}/ (each checked by its "
                     f"SHA-256) from {shared}; the rest stays there")


def _dir_files(d: Path) -> list[Path]:
    try:
        return [f for f in d.iterdir() if f.is_file()]
    except OSError:
        return []


def run_or_leave_nothing(path: str | os.PathLike | None, run) -> int:
    """``run()`` (a command's body, returning its status) for the library
    ``path``; when the library did not exist before and the command failed
    (an exception, or a status other than 0) and stored nothing in it (no
    game, no club night, no file in its side folders), the library's file,
    lock and empty side folders are removed again: a refused ``sync``,
    ``import`` or ``club result`` leaves nothing behind."""
    real = real_path(path or None)
    made = not os.path.lexists(real)
    ok = False
    try:
        status = run()
        ok = status == 0
        return status
    finally:
        if made and not ok:
            with suppress(OSError):     # (a name the system refuses: nothing was made)
                if not _holds_anything(real):
                    _forget(real)


def _holds_anything(path: Path) -> bool:
    if any(f.is_file() for what in LEGACY_SIDES for f in side_path(path, what).rglob("*")):
        return True
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    except (sqlite3.Error, ValueError, OSError):
        return os.path.lexists(path)
    try:
        return any(conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() for t in ("games", "club_nights"))
    except sqlite3.Error:
        return os.path.lexists(path) and os.path.getsize(path) > 0
    finally:
        conn.close()


def _forget(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-journal"), side_path(path, "lock")):
        with suppress(OSError):
            p.unlink()
    for what in LEGACY_SIDES:
        d = side_path(path, what)
        for sub in sorted(d.rglob("*"), reverse=True):
            with suppress(OSError):
                sub.rmdir()
        with suppress(OSError):
            d.rmdir()
