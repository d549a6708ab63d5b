# MicroPython half of `make bench` (tools/bench.py runs it; not for CPython).
#
#     node tests/mpy/run_script.mjs [--engine=DIR] tools/bench_mpy.py [STEP ...] [key=value ...]
#
# STEPs, run in this order whatever order they are given in:
#   imports   gc.mem_alloc() delta of `import euchre, euchre.logline` (what a
#             device game needs); then the same after a device-like game
#             (table mode, events as text, each logged as a line and read
#             back, a resume from a checkpoint) with the game dropped: the
#             engine code resident once a device has played, lazily loaded
#             modules included (and which euchre modules those are); then
#             euchre.cardmode (card mode only). Must run first in a fresh
#             interpreter: nothing of the engine may be loaded before it.
#   modules   the same import one module at a time, in dependency order.
#             Needs an engine directory whose __init__ is EMPTY (bench.py
#             makes one), else importing euchre.cards would load everything.
#   game      a 30-hand Five-Handed game in table mode: peak game state.
#   speed     card-mode random hands per second per variant.
# Options: seed=N (1), ms=N per variant for speed (2000), hands=N (30).
#
# Output: `RESULT key value` lines (bench.py parses them).
#
# Memory: every figure is gc.mem_alloc() of live objects. Two quirks of this
# WebAssembly build (the Pico has neither):
# * its heap grows on demand, so gc.mem_free() means nothing;
# * gc.collect() called from Python only *flags* a collection, which runs
#   when control returns to JavaScript. So this script is a generator run
#   in steps by run_script.mjs (_bower_mpy_steps): every measurement is
#   taken right after a `yield`, when the heap has just been collected.
# json, binascii and array are imported BEFORE any baseline: log.py needs
# json and binascii, game.py array. json and array are built-in C modules
# everywhere; binascii is built in on the Pico, but in this wasm build it is
# micropython-lib's pure-Python module (several KB of heap), which would
# otherwise be charged to the engine. Its cost here is reported separately.

import gc
import sys
import time

import _bower_mpy_steps


def result(key, value):
    print("RESULT", key, value)


# ----- imports ---------------------------------------------------------------

def step_baseline():
    gc.collect()
    yield
    b0 = gc.mem_alloc()
    import json  # noqa: F401  (built in: C)
    import array  # noqa: F401  (built in: C)
    gc.collect()
    yield
    b1 = gc.mem_alloc()
    import binascii  # noqa: F401  (pure Python in this wasm build only)
    gc.collect()
    yield
    result("baseline_builtins", b1 - b0)
    result("baseline_binascii", gc.mem_alloc() - b1)


def _qstr_info(key):
    # Interned names live in qstr pools on the heap (part of every figure);
    # qstr_info() prints "qstr pool: n_pool=.., n_qstr=.., ..." (no heap).
    try:
        from micropython import qstr_info
    except ImportError:
        return
    print("RESULT", key, end=" ")
    qstr_info()


def step_imports():
    if "euchre" in sys.modules:
        raise RuntimeError("imports: euchre was loaded before the baseline")
    gc.collect()
    yield
    b = gc.mem_alloc()
    _qstr_info("qstr_before")
    __import__("euchre")
    __import__("euchre.logline")
    # Nothing is collected before the next yield: this is everything the
    # import allocated, garbage (e.g. the compiler's) included.
    result("import_allocated", gc.mem_alloc() - b)
    gc.collect()
    yield
    t = gc.mem_alloc()
    _qstr_info("qstr_after")
    result("import_total", t - b)
    _device_game()
    gc.collect()
    yield
    t = gc.mem_alloc()
    result("session_total", t - b)
    result("session_modules", ",".join(sorted([k for k in sys.modules if k.startswith("euchre")])))
    __import__("euchre.cardmode")
    gc.collect()
    yield
    result("import_cardmode", gc.mem_alloc() - t)
    m = sys.modules
    result("engine_files", ",".join([m[k].__file__.rsplit("/", 1)[-1]
                                     for k in ("euchre", "euchre.logline", "euchre.cardmode")]))


# What the device does with the engine in a game: a Five-Handed table game
# through Game.apply(text), every event logged as a line and read back, the
# game rebuilt from its header and lines and resumed from a checkpoint.
# Kept as text and compiled only when the step runs: names in this script's
# own code are interned before the import baseline, and these are the
# engine's names (the import figure would not pay for them).
_DEVICE_GAME = """
from euchre import Game, Rules
from euchre.logline import encode_line, decode_line, header_payload
from euchre.game import game_from_header
g = Game(Rules("five", winning_score=3), ["A", "B", "C", "D", "E"], dealer=0)
lines = [encode_line(header_payload(g))]
while not g.is_terminal():
    legal = [a for a in g.legal_actions() if a.split()[0] not in ("redeal", "claim", "renege", "throwin", "quick")]
    g.apply(legal[-1])
    lines.append(encode_line(legal[-1]))
r = game_from_header(decode_line(lines[0]))
for line in lines[1:]:
    r.apply(decode_line(line))
if r.scores != g.scores:
    raise RuntimeError("device game: the replay scored %r, not %r" % (r.scores, g.scores))
r.restore(r.checkpoint())
"""


def _device_game():
    exec(_DEVICE_GAME, {})  # nothing of the game survives this call


MODULES = ("euchre", "euchre.cards", "euchre.actions", "euchre.phases", "euchre.rules",
           "euchre.hand", "euchre.game", "euchre.logline", "euchre.cardmode")


def step_modules():
    if "euchre" in sys.modules:
        raise RuntimeError("modules: euchre was loaded before the baseline")
    for name in MODULES:
        gc.collect()
        yield
        b = gc.mem_alloc()
        __import__(name)
        if name == "euchre" and hasattr(sys.modules["euchre"], "Game"):
            raise RuntimeError("modules: needs an engine dir with an empty __init__ (see bench.py)")
        gc.collect()
        yield
        result("mod:" + name, gc.mem_alloc() - b)


# ----- game state ------------------------------------------------------------

def _rnd():
    import random
    return random.getrandbits(24) / 16777216.0


def _weight(a, only_reveals):
    # How likely a table is to report ``a`` now (relative weights).
    sp = a.find(" ")
    kind = a if sp < 0 else a[:sp]
    if kind == "up":                       # a suit, rarely a 2/joker up
        return 1.0 if len(a) == 4 else 0.05
    if kind == "pass":
        return 5.0
    if kind == "partner":                  # ~29 cards: mostly a partner
        return 0.5
    if kind == "reveal":                   # the partner card shows mid-play
        return 1.0 if only_reveals else 0.1
    if kind in ("order", "call", "name", "turn", "alone", "won", "defend", "tricks"):
        return 1.0
    if kind in ("redeal", "claim", "throwin"):
        return 0.01
    return 0.002                           # renege, declarations, ...


def _pick(legal):
    only_reveals = legal[0][:6] == "reveal"
    ws = [_weight(a, only_reveals) for a in legal]
    x = _rnd() * sum(ws)
    for i in range(len(ws)):
        x -= ws[i]
        if x < 0:
            return legal[i]
    return legal[-1]


def step_game(seed, hands):
    import random
    from euchre import Game, Rules
    from euchre.hand import SCORED, REDEAL
    random.seed(seed)
    gc.collect()
    yield
    pre = gc.mem_alloc()
    g = Game(Rules("five", winning_score=99))
    gc.collect()
    yield
    created = peak = gc.mem_alloc()
    events = scored = redeals = 0
    hand_no = g.hand_no
    while g.hand_no <= hands:
        if g.result:
            raise RuntimeError("game: the game ended after %d hands, before %d" % (g.hand_no - 1, hands))
        legal = [a for a in g.legal_actions() if a[:5] != "quick"]   # (entered in full)
        choice = _pick(legal)
        legal = None
        g.apply(choice)
        events += 1
        choice = None
        if g.hand_no != hand_no:
            hand_no = g.hand_no
            r = g.last_hand.result
            scored += r == SCORED
            redeals += r == REDEAL
        gc.collect()
        yield
        m = gc.mem_alloc()
        if m > peak:
            peak = m
    result("game_created", created - pre)
    result("game_peak", peak - pre)
    result("game_final", m - pre)
    result("game_hands", g.hand_no - 1)
    result("game_scored", scored)
    result("game_redeals", redeals)
    result("game_events", events)
    result("game_log_events", g.event_count())
    result("game_scores", ",".join([str(s) for s in g.scores]))
    kinds = {}  # the event mix, from the log (after the measurements)
    for e in g.events():
        k = e.split()[0]
        kinds[k] = kinds.get(k, 0) + 1
    result("game_mix", ",".join(["%s:%d" % (k, kinds[k]) for k in sorted(kinds)]))


# ----- speed -------------------------------------------------------------------

def step_speed(seed, ms):
    import random
    from euchre import Rules, Hand
    from euchre.cardmode import shuffled_deck
    gb = random.getrandbits

    def rand_below(n):
        return (gb(16) * n) >> 16

    ticks_ms, ticks_diff = time.ticks_ms, time.ticks_diff
    for variant in ("classic", "five", "callpartner", "ultimate"):
        random.seed(seed)
        rules = Rules(variant)
        n = rules.num_players
        hands = events = dealer = 0
        gc.collect()
        yield
        t0 = last = ticks_ms()
        while True:
            h = Hand(rules, dealer, cards=True)
            h.deal(shuffled_deck(rules, rand_below))
            while not h.is_terminal():
                h.apply_legal(rand_below(len(h.legal_ids())))
            hands += 1
            events += h.events
            dealer = (dealer + 1) % n
            now = ticks_ms()
            el = ticks_diff(now, t0)
            if el >= ms:
                break
            if ticks_diff(now, last) >= 20:
                # Let the garbage be collected (at the top level; the time
                # that takes counts, as a device's collections would).
                h = None
                gc.collect()
                yield
                last = ticks_ms()
        result("speed:" + variant, "%d %d %d" % (hands, el, events))


# ----- main --------------------------------------------------------------------

def main(argv):
    steps, opts = [], {"seed": 1, "ms": 2000, "hands": 30}
    for a in argv:
        if "=" in a:
            k, v = a.split("=", 1)
            if k not in opts:
                raise ValueError("unknown option %r" % k)
            opts[k] = int(v)
        elif a in ("imports", "modules", "game", "speed"):
            steps.append(a)
        else:
            raise ValueError("unknown step %r" % a)
    if not steps:
        steps = ["imports", "game", "speed"]
    if "imports" in steps and "modules" in steps:
        raise ValueError("imports and modules each need a fresh interpreter: run them separately")
    result("mp_version", sys.version)
    result("mp_machine", sys.implementation._machine)
    yield from step_baseline()
    if "imports" in steps:
        yield from step_imports()
    if "modules" in steps:
        yield from step_modules()
    if "game" in steps:
        yield from step_game(opts["seed"], opts["hands"])
    if "speed" in steps:
        yield from step_speed(opts["seed"], opts["ms"])


_bower_mpy_steps.run(main(sys.argv[1:]))
