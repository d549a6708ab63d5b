"""The game library commands: ``games``, ``show``, ``export``, ``stats``, ``plot``.

They read the SQLite library (``bower_host.db``; ``--db`` or ``$BOWER_DB``
picks another file) that ``bower sync`` fills. Everything shown comes from
the engine's replay of each game's log, stored per hand: no rules here.

The games as rows, JSON and EGN are :mod:`bower_host.export`, the
statistics :mod:`bower_host.stats`, the chart :mod:`bower_host.plot`; what
the commands share (opening the library, picking a game, tables, writing)
is :mod:`bower_host.gamesview`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Iterator

from euchre import Rules
from euchre.notation import describe_rules, outcome_text
from euchre.rules import variant_data

from bower_host import argtypes as at
from bower_host import csvout, egn
from bower_host.errors import CommandError
from bower_host.export import CSV_COLUMNS, FORMATS, csv_rows, egn_of, game_json
from bower_host.gamesview import (_console, _date, _nonempty, _players_text, _score_text, _seat, _table, _teams, _title,
                                  _write, first_entry, hand_targets, open_library, points_text, resolve, result_text,
                                  sides)
from bower_host.outputs import STDOUT, check_output, check_output_dir, write_output
from bower_host.plot import chart_path, plot_game
from bower_host.progress import Progress
from bower_host.stats import STAT_FORMATS, compute_stats


# ----- games --------------------------------------------------------------------

def cmd_games(args: argparse.Namespace) -> int:
    with open_library(args.db) as lib:
        _nonempty(lib)
        rows = [[g["id"], f"{g['device']}/{g['game_key']}", _date(g["started"]), _title(g["variant"]),
                 "cards" if g["mode"] == "cards" else "table", _players_text(g), result_text(g), g["hands"]]
                for g in lib.games()]
        con = _console()
        # At 80 columns: the ID (what `bower show` takes) always; device/id, mode, hands, date go first.
        con.print(_table(con, ["ID", "Game", "Date", "Variant", "Mode", "Players", "Result", "Hands"], rows,
                         right=("ID", "Hands"), key=("ID",), drop=("Game", "Mode", "Hands", "Date")))
    return 0


# ----- show ---------------------------------------------------------------------

def _alone_text(g, h) -> str:
    parts = []
    if h["alone"]:
        parts.append("alone + best" if h["alone"] == 2 else "alone")
    if h["lone_defender"] is not None:
        parts.append(f"{_seat(g, h['lone_defender'])} defends alone")
    return ", ".join(parts)


def _partner_text(g, h) -> str:
    if h["partner_card"] is None:
        return _seat(g, h["partner"])   # (a quick hand: the partner, no card)
    who = _seat(g, h["partner"]) if h["partner"] is not None else "none"
    return f"{h['partner_card']}: {who}"


def _maker_text(g, h) -> str:
    # The maker; a partnership's quick hand (maker unknown, bower.quick):
    # the side, from its points (made and march score the makers, a
    # euchre the defenders).
    if h["maker"] is not None or h["result"] != "scored" or not _teams(g) or h["outcome"] == "renege":
        return _seat(g, h["maker"])
    for label, seats in sides(g):
        if (h["points"][seats[0]] > 0) == (h["outcome"] != "euchred"):
            return label
    return ""


def _tricks_text(g, h) -> str:
    if h["result"] != "scored":
        return ""
    if h["maker_tricks"] is None:
        return "quick"   # entered as how it ended (bower.quick): no trick count
    size = Rules(g["variant"], g["options"]).hand_size
    if h["outcome"] == "renege":
        return f"{sum(h['tricks'])} played"
    return f"{h['maker_tricks']}/{size}"


def _note(g, h) -> str:
    # How the hand ended, worded from its outcome code (a renege: the seat
    # by name); a hand whose code an old library could not recover
    # (schema.py's _v5): the words stored with it. Then an amendment
    # (euchre.amend) and a hand after an end it moved.
    code = h["outcome_code"]
    if code == "renege" and h["renege"] is not None:
        note = f"renege by {_seat(g, h['renege'])}"
    else:
        note = outcome_text(code) if code else h["reason"]
    if h["amended"]:
        note += f"; amended, first {first_entry(g, h)}"
    if not h["counted"]:
        note += "; after the game's end: not counted"
    return note


def cmd_show(args: argparse.Namespace) -> int:
    with open_library(args.db) as lib:
        g = resolve(lib, args.game)
        hands = lib.hands(g["id"])
    rules = Rules(g["variant"], g["options"])
    con = _console()
    con.print(f"Game {g['id']} ({g['device']}/{g['game_key']}): {rules.title}, {g['mode']} mode, "
              f"started {_date(g['started'])}")
    con.print("Players: " + ", ".join(f"{n} (seat {s})" for s, n in enumerate(g["players"]))
              + f"; first dealer {g['players'][g['first_dealer']]}")
    defaults = variant_data(rules.name)["options"]
    # (an option of euchre.rules' LATER is in the game's options only when on)
    changed = [line for line, k in zip(describe_rules(rules), sorted(rules.options))
               if rules.options[k] != defaults.get(k, False)]
    con.print(f"Rules: to {rules.winning_score}" + ("; " + "; ".join(changed) if changed else "; house options off"))
    score_head = "Score (" + " - ".join(label for label, _ in sides(g)) + ")" if _teams(g) else \
        "Scores (" + " ".join(g["players"]) + ")"
    rows = []
    for h in hands:
        up = h["upcard"] or h["up_suit"] or ""
        if h["upcard"] and h["up_suit"] and h["upcard"][-1] != h["up_suit"]:
            up = f"{h['upcard']} ({h['up_suit']})"
        scores = _score_text(g, h["scores"]) if _teams(g) else " ".join(str(s) for s in h["scores"])
        rows.append([h["number"], _seat(g, h["dealer"]), up, _maker_text(g, h), h["trump"] or "",
                     _alone_text(g, h), _partner_text(g, h), _tricks_text(g, h), points_text(g, h),
                     scores, _note(g, h)])
    cols = ["#", "Dealer", "Up", "Maker", "Trump", "Alone", "Partner", "Tricks", "Points", score_head, "Note"]
    if not rules.call_partner:
        cols.remove("Partner")
        for r in rows:
            del r[6]
    # At 80 columns: the hand, maker, trump, tricks and scores always; the upcard and dealer go first.
    con.print(_table(con, cols, rows, right=("#", "Tricks"), key=("#", "Maker", "Trump", "Tricks", score_head),
                     drop=("Up", "Dealer")))
    con.print(f"Result: {result_text(g)}" + ("" if g["finished"] else f" after {g['hands']} hands"))
    if rules.raise_target:
        targets = hand_targets(rules, hands)
        raised = [f"to {targets[i + 1]} after hand {h['number']}" for i, h in enumerate(hands)
                  if targets[i + 1] != targets[i]]
        con.print("Target raised (two or more reached it together): " + ", ".join(raised) if raised else
                  "Target never raised (nobody reached it together)")
    if g["dropped"]:
        con.print(f"Note: the log's last line was torn and dropped ({g['dropped']})")
    if g.get("damaged"):
        con.print(f"Damaged: stored only up to a corrupt line of the device's log ({g['damaged']}); "
                  f"the whole log is kept in {lib.raw_dir / (g['raw_path'] or '')}", markup=False)
    return 0


# ----- export, stats, plot -------------------------------------------------------

def _each(games: list[dict], bar: Progress) -> Iterator[dict]:
    # The games, counted on a progress bar (a long export shows one on a terminal).
    bar.set("games", "exporting", total=len(games))
    for g in games:
        yield g
        bar.advance("games")


def cmd_export(args: argparse.Namespace) -> int:
    fmt = (args.format or "").lower()
    if fmt not in FORMATS:
        raise CommandError(f"unknown export format {args.format!r}: use one of {', '.join(FORMATS)}")
    _check_target(fmt, args.output, args.db)
    with open_library(args.db) as lib:
        _nonempty(lib)
        if args.games:
            picked = {}
            for ref in args.games:
                g = resolve(lib, ref)
                picked.setdefault(g["id"], g)
            chosen = list(picked.values())
        else:
            chosen = list(reversed(lib.games()))
        if fmt == "csv":
            with Progress() as bar:
                rows = [r for g in _each(chosen, bar) for r in csv_rows(g, lib.hands(g["id"]))]
            _write(csvout.dumps_dicts(CSV_COLUMNS, rows), args.output, args.db)
        elif fmt == "json":
            with Progress() as bar:
                doc = {"format": "bower-library-export", "version": 1,
                       "games": [game_json(g, lib.hands(g["id"])) for g in _each(chosen, bar)]}
            _write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", args.output, args.db)
        else:
            _export_egn(chosen, bool(args.games), args.output, bool(getattr(args, "table_results", False)), args.db)
    return 0


def _check_target(fmt: str, out: str | None, db: str | None) -> None:
    # Refused before the library is read: an output that could hurt (bower_host.outputs).
    if out is None or out == STDOUT:
        return
    if fmt == "egn" and os.path.isdir(out):
        check_output_dir(out, library=db)
    else:
        check_output(out, library=db, stdout=True)


def _export_egn(chosen: list[dict], named: bool, out: str | None, table_results: bool = False,
                db: str | None = None) -> None:
    # EGN holds one game per file: several games go to a directory that exists.
    target = Path(out) if out and out != "-" else None
    if len(chosen) > 1 and target is not None and not target.is_dir():
        raise CommandError(f"EGN holds one game per file and {len(chosen)} games were chosen: -o must name an "
                           f"existing directory (there is no directory {out}); or give one GAME")
    docs = []
    with Progress() as bar:
        for g in _each(chosen, bar):
            try:
                docs.append((g, egn_of(g, table_results)))
            except CommandError as e:
                if named:
                    raise
                print(f"bower: skipped {e}", file=sys.stderr)
    if not docs:
        raise CommandError("none of the games can be written as EGN (it holds Classic Euchre only, "
                           "and table-mode games only with --table-results)")
    if len(docs) == 1 and not (target and target.is_dir()):
        _write(egn.dumps(docs[0][1]), out, db)
        return
    if target is None:
        raise CommandError(f"EGN holds one game per file and {len(docs)} games were chosen: "
                           "give one GAME, or -o DIRECTORY (an existing one) for one .egn file each")
    from bower_host.db import safe_name
    check_output_dir(target, library=db)
    files = [(str(target / f"{safe_name(g['device'])}-{safe_name(g['game_key'])}.egn"), doc) for g, doc in docs]
    for name, _ in files:           # every one checked before any is written
        check_output(name, library=db)
    for name, doc in files:
        write_output(name, egn.dumps(doc), library=db)
    print(f"wrote {len(docs)} EGN file{'s' if len(docs) > 1 else ''} to {target}", file=sys.stderr)
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
def cmd_plot(args: argparse.Namespace) -> int:
    with open_library(args.db) as lib:
        g = resolve(lib, args.game)
        hands = lib.hands(g["id"])
    out = chart_path(args.output, g["id"])
    check_output(out, library=args.db)
    write_output(out, plot_game(g, hands), library=args.db)
    print(f"wrote {out}", file=sys.stderr)
    return 0


# ----- registration ------------------------------------------------------------------

def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def db_opt(p):
        p.add_argument("--db", metavar="FILE", type=at.library_file(),
                       help="the game library (default: $BOWER_DB, else bower.sqlite3 "
                            "in your data directory)")
        return p

    p = db_opt(sub.add_parser("games", help="list the games in the library"))
    p.set_defaults(func=cmd_games)

    p = db_opt(sub.add_parser("show", help="a game hand by hand: dealer, maker, trump, alone, partner, tricks, "
                                          "points, running scores"))
    p.add_argument("game", metavar="GAME", help="the game's number in 'bower games', or device/game id")
    p.set_defaults(func=cmd_show)

    p = db_opt(sub.add_parser("export", help="export games as CSV (a row per hand), JSON or EGN"))
    p.add_argument("--format", "-f", default="csv", metavar="FMT", help="csv (default), json or egn")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output "
                                                          "(EGN with several games: an existing directory)")
    p.add_argument("--table-results", action="store_true",
                   help="EGN: also write table-mode games, whose results then live only in callAnnotations "
                        "(EGN tools strip them and score such deals 0-0)")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to export (default: all)")
    p.set_defaults(func=cmd_export)

    p = db_opt(sub.add_parser("stats", help="per player by variant: games, wins, points per hand, makes, "
                                           "euchres, alone attempts and marches"))
    p.add_argument("--variant", metavar="V", help="only this variant (classic, five, callpartner, ultimate, "
                                                    "three, six, two)")
    p.add_argument("--format", default="table", metavar="FMT", help="table (default), csv or json")
    p.add_argument("--unfinished", action="store_true", help="also count games not played to the end "
                                                             "(abandoned, or still going)")
    p.set_defaults(func=cmd_stats)

    p = db_opt(sub.add_parser("plot", help="chart a game's score progression to an image"))
    p.add_argument("game", metavar="GAME", help="the game's number in 'bower games', or device/game id")
    p.add_argument("-o", "--output", metavar="FILE", help="image file, e.g. chart.png (.png is added to a name "
                                                          "without extension), or a directory to write "
                                                          "bower-<number>.png in (default: that name, here)")
    p.set_defaults(func=cmd_plot)
