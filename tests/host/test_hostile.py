"""Hostile or damaged input: each case seen in issue 14 gets a one-line
error naming the thing and what to do, a non-zero status, nothing stored
half-way, and every good game still synced. Devices are the real firmware
link on a pseudo-terminal (tests/host/hostile.py); libraries are real SQLite
files. Each test here failed on the code before the fix (a traceback, a
lost game, or a wrong outcome), except where its docstring says otherwise.
"""

import os
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from bower_host import db, syncer
from bower_host.db import Library

from hostile import (DEVICE, ClaimsLength, ListedStore, bower, corrupt_line, crc, game_log, hostile_device,
                     lines, with_header)
from fake_device import FakeDevice, random_table_game, record_game
from bower.store import extra

FAST = ("--timeout", "0.3")


@pytest.fixture
def dbp(tmp_path):
    return tmp_path / "host" / "bower.sqlite3"


def stored(dbp) -> dict:
    with Library(dbp) as lib:
        return {g["game_key"]: g for g in lib.games()}


def do_sync(dev, dbp, *extra):
    return bower("sync", "--port", dev.port, "--db", dbp, "--quiet", *FAST, *extra)


GOOD = {f"g000{i}": game_log(v, i, f"g000{i}") for i, v in enumerate(("classic", "five", "callpartner"), 1)}


# ----- device headers ---------------------------------------------------------------

@pytest.mark.parametrize("field, value, says", [
    ("dealer", 1.5, "'dealer' is 1.5, not a seat number"),
    ("players", [1, 2, 3, 4], "'players' is [1, 2, 3, 4], not a list of player names"),
    ("started", 2 ** 62, "'started' is 4611686018427387904, not a time between 1970 and 2100"),
])
def test_a_bad_header_field_refuses_that_game_only(tmp_path, dbp, field, value, says):
    bad = with_header(game_log("classic", 9, "g0009"), **{field: value})
    store = ListedStore({"g0009": bad, **GOOD})
    with hostile_device(tmp_path / "flash", store) as dev:
        rc, out, err = do_sync(dev, dbp)
    assert rc == 1 and "g0009 (refused)" in err
    assert says in out and "the game stays on the device" in out
    games = stored(dbp)
    assert sorted(games) == sorted(GOOD)                               # every good game, nothing of the bad one
    assert all(games[k]["log"].encode() == v for k, v in GOOD.items())
    assert set(store.synced) == set(GOOD)                              # the bad one stays unsynced
    for cmd in (["games"], ["show", "g0001"], ["export"], ["export", "-f", "json"], ["stats"]):
        assert bower(*cmd, "--db", dbp)[0] == 0


def test_a_start_time_stored_by_an_older_bower_reads_as_unknown(tmp_path, dbp):
    # OSError 75 (EOVERFLOW) from every read command before.
    with Library(dbp) as lib:
        gid = lib.add_log(GOOD["g0001"], DEVICE, "g0001.log").game_id
        lib.conn.execute("UPDATE games SET started = ? WHERE id = ?", (2 ** 62, gid))
    rc, out, _ = bower("games", "--db", dbp)
    assert rc == 0 and "g0001" in out
    assert bower("show", "1", "--db", dbp)[1].count("started -") == 1
    rc, out, _ = bower("export", "-f", "json", "--db", dbp)
    assert rc == 0 and '"started": null' in out
    assert bower("plot", "1", "-o", tmp_path / "p.png", "--db", dbp)[0] == 0


# ----- limits ------------------------------------------------------------------------

def test_a_game_listed_at_a_terabyte_is_refused_unfetched(tmp_path, dbp):
    store = ListedStore({"g0007": GOOD["g0001"].replace(b"g0001", b"g0007"), **GOOD}, sizes={"g0007": 10 ** 12})
    with hostile_device(tmp_path / "flash", store) as dev:
        rc, out, err = do_sync(dev, dbp)
        gets = [r for r in dev.requests if b" GET g0007 " in r]
    assert rc == 1 and "g0007 (failed)" in err
    assert "1,000,000,000,000 bytes, over the 4.0 MB a game log can be" in out
    assert gets == [] and sorted(stored(dbp)) == sorted(GOOD) and set(store.synced) == set(GOOD)
    assert not list((dbp.parent / f"{dbp.name}.partial").rglob("g0007*"))


def test_a_listing_of_millions_of_games_is_refused_before_it_is_read(tmp_path, dbp):
    entries = [{"id": k, "size": len(v), "crc": crc(v), "state": "finished", "synced": False}
               for k, v in GOOD.items()]
    store = ListedStore(GOOD, listing=ClaimsLength(entries, 5_000_000))
    with hostile_device(tmp_path / "flash", store) as dev:
        t = time.monotonic()
        rc, _, err = do_sync(dev, dbp)
    assert rc == 1 and "the device lists 5,000,000 games, more than the 4,096 a Bower can hold" in err
    assert time.monotonic() - t < 2          # refused at once, not after timeouts
    assert stored(dbp) == {}


def test_one_sync_fetches_at_most_its_budget_and_the_next_run_the_rest(tmp_path, dbp, monkeypatch):
    store = ListedStore(GOOD)
    sizes = [len(v) for v in GOOD.values()]
    monkeypatch.setattr(syncer, "MAX_SYNC_BYTES", sizes[0] + sizes[1])
    with hostile_device(tmp_path / "flash", store) as dev:
        rc, out, err = do_sync(dev, dbp)
        assert rc == 1 and "g0003 (failed)" in err and "run `bower sync` again for it" in out
        assert sorted(stored(dbp)) == ["g0001", "g0002"]
        assert do_sync(dev, dbp)[0] == 0
    assert sorted(stored(dbp)) == sorted(GOOD) and set(store.synced) == set(GOOD)


def test_a_device_that_sends_less_than_it_listed_fails_that_game_only(tmp_path, dbp):
    store = ListedStore(GOOD, sizes={"g0001": len(GOOD["g0001"]) + 100})
    with hostile_device(tmp_path / "flash", store) as dev:
        rc, out, err = do_sync(dev, dbp)
    assert rc == 1 and "g0001 (failed)" in err and "were listed" in out
    assert sorted(stored(dbp)) == ["g0002", "g0003"] and set(store.synced) == {"g0002", "g0003"}


# ----- a corrupt line ------------------------------------------------------------------

def test_a_corrupt_line_stores_the_good_prefix_marks_it_damaged_and_says_so(tmp_path, dbp):
    raw = game_log("classic", 4, "g0004")
    n = len(lines(raw))
    bad = corrupt_line(raw, 8)
    store = ListedStore({"g0004": bad, **GOOD})
    with hostile_device(tmp_path / "flash", store) as dev:
        rc, out, err = do_sync(dev, dbp)
        assert rc == 1 and "g0004 (damaged)" in err and "damaged games were stored up to their corrupt line" in err
        assert "damaged" in out and f"line 8: CRC mismatch (corrupted); the log has {n} lines" in out
        games = stored(dbp)
        assert sorted(games) == sorted(["g0004", *GOOD]) and set(store.synced) == {"g0004", *GOOD}
        g = games["g0004"]
        assert g["log"].encode() == b"".join(lines(raw)[:7]) and g["damaged"].startswith("line 8")
        assert (dbp.parent / f"{dbp.name}.raw" / g["raw_path"]).read_bytes() == bad     # every byte the device had
        # ... and the device was told, to say so on its screen.
        assert store.warnings == ["g0004 line 8 corrupt: synced up to it"] and "the device shows it too" in out
        # Synced again: nothing fetched, nothing changed.
        rc, out, _ = do_sync(dev, dbp)
        assert rc == 0 and out.count("up to date") == 4 and "Fetched 0 B" in out
    rc, out, _ = bower("show", "g0004", "--db", dbp)
    assert rc == 0 and "Damaged: stored only up to a corrupt line" in out
    assert bower("export", "-f", "json", "--db", dbp)[0] == 0
    assert "1 stored only up to a corrupt line" in bower("library", "check", "--db", dbp)[1]


# ----- a damaged library ------------------------------------------------------------------

@pytest.fixture
def synced_db(tmp_path, dbp):
    with hostile_device(tmp_path / "flash", ListedStore(GOOD)) as dev:
        assert do_sync(dev, dbp)[0] == 0
    return dbp


def _rows(dbp):
    c = sqlite3.connect(dbp)
    try:
        return sorted(c.execute("SELECT device, game_key, log, scores, hands, finished FROM games").fetchall())
    finally:
        c.close()


def _drop_hands(p):
    c = sqlite3.connect(p)
    c.execute("DROP TABLE hands")
    c.commit()
    c.close()


def _bad_pages(p):
    data = bytearray(p.read_bytes())
    page = 4096
    for i in range(page * 2, len(data), page):       # every page after the schema page
        data[i:i + 64] = b"\xa5" * 64
    p.write_bytes(bytes(data))


@pytest.mark.parametrize("damage, says", [(_drop_hands, "no table hands"), (_bad_pages, "damaged")])
def test_a_damaged_library_says_so_in_one_line_and_rebuilds_from_the_raw_logs(synced_db, damage, says):
    before = _rows(synced_db)
    damage(synced_db)
    for cmd in (["stats"], ["export"], ["games"], ["show", "1"], ["library", "check"]):
        rc, _, err = bower(*cmd, "--db", synced_db)
        assert rc == 1 and says in err and f"run `bower library rebuild --db {synced_db}`" in err, err
    rc, out, _ = bower("library", "rebuild", "--db", synced_db)
    assert rc == 0 and "3 game(s)" in out and "The old file was kept as" in out
    assert _rows(synced_db) == before
    assert bower("stats", "--db", synced_db)[0] == 0
    assert list(synced_db.parent.glob("bower.sqlite3.damaged-*"))          # never deleted


def test_rebuild_without_raw_logs_is_a_clear_error(tmp_path):
    p = tmp_path / "x.sqlite3"
    p.write_bytes(b"not a database" * 100)
    rc, _, err = bower("library", "rebuild", "--db", p)
    assert rc == 1 and "no raw logs in" in err
    assert p.read_bytes() == b"not a database" * 100


# ----- where the library cannot be written -----------------------------------------------

@contextmanager
def read_only(d: Path):
    """``d`` read-only for this process: chmod for a user, the immutable
    flag for root (whom permissions do not stop)."""
    root = os.geteuid() == 0
    if root:
        if subprocess.run(["chattr", "+i", str(d)], capture_output=True).returncode:
            pytest.skip("cannot make a read-only directory here (no chattr)")
    else:
        d.chmod(0o555)
    try:
        probe = d / "probe"
        try:
            probe.touch()
        except OSError:
            pass
        else:
            probe.unlink()
            pytest.skip("the directory stayed writable")
        yield d
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(d)], check=True)
        else:
            d.chmod(0o755)


def test_sync_into_a_read_only_directory_is_a_clear_error(synced_db, tmp_path):
    store = ListedStore({**GOOD, "g0005": game_log("ultimate", 5, "g0005")})
    before = _rows(synced_db)
    fresh = tmp_path / "ro" / "new" / "bower.sqlite3"
    fresh.parent.mkdir(parents=True)
    with hostile_device(tmp_path / "flash2", store) as dev, read_only(synced_db.parent), read_only(fresh.parent):
        rc, _, err = do_sync(dev, synced_db)
        assert rc == 1 and f"its directory {synced_db.parent} is read-only" in err
        rc, _, err = do_sync(dev, fresh)
        assert rc == 1 and str(fresh) in err and f"its directory {fresh.parent} is read-only" in err
    assert _rows(synced_db) == before and "g0005" not in store.synced


# ----- two syncs at once -------------------------------------------------------------------

def test_two_syncs_at_once_one_waits_its_turn_and_no_game_goes_missing(tmp_path, dbp):
    dev = FakeDevice(tmp_path / "flash")
    for i, v in enumerate(("classic", "five", "callpartner", "ultimate")):
        record_game(dev.store, v, random_table_game(v, seed=i, options={"winning_score": 25}),
                    options={"winning_score": 25})
    slow = lambda data: (time.sleep(0.02), data)[1]      # noqa: E731  a slow USB link
    dev.corrupt = slow
    cmd = [sys.executable, "-m", "bower_host", "sync", "--port", dev.port, "--db", str(dbp), "--quiet"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    with dev:
        first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 20
        while not any(b" GET " in r for r in dev.requests) and time.monotonic() < deadline:
            time.sleep(0.01)
        second = subprocess.run(cmd, capture_output=True, env=env, timeout=60)
        out1, err1 = first.communicate(timeout=60)
    assert first.returncode == 0, err1
    err2 = second.stderr.decode()
    assert second.returncode == 1 and err2.count("\n") == 1 and "is in use by bower sync (process" in err2, err2
    assert "Traceback" not in err1.decode() + err2
    assert len(stored(dbp)) == 4 and all(g["synced"] for g in extra("past").games(dev.store))
    assert not list((dbp.parent / f"{dbp.name}.partial").rglob("*.part"))


def test_the_writer_lock_is_held_once_and_released(tmp_path):
    p = tmp_path / "lib.sqlite3"
    with db.writer_lock(p, "bower sync"):
        with pytest.raises(db.LibraryError, match=r"is in use by bower sync \(process \d+\): wait for it"):
            with db.writer_lock(p, "bower library rebuild"):
                pass
    with db.writer_lock(p, "bower library rebuild"):       # released when the first ended
        pass


# ----- no traceback, whatever happens --------------------------------------------------------

def test_an_unexpected_error_is_one_line_and_debug_shows_the_traceback(monkeypatch, capsys):
    from bower_host import cli
    from bower_host.commands import library

    def boom(args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(library, "cmd_games", boom)
    assert cli.main(["games"]) == cli.INTERNAL
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: boom second line" in err and "--debug" in err
    with pytest.raises(RuntimeError):
        cli.main(["--debug", "games"])


def test_a_disk_error_is_one_line(monkeypatch, capsys):
    from bower_host import cli
    from bower_host.commands import library

    def full(args):
        raise OSError(28, "No space left on device", "/tmp/x.csv")

    monkeypatch.setattr(library, "cmd_export", full)
    assert cli.main(["export"]) == 1
    err = capsys.readouterr().err
    assert err == "bower: /tmp/x.csv: the disk is full: free some space, or write somewhere else\n"


def test_rich_markup_from_a_device_is_printed_as_text(tmp_path, dbp):
    with hostile_device(tmp_path / "flash", ListedStore(GOOD), version="[/bold]") as dev:
        rc, out, _ = do_sync(dev, dbp)
    assert rc == 0 and "(firmware [/bold], protocol 1)" in out


# ----- stats: finished games unless asked -------------------------------------------------

def test_stats_count_unfinished_games_only_when_asked(dbp):
    with Library(dbp) as lib:
        lib.add_log(GOOD["g0001"], DEVICE, "g0001.log")                               # finished
        lib.add_log(game_log("classic", 6, "g0006", hands=2), DEVICE, "g0006.log")  # two hands in
    import json
    rows = json.loads(bower("stats", "--format", "json", "--db", dbp)[1])
    assert {r["games"] for r in rows} == {1}
    rows = json.loads(bower("stats", "--format", "json", "--unfinished", "--db", dbp)[1])
    assert {r["games"] for r in rows} == {2}
    with Library(dbp) as lib:
        lib.conn.execute("DELETE FROM games WHERE game_key = 'g0001'")
    rc, _, err = bower("stats", "--db", dbp)
    assert rc == 1 and "no games in the library played to the end (--unfinished counts the others too)" in err
