"""The one way a command writes a file the user names (``-o FILE``, ``--screenshot PNG``).

::

    target = check_output(args.output, library=args.db)   # before any work
    ...
    write_output(args.output, data, library=args.db)       # checked again, then written

``check_output`` refuses, in one line (:class:`CommandError`), an empty
name; the game library and its side files (``db.paths.is_library_file``:
by real path and by inode, so a symlink, a hard link or ``sub/../lib``
are the library too); any input of the same command; anything inside a
directory the command must not write in (a simulator's flash); an
existing SQLite database (no bower output is one, and it may be another
library); and an existing target that is not a regular file (a directory,
a FIFO, a device, a socket), judged with ``os.stat`` so that nothing is
opened (opening a FIFO to write blocks). A symlink is followed: its
target is judged, and written.

``write_output`` writes to a temporary file in the target's directory,
fsyncs it and renames it onto the target: the target is either as it was
or whole, an existing target keeps its permission bits, and a failure
removes the temporary file and says the cause (the disk is full,
permission denied, a read-only file system, no such directory, ...).

``check_output_dir`` and ``make_output_dir`` do the same for a directory
a command writes its files in (``club simulate -o DIR``).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from bower_host.db.paths import is_library_file, real_path, side_path
from bower_host.errors import CommandError, os_cause

#: The name that means standard output, where a command offers it.
STDOUT = "-"

SQLITE_MAGIC = b"SQLite format 3\x00"

Paths = Iterable[str | os.PathLike]

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def kind(mode: int) -> str | None:
    """What a file of ``st_mode`` ``mode`` is when it is not a regular file
    ("a directory", "a FIFO (a named pipe)", "a device", "a socket"), else None."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def cause(e: OSError, shown: str | os.PathLike) -> str:
    """What an OSError met writing ``shown`` means, in words (no Python
    text): ``errors.os_cause``, the one list of causes, for the target."""
    return os_cause(OSError(e.errno, e.strerror, os.fspath(shown)))


def _target(path, library, option: str, give: str) -> tuple[str, Path, os.stat_result | None]:
    # (as shown, real path, its stat or None) of a target that is not empty
    # and not the library.
    if path is None or str(path) == "":
        raise CommandError(f"{option} is empty: give {give}")
    shown = str(path)
    real = real_path(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _refuse(shown, cause(e, shown)) from None
    _not_the_library(real, st, library, shown)
    return shown, real, st


def _refuse(shown, why: str) -> CommandError:
    return CommandError(f"cannot write {shown}: {why}")


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _inside(real: Path, st: os.stat_result | None, folder: str | os.PathLike) -> bool:
    """Is ``real`` (stat ``st`` if it exists) ``folder`` or in it (a hard link to a file of it too)?"""
    top = real_path(folder)
    if real == top or top in real.parents:
        return True
    if st is None or st.st_nlink < 2 or not os.path.isdir(top):
        return False
    for base, _, names in os.walk(top):
        for name in names:
            with suppress(OSError):
                if _same(os.stat(os.path.join(base, name)), st):
                    return True
    return False


def check_output(path: str | os.PathLike | None, *, library: str | os.PathLike | None, inputs: Paths = (),
                 protect: Paths = (), stdout: bool = False, option: str = "-o") -> Path:
    """Refuse ``path`` as an output unless writing it can hurt nothing.

    :param library: the command's ``--db`` (None or empty: the default library).
    :param inputs: the files the command reads.
    :param protect: directories the command must write nothing in.
    :param stdout: the command takes ``-`` for standard output (said in a refusal).
    :param option: the option that named ``path``, for an empty one.
    :returns: the real path to write (symlinks resolved).
    :raises CommandError: one line saying why not.
    """
    shown, real, st = _target(path, library, option, "a file name")
    for given in inputs:
        with suppress(OSError):
            if real == real_path(given) or (st is not None and _same(st, os.stat(given))):
                raise _refuse(shown, f"it is {given}, which this command reads")
    for folder in protect:
        if _inside(real, st, folder):
            raise _refuse(shown, f"it is in {folder}, which this command must not write in")
    if st is None:
        _check_parent(real, shown)
        return real
    what = kind(st.st_mode)
    if what:
        dash = f" ({STDOUT} writes to standard output)" if stdout else ""
        raise _refuse(shown, f"it is {what}: give the name of a file{dash}")
    if _is_sqlite(real):
        raise _refuse(shown, "it is an SQLite database (perhaps a game library), and no output of bower is "
                             "one: give another file name")
    return real


def _not_the_library(real: Path, st: os.stat_result | None, library, shown: str) -> None:
    lib = real_path(library or None)
    # (is_library_file knows a hard link to the library or a side file; one to a raw log is found here)
    if not is_library_file(real, lib) and not any(_inside(real, st, side_path(lib, d)) for d in ("raw", "partial")):
        return
    with suppress(OSError):
        if real == lib or (st is not None and _same(st, os.stat(lib))):
            raise _refuse(shown, f"it is the game library {lib}")
    raise _refuse(shown, f"it belongs to the game library {lib} (its raw logs, lock or journal)")


def _check_parent(real: Path, shown: str) -> None:
    # A new file: its directory must be there (and be one).
    try:
        st = os.stat(real.parent)
    except OSError as e:
        raise _refuse(shown, cause(e, shown)) from None
    if not stat.S_ISDIR(st.st_mode):
        raise _refuse(shown, cause(OSError(errno.ENOTDIR, ""), shown))


def _is_sqlite(real: Path) -> bool:
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return False        # unreadable: the write says why, if it fails
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def write_output(path: str | os.PathLike, data: bytes | str, *, library: str | os.PathLike | None,
                 inputs: Paths = (), protect: Paths = (), stdout: bool = False, option: str = "-o") -> Path:
    """Check ``path`` (``check_output``, the same arguments) and write ``data``
    (text as UTF-8) to it through a temporary file renamed onto it.

    :returns: the real path written.
    :raises CommandError: refused, or the write failed (the cause; the target untouched).
    """
    real = check_output(path, library=library, inputs=inputs, protect=protect, stdout=stdout, option=option)
    replace(real, data.encode("utf-8") if isinstance(data, str) else data, str(path))
    return real


def replace(real: Path, data: bytes, shown: str) -> None:
    """Write ``data`` to a temporary file beside ``real``, fsync it and rename
    it onto ``real``; on failure remove it and raise CommandError (the cause)."""
    try:
        mode = os.stat(real).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name[:100]}.", suffix=".tmp")
    except OSError as e:
        raise _refuse(shown, cause(e, shown)) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, real)
    except BaseException as e:
        with suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise _refuse(shown, cause(e, shown)) from None
        raise
    _sync_dir(real.parent)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_dir(folder: Path) -> None:
    # The rename made durable (where the file system lets a directory be fsynced).
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def check_output_dir(path: str | os.PathLike | None, *, library: str | os.PathLike | None,
                     protect: Paths = (), option: str = "-o") -> Path:
    """Refuse ``path`` as a directory to write files in: empty; the library,
    its side directories or anything in them; in ``protect``; an existing
    thing that is not a directory; under a file. (It need not exist yet.)

    :returns: its real path.
    """
    shown, real, st = _target(path, library, option, "a directory")
    for folder in protect:
        if _inside(real, None, folder):
            raise _refuse(shown, f"it is in {folder}, which this command must not write in")
    if st is None:
        above = next(p for p in real.parents if os.path.lexists(p))
        if not os.path.isdir(above):
            raise _refuse(shown, cause(OSError(errno.ENOTDIR, ""), shown))
    elif not stat.S_ISDIR(st.st_mode):
        raise _refuse(shown, f"it is {kind(st.st_mode) or 'a file'}, not a directory")
    return real


def make_output_dir(path: str | os.PathLike, *, library: str | os.PathLike | None, protect: Paths = (),
                    option: str = "-o") -> Path:
    """``check_output_dir``, then make the directory (and those above it) if need be."""
    real = check_output_dir(path, library=library, protect=protect, option=option)
    try:
        real.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _refuse(str(path), cause(e, str(path))) from None
    return real
