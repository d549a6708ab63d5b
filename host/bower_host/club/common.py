"""What every ``bower club ...`` command shares: the library and the night
it works on, opened or refused in one line, and their options (``--db``,
``--night``). ``bower_host.commands.club`` imports it; it imports no
command.
"""

from __future__ import annotations

from bower_host import argtypes as at
from bower_host.club import night as cn
from bower_host.db import Library, LibraryError
from bower_host.errors import CommandError


def open_library(path, create: bool = False) -> Library:
    """The library at ``path`` (None: the default one).

    :raises CommandError: it cannot be opened (missing, unless ``create``).
    """
    try:
        return Library(path, create=create)
    except LibraryError as e:
        raise CommandError(str(e)) from None


def open_night(lib: Library, ref: str | None) -> cn.Night:
    """The night ``ref`` names (None: the newest).

    :raises CommandError: no such night.
    """
    try:
        return cn.load_night(lib, ref)
    except cn.ClubError as e:
        raise CommandError(str(e)) from None


def add_common_args(q, night: bool = True):
    """Add ``--db`` (and ``--night`` unless ``night`` is False) to the parser ``q``; returns ``q``."""
    q.add_argument("--db", metavar="FILE", type=at.library_file(),
                   help="the game library (default: $BOWER_DB, else bower.sqlite3 "
                        "in your data directory)")
    if night:
        q.add_argument("--night", metavar="ID", type=at.text(cn.MAX_NIGHT_NAME, "--night"),
                       help="the club night (default: the newest)")
    return q
