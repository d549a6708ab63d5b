"""``bower demo`` stores the games it plays, so the library commands have
something to show on a machine that never saw a device."""

from __future__ import annotations

import csv
import io
import re


def test_a_demo_game_is_in_the_library_for_every_library_command(bower, tmp_path):
    db = tmp_path / "lib" / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 7, "--db", db)
    assert rc == 0, err
    assert re.search(r"Stored in the library .* as game 1 \(demo/classic-7\): bower show 1", out), out
    hands = len(re.findall(r"^Hand +\d+ ", out, flags=re.M))
    winner = re.search(r"^Winner: (.+)$", out, flags=re.M)[1]
    standings = dict(re.findall(r"^  (\S+ & \S+) +(\d+)$", out, flags=re.M))

    rc, games, err = bower("games", "--db", db)
    assert rc == 0, err
    [row] = [ln for ln in games.splitlines() if "demo/classic-7" in ln]
    # The library's replay of the stored log says what the demo printed.
    won = standings[winner]
    lost = next(v for k, v in standings.items() if k != winner)
    assert f"{winner} won {won}-{lost}" in row, (row, standings)
    assert row.split()[-1] == str(hands)
    rc, show, err = bower("show", "1", "--db", db)
    assert rc == 0 and "Bot1 (seat 0)" in show and "cards mode" in show, err
    rc, out, err = bower("export", "--db", db)
    assert rc == 0 and len(list(csv.DictReader(io.StringIO(out)))) == hands, err
    rc, stats, err = bower("stats", "--db", db)
    assert rc == 0 and all(re.search(rf"^{n}\s+Classic Euchre\s+1\b", stats, flags=re.M)
                           for n in "Bot1 Bot2 Bot3 Bot4".split())
    rc, out, err = bower("plot", "1", "--db", db, "-o", tmp_path / "demo.png")
    assert rc == 0 and (tmp_path / "demo.png").stat().st_size > 1000, err


def test_the_same_seed_is_stored_once_and_new_seeds_add_games(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    assert bower("demo", "--seed", 3, "--db", db)[0] == 0
    rc, out, err = bower("demo", "--seed", 3, "--db", db)
    assert rc == 0 and "Already in the library as game 1 (demo/classic-3)" in out, err
    rc, out, err = bower("demo", "--variant", "five", "--games", 2, "--db", db)
    assert rc == 0, err
    keys = re.findall(r"\(demo/(five-\d+)\)", out)
    assert len(keys) == 2 and keys[0] != keys[1]
    games = bower("games", "--db", db)[1]
    assert games.count("demo/") == 3 and all(f"demo/{k}" in games for k in keys)


def test_no_store_leaves_no_library(bower, tmp_path):
    db = tmp_path / "bower.sqlite3"
    rc, out, err = bower("demo", "--seed", 2, "--no-store", "--db", db)
    assert rc == 0 and re.search(r"^(Winner|Shared win|Draw): ", out, flags=re.M) and "Stored" not in out
    assert not db.exists()


def test_demo_refuses_a_silly_game_count(bower, tmp_path, capsys):
    import pytest
    for bad in ("0", "101", "x"):
        with pytest.raises(SystemExit) as e:
            bower("demo", "--games", bad, "--db", tmp_path / "x.db")
        assert e.value.code == 2 and "--games" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()
