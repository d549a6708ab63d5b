"""Whatever a user types, nothing is lost (issue 32's "done when").

Hypothesis draws command lines at random -- every command that writes a
file, reads one or opens a library, aimed at paths that are the library,
its side files, symlinks and hard links to them, ``..`` paths, directories,
devices, FIFOs, empty strings, new and existing files -- and JSON of random
shape and device logs with names from every Unicode category to import.
After every command four invariants hold:

1. no traceback and no "internal error";
2. a refusal exits non-zero, with its reason as the last line on stderr
   (``bower: ...``), and a command that exits non-zero says why there;
3. ``bower library check`` still finds the library sound;
4. every game, its raw log and the club night are still there, unchanged,
   unless the command was meant to change them (an import or a club result
   adds; nothing else writes the library).

Commands run in-process (fast), under an alarm: a command that blocks (a
FIFO read or written) fails the test instead of hanging it. ``CASES`` counts
what ran (``-s`` prints it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import sqlite3
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.cli import main
from euchre import Game, Rules
from euchre import log as elog

CASES: dict = {}
#: Seconds one command may take before it counts as blocked.
BLOCKED = 20
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]

#: Where a path argument may point (resolved in ``_target``).
TARGETS = ["library", "raw dir", "raw log", "lock", "journal", "partial dir", "symlink to library",
           "hard link to library", "dotdot library", "directory", "fifo", "/dev/null", "/dev/zero", "/dev/full",
           "empty", "new file", "existing text", "missing dir/file", "file as dir", "other library"]

# (argv with TARGET where the path goes, what the command may change: "games", "club" or "")
COMMANDS = [
    (["export", "--db", "LIB", "-o", "TARGET"], ""),
    (["export", "--db", "LIB", "-f", "json", "-o", "TARGET"], ""),
    (["export", "--db", "LIB", "-f", "egn", "1", "-o", "TARGET"], ""),
    (["club", "sheet", "--db", "LIB", "-o", "TARGET"], ""),
    (["club", "standings", "--db", "LIB"], ""),
    (["plot", "1", "--db", "LIB", "-o", "TARGET"], ""),
    (["club", "simulate", "--db", "LIB", "-o", "TARGET"], ""),
    (["import", "--db", "LIB", "TARGET"], "games"),
    (["club", "result", "--db", "LIB", "TARGET"], "club"),
    (["club", "new", "Sat", "--db", "LIB", "--roster", "TARGET", "--tables", "1", "--hands", "2"], "club"),
    (["games", "--db", "TARGET"], ""),
    (["show", "1", "--db", "TARGET"], ""),
    (["stats", "--db", "TARGET"], ""),
    (["library", "check", "--db", "TARGET"], ""),
    (["export", "--db", "TARGET", "-o", "-"], ""),
    (["rules", "check", "TARGET"], ""),
    (["rules", "show", "--write", "TARGET"], ""),
    (["rules", "push", "TARGET", "--port", "/nonexistent/tty"], ""),
    (["rules", "preset", "list", "TARGET"], ""),
    (["rules", "preset", "add", "TARGET", "Fri", "--variant", "classic", "--option", "std"], ""),
    (["rules", "preset", "remove", "TARGET", "Fri"], ""),
]


def _log(names, gid, device="e6614103e7", variant="classic") -> bytes:
    g = Game(Rules(variant), names[:Rules(variant).num_players])
    for e in ["up H", "pass", "order", "tricks 3", "up S", "order", "tricks 5"]:
        g.apply(e)
    return elog.dumps(g, extra={"id": gid, "device": device, "started": 1763700000}).encode()


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A library with two games and a club night whose round 1 is counted."""
    d = tmp_path_factory.mktemp("template")
    db = d / "lib.sqlite3"
    for i, names in enumerate((NAMES[:4], NAMES[4:])):
        (d / f"g{i}.log").write_bytes(_log(names, f"g000{i + 1}"))
    assert _run("import", "--db", db, d / "g0.log", d / "g1.log")[0] == 0
    assert _run("club", "new", "Fri", "--db", db, "--players", *NAMES, "--tables", "2", "--hands", "2",
                "--rounds", "2", "--seed", "3", "--id", "fri")[0] == 0
    assert _run("club", "simulate", "--db", db, "--round", "1", "-o", d / "logs")[0] == 0
    assert _run("club", "result", "--db", db, d / "logs" / "r1-t1.log", d / "logs" / "r1-t2.log")[0] == 0
    (d / "g0.log").unlink()
    (d / "g1.log").unlink()
    return d


def _run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()

    def blocked(signum, frame):
        raise TimeoutError(f"bower {' '.join(map(str, args))[:200]} blocked for {BLOCKED} s")
    old = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(BLOCKED)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main([str(a) for a in args])
            except SystemExit as e:         # argparse's usage error
                rc = e.code if isinstance(e.code, int) else 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return rc, out.getvalue(), err.getvalue()


def _state(d: Path) -> dict:
    """What must not change: the games, the night's rows and the raw archive."""
    c = sqlite3.connect(d / "lib.sqlite3")
    try:
        games = {(r[0], r[1]): r[2:] for r in c.execute("SELECT device, game_key, raw_sha256, log, scores FROM games")}
        club = sorted(c.execute("SELECT night_id, round, table_no, device, game_key, result FROM club_results"))
        nights = sorted(c.execute("SELECT key, name, tables, rounds, movement, scoring FROM club_nights"))
        nights += sorted(c.execute("SELECT night_id, number, name, position FROM club_players"))
    finally:
        c.close()
    raw = d / "lib.sqlite3.raw"
    files = {str(p.relative_to(raw)): p.read_bytes() for p in raw.rglob("*") if p.is_file()}
    return {"games": games, "club": club, "nights": nights, "raw": files}


def _target(d: Path, kind: str, text: str) -> str:
    lib = d / "lib.sqlite3"
    if kind == "library":
        return str(lib)
    if kind == "raw dir":
        return str(d / "lib.sqlite3.raw")
    if kind == "raw log":
        return str(next((d / "lib.sqlite3.raw").rglob("*.log")))
    if kind == "lock":
        return str(d / "lib.sqlite3.lock")
    if kind == "journal":
        return str(d / "lib.sqlite3-journal")
    if kind == "partial dir":
        return str(d / "lib.sqlite3.partial")
    if kind == "symlink to library":
        link = d / "link.sqlite3"
        if not os.path.lexists(link):
            link.symlink_to(lib)
        return str(link)
    if kind == "hard link to library":
        hard = d / "hard.sqlite3"
        if not os.path.lexists(hard):
            os.link(lib, hard)
        return str(hard)
    if kind == "dotdot library":
        (d / "sub").mkdir(exist_ok=True)
        return str(d / "sub" / ".." / "lib.sqlite3")
    if kind == "directory":
        (d / "adir").mkdir(exist_ok=True)
        return str(d / "adir")
    if kind == "fifo":
        fifo = d / "fifo"
        if not os.path.lexists(fifo):
            os.mkfifo(fifo)
        return str(fifo)
    if kind.startswith("/dev/"):
        return kind
    if kind == "empty":
        return ""
    if kind == "existing text":
        f = d / "notes.txt"
        f.write_text("my notes\n")
        return str(f)
    if kind == "missing dir/file":
        return str(d / "no-such-dir" / "x.out")
    if kind == "file as dir":
        f = d / "afile"
        f.write_text("x")
        return str(f / "x.out")
    if kind == "other library":
        return str(d / "other.sqlite3")
    return str(d / ("out-" + "".join(ch for ch in text if ch.isalnum())[:20] + ".out"))


def _check_invariants(d: Path, argv: list, rc: int, out: str, err: str, before: dict, may: str) -> None:
    shown = [a if len(a) < 80 else a[:80] + "..." for a in argv]
    assert "Traceback" not in out + err and "internal error" not in err, (shown, err[-800:])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    if rc != 0:
        assert lines and lines[-1].startswith("bower: "), (shown, rc, err[-800:])
    else:
        assert not [ln for ln in lines if ln.startswith("bower: ") and "skipped" not in ln], (shown, err[-800:])
    code, o, e = _run("library", "check", "--db", d / "lib.sqlite3")
    assert code == 0 and "sound" in o, (shown, o, e)
    after = _state(d)
    for k, v in before["games"].items():
        assert after["games"].get(k) == v, (shown, k)
    for k, v in before["raw"].items():
        assert after["raw"].get(k) == v, (shown, k)
    if may != "games":
        assert after["games"].keys() == before["games"].keys(), shown
    if may != "club":
        assert (after["club"], after["nights"]) == (before["club"], before["nights"]), shown
    else:
        assert set(before["club"]) <= set(after["club"]) and set(before["nights"]) <= set(after["nights"]), shown


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() | st.text(max_size=10)
    | st.sampled_from(["bower-library-export", "Euchre Game Notation", "classic", "e6614103e7", "g0001", 1]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "version", "games", "device", "game_id", "log", "players", "variant",
                         "options", "mode", "first_dealer", "events", "scores", "fileType", "x"]) | st.text(max_size=5),
        inner, max_size=6),
    max_leaves=12)
# A name from any Unicode category (surrogates aside: not text a file can hold); half of
# them printable, so that many are admitted and then shown.
PRINTABLE = st.text(st.characters(categories=("L", "M", "N", "P", "S")), min_size=1, max_size=10)
NAMES_DRAWN = st.one_of(st.lists(PRINTABLE, min_size=4, max_size=4, unique=True),
                        st.lists(st.text(st.characters(exclude_categories=("Cs",)), max_size=10), min_size=4,
                                 max_size=4))


def _hypothesis(template, tmp_path_factory, what: str, examples: int) -> None:
    run = settings(max_examples=examples, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])(
        given(data=st.data())(lambda data: _one(template, tmp_path_factory.mktemp("run"), data, what)))
    run()
    print(f"command-line invariant cases ({what}):", {k: v for k, v in sorted(CASES.items()) if k.startswith(what)})


def test_no_command_line_loses_a_game(template, tmp_path_factory):
    _hypothesis(template, tmp_path_factory, "command", 200)


def test_no_json_of_any_shape_loses_a_game(template, tmp_path_factory):
    _hypothesis(template, tmp_path_factory, "json", 60)


def test_no_name_of_any_unicode_category_loses_a_game(template, tmp_path_factory):
    _hypothesis(template, tmp_path_factory, "names", 60)


def _one(template: Path, d: Path, data, what: str) -> None:
    shutil.copytree(template, d, dirs_exist_ok=True)
    CASES[what] = CASES.get(what, 0) + 1
    before = _state(d)
    if what == "command":
        argv, may = data.draw(st.sampled_from(COMMANDS))
        kind = data.draw(st.sampled_from(TARGETS))
        text = data.draw(st.text(max_size=12))
        target = _target(d, kind, text)
        argv = [str(d / "lib.sqlite3") if a == "LIB" else target if a == "TARGET" else a for a in argv]
        key = f"command {' '.join(argv[:2] if argv[0] in ('club', 'library') else argv[:1])} -> {kind}"
        CASES[key] = CASES.get(key, 0) + 1
    elif what == "json":
        f = d / "in.json"
        doc = data.draw(JSON)
        if data.draw(st.booleans()):
            doc = {"format": "bower-library-export", "version": 1, "games": data.draw(st.lists(JSON, max_size=3))}
        f.write_text(json.dumps(doc))
        argv, may = ["import", "--db", str(d / "lib.sqlite3"), str(f)], "games"
    else:
        names = data.draw(NAMES_DRAWN)
        CASES["names admitted"] = CASES.get("names admitted", 0)
        f = d / "names.log"
        try:
            f.write_bytes(_log(names, "g0042"))
        except (ValueError, TypeError):
            return              # names the engine itself will not seat: no log to import
        argv, may = ["import", "--db", str(d / "lib.sqlite3"), str(f)], "games"
    rc, out, err = _run(*argv)
    _check_invariants(d, argv, rc, out, err, before, may)
    if what == "names" and rc == 0:
        CASES["names admitted"] += 1
        # Admitted names: every command that shows them works.
        for cmd in (["games"], ["show", "g0042"], ["export"], ["stats", "--unfinished"]):
            code, o, e = _run(*cmd, "--db", d / "lib.sqlite3")
            assert code in (0, 1) and "Traceback" not in o + e and "internal error" not in e, (cmd, e)
    for p in d.iterdir():
        if stat.S_ISFIFO(os.lstat(p).st_mode):
            p.unlink()

