"""``bower club ...``: run a progressive euchre night from the library.

::

    bower club new "Friday" --players Ann Bob Cy Di Ed Flo Gus Hal --tables 2 --movement progressive --hands 8 --seed 7
    bower club sheet                      # printable sheets for the current round
    bower club simulate -o logs           # no devices? the bots play the round
    bower club result logs/*.log          # round logs (again: counted once)
    bower club standings --format csv
    bower club serve --port 8080          # live standings for a projector
    bower club push --table 3             # table 3's round to its Bower (bower_host.commands.clubtables)

Every command takes ``--db`` (as the library commands) and ``--night ID``
(default: the newest night). Details in host/CLUB.md.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bower_host import argtypes as at
from bower_host import outputs
from bower_host.club import night as cn
from bower_host.club import attach as ca
from bower_host.club import standings as cs
from bower_host.club.common import add_common_args, open_library, open_night
from bower_host.club.roundlog import MAX_ROUNDS, MAX_TABLES, NIGHT_KEY
from bower_host.db import writer_lock
from bower_host.commands import clubtables
from bower_host.errors import CommandError, printable
from bower_host.inputs import ROSTER_LIMIT, InputError, read_input, utf8_text


def _names(args) -> list:
    names = list(args.players or [])
    if args.roster:
        data = read_input(args.roster, ROSTER_LIMIT, f"the roster {args.roster}")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise CommandError(f"the roster {args.roster} is not a text file of names (byte 0x{e.object[e.start]:02x} "
                               f"at offset {e.start} is not UTF-8 text)") from None
        names += [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not names:
        raise CommandError("no players: give --players NAME ... or --roster FILE (a name per line)")
    return names


def cmd_new(args) -> int:
    names = _names(args)
    seed = args.seed
    if args.shuffle and seed is None:
        seed = int.from_bytes(__import__("os").urandom(3), "big")
    scoring = {"loner": args.loner, "set_loner": args.set_loner, "renege": args.renege}
    try:        # every check before the library (or its lock) is made: a refusal creates nothing
        cn.plan_night(args.name, names, args.tables, args.movement, args.rounds, args.hands, args.minutes, scoring,
                      seed, args.id)
    except cn.ClubError as e:
        raise CommandError(str(e)) from None
    with writer_lock(args.db, "bower club new"), open_library(args.db, create=True) as lib:
        try:
            night = cn.create_night(lib, args.name, names, args.tables, args.movement, args.rounds, args.hands,
                                    args.minutes, scoring, seed, args.id)
        except cn.ClubError as e:
            raise CommandError(str(e)) from None
        from bower_host.club.phones import codes
        codes(lib, night)          # each table's join code for its phone (club.phones)
    byes = f", {len(names) % 4} on a bye each round" if night.movement == "partners" and len(names) % 4 else ""
    print(f"Club night {night.key} ({night.name}): {len(names)} players at {night.tables} tables{byes}, "
          f"{night.rounds} rounds of {night.length()}, {night.movement} movement"
          + (f", round 1 drawn with seed {seed}" if seed is not None else ", round 1 as listed"))
    print(_seating_text(night, 1))
    return 0


def _seating_text(night: cn.Night, rnd: int) -> str:
    plan = night.seating(rnd)
    if plan is None:
        return f"Round {rnd}: seating known once round {rnd - 1} is complete"
    lines = [f"Round {rnd}:"]
    for t, seats in enumerate(plan.tables, 1):
        n = [night.name_of(p) for p in seats]
        lines.append(f"  table {t:>2}: {n[0]} & {n[2]} (N/S) v {n[1]} & {n[3]} (E/W)")
    if plan.byes:
        lines.append("  bye: " + ", ".join(night.name_of(p) for p in plan.byes))
    return "\n".join(lines)


def cmd_list(args) -> int:
    with open_library(args.db) as lib:
        rows = cn.nights(lib)
    if not rows:
        raise CommandError("no club nights in the library: bower club new NAME ...")
    for r in rows:
        length = f"{r['hands']} hands" if r["hands"] else f"{r['minutes']} minutes"
        print(f"{r['key']:<24} {r['name']:<20} {time.strftime('%Y-%m-%d', time.localtime(r['created']))}  "
              f"{r['tables']} tables, {r['rounds']} rounds of {length}, {r['movement']}")
    return 0


def cmd_seating(args) -> int:
    with open_library(args.db) as lib:
        night = open_night(lib, args.night)
    rounds = [_round(night, args.round)] if args.round is not None else range(1, night.rounds + 1)
    print("\n".join(_seating_text(night, r) for r in rounds))
    return 0


def _round(night: cn.Night, rnd: int | None) -> int:
    """Round ``rnd`` of the night (None: the round being played), checked."""
    if rnd is None:
        return night.current_round()
    if not 1 <= rnd <= night.rounds:
        raise CommandError(f"night {night.key} has rounds 1 to {night.rounds}, not {rnd}")
    return rnd


def cmd_sheet(args) -> int:
    from bower_host.club.sheet import sheets
    to_file = None if args.output == outputs.STDOUT else args.output
    if to_file is not None:
        outputs.check_output(to_file, library=args.db, stdout=True)
    from bower_host.club.phones import joins as join_codes
    with open_library(args.db) as lib:
        night = open_night(lib, args.night)
        joins = {t: c for t, (c, _, _) in join_codes(lib, night).items()}
    rnd = _round(night, args.round)
    try:
        text = sheets(night, rnd, joins, args.url)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if to_file is not None:
        outputs.write_output(to_file, text, library=args.db, stdout=True)
        print(f"wrote {to_file}: {text.count(chr(12)) + 1} table sheets for round {rnd}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_result(args) -> int:
    from bower_host.db.sides import run_or_leave_nothing
    return run_or_leave_nothing(args.db, lambda: _result(args))


def _result(args) -> int:
    from bower_host.syncer import MAX_LOG_BYTES      # a round log is a game log
    failed = 0
    with writer_lock(args.db, "bower club result"), open_library(args.db, create=True) as lib:
        for name in args.files:
            try:
                raw = read_input(name, MAX_LOG_BYTES, "it")
                utf8_text(raw, "it")             # (attach_file would say it in Python's words)
            except InputError as e:
                print(printable(f"bower: {name}: {e}"), file=sys.stderr)
                failed += 1
                continue
            try:
                a = ca.attach_file(lib, raw, Path(name).name, args.device, args.replace)
            except cn.ClubError as e:
                print(printable(f"bower: {name}: {e}"), file=sys.stderr)
                failed += 1
                continue
            print(printable(f"{name}: {a.status}: {a.message}"))
    if failed:
        print(f"bower: {failed} of {len(args.files)} round logs not counted", file=sys.stderr)
    return 1 if failed else 0


def cmd_collect(args) -> int:
    with writer_lock(args.db, "bower club collect"), open_library(args.db) as lib:
        out = ca.collect(lib)
    for status, msg in out:
        print(f"{status}: {msg}")
    if not out:
        print("no club rounds in the library")
    return 1 if any(s == "refused" for s, _ in out) else 0


def cmd_simulate(args) -> int:
    from bower_host.club.simulate import night_round_logs
    outputs.check_output_dir(args.output, library=args.db)
    with open_library(args.db) as lib:
        night = open_night(lib, args.night)
    rnd = _round(night, args.round)
    try:
        logs = night_round_logs(night, rnd, args.seed, started=int(time.time()), renege=args.renege)
    except ValueError as e:
        raise CommandError(str(e)) from None
    folder = Path(args.output)
    files = {folder / f"r{rnd}-t{t}.log": raw for t, raw in logs.items()}
    if folder.is_dir():
        for name in files:          # every one checked before any is written
            outputs.check_output(name, library=args.db)
    outputs.make_output_dir(folder, library=args.db)
    for name, raw in files.items():
        outputs.write_output(name, raw, library=args.db)
    import shlex   # the hint: the command to run next, as a shell takes it (no --night: the logs name it)
    db = f" --db {shlex.quote(args.db)}" if args.db is not None else ""
    print(f"wrote {len(logs)} round logs to {folder}/r{rnd}-t*.log (round {rnd}, played by the bots): "
          f"bower club result{db} {shlex.quote(str(folder))}/r{rnd}-t*.log")
    return 0


def cmd_standings(args) -> int:
    with open_library(args.db) as lib:
        night = open_night(lib, args.night)
        corr = cn.corrections(lib, night)
    if args.format == "csv":
        sys.stdout.write(cs.to_csv(night))
        return 0
    if args.format == "json":
        sys.stdout.write(cs.to_json(night, corr))
        return 0
    if args.format != "table":
        raise CommandError(f"unknown format {args.format!r}: table, csv or json")
    print(standings_text(night, corr))
    return 0


def standings_text(night: cn.Night, corr: list) -> str:
    rows = cs.standings(night)
    done = night.complete()
    state = "final standings" if done else f"standings, round {night.current_round()} of {night.rounds} playing"
    head = f"{night.name} ({night.key}): {state}"
    lines = [head, "", f"{'place':>5}  {'player':<9}{'points':>7}{'rounds':>7}{'won':>5}{'loners':>7}{'euchres':>8}"]
    prev = None
    for r in rows:
        shared = sum(x["place"] == r["place"] for x in rows) > 1
        place = "" if r["place"] == prev else f"{r['place']}{'=' if shared else ''}"
        prev = r["place"]
        lines.append(f"{place:>5}  {r['player']:<9}{r['points']:>7}{r['rounds']:>7}{r['won']:>5}{r['loners']:>7}"
                     f"{r['euchres']:>8}")
    lines += ["", "Tie-breaks: points, then rounds won, then loners, then euchres; equal on all: a shared place.", ""]
    for rd in cs.table_results(night):
        cells = []
        for t in rd["tables"]:
            if t["status"] == "waiting":
                cells.append(f"t{t['table']} waiting")
            else:
                p = t["players"]
                cells.append(f"t{t['table']} {p['N']}&{p['S']} {t['points'][0]}-{t['points'][1]} {p['E']}&{p['W']}"
                             + ("" if t["status"] == "complete" else " (awaiting acceptance)"
                                if t["status"] == "awaiting" else f" (playing, {t['hands']} hands)"))
        lines.append(f"Round {rd['round']}: " + "; ".join(cells) + (f"; bye: {', '.join(rd['byes'])}" if rd["byes"]
                                                                     else ""))
    if done:
        lines += ["", "Prizes:"] + [f"  {p}. {', '.join(names)}" for p, names in cs.prizes(night)]
    if corr:
        lines += ["", f"Corrections ({len(corr)}):"]
        for c in corr:
            lines.append(f"  round {c['round']} table {c['table_no']} {c['kind']} "
                         f"{time.strftime('%H:%M', time.localtime(c['at']))}: {c['old_game']} "
                         f"{c['old_result']['points'][:2]} -> {c['new_game']} {c['new_result']['points'][:2]}")
    return "\n".join(lines)


def cmd_serve(args) -> int:
    from bower_host.club.web import serve
    from bower_host.serving import ServeError, check_tls
    try:
        check_tls(args.certfile, args.keyfile)         # before the library is opened
    except ServeError as e:
        raise CommandError(str(e)) from None
    from bower_host.club.phones import codes
    with writer_lock(args.db, "bower club serve"), open_library(args.db) as lib:
        night = open_night(lib, args.night)
        codes(lib, night)          # (every table's join code, made once)
        path = lib.path
    try:
        return serve(path, night.key, args.host, args.port, args.certfile, args.keyfile)
    except ServeError as e:
        raise CommandError(str(e)) from None


SEED_MAX = 2 ** 63 - 1         # seeds are stored in SQLite (64-bit integers)
ROUND = at.whole(1, MAX_ROUNDS, "round")


def _night_id(text: str) -> str:
    import argparse
    if not NIGHT_KEY.match(text):
        raise argparse.ArgumentTypeError(f"{at.shown(text)}: a night id is 1 to 32 letters, digits, - and _, "
                                         "starting with a letter or digit")
    return text


def _device_id(text: str) -> str:
    import argparse

    from bower_host.names import SAFE_ID
    if not SAFE_ID.match(text):
        raise argparse.ArgumentTypeError(f"{at.shown(text)}: a device id is 1 to 64 letters, digits, - and _, "
                                         "starting with a letter or digit")
    return text


def register(sub) -> None:
    p = sub.add_parser("club", help="club nights: progressive euchre with a Bower on every table",
                       description="Run a club night: players, movement, score sheets, round results from the "
                                   "tables' Bowers, standings, a live page. See host/CLUB.md.")
    cs_ = p.add_subparsers(dest="club_command", required=True)

    q = add_common_args(cs_.add_parser("new", help="a new club night and its round 1 seating"), night=False)
    q.add_argument("name", metavar="NAME", type=at.text(cn.MAX_NIGHT_NAME, "the night's name"),
                   help=f"the night's name (1 to {cn.MAX_NIGHT_NAME} characters)")
    q.add_argument("--players", nargs="+", metavar="NAME", help="player names (1-8 characters, as on the device)")
    q.add_argument("--roster", metavar="FILE", help="a file of player names, one per line")
    q.add_argument("--tables", type=at.whole(1, MAX_TABLES, "tables"), metavar="N", help="tables (four players each)")
    q.add_argument("--movement", choices=cn.MOVEMENTS, default="progressive")
    q.add_argument("--rounds", type=at.whole(1, MAX_ROUNDS, "rounds"), metavar="N",
                   help="rounds (default 8; partners: the whole schedule)")
    g = q.add_mutually_exclusive_group(required=True)
    g.add_argument("--hands", type=at.whole(1, 99, "hands per round"), metavar="N", help="hands per round (1-99)")
    g.add_argument("--minutes", type=at.whole(1, 99, "minutes per round"), metavar="M",
                   help="minutes per round (1-99)")
    q.add_argument("--seed", type=at.whole(0, SEED_MAX, "seed"),
                   help="draw round 1's seats at random with this seed (default: as listed)")
    q.add_argument("--shuffle", action="store_true", help="draw round 1's seats with a new seed")
    q.add_argument("--loner", type=int, default=4, choices=(4, 5), help="points for a lone march (default 4)")
    q.add_argument("--set-loner", type=int, default=2, choices=(2, 3, 4),
                   help="points to the defenders for euchring a loner (default 2)")
    q.add_argument("--renege", type=int, default=2, choices=(1, 2, 3, 4),
                   help="points to the other side for a renege (default 2; in a lone hand: the loner's points)")
    q.add_argument("--id", metavar="ID", type=_night_id,
                   help="the night's id in round headers: letters, digits, - and _ (default: from the name)")
    q.set_defaults(func=cmd_new)

    q = add_common_args(cs_.add_parser("list", help="the club nights in the library"), night=False)
    q.set_defaults(func=cmd_list)

    q = add_common_args(cs_.add_parser("seating", help="who sits where, round by round (as far as known)"))
    q.add_argument("--round", type=ROUND, metavar="R", help="default: every round")
    q.set_defaults(func=cmd_seating)

    q = add_common_args(cs_.add_parser("sheet", help="printable score sheets, one per table (text, form feeds "
                                                     "between)"))
    q.add_argument("--round", type=ROUND, metavar="R", help="default: the round being played")
    q.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output (- for it)")
    q.add_argument("--url", metavar="URL", type=at.text(200, "--url"),
                   help="the address phones reach bower club serve at (as it prints): each sheet gets its "
                        "table's join QR code")
    q.set_defaults(func=cmd_sheet)

    q = add_common_args(cs_.add_parser("result", help="count round logs (any order, any number of times)"), night=False)
    q.add_argument("files", nargs="+", metavar="FILE")
    q.add_argument("--replace", action="store_true", help="correct a table's result with this log (logged)")
    q.add_argument("--device", metavar="ID", type=_device_id,
                   help="the device a log came from, when its header names none")
    q.set_defaults(func=cmd_result)

    q = add_common_args(cs_.add_parser("collect", help="count the rounds already in the library (synced or imported)"),
               night=False)
    q.set_defaults(func=cmd_collect)

    q = add_common_args(cs_.add_parser("simulate", help="no devices: the bots play a round, one log per table"))
    q.add_argument("--round", type=ROUND, metavar="R", help="default: the round being played")
    q.add_argument("--seed", type=at.whole(0, SEED_MAX, "seed"), default=1)
    q.add_argument("--renege", type=at.number(0, 1, "a chance"), default=0.02,
                   help="chance of a renege per hand (default 0.02)")
    q.add_argument("-o", "--output", metavar="DIR", default="club-logs")
    q.set_defaults(func=cmd_simulate)

    q = add_common_args(cs_.add_parser("standings", help="standings, table results by round, prizes"))
    q.add_argument("--format", "-f", default="table", metavar="FMT", help="table (default), csv or json")
    q.set_defaults(func=cmd_standings)

    q = add_common_args(cs_.add_parser("serve", help="a web page of live standings and round status"))
    q.add_argument("--port", type=at.whole(1, 65535, "port"), default=8080, help="TCP port (default 8080)")
    q.add_argument("--host", default="127.0.0.1", type=at.text(253, "--host"),
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for the "
                                                       "room's network)")
    q.add_argument("--certfile", metavar="FILE",
                   help="serve https: the certificate (PEM, with its chain), given with --keyfile")
    q.add_argument("--keyfile", metavar="FILE",
                   help="the certificate's private key (PEM, no password)")
    q.set_defaults(func=cmd_serve)

    clubtables.register(cs_)
