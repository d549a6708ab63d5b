"""``bower club simulate``'s closing hint is the exact command to run next.

The hint is pasted into a shell as it is: it names the library (``--db``)
when one was given, with every path quoted for the shell (spaces, quotes),
and it counts the round it names in the library the simulation read, not in
the user's own. It names no night: ``club result`` takes none (each round
log's header names its night), so a night given with ``--night`` is the
one counted all the same.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
PLAYERS = "Ann Bob Cy Di Ed Flo Gus Hal".split()


def _run(cmd: list[str] | str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOWER_")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    return subprocess.run(cmd if isinstance(cmd, list) else ["bash", "-c", cmd], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def _hint(out: str) -> str:
    m = re.search(r"played by the bots\): (bower club result .*)$", out, flags=re.M)
    assert m, out
    return m[1]


def test_the_hint_names_the_library_and_runs_as_printed(tmp_path):
    home = tmp_path / "home"
    where = tmp_path / "it's a club dir"
    where.mkdir(parents=True)
    db = where / "club night.sqlite3"
    keys = []
    for name in ("Thursday", "Friday"):     # two nights: --night picks the older one
        p = _run(["bower", "club", "new", name, "--db", str(db), "--players", *PLAYERS, "--tables", "2",
                  "--rounds", "2", "--hands", "4", "--seed", "3"], tmp_path, home)
        assert p.returncode == 0, p.stderr
        keys.append(re.search(r"^Club night (\S+) ", p.stdout, flags=re.M)[1])
    key = keys[0]
    p = _run(["bower", "club", "simulate", "--db", str(db), "--night", key, "-o", str(where / "round logs")],
             tmp_path, home)
    assert p.returncode == 0, p.stderr
    hint = _hint(p.stdout)
    assert hint.startswith("bower club result --db ") and "--night" not in hint, hint
    # Pasted elsewhere, with another HOME: the same library, the same night.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    p = _run(hint, elsewhere, tmp_path / "other-home")
    assert p.returncode == 0 and "Traceback" not in p.stderr, (hint, p.stdout, p.stderr)
    assert len(re.findall(rf": new: night {key} round 1 table \d: .*counted$", p.stdout, flags=re.M)) == 2, p.stdout
    assert not (tmp_path / "other-home").exists() and not (home / "data").exists()


def test_without_db_the_hint_names_none(tmp_path):
    home = tmp_path / "home"
    p = _run(["bower", "club", "new", "Friday", "--players", *PLAYERS, "--tables", "2", "--rounds", "2",
              "--hands", "4"], tmp_path, home)
    assert p.returncode == 0, p.stderr
    p = _run(["bower", "club", "simulate"], tmp_path, home)
    assert p.returncode == 0, p.stderr
    hint = _hint(p.stdout)
    assert hint == "bower club result club-logs/r1-t*.log", hint
    p = _run(hint, tmp_path, home)
    assert p.returncode == 0 and p.stdout.count("counted") == 2, (p.stdout, p.stderr)
