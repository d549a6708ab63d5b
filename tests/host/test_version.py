"""One version number for the whole product, written once in the firmware
(``bower.__version__``, shown on the device's About screen and sent in
HELLO) and read from there by the package (pyproject.toml's dynamic
version) and the host (``bower_host.__version__``, ``bower --version``).
tests/test_readme_shape.py holds it to one file."""

from pathlib import Path

import bower
import bower_host
from bower_host.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_package_host_and_firmware_versions_agree():
    # The version setuptools builds the sdist and wheel with, from pyproject.toml as it stands.
    from setuptools.config.pyprojecttoml import read_configuration
    package = read_configuration(ROOT / "pyproject.toml")["project"]["version"]
    assert package == bower_host.__version__ == bower.__version__ == "0.2.0"
    import euchre
    assert not hasattr(euchre, "__version__")      # the engine ships inside the product: no number of its own


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
