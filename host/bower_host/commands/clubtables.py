"""``bower club push`` and ``bower club table reset``: a table's Bower and its
phone (registered under ``bower club`` by :mod:`bower_host.commands.club`).

::

    bower club push --table 3             # table 3's round, seats and scoring to the Bower plugged in
    bower club push --clear               # no club round on this device
    bower club table reset --table 3      # free table 3 for another phone (the one that joined stops writing)
"""

from __future__ import annotations

from bower_host import connect
from bower_host.club.common import add_common_args, open_library, open_night
from bower_host.club.night import ClubError
from bower_host.club.push import round_setup, setup_text
from bower_host.errors import CommandError


def register(cs_) -> None:
    """Add ``push`` and ``table`` to the ``bower club`` subcommands ``cs_``."""
    register_push(cs_)
    register_table(cs_)


# --- bower club push: a table's round to its Bower over USB ----------------------


def cmd_push(args) -> int:
    from bower_host.framing import DeviceError, ProtocolError
    from bower_host.transport import TransportError

    setup = None
    if not args.clear:
        if args.table is None:
            raise CommandError("give --table T (the table whose Bower this is), or --clear")
        with open_library(args.db) as lib:
            night = open_night(lib, args.night)
        try:
            setup = round_setup(night, args.round or night.current_round(), args.table)
        except ClubError as e:
            raise CommandError(str(e)) from None
    t, client = connect.open_client(args)
    try:
        info = client.hello()
        if setup is None:
            client.club(None)
        else:
            client.club(**setup)
    except DeviceError as e:
        if e.code == "unknown":
            raise CommandError("the device's firmware does not know club rounds (no CLUB command): update it "
                               "with bower deploy") from None
        raise CommandError(f"the device refused the club round: {e.message or e.code}") from None
    except (ProtocolError, TransportError) as e:
        raise CommandError(str(e)) from None
    finally:
        t.close()
    if setup is None:
        print(f"Device {info.device}: club round cleared")
    else:
        print(f"Device {info.device}: club round set up: {setup_text(setup)}")
    return 0


def register_push(cs_) -> None:
    """Add ``push`` to the ``bower club`` subcommands ``cs_``."""
    from bower_host import argtypes as at
    from bower_host.club.roundlog import MAX_ROUNDS, MAX_TABLES
    q = add_common_args(cs_.add_parser(
        "push", help="send a table's round (seats, length, scoring) to its Bower over USB",
        description="Send the round setup of a table to the Bower plugged in: the night, table and round, the "
                    "players by seat, the round's length and scoring, and where each player goes next when the "
                    "movement fixes it."))
    q.add_argument("--table", type=at.whole(1, MAX_TABLES, "table"), metavar="T",
                   help="the table whose Bower this is")
    q.add_argument("--round", type=at.whole(1, MAX_ROUNDS, "round"), metavar="R",
                   help="default: the round being played")
    q.add_argument("--clear", action="store_true", help="remove the club round from the device instead")
    connect.add_link_args(q)
    q.set_defaults(func=cmd_push)


# --- bower club table reset: free a table's phone (club.phones) -----------------


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


def register_table(cs_) -> None:
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
