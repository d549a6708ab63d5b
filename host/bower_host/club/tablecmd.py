"""``bower club table reset``: free a table's phone (lost, flat, or the
wrong one joined) so another can join with the same code.

::

    bower club table reset --table 3

The phone that had it is told at its next request (401) and stops writing;
whatever it had already delivered stays counted. See club.phones.
"""

from __future__ import annotations

from bower_host.club.common import add_common_args, open_library, open_night
from bower_host.club.night import ClubError
from bower_host.errors import CommandError


def cmd_reset(args) -> int:
    from bower_host.club.phones import codes, reset
    from bower_host.db import writer_lock
    # (beside a running bower club serve, whose writes hold the lock for milliseconds)
    with writer_lock(args.db, "bower club table reset", wait=5.0), open_library(args.db) as lib:
        night = open_night(lib, args.night)
        code = codes(lib, night).get(args.table)
        try:
            had = reset(lib, night, args.table)
        except ClubError as e:
            raise CommandError(str(e)) from None
    was = f"its phone {had} can no longer write" if had else "no phone had joined it"
    print(f"Night {night.key} table {args.table}: reset ({was}); a phone joins it with the code {code}")
    return 0


def register(cs_) -> None:
    """Add ``table`` (``table reset``) to the ``bower club`` subcommands ``cs_``."""
    from bower_host import argtypes as at
    from bower_host.club.roundlog import MAX_TABLES
    q = cs_.add_parser("table", help="a table's phone: reset it", description="A table's phone for the night.")
    ts = q.add_subparsers(dest="table_command", metavar="COMMAND", required=True)
    r = add_common_args(ts.add_parser("reset", help="free the table for another phone (its code stays)",
                                      description="Void the tokens of the phone that joined the table; another "
                                                  "phone can then join with the table's code."))
    r.add_argument("--table", type=at.whole(1, MAX_TABLES, "table"), metavar="T", required=True)
    r.set_defaults(func=cmd_reset)
