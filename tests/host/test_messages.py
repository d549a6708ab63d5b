"""Messages that say the cause (issue 32, "Advice that misleads"): a
read-only library is told it is read-only, not to rebuild; a file error
says its errno's cause and names the file; ``--db`` that is empty, a
directory or under a file is refused in one line on every command that
takes it.

Each case: one line on stderr naming the cause, the right status, nothing
changed on disk, no traceback. Read-only files and directories are made
the ways a user meets them: the immutable flag (root, whom permissions do
not stop) or chmod (a user), and a read-only file system (a bind mount in
a user namespace, where ``unshare`` allows it). Each test failed on the
code before (c04a2fe): "run `bower library rebuild`", "check that the disk
has room", the personal library for ``--db ''``, an internal error for
``--db .``.
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.cli import build_parser
from bower_host.db import Library

from hostile import DEVICE, bower, game_log, refused

ROOT = Path(__file__).resolve().parents[2]


def snapshot(root: Path) -> dict:
    """Every path under ``root`` with its bytes (None for a directory)."""
    return {str(p.relative_to(root)): None if p.is_dir() and not p.is_symlink() else
            os.readlink(p) if p.is_symlink() else p.read_bytes() for p in sorted(Path(root).rglob("*"))}


def library(path: Path, n: int = 2) -> Path:
    """A library at ``path`` holding ``n`` games."""
    with Library(path) as lib:
        for i in range(1, n + 1):
            lib.add_log(game_log("classic", i, f"g000{i}"), DEVICE, f"g000{i}.log")
    return path


def games(path: Path) -> list:
    c = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return c.execute("SELECT device, game_key, log FROM games ORDER BY id").fetchall()
    finally:
        c.close()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The user's data directory in ``tmp_path/home`` (the default library
    would go there), and no $BOWER_DB."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BOWER_DB", raising=False)
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


# ----- a read-only library ------------------------------------------------------------

@contextmanager
def read_only(p: Path):
    """``p`` (a file or a directory) read-only for this process: the
    immutable flag for root, chmod for a user."""
    root = os.geteuid() == 0
    mode = p.stat().st_mode
    if root:
        if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode:
            pytest.skip("cannot make a file read-only here (no chattr)")
    else:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        yield p
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(p)], check=True)
        else:
            p.chmod(mode)


def _writers(db: Path, log: Path) -> list:
    # The commands that write to a library, each as a user would run it.
    return [["import", log, "--db", db], ["demo", "--db", db],
            ["club", "new", "Friday", "--players", "A", "B", "C", "D", "--hands", "4", "--tables", "1", "--db", db]]


def test_a_read_only_library_is_told_it_is_read_only_not_to_rebuild(tmp_path, home):
    # Before: "the game library cannot be read or written (attempt to write a
    # readonly database): run `bower library check`, and `bower library rebuild`".
    db = library(tmp_path / "lib.sqlite3")
    log = tmp_path / "new.log"
    log.write_bytes(game_log("classic", 7, "g0007"))
    before = snapshot(tmp_path)
    with read_only(db):
        for argv in _writers(db, log):
            rc, line = refused(*argv)
            assert rc == 1 and f"cannot write the game library {db}: the file is read-only" in line, (argv, line)
            assert "make it writable" in line and "rebuild" not in line, line
    assert snapshot(tmp_path) == before


def test_a_library_in_a_read_only_directory_is_told_so(tmp_path, home):
    # Before (the file writable, SQLite unable to make its journal beside it):
    # "the game library cannot be read or written (unable to open database
    # file): run ... `bower library rebuild`".
    d = tmp_path / "shelf"
    d.mkdir()
    db = library(d / "lib.sqlite3")
    log = tmp_path / "new.log"
    log.write_bytes(game_log("classic", 7, "g0007"))
    before = snapshot(tmp_path)
    with read_only(d):
        for argv in _writers(db, log) + [["import", log, "--db", d / "new.sqlite3"]]:
            rc, line = refused(*argv)
            assert rc == 1 and f"its directory {d} is read-only, and SQLite writes a journal there" in line, \
                (argv, line)
            assert "rebuild" not in line, line
        # Reading it is fine.
        rc, out, _ = bower("games", "--db", db)
        assert rc == 0 and "g0002" in out
    assert snapshot(tmp_path) == before


def test_a_write_sqlite_refuses_says_read_only(tmp_path, home, monkeypatch):
    # A library SQLite opens read-only though the file looks writable (a
    # connection opened so, as a file system or a lock can make it): the
    # error comes from SQLite itself, at the first write, and says so.
    # Before: "... run `bower library check`, and `bower library rebuild`".
    db = library(tmp_path / "lib.sqlite3")
    log = tmp_path / "new.log"
    log.write_bytes(game_log("classic", 7, "g0007"))
    real = sqlite3.connect

    def read_only_connect(database, *args, **kwargs):
        if os.fspath(database) == str(db):
            return real(f"file:{db}?mode=ro", *args, uri=True, **kwargs)
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only_connect)
    stored = games(db)
    rc, line = refused("import", log, "--db", db)
    assert rc == 1 and f"cannot write the game library {db}: it was opened read-only" in line, line
    assert "rebuild" not in line
    assert games(db) == stored


def _unshare_works() -> bool:
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="no user namespaces here (unshare -rm)")
def test_a_library_on_a_read_only_file_system_is_told_so(tmp_path):
    # A real read-only mount: the library's directory bound read-only over
    # itself in a user namespace, and bower run inside it.
    d = tmp_path / "shelf"
    d.mkdir()
    db = library(d / "lib.sqlite3")
    log = tmp_path / "new.log"
    log.write_bytes(game_log("classic", 7, "g0007"))
    before = snapshot(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), XDG_DATA_HOME=str(tmp_path / "home"))
    script = f'mount --bind "{d}" "{d}" && mount -o remount,ro,bind "{d}" && exec "$@"'
    for argv in _writers(db, log):
        r = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", sys.executable, "-m", "bower_host",
                            *map(str, argv)], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
        assert r.returncode == 1 and r.stdout == "" and r.stderr.count("\n") == 1, (argv, r.stdout, r.stderr)
        assert f"cannot write the game library {db}: it is on a read-only file system" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "rebuild" not in r.stderr
    assert snapshot(tmp_path) == before


# ----- file errors by their errno ---------------------------------------------------------

def _real(tmp_path: Path, e: int) -> OSError:
    """The OSError the system raises for ``e``, made for real where this
    machine can (else one as the system would make it)."""
    f = tmp_path / "notes.txt"
    f.write_text("x")
    target = {errno.ENOTDIR: f / "out.csv", errno.EISDIR: tmp_path, errno.ENOENT: tmp_path / "gone" / "out.csv",
              errno.ENAMETOOLONG: tmp_path / ("x" * 300), errno.ELOOP: tmp_path / "loop"}.get(e)
    if e == errno.ELOOP:
        os.symlink("loop", tmp_path / "loop")
    try:
        if e == errno.ENOSPC and os.path.exists("/dev/full"):
            with open("/dev/full", "w") as out:
                out.write("x" * 10)
        elif target is not None:
            with open(target, "w"):
                pass
    except OSError as err:
        assert err.errno == e, err
        return err
    return OSError(e, os.strerror(e), str(tmp_path / "out.csv"))


CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
    errno.EROFS: "on a read-only file system",
    errno.EISDIR: "it is a directory, not a file",
    errno.ENOTDIR: "notes.txt is a file, not a directory",
    errno.ENOENT: "gone does not exist",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many symbolic links",
    errno.EDQUOT: "disk quota",
}


@pytest.mark.parametrize("e", list(CAUSES), ids=[errno.errorcode[e] for e in CAUSES])
def test_a_file_error_says_its_cause_and_names_the_file(tmp_path, monkeypatch, capsys, e):
    # Before: "<strerror> (<file>): check that the disk has room and that you
    # may write there", whatever the cause.
    from bower_host import cli
    from bower_host.commands import library as libcmd

    err = _real(tmp_path, e)

    def failing(args):
        raise err

    monkeypatch.setattr(libcmd, "cmd_export", failing)
    assert cli.main(["export"]) == 1
    line = capsys.readouterr().err
    assert line.count("\n") == 1 and line.startswith("bower: "), line
    assert CAUSES[e] in line and "check that the disk has room" not in line, line
    name = os.fsdecode(err.filename) if err.filename else ""
    assert name[:50] in line, (name, line)
    assert len(line) < 400


NAMES = st.one_of(st.text(max_size=40), st.text(min_size=300, max_size=2000), st.binary(max_size=40),
                  st.none())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(code=st.one_of(st.sampled_from(sorted(errno.errorcode)), st.integers(-5, 5000), st.none()),
       name=NAMES, name2=NAMES)
def test_any_os_error_is_one_line(monkeypatch, capsys, code, name, name2):
    # Any errno, any file name (control characters, 2,000 characters, bytes):
    # one line, never Python's own exception text ("[Errno 2] ...").
    from bower_host import cli
    from bower_host.commands import library as libcmd

    err = OSError(code, os.strerror(code) if isinstance(code, int) and code > 0 else "x", name, None, name2) \
        if code is not None else OSError("a file could not be read")

    def failing(args):
        raise err

    monkeypatch.setattr(libcmd, "cmd_export", failing)
    assert cli.main(["export"]) == 1
    line = capsys.readouterr().err
    assert line.count("\n") == 1 and line.startswith("bower: ") and "[Errno" not in line, line
    assert len(line) < 600, line


# ----- --db: empty, a directory, under a file ---------------------------------------------

def db_commands() -> list:
    """Every command that takes --db, as ``[words]`` (walked from the parser);
    but ``bower league``'s, whose --db is a league's database (a file or a
    PostgreSQL URL: test_league.py's ``test_a_bad_league_db_is_one_line``)."""
    out = []

    def walk(p, words):
        if words == ["league"]:
            return
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sub in a.choices.items():
                    walk(sub, words + [name])
            elif "--db" in a.option_strings:
                out.append(words)

    walk(build_parser(), [])
    return out


#: What each command needs besides --db to get as far as opening the library.
ARGS = {
    "demo": [], "sync": ["--port", "/dev/null"], "games": [], "show": ["1"], "export": [], "stats": [],
    "plot": ["1"], "import": ["notes.txt"], "library check": [], "library rebuild": [],
    "club new": ["Friday", "--players", "A", "B", "C", "D", "--hands", "4", "--tables", "1"], "club list": [],
    "club seating": [], "club sheet": [], "club result": ["notes.txt"], "club collect": [], "club simulate": [],
    "club standings": [], "club serve": [], "club push": ["--table", "1", "--port", "/dev/null"],
    "club table reset": ["--table", "1"],
}


def test_every_command_that_takes_db_is_in_the_table_and_parses_it_so():
    from bower_host import argtypes

    commands = db_commands()
    assert sorted(" ".join(c) for c in commands) == sorted(ARGS), "a command with --db is missing from ARGS"
    parse = argtypes.library_file()
    for words in commands:
        sub = build_parser()
        for w in words:
            sub = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction)).choices[w]
        db = next(a for a in sub._actions if "--db" in a.option_strings)
        assert getattr(db.type, "__qualname__", "") == parse.__qualname__, words


# (--db value, status, what the line says)
BAD_DB = [
    ("", 2, "--db is empty"),
    ("   ", 2, "--db is empty"),
    ("lib\0.sqlite3", 2, "has a NUL character"),
    ("lib\n.sqlite3", 2, "has a control character (newline, tab, ...)"),
    ("shelf/", 2, "ends in '/', so it names a directory"),
    (".", 1, ". is a directory, not a game library: give --db a file"),
    ("shelf", 1, "shelf is a directory, not a game library"),
    ("/", 2, "ends in '/', so it names a directory"),
    ("/tmp", 1, "/tmp is a directory, not a game library"),
    ("shelf/..", 1, "is a directory, not a game library"),
    ("notes.txt/lib.sqlite3", 1, "notes.txt/lib.sqlite3 cannot be a game library: notes.txt is a file, not a "
                                 "directory"),
    ("loop", 1, "loop cannot be a game library: too many symbolic links"),
    ("x" * 300, 1, "cannot be a game library: the name is too long"),
]


@pytest.fixture
def shelf(tmp_path, home, monkeypatch):
    """A directory to run in: a file notes.txt, a directory shelf/, a symlink loop."""
    import uvicorn

    def served(self, sockets=None):
        raise AssertionError("bower club serve started serving")

    monkeypatch.setattr(uvicorn.Server, "run", served)
    (tmp_path / "notes.txt").write_text("not a log\n")
    (tmp_path / "shelf").mkdir()
    os.symlink("loop", tmp_path / "loop")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("value, status, says", BAD_DB,
                         ids=["empty", "spaces", "nul", "newline", "slash", "dot", "dir", "root", "tmp", "dotdot",
                              "under-a-file", "loop", "long"])
@pytest.mark.parametrize("command", sorted(ARGS))
def test_a_db_that_cannot_be_a_library_is_refused_by_every_command(shelf, command, value, status, says):
    # Before: --db '' meant the personal library; '.', '/' and any directory
    # "internal error: ValueError: PosixPath('.') has an empty name"; a path
    # under a file "[Errno 17] File exists" or "is empty (no such file)".
    before = snapshot(shelf)
    rc, line = refused(*command.split(), *ARGS[command], "--db", value)
    if command in ("sync", "club push") and status == 1:
        # The port is checked first (it is not a serial port): refused all the same.
        assert rc == 1, line
    else:
        assert rc == status and says in line, (rc, line)
    assert snapshot(shelf) == before


def _run(*args) -> tuple[int, str]:
    # ``bower ARGS`` in-process, a usage error's exit too: (status, stderr).
    import contextlib
    import io

    from bower_host.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main([os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args])
        except SystemExit as e:
            rc = e.code
    return rc, err.getvalue()


SEGMENTS = ["", ".", "..", "shelf", "notes.txt", "loop", "x" * 300, "\0", "new.sqlite3", "lib.sqlite3", " ", "~",
            "\n", "\u00e9t\u00e9"]
READERS = ["games", "show 1", "export", "stats", "plot 1", "library check", "club list", "club standings"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(SEGMENTS), max_size=4), absolute=st.booleans(), slash=st.booleans(),
       command=st.sampled_from(READERS))
def test_any_db_given_to_a_read_command_is_refused_in_one_line_and_creates_nothing(shelf, parts, absolute, slash,
                                                                                    command):
    # No library exists here: every read command refuses, in one line, with
    # status 2 (a value no command could use) or 1, and creates nothing.
    value = ("/" if absolute else "") + "/".join(parts) + ("/" if slash else "")
    before = snapshot(shelf)
    rc, err = _run(*command.split(), "--db", value)
    assert rc in (1, 2) and err.count("\n") == 1 and err.startswith("bower: "), (value, rc, err)
    assert "Traceback" not in err and "internal error" not in err, (value, err)
    if not value.strip() or "\0" in value or "\n" in value or value.endswith("/"):
        assert rc == 2, (value, err)
    assert snapshot(shelf) == before


# ----- the writer lock: held by one process at a time, gone once released -------------------

RACER = r"""
import sys, time
from bower_host.db import LibraryError, writer_lock
db, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
held = []
while len(held) < n:
    try:
        with writer_lock(db, "racer"):
            start = time.monotonic_ns()
            time.sleep(0.002)
            held.append((start, time.monotonic_ns()))
    except LibraryError:
        time.sleep(0.0005)
with open(out, "w") as f:
    f.write("\n".join(f"{a} {b}" for a, b in held))
"""


def test_the_writer_lock_is_held_by_one_process_at_a_time_and_its_file_goes(tmp_path):
    # Six real processes take and release the lock 40 times each, as fast as
    # they can: the times each held it never overlap (a process that opened
    # the file just as its holder removed it must not lock the removed file
    # and count as holding), and no lock file is left.
    db = tmp_path / "lib.sqlite3"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(db), str(tmp_path / f"held{i}"), "40"], env=env,
                              stderr=subprocess.PIPE) for i in range(6)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    spans = sorted((int(a), int(b)) for i in range(6)
                   for a, b in (ln.split() for ln in (tmp_path / f"held{i}").read_text().splitlines()))
    assert len(spans) == 240
    overlaps = [(x, y) for x, y in zip(spans, spans[1:]) if y[0] < x[1]]
    assert not overlaps, overlaps[:3]
    assert not (tmp_path / "lib.sqlite3.lock").exists()


def test_no_lock_file_is_left_after_a_command(tmp_path, home):
    # Before: `<lib>.lock` stayed beside the library after every sync,
    # import, club command or rebuild, naming a process long gone.
    from fake_device import FakeDevice, random_table_game, record_game

    db = tmp_path / "lib.sqlite3"
    lock = tmp_path / "lib.sqlite3.lock"
    log = tmp_path / "g0007.log"
    log.write_bytes(game_log("classic", 7, "g0007"))
    dev = FakeDevice(tmp_path / "flash")
    record_game(dev.store, "classic", random_table_game("classic", seed=3))
    with dev:
        assert bower("sync", "--port", dev.port, "--db", db, "--quiet")[0] == 0
    assert db.exists() and not lock.exists()
    lock.write_text("bower sync (process 999999)\n")        # left by an older bower
    for argv in (["import", log], ["club", "new", "Friday", "--players", "A", "B", "C", "D", "--hands", "4",
                                   "--tables", "1"], ["club", "collect"]):
        rc, out, err = bower(*argv, "--db", db)
        assert rc == 0, (argv, err)
        assert not lock.exists(), argv
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flash", "g0007.log", "home", "lib.sqlite3",
                                                          "lib.sqlite3.partial", "lib.sqlite3.raw"]


# ----- one simulator per flash --------------------------------------------------------------

def _bower_process(*args, **kw):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.Popen([sys.executable, "-m", "bower_host", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kw)


def test_a_second_simulator_on_the_same_flash_is_refused_naming_the_first(tmp_path, home):
    # Before: two `bower sim` on one flash both ran, their inputs interleaved
    # in the same game files. Now the first holds an OS lock on <flash>.lock
    # while it runs; a second on that flash, by any path, is refused in one
    # line naming the first (--fresh erases nothing), and the flash is the
    # next one's once the first has ended.
    flash, link = tmp_path / "flash", tmp_path / "sim.port"
    first = _bower_process("sim", "--flash", flash, "--serve", link, "--keys", "o")
    try:
        line = ""
        while "serving the device link" not in line:
            line = first.stdout.readline()
            assert line, first.stderr.read()
        os.symlink(flash, tmp_path / "alias")
        (tmp_path / "sub").mkdir()
        before = snapshot(flash)
        for path, extra in ((flash, []), (tmp_path / "alias", []), (tmp_path / "sub" / ".." / "flash", []),
                            (str(flash) + "/", []), (flash, ["--fresh"])):
            second = _bower_process("sim", "--flash", path, "--keys", "o", *extra)
            out, err = second.communicate(timeout=60)
            assert second.returncode == 1 and out == "" and err.count("\n") == 1, (path, extra, out, err)
            assert err == f"bower: the simulated flash at {path} is in use by bower sim (process {first.pid}): " \
                          "stop it first, or give another --flash DIR\n", err
        assert snapshot(flash) == before
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(10) == 0
    assert not (tmp_path / "flash.lock").exists()
    again = _bower_process("sim", "--flash", tmp_path / "alias", "--keys", "o")
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err
    assert not (tmp_path / "flash.lock").exists()


# ----- a device that answers nonsense to CLOCK and ROSTER -------------------------------------

class Answering:
    """The real firmware link on a pty (tests/host/fake_device.py), except
    that CLOCK and ROSTER get ``reply[command]`` (the words after the tag)
    in a line with a good CRC: nonsense that only the host's reading of
    the reply can refuse."""

    def __init__(self, root):
        from fake_device import FakeDevice
        from bower_host.framing import crc_hex

        self.reply: dict = {}
        self.dev = FakeDevice(root)
        feed = self.dev.link.feed

        def incoming(data: bytes) -> None:
            d = self.dev
            d._pending += data
            while b"\n" in d._pending:
                line, d._pending = d._pending.split(b"\n", 1)
                words = line.split(b" ")
                cmd = words[2].decode("ascii", "replace") if len(words) > 3 else ""
                if line.startswith(b"#B? ") and cmd in self.reply:
                    body = b"#B! " + words[1] + b" " + self.reply[cmd].encode()
                    d._raw_write(body + b" " + crc_hex(body).encode() + b"\n")
                else:
                    feed(line + b"\n")

        self.dev._incoming = incoming

    def __enter__(self):
        self.dev.start()
        return self

    def __exit__(self, *exc):
        self.dev.stop()


def _link(dev, *args) -> tuple[int, str, str]:
    import contextlib
    import io

    from bower_host.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([*map(str, args), "--port", dev.dev.port, "--timeout", "0.5"])
    o, e = out.getvalue(), err.getvalue()
    assert "Traceback" not in o + e and "internal error" not in e, e
    return rc, o, e


NONSENSE = [
    ("CLOCK", "OK", "the device answered CLOCK with"),
    ("CLOCK", "OK soon", "not OK and the offset it stored"),
    ("CLOCK", "OK 5 6", "the device answered CLOCK with"),
    ("CLOCK", "OK +5", "the device answered CLOCK with"),
    ("CLOCK", "OK 99999999999", "the device answered CLOCK with"),
    ("CLOCK", "OK 1e3", "the device answered CLOCK with"),
    ("ROSTER", "OK", "not OK 2 (the number of names sent)"),
    ("ROSTER", "OK 3", "the device answered ROSTER with"),
    ("ROSTER", "OK two", "the device answered ROSTER with"),
    ("ROSTER", "OK 2 more", "the device answered ROSTER with"),
    ("ROSTER", "OK 02", "the device answered ROSTER with"),
]
NONSENSE = [pytest.param(c, r, s, id=f"{c}-{r.replace(' ', '-')}") for c, r, s in NONSENSE]


@pytest.mark.parametrize("cmd, reply, says", NONSENSE)
def test_a_device_that_answers_clock_and_roster_with_nonsense_is_an_error(tmp_path, cmd, reply, says):
    # Before: `bower roster push` said "Roster on device ..." whatever number
    # (or none) came back, and `bower clock` took "OK 5 6", "OK +5" or an
    # offset that puts the device's own clock before 1970; both exited 0.
    argv = ["clock"] if cmd == "CLOCK" else ["roster", "push", "Ann", "Bob"]
    with Answering(tmp_path / "flash") as dev:
        dev.reply = {cmd: reply}
        rc, out, err = _link(dev, *argv)
        assert rc == 1 and out == "" and err.count("\n") == 1 and says in err, (rc, out, err)
        dev.reply = {}
        assert _link(dev, *argv)[0] == 0


WORDS = st.sampled_from(["OK", "ERR", "GAME", "badargs", "0", "2", "3", "-5", "1000", "1763699000", "99999999999",
                         "+2", "02", "-0", "1.5", "1e3", "x", "-", "\u00e9", "2 "])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cmd=st.sampled_from(["CLOCK", "ROSTER"]), words=st.lists(WORDS, max_size=4),
       extra=st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=12))
def test_only_the_reply_the_protocol_gives_is_taken(tmp_path_factory, cmd, words, extra):
    # Any reply (random words with a good CRC): the command succeeds exactly
    # when the reply is what host/PROTOCOL.md says (CLOCK: OK and the offset,
    # which leaves the device's own clock at 0 or later; ROSTER: OK and the
    # number of names sent), else it fails in one line with status 1.
    import re
    import time

    reply = " ".join(words + ([extra] if extra else []))
    with Answering(tmp_path_factory.mktemp("flash")) as dev:
        dev.reply = {cmd: reply}
        now = int(time.time())
        argv = ["clock"] if cmd == "CLOCK" else ["roster", "push", "Ann", "Bob"]
        rc, out, err = _link(dev, *argv)
    w = reply.split(" ")
    if cmd == "CLOCK":
        good = len(w) == 2 and w[0] == "OK" and bool(re.fullmatch(r"0|-?[1-9][0-9]*", w[1])) and int(w[1]) <= now
    else:
        good = w == ["OK", "2"]
    if good:
        assert rc == 0 and err == "", (reply, err)
    else:
        assert rc == 1 and out == "" and err.count("\n") == 1 and err.startswith("bower: "), (reply, rc, out, err)


# ----- the club page while its library is gone ----------------------------------------------

def _get(url: str) -> tuple[int, str, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


PAGES = ["/", "/player/1", "/results.json", "/board.json", "/standings.csv"]


def test_the_club_page_answers_503_while_its_library_is_gone_and_serves_again_after(tmp_path):
    # Before: 500 and a traceback in the server's output on every request
    # once the library file was moved away or damaged.
    import json
    import socket

    from bower_host.club import night as cn

    db = tmp_path / "club.sqlite3"
    with Library(db) as lib:
        cn.create_night(lib, "Friday", list("ABCDEFGH"), 2, "progressive", 3, hands=4, seed=1, key="fri")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = _bower_process("club", "serve", "--db", db, "--port", port)
    try:
        line = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line, (line, server.stderr.read() if server.poll() is not None else "")
        url = f"http://127.0.0.1:{port}"
        good = {p: _get(url + p) for p in PAGES}
        assert all(code == 200 for code, _, _ in good.values()), good
        kept = db.read_bytes()
        for how in ("moved", "damaged", "moved"):
            if how == "moved":
                db.rename(tmp_path / "away.sqlite3")
            else:
                db.write_bytes(b"\x00junk" * 2000)
            for p in PAGES:
                code, kind, body = _get(url + p)
                assert code == 503, (how, p, code, body[:300])
                if p.endswith(".json"):
                    why = json.loads(body)["error"]
                    assert kind.startswith("application/json"), kind
                else:
                    why = body
                    assert body.endswith("\n") and body.count("\n") == 1, body
                assert str(db) in why and ("not there" if how == "moved" else "cannot be read") in why, why
                assert "Traceback" not in body and "Internal Server Error" not in body
            if how == "moved":
                (tmp_path / "away.sqlite3").rename(db)
            else:
                db.write_bytes(kept)
            again = {p: _get(url + p) for p in PAGES}
            assert again == good, how
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert "Traceback" not in err and "Exception" not in err, err
    said = [ln for ln in err.splitlines() if "bower club serve:" in ln]
    assert len(said) == 6, err                      # gone, back, damaged, back, gone, back: a line each
    assert all("not there" in s or "cannot be read (" in s or "can be read again" in s for s in said), said
