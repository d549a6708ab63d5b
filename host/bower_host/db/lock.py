"""One writer at a time: the library's writer lock (``<db file>.lock``)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from bower_host.db.errors import LibraryError
from bower_host.db.paths import real_path, side_path


@contextmanager
def writer_lock(path: str | os.PathLike | None, what: str) -> Iterator[Path]:
    """Hold the library's writer lock (``<db file>.lock``, an OS file lock
    that dies with its process) while ``what`` (``"bower sync"``) writes.

    :raises LibraryError: another bower holds it, or the directory cannot
        be written to.
    """
    path = real_path(path or None)
    lock = side_path(path, "lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except (OSError, ValueError) as e:    # ValueError: a NUL in the path
        raise LibraryError(f"cannot write to {lock.parent} ({getattr(e, 'strerror', None) or e}): give --db a "
                           "file in a directory you can write to") from None
    try:
        if not _try_lock(fd):
            try:
                os.lseek(fd, 0, os.SEEK_SET)
                other = os.read(fd, 200).decode("utf-8", "replace").strip() or "another bower"
            except OSError:
                other = "another bower"
            raise LibraryError(f"the game library {path} is in use by {other}: wait for it to finish, "
                               "then try again")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{what} (process {os.getpid()})\n".encode())
        yield lock
    finally:
        os.close(fd)        # releases the lock


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
