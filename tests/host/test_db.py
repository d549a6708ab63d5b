"""The game library (bower_host.db): storing logs, identity, updates,
mismatches, the raw archive, schema migrations.

Logs are real: whole games of every variant played through the engine
(tests/host/conftest.py), written the way the device writes them.
"""

import json
import sqlite3

import pytest

from euchre import log

from bower_host import db
from bower_host.db import schema
from bower_host.db import Library, LibraryError

DEV = "e6614103e7"


def _lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def _tamper(raw: bytes, lineno: int, old: str, new: str) -> bytes:
    # Replace an event's text in line ``lineno`` (1-based) and give the line a
    # valid CRC again, so only the engine can notice.
    lines = _lines(raw)
    payload = log.decode_line(lines[lineno - 1].decode())
    assert payload == old, payload
    lines[lineno - 1] = log.encode_line(new).encode()
    return b"".join(lines)


# ----- every variant, both modes ------------------------------------------------

@pytest.mark.parametrize("mode", ["cards", "table"])
@pytest.mark.parametrize("variant", ["classic", "five", "callpartner", "ultimate"])
def test_add_log_stores_every_variant(lib, variant_logs, variant, mode):
    x = variant_logs[(variant, mode)]
    g = x.game
    r = lib.add_log(x.raw, DEV, x.gid + ".log")
    assert r.status == "new", r.message
    assert r.dropped is None
    row = lib.game(r.game_id)
    assert (row["device"], row["game_key"], row["variant"], row["mode"]) == (DEV, x.gid, variant, mode)
    assert row["players"] == g.players
    assert row["options"] == g.rules.options
    assert row["scores"] == g.scores
    assert row["finished"] == 1 and row["result"] == g.result[1] and row["winners"] == list(g.result[0])
    assert row["events"] == len(g.events())
    assert row["started"] == log.decode_line(x.raw.decode().split("\n")[0])["started"]

    # One row per finished hand, as the engine counted them; the running
    # scores and the points add up to the engine's final scores.
    hands = lib.hands(r.game_id)
    assert [h["number"] for h in hands] == list(range(1, g.hand_no))
    assert row["hands"] == len(hands)
    assert hands[-1]["scores"] == g.scores
    assert [sum(h["points"][s] for h in hands) for s in range(len(g.players))] == g.scores
    for h in hands:
        assert h["result"] in ("scored", "thrown-in", "redeal")
        if h["result"] == "scored":
            assert h["outcome"] in ("made", "march", "euchred", "renege")
            assert h["maker"] is not None and h["trump"] in ("C", "D", "H", "S")
            if h["outcome"] != "renege":
                assert sum(h["tricks"]) == g.rules.hand_size
        else:
            assert h["points"] == [0] * len(g.players)
    if g.rules.call_partner:
        assert any(h["partner_card"] for h in hands)

    # The raw log is archived byte for byte beside the database.
    archived = lib.raw_dir / DEV / f"{x.gid}.log"
    assert r.archived == archived and archived.read_bytes() == x.raw
    assert row["raw_path"] == f"{DEV}/{x.gid}.log"


def test_hand_rows_match_the_engine_hand_by_hand(lib, kit):
    # A scripted Classic game (table mode): every column of every hand.
    g = kit.scripted_game("classic", [
        "up H", "pass", "order", "tricks 3",                      # 1: Cy orders hearts, makes 3
        "up S", "pass", "pass", "pass", "pass", "call D alone",   # 2: Cy calls diamonds alone...
        "won 2", "won 2", "won 1", "won 2", "won 2",              #    ...takes 4
        "redeal",                                                 # 3: misdeal, same dealer
        "up C", "pass", "pass", "pass", "pass",                   # 4: everybody passes twice
        "pass", "pass", "pass", "pass",
        "up D", "order alone", "claim 0",                         # 5: Ann orders alone and claims: march
    ], winning_score=10)
    r = lib.add_log(kit.log_bytes(g, "s1"), DEV, "s1.log")
    hands = lib.hands(r.game_id)
    cols = ["number", "dealer", "up_suit", "maker", "trump", "alone", "maker_tricks", "outcome", "result",
            "reason", "points", "scores"]
    got = [[h[c] for c in cols] for h in hands]
    assert got == [
        [1, 0, "H", 2, "H", 0, 3, "made", "scored", "made", [1, 0, 1, 0], [1, 0, 1, 0]],
        [2, 1, "S", 2, "D", 1, 4, "made", "scored", "made alone", [1, 0, 1, 0], [2, 0, 2, 0]],
        [3, 2, None, None, None, 0, None, None, "redeal", "misdeal", [0, 0, 0, 0], [2, 0, 2, 0]],
        [4, 2, "C", None, None, 0, None, None, "thrown-in", "all passed", [0, 0, 0, 0], [2, 0, 2, 0]],
        [5, 3, "D", 0, "D", 1, 5, "march", "scored", "lone march", [4, 0, 4, 0], [6, 0, 6, 0]],
    ]
    assert hands[1]["tricks"] == [0, 1, 4, 0]   # won 2, 2, 1, 2, 2
    # The engine's codes, stored as values (``reason`` holds their words, for people).
    assert [h["outcome_code"] for h in hands] == ["made", "made_alone", "misdeal", "all_passed", "lone_march"]
    game = lib.game(r.game_id)
    assert game["finished"] == 0 and game["result"] is None and game["hands"] == 5


def test_players_table(lib, variant_logs):
    x = variant_logs[("five", "cards")]
    gid = lib.add_log(x.raw, DEV, "a.log").game_id
    rows = lib.conn.execute("SELECT seat, name FROM players WHERE game_id = ? ORDER BY seat", (gid,)).fetchall()
    assert [tuple(r) for r in rows] == list(enumerate(x.game.players))


# ----- identity: duplicates, updates, two devices ------------------------------------

def test_same_log_again_is_a_duplicate_and_writes_nothing(db_path, variant_logs):
    x = variant_logs[("classic", "table")]
    clock = iter([1000, 2000, 3000])
    with Library(db_path, clock=lambda: next(clock)) as lib:
        first = lib.add_log(x.raw, DEV, "g.log")
        archived = first.archived
        mtime = archived.stat().st_mtime_ns
        before = lib.conn.execute("SELECT * FROM games").fetchall()
        again = lib.add_log(x.raw, DEV, "g.log")
        assert again.status == "duplicate" and again.game_id == first.game_id
        assert again.archived is None
        assert [tuple(r) for r in lib.conn.execute("SELECT * FROM games")] == [tuple(r) for r in before]
        assert lib.game(first.game_id)["synced_at"] == 1000
        assert archived.stat().st_mtime_ns == mtime
        assert sorted(p.name for p in archived.parent.iterdir()) == [archived.name]


def test_longer_version_of_a_game_in_progress_updates_it(lib, kit):
    g = kit.bot_game("classic", 3)
    events = g.events()
    partial = type(g)(g.rules, g.players, g.first_dealer, cards=True)
    for e in events[:len(events) // 2]:
        partial.apply(e)
    early = kit.log_bytes(partial, "g7")
    full = kit.log_bytes(g, "g7")
    assert full.startswith(early)

    r1 = lib.add_log(early, DEV, "g7.log")
    assert r1.status == "new"
    g1 = lib.game(r1.game_id)
    assert g1["finished"] == 0 and g1["events"] == len(events) // 2
    n1 = len(lib.hands(r1.game_id))

    r2 = lib.add_log(full, DEV, "g7.log")
    assert r2.status == "updated" and r2.game_id == r1.game_id, r2.message
    g2 = lib.game(r1.game_id)
    assert g2["finished"] == 1 and g2["events"] == len(events) and g2["scores"] == g.scores
    hands = lib.hands(r1.game_id)
    assert len(hands) == g.hand_no - 1 > n1
    assert lib.count() == 1
    assert (lib.raw_dir / DEV / "g7.log").read_bytes() == full

    # The older copy again (say, from a backup) is nothing new: it changes
    # nothing, is not archived and never replaces the good archived log.
    r3 = lib.add_log(early, DEV, "g7.log")
    assert r3.status == "duplicate" and "older copy" in r3.message and r3.archived is None
    assert lib.game(r1.game_id)["events"] == len(events)
    assert (lib.raw_dir / DEV / "g7.log").read_bytes() == full
    assert sorted(p.name for p in (lib.raw_dir / DEV).iterdir()) == ["g7.log"]


def test_a_game_continued_after_an_undo_is_an_update(lib, kit):
    g = kit.scripted_game("classic", ["up H", "pass", "order"])
    raw = kit.log_bytes(g, "u1")
    assert lib.add_log(raw, DEV, "u1.log").status == "new"
    # The device appends: the order is taken back, then a pass and a call.
    more = raw + log.encode_line("undo").encode() + log.encode_line("pass").encode() \
        + log.encode_line("pass").encode()
    r = lib.add_log(more, DEV, "u1.log")
    assert r.status == "updated", r.message
    assert lib.game(r.game_id)["events"] == 4   # up H, pass, pass, pass


def test_torn_last_line_is_dropped_and_reported_then_completed(lib, kit, variant_logs):
    x = variant_logs[("classic", "cards")]
    torn = x.raw[:-15]
    r = lib.add_log(torn, DEV, "t.log")
    assert r.status == "new" and r.dropped and "torn" in r.message
    row = lib.game(r.game_id)
    assert row["events"] == len(x.game.events()) - 1 and row["finished"] == 0 and row["dropped"]
    # The complete log later: an update, and the archive gets the whole log.
    r2 = lib.add_log(x.raw, DEV, "t.log")
    assert r2.status == "updated"
    assert lib.game(r.game_id)["finished"] == 1 and lib.game(r.game_id)["dropped"] is None
    assert (lib.raw_dir / DEV / f"{x.gid}.log").read_bytes() == x.raw


def test_two_devices_with_the_same_game_id_are_two_games(lib, kit):
    a = kit.log_bytes(kit.table_game("classic", 1), "g0001", device=None)
    b = kit.log_bytes(kit.table_game("classic", 2), "g0001", device=None)
    ra = lib.add_log(a, "aaaa", "g0001.log")
    rb = lib.add_log(b, "bbbb", "g0001.log")
    assert (ra.status, rb.status) == ("new", "new") and ra.game_id != rb.game_id
    assert lib.add_log(a, "aaaa", "g0001.log").status == "duplicate"
    assert [g["game_key"] for g in lib.find("g0001")] == ["g0001", "g0001"]
    assert lib.find("bbbb/g0001")[0]["id"] == rb.game_id
    assert lib.find(str(ra.game_id))[0]["device"] == "aaaa"


# ----- refusals: nothing stored, anywhere --------------------------------------------

def _archive(lib) -> list:
    return sorted(str(p.relative_to(lib.raw_dir)) for p in lib.raw_dir.rglob("*")) if lib.raw_dir.exists() else []


def test_tampered_event_that_fails_replay_is_refused(lib, kit):
    g = kit.scripted_game("classic", ["up H", "pass", "order", "tricks 3", "up S", "pass", "order", "won 1"])
    raw = kit.log_bytes(g, "g9")
    bad = _tamper(raw, 5, "tricks 3", "tricks 6")      # a Classic hand has 5 tricks
    r = lib.add_log(bad, DEV, "g9.log")
    assert r.status == "refused" and r.game_id is None and r.archived is None
    assert "does not replay" in r.message and "tricks 6" in r.message
    assert lib.count() == 0
    assert lib.conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 0
    assert not [p for p in _archive(lib) if p.endswith(".log")]
    # The good log afterwards is stored normally.
    assert lib.add_log(raw, DEV, "g9.log").status == "new"


def test_corrupted_line_stores_the_good_prefix_marked_damaged(lib, kit):
    # Used to make the whole game unstorable ("mismatch"): now the lines
    # before the corrupt one are stored, the game says which line, and the
    # whole raw log is archived.
    raw = kit.log_bytes(kit.scripted_game("classic", ["up H", "pass", "order", "tricks 3", "up S"]), "c1")
    lines = _lines(raw)
    lines[4] = lines[4].replace(b"tricks 3", b"tricks 8")      # line 5: CRC no longer matches
    bad = b"".join(lines)
    r = lib.add_log(bad, DEV, "c1.log")
    assert r.status == "new" and r.damaged.startswith("line 5: CRC mismatch")
    assert "the 2 from line 5 on were not imported" in r.damaged and "DAMAGED" in r.message
    assert r.damaged_line == 5      # a field: sync tells the device this line without reading the sentence
    g = lib.game(r.game_id)
    assert g["damaged"] == r.damaged and g["log"].encode() == b"".join(lines[:4]) and g["hands"] == 0
    assert g["raw_sha256"] == __import__("hashlib").sha256(bad).hexdigest()
    assert r.archived.read_bytes() == bad
    # The same bytes again: nothing new; the device's log grown by a line: updated, still damaged.
    assert lib.add_log(bad, DEV, "c1.log").status == "duplicate"
    more = bad + log.encode_line("pass").encode()
    r2 = lib.add_log(more, DEV, "c1.log")
    assert r2.status == "updated" and "the 3 from line 5 on" in r2.damaged and lib.count() == 1
    # A corrupt header (line 1) leaves nothing to store.
    r3 = lib.add_log(lines[0].replace(b"classic", b"clasic") + b"".join(lines[1:]), DEV, "c2.log")
    assert r3.status == "refused" and "line 1" in r3.message and lib.count() == 1


def test_different_header_for_the_same_id_is_refused(lib, kit):
    a = kit.log_bytes(kit.table_game("classic", 1), "g0001")
    b = kit.log_bytes(kit.table_game("classic", 1, names=["Zed", "Bob", "Cy", "Di"]), "g0001")
    ra = lib.add_log(a, DEV, "g0001.log")
    rb = lib.add_log(b, DEV, "g0001.log")
    assert rb.status == "refused" and rb.game_id is None and rb.archived is None
    assert "header differs in: players" in rb.message
    assert lib.game(ra.game_id)["players"][0] == "Ann"
    assert (lib.raw_dir / DEV / "g0001.log").read_bytes() == a
    assert _archive(lib) == [DEV, f"{DEV}/g0001.log"]


def test_diverging_events_are_refused(lib, kit):
    a = kit.scripted_game("classic", ["up H", "pass", "order", "tricks 3"])
    b = kit.scripted_game("classic", ["up H", "pass", "order", "tricks 4"])
    lib.add_log(kit.log_bytes(a, "d1"), DEV, "d1.log")
    r = lib.add_log(kit.log_bytes(b, "d1"), DEV, "d1.log")
    assert r.status == "refused" and "not an extension" in r.message and "line 5" in r.message
    [g] = lib.games()
    assert lib.hands(g["id"])[0]["maker_tricks"] == 3 and _archive(lib) == [DEV, f"{DEV}/d1.log"]


@pytest.mark.parametrize("raw, why", [
    (b"\xff\xfe garbage", "not UTF-8"),
    (b"MicroPython v1.27 on 2025-01-01; Raspberry Pi Pico\r\n>>> ", "unreadable log"),
    (b"", "unreadable log"),
])
def test_garbage_is_refused(lib, raw, why):
    r = lib.add_log(raw, DEV, "junk.log")
    assert r.status == "refused" and why in r.message
    assert lib.count() == 0 and r.archived is None and _archive(lib) == []


def test_header_device_must_match_the_device_it_came_from(lib, kit):
    raw = kit.log_bytes(kit.table_game("classic", 4), "g1", device="cafe")
    r = lib.add_log(raw, DEV, "g1.log")
    assert r.status == "refused" and "cafe" in r.message
    assert lib.add_log(raw, "", "g1.log").status == "new"     # no device given: the header's


@pytest.mark.parametrize("device, gid", [("../up", "g1"), ("a/b", "g1"), ("ok1", "../../evil"), ("ok1", "a/b"),
                                         ("", "g1"), ("-x", "g1"), ("ok1", "g" * 65), ("ok\u202e1", "g1")])
def test_ids_that_are_not_ids_are_refused_and_nothing_is_archived(lib, kit, device, gid):
    # Before: stored, under a mangled archive name (and `bower show a/b/g1` found nothing).
    raw = kit.log_bytes(kit.table_game("classic", 5), gid, device=None)
    r = lib.add_log(raw, device or None, "x.log")
    assert r.status == "refused" and lib.count() == 0 and _archive(lib) == [], r.message
    assert ("an id is 1 to 64 letters" in r.message or "no device id" in r.message), r.message


# ----- where the library lives --------------------------------------------------------

def test_default_path_env_and_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOWER_DB", str(tmp_path / "x" / "mine.db"))
    assert db.default_path() == tmp_path / "x" / "mine.db"
    with Library() as lib:
        assert lib.path == tmp_path / "x" / "mine.db" and lib.raw_dir == tmp_path / "x" / "mine.db.raw"
    monkeypatch.delenv("BOWER_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    import sys
    if sys.platform.startswith("linux"):
        assert db.default_path() == tmp_path / "share" / "bower" / "bower.sqlite3"


def test_not_a_database(tmp_path):
    p = tmp_path / "notes.sqlite3"
    p.write_bytes(b"this is not sqlite at all, just some text that is long enough" * 20)
    with pytest.raises(LibraryError, match="not a usable game library"):
        Library(p)


# ----- schema versions and migrations -------------------------------------------------

def _version(path) -> int:
    c = sqlite3.connect(path)
    try:
        return c.execute("PRAGMA user_version").fetchone()[0]
    finally:
        c.close()


def test_empty_file_and_v0_database_migrate_to_current(tmp_path):
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    v0 = tmp_path / "v0.sqlite3"
    sqlite3.connect(v0).close()
    for p in (empty, v0):
        assert _version(p) == 0
        with Library(p) as lib:
            assert lib.count() == 0
            tables = {r[0] for r in lib.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert {"games", "hands", "players"} <= tables
        assert _version(p) == db.schema_version() == len(schema.MIGRATIONS)


def test_newer_database_is_refused_untouched(tmp_path):
    p = tmp_path / "future.sqlite3"
    c = sqlite3.connect(p)
    c.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, shiny TEXT)")
    newer = db.schema_version() + 1
    c.execute(f"PRAGMA user_version = {newer}")
    c.commit()
    c.close()
    with pytest.raises(LibraryError, match=rf"schema version {newer}, newer than this bower knows \({newer - 1}\)"):
        Library(p)
    assert _version(p) == newer


def test_next_migration_applies_to_a_stored_library(db_path, kit, monkeypatch):
    raw = kit.log_bytes(kit.table_game("classic", 6), "m1")
    with Library(db_path) as lib:
        gid = lib.add_log(raw, DEV, "m1.log").game_id

    def v2(conn):
        conn.execute("ALTER TABLE games ADD COLUMN venue TEXT")
        conn.execute("UPDATE games SET venue = 'club'")

    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + [v2])
    with Library(db_path) as lib:
        g = lib.game(gid)
        assert g["venue"] == "club" and g["game_key"] == "m1" and len(lib.hands(gid)) == g["hands"]
    assert _version(db_path) == db.schema_version() == len(schema.MIGRATIONS)


def test_failed_migration_rolls_back(db_path, monkeypatch):
    Library(db_path).close()
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + [["ALTER TABLE games ADD COLUMN venue TEXT",
                                                             "THIS IS NOT SQL"]])
    with pytest.raises(LibraryError):
        Library(db_path)
    assert _version(db_path) == len(schema.MIGRATIONS) - 1
    c = sqlite3.connect(db_path)
    cols = [r[1] for r in c.execute("PRAGMA table_info(games)")]
    c.close()
    assert "venue" not in cols


# ----- schema version 4: the club night tables ----------------------------------------

# The club night tables as every bower before schema version 4 made them,
# on a night's first use and outside the versioned migrations
# (``db.ensure_club_tables``), copied here as they were: a library of that
# time has these, or none.
V3_CLUB_TABLES = [
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


def _master(path) -> list:
    """The schema of the library at ``path``: sqlite_master but the page numbers."""
    c = sqlite3.connect(path)
    try:
        return sorted(c.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall(), key=repr)
    finally:
        c.close()


def _contents(lib) -> dict:
    tables = sorted(db.SCHEMA)
    return {t: sorted(map(tuple, lib.conn.execute(f"SELECT * FROM {t}").fetchall()), key=repr) for t in tables}


@pytest.mark.parametrize("had_nights", [False, True])
def test_an_old_library_upgrades_to_the_club_tables_and_keeps_its_data(tmp_path, kit, had_nights):
    # A library as schema version 3 made it (its migrations' statements,
    # nothing newer) holding a game; with had_nights, also the club tables
    # as the old mechanism made them, holding a night and a counted round.
    # Opened now, it is migrated to version 4 and on: nothing is lost, and its
    # schema is exactly a new library's.
    from bower_host.club import night as cn
    from bower_host.club import attach as ca
    from bower_host.club.simulate import night_round_logs

    src = tmp_path / "src.sqlite3"              # the rows, as this bower writes them
    with Library(src, clock=lambda: 1763700000) as lib:
        gid = lib.add_log(kit.log_bytes(kit.table_game("classic", 6), "m1"), DEV, "m1.log").game_id
        if had_nights:
            night = cn.create_night(lib, "Friday", ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"], 2,
                                    "progressive", 3, hands=4, seed=5, key="fri", clock=lambda: 1763700000)
            for t, raw in night_round_logs(night, 1, 7, started=1763700100).items():
                assert ca.attach_file(lib, raw, f"r1-t{t}.log").status == "new"
        before = _contents(lib)
    old = tmp_path / "old.sqlite3"
    c = sqlite3.connect(old, isolation_level=None)
    for step in schema.MIGRATIONS[:3]:
        if callable(step):
            step(c)
        else:
            for sql in step:
                c.execute(sql)
    tables = ["games", "hands", "players"]
    if had_nights:
        for sql in V3_CLUB_TABLES:
            c.execute(sql)
        tables += ["club_nights", "club_players", "club_results", "club_corrections"]
    c.execute("PRAGMA user_version = 3")
    c.execute("ATTACH ? AS src", (str(src),))
    for t in tables:
        # (the columns version 3 had: later ones take their defaults)
        cols = ", ".join(r[1] for r in c.execute(f"PRAGMA main.table_info({t})"))
        c.execute(f"INSERT INTO main.{t} ({cols}) SELECT {cols} FROM src.{t}")
    c.close()
    assert ("club_nights" in {name for _, name, _, _ in _master(old)}) == had_nights

    with Library(old) as lib:
        assert _contents(lib) == before
        assert lib.game(gid)["game_key"] == "m1" and len(lib.hands(gid)) == lib.game(gid)["hands"] > 0
        assert [n["key"] for n in cn.nights(lib)] == (["fri"] if had_nights else [])
        if had_nights:
            night = cn.load_night(lib, "fri")
            assert sorted(night.results) == [(1, 1), (1, 2)] and night.current_round() == 2
    assert _version(old) == db.schema_version() == len(schema.MIGRATIONS)
    fresh = tmp_path / "fresh.sqlite3"
    Library(fresh).close()
    assert _master(old) == _master(fresh)
    assert {"club_nights", "club_players", "club_results", "club_corrections"} <= {n for _, n, _, _ in _master(fresh)}


def test_a_new_library_has_the_club_tables_before_any_night(tmp_path):
    # Made by the migrations, not by a night's first use: a library that
    # lacks one once opened is damaged, as for a missing games table.
    p = tmp_path / "lib.sqlite3"
    Library(p).close()
    c = sqlite3.connect(p)
    c.execute("DROP TABLE club_results")
    c.commit()
    c.close()
    with pytest.raises(db.LibraryDamaged, match="no table club_results"):
        Library(p)


def test_json_columns_are_json(lib, variant_logs):
    x = variant_logs[("ultimate", "table")]
    gid = lib.add_log(x.raw, DEV, "u.log").game_id
    raw_row = lib.conn.execute("SELECT options, players, scores, winners FROM games WHERE id = ?", (gid,)).fetchone()
    assert json.loads(raw_row["options"]) == {"winning_score": 35}
    assert json.loads(raw_row["players"]) == x.game.players
    assert json.loads(raw_row["scores"]) == x.game.scores
    assert json.loads(raw_row["winners"]) == list(x.game.result[0])


def test_a_renege_seat_is_a_column_and_old_libraries_get_it(db_path, capsys):
    # Version 3: the seat that reneged is stored as a number (the library
    # no longer reads it out of the engine's words); hands stored by version
    # 2 get it from their reason when the library is migrated.
    from euchre import Game, Rules
    from euchre import log as elog
    g = Game(Rules("classic"), ["A", "B", "C", "D"], dealer=0)
    for e in ("up H", "order", "renege 3"):
        g.apply(e)
    raw = elog.dumps(g, extra={"id": "r1", "device": DEV}).encode()
    with Library(db_path) as lib:
        gid = lib.add_log(raw, DEV, "r1.log").game_id
        [h] = lib.hands(gid)
        assert (h["outcome"], h["renege"]) == ("renege", 3)
    # The same hand as version 2 stored it: no column; migrating fills it in.
    c = sqlite3.connect(db_path)
    c.execute("ALTER TABLE hands DROP COLUMN renege")
    c.execute("ALTER TABLE hands DROP COLUMN outcome_code")   # (versions 3, 5 and 6 add them again)
    c.execute("ALTER TABLE hands DROP COLUMN amended")
    c.execute("ALTER TABLE hands DROP COLUMN counted")
    c.execute("PRAGMA user_version = 2")
    c.commit()
    c.close()
    with Library(db_path) as lib:
        [h] = lib.hands(gid)
        assert (h["outcome"], h["outcome_code"], h["renege"]) == ("renege", "renege", 3)
    assert _version(db_path) == len(schema.MIGRATIONS)
    from bower_host import cli
    assert cli.main(["show", str(gid), "--db", str(db_path)]) == 0
    assert "renege by D" in capsys.readouterr().out


# ----- schema version 5: the engine's outcome codes -------------------------------------

def test_outcome_codes_are_a_column_and_old_libraries_get_them_from_their_logs(db_path, variant_logs,
                                                                                monkeypatch, capsys):
    # Version 5: each hand's outcome is stored as the engine's code
    # (``outcome_code``, one of euchre.hand.OUTCOMES), read by the host
    # instead of the words of ``reason``. A version 4 library gets the codes
    # by replaying each game's stored log once; a log that no longer
    # replays leaves them NULL, and ``bower show`` then writes the words
    # stored with the hand.
    from euchre import Game, Rules
    from euchre import log as elog
    from euchre.hand import OUTCOMES
    from bower_host import cli
    g = Game(Rules("classic", partners_best=True, defend_alone=True), ["A", "B", "C", "D"], dealer=0)
    for e in ("up H", "order alone best", "defend none", "tricks 5", "up S", "order", "defend 3", "tricks 2",
              "up C", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass",
              "up D", "order", "defend none", "renege 2"):
        g.apply(e)
    special = elog.dumps(g, extra={"id": "o1", "device": DEV}).encode()
    raws = [special] + [variant_logs[(v, "table")].raw for v in ("classic", "five", "callpartner", "ultimate")]
    with Library(db_path) as lib:
        gids = [lib.add_log(raw, DEV, f"o{i}.log").game_id for i, raw in enumerate(raws)]
        want = {gid: [(h["outcome_code"], h["renege"], h["reason"]) for h in lib.hands(gid)] for gid in gids}
    assert [c for c, _, _ in want[gids[0]]] == ["best_march", "defend_euchre", "all_passed", "renege"]
    assert want[gids[0]][1:] == [("defend_euchre", None, "euchred by a lone defender"),
                                 ("all_passed", None, "all passed"), ("renege", 2, "renege by seat 2")]
    assert all(c in OUTCOMES for gid in gids for c, _, _ in want[gid])

    def as_version_4():
        c = sqlite3.connect(db_path)
        c.execute("ALTER TABLE hands DROP COLUMN outcome_code")
        c.execute("ALTER TABLE hands DROP COLUMN amended")   # (version 6 adds them again)
        c.execute("ALTER TABLE hands DROP COLUMN counted")
        c.execute("PRAGMA user_version = 4")
        c.commit()
        c.close()

    as_version_4()
    with Library(db_path) as lib:
        assert {gid: [(h["outcome_code"], h["renege"], h["reason"]) for h in lib.hands(gid)] for gid in gids} == want
    assert _version(db_path) == len(schema.MIGRATIONS)

    # A stored log the engine no longer replays: its hands keep their words.
    as_version_4()
    from bower_host.db import logs
    real = logs.replay

    def replay(text):
        if '"o1"' in text:
            raise elog.LogError("line 2: refused")
        return real(text)

    monkeypatch.setattr(logs, "replay", replay)
    with Library(db_path) as lib:
        assert [h["outcome_code"] for h in lib.hands(gids[0])] == [None] * 4
        assert [h["outcome_code"] for h in lib.hands(gids[1])] == [c for c, _, _ in want[gids[1]]]
    assert cli.main(["show", str(gids[0]), "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "euchred by a lone defender" in out and "renege by seat 2" in out
