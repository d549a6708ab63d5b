"""The host reads games with an amended hand (issue 25, euchre.amend).

The log keeps hand N as first entered and, later, its amendment; the host
replays both: the hand's row is the hand as amended with its first entry
kept (``amended``), every running score follows the amendment, a hand
played after an end the amendment moved earlier counts for nothing, and
``bower show``, CSV and JSON say so. A JSON export imports back to the
same game, a device's amended game syncs, and a club round's result
changes only when accepted again.
"""

import csv
import io
import json

from bower_host.db import Library, replay, hand_row

# Hand 2 told as N/S's march; after hand 4 it is amended to a lone march.
CLASSIC = ["quick 0", "quick made", "quick 0", "quick march", "quick 1", "quick made", "quick 0", "quick made",
           "amend 2", "quick 0", "quick march alone", "quick 1", "quick made"]
# Amended so that N/S reach 10 in hand 4: hand 5, played after, counts for nothing.
EARLIER = ["quick 0", "quick march alone", "quick 0", "quick march", "quick 0", "quick march", "quick 1",
           "quick made", "amend 2", "quick 0", "quick march alone"]


def _raw(kit, variant, events, gid, **options):
    g = kit.scripted_game(variant, events, **options)
    return g, kit.log_bytes(g, gid)


def test_the_rows_follow_the_amendment(kit):
    g, raw = _raw(kit, "classic", CLASSIC, "g0001")
    rows = [hand_row(rec) for rec in replay(raw.decode()).hands]
    assert [r["number"] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[1]["points"] == [4, 0, 4, 0] and rows[1]["alone"] == 1
    assert json.loads(rows[1]["amended"]) == {"outcome": "march", "outcome_code": "march", "renege": None,
                                              "points": [2, 0, 2, 0], "result": "scored"}
    assert [r["scores"] for r in rows] == [[1, 0, 1, 0], [5, 0, 5, 0], [5, 1, 5, 1], [6, 1, 6, 1], [6, 2, 6, 2]]
    assert rows[-1]["scores"] == g.scores and all(r["counted"] == 1 for r in rows)
    assert [r["amended"] for r in rows if r["number"] != 2] == [None] * 4


def test_an_end_moved_earlier_leaves_the_later_hands_uncounted(kit):
    g, raw = _raw(kit, "classic", EARLIER, "g0001")
    assert g.result == ((0, 2), "win") and g.scores == [10, 0, 10, 0]
    rows = [hand_row(rec) for rec in replay(raw.decode()).hands]
    assert [r["counted"] for r in rows] == [1, 1, 1, 0]
    assert rows[-1]["scores"] == [10, 0, 10, 0]


def test_show_csv_json_and_a_round_trip(kit, db_path, bower, tmp_path):
    with Library(db_path) as lib:
        for events, gid in ((CLASSIC, "g0001"), (EARLIER, "g0002")):
            assert lib.add_log(_raw(kit, "classic", events, gid)[1], kit.DEVICE, gid + ".log").status == "new"
        games = {g["game_key"]: g for g in lib.games()}
        assert games["g0002"]["finished"] and games["g0002"]["scores"] == [10, 0, 10, 0]
    rc, out, _ = bower("show", str(games["g0001"]["id"]), "--db", db_path)
    assert rc == 0 and "amended, first march (Ann & Cy +2)" in out, out
    rc, out, _ = bower("show", str(games["g0002"]["id"]), "--db", db_path)
    assert rc == 0 and "not counted" in out and "Ann & Cy" in out
    rc, out, _ = bower("export", str(games["g0001"]["id"]), "--format", "csv", "--db", db_path)
    assert rc == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["amended"] for r in rows] == ["", "march (Ann & Cy +2)", "", "", ""]
    assert rows[1]["seat0_points"] == "4" and rows[-1]["seat0_score"] == "6" and rows[0]["counted"] == "1"
    rc, out, _ = bower("export", str(games["g0002"]["id"]), "--format", "json", "--db", db_path)
    assert rc == 0
    data = json.loads(out)
    game = data["games"][0] if "games" in data else data
    assert [h["counted"] for h in game["hands"]] == [True, True, True, False]
    assert game["hands"][1]["amended"]["points"] == [2, 0, 2, 0]
    path = tmp_path / "amended.json"
    path.write_text(out)
    other = tmp_path / "other.sqlite3"
    rc, _, err = bower("import", path, "--db", other)
    assert rc == 0, err
    with Library(other) as lib:
        [g] = lib.games()
        assert [h["points"] for h in lib.hands(g["id"])] == [[4, 0, 4, 0], [4, 0, 4, 0], [2, 0, 2, 0], [0, 1, 0, 1]]
        assert g["scores"] == [10, 0, 10, 0]


def test_a_device_syncs_its_amended_game(kit, tmp_path):
    from bower.store import Store
    from bower_host.simhw import HostFs
    from fake_device import record_game
    fs = HostFs(str(tmp_path / "flash"))
    store = Store("/", fs=fs, device=kit.DEVICE)
    gid = record_game(store, "five", ["quick 0", "reveal 2", "quick made", "quick 1", "alone", "quick made",
                                      "amend 1", "quick 3", "reveal 4", "quick march"])
    text = fs.open("/games/%s.log" % gid, "rb").read()
    with Library(tmp_path / "lib.sqlite3") as lib:
        r = lib.add_log(text, kit.DEVICE, gid + ".log")
        assert r.status == "new", r
        hands = lib.hands(r.game_id)
        assert [h["points"] for h in hands] == [[0, 0, 0, 2, 2], [0, 1, 0, 0, 0]]
        assert hands[-1]["scores"] == [0, 1, 0, 2, 2]
        assert json.loads(hands[0]["amended"])["points"] == [1, 0, 1, 0, 0]


def test_a_club_rounds_result_changes_only_when_accepted_again(kit):
    # The round accepted, then the acceptance undone on the device, hand 2
    # amended and the round accepted again: the log says so, line by line.
    from euchre import Game, Rules, log
    g = Game(Rules("classic", round_hands=3), ["Ann", "Bob", "Cy", "Di"])
    for e in ["quick 0", "quick made", "quick 1", "quick made", "quick 1", "quick made", "accept"]:
        g.apply(e)
    assert g.result == ((1, 3), "win")
    g.undo()
    for e in ["amend 2", "quick 0", "quick march", "accept"]:
        g.apply(e)
    assert g.result == ((0, 2), "win") and g.accepted
    rp = replay(log.dumps(g))
    assert rp.game.result == ((0, 2), "win") and rp.game.accepted
    assert [hand_row(rec)["scores"] for rec in rp.hands][-1] == [3, 1, 3, 1]


def test_a_log_whose_amendment_breaks_a_rule_is_refused_in_a_line(kit, tmp_path):
    # A device (or a hand-edited file) with an amendment the rules refuse:
    # the log is refused naming the line and the rule, nothing is stored.
    from euchre import log as elog
    g = kit.scripted_game("classic", ["quick 0", "quick made", "redeal", "quick 1", "quick made"])
    head = kit.log_bytes(g, "g0009").decode()
    for bad, why in (("amend 7", "no finished hand 7"), ("amend 2", "misdeal"), ("amend 0", "malformed"),
                     ("amend 1x", "malformed")):
        text = head + elog.encode_line(bad) + "\n"
        with Library(tmp_path / "lib.sqlite3") as lib:
            r = lib.add_log(text.encode(), kit.DEVICE, "g0009.log")
            assert r.status == "refused" and why in r.message and "line 7" in r.message, (bad, r)
            assert "\n" not in r.message and lib.count() == 0
