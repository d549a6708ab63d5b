"""A table's round setup as ``bower club push`` sends it to its Bower over USB
(the command: :mod:`bower_host.commands.club`).

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

from bower_host.club.movement import SEATS
from bower_host.club.night import ClubError, Night


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
