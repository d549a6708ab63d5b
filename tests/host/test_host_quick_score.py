"""The host reads games entered in quick score (issue 25, euchre.quick).

A hand entered as who made trump and how it ended is replayed, stored and
shown like any other: the library's rows say what the table said (the
partnership's side, not a seat; no trick count), ``bower show`` marks the
hand "quick", CSV, JSON and stats work, a JSON export imports back to the
same game, and EGN refuses it with the reason (a deal needs its upcard and
bids). A device's quick game syncs like any other.
"""

import json

from bower_host.db import Library, replay, hand_row, is_quick

CLASSIC = ["quick 0", "quick made", "quick 1", "quick euchred", "up H", "pass", "order", "tricks 5",
           "quick none", "redeal", "quick 1", "quick march alone", "quick 0", "quick renege 1",
           "quick 0", "quick march"]
FIVE = ["quick 2", "reveal 4", "quick made", "quick 3", "alone", "quick march", "quick 1", "reveal none",
        "quick euchred notrick 0", "quick none"]


def _raw(kit, variant, events, gid):
    g = kit.scripted_game(variant, events)
    return g, kit.log_bytes(g, gid)


def test_the_rows_say_what_the_table_said(kit):
    g, raw = _raw(kit, "classic", CLASSIC, "g0001")
    rp = replay(raw.decode())
    rows = [hand_row(rec) for rec in rp.hands]
    assert [is_quick(rec) for rec in rp.hands] == [True, True, False, True, False, True, True, True]
    first = rows[0]
    assert (first["maker"], first["maker_tricks"], first["tricks"], first["outcome"], first["points"]) == \
        (None, None, [0, 0, 0, 0], "made", [1, 0, 1, 0])
    assert rows[2]["maker"] == 0 and rows[2]["maker_tricks"] == 5   # entered in full
    assert rows[5]["alone"] == 1 and rows[5]["outcome"] == "march" and rows[6]["outcome"] == "renege"
    assert rows[-1]["scores"] == g.scores == [9, 4, 9, 4]
    _, raw = _raw(kit, "five", FIVE, "g0002")
    rows = [hand_row(rec) for rec in replay(raw.decode()).hands]
    # The calling variants name the maker's seat and the partner.
    assert [(r["maker"], r["partner"], r["alone"]) for r in rows[:3]] == [(2, 4, 0), (3, None, 1), (1, None, 0)]
    assert rows[2]["points"] == [0, 0, 2, 2, 2]   # Ann took no trick: no points (000)


def test_show_export_stats_and_a_json_round_trip(kit, db_path, bower, tmp_path):
    with Library(db_path) as lib:
        for variant, events, gid in (("classic", CLASSIC, "g0001"), ("five", FIVE, "g0002")):
            r = lib.add_log(_raw(kit, variant, events, gid)[1], kit.DEVICE, gid + ".log")
            assert r.status == "new", r
    rc, out, _ = bower("show", "1", "--db", db_path)
    assert rc == 0 and out.count("quick") == 5 and "Ann & Cy" in out and "lone march" in out
    rc, out, _ = bower("show", "2", "--db", db_path)
    assert rc == 0 and "Eve" in out and "throw-in" in out
    rc, out, _ = bower("export", "1", "--format", "csv", "--db", db_path)
    assert rc == 0 and len(out.splitlines()) == 9
    rc, out, _ = bower("stats", "--unfinished", "--db", db_path)
    assert rc == 0 and "Five-Handed" in out
    rc, out, _ = bower("export", "2", "--format", "json", "--db", db_path)
    assert rc == 0
    path = tmp_path / "five.json"
    path.write_text(out)
    other = tmp_path / "other.sqlite3"
    rc, _, err = bower("import", path, "--db", other)
    assert rc == 0, err
    with Library(other) as lib:
        g = lib.games()[0]
        assert [h["points"] for h in lib.hands(g["id"])] == [h["points"] for h in Library(db_path).hands(2)]
    rc, out, err = bower("export", "1", "--format", "egn", "--table-results", "--db", db_path)
    assert rc == 1 and "hand 1 was entered in quick score" in err and "upcard and bids" in err


def test_a_device_syncs_its_quick_game(kit, tmp_path):
    # Recorded as the device records it (bower.store), then read back the
    # way a sync stores it.
    from bower.store import Store
    from bower_host.simhw import HostFs
    from fake_device import record_game
    fs = HostFs(str(tmp_path / "flash"))
    store = Store("/", fs=fs, device=kit.DEVICE)
    gid = record_game(store, "callpartner", ["quick 1", "reveal 3", "quick made", "quick 2", "alone", "quick march"])
    text = fs.open("/games/%s.log" % gid, "rb").read()
    with Library(tmp_path / "lib.sqlite3") as lib:
        r = lib.add_log(text, kit.DEVICE, gid + ".log")
        assert r.status == "new", r
        hands = lib.hands(r.game_id)
        assert [h["points"] for h in hands] == [[0, 1, 0, 1, 0], [0, 0, 5, 0, 0]]
        assert json.loads(json.dumps(hands[0]["tricks"])) == [0] * 5
