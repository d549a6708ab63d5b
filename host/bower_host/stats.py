"""``bower stats``: per player by variant, the library's games added up.

Games, wins, points per hand, makes, euchres, alone attempts and marches
(:func:`compute_stats`), as a table, CSV or JSON.
"""

from __future__ import annotations

import argparse
import json

from euchre import Rules

from bower_host.errors import CommandError
from bower_host.db import Library
from bower_host import csvout
from bower_host.libcommon import _console, _nonempty, _table, _title, _write, open_library


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


def cmd_stats(args: argparse.Namespace) -> int:
    fmt = (args.format or "table").lower()
    if fmt not in STAT_FORMATS:
        raise CommandError(f"unknown stats format {args.format!r}: use one of {', '.join(STAT_FORMATS)}")
    variant = None
    if args.variant:
        try:
            variant = Rules(args.variant).name
        except ValueError as e:
            raise CommandError(str(e)) from e
    with open_library(args.db) as lib:
        _nonempty(lib)
        rows = compute_stats(lib, variant, args.unfinished)
    if not rows:
        what = f"{_title(variant)} " if variant else ""
        raise CommandError(f"no {what}games in the library" + ("" if args.unfinished else
                           " played to the end (--unfinished counts the others too)"))
    if fmt == "json":
        _write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n", None)
    elif fmt == "csv":
        _write(csvout.dumps_dicts(list(rows[0]), rows), None)
    else:
        cols = ["Player", "Variant", "Games", "Wins", "Hands", "Points", "Pts/hand", "Called", "Made",
                "Euchred", "Alone", "Lone marches", "Marches"]
        data = [[r["player"], _title(r["variant"]), r["games"], r["wins"], r["hands"], r["points"],
                 f"{r['points_per_hand']:.2f}", r["called"], r["made"], r["euchred"], r["alone"],
                 r["alone_marches"], r["marches"]] for r in rows]
        con = _console()
        # At 80 columns: player, variant, games, wins, points and points per hand always.
        con.print(_table(con, cols, data, right=cols[2:], key=("Player", "Variant", "Games", "Wins", "Pts/hand"),
                         drop=("Lone marches", "Marches", "Alone", "Euchred", "Hands", "Called", "Made")))
    return 0
