"""Where a library lives: its default file, and its side files beside it.

A library ``club.sqlite3`` keeps, beside its file and named after it:
``club.sqlite3.raw/`` (the raw logs: ``<device>/<id>.log``),
``club.sqlite3.partial/`` (unfinished downloads: ``<device>/<id>.part``)
and ``club.sqlite3.lock`` (the writer lock). Nothing a library does reads
or changes another's, so several libraries can share a directory.

A library is one thing however it is reached: ``real_path`` resolves
symlinks, ``.`` and ``..``, so ``lib.sqlite3``, ``./x/../lib.sqlite3`` and a
symlink to it share one archive and one lock (beside the real file).
``library_files`` and ``is_library_file`` say what belongs to a library, so
that no output of a command can land on it.
"""

from __future__ import annotations

import os
from pathlib import Path

DB_NAME = "bower.sqlite3"
ENV_DB = "BOWER_DB"

#: The side files named ``<file>.<what>`` (``side_path``).
SIDES = ("raw", "partial", "lock")
#: Files SQLite and ``rebuild`` keep beside a library, named ``<file><ending>``.
_ENDINGS = ("-journal", "-wal", "-shm", ".rebuild", ".rebuild-journal")
#: ``<file>.damaged-<time>``: a damaged library that ``rebuild`` replaced, kept.
DAMAGED = ".damaged-"


def default_path() -> Path:
    """``$BOWER_DB``, else ``bower.sqlite3`` in the user's data directory."""
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir
    return Path(user_data_dir("bower")) / DB_NAME


def real_path(path: str | os.PathLike | None) -> Path:
    """The library file ``path`` names (None: ``default_path()``), absolute,
    with symlinks, ``.`` and ``..`` resolved (the file need not exist)."""
    p = Path(path).expanduser() if path is not None else default_path()
    return Path(os.path.realpath(p))


def side_path(path: str | os.PathLike, what: str) -> Path:
    """The library ``path``'s side file ``what`` (``"raw"``, ``"partial"``,
    ``"lock"``): ``<file>.<what>`` beside it."""
    path = Path(path)
    return path.with_name(f"{path.name}.{what}")


def library_files(path: str | os.PathLike | None) -> list[Path]:
    """Every file and directory that is the library ``path`` or one of its
    side files (real paths; those that do not exist yet too)."""
    real = real_path(path)
    return [real] + [real.with_name(real.name + e) for e in _ENDINGS] + [side_path(real, w) for w in SIDES]


def is_library_file(candidate: str | os.PathLike, path: str | os.PathLike | None) -> bool:
    """Is ``candidate`` the library ``path``, one of its side files, a file
    under its ``.raw/`` or ``.partial/``, or a damaged copy ``rebuild`` kept?
    Compared by real path, and by inode where both exist (a hard link)."""
    cand = real_path(candidate)
    real = real_path(path)
    owned = library_files(real)
    if cand in owned or any(d in cand.parents for d in owned if d.name.endswith((".raw", ".partial"))):
        return True
    if cand.parent == real.parent and cand.name.startswith(real.name + DAMAGED):
        return True
    try:
        c = os.stat(cand)
    except OSError:
        return False
    for f in owned:
        try:
            s = os.stat(f)
        except OSError:
            continue
        if (s.st_dev, s.st_ino) == (c.st_dev, c.st_ino):
            return True
    return False
