"""The README's club night, run as printed.

Every command of the ``sh`` block in "Club night" runs in bash in a scratch
directory (HOME and XDG_DATA_HOME inside the test's directory), as a user
pastes it: the continued first line, the ``for`` loop, the comments. Each
but the server exits 0 without a traceback, and says what the README
promises: the night made, the sheets written, every table of every round
counted, the log given again "counted once", final standings, the CSV
written. ``club serve`` is
started, its page fetched at the address the README gives, and stopped with
Ctrl-C (SIGINT), as the README says (status 130 and ``bower: interrupted``,
as any command Ctrl-C stops); only if this machine already has a program on
that port does the test give it another one.
"""

from __future__ import annotations

import csv
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import readmewalk as rw

BIN = Path(sys.executable).parent
SECTION = "Club night: progressive euchre, no hardware needed"


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _get(url: str, timeout: float = 10.0) -> str:
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                assert r.status == 200
                return r.read().decode()
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def test_the_club_night_runs_as_printed(tmp_path):
    [block] = [b for b in rw.blocks() if b.section == SECTION and b.lang == "sh"]
    cmds = rw.commands(block)
    assert len(cmds) == 7, cmds
    new, sheet, rounds, again, standings, to_csv, serve = cmds
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOWER_")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(tmp_path / "home"),
               XDG_DATA_HOME=str(tmp_path / "home" / "data"))
    work = tmp_path / "work"
    work.mkdir()

    def shell(cmd):
        p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and "Traceback" not in p.stderr, f"{cmd}\n{p.stdout}\n{p.stderr}"
        return p.stdout

    out = shell(new)
    players = re.search(r"--players ((?:\w+ )+)", new.replace("\\\n", " "))[1].split()
    assert re.search(rf"^Club night \S+ \(Friday club\): {len(players)} players at 3 tables", out, flags=re.M), out
    shell(sheet)     # (it says what it wrote on stderr: stdout stays the sheets' when there is no -o)
    assert (work / "sheets.txt").read_text().count("Friday club") >= 3
    out = shell(rounds)
    for r in (1, 2, 3):
        assert len(re.findall(rf"^club-logs/r{r}-t\d\.log: new: .* round {r} table \d: .*: counted$", out,
                              flags=re.M)) == 3, out
    out = shell(again)
    assert "# again: counted once" in again
    assert re.fullmatch(r"club-logs/r1-t1\.log: unchanged: .*already counted, unchanged\n", out), out
    out = shell(standings)
    assert "Friday club" in out and "final standings" in out, out
    placed = re.findall(r"^ +(\d+=?)? +(\w+) +(\d+) +3 ", out, flags=re.M)
    assert sorted(p for _, p, _ in placed) == sorted(players), out
    assert shell(to_csv) == ""
    with open(work / "standings.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert sorted(r["player"] for r in table) == sorted(players)
    assert all(r["rounds"] == "3" for r in table)

    # The page, at the address the README names, until Ctrl-C.
    url = re.search(r"# (http://localhost:(\d+)/)", serve)
    assert url and "Ctrl-C stops" in serve, serve
    port = int(url[2])
    if not _free(port):         # another program has it here: any free port will do
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            other = s.getsockname()[1]
        serve, port = serve.replace(f"--port {port}", f"--port {other}"), other
    p = subprocess.Popen(["bash", "-c", serve], cwd=work, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        page = _get(f"http://localhost:{port}/")
        assert "Friday club" in page
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=15)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    # Stopped by Ctrl-C as every bower command is: one line, the shell's status for it.
    assert p.returncode == 130 and err == "bower: interrupted\n", (p.returncode, out, err)
    assert re.fullmatch(rf"Club night \S+: http://127\.0\.0\.1:{port}/ \(results: /results\.json; Ctrl-C stops\)\n"
                        r"Phones cannot reach this computer's loopback address: serve with --host 0\.0\.0\.0 for "
                        r"the tables' phones\n", out), out
    assert not (tmp_path / "home" / "data" / "bower").exists()
