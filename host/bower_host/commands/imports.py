"""``bower import FILE...``: exported games (back) into the library, through
its one gate (what each file may be, and the checks: :mod:`bower_host.importer`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bower_host import argtypes as at
from bower_host.db import Library, LibraryError
from bower_host.errors import CommandError, printable
from bower_host.importer import checked, read_file
from bower_host.importer.common import ImportProblem


def cmd_import(args: argparse.Namespace) -> int:
    # One writer at a time, as bower sync: the library's writer lock; a
    # refused import into a library it made leaves nothing behind.
    from bower_host.db import writer_lock
    from bower_host.db.sides import run_or_leave_nothing

    def run() -> int:
        try:
            with writer_lock(args.db, "bower import"):
                return _import(args)
        except LibraryError as e:
            raise CommandError(str(e)) from None
    return run_or_leave_nothing(args.db, run)


def _import(args) -> int:
    from bower_host.progress import Progress

    lib = Library(args.db)
    failed = 0
    with lib, Progress() as bar:
        if len(args.files) > 1:
            bar.set("files", "importing", total=len(args.files))
        for name in args.files:
            path = Path(name)

            def tick(done, total, short=path.name):
                bar.set("games", f"{short}: checking", completed=done, total=total)
            try:
                items = checked(lib, read_file(path, args.device, tick))
            except ImportProblem as e:
                print(printable(f"bower: {name}: {e}"), file=sys.stderr)
                failed += 1
                bar.drop("games")
                bar.advance("files")
                continue
            for n, it in enumerate(items):
                if len(items) > 1:
                    bar.set("games", f"{path.name}: storing", completed=n, total=len(items))
                res = lib.add_log(it.raw, it.device, it.name, it.key, salvage=it.salvage)
                if res.status == "refused":         # (checked above, under the same lock)
                    print(printable(f"bower: {name}: {res.message}"), file=sys.stderr)
                    failed += 1
                    continue
                print(printable(f"{name}: {res.status} {res.message}"))
                if it.note:
                    print(printable(f"{name}: {it.note}"))
            bar.drop("games")
            bar.advance("files")
    if failed:
        print(f"bower: {failed} of {len(args.files)} files not imported", file=sys.stderr)
    return 1 if failed else 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("import", help="store games from Bower's JSON export, EGN files, device logs or a "
                                      "phone's export, each checked by replay (importing twice stores once)")
    p.add_argument("--db", metavar="FILE", type=at.library_file(),
                   help="the game library (default: $BOWER_DB, else bower.sqlite3 "
                        "in your data directory)")
    p.add_argument("--device", metavar="ID", help="the device a log came from, when its header names none")
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON exports, .egn files, device logs or a phone's "
                                                             ".zip")
    p.set_defaults(func=cmd_import)
