"""The README's tour without a Pico, run as a user runs it.

The section "Without a Pico" of README.md is read as it stands: its first
``sh`` block (the device) runs in a tmux window of 80x24, its ``text`` block
is typed into that window key by key, and the other ``sh`` blocks run line by
line in a shell in the same directory, in the README's order. The test then
checks what the user should see: the picture fits the 80x24 window, the
roster and clock commands reach the simulated device, the game played with
the README's keys arrives in the library with the roster's names, its score
and today's date, and ``stats`` and ``plot`` show it. HOME and XDG_DATA_HOME
point into the test's directory, so a command that forgot ``--db`` or
``--flash`` could not touch this machine's real data (and would fail here).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from datetime import date
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install tmux)")


def tour_blocks() -> list[tuple[str, str]]:
    """The fenced blocks of the README's "Without a Pico" section: ``[(language, text)]``."""
    text = (REPO / "README.md").read_text()
    start = text.index("### Without a Pico")
    end = text.find("\n#", start + 4)
    section = text[start:end if end > 0 else None]
    return re.findall(r"^```(\w*)\n(.*?)^```", section, flags=re.M | re.S)


def commands(block: str) -> list[str]:
    return [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def key_names(block: str) -> list[str]:
    # Each line: tmux key names, then two or more spaces and what they do.
    keys = []
    for ln in block.splitlines():
        keys += re.split(r"\s{2,}", ln.strip(), maxsplit=1)[0].split()
    return keys


class Tmux:
    """A private tmux server with one window of a given size."""

    def __init__(self, env, cwd):
        self.sock = f"bower-test-{uuid.uuid4().hex[:8]}"
        self.env, self.cwd = env, cwd

    def run(self, *args, check=True) -> str:
        p = subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", *args], env=self.env, cwd=self.cwd,
                           capture_output=True, text=True, timeout=10)
        if check:
            assert p.returncode == 0, p.stderr
        return p.stdout

    def pane(self) -> list[str]:
        return self.run("capture-pane", "-p", "-t", "tour").rstrip("\n").split("\n")

    def alive(self) -> bool:
        return "tour" in self.run("list-sessions", "-F", "#{session_name}", check=False)


def wait_for(what, timeout=10.0, step=0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        time.sleep(step)
    return what()


def test_the_readme_tour_works_as_pasted_in_an_80x24_terminal(tmp_path):
    blocks = tour_blocks()
    langs = [lang for lang, _ in blocks]
    assert langs == ["sh", "sh", "text", "sh"], "the tour's blocks changed: update this test with them"
    device_cmds, setup_cmds, keys, after_cmds = (b for _, b in blocks)
    [device_cmd] = commands(device_cmds)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOWER_", "TMUX"))}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(tmp_path / "home"),
               XDG_DATA_HOME=str(tmp_path / "home" / "data"), TERM="xterm-256color", LC_ALL="C.UTF-8")
    work = tmp_path / "work"
    work.mkdir()

    def shell(cmd):
        p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and "Traceback" not in p.stderr, f"{cmd}\n{p.stdout}\n{p.stderr}"
        return p.stdout

    tmux = Tmux(env, work)
    # The device in its own 80x24 terminal; its exit status lands in a file.
    tmux.run("new-session", "-d", "-s", "tour", "-x", "80", "-y", "24",
             f"{device_cmd}; echo $? > {tmp_path / 'status'}")
    try:
        link = work / "sim.port"
        assert wait_for(link.exists), tmux.pane()
        screen = wait_for(lambda: [ln for ln in tmux.pane() if "USB link" in ln] and tmux.pane())
        # The whole picture is on screen, top border first: 64 braille cells
        # between the borders, nothing wrapped or scrolled away.
        assert screen[0] == "+" + "-" * 64 + "+", screen
        art = screen[1:17]
        assert all(len(ln) == 66 and ln[0] == ln[-1] == "|" for ln in art), screen
        assert all(0x2800 <= ord(ch) <= 0x28FF for ln in art for ch in ln[1:-1])
        assert any(ch != "\u2800" for ln in art for ch in ln[1:-1])   # something lit
        assert screen[17] == screen[0] and "q quit" in screen[22]
        assert screen[23] == "USB link: bower sync --port sim.port"

        out = "".join(shell(c) for c in commands(setup_cmds))
        assert "Roster on device" in out and "Ann, Bob, Cy, Di" in out and "clock set" in out

        for k in key_names(keys):
            tmux.run("send-keys", "-t", "tour", k)
        flash_state = work / "tour-flash" / "games" / "g0001.st"
        assert wait_for(lambda: flash_state.exists() and "finished" in flash_state.read_text()), tmux.pane()

        outs = [shell(c) for c in commands(after_cmds)]
        sync, games, show, stats, plot = outs
        assert re.search(r"g0001\s+new", sync), sync
        row = [ln for ln in games.splitlines() if "/g0001" in ln]
        assert len(row) == 1, games
        assert "Ann & Cy v Bob & Di" in row[0] and "Bob & Di won 12-0" in row[0], row
        assert date.today().isoformat() in row[0], row        # the clock the tour set
        assert "Ann (seat 0)" in show
        assert re.search(r"^Bob\s+Classic Euchre\s+1\s+1\b", stats, flags=re.M), stats
        assert (work / "tour.png").stat().st_size > 1000, plot

        tmux.run("send-keys", "-t", "tour", "q")
        assert wait_for(lambda: not tmux.alive()), tmux.pane()
        assert (tmp_path / "status").read_text().strip() == "0"
        assert not os.path.lexists(link)          # the simulator removed its link
    finally:
        tmux.run("kill-server", check=False)
    # Nothing went to the real places: no data dir was made for this user.
    assert not (tmp_path / "home" / "data" / "bower").exists()
