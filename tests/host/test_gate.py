"""One gate into the library (issue 32): every way a game enters goes through
``Library.add_log``, and what it refuses stores nothing, anywhere.

Each test here failed on the code before (c04a2fe): a round log that
``bower club result`` refused was stored as a game, so the table's genuine
log was "a different game with the same id" for ever; an import let in a
device id with ``/``, names with a space first or twice in a game, and
reported a refused game on stdout with status 0; a refused log was archived
(``.mismatch-`` copies); an amended hand was shown with a maker and tricks
nobody entered; a library reached through a symlink got a second archive;
``library check`` called a library sound whatever its archive held; rebuild
dropped games without naming them.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from bower_host.db import Library, Refused
from euchre import log as elog

from hostile import tree, with_header

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def bower(capsys):
    """``bower ARGS`` in-process: ``(status, stdout, stderr)``; never a traceback or an internal error."""
    from bower_host.cli import main

    def run(*args):
        capsys.readouterr()
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err and "internal error" not in err, err
        return rc, out, err
    return run


def _night(tmp_path, bower) -> Path:
    db = tmp_path / "club.sqlite3"
    rc, _, _ = bower("club", "new", "Fri", "--db", db, "--players", *PLAYERS, "--tables", "2", "--hands", "2",
                     "--rounds", "2", "--seed", "1", "--id", "fri")
    assert rc == 0
    rc, _, _ = bower("club", "simulate", "--db", db, "--round", "1", "-o", tmp_path / "logs")
    assert rc == 0
    return db


def _games(db) -> list:
    c = sqlite3.connect(db)
    try:
        return sorted(c.execute("SELECT device, game_key, raw_sha256 FROM games").fetchall())
    finally:
        c.close()


def test_a_round_log_that_club_result_refuses_stores_nothing_and_the_genuine_log_still_counts(tmp_path, bower):
    db = _night(tmp_path, bower)
    logs = tmp_path / "logs"
    assert bower("club", "result", "--db", db, logs / "r1-t2.log")[0] == 0
    genuine = (logs / "r1-t1.log").read_bytes()
    header = elog.decode_line(genuine.splitlines()[0].decode())
    edited = tmp_path / "edited.log"
    edited.write_bytes(with_header(genuine, club=dict(header["club"], table=2)))     # claims table 2
    before = _games(db), tree(db.parent / "club.sqlite3.raw")
    rc, out, err = bower("club", "result", "--db", db, edited)
    assert rc == 1 and out == "" and "already has a result" in err, (out, err)
    assert (_games(db), tree(db.parent / "club.sqlite3.raw")) == before          # nothing of it stored
    rc, out, err = bower("club", "result", "--db", db, logs / "r1-t1.log")
    assert rc == 0 and "counted" in out, (out, err)
    rc, out, _ = bower("club", "standings", "--db", db, "--format", "json")
    tables = {t["table"]: t["status"] for r in json.loads(out)["rounds"] if r["round"] == 1 for t in r["tables"]}
    assert tables == {1: "complete", 2: "complete"}


def test_a_refused_round_rolls_back_its_archived_log_when_the_commit_fails(tmp_path, bower):
    # The round's rows are written in the game's transaction: when they fail,
    # the game's rows and its archived log are taken back too.
    db = _night(tmp_path, bower)
    raw = (tmp_path / "logs" / "r1-t1.log").read_bytes()

    def admit(rp, device, key):
        def write(conn, gid):
            raise sqlite3.OperationalError("disk I/O error")
        return write
    with Library(db) as lib, pytest.raises(sqlite3.OperationalError):
        lib.add_log(raw, None, "r1-t1.log", admit=admit)
    assert _games(db) == [] and not [p for p in tree(tmp_path / "club.sqlite3.raw") if p.endswith(".log")]


def _log(kit, names=None, device="e6614103e7", gid="g0001", **header) -> bytes:
    g = kit.scripted_game("classic", ["up H", "pass", "order", "tricks 3"], names=names)
    raw = kit.log_bytes(g, gid, device=device)
    return with_header(raw, **header) if header else raw


@pytest.mark.parametrize("case, header, says", [
    ("device-slash", {"device": "a/b"}, "an id is 1 to 64 letters"),
    ("device-dots", {"device": ".."}, "an id is 1 to 64 letters"),
    ("device-bool", {"device": True}, "not an id"),
    ("id-slash", {"id": "x/../y"}, "an id is 1 to 64 letters"),
    ("name-leading-space", {"players": [" =1+2", "Bob", "Cy", "Di"]}, "no space first or last"),
    ("name-trailing-space", {"players": ["Ann ", "Bob", "Cy", "Di"]}, "no space first or last"),
    ("name-twice", {"players": ["Ann", "Bob", "Ann", "Di"]}, "'Ann' is seated twice"),
    ("name-too-long", {"players": ["A" * 65, "Bob", "Cy", "Di"]}, "not a list of player names"),
])
def test_an_import_checks_what_sync_checks_and_a_refusal_exits_1_on_stderr(kit, tmp_path, bower, case, header,
                                                                             says):
    db = tmp_path / "lib.sqlite3"
    good = tmp_path / "good.log"
    good.write_bytes(_log(kit, gid="g0002"))
    assert bower("import", "--db", db, good)[0] == 0
    before = _games(db), tree(tmp_path / "lib.sqlite3.raw")
    bad = tmp_path / "bad.log"
    bad.write_bytes(_log(kit, **header))
    rc, out, err = bower("import", "--db", db, bad)
    assert rc == 1 and out == "" and says in err, (out, err)
    assert (_games(db), tree(tmp_path / "lib.sqlite3.raw")) == before


def test_a_file_goes_in_whole_or_not_at_all(kit, tmp_path, bower):
    # A JSON export whose two games share an id with different logs: before,
    # the first was stored and the second reported on stdout, status 0.
    db = tmp_path / "lib.sqlite3"
    a = _log(kit).decode()
    b = _log(kit, names=["Zed", "Bob", "Cy", "Di"]).decode()
    doc = {"format": "bower-library-export", "version": 1, "games": []}
    for text in (a, b):
        rp = __import__("bower_host.db", fromlist=["replay"]).replay(text)
        doc["games"].append({"device": "e6614103e7", "game_id": "g0001", "log": text, "scores": rp.game.scores,
                             "players": rp.game.players, "variant": "classic"})
    f = tmp_path / "two.json"
    f.write_text(json.dumps(doc))
    rc, out, err = bower("import", "--db", db, f)
    assert rc == 1 and out == "" and "twice" in err and "nothing stored" in err, (out, err)
    assert not db.exists() and not os.path.exists(tmp_path / "lib.sqlite3.raw")      # a new library: nothing left
    # A conflicting game against the library's copy: refused on stderr, status 1.
    single = tmp_path / "a.log"
    single.write_text(a)
    assert bower("import", "--db", db, single)[0] == 0
    other = tmp_path / "b.log"
    other.write_text(b)
    rc, out, err = bower("import", "--db", db, other)
    assert rc == 1 and out == "" and "a different game with the same id" in err
    assert [p.name for p in (tmp_path / "lib.sqlite3.raw" / "e6614103e7").iterdir()] == ["g0001.log"]


# ----- amendments store what was entered ---------------------------------------------------

def test_a_hand_amended_by_quick_score_keeps_its_side_and_outcome_and_no_more(kit, tmp_path, bower):
    # Hand 1 bid by bid (Cy orders up, his side takes 3), amended after hand
    # 2 as quick score: "Bob & Di made". Before, show, CSV, JSON and stats
    # gave it a maker (Bob), tricks (3 of 5, Cy 2) and a make by Bob.
    events = ["up H", "pass", "order", "tricks 3", "up S", "pass", "pass", "pass", "pass", "call D", "tricks 4",
              "amend 1", "quick 1", "quick made"]
    g = kit.scripted_game("classic", events)
    f = tmp_path / "g.log"
    f.write_bytes(kit.log_bytes(g, "g0001"))
    db = tmp_path / "lib.sqlite3"
    assert bower("import", "--db", db, f)[0] == 0
    rc, out, _ = bower("export", "--db", db, "--format", "csv")
    row = list(csv.DictReader(io.StringIO(out)))[0]
    assert (row["maker"], row["maker_seat"], row["maker_tricks"]) == ("", "", "")
    assert [row[f"seat{s}_tricks"] for s in range(4)] == ["0"] * 4
    assert (row["outcome"], row["seat1_points"], row["seat3_points"]) == ("made", "1", "1")
    rc, out, _ = bower("export", "--db", db, "--format", "json")
    hand = json.loads(out)["games"][0]["hands"][0]
    assert (hand["maker"], hand["maker_tricks"], hand["tricks"], hand["lone_defender"]) == (None, None, [0] * 4, None)
    rc, out, _ = bower("show", "1", "--db", db)
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("1 "))
    assert "Bob & Di" in line and " 3/5" not in line and "quick" in line, out
    rc, out, _ = bower("stats", "--db", db, "--format", "json", "--unfinished")
    made = {r["player"]: (r["called"], r["made"]) for r in json.loads(out)}
    assert made == {"Ann": (0, 0), "Bob": (0, 0), "Cy": (1, 1), "Di": (0, 0)}, made   # Cy's call in hand 2 only


# ----- a library is one thing ------------------------------------------------------------------

def test_a_library_reached_by_a_symlink_or_dotdot_has_one_archive_and_rebuild_keeps_every_game(kit, tmp_path, bower):
    real = tmp_path / "real" / "lib.sqlite3"
    real.parent.mkdir()
    link = tmp_path / "link.sqlite3"
    link.symlink_to(real)
    sub = tmp_path / "sub"
    sub.symlink_to(tmp_path / "real")
    for i, path in enumerate((real, link, tmp_path / "real" / ".." / "real" / "lib.sqlite3")):
        f = tmp_path / f"g{i}.log"
        f.write_bytes(_log(kit, gid=f"g000{i + 1}"))
        assert bower("import", "--db", path, f)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir() if ".sqlite3." in p.name) == []
    assert sorted(p.name for p in (tmp_path / "real").iterdir() if not p.name.endswith(".lock")) == \
        ["lib.sqlite3", "lib.sqlite3.raw"]
    assert len(list((tmp_path / "real" / "lib.sqlite3.raw").rglob("*.log"))) == 3
    rc, out, _ = bower("library", "check", "--db", sub / "lib.sqlite3")
    assert rc == 0 and "sound, 3 game(s)" in out
    real.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)        # damaged
    rc, out, err = bower("library", "rebuild", "--db", link)
    assert rc == 0 and "3 game(s)" in out, (out, err)
    with Library(real) as lib:
        assert lib.count() == 3


@pytest.mark.parametrize("harm", ["delete", "alter", "extra", "no archive"])
def test_library_check_holds_every_raw_log_against_the_library(kit, tmp_path, bower, harm):
    db = tmp_path / "lib.sqlite3"
    for i in (1, 2):
        f = tmp_path / f"g{i}.log"
        f.write_bytes(_log(kit, gid=f"g000{i}"))
        assert bower("import", "--db", db, f)[0] == 0
    raw = tmp_path / "lib.sqlite3.raw" / "e6614103e7"
    if harm == "delete":
        (raw / "g0001.log").unlink()
    elif harm == "alter":
        (raw / "g0001.log").write_bytes((raw / "g0001.log").read_bytes().replace(b"tricks 3", b"tricks 2"))
    elif harm == "extra":
        (raw / "g0009.log").write_bytes(_log(kit, gid="g0009"))
    else:
        for p in raw.iterdir():
            p.unlink()
    rc, out, err = bower("library", "check", "--db", db)
    assert rc == 1 and "sound" not in out, (out, err)
    want = {"delete": ["g0001", "missing"], "alter": ["g0001", "altered"], "extra": ["g0009", "none of the library"],
            "no archive": ["g0001", "g0002", "missing"]}[harm]
    assert all(w in out for w in want) and "raw archive" in err, (out, err)


def test_rebuild_names_every_game_it_could_not_bring_back(kit, tmp_path, bower):
    db = tmp_path / "lib.sqlite3"
    f = tmp_path / "g.log"
    f.write_bytes(_log(kit))
    assert bower("import", "--db", db, f)[0] == 0
    # An older bower archived a log this one refuses (a name with a space first).
    bad = tmp_path / "lib.sqlite3.raw" / "e6614103e7" / "g0005.log"
    bad.write_bytes(_log(kit, gid="g0005", players=[" Ann", "Bob", "Cy", "Di"]))
    db.write_bytes(b"not a library at all, but damaged")
    rc, out, err = bower("library", "rebuild", "--db", db)
    assert rc == 0 and "1 game(s)" in out and f"Not brought back: {bad}" in out and "space first" in out, out


# ----- the gate is the only way in --------------------------------------------------------------

SQL_WRITE = re.compile(r"\b(INSERT(\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(games|hands|players)\b", re.I)


def test_only_the_gate_writes_games():
    # Every INSERT or UPDATE of the games or hands tables is in db/rows.py's
    # write_game, and write_game is called only by Library.add_log.
    writers, callers = [], []
    for path in sorted((ROOT / "host" / "bower_host").rglob("*.py")):
        src = path.read_text()
        tree_ = ast.parse(src)
        for node in ast.walk(tree_):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_WRITE.search(node.value):
                writers.append(path.relative_to(ROOT).as_posix())
            if isinstance(node, ast.FunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and getattr(sub.func, "id", getattr(sub.func, "attr", "")) \
                            == "write_game":
                        callers.append((path.relative_to(ROOT).as_posix(), node.name))
    migrations = "host/bower_host/db/schema.py"       # (the versioned migrations fill new columns)
    assert set(writers) - {migrations} == {"host/bower_host/db/rows.py"}, writers
    assert callers == [("host/bower_host/db/library.py", "_store")]
    lib = (ROOT / "host" / "bower_host" / "db" / "library.py").read_text()
    assert lib.count("self._store(") == 1 and "def add_log" in lib


def test_a_dry_run_and_a_callers_refusal_write_nothing(kit, tmp_path):
    with Library(tmp_path / "lib.sqlite3") as lib:
        r = lib.add_log(_log(kit), None, "x.log", dry_run=True)
        assert r.status == "new" and lib.count() == 0

        def admit(rp, device, key):
            raise Refused("not tonight")
        r = lib.add_log(_log(kit), None, "x.log", admit=admit)
        assert (r.status, r.message, lib.count()) == ("refused", "e6614103e7/g0001: not tonight", 0)
    assert not [p for p in tree(tmp_path / "lib.sqlite3.raw") if p.endswith(".log")]


@pytest.mark.parametrize("command", ["import", "club result"])
def test_a_refused_file_into_a_library_not_made_yet_leaves_nothing(kit, tmp_path, bower, command):
    # Before: the empty library and its folders stayed behind (sync already did this).
    bad = tmp_path / "in" / "bad.log"
    bad.parent.mkdir()
    bad.write_bytes(_log(kit, device="a/b"))
    work = tmp_path / "work"
    work.mkdir()
    rc, out, err = bower(*command.split(), "--db", work / "new.sqlite3", bad)
    assert rc == 1 and "bower: " in err and tree(work) == [], (err, tree(work))


def _refusal_cases(kit):
    from bower_host.db import gate
    good = _log(kit)
    extra = elog.encode_line("tricks 5").encode() + b"\n"          # a hand that ended scores again
    return [
        (gate.TOO_BIG, b"x" * (gate.MAX_LOG_BYTES + 1), {}),
        (gate.NOT_TEXT, good[:40] + b"\xff" + good[40:], {}),
        (gate.UNREADABLE, b"a game, honest\n", {}),
        (gate.TORN, good[:-4], {"salvage": False}),
        (gate.BAD_ID, with_header(good, device="a/b"), {}),
        (gate.OTHER_KEY, good, {"key": "g0009"}),
        (gate.NO_ID, with_header(good, id=...), {}),
        (gate.OTHER_DEVICE, good, {"device": "0123abcd"}),
        (gate.ILLEGAL, good + extra, {}),
        (gate.BAD_NAMES, _log(kit, names=["Ann", "Bob", "Ann", "Di"]), {}),
        (gate.CONFLICT, with_header(_log(kit, gid="g0002"), started=kit.STARTED + 1), {}),
        (gate.ADMIT, _log(kit, gid="g0003"), {"admit": "not tonight's round"}),
    ]


def test_each_refusal_carries_the_rule_it_broke_as_a_code_and_its_words_apart(kit, tmp_path):
    # AddResult.reason: which rule, for callers to tell refusals apart;
    # AddResult.why: the words, which the message shows after the game's place.
    # The sync, club result and rebuild read these instead of cutting up the message.
    from bower_host.db import gate
    with Library(tmp_path / "lib.sqlite3") as lib:
        assert lib.add_log(_log(kit, gid="g0002"), None, "g0002.log").status == "new"
        cases = _refusal_cases(kit)
        assert {c for c, _, _ in cases} == {v for k, v in vars(gate).items() if k.isupper() and isinstance(v, str)
                                            and k != "MAX_LOG_BYTES"}, "a code without a case"
        for code, raw, kw in cases:
            why = kw.pop("admit", None)
            if why:
                def admit(rp, dev, key, why=why):
                    raise Refused(why)
                kw["admit"] = admit
            before = _games(tmp_path / "lib.sqlite3")
            r = lib.add_log(raw, kw.pop("device", None), "g.log", **kw)
            assert (r.status, r.reason) == ("refused", code), (code, r)
            assert r.why and "\n" not in r.why and r.message.endswith(": " + r.why), (code, r)
            assert r.why == why or why is None, r
            assert _games(tmp_path / "lib.sqlite3") == before, code


def test_no_caller_cuts_up_a_results_words():
    # (the words are for people: syncer, club attach and rebuild read ``why``)
    for p in (ROOT / "host" / "bower_host").rglob("*.py"):
        assert not re.search(r"\.message\.split\(", p.read_text()), p
