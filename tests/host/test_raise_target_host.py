"""Three-Handed's option raise_target (issue 36) on the host: ``bower demo
--option raise_target`` plays with it, ``bower show`` names it and says
after which hand the target went up, the JSON and CSV exports carry it, and
EGN refuses the game as it refuses every Three-Handed game (its reason).
The other variants and play_on beside it are refused in one line.
"""

from __future__ import annotations

import json

from euchre import Game, Rules, log

TIE = ["up H", "order", "tricks 0", "up H", "pass", "pass", "order", "tricks 2",
       "up H", "pass", "order", "tricks 1"]      # B euchred three times: A and C 6 0 6, both over 5


def _tied_log(tmp_path, on=True):
    opts = {"winning_score": 5, "raise_target": True} if on else {"winning_score": 5}
    g = Game(Rules("three", opts), ["Ann", "Bob", "Cy"], dealer=0)
    for e in TIE:
        g.apply(e)
    f = tmp_path / "g0001.log"
    f.write_text(log.dumps(g, {"id": "g0001"}))
    return f


def test_show_says_when_the_target_went_up_and_the_exports_carry_it(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("import", _tied_log(tmp_path), "--device", "test", "--db", db)
    assert rc == 0, (out, err)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0, err
    assert "Both reach: target +10: on" in show and "to 15 after hand 3" in show, show
    assert "in progress" in show, show
    rc, out, err = bower("export", "--format", "json", "--db", db)
    assert rc == 0 and json.loads(out)["games"][0]["options"]["raise_target"] is True, err
    rc, out, err = bower("export", "--db", db)
    assert rc == 0 and "raise_target" in out, err
    rc, out, err = bower("export", "--format", "egn", "--db", db)
    assert rc != 0 and "EGN cannot express Three-Handed Euchre" in out + err


def test_without_it_the_tie_ends_the_game_and_show_says_nothing_of_a_target(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("import", _tied_log(tmp_path, on=False), "--device", "test", "--db", db)
    assert rc == 0, (out, err)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "Target" not in show and "raise" not in show.lower(), show


def test_demo_plays_with_it_and_refuses_it_where_it_cannot_be(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--variant", "three", "--seed", 3, "--option", "raise_target", "--db", db)
    assert rc == 0 and "House rules on: raise_target" in out, (out, err)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "Both reach: target +10: on" in show and "Target " in show, show
    for args in (["--variant", "classic"], ["--variant", "three", "--option", "play_on"]):
        rc, out, err = bower("demo", *args, "--option", "raise_target", "--no-store", "--db", tmp_path / "x")
        assert rc != 0 and len((out + err).strip().splitlines()) == 1 and "raise_target" in out + err, (out, err)


def test_the_exports_give_the_target_each_hand_was_played_to(bower, tmp_path):
    # Raised to 15 after hand 3: hand 4 was played to 15, the game stands at 15.
    import csv
    import io
    g = Game(Rules("three", {"winning_score": 5, "raise_target": True}), ["Ann", "Bob", "Cy"], dealer=0)
    for e in TIE + ["up H", "pass", "order", "tricks 3"]:
        g.apply(e)
    assert g.target == 15 and not g.result
    f = tmp_path / "g0001.log"
    f.write_text(log.dumps(g, {"id": "g0001"}))
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("import", f, "--device", "test", "--db", db)
    assert rc == 0, (out, err)
    rc, out, err = bower("export", "--db", db)
    assert rc == 0, err
    assert [r["target"] for r in csv.DictReader(io.StringIO(out))] == ["5", "5", "5", "15"]
    rc, out, err = bower("export", "--format", "json", "--db", db)
    assert rc == 0 and json.loads(out)["games"][0]["target"] == 15, err
    # Without the option the target is the game's winning score throughout.
    db2 = tmp_path / "plain.sqlite3"
    rc, out, err = bower("import", _tied_log(tmp_path, on=False), "--device", "test", "--db", db2)
    assert rc == 0, (out, err)
    rc, out, err = bower("export", "--format", "json", "--db", db2)
    assert rc == 0 and json.loads(out)["games"][0]["target"] == 5, err
