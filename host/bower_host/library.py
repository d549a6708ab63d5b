"""The game library commands: ``games``, ``show``, ``export``, ``stats``, ``plot``.

They read the SQLite library (``bower_host.db``; ``--db`` or ``$BOWER_DB``
picks another file) that ``bower sync`` fills. Everything shown comes from
the engine's replay of each game's log, stored per hand: no rules here.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from euchre import Rules
from euchre.notation import describe_rules, outcome_text
from euchre.rules import variant_data

from bower_host.errors import CommandError
from bower_host.db import Library, LibraryError, replay
from bower_host.progress import Progress
from bower_host import csvout, egn

FORMATS = ("csv", "json", "egn")
STAT_FORMATS = ("table", "csv", "json")
MAX_SEATS = 6             # Six-Handed's seats: the CSV has columns for each


# ----- helpers ----------------------------------------------------------------

def open_library(path: str | os.PathLike | None) -> Library:
    # The read commands' library: an existing one only.
    try:
        return Library(path, create=False)
    except LibraryError as e:
        raise CommandError(str(e)) from e


def _nonempty(lib: Library) -> None:
    if lib.count() == 0:
        raise CommandError(f"the game library {lib.path} is empty: sync a device first (bower sync)")


def resolve(lib: Library, ref: str) -> dict:
    """The one game ``ref`` names (DB id, ``device/game id`` or a game id).

    :raises CommandError: no such game, or several match.
    """
    _nonempty(lib)
    found = lib.find(ref)
    if not found:
        raise CommandError(f"no game {ref!r} in the library: give its number or device/id from 'bower games'")
    if len(found) > 1:
        which = ", ".join(f"{g['id']} ({g['device']}/{g['game_key']})" for g in found)
        raise CommandError(f"{ref!r} names several games: {which}; give the number or device/id")
    return found[0]


def _date(ts) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else "-"


def _iso(ts) -> str | None:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if ts else None


def _variant(variant: str) -> dict:
    # Any variant's data: the device's four and the host's three, six and two
    # (euchre.rules.variant_data); {} for a name the engine does not know.
    try:
        return variant_data(variant)
    except KeyError:
        return {}


def _title(variant: str) -> str:
    return _variant(variant).get("title", variant)


def _teams(g: dict) -> bool:
    return _variant(g["variant"]).get("teams", True)


def sides(g: dict) -> list[tuple[str, list[int]]]:
    """``[(label, seats)]``: the two partnerships (alternate seats: two of
    four, three of six), or each player."""
    p = g["players"]
    if _teams(g) and len(p) in (4, 6):
        return [(" & ".join(p[s] for s in range(k, len(p), 2)), list(range(k, len(p), 2))) for k in (0, 1)]
    return [(name, [s]) for s, name in enumerate(p)]


def _players_text(g: dict) -> str:
    labels = [label for label, _ in sides(g)]
    return " v ".join(labels) if _teams(g) else ", ".join(labels)


def _score_text(g: dict, scores: list) -> str:
    return "-".join(str(scores[seats[0]]) for _, seats in sides(g))


def result_text(g: dict) -> str:
    """``Ann & Cy won 10-8``, ``Eve won with 11``, ``shared: Ann, Eve with 10``,
    ``in progress 6-4``."""
    sd = sides(g)
    sc = g["scores"]
    if not g["finished"]:
        if _teams(g):
            return f"in progress {_score_text(g, sc)}"
        top = max(sc)
        return "in progress, leading: " + ", ".join(label for label, s in sd if sc[s[0]] == top) + f" {top}"
    won = [(label, seats) for label, seats in sd if seats[0] in (g["winners"] or [])]
    names = ", ".join(label for label, _ in won)
    if _teams(g) and len(won) == 1:
        rest = [str(sc[seats[0]]) for _, seats in sd if seats not in [w[1] for w in won]]
        return f"{names} won {sc[won[0][1][0]]}-{'-'.join(rest)}"
    kind = g["result"]
    with_ = f" with {sc[won[0][1][0]]}" if won else ""
    if kind == "win":
        return f"{names} won{with_}"
    return f"{kind}: {names}{with_}"


def _console():
    from rich.console import Console
    tty = sys.stdout.isatty()
    return Console(file=sys.stdout, highlight=False, width=None if tty else 200, soft_wrap=not tty)


def _table(con, columns: list[str], rows: list[list], right=(), key=(), drop=()):
    """A table of ``rows`` (text as it is: no rich markup) for ``con``.

    One line per row when it fits the console. When it does not (an 80-column
    terminal), the columns in ``drop`` go first, in that order, until it fits;
    if it still does not, every column gets a fixed width and wraps, the ones
    in ``key`` (those a user types back, such as the ID ``bower show`` takes,
    and the scores) wide enough for all their cells, only their headings
    wrapping. No cell is ever cut short."""
    from rich import box
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    cells = [["" if v is None else str(v) for v in r] for r in rows]
    cols = list(range(len(columns)))

    def longest(texts, words=False) -> int:
        texts = [w for t in texts for w in t.split()] if words else list(texts)
        return max([cell_len(t) for t in texts] + [1])

    def width(ws) -> int:                       # the columns plus 3 between each two (pad, rule, pad)
        return sum(ws) + 3 * (len(ws) - 1)

    content = {c: longest([r[c] for r in cells]) for c in cols}
    natural = {c: max(content[c], cell_len(columns[c])) for c in cols}
    # Too wide: columns with nothing in them go first, then those in ``drop``.
    empty = [columns[c] for c in cols if columns[c] not in key and not any(r[c] for r in cells)]
    for name in empty + list(drop):
        if width([natural[c] for c in cols]) <= con.width:
            break
        cols = [c for c in cols if columns[c] != name]
    fixed: dict[int, int] = {}
    if width([natural[c] for c in cols]) > con.width:
        # Each column's narrowest: a key column's longest cell, any other's longest word (in a
        # very narrow terminal the other columns go, from the right, till the rest fits); the
        # room left goes a character at a time to the columns still short of their longest
        # cell, then of their heading.
        fixed = {c: max(content[c], longest([columns[c]], words=True)) if columns[c] in key
                 else longest([columns[c]] + [r[c] for r in cells], words=True) for c in cols}
        while width(list(fixed.values())) > con.width and any(columns[c] not in key for c in cols):
            c = [c for c in cols if columns[c] not in key][-1]
            cols.remove(c)
            del fixed[c]
        room = con.width - width(list(fixed.values()))
        for goal in (content, natural):
            while room > 0 and any(fixed[c] < goal[c] for c in cols):
                for c in cols:
                    if room > 0 and fixed[c] < goal[c]:
                        fixed[c] += 1
                        room -= 1
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for c in cols:
        just = "right" if columns[c] in right else "left"
        if fixed:
            t.add_column(Text(columns[c], no_wrap=False, overflow="fold"), justify=just, width=fixed[c],
                         no_wrap=False, overflow="fold")
        else:
            t.add_column(Text(columns[c]), justify=just, no_wrap=True)
    for r in cells:
        t.add_row(*[Text(r[c]) for c in cols])
    return t


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

def _seat(g, s) -> str:
    return g["players"][s] if s is not None and 0 <= s < len(g["players"]) else ""


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


def _points_text(g, h) -> str:
    out = []
    for label, seats in sides(g):
        p = h["points"][seats[0]]
        if p:
            out.append(f"{label} {p:+d}")
    return ", ".join(out)


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
        note += f"; amended, first {_first_entry(g, h)}"
    if not h["counted"]:
        note += "; after the game's end: not counted"
    return note


def _first_entry(g, h) -> str:
    # The hand as first entered, before a device amended it (euchre.amend).
    first = json.loads(h["amended"])
    pts = _points_text(g, dict(h, points=first["points"])) or "no points"
    code = first["outcome_code"]
    if code == "renege" and first["renege"] is not None:
        how = f"renege by {_seat(g, first['renege'])}"
    else:
        how = outcome_text(code)
    return f"{how} ({pts})"


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
    changed = [line for line, k in zip(describe_rules(rules), sorted(rules.options)) if rules.options[k] != defaults[k]]
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
                     _alone_text(g, h), _partner_text(g, h), _tricks_text(g, h), _points_text(g, h),
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
    if g["dropped"]:
        con.print(f"Note: the log's last line was torn and dropped ({g['dropped']})")
    if g.get("damaged"):
        con.print(f"Damaged: stored only up to a corrupt line of the device's log ({g['damaged']}); "
                  f"the whole log is kept in {lib.raw_dir / (g['raw_path'] or '')}", markup=False)
    return 0


# ----- export -------------------------------------------------------------------

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
    target, first dealer and winner on every row, per-seat columns (see
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
    for h in hands:
        row = dict(game)
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
                    "amended": _first_entry(g, h) if h["amended"] else "", "counted": h["counted"]})
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


def _egn_of(g: dict, table_results: bool = False) -> dict:
    try:
        return egn.from_log(g["log"], game_id=f"{g['device']}/{g['game_key']}", table_results=table_results)
    except egn.EgnError as e:
        raise CommandError(f"game {g['id']} ({g['device']}/{g['game_key']}) cannot be written as EGN: {e}") from e


def _write(text: str, out: str | None) -> None:
    if out is None or out == "-":
        sys.stdout.write(text)
        return
    try:
        Path(out).write_text(text, encoding="utf-8", newline="")
    except OSError as e:
        raise CommandError(f"cannot write {out}: {e}") from e


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
            _write(csvout.dumps_dicts(CSV_COLUMNS, rows), args.output)
        elif fmt == "json":
            with Progress() as bar:
                doc = {"format": "bower-library-export", "version": 1,
                       "games": [game_json(g, lib.hands(g["id"])) for g in _each(chosen, bar)]}
            _write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", args.output)
        else:
            _export_egn(chosen, bool(args.games), args.output, bool(getattr(args, "table_results", False)))
    return 0


def _export_egn(chosen: list[dict], named: bool, out: str | None, table_results: bool = False) -> None:
    # EGN holds one game per file: several games go to a directory that exists.
    target = Path(out) if out and out != "-" else None
    if len(chosen) > 1 and target is not None and not target.is_dir():
        raise CommandError(f"EGN holds one game per file and {len(chosen)} games were chosen: -o must name an "
                           f"existing directory (there is no directory {out}); or give one GAME")
    docs = []
    with Progress() as bar:
        for g in _each(chosen, bar):
            try:
                docs.append((g, _egn_of(g, table_results)))
            except CommandError as e:
                if named:
                    raise
                print(f"bower: skipped {e}", file=sys.stderr)
    if not docs:
        raise CommandError("none of the games can be written as EGN (it holds Classic Euchre only, "
                           "and table-mode games only with --table-results)")
    if len(docs) == 1 and not (target and target.is_dir()):
        _write(egn.dumps(docs[0][1]), out)
        return
    if target is None:
        raise CommandError(f"EGN holds one game per file and {len(docs)} games were chosen: "
                           "give one GAME, or -o DIRECTORY (an existing one) for one .egn file each")
    from bower_host.db import safe_name
    for g, doc in docs:
        _write(egn.dumps(doc), str(target / f"{safe_name(g['device'])}-{safe_name(g['game_key'])}.egn"))
    print(f"wrote {len(docs)} EGN files to {target}", file=sys.stderr)


# ----- stats ----------------------------------------------------------------------

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


# ----- plot -----------------------------------------------------------------------

def plot_game(g: dict, hands: list[dict], path: str) -> None:
    """Score progression per side (partnerships) or player, winner marked."""
    from matplotlib.figure import Figure   # the Agg canvas: no display needed
    from matplotlib.ticker import MaxNLocator

    rules = Rules(g["variant"], g["options"])
    fig = Figure(figsize=(8, 4.5), dpi=100)
    ax = fig.add_subplot()
    xs = [0] + [h["number"] for h in hands]
    winners = set(g["winners"] or []) if g["finished"] else set()
    marked: dict = {}
    for label, seats in sides(g):
        # (from the score the game started at: the first hand's less its points)
        ys = [hands[0]["scores"][seats[0]] - hands[0]["points"][seats[0]] if hands else g["scores"][seats[0]]]
        ys += [h["scores"][seats[0]] for h in hands]
        won = bool(winners & set(seats))
        line, = ax.plot(xs, ys, marker="o", markersize=3, linewidth=2.4 if won else 1.5,
                        drawstyle="steps-post", label=label + (" (winner)" if won else ""))
        if won:
            ax.plot([xs[-1]], [ys[-1]], marker="*", markersize=18, color=line.get_color(),
                    markeredgecolor="black", zorder=5)
            marked.setdefault(ys[-1], []).append(label)
    for y, labels in marked.items():
        ax.annotate(f"{', '.join(labels)} {y}", (xs[-1], y), textcoords="offset points",
                    xytext=(-12, 8), ha="right", fontweight="bold")
    ax.axhline(rules.winning_score, color="grey", linestyle="--", linewidth=1,
               label=f"target {rules.winning_score}")
    ax.set_xlabel("hand")
    ax.set_ylabel("score")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    title = f"{rules.title}, {g['device']}/{g['game_key']}"
    if g["started"]:
        title += f", {_date(g['started'])}"
    ax.set_title(f"{title}\n{result_text(g)}")
    fig.tight_layout()
    fig.savefig(path)


def chart_path(output: str | None, game: int) -> Path:
    """The file ``bower plot -o OUTPUT`` writes: ``bower-<game>.png`` in the
    current directory or in OUTPUT when that is a directory; OUTPUT with
    ``.png`` added when it has no extension (as matplotlib would add it)."""
    name = f"bower-{game}.png"
    if not output:
        return Path(name)
    path = Path(output)
    if path.is_dir():
        return path / name
    if output.endswith(("/", os.sep)):
        raise CommandError(f"cannot write the chart: there is no directory {output}")
    return path if path.suffix else path.with_name(path.name + ".png")


def cmd_plot(args: argparse.Namespace) -> int:
    with open_library(args.db) as lib:
        g = resolve(lib, args.game)
        hands = lib.hands(g["id"])
    out = str(chart_path(args.output, g["id"]))
    try:
        plot_game(g, hands, out)
    except (OSError, ValueError) as e:
        raise CommandError(f"cannot write the chart {out}: {e}") from e
    print(f"wrote {out}", file=sys.stderr)
    return 0


# ----- registration ------------------------------------------------------------------

def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def db_opt(p):
        p.add_argument("--db", metavar="FILE", help="the game library (default: $BOWER_DB, else bower.sqlite3 "
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
