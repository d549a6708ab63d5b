"""Inputs read safely (issue 32): every file a user names is read through
``bower_host.inputs``, whatever it is, and whatever it holds.

* Not a file: a FIFO (it blocked forever), ``/dev/zero`` and
  ``/dev/urandom`` (read until memory ran out), a directory, a socket: each
  refused at once, in one line naming what it is. The commands that could
  block or eat memory run as the real ``bower`` in a subprocess, with a
  timeout and a memory limit, so the code before the fix fails them instead
  of hanging the tests.
* Too big: a sparse file larger than the limit is refused by its size,
  without being read.
* JSON nested 100,000 deep (it ended in "internal error: RecursionError"),
  at the top or inside an export's games, and JSON of random shape
  (hypothesis): no traceback, no internal error, no Python exception text,
  and the library as it was unless a game was imported.
* Control characters in what is echoed (a file name, a header or JSON
  value): shown as escapes, the line still one line.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host import inputs
from bower_host.cli import main
from bower_host.db import Library

from hostile import game_log, refused

#: What Python says, never bower.
PYTHON_WORDS = ("Traceback", "internal error", "TypeError", "KeyError", "IndexError", "AttributeError", "ValueError",
                "RecursionError", "UnicodeDecodeError", "MemoryError", "object is not subscriptable", "NoneType",
                "<class", "has no attribute", "is not iterable", "unhashable", "[Errno", "codec can't")
#: What a terminal would act on.
CONTROLS = ("\x1b", "\x07", "\u202e", "\r", "\x9b")


def run(*args) -> tuple[int, str, str]:
    """``bower ARGS`` in-process: (status, stdout, stderr). Fails on a
    traceback, an internal error, Python's words, a control character
    printed raw, or a stderr line that is not ``bower: ...``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main([str(a) for a in args])
        except SystemExit as e:          # a usage error
            rc = e.code
    o, e = out.getvalue(), err.getvalue()
    _said_well(rc, o, e)
    return rc, o, e


def _said_well(rc, o: str, e: str) -> None:
    assert rc in (0, 1, 2), (rc, o[-500:], e[-500:])
    assert not [w for w in PYTHON_WORDS if w in o + e], (o[-500:], e[-500:])
    assert not [c for c in CONTROLS if c in o + e], (o[-500:], e[-500:])
    assert all(line.startswith("bower: ") for line in e.splitlines()), e[-500:]
    assert rc == 0 or e, (rc, o[-500:])


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def real(*args, cwd=None) -> tuple[int, str, str, float]:
    """The real ``bower ARGS`` in a subprocess (at most 1 GiB of memory, 30 s):
    (status, stdout, stderr, seconds taken)."""
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "bower_host", *map(str, args)], capture_output=True, text=True,
                       timeout=30, cwd=cwd, preexec_fn=_limit_memory,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    took = time.monotonic() - t
    _said_well(r.returncode, r.stdout, r.stderr)
    return r.returncode, r.stdout, r.stderr, took


def _commands(db, path) -> dict:
    """The commands that read a user-named file, each reading ``path``."""
    return {
        "import": ("import", "--db", db, path),
        "club-result": ("club", "result", "--db", db, path),
        "club-new-roster": ("club", "new", "Friday", "--hands", "4", "--tables", "1", "--roster", path, "--db", db),
    }


COMMANDS = ["import", "club-result", "club-new-roster"]


# ----- not a file -----------------------------------------------------------------------

@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom"])
def test_a_fifo_or_an_endless_device_is_refused_at_once(tmp_path, command, kind):
    # Before: a FIFO blocked forever (a timeout here); /dev/zero and
    # /dev/urandom were read until memory ran out (1 GiB here).
    path = kind
    if kind == "fifo":
        path = tmp_path / "game.log"
        os.mkfifo(path)
    rc, out, err, took = real(*_commands(tmp_path / "lib.sqlite3", path)[command], cwd=tmp_path)
    what = "a FIFO (a named pipe), not a file" if kind == "fifo" else "a character device, not a file"
    assert rc == 1 and out == "" and what in err.splitlines()[0], (rc, out, err)
    assert took < 15, took


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", ["directory", "socket", "sparse"])
def test_a_directory_a_socket_or_a_file_over_the_limit_is_refused_unread(tmp_path, command, kind):
    # Before: "Is a directory" / "No such device or address" (Python's
    # words, the socket not named), and a 1 TiB sparse file read whole
    # ("internal error: MemoryError").
    path = tmp_path / "input"
    if kind == "directory":
        path.mkdir()
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(path))
        s.close()
    else:
        path.touch()
        os.truncate(path, 1 << 40)
    t = time.monotonic()
    rc, out, err = run(*_commands(tmp_path / "lib.sqlite3", path)[command])
    said = {"directory": "is a directory, not a file", "socket": "is a socket, not a file",
            "sparse": "is 1.0 TB, more than the"}[kind]
    assert rc == 1 and out == "" and said in err.splitlines()[0], (rc, out, err)
    assert time.monotonic() - t < 5


@pytest.mark.parametrize("case", ["missing", "not-a-directory", "loop", "name-too-long", "permission"])
def test_a_file_that_cannot_be_opened_says_the_true_cause(tmp_path, monkeypatch, case):
    # Before: Python's strerror ("No such file or directory", "Too many
    # levels of symbolic links", ...), or for a roster its own words.
    (tmp_path / "plain").write_text("x")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    path, said = {"missing": (tmp_path / "nope.log", "no such file"),
                  "not-a-directory": (tmp_path / "plain" / "x.log", "/plain is a file, not a directory"),
                  "loop": (tmp_path / "a", "too many symbolic links"),
                  "name-too-long": (tmp_path / ("x" * 300), "the name is too long"),
                  "permission": (tmp_path / "plain", "permission denied")}[case]
    if case == "permission":        # root reads any file: the system's refusal, as a user would get it
        real_open = os.open

        def denied(p, *a, **k):
            if str(p) == str(path):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real_open(p, *a, **k)
        monkeypatch.setattr(inputs.os, "open", denied)
    for argv in _commands(tmp_path / "lib.sqlite3", path).values():
        rc, out, err = run(*argv)
        line = err.splitlines()[0]
        assert rc == 1 and f"cannot read {'the roster ' + str(path) if '--roster' in argv else 'it'}: " in line \
            and said in line, (argv, err)


def test_a_file_that_grows_while_it_is_read_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "growing.log"
    path.write_bytes(b"x" * 2000)
    real_stat, real_fstat = os.stat, os.fstat

    def small(st):        # as it was when looked at, before it grew
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, 10,
                               st.st_atime, st.st_mtime, st.st_ctime))
    monkeypatch.setattr(inputs.os, "stat", lambda p: small(real_stat(p)))
    monkeypatch.setattr(inputs.os, "fstat", lambda fd: small(real_fstat(fd)))
    with pytest.raises(inputs.InputError, match="grew past 1000 B while it was read"):
        inputs.read_input(path, 1000, "growing.log")
    monkeypatch.undo()
    assert inputs.read_input(path, 2000, "growing.log") == b"x" * 2000


def test_a_binary_file_is_refused_by_its_first_bad_byte(tmp_path):
    # Before: club result said "not a readable game log ('utf-8' codec can't
    # decode byte 0x89 in position 0: invalid start byte)": Python's words.
    f = tmp_path / "round.log"
    f.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    db = tmp_path / "lib.sqlite3"
    for argv in (("club", "result", "--db", db, f), ("import", "--db", db, f)):
        rc, out, err = run(*argv)
        assert rc == 1 and f"bower: {f}: it is not UTF-8 text (byte 0x89 at offset 0)" == err.splitlines()[0], err


def test_a_good_log_still_imports_and_a_round_log_still_counts(tmp_path):
    log = tmp_path / "g0001.log"
    log.write_bytes(game_log("classic", 1, "g0001"))
    rc, out, err = run("import", "--db", tmp_path / "lib.sqlite3", log)
    assert rc == 0 and "new e6614103e7/g0001" in out and err == "", (out, err)
    roster = tmp_path / "names.txt"
    roster.write_text("Ann\nBob\n# a comment\nCy\nDi\n")
    rc, out, err = run("club", "new", "Friday", "--hands", "4", "--tables", "1", "--roster", roster,
                       "--db", tmp_path / "lib.sqlite3")
    assert rc == 0 and "4 players at 1 tables" in out, (out, err)


# ----- JSON --------------------------------------------------------------------------------

DEEP = 100_000
EXPORT = '{"format": "bower-library-export", "version": 1, "games": %s}'
EGN = '{"fileType": "Euchre Game Notation", "version": "1.6", "metadata": {}, "deals": %s}'


def _arrays(n):
    return "[" * n + "]" * n


def _objects(n):
    return '{"a": ' * n + "1" + "}" * n


DEEPER = "JSON nested deeper than 32 levels"


@pytest.mark.parametrize("text, said", [
    pytest.param('{"a": %s}' % _arrays(DEEP), DEEPER, id="arrays-at-the-top"),
    pytest.param(_objects(DEEP), DEEPER, id="objects-at-the-top"),
    pytest.param(EXPORT % _arrays(DEEP), DEEPER, id="arrays-in-games"),
    pytest.param(EXPORT % ("[%s]" % _objects(DEEP)), DEEPER, id="objects-in-a-game"),
    pytest.param(EGN % _arrays(DEEP), DEEPER, id="arrays-in-egn-deals"),
    pytest.param('{"a": ' + "[" * DEEP, DEEPER, id="never-closed"),
    pytest.param('{"a": "' + "[" * DEEP + '"}', "neither Bower's export", id="brackets-in-a-string"),
])
def test_json_nested_100000_deep_is_refused_before_it_is_parsed(tmp_path, text, said):
    # Before: "internal error: RecursionError".
    f = tmp_path / "deep.json"
    f.write_text(text)
    rc, out, err = run("import", "--db", tmp_path / "lib.sqlite3", f)
    assert rc == 1 and out == "" and said in err.splitlines()[0], err


def test_a_board_file_nested_deep_is_refused(tmp_path):
    board = tmp_path / "board.json"
    board.write_text('{"buttons": %s}' % _arrays(10_000))          # 20 KB, under the size limit
    rc, _, err = run("deploy", "--dry-run", "--board", board, "--port", tmp_path / "no-such-port")
    assert rc == 1 and "JSON nested deeper than 32 levels" in err, err


def test_the_depth_is_found_in_linear_time_and_exactly():
    # A real export's size: the scan costs less than the parse.
    game = json.loads(json.dumps({"events": ["deal", "order up \\\"x\\\" [b]"] * 40, "log": 'a\\"b{[' * 200,
                                  "players": ["A", "B", "C", "D"], "hands": [{"tricks": [1, 2, 3]}] * 20}))
    text = json.dumps({"games": [game] * 6000})
    assert len(text) > 20_000_000
    t = time.perf_counter()
    json.loads(text)
    parse = time.perf_counter() - t
    t = time.perf_counter()
    assert inputs.load_json(text) is not None
    assert time.perf_counter() - t < 2.5 * parse + 0.5
    for depth in (1, 5, 31, 32):
        assert inputs.load_json(_arrays(depth)) == json.loads(_arrays(depth))
        assert inputs.load_json(_objects(depth)) == json.loads(_objects(depth))
    for text in (_arrays(33), _objects(33), "[" * 33, "[" * 10 ** 7, _arrays(10 ** 6)):
        with pytest.raises(inputs.InputError, match="deeper than 32"):
            inputs.load_json(text)


@pytest.mark.parametrize("text, said", [
    ('{"a": 1,', "not valid JSON at line 1, column 9 (the text ends early)"),
    ('{"a": 1\n "b": 2}', "not valid JSON at line 2, column 2"),
    ('{"a": %s}' % ("1" * 5000), "a number of more than 4,300 digits"),
    ('{"a": "\\ud800"}', "a lone UTF-16 surrogate"),
])
def test_invalid_json_is_refused_by_its_position_not_python_s_words(tmp_path, text, said):
    # Before: "not valid JSON: Expecting ',' delimiter: line 2 column 2 (char 9)"
    # (Python's text), and a lone surrogate stored, then unprintable.
    f = tmp_path / "bad.json"
    f.write_text(text)
    rc, out, err = run("import", "--db", tmp_path / "lib.sqlite3", f)
    assert rc == 1 and said in err.splitlines()[0], err


# ----- a Bower export's games, field by field ---------------------------------------------------

@pytest.fixture(scope="module")
def export_games(tmp_path_factory):
    """Two games as ``bower export -f json`` writes them (one table-mode, one card-mode)."""
    d = tmp_path_factory.mktemp("export")
    log = d / "g0001.log"
    log.write_bytes(game_log("classic", 3, "g0001"))
    assert run("import", "--db", d / "lib.sqlite3", log)[0] == 0
    assert run("demo", "--seed", "3", "--db", d / "lib.sqlite3")[0] == 0
    assert run("export", "--db", d / "lib.sqlite3", "-f", "json", "-o", d / "all.json")[0] == 0
    return json.loads((d / "all.json").read_text())["games"]


def _import_game(tmp_path, game: dict) -> tuple[int, str, str]:
    f = tmp_path / "one.json"
    f.write_text(EXPORT % json.dumps([game]))
    return run("import", "--db", tmp_path / "lib.sqlite3", f)


@pytest.mark.parametrize("field, value, said", [
    ("players", "AnnBob", 'game 1 (e6614103e7/g0001): "players" is "AnnBob", not a list of names'),
    ("players", "ABCD", '"players" is "ABCD", not a list of names'),
    ("players", ["A", "B", 3, "D"], '"players" is ["A", "B", 3, "D"], not a list of names'),
    ("first_dealer", True, '"first_dealer" is true, not a seat from 0 to 3'),
    ("first_dealer", 7, '"first_dealer" is 7, not a seat from 0 to 3'),
    ("mode", None, '"mode" is null, not "table" or "cards"'),
    ("events", "deal", '"events" is "deal", not a list of events (text)'),
    ("events", [1, 2], '"events" is [1, 2], not a list of events (text)'),
    ("scores", 3, '"scores" is 3, not a score per player'),
    ("scores", [0, 0, "1", 0], '"scores" is [0, 0, "1", 0], not a score per player'),
    ("initial_scores", {"a": 1}, '"initial_scores" is {"a": 1}, not a list of scores'),
    ("options", [], '"options" is [], not an object of options'),
    ("variant", 5, '"variant" is 5, not a variant name'),
    ("started", 12, '"started" is 12, not a time (text)'),
    ("device", None, 'game 1: "device" is null, not a device id'),
    ("game_id", ["g"], 'game 1: "game_id" is ["g"], not a game id'),
    ("events", ..., '"events" is missing (a list of events (text))'),
])
def test_a_game_of_the_wrong_shape_is_named_by_its_field(tmp_path, export_games, field, value, said):
    # Before: "not a game as Bower exports it (TypeError: 'int' object is not
    # subscriptable)", and a players string split into letters.
    game = dict(export_games[0])
    del game["log"]               # the game is rebuilt from its fields
    if value is ...:
        del game[field]
    else:
        game[field] = value
    rc, out, err = _import_game(tmp_path, game)
    assert rc == 1 and out == "" and said in err.splitlines()[0], err


FIELDS = ["id", "device", "game_id", "variant", "options", "mode", "players", "first_dealer", "started", "finished",
          "result", "winners", "scores", "initial_scores", "hands", "events", "log"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=True) | st.text(max_size=12)
    | st.sampled_from([0, 1, 3, 4, -1, 2 ** 62, "", "classic", "table", "cards", "Ann", "deal", "pass", "A\u202eB"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6) | st.sampled_from(FIELDS), inner,
                                                                max_size=4),
    max_leaves=10)


def _games(lib: Path) -> dict:
    with Library(lib, create=False) as db:
        rows = db.conn.execute("SELECT device, game_key, raw_sha256 FROM games").fetchall()
    return {f"{r[0]}/{r[1]}": r[2] for r in rows}


def _holds_and_stays_sound(tmp_path, before: dict, out: str) -> dict:
    after = _games(tmp_path / "lib.sqlite3")
    told = {w.strip(":,()") for line in out.splitlines() for w in line.split() if "/" in w}
    for ref, sha in before.items():
        assert after.get(ref) == sha or ref in told, (ref, out)          # updated only when said
    assert set(after) - set(before) <= told, (set(after) - set(before), out)
    rc, o, _ = run("library", "check", "--db", tmp_path / "lib.sqlite3")
    assert rc == 0 and ": sound, " in o, o
    return after


def _refused_in_one_line(rc, err: str, f: Path) -> None:
    # Imported (0, nothing on stderr), or refused (1): the file's reason in
    # one line, then the count of files not imported.
    said = err.splitlines()
    assert rc in (0, 1) and (rc == 0) == (err == ""), (rc, err)
    assert rc == 0 or (len(said) == 2 and said[0].startswith(f"bower: {f}: ") and "not imported" in said[1]), err


@pytest.fixture
def library(tmp_path, export_games):
    """A library holding one game (not in the export's first place)."""
    log = tmp_path / "kept.log"
    log.write_bytes(game_log("five", 4, "g0042"))
    assert run("import", "--db", tmp_path / "lib.sqlite3", log)[0] == 0
    return tmp_path


def _hypothesis(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@_hypothesis(120)
@given(doc=JSON_VALUES, wrap=st.sampled_from(["bare", "export", "egn", "games"]))
def test_json_of_random_shape_never_ends_in_python_s_words(library, doc, wrap):
    before = _games(library / "lib.sqlite3")
    text = {"bare": json.dumps(doc), "export": EXPORT % json.dumps(doc), "egn": EGN % json.dumps(doc),
            "games": EXPORT % json.dumps([doc])}[wrap]
    f = library / "random.json"
    f.write_text(text if text.startswith("{") else "{" + text, encoding="utf-8")
    rc, out, err = run("import", "--db", library / "lib.sqlite3", f)
    _refused_in_one_line(rc, err, f)
    _holds_and_stays_sound(library, before, out)


@_hypothesis(150)
@given(which=st.integers(0, 1), changes=st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES | st.just(...),
                                                          min_size=1, max_size=4),
       keep_log=st.booleans())
def test_an_export_whose_game_has_random_fields_is_refused_in_bower_s_words(library, export_games, which, changes,
                                                                          keep_log):
    # Before: "not a game as Bower exports it (KeyError: 'players')" and the like.
    before = _games(library / "lib.sqlite3")
    game = dict(export_games[which])
    if not keep_log:
        del game["log"]
    for k, v in changes.items():
        if v is ...:
            game.pop(k, None)
        else:
            game[k] = v
    rc, out, err = _import_game(library, game)
    _refused_in_one_line(rc, err, library / "one.json")
    _holds_and_stays_sound(library, before, out)


# ----- control characters ---------------------------------------------------------------------

NASTY = "\x1b[2J\x1b[31mx\x07\u202eg\x9b1m\nnext"


def test_control_characters_in_a_file_name_are_shown_as_escapes(tmp_path):
    # Before: the name reached the terminal raw (clearing it, turning the
    # line around, breaking it in two).
    good = tmp_path / f"{NASTY}.log"
    good.write_bytes(game_log("classic", 1, "g0001"))
    bad = tmp_path / f"{NASTY}.bad"
    bad.write_bytes(b"not a log\n")
    db = tmp_path / "lib.sqlite3"
    rc, out, err = run("import", "--db", db, good)
    assert rc == 0 and out.count("\n") == 1 and "\\x1b[2J\\x1b[31mx\\x07\\u202eg\\x9b1m\\nnext.log: new " in out, out
    rc, out, err = run("import", "--db", db, bad)
    assert rc == 1 and err.count("\n") == 2 and "\\x1b[2J" in err, err
    rc, out, err = run("club", "result", "--db", db, bad)
    assert rc == 1 and err.count("\n") == 2 and "\\x1b[2J" in err, err
    rc, out, err = run("club", "new", "Friday", "--hands", "4", "--tables", "1", "--roster", tmp_path / NASTY,
                       "--db", db)
    assert rc == 1 and err.count("\n") == 1 and "\\u202e" in err, err
    rc, out, err = run("import", "--db", db, good, f"--{NASTY}")          # a usage error echoes it too
    assert rc == 2 and err.count("\n") == 1 and "\\x1b[2J" in err, err


def test_control_characters_in_a_header_or_json_value_are_shown_as_escapes(tmp_path, export_games):
    from hostile import with_header
    log = tmp_path / "g.log"
    log.write_bytes(with_header(game_log("classic", 1, "g0001"), variant=NASTY))
    rc, out, err = run("import", "--db", tmp_path / "lib.sqlite3", log)
    assert rc == 1 and err.count("\n") == 2, err
    for field in ("variant", "mode", "players"):
        game = dict(export_games[0])
        del game["log"]
        game[field] = [NASTY] * 4 if field == "players" else NASTY
        rc, out, err = _import_game(tmp_path, game)
        assert rc == 1 and err.count("\n") == 2 and ("\\u202e" in err or "\\u001b" in err), (field, err)


def test_printable_escapes_every_control_and_format_character():
    from bower_host.errors import printable
    assert printable("Ann & Bob: café, 日本") == "Ann & Bob: café, 日本"
    assert printable("a\x1b[2Jb\x07\x7f\x85\u202e\u2028\n\t\ud800") == \
        "a\\x1b[2Jb\\x07\\x7f\\x85\\u202e\\u2028\\n\\t\\ud800"
    line = refused("import", "--db", "x.sqlite3", "x.log", f"--{NASTY}")[1]
    assert line.count("\n") == 1 and not [c for c in CONTROLS if c in line]
