"""Option no_late_loners (issue 36) on the host: ``bower demo --option``
plays with it (the bots are offered no lone bid at 8 or 9), ``bower show``
names it, the JSON export carries it, EGN, whose ruleset has no field for
it, refuses the game saying so, and a rules file may set it for Classic and
Six-Handed only.
"""

from __future__ import annotations

import json

from euchre import log


def test_demo_show_export_and_egn(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 5, "--option", "no_late_loners", "--db", db)
    assert rc == 0 and "House rules on: no_late_loners" in out, (out, err)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "No loners at 8 or 9: on" in show, show
    rc, out, err = bower("export", "--format", "json", "--db", db)
    assert rc == 0 and json.loads(out)["games"][0]["options"]["no_late_loners"] is True, err
    rc, out, err = bower("export", "--format", "egn", "--db", db)
    assert rc != 0 and "EGN's ruleset has no rule for No loners at 8 or 9 (no_late_loners)" in out + err


def test_the_bots_met_the_bar_and_went_alone_only_where_they_may(bower, tmp_path):
    # Each stored game replayed event by event: a bid from a barred seat
    # came up, and every lone bid was made from a seat that was not barred.
    import sqlite3
    from euchre.game import game_from_header
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 1, "--games", 40, "--option", "no_late_loners", "--db", db)
    assert rc == 0, err
    barred_to_bid = alone = 0
    for (text,) in sqlite3.connect(db).execute("SELECT log FROM games"):
        header, events, _ = log.read_lines(text.splitlines(True))
        g = game_from_header(header)
        assert g.rules.no_late_loners
        for _, e in events:
            h = g.hand
            if e.startswith(("order", "call")) and h.barred >> h.turn & 1:
                barred_to_bid += 1
                assert "alone" not in e, e
            alone += e.endswith(" alone")
            g.apply(e)
    assert barred_to_bid and alone, (barred_to_bid, alone)


def test_a_rules_file_may_set_it_where_the_variant_has_it(bower, tmp_path):
    f = tmp_path / "rules.json"
    presets = [{"name": "Friday", "variant": "classic", "options": {"no_late_loners": True}, "target": 10,
                "quick": False},
               {"name": "Five", "variant": "five", "options": {"no_late_loners": True}, "target": 10,
                "quick": False}]
    f.write_text(json.dumps({"bower_rules": 1, "presets": presets}))
    rc, out, err = bower("rules", "check", f)
    assert rc != 0 and "Five" in out + err and "no_late_loners" in out + err and "Friday" not in out + err, \
        (out, err)
