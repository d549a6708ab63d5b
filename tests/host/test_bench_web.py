"""tools/bench_web.py's measuring code works (issue 33): its --quick run (a
dozen presses of each game, no throttling) in a real Chromium prints every
figure with its target and a verdict, and its RESULT lines, the numbers in
range. Not timed: the figures are `make bench`'s."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from webphone import need_chromium

REPO = Path(__file__).resolve().parents[2]
FIGURES = {  # line's start -> (target text, RESULT names)
    "cold start transfer": ("target <= 350 KB", ["web_cold_bytes"]),
    "cold start, first screen": ("target <= 2500 ms", ["web_cold_ms"]),
    "warm offline start": ("target <= 500 ms", ["web_warm_ms"]),
    "tap -> changed pixel": ("target <= 16", ["web_tap_median_ms", "web_tap_p95_ms"]),
    "storage per Classic game": ("target <= 4096 B", ["web_storage_game_bytes"]),
    "MicroPython live heap": ("target: within the Pico's 245888 B pool", ["web_heap_peak_bytes"]),
}


def test_the_quick_bench_prints_every_figure_with_its_target():
    need_chromium()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(REPO / d) for d in
                                                         ("engine", "firmware", "host", "firmware/lib")))
    r = subprocess.run([sys.executable, str(REPO / "tools" / "bench_web.py"), "--quick"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [ln.strip() for ln in r.stdout.splitlines()]
    results = dict(ln.split()[1:3] for ln in lines if ln.startswith("RESULT "))
    for start, (target, names) in FIGURES.items():
        line = next((ln for ln in lines if ln.startswith(start)), None)
        assert line is not None, f"no {start!r} figure:\n{r.stdout}"
        assert target in line and re.search(r"\b(met|missed)\b", line), line
        for name in names:
            assert float(results[name]) > 0, (name, results)
    assert 100_000 < int(results["web_cold_bytes"]) < 2_000_000      # the runtime itself is 190 KB gzipped
    assert 50_000 < int(results["web_heap_peak_bytes"]) < 245_888
    m = re.search(r"(\d+) taps that changed the screen of 12 presses", r.stdout)
    assert m and int(m.group(1)) >= 6, r.stdout
