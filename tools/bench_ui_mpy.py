# MicroPython half of tools/bench_ui.py (not for CPython):
#
#     node tests/mpy/run_script.mjs tools/bench_ui_mpy.py [seed=N] [quick]
#
# Imports everything the device runs (engine, UI, store, link, display, the
# ssd1306 driver), then plays a whole Five-Handed game through the UI by key
# presses, with the store on this MicroPython's filesystem and the driver
# talking to an SSD1306 model on a fake I2C bus. Every press is handled,
# rendered and flushed like the device loop does.
#
# Prints `RESULT key value` lines: import cost, the peak gc.mem_alloc() of
# live objects over the game (the test harness's own share taken out), and
# time per input (handle + tick + render + show) in microseconds. With the
# argument ``quick``, the same game's hands are told in quick score
# (euchre.quick, bower.quick: who made trump and how each hand ended). Code is
# compiled with micropython.opt_level(3), the same bytecode as the .mpy files
# bower deploy makes with mpy-cross -O3.
#
# This wasm build collects garbage only between steps (see tools/bench_mpy.py),
# so the game runs as a generator and every figure is read after a `yield`.

import gc
import os
import sys
import time

import _bower_mpy_steps

sys.path.append("/tests/firmware")


def result(key, value):
    print("RESULT", key, value)


def main(argv):
    seed = 4
    quick = "quick" in argv   # quick score: the same game's hands told quick
    for a in argv:
        if a.startswith("seed="):
            seed = int(a[5:])
    # Built in on the Pico (see bench_mpy.py): loaded before the baseline.
    import json  # noqa: F401
    import array  # noqa: F401
    import binascii  # noqa: F401
    import micropython
    # Compiled as bower deploy compiles the device's .mpy files (mpy-cross
    # -O3: no line-number tables, no asserts).
    micropython.opt_level(3)
    result("compiled_as", "opt_level(3), as bower deploy's mpy-cross -O3")
    gc.collect()
    yield
    b0 = gc.mem_alloc()
    import euchre
    import euchre.logline  # noqa: F401
    from bower import ui, store, link, display, gfx, keys  # noqa: F401
    if quick:
        # (a hand in quick score has these instead of bower.play)
        __import__("bower.quick")
        __import__("euchre.quick")
    else:
        from bower import play  # noqa: F401
    import ssd1306
    gc.collect()
    yield
    hand = gc.mem_alloc() - b0
    # Loaded outside a hand only: the setup and settings menus, the store's
    # boot/sync/space part and the sync protocol. The app drops them when a
    # hand's screen shows; their interned names stay (qstrs are never freed),
    # so they are loaded and dropped here, as the device does before a game.
    lazy = ("bower.screens", "bower.home", "bower.past", "bower.protocol")
    for name in lazy:
        __import__(name)
        gc.collect()
        yield
        m = gc.mem_alloc()
        result("import_lazy_%s_bytes" % name[6:], m - b0 - hand)
        hand = m - b0
    result("import_all_bytes", hand)
    from bower import unload
    for name in lazy:
        unload(name)
    gc.collect()
    yield
    result("import_during_hand", gc.mem_alloc() - b0)
    b1 = gc.mem_alloc()
    # The harness: the scripted game, the SSD1306 model behind a fake bus (a
    # Pico has a machine.I2C there), the key-pressing driver with its text
    # canvas and the timings. It is all made here, so it counts as harness
    # and not as device state.
    import uikit
    from ssd1306_model import MiniI2C, MiniSSD1306
    events, ref = uikit.table_game("five", seed)
    hands = ref.hand_no - 1
    if quick:
        # (uikit.hands_of: each hand as who made trump and how it ended)
        told = []
        for _full, t, _scores in uikit.hands_of("five", events)[0]:
            told += t
        events = told
        told = None
    want = ref.scores
    ref = None
    model = MiniSSD1306()
    bus = MiniI2C(model)
    d = uikit.Driver(app=1, store=1)  # its app and store follow below
    times = [0] * 1024  # more than the presses of a game
    n_times = [0]
    peak = [0]
    ticks_us, diff = time.ticks_us, time.ticks_diff
    gc.collect()
    yield
    b2 = gc.mem_alloc()
    harness = b2 - b1
    try:
        os.mkdir("/flash")
    except OSError:
        pass
    st = store.Store("/flash", device="e6614103e7")
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    disp = display.Display(drv)
    app = ui.App(st, {"version": "bench", "device": "e6614103e7"}, uikit.Rng(seed).randrange)
    lk = link.Link(st, {"version": "bench", "device": "e6614103e7", "board": {}}, lambda b: None)
    d.app = app
    d.store = st

    def press(ev, n=1):
        for _ in range(n):
            d.now += 150
            d.presses += 1
            t0 = ticks_us()
            app.handle(ev, d.now)
            app.tick(d.now)
            if app.dirty:
                app.render(disp.fb)
                disp.show()
            times[n_times[0]] = diff(ticks_us(), t0)
            n_times[0] += 1
            model.clear_stats()  # the model's own byte counts are not the device's
    d.press = press
    if quick:
        st.save_settings({"quick": 1})
    d.new_game("five")
    app.render(disp.fb)
    disp.show()
    gc.collect()
    yield
    start = gc.mem_alloc()
    for e in events:
        d.enter(e)
        gc.collect()
        yield
        m = gc.mem_alloc()
        if m > peak[0]:
            peak[0] = m
    if app.game.scores != want:
        raise RuntimeError("the game through the UI scored differently from the engine")
    lk.feed(b"")
    times = sorted(times[:n_times[0]])
    result("game_hands", hands)
    result("game_inputs", len(events))
    result("presses", len(times))
    result("harness_bytes", harness)
    result("live_at_game_start", start - b0 - harness)
    result("peak_alloc", peak[0] - b0 - harness)
    result("peak_state_beyond_imports", peak[0] - b2)
    result("time_per_input_us_median", times[len(times) // 2])
    result("time_per_input_us_max", times[-1])
    result("log_bytes_on_flash", st.usage()[0])


_bower_mpy_steps.run(main(sys.argv[1:]))
