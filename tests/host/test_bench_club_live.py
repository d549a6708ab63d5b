"""tools/bench_club_live.py's measuring code works (issue 34): its --quick run
(12 open pages, 3 results, a 4-table night, a real `bower club serve`)
prints the figure with its target and a verdict, the server's memory and
CPU, and its RESULT lines, every page having shown every result. Not timed:
the figures are `make bench`'s."""

from __future__ import annotations

import re

from benchkit import quick


def test_the_quick_live_bench_prints_the_figure_with_its_target():
    out, lines, text = quick("bench_club_live.py", 120)
    res = {k: float(v) for k, v in text.items()}
    fig = next(ln for ln in lines if ln.startswith("result -> page shows it"))
    assert "target p95 <= 2000 ms" in fig and re.search(r"\b(met|missed)\b", fig), fig
    assert "over 36 of 36 page x result" in fig and "0 never shown" in fig and "0 errors" in fig, fig
    assert (res["club_live_pages"], res["club_live_results"], res["club_live_missing"]) == (12, 3, 0)
    assert 0 < res["club_live_p50_ms"] <= res["club_live_p95_ms"] <= res["club_live_max_ms"] < 10_000, res
    assert any(ln.startswith("server memory") and "VmHWM" in ln for ln in lines), out
    assert any(ln.startswith("server CPU") for ln in lines), out
    assert 10_000 < res["club_serve_rss_kb"] <= res["club_serve_hwm_kb"] < 1_000_000, res
    assert res["club_serve_cpu_s"] >= 0
