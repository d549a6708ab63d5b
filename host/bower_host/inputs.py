"""Reading a file a user names: the one way ``bower`` commands do it.

A user may name anything: a FIFO (reading it waits for a writer forever), a
device (``/dev/zero`` never ends), a directory, a socket, a sparse file of a
terabyte, or JSON nested a hundred thousand deep (Python's parser recurses
once per level). :func:`read_input` reads only a regular file, and only up
to a limit it checks before reading; :func:`load_json` refuses nesting
deeper than a bound before the parser can recurse. Each refusal is an
:class:`InputError`: one line that says the cause, never Python's exception
text.

::

    data = read_input(path, IMPORT_LIMIT, "it")               # bytes, or InputError
    doc = load_json(utf8_text(data, "it"), MAX_JSON_DEPTH)     # a value, or InputError

The library's own files (``bower_host.db``) and the device link read their
own way.
"""

from __future__ import annotations

import json
import os
import re
import stat

from bower_host.errors import CommandError, os_cause

#: Most bytes of a file ``bower import`` reads (a JSON export, an EGN file
#: or a device log). Bower's JSON export takes about 7 KB a table-mode game
#: and 24 KB a card-mode one (measured), so 10,000 table-mode games are about
#: 70 MB; parsing takes about four times the file's size in memory.
IMPORT_LIMIT = 128 << 20
#: Most bytes of a roster (a name a line: 64 tables of four are a few KB).
ROSTER_LIMIT = 1 << 20
#: Deepest JSON nesting read: Bower's export is 5 deep, EGN files about 6.
MAX_JSON_DEPTH = 32

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))

class InputError(CommandError):
    """A file a user named that is not read: the message says why (one line)."""


def cause(e: OSError) -> str:
    """The true cause of ``e`` in words, without Python's text (``errors.os_cause``)."""
    return os_cause(e)


def read_input(path: str | os.PathLike, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    ``what`` names the file in messages ("the roster r.txt", "it").

    :raises InputError: not a regular file (said what it is, without
        waiting for a FIFO or a device), larger than ``limit`` (said before
        reading), or not readable (the cause).
    """
    try:
        # stat before open: opening a device can act on it (a serial port's
        # open raises its DTR line), and O_NONBLOCK keeps a FIFO swapped in
        # meanwhile from waiting for a writer.
        _check(os.stat(path), limit, what)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as e:
        raise InputError(f"cannot read {what}: {cause(e)}") from None
    except ValueError:              # a NUL in the name
        raise InputError(f"cannot read {what}: its name has a NUL character") from None
    try:
        _check(os.fstat(fd), limit, what)        # what was opened, should the path have changed
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"cannot read {what}: {cause(e)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(f"{what} grew past {_size(limit)} while it was read, more than bower reads")
    return data


def utf8_text(data: bytes, what: str) -> str:
    """``data`` as UTF-8 text.

    :raises InputError: it is not; the first bad byte and its offset said.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{what} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start:,})") from None


def _check(st: os.stat_result, limit: int, what: str) -> None:
    for test, kind in _KINDS:
        if test(st.st_mode):
            raise InputError(f"{what} is {kind}, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{what} is not a regular file")
    if st.st_size > limit:
        raise InputError(f"{what} is {_size(st.st_size)}, more than the {_size(limit)} bower reads")


def _size(n: int) -> str:
    from bower_host.syncer import size_text
    return size_text(n)


# Every byte but quotes and brackets; braces as square brackets.
_OTHER = bytes(i for i in range(256) if i not in b'"[]{}')
_SQUARE = bytes.maketrans(b"{}", b"[]")
_LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def json_depth_over(text: str, max_depth: int) -> bool:
    """Whether the JSON ``text`` nests deeper than ``max_depth``, found in
    linear time without recursion (brackets inside strings do not count).

    An unbalanced text may be reported either way: it is not JSON anyway,
    and its nesting stays under twice ``max_depth``, which the parser takes.
    """
    # Escaped backslashes, then escaped quotes, out: each quote left opens or
    # closes a string. Then only quotes and brackets; an empty string out
    # keeps every later quote's parity; an unterminated string runs to the end.
    b = text.encode("utf-8", "surrogatepass")
    b = b.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _OTHER).replace(b'""', b"")
    if b'"' in b:
        b = b"".join(b.split(b'"')[::2])
    b = b.translate(_SQUARE)
    # Each pass drops every innermost pair: a tree of height h empties in h passes.
    for _ in range(max_depth):
        shorter = b.replace(b"[]", b"")
        if shorter == b:
            break
        b = shorter
    return b"[]" in b or b.count(b"[") > max_depth


def load_json(text: str, max_depth: int = MAX_JSON_DEPTH):
    """The value of the JSON ``text``.

    :raises InputError: nested deeper than ``max_depth`` (refused before
        parsing), not valid JSON (said where), or a string holding half of a
        UTF-16 pair (``"\\ud800"``: no character, and no UTF-8 text holds it).
    """
    if json_depth_over(text, max_depth):
        raise InputError(f"JSON nested deeper than {max_depth} levels (Bower's export is 5 deep)")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        end = " (the text ends early)" if e.pos >= len(text.rstrip()) else ""
        raise InputError(f"not valid JSON at line {e.lineno}, column {e.colno}{end}") from None
    except ValueError:              # Python's limit on an int's digits
        raise InputError("not JSON bower reads: a number of more than 4,300 digits") from None
    if _LONE_SURROGATE.search(text) and not _encodable(value):
        raise InputError("not valid JSON text: a \\u escape is half a character (a lone UTF-16 surrogate)")
    return value


def _encodable(v) -> bool:
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(v, dict):
        return all(_encodable(k) and _encodable(x) for k, x in v.items())
    if isinstance(v, list):
        return all(_encodable(x) for x in v)
    return True
