"""The league database's schema, the same on SQLite and PostgreSQL.

``MIGRATIONS[i]`` takes a league from version ``i`` to ``i + 1``: schema
statements (``{id}``: the engine's identity column, ``sqldb.Db.ddl``), run in
one transaction; append, never edit. The version is the row ``schema`` of
``league_meta``. A database with other tables (a game library given by
mistake) is refused, never written; so is one from a newer bower.

What is stored is per-night summaries (``night_players``: a player's points
and counts on one night) and, kept up to date at each push, each player's
totals per season (``season_players``): standings read those, never the logs.
"""

from __future__ import annotations

from bower_host.league.sqldb import Db, DbError

_V1 = [
    """CREATE TABLE league_meta (
        key TEXT PRIMARY KEY,               -- "schema", "name", "created"
        value TEXT NOT NULL
    )""",
    """CREATE TABLE clubs (
        id {id},
        name TEXT {bytes} NOT NULL UNIQUE,
        token TEXT NOT NULL UNIQUE,         -- SHA-256 (hex) of the club's push token
        added BIGINT NOT NULL               -- Unix time
    )""",
    # A club's player (not ``players``: the game library's name for a game's seats).
    """CREATE TABLE members (
        id {id},
        club_id BIGINT NOT NULL REFERENCES clubs(id),
        name TEXT {bytes} NOT NULL,         -- the name shown (a rename changes it)
        UNIQUE (club_id, name)
    )""",
    # Every name a club's nights call a player by: the same name is the same
    # player; a rename or merge adds or moves names here (identity_log).
    """CREATE TABLE player_names (
        club_id BIGINT NOT NULL REFERENCES clubs(id),
        name TEXT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES members(id),
        PRIMARY KEY (club_id, name)
    )""",
    """CREATE TABLE nights (
        id {id},
        club_id BIGINT NOT NULL REFERENCES clubs(id),
        key TEXT NOT NULL,                  -- the night's id in the club's library
        name TEXT NOT NULL,
        played BIGINT NOT NULL,             -- Unix time the night was made
        tables INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        digest TEXT NOT NULL,               -- SHA-256 of the night's summary as pushed
        version INTEGER NOT NULL,           -- 1, then +1 each time the club amends it
        pushed_at BIGINT NOT NULL,
        UNIQUE (club_id, key)
    )""",
    """CREATE TABLE night_players (
        night_id BIGINT NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
        player_id BIGINT NOT NULL REFERENCES members(id),
        place INTEGER NOT NULL,             -- on the night (shared by equals)
        points INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        won INTEGER NOT NULL,
        loners INTEGER NOT NULL,
        euchres INTEGER NOT NULL,
        PRIMARY KEY (night_id, player_id)
    )""",
    "CREATE INDEX night_players_by_player ON night_players (player_id)",
    """CREATE TABLE seasons (
        id {id},
        name TEXT NOT NULL UNIQUE,
        club_id BIGINT REFERENCES clubs(id), -- NULL: every club of the league
        starts BIGINT NOT NULL,             -- Unix time, inclusive
        ends BIGINT NOT NULL,               -- Unix time, exclusive
        rule TEXT NOT NULL,                 -- "total", "average", "best" or "places" (standings.RULES)
        best INTEGER,                       -- rule "best": how many nights count
        min_nights INTEGER NOT NULL         -- fewer nights played: listed, not placed
    )""",
    # Each player's season so far, rewritten for the players of each night pushed;
    # with the names and whether the player is placed, so that the standings are
    # read in the order of one index (season_order), a page without the rest.
    """CREATE TABLE season_players (
        season_id BIGINT NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
        player_id BIGINT NOT NULL REFERENCES members(id),
        name TEXT {bytes} NOT NULL,         -- members.name, kept in step (a rename)
        club TEXT {bytes} NOT NULL,         -- clubs.name
        placed INTEGER NOT NULL,            -- 1: nights >= the season's min_nights
        nights INTEGER NOT NULL,
        points INTEGER NOT NULL,            -- every night's points
        score INTEGER NOT NULL,             -- what the season's rule ranks by (x1000 for "average")
        won INTEGER NOT NULL,
        loners INTEGER NOT NULL,
        euchres INTEGER NOT NULL,
        best_night INTEGER NOT NULL,
        PRIMARY KEY (season_id, player_id)
    )""",
    "CREATE INDEX season_order ON season_players (season_id, placed DESC, score DESC, won DESC, loners DESC, "
    "euchres DESC, name, club)",
    """CREATE TABLE pushes (
        id {id},
        club_id BIGINT NOT NULL REFERENCES clubs(id),
        night_key TEXT NOT NULL,
        at BIGINT NOT NULL,
        outcome TEXT NOT NULL,              -- "new" or "amended" (an unchanged night writes nothing)
        version INTEGER NOT NULL
    )""",
    """CREATE TABLE identity_log (
        id {id},
        club_id BIGINT NOT NULL REFERENCES clubs(id),
        at BIGINT NOT NULL,
        kind TEXT NOT NULL,                 -- "rename" or "merge"
        old TEXT NOT NULL,
        new TEXT NOT NULL
    )""",
]

MIGRATIONS = [_V1]
VERSION = len(MIGRATIONS)
TABLES = {"league_meta", "clubs", "members", "player_names", "nights", "night_players", "seasons",
          "season_players", "pushes", "identity_log"}


def version(db: Db) -> int | None:
    """The league schema's version, or None for a database with no league.

    :raises DbError: a database holding something else, or a newer league.
    """
    have = db.tables()
    if "league_meta" not in have:
        if have:
            some = ", ".join(sorted(have)[:3])
            raise DbError(f"{db.spec} is not a league database (it has other tables: {some}): give another "
                          "file or database; nothing was written")
        return None
    v = db.value("SELECT value FROM league_meta WHERE key = 'schema'")
    if v is None or not str(v).isdigit():
        raise DbError(f"the league database {db.spec} is damaged (no schema version)")
    if int(v) > VERSION:
        raise DbError(f"the league database {db.spec} is version {v}, from a newer bower (this one knows "
                      f"{VERSION}): upgrade bower")
    missing = TABLES - have
    if missing:
        raise DbError(f"the league database {db.spec} is damaged (no table {sorted(missing)[0]})")
    return int(v)


def migrate(db: Db) -> None:
    """Bring a league to ``VERSION`` (one transaction per step)."""
    while True:
        with db.transaction():
            db.lock_schema()
            v = version(db)
            if v is None or v >= VERSION:
                return
            for sql in MIGRATIONS[v]:
                db.ddl(sql)
            db.run("UPDATE league_meta SET value = ? WHERE key = 'schema'", (str(v + 1),))


def create(db: Db, name: str, now: int) -> None:
    """Make the league's tables in an empty database.

    :raises DbError: the database already holds a league, or anything else.
    """
    with db.transaction():
        db.lock_schema()
        v = version(db)
        if v is not None:
            have = db.value("SELECT value FROM league_meta WHERE key = 'name'")
            raise DbError(f"{db.spec} already holds the league {have!r}: give another database")
        for sql in _V1:
            db.ddl(sql)
        db.many("INSERT INTO league_meta (key, value) VALUES (?, ?)",
                [("schema", "1"), ("name", name), ("created", str(now))])
        for step in MIGRATIONS[1:]:
            for sql in step:
                db.ddl(sql)
        db.run("UPDATE league_meta SET value = ? WHERE key = 'schema'", (str(VERSION),))
