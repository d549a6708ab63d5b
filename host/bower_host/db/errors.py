"""The library's errors, and what an SQLite error means for it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bower_host.errors import os_cause, shown_name


class LibraryError(Exception):
    """The library cannot be opened or used (bad path, unknown schema version)."""


class LibraryDamaged(LibraryError):
    """The library file is damaged (bad pages, a missing table or column)."""

    #: What is wrong, in a few words (the message says it too, with the way out).
    why: str = ""


def check_file_path(path: Path, write: bool = False) -> None:
    """Refuse a library path that can never be a file: a directory (``.``,
    ``/tmp``), one under a file (``notes.txt/lib.sqlite3``), a symlink loop,
    a name too long, a NUL. A path that does not exist yet is fine.
    ``write``: refuse too, before anything is written, a library whose file
    or directory (SQLite's journal goes there) is read-only.

    :raises LibraryError: why (and what to do) in one line.
    """
    shown = shown_name(path)
    if path.name in ("", ".", ".."):
        raise LibraryError(f"{shown} is a directory, not a game library: give --db a file")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except ValueError:      # a NUL in the path
        raise LibraryError(f"{shown} cannot be a game library: a file name cannot hold a NUL character") from None
    except OSError as e:
        raise LibraryError(f"{shown} cannot be a game library: {os_cause(e)}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise LibraryError(f"{shown} is a directory, not a game library: give --db a file")
    d = Path(os.path.realpath(path)).parent
    if write and os.path.isdir(d) and (not os.access(d, os.W_OK) or st is not None and not os.access(path, os.W_OK)):
        raise LibraryError(f"cannot write the game library {shown}: {read_only(path)}")


def is_damage(e: Exception) -> bool:
    """Does this SQLite error mean a damaged file (rather than, say, a
    read-only directory or a lock)?"""
    text = str(e).lower()
    return any(w in text for w in ("malformed", "not a database", "no such table", "no such column", "corrupt"))


def read_only(path: Path) -> str:
    """Why SQLite found the library ``path`` read-only: the file, its
    directory (where SQLite keeps a journal while it writes) or their file
    system, with what to do."""
    d = Path(os.path.realpath(path)).parent
    where = path if os.path.exists(path) and not os.access(path, os.W_OK) else d if not os.access(d, os.W_OK) else None
    if where is not None and hasattr(os, "statvfs"):
        try:
            on_ro_fs = bool(os.statvfs(where).f_flag & os.ST_RDONLY)
        except OSError:
            on_ro_fs = False
        if on_ro_fs:
            which = "it is" if where is path else f"its directory {shown_name(d)} is"
            return (f"{which} on a read-only file system: remount it read-write, or copy the library to a writable "
                    "disk and give --db the copy")
    if where is d:
        return (f"its directory {shown_name(d)} is read-only, and SQLite writes a journal there: let this user "
                "write to it, or move the library to a directory you may write to")
    if where is not None:
        return ("the file is read-only: make it writable (chmod u+w; chattr -i if it is immutable), or copy it "
                "somewhere you may write and give --db the copy")
    return f"it was opened read-only: check that this user may write to it and to {shown_name(d)}"


def cannot_write(path: Path, e: Exception) -> str | None:
    """What stopped SQLite writing the library ``path`` (``e``, not a
    damaged file), with what to do; None if ``e`` says nothing of that."""
    text = str(e).lower()
    if "readonly" in text or "read-only" in text:
        return read_only(path)
    if "unable to open" in text:
        if not os.path.isdir(path.parent):
            return f"its directory {shown_name(path.parent)} does not exist"
        d = Path(os.path.realpath(path)).parent
        if not os.access(d, os.W_OK) or os.path.exists(path) and not os.access(path, os.W_OK):
            return read_only(path)
        return f"SQLite cannot open it or its journal: check that this user may write to it and to {shown_name(d)}"
    if "disk is full" in text:
        return "the disk is full: free some space, then try again"
    if "locked" in text or "busy" in text:
        return "another bower is using it: try again when it is done"
    if "disk i/o error" in text:
        return ("a disk input/output error (is the disk failing or gone, or was the file changed by another "
                "program?)")
    return None


def write_hint(path: Path, e: Exception) -> str:
    """`` (what stopped the write to the library path, what to do)`` when
    ``e`` says (a read-only file or directory, a full disk, another bower), or ""."""
    cause = cannot_write(path, e)
    return f" ({cause})" if cause else ""
