"""The options of tests/engine/test_more_options.py (issue 36) on the host:
``bower demo --option`` plays with each (the bots in card mode), ``bower
show`` names it, the JSON export carries it; EGN writes Classic's
lone_euchre_4 as its ruleset's ``loner_euchred_score`` 4 and an EGN file
with that score imports as the option (any other score is refused), while
the variants EGN cannot hold are refused as before; a rules file may set
each only where the variant has it.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from euchre import log
from euchre.game import game_from_header


@pytest.mark.parametrize("variant, opt, label", [
    ("three", "joker", "Joker (Benny): on"),
    ("six", "joker", "Joker (Benny): on"),
    ("six", "lone_euchre_4", "Euchred loner gives 4: on"),
    ("classic", "lone_euchre_4", "Euchred loner gives 4: on"),
    ("two", "same_dealer", "All pass: same dealer: on"),
])
def test_demo_show_and_export(bower, tmp_path, variant, opt, label):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--variant", variant, "--seed", 3, "--games", 3, "--option", opt, "--db", db)
    assert rc == 0 and "House rules on: " + opt in out, (out, err)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and label in show, show
    rc, out, err = bower("export", "--format", "json", "--db", db)
    assert rc == 0 and json.loads(out)["games"][0]["options"][opt] is True, err
    for (text,) in sqlite3.connect(db).execute("SELECT log FROM games"):
        header, events, _ = log.read_lines(text.splitlines(True))
        g = game_from_header(header)
        assert getattr(g.rules, opt)
        for _, e in events:
            g.apply(e)
        assert g.result, "a demo game plays to its end"


def test_the_bots_met_each_rule(bower, tmp_path):
    # Over a few demo games each rule came up and played as its source
    # says: a joker dealt; both players passing twice, then the same dealer
    # dealing. (The bots go alone only on strong hands: in 30 games of
    # Classic or Six-Handed none was euchred alone, so lone_euchre_4's
    # points are the engine's tests': the scoring tables and card mode.)
    seen = {"joker": 0, "same_dealer": 0}
    for variant, opt in (("three", "joker"), ("two", "same_dealer")):
        db = tmp_path / (variant + ".sqlite3")
        rc, out, err = bower("demo", "--variant", variant, "--seed", 1, "--games", 12, "--option", opt, "--db", db)
        assert rc == 0, err
        for (text,) in sqlite3.connect(db).execute("SELECT log FROM games"):
            header, events, _ = log.read_lines(text.splitlines(True))
            g = game_from_header(header)
            for _, e in events:
                h = g.hand
                before = g.last_hand
                g.apply(e)
                if opt == "joker" and e.startswith("deal ") and "HJ" in e.split():
                    seen[opt] += 1
                if g.last_hand is not before and g.last_hand is h:
                    if opt == "same_dealer" and h.outcome == "all_passed":
                        assert g.hand is None or g.hand.dealer == h.dealer
                        seen[opt] += 1
    assert all(seen.values()), seen


def test_egn_writes_and_reads_lone_euchre_4(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 2, "--option", "lone_euchre_4", "--db", db)
    assert rc == 0, err
    egn = tmp_path / "game.egn.json"
    rc, out, err = bower("export", "--format", "egn", "-o", egn, "--db", db)
    assert rc == 0, err
    doc = json.loads(egn.read_text())
    games = doc if isinstance(doc, list) else doc.get("games", [doc])
    assert all(g["metadata"]["ruleset"]["loner_euchred_score"] == 4 for g in games), games[0]["metadata"]
    db2 = tmp_path / "other.sqlite3"
    rc, out, err = bower("import", egn, "--db", db2)
    assert rc == 0, (out, err)
    rc, out, err = bower("export", "--format", "json", "--db", db2)
    assert json.loads(out)["games"][0]["options"]["lone_euchre_4"] is True
    # Another score is no rule Bower plays: refused in one line, nothing in.
    for g in games:
        g["metadata"]["ruleset"]["loner_euchred_score"] = 3
    bad = tmp_path / "bad.egn.json"
    bad.write_text(json.dumps(doc))
    db3 = tmp_path / "third.sqlite3"
    rc, out, err = bower("import", bad, "--db", db3)
    assert rc != 0 and "loner_euchred_score: 3" in out + err, (out, err)


def test_a_rules_file_may_set_them_where_the_variant_has_them(bower, tmp_path):
    f = tmp_path / "rules.json"
    good = [("Cut", "three", "joker"), ("Six", "six", "joker"), ("Set", "classic", "lone_euchre_4"),
            ("Two", "two", "same_dealer")]
    bad = [("Five", "five", "lone_euchre_4"), ("Ult", "ultimate", "same_dealer"), ("Both", "six", "jokers")]
    presets = [{"name": n, "variant": v, "options": {o: True}, "target": 10, "quick": False} for n, v, o in good]
    f.write_text(json.dumps({"bower_rules": 1, "presets": presets}))
    rc, out, err = bower("rules", "check", f)
    assert rc == 0, (out, err)
    presets += [{"name": n, "variant": v, "options": {o: True}, "target": 10, "quick": False} for n, v, o in bad]
    presets[-1]["options"]["joker"] = True
    f.write_text(json.dumps({"bower_rules": 1, "presets": presets}))
    rc, out, err = bower("rules", "check", f)
    assert rc != 0, (out, err)
    for n, _, _ in bad:
        assert n in out + err, (n, out, err)
    for n, _, _ in good:
        assert "'%s'" % n not in out + err and "preset %s" % n not in out + err, (n, out, err)
