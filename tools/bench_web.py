#!/usr/bin/env python3
"""Bower on a phone: the web build's figures (`make bench`, issue 33).

    .venv/bin/python tools/bench_web.py [--quick]

Debian's Chromium driven by Playwright through its DevTools protocol, the
site built by `bower web build` and served gzipped by `bower web serve`'s
app on loopback, the CPU throttled 4x (Emulation.setCPUThrottlingRate):

1. Cold start (a fresh profile) on DevTools' "Slow 4G" profile
   (Network.emulateNetworkConditions: 562.5 ms latency, 180,000 B/s down,
   84,375 B/s up): the bytes of the responses' bodies as the server sent
   them (gzipped) until the first screen, and with the service worker's own
   copy of the files after it (counted at the server: Chromium's
   encodedDataLength reads 0 for the fetch of bower.pak), and the time from
   the navigation to the first screen drawn (the page's mark
   bower:first-screen).
2. Warm offline start: the same profile reloaded with the server stopped
   (the service worker serves it): navigation to the first screen.
3. Tap to changed canvas pixel over a whole Classic game of taps (real CDP
   touches): from the input event's timeStamp to the end of the first draw
   that changed the picture (the page's measures bower:tap).
4. Storage per Classic game: the bytes IndexedDB's values hold after the
   game less before it, and navigator.storage.estimate()'s usage likewise.
5. MicroPython's live heap after every press of a whole Five-Handed game,
   the idle warm-up done (a collection asked for, then gc.mem_alloc()), its
   highest against the Pico's GC pool (245,888 B; 241,504 free at boot,
   ../shared/pico-timing.md).

The machine's load moves the timed figures (two cores shared here: cold
start 2.8-3.5 s, tap median 18-30 ms over runs of the same build).

The games are seeded table-mode games (tests/firmware/uikit.py's
table_game), entered through the real UI by the simulator's driver, its key
presses recorded and tapped on the phone; the phone's last screen is checked
against the simulator's. --quick: the first 12 presses of each game, no
throttling, for the test that keeps this code working
(tests/host/test_bench_web.py); its figures are not the bench's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "host"), str(REPO / "tests" / "firmware")]

from bower_host import simhw  # noqa: E402

simhw.install()

import webphone as W  # noqa: E402

SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}
CPU = 4
PICO_HEAP = 245_888
KB = 1024


def keys_of_game(variant: str, seed: int, flash: Path):
    """A whole seeded game entered through the UI of the simulator's device
    on a fresh flash: its key presses ('up', 'down', 'ok', 'back', or
    ('hold', key)) and the device's panel RAM at the end."""
    from bower import keys as K
    from bower_host.simulator import Device
    from uikit import Driver, table_game

    names = {K.UP: "up", K.DOWN: "down", K.OK: "ok", K.BACK: "back", K.OK_LONG: ("hold", "ok"),
             K.BACK_LONG: ("hold", "back")}
    dev = Device(str(flash))
    out = []
    t = [1000]

    class Recorder(Driver):
        def press(self, ev, n=1):
            for _ in range(n):
                out.append(names[ev])
                t[0] += 300 if ev not in (K.OK_LONG, K.BACK_LONG) else 1000
                dev.press(ev, t[0])

    d = Recorder(app=dev.app, store=dev.store)
    d.new_game(variant)
    events, _ = table_game(variant, seed)
    for e in events:
        d.enter(e)
    return out, bytes(dev.gddram())


def tap(page, key):
    if isinstance(key, tuple):
        W.press(page, key[1], hold_ms=700)
    else:
        W.press(page, key)


def verdict(ok: bool) -> str:
    return "met" if ok else "missed"


def cdp_throttled(page, network=None, rate=CPU):
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    if network:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    return cdp


def first_screen(page) -> float:
    page.wait_for_function("performance.getEntriesByName('bower:first-screen').length > 0", timeout=120_000)
    return page.evaluate("performance.getEntriesByName('bower:first-screen')[0].startTime")


def starts(folder: Path, quick: bool):
    # (bytes the page's requests took, with the service worker's copy), cold and warm ms.
    sent = []
    with tempfile.TemporaryDirectory() as profile, W.chromium(Path(profile)) as ctx:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        with W.serving(folder, sent) as url:
            cdp = cdp_throttled(page, *((None, 1) if quick else (SLOW_4G, CPU)))
            page.goto(url)
            cold = first_screen(page)
            W.booted(page, 120)
            page_bytes = sum(n for _, n in sent)
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.wait_for_timeout(3000)     # the worker's cache filled
            all_bytes = sum(n for _, n in sent)
            if not quick:
                cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                              "downloadThroughput": -1, "uploadThroughput": -1})
        page.reload()      # (the server stopped: the service worker serves the page)
        warm = first_screen(page)
        W.booted(page, 60)
    return page_bytes, all_bytes, cold, warm


def classic(folder: Path, keys, end, quick: bool):
    with W.chromium() as ctx, W.serving(folder) as url:
        page = ctx.new_page()
        page.goto(url)
        W.booted(page, 60)
        before = page.evaluate(STORED)
        if not quick:
            cdp_throttled(page)
        page.evaluate("performance.clearMeasures('bower:tap')")
        for k in keys:
            tap(page, k)
        taps = page.evaluate("performance.getEntriesByName('bower:tap').map((e) => e.duration)")
        after = page.evaluate(STORED)
        same = end is None or W.frame(page) == end
    return taps, after[0] - before[0], after[1] - before[1], same


STORED = """async () => {
    const files = await window.bower.flash.files();
    let n = 0;
    for (const [path, v] of files) n += path.length + (v === "dir" ? 3 : v.byteLength);
    const e = await navigator.storage.estimate();
    return [n, e.usage ?? 0];
}"""

LIVE = r"""() => {
    const mp = window.bower.mp;
    mp.runPython("import gc\ngc.collect()");
    mp.runPython("_live = gc.mem_alloc()");
    return mp.globals.get("_live");
}"""


def five(folder: Path, keys, end, quick: bool):
    # After each press the device's idle warm-up (the modules the next press
    # may need, loaded 120 ms into a quiet spell) is let finish: the screen
    # at rest, as the Pico's heap is read (../shared/pico-timing.md).
    with W.chromium() as ctx, W.serving(folder) as url:
        page = ctx.new_page()
        page.goto(url)
        W.booted(page, 60)
        peak = page.evaluate(LIVE)
        for k in keys:
            tap(page, k)
            if not quick:
                page.wait_for_timeout(400)
                W.settle(page)
            peak = max(peak, page.evaluate(LIVE))
        same = end is None or W.frame(page) == end
    return peak, same


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a few presses, no throttling: checks the code, not figures")
    args = ap.parse_args(argv)
    if W.CHROMIUM is None:
        print("bench_web: no chromium (apt-get install -y chromium)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        folder = W.build_site(t / "site")
        ck, cend = keys_of_game("classic", 1, t / "c")
        fk, fend = keys_of_game("five", 1, t / "f")
        if args.quick:
            ck, fk, cend, fend = ck[:12], fk[:12], None, None
        mode = "quick run, no throttling: not the figures" if args.quick else "CPU %dx" % CPU
        print("== Bower on a phone (Chromium %s; %s) ==" % (W.CHROMIUM, mode))
        n_bytes, with_sw, cold, warm = starts(folder, args.quick)
        print("  cold start transfer     %7.1f KB   gzipped bodies the server sent until the first screen was up"
              " (target <= 350 KB %s); %.1f KB with the service worker's copy" % (
                  n_bytes / KB, verdict(n_bytes <= 350 * KB), with_sw / KB))
        print("  cold start, first screen %6.0f ms   (Slow 4G: 562.5 ms, 180,000 B/s down; target <= 2500 ms %s)"
              % (cold, verdict(cold <= 2500)))
        print("  warm offline start       %6.0f ms   (target <= 500 ms %s)" % (warm, verdict(warm <= 500)))
        taps, values, usage, same = classic(folder, ck, cend, args.quick)
        med, p95 = statistics.median(taps), pct(taps, 0.95)
        print("  tap -> changed pixel     median %.1f ms (target <= 16 %s), p95 %.1f ms (target <= 33 %s),"
              " max %.1f; %d taps that changed the screen of %d presses (Classic game)%s"
              % (med, verdict(med <= 16), p95, verdict(p95 <= 33), max(taps), len(taps), len(ck),
                 "" if same else "; THE LAST SCREEN IS NOT THE SIMULATOR'S"))
        print("  storage per Classic game %6d B    IndexedDB's values (target <= 4096 B %s); estimate() %+d B"
              % (values, verdict(values <= 4096), usage))
        peak, same5 = five(folder, fk, fend, args.quick)
        print("  MicroPython live heap    %6d B    highest over a Five-Handed game (%d presses): %.0f%% of the Pico's"
              " 245888 B pool (target: within the Pico's 245888 B pool %s)%s" % (
                  peak, len(fk), 100 * peak / PICO_HEAP, verdict(peak < PICO_HEAP),
                  "" if same5 else "; THE LAST SCREEN IS NOT THE SIMULATOR'S"))
        for name, v in (("web_cold_bytes", n_bytes), ("web_cold_ms", round(cold)), ("web_warm_ms", round(warm)),
                        ("web_tap_median_ms", round(med, 1)), ("web_tap_p95_ms", round(p95, 1)),
                        ("web_storage_game_bytes", values), ("web_heap_peak_bytes", peak)):
            print("RESULT %s %s" % (name, v))
    return 0 if (same and same5) else 1


if __name__ == "__main__":
    sys.exit(main())
