"""A club night in the library: players, movement, round results, corrections.

::

    night = create_night(lib, "Friday", names, tables=3, movement="fixed", rounds=6, hands=8)
    night.seating(2)                    # movement.Round: who sits where in round 2
    out = attach.attach_file(lib, raw_log, "r2-t1.log")   # a round log: stored and attached
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

This module holds the nights themselves (making, loading, carrying them
over a rebuild); :mod:`bower_host.club.attach` attaches the round logs.
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


from bower_host.club import movement as mv
from bower_host.club.roundlog import NIGHT_KEY, MAX_ROUNDS, MAX_TABLES, RoundError, check_scoring
from bower_host.db import Library, transaction
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
    return night_from(conn, row)


def night_from(conn, row) -> Night:
    """The :class:`Night` of ``row`` (a ``club_nights`` row), with its players and results."""
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


# ----- after ``bower library rebuild`` ----------------------------------------------

_CARRIED = ("club_nights", "club_players", "club_results", "club_corrections", "club_joins", "club_tokens")


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
