#!/usr/bin/env python3
"""The league's figures (issue 35): 100 clubs x 40 nights x 30 tables loaded.

    .venv/bin/python tools/bench_league.py [--clubs 100] [--nights 40] [--tables 30] [--quick]

Targets (issue 35): with 100 clubs x 40 nights x 30 tables loaded, the
league standings answer in p99 <= 100 ms, and a night's push is stored in
<= 300 ms.

The league is loaded in this process through ``League.push`` (the one gate
the server's endpoint also calls: one transaction per night, each season's
totals kept up to date), with two seasons besides the all-time one a
league starts with: ``2025 best 10`` (the best 10 nights, 5 to place), so
each push updates both. The nights are synthetic, drawn, not played: each
club has its own pool of 150 players (5 per 4 seats), a night draws 120 of
them (30 tables), 8 rounds; each round a player's side wins (probability
1/2, 5 to 10 points) or not (0 to 6 points), so points are 0 to 60+ a night
(capped at 60), rounds won 0 to 8, loners 0 to 2, euchres 0 to 3, places
shared by equals as the club's standings give them.

Figures, on each engine (PostgreSQL: a private throw-away server,
tests/host/pgserver.py; SQLite: a file):

- standings: ``GET /api/standings`` (all time, every player) against a real
  ``bower league serve`` subprocess on the loaded database, a new loopback
  connection per request, and the in-process ``standings(lg)`` call;
  ``--requests`` each, p50/p95/p99/max. The same request again is answered
  from the server's cache (``server.Cache``), so the in-process figure is
  the standings made anew, and so is the GET just after each push (a push
  empties the cache); the first page (``?limit=200``, the season page's) too;
- a night's push: ``client.push`` of one new 30-table night over HTTP,
  ``--pushes`` new nights of random clubs, p50/p99/max;
- growth: the standings timed at ``--small`` clubs (10) and at ``--clubs``
  (100): time(100) / time(10) of the p50s.

Then "SQLite for one club's season": 1 club x 40 nights x 30 tables on
SQLite, standings p99 and push p99. Without PostgreSQL installed its
figures are skipped (said, not a failure).

--quick: 3 clubs x 3 nights x 3 tables on both engines, few requests
(tests/host/test_bench_league.py keeps this code working; its figures are
not the bench's). Prints ``RESULT key value`` lines like the other benches.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "host"))      # pgserver (the tests' throw-away PostgreSQL)
sys.path.insert(0, str(ROOT / "tools"))

from bench_club import pct, stop, wait_up  # noqa: E402
from bench_club_live import free_port, verdict  # noqa: E402

from bower_host.league import client as lc  # noqa: E402
from bower_host.league import standings as ls  # noqa: E402
from bower_host.league.store import League  # noqa: E402
from bower_host.league.server import PAGE_ROWS  # noqa: E402

STANDINGS_P99_S = 0.100
PUSH_S = 0.300
ROUNDS = 8
T0 = 1736121600                 # 2025-01-06, a Monday: night n of a club is T0 + n weeks (+ the club's hour)
WEEK = 7 * 86400
SEASON = (1735689600, 1767225600)   # 2025
POOL_PER_SEAT = 1.25            # a club's pool: 150 players for 30 tables' 120 seats


def draw_night(rng: random.Random, pool: list, tables: int, key: str, played: int) -> dict:
    """A night's summary as ``summary.check_payload`` returns it (drawn, not played)."""
    names = rng.sample(pool, 4 * tables)
    rows = []
    for nm in names:
        points = won = 0
        for _ in range(ROUNDS):
            if rng.random() < 0.5:
                won += 1
                points += rng.randint(5, 10)
            else:
                points += rng.randint(0, 6)
        rows.append({"name": nm, "place": 0, "points": min(points, 60), "rounds": ROUNDS, "won": won,
                     "loners": rng.randint(0, 2), "euchres": rng.randint(0, 3)})
    rows.sort(key=lambda r: (-r["points"], -r["won"], -r["loners"], -r["euchres"], r["name"]))
    prev, place = None, 0
    for i, r in enumerate(rows):
        k = (r["points"], r["won"], r["loners"], r["euchres"])
        if k != prev:
            place, prev = i + 1, k
        r["place"] = place
    return {"key": key, "name": f"Night {key}", "played": played, "tables": tables, "rounds": ROUNDS,
            "players": rows}


class Club:
    def __init__(self, lg: League, i: int, tables: int):
        self.name = f"Club {i:03d}"
        self.token = lg.add_club(self.name)
        self.id = int(lg.club_of_token(self.token)[0])
        self.pool = [f"P{j:03d}" for j in range(int(4 * tables * POOL_PER_SEAT))]
        self.i = i
        self.nights = 0

    def next_night(self, rng: random.Random, tables: int) -> dict:
        n = self.nights
        self.nights += 1
        return draw_night(rng, self.pool, tables, f"n{n:03d}", T0 + n * WEEK + self.i * 60)


def load(lg: League, clubs: list, nights: int, tables: int, rng: random.Random) -> tuple[float, int]:
    """Push ``nights`` nights of each club in-process: (seconds, rows)."""
    t0 = time.perf_counter()
    rows = 0
    for c in clubs:
        for _ in range(nights):
            night = c.next_night(rng, tables)
            out = lg.push(c.id, [night])
            assert out[0][1] == "new", out
            rows += len(night["players"])
    return time.perf_counter() - t0, rows


def serving(spec: str, port: int):
    """``bower league serve`` of ``spec`` in its own process, once it listens on ``port``."""
    proc = subprocess.Popen([sys.executable, "-m", "bower_host", "league", "serve", "--db", spec, "--host",
                             "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    wait_up(port, proc, what="bower league serve")
    return proc


def get_standings(port: int, query: str = "") -> tuple[float, int]:
    t0 = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        c.request("GET", "/api/standings" + query)
        r = c.getresponse()
        body = r.read()
    finally:
        c.close()
    took = time.perf_counter() - t0
    if r.status != 200:
        raise SystemExit(f"GET /api/standings: {r.status} {body[:200]!r}")
    return took, len(body)


def time_standings(lg: League, port: int, requests: int) -> dict:
    http_t, size = [], 0
    for _ in range(requests):
        t, size = get_standings(port)
        http_t.append(t)
    inproc = []
    players = 0
    for _ in range(requests):
        t0 = time.perf_counter()
        st = ls.standings(lg)
        inproc.append(time.perf_counter() - t0)
        players = len(st["players"])
    # The first page, as the season page shows it (server.PAGE_ROWS rows, ranked by the database).
    page_http, page_in, page_size = [], [], 0
    for _ in range(requests):
        t, page_size = get_standings(port, f"?limit={PAGE_ROWS}")
        page_http.append(t)
        t0 = time.perf_counter()
        ls.standings(lg, limit=PAGE_ROWS)
        page_in.append(time.perf_counter() - t0)
    return {"http": http_t, "inproc": inproc, "bytes": size, "players": players, "page_http": page_http,
            "page_inproc": page_in, "page_bytes": page_size}


def time_pushes(url: str, port: int, clubs: list, pushes: int, tables: int, rng: random.Random) -> tuple:
    """Each push's time, and the time of the whole standings asked for just
    after it (the server's cache was emptied by the push: made anew)."""
    out, after = [], []
    for _ in range(pushes):
        c = rng.choice(clubs)
        night = c.next_night(rng, tables)
        t0 = time.perf_counter()
        got = lc.push(url, c.token, [night], timeout=60)
        out.append(time.perf_counter() - t0)
        if got != [(night["key"], "new", 1)]:
            raise SystemExit(f"push of {c.name} {night['key']}: {got}")
        after.append(get_standings(port)[0])
    return out, after


def spread(xs: list) -> str:
    return (f"p50 {pct(xs, .5) * 1000:.1f} ms, p95 {pct(xs, .95) * 1000:.1f} ms, p99 {pct(xs, .99) * 1000:.1f} ms, "
            f"max {max(xs) * 1000:.1f} ms")


def n_clubs(n: int) -> str:
    return f"{n} clubs" if n != 1 else "1 club"


def ms(x: float) -> float:
    return round(x * 1000, 1)


def run_engine(spec: str, tag: str, label: str, clubs_n: int, small: int, nights: int, tables: int,
               requests: int, pushes: int, seed: int) -> dict:
    """Load, serve, time; prints the engine's lines and returns its RESULT figures."""
    rng = random.Random(seed)
    res: dict = {}
    lg = League.create(spec, "Bench league")
    try:
        lg.add_season("2025 best 10", SEASON[0], SEASON[1], rule="best", best=10, min_nights=5)
        clubs = [Club(lg, i, tables) for i in range(clubs_n)]
        port = free_port()
        proc = serving(spec, port)
        try:
            print(f"== {label}: {n_clubs(clubs_n)} x {nights} nights x {tables} tables ({4 * tables} players a night "
                  f"of {len(clubs[0].pool)} a club, {ROUNDS} rounds; points drawn: 0..60, won <= {ROUNDS}); "
                  f"seasons: all time (total), 2025 best 10 (min 5) ==")
            stages = []
            sizes = [small, clubs_n] if small < clubs_n else [clubs_n]
            loaded, load_s, rows = 0, 0.0, 0
            for size in sizes:
                s, r = load(lg, clubs[loaded:size], nights, tables, rng)
                loaded, load_s, rows = size, load_s + s, rows + r
                print(f"  loaded {n_clubs(size):9}        {rows:,} night_players rows, {size * nights:,} nights in "
                      f"{load_s:.1f} s so far ({1000 * load_s / (size * nights):.1f} ms a night, League.push "
                      "in-process)")
                st = time_standings(lg, port, requests)
                stages.append(st)
                print(f"  standings at {n_clubs(size):9}   {st['players']:,} players, "
                      f"{st['bytes'] / 1e6:.2f} MB of JSON")
                ok = pct(st["http"], .99) <= STANDINGS_P99_S
                print(f"    GET /api/standings     {spread(st['http'])} over {requests}, as served (the same "
                      "answer again: the server's cache) "
                      f"(target p99 <= {STANDINGS_P99_S * 1000:.0f} ms {verdict(ok)})")
                ok = pct(st["inproc"], .99) <= STANDINGS_P99_S
                print(f"    standings(lg)          {spread(st['inproc'])} over {requests} "
                      f"(target p99 <= {STANDINGS_P99_S * 1000:.0f} ms {verdict(ok)})")
                ok = pct(st["page_http"], .99) <= STANDINGS_P99_S
                print(f"    GET ...?limit={PAGE_ROWS}     {spread(st['page_http'])} over {requests}, the first "
                      f"{PAGE_ROWS} places ({st['page_bytes'] / 1e3:.0f} kB) "
                      f"(target p99 <= {STANDINGS_P99_S * 1000:.0f} ms {verdict(ok)})")
                ok = pct(st["page_inproc"], .99) <= STANDINGS_P99_S
                print(f"    standings(lg, limit)   {spread(st['page_inproc'])} over {requests} "
                      f"(target p99 <= {STANDINGS_P99_S * 1000:.0f} ms {verdict(ok)})")
            big = stages[-1]
            res.update({f"{tag}_load_s": round(load_s, 1), f"{tag}_rows": rows,
                        f"{tag}_players": big["players"],
                        f"{tag}_standings_http_p50_ms": ms(pct(big["http"], .5)),
                        f"{tag}_standings_http_p99_ms": ms(pct(big["http"], .99)),
                        f"{tag}_standings_inproc_p50_ms": ms(pct(big["inproc"], .5)),
                        f"{tag}_standings_inproc_p99_ms": ms(pct(big["inproc"], .99)),
                        f"{tag}_page_http_p99_ms": ms(pct(big["page_http"], .99)),
                        f"{tag}_page_inproc_p99_ms": ms(pct(big["page_inproc"], .99))})
            if len(stages) == 2:
                gh = pct(stages[1]["http"], .5) / pct(stages[0]["http"], .5)
                gi = pct(stages[1]["inproc"], .5) / pct(stages[0]["inproc"], .5)
                print(f"  growth {small} -> {clubs_n} clubs    standings p50 x{gh:.1f} over HTTP, x{gi:.1f} in-process "
                      f"(players x{stages[1]['players'] / max(stages[0]['players'], 1):.1f})")
                res[f"{tag}_growth_http"] = round(gh, 2)
                res[f"{tag}_growth_inproc"] = round(gi, 2)
            pt, fresh = time_pushes(f"http://127.0.0.1:{port}/", port, clubs, pushes, tables, rng)
            ok = pct(pt, .99) <= PUSH_S
            print(f"  a night's push (HTTP)    {spread(pt)} over {pushes} new {tables}-table nights "
                  f"(target <= {PUSH_S * 1000:.0f} ms at p99 {verdict(ok)})")
            ok = pct(fresh, .99) <= STANDINGS_P99_S
            print(f"  GET /api/standings just after each push (the server's cache made anew): {spread(fresh)} "
                  f"(target p99 <= {STANDINGS_P99_S * 1000:.0f} ms {verdict(ok)})")
            res[f"{tag}_fresh_standings_http_p99_ms"] = ms(pct(fresh, .99))
            res.update({f"{tag}_push_p50_ms": ms(pct(pt, .5)), f"{tag}_push_p99_ms": ms(pct(pt, .99)),
                        f"{tag}_push_max_ms": ms(max(pt)), f"{tag}_pushes": len(pt)})
        finally:
            log = stop(proc)
            if proc.returncode not in (0, -15) or "Traceback" in log:
                print(f"  the server said: {log.strip()[-400:]}")
    finally:
        lg.close()
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clubs", type=int, default=100)
    ap.add_argument("--small", type=int, default=10, help="clubs of the growth figure's first timing (default 10)")
    ap.add_argument("--nights", type=int, default=40)
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--requests", type=int, default=200, help="standings requests per timing (default 200)")
    ap.add_argument("--pushes", type=int, default=50, help="nights pushed over HTTP (default 50)")
    ap.add_argument("--engine", choices=("both", "sqlite", "postgresql"), default="both")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="3 clubs x 3 nights x 3 tables, few requests")
    args = ap.parse_args(argv)
    if args.quick:
        args.clubs, args.small, args.nights, args.tables, args.requests, args.pushes = 3, 1, 3, 3, 20, 5
    mode = " (quick run: not the figures)" if args.quick else ""
    start = time.monotonic()
    res: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench_league") as tmp:
        if args.engine in ("both", "postgresql"):
            from pgserver import PgError, PgServer, find_bin
            if find_bin() is None:
                print("== PostgreSQL: not installed (no /usr/lib/postgresql/*/bin/initdb): its figures are "
                      "skipped ==")
                res["league_pg_skipped"] = 1
            else:
                pg = PgServer()
                try:
                    pg.start()
                    url = pg.create_database("league")
                    res.update(run_engine(url, "league_pg", f"PostgreSQL{mode}", args.clubs, args.small,
                                          args.nights, args.tables, args.requests, args.pushes, args.seed))
                except PgError as e:
                    print(f"== PostgreSQL would not start: its figures are skipped ({str(e)[:200]}) ==")
                    res["league_pg_skipped"] = 1
                finally:
                    pg.cleanup()
        if args.engine in ("both", "sqlite"):
            res.update(run_engine(str(Path(tmp) / "league.sqlite3"), "league_sqlite", f"SQLite{mode}",
                                  args.clubs, args.small, args.nights, args.tables, args.requests, args.pushes,
                                  args.seed))
            res.update(run_engine(str(Path(tmp) / "one.sqlite3"), "league_sqlite1",
                                  f"SQLite for one club's season{mode}", 1, 1, args.nights, args.tables,
                                  args.requests, args.pushes, args.seed + 1))
    took = time.monotonic() - start
    print(f"== the whole run took {took:.0f} s ==")
    res["league_bench_s"] = round(took, 1)
    for k, v in res.items():
        print(f"RESULT {k} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
