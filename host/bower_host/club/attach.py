"""A club night's round logs: attaching each to its round and table.

::

    out = attach_file(lib, raw_log, "r2-t1.log")      # a round log: stored and attached
    out.status                          # "new", "unchanged", "updated", "same result", "replaced"

A round's result belongs to ``(night, round, table)``; the rules of what
counts, what is refused and what is written to ``club_corrections`` are in
:mod:`bower_host.club.night`'s docstring. :func:`attach_synced` is
``bower sync``'s hook for a stored club round; :func:`collect` attaches the
night's rounds already in the library.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from euchre import log as elog

from bower_host.club.night import (ACCEPTANCE_UNDONE, CHANGED, DEVICE_CORRECTION, REPLACED, ClubConflict, ClubError,
                                   Night, night_from)
from bower_host.club.roundlog import UNDO, RoundError, RoundResult, \
    awaiting, check_scoring, club_of, round_result, undone_accepts
from bower_host.db import Decoded, Library, Refused, decode, replay, replay_decoded, transaction


@dataclass
class Attached:
    status: str          # "new", "unchanged", "updated", "same result", "replaced", "not a round"
    message: str
    night: str | None = None
    round: int | None = None
    table: int | None = None


def _result_text(names: list, res: dict, hands: int | None = None) -> str:
    p, pts = names, res["points"]
    more = "" if res["complete"] else " (awaiting acceptance)" if awaiting(res, hands) else \
        f" ({res['hands']} hands so far)"
    return f"{p[0]} & {p[2]} {pts[0]}, {p[1]} & {p[3]} {pts[1]}{more}"


def result_at(rp, club: dict, at: int, closed: bool = False) -> RoundResult:
    """The round's result as the log stood at its record ``at`` (an index
    into ``rp.records``): e.g. when an acceptance later undone was given."""
    records = rp.records[:at + 1]
    events: list = []
    linenos: list = []
    for i, rec in enumerate(records):
        if rec == UNDO:
            events.pop()
            linenos.pop()
        else:
            events.append(rec)
            linenos.append(i + 2)
    return round_result(replay_decoded(Decoded(rp.header, records, events, linenos, None)), club, closed)


def _device_corrections(conn, night: Night, rnd: int, table: int, game: str, rp, club: dict, res: RoundResult,
                        closed: bool) -> list:
    """``[(old result, new result)]`` for the undone acceptances of a complete
    result not written to ``club_corrections`` yet (one row each: the result
    as accepted, then as accepted next or now)."""
    if not res.complete or not res.corrections:
        return []
    logged = conn.execute("SELECT COUNT(*) FROM club_corrections WHERE night_id = ? AND round = ? AND table_no = ? "
                          "AND kind = ? AND new_game = ?", (night.id, rnd, table, DEVICE_CORRECTION, game)
                          ).fetchone()[0]
    if logged >= res.corrections:
        return []
    states = [result_at(rp, club, i, closed).to_json() for i in undone_accepts(rp.records)] + [res.to_json()]
    return [(states[k], states[k + 1]) for k in range(logged, res.corrections)]


def attach_replay(lib: Library, rp, device: str, game_key: str, game_id: int | None, source: str,
                  replace: bool = False, closed: bool = False, clock=time.time) -> Attached:
    """Attach a replayed, stored game (``db.Replay``) to its club night.

    :raises ClubError: the round header does not fit the night.
    :raises ClubConflict: the table and round have another result (and not ``replace``).
    """
    attached, write = plan_attach(lib, rp, device, game_key, source, replace, closed, clock)
    if write is not None:
        with transaction(lib.conn):
            write(lib.conn, game_id)
    return attached


def plan_attach(lib: Library, rp, device: str, game_key: str, source: str, replace: bool = False,
                closed: bool = False, clock=time.time) -> tuple[Attached, Callable | None]:
    """What attaching the game (``db.Replay``) to its club night would be,
    written nothing: ``(Attached, write)``, ``write(conn, game_id)`` writing
    its rows inside the caller's transaction (None: nothing to write).

    :raises ClubError: the round header does not fit the night.
    :raises ClubConflict: the table and round have another result (and not ``replace``).
    """
    try:
        club = club_of(rp.header)
    except RoundError as e:
        raise ClubError(f"{device}/{game_key}: {e}") from None
    if club is None:
        return Attached("not a round", f"{device}/{game_key}: not a club round (no club header)"), None
    conn = lib.conn
    row = conn.execute("SELECT * FROM club_nights WHERE key = ?", (club["night"],)).fetchone()
    if row is None:
        raise ClubError(f"{device}/{game_key}: round of club night {club['night']!r}, which this library does not "
                        "have (bower club list)")
    night = night_from(conn, row)
    rnd, table = club["round"], club["table"]
    where = f"night {night.key} round {rnd} table {table}"
    if rnd > night.rounds or table > night.tables:
        raise ClubError(f"{device}/{game_key}: {where}: the night has {night.rounds} rounds of {night.tables} tables")
    if (club["hands"], club["minutes"]) != (night.hands, night.minutes) or check_scoring(club["scoring"]) != \
            night.scoring:
        raise ClubError(f"{device}/{game_key}: {where}: the round was set up as {club['hands'] or club['minutes']} "
                        f"{'hands' if club['hands'] else 'minutes'} with {club['scoring']}, but the night plays "
                        f"{night.length()} with {night.scoring}")
    names = list(rp.game.players)
    unknown = [n for n in names if night.number_of(n) is None]
    if unknown:
        raise ClubError(f"{device}/{game_key}: {where}: {', '.join(unknown)} "
                        f"{'is not a player' if len(unknown) == 1 else 'are not players'} of the night")
    if len(set(names)) != 4:
        raise ClubError(f"{device}/{game_key}: {where}: a player is seated twice ({', '.join(names)})")
    for (r, t), other in night.results.items():
        if r == rnd and t != table:
            both = set(names) & set(other["result"]["players"])
            if both:
                raise ClubConflict(f"{where}: {', '.join(sorted(both))} already played round {rnd} at table {t} "
                                   f"({other['device']}/{other['game_key']})")
    closed = closed or (night.minutes is not None and _time_up(rp.header, night, clock))
    res = round_result(rp, club, closed=closed)
    new = res.to_json()
    now = int(clock())
    old = night.results.get((rnd, table))
    note = _seat_note(night, rnd, table, names)
    game = f"{device}/{game_key}"
    if old is None:
        status = "new"
    elif (old["device"], old["game_key"]) == (device, game_key):
        if old["result"] == new and bool(old["complete"]) == res.complete:
            return Attached("unchanged", f"{where}: already counted, unchanged", night.key, rnd, table), None
        status = "updated"
    elif _same(old["result"], new):
        return Attached("same result", f"{where}: the same result is already counted (from "
                                       f"{old['device']}/{old['game_key']}); counted once", night.key, rnd,
                        table), None
    elif not replace:
        raise ClubConflict(f"{where} already has a result "
                           f"({_result_text(old['result']['players'], old['result'], night.hands)} "
                           f"from {old['device']}/{old['game_key']}); {device}/{game_key} says "
                           f"{_result_text(names, new, night.hands)}: give --replace to correct it")
    else:
        status = "replaced"
    rows = []           # (kind, old game, old result, new result)
    fixed = _device_corrections(conn, night, rnd, table, game, rp, club, res, closed)
    if old is not None:
        was = f"{old['device']}/{old['game_key']}"
        if status == "replaced":
            rows.append((REPLACED, was, old["result"], new))
        elif old["complete"] and not fixed:
            undone = res.corrections > old["result"].get("corrections", 0) and not res.complete
            rows.append((ACCEPTANCE_UNDONE if undone else CHANGED, was, old["result"], new))
    rows += [(DEVICE_CORRECTION, game, a, b) for a, b in fixed]
    def write(conn, game_id: int | None) -> None:
        for kind, was, a, b in rows:
            conn.execute("INSERT INTO club_corrections (night_id, round, table_no, at, kind, old_game, new_game, "
                         "old_result, new_result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (night.id, rnd, table, now, kind, was, game, json.dumps(a), json.dumps(b)))
        conn.execute("INSERT OR REPLACE INTO club_results (night_id, round, table_no, device, game_key, game_id, "
                     "result, complete, source, attached_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (night.id, rnd, table, device, game_key, game_id, json.dumps(new), int(res.complete), source,
                      now))
    what = {"new": "counted", "updated": "updated", "replaced": "REPLACED the earlier result (logged as a "
                                                                 "correction)"}[status]
    if fixed:
        what += f"; corrected on the device after acceptance (logged as {len(fixed)} correction" \
                f"{'s' if len(fixed) > 1 else ''})"
    if not res.complete and status != "replaced":
        what = f"not counted: {res.why}" if res.why else "played, awaiting acceptance: not counted yet" \
            if res.awaiting else "in progress, not counted yet"
        if rows and rows[0][0] == ACCEPTANCE_UNDONE:
            what += " (its acceptance was undone on the device: logged as a correction)"
    return Attached(status, f"{where}: {_result_text(names, new, night.hands)}: {what}{note}", night.key, rnd,
                    table), write


def _same(a: dict, b: dict) -> bool:
    keys = ("players", "points", "hands", "complete")
    return all(a.get(k) == b.get(k) for k in keys)


def _time_up(header: dict, night: Night, clock) -> bool:
    t = header.get("started")
    if night.minutes is None:
        return False
    return type(t) is int and t > 0 and t + 60 * night.minutes <= clock()


def _seat_note(night: Night, rnd: int, table: int, names: list) -> str:
    plan = night.seating(rnd)
    if plan is None or table > len(plan.tables):
        return ""
    want = [night.name_of(p) for p in plan.tables[table - 1]]
    if want == names:
        return ""
    return f" (the movement seated {', '.join(want)} here)"


def attach_file(lib: Library, raw: bytes, name: str, device: str | None = None, replace: bool = False,
                closed: bool = True, clock=time.time) -> Attached:
    """Store a round log in the library (as ``bower import`` does) and attach it.

    :raises ClubError: not a round, it does not replay, or does not fit the night.
    """
    try:
        dec = decode(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ClubError(f"not a readable game log (byte 0x{raw[e.start]:02x} at offset {e.start} is not UTF-8 "
                        "text)") from None
    except elog.LogError as e:
        raise ClubError(f"not a readable game log ({e})") from None
    try:
        club = club_of(dec.header)
    except RoundError as e:
        raise ClubError(str(e)) from None
    if club is None:
        raise ClubError("not a club round (its header has no club object): bower import stores other games")
    dev = dec.header.get("device") or device
    if not dev:
        raise ClubError("the log names no device: give --device ID")
    if lib.conn.execute("SELECT 1 FROM club_nights WHERE key = ?", (club["night"],)).fetchone() is None:
        raise ClubError(f"a round of club night {club['night']!r}, which this library does not have "
                        "(bower club list)")
    attached: list = []
    refused: list = []

    def admit(rp, dev, key):
        # The round must fit its night before the game is stored: a refused
        # round stores nothing (issue 32), so the table's genuine log still can.
        try:
            a, write = plan_attach(lib, rp, dev, key, "file", replace, closed, clock)
        except ClubError as e:
            refused.append(e)
            raise Refused(str(e)) from None
        attached.append(a)
        return write
    r = lib.add_log(raw, str(dev), name, salvage=False, admit=admit)
    if refused:
        raise refused[0]
    if r.status == "refused" or not attached:
        raise ClubError(r.why or r.message)
    return attached[0]


def attach_synced(lib: Library, added) -> str | None:
    """``bower sync``'s hook: attach a just-stored game (``db.AddResult``) that
    carries a round header. Returns a line for the sync report (None for an
    ordinary game); a round that does not fit is reported, never raised."""
    rp = getattr(added, "replay", None)
    if rp is None or added.game_id is None or "club" not in rp.header:
        return None
    row = lib.game(added.game_id)
    if row is None:
        return None
    try:
        return attach_replay(lib, rp, row["device"], row["game_key"], added.game_id, "sync").message
    except ClubError as e:
        return f"club round not counted: {e}"


def collect(lib: Library, clock=time.time) -> list:
    """Attach every game of the library that carries a round header (rounds
    synced before the hook, or stored by ``bower import``). Returns
    ``[(status, message)]``; conflicts are reported, not raised."""
    out = []
    for row in lib.conn.execute("SELECT id, device, game_key, log FROM games WHERE log LIKE '%\"club\": {%' "
                                "ORDER BY id").fetchall():
        try:
            rp = replay(row["log"])
            a = attach_replay(lib, rp, row["device"], row["game_key"], row["id"], "sync", clock=clock)
            if a.status != "not a round":
                out.append((a.status, a.message))
        except (ClubError, elog.LogError) as e:
            out.append(("refused", str(e)))
    return out
