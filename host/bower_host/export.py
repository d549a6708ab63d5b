"""``bower export``: games as CSV (a row per hand), JSON or EGN.

Everything written comes from the engine's replay of each game's log,
stored per hand (host/EXPORTS.md describes the formats).
"""

from __future__ import annotations

import json

from euchre import Rules

from bower_host.errors import CommandError
from bower_host.db import replay
from bower_host import csvout, egn
from bower_host.gamesview import _iso, _seat, first_entry, hand_targets


FORMATS = ("csv", "json", "egn")

MAX_SEATS = 6             # Six-Handed's seats: the CSV has columns for each

CSV_COLUMNS = (["game", "device", "game_id", "variant", "mode", "rules", "target", "started", "first_dealer",
                "first_dealer_seat", "winner", "winner_seats", "hand", "dealer", "dealer_seat", "upcard", "up_suit",
                "maker", "maker_seat", "trump", "alone", "lone_defender", "lone_defender_seat", "partner_card",
                "partner", "partner_seat", "maker_tricks", "outcome", "result", "reason", "outcome_code",
                "renege", "renege_seat", "amended", "counted"]
               + [f"seat{s}_{k}" for s in range(MAX_SEATS) for k in ("name", "tricks", "points", "score")])

#: A cell safe for a spreadsheet (every CSV is written by ``bower_host.csvout``).
csv_cell = csvout.cell


def _seat_no(s) -> int | str:
    return "" if s is None else s


def csv_rows(g: dict, hands: list[dict]) -> list[dict]:
    """One CSV row per finished hand: players by name and seat, the rule set,
    the target the hand was played to, first dealer and winner on every row, per-seat columns (see
    host/EXPORTS.md). ``csvout`` escapes the text cells against formula injection."""
    rules = Rules(g["variant"], g["options"])
    winners = g["winners"] if g["finished"] and g["winners"] else []
    game = {"game": g["id"], "device": g["device"], "game_id": g["game_key"], "variant": g["variant"],
            "mode": g["mode"], "rules": json.dumps(rules.options, sort_keys=True, separators=(",", ":")),
            "target": rules.winning_score, "started": _iso(g["started"]) or "",
            "first_dealer": _seat(g, g["first_dealer"]), "first_dealer_seat": g["first_dealer"],
            "winner": " & ".join(g["players"][s] for s in winners),
            "winner_seats": " ".join(str(s) for s in winners)}
    out = []
    targets = hand_targets(rules, hands)
    for i, h in enumerate(hands):
        row = dict(game)
        row["target"] = targets[i]
        row.update({"hand": h["number"], "dealer": _seat(g, h["dealer"]), "dealer_seat": h["dealer"],
                    "upcard": h["upcard"] or "", "up_suit": h["up_suit"] or "",
                    "maker": _seat(g, h["maker"]), "maker_seat": _seat_no(h["maker"]), "trump": h["trump"] or "",
                    "alone": h["alone"], "lone_defender": _seat(g, h["lone_defender"]),
                    "lone_defender_seat": _seat_no(h["lone_defender"]), "partner_card": h["partner_card"] or "",
                    "partner": _seat(g, h["partner"]), "partner_seat": _seat_no(h["partner"]),
                    "maker_tricks": "" if h["maker_tricks"] is None else h["maker_tricks"],
                    "outcome": h["outcome"] or "", "result": h["result"], "reason": h["reason"],
                    "outcome_code": h["outcome_code"] or "", "renege": _seat(g, h["renege"]),
                    "renege_seat": _seat_no(h["renege"]),
                    "amended": first_entry(g, h) if h["amended"] else "", "counted": h["counted"]})
        for s in range(MAX_SEATS):
            has = s < len(g["players"])
            row[f"seat{s}_name"] = g["players"][s] if has else ""
            row[f"seat{s}_tricks"] = h["tricks"][s] if has else ""
            row[f"seat{s}_points"] = h["points"][s] if has else ""
            row[f"seat{s}_score"] = h["scores"][s] if has else ""
        out.append(row)
    return out


def game_json(g: dict, hands: list[dict]) -> dict:
    """A game as exported to JSON: its events, so it can be replayed, and its
    log as the device wrote it, so ``bower import`` stores exactly that."""
    rp = replay(g["log"])
    names = g["players"]
    return {
        "id": g["id"], "device": g["device"], "game_id": g["game_key"], "variant": g["variant"],
        "options": g["options"], "mode": g["mode"], "players": names, "first_dealer": g["first_dealer"],
        "started": _iso(g["started"]), "finished": bool(g["finished"]), "result": g["result"],
        "winners": [names[s] for s in g["winners"]] if g["winners"] else [],
        "scores": g["scores"],
        "target": rp.game.target or rp.game.rules.winning_score,   # (Game.target: raise_target's only)
        "initial_scores": list(rp.game.start or [0] * len(names)),
        "hands": [{"number": h["number"], "dealer": h["dealer"], "upcard": h["upcard"], "up_suit": h["up_suit"],
                   "maker": h["maker"], "trump": h["trump"], "alone": h["alone"],
                   "lone_defender": h["lone_defender"], "partner_card": h["partner_card"],
                   "partner": h["partner"], "tricks": h["tricks"], "points": h["points"],
                   "maker_tricks": h["maker_tricks"], "outcome": h["outcome"], "result": h["result"],
                   "reason": h["reason"], "outcome_code": h["outcome_code"], "renege": h["renege"],
                   "scores": h["scores"], "amended": json.loads(h["amended"]) if h["amended"] else None,
                   "counted": bool(h["counted"])} for h in hands],
        "events": rp.events,
        "log": g["log"],
    }


def egn_of(g: dict, table_results: bool = False) -> dict:
    try:
        return egn.from_log(g["log"], game_id=f"{g['device']}/{g['game_key']}", table_results=table_results)
    except egn.cards.EgnError as e:
        raise CommandError(f"game {g['id']} ({g['device']}/{g['game_key']}) cannot be written as EGN: {e}") from e
