"""tools/bench_league.py's measuring code works (issue 35): its --quick run
(3 clubs x 3 nights x 3 tables on PostgreSQL, when installed, and on SQLite,
then one club on SQLite; each against a real `bower league serve`) prints
the standings and push figures with their targets and verdicts, and RESULT
lines that parse. Not timed: the figures are `make bench`'s."""

from __future__ import annotations

import re

from benchkit import quick
from pgserver import find_bin


def test_the_quick_league_bench_prints_the_figures_with_their_targets():
    out, lines, text = quick("bench_league.py", 120)
    res = {k: float(v) for k, v in text.items()}
    tags = ["league_sqlite", "league_sqlite1"]
    if find_bin() is None:
        assert res["league_pg_skipped"] == 1 and any("PostgreSQL: not installed" in ln for ln in lines), out
    else:
        assert "league_pg_skipped" not in res, out
        tags.append("league_pg")
    for tag in tags:
        clubs = 1 if tag == "league_sqlite1" else 3
        assert res[f"{tag}_rows"] == clubs * 3 * 12 and res[f"{tag}_pushes"] == 5, (tag, res)
        assert 0 < res[f"{tag}_players"] <= clubs * 15, (tag, res)
        for what in ("standings_http", "standings_inproc", "push"):
            assert 0 <= res[f"{tag}_{what}_p50_ms"] <= res[f"{tag}_{what}_p99_ms"] < 10_000, (tag, what, res)
        assert res[f"{tag}_push_p99_ms"] <= res[f"{tag}_push_max_ms"], res
    for tag in tags[:1] + tags[2:]:
        assert res[f"{tag}_growth_http"] > 0 and res[f"{tag}_growth_inproc"] > 0, res
    figures = [ln for ln in lines if ln.startswith(("GET /api/standings", "standings(lg)", "a night's push"))]
    assert len(figures) == 6 * len(tags) - 2, out          # (one line per engine: the standings after a push)
    for tag in tags:
        assert 0 < res[f"{tag}_fresh_standings_http_p99_ms"] < 10_000, res
    for ln in figures:
        assert re.search(r"target (p99 )?<= \d+ ms( at p99)? (met|missed)\)", ln), ln
    assert any(ln.startswith("growth 1 -> 3 clubs") for ln in lines), out
    assert any("points drawn" in ln for ln in lines), out
    assert 0 < res["league_bench_s"] < 60, res
