"""Several libraries in one directory: each owns its side files.

``club.sqlite3`` keeps ``club.sqlite3.raw/``, ``club.sqlite3.partial/`` and
``club.sqlite3.lock`` (host/EXPORTS.md, "The library's files"). Sync,
import, check and rebuild on one library leave every other file in the
directory byte for byte as it was; ``library rebuild`` refuses a sound
library and what is not a Bower library, in one line, touching nothing; an
older bower's shared ``raw/`` and ``partial/`` are given to the one library
they can belong to, and otherwise left where they are, saying so.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.db import Library, LibraryError, side_path
from bower_host.db import library as db_library

from conftest import DEVICE, log_bytes, table_game
from fake_device import FakeDevice, random_table_game, record_game
from hostile import corrupt_line

LONG = {"winning_score": 30}      # a game whose log spans several chunks


def own(d: Path, name: str) -> set[str]:
    """The names in ``d`` that belong to the library ``name``: its file,
    SQLite's files beside it, its side files and the copies rebuild keeps."""
    exact = {name, f"{name}-journal", f"{name}.raw", f"{name}.partial", f"{name}.lock", f"{name}.rebuild",
             f"{name}.rebuild-journal"}
    return {p.name for p in d.iterdir() if p.name in exact or p.name.startswith(f"{name}.damaged-")}


def snapshot(d: Path, skip: set[str] = frozenset()) -> dict:
    """Every file and directory under ``d`` (paths relative to it) with its
    bytes, except the top-level names in ``skip``."""
    out = {}
    for p in sorted(d.rglob("*")):
        rel = p.relative_to(d)
        if rel.parts[0] in skip:
            continue
        out[str(rel)] = "<dir>" if p.is_dir() else p.read_bytes()
    return out


def others(d: Path, name: str) -> dict:
    return snapshot(d, own(d, name))


def games(p: Path) -> list:
    c = sqlite3.connect(p)
    try:
        return sorted(c.execute("SELECT device, game_key, log FROM games").fetchall())
    finally:
        c.close()


def logs(seed: int, n: int = 3) -> list[bytes]:
    """``n`` device logs with the ids g0001... (every library below reuses
    them: two libraries holding another game under the same device and id
    is what a shared archive cannot tell apart)."""
    return [log_bytes(table_game("classic", seed + i), f"g{i + 1:04d}") for i in range(n)]


@pytest.fixture
def shelf(tmp_path):
    """A directory as the README's tour leaves it: two libraries of
    different games under the same device and ids, a junk file, another
    program's SQLite database and a notes file."""
    d = tmp_path / "games"
    d.mkdir()
    for name, seed in (("tour.sqlite3", 100), ("club.sqlite3", 200)):
        with Library(d / name) as lib:
            for i, raw in enumerate(logs(seed)):
                assert lib.add_log(raw, DEVICE, f"g{i + 1:04d}.log").status == "new"
    (d / "junk.sqlite3").write_bytes(b"not a database\n" * 50)
    c = sqlite3.connect(d / "notes.db")
    c.execute("CREATE TABLE notes (t TEXT)")
    c.execute("INSERT INTO notes VALUES ('keep me')")
    c.commit()
    c.close()
    (d / "README.txt").write_text("hello\n")
    return d


def _drop_hands(p: Path) -> None:
    c = sqlite3.connect(p)
    c.execute("DROP TABLE hands")
    c.commit()
    c.close()


# ----- each library its own side files ----------------------------------------------------

def test_each_library_archives_beside_itself_under_its_own_name(shelf):
    assert sorted(p.name for p in shelf.iterdir()) == [
        "README.txt", "club.sqlite3", "club.sqlite3.raw", "junk.sqlite3", "notes.db", "tour.sqlite3",
        "tour.sqlite3.raw"]
    for name, seed in (("tour.sqlite3", 100), ("club.sqlite3", 200)):
        with Library(shelf / name) as lib:
            assert lib.raw_dir == side_path(shelf / name, "raw") == shelf / f"{name}.raw"
            assert lib.partial_dir == shelf / f"{name}.partial"
        assert sorted((shelf / f"{name}.raw" / DEVICE).iterdir()) == \
            [shelf / f"{name}.raw" / DEVICE / f"g{i:04d}.log" for i in (1, 2, 3)]
        assert [(shelf / f"{name}.raw" / DEVICE / f"g{i + 1:04d}.log").read_bytes() for i in range(3)] == logs(seed)


def test_sync_into_one_library_leaves_the_others_byte_for_byte(shelf, tmp_path, bower):
    before = others(shelf, "tour.sqlite3")
    root = tmp_path / "flash"
    dev = FakeDevice(root, device_id="d0d0d0d0d0")       # a second Bower: its g0001 is another game
    gid = record_game(dev.store, "five", random_table_game("five", seed=3, options=LONG), options=LONG)
    record_game(dev.store, "classic", random_table_game("classic", seed=4))
    dev.vanish_after_gets = 1                      # unplugged after a chunk: bytes kept for the next sync
    with dev:
        rc, _, err = bower("sync", "--port", dev.port, "--db", shelf / "tour.sqlite3", "--quiet")
    assert rc == 1 and "resume" in err
    assert (shelf / "tour.sqlite3.partial" / "d0d0d0d0d0" / f"{gid}.part").is_file()
    assert others(shelf, "tour.sqlite3") == before
    with FakeDevice(root, device_id="d0d0d0d0d0") as dev2:
        rc, out, err = bower("sync", "--port", dev2.port, "--db", shelf / "tour.sqlite3", "--quiet")
    assert rc == 0, err
    assert others(shelf, "tour.sqlite3") == before
    assert not (shelf / "raw").exists() and not (shelf / "partial").exists()
    assert not list((shelf / "tour.sqlite3.partial").rglob("*.part"))
    assert len(games(shelf / "tour.sqlite3")) == 5 and len(games(shelf / "club.sqlite3")) == 3


def test_import_check_and_rebuild_of_one_library_leave_the_others(shelf, tmp_path, bower):
    club_games = games(shelf / "club.sqlite3")
    before = others(shelf, "club.sqlite3")
    f = tmp_path / "elsewhere" / "g0009.log"
    f.parent.mkdir()
    f.write_bytes(log_bytes(table_game("ultimate", 7), "g0009"))
    rc, _, err = bower("import", "--db", shelf / "club.sqlite3", f)
    assert rc == 0, err
    assert bower("library", "check", "--db", shelf / "club.sqlite3")[0] == 0
    club_games = games(shelf / "club.sqlite3")
    assert len(club_games) == 4
    _drop_hands(shelf / "club.sqlite3")
    rc, out, err = bower("library", "rebuild", "--db", shelf / "club.sqlite3")
    assert rc == 0 and "4 game(s)" in out, err
    assert games(shelf / "club.sqlite3") == club_games          # its own games, none of tour's
    assert list(shelf.glob("club.sqlite3.damaged-*"))
    assert others(shelf, "club.sqlite3") == before
    before = others(shelf, "tour.sqlite3")
    rc, out, _ = bower("library", "check", "--db", shelf / "tour.sqlite3")
    assert rc == 0 and "sound, 3 game(s)" in out
    assert others(shelf, "tour.sqlite3") == before


def test_a_library_damaged_beside_a_sound_one_rebuilds_from_its_own_logs_only(shelf, bower):
    tour = games(shelf / "tour.sqlite3")
    before = others(shelf, "tour.sqlite3")
    (shelf / "tour.sqlite3").write_bytes(b"\xa5" * 4096)            # even its header is gone
    rc, _, err = bower("games", "--db", shelf / "tour.sqlite3")
    assert rc == 1 and "bower library rebuild" in err and "tour.sqlite3.raw" in err
    rc, out, err = bower("library", "rebuild", "--db", shelf / "tour.sqlite3")
    assert rc == 0 and "3 game(s)" in out, err
    assert games(shelf / "tour.sqlite3") == tour
    assert others(shelf, "tour.sqlite3") == before


# ----- rebuild refuses, touching nothing ----------------------------------------------------

def _refused(bower, d: Path, name: str, *says: str) -> None:
    before = snapshot(d)
    rc, out, err = bower("library", "rebuild", "--db", d / name)
    assert rc == 1 and err.count("\n") == 1 and err.startswith("bower: ") and "Traceback" not in err, err
    assert all(s in err for s in says), err
    assert snapshot(d) == before, "a refused rebuild changed nothing"


def test_rebuild_never_renames_a_sound_library(shelf, bower):
    _refused(bower, shelf, "tour.sqlite3", "is sound (3 game(s)", "nothing was changed")


def test_rebuild_refuses_what_is_not_a_bower_library(shelf, bower):
    _refused(bower, shelf, "junk.sqlite3", "is not a Bower game library", "no raw logs in")
    _refused(bower, shelf, "notes.db", "another program's SQLite database", "nothing was changed")
    _refused(bower, shelf, "README.txt", "is not a Bower game library")
    (shelf / "empty.sqlite3").write_bytes(b"")
    _refused(bower, shelf, "empty.sqlite3", "no raw logs in")
    (shelf / "folder").mkdir()
    _refused(bower, shelf, "folder", "is a directory, not a game library")


def test_the_read_commands_never_make_another_programs_database_a_library(shelf, bower):
    before = (shelf / "notes.db").read_bytes()
    for cmd in (["games"], ["stats"], ["library", "check"], ["export"]):
        rc, _, err = bower(*cmd, "--db", shelf / "notes.db")
        assert rc == 1 and "not a Bower game library" in err and err.count("\n") == 1, (cmd, err)
    assert (shelf / "notes.db").read_bytes() == before


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(content=st.one_of(st.binary(max_size=3000),
                         st.binary(max_size=3000).map(lambda b: b"SQLite format 3\x00" + b),
                         st.text(max_size=200).map(str.encode)))
def test_rebuild_refuses_any_junk_beside_real_libraries(content):
    from bower_host.cli import main
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        with Library(d / "real.sqlite3") as lib:
            lib.add_log(logs(300, 1)[0], DEVICE, "g0001.log")
        (d / "junk.sqlite3").write_bytes(content)
        before = snapshot(d)
        assert main(["library", "rebuild", "--db", str(d / "junk.sqlite3")]) == 1
        assert snapshot(d) == before


# ----- libraries with awkward names, side by side --------------------------------------------

NAMES = ["a.sqlite3", "raw", "partial", "b", "b.lock.db", "a.sqlite3.raw.db", "x y.db", "\u00fcn\u00ef.db",
         ".hidden", "c.sqlite3.damaged"]
OPS = st.sampled_from(["add", "import", "check", "games", "damage-rebuild", "rebuild"])


def test_whatever_one_library_does_the_others_are_untouched(tmp_path):
    from bower_host.cli import main
    pool = logs(400, 4)
    src = tmp_path / "src"
    src.mkdir()
    for i, raw in enumerate(pool):
        (src / f"g{i + 1:04d}.log").write_bytes(raw)
    damaged = corrupt_line(pool[0], 4)

    @settings(max_examples=20, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(names=st.lists(st.sampled_from(NAMES), min_size=2, max_size=3, unique=True),
           steps=st.lists(st.tuples(st.integers(0, 2), OPS, st.integers(0, 3)), min_size=1, max_size=6))
    def run(names, steps):
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            for name in names:
                with Library(d / name) as lib:
                    lib.add_log(pool[0], DEVICE, "g0001.log")
            for i, op, k in steps:
                name = names[i % len(names)]
                p = d / name
                before = others(d, name)
                if op == "add":                    # what a sync stores
                    try:
                        with Library(p) as lib:
                            lib.add_log(damaged if k == 3 else pool[k], DEVICE, f"g{k + 1:04d}.log")
                    except LibraryError:
                        pass                        # damaged by an earlier step
                elif op == "import":
                    main(["import", "--db", str(p), str(src / f"g{k + 1:04d}.log")])
                elif op in ("check", "games"):
                    main(["library", "check", "--db", str(p)] if op == "check" else ["games", "--db", str(p)])
                else:
                    if op == "damage-rebuild" and p.is_file():
                        p.write_bytes(p.read_bytes()[:k * 1000])
                    main(["library", "rebuild", "--db", str(p)])
                assert others(d, name) == before, (name, op)
            for name in names:
                # Every library holds its own games only (g0001 at least, from its archive).
                if (d / name).is_file() and main(["library", "check", "--db", str(d / name)]) == 0:
                    with Library(d / name, create=False) as lib:
                        assert ("e6614103e7", "g0001") in {(g["device"], g["game_key"]) for g in lib.games()}
    run()


# ----- an older bower's shared raw/ and partial/ ------------------------------------------------

@contextmanager
def older_bower(monkeypatch):
    """Libraries made in here are laid out as bowers before this one did it:
    ``raw/`` and ``partial/`` in the directory, shared by every library there
    (a different log under a name taken goes to ``<id>.<sha>.log``: they did
    not refuse a log whose archive name another library's log took)."""
    def shared(path, what):
        path = Path(path)
        return path.parent / what if what in ("raw", "partial") else path.with_name(f"{path.name}.{what}")
    with monkeypatch.context() as m:
        m.setattr(db_library, "side_path", shared)
        m.setattr(db_library, "adopt_legacy_side_files", lambda *a, **k: None)
        m.setattr(db_library, "archived_other", lambda *a, **k: None)
        yield


def _fill(p: Path, seed: int) -> None:
    with Library(p) as lib:
        for i, raw in enumerate(logs(seed)):
            assert lib.add_log(raw, DEVICE, f"g{i + 1:04d}.log").status == "new"


def test_an_older_layout_with_one_library_moves_to_its_own_names(tmp_path, monkeypatch, bower):
    d = tmp_path / "data"
    with older_bower(monkeypatch):
        _fill(d / "bower.sqlite3", 500)
    (d / "partial" / DEVICE).mkdir(parents=True)
    (d / "partial" / DEVICE / "g0007.part").write_bytes(b"[1]\n")
    (d / "sim-flash").mkdir()                       # what else the data directory holds
    archive = snapshot(d / "raw")
    rc, out, err = bower("games", "--db", d / "bower.sqlite3")
    assert rc == 0 and "moved an older bower's raw/ to bower.sqlite3.raw/ and partial/ to " \
                       "bower.sqlite3.partial/" in err and err.count("\n") == 1, err
    assert not (d / "raw").exists() and not (d / "partial").exists()
    assert snapshot(d / "bower.sqlite3.raw") == archive
    assert (d / "bower.sqlite3.partial" / DEVICE / "g0007.part").read_bytes() == b"[1]\n"
    rc, out, err = bower("games", "--db", d / "bower.sqlite3")
    assert rc == 0 and err == ""                    # said once
    _drop_hands(d / "bower.sqlite3")
    rc, out, err = bower("library", "rebuild", "--db", d / "bower.sqlite3")
    assert rc == 0 and "3 game(s)" in out, err


def test_an_older_layout_damaged_or_lost_library_rebuilds_from_it(tmp_path, monkeypatch, bower):
    d = tmp_path / "data"
    with older_bower(monkeypatch):
        _fill(d / "bower.sqlite3", 600)
    want = games(d / "bower.sqlite3")
    data = bytearray((d / "bower.sqlite3").read_bytes())
    data[4096 * 2:] = b"\xa5" * (len(data) - 4096 * 2)     # bad pages, the header intact
    (d / "bower.sqlite3").write_bytes(bytes(data))
    rc, out, err = bower("library", "rebuild", "--db", d / "bower.sqlite3")
    assert rc == 0 and "3 game(s)" in out and "moved an older bower's raw/" in err, err
    assert games(d / "bower.sqlite3") == want and not (d / "raw").exists()
    # The file lost altogether: the archive, the library's own now, brings it back.
    (d / "bower.sqlite3").unlink()
    assert bower("library", "rebuild", "--db", d / "bower.sqlite3")[0] == 0
    assert games(d / "bower.sqlite3") == want


def test_an_older_layout_shared_by_two_libraries_is_split_by_checksum(tmp_path, monkeypatch, bower):
    d = tmp_path / "tour"
    with older_bower(monkeypatch):
        _fill(d / "tour.sqlite3", 100)
        _fill(d / "club.sqlite3", 200)              # the same device and ids: club's go to g000N.<sha>.log
    assert len(list((d / "raw" / DEVICE).iterdir())) == 6
    tour, club = games(d / "tour.sqlite3"), games(d / "club.sqlite3")
    shared = snapshot(d / "raw")
    rc, out, err = bower("library", "check", "--db", d / "tour.sqlite3")
    assert rc == 0 and "copied 3 raw log(s) of tour.sqlite3's games" in err and "club.sqlite3" in err, err
    rc, out, err = bower("games", "--db", d / "club.sqlite3")
    assert rc == 0 and "copied 3 raw log(s) of club.sqlite3's games" in err, err
    assert bower("games", "--db", d / "club.sqlite3")[2] == ""          # said once
    assert snapshot(d / "raw") == shared                                # left for whoever else needs it
    for name, want in (("tour.sqlite3", tour), ("club.sqlite3", club)):
        _drop_hands(d / name)
        before = others(d, name)
        rc, out, err = bower("library", "rebuild", "--db", d / name)
        assert rc == 0 and "3 game(s)" in out, err
        assert games(d / name) == want                                  # its own games, none of the other's
        assert others(d, name) == before


def test_an_older_layout_that_cannot_be_split_is_left_and_said(tmp_path, monkeypatch, bower):
    d = tmp_path / "tour"
    with older_bower(monkeypatch):
        _fill(d / "tour.sqlite3", 100)
        _fill(d / "club.sqlite3", 200)
    _drop_hands(d / "club.sqlite3")
    data = bytearray((d / "tour.sqlite3").read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)                        # its schema page only: which logs are its own?
    (d / "tour.sqlite3").write_bytes(bytes(data))
    before = snapshot(d)
    rc, out, err = bower("library", "rebuild", "--db", d / "tour.sqlite3")
    assert rc == 1 and err.count("\n") == 1 and "cannot be read to tell which" in err and "by hand" in err, err
    rc, out, err = bower("library", "check", "--db", d / "tour.sqlite3")
    assert rc == 1 and err.count("\n") == 1 and "damaged" in err and "cannot be read to tell which" in err, err
    assert snapshot(d) == before
    f = tmp_path / "g0009.log"
    f.write_bytes(log_bytes(table_game("classic", 9), "g0009"))
    (d / "tour.sqlite3").unlink()
    rc, _, err = bower("import", "--db", d / "tour.sqlite3", f)         # a new library: takes nothing
    assert rc == 0 and "raw/" not in err, err
    assert snapshot(d, {"tour.sqlite3", "tour.sqlite3.raw", "tour.sqlite3.lock"}) == \
        {k: v for k, v in before.items() if k != "tour.sqlite3"}


@pytest.mark.parametrize("layout", ["photos", "another library's logs"])
def test_a_raw_directory_that_is_not_this_librarys_is_never_taken(tmp_path, bower, layout):
    d = tmp_path / "home"
    d.mkdir()
    with Library(d / "games.sqlite3") as lib:
        lib.add_log(logs(700, 1)[0], DEVICE, "g0001.log")
    shutil.rmtree(d / "games.sqlite3.raw")          # as if made by an older bower, its raw/ since deleted
    if layout == "photos":
        (d / "raw").mkdir()
        (d / "raw" / "IMG_0001.CR2").write_bytes(b"\x00" * 100)
    else:                                           # an older bower's archive of a library deleted since
        (d / "raw" / "abc").mkdir(parents=True)
        (d / "raw" / "abc" / "g0042.log").write_bytes(b"[1]\n")
    before = snapshot(d)
    for cmd in (["games"], ["stats"]):
        rc, _, err = bower(*cmd, "--db", d / "games.sqlite3")
        assert rc == 0 and err == "", err
    # Its own archive is gone, and check says so (issue 32) rather than take raw/.
    rc, out, err = bower("library", "check", "--db", d / "games.sqlite3")
    assert rc == 1 and "g0001" in out and "is missing" in out and "1 missing" in err, (out, err)
    assert snapshot(d) == before
