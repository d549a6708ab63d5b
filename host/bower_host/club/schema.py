"""The club nights' tables in the game library, and their migrations.

The library's schema (bower_host.db.schema) is one list of versions for the
whole file, and versions 4 and 7 are these: ``V4`` and ``V7`` are its steps
(append, never edit), ``COLUMNS`` every club table and column the club code
reads (a library lacking one is damaged). A round's game is in ``games``
like any other game.
"""

# Version 4 of the library: the club night tables (host/CLUB.md). A
# round's game is in ``games`` like any other; ``club_results`` names it by
# device and game id (``game_id`` is only a shortcut: ``rebuild`` renumbers
# games; ``bower library rebuild`` then carries these tables over from the
# old file and points each result at its game again:
# ``club.night.carry_over``). Bowers before version 4 made these same
# tables on a night's first use, outside the migrations: IF NOT EXISTS keeps
# a version 3 library's nights as they are.
V4 = [
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

# Version 7 of the library: a club night's phones (host/CLUB.md "Phones"): each table's
# join code and the phone that joined with it, and the round tokens it was
# given; only SHA-256 digests of the tokens are kept.
V7 = [
    """CREATE TABLE IF NOT EXISTS club_joins (
        night_id INTEGER NOT NULL REFERENCES club_nights(id) ON DELETE CASCADE,
        table_no INTEGER NOT NULL,
        code TEXT NOT NULL UNIQUE,      -- printed on the table's sheet, shown on the board
        device TEXT,                    -- the phone that joined (NULL: none yet, or reset)
        token TEXT,                     -- SHA-256 of its table token (hex)
        joined_at INTEGER,
        PRIMARY KEY (night_id, table_no)
    )""",
    """CREATE TABLE IF NOT EXISTS club_tokens (
        token TEXT PRIMARY KEY,         -- SHA-256 of a round token (hex)
        night_id INTEGER NOT NULL REFERENCES club_nights(id) ON DELETE CASCADE,
        table_no INTEGER NOT NULL,
        round INTEGER NOT NULL,
        UNIQUE (night_id, table_no, round)
    )""",
]

#: Every club table and column the club code reads.
COLUMNS = {
    "club_nights": ("id", "key", "name", "created", "tables", "rounds", "movement", "hands", "minutes", "scoring",
                    "seed"),
    "club_players": ("night_id", "number", "name", "position"),
    "club_results": ("night_id", "round", "table_no", "device", "game_key", "game_id", "result", "complete",
                     "source", "attached_at"),
    "club_corrections": ("id", "night_id", "round", "table_no", "at", "kind", "old_game", "new_game", "old_result",
                         "new_result"),
    "club_joins": ("night_id", "table_no", "code", "device", "token", "joined_at"),
    "club_tokens": ("token", "night_id", "table_no", "round"),
}
