"""firmware/DEVICE.md holds the device's heap and timing reasons once, and the
code cites them by number: every section is cited from the code (engine/,
firmware/, pyproject.toml) and every citation names a section that exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITE = re.compile(r"firmware/DEVICE\.md, (\d+)")


def test_every_reason_is_cited_and_every_citation_exists():
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", (ROOT / "firmware" / "DEVICE.md").read_text(), re.M)}
    assert sections == set(range(1, len(sections) + 1)) and len(sections) >= 8
    cited = {}
    files = [*ROOT.glob("engine/euchre/*.py"), *ROOT.glob("firmware/**/*.py"), ROOT / "pyproject.toml"]
    for f in files:
        for n in CITE.findall(f.read_text()):
            cited.setdefault(int(n), []).append(f.relative_to(ROOT).as_posix())
    assert set(cited) - sections == set(), {n: cited[n] for n in set(cited) - sections}
    assert sections - set(cited) == set()
