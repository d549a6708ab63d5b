# What the board does when things go wrong: blink codes on the LED, the
# crash log, a message on the screen, waiting for a display that does not
# answer. Loaded only then (bower.board keeps the boot small).

import sys

_CRASH_MAX = 4096    # /crash.log is moved to /crash.old beyond this


def blink(led, clock, n):
    # n short blinks of the LED (a 0/1 setter or None), then a pause: 2 s in all.
    for _ in range(n):
        if led:
            led(1)
        clock.sleep_ms(150)
        if led:
            led(0)
        clock.sleep_ms(250)
    clock.sleep_ms(2000 - 400 * n)


def halt(led, clock, stop, n, msg):
    # Blink n forever (until Ctrl-C, or stop() in tests), repeating msg so
    # that `mpremote repl` shows it whenever it connects.
    while stop is None or not stop():
        print(msg)
        blink(led, clock, n)


def wait_display(hw, i, clock, stop):
    # The display did not answer: True once it does; False if stop() says
    # so. Until then the message is repeated every 2 s (for `mpremote repl`).
    missing = False
    while True:
        found = hw.scan()
        if hw.addr in found:
            if missing:
                print("Bower: display found at 0x%02X" % hw.addr)
            return True
        missing = True
        if found:
            n = 3
            msg = ("no display at 0x%02X (%d) on I2C%d; the bus has %s. Set \"addr\" in board.json "
                   "to the display's address (60 = 0x3C, 61 = 0x3D)."
                   % (hw.addr, hw.addr, i["bus"], ", ".join(["0x%02X" % a for a in found])))
        else:
            n = 2
            msg = ("nothing answers on I2C%d (SDA GP%d, SCL GP%d). Check the display's 3V3 and "
                   "GND, SDA/SCL (not swapped) and the solder joints." % (i["bus"], i["sda"], i["scl"]))
        print("Bower:", msg)
        blink(hw.led, clock, n)
        if stop is not None and stop():
            return False


def log(root, line):
    # Append a line to /crash.log, moving a full one to /crash.old first.
    import os
    path = root + "crash.log"
    try:
        if os.stat(path)[6] > _CRASH_MAX:
            try:
                os.remove(root + "crash.old")
            except OSError:
                pass
            os.rename(path, root + "crash.old")
    except OSError:
        pass
    try:
        with open(path, "a") as f:
            f.write(line + "\n")
    except OSError:
        pass


def message(disp, title, lines, foot):
    if disp is None:
        return
    try:
        fb = disp.fb
        fb.fill(0)
        fb.text(title, 0, 0, 1)
        fb.hline(0, 10, 128, 1)
        for i in range(len(lines)):
            fb.text(lines[i], 0, 14 + 8 * i, 1)
        fb.text(foot, 0, 56, 1)
        disp.power(True)
        disp.contrast(255)
        disp.show()
        return True
    except Exception:
        return False


def crash(hw, disp, root, clock, uptime, e, stop, version, led):
    # An exception ended the app: log it, show it, wait for a press, soft
    # reset (``led``: the LED's 0/1 setter, or None).
    import io
    s = io.StringIO()
    if hasattr(sys, "print_exception"):
        sys.print_exception(e, s)  # pyright: ignore[reportArgumentType]
    else:
        import traceback
        traceback.print_exception(type(e), e, e.__traceback__, file=s)
    # "Type: message | File ..., line N, in f | ..." on one line. (The
    # stubs' io.StringIO has no getvalue() and is no IOBase_mp: ignored.)
    lines = [ln.strip() for ln in s.getvalue().split("\n") if ln.strip()[:9] not in ("", "Traceback")]  # pyright: ignore[reportAttributeAccessIssue]
    text = " | ".join(lines[-1:] + lines[:-1])[:400]
    print("Bower error:", text)
    log(root, "%d ms v%s %s" % (uptime, version, text))
    msg = "%s: %s" % (type(e).__name__, e)
    lines = [msg[k:k + 16] for k in range(0, min(len(msg), 80), 16)]
    if isinstance(e, OSError) and e.args[:1] == (28,):
        # The flash is full (the app makes room itself; this is the last
        # resort): say what helps.
        lines = ["Flash is full.", "Sync with the", "computer: bower", "sync, or free it", "over USB."]
    shown = message(disp, "Bower error", lines, "Press a button")
    if hw is None:
        halt(led, clock, stop, 5, "Bower error: " + text)
        return
    # Wait for a new press (seen twice, 20 ms apart), then start afresh.
    held = hw.mask()
    seen = 0
    while stop is None or not stop():
        if shown:
            if led:
                led(1)
            clock.sleep_ms(20)
        else:
            blink(led, clock, 5)
        m = hw.mask()
        new = m & ~held
        if new & seen:
            if led:
                led(0)
            hw.reset()
        seen = new
        held &= m
