#!/usr/bin/env python3
"""Club night figures: a 30-table, 120-player, 10-round progressive night end to end.

    .venv/bin/python tools/bench_club.py [--tables 30] [--rounds 10] [--clients 300] [--seed 1]

1. The night is played round by round on a Bower per table
   (``tests/host/clubtables.py``): the real firmware -- UI core, flash store
   on a directory, link -- in this process. The host pushes each table's
   round over the link (``bower club push``'s request), the engine's bots
   play it with real cards and press the keys a table would (Club round,
   Start round, every input, OK to accept), then the host syncs the 30
   Bowers in random order, a fifth of them twice (``bower sync``'s
   ``Syncer``, which counts the rounds): the time to sync a round from all
   its tables is reported. The next round is seated by the progressive
   movement from the synced results.
2. The same logs are also handed in as files to a fresh library in random
   order, a fifth twice (``attach.attach_file``, what ``bower club result``
   does): the time to import a round from all its tables.
3. Both libraries' standings must equal an independent recomputation from
   the devices' logs (``tests/host/test_club_night.recompute``: the
   engine's running scores with the club's values swapped in by each
   hand's outcome code).
4. ``bower club serve`` runs in its own process; ``--clients`` concurrent
   keep-alive clients on loopback (asyncio) fetch the board page and the
   results endpoint in turn, 20 requests each: 99th-percentile response
   times and throughput. Bounded in count and time; loopback only.

Prints ``RESULT key value`` lines like the other benches.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "host"))      # the independent recomputation

from bower_host.club import attach as ca  # noqa: E402
from bower_host.club import night as cn  # noqa: E402
from bower_host.club import standings as cs  # noqa: E402
from bower_host.db import Library  # noqa: E402
from bower.store import extra  # noqa: E402

SCORING = {"loner": 4, "set_loner": 2, "renege": 2}


def play(db: Path, tmp: Path, names, tables: int, rounds: int, seed: int) -> tuple[list, dict]:
    """The night on a Bower per table, synced into ``db``: every round log as
    ``(round, table, bytes)`` read back from the Bowers' flash, and the
    timings of ``clubtables.play_night``."""
    from clubtables import play_night
    with Library(db) as lib:
        cn.create_night(lib, "Bench", names, tables, "progressive", rounds, hands=8, seed=seed, key="bench",
                        scoring=SCORING)
        got = play_night(lib, "bench", tmp / "flash", seed, renege=0.02, again=0.2)
        got["night"] = cn.load_night(lib, "bench")
    logs = []
    for t, b in got["bowers"].items():
        for i, g in enumerate(extra("past").games(b.store), 1):
            logs.append((i, t, b.store.read(g["id"], 0, 1 << 22)))
    return logs, got


def import_all(db: Path, names, logs, tables: int, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    order = logs + rng.sample(logs, len(logs) // 5)
    rng.shuffle(order)
    per_round: dict = {}
    statuses: dict = {}
    with Library(db) as lib:
        cn.create_night(lib, "Bench", names, tables, "progressive", rounds, hands=8, seed=seed, key="bench",
                        scoring=SCORING)
        for rnd, t, raw in order:
            t0 = time.perf_counter()
            a = ca.attach_file(lib, raw, f"r{rnd}-t{t}.log")
            dt = time.perf_counter() - t0
            statuses[a.status] = statuses.get(a.status, 0) + 1
            if a.status == "new":
                per_round[rnd] = per_round.get(rnd, 0.0) + dt
        night = cn.load_night(lib, "bench")
    return {"night": night, "per_round": per_round, "statuses": statuses, "imports": len(order)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def client(port: int, paths, times: list, errors: list, deadline: float) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as e:
        errors.append(str(e))
        return
    try:
        for path in paths:
            if time.monotonic() > deadline:
                return
            t0 = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = head.split(b" ", 2)[1]
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            times.append((path, time.perf_counter() - t0))
            if status != b"200":
                errors.append(f"{path}: {status.decode()}")
    except (OSError, asyncio.IncompleteReadError) as e:
        errors.append(repr(e))
    finally:
        writer.close()


async def load(port: int, clients: int, per_client: int, limit_s: float) -> tuple[list, list, float]:
    times: list = []
    errors: list = []
    deadline = time.monotonic() + limit_s
    paths = ["/", "/results.json"] * (per_client // 2)
    start = time.perf_counter()
    await asyncio.gather(*(client(port, paths[i % 2:] + paths[:i % 2], times, errors, deadline)
                           for i in range(clients)))
    return times, errors, time.perf_counter() - start


def wait_up(port: int, proc, timeout: float = 30.0, what: str = "bower club serve") -> None:
    """Wait until ``proc`` (``what``) listens on ``port``; SystemExit if it exits or does not within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited: {proc.stdout.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.communicate(timeout=10)
    raise SystemExit(f"{what} did not start")


def serving(db: Path, port: int):
    """``bower club serve`` of the library ``db`` in its own process, once it listens on ``port``."""
    proc = subprocess.Popen([sys.executable, "-m", "bower_host", "club", "serve", "--db", str(db), "--port",
                             str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    wait_up(port, proc)
    return proc


def stop(proc) -> str:
    """Stop a ``serving`` process (SIGTERM, then SIGKILL after 10 s); its output."""
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def pct(xs, q) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--clients", type=int, default=300)
    ap.add_argument("--requests", type=int, default=20, help="requests per client")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from test_club_night import recompute

    names = [f"P{i:03d}" for i in range(4 * args.tables)]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        db = tmp / "night.sqlite3"
        logs, dev = play(db, tmp, names, args.tables, args.rounds, args.seed)
        print(f"night: {args.tables} tables, {len(names)} players, {args.rounds} rounds of 8 hands on "
              f"{args.tables} simulated Bowers: {dev['presses']} key presses by the bots in {dev['play_s']:.1f} s, "
              f"pushes {dev['push_s']:.2f} s, {len(logs)} round logs")
        want = sorted(recompute([raw for _, _, raw in logs], SCORING, names))

        def standing(night):
            return sorted((s["place"], s["player"], s["points"], s["won"], s["loners"], s["euchres"])
                          for s in cs.standings(night))
        synced_match = standing(dev["night"]) == want and dev["night"].complete()
        sync_s = list(dev["sync_s"].values())
        print(f"sync: every Bower after each round, in random order, a fifth twice ({dev['statuses']}); "
              f"standings {'identical to' if synced_match else 'DIFFER from'} the independent recomputation")
        print(f"sync of a round from {args.tables} Bowers: median {statistics.median(sync_s):.2f} s, "
              f"max {max(sync_s):.2f} s")
        r = import_all(tmp / "files.sqlite3", names, logs, args.tables, args.rounds, args.seed)
        match = synced_match and standing(r["night"]) == want and r["night"].complete()
        rounds_s = list(r["per_round"].values())
        print(f"import as files: {r['imports']} logs in random order ({r['statuses']}); standings "
              f"{'identical to' if match else 'DIFFER from'} the independent recomputation")
        print(f"import of a round from {args.tables} tables: median {statistics.median(rounds_s):.2f} s, "
              f"max {max(rounds_s):.2f} s")
        port = free_port()
        proc = serving(db, port)
        try:
            asyncio.run(load(port, 10, 4, 30))            # warm the page cache
            times, errors, wall = asyncio.run(load(port, args.clients, args.requests, 120))
        finally:
            stop(proc)
        page = [t for p, t in times if p == "/"]
        res = [t for p, t in times if p == "/results.json"]
        print(f"load: {args.clients} concurrent clients, {len(times)} requests in {wall:.2f} s "
              f"({len(times) / wall:.0f}/s), {len(errors)} errors; page p50 {pct(page, .5) * 1000:.0f} ms "
              f"p99 {pct(page, .99) * 1000:.0f} ms; results.json p50 {pct(res, .5) * 1000:.0f} ms "
              f"p99 {pct(res, .99) * 1000:.0f} ms")
        if errors:
            print("errors: " + "; ".join(errors[:5]))
    print(f"RESULT club_round_logs {len(logs)}")
    print(f"RESULT club_standings_match {int(match)}")
    print(f"RESULT club_sync_round_s {statistics.median(sync_s):.3f}")
    print(f"RESULT club_sync_round_max_s {max(sync_s):.3f}")
    print(f"RESULT club_import_round_s {statistics.median(rounds_s):.3f}")
    print(f"RESULT club_import_round_max_s {max(rounds_s):.3f}")
    print(f"RESULT club_page_p99_ms {pct(page, .99) * 1000:.1f}")
    print(f"RESULT club_results_p99_ms {pct(res, .99) * 1000:.1f}")
    print(f"RESULT club_requests_per_s {len(times) / wall:.0f}")
    print(f"RESULT club_load_errors {len(errors)}")
    return 0 if match and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
