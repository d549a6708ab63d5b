"""``bower stats``: per player by variant, the library's games added up.

Games, wins, points per hand, makes, euchres, alone attempts and marches
(:func:`compute_stats`), as a table, CSV or JSON.
"""

from __future__ import annotations



from bower_host.db import Library


STAT_FORMATS = ("table", "csv", "json")

STAT_KEYS = ("games", "wins", "hands", "points", "called", "made", "euchred", "alone", "alone_marches", "marches")


def compute_stats(lib: Library, variant: str | None = None, unfinished: bool = False) -> list[dict]:
    """Per player and variant: games, wins, hands, points, points per hand, and
    as maker: hands called, made (marches included), euchred, alone attempts,
    lone marches, marches. ``hands`` counts scored hands of the player's games.
    Finished games only, unless ``unfinished`` (games abandoned or still going)."""
    table: dict = {}
    for g in lib.games(variant):
        if not (g["finished"] or unfinished):
            continue
        hands = [h for h in lib.hands(g["id"]) if h["result"] == "scored"]
        for seat, name in enumerate(g["players"]):
            st = table.setdefault((name, g["variant"]), dict.fromkeys(STAT_KEYS, 0))
            st["games"] += 1
            if g["finished"] and g["result"] in ("win", "shared") and seat in g["winners"]:
                st["wins"] += 1
            for h in hands:
                st["hands"] += 1
                st["points"] += h["points"][seat]
                if h["maker"] != seat:
                    continue
                st["called"] += 1
                if h["outcome"] in ("made", "march"):
                    st["made"] += 1
                elif h["outcome"] == "euchred":
                    st["euchred"] += 1
                if h["outcome"] == "march":
                    st["marches"] += 1
                if h["alone"]:
                    st["alone"] += 1
                    if h["outcome"] == "march":
                        st["alone_marches"] += 1
    out = []
    for (name, var), st in sorted(table.items(), key=lambda kv: (kv[0][1], kv[0][0].lower())):
        row = {"player": name, "variant": var}
        row.update(st)
        row["points_per_hand"] = round(st["points"] / st["hands"], 3) if st["hands"] else 0.0
        out.append(row)
    return out
