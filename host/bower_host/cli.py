"""The ``bower`` command line.

Each command lives in its own module of :mod:`bower_host.commands`, with a
``register(subparsers)`` function that adds its parsers and sets ``func`` on
them; ``COMMAND_MODULES`` lists those modules.

No input makes ``bower`` print a traceback: an expected failure is a
:class:`CommandError` (one line, status 1); a file or disk error, or a
damaged library, is reported in one line the same way; anything else is a
bug, reported as one line asking for ``--debug`` (status 70). ``--debug``
shows the traceback of each. The line shows a control character as an
escape (``errors.printable``): a file name cannot clear the terminal.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from bower_host.errors import CommandError, printable


COMMAND_MODULES = [
    "bower_host.commands.demo",
    "bower_host.commands.sim",
    "bower_host.commands.sync",
    "bower_host.commands.deploy",
    "bower_host.commands.library",
    "bower_host.commands.imports",
    "bower_host.commands.repair",
    "bower_host.commands.club",
    "bower_host.commands.league",
    "bower_host.commands.web",
    "bower_host.commands.rules",
]

#: Exit status of an unexpected error (a bug): EX_SOFTWARE.
INTERNAL = 70


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, ``bower: <what is wrong> (see
    <command> --help)``, with status 2 (subcommands' parsers are this class too)."""

    def error(self, message: str):
        text = printable(" ".join(message.split()))
        if len(text) > 300:
            text = text[:300] + "..."
        self.exit(2, f"bower: {text} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bower", description="Bower: the Euchre scorekeeper's computer side.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    from bower_host import __version__
    parser.add_argument("--version", action="version", version=f"bower {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    # What `bower sync` does with each game it stored, beyond the library:
    # a club round counts for its night (bower_host.commands.sync and .syncer know no club).
    sub.choices["sync"].set_defaults(after_store=_count_club_round)
    return parser


def _count_club_round(library, added) -> str | None:
    """``Syncer``'s ``after_store`` for ``bower sync``: a stored club round
    (its header names the night, table and round) counts for its night."""
    from bower_host.club.attach import attach_synced
    return attach_synced(library, added)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("bower: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if args.debug:
            raise
        message, status = describe_error(e, _library_of(args))
        print(f"bower: {printable(message)}", file=sys.stderr)
        return status


def _library_of(args: argparse.Namespace):
    # The library file of a command with --db (for an SQLite error's message).
    if not hasattr(args, "db"):
        return None
    from pathlib import Path

    from bower_host.db.paths import default_path
    return Path(args.db).expanduser() if args.db else default_path()


def describe_error(e: Exception, library=None) -> tuple[str, int]:
    """One line for the user about ``e``, and the exit status; ``library``:
    the command's library file (an SQLite error is about it)."""
    import sqlite3

    from bower_host.db import LibraryError
    from bower_host.db.errors import cannot_write, is_damage
    from bower_host.db.paths import default_path
    from bower_host.errors import os_error, shown_name

    if isinstance(e, (CommandError, LibraryError)):    # LibraryDamaged: found while reading
        return str(e), 1
    if isinstance(e, OSError):
        return os_error(e), 1
    if isinstance(e, sqlite3.DatabaseError):
        what = f"the game library {shown_name(library)}" if library is not None else "the game library"
        db = f" --db {shown_name(library)}" if library is not None and library != default_path() else ""
        cause = None if is_damage(e) or library is None else cannot_write(library, e)
        if cause:
            return f"cannot write {what}: {cause}", 1
        return (f"{what} cannot be read ({e}): run `bower library check{db}`, and `bower library rebuild{db}` "
                "to rebuild it from its raw logs"), 1
    text = " ".join(str(e).split())[:200]
    return (f"internal error: {type(e).__name__}: {text} (this is a bug in bower: please report it with "
            "the output of the same command run with --debug)"), INTERNAL
