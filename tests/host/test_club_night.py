"""Club nights in the library: round logs, idempotent results, corrections,
standings against an independent recomputation, the CLI, and the web app
under a burst of concurrent requests."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import pytest

from euchre import log as elog

from bower_host import cli
from bower_host.club import night as cn
from bower_host.club import attach as ca
from bower_host.club import roundlog as rl
from bower_host.club import standings as cs
from bower_host.club.simulate import bot_round, night_round_logs, scripted_round
from bower_host.db import Library, replay

NAMES12 = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
T0 = 1763700000


@pytest.fixture
def lib(tmp_path):
    with Library(tmp_path / "lib.sqlite3", clock=lambda: T0) as lib:
        yield lib


def make_night(lib, movement="progressive", names=NAMES12, tables=3, rounds=4, **kw):
    kw.setdefault("hands", 8)
    return cn.create_night(lib, "Friday", names, tables, movement, rounds, seed=kw.pop("seed", 5),
                           key=kw.pop("key", "fri"), clock=lambda: T0, **kw)


def club(rnd=1, table=1, hands=8, minutes=None, **scoring):
    s = rl.default_scoring()
    s.update(scoring)
    return rl.round_header("fri", table, rnd, hands, minutes, s)


def seat_names(night, rnd, table):
    return [night.name_of(p) for p in night.seating(rnd).tables[table - 1]]


# ----- the round log ----------------------------------------------------------------

def test_a_round_is_an_ordinary_game_log():
    raw = bot_round(club(), ["Ann", "Bob", "Cy", "Di"], 3, "table01", "r1")
    text = raw.decode()
    header = elog.decode_line(text.splitlines()[0])
    assert header["club"] == {"v": 1, "night": "fri", "table": 1, "round": 1, "hands": 8, "minutes": None,
                              "scoring": {"loner": 4, "set_loner": 2, "renege": 2}}
    game, dropped = elog.loads(text)          # the engine's own replay ignores the club object
    assert dropped is None and game.players == ["Ann", "Bob", "Cy", "Di"] and game.rules.winning_score == 99
    rp = replay(text)
    res = rl.round_result(rp, rl.club_of(rp.header))
    assert res.hands == 8 and res.complete and res.points[0] == res.points[2] and res.points[1] == res.points[3]
    assert res.points[:2] == [sum(h.points[0] for h in res.detail), sum(h.points[1] for h in res.detail)]
    assert res.points[:2] == list(game.scores[:2])     # no loner or renege in this seed: engine points


@pytest.mark.parametrize("bad, why", [
    ({"v": 2}, "format"), ({"night": "a b"}, "night id"), ({"table": 0}, "table"), ({"round": "1"}, "round"),
    ({"hands": None}, "either hands or minutes"), ({"minutes": 20}, "either hands or minutes"),
    ({"hands": 100}, "hands"), ({"scoring": {"loner": 6}}, "loner"), ({"scoring": {"bonus": 1}}, "unknown"),
])
def test_round_header_checked(bad, why):
    obj = club()
    obj.update(bad)
    with pytest.raises(rl.RoundError, match=why):
        rl.check_club(obj)


def test_a_round_must_be_classic_for_four():
    with pytest.raises(rl.RoundError, match="Classic"):
        rl.club_of({"variant": "five", "players": list("ABCDE"), "club": club()})
    assert rl.club_of({"variant": "classic", "players": list("ABCD")}) is None


# Scripted hands (dealer N, so E bids first): a lone march by E, a euchred
# loner (E alone, 2 tricks), a renege by S in a hand N/S made, a plain make.
SPECIAL = ["up H", "order alone", "tricks 5",
           "up S", "order alone", "tricks 2",
           "up C", "pass", "pass", "order", "renege 2",
           "up D", "pass", "pass", "pass", "order", "tricks 3"]


@pytest.mark.parametrize("scoring", [{}, {"loner": 5, "set_loner": 4, "renege": 3}])
def test_club_scoring_options(scoring):
    raw = scripted_round(club(hands=4, **scoring), ["Ann", "Bob", "Cy", "Di"], SPECIAL, "t1", "k1")
    rp = replay(raw.decode())
    res = rl.round_result(rp, rl.club_of(rp.header))
    s = {"loner": 4, "set_loner": 2, "renege": 2}       # the engine's values
    s.update(scoring)
    hands = res.detail
    assert [h.outcome for h in hands] == ["lone_march", "euchred", "renege", "made"]
    # Hand 1: dealer N, E (seat 1) orders alone and marches: E/W + loner.
    assert hands[0].points == [0, s["loner"], 0, s["loner"]] and res.loners == [0, 1, 0, 0]
    # Hand 2: dealer E, S (seat 2) orders alone, takes 2: E/W get the set-loner points.
    assert hands[1].points == [0, s["set_loner"], 0, s["set_loner"]] and res.euchres == [0, 1, 0, 1]
    # Hand 3: dealer S; W and N pass, E orders; S reneges: E/W get the renege.
    assert hands[2].points == [0, s["renege"], 0, s["renege"]]
    # Hand 4: dealer W; N, E, S pass, W orders and makes 3.
    assert hands[3].points == [0, 1, 0, 1]
    total = s["loner"] + s["set_loner"] + s["renege"] + 1
    assert res.points == [0, total, 0, total] and res.winner == 1 and res.complete


def test_hands_and_throw_ins_count_misdeals_do_not():
    events = ["up H", "redeal", "up H", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass",
              "up S", "order", "tricks 3"]
    raw = scripted_round(club(hands=2), ["Ann", "Bob", "Cy", "Di"], events, "t1", "k1")
    rp = replay(raw.decode())
    res = rl.round_result(rp, rl.club_of(rp.header))
    assert res.hands == 2 and res.complete and [h.outcome for h in res.detail] == ["all_passed", "made"]
    short = scripted_round(club(hands=3), ["Ann", "Bob", "Cy", "Di"], events, "t1", "k1")
    rp = replay(short.decode())
    assert not rl.round_result(rp, rl.club_of(rp.header)).complete


def test_round_winner_tie_breaks():
    H = rl.HandResult
    assert rl.winner_of([3, 5, 3, 5], []) == 1
    assert rl.winner_of([4, 4, 4, 4], [H(1, [2, 0, 2, 0], "", None, False), H(2, [0, 2, 0, 2], "", None, False)]) == 1
    assert rl.winner_of([0, 0, 0, 0], []) == 0


# ----- nights and results ---------------------------------------------------------

def test_new_night_checks(lib):
    with pytest.raises(cn.ClubError, match="four players per table"):
        make_night(lib, names=NAMES12[:11])
    with pytest.raises(cn.ClubError, match="listed twice"):
        make_night(lib, names=NAMES12[:11] + ["Ann"])
    with pytest.raises(cn.ClubError, match="1 to 8"):
        make_night(lib, names=NAMES12[:11] + ["Bartholomew"])
    with pytest.raises(cn.ClubError, match="has 13 rounds"):
        make_night(lib, "partners", names=NAMES12[:10] + ["Mo", "Ned", "Oz"], tables=None, rounds=14)
    n = make_night(lib, "partners", names=NAMES12[:10] + ["Mo", "Ned", "Oz"], tables=None, rounds=None, key=None)
    assert (n.tables, n.rounds, len(n.seating(1).byes)) == (3, 13, 1)
    assert n.key.startswith("friday-")


def test_seed_draws_round_one(lib, tmp_path):
    a = make_night(lib, seed=7)
    with Library(tmp_path / "other.sqlite3") as other:
        b = cn.create_night(other, "Friday", NAMES12, 3, "progressive", 4, hands=8, seed=7, key="fri")
        c = cn.create_night(other, "Sat", NAMES12, 3, "progressive", 4, hands=8, key="sat")
    assert a.seating(1) == b.seating(1)
    assert [c.name_of(p) for t in c.seating(1).tables for p in t] == NAMES12    # no seed: as listed


def round_log(night, rnd, table, seed=1, device=None, key=None, **kw):
    return bot_round(rl.round_header(night.key, table, rnd, night.hands, night.minutes, night.scoring),
                     seat_names(night, rnd, table), seed, device or f"table{table:02d}", key or f"fri-r{rnd}",
                     **kw)


def test_same_round_twice_counts_once(lib):
    night = make_night(lib)
    raw = round_log(night, 1, 1)
    a = ca.attach_file(lib, raw, "r1-t1.log")
    b = ca.attach_file(lib, raw, "r1-t1.log")
    assert (a.status, b.status) == ("new", "unchanged")
    night = cn.load_night(lib, "fri")
    assert len(night.results) == 1 and lib.count() == 1
    assert sum(r["rounds"] for r in cs.standings(night)) == 4


def test_same_result_from_another_game_counts_once(lib):
    night = make_night(lib)
    raw = round_log(night, 1, 2, seed=4)
    ca.attach_file(lib, raw, "a.log")
    other = round_log(night, 1, 2, seed=4, device="spare01", key="again")
    assert other != raw
    out = ca.attach_file(lib, other, "b.log")
    assert out.status == "same result" and "counted once" in out.message
    night = cn.load_night(lib, "fri")
    assert night.results[(1, 2)]["device"] == "table02"
    assert sum(r["points"] for r in cs.standings(night)) == 2 * sum(night.results[(1, 2)]["result"]["points"][:2])


def test_conflicting_result_refused_then_replaced_and_logged(lib):
    night = make_night(lib)
    ca.attach_file(lib, round_log(night, 1, 1, seed=1), "a.log")
    other = round_log(night, 1, 1, seed=2, device="spare01", key="x")
    with pytest.raises(cn.ClubConflict) as e:
        ca.attach_file(lib, other, "b.log")
    msg = str(e.value)
    assert "\n" not in msg and "already has a result" in msg and "--replace" in msg
    assert cn.load_night(lib, "fri").results[(1, 1)]["device"] == "table01"
    assert cn.corrections(lib, cn.load_night(lib, "fri")) == []
    out = ca.attach_file(lib, other, "b.log", replace=True)
    assert out.status == "replaced"
    night = cn.load_night(lib, "fri")
    assert night.results[(1, 1)]["device"] == "spare01"
    (c,) = cn.corrections(lib, night)
    assert (c["round"], c["table_no"], c["kind"], c["old_game"], c["new_game"]) == \
        (1, 1, "replaced", "table01/fri-r1", "spare01/x")
    # Replacing with the same log again changes nothing and logs nothing.
    assert ca.attach_file(lib, other, "b.log", replace=True).status == "unchanged"
    assert len(cn.corrections(lib, night)) == 1


def test_a_growing_log_updates_and_only_complete_rounds_count(lib):
    night = make_night(lib)
    full = round_log(night, 1, 1, seed=3).decode()
    lines = full.splitlines(keepends=True)
    partial = "".join(lines[:len(lines) // 2]).encode()
    a = ca.attach_replay(lib, replay(partial.decode()), "table01", "fri-r1", None, "sync")
    assert a.status == "new" and "not counted yet" in a.message
    night = cn.load_night(lib, "fri")
    assert sum(r["points"] for r in cs.standings(night)) == 0
    assert cs.table_results(night)[0]["tables"][0]["status"] == "playing"
    b = ca.attach_replay(lib, replay(full), "table01", "fri-r1", None, "sync")
    assert b.status == "updated"
    night = cn.load_night(lib, "fri")
    assert night.results[(1, 1)]["complete"] and cn.corrections(lib, night) == []   # was never counted
    assert sum(r["rounds"] for r in cs.standings(night)) == 4


def test_player_at_two_tables_refused(lib):
    night = make_night(lib, movement="fixed")
    ca.attach_file(lib, round_log(night, 1, 1), "a.log")
    names = seat_names(night, 1, 2)
    names[0] = seat_names(night, 1, 1)[0]
    raw = bot_round(rl.round_header("fri", 2, 1, 8, None, night.scoring), names, 1, "table02", "k")
    with pytest.raises(cn.ClubConflict, match="already played round 1 at table 1"):
        ca.attach_file(lib, raw, "b.log")


@pytest.mark.parametrize("change, why", [
    (dict(hands=6), "night plays 8 hands"), (dict(loner=5), "night plays"), (dict(table=4), "3 tables"),
    (dict(night="other"), "does not have"),
])
def test_round_must_fit_the_night(lib, change, why):
    night = make_night(lib)
    c = rl.round_header(change.pop("night", "fri"), change.pop("table", 1), 1, change.pop("hands", 8), None,
                        {**night.scoring, **change})
    raw = bot_round(c, seat_names(night, 1, 1), 1, "table01", "k", hands=8)
    with pytest.raises(cn.ClubError, match=why):
        ca.attach_file(lib, raw, "x.log")


def test_not_a_player_refused(lib):
    make_night(lib)
    raw = bot_round(club(), ["Ann", "Bob", "Cy", "Zed"], 1, "table01", "k")
    with pytest.raises(cn.ClubError, match="Zed is not a player"):
        ca.attach_file(lib, raw, "x.log")


def test_minutes_round_counts_when_accepted_handed_in_or_time_is_up(lib):
    night = make_night(lib, hands=None, minutes=20)
    raw = round_log(night, 1, 1, hands=5, started=T0, accept=False)       # time not called on the device
    rp = replay(raw.decode())
    assert rp.header["options"]["round_hands"] == 99
    early = ca.attach_replay(lib, rp, "table01", "fri-r1", None, "sync", clock=lambda: T0 + 600)
    assert "not counted yet" in early.message
    late = ca.attach_replay(lib, rp, "table01", "fri-r1", None, "sync", clock=lambda: T0 + 1200)
    assert late.status == "updated" and cn.load_night(lib, "fri").results[(1, 1)]["complete"]
    assert ca.attach_file(lib, round_log(night, 1, 2, hands=4, started=T0, accept=False), "t2.log",
                          clock=lambda: T0 + 60).message.endswith("counted")          # handed in: time called
    # Accepted between hands on the device (time called there): counts at once, synced early.
    acc = round_log(night, 1, 3, hands=3, started=T0)
    rp = replay(acc.decode())
    assert rp.events[-1] == "accept" and rp.game.counted == 3
    out = ca.attach_replay(lib, rp, "table03", "fri-r1", None, "sync", clock=lambda: T0 + 60)
    assert out.message.endswith("counted") and cn.load_night(lib, "fri").results[(1, 3)]["result"]["accepted"]


def test_sync_hook_attaches_rounds_and_reports_conflicts(lib):
    night = make_night(lib)
    added = lib.add_log(round_log(night, 1, 3), "table03", "fri-r1.log")
    assert "counted" in ca.attach_synced(lib, added)
    assert cn.load_night(lib, "fri").results[(1, 3)]["source"] == "sync"
    clash = lib.add_log(round_log(night, 1, 3, seed=9, device="spare02", key="y"), "spare02", "y.log")
    note = ca.attach_synced(lib, clash)
    assert note.startswith("club round not counted:") and "--replace" in note
    plain = lib.add_log(elog.dumps(__import__("euchre").Game(__import__("euchre").Rules("classic"), list("ABCD")),
                                   extra={"id": "g1", "device": "d1"}).encode(), "d1", "g1.log")
    assert ca.attach_synced(lib, plain) is None
    # collect finds the synced rounds again: nothing new, the clash reported.
    got = dict((m.split(":")[0], s) for s, m in ca.collect(lib))
    assert sorted(got.values()) == ["refused", "unchanged"]


# ----- a whole night against an independent recomputation -------------------------

def play_night(tmp_path, movement, names, tables, rounds, seed=11):
    """Round logs of a whole night, each round played once the one before is in."""
    logs = []
    with Library(tmp_path / f"scratch-{movement}.sqlite3") as scratch:
        night = cn.create_night(scratch, "Friday", names, tables, movement, rounds, hands=6, seed=seed, key="fri",
                                scoring={"loner": 5, "set_loner": 3, "renege": 2})
        for rnd in range(1, rounds + 1):
            night = cn.load_night(scratch, "fri")
            for t, raw in night_round_logs(night, rnd, seed, renege=0.08).items():
                ca.attach_file(scratch, raw, f"r{rnd}-t{t}.log")
                logs.append(raw)
    return logs


def recompute(logs, scoring, names):
    """Standings straight from the logs: the engine's running scores hand by
    hand, the club's values swapped in by each hand's outcome code."""
    tot = defaultdict(lambda: [0, 0, 0, 0])          # points, rounds won, loners, euchres
    for raw in {r: None for r in logs}:              # each log once
        game = None
        text = raw.decode()
        header = elog.decode_line(text.split("\n", 1)[0])
        from euchre.game import game_from_header
        game = game_from_header(header)
        side = [0, 0]
        last = None
        counted = 0
        for line in text.splitlines()[1:]:
            before, hand_no = list(game.scores), game.hand_no
            game.apply(elog.decode_line(line))
            if game.hand_no == hand_no:
                continue
            h = game.last_hand
            if h.outcome == "misdeal" or h.result == 2:
                continue
            counted += 1
            delta = [game.scores[s] - before[s] for s in range(2)]
            who = [1 if d > 0 else -1 if d < 0 else 0 for d in delta]
            if h.outcome == "lone_march":
                delta = [w * scoring["loner"] for w in who]
                tot[game.players[h.maker]][2] += 1
            elif h.outcome == "euchred" and h.alone:
                delta = [w * scoring["set_loner"] for w in who]
            elif h.outcome == "renege":
                delta = [w * (scoring["loner"] if h.alone else scoring["renege"]) for w in who]
            if h.outcome in ("euchred", "defend_euchre"):
                for s in range(4):
                    if s % 2 != h.maker % 2:
                        tot[game.players[s]][3] += 1
            for s in range(2):
                side[s] += delta[s]
            if delta[0] != delta[1]:
                last = 0 if delta[0] > delta[1] else 1
        won = 0 if side[0] > side[1] else 1 if side[1] > side[0] else (last if last is not None else 0)
        for s, name in enumerate(game.players):
            tot[name][0] += side[s % 2]
            tot[name][1] += int(s % 2 == won)
    rows = sorted(((-v[0], -v[1], -v[2], -v[3], name) for name, v in tot.items()))
    out, place = [], 0
    for i, r in enumerate(rows):
        if i == 0 or r[:4] != rows[i - 1][:4]:
            place = i + 1
        out.append((place, r[4], -r[0], -r[1], -r[2], -r[3]))
    for name in names:
        if name not in tot:
            out.append((len(tot) + 1, name, 0, 0, 0, 0))
    return out


@pytest.mark.parametrize("movement, n, tables, rounds", [
    ("progressive", 16, 4, 5), ("fixed", 12, 3, 4), ("partners", 13, None, 5)])
def test_standings_match_an_independent_recomputation(tmp_path, movement, n, tables, rounds):
    names = [f"P{i:02d}" for i in range(n)]
    logs = play_night(tmp_path, movement, names, tables, rounds)
    rng = random.Random(5)
    order = logs + rng.sample(logs, len(logs) // 3)           # some twice
    rng.shuffle(order)
    with Library(tmp_path / "night.sqlite3") as lib:
        cn.create_night(lib, "Friday", names, tables, movement, rounds, hands=6, seed=11, key="fri",
                        scoring={"loner": 5, "set_loner": 3, "renege": 2})
        for i, raw in enumerate(order):
            ca.attach_file(lib, raw, f"{i}.log")
        night = cn.load_night(lib, "fri")
    assert night.complete()
    got = [(r["place"], r["player"], r["points"], r["won"], r["loners"], r["euchres"]) for r in cs.standings(night)]
    want = recompute(logs, night.scoring, names)
    assert sorted(got, key=lambda r: (r[0], r[1])) == sorted(want, key=lambda r: (r[0], r[1]))
    assert len({r[2] for r in got}) > 3, "a night with real spread"
    joined = b"".join(logs)
    assert b'renege ' in joined and b' alone"' in joined, "the night has reneges and lone hands to score"
    if movement == "partners":
        assert sum(r["byes"] for r in cs.standings(night)) == rounds * (n % 4)


# ----- the command line ---------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_night_from_new_to_standings(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "c.sqlite3")
    code, out, _ = run(capsys, "club", "new", "Friday", "--db", db, "--players", *NAMES12[:8], "--tables", "2",
                       "--movement", "progressive", "--hands", "4", "--rounds", "2", "--seed", "3", "--id", "fri")
    assert code == 0 and "Club night fri" in out and "table  1:" in out
    code, out, _ = run(capsys, "club", "sheet", "--db", db)
    assert code == 0 and out.count("TABLE") == 2 and "\f" in out
    seated = re.findall(r"(?:North|East|South|West): +(\w+)", out)
    assert sorted(seated) == sorted(NAMES12[:8]), "every player on one sheet, once"
    code, out, err = run(capsys, "club", "sheet", "--db", db, "--round", "2")
    assert code == 1 and "round 1's results" in err and err.count("\n") == 1
    for rnd in (1, 2):
        assert run(capsys, "club", "simulate", "--db", db, "-o", "logs", "--round", str(rnd))[0] == 0
        code, out, _ = run(capsys, "club", "result", "--db", db, f"logs/r{rnd}-t1.log", f"logs/r{rnd}-t2.log",
                           f"logs/r{rnd}-t1.log")
        assert code == 0 and out.count(": new:") == 2 and out.count(": unchanged:") == 1
    code, out, _ = run(capsys, "club", "standings", "--db", db)
    assert code == 0 and "final standings" in out and "Prizes:" in out
    code, out, _ = run(capsys, "club", "standings", "--db", db, "-f", "json")
    doc = json.loads(out)
    assert doc["night"]["complete"] and len(doc["standings"]) == 8 and doc["tie_breaks"][0] == "points"
    code, out, _ = run(capsys, "club", "standings", "--db", db, "-f", "csv")
    rows = out.splitlines()
    assert rows[0].startswith("place,player,points") and len(rows) == 9
    assert [r.split(",")[1] for r in rows[1:]] == [s["player"] for s in doc["standings"]]
    # A second result for a table: one line, status 1, nothing changed.
    (tmp_path / "logs2").mkdir()
    night = cn.load_night(Library(db), "fri")
    other = bot_round(rl.round_header("fri", 1, 1, 4, None, night.scoring),
                      [p for p in doc["rounds"][0]["tables"][0]["players"].values()], 99, "spare", "zz")
    (tmp_path / "other.log").write_bytes(other)
    code, out, err = run(capsys, "club", "result", "--db", db, "other.log")
    assert code == 1 and "already has a result" in err and "--replace" in err
    code, out, err = run(capsys, "club", "result", "--db", db, "--replace", "other.log")
    assert code == 0 and "REPLACED" in out
    code, out, _ = run(capsys, "club", "standings", "--db", db)
    assert "Corrections (1):" in out
    assert run(capsys, "club", "list", "--db", db)[1].startswith("fri")


# ----- the web app: a burst of concurrent requests ---------------------------------------

@pytest.fixture
def served(tmp_path):
    from clubboard import serving
    logs = play_night(tmp_path, "fixed", NAMES12, 3, 2)
    db = tmp_path / "web.sqlite3"
    with Library(db) as lib:
        cn.create_night(lib, "Friday", NAMES12, 3, "fixed", 3, hands=6, seed=11, key="fri",
                        scoring={"loner": 5, "set_loner": 3, "renege": 2})
        for i, raw in enumerate(logs):
            ca.attach_file(lib, raw, f"{i}.log")
    with serving(db, "fri") as url:
        yield url, db


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read()


def test_web_concurrent_requests_and_live_update(served):
    base, db = served
    with Library(db) as lib:
        want = cs.results_json(cn.load_night(lib, "fri"), [])
    urls = [base + "/", base + "/results.json", base + "/player/1", base + "/standings.csv"] * 25
    with ThreadPoolExecutor(32) as pool:
        got = list(pool.map(get, urls))
    assert all(s == 200 for s, _ in got)
    for (_, body), url in zip(got, urls):
        if url.endswith(".json"):
            assert json.loads(body) == json.loads(json.dumps(want))
    page = got[0][1].decode()
    assert want["standings"][0]["player"] in page and "Round 3" in page
    assert get(base + "/player/1")[1].decode().count("<tr>") >= 3
    with pytest.raises(urllib.error.HTTPError):
        get(base + "/player/99")
    # Round 3 comes in: the next request shows it (the cache follows the file).
    with Library(db) as lib:
        night = cn.load_night(lib, "fri")
        raw = night_round_logs(night, 3, 1)[1]
        ca.attach_file(lib, raw, "r3.log")
    doc = json.loads(get(base + "/results.json")[1])
    assert doc["rounds"][2]["tables"][0]["status"] == "complete"


def test_a_round_synced_from_a_device_counts_for_its_night(tmp_path):
    # bower sync over a real link (pty) stores a table's round log and counts
    # it for its night, saying so in the sync report; a plain game beside it
    # is just a game.
    from hostile import DEVICE, ListedStore, bower, game_log, hostile_device
    dbp = tmp_path / "lib.sqlite3"
    with Library(dbp, clock=lambda: T0) as lib:
        night = make_night(lib)
    raw = round_log(night, 1, 2, device=DEVICE, key="g0001")
    store = ListedStore({"g0001": raw, "g0002": game_log("classic", 3, "g0002")})
    with hostile_device(tmp_path / "flash", store) as dev:
        rc, out, err = bower("sync", "--port", dev.port, "--db", dbp, "--quiet", "--timeout", "0.3")
    assert rc == 0, out + err
    assert "counted" in out and out.count("counted") == 1, out
    with Library(dbp, clock=lambda: T0) as lib:
        results = cn.load_night(lib, "fri").results
    assert list(results) == [(1, 2)] and results[(1, 2)]["source"] == "sync"


# ----- acceptance, the header's club options, corrections on the device ------------

def lines_of(raw: bytes) -> list:
    return raw.decode().splitlines(keepends=True)


def test_a_round_log_plays_with_the_club_options_and_ends_accepted():
    c = club(hands=4, loner=5, set_loner=3, renege=4)
    raw = scripted_round(c, ["Ann", "Bob", "Cy", "Di"], SPECIAL, "t1", "k1")
    rp = replay(raw.decode())
    assert rp.header["options"] == {**rp.header["options"], "winning_score": 99, "round_hands": 4, "lone_march": 5,
                                    "set_loner": 3, "renege_points": 4}
    assert rp.events[-1] == "accept" and rp.game.accepted and rp.game.counted == 4
    # The engine scored the club's values itself: club_points changes nothing.
    assert [h.hand.points[:2] for h in rp.hands] == [[0, 5], [0, 3], [0, 4], [0, 1]]
    res = rl.round_result(rp, rl.club_of(rp.header))
    assert res.points == [0, 13, 0, 13] and res.complete and res.accepted and res.corrections == 0
    assert res.to_json()["accepted"] is True and res.to_json()["corrections"] == 0
    # A round's events that already end in accept get no second one.
    assert scripted_round(c, ["Ann", "Bob", "Cy", "Di"], SPECIAL + ["accept"], "t1", "k1") == raw


def test_a_hands_round_needs_its_hands_and_the_acceptance(lib):
    night = make_night(lib)
    names = seat_names(night, 1, 1)
    c = rl.round_header("fri", 1, 1, 8, None, night.scoring)
    played = bot_round(c, names, 1, "table01", "fri-r1", accept=False)
    rp = replay(played.decode())
    res = rl.round_result(rp, c)
    assert res.hands == 8 and rp.game.result and not res.accepted and not res.complete and res.awaiting
    a = ca.attach_file(lib, played, "r1-t1.log")
    assert a.status == "new" and "awaiting acceptance" in a.message and "not counted yet" in a.message
    night = cn.load_night(lib, "fri")
    assert not night.results[(1, 1)]["complete"] and sum(r["points"] for r in cs.standings(night)) == 0
    t = cs.table_results(night)[0]["tables"][0]
    assert t["status"] == "awaiting" and t["accepted"] is False and t["winner"] is None
    from bower_host.commands.club import standings_text
    assert "(awaiting acceptance)" in standings_text(night, [])
    # The other side accepts on the device; the grown log is synced: counted.
    accepted = bot_round(c, names, 1, "table01", "fri-r1")
    assert accepted.startswith(played) and accepted.endswith(lines_of(accepted)[-1].encode())
    b = ca.attach_file(lib, accepted, "r1-t1.log")
    assert b.status == "updated" and b.message.endswith("updated")
    night = cn.load_night(lib, "fri")
    assert night.results[(1, 1)]["complete"] and cs.table_results(night)[0]["tables"][0]["status"] == "complete"
    assert cn.corrections(lib, night) == []           # it never counted before: no correction


def test_accepted_early_a_hands_round_does_not_count(lib):
    night = make_night(lib)
    c = rl.round_header("fri", 1, 1, 8, None, night.scoring)
    raw = bot_round(c, seat_names(night, 1, 1), 1, "table01", "fri-r1", hands=5)     # accepted between hands
    rp = replay(raw.decode())
    assert rp.events[-1] == "accept" and rp.game.counted == 5
    res = rl.round_result(rp, c)
    assert res.accepted and not res.complete and "accepted after 5 of its 8 hands" in res.why
    assert "not counted: accepted after 5" in ca.attach_file(lib, raw, "x.log").message


def test_a_log_without_round_options_never_counts(lib):
    # An older bower's (or another tool's) round: its options have no
    # round_hands, so it cannot record an acceptance.
    from euchre import Game, Rules
    night = make_night(lib)
    names = seat_names(night, 1, 1)
    g = Game(Rules("classic", {"winning_score": 99}), names, dealer=0)
    for e in bot_round(rl.round_header("fri", 1, 1, 8, None, night.scoring), names, 1, "t", "k",
                       accept=False).decode().splitlines()[1:]:
        g.apply(elog.decode_line(e))
    c = rl.round_header("fri", 1, 1, 8, None, night.scoring)
    raw = elog.dumps(g, extra={"club": c, "id": "old1", "device": "table01"}).encode()
    rp = replay(raw.decode())
    assert "round_hands" not in rp.header["options"] and rl.club_of(rp.header) == c
    res = rl.round_result(rp, c, closed=True)
    assert res.hands == 8 and not res.complete and not res.accepted and "no round_hands" in res.why
    out = ca.attach_file(lib, raw, "old.log")
    assert out.status == "new" and "not counted: its header's options have no round_hands" in out.message
    assert not cn.load_night(lib, "fri").results[(1, 1)]["complete"]


@pytest.mark.parametrize("option, value, field", [
    ("round_hands", 6, "round_hands"), ("round_hands", 99, "round_hands"), ("lone_march", 5, "lone_march"),
    ("set_loner", 4, "set_loner"), ("renege_points", 1, "renege_points")])
def test_header_options_must_agree_with_the_club_object(lib, option, value, field):
    c = club(hands=8)
    header = {"variant": "classic", "players": list("ABCD"), "club": c, "options": rl.round_options(c)}
    assert rl.club_of(header) == c
    header["options"] = {**rl.round_options(c), option: value}
    with pytest.raises(rl.RoundError, match=f"option {field} is {value}"):
        rl.club_of(header)
    # A minutes round plays 99 hands at most; its round_hands must say so.
    m = club(hands=None, minutes=20)
    assert rl.round_options(m)["round_hands"] == 99
    with pytest.raises(rl.RoundError, match="round_hands is 8, but the round is 20 minutes"):
        rl.club_of({"variant": "classic", "players": list("ABCD"), "club": m,
                    "options": {**rl.round_options(m), "round_hands": 8}})
    # And a log that says so is refused by the night in one line.
    make_night(lib)
    g = __import__("euchre").Game(__import__("euchre").Rules("classic", header["options"]), list("ABCD"))
    raw = elog.dumps(g, extra={"club": c, "id": "z", "device": "d"}).encode()
    with pytest.raises(cn.ClubError, match=f"option {field}"):
        ca.attach_file(lib, raw, "z.log")


def corrected_round(night, table=1, rnd=1):
    """A round accepted, then corrected on the device: its last hand undone
    (undo the accept, undo the tricks), the tricks entered again, accepted
    again. Returns (accepted log, corrected log)."""
    c = rl.round_header("fri", table, rnd, night.hands, night.minutes, night.scoring)
    names = seat_names(night, rnd, table)
    for seed in range(1, 100):      # the first seed whose last hand is a trick count
        first = bot_round(c, names, seed, f"table{table:02d}", f"fri-r{rnd}")
        events = [elog.decode_line(x) for x in lines_of(first)[1:]]
        assert events[-1] == "accept" and events[-2].startswith(("tricks", "renege", "pass"))
        last = events[-2]
        if last.startswith("tricks"):
            break
    else:
        raise AssertionError("no seed ends a round on a trick count")
    again = "tricks 0" if last != "tricks 0" else "tricks 1"
    fixed = scripted_round(c, names, events + ["undo", "undo", again, "accept"], f"table{table:02d}",
                           f"fri-r{rnd}")
    assert fixed.startswith(first)
    return first, fixed


def test_records_count_the_acceptances_undone():
    assert rl.undone_accepts(["up H", "accept", "undo", "accept"]) == [1]
    assert rl.undone_accepts(["a", "accept", "undo", "undo", "b", "accept", "undo", "accept"]) == [1, 5]
    assert rl.undone_accepts(["a", "accept"]) == [] and rl.undone_accepts([]) == []


def test_a_correction_after_acceptance_is_logged_once(lib):
    night = make_night(lib)
    first, fixed = corrected_round(night)
    rp = replay(fixed.decode())
    res = rl.round_result(rp, rl.club_of(rp.header))
    assert res.complete and res.accepted and res.corrections == 1
    a = ca.attach_file(lib, first, "r1-t1.log")
    assert a.status == "new" and a.message.endswith("counted")
    old_points = cn.load_night(lib, "fri").results[(1, 1)]["result"]["points"]
    b = ca.attach_file(lib, fixed, "r1-t1.log")
    assert b.status == "updated" and "corrected on the device after acceptance" in b.message
    night = cn.load_night(lib, "fri")
    (c,) = cn.corrections(lib, night)
    assert (c["kind"], c["old_game"], c["new_game"]) == ("device correction", "table01/fri-r1", "table01/fri-r1")
    assert c["old_result"]["points"] == old_points and c["new_result"]["points"] == res.points
    assert c["new_result"]["corrections"] == 1 and night.results[(1, 1)]["result"]["corrections"] == 1
    # The same log again, from the file or a sync: one row still.
    assert ca.attach_file(lib, fixed, "r1-t1.log").status == "unchanged"
    assert ca.attach_synced(lib, lib.add_log(fixed, "table01", "again.log")) is not None
    assert [s for s, _ in ca.collect(lib)] == ["unchanged"]
    assert len(cn.corrections(lib, cn.load_night(lib, "fri"))) == 1
    from bower_host.commands.club import standings_text
    assert "device correction" in standings_text(cn.load_night(lib, "fri"), cn.corrections(lib, night))


def test_a_corrected_log_first_seen_corrected_is_logged_too(lib):
    # The host never saw the first acceptance: the row comes from the log itself.
    night = make_night(lib)
    first, fixed = corrected_round(night, table=2)
    ca.attach_file(lib, fixed, "r1-t2.log")
    ca.attach_file(lib, fixed, "r1-t2.log")
    (c,) = cn.corrections(lib, cn.load_night(lib, "fri"))
    rp = replay(first.decode())
    assert c["kind"] == "device correction" and c["old_result"] == rl.round_result(rp, rl.club_of(rp.header)).to_json()


def test_an_acceptance_undone_mid_correction_is_logged_then_the_correction(lib):
    night = make_night(lib)
    first, fixed = corrected_round(night)
    ca.attach_file(lib, first, "r1-t1.log")
    midway = b"".join(x.encode() for x in lines_of(fixed)[:len(lines_of(first)) + 1])     # accept undone only
    rp = replay(midway.decode())
    assert rp.records[-1] == "undo" and not rp.game.accepted
    m = ca.attach_replay(lib, rp, "table01", "fri-r1", None, "sync")
    assert m.status == "updated" and "acceptance was undone" in m.message
    assert not cn.load_night(lib, "fri").results[(1, 1)]["complete"]
    ca.attach_file(lib, fixed, "r1-t1.log")
    kinds = [c["kind"] for c in cn.corrections(lib, cn.load_night(lib, "fri"))]
    assert kinds == ["acceptance undone", "device correction"]
    assert cn.load_night(lib, "fri").results[(1, 1)]["complete"]
