"""The game library: every synced game in one SQLite file, raw logs beside it.

::

    lib = Library()                     # BOWER_DB, else the user's data dir
    r = lib.add_log(raw_bytes, device="e6614103e7", name="g0001.log")
    r.status                            # "new", "duplicate", "updated" or "mismatch"
    lib.games()                         # one row per game
    lib.hands(r.game_id)                # one row per finished hand

A game's identity is ``(device, header "id")``. ``add_log`` decodes the log
with ``euchre.log`` (a torn last line is dropped and reported), replays it
through the engine event by event, derives one row per finished hand and
stores the game in one transaction. The raw log is archived as
``<library>.raw/<device>/<id>.log`` next to the database (each library owns
its side files, named after its file: ``side_path``; host/EXPORTS.md, "The
library's files"); a log that does not replay,
or that conflicts with the stored copy of its game, is archived under a name
that never replaces anything (``<id>.mismatch-<sha>.log``) and nothing else
is stored. A good archived log is only ever replaced by a longer version of
itself.

Device input is hostile until checked: the header's fields are validated
(``check_header``) before anything is replayed, and a log with a corrupt line
in the middle is stored up to that line and marked ``damaged`` (the line
number and why), its whole raw log archived. ``Library`` checks the file when
it opens it and raises ``LibraryDamaged`` for bad pages or a missing table;
``rebuild`` makes a new library from the raw archive.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]``
takes a database from version ``i`` to ``i + 1``. A database newer than this
code knows is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, NoReturn

from euchre import IllegalAction
from euchre import log as elog
from euchre.cards import SUITS, card_name
from euchre.game import game_from_header
from euchre.hand import REDEAL, SCORED, THROWN_IN
from euchre.logfile import split_lines

DB_NAME = "bower.sqlite3"
ENV_DB = "BOWER_DB"

RESULT_NAMES = {SCORED: "scored", THROWN_IN: "thrown-in", REDEAL: "redeal"}
# The ``outcome`` column of a scored hand: the engine's outcome code
# (euchre.hand.OUTCOMES) in the column's four words.
OUTCOME_WORDS = {"made": "made", "made_alone": "made", "march": "march", "lone_march": "march",
                 "best_march": "march", "unpartnered_march": "march", "euchred": "euchred",
                 "defend_euchre": "euchred", "renege": "renege"}


class LibraryError(Exception):
    """The library cannot be opened or used (bad path, unknown schema version)."""


class LibraryDamaged(LibraryError):
    """The library file is damaged (bad pages, a missing table or column)."""

    #: What is wrong, in a few words (the message says it too, with the way out).
    why: str = ""


# ----- schema and migrations -------------------------------------------------

_V1 = [
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        device TEXT NOT NULL,           -- device id (hex of machine.unique_id())
        game_key TEXT NOT NULL,         -- the game's id on that device (header "id")
        source_name TEXT,               -- the log's file name on the device
        variant TEXT NOT NULL,
        options TEXT NOT NULL,          -- JSON: every option of the variant
        players TEXT NOT NULL,          -- JSON: names by seat
        mode TEXT NOT NULL,             -- "table" or "cards"
        first_dealer INTEGER NOT NULL,
        started INTEGER,                -- header "started" (Unix time), if set
        finished INTEGER NOT NULL,      -- 1 once the game is over
        result TEXT,                    -- "win", "shared", "draw" or NULL
        winners TEXT,                   -- JSON: winning seats, or NULL
        scores TEXT NOT NULL,           -- JSON: score per seat after the last event
        hands INTEGER NOT NULL,         -- finished hands (redeals and throw-ins included)
        events INTEGER NOT NULL,        -- events after undo lines are applied
        raw_sha256 TEXT NOT NULL,
        raw_path TEXT,                  -- archive path relative to the raw directory
        log TEXT NOT NULL,              -- the log as received (UTF-8 text)
        dropped TEXT,                   -- why a torn last line was dropped, if one was
        synced_at INTEGER NOT NULL,     -- Unix time of the last store
        UNIQUE (device, game_key)
    )""",
    """CREATE TABLE hands (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,        -- 1-based, as the device counts hands
        dealer INTEGER NOT NULL,
        upcard TEXT,                    -- card notation when known (card mode, a two/joker up)
        up_suit TEXT,                   -- C D H S: the suit bid on in round 1
        maker INTEGER,
        trump TEXT,
        alone INTEGER NOT NULL,         -- 0, 1 alone, 2 alone with partner's best
        lone_defender INTEGER,
        partner_card TEXT,              -- calling variants: the card called
        partner INTEGER,                -- calling variants: its holder (NULL: none)
        tricks TEXT NOT NULL,           -- JSON: tricks per seat
        points TEXT NOT NULL,           -- JSON: points per seat for this hand
        maker_tricks INTEGER,
        outcome TEXT,                   -- "made", "march", "euchred", "renege" (scored hands)
        reason TEXT NOT NULL,           -- the engine's words: "march", "all passed", ...
        result TEXT NOT NULL,           -- "scored", "thrown-in" or "redeal"
        scores TEXT NOT NULL,           -- JSON: running score per seat after the hand
        PRIMARY KEY (game_id, number)
    )""",
    """CREATE TABLE players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )""",
    "CREATE INDEX players_by_name ON players(name)",
]

# Version 2: a log with a corrupt line before its last is stored up to that
# line; ``damaged`` says which line and why (NULL for an intact log).
_V2 = ["ALTER TABLE games ADD COLUMN damaged TEXT"]



def _v3(conn: sqlite3.Connection) -> None:
    # Version 3: the seat that reneged is a column (``renege``), not words
    # to read out of ``reason``. Hands stored before it get it from their
    # reason once, here ("renege by seat 2"); new hands from the engine.
    conn.execute("ALTER TABLE hands ADD COLUMN renege INTEGER")
    for gid, number, reason in conn.execute(
            "SELECT game_id, number, reason FROM hands WHERE outcome = 'renege'").fetchall():
        seat = str(reason).rsplit(" ", 1)[-1]
        if seat.isdigit():
            conn.execute("UPDATE hands SET renege = ? WHERE game_id = ? AND number = ?", (int(seat), gid, number))


# MIGRATIONS[i] takes the schema from version i to i + 1: a list of SQL
# statements, or a callable taking the connection. Append, never edit.
MIGRATIONS: list = [_V1, _V2, _v3]

#: Every table and column this code reads; a library lacking one is damaged.
SCHEMA = {
    "games": ("id", "device", "game_key", "source_name", "variant", "options", "players", "mode", "first_dealer",
              "started", "finished", "result", "winners", "scores", "hands", "events", "raw_sha256", "raw_path",
              "log", "dropped", "synced_at", "damaged"),
    "hands": ("game_id", "number", "dealer", "upcard", "up_suit", "maker", "trump", "alone", "lone_defender",
              "partner_card", "partner", "tricks", "points", "maker_tricks", "outcome", "reason", "result",
              "scores", "renege"),
    "players": ("game_id", "seat", "name"),
}


def schema_version() -> int:
    """The schema version this code writes."""
    return len(MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> int:
    """Bring ``conn``'s schema up to date, one version per transaction.

    :returns: the version found before migrating.
    :raises LibraryError: the database is newer than this code.
    """
    found = conn.execute("PRAGMA user_version").fetchone()[0]
    known = schema_version()
    if found < 0:
        raise sqlite3.DatabaseError(f"schema version {found}")   # no bower writes that: damaged
    if found > known:
        raise LibraryError(
            f"the game library has schema version {found}, newer than this bower knows "
            f"({known}): upgrade bower to use it (the file was left untouched)")
    for v in range(found, known):
        step = MIGRATIONS[v]
        with transaction(conn):
            if callable(step):
                step(conn)
            else:
                for sql in step:
                    conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {v + 1}")
    return found


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def default_path() -> Path:
    """``$BOWER_DB``, else ``bower.sqlite3`` in the user's data directory."""
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir
    return Path(user_data_dir("bower")) / DB_NAME


# ----- replaying a log into hands -----------------------------------------------

@dataclass
class HandRecord:
    """One finished hand of a replayed game."""
    number: int
    hand: Any                       # the engine's finished ``Hand``
    events: list                    # [(phase before the event, event text), ...]
    scores: list                    # running scores per seat after the hand


@dataclass
class Replay:
    """A log decoded and replayed through the engine."""
    header: dict
    records: list                   # every payload after the header, undo lines included
    events: list                    # events with undo lines applied
    game: Any
    hands: list = field(default_factory=list)   # [HandRecord]
    dropped: str | None = None


@dataclass
class Decoded:
    """A log's lines, decoded (see ``decode``)."""
    header: dict
    records: list                   # payloads of every good line after the header, "undo" included
    events: list                    # the events once undo lines are applied
    linenos: list                   # the line number of each event
    dropped: str | None             # why a torn last line was dropped
    text: str = ""                  # the text decoded: the whole log, or its good prefix when damaged
    damaged: str | None = None      # a corrupt line before the last: which, why, what was left out


def decode(text: str, salvage: bool = False) -> Decoded:
    """Decode a log's text (``euchre.log`` format).

    :param salvage: a corrupt line before the last (bad CRC, torn, not JSON)
        ends the log there instead of failing: the lines before it are
        decoded and ``damaged`` says which line it was.
    :raises euchre.log.LogError: unreadable log (names the line).
    """
    lines = list(split_lines(text))
    try:
        header, evs, dropped = elog.read_lines(lines)
    except elog.LogError:
        if not salvage:
            raise
        bad = _first_bad_line(lines)
        if bad is None or bad[0] < 2:
            raise
        n, why = bad
        d = decode("".join(lines[:n - 1]))
        d.damaged = (f"{why}; the log has {len(lines)} lines and the {len(lines) - n + 1} from line {n} on "
                     "were not imported")
        return d
    good = len(lines) - (1 if dropped else 0)
    records = [elog.decode_line(lines[i], i + 1) for i in range(1, good)]
    return Decoded(header, records, [e for _, e in evs], [n for n, _ in evs], dropped, text)


def _first_bad_line(lines: list) -> tuple[int, str] | None:
    # (line number, error) of the first line that does not decode, if any.
    for i, line in enumerate(lines):
        try:
            elog.decode_line(line, i + 1)
        except elog.LogError as e:
            return i + 1, str(e)
    return None


#: Header ``started`` values accepted: Unix seconds from 1970 (0: the
#: device clock was never set) to 2100-01-01, the range ``bower clock`` sets.
MAX_STARTED = 4102444800
#: Longest player name (the device's are at most 8 characters) and game or
#: device id accepted from a header.
MAX_NAME = 64


def check_header(h: dict) -> None:
    """Refuse a header field of the wrong type or out of range before the
    engine sees it (a damaged or hostile device could send anything).

    :raises euchre.log.LogError: ``line 1: header field 'dealer' ...``.
    """
    def bad(name, why) -> NoReturn:
        raise elog.LogError(f"line 1: header field {name!r} {why}")

    def show(v):
        t = json.dumps(v)
        return t if len(t) <= 40 else t[:37] + "..."

    v = h.get("variant")
    if not isinstance(v, str) or not v:
        bad("variant", f"is {show(v)}, not a variant name")
    if h.get("options") is not None and not isinstance(h["options"], dict):
        bad("options", f"is {show(h['options'])}, not an object of options")
    p = h.get("players")
    if not isinstance(p, list) or not p or not all(
            isinstance(n, str) and 0 < len(n) <= MAX_NAME and n.isprintable() for n in p):
        bad("players", f"is {show(p)}, not a list of player names")
    d = h.get("dealer")
    if type(d) is not int or not 0 <= d < len(p):
        bad("dealer", f"is {show(d)}, not a seat number from 0 to {len(p) - 1}")
    if h.get("mode", "table") not in ("table", "cards"):
        bad("mode", f"is {show(h.get('mode'))}, not \"table\" or \"cards\"")
    t = h.get("started")
    if t is not None and (type(t) is not int or not 0 <= t < MAX_STARTED):
        bad("started", f"is {show(t)}, not a time between 1970 and 2100 (set the device clock: bower clock)")
    for k in ("id", "device"):
        x = h.get(k)
        if x is not None and not (isinstance(x, str) and 0 < len(x) <= MAX_NAME and x.isprintable()
                                  or type(x) is int and 0 <= x < 10 ** 12):
            bad(k, f"is {show(x)}, not an id")


def replay(text: str) -> Replay:
    """Decode and replay a log, capturing each hand as it finishes.

    :raises euchre.log.LogError: unreadable log or an event the rules refuse.
    """
    return replay_decoded(decode(text))


def replay_decoded(d: Decoded) -> Replay:
    """Replay a decoded log (see ``replay``)."""
    check_header(d.header)
    try:
        game = game_from_header(d.header)
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise elog.LogError(f"line 1: {e}") from e
    out = Replay(d.header, d.records, d.events, game, dropped=d.dropped)
    current: list = []
    for ev, lineno in zip(d.events, d.linenos):
        number = game.hand_no
        phase = game.hand.phase
        try:
            game.apply(ev)
        except (IllegalAction, ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            # A line with a good CRC the rules refuse (or cannot even parse).
            raise elog.LogError(f"line {lineno} ({ev[:40]}): {e}") from e
        current.append((phase, ev))
        if game.hand_no != number:
            out.hands.append(HandRecord(number, game.last_hand, current, list(game.scores)))
            current = []
    return out


def hand_row(rec: HandRecord) -> dict:
    """The ``hands`` row of a finished hand (without ``game_id``)."""
    h = rec.hand
    r = h.rules
    scored = h.result == SCORED
    maker = h.maker if h.maker >= 0 else None
    maker_tricks = h.maker_tricks() if scored and maker is not None else None
    outcome = OUTCOME_WORDS[h.outcome] if scored else None
    partner = None
    if r.call_partner and 0 <= h.partner < h.n:
        partner = h.partner
    return {
        "number": rec.number,
        "dealer": h.dealer,
        "upcard": card_name(h.upcard) if h.upcard >= 0 else None,
        "up_suit": SUITS[h.up_suit] if 0 <= h.up_suit < 4 else None,
        "maker": maker,
        "trump": SUITS[h.trump] if 0 <= h.trump < 4 else None,
        "alone": h.alone,
        "lone_defender": h.lone_defender if h.lone_defender >= 0 else None,
        "partner_card": card_name(h.partner_card) if h.partner_card >= 0 else None,
        "partner": partner,
        "tricks": list(h.tricks),
        "points": list(h.points or [0] * h.n),
        "maker_tricks": maker_tricks,
        "outcome": outcome,
        "renege": h.renege if scored and h.renege >= 0 else None,
        "reason": h.reason,
        "result": RESULT_NAMES[h.result],
        "scores": list(rec.scores),
    }


# ----- the library ----------------------------------------------------------------

@dataclass
class AddResult:
    """What ``Library.add_log`` did."""
    status: str                     # "new", "duplicate", "updated" or "mismatch"
    game_id: int | None             # the game's DB id (None for a mismatch with no stored game)
    message: str
    archived: Path | None = None    # where the raw log was archived, if it was written
    dropped: str | None = None      # a torn last line that was dropped
    damaged: str | None = None      # stored only up to a corrupt line: which, and why
    replay: Replay | None = None    # the replayed game (what was stored)

    def __str__(self) -> str:
        return f"{self.status}: {self.message}"


_SAFE = re.compile(r"[^A-Za-z0-9._-]")

_GAME_COLS = ("device, game_key, source_name, variant, options, players, mode, first_dealer, started, "
              "finished, result, winners, scores, hands, events, raw_sha256, raw_path, log, dropped, synced_at, "
              "damaged")
_HAND_COLS = ("game_id, number, dealer, upcard, up_suit, maker, trump, alone, lone_defender, partner_card, "
              "partner, tricks, points, maker_tricks, outcome, renege, reason, result, scores")
_JSON_HAND = ("tricks", "points", "scores")
_JSON_GAME = ("options", "players", "winners", "scores")


def safe_name(text: str) -> str:
    """``text`` as a single safe file name component (no separators, no dots first)."""
    s = _SAFE.sub("_", str(text)).lstrip(".")
    return s[:80] or "_"


class Library:
    """The SQLite game library. See the module docstring.

    :param path: the database file (default: ``default_path()``).
    :param create: make the file when it does not exist (False for read-only use).
    :raises LibraryError: the file cannot be opened, is missing (``create`` False)
        or has an unknown schema.
    """

    def __init__(self, path: str | os.PathLike | None = None, clock=time.time, create: bool = True,
                 sides: str | os.PathLike | None = None):
        # ``sides``: use that library's side files (``rebuild`` builds a
        # temporary file that becomes ``sides``, from and into its archive).
        self.path = Path(path).expanduser() if path else default_path()
        owner = Path(sides) if sides is not None else self.path
        self.raw_dir = side_path(owner, "raw")
        self.partial_dir = side_path(owner, "partial")
        self._clock = clock
        #: Why an older bower's shared ``raw/`` or ``partial/`` beside this
        #: library was left where it is (``adopt_legacy_side_files``), or None.
        self.side_note: str | None = None
        if not create and not self.path.is_file():
            # Read commands: a mistyped path must not become a new, empty library.
            raise LibraryError(f"the game library {self.path} is empty (no such file): sync a device first "
                               "(bower sync), or give the right --db")
        if sides is None:
            kind, note = adopt_legacy_side_files(self.path) or (None, None)
            if kind == "moved":
                print(f"bower: {note}", file=sys.stderr)
            elif kind == "left":
                self.side_note = note   # said by `library check`, a damaged library's error and `rebuild`
        # SQLite takes a file shorter than a page for a new, empty database
        # and writes over it: a file that is not a whole SQLite database is
        # never given to it, and one cut to nothing beside its archive is a
        # damaged library, not a new one.
        problem = _header_problem(self.path)
        if problem is None and self.path.is_file() and self.path.stat().st_size == 0 \
                and archived_logs(self.raw_dir):
            problem = "the file is empty"
        if problem:
            raise self.damaged(problem)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path), isolation_level=None)
        except (OSError, ValueError, sqlite3.Error) as e:   # ValueError: a NUL in the path
            raise LibraryError(f"cannot open the game library {self.path}: {e}{_write_hint(self.path, e)}") from e
        self.conn.row_factory = sqlite3.Row
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            foreign = _foreign_tables(self.conn)
            if foreign:
                raise LibraryError(f"{self.path} is not a Bower game library: it is another program's SQLite "
                                   f"database (tables {', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}); "
                                   "give the right --db (nothing was changed)")
            migrate(self.conn)
            self._check()
        except sqlite3.DatabaseError as e:
            self.conn.close()
            hint = _write_hint(self.path, e)
            if hint and not _damage(e):
                raise LibraryError(f"cannot use the game library {self.path}: {e}{hint}") from e
            raise self.damaged(str(e)) from e    # a schema migrations cannot read (a table too many, ...)
        except LibraryError:
            self.conn.close()
            raise

    def _check(self) -> None:
        # Every table and column read here, and sound pages (a quick check:
        # one pass over the file, no index cross-checks).
        for table, cols in SCHEMA.items():
            have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            if not have:
                raise self.damaged(f"no table {table}")
            missing = [c for c in cols if c not in have]
            if missing:
                raise self.damaged(f"table {table} lacks {', '.join(missing)}")
        problems = [r[0] for r in self.conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise self.damaged(problems[0])

    def damaged(self, why: str) -> LibraryDamaged:
        """The one-line error for this library being damaged, with the way out."""
        n = len(archived_logs(self.raw_dir))
        db = "" if self.path == default_path() else f" --db {self.path}"
        why = (why.splitlines() or ["?"])[0][:120]
        if n:
            err = LibraryDamaged(f"the game library {self.path} is damaged ({why}): run "
                                 f"`bower library rebuild{db}` to rebuild it from the {n} raw logs in {self.raw_dir}")
        elif self.side_note:
            err = LibraryDamaged(f"the game library {self.path} is damaged ({why}) and has no raw logs of its own "
                                 f"in {self.raw_dir} to rebuild it from: {self.side_note}")
        else:
            err = LibraryDamaged(f"{self.path} is not a usable game library ({why}) and no raw logs to rebuild it "
                                 f"from are beside it in {self.raw_dir}: give the right --db, or sync your "
                                 "devices into a new library")
        err.why = why
        return err

    def verify(self) -> None:
        """Check the whole library: every page (SQLite's full integrity
        check) and every game and hand row readable as this code writes them.

        :raises LibraryDamaged: what is wrong, with the way out.
        """
        try:
            problems = [r[0] for r in self.conn.execute("PRAGMA integrity_check(3)")]
            if problems != ["ok"]:
                raise self.damaged(problems[0])
            for g in self.games():
                self.hands(g["id"])
        except sqlite3.DatabaseError as e:
            raise self.damaged(str(e)) from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----- adding logs -----------------------------------------------------------

    def add_log(self, raw: bytes, device: str, name: str, key: str | None = None) -> AddResult:
        """Store one game log from ``device`` (its file there is ``name``).

        ``key``: the game id the device listed it under; a header naming
        another id is a mismatch (a device cannot file a log as another game).

        :returns: an ``AddResult`` whose ``status`` is ``"new"``, ``"duplicate"``
            (this exact log is stored: nothing written), ``"updated"`` (a longer
            version of a stored game: its rows are replaced) or ``"mismatch"``
            (the log does not replay, or conflicts with the stored copy: the raw
            log is archived under a new name and nothing else is stored).
        """
        raw = bytes(raw)
        sha = hashlib.sha256(raw).hexdigest()
        stem = safe_name(Path(name).stem if name else sha[:12])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return self._mismatch(raw, sha, device, stem, None, f"not UTF-8 text ({e.reason} at byte {e.start})")
        try:
            dec = decode(text, salvage=True)
        except elog.LogError as e:
            return self._mismatch(raw, sha, device, stem, None, f"unreadable log: {e}")
        header, records, dropped, damaged = dec.header, dec.records, dec.dropped, dec.damaged
        hkey = header.get("id")
        hkey = str(hkey) if isinstance(hkey, (str, int)) and str(hkey) else None
        if key is not None and hkey is not None and hkey != key:
            return self._mismatch(raw, sha, device or "unknown", key, None,
                                  f"the log says it is game {json.dumps(hkey)[:24]}, but the device lists it as {key}")
        key = hkey or key or stem
        hdev = header.get("device")
        device = device or (str(hdev) if hdev else "")
        if not device:
            return self._mismatch(raw, sha, "unknown", key, None, "no device id: neither given nor in the header")
        if hdev and str(hdev) != device:
            return self._mismatch(raw, sha, device, key, None,
                                  f"the header says device {hdev}, but the log came from device {device}")
        try:
            rp = replay_decoded(dec)
        except elog.LogError as e:
            return self._mismatch(raw, sha, device, key, None, f"does not replay: {e}")
        note = f" (torn last line dropped: {dropped})" if dropped else ""
        if damaged:
            note += f" (DAMAGED, stored up to the corrupt line: {damaged})"

        def result(status, gid, message, path=None):
            return AddResult(status, gid, message, path, dropped, damaged, rp)

        old = self.conn.execute("SELECT id, raw_sha256, log, events FROM games WHERE device = ? AND game_key = ?",
                                (device, key)).fetchone()
        if old is None:
            path = self._archive(device, key, raw)
            gid = self._store(None, rp, raw, sha, device, key, name, path, dec)
            return result("new", gid, f"{device}/{key}: {self._summary(rp)}{note}", path)
        gid = old["id"]
        if old["raw_sha256"] == sha:
            return result("duplicate", gid, f"{device}/{key}: already stored, unchanged{note}")
        try:
            stored = decode(old["log"])
        except elog.LogError as e:
            raise LibraryDamaged(f"the stored log of {device}/{key} is unreadable ({e})") from e
        o_header, o_records = stored.header, stored.records
        if o_header != header:
            diff = sorted(k for k in set(o_header) | set(header) if o_header.get(k) != header.get(k))
            return self._mismatch(raw, sha, device, key, gid,
                                  f"a different game with the same id (header differs in: {', '.join(diff)}); "
                                  "the stored game was kept")
        n_old, n_new = len(o_records), len(records)
        if records[:n_old] == o_records and (n_new > n_old or damaged):
            # Longer, or the same good lines of a damaged log that grew: keep its raw bytes.
            path = self._archive(device, key, raw)
            self._store(gid, rp, raw, sha, device, key, name, path, dec)
            return result("updated", gid, f"{device}/{key}: {n_new - n_old} more lines; {self._summary(rp)}{note}",
                          path)
        if records == o_records:
            return result("duplicate", gid, f"{device}/{key}: same events as stored{note}")
        if o_records[:n_new] == records:
            why = f"an older copy ({n_new} lines after the header; the stored one has {n_old})"
        else:
            at = next(i for i in range(min(n_old, n_new)) if records[i] != o_records[i])
            why = f"not an extension of the stored copy (line {at + 2} differs)"
        return self._mismatch(raw, sha, device, key, gid, why + "; the stored game was kept")

    def _summary(self, rp: Replay) -> str:
        g = rp.game
        state = "over" if g.result else f"in progress, hand {g.hand_no}"
        return f"{g.rules.title}, {len(rp.hands)} hands, {state}"

    def _mismatch(self, raw, sha, device, key, gid, why) -> AddResult:
        path = self._archive_new(device, f"{key}.mismatch-{sha[:12]}", raw)
        return AddResult("mismatch", gid, f"{device}/{key}: {why}; raw log kept as {path}", path)

    def _dir(self, device: str) -> Path:
        d = self.raw_dir / safe_name(device)
        d.mkdir(parents=True, exist_ok=True)
        return d

    def _archive(self, device: str, key: str, raw: bytes) -> Path:
        # raw/<device>/<key>.log, written atomically. An existing different file
        # is only replaced when it is an earlier version of this log (its lines
        # are a prefix of ours); otherwise ours goes under a new name.
        path = self._dir(device) / f"{safe_name(key)}.log"
        if path.exists():
            have = path.read_bytes()
            if have == raw:
                return path
            if not _is_earlier(have, raw):
                return self._archive_new(device, f"{safe_name(key)}.{hashlib.sha256(raw).hexdigest()[:12]}", raw)
        _write_atomic(path, raw)
        return path

    def _archive_new(self, device: str, stem: str, raw: bytes) -> Path:
        # A name that never replaces a different file.
        d = self._dir(device)
        stem = safe_name(stem)
        for i in range(1000):
            path = d / (f"{stem}.log" if i == 0 else f"{stem}-{i}.log")
            if not path.exists():
                _write_atomic(path, raw)
                return path
            if path.read_bytes() == raw:
                return path
        raise LibraryError(f"too many archived copies of {stem} in {d}")

    def _store(self, gid, rp: Replay, raw, sha, device, key, name, path, dec: Decoded) -> int:
        g = rp.game
        h = rp.header
        started = h.get("started")
        started = started if isinstance(started, int) and not isinstance(started, bool) and started > 0 else None
        rel = str(path.relative_to(self.raw_dir)) if path else None
        game = {
            "device": device, "game_key": key, "source_name": name, "variant": g.rules.name,
            "options": g.rules.options, "players": g.players, "mode": "cards" if g.cards else "table",
            "first_dealer": g.first_dealer, "started": started, "finished": 1 if g.result else 0,
            "result": g.result[1] if g.result else None, "winners": list(g.result[0]) if g.result else None,
            "scores": g.scores, "hands": len(rp.hands), "events": len(rp.events), "raw_sha256": sha,
            "raw_path": rel, "log": dec.text, "dropped": rp.dropped, "synced_at": int(self._clock()),
            "damaged": dec.damaged,
        }
        vals = [json.dumps(game[c]) if c in _JSON_GAME and game[c] is not None else game[c]
                for c in _GAME_COLS.split(", ")]
        c = self.conn
        with transaction(c):
            if gid is None:
                cur = c.execute(f"INSERT INTO games ({_GAME_COLS}) VALUES ({', '.join('?' * len(vals))})", vals)
                gid = int(cur.lastrowid or 0)   # set by every INSERT
            else:
                sets = ", ".join(f"{col} = ?" for col in _GAME_COLS.split(", "))
                c.execute(f"UPDATE games SET {sets} WHERE id = ?", vals + [gid])
                c.execute("DELETE FROM hands WHERE game_id = ?", (gid,))
                c.execute("DELETE FROM players WHERE game_id = ?", (gid,))
            c.executemany("INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                          [(gid, s, n) for s, n in enumerate(g.players)])
            rows = []
            for rec in rp.hands:
                r = hand_row(rec)
                r["game_id"] = gid
                rows.append([json.dumps(r[k]) if k in _JSON_HAND else r[k] for k in _HAND_COLS.split(", ")])
            c.executemany(f"INSERT INTO hands ({_HAND_COLS}) VALUES ({', '.join('?' * len(_HAND_COLS.split(', ')))})",
                          rows)
        return gid

    # ----- reading ---------------------------------------------------------------

    def games(self, variant: str | None = None) -> list[dict]:
        """Every game (newest start first), as dicts with JSON columns decoded."""
        sql = "SELECT * FROM games"
        args: tuple = ()
        if variant:
            sql += " WHERE variant = ?"
            args = (variant,)
        sql += " ORDER BY COALESCE(started, 0) DESC, id DESC"
        return [self._game(r) for r in self.conn.execute(sql, args)]

    def game(self, gid: int) -> dict | None:
        """The game with DB id ``gid``, or None."""
        r = self.conn.execute("SELECT * FROM games WHERE id = ?", (gid,)).fetchone()
        return self._game(r) if r else None

    def find(self, ref: str) -> list[dict]:
        """Games matching ``ref``: a DB id, ``device/game id``, or a game id alone."""
        ref = str(ref).strip()
        if "/" in ref:
            dev, key = ref.split("/", 1)
            rows = self.conn.execute("SELECT * FROM games WHERE device = ? AND game_key = ?", (dev, key))
            return [self._game(r) for r in rows]
        out = []
        if ref.isascii() and ref.isdigit() and len(ref) < 19:     # an SQLite integer
            g = self.game(int(ref))
            if g:
                return [g]
        rows = self.conn.execute("SELECT * FROM games WHERE game_key = ? ORDER BY id", (ref,))
        out += [self._game(r) for r in rows]
        return out

    def hands(self, gid: int) -> list[dict]:
        """The finished hands of a game, in order.

        :raises LibraryDamaged: a row that this code could not have written.
        """
        g = self.conn.execute("SELECT players FROM games WHERE id = ?", (gid,)).fetchone()
        try:
            n = len(json.loads(g[0])) if g else 0
        except (TypeError, ValueError):
            n = 0
        rows = self.conn.execute("SELECT * FROM hands WHERE game_id = ? ORDER BY number", (gid,))
        out = []
        for r in rows:
            d = dict(r)
            try:
                for k in _JSON_HAND:
                    d[k] = json.loads(d[k])
                bad = _hand_problem(d, n)
            except (TypeError, ValueError):
                bad = "not JSON"
            if bad:
                raise self.damaged(f"hand {d.get('number')!r} of game {gid} is unreadable: {bad}")
            out.append(d)
        return out

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def _game(self, r: sqlite3.Row) -> dict:
        """A games row as a dict, JSON decoded and checked.

        :raises LibraryDamaged: a row that this code could not have written.
        """
        d = dict(r)
        try:
            for k in _JSON_GAME:
                if d[k] is not None:
                    d[k] = json.loads(d[k])
        except (TypeError, ValueError):
            raise self.damaged(f"game {d.get('id')!r} is unreadable: not JSON") from None
        # Values an older bower stored unchecked must not break reading:
        # a start time no calendar can show is unknown; names are text.
        t = d.get("started")
        if type(t) is not int or not 0 < t < MAX_STARTED:
            d["started"] = None
        if isinstance(d["players"], list):
            d["players"] = [n if isinstance(n, str) else json.dumps(n) for n in d["players"]]
        bad = _game_problem(d)
        if bad:
            raise self.damaged(f"game {d.get('id')!r} is unreadable: {bad}")
        return d


def _ints(x, n=None) -> bool:
    return isinstance(x, list) and all(type(v) is int for v in x) and (n is None or len(x) == n)


def _seat_or_none(x, n) -> bool:
    return x is None or type(x) is int and 0 <= x < n


def _text_or_none(x) -> bool:
    return x is None or type(x) is str


def _game_problem(d: dict) -> str | None:
    # What is wrong with a decoded games row, or None (every value as
    # ``_store`` writes it; the log text as archived).
    p = d["players"]
    if not (isinstance(p, list) and p and all(isinstance(x, str) for x in p)):
        return "players"
    n = len(p)
    checks = (
        ("id", type(d["id"]) is int), ("device", type(d["device"]) is str), ("game_key", type(d["game_key"]) is str),
        ("variant", type(d["variant"]) is str), ("options", isinstance(d["options"], dict)),
        ("mode", d["mode"] in ("table", "cards")),
        ("first_dealer", type(d["first_dealer"]) is int and 0 <= d["first_dealer"] < n),
        ("finished", d["finished"] in (0, 1)), ("result", d["result"] in (None, "win", "shared", "draw")),
        ("winners", d["winners"] is None or _ints(d["winners"]) and all(0 <= s < n for s in d["winners"])),
        ("scores", _ints(d["scores"], n)), ("hands", type(d["hands"]) is int), ("events", type(d["events"]) is int),
        ("log", type(d["log"]) is str), ("dropped", _text_or_none(d["dropped"])),
        ("damaged", _text_or_none(d.get("damaged"))), ("raw_sha256", type(d["raw_sha256"]) is str),
    )
    for name, ok in checks:
        if not ok:
            return name
    try:
        from euchre import Rules
        if Rules(d["variant"], d["options"]).num_players != n:
            return "players"
    except (ValueError, TypeError, KeyError):
        return "variant or options"
    if d.get("damaged") is None:
        if hashlib.sha256(d["log"].encode("utf-8", "surrogatepass")).hexdigest() != d["raw_sha256"]:
            return "log (its checksum differs)"
    else:
        try:
            decode(d["log"])
        except elog.LogError:
            return "log"
    return None


def _hand_problem(h: dict, n: int) -> str | None:
    # What is wrong with a decoded hands row of a game of ``n`` players.
    checks = (
        ("number", type(h["number"]) is int), ("dealer", type(h["dealer"]) is int and 0 <= h["dealer"] < n),
        ("maker", _seat_or_none(h["maker"], n)), ("lone_defender", _seat_or_none(h["lone_defender"], n)),
        ("partner", _seat_or_none(h["partner"], n)), ("renege", _seat_or_none(h["renege"], n)),
        ("alone", h["alone"] in (0, 1, 2)),
        ("tricks", _ints(h["tricks"], n)), ("points", _ints(h["points"], n)), ("scores", _ints(h["scores"], n)),
        ("maker_tricks", h["maker_tricks"] is None or type(h["maker_tricks"]) is int),
        ("cards", all(_text_or_none(h[k]) for k in ("upcard", "up_suit", "trump", "partner_card", "outcome"))),
        ("reason", type(h["reason"]) is str), ("result", h["result"] in RESULT_NAMES.values()),
    )
    for name, ok in checks:
        if not ok:
            return name
    return None


def _damage(e: sqlite3.Error) -> bool:
    # Does this SQLite error mean a damaged file (rather than, say, a
    # read-only directory or a lock)?
    text = str(e).lower()
    return any(w in text for w in ("malformed", "not a database", "no such table", "no such column", "corrupt"))


def _write_hint(path: Path, e: Exception) -> str:
    text = str(e).lower()
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return f" (can this user write to {path.parent}?)"
    if "locked" in text or "busy" in text:
        return " (another bower is using it: try again when it is done)"
    return ""


def _is_earlier(have: bytes, new: bytes) -> bool:
    # Is the archived log ``have`` an earlier version of ``new``: its bytes,
    # or its good lines, a prefix of new's?
    if new.startswith(have):
        return True
    try:
        h = decode(have.decode("utf-8"))
        n = decode(new.decode("utf-8"))
    except (UnicodeDecodeError, elog.LogError):
        return False
    return h.header == n.header and n.records[:len(h.records)] == h.records


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# ----- each library's side files, and an older bower's shared ones -----------------
#
# A library ``club.sqlite3`` keeps, beside its file and named after it:
# ``club.sqlite3.raw/`` (the raw logs: ``<device>/<id>.log``),
# ``club.sqlite3.partial/`` (unfinished downloads: ``<device>/<id>.part``)
# and ``club.sqlite3.lock`` (the writer lock). Nothing a library does reads
# or changes another's, so several libraries can share a directory.
# Bowers before this kept ``raw/`` and ``partial/`` in the library's
# directory, shared by every library there: ``adopt_legacy_side_files``
# gives them to the library they belong to when that is certain.

#: The side files an older bower kept in the library's directory, shared.
LEGACY_SIDES = ("raw", "partial")
#: What those directories hold: ``<device>/<file>`` with these endings only.
_LEGACY_FILES = {"raw": (".log", ".log.tmp"), "partial": (".part",)}
_SQLITE_MAGIC = b"SQLite format 3\x00"
#: Every table a Bower library may have (``SCHEMA`` and the club night tables).
BOWER_TABLES = frozenset(SCHEMA) | frozenset(("club_nights", "club_players", "club_results", "club_corrections"))


def side_path(path: str | os.PathLike, what: str) -> Path:
    """The library ``path``'s side file ``what`` (``"raw"``, ``"partial"``,
    ``"lock"``): ``<file>.<what>`` beside it."""
    path = Path(path)
    return path.with_name(f"{path.name}.{what}")


def _foreign_tables(conn: sqlite3.Connection) -> list[str]:
    # The tables of another program's database: it has tables, and none of
    # Bower's (a library with every table dropped has none at all).
    have = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(r[0]).startswith("sqlite_")]
    return [] if not have or BOWER_TABLES & set(have) else sorted(have)


def _header_problem(path: Path) -> str | None:
    # Why the existing file ``path`` is not a whole SQLite database, or None
    # (an empty or missing file is None too: SQLite makes a new one there).
    try:
        with open(path, "rb") as f:
            head = f.read(100)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return None             # missing, or a directory: SQLite says why
    if not head:
        return None
    if head[:16] != _SQLITE_MAGIC:
        return "not an SQLite database"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if len(head) < 100 or page < 512 or page & (page - 1) or size < page:
        return f"cut short: {size} bytes, less than a whole page"
    return None


def _sqlite_file(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == _SQLITE_MAGIC
    except OSError:
        return False


def _library_file(path: Path) -> bool:
    """Is ``path`` (maybe) a Bower library: an SQLite file with one of
    Bower's tables, or one too damaged to tell. Read only."""
    if not path.is_file() or not _sqlite_file(path):
        return False
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (sqlite3.Error, ValueError, OSError):
        return True
    try:
        return not _foreign_tables(conn) and bool(
            conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'").fetchone())
    except sqlite3.Error:
        return True
    finally:
        conn.close()


def _legacy_files(kind: str, d: Path) -> list[Path] | None:
    """The files of an older bower's ``raw/`` or ``partial/`` directory
    ``d``, or None when it holds anything else (then it is not bower's)."""
    out = []
    try:
        for sub in d.iterdir():
            if sub.is_symlink() or not sub.is_dir():
                return None
            for f in sub.iterdir():
                if f.is_symlink() or not f.is_file() or not f.name.endswith(_LEGACY_FILES[kind]):
                    return None
                out.append(f)
    except OSError:
        return None
    return out


def _raw_paths(path: Path) -> dict[str, str] | None:
    # ``{archive path: SHA-256}`` of the library's games, or None if it
    # cannot be read. Only paths bower writes (``<device>/<file>.log``).
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (sqlite3.Error, ValueError, OSError):
        return None
    try:
        rows = conn.execute("SELECT raw_path, raw_sha256 FROM games WHERE raw_path IS NOT NULL").fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    out = {}
    for rel, sha in rows:
        parts = Path(str(rel)).parts
        if len(parts) == 2 and all(x == safe_name(x) for x in parts) and parts[1].endswith(".log"):
            out[str(rel)] = str(sha)
    return out


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def adopt_legacy_side_files(path: Path, missing_ok: bool = False) -> tuple[str, str] | None:
    """Give the library ``path`` what is its own of an older bower's shared
    ``raw/`` and ``partial/`` in its directory (host/EXPORTS.md, "The
    library's files"). Only a Bower library takes them (an SQLite file with
    Bower's tables, or one too damaged to tell; a missing file only for
    ``rebuild``: ``missing_ok``), and only directories that hold nothing but
    what bower writes there (``<device>/<id>.log``, ``<device>/<id>.part``).

    * The only library in the directory, without side files of its own:
      ``raw/`` and ``partial/`` are renamed to ``<file>.raw/`` and
      ``<file>.partial/`` (when it can be read, ``raw/`` must hold a log of
      one of its games).
    * Otherwise (another library there: another SQLite file with Bower's
      tables or too damaged to tell, the library's own ``.damaged-`` copies
      aside; or it has its own already): the logs its games name are
      copied into ``<file>.raw/``, each only if its SHA-256 is the one the
      game was stored with, so another library's log of the same device
      and id is never taken. ``raw/`` and ``partial/`` stay for the others.
      A library that cannot be read cannot say which logs are its own:
      nothing is taken, and the line says so (unless it has its own
      ``<file>.raw/``: it was opened before, and its logs copied then).

    :returns: ``("moved", line)`` when something was renamed or copied,
        ``("left", line)`` when this library's logs may be in ``raw/`` but
        were left there (why, and what to do), or None: nothing to do.
    """
    d = path.parent
    found = {k: d / k for k in LEGACY_SIDES
             if (d / k).is_dir() and not (d / k).is_symlink() and _legacy_files(k, d / k)}
    if not found:
        return None
    exists = os.path.lexists(path)
    if exists and not _library_file(path) or not exists and not missing_ok:
        return None             # a new file, an empty one or another program's: never
    refs = _raw_paths(path) if exists else None
    own = side_path(path, "raw")
    others = sorted(f.name for f in _dir_files(d) if f != path
                    and not f.name.startswith((path.name + ".", path.name + "-")) and _library_file(f))
    todo = [k for k in found if not os.path.lexists(side_path(path, k))]
    if not others and todo == list(found):
        if "raw" in found and refs is not None and not any((found["raw"] / r).is_file() for r in refs):
            return None         # none of its games' logs: an older bower's archive of another library
        moved = []
        for k, src in found.items():
            try:
                os.rename(src, side_path(path, k))
            except OSError as e:
                return "left", (f"cannot move {src}/ to {side_path(path, k).name}/ "
                                f"({getattr(e, 'strerror', None) or e}): left as it is")
            moved.append(f"{src.name}/ to {side_path(path, k).name}/")
        return "moved", (f"moved an older bower's {' and '.join(moved)} in {d}: each library now keeps its own "
                         "side files, named after it")
    if "raw" not in found:
        return None             # unfinished downloads only: fetched again from the start if need be
    shared = f"{found['raw']}/, an older bower's archive shared by " + (
        f"the libraries in {d} ({path.name}, {', '.join(others[:3])}{', ...' if len(others) > 3 else ''})"
        if others else f"the libraries that were in {d}")
    if refs is None:
        if own.is_dir():
            return None         # opened before, readable: its logs were copied then (below)
        return "left", (f"{shared}, may hold this library's raw logs, but it cannot be read to tell which: "
                        f"they were left there; move them into {own.name}/ by hand (host/EXPORTS.md, "
                        "\"The library's files\")")
    copied = 0
    for rel, sha in sorted(refs.items()):
        src, dst = found["raw"] / rel, own / rel
        if os.path.lexists(dst) or not src.is_file() or _sha256(src) != sha:
            continue
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(dst, src.read_bytes())
        except OSError as e:
            return "left", (f"cannot copy {path.name}'s raw logs to {own.name}/ "
                            f"({getattr(e, 'strerror', None) or e}) from {shared}: left there")
        copied += 1
    if not copied:
        return None
    return "moved", (f"copied {copied} raw log(s) of {path.name}'s games to {own.name}/ (each checked by its "
                     f"SHA-256) from {shared}; the rest stays there")


def _dir_files(d: Path) -> list[Path]:
    try:
        return [f for f in d.iterdir() if f.is_file()]
    except OSError:
        return []


# ----- one writer at a time, and rebuilding from the raw archive ------------------

@contextmanager
def writer_lock(path: str | os.PathLike | None, what: str) -> Iterator[Path]:
    """Hold the library's writer lock (``<db file>.lock``, an OS file lock
    that dies with its process) while ``what`` (``"bower sync"``) writes.

    :raises LibraryError: another bower holds it, or the directory cannot
        be written to.
    """
    path = Path(path).expanduser() if path else default_path()
    lock = side_path(path, "lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except (OSError, ValueError) as e:    # ValueError: a NUL in the path
        raise LibraryError(f"cannot write to {lock.parent} ({getattr(e, 'strerror', None) or e}): give --db a "
                           "file in a directory you can write to") from None
    try:
        if not _try_lock(fd):
            try:
                os.lseek(fd, 0, os.SEEK_SET)
                other = os.read(fd, 200).decode("utf-8", "replace").strip() or "another bower"
            except OSError:
                other = "another bower"
            raise LibraryError(f"the game library {path} is in use by {other}: wait for it to finish, "
                               "then try again")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{what} (process {os.getpid()})\n".encode())
        yield lock
    finally:
        os.close(fd)        # releases the lock


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def archived_logs(raw_dir: Path) -> list[Path]:
    """The archive's logs that were stored (``<id>.log``, then other
    versions ``<id>.<sha>.log``), not the refused ``.mismatch-`` ones."""
    try:
        if not raw_dir.is_dir():
            return []
        logs = [p for p in raw_dir.glob("*/*.log") if ".mismatch-" not in p.name and p.is_file()]
    except OSError:
        return []
    return sorted(logs, key=lambda p: (p.parent.name, p.name.count("."), p.name))


def rebuild(path: str | os.PathLike | None = None, clock=time.time) -> tuple[Path, Path | None, dict]:
    """Make the damaged (or missing) library at ``path`` anew from its own
    raw logs (``<file>.raw/``).

    The new library is built beside the old file, which is then kept as
    ``<name>.damaged-<time>`` (never deleted) and replaced. A sound library
    (``Library.verify``), another program's file, a library of a newer
    bower and a file that is not a library and has no raw logs of its own
    are refused, untouched.

    :returns: ``(path, where the old file was kept or None, {status: count})``.
    :raises LibraryError: refused (why, in one line), no raw logs, or the
        directory cannot be written.
    """
    path = Path(path).expanduser() if path else default_path()
    logs = rebuild_check(path)
    tmp = path.with_name(path.name + ".rebuild")
    counts: dict = {}
    try:
        for p in (tmp, tmp.with_name(tmp.name + "-journal")):
            p.unlink(missing_ok=True)
        with Library(tmp, clock=clock, sides=path) as lib:
            # One fsync of the finished file below instead of one per game.
            lib.conn.execute("PRAGMA synchronous = OFF")
            for f in logs:
                r = lib.add_log(f.read_bytes(), f.parent.name, f.name)
                counts[r.status] = counts.get(r.status, 0) + 1
                if r.damaged and r.status != "duplicate":
                    counts["damaged"] = counts.get("damaged", 0) + 1
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        kept = None
        if path.exists():
            kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S', time.localtime(clock()))}")
            os.replace(path, kept)
            for ext in ("-journal", "-wal", "-shm"):
                side = path.with_name(path.name + ext)
                if side.exists():
                    os.replace(side, kept.with_name(kept.name + ext))
        os.replace(tmp, path)
    except (OSError, sqlite3.Error) as e:
        raise LibraryError(f"cannot rebuild the game library {path}: {e}{_write_hint(path, e)}") from None
    return path, kept, counts


def rebuild_check(path: str | os.PathLike | None = None) -> list[Path]:
    """Refuse what ``rebuild`` must not replace (see there), before anything
    is written, even a lock file.

    :returns: the raw logs to rebuild from (``<file>.raw/``).
    :raises LibraryError: why not, in one line.
    """
    path = Path(path).expanduser() if path else default_path()
    adopted = adopt_legacy_side_files(path, missing_ok=True)
    if adopted and adopted[0] == "moved":
        print(f"bower: {adopted[1]}", file=sys.stderr)
    if adopted and adopted[0] == "left":
        # Its logs may be there: a library rebuilt without them would lack games.
        raise LibraryError(f"cannot rebuild {path} from its own raw logs alone: {adopted[1]}")
    raw_dir = side_path(path, "raw")
    logs = archived_logs(raw_dir)
    if os.path.lexists(path):
        _refuse_unless_damaged(path, raw_dir, bool(logs))
    if not logs:
        raise LibraryError(f"no raw logs in {raw_dir} to rebuild the game library {path} from")
    return logs


def _refuse_unless_damaged(path: Path, raw_dir: Path, has_logs: bool) -> None:
    # ``rebuild`` replaces only a damaged library: raise LibraryError for
    # anything else, which stays as it is.
    if not path.is_file():
        raise LibraryError(f"{path} is not a file: give --db the game library to rebuild (nothing was changed)")
    if path.stat().st_size == 0 and not has_logs:
        # Opening it would make it an empty library.
        raise LibraryError(f"{path} is an empty file, not a Bower game library, and there are no raw logs in "
                           f"{raw_dir} to rebuild one from: nothing was changed")
    try:
        with Library(path, create=False) as lib:
            lib.verify()
            n = lib.count()
    except LibraryDamaged as e:
        if has_logs:
            return
        if _sqlite_file(path):
            raise LibraryError(f"the game library {path} is damaged, and there are no raw logs in {raw_dir} to "
                               "rebuild it from: nothing was changed") from None
        raise LibraryError(f"{path} is not a Bower game library ({e.why}), and "
                           f"there are no raw logs in {raw_dir} to rebuild one from: nothing was changed") from None
    raise LibraryError(f"the game library {path} is sound ({n} game(s); `bower library check` finds nothing "
                       "wrong): rebuild remakes only a damaged library, so nothing was changed")


# ----- club nights (bower_host.club; host/CLUB.md) ---------------------------------
#
# Tables of their own, made on first use by ``ensure_club_tables`` (CREATE
# ... IF NOT EXISTS; outside MIGRATIONS and SCHEMA: a library without them
# is not damaged, and nothing above reads them). A round's game is in
# ``games`` like any other; ``club_results`` names it by device and game id
# (``game_id`` is only a shortcut: ``rebuild`` renumbers games; ``bower
# library rebuild`` then carries these tables over from the old file and
# points each result at its game again: ``club.night.carry_over``).

CLUB_TABLES = [
    """CREATE TABLE IF NOT EXISTS club_nights (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,       -- the night's id in round headers
        name TEXT NOT NULL,
        created INTEGER NOT NULL,       -- Unix time
        tables INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        movement TEXT NOT NULL,         -- "progressive", "fixed" or "partners"
        hands INTEGER,                  -- hands per round, or NULL ...
        minutes INTEGER,                -- ... minutes per round
        scoring TEXT NOT NULL,          -- JSON: {"loner", "set_loner", "renege"}
        seed INTEGER                    -- the round 1 draw's seed, if drawn
    )""",
    """CREATE TABLE IF NOT EXISTS club_players (
        night_id INTEGER NOT NULL REFERENCES club_nights(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,        -- 1-based, in the order given
        name TEXT NOT NULL,
        position INTEGER NOT NULL,      -- place in the round 1 draw (0-based)
        PRIMARY KEY (night_id, number),
        UNIQUE (night_id, name),
        UNIQUE (night_id, position)
    )""",
    """CREATE TABLE IF NOT EXISTS club_results (
        night_id INTEGER NOT NULL REFERENCES club_nights(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        device TEXT NOT NULL,           -- the round's game: device ...
        game_key TEXT NOT NULL,         -- ... and game id
        game_id INTEGER,                -- games.id when attached
        result TEXT NOT NULL,           -- JSON: RoundResult.to_json()
        complete INTEGER NOT NULL,
        source TEXT NOT NULL,           -- "file" or "sync" (what attached it last)
        attached_at INTEGER NOT NULL,
        PRIMARY KEY (night_id, round, table_no)
    )""",
    """CREATE TABLE IF NOT EXISTS club_corrections (
        id INTEGER PRIMARY KEY,
        night_id INTEGER NOT NULL REFERENCES club_nights(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,             -- "replaced" (another game), "changed" (the same game's log),
                                        -- "device correction", "acceptance undone" (undo after accept)
        old_game TEXT NOT NULL,         -- device/game id
        new_game TEXT NOT NULL,
        old_result TEXT NOT NULL,       -- JSON
        new_result TEXT NOT NULL        -- JSON
    )""",
]


def ensure_club_tables(conn: sqlite3.Connection) -> None:
    """Make the club night tables if the library lacks them."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if all(sql.split()[5] in have for sql in CLUB_TABLES):
        return
    with transaction(conn):
        for sql in CLUB_TABLES:
            conn.execute(sql)
