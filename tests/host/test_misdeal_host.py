"""Option misdeal_passes (issue 36) on the host: ``bower demo --option``
plays with it (card mode, where the device deals, has no misdeal: the bots
play as before, the rule is recorded), ``bower show`` names it, the CSV and
JSON exports carry it, stats count the game, and EGN, whose ruleset has no
field for it, refuses the game saying so. A table-mode log whose misdeal
passed the deal is shown with the next hand's dealer on the left.
"""

from __future__ import annotations

import json
import re

from euchre import Game, Rules, log


def test_demo_show_exports_and_stats_carry_it(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 4, "--option", "misdeal_passes", "--db", db)
    assert rc == 0, err
    assert "House rules on: misdeal_passes" in out and "demo/classic-4-omisdeal_passes" in out, out
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "Misdeal passes left: on" in show, (show, err)
    rc, out, err = bower("export", "--format", "json", "--db", db)
    assert rc == 0, err
    assert '"misdeal_passes": true' in out or '"misdeal_passes":true' in out, out[:2000]
    rc, out, err = bower("export", "--db", db)
    assert rc == 0 and "misdeal_passes" in out, err
    rc, out, err = bower("export", "--format", "egn", "--db", db)
    assert rc != 0 and "EGN's ruleset has no rule for Misdeal passes left (misdeal_passes)" in out + err
    rc, stats, err = bower("stats", "--db", db)
    assert rc == 0 and re.search(r"^Bot1\s+Classic Euchre\s+1\b", stats, flags=re.M), stats


def test_without_it_demo_and_show_are_as_before(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 4, "--db", db)
    assert rc == 0 and "House rules on" not in out and "demo/classic-4)" in out, err
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "Misdeal" not in show and "house options off" in show, show


def test_demo_refuses_an_option_the_variant_lacks(bower, tmp_path):
    rc, out, err = bower("demo", "--variant", "two", "--option", "canadian", "--no-store", "--db", tmp_path / "x")
    assert rc != 0 and "--option" in out + err and "canadian" in out + err


def test_a_passed_misdeal_in_a_table_log_shows_the_next_dealer(bower, tmp_path):
    g = Game(Rules("classic", misdeal_passes=True), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    for e in ["up H", "redeal", "quick 1", "quick made"]:
        g.apply(e)
    f = tmp_path / "g0001.log"
    f.write_text(log.dumps(g, {"id": "g0001"}))
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("import", f, "--device", "test", "--db", db)
    assert rc == 0, (out, err)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "Misdeal passes left: on" in show, err
    rows = [ln.split() for ln in show.splitlines() if re.match(r"^[12] ", ln)]
    assert [r[:2] for r in rows] == [["1", "Ann"], ["2", "Bob"]] and rows[0][-1] == "misdeal", show
    rc, out, err = bower("export", "--format", "json", "--db", db)
    assert rc == 0, err
    game = json.loads(out)["games"][0]
    assert game["options"]["misdeal_passes"] is True
    # (the misdeal passed the deal: "thrown-in", as the result codes mean it)
    assert [(h["dealer"], h["result"]) for h in game["hands"]] == [(0, "thrown-in"), (1, "scored")]
