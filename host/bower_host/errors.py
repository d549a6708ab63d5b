"""The errors every ``bower`` command shares, and the words for a file
error (a leaf: it imports nothing of bower).

``bower_host.cli`` prints a :class:`CommandError` as ``bower: <message>``
with status 1; command modules raise it and import it from here, never from
the cli that loads them. :func:`os_error` says what an ``OSError`` means, by
its errno, in one line naming the file; :func:`printable` makes any text
safe to echo on a terminal.
"""

from __future__ import annotations

import errno
import os


class CommandError(Exception):
    """An expected failure, printed as ``bower: <message>`` with status 1."""


#: The longest file name shown whole in a message (a longer one is cut in the middle).
_SHOWN_NAME = 120

_CAUSES = {
    errno.ENOSPC: "the disk is full: free some space, or write somewhere else",
    errno.EACCES: "permission denied: check that this user may read and write there",
    errno.EPERM: "the operation is not permitted (permissions, or an immutable file): check that this user "
                 "may write there",
    errno.EROFS: "it is on a read-only file system: write somewhere else, or remount it read-write",
    errno.EISDIR: "it is a directory, not a file: give a file's name",
    errno.ENAMETOOLONG: "the name is too long for the file system: give a shorter one",
    errno.ELOOP: "too many symbolic links (a link that leads back to itself?)",
    errno.EMFILE: "too many files are open: close some programs and try again",
    errno.ENFILE: "too many files are open: close some programs and try again",
    errno.EIO: "an input/output error (is the disk failing, or was it removed?)",
}
if hasattr(errno, "EDQUOT"):
    _CAUSES[errno.EDQUOT] = "your disk quota is used up: free some space, or write somewhere else"


def shown_name(name: object) -> str:
    """A file name as a message shows it: on one line (control characters
    escaped), a very long one cut in the middle."""
    text = printable(os.fsdecode(name) if isinstance(name, (str, bytes, os.PathLike)) else str(name))
    if len(text) > _SHOWN_NAME:
        half = _SHOWN_NAME // 2
        text = f"{text[:half]}...{text[-half:]} ({len(text):,} characters)"
    return text


def _not_a_directory(name: str) -> str:
    # Which part of ``name`` is a file where a directory should be.
    parts = os.path.normpath(name).split(os.sep)
    for i in range(1, len(parts)):
        part = os.sep.join(parts[:i]) or os.sep
        if os.path.lexists(part) and not os.path.isdir(part):
            return f"{shown_name(part)} is a file, not a directory"
    return "a part of the path is not a directory"


def _missing(name: str) -> str:
    parent = os.path.dirname(os.path.normpath(name))
    if parent and not os.path.isdir(parent):
        return f"its directory {shown_name(parent)} does not exist"
    return "no such file or directory"


def os_cause(e: OSError) -> str:
    """What ``e`` means, in words, with what to do (without the file's name)."""
    name = e.filename if isinstance(e.filename, (str, bytes, os.PathLike)) else None
    if e.errno == errno.ENOTDIR:
        return _not_a_directory(os.fsdecode(name)) if name is not None else "a part of the path is not a directory"
    if e.errno == errno.ENOENT:
        return _missing(os.fsdecode(name)) if name is not None else "no such file or directory"
    if e.errno in _CAUSES:
        return _CAUSES[e.errno]
    if e.strerror or e.errno is not None:
        return " ".join(str(e.strerror or f"error {e.errno} of the operating system").split())[:200].lower()
    return " ".join(" ".join(map(str, e.args)).split())[:200] or "a file could not be used"


def os_error(e: OSError) -> str:
    """One line for ``e``: the file (and the second file of a rename), and
    what went wrong by its errno: ``/tmp/x.csv: the disk is full: ...``."""
    cause = os_cause(e)
    if e.filename is None:
        return cause
    where = shown_name(e.filename)
    if e.filename2 is not None:
        where += f" (to {shown_name(e.filename2)})"
    return f"{where}: {cause}"


def printable(text: str) -> str:
    """``text`` safe to echo on a terminal, as one line: every character
    that is not printable (Unicode's controls and format characters such as
    ESC, BEL, a newline, U+202E that turns a line around, line separators,
    surrogates) becomes a visible escape (``\\x1b``, ``\\n``, ``\\u202e``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)    # repr's escape, unquoted
