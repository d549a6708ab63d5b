"""Hostile command lines (issue 23): each case gets one line on stderr,
nothing on stdout, the right status -- 2 for a value no command could use
(a usage error, found as the arguments are parsed), 1 for one this library
or this computer cannot (no such round tonight, a port in use) -- and
creates nothing: no library, no lock file, no output directory.

host/HOSTILE.md lists every case with its test; the last test here checks
that the table and the tests agree. Each case failed on the code before the
fix (a traceback or internal error, usage text over several lines, a
library created on refusal, a wrong status, or a message that was not
true); host/HOSTILE.md's "before" column says which.
"""

from __future__ import annotations

import ast
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bower_host.club import night as cn
from bower_host.club.simulate import night_round_logs
from bower_host.db import Library

from fake_device import FakeDevice, random_table_game, record_game
from hostile import bower, refused, tree, with_header

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "host" / "HOSTILE.md"
LONG = "x" * 100_000


def new(*extra, name="Friday", players=("A", "B", "C", "D"), length=("--hands", "4")):
    """``bower club new`` for a fresh library new.sqlite3, with ``extra`` last."""
    return ["club", "new", name, "--db", "new.sqlite3", *(["--players", *players] if players else []), *length,
            *extra]


def on(*args):
    """A command on the night in lib.sqlite3 (8 players, 2 tables, 3 rounds)."""
    return [*args, "--db", "lib.sqlite3"]


# (command line, status, what the line says)
USAGE = [
    pytest.param(new("--tables", "1", "--seed", "1e26"), 2, "--seed: '1e26' is not a whole number", id="new-seed-1e26"),
    pytest.param(new("--tables", "1", "--seed", str(10 ** 26)), 2,
                 "--seed: 100000000000000000000000000 is out of range",
                 id="new-seed-10e26"),
    pytest.param(new("--tables", "1", "--rounds", "0"), 2, "--rounds: 0 is out of range (rounds: 1 to 200)",
                 id="new-rounds-0"),
    pytest.param(new("--tables", "1", "--rounds", "-1"), 2, "--rounds: -1 is out of range", id="new-rounds-minus-1"),
    pytest.param(new("--tables", "1", "--rounds", "201"), 2, "--rounds: 201 is out of range", id="new-rounds-201"),
    pytest.param(new("--tables", "0"), 2, "--tables: 0 is out of range (tables: 1 to 64)", id="new-tables-0"),
    pytest.param(new("--tables", "65"), 2, "--tables: 65 is out of range", id="new-tables-65"),
    pytest.param(new("--tables", "1", length=("--hands", "0")), 2, "--hands: 0 is out of range", id="new-hands-0"),
    pytest.param(new("--tables", "1", length=("--hands", "100")), 2, "--hands: 100 is out of range",
                 id="new-hands-100"),
    pytest.param(new("--tables", "1", length=("--minutes", "-5")), 2, "--minutes: -5 is out of range",
                 id="new-minutes-minus-5"),
    pytest.param(new("--tables", "1", name=""), 2, "the night's name is empty", id="new-name-empty"),
    pytest.param(new("--tables", "1", name="   "), 2, "the night's name is empty", id="new-name-spaces"),
    pytest.param(new("--tables", "1", name=LONG), 2, "the night's name is 100,000 characters long, more than 80",
                 id="new-name-100k"),
    pytest.param(new("--tables", "1", name="Fri\nday"), 2, "has a control character", id="new-name-newline"),
    pytest.param(new("--tables", "1", "--id", "bad id!"), 2, "a night id is 1 to 32 letters", id="new-id-bad"),
    pytest.param(new("--tables", "1", "--id", LONG), 2, "(100,000 characters): a night id", id="new-id-100k"),
    pytest.param(new("--tables", "1", "--loner", "9"), 2, "--loner: invalid choice: 9 (choose from 4, 5)",
                 id="new-loner-9"),
    pytest.param(on("club", "seating", "--round", "-1"), 2, "--round: -1 is out of range (round: 1 to 200)",
                 id="seating-round-minus-1"),
    pytest.param(on("club", "seating", "--round", "0"), 2, "--round: 0 is out of range", id="seating-round-0"),
    pytest.param(on("club", "seating", "--round", "1e3"), 2, "--round: '1e3' is not a whole number",
                 id="seating-round-1e3"),
    pytest.param(on("club", "sheet", "--round", "-1"), 2, "--round: -1 is out of range", id="sheet-round-minus-1"),
    pytest.param(on("club", "simulate", "--round", "0"), 2, "--round: 0 is out of range", id="simulate-round-0"),
    pytest.param(on("club", "simulate", "--seed", "1e26"), 2, "--seed: '1e26' is not a whole number",
                 id="simulate-seed-1e26"),
    pytest.param(on("club", "simulate", "--renege", "nan"), 2, "--renege: 'nan' is out of range (a chance: 0 to 1)",
                 id="simulate-renege-nan"),
    pytest.param(on("club", "simulate", "--renege", "2"), 2, "--renege: '2' is out of range",
                 id="simulate-renege-2"),
    pytest.param(on("club", "standings", "--night", ""), 2, "--night is empty", id="night-empty"),
    pytest.param(on("club", "standings", "--night", LONG), 2, "--night is 100,000 characters long",
                 id="night-100k"),
    pytest.param(on("club", "result", "--device", "../../evil", "r1.log"), 2, "a device id is 1 to 64 letters",
                 id="result-device-path"),
    pytest.param(on("club", "result", "--device", LONG, "r1.log"), 2, "(100,000 characters): a device id",
                 id="result-device-100k"),
    pytest.param(on("club", "serve", "--port", "-1"), 2, "--port: -1 is out of range (port: 1 to 65535)",
                 id="serve-port-minus-1"),
    pytest.param(on("club", "serve", "--port", "99999"), 2, "--port: 99999 is out of range", id="serve-port-99999"),
    pytest.param(on("club", "serve", "--port", "0"), 2, "--port: 0 is out of range", id="serve-port-0"),
    pytest.param(on("club", "serve", "--port", "http"), 2, "--port: 'http' is not a whole number",
                 id="serve-port-word"),
    pytest.param(on("club", "serve", "--host", ""), 2, "--host is empty", id="serve-host-empty"),
    pytest.param(on("club", "push", "--table", "0"), 2, "--table: 0 is out of range (table: 1 to 64)",
                 id="push-table-0"),
    pytest.param(on("club", "push", "--table", "1", "--round", "-2"), 2, "--round: -2 is out of range",
                 id="push-round-minus-2"),
    pytest.param(on("club", "push", "--table", "1", "--timeout", "nan"), 2, "--timeout: 'nan' is out of range",
                 id="push-timeout-nan"),
    pytest.param(on("sync", "--port", "/dev/null", "--timeout", "-1"), 2,
                 "--timeout: '-1' is out of range (--timeout: 0.01 to 600 seconds)", id="sync-timeout-minus-1"),
    pytest.param(on("sync", "--port", "/dev/null", "--timeout", "0"), 2, "--timeout: '0' is out of range",
                 id="sync-timeout-0"),
    pytest.param(on("sync", "--port", "/dev/null", "--timeout", "nan"), 2, "--timeout: 'nan' is out of range",
                 id="sync-timeout-nan"),
    pytest.param(on("sync", "--port", "/dev/null", "--timeout", "inf"), 2, "--timeout: 'inf' is out of range",
                 id="sync-timeout-inf"),
    pytest.param(on("sync", "--port", "/dev/null", "--timeout", "soon"), 2, "--timeout: 'soon' is not a number",
                 id="sync-timeout-word"),
    pytest.param(on("sync", "--port", ""), 2, "--port is empty", id="sync-port-empty"),
    pytest.param(["clock", "--port", "/dev/null", "--timeout", "0"], 2, "--timeout: '0' is out of range",
                 id="clock-timeout-0"),
    pytest.param(["roster", "push", "Ann", "--port", "/dev/null", "--timeout", "-3"], 2,
                 "--timeout: '-3' is out of range", id="roster-push-timeout-minus-3"),
]

REFUSED = [
    pytest.param(new("--tables", "1", "--roster", "binary.roster", players=()), 1,
                 "the roster binary.roster is not a text file of names (byte 0x89 at offset 0 is not UTF-8 text)",
                 id="new-roster-binary"),
    pytest.param(new("--tables", "1", "--roster", "big.roster", players=()), 1,
                 "the roster big.roster is 1.9 MB, more than the 1.0 MB bower reads", id="new-roster-2mb"),
    pytest.param(new("--tables", "2", players=("A", "B", "C", "D", "E", "F", "G")), 1,
                 "7 players cannot fill 2 tables of four", id="new-players-do-not-fill-the-tables"),
    pytest.param(new("--tables", "1", players=("A", "A", "B", "C")), 1, "'A' is listed twice",
                 id="new-player-twice"),
    pytest.param(new("--tables", "1", players=("A", "B", "C", LONG)), 1,
                 "bad player name 'xxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters)", id="new-player-name-100k"),
    pytest.param(new("--movement", "partners", "--rounds", "50", players=tuple("ABCDEFGH")), 1,
                 "the partners schedule for 8 players has", id="new-partners-rounds-50"),
    pytest.param(on("club", "seating", "--round", "4"), 1, "night fri has rounds 1 to 3, not 4",
                 id="seating-round-past-the-night"),
    pytest.param(on("club", "sheet", "--round", "99"), 1, "night fri has rounds 1 to 3, not 99",
                 id="sheet-round-past-the-night"),
    pytest.param(on("club", "simulate", "--round", "99", "-o", "logs"), 1, "night fri has rounds 1 to 3, not 99",
                 id="simulate-round-past-the-night"),
    pytest.param(on("sync", "--port", "no-such-port"), 1, "cannot open no-such-port: No such file or directory",
                 id="sync-port-missing"),
    pytest.param(on("sync", "--port", "."), 1, ". is not a serial port but a directory", id="sync-port-directory"),
    pytest.param(on("sync", "--port", "binary.roster"), 1, "binary.roster is not a serial port but a file",
                 id="sync-port-file"),
    pytest.param(on("club", "serve", "--host", "no-such-host.invalid"), 1,
                 "cannot serve on 'no-such-host.invalid': no such address", id="serve-host-unknown"),
    pytest.param(on("club", "serve", "--host", "192.0.2.1"), 1,
                 "cannot serve on 192.0.2.1:8080: this computer has no such address", id="serve-host-not-here"),
]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A directory with a library lib.sqlite3 holding night fri (8 players,
    2 tables, 3 rounds) and a binary file; the test runs in it. Serving is
    a failure: a refused ``club serve`` must stop before it."""
    import uvicorn

    def served(self, sockets=None):
        raise AssertionError("bower club serve started serving")

    monkeypatch.setattr(uvicorn.Server, "run", served)
    with Library(tmp_path / "lib.sqlite3") as lib:
        night = cn.create_night(lib, "Friday", list("ABCDEFGH"), 2, "progressive", 3, hands=4, seed=1, key="fri")
    # A round log whose header names no device (--device would name it).
    (tmp_path / "r1.log").write_bytes(with_header(night_round_logs(night, 1, 3)[1], device=...))
    (tmp_path / "binary.roster").write_bytes(bytes(range(0x89, 0x100)) + bytes(range(0, 0x89)))
    (tmp_path / "big.roster").write_bytes(b"Ann\n" * 500_000)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("argv, status, says", USAGE + REFUSED)
def test_a_hostile_command_line(here, argv, status, says):
    before = tree(here)
    rc, line = refused(*argv)
    assert rc == status and says in line, (rc, line)
    assert len(line) < 400, line                 # a 100,000-character argument is not echoed whole
    assert tree(here) == before


def test_club_serve_on_a_port_in_use_announces_nothing(tmp_path):
    # Before: it printed the address as if serving, then uvicorn's own error.
    with Library(tmp_path / "lib.sqlite3") as lib:
        cn.create_night(lib, "Friday", list("ABCD"), 1, "progressive", 2, hands=4, key="fri")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "bower_host", "club", "serve", "--db", str(tmp_path / "lib.sqlite3"),
                            "--port", str(port)], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                           env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert r.returncode == 1 and r.stdout == "", (r.returncode, r.stdout)
    assert r.stderr == f"bower: cannot serve on 127.0.0.1:{port}: the port is in use (another bower club serve or " \
                       "web server?): give another --port, such as 8081\n"


def _said(line: str) -> float:
    m = re.search(r"no reply from the device on \S+ in ([0-9.]+) s \(4 tries, waiting up to ([0-9.]+) s for each "
                  r"reply\)", line)
    assert m, line
    return float(m.group(1))


def test_a_silent_device_is_reported_after_the_time_it_was_waited_for(tmp_path):
    # Before: "no reply ... within 2 s" after 8 s of four tries.
    master, slave = os.openpty()
    try:
        t = time.monotonic()
        rc, line = refused("clock", "--port", os.ttyname(slave), "--timeout", "0.2")
        took = time.monotonic() - t
    finally:
        os.close(slave)
        os.close(master)
    said = _said(line)
    assert rc == 1 and 0.8 <= said <= took and took - said < 0.5, (said, took, line)


def test_a_device_silent_mid_sync_is_reported_after_the_whole_wait(tmp_path):
    # The chunk asked again after a handshake each time: four tries of a GET
    # and three handshakes, all counted (before: "within 0.1 s").
    dev = FakeDevice(tmp_path / "flash")
    record_game(dev.store, "classic", random_table_game("classic", seed=5, options={"winning_score": 25}),
                options={"winning_score": 25})
    dev.mute_after_gets = 1
    with dev:
        t = time.monotonic()
        rc, _, line = bower("sync", "--port", dev.port, "--db", tmp_path / "lib.sqlite3", "--quiet", "--timeout", "0.1")
        took = time.monotonic() - t
    said = _said(line)
    assert rc == 1 and 0.7 <= said <= took and took - said < 0.5, (said, took, line)


def test_a_failed_sync_leaves_no_library_behind(tmp_path):
    # Before: `bower sync` made the library (and its lock file) first, so a
    # port that is no device, or a device that never answers, left an empty
    # library behind. Now one that did not exist and got nothing is gone.
    db = tmp_path / "lib.sqlite3"
    rc, line = refused("sync", "--port", "/dev/null", "--db", str(db))
    assert rc == 1 and "/dev/null" in line and tree(tmp_path) == [], (line, tree(tmp_path))
    master, slave = os.openpty()
    try:
        rc, line = refused("sync", "--port", os.ttyname(slave), "--db", str(db), "--timeout", "0.1", "--quiet")
    finally:
        os.close(slave)
        os.close(master)
    assert rc == 1 and "no reply" in line and tree(tmp_path) == [], (line, tree(tmp_path))
    # A library that was there before stays, even empty (and no lock file
    # stays after any command).
    Library(db).close()
    rc, line = refused("sync", "--port", "/dev/null", "--db", str(db))
    assert rc == 1 and db.exists() and tree(tmp_path) == ["lib.sqlite3"]


# ----- the table of cases ------------------------------------------------------------------

def _rows() -> list:
    rows = []
    for ln in TABLE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(\d+)\s*\|.*\|\s*(\d|-)\s*\|\s*`([\w./]+)::(\w+)(?:\[([\w-]+)\])?`\s*\|\s*$", ln)
        if m:
            rows.append((int(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5)))
    return rows


def test_the_hostile_case_table_names_a_test_for_every_case_and_every_test_is_in_it():
    rows = _rows()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), "rows are numbered 1, 2, 3, ..."
    # Every row's test exists (a parametrized case by its id, with the status the row gives) ...
    params = {p.id: p.values[1] for p in USAGE + REFUSED}
    defined: dict = {}
    for _, status, path, test, case in rows:
        src = ROOT / "tests" / "host" / path
        assert src.is_file(), path
        if src not in defined:
            defined[src] = {f.name for f in ast.walk(ast.parse(src.read_text())) if isinstance(f, ast.FunctionDef)}
        assert test in defined[src], f"{path}::{test} is in host/HOSTILE.md but not in {path}"
        if case is not None:
            assert path == "test_hostile_cli.py" and case in params, f"no case {case} in {path}::{test}"
            assert status == str(params[case]), f"{case}: the table says status {status}, the test {params[case]}"
    # ... and every case and test of this file has its row.
    listed = {(r[3], r[4]) for r in rows if r[2] == "test_hostile_cli.py"}
    main = "test_a_hostile_command_line"
    assert {c for t, c in listed if t == main} == set(params), "cases missing from host/HOSTILE.md"
    mine = {f.name for f in ast.parse(Path(__file__).read_text()).body
            if isinstance(f, ast.FunctionDef) and f.name.startswith("test_") and f.name != main
            and f.name != "test_the_hostile_case_table_names_a_test_for_every_case_and_every_test_is_in_it"}
    assert mine <= {t for t, _ in listed}, f"tests missing from host/HOSTILE.md: {mine - {t for t, _ in listed}}"
