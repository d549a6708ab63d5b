"""The static checks, run by `make test` (issue 15 §4), each as a subprocess
whose output is the failure message:

* ruff lints the whole tree with the rules in pyproject.toml ([tool.ruff]);
  no format check;
* basedpyright type-checks host/ against CPython (pyproject.toml,
  [tool.basedpyright]);
* basedpyright type-checks engine/ and firmware/ against MicroPython 1.29's
  rp2 stubs (pyrightconfig.micropython.json, with the stubs' site-packages
  folder as the typeshed).

The tools and the stubs are pinned in the dev extra (`make setup`). The
three take about 15 s together.
"""

import os
import subprocess
import sys
import sysconfig

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
TIMEOUT = 180


def _tool(name):
    path = os.path.join(BIN, name)
    if not os.path.exists(path):
        pytest.fail(f"{name} is not installed beside {sys.executable}: run `make setup` "
                    "(it is pinned in the dev extra of pyproject.toml)", pytrace=False)
    return path


def _run(argv):
    proc = subprocess.run(argv, cwd=REPO_ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        pytest.fail(f"`{' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))}` "
                    f"failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}", pytrace=False)
    return proc.stdout


def test_ruff():
    _run([_tool("ruff"), "check", "--no-cache", "--output-format", "concise", "."])


def test_types_host_cpython():
    _run([_tool("basedpyright"), "-p", "pyproject.toml"])


def test_types_device_micropython():
    stubs = sysconfig.get_paths()["purelib"]
    if not os.path.exists(os.path.join(stubs, "stdlib", "VERSIONS")):
        pytest.fail(f"the MicroPython stubs are not in {stubs}: run `make setup` "
                    "(micropython-rp2-rpi-pico-stubs, pinned in the dev extra)", pytrace=False)
    # .basedpyright/device-baseline.json holds the findings accepted (73 when
    # it was added; 6 since euchre.rules.Rules' fields are declared in
    # rules.pyi): the device code's None-guarded state, and two fields the
    # firmware keeps on a club round's Game. A finding not in the baseline
    # fails; fixing one shrinks it (rewrite it with --writebaseline).
    _run([_tool("basedpyright"), "-p", "pyrightconfig.micropython.json", "-t", stubs,
          "--baselinefile", ".basedpyright/device-baseline.json"])
