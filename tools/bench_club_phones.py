#!/usr/bin/env python3
"""The phones' figures (issue 34): 30 tables post a round's results at once.

    .venv/bin/python tools/bench_club_phones.py [--tables 30] [--rounds 5] [--quick]

``bower club serve`` runs in its own process on loopback over a 30-table
night. Each table's phone (a thread, Python's http.client as
tests/host/clubphones.py speaks) has joined with its code and holds its
round's token and a finished round log (``club.simulate``'s bots, the
device's own log lines); then all of them POST /api/result at the same
moment (a barrier; each on a connection opened before it). Figures, each
round: the time from that moment until the last result was acknowledged
(stored and committed: the server answers only then), against issue 34's
1 s, and each request's time, p50/p99/max over all rounds, against p99 <=
100 ms.

Then a whole simulated night on another server: 30 phones running the
firmware (tests/host/clubphones.play_phones: join, poll, play each round by
key presses, deliver) for ``--night-rounds`` rounds of ``--hands``; the
server's memory (VmRSS, VmHWM) and CPU seconds over it, from /proc.

--quick: 4 tables, 2 rounds, a night of 2 rounds of 2 hands
(tests/host/test_bench_club_phones.py keeps this code working; its figures
are not the bench's). Prints ``RESULT key value`` lines like the other
benches.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "host"))      # the phones (clubphones, as bench_club.py's clubtables)
sys.path.insert(0, str(ROOT / "tools"))

from bench_club import serving, stop  # noqa: E402
from bench_club_live import free_port, pct, proc_figures, verdict  # noqa: E402

from bower_host.club import night as cn  # noqa: E402
from bower_host.club import phones as ph  # noqa: E402
from bower_host.club.simulate import night_round_logs  # noqa: E402
from bower_host.db import Library  # noqa: E402

ALL_S = 1.0
P99_S = 0.100
SCORING = {"loner": 4, "set_loner": 2, "renege": 2}


def make_night(db: Path, tables: int, rounds: int, hands: int, key: str) -> dict:
    names = [f"P{i:03d}" for i in range(4 * tables)]
    with Library(db) as lib:
        cn.create_night(lib, "Bench", names, tables, "progressive", rounds, hands=hands, seed=1, key=key,
                        scoring=SCORING)
        return ph.codes(lib, cn.load_night(lib, key))


def call(port: int, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        h = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            h["Authorization"] = f"Bearer {token}"
        c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=h)
        r = c.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        c.close()


def at_once(port: int, posts: dict) -> tuple[float, list, list]:
    """POST every table's result at the same moment: (all acknowledged
    after s, each request's s, errors)."""
    go = threading.Barrier(len(posts))
    times: dict = {}
    errors: list = []

    def phone(t: int, token: str, body: bytes) -> None:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            c.connect()
            go.wait()
            t0 = time.perf_counter()
            c.request("POST", "/api/result", body=body, headers={"Content-Type": "application/json",
                                                                 "Authorization": f"Bearer {token}"})
            r = c.getresponse()
            text = r.read()
            times[t] = (t0, time.perf_counter())
            if r.status != 200 or json.loads(text)["status"] != "new":
                errors.append(f"table {t}: {r.status} {text[:120]!r}")
        except (OSError, ValueError, threading.BrokenBarrierError) as e:
            errors.append(f"table {t}: {e!r}")
        finally:
            c.close()

    threads = [threading.Thread(target=phone, args=(t, tok, b)) for t, (tok, b) in posts.items()]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    if not times:
        return float("nan"), [], errors
    start = min(a for a, _ in times.values())
    return max(b for _, b in times.values()) - start, [b - a for a, b in times.values()], errors


def burst_rounds(d: Path, tables: int, rounds: int, pid_out: list) -> dict:
    db = d / "burst.sqlite3"
    codes = make_night(db, tables, rounds, 8, "bench")
    port = free_port()
    proc = serving(db, port)
    pid_out.append(proc.pid)
    out = {"all": [], "lat": [], "errors": []}
    try:
        tok = {}
        for t in range(1, tables + 1):
            status, j = call(port, "POST", "/api/join", body={"code": codes[t], "device": f"table{t:02d}"})
            if status != 200:
                raise SystemExit(f"join of table {t}: {status} {j}")
            tok[t] = j["token"]
        for r in range(1, rounds + 1):
            with Library(db) as lib:
                logs = night_round_logs(cn.load_night(lib, "bench"), r, 7)
            posts = {}
            for t in range(1, tables + 1):
                status, o = call(port, "GET", f"/api/round?round={r}", tok[t])
                if status != 200:
                    raise SystemExit(f"round {r} of table {t}: {status} {o}")
                raw = logs[t]
                game = json.loads(raw.split(b"\n", 1)[0])[0]["id"]
                posts[t] = (o["token"], json.dumps({"game": game, "crc": "%08x" % zlib.crc32(raw),
                                                     "log": raw.decode()}).encode())
            took, lat, errors = at_once(port, posts)
            out["all"].append(took)
            out["lat"] += lat
            out["errors"] += errors
            time.sleep(0.2)
        with Library(db) as lib:
            night = cn.load_night(lib, "bench")
            out["stored"] = lib.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            out["complete"] = sum(1 for r in range(1, rounds + 1) for t in range(1, tables + 1)
                                  if (night.results.get((r, t)) or {}).get("complete"))
    finally:
        log = stop(proc)
    out["log"] = log
    return out


def whole_night(d: Path, tables: int, rounds: int, hands: int) -> dict:
    import bower_host.simhw as simhw
    simhw.install()                              # (the firmware's framebuf, as the tests have it)
    from clubphones import TablePhone, Wire, play_phones, statuses

    db = d / "night.sqlite3"
    codes = make_night(db, tables, rounds, hands, "night")
    port = free_port()
    proc = serving(db, port)
    try:
        rss0, hwm0, cpu0 = proc_figures(proc.pid)
        url = f"http://127.0.0.1:{port}"
        phones = {t: TablePhone(d / f"phone{t:02d}", t, Wire(url, random.Random(t))) for t in range(1, tables + 1)}
        t0 = time.monotonic()
        got = play_phones(phones, codes, rounds, deadline_s=1800)
        wall = time.monotonic() - t0
        rss, hwm, cpu = proc_figures(proc.pid)
    finally:
        stop(proc)
    with Library(db) as lib:
        done = cn.load_night(lib, "night").complete()
    return {"rss0": rss0, "rss": rss, "hwm": hwm, "cpu": cpu - cpu0, "wall": wall, "sent": got["sent"],
            "statuses": statuses(phones), "complete": done}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5, help="rounds posted at once (default 5)")
    ap.add_argument("--night-rounds", type=int, default=4, help="rounds of the whole night (default 4)")
    ap.add_argument("--hands", type=int, default=8, help="hands a round in the whole night (default 8)")
    ap.add_argument("--quick", action="store_true", help="4 tables, 2 rounds, a night of 2 x 2 hands")
    args = ap.parse_args(argv)
    if args.quick:
        args.tables, args.rounds, args.night_rounds, args.hands = 4, 2, 2, 2
    mode = " (quick run: not the figures)" if args.quick else ""
    with tempfile.TemporaryDirectory() as tmp:
        pids: list = []
        b = burst_rounds(Path(tmp), args.tables, args.rounds, pids)
        n = whole_night(Path(tmp), args.tables, args.night_rounds, args.hands)
    lat, alls = b["lat"], b["all"]
    want = args.tables * args.rounds
    p50, p99, top = (pct(lat, .5), pct(lat, .99), max(lat)) if lat else (float("nan"),) * 3
    worst = max(alls) if alls else float("nan")
    ok_all = bool(alls) and worst <= ALL_S and not b["errors"] and b["complete"] == want
    ok_p99 = bool(lat) and p99 <= P99_S and not b["errors"]
    print(f"== The phones: {args.tables} tables post a round's results at the same moment, {args.rounds} rounds"
          f"{mode} ==")
    print("  all stored within        " + ", ".join(f"{a * 1000:.0f}" for a in alls)
          + f" ms (worst {worst * 1000:.0f} ms; target {ALL_S * 1000:.0f} ms {verdict(ok_all)}); "
          f"{b['complete']} of {want} table results in the standings, {b['stored']} games stored")
    print(f"  each request             p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {top * 1000:.0f} ms "
          f"over {len(lat)} of {want} (target p99 <= {P99_S * 1000:.0f} ms {verdict(ok_p99)}); "
          f"{len(b['errors'])} errors")
    if b["errors"]:
        print("  errors: " + "; ".join(b["errors"][:5]))
    print(f"== A whole night on {args.tables} phones: {args.night_rounds} rounds of {args.hands} hands, "
          f"the firmware by key presses{mode} ==")
    print(f"  {n['sent']} requests in {n['wall']:.1f} s, answered {dict(sorted(n['statuses'].items()))}; "
          f"the night {'complete' if n['complete'] else 'NOT complete'}")
    print(f"  server memory            VmRSS {n['rss0'] / 1024:.1f} MB before, {n['rss'] / 1024:.1f} MB after; "
          f"peak (VmHWM) {n['hwm'] / 1024:.1f} MB")
    print(f"  server CPU               {n['cpu']:.2f} s over the {n['wall']:.1f} s of the night "
          f"({100 * n['cpu'] / n['wall']:.0f}% of a core)")
    for name, v in (("club_phones_all_ms", round(worst * 1000, 1)), ("club_phones_p50_ms", round(p50 * 1000, 1)),
                    ("club_phones_p99_ms", round(p99 * 1000, 1)), ("club_phones_max_ms", round(top * 1000, 1)),
                    ("club_phones_results", len(lat)), ("club_phones_errors", len(b["errors"])),
                    ("club_phones_night_requests", n["sent"]), ("club_phones_rss_kb", n["rss"]),
                    ("club_phones_hwm_kb", n["hwm"]), ("club_phones_cpu_s", round(n["cpu"], 2))):
        print(f"RESULT {name} {v}")
    return 0 if lat and not b["errors"] and b["complete"] == want and n["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())
