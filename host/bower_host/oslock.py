"""An exclusive OS lock held in a file, and the file gone once it is released.

``exclusive(path, what)`` holds ``fcntl.flock`` (``msvcrt.locking`` on
Windows) on ``path`` while the ``with`` block runs; the lock dies with its
process. The file names its holder (``bower sync (process 1234)``), for the
message of whoever finds it taken, and is removed when the lock is released,
so no lock file naming a dead process stays behind.

Removing a lock file is safe only while it is locked, and only by its holder:
a process that opened the file just before it was removed may then lock that
removed file. So after taking the lock, the holder checks that ``path`` still
names the very file it locked (same device and inode), else tries again.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class Held(Exception):
    """The lock is held by another process; ``str()`` names it (from the file)."""


@contextmanager
def exclusive(path: str | os.PathLike, what: str) -> Iterator[Path]:
    """Hold the lock ``path`` (created) while ``what`` (``"bower sync"``) runs.

    :raises Held: another process holds it.
    :raises OSError: the file cannot be made (its directory is missing or
        read-only, ...).
    """
    path = Path(path)
    fd = _locked(path)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{what} (process {os.getpid()})\n".encode())
        yield path
    finally:
        try:
            os.unlink(path)      # still locked: no one else holds this file
        except OSError:
            pass
        os.close(fd)


def _locked(path: Path) -> int:
    # An open, locked descriptor of the file ``path`` names now.
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):
            try:
                other = os.read(fd, 200).decode("utf-8", "replace").strip()
            except OSError:
                other = ""
            os.close(fd)
            raise Held(" ".join("".join(c if c.isprintable() else " " for c in other).split())[:120]
                       or "another process")
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        now = os.fstat(fd)
        if st is not None and (st.st_dev, st.st_ino) == (now.st_dev, now.st_ino):
            return fd
        os.close(fd)         # its holder removed it as we opened it: take the new one


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
