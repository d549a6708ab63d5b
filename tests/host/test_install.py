"""`pip install` of the real sdist and wheel gives a `bower` that works.

The checkout is copied to a temporary directory (without .git, .venv,
build/ and caches) and built there with `python -m build --no-isolation`,
which writes the sdist and then builds the wheel from that sdist. Each of
the two is installed into a venv of its own, without the dev extras: its
runtime dependencies (and, for the sdist, the build backend) come from
build/wheelhouse, which `make test`'s set-up fills, with no index and no
pip configuration, so nothing is downloaded here. From each venv's `bower`,
with the working directory outside the checkout, run: every command's and
subcommand's `--help` (found by walking the argparse parser, so a new
command is covered without touching this file), a scripted `bower sim`, a
`bower demo`, `export` (CSV, JSON, EGN), `import`, `show` and `plot`.

With the package list pyproject.toml had before (no `bower_host.club`),
every one of these failed: `bower_host.cli` imports every command module.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bower_host.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
WHEELHOUSE = REPO / "build" / "wheelhouse"
# Not part of a source tree: what `git clone` would not give either.
_NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "dist", "__pycache__", "*.pyc",
                                     "*.egg-info", ".pytest_cache", ".hypothesis", ".ruff_cache", ".basedpyright",
                                     "*.mpy", "out")


def command_paths(parser: argparse.ArgumentParser | None = None, path: tuple = ()) -> list[tuple]:
    """Every command and subcommand, as argument tuples: (), ("games",), ("club", "new"), ..."""
    parser = parser or build_parser()
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:                 # an alias names the same parser
                    seen.add(id(sub))
                    out += command_paths(sub, path + (name,))
    return out


def clean_env(home: Path) -> dict:
    """The user's environment without this checkout's venv, Python or pip
    settings, and with a home (data directory, caches) of its own."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "BOWER_", "XDG_"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"),
               XDG_CONFIG_HOME=str(home / "config"), PIP_CONFIG_FILE=os.devnull, PYTHONDONTWRITEBYTECODE="1")
    return env


def run(argv, cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """``{"sdist": path, "wheel": path}``, built from a copy of the checkout."""
    if not any(WHEELHOUSE.glob("rich-*.whl")):
        pytest.fail(f"{WHEELHOUSE} holds no wheels: `make test` fills it (its set-up runs pip wheel on the "
                    "runtime dependencies), or run that Makefile rule: make build/wheelhouse/.stamp")
    top = tmp_path_factory.mktemp("dist")
    src = top / "src"
    shutil.copytree(REPO, src, ignore=_NOT_SOURCE)
    p = run([sys.executable, "-m", "build", "--no-isolation", "--outdir", top / "out", src], top,
            clean_env(top / "home"))
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    sdists = list((top / "out").glob("bower_euchre-*.tar.gz"))
    wheels = list((top / "out").glob("bower_euchre-*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, list((top / "out").iterdir())
    return {"sdist": sdists[0], "wheel": wheels[0]}


def test_the_wheel_holds_every_module_of_the_source_tree(dists):
    # Each .py file of the host's package and its subpackages, and of the device's code inside it: the
    # wheel installs one top-level package, bower_host (pyproject.toml's package-dir says why).
    want = set()
    for pkg, folder in (("bower_host/_device", "firmware/lib"), ("bower_host/_device/euchre", "engine/euchre"),
                        ("bower_host/_device/bower", "firmware/bower"), ("bower_host", "host/bower_host")):
        files = (REPO / folder).rglob("*.py") if folder != "firmware/lib" else (REPO / folder).glob("*.py")
        want |= {f"{pkg}/{f.relative_to(REPO / folder).as_posix()}" for f in files}
    with zipfile.ZipFile(dists["wheel"]) as z:
        names = z.namelist()
    have = {n for n in names if n.endswith(".py")}
    assert want - have == set()
    assert have - want == set()
    assert {n.split("/")[0] for n in names} == {"bower_host", dists["wheel"].name.split("-py3")[0] + ".dist-info"}


def _venv(tmp_path, work, env):
    venv = tmp_path / "venv"
    p = run([sys.executable, "-m", "venv", "--without-pip", venv], work, env)
    assert p.returncode == 0, p.stderr
    return venv, venv / "bin" / "python"


def _pip_install(py, work, env, *what):
    # This venv's pip installs into the new one (--python): no pip there, no dev extras, no index.
    return run([sys.executable, "-m", "pip", "--python", py, "install", "--quiet", "--disable-pip-version-check",
                "--no-index", "--find-links", WHEELHOUSE, *what], work, env)


def test_the_wheel_installs_beside_euchre_cli(dists, tmp_path):
    # euchre-cli (PyPI) installs a top-level package `euchre` too. Installed after Bower and before it, the
    # two share no file (each one's RECORD), each imports its own `euchre`, and Bower's command still plays.
    cli = sorted(WHEELHOUSE.glob("euchre_cli-*.whl"))
    if not cli:
        pytest.fail(f"{WHEELHOUSE} holds no euchre-cli wheel: make build/wheelhouse/.stamp downloads it")
    work = tmp_path / "work"
    work.mkdir()
    env = clean_env(tmp_path / "home")
    venv, py = _venv(tmp_path, work, env)
    p = _pip_install(py, work, env, "--no-deps", cli[-1])          # its own dependencies are not needed here
    assert p.returncode == 0, p.stderr[-3000:]
    p = _pip_install(py, work, env, dists["wheel"])
    assert p.returncode == 0, p.stderr[-3000:]
    p = _pip_install(py, work, env, "--no-deps", "--force-reinstall", cli[-1])
    assert p.returncode == 0, p.stderr[-3000:]
    p = run([py, "-c", "import importlib.metadata as m, json; print(json.dumps({d: [str(f) for f in m.files(d)] "
                       "for d in ('euchre-cli', 'bower-euchre')}))"], work, env)
    assert p.returncode == 0, p.stderr
    files = {d: {f for f in fs if not f.startswith("..") and "__pycache__" not in f}
             for d, fs in json.loads(p.stdout).items()}
    assert files["euchre-cli"] and files["bower-euchre"]
    assert files["euchre-cli"] & files["bower-euchre"] == set()
    p = run([py, "-c", "import euchre; print(euchre.__version__)"], work, env)
    assert p.returncode == 0 and p.stdout.strip() == "0.7.0", p.stdout + p.stderr   # euchre-cli's, untouched
    p = run([venv / "bin" / "bower", "demo", "--variant", "classic", "--seed", "3", "--db", "a.sqlite3"], work, env)
    assert p.returncode == 0 and "Winner:" in p.stdout, p.stderr[-2000:]
    p = run([py, "-c", "import bower_host, euchre; print(euchre.__file__)"], work, env)
    assert p.returncode == 0 and "/bower_host/_device/euchre/" in p.stdout, p.stdout + p.stderr


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_the_installed_bower_runs_every_command(dists, tmp_path, kind):
    home = tmp_path / "home"
    work = tmp_path / "work"                # the working directory: outside the checkout
    work.mkdir(parents=True)
    env = clean_env(home)
    venv, py = _venv(tmp_path, work, env)
    p = _pip_install(py, work, env, dists[kind])
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]

    # Everything is found in the new venv, nothing in the checkout; the device's code once bower_host is imported.
    p = run([py, "-c", "import bower_host; "
                       "from importlib.util import find_spec as f; print(*(getattr(f(m), 'origin', 'missing:' + m) "
                       "for m in ('bower', 'bower_host', 'bower_host.club', 'euchre', 'ssd1306')))"], work, env)
    assert p.returncode == 0, p.stderr
    files = p.stdout.split()
    assert len(files) == 5 and all(Path(f).resolve().is_relative_to(venv.resolve()) for f in files), files
    p = run([py, "-c", "import pytest"], work, env)
    assert p.returncode != 0                                  # the dev extras are not there

    bower = venv / "bin" / "bower"
    paths = command_paths()             # the walk reaches nested subcommands
    assert {(), ("games",), ("club", "new"), ("library", "rebuild")} <= set(paths)
    for path in paths:
        p = run([bower, *path, "--help"], work, env)
        assert p.returncode == 0 and p.stderr == "", (path, p.stderr[-2000:])
        assert p.stdout.startswith(" ".join(("usage: bower",) + path)), (path, p.stdout[:200])

    # The simulator, scripted, with a screenshot.
    p = run([bower, "sim", "--flash", "flash", "--keys", "o o o o o 2d o", "--screenshot", "hand.png"], work, env)
    assert p.returncode == 0, p.stderr[-2000:]
    assert (work / "hand.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # A demo game into a library, then export, import, show and plot.
    p = run([bower, "demo", "--variant", "classic", "--seed", "3", "--db", "a.sqlite3"], work, env)
    assert p.returncode == 0 and "Winner:" in p.stdout, p.stderr[-2000:]
    p = run([bower, "export", "--db", "a.sqlite3"], work, env)
    assert p.returncode == 0 and p.stdout.startswith("game,device,game_id,"), p.stderr[-2000:]
    p = run([bower, "export", "-f", "egn", "-o", "game.egn", "--db", "a.sqlite3", "1"], work, env)
    assert p.returncode == 0, p.stderr[-2000:]
    p = run([bower, "export", "-f", "json", "-o", "games.json", "--db", "a.sqlite3"], work, env)
    assert p.returncode == 0, p.stderr[-2000:]
    exported = json.loads((work / "games.json").read_text())["games"]
    assert len(exported) == 1
    p = run([bower, "import", "--db", "b.sqlite3", "games.json"], work, env)
    assert p.returncode == 0 and "games.json: new" in p.stdout, p.stdout + p.stderr[-2000:]
    p = run([bower, "import", "--db", "c.sqlite3", "game.egn"], work, env)
    assert p.returncode == 0 and "game.egn: new" in p.stdout, p.stdout + p.stderr[-2000:]
    p = run([bower, "export", "-f", "json", "--db", "b.sqlite3"], work, env)
    assert p.returncode == 0 and json.loads(p.stdout)["games"][0]["log"] == exported[0]["log"]
    p = run([bower, "show", "1", "--db", "b.sqlite3"], work, env)
    assert p.returncode == 0 and "Result: " in p.stdout, p.stderr[-2000:]
    p = run([bower, "plot", "1", "--db", "b.sqlite3", "-o", "chart.png"], work, env)
    assert p.returncode == 0, p.stderr[-2000:]
    assert (work / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # The phone build from the installed package alone: its runtime, its
    # licence and the firmware's pack come with it (no Node.js, no checkout).
    p = run([bower, "web", "build", "-o", "site"], work, env)
    assert p.returncode == 0, p.stderr[-2000:]
    site = work / "site"
    assert (site / "micropython.wasm").read_bytes()[:4] == b"\0asm"
    assert (site / "bower.pak").read_bytes().startswith(b"BPAK1 ")
    assert "MIT License" in (site / "LICENSE-micropython.txt").read_text()
    assert json.loads((site / "version.json").read_text())["runtime"] == "1.27.0"
