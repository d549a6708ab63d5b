"""A club night on a Bower per table (tests/host/clubtables.py): the host
pushes every table's round over the link, the bots press the keys of the
real firmware, the host syncs the Bowers in random order (some twice), and
the standings equal an independent recomputation from the devices' logs."""

from __future__ import annotations

import pytest

from bower_host.club import night as cn
from bower_host.club import standings as cs
from bower_host.db import Library

from clubtables import play_night
from test_club_night import recompute
from bower.store import extra

T0 = 1763700000


@pytest.mark.parametrize("movement, n, tables", [("progressive", 12, 3), ("fixed", 12, 3), ("partners", 9, None)])
def test_a_night_played_on_the_bowers_syncs_to_the_right_standings(tmp_path, movement, n, tables):
    names = [f"P{i:02d}" for i in range(n)]
    with Library(tmp_path / "lib.sqlite3", clock=lambda: T0) as lib:
        cn.create_night(lib, "Friday", names, tables, movement, 3, hands=4, seed=3, key="fri", clock=lambda: T0,
                        scoring={"loner": 5, "set_loner": 3, "renege": 2})
        got = play_night(lib, "fri", tmp_path / "flash", seed=7, renege=0.1)
        night = cn.load_night(lib, "fri")
        assert night.complete()
        standing = cs.standings(night)
    logs = []
    for b in got["bowers"].values():
        games = extra("past").games(b.store)
        assert len(games) == 3 and all(g["synced"] for g in games)      # every round synced, marked so
        for g in games:
            raw = b.store.read(g["id"], 0, 1 << 20)
            assert raw.rstrip(b"\n").rsplit(b"\n", 1)[1].startswith(b'["accept"'), "each round ends accepted"
            logs.append(raw)
    assert got["statuses"].get("new") == len(logs) and "failed" not in got["statuses"]
    rows = [(r["place"], r["player"], r["points"], r["won"], r["loners"], r["euchres"]) for r in standing]
    want = recompute(logs, night.scoring, names)
    assert sorted(rows) == sorted(want)
    assert got["presses"] > 3 * len(got["bowers"]) * 4 * 3        # a few presses per hand, really pressed


def test_a_rebuilt_library_keeps_its_club_nights(tmp_path, capsys):
    import sqlite3

    from bower_host.cli import main
    names = [f"P{i:02d}" for i in range(8)]
    db = tmp_path / "lib.sqlite3"
    with Library(db, clock=lambda: T0) as lib:
        cn.create_night(lib, "Friday", names, 2, "progressive", 2, hands=2, seed=3, key="fri", clock=lambda: T0)
        play_night(lib, "fri", tmp_path / "flash", seed=4)
        before = cs.standings(cn.load_night(lib, "fri"))
    c = sqlite3.connect(db)
    c.execute("DROP TABLE hands")                     # damaged: games need rebuilding from the raw logs
    c.commit()
    c.close()
    assert main(["library", "rebuild", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "club nights: 1 carried over from the old file with their results and corrections" in out, out
    with Library(db) as lib:
        night = cn.load_night(lib, "fri")
        assert night.complete() and cs.standings(night) == before
        linked = lib.conn.execute("SELECT COUNT(*) FROM club_results r JOIN games g ON g.id = r.game_id "
                                  "AND g.device = r.device AND g.game_key = r.game_key").fetchone()[0]
    assert linked == 4                                 # every round's result points at its rebuilt game
