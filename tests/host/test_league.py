"""`bower league ...` as an organiser runs it, on SQLite and on a real PostgreSQL.

Club libraries are real: nights made with `bower club`'s functions, every
round played by the bots and attached through the library's gate
(leaguenights.py). The standings are checked against an independent
recount of the libraries' round results, and the two engines against each
other.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from hostile import bower
from leaguenights import DAY, NAMES, T0, club_library, recount
from bower_host.club import attach as ca
from bower_host.club import night as cn
from bower_host.club.roundlog import round_header
from bower_host.club.simulate import bot_round
from bower_host.db import Library


@pytest.fixture(params=["sqlite", "postgresql"])
def league(request, tmp_path):
    """A league database's spec, made with `bower league new`."""
    if request.param == "sqlite":
        spec = str(tmp_path / "league.sqlite3")
    else:
        spec = request.getfixturevalue("pg_url")
    rc, out, _ = bower("league", "new", "North Shore", "--db", spec)
    assert rc == 0 and "North Shore" in out
    return spec


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """Two clubs' libraries: Elks with three nights (8 and 12 players),
    Moose with one (4 players, whose names Elks also has)."""
    d = tmp_path_factory.mktemp("clubs")
    elks = club_library(d / "elks.sqlite3", [("n1", NAMES[:8], T0), ("n2", NAMES[:8], T0 + 7 * DAY),
                                             ("n3", NAMES[:12], T0 + 14 * DAY)])
    moose = club_library(d / "moose.sqlite3", [("m1", NAMES[:4], T0 + DAY)], seed=9)
    return elks, moose


def token_of(out: str) -> str:
    return out.strip().splitlines()[-1]


def standings(spec, *extra) -> dict:
    rc, out, err = bower("league", "standings", "--db", spec, "--format", "json", *extra)
    assert rc == 0, err
    return json.loads(out)


def by_player(st: dict) -> dict:
    clubs = {"Elks": 0, "Moose": 1}
    return {(clubs[r["club"]], r["player"]): [r["points"], r["nights"], r["won"]] for r in st["players"]}


def push_both(spec, libraries):
    elks, moose = libraries
    for name in ("Elks", "Moose"):
        assert bower("league", "club", "add", name, "--db", spec)[0] == 0
    rc, out, _ = bower("league", "push", elks, "--db", spec, "--club", "Elks")
    assert rc == 0 and "3 nights pushed: 3 new" in out
    rc, out, _ = bower("league", "push", moose, "--db", spec, "--club", "Moose")
    assert rc == 0 and "1 nights pushed: 1 new" in out


def test_pushed_nights_give_the_recounted_standings_and_a_push_again_stores_nothing(league, libraries):
    push_both(league, libraries)
    st = standings(league)
    assert by_player(st) == recount(*libraries)
    assert st["season"]["nights"] == 4
    # The same name at two clubs is two players.
    assert {r["club"] for r in st["players"] if r["player"] == "Ann"} == {"Elks", "Moose"}
    # Places: best score first, equals share a place.
    scores = [int(r["score"]) for r in st["players"]]
    assert scores == sorted(scores, reverse=True) and st["players"][0]["place"] == 1
    rc, out, _ = bower("league", "push", libraries[0], "--db", league, "--club", "Elks")
    assert rc == 0 and "0 new, 0 amended, 3 already held" in out
    assert standings(league) == st


def test_an_amended_night_replaces_its_earlier_version_and_the_standings_say_so(league, libraries, tmp_path):
    elks = tmp_path / "elks.sqlite3"
    elks.write_bytes(libraries[0].read_bytes())
    assert bower("league", "club", "add", "Elks", "--db", league)[0] == 0
    assert bower("league", "push", elks, "--db", league)[0] == 0      # the only club: no --club needed
    before = standings(league)
    # The organiser puts right round 1 of table 1 of n2 (another log, --replace).
    with Library(elks) as lib:
        night = cn.load_night(lib, "n2")
        club = round_header(night.key, 1, 1, night.hands, night.minutes, night.scoring)
        names = [night.name_of(p) for p in night.seating(1).tables[0]]
        raw = bot_round(club, names, 77, device="spare01", key="n2-fix", started=T0 + 7 * DAY, hands=night.hands)
        ca.attach_file(lib, raw, "fix.log", replace=True, clock=lambda: T0 + 7 * DAY)
    rc, out, _ = bower("league", "push", elks, "--db", league)
    assert rc == 0 and "night n2: amended at the club, stored as version 2" in out
    assert "1 amended, 2 already held" in out
    after = standings(league)
    assert by_player(after) == recount(elks) != by_player(before)
    assert [(a["night"], a["version"]) for a in after["amended"]] == [("n2", 2)]
    rc, text, _ = bower("league", "standings", "--db", league)
    assert "night n2 of Elks was amended at the club: version 2" in text


def test_both_engines_give_identical_standings(tmp_path, pg_url, libraries):
    specs = [str(tmp_path / "league.sqlite3"), pg_url]
    docs = []
    for spec in specs:
        assert bower("league", "new", "North Shore", "--db", spec)[0] == 0
        push_both(spec, libraries)
        assert bower("league", "season", "new", "autumn", "--db", spec, "--from", "2025-11-01", "--to",
                     "2025-12-05", "--rule", "best", "--best", "1", "--min-nights", "2")[0] == 0
        docs.append([standings(spec), standings(spec, "--season", "autumn"),
                     bower("league", "standings", "--db", spec, "--format", "csv")[1]])
    assert docs[0] == docs[1]


def _night_rows(spec_libs) -> dict:
    """``{(club, name): [(points, place)]}`` per night, from the libraries."""
    from bower_host.club import standings as cs
    out: dict = {}
    for ci, (path, since, until) in enumerate(spec_libs):
        with Library(path) as lib:
            for row in cn.nights(lib):
                night = cn.load_night(lib, row["key"])
                if since <= night.created < until:
                    for r in cs.standings(night):
                        out.setdefault((ci, r["player"]), []).append((r["points"], r["place"], r["won"]))
    return out


@pytest.mark.parametrize("rule, extra", [("total", []), ("average", []), ("best", ["--best", "2"]),
                                         ("places", [])])
def test_a_season_ranks_by_its_rule_and_places_only_players_with_enough_nights(league, libraries, rule, extra):
    push_both(league, libraries)
    rc, out, err = bower("league", "season", "new", "s", "--db", league, "--from", "2025-11-24", "--to",
                         "2025-12-08", "--rule", rule, *extra, "--min-nights", "2")
    assert rc == 0, err
    st = standings(league, "--season", "s")
    assert st["season"]["nights"] == 3         # n1, m1, n2 (n3 is on 12-08: the day --to names is not in it)
    nights = _night_rows([(libraries[0], T0, T0 + 14 * DAY), (libraries[1], T0, T0 + 14 * DAY)])
    want = {}
    for (ci, name), ns in nights.items():
        pts = [p for p, _, _ in ns]
        score = {"total": sum(pts), "average": sum(pts) / len(pts), "best": sum(sorted(pts)[-2:]),
                 "places": sum(max(0, 6 - place) for _, place, _ in ns)}[rule]
        want[(ci, name)] = (round(score, 2), len(ns))
    clubs = {"Elks": 0, "Moose": 1}
    got = {(clubs[r["club"]], r["player"]): (float(r["score"]), r["nights"]) for r in st["players"]}
    assert got == want
    placed = [r for r in st["players"] if r["place"] is not None]
    assert all(r["nights"] >= 2 for r in placed)
    assert all(r["place"] is None for r in st["players"] if r["nights"] < 2)
    assert st["players"][:len(placed)] == placed        # the unplaced listed after
    keys = [(float(r["score"]), r["won"], r["loners"], r["euchres"]) for r in placed]
    assert keys == sorted(keys, reverse=True)
    for a, b in zip(placed, placed[1:]):
        same = (a["score"], a["won"], a["loners"], a["euchres"]) == (b["score"], b["won"], b["loners"], b["euchres"])
        assert (a["place"] == b["place"]) == same


def test_a_rename_keeps_the_players_nights_and_a_merge_joins_two_names_logged(league, libraries, tmp_path):
    push_both(league, libraries)
    before = {(r["club"], r["player"]): r for r in standings(league)["players"]}
    assert bower("league", "player", "rename", "--db", league, "--club", "Elks", "Ann", "Annie")[0] == 0
    after = {(r["club"], r["player"]): r for r in standings(league)["players"]}
    assert ("Elks", "Ann") not in after and after[("Elks", "Annie")]["points"] == before[("Elks", "Ann")]["points"]
    # The club's library still says Ann: a push again is the same nights, the same player.
    rc, out, _ = bower("league", "push", libraries[0], "--db", league, "--club", "Elks")
    assert "3 already held" in out
    # Two people who played the same night cannot be merged.
    rc, _, err = bower("league", "player", "merge", "--db", league, "--club", "Elks", "Ivy", "Annie")
    assert rc == 1 and "both played night n3" in err
    # A new night where Bo (a typo for Bob) played: merged into Bob.
    extra = tmp_path / "typo.sqlite3"
    club_library(extra, [("n9", ["Bo", "Cy", "Di", "Ed"], T0 + 30 * DAY)], seed=3)
    assert bower("league", "push", extra, "--db", league, "--club", "Elks")[0] == 0
    bob = {(r["club"], r["player"]): r for r in standings(league)["players"]}[("Elks", "Bob")]
    bo = {(r["club"], r["player"]): r for r in standings(league)["players"]}[("Elks", "Bo")]
    assert bower("league", "player", "merge", "--db", league, "--club", "Elks", "Bo", "Bob")[0] == 0
    merged = {(r["club"], r["player"]): r for r in standings(league)["players"]}
    assert ("Elks", "Bo") not in merged
    assert merged[("Elks", "Bob")]["points"] == bob["points"] + bo["points"]
    assert merged[("Elks", "Bob")]["nights"] == bob["nights"] + 1
    rc, out, _ = bower("league", "player", "log", "--db", league)
    assert "Elks: rename Ann -> Annie" in out and "Elks: merge Bo -> Bob" in out


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_commands_aimed_at_a_club_library_refuse_and_leave_it_as_it_was(libraries, tmp_path):
    lib = tmp_path / "club.sqlite3"
    lib.write_bytes(libraries[0].read_bytes())
    before = _digest(lib)
    for args in (["new", "X", "--db", lib], ["push", lib, "--db", lib], ["standings", "--db", lib],
                 ["club", "add", "Elks", "--db", lib]):
        rc, _, err = bower("league", *args)
        assert rc == 1 and "is not a league database" in err, (args, err)
    assert _digest(lib) == before
    league = tmp_path / "league.sqlite3"
    assert bower("league", "new", "L", "--db", league)[0] == 0
    rc, _, err = bower("league", "new", "L2", "--db", league)
    assert rc == 1 and "already holds the league 'L'" in err
    # Standings written over the club library or the league itself: refused.
    for target in (lib, league):
        rc, _, err = bower("league", "standings", "--db", league, "-o", target)
        assert rc == 1 and "SQLite database" in err or "which this command reads" in err
    assert _digest(lib) == before
    out = tmp_path / "st.csv"
    assert bower("league", "standings", "--db", league, "--format", "csv", "-o", out)[0] == 0
    assert out.read_text().startswith("place,player,club")


def test_push_needs_one_destination_and_a_league_says_which_club(libraries, tmp_path):
    league = str(tmp_path / "league.sqlite3")
    assert bower("league", "new", "L", "--db", league)[0] == 0
    rc, _, err = bower("league", "push", libraries[0], "--db", league)
    assert rc == 1 and "no club yet" in err
    for name in ("Elks", "Moose"):
        bower("league", "club", "add", name, "--db", league)
    rc, _, err = bower("league", "push", libraries[0], "--db", league)
    assert rc == 1 and "say which with --club" in err
    rc, _, err = bower("league", "push", libraries[0])
    assert rc == 1 and "say where to push" in err
    rc, _, err = bower("league", "push", libraries[0], "--to", "http://127.0.0.1:9/")
    assert rc == 1 and "--token" in err
    rc, _, err = bower("league", "push", libraries[0], "--db", league, "--club", "Nobody")
    assert rc == 1 and "no club 'Nobody'" in err
    rc, _, err = bower("league", "standings", "--db", league, "--season", "nope")
    assert rc == 1 and "no season 'nope'" in err
    rc, _, err = bower("league", "standings", "--db", str(tmp_path / "missing.sqlite3"))
    assert rc == 1 and "no league database" in err
    rc, _, err = bower("league", "season", "new", "s", "--db", league, "--from", "2026-01-01", "--to", "2025-01-01")
    assert rc == 1 and "ends after it starts" in err
    rc, _, err = bower("league", "season", "new", "s", "--db", league, "--from", "2026-01-01", "--to", "2027-01-01",
                       "--rule", "best")
    assert rc == 1 and "--best N" in err
    # Nothing of that was stored.
    assert standings(league)["players"] == []


def test_a_night_still_being_played_is_not_pushed(tmp_path):
    from leaguenights import play_night
    path = tmp_path / "club.sqlite3"
    with Library(path, clock=lambda: T0) as lib:
        play_night(lib, "done", NAMES[:4], T0)
        play_night(lib, "live", NAMES[:4], T0 + DAY, finish=False)
    league = str(tmp_path / "league.sqlite3")
    bower("league", "new", "L", "--db", league)
    bower("league", "club", "add", "Elks", "--db", league)
    rc, out, _ = bower("league", "push", path, "--db", league)
    assert rc == 0 and "night live: not pushed, round 2 of 2 is not complete yet" in out
    assert "1 nights pushed: 1 new" in out
    assert standings(league)["season"]["nights"] == 1


def test_a_league_from_a_newer_bower_or_missing_a_table_is_refused_untouched(league):
    from bower_host.league.sqldb import open_db
    db = open_db(league)
    db.run("UPDATE league_meta SET value = '99' WHERE key = 'schema'")
    db.close()
    rc, _, err = bower("league", "standings", "--db", league)
    assert rc == 1 and "version 99, from a newer bower" in err
    db = open_db(league)
    assert db.value("SELECT value FROM league_meta WHERE key = 'schema'") == "99"
    db.run("UPDATE league_meta SET value = '1' WHERE key = 'schema'")
    db.run("DROP TABLE identity_log")
    db.close()
    rc, _, err = bower("league", "club", "add", "Elks", "--db", league)
    assert rc == 1 and "damaged (no table identity_log)" in err


@pytest.mark.parametrize("value, status, says", [
    ("", 2, "--db is empty"), ("lib\0.sqlite3", 2, "NUL character"), ("lib\n.sqlite3", 2, "control character"),
    ("shelf/", 2, "ends in '/'"), (".", 1, "is a directory: give the league database's file"),
    ("notes.txt", 1, "is not an SQLite database (nor a postgresql:// URL)"),
    ("postgresql://bower@/x?host=/nonexistent/socket", 1, "cannot reach the league database"),
    ("postgresql://bower:secret@/x?host=/nonexistent/socket", 1, "bower:***@"),
    ("postgresql://bower@/x\n", 2, "control character"),
    ("postgresql://[", 1, "postgresql://["),
])
def test_a_bad_league_db_is_one_line(tmp_path, monkeypatch, value, status, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("not a database\n")
    for cmd in (["standings"], ["club", "add", "Elks"], ["season", "list"], ["serve", "--port", "0"]):
        out, err = __import__("io").StringIO(), __import__("io").StringIO()
        import contextlib

        from bower_host.cli import main
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(["league", *cmd, "--db", value])
            except SystemExit as e:
                rc = e.code
        e = err.getvalue()
        assert rc == status and e.count("\n") == 1 and says in e and "secret" not in e, (cmd, rc, e)
        assert "Traceback" not in e
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]       # nothing made
