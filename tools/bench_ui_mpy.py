# MicroPython half of tools/bench_ui.py (not for CPython):
#
#     node tests/mpy/run_script.mjs tools/bench_ui_mpy.py [seed=N]
#
# Imports everything the device runs (engine, UI, store, link, display, the
# ssd1306 driver), then plays a whole Five-Handed game through the UI by key
# presses, with the store on this MicroPython's filesystem and the driver
# talking to an SSD1306 model on a fake I2C bus. Every press is handled,
# rendered and flushed like the device loop does.
#
# Prints `RESULT key value` lines: import cost, the peak gc.mem_alloc() of
# live objects over the game (the test harness's own share taken out), and
# time per input (handle + tick + render + show) in microseconds.
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
    for a in argv:
        if a.startswith("seed="):
            seed = int(a[5:])
    import json, array, binascii  # noqa: F401  (built in on the Pico; see bench_mpy.py)
    gc.collect()
    yield
    b0 = gc.mem_alloc()
    import euchre, euchre.log  # noqa: F401
    from bower import ui, play, store, link, display, gfx, keys  # noqa: F401
    import bower.screens  # noqa: F401  (the app drops it while a hand is played)
    import ssd1306
    gc.collect()
    yield
    b1 = gc.mem_alloc()
    result("import_all_bytes", b1 - b0)
    ui._unload("bower.screens")
    gc.collect()
    yield
    result("import_without_screens", gc.mem_alloc() - b0)
    b1 = gc.mem_alloc()
    import uikit
    from ssd1306_model import MiniI2C, MiniSSD1306
    events, ref = uikit.table_game("five", seed)
    hands = ref.hand_no - 1
    ref = None
    gc.collect()
    yield
    b2 = gc.mem_alloc()
    harness = b2 - b1
    try:
        os.mkdir("/flash")
    except OSError:
        pass
    st = store.Store("/flash", device="e6614103e7")
    model = MiniSSD1306()
    bus = MiniI2C(model)
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    disp = display.Display(drv)
    app = ui.App(st, {"version": "bench", "device": "e6614103e7"}, uikit.Rng(seed).randrange)
    lk = link.Link(st, {"version": "bench", "device": "e6614103e7", "board": {}}, lambda b: None)
    d = uikit.Driver(app, st)
    times = []
    peak = [0]
    ticks_us, diff = time.ticks_us, time.ticks_diff

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
            times.append(diff(ticks_us(), t0))
            model.clear_stats()  # the model's own byte counts are not the device's
    d.press = press
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
    if app.game.scores != uikit.table_game("five", seed)[1].scores:
        raise RuntimeError("the game through the UI scored differently from the engine")
    lk.feed(b"")
    times.sort()
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
