#!/usr/bin/env python3
"""The live board's figure (issue 34): accepted result -> every open page shows it.

    .venv/bin/python tools/bench_club_live.py [--readers 120] [--results 20] [--tables 30] [--quick]

``bower club serve`` runs in its own process on loopback, over a 30-table,
120-player night. ``--readers`` pages (asyncio, raw HTTP/1.1 sockets) each
hold ``/events`` open, as a browser's EventSource does, and fetch
``/board.json`` on another keep-alive connection whenever an event comes,
as the board's script does. Then round logs are attached to the library
one at a time (``attach.attach_file``, what ``bower club result`` does),
each once every page has shown the one before. For each result and each
page: the time from the commit (``attach_file`` returned) to the page
having read a ``board.json`` that shows it (its "N of 30 tables in"):
p50, p95 and max over all pages and results, against issue 34's p95 <= 2 s.
And the server process's memory (VmRSS now, VmHWM its peak) and CPU seconds
(user + system) over the run, from /proc.

--quick: 12 pages, 3 results, 4 tables (tests/host/test_bench_club_live.py
keeps this code working; its figures are not the bench's). Prints
``RESULT key value`` lines like the other benches.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bower_host.club import attach as ca
from bower_host.club import night as cn
from bower_host.club.simulate import night_round_logs
from bower_host.db import Library

from bench_club import pct, serving, stop     # (tools/: the script's own directory)

TARGET_S = 2.0
SHOWN = re.compile(r": (\d+) of \d+ tables in")


def verdict(ok: bool) -> str:
    return "met" if ok else "missed"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_figures(pid: int) -> tuple[int, int, float]:
    """The process's VmRSS and VmHWM (KB) and its CPU seconds so far."""
    with open(f"/proc/{pid}/status") as f:
        kb = {ln.split(":")[0]: int(ln.split()[1]) for ln in f if ln.startswith(("VmRSS", "VmHWM"))}
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")    # utime + stime
    return kb["VmRSS"], kb["VmHWM"], cpu


class Page:
    """One open board: the results it has shown, and when (monotonic)."""

    def __init__(self):
        self.shown = 0
        self.at: dict[int, float] = {}
        self.fetches = 0
        self.ready = asyncio.Event()


async def get(reader, writer, path: str) -> tuple[bytes, bytes]:
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(int(ln.split(b":")[1]) for ln in head.split(b"\r\n") if ln.lower().startswith(b"content-length:"))
    return head.split(b" ", 2)[1], await reader.readexactly(length)


async def page(port: int, p: Page, errors: list) -> None:
    ev_r, ev_w = await asyncio.open_connection("127.0.0.1", port)
    br, bw = await asyncio.open_connection("127.0.0.1", port)
    wanted = asyncio.Event()

    async def fetcher():
        while True:
            await wanted.wait()
            wanted.clear()
            status, body = await get(br, bw, "/board.json")
            t = time.monotonic()
            p.fetches += 1
            if status != b"200":
                errors.append(f"board.json: {status.decode()}")
                continue
            m = SHOWN.search(json.loads(body)["status"])
            k = int(m.group(1)) if m else 0
            for j in range(p.shown + 1, k + 1):
                p.at[j] = t
            p.shown = max(p.shown, k)
            p.ready.set()

    task = asyncio.create_task(fetcher())
    try:
        ev_w.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        await ev_w.drain()
        head = await ev_r.readuntil(b"\r\n\r\n")
        if head.split(b" ", 2)[1] != b"200":
            errors.append(f"/events: {head.splitlines()[0].decode()}")
            return
        while True:                                  # the chunked body: one event per chunk
            size = int((await ev_r.readline()).strip(), 16)
            if size == 0:
                return
            if b"data:" in await ev_r.readexactly(size + 2):
                wanted.set()
    except (OSError, asyncio.IncompleteReadError, ValueError) as e:
        errors.append(repr(e))
    finally:
        p.ready.set()                                # a page that failed does not hold the start up
        task.cancel()
        ev_w.close()
        bw.close()


def commit(lib, raw: bytes, name: str) -> float:
    """Attach a round log; the moment it was committed (attach_file returned)."""
    ca.attach_file(lib, raw, name)
    return time.monotonic()


async def run(port: int, db: Path, logs: list, readers: int, pid: int, wait_s: float = 10.0) -> dict:
    pages = [Page() for _ in range(readers)]
    errors: list = []
    tasks = [asyncio.create_task(page(port, p, errors)) for p in pages]
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in pages)), 60)   # every page up, fetched once
    rss0, hwm0, cpu0 = proc_figures(pid)
    t_run = time.monotonic()
    committed: dict[int, float] = {}
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1) as writer:          # the library, opened and written in one thread of its own
        lib = await loop.run_in_executor(writer, Library, db)
        try:
            for k, (name, raw) in enumerate(logs, 1):
                committed[k] = await loop.run_in_executor(writer, commit, lib, raw, name)
                deadline = time.monotonic() + wait_s
                while any(p.shown < k for p in pages) and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
                await asyncio.sleep(0.1)
        finally:
            await loop.run_in_executor(writer, lib.close)
    wall = time.monotonic() - t_run
    rss, hwm, cpu = proc_figures(pid)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = [p.at[k] - committed[k] for p in pages for k in committed if k in p.at]
    missing = sum(k not in p.at for p in pages for k in committed)
    return {"lat": lat, "missing": missing, "errors": errors, "fetches": sum(p.fetches for p in pages),
            "wall": wall, "rss0": rss0, "rss": rss, "hwm": hwm, "cpu": cpu - cpu0, "cpu_all": cpu, "hwm0": hwm0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--readers", type=int, default=120)
    ap.add_argument("--results", type=int, default=20)
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="12 pages, 3 results, 4 tables: checks the code")
    args = ap.parse_args(argv)
    if args.quick:
        args.readers, args.results, args.tables = 12, 3, 4
    results = min(args.results, args.tables - 1)       # the round stays open: "N of T tables in"
    names = [f"P{i:03d}" for i in range(4 * args.tables)]
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "live.sqlite3"
        with Library(db) as lib:
            cn.create_night(lib, "Live", names, args.tables, "progressive", 4, hands=8, seed=1, key="live")
            logs = night_round_logs(cn.load_night(lib, "live"), 1, 3)
        todo = [(f"r1-t{t}.log", logs[t]) for t in range(1, results + 1)]
        port = free_port()
        proc = serving(db, port)
        try:
            r = asyncio.run(run(port, db, todo, args.readers, proc.pid))
        finally:
            stop(proc)
    lat, n = r["lat"], args.readers * results
    mode = " (quick run: not the figures)" if args.quick else ""
    print(f"== The live board: {args.readers} open pages on /events, {results} results attached one at a time, "
          f"{args.tables} tables{mode} ==")
    p50, p95, top = (pct(lat, .5), pct(lat, .95), max(lat)) if lat else (float("nan"),) * 3
    print(f"  result -> page shows it  p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {top * 1000:.0f} ms "
          f"over {len(lat)} of {n} page x result (target p95 <= {TARGET_S * 1000:.0f} ms "
          f"{verdict(bool(lat) and p95 <= TARGET_S and not r['missing'])}); {r['missing']} never shown, "
          f"{r['fetches']} board.json fetches, {len(r['errors'])} errors")
    print(f"  server memory            VmRSS {r['rss0'] / 1024:.1f} MB with the pages open, {r['rss'] / 1024:.1f} MB "
          f"after the results; peak (VmHWM) {r['hwm'] / 1024:.1f} MB")
    print(f"  server CPU               {r['cpu']:.2f} s over the {r['wall']:.1f} s of results "
          f"({100 * r['cpu'] / r['wall']:.0f}% of a core); {r['cpu_all']:.2f} s since it started")
    if r["errors"]:
        print("  errors: " + "; ".join(r["errors"][:5]))
    for name, v in (("club_live_p50_ms", round(p50 * 1000, 1)), ("club_live_p95_ms", round(p95 * 1000, 1)),
                    ("club_live_max_ms", round(top * 1000, 1)), ("club_live_pages", args.readers),
                    ("club_live_results", results), ("club_live_missing", r["missing"]),
                    ("club_live_errors", len(r["errors"])), ("club_serve_rss_kb", r["rss"]),
                    ("club_serve_hwm_kb", r["hwm"]), ("club_serve_cpu_s", round(r["cpu"], 2))):
        print(f"RESULT {name} {v}")
    return 0 if lat and not r["missing"] and not r["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
