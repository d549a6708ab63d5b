"""Standings of a club night, from its complete round results.

Each player scores their side's points in every round they played (as on
paper sheets). Order (host/CLUB.md): total points, then rounds won, then
loners made, then euchres; players equal on all four share the place.
Rounds still in progress do not count; a bye scores nothing.
"""

from __future__ import annotations

import json

from bower_host import csvout
from bower_host.club.movement import SEATS, side_of
from bower_host.club.night import Night
from bower_host.club.roundlog import awaiting

#: A table's round status: counted; played out and waiting for the other
#: side's acceptance; being played; not reported yet.
STATUSES = ("complete", "awaiting", "playing", "waiting")
#: How a status reads on the board and in the standings text.
STATUS_TEXT = {"complete": "complete", "awaiting": "awaiting acceptance", "playing": "playing",
               "waiting": "waiting"}

COLUMNS = ("place", "player", "points", "rounds", "won", "loners", "euchres", "byes")


def sort_key(row: dict) -> tuple:
    """The tie-break order, best first."""
    return (-row["points"], -row["won"], -row["loners"], -row["euchres"])


def standings(night: Night) -> list:
    """One dict per player, best first: place (shared by equals), number,
    player, points, rounds, won, loners, euchres, byes, and per round
    ``by_round`` ({round: points})."""
    rows = {n: {"number": n, "player": name, "points": 0, "rounds": 0, "won": 0, "loners": 0, "euchres": 0,
                "byes": 0, "by_round": {}} for n, name, _ in night.players}
    for (rnd, _t), r in sorted(night.results.items()):
        if not r["complete"]:
            continue
        res = r["result"]
        for seat, name in enumerate(res["players"]):
            n = night.number_of(name)
            row = rows[n]
            row["points"] += res["points"][seat]
            row["rounds"] += 1
            row["won"] += int(res["winner"] == side_of(seat))
            row["loners"] += res["loners"][seat]
            row["euchres"] += res["euchres"][seat]
            row["by_round"][rnd] = res["points"][seat]
    for rnd in range(1, night.rounds + 1):
        s = night.seating(rnd)
        if s is None or not s.byes:
            continue
        if all((night.results.get((rnd, t)) or {}).get("complete") for t in range(1, len(s.tables) + 1)):
            for p in s.byes:
                rows[p]["byes"] += 1
    out = sorted(rows.values(), key=lambda r: (sort_key(r), r["player"]))
    place = 0
    for i, r in enumerate(out):
        if i == 0 or sort_key(r) != sort_key(out[i - 1]):
            place = i + 1
        r["place"] = place
    return out


def prizes(night: Night, count: int = 3) -> list:
    """``[(place, [names])]`` for the first ``count`` places (a shared place
    lists everyone on it and takes the places after it)."""
    out: list = []
    for r in standings(night):
        if r["place"] > count:
            break
        if out and out[-1][0] == r["place"]:
            out[-1][1].append(r["player"])
        else:
            out.append((r["place"], [r["player"]]))
    return out


def table_results(night: Night) -> list:
    """Per round and table: seats, points, hands, status (``STATUSES``:
    "complete", "awaiting" acceptance, "playing", "waiting"), whether the
    result was accepted on the device and corrected after acceptance --
    the round status board."""
    out = []
    for rnd in range(1, night.rounds + 1):
        plan = night.seating(rnd)
        n = len(plan.tables) if plan else night.tables
        tables = []
        for t in range(1, n + 1):
            r = night.results.get((rnd, t))
            if r:
                res = r["result"]
                tables.append({"table": t, "players": dict(zip(SEATS, res["players"])),
                               "points": [res["points"][0], res["points"][1]], "hands": res["hands"],
                               "winner": ("NS", "EW")[res["winner"]] if r["complete"] else None,
                               "status": "complete" if r["complete"] else "awaiting"
                               if awaiting(res, night.hands) else "playing",
                               "accepted": bool(res.get("accepted")), "corrections": res.get("corrections", 0),
                               "game": f"{r['device']}/{r['game_key']}"})
            else:
                seats = plan.tables[t - 1] if plan else None
                tables.append({"table": t, "players": dict(zip(SEATS, [night.name_of(p) for p in seats]))
                               if seats else None, "points": None, "hands": 0, "winner": None,
                               "status": "waiting", "accepted": False, "corrections": 0, "game": None})
        byes = [night.name_of(p) for p in plan.byes] if plan else []
        out.append({"round": rnd, "tables": tables, "byes": byes})
    return out


def results_json(night: Night, corrections: list | None = None) -> dict:
    """Everything the web page and ``--format json`` show."""
    st = standings(night)
    for r in st:
        r["by_round"] = {str(k): v for k, v in sorted(r["by_round"].items())}
    return {
        "night": {"id": night.key, "name": night.name, "tables": night.tables, "rounds": night.rounds,
                  "movement": night.movement, "hands": night.hands, "minutes": night.minutes,
                  "scoring": night.scoring, "current_round": night.current_round(), "complete": night.complete()},
        "tie_breaks": ["points", "rounds won", "loners", "euchres"],
        "standings": st,
        "prizes": [{"place": p, "players": names} for p, names in prizes(night)],
        "rounds": table_results(night),
        "corrections": len(corrections or ()),
    }


def to_csv(night: Night) -> str:
    """The standings as CSV (``bower club standings --format csv`` and the
    page's ``/standings.csv``), through ``csvout``: names that start like a
    spreadsheet formula are written as text."""
    rounds = list(range(1, night.rounds + 1))
    return csvout.dumps(list(COLUMNS) + [f"round {r}" for r in rounds],
                        ([r[c] for c in COLUMNS] + [r["by_round"].get(k, "") for k in rounds]
                         for r in standings(night)))


def to_json(night: Night, corrections: list | None = None) -> str:
    return json.dumps(results_json(night, corrections), indent=1) + "\n"
