"""``bower club push``: send a table's round setup to its Bower over USB.

::

    bower club push --table 3                 # the current round's table 3
    bower club push --table 3 --round 2 --port /dev/ttyACM1
    bower club push --clear                   # no club round on this device

The device gets one ``CLUB`` request (host/PROTOCOL.md's link, the client
``bower sync`` uses: ``protocol.Client.club``) with the night, table, round,
the night's table count, movement, length and scoring, the four players by
seat (N, E, S, W) and, per seat, the table that player sits at in the next
round when the movement fixes it in advance (fixed and partners; 0 when it
depends on results -- progressive -- or there is no next round, or a bye).
"""

from __future__ import annotations

from bower_host import connect
from bower_host.club.common import add_common_args, open_library, open_night
from bower_host.club.movement import SEATS
from bower_host.club.night import ClubError, Night
from bower_host.errors import CommandError


def round_setup(night: Night, rnd: int, table: int) -> dict:
    """The keyword arguments of ``Client.club`` for table ``table`` of round
    ``rnd`` of ``night``.

    :raises ClubError: no such round or table, or its seating is not known yet.
    """
    if not 1 <= rnd <= night.rounds:
        raise ClubError(f"the night has rounds 1 to {night.rounds}, not {rnd}")
    plan = night.seating(rnd)
    if plan is None:
        raise ClubError(f"round {rnd}'s seating is not known yet: it follows round {rnd - 1}'s results "
                        "(bower club seating)")
    if not 1 <= table <= len(plan.tables):
        raise ClubError(f"round {rnd} has tables 1 to {len(plan.tables)}, not {table}")
    seats = plan.tables[table - 1]
    nxt = [0, 0, 0, 0]
    if night.movement != "progressive" and rnd < night.rounds:
        later = night.seating(rnd + 1)
        if later is not None:
            nxt = [(later.where(p) or (0, 0))[0] for p in seats]
    s = night.scoring
    return {"night": night.key, "table": table, "rnd": rnd, "tables": night.tables, "movement": night.movement,
            "hands": night.hands or 0, "minutes": night.minutes or 0, "loner": s["loner"],
            "set_loner": s["set_loner"], "renege": s["renege"], "next_tables": nxt,
            "names": [night.name_of(p) for p in seats]}


def setup_text(setup: dict) -> str:
    """What was sent, in one line for the organiser."""
    length = f"{setup['hands']} hands" if setup["hands"] else f"{setup['minutes']} minutes"
    seats = ", ".join(f"{SEATS[i]} {n}" for i, n in enumerate(setup["names"]))
    nxt = setup["next_tables"]
    then = "; next round: " + ", ".join(f"{SEATS[i]} {'table %d' % t if t else '?'}" for i, t in enumerate(nxt)) \
        if any(nxt) else ""
    return f"night {setup['night']} round {setup['rnd']} table {setup['table']} of {setup['tables']} ({length}, " \
           f"{setup['movement']}): {seats}{then}"


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


def register(cs_) -> None:
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
