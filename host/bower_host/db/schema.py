"""The library's schema: versioned with ``PRAGMA user_version``.

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1`` (a list
of SQL statements, or a callable taking the connection), one transaction
each; append, never edit. A database newer than this code knows is refused.
``SCHEMA`` lists every table and column this code reads: a library lacking
one is damaged.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Iterator

from bower_host.club import schema as club_schema
from bower_host.db.errors import LibraryError

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


def _v5(conn: sqlite3.Connection) -> None:
    # Version 5: each hand's outcome as the engine's code (``outcome_code``,
    # one of euchre.hand.OUTCOMES: "lone_march", "all_passed", ...), beside
    # ``outcome``'s four words and ``reason``'s sentence, which are for
    # people. Hands stored before it get it from their game's stored log,
    # replayed once, here (the event log is the source of truth: the words
    # are never read back). A log that no longer replays leaves its hands'
    # code NULL; ``bower show`` then writes their stored words.
    from euchre.log import LogError

    from bower_host.db.logs import replay
    conn.execute("ALTER TABLE hands ADD COLUMN outcome_code TEXT")
    for gid, text in conn.execute("SELECT id, log FROM games").fetchall():
        try:
            hands = replay(str(text)).hands
        except LogError:
            continue
        for rec in hands:
            conn.execute("UPDATE hands SET outcome_code = ? WHERE game_id = ? AND number = ?",
                         (rec.hand.outcome, gid, rec.number))


# MIGRATIONS[i] takes the schema from version i to i + 1: a list of SQL
# statements, or a callable taking the connection. Append, never edit.
# Version 6: a hand amended on the device (euchre.amend) keeps the hand as
# first entered (JSON: outcome, reason, points, result), and a hand played
# after the end an amendment moved earlier does not count. Every hand
# stored before was neither.
_V6 = ["ALTER TABLE hands ADD COLUMN amended TEXT", "ALTER TABLE hands ADD COLUMN counted INTEGER NOT NULL DEFAULT 1"]
# Versions 4 and 7 are the club nights' tables: bower_host.club.schema.
MIGRATIONS: list = [_V1, _V2, _v3, club_schema.V4, _v5, _V6, club_schema.V7]

#: Every table and column this code reads; a library lacking one is damaged.
SCHEMA = {
    "games": ("id", "device", "game_key", "source_name", "variant", "options", "players", "mode", "first_dealer",
              "started", "finished", "result", "winners", "scores", "hands", "events", "raw_sha256", "raw_path",
              "log", "dropped", "synced_at", "damaged"),
    "hands": ("game_id", "number", "dealer", "upcard", "up_suit", "maker", "trump", "alone", "lone_defender",
              "partner_card", "partner", "tricks", "points", "maker_tricks", "outcome", "reason", "result",
              "scores", "renege", "outcome_code", "amended", "counted"),
    "players": ("game_id", "seat", "name"),
    **club_schema.COLUMNS,
}

#: Every table a Bower library may have (another program's SQLite file has none of them).
BOWER_TABLES = frozenset(SCHEMA)


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
