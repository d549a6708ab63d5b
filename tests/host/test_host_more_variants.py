"""The host with the variants for three, six and two players (issue 26):
Three-Handed (each player alone), Six-Handed (seats 0 2 4 against 1 3 5)
and Two-Handed. Games of each, played by the engine's bot (card mode) and
by random device inputs (table mode), stored by ``bower demo``, a library
``add_log`` or ``bower sync``, then read back by ``games``, ``show``,
``stats``, ``plot``, ``export`` and ``import``: every score is the engine's.
"""

import csv
import io
import json

import pytest

from bower_host.db import Library
from bower_host.commands.demo import DEFAULT_NAMES, play_demo

from conftest import DEVICE, STARTED, bot_game, log_bytes, table_game

MORE = ("three", "six", "two")
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Flo"]


def side_text(game) -> str:
    """How ``bower games`` names the players: two sides of three, or each player."""
    p = game.players
    if game.rules.name == "six":
        return f"{p[0]} & {p[2]} & {p[4]} v {p[1]} & {p[3]} & {p[5]}"
    return ", ".join(p)


def score_text(game, scores) -> str:
    """The scores as ``bower show`` writes them: side against side, or each player's."""
    if game.rules.name == "six":
        return f"{scores[0]}-{scores[1]}"
    return " ".join(str(s) for s in scores)


@pytest.fixture(scope="module")
def more_games():
    """``{(variant, mode): (gid, Game)}``: a finished game of each new variant
    in card mode (the bot) and table mode (random device inputs)."""
    out = {}
    for i, v in enumerate(MORE):
        out[(v, "cards")] = (f"m{2 * i + 1:03d}", bot_game(v, 40 + i, names=NAMES))
        out[(v, "table")] = (f"m{2 * i + 2:03d}", table_game(v, 50 + i, names=NAMES))
    for _, g in out.values():
        assert g.result, "the fixture's games are played to the end"
    return out


@pytest.fixture
def more_db(db_path, more_games):
    """A library holding the games of ``more_games``; returns ``(path, {gid: library id})``."""
    ids = {}
    with Library(db_path) as lib:
        for i, (gid, g) in enumerate(more_games.values()):
            r = lib.add_log(log_bytes(g, gid, started=STARTED + 3600 * i), DEVICE, gid + ".log")
            assert r.status == "new", r
            ids[gid] = r.game_id
    return db_path, ids


@pytest.mark.parametrize("variant", MORE)
def test_demo_plays_and_stores_each_new_variant(bower, db_path, variant):
    rc, out, err = bower("demo", "--variant", variant, "--seed", "5", "--db", db_path)
    assert rc == 0, err
    want = play_demo(variant, seed=5, out=io.StringIO())
    with Library(db_path) as lib:
        (g,) = lib.games()
    assert (g["variant"], g["game_key"], g["scores"]) == (variant, f"{variant}-5", want.scores)
    assert g["players"] == DEFAULT_NAMES[:want.rules.num_players]
    rc, out, err = bower("games", "--db", db_path)
    assert rc == 0, err
    assert want.rules.title in out and side_text(want) in out


def test_games_names_the_sides_and_the_winners(bower, more_db, more_games):
    db, _ = more_db
    rc, out, err = bower("games", "--db", db)
    assert rc == 0, err
    rows = {line.split()[1].split("/")[1]: line for line in out.splitlines() if DEVICE in line}
    for (variant, _), (gid, g) in more_games.items():
        row = rows[gid]
        assert g.rules.title in row and side_text(g) in row, row
        winners, kind = g.result
        assert kind == "win"
        if variant == "six":
            won, lost = g.scores[winners[0]], g.scores[1 - winners[0] % 2]
            who = " & ".join(g.players[s] for s in winners)
            assert f"{who} won {won}-{lost}" in row, row
        else:
            assert f"{g.players[winners[0]]} won with {g.scores[winners[0]]}" in row, row


def test_show_gives_each_hand_and_the_engine_scores(bower, more_db, more_games):
    db, ids = more_db
    for (variant, mode), (gid, g) in more_games.items():
        rc, out, err = bower("show", ids[gid], "--db", db)
        assert rc == 0, err
        assert f"{g.rules.title}, {'cards' if mode == 'cards' else 'table'} mode" in out
        head = "Score (Ann & Cy & Eve - Bob & Di & Flo)" if variant == "six" else \
            "Scores (" + " ".join(g.players) + ")"
        assert head in out
        last = [line for line in out.splitlines() if line.strip().startswith(str(g.hand_no - 1) + " ")]
        assert last and score_text(g, g.scores) in last[-1], (last, g.scores)
        assert "Result: " in out


def test_stats_count_each_player_and_each_side(bower, more_db, more_games):
    db, _ = more_db
    rc, out, err = bower("stats", "--db", db, "--format", "csv")
    assert rc == 0, err
    rows = {(r["player"], r["variant"]): r for r in csv.DictReader(io.StringIO(out))}
    for variant in MORE:
        games = [g for (v, _), (_, g) in more_games.items() if v == variant]
        for seat, name in enumerate(games[0].players):
            r = rows[(name, variant)]
            assert int(r["games"]) == 2
            assert int(r["points"]) == sum(g.scores[seat] for g in games), (variant, name)
            assert int(r["wins"]) == sum(seat in g.result[0] for g in games)
    # Six-Handed: the three partners of a side share its points.
    six = rows[("Ann", "six")]["points"], rows[("Cy", "six")]["points"], rows[("Eve", "six")]["points"]
    assert len(set(six)) == 1
    rc, out, err = bower("stats", "--db", db, "--variant", "3-handed")
    assert rc == 0, err
    assert "Three-Handed Euchre" in out and "Six-Handed" not in out


def test_plot_draws_each_player_or_each_side(bower, more_db, more_games, tmp_path, monkeypatch):
    from matplotlib.figure import Figure
    drawn = []
    saved = Figure.savefig

    def keep(fig, path, *a, **k):
        drawn.append(fig)
        return saved(fig, path, *a, **k)
    monkeypatch.setattr(Figure, "savefig", keep)
    db, ids = more_db
    for (variant, _), (gid, g) in more_games.items():
        out = tmp_path / f"{gid}.png"
        rc, _, err = bower("plot", ids[gid], "--db", db, "-o", out)
        assert rc == 0, err
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        ax = drawn[-1].axes[0]
        lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith(("_", "target"))]
        labels = [ln.get_label().removesuffix(" (winner)") for ln in lines]
        if variant == "six":
            assert labels == ["Ann & Cy & Eve", "Bob & Di & Flo"]
            assert [ln.get_ydata()[-1] for ln in lines] == g.scores[:2]
        else:
            assert labels == g.players
            assert [ln.get_ydata()[-1] for ln in lines] == g.scores
        assert [ln.get_label().endswith("(winner)") for ln in lines] == \
            [s in g.result[0] for s in (range(2) if variant == "six" else range(len(g.players)))]


def test_export_csv_has_every_seat(bower, more_db, more_games):
    db, _ = more_db
    rc, out, err = bower("export", "--db", db, "--format", "csv")
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert "seat5_score" in rows[0]
    for (variant, _), (gid, g) in more_games.items():
        mine = [r for r in rows if r["game_id"] == gid]
        n = len(g.players)
        assert len(mine) == g.hand_no - 1 and {r["variant"] for r in mine} == {variant}
        assert [mine[0][f"seat{s}_name"] for s in range(n)] == g.players
        assert [int(mine[-1][f"seat{s}_score"]) for s in range(n)] == g.scores
        assert [sum(int(r[f"seat{s}_points"]) for r in mine) for s in range(n)] == g.scores
        assert all(mine[0][f"seat{s}_name"] == "" for s in range(n, 6))


def test_export_json_and_import_it_back(bower, more_db, more_games, tmp_path):
    db, _ = more_db
    exported = tmp_path / "library.json"
    rc, _, err = bower("export", "--db", db, "--format", "json", "-o", exported)
    assert rc == 0, err
    doc = json.loads(exported.read_text(encoding="utf-8"))
    by_gid = {x["game_id"]: x for x in doc["games"]}
    for (variant, _), (gid, g) in more_games.items():
        x = by_gid[gid]
        assert (x["variant"], x["players"], x["scores"]) == (variant, g.players, g.scores)
        assert x["hands"][-1]["scores"] == g.scores
    other = tmp_path / "other.sqlite3"
    rc, out, err = bower("import", "--db", other, exported)
    assert rc == 0, err
    with Library(other) as lib:
        back = {x["game_key"]: x for x in lib.games()}
    for (variant, mode), (gid, g) in more_games.items():
        assert (back[gid]["variant"], back[gid]["mode"], back[gid]["scores"]) == \
            (variant, "cards" if mode == "cards" else "table", g.scores)
    again = tmp_path / "again.json"
    rc, _, err = bower("export", "--db", other, "--format", "json", "-o", again)
    assert rc == 0, err
    redo = {x["game_id"]: x for x in json.loads(again.read_text(encoding="utf-8"))["games"]}
    for gid, x in by_gid.items():
        assert {k: v for k, v in redo[gid].items() if k != "id"} == {k: v for k, v in x.items() if k != "id"}
    rc, out, err = bower("games", "--db", other)
    assert rc == 0, err
    for _, g in more_games.values():
        assert side_text(g) in out


def test_egn_export_is_refused_with_its_reason(bower, more_db, more_games):
    db, ids = more_db
    for _, (gid, g) in more_games.items():
        rc, out, err = bower("export", "--db", db, "--format", "egn", ids[gid])
        assert rc != 0 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert f"EGN cannot express {g.rules.title}: EGN records 4-player partnership Euchre only" in lines[0]
    rc, out, err = bower("export", "--db", db, "--format", "egn")
    assert rc != 0 and "none of the games can be written as EGN" in err


def test_sync_stores_the_new_variants(bower, tmp_path):
    from fake_device import FakeDevice, random_table_game, record_game
    from euchre import Game, Rules

    dev = FakeDevice(tmp_path / "flash")
    want = {}
    for i, v in enumerate(MORE):
        events = random_table_game(v, seed=60 + i, players=NAMES[:Rules(v).num_players])
        gid = record_game(dev.store, v, events, players=NAMES[:Rules(v).num_players])
        g = Game(Rules(v), NAMES[:Rules(v).num_players])
        for e in events:
            g.apply(e)
        want[gid] = g
    dev.start()
    try:
        db = tmp_path / "host" / "bower.sqlite3"
        rc, _, err = bower("sync", "--port", dev.port, "--db", db, "--quiet", "--timeout", "0.25")
        assert rc == 0, err
    finally:
        dev.stop()
    assert dev.error is None, dev.error
    with Library(db) as lib:
        stored = {x["game_key"]: x for x in lib.games()}
    assert sorted(stored) == sorted(want)
    for gid, g in want.items():
        x = stored[gid]
        assert (x["variant"], x["players"], x["scores"]) == (g.rules.name, g.players, g.scores)
        rc, out, err = bower("show", x["id"], "--db", db)
        assert rc == 0, err
        assert score_text(g, g.scores) in out and g.rules.title in out
