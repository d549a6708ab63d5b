"""The README stays to the point, and the version stays in one place (issue 37, item 5).

* README.md is at most 150 lines, none over 200 characters (it had a table
  cell of 4,074);
* the README and docs/FIGURES.md carry no history of sessions ("two sessions
  ago"): the figures are the last ``make bench`` run's, and what came
  before is in CHANGELOG.md;
* every relative link of the README and of the docs it links resolves to a
  file of the repository;
* the version is written in exactly one tracked file (``bower.__version__``
  in firmware/bower/__init__.py); pyproject.toml and the host read it.

Each check is a function of the repository's root, so it can be run on
another tree (``git archive`` of an older commit) to see it fail there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MAX_LINES = 150
MAX_WIDTH = 200
HISTORY = ("this session", "sessions ago", "last session")
#: A version number assigned literally: ``__version__ = "1.2.3"`` (Python) or ``version = "1.2.3"`` (TOML).
VERSION = re.compile(r"""^\s*(?:__version__|version)\s*=\s*["']\d+(?:\.\d+)+[^"']*["']""", re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def too_long(root: Path) -> list[str]:
    lines = (root / "README.md").read_text(encoding="utf-8").splitlines()
    out = [f"README.md has {len(lines)} lines (at most {MAX_LINES})"] if len(lines) > MAX_LINES else []
    out += [f"README.md:{i}: {len(ln)} characters (at most {MAX_WIDTH})"
            for i, ln in enumerate(lines, 1) if len(ln) > MAX_WIDTH]
    return out


def history(root: Path) -> list[str]:
    out = []
    for name in ("README.md", "docs/FIGURES.md"):
        path = root / name
        if not path.exists():
            out.append(f"{name} is missing")
            continue
        for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out += [f"{name}:{i}: {w!r}" for w in HISTORY if w in ln.lower()]
    return out


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)   # not inside code blocks
    return [m for m in LINK.findall(text) if not re.match(r"[a-z]+:", m) and not m.startswith("#")]


def broken_links(root: Path) -> list[str]:
    out = []
    seen: set[Path] = set()
    todo = [root / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for link in _links(page):
            target = (page.parent / link.split("#")[0]).resolve()
            if not target.exists() or root.resolve() not in (target, *target.parents):
                out.append(f"{page.relative_to(root)}: {link}")
            elif page == root / "README.md" and target.suffix == ".md" and target.parent == (root / "docs").resolve():
                todo.append(target)         # the docs the README sends a reader to, one level on
    return out


def _tracked(root: Path) -> list[Path]:
    try:
        names = subprocess.run(["git", "ls-files", "-z", "--", "*.py", "*.toml"], cwd=root, capture_output=True,
                               check=True, timeout=60).stdout.decode().split("\0")
        return [root / n for n in names if n]
    except (OSError, subprocess.SubprocessError):     # not a git checkout (an unpacked sdist or archive)
        skip = {".venv", "node_modules", "build", ".git"}
        return [p for p in root.rglob("*")
                if p.suffix in (".py", ".toml") and not skip & set(p.relative_to(root).parts)]


def version_files(root: Path) -> list[str]:
    out = []
    for path in _tracked(root):
        if path.is_file() and VERSION.search(path.read_text(encoding="utf-8", errors="replace")):
            out.append(str(path.relative_to(root)))
    return sorted(out)


def test_the_readme_is_short_and_narrow():
    assert too_long(ROOT) == []


def test_no_session_history_in_the_readme_or_the_figures():
    assert history(ROOT) == []


def test_every_relative_link_of_the_readme_resolves():
    assert broken_links(ROOT) == []


def test_the_version_is_written_in_one_file():
    assert version_files(ROOT) == ["firmware/bower/__init__.py"]


def test_pyproject_and_the_host_read_that_version():
    import bower
    import bower_host
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^dynamic = \["version"\]$', pyproject, re.M)
    assert re.search(r'^version = \{ attr = "bower_host._device.bower.__version__" \}$', pyproject, re.M)
    assert bower_host.__version__ == bower.__version__


def test_each_check_sees_what_it_is_for(tmp_path):
    # A tree as main's was: a long README with a history of sessions, a dead link, four version numbers.
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# x\n" + "line\n" * 200 + "| a | " + "b" * 300 + " |\n"
                                        "26,186 in this session's run; 292 two sessions ago\n"
                                        "[rules](docs/RULES.md), [gone](docs/GONE.md), [web](https://x.org/a.md)\n")
    (tmp_path / "docs" / "RULES.md").write_text("[up](../README.md) [bad](NOPE.md)\n")
    for name, text in (("pyproject.toml", '[project]\nversion = "0.2.0"\n'),
                       ("a/__init__.py", '__version__ = "0.2.0"\n'), ("b/__init__.py", "__version__ = '0.2.0'\n"),
                       ("c/__init__.py", "from a import __version__\n")):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    assert len(too_long(tmp_path)) == 2
    assert [h.split(": ")[0] for h in history(tmp_path)] == ["README.md:203", "README.md:203",
                                                             "docs/FIGURES.md is missing"]
    assert broken_links(tmp_path) == ["README.md: docs/GONE.md", "docs/RULES.md: NOPE.md"]
    assert version_files(tmp_path) == ["a/__init__.py", "b/__init__.py", "pyproject.toml"]
