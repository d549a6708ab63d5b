"""Every key the README prints, pressed, and held to what the README says.

Each ``text`` block of README.md is a list of key lines (``readmewalk``:
keys, the screens' words, a comment). The blocks of a section are played in
order on one simulated device, the firmware ``bower sim`` runs, given the
roster the section pushes; after every line its words must be the screens
it went through: each title a key was pressed on and each row chosen, in
order, and nothing that was not on them. The game a section plays must end
as its last line says (winners, score). The ``--keys`` example of "The
simulator" runs as printed, and its picture is the screen the README names.
Every ``sh`` block belongs to a section a test runs (this one, test_sim_tour,
test_readme_club), so none can be added unchecked; the engine's ``python``
example runs, and gives the values its comments show. And the tmux tour
(test_sim_tour) is skipped on a desk without tmux but fails under CI.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import readmewalk as rw

BIN = Path(sys.executable).parent
SIMULATOR = "The simulator"
RUN = {SIMULATOR: "test_readme_keys.py", "Without a Pico: play, sync, stats, plot": "test_sim_tour.py",
       "Club night: progressive euchre, no hardware needed": "test_readme_club.py",
       "Bower on a phone": "test_web_serve.py"}


def _device(flash: Path, roster: list[str]):
    from bower_host import simulator
    dev = simulator.Device(str(flash), lambda n: 0)
    if roster:
        dev.store.set_roster(roster)
        dev.app.home()
        dev.flush()
    return dev


def _roster(section: str) -> list[str]:
    for b in rw.blocks():
        if b.section == section and b.lang == "sh":
            m = re.search(r"^bower roster push --port \S+ (.+)$", b.text, flags=re.M)
            if m:
                return m[1].split()
    return []


def test_every_key_line_names_the_screens_its_keys_go_through(tmp_path):
    sections: dict[str, list[rw.Block]] = {}
    for b in rw.blocks():
        if rw.is_keys(b):
            sections.setdefault(b.section, []).append(b)
    lines = 0
    for n, (section, keyblocks) in enumerate(sections.items()):
        dev = _device(tmp_path / f"flash{n}", _roster(section))
        for block in keyblocks:
            kls = rw.key_lines(block)
            steps = rw.walk(dev, kls)
            for i, step in enumerate(steps):
                rw.check_line(step, last=i == len(steps) - 1)
            lines += len(steps)
            # The game ends as the block's last line says: who won, by how much.
            said = " ".join((kls[-1].screens, kls[-1].comment))
            g = dev.app.game
            win = re.search(r"Game over: (.+?) win\b.*\((\d+)-(\d+)\)", said)
            assert win and g is not None and g.result, (said, g and g.scores)
            won, _kind = g.result
            assert " & ".join(g.players[s] for s in won) == win[1], (said, g.players, won)
            others = [g.scores[s] for s in range(len(g.players)) if s not in won]
            assert (g.scores[won[0]], max(others)) == (int(win[2]), int(win[3])), (said, g.scores)
    assert sum(map(len, sections.values())) >= 2 and lines >= 30, "the README's key blocks are gone"


def test_a_key_line_that_skips_a_screen_is_caught(tmp_path):
    # The tour's first line as it once was: four screens pressed through unnamed.
    old = rw.Block("text", "Enter Enter Enter Enter j Enter          New game, Classic, players (the roster), "
                           "Ann deals\n", "")
    [step] = rw.walk(_device(tmp_path / "f", ["Ann", "Bob", "Cy", "Di"]), rw.key_lines(old))
    try:
        rw.check_line(step)
    except AssertionError as e:
        assert "'Bower'" in str(e)
    else:
        raise AssertionError("the old first line passed")
    assert step.picks == ["Bower", "New game", "New game", "Classic", "Classic rules", "Next: players", "Players",
                          "Next: dealer", "First dealer", "Ann deals"]


def test_the_scripted_run_makes_the_picture_the_readme_names(tmp_path):
    from bower_host import screen, screentext
    [block] = [b for b in rw.blocks() if b.section == SIMULATOR and b.lang == "sh"]
    [cmd] = rw.commands(block)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOWER_")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(tmp_path / "home"),
               XDG_DATA_HOME=str(tmp_path / "home" / "data"), TMPDIR=str(tmp_path))
    work = tmp_path / "work"
    work.mkdir()
    p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "Traceback" not in p.stderr, (cmd, p.stdout, p.stderr)
    words = shlex.split(cmd)
    png = work / words[words.index("--screenshot") + 1]
    # The same keys on a new device: that picture, and the screen the README names.
    dev = _device(tmp_path / "twin", [])
    from bower_host.simulator import run_script
    run_script(dev, words[words.index("--keys") + 1])
    assert screen.from_png(str(png)) == dev.gddram()
    rows = [t for t, _ in screentext.rows(dev.app)]
    text = rw.README.read_text()
    after = text[text.index(block.text) + len(block.text):].split("\n\n")[1]
    named = re.findall(r"`([^`]+)`", " ".join(after.split()))
    assert rows[0] in named and rows[2] in named, (rows, named)
    assert not (tmp_path / "home" / "data" / "bower").exists()     # the flash was mktemp's


def test_every_shell_block_is_run_by_a_test():
    here = Path(__file__).parent
    for b in rw.blocks():
        if b.lang == "sh":
            assert b.section in RUN, f"README section {b.section!r} has a shell block no test runs"
            assert (here / RUN[b.section]).exists()
        else:
            assert b.lang in ("text", "python", ""), b.lang
            if b.lang == "":
                # Plain blocks hold no command a user would paste, but make's.
                cmds = [ln for ln in b.lines() if ln.startswith("bower ")]
                assert not cmds, f"an unchecked command in a plain block: {cmds}"


def test_the_engine_example_gives_what_its_comments_say():
    import ast
    [block] = [b for b in rw.blocks() if b.lang == "python"]
    scope: dict = {}
    checked = 0
    for node in ast.parse(block.text).body:
        code = ast.get_source_segment(block.text, node) or ""
        line = block.text.splitlines()[node.end_lineno - 1]
        said = line.partition("#")[2].strip()
        if isinstance(node, ast.Expr) and said[:1] in "[({'\"0123456789":
            want = ast.literal_eval(said.split(":")[0] if said.startswith("[") else said)
            assert eval(compile(ast.Expression(node.value), "README", "eval"), scope) == want, (code, said)
            checked += 1
        else:
            exec(compile(ast.Module([node], []), "README", "exec"), scope)
    assert checked >= 2


def test_the_tour_fails_under_ci_when_tmux_is_missing(tmp_path):
    # A PATH with Python and bower but no tmux: skipped on a desk, failed under CI.
    here = Path(__file__).parent
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PATH"] = str(BIN)
    assert shutil.which("tmux", path=env["PATH"]) is None
    run = [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", "--rootdir", str(here.parents[1]),
           str(here / "test_sim_tour.py")]
    p = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "SKIPPED" in p.stdout and "no tmux" in p.stdout, p.stdout[-2000:]
    p = subprocess.run(run, env={**env, "CI": "true"}, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode != 0 and "tmux is missing: .ci/run installs it" in p.stdout, p.stdout[-2000:]
