"""A plain `pip install .` (not editable) has everything `bower` needs.

The wheel holds what pyproject.toml's [tool.setuptools] maps: the packages
and the top-level modules. This test copies exactly that into an empty
directory (as the wheel would; building one needs setuptools from the
index) and runs `bower` from it with `python -S` (no .pth files, so not
the checkout's editable install) beside the runtime dependencies, with
the working directory outside the checkout.
"""

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:          # Python 3.10
    from pip._vendor import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]


def install_like_a_wheel(dest: Path) -> None:
    st = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs = st.get("package-dir", {})
    for pkg in st["packages"]:
        shutil.copytree(REPO / dirs.get(pkg, pkg), dest / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for mod in st.get("py-modules", []):
        shutil.copy(REPO / dirs.get("", ".") / (mod + ".py"), dest / (mod + ".py"))


def run_bower(site: Path, cwd: Path, *args):
    code = ("import sys; sys.path[:0] = [%r, %r]; from bower_host import cli; sys.exit(cli.main(%r))"
            % (str(site), sysconfig.get_paths()["purelib"], list(args)))
    return subprocess.run([sys.executable, "-S", "-c", code], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_every_command_runs_from_a_plain_install(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    install_like_a_wheel(site)
    work = tmp_path / "work"
    work.mkdir()
    p = run_bower(site, work, "--help")
    assert p.returncode == 0 and "sim" in p.stdout, p.stderr
    # The simulator drives the vendored display driver: it must be installed.
    p = run_bower(site, work, "sim", "--flash", str(tmp_path / "flash"), "--keys", "o")
    assert p.returncode == 0, p.stderr
    assert "ssd1306" not in p.stderr
    p = run_bower(site, work, "demo", "--no-store", "--seed", "3")
    assert p.returncode == 0, p.stderr
