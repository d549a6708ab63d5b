"""``bower league ...``: seasons across a club's nights, leagues across clubs.

::

    bower league new "North Shore" --db league.sqlite3     # or --db postgresql://bower@/league?host=/run/postgresql
    bower league club add Elks --db league.sqlite3          # prints the club's push token
    bower league push bower.sqlite3 --db league.sqlite3     # a club's finished nights, on this machine
    bower league push bower.sqlite3 --to http://league:8090/ --token T
    bower league serve --db league.sqlite3 --port 8090
    bower league season new 2026-27 --from 2026-09-01 --to 2027-07-01 --rule best --best 10 --min-nights 5 --db ...
    bower league standings --db league.sqlite3 --season 2026-27 --format csv

Details in host/LEAGUE.md.
"""

from __future__ import annotations

import calendar
import json
import sys
import time

from bower_host import argtypes as at
from bower_host import outputs
from bower_host.club import night as cn
from bower_host.club.common import open_library
from bower_host.errors import CommandError
from bower_host.league import rules as lr
from bower_host.league import standings as ls
from bower_host.league import summary as su
from bower_host.league.sqldb import DbError, is_postgresql
from bower_host.league.store import League, LeagueError


def _open(args) -> League:
    try:
        return League.open(args.db)
    except LeagueError as e:
        raise CommandError(str(e)) from None


def _guard(fn):
    """The command ``fn`` with the league's errors said in one line."""
    def run(args) -> int:
        try:
            return fn(args)
        except (LeagueError, DbError, su.SummaryError) as e:
            raise CommandError(str(e)) from None
    return run


def cmd_new(args) -> int:
    try:
        lg = League.create(args.db, args.name)
    except LeagueError as e:
        raise CommandError(str(e)) from None
    with lg:
        print(f"League {lg.name!r} made in {args.db}: add its clubs with bower league club add NAME --db {args.db}")
    return 0


def _say_token(lead: str, token: str) -> int:
    print(lead)
    print(token)
    return 0


def cmd_club_add(args) -> int:
    with _open(args) as lg:
        token = lg.add_club(args.name)
    return _say_token(f"Club {args.name!r} added. Its push token (shown only now; keep it at the club):", token)


def cmd_club_token(args) -> int:
    with _open(args) as lg:
        token = lg.new_token(args.name)
    return _say_token(f"A new push token for {args.name!r} (the old one no longer works):", token)


def cmd_club_list(args) -> int:
    with _open(args) as lg:
        rows = lg.clubs()
    for _id, name, nights, last in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last)) if last else "never"
        print(f"{name}: {nights} nights, last pushed {when}")
    if not rows:
        print("no clubs yet: bower league club add NAME")
    return 0


def _read_nights(path: str) -> tuple:
    """The finished nights of the club's game library ``path``, checked as
    the league checks them (a refusal before anything is sent)."""
    with open_library(path) as lib:
        try:
            nights, skipped = su.from_library(lib)
        except cn.ClubError as e:
            raise CommandError(str(e)) from None
    return su.check_payload(json.loads(su.payload(nights))), skipped


def cmd_push(args) -> int:
    if (args.db is None) == (args.to is None):
        raise CommandError("say where to push: --db DB (a league on this machine) or --to URL --token T")
    if args.to is not None and not args.token:
        raise CommandError("--to needs the club's --token (bower league club add printed it)")
    if args.db is not None and args.token:
        raise CommandError("--token is for --to (a league server); --db pushes as --club NAME")
    nights, skipped = _read_nights(args.library)
    for key, why in skipped:
        print(f"night {key}: not pushed, {why}")
    if not nights:
        print(f"{args.library} has no finished night to push")
        return 0
    if args.to is not None:
        from bower_host.league.client import PushError, push
        try:
            out = push(args.to, args.token, nights, timeout=args.timeout, cafile=args.cafile)
        except PushError as e:
            raise CommandError(str(e)) from None
    else:
        with _open(args) as lg:
            out = lg.push(lg.club_id(args.club), nights)
    counts = {"new": 0, "amended": 0, "unchanged": 0}
    for key, outcome, version in out:
        counts[outcome] += 1
        if outcome == "amended":
            print(f"night {key}: amended at the club, stored as version {version} in place of the earlier one")
    print(f"{len(out)} nights pushed: {counts['new']} new, {counts['amended']} amended, "
          f"{counts['unchanged']} already held")
    return 0


def cmd_standings(args) -> int:
    with _open(args) as lg:
        if args.club is not None:
            lg.club_id(args.club)
        st = ls.standings(lg, args.season, args.club)
    text = {"text": ls.to_text, "csv": ls.to_csv, "json": ls.to_json}[args.format](st)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        inputs = [] if is_postgresql(args.db) else [args.db]
        outputs.write_output(args.output, text, library=None, inputs=inputs, stdout=True)
        print(f"standings written to {args.output}")
    return 0


def _date(value: str) -> int:
    try:
        return calendar.timegm(time.strptime(value, "%Y-%m-%d"))
    except ValueError:
        import argparse
        raise argparse.ArgumentTypeError(f"{at.shown(value)} is not a date YYYY-MM-DD") from None


def cmd_season_new(args) -> int:
    if args.best is not None and args.rule != "best":
        raise CommandError("--best N is for --rule best (the best N nights)")
    with _open(args) as lg:
        lg.add_season(args.name, args.start, args.end, args.rule, args.best, args.min_nights, args.club)
        st = ls.standings(lg, args.name)
    print(f"Season {args.name!r}: {st['season']['nights']} nights so far, {ls.describe(st['season'])}")
    return 0


def cmd_season_list(args) -> int:
    with _open(args) as lg:
        for name, club, starts, ends, rule, best, min_nights in lg.seasons():
            span = "all time" if starts == 0 else f"{time.strftime('%Y-%m-%d', time.gmtime(starts))} to " \
                                                  f"{time.strftime('%Y-%m-%d', time.gmtime(ends))}"
            d = ls.describe({"rule": rule, "best": best, "min_nights": min_nights})
            print(f"{name}: {span}{', ' + club if club else ''}, {d}")
    return 0


def cmd_rename(args) -> int:
    with _open(args) as lg:
        lg.rename(args.club, args.old, args.new)
    print(f"{args.club}: {args.old} is {args.new} from now on (their nights count for {args.new})")
    return 0


def cmd_merge(args) -> int:
    with _open(args) as lg:
        lg.merge(args.club, args.source, args.into)
    print(f"{args.club}: {args.source} and {args.into} are one player; every night of {args.source} counts for "
          f"{args.into}")
    return 0


def cmd_identity(args) -> int:
    with _open(args) as lg:
        rows = lg.identity_log()
    for at_, club, kind, old, new in rows:
        print(f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(at_))}  {club}: {kind} {old} -> {new}")
    if not rows:
        print("no renames or merges")
    return 0


def cmd_serve(args) -> int:
    from bower_host.league.server import serve
    from bower_host.serving import ServeError
    try:
        return serve(args.db, args.host, args.port, args.certfile, args.keyfile)
    except (ServeError, LeagueError) as e:
        raise CommandError(str(e)) from None


def _db_arg(q, required: bool = True):
    q.add_argument("--db", metavar="DB", required=required, type=_db_spec,
                   help="the league database: a file (SQLite) or a PostgreSQL URL, "
                        "postgresql://user@/league?host=/run/postgresql")
    return q


def _db_spec(value: str) -> str:
    if is_postgresql(value):
        if any(ord(c) < 32 for c in value):
            import argparse
            raise argparse.ArgumentTypeError("--db: the URL has a control character")
        return value
    return at.library_file("--db")(value)


NAME = at.text(60, "the name")


def register(sub) -> None:
    p = sub.add_parser("league", help="seasons and leagues: standings across nights and clubs",
                       description="Seasons across a club's nights, leagues across clubs, on SQLite or "
                                   "PostgreSQL. See host/LEAGUE.md.")
    ls_ = p.add_subparsers(dest="league_command", required=True)

    q = _db_arg(ls_.add_parser("new", help="a new league in an SQLite file or an empty PostgreSQL database"))
    q.add_argument("name", metavar="NAME", type=at.text(80, "the league's name"))
    q.set_defaults(func=_guard(cmd_new))

    club = ls_.add_parser("club", help="the league's clubs").add_subparsers(dest="club_command", required=True)
    q = _db_arg(club.add_parser("add", help="register a club and print its push token"))
    q.add_argument("name", metavar="NAME", type=NAME)
    q.set_defaults(func=_guard(cmd_club_add))
    q = _db_arg(club.add_parser("token", help="a new push token for a club (the old one stops working)"))
    q.add_argument("name", metavar="NAME", type=NAME)
    q.set_defaults(func=_guard(cmd_club_token))
    q = _db_arg(club.add_parser("list", help="the clubs and their nights"))
    q.set_defaults(func=_guard(cmd_club_list))

    q = ls_.add_parser("push", help="a club's finished nights into the league (idempotent)")
    q.add_argument("library", metavar="NIGHT_LIBRARY", type=at.library_file("NIGHT_LIBRARY"),
                   help="the club's game library (bower club ... --db)")
    _db_arg(q, required=False)
    q.add_argument("--club", metavar="NAME", type=NAME, help="with --db: the club pushing (default: the only one)")
    q.add_argument("--to", metavar="URL", help="a league server (bower league serve)")
    q.add_argument("--token", metavar="T", help="with --to: the club's push token")
    q.add_argument("--timeout", type=at.number(1, 3600, "--timeout", " s"), default=60.0,
                   help="with --to: seconds to keep trying (default 60)")
    q.add_argument("--cafile", metavar="FILE", help="with an https --to: the league's own CA certificate (PEM)")
    q.set_defaults(func=_guard(cmd_push))

    q = _db_arg(ls_.add_parser("standings", help="a season's standings"))
    q.add_argument("--season", metavar="NAME", type=NAME, help="default: all time")
    q.add_argument("--club", metavar="NAME", type=NAME, help="only this club's players (league places)")
    q.add_argument("--format", choices=("text", "csv", "json"), default="text")
    q.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    q.set_defaults(func=_guard(cmd_standings))

    season = ls_.add_parser("season", help="the league's seasons").add_subparsers(dest="season_command",
                                                                                  required=True)
    q = _db_arg(season.add_parser("new", help="a season: nights between two dates, and how they rank"))
    q.add_argument("name", metavar="NAME", type=NAME)
    q.add_argument("--from", dest="start", metavar="YYYY-MM-DD", type=_date, required=True,
                   help="the first day (UTC)")
    q.add_argument("--to", dest="end", metavar="YYYY-MM-DD", type=_date, required=True,
                   help="the day after the last (UTC)")
    q.add_argument("--rule", choices=lr.RULES, default="total", help="how players rank (host/LEAGUE.md)")
    q.add_argument("--best", type=at.whole(1, lr.MAX_BEST, "--best"), metavar="N",
                   help="--rule best: how many nights count")
    q.add_argument("--min-nights", type=at.whole(0, lr.MAX_MIN_NIGHTS, "--min-nights"), default=1, metavar="K",
                   help="nights a player needs to be placed (default 1)")
    q.add_argument("--club", metavar="NAME", type=NAME, help="one club's season (default: every club)")
    q.set_defaults(func=_guard(cmd_season_new))
    q = _db_arg(season.add_parser("list", help="the seasons"))
    q.set_defaults(func=_guard(cmd_season_list))

    player = ls_.add_parser("player", help="player identity: renames and merges, logged").add_subparsers(
        dest="player_command", required=True)
    q = _db_arg(player.add_parser("rename", help="a player's new name (their nights stay theirs)"))
    q.add_argument("--club", metavar="NAME", type=NAME, required=True)
    q.add_argument("old", metavar="OLD")
    q.add_argument("new", metavar="NEW")
    q.set_defaults(func=_guard(cmd_rename))
    q = _db_arg(player.add_parser("merge", help="two names that are one player"))
    q.add_argument("--club", metavar="NAME", type=NAME, required=True)
    q.add_argument("source", metavar="FROM")
    q.add_argument("into", metavar="INTO")
    q.set_defaults(func=_guard(cmd_merge))
    q = _db_arg(player.add_parser("log", help="every rename and merge"))
    q.set_defaults(func=_guard(cmd_identity))

    q = _db_arg(ls_.add_parser("serve", help="the league server: clubs push to it; read-only pages"))
    q.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every network)")
    q.add_argument("--port", type=at.whole(0, 65535, "--port"), default=8090)
    q.add_argument("--certfile", metavar="FILE", help="serve HTTPS with this certificate (PEM)")
    q.add_argument("--keyfile", metavar="FILE", help="... and this key (PEM)")
    q.set_defaults(func=_guard(cmd_serve))
