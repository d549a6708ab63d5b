"""tools/bench_club_phones.py's measuring code works (issue 34): its --quick
run (4 tables posting 2 rounds' results at once, then a 4-phone night of 2
rounds, each against a real `bower club serve`) prints both figures with
their targets and verdicts, the server's memory and CPU, and its RESULT
lines, every result stored. Not timed: the figures are `make bench`'s."""

from __future__ import annotations

import re

from benchkit import quick


def test_the_quick_phones_bench_prints_the_figures_with_their_targets():
    out, lines, text = quick("bench_club_phones.py", 180)
    res = {k: float(v) for k, v in text.items()}
    stored = next(ln for ln in lines if ln.startswith("all stored within"))
    assert "target 1000 ms" in stored and re.search(r"\b(met|missed)\b", stored), stored
    assert "8 of 8 table results in the standings, 8 games stored" in stored, stored
    each = next(ln for ln in lines if ln.startswith("each request"))
    assert "over 8 of 8 (target p99 <= 100 ms" in each and "0 errors" in each, each
    assert (res["club_phones_results"], res["club_phones_errors"]) == (8, 0), res
    assert 0 < res["club_phones_p50_ms"] <= res["club_phones_p99_ms"] <= res["club_phones_max_ms"] < 10_000, res
    assert res["club_phones_max_ms"] <= res["club_phones_all_ms"] + 1, res
    assert any("the night complete" in ln and "answered {200: " in ln for ln in lines), out
    assert any(ln.startswith("server memory") and "VmHWM" in ln for ln in lines), out
    assert any(ln.startswith("server CPU") for ln in lines), out
    assert 10_000 < res["club_phones_rss_kb"] <= res["club_phones_hwm_kb"] < 1_000_000, res
    assert res["club_phones_night_requests"] >= 4 * (1 + 2 * 2) and res["club_phones_cpu_s"] > 0, res
