"""A bench's --quick run for its test: tools/<name> in a child process with
this checkout's packages, as `make bench` runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def quick(tool: str, timeout: float) -> tuple[str, list, dict]:
    """Run ``tools/<tool> --quick``; (its output, its lines stripped, its
    RESULT lines as name -> value text). Fails the test if it failed."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(REPO / d) for d in
                                                         ("engine", "firmware", "host", "firmware/lib")))
    r = subprocess.run([sys.executable, str(REPO / "tools" / tool), "--quick"], capture_output=True, text=True,
                       env=env, timeout=timeout)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [ln.strip() for ln in r.stdout.splitlines()]
    return r.stdout, lines, dict(ln.split()[1:3] for ln in lines if ln.startswith("RESULT "))
