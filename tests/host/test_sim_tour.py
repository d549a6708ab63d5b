"""The README's tour without a Pico, done as a user does it, line by line.

The section "Without a Pico" of README.md is read as it stands: its first
``sh`` block (the device) runs in a tmux window of 80x24, each line of its
``text`` blocks is typed into that window key by key, and the other ``sh``
blocks run command by command in a shell in the same directory, in the
README's order, each exiting 0 without a traceback. After each key line the
words the simulator prints under its picture must be those of a twin device
in this process that was given the same keys, whose screens
``test_readme_keys`` holds to the line's words; so the README, the twin and
the terminal agree screen by screen. The commands' outputs are checked for
what the README says of them: the roster and clock reach the device, both
games arrive in the library with the roster's names, their score and today's
date, ``show`` notes the amended hand, ``stats`` and ``plot`` show them, and
the demo's bots stay out of the players' stats. HOME and XDG_DATA_HOME
point into the test's directory, so a command that forgot ``--db`` or
``--flash`` could not touch this machine's real data (and would fail here).

tmux is what .ci/run installs; under CI a missing tmux fails the test.
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

import readmewalk as rw

BIN = Path(sys.executable).parent
SECTION = "Without a Pico: play, sync, stats, plot"

if shutil.which("tmux") is None:
    if os.environ.get("CI"):
        pytest.fail("tmux is missing: .ci/run installs it (apt-get install -y tmux)", pytrace=False)
    pytestmark = pytest.mark.skip(reason="no tmux (apt-get install -y tmux; .ci/run does)")


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


def wait_for(what, timeout=10.0, step=0.03):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        time.sleep(step)
    return what()


def twin(roster: list[str], flash: Path):
    """The device the README's keys are checked on (test_readme_keys), given the tour's roster."""
    from bower_host import simulator
    dev = simulator.Device(str(flash), lambda n: 0)
    dev.store.set_roster(roster)
    dev.app.home()
    dev.flush()
    return dev


def test_the_readme_tour_works_as_typed_line_by_line_in_an_80x24_terminal(tmp_path):
    from bower_host import screentext

    blocks = [b for b in rw.blocks() if b.section == SECTION]
    assert [b.lang for b in blocks] == ["sh", "sh", "text", "sh", "text", "sh"], \
        "the tour's blocks changed: update this test with them"
    device_cmds, setup_cmds, keys, after_cmds, quick_keys, quick_cmds = blocks
    [device_cmd] = rw.commands(device_cmds)

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

    def words():
        return [ln.rstrip() for ln in tmux.pane()[18:22]]

    def typed(block, dev):
        # Each line's keys into the window; then the words under the picture
        # are the twin's after the same keys.
        for kl in rw.key_lines(block):
            for k in kl.keys:
                tmux.run("send-keys", "-t", "tour", k)
            rw.walk(dev, [kl])
            want = [ln.rstrip() for ln in screentext.panel(screentext.rows(dev.app))]
            assert wait_for(lambda want=want: words() == want), (kl.raw, words(), want)

    # The device in its own 80x24 terminal; its exit status lands in a file.
    tmux.run("new-session", "-d", "-s", "tour", "-x", "80", "-y", "24",
             f"{device_cmd}; echo $? > {tmp_path / 'status'}")
    try:
        link = work / "sim.port"
        assert wait_for(link.exists), tmux.pane()
        screen = wait_for(lambda: [ln for ln in tmux.pane() if "USB link" in ln] and tmux.pane())
        # The whole picture is on screen, top border first: 64 braille cells
        # between the borders, nothing wrapped or scrolled away; the words
        # under it, the help and the link's line.
        assert len(screen) == 24 and screen[0] == "+" + "-" * 64 + "+", screen
        art = screen[1:17]
        assert all(len(ln) == 66 and ln[0] == ln[-1] == "|" for ln in art), screen
        assert all(0x2800 <= ord(ch) <= 0x28FF for ln in art for ch in ln[1:-1])
        assert any(ch != "\u2800" for ln in art for ch in ln[1:-1])   # something lit
        assert screen[17] == screen[0] and screen[18].strip() == "Bower" and screen[19] == ">New game"
        assert "q quit" in screen[22] and screen[23] == "USB link: bower sync --port sim.port"

        out = "".join(shell(c) for c in rw.commands(setup_cmds))
        assert "Roster on device" in out and "clock set" in out
        roster = re.search(r"^bower roster push --port \S+ (.+)$", setup_cmds.text, flags=re.M)[1].split()
        assert ", ".join(roster) in out, out
        dev = twin(roster, tmp_path / "twin-flash")

        typed(keys, dev)
        flash_state = work / "tour-flash" / "games" / "g0001.st"
        assert wait_for(lambda: flash_state.exists() and "finished" in flash_state.read_text()), tmux.pane()

        sync, games, show, stats, plot = (shell(c) for c in rw.commands(after_cmds))
        assert re.search(r"g0001\s+new", sync), sync
        row = [ln for ln in games.splitlines() if "/g0001" in ln]
        assert len(row) == 1, games
        assert "Ann & Cy v Bob & Di" in row[0] and "Bob & Di won 12-0" in row[0], row
        assert date.today().isoformat() in row[0], row        # the clock the tour set
        assert "Ann (seat 0)" in show
        assert re.search(r"^Bob\s+Classic Euchre\s+1\s+1\b", stats, flags=re.M), stats
        assert (work / "tour.png").stat().st_size > 1000, plot

        typed(quick_keys, dev)
        sync, show, demo, stats = (shell(c) for c in rw.commands(quick_cmds))
        assert re.search(r"g0002\s+new", sync), sync
        assert re.search(r"amended, first .*march", show), show
        assert demo.count("Stored in the library") == 5, demo
        played = {m[1]: int(m[2]) for m in re.finditer(r"^(\S+)\s+Classic Euchre\s+(\d+)\b", stats, flags=re.M)}
        assert played == {**dict.fromkeys(roster, 2), **{f"Bot{i}": 5 for i in range(1, 5)}}, stats

        tmux.run("send-keys", "-t", "tour", "q")
        assert wait_for(lambda: not tmux.alive()), tmux.pane()
        assert (tmp_path / "status").read_text().strip() == "0"
        assert not os.path.lexists(link)          # the simulator removed its link
    finally:
        tmux.run("kill-server", check=False)
    # Nothing went to the real places: no data dir was made for this user.
    assert not (tmp_path / "home" / "data" / "bower").exists()
