"""Outputs that cannot hurt (issue 32): every command that writes a file the
user names goes through ``bower_host.outputs``.

Each command is aimed at the library, its side files (``.raw/`` and a log
in it, ``.lock``, ``-journal``), a symlink and a hard link to the library
and to a raw log, ``sub/../lib.sqlite3``, another library, a directory, a
FIFO, ``/dev/full`` and ``/dev/null``: it refuses in one line, exit 1, and
nothing anywhere changes (the library byte for byte, its archive, every
other file; no temporary file left); ``bower library check`` still finds
the library sound. A hypothesis test draws commands and targets, the
permitted ones too (an existing text file, a new name, a directory where
the command writes files in one), whose output must then be exactly what
the command writes to standard output (or a valid PNG).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.club import night as cn
from bower_host.db import Library

from hostile import bower, refused

PNG = b"\x89PNG\r\n\x1a\n"


# ----- the world: a library with a club night, its side files and things beside it ------------------

def _template(root: Path) -> Path:
    """A library lib.sqlite3 (night fri, round 1 played and counted: 2 games), its archive,
    another library, a text file, a directory and a simulated flash."""
    root.mkdir()
    lib = root / "lib.sqlite3"
    with Library(lib) as L:
        cn.create_night(L, "Friday", list("ABCDEFGH"), 2, "progressive", 3, hands=4, seed=1, key="fri")
    logs = root.parent / (root.name + "-logs")
    assert bower("club", "simulate", "--db", lib, "-o", logs, "--seed", "3")[0] == 0
    assert bower("club", "result", "--db", lib, *sorted(logs.glob("*.log")))[0] == 0
    shutil.rmtree(logs)
    with Library(root / "other.sqlite3"):
        pass
    (root / "notes.txt").write_text("notes kept by hand\n")
    (root / "sub").mkdir()
    with contextlib.redirect_stdout(io.StringIO()):
        assert bower("sim", "--keys", "o", "--flash", root / "flash")[0] == 0
    return root


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    return _template(tmp_path_factory.mktemp("outputs") / "template")


class World:
    """A copy of the template, with the links, the FIFO and the names a command is aimed at."""

    def __init__(self, template: Path, root: Path):
        shutil.copytree(template, root, symlinks=True)
        self.root = root
        self.lib = root / "lib.sqlite3"
        self.raw = root / "lib.sqlite3.raw"
        self.raw_log = sorted(self.raw.rglob("*.log"))[0]
        self.flash = root / "flash"
        os.symlink(self.lib, root / "link.sqlite3")
        os.symlink(self.raw_log, root / "link.log")
        os.link(self.lib, root / "hard.sqlite3")
        os.link(self.raw_log, root / "hard.log")
        os.mkfifo(root / "fifo")

    def target(self, kind: str) -> str:
        r = self.root
        return str({"library": self.lib, "raw-dir": self.raw, "raw-log": self.raw_log,
                    "lock": r / "lib.sqlite3.lock", "journal": r / "lib.sqlite3-journal",
                    "symlink-library": r / "link.sqlite3", "symlink-raw-log": r / "link.log",
                    "hardlink-library": r / "hard.sqlite3", "hardlink-raw-log": r / "hard.log",
                    "dotdot": r / "sub" / ".." / "lib.sqlite3", "other-library": r / "other.sqlite3",
                    "directory": r / "sub", "fifo": r / "fifo", "dev-full": "/dev/full", "dev-null": "/dev/null",
                    "flash-file": self.flash / "sim-device-id",
                    "text-file": r / "notes.txt", "new-name": r / "new.out"}[kind])


def snapshot(root: Path) -> dict:
    """Every path under ``root``: a file's bytes' hash, a link's target, "dir", "fifo" (nothing opened
    that could block)."""
    out = {}
    for p in sorted(root.rglob("*")):
        m = p.lstat().st_mode
        rel = str(p.relative_to(root))
        if stat.S_ISLNK(m):
            out[rel] = "-> " + os.readlink(p)
        elif stat.S_ISREG(m):
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[rel] = "dir" if stat.S_ISDIR(m) else "fifo" if stat.S_ISFIFO(m) else oct(m)
    return out


def library_part(snap: dict) -> dict:
    return {k: v for k, v in snap.items() if k.startswith("lib.sqlite3")}


@contextlib.contextmanager
def fifo_drained(path: Path):
    """A reader on the FIFO ``path`` for as long as the block runs, so that a command that wrongly
    writes to it does not block the test (it must fail it instead)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    stop = threading.Event()
    got = []

    def drain():
        while not stop.is_set():
            with contextlib.suppress(BlockingIOError):
                b = os.read(fd, 65536)
                if b:
                    got.append(b)
            stop.wait(0.01)

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    try:
        yield got
    finally:
        stop.set()
        t.join()
        os.close(fd)


@contextlib.contextmanager
def no_dev_litter():
    """The code before wrote /dev/full.png for ``plot -o /dev/full``: none may appear (removed if it does)."""
    litter = [Path("/dev/full.png"), Path("/dev/null.png")]
    before = {p for p in litter if p.exists()}
    try:
        yield
    finally:
        made = [p for p in litter if p.exists() and p not in before]
        for p in made:
            if p.is_file():
                p.unlink()
        assert not made, f"created {made}"


@contextlib.contextmanager
def default_library(lib: Path):
    """``$BOWER_DB`` naming ``lib`` (``bower sim`` protects the default library)."""
    old = os.environ.get("BOWER_DB")
    os.environ["BOWER_DB"] = str(lib)
    try:
        yield
    finally:
        if old is None:
            del os.environ["BOWER_DB"]
        else:
            os.environ["BOWER_DB"] = old


# ----- the commands ---------------------------------------------------------------------------------

#: name -> (argv for a target, what it writes: "text" | "png" | "egn-dir" | "logs-dir").
COMMANDS = {
    "export-csv": (lambda w, t: ["export", "--db", w.lib, "-o", t], "text"),
    "export-json": (lambda w, t: ["export", "--db", w.lib, "-f", "json", "-o", t], "text"),
    "export-egn": (lambda w, t: ["export", "--db", w.lib, "-f", "egn", "--table-results", "1", "-o", t], "text"),
    "export-egn-dir": (lambda w, t: ["export", "--db", w.lib, "-f", "egn", "--table-results", "-o", t], "egn-dir"),
    "club-sheet": (lambda w, t: ["club", "sheet", "--db", w.lib, "-o", t], "text"),
    "club-simulate": (lambda w, t: ["club", "simulate", "--db", w.lib, "--round", "2", "-o", t], "logs-dir"),
    "plot": (lambda w, t: ["plot", "1", "--db", w.lib, "-o", t], "png"),
    "sim-screenshot": (lambda w, t: ["sim", "--keys", "o", "--flash", w.flash, "--screenshot", t], "png"),
}

REFUSED = ["library", "raw-dir", "raw-log", "lock", "journal", "symlink-library", "symlink-raw-log",
           "hardlink-library", "hardlink-raw-log", "dotdot", "other-library", "fifo", "dev-full", "dev-null"]
#: What each command may write: a file (an existing text file, a new name), or files in a directory.
PERMITTED = {"text": {"text-file", "new-name"}, "png": {"text-file", "new-name"},
             "egn-dir": {"directory"}, "logs-dir": {"directory", "new-name"}}
KINDS = REFUSED + ["directory", "flash-file", "text-file", "new-name"]


def permitted(command: str, kind: str) -> bool:
    writes = COMMANDS[command][1]
    if command in ("plot", "export-egn") and kind == "directory":
        return True                               # bower-1.png, the game's .egn in it
    if kind == "flash-file":        # a regular file: only the simulator protects its flash
        return command != "sim-screenshot" and writes in ("text", "png")
    return kind in PERMITTED[writes]


def run(world: World, command: str, target: str):
    argv = COMMANDS[command][0](world, target)
    with default_library(world.lib), no_dev_litter():
        if target.endswith("fifo"):
            with fifo_drained(Path(target)) as got:
                result = _run(argv)
            assert not got, f"{command} wrote {sum(map(len, got))} bytes into the FIFO"
            return result
        return _run(argv)


def _run(argv):
    return bower(*argv)


def stdout_of(world: World, command: str) -> str:
    """What the command writes to standard output (``-o -``) for the same arguments."""
    rc, out, err = bower(*COMMANDS[command][0](world, "-"))
    assert rc == 0, err
    return out


def check_written(world: World, command: str, kind: str, target: str) -> None:
    writes = COMMANDS[command][1]
    t = Path(target)
    if writes == "text":
        if kind == "directory":
            [t] = t.glob("*.egn")
        assert t.read_bytes().decode("utf-8") == stdout_of(world, command)
    elif writes == "png":
        png = t / "bower-1.png" if kind == "directory" else t
        assert png.read_bytes().startswith(PNG)
        from PIL import Image
        with Image.open(png) as im:
            im.verify()
    elif writes == "egn-dir":
        got = sorted(p.read_text(encoding="utf-8") for p in t.glob("*.egn"))
        want = sorted(bower("export", "--db", world.lib, "-f", "egn", "--table-results", str(g), "-o", "-")[1]
                      for g in (1, 2))
        assert got == want
    else:
        logs = sorted(p.name for p in t.iterdir())
        assert logs == ["r2-t1.log", "r2-t2.log"] and all((t / n).read_bytes().startswith(b'[{"club"') for n in logs)


def check_sound(world: World) -> None:
    rc, out, err = bower("library", "check", "--db", world.lib)
    assert rc == 0 and "sound" in out, (out, err)


# ----- every command at every target that could hurt --------------------------------------------------

@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_command_writes_over_the_library_its_files_a_database_a_fifo_or_a_device(template, tmp_path, command):
    # Before: export/sheet wrote over the library, its lock and its raw logs (through links too), plot made
    # /dev/full.png and sheet/export blocked on a FIFO; club simulate wrote logs into the archive.
    world = World(template, tmp_path / "w")
    kinds = REFUSED + ["directory"] * (not permitted(command, "directory")) \
        + ["flash-file"] * (command == "sim-screenshot")
    for kind in kinds:
        target = world.target(kind)
        before = snapshot(world.root)
        with default_library(world.lib), no_dev_litter():
            if kind == "fifo":
                with fifo_drained(Path(target)) as got:
                    rc, line = refused(*COMMANDS[command][0](world, target))
                assert not got, (kind, "written into the FIFO")
            else:
                rc, line = refused(*COMMANDS[command][0](world, target))
        assert rc == 1 and line.startswith(f"bower: cannot write {target}"), (kind, line)
        assert cause_of(command, kind) in line, (kind, line)
        assert snapshot(world.root) == before, (kind, line)
    check_sound(world)


def cause_of(command: str, kind: str) -> str:
    """What the refusal of ``command`` at a target of ``kind`` says."""
    if kind == "flash-file":
        return "which this command must not write in"
    if kind == "other-library" and command == "club-simulate":
        return "it is a file, not a directory"
    return CAUSES[kind]


CAUSES = {"library": "is the game library", "raw-dir": "belongs to the game library",
          "raw-log": "belongs to the game library", "lock": "belongs to the game library",
          "journal": "belongs to the game library", "symlink-library": "is the game library",
          "symlink-raw-log": "belongs to the game library", "hardlink-library": "is the game library",
          "hardlink-raw-log": "belongs to the game library", "dotdot": "is the game library",
          "other-library": "is an SQLite database", "directory": "is a directory", "fifo": "is a FIFO",
          "dev-full": "is a device", "dev-null": "is a device"}


@pytest.mark.parametrize("kind", sorted(CAUSES))
def test_the_refusal_names_the_cause(template, tmp_path, kind):
    world = World(template, tmp_path / "w")
    target = world.target(kind)
    with no_dev_litter(), (fifo_drained(Path(target)) if kind == "fifo" else contextlib.nullcontext()):
        _, line = refused("export", "--db", world.lib, "-o", target)
    assert CAUSES[kind] in line, line
    if kind in ("directory", "fifo", "dev-full"):
        assert "(- writes to standard output)" in line


def test_a_fifo_output_is_refused_at_once_with_no_reader(template, tmp_path):
    # The real command, no reader on the FIFO: it must not block (before: sheet and export hung for ever).
    # Each its own FIFO: a command that opened one to read and write (PIL's "w+b") would be another's reader.
    world = World(template, tmp_path / "w")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), BOWER_DB=str(world.lib))
    procs = {}
    for c, (argv, _) in COMMANDS.items():
        os.mkfifo(world.root / f"fifo-{c}")
        procs[c] = subprocess.Popen([sys.executable, "-m", "bower_host", *map(str, argv(world, f"fifo-{c}"))],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=world.root)
    try:
        for c, p in procs.items():
            out, err = p.communicate(timeout=60)
            assert p.returncode == 1 and out == b"" and err.decode().count("\n") == 1 and b"is a FIFO" in err, \
                (c, p.returncode, err)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()


# ----- random commands at random targets: the invariants ---------------------------------------------

@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(COMMANDS)), kind=st.sampled_from(KINDS))
def test_any_command_at_any_target_loses_nothing(template, tmp_path_factory, command, kind):
    world = World(template, tmp_path_factory.mktemp("h") / "w")
    target = world.target(kind)
    before = snapshot(world.root)
    rc, out, err = run(world, command, target)        # bower(): no traceback, a failure is one line
    after = snapshot(world.root)
    assert library_part(after) == library_part(before), (command, kind, err)
    if permitted(command, kind):
        assert rc == 0, (command, kind, err)
        check_written(world, command, kind, target)
        assert not [k for k in after if k.endswith(".tmp")]
    else:
        assert rc == 1 and err.count("\n") == 1 and err.startswith("bower: "), (command, kind, rc, err)
        assert after == before, (command, kind, err)
    check_sound(world)
    shutil.rmtree(world.root)


# ----- what a failed write says, and what it leaves --------------------------------------------------

@pytest.mark.parametrize("call", ["replace", "write"])
@pytest.mark.parametrize("code, says", [(errno.ENOSPC, "the disk is full"), (errno.EACCES, "permission denied"),
                                        (errno.EPERM, "not permitted"),
                                        (errno.EROFS, "it is on a read-only file system"),
                                        (errno.EDQUOT, "disk quota is used up")])
def test_a_failed_write_says_why_leaves_no_temporary_file_and_keeps_the_old_file(template, tmp_path, monkeypatch,
                                                                                  call, code, says):
    world = World(template, tmp_path / "w")
    target = world.root / "notes.txt"
    before = snapshot(world.root)
    real = getattr(os, call)

    def failing(*args, **kwargs):
        if call == "write" or str(args[1]) == str(target):
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    monkeypatch.setattr(os, call, failing)
    rc, line = refused("export", "--db", world.lib, "-o", target)
    monkeypatch.setattr(os, call, real)
    assert rc == 1 and line.startswith(f"bower: cannot write {target}: ") and says in line, line
    assert "check that the disk has room" not in line
    assert snapshot(world.root) == before          # the old file whole, no .tmp beside it


@pytest.mark.parametrize("target, says", [("no/such/dir/out.csv", "its directory no/such/dir does not exist"),
                                          ("notes.txt/out.csv", "notes.txt is a file, not a directory"),
                                          ("x" * 300 + ".csv", "the name is too long"),
                                          ("loop", "too many symbolic links"),
                                          ("", "-o is empty")])
def test_a_target_that_cannot_be_made_is_refused_before_any_work(template, tmp_path, monkeypatch, target, says):
    world = World(template, tmp_path / "w")
    os.symlink("loop", world.root / "loop")
    monkeypatch.chdir(world.root)
    before = snapshot(world.root)
    _, line = refused("export", "--db", world.lib, "-o", target)
    assert says in line and "check that the disk has room" not in line, line
    assert snapshot(world.root) == before


def test_an_existing_target_keeps_its_permission_bits_and_a_symlink_is_written_through(template, tmp_path):
    world = World(template, tmp_path / "w")
    notes = world.root / "notes.txt"
    os.chmod(notes, 0o640)
    assert bower("export", "--db", world.lib, "-o", notes)[0] == 0
    assert stat.S_IMODE(notes.stat().st_mode) == 0o640
    link = world.root / "to-notes"
    os.symlink(notes, link)
    assert bower("club", "sheet", "--db", world.lib, "-o", link)[0] == 0
    assert os.path.islink(link) and notes.read_text(encoding="utf-8") == stdout_of(world, "club-sheet")
    new = world.root / "new.csv"
    assert bower("export", "--db", world.lib, "-o", new)[0] == 0
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~mask


def test_sim_fresh_erases_only_a_simulated_flash(template, tmp_path):
    # Before: `bower sim --fresh --flash DIR` erased any directory without a games/ in it (DIR's files, a
    # library's raw archive).
    world = World(template, tmp_path / "w")
    papers = world.root / "papers"
    papers.mkdir()
    (papers / "letter.txt").write_text("keep me")
    before = snapshot(world.root)
    with default_library(world.root / "elsewhere.sqlite3"):
        _, line = refused("sim", "--fresh", "--keys", "o", "--flash", papers)
        assert "erases only a simulated flash" in line
        _, line = refused("sim", "--fresh", "--keys", "o", "--flash", world.raw)
        assert "erases only a simulated flash" in line
    with default_library(world.lib):
        _, line = refused("sim", "--keys", "o", "--flash", world.raw)
        assert "belongs to the game library" in line
    assert snapshot(world.root) == before
    with default_library(world.root / "elsewhere.sqlite3"), contextlib.redirect_stdout(io.StringIO()):
        assert bower("sim", "--fresh", "--keys", "o", "--flash", world.flash)[0] == 0   # a flash: erased, made anew


def test_an_input_of_the_command_is_never_its_output(tmp_path):
    # (For a command that reads files and writes one: by real path and by inode.)
    from bower_host.errors import CommandError
    from bower_host.outputs import check_output, write_output

    src = tmp_path / "in.txt"
    src.write_text("read me")
    os.link(src, tmp_path / "same.txt")
    os.symlink(src, tmp_path / "to-in.txt")
    for target in (src, tmp_path / "same.txt", tmp_path / "to-in.txt", tmp_path / "sub" / ".." / "in.txt"):
        with pytest.raises(CommandError, match="which this command reads"):
            check_output(target, library=tmp_path / "lib.sqlite3", inputs=[src])
    assert write_output(tmp_path / "out.txt", "written", library=tmp_path / "lib.sqlite3", inputs=[src]) \
        == tmp_path / "out.txt"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt", "same.txt", "to-in.txt"]
    assert src.read_text() == "read me" and (tmp_path / "out.txt").read_text() == "written"
