"""Property-based hostile input (hypothesis): a device over a pseudo-terminal
that lists and sends anything, and library files damaged at random. Whatever
happens: no traceback, no internal error, a failure is one line; no good
game is lost; good data already stored is unchanged; nothing is stored
half-way (a game is in the library exactly when the device was told it is
synced, and what is stored is the device's log or, for a damaged log, its
good prefix).

``CASES`` counts the hostile cases run (examples times games, plus every
command run on each damaged library); ``-s`` prints it.
"""

import os
import re
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.db import Library

from hostile import DEVICE, ListedStore, bower, corrupt_line, crc, game_log, hostile_device, lines, with_header

CASES = {"device games": 0, "device syncs": 0, "library commands": 0, "libraries": 0}

POOL = [game_log(v, s, "gX") for v, s in (("classic", 1), ("five", 2), ("callpartner", 3), ("ultimate", 4))]
SHORT = game_log("classic", 5, "gX", hands=2)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=True)
    | st.text(max_size=12) | st.sampled_from([0, 1, 3, 4, 5, 1.5, -1, 2 ** 62, "", "[b]", "A", "table", "cards"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)
FIELDS = ["dealer", "players", "started", "variant", "options", "mode", "id", "device", "format"]

# One game on the hostile device: how it is damaged.
GAME = st.one_of(
    st.tuples(st.just("good"), st.integers(0, len(POOL) - 1)),
    st.tuples(st.just("header"), st.integers(0, len(POOL) - 1), st.sampled_from(FIELDS),
              JSON_VALUES | st.just(...)),
    st.tuples(st.just("corrupt"), st.integers(0, len(POOL) - 1), st.integers(1, 10 ** 6)),
    st.tuples(st.just("truncate"), st.integers(0, len(POOL) - 1), st.integers(0, 10 ** 6)),
    st.tuples(st.just("garbage"), st.binary(max_size=300)),
    st.tuples(st.just("size"), st.integers(0, len(POOL) - 1), st.sampled_from([-1, 1, 2 ** 22 + 1, 10 ** 12]),
              st.integers(-3000, 3000)),
    st.tuples(st.just("badid"), st.sampled_from(["../x", "a/b", "-x", "g" + "9" * 70, ".."])),
)


def _with_id(raw: bytes, gid: str) -> bytes:
    return with_header(raw, id=gid)


def build(kind, gid):
    """(listed id, bytes, listed size or None, expectation) for one game."""
    k = kind[0]
    if k == "good":
        return gid, _with_id(POOL[kind[1]], gid), None, "stored"
    if k == "header":
        _, i, field, value = kind
        raw = with_header(_with_id(POOL[i], gid), **{field: value})
        return gid, raw, None, "any"
    if k == "corrupt":
        raw = _with_id(POOL[kind[1]], gid)
        n = len(lines(raw))
        return gid, corrupt_line(raw, 1 + kind[2] % n), None, "any"
    if k == "truncate":
        raw = _with_id(POOL[kind[1]], gid)
        return gid, raw[:kind[2] % len(raw)], None, "any"
    if k == "garbage":
        return gid, kind[1], None, "refused"
    if k == "size":
        raw = _with_id(POOL[kind[1]], gid)
        size = kind[2] if kind[2] != 1 else max(0, len(raw) + kind[3])
        return gid, raw, size, ("any" if size == len(raw) else "refused")
    return kind[1], _with_id(SHORT, "gY"), None, "refused"


@pytest.fixture(scope="module")
def good_before(tmp_path_factory):
    """A library holding one game of another device, stored before any hostile sync."""
    d = tmp_path_factory.mktemp("before")
    p = d / "bower.sqlite3"
    with Library(p) as lib:
        assert lib.add_log(game_log("five", 8, "g0001", device="cafe01"), "cafe01", "g0001.log").status == "new"
    return p


def _rows(p):
    c = sqlite3.connect(p)
    try:
        return sorted(c.execute("SELECT device, game_key, log, scores, hands, finished, damaged FROM games"
                                " WHERE device = 'cafe01'").fetchall())
    finally:
        c.close()


def test_a_hostile_device_never_causes_a_traceback_or_a_lost_game(tmp_path_factory, good_before):
    flash = tmp_path_factory.mktemp("flash")
    before = _rows(good_before)

    @settings(max_examples=30, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(games=st.lists(GAME, min_size=1, max_size=4),
           fw=st.sampled_from(["0.2.0", "[bold]", "[/]", "x" * 60]))
    def run(games, fw):
        built = [build(kind, f"g{i + 1:04d}") for i, kind in enumerate(games)]
        files = {gid: raw for gid, raw, _, _ in built}
        sizes = {gid: size for gid, _, size, _ in built if size is not None}
        store = ListedStore(files, sizes)
        CASES["device games"] += len(built)
        CASES["hostile device games"] = CASES.get("hostile device games", 0) + sum(k[0] != "good" for k in games)
        CASES["device syncs"] += 1
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "bower.sqlite3"
            shutil.copy(good_before, p)
            with hostile_device(flash, store, version=fw) as dev:
                rc, out, err = bower("sync", "--port", dev.port, "--db", p, "--quiet", "--timeout", "0.3")
            with Library(p) as lib:
                have = {g["game_key"]: g for g in lib.games() if g["device"] == DEVICE}
            for gid, raw, _size, expect in built:
                g = have.get(gid)
                if expect == "stored":
                    assert g is not None and g["log"].encode() == raw, (gid, out)
                if expect == "refused":
                    assert g is None or g["log"].encode() != raw, (gid, out)
                    assert gid not in store.synced
                if g is not None:
                    # Stored: all of it, or its good prefix when damaged; and the device knows.
                    log = g["log"].encode()
                    assert log == raw or g["damaged"] and raw.startswith(log), (gid, out)
                    assert store.synced.get(gid) == crc(raw), (gid, out)
                else:
                    assert gid not in store.synced, (gid, out)
            # Only games listed under their own id are stored, under that id.
            assert set(have) <= set(files), (have.keys(), out)
            bad = re.findall(r"^  \S+\s+(failed|refused|damaged) ", out, re.M)
            assert rc == (1 if bad else 0), (rc, out, err)
            assert _rows(p) == before
            for cmd in (["games"], ["stats", "--unfinished"], ["export"], ["export", "-f", "json"]):
                code, _, e = bower(*cmd, "--db", p)
                assert code == 0 or "empty" in e, (cmd, e)

    run()
    print("hostile device cases:", CASES)


# ----- damaged library files ------------------------------------------------------------

@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A library of five games (one of them damaged) with its raw archive."""
    d = tmp_path_factory.mktemp("template")
    p = d / "bower.sqlite3"
    with Library(p) as lib:
        for i, raw in enumerate(POOL):
            assert lib.add_log(_with_id(raw, f"g{i + 1:04d}"), DEVICE, f"g{i + 1:04d}.log").status == "new"
        r = lib.add_log(corrupt_line(_with_id(POOL[0], "g0009"), 6), DEVICE, "g0009.log")
        assert r.damaged
    return p


def _raw_files(d: Path) -> dict:
    raw = d / "bower.sqlite3.raw"        # the template library's own archive
    return {str(f.relative_to(d)): f.read_bytes() for f in sorted(raw.rglob("*")) if f.is_file()}


def _all_rows(p):
    c = sqlite3.connect(p)
    try:
        return sorted(c.execute("SELECT device, game_key, log, scores, hands, finished, damaged, raw_sha256 "
                                "FROM games").fetchall())
    finally:
        c.close()


COLUMNS = {"games": ["variant", "options", "players", "mode", "first_dealer", "started", "finished", "result",
                     "winners", "scores", "hands", "log", "dropped", "damaged", "raw_sha256", "game_key"],
           "hands": ["number", "dealer", "upcard", "maker", "trump", "alone", "lone_defender", "partner",
                     "tricks", "points", "maker_tricks", "reason", "result", "scores", "outcome_code"]}
SQL_VALUE = st.one_of(st.none(), st.integers(-2 ** 63, 2 ** 63 - 1), st.floats(allow_nan=False),
                      st.text(max_size=20), st.binary(max_size=20),
                      st.sampled_from(["[1, 2]", "[]", "{}", "[\"a\", 2]", "null", "{\"x\": 1}", "[0, 0, 0, 0]",
                                       "[99]", "classic", "five", "cards", "nope", 2 ** 62, -5, 99]))
DAMAGE = st.one_of(
    st.tuples(st.just("bytes"), st.integers(0, 10 ** 6), st.binary(min_size=1, max_size=200)),
    st.tuples(st.just("truncate"), st.integers(0, 10 ** 6)),
    st.tuples(st.just("drop"), st.sampled_from(["games", "hands", "players"])),
    st.tuples(st.just("dropcol"), st.sampled_from([("games", "log"), ("games", "damaged"), ("hands", "reason"),
                                                   ("players", "name")])),
    st.tuples(st.just("set"), st.sampled_from(sorted(COLUMNS)), st.data()),
    st.tuples(st.just("version"), st.integers(-5, 9)),
)


def _damage(p: Path, op, draw) -> None:
    k = op[0]
    if k in ("bytes", "truncate") and not p.stat().st_size:
        return                                 # nothing left to damage
    if k == "bytes":
        data = bytearray(p.read_bytes())
        i = op[1] % len(data)
        data[i:i + len(op[2])] = op[2]
        p.write_bytes(bytes(data[:max(len(data), 1)]))
        return
    if k == "truncate":
        data = p.read_bytes()
        p.write_bytes(data[:op[1] % len(data)])
        return
    try:
        c = sqlite3.connect(p)
        if k == "drop":
            c.execute(f"DROP TABLE IF EXISTS {op[1]}")
        elif k == "dropcol":
            c.execute(f"ALTER TABLE {op[1][0]} DROP COLUMN {op[1][1]}")
        elif k == "set":
            table = op[1]
            col = op[2].draw(st.sampled_from(COLUMNS[table]))
            val = op[2].draw(SQL_VALUE)
            c.execute(f"UPDATE {table} SET {col} = ? WHERE rowid IN (SELECT rowid FROM {table} LIMIT 2)", (val,))
        else:
            c.execute(f"PRAGMA user_version = {op[1]}")
        c.commit()
        c.close()
    except sqlite3.Error:
        pass  # damage that SQLite itself refuses: the file is as it was, or already damaged


def test_a_damaged_library_never_causes_a_traceback_and_rebuilds_every_game(template):
    good = _all_rows(template)
    archive = _raw_files(template.parent)

    @settings(max_examples=30, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(ops=st.lists(DAMAGE, min_size=1, max_size=3))
    def run(ops):
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            shutil.copytree(template.parent, d, dirs_exist_ok=True)
            p = d / template.name
            for op in ops:
                _damage(p, op, None)
            CASES["libraries"] += 1
            for cmd in (["games"], ["show", "1"], ["show", "g0009"], ["export"], ["export", "-f", "json"],
                        ["export", "-f", "egn", "g0001"], ["stats"], ["library", "check"]):
                CASES["library commands"] += 1
                rc, _, err = bower(*cmd, "--db", p)
                if rc:
                    assert any(w in err for w in ("damaged", "not a usable game library", "schema version",
                                                  "no game", "empty", "cannot be written as EGN",
                                                  "cannot be read or written")), (cmd, err)
            sound = rc == 0 or "newer than this bower" in err      # what `library check` said, last
            before = p.read_bytes()
            CASES["library commands"] += 1
            rc, out, err = bower("library", "rebuild", "--db", p)
            if sound:
                # Never renamed, never touched: a sound library, or a newer bower's.
                assert rc == 1 and ("is sound" in err or "newer than this bower" in err), err
                assert p.read_bytes() == before and not list(d.glob("*.damaged-*"))
            else:
                assert rc == 0, err
                assert _all_rows(p) == good                  # every game, as it was
            assert _raw_files(d) == archive                  # the raw archive untouched

    run()
    print("damaged library cases:", CASES)


# ----- the command line -------------------------------------------------------------------

WORDS = st.one_of(st.sampled_from(["1", "2", "g0001", "g0009", "e6614103e7/g0001", "/", "", "-", "-1", "0",
                                   "99999999999999999999999", "\u00b2", "a\x00b", "..", "csv", "json", "egn",
                                   "classic", "five", "x" * 300, "[bold]", "--", "/proc/x", "/dev/null"]),
                  st.text(max_size=12))
ARGV = st.tuples(
    st.sampled_from([["games"], ["show"], ["export"], ["export", "-f"], ["export", "-o"], ["stats", "--variant"],
                     ["stats", "--format"], ["plot", "-o"], ["library", "check"], ["library", "rebuild"],
                     ["sync", "--port"], ["sync", "--timeout", "0.05", "--port"], ["clock", "--timeout", "0.05",
                                                                                   "--port"]]),
    st.lists(WORDS, max_size=3), st.booleans())


def test_no_command_line_gives_a_traceback(template):
    @settings(max_examples=60, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(argv=ARGV)
    def run(argv):
        head, words, with_db = argv
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            shutil.copytree(template.parent, d, dirs_exist_ok=True)
            args = head + words + (["--db", str(d / template.name)] if with_db and head[0] != "clock" else [])
            if head[0] == "plot" and not words:
                args += ["x.png"]
            CASES["command lines"] = CASES.get("command lines", 0) + 1
            cwd = os.getcwd()
            os.chdir(d)                      # files an -o writes land in the temp dir
            try:
                bower(*args)
            except SystemExit as e:          # a usage error: argparse's message and status 2
                assert e.code == 2
            except AssertionError as e:
                # A command may write several "bower: skipped ..." lines before
                # its error (export -f egn); a traceback or internal error never.
                text = str(e)
                assert "Traceback" not in text and "internal error" not in text, text
            finally:
                os.chdir(cwd)

    run()
    print("command line cases:", CASES)
