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


def test_types_device_reject_a_store_method_that_does_not_exist(tmp_path):
    # The device run's settings on a two-line file: a Store method that
    # exists type-checks, one that does not is an error (Store forwarded
    # every missing name through __getattr__ before issue 24, so pyright
    # took any call; tests/firmware/test_one_owner.py keeps class
    # __getattr__ out of engine/ and firmware/).
    import json

    stubs = sysconfig.get_paths()["purelib"]
    (tmp_path / "use_store.py").write_text(
        "from bower.store import Store\n"
        "s = Store('/')\n"
        "s.resume()\n"
        "s.no_such_thing(1, 2, 3)\n")
    cfg = {"include": ["use_store.py"], "typeCheckingMode": "standard", "reportMissingModuleSource": "none",
           "extraPaths": [os.path.join(REPO_ROOT, d) for d in ("engine", "firmware", "firmware/lib")]}
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(cfg))
    proc = subprocess.run([_tool("basedpyright"), "-p", str(tmp_path / "pyrightconfig.json"), "-t", stubs],
                          cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    errors = [ln for ln in proc.stdout.splitlines() if " - error: " in ln]
    assert len(errors) == 1 and "use_store.py:4:" in errors[0] and "no_such_thing" in errors[0], proc.stdout
