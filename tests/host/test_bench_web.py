"""tools/bench_web.py's measuring code works (issue 33): its --quick run (a
dozen presses of each game, no throttling) in a real Chromium prints every
figure with its target and a verdict, and its RESULT lines, the numbers in
range. Not timed: the figures are `make bench`'s."""

from __future__ import annotations

import re

from benchkit import quick
from webphone import need_chromium

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
    out, lines, results = quick("bench_web.py", 120)
    for start, (target, names) in FIGURES.items():
        line = next((ln for ln in lines if ln.startswith(start)), None)
        assert line is not None, f"no {start!r} figure:\n{out}"
        assert target in line and re.search(r"\b(met|missed)\b", line), line
        for name in names:
            assert float(results[name]) > 0, (name, results)
    assert 100_000 < int(results["web_cold_bytes"]) < 2_000_000      # the runtime itself is 190 KB gzipped
    assert 50_000 < int(results["web_heap_peak_bytes"]) < 245_888
    m = re.search(r"(\d+) taps that changed the screen of 12 presses", out)
    assert m and int(m.group(1)) >= 6, out
