"""``bower demo``'s bots have names no person has, and ``--players`` names them.

The README's tour plays as Ann, Bob, Cy and Di and then suggests ``bower
demo --games 5`` into the same library: the bots' games must not count in
those people's ``stats``. The bots' names follow the device's name rule
(a game a bot played is an ordinary game); ``--players`` gives names of
one's own, checked by that rule, one per seat, and makes another game than
the bots' of the same seed.
"""

from __future__ import annotations

import re

from euchre import log
from euchre.rules import MORE_VARIANTS, Rules, variant_names

from bower_host.commands.demo import DEFAULT_NAMES
from bower_host.names import roster_problem

from conftest import bot_game

TOUR = ["Ann", "Bob", "Cy", "Di"]


def _stats_games(stats: str) -> dict[str, int]:
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\S+)\s+Classic Euchre\s+(\d+)\b", stats, flags=re.M)}


def test_the_bots_are_plainly_bots_by_the_device_rule_for_every_variant():
    assert roster_problem(DEFAULT_NAMES) is None
    assert all(re.fullmatch(r"Bot\d", n) for n in DEFAULT_NAMES)
    most = max(Rules(v).num_players for v in [*variant_names(), *MORE_VARIANTS])
    assert len(DEFAULT_NAMES) >= most


def test_demo_games_stay_out_of_the_tours_players_stats(bower, tmp_path):
    db = tmp_path / "tour.sqlite3"
    # The tour's game: Ann, Bob, Cy and Di at a device.
    game = bot_game("classic", 11, names=TOUR)
    raw = tmp_path / "g0001.log"
    raw.write_text(log.dumps(game, extra={"id": "g0001", "device": "5131aa", "started": 1763700000}))
    rc, out, err = bower("import", raw, "--db", db)
    assert rc == 0, err
    rc, out, err = bower("demo", "--games", 5, "--seed", 1, "--db", db)
    assert rc == 0 and out.count("Stored in the library") == 5, err
    rc, stats, err = bower("stats", "--db", db)
    assert rc == 0, err
    games = _stats_games(stats)
    assert {n: games[n] for n in TOUR} == dict.fromkeys(TOUR, 1), stats
    assert {n: games[n] for n in DEFAULT_NAMES[:4]} == dict.fromkeys(DEFAULT_NAMES[:4], 5), stats


def test_players_names_the_seats_and_makes_a_game_of_its_own(bower, tmp_path):
    db = tmp_path / "lib.sqlite3"
    rc, out, err = bower("demo", "--seed", 4, "--db", db)
    assert rc == 0 and "(demo/classic-4)" in out, err
    rc, out, err = bower("demo", "--seed", 4, "--players", "Ann", "Bob", "Cy", "Di", "--db", db)
    assert rc == 0, err
    assert out.startswith("Bower demo: Classic Euchre, Ann, Bob, Cy, Di;"), out
    m = re.search(r"as game (\d+) \(demo/(classic-4-p[0-9a-f]{8})\)", out)
    assert m and m[1] == "2", out
    rc, again, err = bower("demo", "--seed", 4, "--players", "Ann", "Bob", "Cy", "Di", "--db", db)
    assert rc == 0 and f"Already in the library as game 2 (demo/{m[2]})" in again, again
    rc, show, err = bower("show", "2", "--db", db)
    assert rc == 0 and "Ann (seat 0)" in show, err
    rc, out, err = bower("demo", "--variant", "six", "--seed", 4, "--no-store", "--players", *"ABCDEF")
    assert rc == 0 and out.startswith("Bower demo: Six-Handed Euchre, A, B, C, D, E, F;"), (out, err)


def test_players_that_do_not_fit_are_refused_and_nothing_is_made(bower, tmp_path):
    from hostile import refused
    db = tmp_path / "x.sqlite3"
    for names, why in ((["Ann", "Bob", "Cy"], "Classic Euchre is played by 4 players; got 3"),
                       (["Ann", "Bob", "Cy", "Annabella"], "bad name 'Annabella'"),
                       (["Ann", "Bob", "Ann", "Di"], "'Ann' is given twice"),
                       (["Ann", "Bob", "Cy", " Di"], "bad name ' Di'")):
        status, line = refused("demo", "--players", *names, "--db", db)
        assert status == 1 and line.startswith("bower: --players: ") and why in line, line
    assert not db.exists() and list(tmp_path.iterdir()) == []
