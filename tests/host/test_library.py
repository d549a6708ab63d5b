"""The library commands through ``bower_host.cli.main``: games, show, export
(CSV, JSON, EGN), stats and plot, on a library in a temporary directory
(``--db``) filled with real games of every variant."""

import csv
import io
import json

import pytest

from euchre import Game, Rules

from bower_host import egn
from bower_host.db import Library

DEV = "e6614103e7"


def _id(db_path, ref):
    with Library(db_path) as lib:
        return lib.find(ref)[0]["id"]


# ----- games and show -------------------------------------------------------------

def test_games_lists_every_game(bower, filled_db, variant_logs):
    rc, out, err = bower("games", "--db", filled_db)
    assert rc == 0, err
    for (variant, mode), x in variant_logs.items():
        line = next(ln for ln in out.splitlines() if x.ref in ln)
        assert Rules(variant).title in line and mode in line
        assert line.rstrip().endswith(" " + str(x.game.hand_no - 1))        # hands
        winners = " & ".join(x.game.winner_names()) if variant in ("classic", "ultimate") \
            else ", ".join(x.game.winner_names())
        assert winners in line
    assert "Ann & Cy v Bob & Di" in out and "Ann, Bob, Cy, Di, Eve" in out


def test_games_uses_bower_db_from_the_environment(bower, filled_db, monkeypatch):
    monkeypatch.setenv("BOWER_DB", str(filled_db))
    rc, out, _ = bower("games")
    assert rc == 0 and "g0001" in out


@pytest.mark.parametrize("args", [["games"], ["show", "1"], ["export"], ["stats"], ["plot", "1"]])
def test_empty_library_is_a_clear_error(bower, db_path, args):
    rc, out, err = bower(*args, "--db", db_path)
    assert rc == 1 and "is empty" in err and "Traceback" not in err


def test_show_is_hand_by_hand(bower, filled_db, variant_logs):
    x = variant_logs[("classic", "cards")]
    rc, out, err = bower("show", x.ref, "--db", filled_db)
    assert rc == 0, err
    assert f"({x.ref}): Classic Euchre, cards mode" in out
    with Library(filled_db) as lib:
        hands = lib.hands(lib.find(x.ref)[0]["id"])
    rows = [ln.split() for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert [int(r[0]) for r in rows] == [h["number"] for h in hands]
    names = x.game.players
    for r, h in zip(rows, hands):
        assert r[1] == names[h["dealer"]]
        if h["result"] == "scored":
            assert names[h["maker"]] in r and h["trump"] in r
            assert f"{h['maker_tricks']}/5" in r
    final = f"{x.game.scores[0]}-{x.game.scores[1]}"
    assert rows[-1][-2] == final or final in " ".join(rows[-1])
    assert "Result: " + " & ".join(x.game.winner_names()) in out
    assert "Partner" not in out            # Classic has fixed partners
    # By database number too.
    rc, out2, _ = bower("show", str(_id(filled_db, x.ref)), "--db", filled_db)
    assert rc == 0 and out2 == out


def test_show_partner_variant(bower, filled_db, variant_logs):
    x = variant_logs[("callpartner", "table")]
    rc, out, err = bower("show", x.gid, "--db", filled_db)
    assert rc == 0, err
    assert "Partner" in out and "Scores (Ann Bob Cy Di Eve)" in out
    assert " ".join(str(s) for s in x.game.scores) in out


def test_show_unknown_and_ambiguous_games(bower, filled_db, kit):
    rc, _, err = bower("show", "g9999", "--db", filled_db)
    assert rc == 1 and "no game 'g9999'" in err
    with Library(filled_db) as lib:
        lib.add_log(kit.log_bytes(kit.table_game("classic", 40), "g0001", device=None), "other", "g0001.log")
    rc, _, err = bower("show", "g0001", "--db", filled_db)
    assert rc == 1 and "names several games" in err and "other/g0001" in err
    assert bower("show", "other/g0001", "--db", filled_db)[0] == 0


# ----- export -------------------------------------------------------------------------

def test_export_csv_matches_the_engine(bower, filled_db, variant_logs, tmp_path):
    out_file = tmp_path / "hands.csv"
    rc, out, err = bower("export", "--format", "csv", "-o", out_file, "--db", filled_db)
    assert rc == 0 and out == "", err
    rows = list(csv.DictReader(io.StringIO(out_file.read_text())))
    for x in variant_logs.values():
        g = x.game
        mine = [r for r in rows if r["game_id"] == x.gid]
        assert len(mine) == g.hand_no - 1
        n = len(g.players)
        assert [int(mine[-1][f"seat{s}_score"]) for s in range(n)] == g.scores
        assert [sum(int(r[f"seat{s}_points"]) for r in mine) for s in range(n)] == g.scores
        assert [mine[0][f"seat{s}_name"] for s in range(n)] == g.players
        assert all(r["dealer"] in g.players for r in mine)
        assert {r["variant"] for r in mine} == {g.rules.name}
        if n == 4:
            assert mine[0]["seat4_name"] == ""


def test_export_selected_games_to_stdout(bower, filled_db, variant_logs):
    x = variant_logs[("ultimate", "table")]
    rc, out, _ = bower("export", x.ref, "--db", filled_db)     # CSV is the default
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and {r["game_id"] for r in rows} == {x.gid} and len(rows) == x.game.hand_no - 1


def test_export_json_replays_to_the_engine_scores(bower, filled_db, variant_logs):
    rc, out, err = bower("export", "-f", "json", "--db", filled_db)
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["format"] == "bower-library-export" and len(doc["games"]) == len(variant_logs)
    by_id = {g["game_id"]: g for g in doc["games"]}
    for x in variant_logs.values():
        j = by_id[x.gid]
        g = x.game
        assert j["scores"] == g.scores and j["players"] == g.players and j["finished"] is True
        assert j["winners"] == g.winner_names() and j["result"] == g.result[1]
        assert j["events"] == g.events()
        assert [h["scores"] for h in j["hands"]][-1] == g.scores
        again = Game(Rules(j["variant"], j["options"]), j["players"], j["first_dealer"], j["mode"] == "cards")
        for e in j["events"]:
            again.apply(e)
        assert again.scores == g.scores


def test_export_egn_one_game(bower, filled_db, variant_logs, tmp_path):
    x = variant_logs[("classic", "cards")]
    rc, out, err = bower("export", "-f", "egn", x.ref, "--db", filled_db)
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["fileType"] == "Euchre Game Notation" and doc["metadata"]["gameId"] == x.ref
    assert egn.rules.final_score(doc) == doc["metadata"]["finalScore"] == x.game.scores[:2]
    f = tmp_path / "game.egn"
    assert bower("export", "-f", "EGN", x.gid, "-o", f, "--db", filled_db)[0] == 0
    assert json.loads(f.read_text()) == doc


def test_export_egn_refuses_what_it_cannot_express(bower, filled_db, variant_logs):
    x = variant_logs[("five", "cards")]
    rc, out, err = bower("export", "-f", "egn", x.ref, "--db", filled_db)
    assert rc == 1 and out == ""
    assert f"({x.ref}) cannot be written as EGN: EGN cannot express Five-Handed Euchre" in err


def test_export_egn_all_games_to_a_directory(bower, filled_db, variant_logs, tmp_path):
    rc, out, err = bower("export", "-f", "egn", "--table-results", "--db", filled_db)
    assert rc == 1 and "one game per file" in err
    d = tmp_path / "egn"
    # -o must name a directory that exists: no surprise directory out.egn.
    rc, out, err = bower("export", "-f", "egn", "--table-results", "-o", d, "--db", filled_db)
    assert rc == 1 and "-o must name an existing directory" in err and len(err.splitlines()) == 1
    assert not d.exists()
    d.mkdir()
    rc, out, err = bower("export", "-f", "egn", "--table-results", "-o", d, "--db", filled_db)
    assert rc == 0, err
    classic = [x for (v, _), x in variant_logs.items() if v == "classic"]
    assert sorted(p.name for p in d.iterdir()) == sorted(f"{DEV}-{x.gid}.egn" for x in classic)
    assert err.count("skipped") == len(variant_logs) - len(classic)
    for x in classic:
        doc = json.loads((d / f"{DEV}-{x.gid}.egn").read_text())
        assert doc["metadata"]["finalScore"] == x.game.scores[:2]


def test_export_bad_format(bower, filled_db):
    rc, _, err = bower("export", "--format", "xml", "--db", filled_db)
    assert rc == 1 and "unknown export format 'xml'" in err and "csv, json, egn" in err


# ----- stats ----------------------------------------------------------------------------

@pytest.fixture
def tiny_db(db_path, kit):
    """Two Classic games to 5 and one Five-Handed hand, scripted (table mode)."""
    a = kit.scripted_game("classic", [
        "up H", "order alone", "tricks 5",          # Bob alone, marches: Bob & Di 4
        "up S", "order", "tricks 2",                # Cy orders, euchred: Bob & Di 6, they win
    ], winning_score=5)
    b = kit.scripted_game("classic", [
        "up C", "pass", "order", "tricks 5",        # Cy orders and marches: Ann & Cy 2
        "up D", "pass", "pass", "pass", "pass",     # everybody passes twice: thrown in
        "pass", "pass", "pass", "pass",
        "up H", "order", "tricks 3",                # Di orders and makes it: Bob & Di 1
    ], winning_score=5)
    c = kit.scripted_game("five", [
        "up H", "pass", "order", "partner AH",      # Cy orders hearts, calls the ace
        "reveal 4", "won 2", "won 2", "won 4", "won 1", "won 2",   # Eve has it; they take 4
    ])
    assert a.result and not b.result and c.scores == [0, 0, 1, 0, 1]
    with Library(db_path) as lib:
        for i, g in enumerate((a, b, c)):
            assert lib.add_log(kit.log_bytes(g, f"t{i}"), DEV, "t.log").status == "new"
    return db_path


def _stats(bower, db, *args):
    # --unfinished: these figures count the game still going (test_hostile.py
    # checks that without it only finished games count).
    rc, out, err = bower("stats", "--format", "json", "--unfinished", "--db", db, *args)
    assert rc == 0, err
    return {(r["player"], r["variant"]): r for r in json.loads(out)}


def test_stats_on_a_tiny_dataset(bower, tiny_db):
    st = _stats(bower, tiny_db, "--variant", "classic")
    keys = ("games", "wins", "hands", "points", "points_per_hand", "called", "made", "euchred", "alone",
            "alone_marches", "marches")
    expect = {
        "Ann": (2, 0, 4, 2, 0.5, 0, 0, 0, 0, 0, 0),
        "Bob": (2, 1, 4, 7, 1.75, 1, 1, 0, 1, 1, 1),
        "Cy": (2, 0, 4, 2, 0.5, 2, 1, 1, 0, 0, 1),
        "Di": (2, 1, 4, 7, 1.75, 1, 1, 0, 0, 0, 0),
    }
    assert {p: tuple(st[(p, "classic")][k] for k in keys) for p in expect} == expect
    assert len(st) == 4
    five = _stats(bower, tiny_db, "--variant", "5")          # aliases work
    assert set(five) == {(p, "five") for p in ("Ann", "Bob", "Cy", "Di", "Eve")}
    assert (five[("Cy", "five")]["called"], five[("Cy", "five")]["made"], five[("Cy", "five")]["points"]) == (1, 1, 1)
    assert five[("Eve", "five")]["points"] == 1 and five[("Eve", "five")]["called"] == 0
    assert len(_stats(bower, tiny_db)) == 9


def test_stats_table_and_csv(bower, tiny_db):
    rc, out, _ = bower("stats", "--unfinished", "--db", tiny_db)
    assert rc == 0
    bob = next(ln for ln in out.splitlines() if ln.startswith("Bob") and "Classic" in ln).split()
    assert bob[3:] == ["2", "1", "4", "7", "1.75", "1", "1", "0", "1", "1", "1"]
    rc, out, _ = bower("stats", "--format", "csv", "--variant", "classic", "--unfinished", "--db", tiny_db)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and [r["player"] for r in rows] == ["Ann", "Bob", "Cy", "Di"] and rows[1]["wins"] == "1"


def test_stats_errors(bower, tiny_db):
    rc, _, err = bower("stats", "--variant", "hearts", "--db", tiny_db)
    assert rc == 1 and "unknown variant 'hearts'" in err
    rc, _, err = bower("stats", "--variant", "ultimate", "--db", tiny_db)
    assert rc == 1 and "no Ultimate Euchre games" in err
    rc, _, err = bower("stats", "--format", "xml", "--db", tiny_db)
    assert rc == 1 and "unknown stats format" in err


# ----- plot ---------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [("classic", "cards"), ("five", "table")])
def test_plot_writes_a_png(bower, filled_db, variant_logs, tmp_path, key):
    from PIL import Image
    x = variant_logs[key]
    png = tmp_path / "chart.png"
    rc, out, err = bower("plot", x.ref, "-o", png, "--db", filled_db)
    assert rc == 0, err
    with Image.open(png) as im:
        assert im.format == "PNG" and im.size == (800, 450)
        colours = im.convert("RGB").getcolors(1 << 16)
    assert len(colours) > 20          # lines, markers, text: not a blank canvas


def test_plot_game_in_progress_and_default_name(bower, db_path, kit, tmp_path, monkeypatch):
    from PIL import Image
    g = kit.table_game("classic", 3, max_events=20)
    assert not g.result
    with Library(db_path) as lib:
        gid = lib.add_log(kit.log_bytes(g, "p1"), DEV, "p1.log").game_id
    monkeypatch.chdir(tmp_path)
    rc, _, err = bower("plot", "p1", "--db", db_path)
    assert rc == 0, err
    with Image.open(tmp_path / f"bower-{gid}.png") as im:
        assert im.size == (800, 450)
    rc, _, err = bower("plot", "p1", "-o", tmp_path / "no" / "such" / "dir.png", "--db", db_path)
    assert rc == 1 and "does not exist" in err and "dir.png" in err


def test_five_handed_quick_entry_is_stored_and_exported(bower, db_path, kit, tmp_path):
    # The device's quick entry (makers' count, partner, who took no trick)
    # is stored with the side's count and only the real scorers' points.
    g = kit.scripted_game("five", [
        "up H", "pass", "order", "partner AH",      # Cy orders hearts, calls the ace
        "tricks 4", "reveal 4", "notrick 4",        # Eve had it; they took 4, all by Cy
    ])
    assert g.scores == [0, 0, 1, 0, 0]
    with Library(db_path) as lib:
        assert lib.add_log(kit.log_bytes(g, "q1"), kit.DEVICE, "q1.log").status == "new"
    rc, out, err = bower("show", "q1", "--db", db_path)
    assert rc == 0, err
    row = [ln.split() for ln in out.splitlines() if ln.strip()[:1] == "1"][0]
    assert "Cy" in row and "Eve" in row and "4/5" in row
    out_file = tmp_path / "q.csv"
    assert bower("export", "--format", "csv", "-o", out_file, "--db", db_path)[0] == 0
    [r] = list(csv.DictReader(io.StringIO(out_file.read_text())))
    assert (r["maker_tricks"], r["seat2_points"], r["seat4_points"], r["seat4_tricks"]) == ("4", "1", "0", "0")


def test_read_commands_never_create_a_library(bower, tmp_path):
    # A mistyped --db: the same clear error, and no new file or folder.
    missing = tmp_path / "typo" / "bower.sqlite3"
    for args in (["games"], ["stats"], ["export"]):
        rc, out, err = bower(*args, "--db", missing)
        assert rc == 1 and "is empty" in err and "--db" in err and "Traceback" not in err
    assert not (tmp_path / "typo").exists()
