"""``bower sim --serve``: the simulator is a device for ``bower sync``, ``roster push`` and ``clock``.

The host side runs as the user runs it (``.venv/bin/bower`` in a subprocess,
pyserial opening the pseudo-terminal); the device side is the firmware's own
``bower.link`` and store, served by the simulator.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bower.store import extra

BOWER = str(Path(sys.executable).parent / "bower")
GAME = "4o d o  o d o 2d o  o  o b d o 2d o  o  o d o 2d o"   # Classic: three lone marches, 12-0


def bower(*args, **kw):
    p = subprocess.run([BOWER, *map(str, args)], capture_output=True, text=True, timeout=60, **kw)
    assert "Traceback" not in p.stderr, p.stderr
    return p


def test_a_scripted_game_syncs_from_the_served_simulator(tmp_path):
    flash, link, db = tmp_path / "flash", tmp_path / "sim.port", tmp_path / "lib.sqlite3"
    sim = subprocess.Popen([BOWER, "sim", "--flash", str(flash), "--serve", str(link), "--keys", GAME],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving the device link" not in line:
            line = sim.stdout.readline()
            assert line, sim.stderr.read()
        port = re.search(r"on (/dev/\S+) \(linked at (\S+)\): bower sync --port (\S+)", line)
        assert port and port[2] == port[3] == str(link) and os.readlink(link) == port[1], line

        first = bower("sync", "--port", link, "--db", db)
        assert first.returncode == 0, first.stderr
        assert re.search(r"g0001\s+new\s+Classic Euchre", first.stdout), first.stdout
        games = bower("games", "--db", db).stdout
        # No roster was pushed: the device's seat letters, and the score played.
        assert re.search(r"/g0001 .* A & C v B & D\s+B & D won 12-0\s+3\b", games), games
        again = bower("sync", "--port", link, "--db", db)
        assert again.returncode == 0 and re.search(r"g0001\s+up to date", again.stdout), again.stdout
    finally:
        sim.send_signal(signal.SIGTERM)
        rc = sim.wait(10)
    assert rc == 0 and not os.path.lexists(link)
    # The device was told: its game is synced, so --fresh may erase it now.
    assert bower("sim", "--flash", flash, "--fresh", "--keys", "o").returncode == 0


def _serve_until_done(dev, served, proc, timeout=30):
    # The simulator's loop (as sim.interactive runs it) while a host command runs.
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        if select.select([served], [], [], 0.02)[0]:
            served.serve()
        dev.tick()
    out, err = proc.communicate(timeout=5)
    assert proc.returncode == 0 and "Traceback" not in err, (out, err)
    return out


def test_roster_clock_and_a_game_in_progress_through_the_link(tmp_path):
    from bower_host import simulator
    from bower_host.simlink import SimLink

    dev = simulator.Device(str(tmp_path / "flash"))
    db = tmp_path / "lib.sqlite3"
    with SimLink(dev.store, dev.info) as served:
        def host(*args):
            p = subprocess.Popen([BOWER, *map(str, args), "--port", served.port], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            return _serve_until_done(dev, served, p)

        assert "Ann, Bob, Cy, Di" in host("roster", "push", "Ann", "Bob", "Cy", "Di")
        assert "clock set" in host("clock")
        # The setup screens take the pushed names: seats show them, not A-D.
        simulator.run_script(dev, "o o o")
        rows = [dev.app.stack[-1].text(i) for i in range(len(dev.app.stack[-1].items))]
        assert rows[1:] == ["A: Ann", "B: Bob", "C: Cy", "D: Di"], rows
        # One hand played, synced mid-game; then the rest, synced again.
        simulator.run_script(dev, "o d o  o d o 2d o  o")
        out = host("sync", "--db", db)
        assert re.search(r"g0001\s+new\s+Classic Euchre: Ann & Cy 0, Bob & Di 4", out), out
        simulator.run_script(dev, "o b d o 2d o  o  o d o 2d o")
        out = host("sync", "--db", db)
        assert re.search(r"g0001\s+updated\s+Classic Euchre: Ann & Cy 0, Bob & Di 12", out), out
    games = bower("games", "--db", db).stdout
    assert "Ann & Cy v Bob & Di" in games and "Bob & Di won 12-0" in games, games
    assert time.strftime("%Y-%m-%d") in games
    [g] = extra("past").games(dev.store)
    assert g["synced"] and g["state"] == "finished"


def test_a_host_that_stops_reading_never_hangs_the_simulator(tmp_path, monkeypatch):
    from bower_host import simulator, simlink

    monkeypatch.setattr(simlink, "WRITE_TIMEOUT", 0.3)
    dev = simulator.Device(str(tmp_path / "flash"))
    with simlink.SimLink(dev.store, dev.info) as served:
        t0 = time.monotonic()
        served._write(b"x" * 4_000_000)      # far more than the pty holds; nobody reads
        assert time.monotonic() - t0 < 3
        assert 0 < served.dropped < 4_000_000


def test_the_link_path_replaces_only_a_stale_link(tmp_path):
    from bower_host import simulator
    from bower_host.simlink import SimLink

    dev = simulator.Device(str(tmp_path / "flash"))
    stale = tmp_path / "stale.port"
    os.symlink("/dev/pts/nonexistent", stale)
    with SimLink(dev.store, dev.info, link=str(stale)) as served:
        assert os.readlink(stale) == served.port
    assert not os.path.lexists(stale)
    mine = tmp_path / "notes.txt"
    mine.write_text("keep me")
    with pytest.raises(FileExistsError):
        SimLink(dev.store, dev.info, link=str(mine))
    assert mine.read_text() == "keep me"
    rc = bower("sim", "--flash", tmp_path / "flash", "--serve", mine, "--keys", "o")
    assert rc.returncode == 1 and "notes.txt exists" in rc.stderr and mine.read_text() == "keep me"
