"""A club night in the library: players, movement, round results, corrections.

::

    night = create_night(lib, "Friday", names, tables=3, movement="fixed", rounds=6, hands=8)
    night.seating(2)                    # movement.Round: who sits where in round 2
    out = attach_file(lib, raw_log, "r2-t1.log")      # a round log: stored and attached
    out.status                          # "new", "unchanged", "updated", "same result", "replaced"

A round's result belongs to ``(night, round, table)``. The same log again,
or another log with the very same result, counts once; the same game's log
grown longer updates it (each change to a complete result is written to
``club_corrections``); another game with a different result is refused
(:class:`ClubConflict`) unless ``replace``, and then the correction is
written down too. A result counts only once the other side accepted it on
the device (``accept`` in the log, ``roundlog.round_result``); a log whose
acceptance was undone on the device and the result corrected (``undo``
after ``accept``) is written to ``club_corrections`` as a ``device
correction`` once per undone acceptance, however often the log arrives.
Nothing changes a result silently.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from euchre import log as elog

from bower_host.club import movement as mv
from bower_host.club.roundlog import NIGHT_KEY, MAX_ROUNDS, MAX_TABLES, UNDO, RoundError, RoundResult, \
    awaiting, check_scoring, club_of, round_result, undone_accepts
from bower_host.db import Decoded, Library, decode, replay, replay_decoded, transaction
from bower_host.names import DEVICE_NAME

MOVEMENTS = ("progressive", "fixed", "partners")
#: ``club_corrections.kind`` values: another game's result put in with
#: ``--replace``; the same game's complete result changed; the device's
#: acceptance undone and the result corrected there (one row per undone
#: acceptance); a counted result whose acceptance was undone, seen before
#: it was accepted again.
REPLACED, CHANGED, DEVICE_CORRECTION, ACCEPTANCE_UNDONE = ("replaced", "changed", "device correction",
                                                          "acceptance undone")
NAME_RE = DEVICE_NAME       # the device's names (bower_host.names): 1 to 8 printable ASCII, no space at the ends
MAX_NIGHT_NAME = 80                          # characters in a night's name (a heading on the page and sheets)


class Reader(Protocol):
    """What the reading functions need of a library: its connection (the
    web board passes a read-only one without the Library around it)."""
    conn: sqlite3.Connection
    path: object


class ClubError(Exception):
    """A club command that cannot be done; the message says why, in one line."""


class ClubConflict(ClubError):
    """A second, different result for a table and round that has one."""


@dataclass
class Night:
    id: int
    key: str
    name: str
    created: int
    tables: int
    rounds: int
    movement: str
    hands: int | None
    minutes: int | None
    scoring: dict
    seed: int | None
    players: list = field(default_factory=list)      # [(number, name, position)]
    results: dict = field(default_factory=dict)      # {(round, table): row dict, result decoded}

    def name_of(self, number: int) -> str:
        return self._names[number]

    def number_of(self, name: str) -> int | None:
        return self._numbers.get(name)

    def __post_init__(self):
        self._index()

    def _index(self):
        self._names = {n: name for n, name, _ in self.players}
        self._numbers = {name: n for n, name, _ in self.players}
        self._seating: dict = {}

    @property
    def order(self) -> tuple:
        """Player numbers in round 1 draw order."""
        return tuple(n for n, _, _ in sorted(self.players, key=lambda p: p[2]))

    def length(self) -> str:
        return f"{self.hands} hands" if self.hands else f"{self.minutes} minutes"

    def tables_in(self, rnd: int) -> int:
        s = self.seating(rnd)
        return len(s.tables) if s else self.tables

    def actual(self, rnd: int) -> mv.Round | None:
        """Round ``rnd`` as its logs say it was played, once every table is complete."""
        want = self.tables_in(rnd) if self.movement != "progressive" else self.tables
        rows = [self.results.get((rnd, t)) for t in range(1, want + 1)]
        done = [r for r in rows if r and r["complete"]]
        if len(done) < len(rows):
            return None
        tables = tuple(tuple(self._numbers[n] for n in r["result"]["players"]) for r in done)
        seated = {p for t in tables for p in t}
        return mv.Round(tables, tuple(p for p in self.order if p not in seated))

    def seating(self, rnd: int) -> mv.Round | None:
        """Who sits where in round ``rnd``; None while it depends on results
        not in yet (progressive: the round before must be complete)."""
        if not 1 <= rnd <= self.rounds:
            return None
        if rnd in self._seating:
            return self._seating[rnd]
        if self.movement == "partners":
            out = mv.partners_round(self.order, rnd)
        elif rnd == 1:
            out = mv.first_round(self.order, self.tables)
        elif self.movement == "fixed":
            prev = self.seating(rnd - 1)
            if prev is None:
                return None
            out = mv.fixed(prev)
        else:
            prev = self.actual(rnd - 1)
            if prev is None:
                return None
            winners = [self.results[(rnd - 1, t)]["result"]["winner"] for t in range(1, self.tables + 1)]
            out = mv.progressive(prev, winners)
        self._seating[rnd] = out
        return out

    def current_round(self) -> int:
        """The first round with a table still to report (the last round once all are in)."""
        for r in range(1, self.rounds + 1):
            n = self.tables_in(r)
            if not all((self.results.get((r, t)) or {}).get("complete") for t in range(1, n + 1)):
                return r
        return self.rounds

    def complete(self) -> bool:
        r = self.rounds
        n = self.tables_in(r)
        return all((self.results.get((r, t)) or {}).get("complete") for t in range(1, n + 1)) and \
            self.current_round() == r


# ----- making and loading nights ------------------------------------------------------

def _slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:20].strip("-")
    return s or "night"


def check_names(names: list) -> None:
    """Roster names as the device takes them, each once.

    :raises ClubError: a bad or repeated name.
    """
    seen = set()
    for n in names:
        if not NAME_RE.match(n):
            raise ClubError(f"bad player name {_show(n)}: names are 1 to 8 printable ASCII characters, no space "
                            "first or last, as on the device")
        if n in seen:
            raise ClubError(f"{n!r} is listed twice: every player needs a name of their own")
        seen.add(n)


def check_night_name(name: str) -> None:
    """A night's name: 1 to ``MAX_NIGHT_NAME`` characters, no control characters.

    :raises ClubError: an empty, overlong or unprintable name.
    """
    if not name.strip():
        raise ClubError("the night needs a name (1 to %d characters)" % MAX_NIGHT_NAME)
    if len(name) > MAX_NIGHT_NAME:
        raise ClubError(f"a night's name is at most {MAX_NIGHT_NAME} characters, not {len(name):,}")
    if not name.isprintable():
        raise ClubError(f"the night's name {_show(name)} has a control character: letters, digits, spaces "
                        "and punctuation only")


def _show(text: str, most: int = 24) -> str:
    """``text`` quoted for a message, cut to ``most`` characters."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def plan_night(name: str, names: list, tables: int | None, movement: str, rounds: int | None,
               hands: int | None = None, minutes: int | None = None, scoring: dict | None = None,
               seed: int | None = None, key: str | None = None) -> tuple:
    """Check a new night's settings without a library: ``(tables, rounds,
    scoring, key)`` as ``create_night`` will store them.

    :raises ClubError: anything that does not make a night.
    """
    check_night_name(name)
    check_names(names)
    n = len(names)
    if movement not in MOVEMENTS:
        raise ClubError(f"unknown movement {movement!r}: progressive, fixed or partners")
    if (hands is None) == (minutes is None):
        raise ClubError("give the round's length: --hands N or --minutes M")
    for what, v in (("hands", hands), ("minutes", minutes)):
        if v is not None and not 1 <= v <= 99:
            raise ClubError(f"--{what} {v}: from 1 to 99")
    try:
        scoring = check_scoring(scoring or {})
    except RoundError as e:
        raise ClubError(str(e)) from None
    if movement == "partners":
        if n < 4:
            raise ClubError(f"{n} players: the partners movement needs at least 4")
        if tables is not None and tables != n // 4:
            raise ClubError(f"{n} players fill {n // 4} tables (with {n % 4} on a bye each round), not {tables}")
        tables = n // 4
        most = mv.schedule_length(n)
        rounds = most if rounds is None else rounds
        if rounds > most:
            raise ClubError(f"the partners schedule for {n} players has {most} rounds; --rounds {rounds} is too many")
    else:
        if tables is None:
            raise ClubError(f"give --tables N (the {movement} movement seats four players at each)")
        if tables < 1 or n != 4 * tables:
            raise ClubError(f"the {movement} movement needs four players per table: {n} players cannot fill "
                            f"{tables} table{'s' if tables != 1 else ''} of four "
                            "(the partners movement takes any number, with byes)")
        rounds = 8 if rounds is None else rounds
    if not 1 <= tables <= MAX_TABLES or not 1 <= rounds <= MAX_ROUNDS:
        raise ClubError(f"{tables} tables and {rounds} rounds: a night has 1 to {MAX_TABLES} tables and 1 to "
                        f"{MAX_ROUNDS} rounds")
    if key is None:
        key = f"{_slug(name)}-{secrets.token_hex(2)}"
    if not NIGHT_KEY.match(key):
        raise ClubError(f"night id {_show(key)}: letters, digits, - and _ (at most 32)")
    if seed is not None and not 0 <= seed < 2 ** 63:
        raise ClubError(f"seed {seed}: a whole number from 0 to {2 ** 63 - 1}")
    return tables, rounds, scoring, key


def create_night(lib: Library, name: str, names: list, tables: int | None, movement: str, rounds: int | None,
                 hands: int | None = None, minutes: int | None = None, scoring: dict | None = None,
                 seed: int | None = None, key: str | None = None, clock=time.time) -> Night:
    """Store a new club night; round 1 is drawn with ``seed`` (None: as listed).

    :raises ClubError: anything that does not make a night (``plan_night``).
    """
    n = len(names)
    tables, rounds, scoring, key = plan_night(name, names, tables, movement, rounds, hands, minutes, scoring, seed,
                                              key)
    positions = list(range(n))
    if seed is not None:
        import random
        random.Random(seed).shuffle(positions)
    conn = lib.conn
    if conn.execute("SELECT 1 FROM club_nights WHERE key = ?", (key,)).fetchone():
        raise ClubError(f"the library already has a club night {key}")
    with transaction(conn):
        cur = conn.execute(
            "INSERT INTO club_nights (key, name, created, tables, rounds, movement, hands, minutes, scoring, seed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, name, int(clock()), tables, rounds, movement, hands, minutes, json.dumps(scoring), seed))
        nid = cur.lastrowid
        conn.executemany("INSERT INTO club_players (night_id, number, name, position) VALUES (?, ?, ?, ?)",
                         [(nid, i + 1, nm, positions[i]) for i, nm in enumerate(names)])
    return load_night(lib, key)


def nights(lib: Library) -> list:
    return [dict(r) for r in lib.conn.execute("SELECT * FROM club_nights ORDER BY created DESC, id DESC")]


def load_night(lib: Library | Reader, ref: str | None = None) -> Night:
    """The night ``ref`` names (its id, or its name), else the newest.

    :raises ClubError: no such night.
    """
    conn = lib.conn
    if ref is None:
        row = conn.execute("SELECT * FROM club_nights ORDER BY created DESC, id DESC LIMIT 1").fetchone()
        if row is None:
            raise ClubError(f"the library {lib.path} has no club night: make one with bower club new")
    else:
        rows = conn.execute("SELECT * FROM club_nights WHERE key = ? OR name = ? ORDER BY id DESC",
                            (ref, ref)).fetchall()
        if not rows:
            raise ClubError(f"no club night {ref!r} in {lib.path} (bower club list shows them)")
        if len(rows) > 1 and rows[0]["key"] != ref:
            raise ClubError(f"several nights are called {ref!r}: give the id ({', '.join(r['key'] for r in rows)})")
        row = rows[0]
    return _night_from(conn, row)


def _night_from(conn, row) -> Night:
    players = [(r["number"], r["name"], r["position"]) for r in
               conn.execute("SELECT * FROM club_players WHERE night_id = ? ORDER BY number", (row["id"],))]
    results = {}
    for r in conn.execute("SELECT * FROM club_results WHERE night_id = ?", (row["id"],)):
        d = dict(r)
        d["result"] = json.loads(d["result"])
        results[(d["round"], d["table_no"])] = d
    return Night(row["id"], row["key"], row["name"], row["created"], row["tables"], row["rounds"], row["movement"],
                 row["hands"], row["minutes"], json.loads(row["scoring"]), row["seed"], players, results)


def corrections(lib: Library | Reader, night: Night) -> list:
    rows = lib.conn.execute("SELECT * FROM club_corrections WHERE night_id = ? ORDER BY id", (night.id,))
    out = []
    for r in rows:
        d = dict(r)
        d["old_result"] = json.loads(d["old_result"])
        d["new_result"] = json.loads(d["new_result"])
        out.append(d)
    return out


# ----- attaching round logs -------------------------------------------------------------

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
    try:
        club = club_of(rp.header)
    except RoundError as e:
        raise ClubError(f"{device}/{game_key}: {e}") from None
    if club is None:
        return Attached("not a round", f"{device}/{game_key}: not a club round (no club header)")
    conn = lib.conn
    row = conn.execute("SELECT * FROM club_nights WHERE key = ?", (club["night"],)).fetchone()
    if row is None:
        raise ClubError(f"{device}/{game_key}: round of club night {club['night']!r}, which this library does not "
                        "have (bower club list)")
    night = _night_from(conn, row)
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
            return Attached("unchanged", f"{where}: already counted, unchanged", night.key, rnd, table)
        status = "updated"
    elif _same(old["result"], new):
        return Attached("same result", f"{where}: the same result is already counted (from "
                                       f"{old['device']}/{old['game_key']}); counted once", night.key, rnd, table)
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
    with transaction(conn):
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
                    table)


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
    except (UnicodeDecodeError, elog.LogError) as e:
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
    r = lib.add_log(raw, str(dev), name)
    if r.status == "mismatch":
        raise ClubError(r.message.split(": ", 1)[-1])
    row = lib.game(r.game_id) if r.game_id is not None else None
    if r.replay is None or row is None:
        raise ClubError(r.message)
    return attach_replay(lib, r.replay, row["device"], row["game_key"], r.game_id, "file", replace, closed, clock)


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


# ----- after ``bower library rebuild`` ----------------------------------------------

_CARRIED = ("club_nights", "club_players", "club_results", "club_corrections")


def carry_over(old: str | Path, lib: Library) -> str | None:
    """Copy the club nights of the library file ``old`` (the damaged one a
    rebuild kept) into ``lib`` (the rebuilt one): nights, players, results
    and corrections, each result pointing at its game again by device and
    game id. Returns a line for the report, None if ``old`` had no nights.
    Never raises: what cannot be read is said in that line (the old file is
    kept, so nothing is lost)."""
    try:
        src = sqlite3.connect(f"file:{Path(old)}?mode=ro", uri=True)
    except sqlite3.Error as e:
        return f"club nights: the old file cannot be read ({e})"
    try:
        have = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "club_nights" not in have:
            return None
        rows = {t: (src.execute(f"SELECT * FROM {t}").fetchall() if t in have else []) for t in _CARRIED}
        cols = {t: [d[1] for d in src.execute(f"PRAGMA table_info({t})")] for t in _CARRIED if t in have}
    except sqlite3.Error as e:
        return f"club nights: not carried over, the old file's club tables are damaged ({e})"
    finally:
        src.close()
    if not rows["club_nights"]:
        return None
    games = {(d, k): i for i, d, k in lib.conn.execute("SELECT id, device, game_key FROM games")}
    lost = 0
    with transaction(lib.conn):
        for t in _CARRIED:
            names = cols.get(t, [])
            for row in rows[t]:
                rec = dict(zip(names, row))
                if t == "club_results":
                    rec["game_id"] = games.get((rec["device"], rec["game_key"]))
                    lost += rec["game_id"] is None
                keys = list(rec)
                lib.conn.execute(f"INSERT OR IGNORE INTO {t} ({', '.join(keys)}) VALUES ({', '.join('?' * len(keys))})",
                                 [rec[k] for k in keys])
    n = len(rows["club_nights"])
    note = f" ({lost} round result(s) whose game has no raw log: kept as counted)" if lost else ""
    return f"club nights: {n} carried over from the old file with their results and corrections{note}"
