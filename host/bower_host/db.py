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
``raw/<device>/<id>.log`` next to the database; a log that does not replay,
or that conflicts with the stored copy of its game, is archived under a name
that never replaces anything (``<id>.mismatch-<sha>.log``) and nothing else
is stored. A good archived log is only ever replaced by a longer version of
itself.

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
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from euchre import IllegalAction
from euchre import log as elog
from euchre.cards import SUITS, card_name
from euchre.game import game_from_header
from euchre.hand import REDEAL, SCORED, THROWN_IN
from euchre.logfile import split_lines

DB_NAME = "bower.sqlite3"
ENV_DB = "BOWER_DB"

RESULT_NAMES = {SCORED: "scored", THROWN_IN: "thrown-in", REDEAL: "redeal"}


class LibraryError(Exception):
    """The library cannot be opened or used (bad path, unknown schema version)."""


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

# MIGRATIONS[i] takes the schema from version i to i + 1: a list of SQL
# statements, or a callable taking the connection. Append, never edit.
MIGRATIONS: list = [_V1]


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
    if found > known:
        raise LibraryError(
            f"the game library has schema version {found}, newer than this bower knows "
            f"({known}): upgrade bower to use it (the file was left untouched)")
    for v in range(found, known):
        step = MIGRATIONS[v]
        with _transaction(conn):
            if callable(step):
                step(conn)
            else:
                for sql in step:
                    conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {v + 1}")
    return found


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
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


def decode(text: str) -> Decoded:
    """Decode a log's text (``euchre.log`` format).

    :raises euchre.log.LogError: unreadable log (names the line).
    """
    lines = list(split_lines(text))
    header, evs, dropped = elog.read_lines(lines)
    good = len(lines) - (1 if dropped else 0)
    records = [elog.decode_line(lines[i], i + 1) for i in range(1, good)]
    return Decoded(header, records, [e for _, e in evs], [n for n, _ in evs], dropped)


def replay(text: str) -> Replay:
    """Decode and replay a log, capturing each hand as it finishes.

    :raises euchre.log.LogError: unreadable log or an event the rules refuse.
    """
    return replay_decoded(decode(text))


def replay_decoded(d: Decoded) -> Replay:
    """Replay a decoded log (see ``replay``)."""
    try:
        game = game_from_header(d.header)
    except ValueError as e:
        raise elog.LogError(f"line 1: {e}")
    out = Replay(d.header, d.records, d.events, game, dropped=d.dropped)
    current: list = []
    for ev, lineno in zip(d.events, d.linenos):
        number = game.hand_no
        phase = game.hand.phase
        try:
            game.apply(ev)
        except (IllegalAction, ValueError) as e:
            raise elog.LogError(f"line {lineno} ({ev}): {e}")
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
    outcome = None
    if scored:
        if h.renege >= 0:
            outcome = "renege"
        elif maker_tricks >= r.tricks_to_make:
            outcome = "march" if maker_tricks == r.hand_size else "made"
        else:
            outcome = "euchred"
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

    def __str__(self) -> str:
        return f"{self.status}: {self.message}"


_SAFE = re.compile(r"[^A-Za-z0-9._-]")

_GAME_COLS = ("device, game_key, source_name, variant, options, players, mode, first_dealer, started, "
              "finished, result, winners, scores, hands, events, raw_sha256, raw_path, log, dropped, synced_at")
_HAND_COLS = ("game_id, number, dealer, upcard, up_suit, maker, trump, alone, lone_defender, partner_card, "
              "partner, tricks, points, maker_tricks, outcome, reason, result, scores")
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

    def __init__(self, path: str | os.PathLike | None = None, clock=time.time, create: bool = True):
        self.path = Path(path).expanduser() if path else default_path()
        self.raw_dir = self.path.parent / "raw"
        self._clock = clock
        if not create and not self.path.is_file():
            # Read commands: a mistyped path must not become a new, empty library.
            raise LibraryError(f"the game library {self.path} is empty (no such file): sync a device first "
                               "(bower sync), or give the right --db")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path), isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise LibraryError(f"cannot open the game library {self.path}: {e}")
        self.conn.row_factory = sqlite3.Row
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            migrate(self.conn)
        except sqlite3.DatabaseError as e:
            self.conn.close()
            raise LibraryError(f"{self.path} is not a usable game library: {e}")
        except LibraryError:
            self.conn.close()
            raise

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----- adding logs -----------------------------------------------------------

    def add_log(self, raw: bytes, device: str, name: str) -> AddResult:
        """Store one game log from ``device`` (its file there is ``name``).

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
            dec = decode(text)
        except elog.LogError as e:
            return self._mismatch(raw, sha, device, stem, None, f"unreadable log: {e}")
        header, records, dropped = dec.header, dec.records, dec.dropped
        key = header.get("id")
        key = str(key) if isinstance(key, (str, int)) and str(key) else stem
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

        old = self.conn.execute("SELECT id, raw_sha256, log, events FROM games WHERE device = ? AND game_key = ?",
                                (device, key)).fetchone()
        if old is None:
            path = self._archive(device, key, raw)
            gid = self._store(None, rp, raw, sha, device, key, name, path)
            return AddResult("new", gid, f"{device}/{key}: {self._summary(rp)}{note}", path, dropped)
        gid = old["id"]
        if old["raw_sha256"] == sha:
            return AddResult("duplicate", gid, f"{device}/{key}: already stored, unchanged", None, dropped)
        stored = decode(old["log"])
        o_header, o_records = stored.header, stored.records
        if o_header != header:
            diff = sorted(k for k in set(o_header) | set(header) if o_header.get(k) != header.get(k))
            return self._mismatch(raw, sha, device, key, gid,
                                  f"a different game with the same id (header differs in: {', '.join(diff)}); "
                                  "the stored game was kept")
        n_old, n_new = len(o_records), len(records)
        if records[:n_old] == o_records and n_new > n_old:
            path = self._archive(device, key, raw)
            self._store(gid, rp, raw, sha, device, key, name, path)
            return AddResult("updated", gid, f"{device}/{key}: {n_new - n_old} more lines; {self._summary(rp)}{note}",
                             path, dropped)
        if records == o_records:
            return AddResult("duplicate", gid, f"{device}/{key}: same events as stored{note}", None, dropped)
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

    def _store(self, gid, rp: Replay, raw, sha, device, key, name, path) -> int:
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
            "raw_path": rel, "log": raw.decode("utf-8"), "dropped": rp.dropped, "synced_at": int(self._clock()),
        }
        vals = [json.dumps(game[c]) if c in _JSON_GAME and game[c] is not None else game[c]
                for c in _GAME_COLS.split(", ")]
        c = self.conn
        with _transaction(c):
            if gid is None:
                cur = c.execute(f"INSERT INTO games ({_GAME_COLS}) VALUES ({', '.join('?' * len(vals))})", vals)
                gid = cur.lastrowid
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
            c.executemany(f"INSERT INTO hands ({_HAND_COLS}) VALUES ({', '.join('?' * 18)})", rows)
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
        if ref.isdigit():
            g = self.game(int(ref))
            if g:
                return [g]
        rows = self.conn.execute("SELECT * FROM games WHERE game_key = ? ORDER BY id", (ref,))
        out += [self._game(r) for r in rows]
        return out

    def hands(self, gid: int) -> list[dict]:
        """The finished hands of a game, in order."""
        rows = self.conn.execute("SELECT * FROM hands WHERE game_id = ? ORDER BY number", (gid,))
        out = []
        for r in rows:
            d = dict(r)
            for k in _JSON_HAND:
                d[k] = json.loads(d[k])
            out.append(d)
        return out

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def _game(self, r: sqlite3.Row) -> dict:
        d = dict(r)
        for k in _JSON_GAME:
            if d[k] is not None:
                d[k] = json.loads(d[k])
        return d


def _is_earlier(have: bytes, new: bytes) -> bool:
    # Is the archived log ``have`` an earlier version of ``new``: are its good
    # lines a prefix of new's good lines?
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
