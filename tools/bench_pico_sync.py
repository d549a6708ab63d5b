#!/usr/bin/env python3
"""Pico time of a sync, device side, without a Pico.

    .venv/bin/python tools/bench_pico_sync.py [--before REV] [--many N] [--no-full] [--wall]

The device's half of `bower sync` (bower.link + bower.protocol over the
store on a littlefs2 flash, the modules compiled as `bower deploy` compiles
them) runs under the native MicroPython unix port, its instructions counted
by callgrind request by request (tools/pico_sync_harness.py is the
MicroPython side; the method is tools/bench_pico.py's, whose constants it
uses). For every request:

    work   PICO_NS_PER_INSN (bench_pico's fit, ns of Pico per x86-64
           instruction of the unix port) x the instructions from the request
           reaching the link (Link.poll reading it byte by byte from the USB
           FIFO) to the last byte of its reply written
    flash  ERASE_MS per 4 KB sector erase, PROG_MS per 256-byte page program
           (bench_pico's figures) that the request caused
    usb    USB_US_PER_BYTE per byte on the wire, both ways (see below)

A request also waits for the board loop to poll the link: it sleeps up to
_IDLE_MS between passes without looking at the USB, so on average half that
(LOOP_WAIT). A whole sync adds it once per request, and once per two GETs
(the host keeps up to 4 GETs in flight; the link answers two lines a pass).
The host's side is bower_host.syncer's: SYNCED for up to 12 stored games a
request (one game a request on firmware that refuses several: the first
such request is counted too).

USB: 10 us per byte (100 KB/s). USB full speed carries at most ~1.2 MB/s of
bulk data, but MicroPython's CDC output path is far slower: issue
micropython/micropython#17398 measured ~106 KB/s for
sys.stdout.buffer.write (ports/rp2, 2025), #7479 about 7 Mbit/s on an
RP2040 overclocked to 250 MHz. A GET reply blocks in write() until the 256-byte
TX FIFO (shared/tinyusb/tusb_config.h) drains, so the slow figure is used.

Scenarios (each on a fresh flash made without callgrind, then one sync):
    six    six finished Classic games, none synced (the real-firmware
           measurement of ../shared/pico-timing.md: six games, 5,028 B)
    one    --many games synced before (default 100) and one new game: one
           game's whole sync on a device that holds many
    full   games until the store wants room for the next one, none
           synced: a full flash, its throughput

Targets (issue 27): HELLO <= 50 ms; one game's whole sync <= 300 ms; a full
flash at >= 20 KB/s. --before REV benches that commit's firmware too.
"""

from __future__ import annotations

import argparse
import glob
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_pico
from bench_pico import ERASE_MS, HEAP, PICO_NS_PER_INSN, PROG_MS, REPO

HARNESS = REPO / "tools" / "pico_sync_harness.py"
USB_US_PER_BYTE = 10.0
TARGETS = {"hello_ms": 50.0, "one_game_ms": 300.0, "full_kb_s": 20.0}


def idle_ms(tree: Path) -> float:
    src = (tree / "firmware" / "bower" / "board.py").read_text()
    m = re.search(r"^_IDLE_MS\s*=\s*(\d+)", src, re.M)
    return int(m.group(1)) if m else 10.0


def run(fw: Path, tmp: Path, args: list[str], callgrind: bool) -> tuple[str, dict[int, int]]:
    fifo = tmp / "usb"
    if not fifo.exists():
        os.mkfifo(fifo)
    argv = [bench_pico.micropython(), "-X", "heapsize=" + HEAP, str(HARNESS), str(fw), str(tmp / "flash.img"),
            str(fifo)] + args
    for p in glob.glob(str(tmp / "cg.out*")):
        os.remove(p)
    if callgrind:
        if shutil.which("valgrind") is None:
            sys.exit("bench_pico_sync: valgrind is not installed (apt-get install valgrind)")
        argv = ["valgrind", "--tool=callgrind", "--dump-before=mp_os_getenv", "--dump-line=no",
                "--callgrind-out-file=" + str(tmp / "cg.out")] + argv
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("bench_pico_sync: the harness failed:\n" + proc.stdout[-3000:] + proc.stderr[-3000:])
    dumps = {}
    for p in glob.glob(str(tmp / "cg.out.*")):
        with open(p) as f:
            for ln in f:
                if ln.startswith("totals:"):
                    dumps[int(p.rsplit(".", 1)[1])] = int(ln.split()[1])
                    break
    return proc.stdout, dumps


class Req:
    def __init__(self, cmd, bin_, bout, erase, prog, insn):
        self.cmd, self.bin, self.bout, self.erase, self.prog, self.insn = cmd, bin_, bout, erase, prog, insn
        self.work = insn * PICO_NS_PER_INSN / 1e6
        self.flash = erase * ERASE_MS + prog * PROG_MS
        self.usb = (bin_ + bout) * USB_US_PER_BYTE / 1000.0
        self.ms = self.work + self.flash + self.usb


def scenario(fw: Path, setup: list[int], wait: float) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="bench_sync_"))
    try:
        out, _ = run(fw, tmp, ["setup"] + [str(x) for x in setup], callgrind=False)
        info = [ln for ln in out.splitlines() if ln.startswith("SETUP")][0].split()[1:]
        out, dumps = run(fw, tmp, ["sync"], callgrind=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    reqs = []
    for i, ln in enumerate(x for x in out.splitlines() if x.startswith("REQ ")):
        f = ln.split()
        # marks: 1 the start, then A/B per request: request i (0-based) is
        # the dump before mark 2i+3 (dump N holds mark N-1 to mark N).
        reqs.append(Req(f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5]), dumps.get(2 * i + 3, 0)))
    synced = [ln for ln in out.splitlines() if ln.startswith("SYNCED_GAMES")][0].split()
    gets = sum(1 for r in reqs if r.cmd == "GET")
    rounds = len(reqs) - gets + math.ceil(gets / 2)
    total = sum(r.ms for r in reqs) + rounds * wait
    return {"reqs": reqs, "setup": dict(zip(info[::2], (int(x) for x in info[1::2]))), "games": int(synced[1]),
            "bytes": int(synced[2]), "total_ms": total, "rounds": rounds}


def by(reqs, cmd):
    return [r for r in reqs if r.cmd == cmd]


def summary(name: str, s: dict) -> None:
    st = s["setup"]
    print("  %s: %d games on flash (%d synced, %d B of logs, %d B free); synced %d games, %d B" % (
        name, st["games"], st["synced"], st["log_bytes"], st["free"], s["games"], s["bytes"]))
    print("    %-7s %5s %9s %7s %7s %7s %7s %5s" % ("request", "n", "insn", "work", "flash", "usb", "total", "e/p"))
    for cmd in ("HELLO", "LIST", "GET", "SYNCED"):
        rs = by(s["reqs"], cmd)
        if not rs:
            continue
        worst = max(rs, key=lambda r: r.ms)
        mean = sum(r.ms for r in rs) / len(rs)
        print("    %-7s %5d %9d %7.1f %7.1f %7.1f %7.1f %2d/%-2d%s" % (
            cmd, len(rs), worst.insn, worst.work, worst.flash, worst.usb, worst.ms, worst.erase, worst.prog,
            "   (the slowest; mean %.1f ms)" % mean if len(rs) > 1 else ""))
    print("    whole sync: %.0f ms (%d polls waited for at %.1f ms)" % (s["total_ms"], s["rounds"], WAIT[0]))


WAIT = [5.0]


def bench(fw: Path, tree: Path, label: str, many: int, full: bool) -> dict:
    WAIT[0] = idle_ms(tree) / 2.0
    res = {}
    print("%s:" % label)
    six = scenario(fw, [6, 0, 0, 1], WAIT[0])
    summary("six", six)
    one = scenario(fw, [1, many, 0, 101], WAIT[0])
    summary("one", one)
    res["hello_ms"] = max(r.ms for r in by(six["reqs"] + one["reqs"], "HELLO"))
    res["list_ms"] = max(r.ms for r in by(one["reqs"], "LIST"))
    res["get_ms"] = max(r.ms for r in by(six["reqs"] + one["reqs"], "GET"))
    res["synced_ms"] = max(r.ms for r in by(six["reqs"] + one["reqs"], "SYNCED"))
    res["six_ms"] = six["total_ms"]
    res["one_game_ms"] = one["total_ms"]
    if full:
        f = scenario(fw, [0, 0, 1, 1001], WAIT[0])
        summary("full", f)
        res["full_kb_s"] = f["bytes"] / 1024.0 / (f["total_ms"] / 1000.0)
        res["full_s"] = f["total_ms"] / 1000.0
        print("    throughput: %.1f KB/s (%d B in %.1f s)" % (res["full_kb_s"], f["bytes"], res["full_s"]))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", metavar="REV", help="also bench this commit's firmware (git archive)")
    ap.add_argument("--many", type=int, default=100, help="games synced before the one new game (default 100)")
    ap.add_argument("--no-full", action="store_true", help="skip the full flash (the slow part)")
    args = ap.parse_args(argv)
    print("Pico time of the device's side of a sync (work %.2f ns/insn, erase %.0f ms, page %.1f ms, USB %.0f us/B)"
          % (PICO_NS_PER_INSN, ERASE_MS, PROG_MS, USB_US_PER_BYTE))
    tmp = Path(tempfile.mkdtemp(prefix="bench_sync_fw_"))
    try:
        before = None
        if args.before:
            src = tmp / "src"
            if not bench_pico.checkout(args.before, src):
                sys.exit("bench_pico_sync: cannot check out %s" % args.before)
            bench_pico.build(src, tmp / "old")
            before = bench(tmp / "old", src, "before (%s)" % args.before, args.many, not args.no_full)
        bench_pico.build(REPO, tmp / "now")
        now = bench(tmp / "now", REPO, "this firmware (%s)" % bench_pico.describe(), args.many, not args.no_full)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print("Targets:")
    rows = [("hello_ms", "HELLO", "<= %.0f ms" % TARGETS["hello_ms"], lambda v: v <= TARGETS["hello_ms"]),
            ("one_game_ms", "one game's whole sync", "<= %.0f ms" % TARGETS["one_game_ms"],
             lambda v: v <= TARGETS["one_game_ms"]),
            ("full_kb_s", "full flash throughput", ">= %.0f KB/s" % TARGETS["full_kb_s"],
             lambda v: v >= TARGETS["full_kb_s"])]
    for key, what, target, ok in rows:
        if key not in now:
            continue
        was = " (before: %.1f)" % before[key] if before and key in before else ""
        print("  %-24s %8.1f%s  target %s: %s" % (what, now[key], was, target, "met" if ok(now[key]) else "MISSED"))
    for key in ("hello_ms", "list_ms", "get_ms", "synced_ms", "six_ms", "one_game_ms", "full_kb_s", "full_s"):
        if key in now:
            print("RESULT pico_sync_%s %.1f" % (key, now[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
