# The board: the only module that touches hardware (`machine` on MicroPython,
# board/busio/digitalio on CircuitPython), and the main loop.
#
# Wiring (hardware/board.json defaults; hardware/WIRING.md has the table):
#   GP2 UP, GP3 DOWN, GP6 OK, GP7 BACK   buttons to GND, internal pull-ups
#   GP4 SDA, GP5 SCL (I2C0, 400 kHz)     SSD1306 128x64 OLED at 0x3C
#   GP10 A, GP11 B, GP12 push            optional EC11/KY-040 encoder
#   GP15                                 optional piezo (PWM)
#   "LED"                                the Pico's own LED: error blinks
#
# run() reads /board.json (the checker, bower.boardcfg, is dropped once the
# pins are set up), brings up the display first (its 1 KB buffer is
# allocated before the heap fragments), then the store, the UI and the USB
# link, and loops: buttons (edges caught by pin interrupts too) ->
# app.handle, render and show the changed pages when app.dirty, app.tick
# (which writes the inputs just shown to flash), link.poll; when idle it
# sleeps up to 10 ms in 1 ms steps (a button edge ends the sleep), and once
# per quiet spell warms the app (a module per pass) and collects garbage.
#
# Errors: no display -> a message on the REPL and the LED blinks 2 (nothing
# on the bus) or 3 (something else answers) times every 2 s, rescanning
# until the display answers; a bad board.json -> 4 blinks; an exception in
# the app -> a line in /crash.log, "Bower error" on the screen, a button
# press soft resets (5 blinks if even the pins could not be set up).
# Ctrl-C (mpremote) stops the app cleanly and leaves to the REPL. Those paths
# are in bower.fault, the CircuitPython pins and clock in bower.cpboard: both
# load only when needed.

import gc
import sys

from bower import __version__, unload
from bower.buttons import Buttons, Encoder
from bower.keys import BACK as _BACK

_CP = sys.implementation.name == "circuitpython"
if not _CP:
    import machine

_IDLE_MS = 10        # longest sleep per loop pass when nothing happened ...
_POLL_MS = 1         # ... taken in steps this long, ended by a button edge
_GC_IDLE_MS = 120    # idle this long after a press: collect garbage, warm up
_BEEP_MS = 25

# The SSD1306 set-up of micropython-lib's ssd1306.init_display, as one
# command stream (control byte 00), ending with the panel still off (AE):
# horizontal addressing, start line 0, segment remap A1, 64 rows, COM scan
# C8, offset 0, COM pins 12, clock 80, precharge F1, VCOMH 30, contrast FF,
# RAM shown (A4), not inverted (A6), internal IREF (AD 30), charge pump on.
_SETUP = (b"\x00\xae\x20\x00\x40\xa1\xa8\x3f\xc8\xd3\x00\xda\x12\xd5\x80\xd9\xf1\xdb\x30"
          b"\x81\xff\xa4\xa6\xad\x30\x8d\x14")


def _led():
    # The on-board LED as a function taking 0/1, or None.
    try:
        if _CP:
            import board
            import digitalio
            p = digitalio.DigitalInOut(board.LED)
            p.direction = digitalio.Direction.OUTPUT
            return lambda v: setattr(p, "value", bool(v))
        return machine.Pin("LED", machine.Pin.OUT).value
    except Exception:
        return None


class _Hw:
    # The board from its configuration, the same on both platforms:
    # keys (level readers for UP DOWN OK BACK, then the encoder push),
    # i2c/addr, enc (an Encoder or None), pwm, led (a 0/1 setter or None).

    def __init__(self, cfg):
        self.led = _led()
        self.enc = None
        self.pwm = None
        i = cfg["display"]["i2c"]
        b = cfg["buttons"]
        e = cfg["encoder"]
        self.addr = i["addr"]
        self.idle = 1 if b["active_low"] else 0      # level of a released button
        pins = [b["up"], b["down"], b["ok"], b["back"]]   # boardcfg.BUTTONS
        if _CP:
            from bower.cpboard import setup
            setup(self, cfg, i, pins, e)
        else:
            self._mp(cfg, i, pins, e)

    def _mp(self, cfg, i, pins, e):
        Pin = machine.Pin
        self.i2c = machine.I2C(i["bus"], sda=Pin(i["sda"]), scl=Pin(i["scl"]), freq=i["freq"])
        pull = Pin.PULL_UP if self.idle else Pin.PULL_DOWN
        self.pins = [Pin(n, Pin.IN, pull) for n in pins]
        self.keys = [p.value for p in self.pins]
        if e["enabled"]:
            self.enc = Encoder()
            a = Pin(e["a"], Pin.IN, Pin.PULL_UP)
            b = Pin(e["b"], Pin.IN, Pin.PULL_UP)
            self.push = Pin(e["push"], Pin.IN, Pin.PULL_UP).value
            # Both edges of both lines: a quick turn is faster than the loop.
            enc = self.enc
            turned = lambda p: enc.step(a.value(), b.value())  # noqa: E731
            a.irq(turned, Pin.IRQ_RISING | Pin.IRQ_FALLING)
            b.irq(turned, Pin.IRQ_RISING | Pin.IRQ_FALLING)
            self.turns = enc.events
        if cfg["buzzer"]["enabled"]:
            self.pwm = machine.PWM(Pin(cfg["buzzer"]["pin"]))
            self.pwm.freq(2000)
            self.pwm.duty_u16(0)
        self.id = "".join(["%02x" % x for x in machine.unique_id()])
        self.reset = machine.soft_reset

    def catch_edges(self, buttons, ticks_ms):
        # Pin interrupts (MicroPython) put every button edge in the buttons'
        # ring with its time, so a tap shorter than a busy loop pass (a sync,
        # a flash write, a redraw) still counts. Each handler is a bound
        # method of an _Edge, not a closure: a hard interrupt runs with the
        # heap locked (firmware/DEVICE.md, 4).
        pins = getattr(self, "pins", None)
        if pins is None:
            return
        both = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        for i in range(len(pins)):
            e = _Edge(i, pins[i].value, self.idle, buttons, ticks_ms)
            pins[i].irq(e.edge, both, hard=True)

    def scan(self):
        if not _CP:
            return self.i2c.scan()
        while not self.i2c.try_lock():  # (CircuitPython's busio)
            pass
        try:
            return self.i2c.scan()
        finally:
            self.i2c.unlock()

    def driver(self):
        if _CP:
            # Adafruit's driver, drawing like MicroPython's framebuf.
            from bower.cpdisplay import driver
            return driver(self.i2c, self.addr)
        import ssd1306

        class Oled(ssd1306.SSD1306_I2C):
            # micropython-lib's driver, set up in one transaction and left
            # dark (its own set-up sends a blank frame and lights the panel):
            # bower.display lights it once the first frame is in its RAM.
            dark = True

            def init_display(self):
                self.i2c.writeto(self.addr, _SETUP)
        return Oled(128, 64, self.i2c, self.addr)

    def mask(self):
        # Pressed buttons as bits: 0 UP, 1 DOWN, 2 OK (or the encoder's push), 3 BACK.
        m = 0
        keys = self.keys
        for i in range(4):
            if keys[i]() != self.idle:
                m |= 1 << i
        if self.enc is not None and not self.push():
            m |= 4
        return m

    def tone(self, on):
        if _CP:
            self.pwm.duty_cycle = 16384 if on else 0  # (CircuitPython's pwmio)
        else:
            self.pwm.duty_u16(16384 if on else 0)


class _Edge:
    # One button's hard-interrupt handler and its state (allocation free).
    # Two reads of the same level mean the edge between them was missed
    # (interrupts off during a flash write): both edges are queued.

    def __init__(self, i, value, idle, buttons, ticks_ms):
        self.i = i
        self.value = value
        self.idle = idle
        self.put = buttons.edge
        self.ticks_ms = ticks_ms
        self.last = 0

    def edge(self, pin):
        pressed = 1 if self.value() != self.idle else 0
        t = self.ticks_ms()
        if pressed == self.last:
            self.put(self.i, 1 - pressed, t)
        self.put(self.i, pressed, t)
        self.last = pressed


def run(cfg_path="/board.json", root="/", clock=None, stop=None, stdin=None, write=None):
    # Boot Bower and run it until Ctrl-C (or until stop() is true: tests).
    # clock: ticks_ms/ticks_diff/sleep_ms (+ time) like MicroPython's time
    # module; stdin/write: the USB serial for the link (default sys.stdin,
    # sys.stdout.buffer.write).
    gc.collect()
    if clock is None:
        if _CP:
            from bower.cpboard import Clock
            clock = Clock()
        else:
            import time as clock
    if root[-1:] != "/":
        root += "/"
    disp = hw = None
    try:
        start = clock.ticks_ms()
        try:
            cfg = _checked(cfg_path)
            if cfg is None:
                from bower import boardcfg
                cfg = boardcfg.load(cfg_path)
        except ValueError as e:
            from bower import fault
            fault.log(root, str(e))
            fault.halt(_led(), clock, stop, 4, e)
            return
        try:
            hw = _Hw(cfg)
            unload("bower.boardcfg")  # its checks are for the boot only
            i = cfg["display"]["i2c"]
            if hw.addr not in hw.scan():
                from bower.fault import wait_display
                if not wait_display(hw, i, clock, stop):
                    return
            from bower.display import Display
            disp = Display(hw.driver(), cfg["display"]["rotate"])
            # (time: new games are dated by it, with the offset the host set)
            _loop(hw, disp, {"version": __version__, "device": hw.id, "board": cfg,
                             "time": getattr(clock, "time", None)}, root, clock, stop, stdin, write)
        except KeyboardInterrupt:
            raise
        except Exception as e:
            gc.collect()  # the app's heap back (a MemoryError?) for the handler
            from bower.fault import crash
            crash(hw, disp, root, clock, clock.ticks_diff(clock.ticks_ms(), start), e, stop, __version__,
                  hw.led if hw else _led())
    except KeyboardInterrupt:
        print("Bower stopped (Ctrl-C). Ctrl-D restarts it.")
        from bower.fault import message
        message(disp, "Bower stopped", ("USB REPL", "", "Ctrl-D or", "replug: restart"), "")


def _checked(path):
    # The configuration `bower deploy` checked, if board.json and the checker
    # (bower.boardcfg) are still the files it checked with: deploy leaves
    # board.ok beside board.json, {"crc": [CRC-32 of board.json, of
    # boardcfg.mpy], "cfg": the merged result}. Else None: check it now.
    from binascii import crc32
    import json
    import bower
    try:
        with open(path[:-4] + "ok") as f:
            ok = json.load(f)
        with open(path, "rb") as f:
            a = crc32(f.read())
        with open(bower.__file__.rsplit("/", 1)[0] + "/boardcfg.mpy", "rb") as f:
            b = crc32(f.read())
        if ok["crc"] == [a, b] and type(ok["cfg"]) is dict:
            return ok["cfg"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


def _loop(hw, disp, info, root, clock, stop, stdin, write):
    # Button edges are caught from here on: a tap while the app loads or a
    # game resumes is queued, and counts once the loop starts.
    buttons = Buttons()
    hw.catch_edges(buttons, clock.ticks_ms)
    from bower.store import Store
    from bower.ui import App

    store = Store(root, device=info["device"])
    app = App(store, info)
    # The first screen goes out before the USB link is even loaded.
    app.render(disp.fb)
    disp.show()
    from bower.link import Link
    if write is None:
        out = getattr(sys.stdout, "buffer", None)
        write = out.write if out is not None else (lambda b: sys.stdout.write(b.decode()))
    link = Link(store, info, write, clock=getattr(clock, "time", None), stdin=stdin)

    enc = hw.enc
    pwm = hw.pwm
    ticks_ms = clock.ticks_ms
    ticks_diff = clock.ticks_diff
    sleep_ms = clock.sleep_ms
    last = ticks_ms()
    now = 0             # ms since boot for the app: never wraps
    beep_end = -1
    contrast = -1
    awake = True
    quiet = 0           # ms since the last event or frame
    tidy = False        # warmed and collected since then (not yet at boot:
                        # the menus load in the first quiet spell)
    while stop is None or not stop():
        t = ticks_ms()
        d = ticks_diff(t, last)
        now += d
        quiet += d
        last = t
        mask = hw.mask()
        app.buttons_seen(mask)
        busy = click = False
        for ev in buttons.update(mask, t):
            busy = True
            click = click or ev != _BACK   # BACK clicked on its press edge (BACK_DOWN)
            app.handle(ev, now)
        if enc is not None:
            for ev in hw.turns():
                busy = click = True
                app.handle(ev, now)
        if pwm is not None:
            if click:
                hw.tone(1)
                beep_end = now + _BEEP_MS
            elif beep_end >= 0 and now >= beep_end:
                hw.tone(0)
                beep_end = -1
        if app.contrast != contrast:
            contrast = app.contrast
            disp.contrast(contrast)
        if app.asleep == awake:
            awake = not awake
            disp.power(awake)
        # The picture first; what can wait (the flash write of the input
        # just shown) comes after it, still before the next input is read.
        if app.dirty:
            app.render(disp.fb)
            disp.show()
            busy = True
        app.tick(now)
        link.poll()
        if busy:
            quiet = 0
            tidy = False
        elif not tidy and quiet >= _GC_IDLE_MS:
            # Between presses: load what the next press will need (a module
            # per pass, the buttons read in between), then collect, so a
            # press rarely pays for either.
            if not app.warm():
                tidy = True
                gc.collect()
        else:
            # Sleep up to _IDLE_MS, waking at once for a button edge.
            for _ in range(_IDLE_MS // _POLL_MS):
                if buttons.waiting() or hw.mask() != mask:
                    break
                sleep_ms(_POLL_MS)
