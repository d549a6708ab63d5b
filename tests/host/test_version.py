"""One version number for the whole product: the package (pyproject.toml),
the host (``bower_host.__version__``, ``bower --version``) and the firmware
(``bower.__version__``, shown on the device's About screen and sent in
HELLO)."""

import re
from pathlib import Path

import bower
import bower_host
from bower_host.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_package_host_and_firmware_versions_agree():
    pyproject = (ROOT / "pyproject.toml").read_text()
    package = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    import euchre
    assert package == bower_host.__version__ == bower.__version__ == euchre.__version__ == "0.2.0"


def test_bower_version(capsys):
    try:
        main(["--version"])
    except SystemExit as e:
        assert e.code == 0
    assert capsys.readouterr().out == f"bower {bower_host.__version__}\n"


def test_the_readme_points_at_a_rules_page_in_the_repository():
    # It linked ../shared/RULES.md, which a clone does not have.
    readme = (ROOT / "README.md").read_text()
    assert "../shared/RULES.md" not in readme and "(docs/RULES.md)" in readme
    rules = (ROOT / "docs" / "RULES.md").read_text()
    for source in ("000_93089922ad7d5145", "001_02801dca7f87cf1e", "002_b3fca62c46b72403",
                   "003_2434ab160294ee77", "004_ae6657ff59971852"):
        assert f"seeds/{source}.txt" in rules
    # Every option the device offers is explained, by the name the device shows.
    from bower.screens import SHORT
    for label in SHORT.values():
        assert f"| {label} |" in rules or f"*{label}*" in rules, label
