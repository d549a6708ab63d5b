"""Every module of the host package is a room of one idea: 400 lines at most
(issue 24; STYLE.md lesson 9: 100 to 400 lines a module).

A module that grows past it is split along its seams (as deploy, framebuf,
importer and the others were: a package folder or sibling modules), not let
through here: there is no list of exceptions.
"""

from pathlib import Path

HOST = Path(__file__).resolve().parents[2] / "host"
MOST = 400


def sizes() -> dict:
    """{path under host/: lines} of every Python file under host/."""
    return {p.relative_to(HOST).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
            for p in sorted(HOST.rglob("*.py")) if "__pycache__" not in p.parts}


def test_no_host_module_is_over_400_lines():
    found = sizes()
    # The scan sees the package, subpackages included.
    assert "bower_host/cli.py" in found and any(p.startswith("bower_host/club/") for p in found)
    over = {p: n for p, n in found.items() if n > MOST}
    assert not over, "host modules over %d lines (split them along their seams): %s" % (
        MOST, ", ".join(f"{p} ({n})" for p, n in sorted(over.items(), key=lambda kv: -kv[1])))
