"""The phone's device has the Pico's heap, and runs out of it as the Pico
does (issue 33).

This WebAssembly port grows its GC heap on demand and collects only as a
call from the page returns, so the browser board keeps the Pico's budget
itself (bower.webboard, "the Pico's heap"): more live objects than the
Pico's GC pool after a collection are the device's MemoryError. Here, in a
real Chromium, with the page holding objects as a leak would: just under
the Pico's heap the device plays on, screen for screen with the simulator;
just over it, the device takes the Pico's path: the "Bower error" screen of
bower.fault, the line in crash.log (kept in the browser's storage), and a
press starts it again on the screen a power-on gives.
"""

from __future__ import annotations


from test_phone import TOUR, Twin
from webphone import booted, chromium, frame, press, settle, shot

#: The Pico's GC pool: 4,384 B the bare firmware holds + 241,504 B free at
#: boot (../shared/pico-timing.md, the real rp2 firmware).
HEAP = 245_888


def _live(page) -> int:
    # The heap's live bytes: a collection asked for in one call (made as it
    # returns), read in the next.
    return page.evaluate(r"""() => {
        const mp = window.bower.mp;
        mp.runPython("import gc\ngc.collect()");
        mp.runPython("_live = gc.mem_alloc()");
        return mp.globals.get("_live");
    }""")


def _hold(page, total: int) -> int:
    # The page keeps ``total`` more bytes alive (1 KB objects, as a leak
    # would); returns the live heap then.
    page.evaluate(r"""(n) => window.bower.mp.runPython(
        "_hog = []\nfor _i in range(" + n + "):\n    _hog.append(bytearray(1008))\n")""", total // 1024)
    return _live(page)


def _started(page, twin):
    booted(page)
    for key in TOUR[:6]:        # a game started: hand 1's first screen
        press(page, key)
        twin.press(key)
    page.wait_for_timeout(1000)     # the idle warm-up done
    settle(page)


def test_just_under_the_picos_heap_the_device_plays_on(site, tmp_path):
    with chromium() as ctx:
        page = ctx.new_page()
        page.goto(site)
        twin = Twin(tmp_path / "flash")
        _started(page, twin)
        live = _hold(page, HEAP - _live(page) - 24 * 1024)
        assert HEAP - 32 * 1024 < live < HEAP, live
        for key in TOUR[6:16]:
            press(page, key)
            twin.press(key)
            assert frame(page) == twin.ram(), f"after {key}: not the simulator's screen"
        assert _crash_log(page) == ""


def _error_screen(message: str) -> bytes:
    # bower.fault's "Bower error" screen for ``message`` ("Type: text"), as
    # the simulator's panel has it.
    from bower_host import oledsim, simulator  # noqa: F401  (the firmware's CPython shims)
    import ssd1306
    from bower import fault
    from bower.display import Display

    bus = oledsim.FakeI2C()
    disp = Display(ssd1306.SSD1306_I2C(128, 64, bus, 0x3C))
    lines = [message[k:k + 16] for k in range(0, min(len(message), 80), 16)]
    fault.message(disp, "Bower error", lines, "Press a button")
    return bytes(oledsim.gddram(bus))


def _crash_log(page) -> str:
    return page.evaluate("""async () => {
        const files = await window.bower.flash.files();
        const v = files.get("/flash/crash.log");
        return v ? new TextDecoder().decode(v) : "";
    }""")


def test_over_the_picos_heap_the_device_shows_bower_error_logs_it_and_a_press_starts_again(site, tmp_path):
    with chromium() as ctx:
        page = ctx.new_page()
        page.goto(site)
        twin = Twin(tmp_path / "flash")
        _started(page, twin)
        # A leak's worth: 8 KB more than the Pico's heap holds.
        assert _hold(page, HEAP - _live(page) + 8 * 1024) > HEAP
        shown = None
        for i in range(4):
            key = ("down", "up")[i % 2]
            press(page, key)
            twin.press(key)
            log = _crash_log(page)
            if log:
                shown = frame(page)
                break
        assert shown is not None, "4 presses over the Pico's heap, and no fault"
        shot(page, "heap-bower-error")
        assert "MemoryError" in log, log
        message = log.split(" ", 3)[3].split(" | ")[0]
        assert message.startswith("MemoryError: "), log
        assert shown == _error_screen(message), "not bower.fault's Bower error screen"
        # A press: the device starts again from its flash (a soft reset), on
        # the screen a power-on of the simulator gives on the same flash.
        box = page.locator("#ok").bounding_box()
        cdp = page.context.new_cdp_session(page)
        with page.expect_navigation():
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [
                {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        booted(page)
        assert frame(page) == Twin(tmp_path / "flash").ram(), "the restarted device is not where a power-on puts it"
        assert "MemoryError" in _crash_log(page), "crash.log was not kept"
