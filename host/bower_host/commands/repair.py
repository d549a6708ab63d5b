"""``bower library check`` and ``bower library rebuild``: a damaged library.

Every game ``bower sync`` stores is also archived as its raw log in
``<library>.raw/<device>/<id>.log`` beside the library file, so a library
with bad pages or a missing table (reported in one line by every command that
opens it) can be made again from those logs. The damaged file is kept,
renamed, never deleted. ``rebuild`` refuses a sound library and a file that
is not a library (``db.rebuild``): nothing is renamed then.
"""

from __future__ import annotations

import argparse
import os

from bower_host import argtypes as at
from bower_host.errors import CommandError
from bower_host.db import Library, LibraryError, rebuild, rebuild_check, writer_lock
from bower_host.db.audit import audit


def _path(args):
    return args.db or os.environ.get("BOWER_DB") or None


def cmd_check(args: argparse.Namespace) -> int:
    try:
        with Library(_path(args), create=False) as lib:
            lib.verify()
            n, path, note = lib.count(), lib.path, lib.side_note
            damaged = lib.conn.execute("SELECT COUNT(*) FROM games WHERE damaged IS NOT NULL").fetchone()[0]
            found = audit(lib.conn, lib.raw_dir)
    except LibraryError as e:
        raise CommandError(str(e)) from None
    if note:
        print(f"Note: {note}")
    bad = found.problems()
    if bad:
        # The rows are readable, but the archive `rebuild` would work from does not match them.
        for line in bad:
            print(line)
        parts = [f"{len(x)} {what}" for x, what in ((found.missing, "missing"), (found.altered, "altered"),
                                                     (found.unknown, "not in the library")) if x]
        raise CommandError(f"the game library {path} holds {n} game(s), but its raw archive {lib.raw_dir} does "
                           f"not match it ({', '.join(parts)}: listed above); `bower library rebuild` would not "
                           "bring it back as it is")
    damaged_note = f"; {damaged} stored only up to a corrupt line (see `bower show`)" if damaged else ""
    versions = f"; {found.versions} other version(s) of games kept in the archive" if found.versions else ""
    print(f"{path}: sound, {n} game(s), every raw log archived as stored{damaged_note}{versions}")
    return 0


def cmd_rebuild(args: argparse.Namespace) -> int:
    try:
        rebuild_check(_path(args))      # a refusal writes nothing, not even the lock file
        with writer_lock(_path(args), "bower library rebuild"):
            path, kept, counts, lost = rebuild(_path(args))
    except LibraryError as e:
        raise CommandError(str(e)) from None
    stored = counts.get("new", 0) + counts.get("updated", 0)
    extra = [f"{counts[k]} {k}" for k in ("duplicate", "refused", "damaged") if counts.get(k)]
    print(f"Rebuilt {path} from the raw logs: {stored} game(s)" + (f" ({', '.join(extra)})" if extra else ""))
    for f, why in lost:
        print(f"Not brought back: {f}: {why}")
    if kept:
        print(f"The old file was kept as {kept}")
        from bower_host.club.night import carry_over
        with Library(path) as lib:
            line = carry_over(kept, lib)
        if line:
            print(line)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("library", help="check the game library, or rebuild it from its raw logs")
    ls = p.add_subparsers(dest="library_command", required=True)
    for name, func, text in (
            ("check", cmd_check, "check the library file (pages, tables) and count its games"),
            ("rebuild", cmd_rebuild, "make the library anew from the raw logs archived beside it "
                                     "(the old file is kept, renamed)")):
        q = ls.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        q.add_argument("--db", metavar="FILE", type=at.library_file(),
                       help="the game library (default: $BOWER_DB, else bower.sqlite3 "
                            "in your data directory)")
        q.set_defaults(func=func)
