# A fake MicroPython `machine` module (and a fake clock) for tests, usable on
# CPython and on MicroPython: install() puts this module in
# sys.modules["machine"], so `import machine` in bower.board gets it.
#
#   import fake_machine as fm
#   fm.install()
#   fm.reset_state()
#   fm.attach_i2c(bus)        # FakeI2C + SSD1306 model: what I2C() talks to
#   fm.set_level(2, 0)        # GP2 reads 0 (a pressed active-low button)
#
# Module-level state records what the code did: pins[id] (Pin objects),
# levels[id] (input levels set by the test), out_log [(id, value)] (output
# writes, e.g. the LED blinking), pwm_log [(pin, what, value)], i2c_log
# [(bus, sda, scl, freq)], irq_log [(pin, handler, trigger, hard)] (every
# interrupt handler the code gave), irq_errors [(pin, exception)].
#
# Interrupts are never kinder than the real ones: fire(pin) calls a hard
# handler with the heap locked (micropython.heap_lock(), where the running
# interpreter has it: MicroPython), and an exception in any handler is
# reported and switches that pin's interrupt off, as MicroPython's
# shared/runtime/mpirq.c does on the rp2 port.

import sys

pins = {}
levels = {}
out_log = []
pwm_log = []
i2c_log = []
irq_log = []
irq_errors = []
bus = None

try:
    from micropython import heap_lock, heap_unlock
except ImportError:   # CPython: no heap to lock
    heap_lock = heap_unlock = None
UID = b"\xe6\x61\x41\x03\xe7\x12\x34\x56"


class SoftReset(SystemExit):
    # machine.soft_reset() raises SystemExit on a real board too.
    pass


class HardReset(SystemExit):
    pass


def install():
    sys.modules["machine"] = sys.modules[__name__]


def reset_state():
    global bus, auto_irq
    auto_irq = False
    pins.clear()
    levels.clear()
    del out_log[:]
    del pwm_log[:]
    del i2c_log[:]
    del irq_log[:]
    del irq_errors[:]
    bus = None


def attach_i2c(b):
    # b: an object with writeto(addr, buf) and writevto(addr, bufs), and
    # optionally scan(); what every I2C() built afterwards forwards to.
    global bus
    bus = b


# True: a level change fires the pin's interrupt handler (when its trigger
# covers that edge), as the RP2040's edge detection would. Off by default:
# older tests call pin.handler(pin) themselves.
auto_irq = False


def set_level(pin_id, value):
    v = 1 if value else 0
    p = pins.get(pin_id)
    old = levels.get(pin_id)
    if old is None and p is not None:
        old = 1 if p.pull == Pin.PULL_UP else 0
    levels[pin_id] = v
    if auto_irq and p is not None and p.handler is not None and old != v:
        if p.trigger & (Pin.IRQ_RISING if v else Pin.IRQ_FALLING):
            fire(p)


def fire(p):
    # The pin's interrupt, as the hardware runs it: a hard handler with the
    # heap locked. An exception is printed and disables the interrupt (the
    # real port prints "Uncaught exception in IRQ callback handler").
    h = p.handler
    if h is None:
        return
    locked = p.hard and heap_lock is not None
    try:
        if locked:
            heap_lock()
        try:
            h(p)
        finally:
            if locked:
                heap_unlock()
    except Exception as e:
        p.handler = None
        irq_errors.append((p.id, e))
        print("Uncaught exception in IRQ callback handler")
        print("%s: %s" % (type(e).__name__, e))


def _key(pin_id):
    return pin_id.id if isinstance(pin_id, Pin) else pin_id


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.handler = None
        self.trigger = 0
        self.hard = False
        self._out = 0
        pins[id] = self
        if value is not None:
            self.value(value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT:
                return self._out
            if self.id in levels:
                return levels[self.id]
            # Nothing connected: the pull resistor decides (floating reads 0).
            return 1 if self.pull == Pin.PULL_UP else 0
        self._out = 1 if v else 0
        out_log.append((self.id, self._out))
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def toggle(self):
        self.value(1 - self._out)

    def irq(self, handler=None, trigger=12, hard=False):
        # Recorded; fired by set_level() when auto_irq is on, else tests call
        # fire(pin) themselves.
        self.handler = handler
        self.trigger = trigger
        self.hard = hard
        irq_log.append((self, handler, trigger, hard))
        return None

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.scl = _key(scl)
        self.sda = _key(sda)
        self.freq = freq
        i2c_log.append((id, self.sda, self.scl, freq))

    def scan(self):
        if bus is None:
            return []
        scan = getattr(bus, "scan", None)
        if scan is not None:
            return list(scan())
        return [bus.addr]

    def writeto(self, addr, buf, stop=True):
        if bus is None:
            raise OSError(19)   # ENODEV: no device acknowledged
        r = bus.writeto(addr, buf)
        return len(buf) if r is None else r

    def writevto(self, addr, vector, stop=True):
        if bus is None:
            raise OSError(19)
        r = bus.writevto(addr, vector)
        if r is None:
            r = 0
            for b in vector:
                r += len(b)
        return r

    def readfrom(self, addr, n, stop=True):
        if bus is None:
            raise OSError(19)
        return bytes(n)


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = _key(pin)
        self._freq = freq
        self._duty = duty_u16
        pwm_log.append((self.pin, "init", freq))

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        pwm_log.append((self.pin, "freq", f))

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        pwm_log.append((self.pin, "duty", d))

    def deinit(self):
        self._duty = 0
        pwm_log.append((self.pin, "deinit", 0))


class RTC:
    _now = (2025, 1, 1, 2, 0, 0, 0, 0)

    def datetime(self, t=None):
        if t is None:
            return RTC._now
        RTC._now = tuple(t)


def unique_id():
    return UID


def freq(hz=None):
    return 125000000


def reset():
    raise HardReset("machine.reset")


def soft_reset():
    raise SoftReset("machine.soft_reset")


def disable_irq():
    return 0


def enable_irq(state=0):
    return None


def idle():
    return None


class Clock:
    # Fake time: ticks_ms() is the current fake time, sleep_ms() advances
    # it. Levels scripted with at(t, pin, level) (or any callable with
    # at(t, fn)) are applied as time passes, so a test can "press" a
    # button at 1000 ms and release it at 1100 ms. start lets a test begin
    # close to the 2**30 wrap of time.ticks_ms().

    PERIOD = 1 << 30

    def __init__(self, start=0):
        self.t = 0            # ms since the clock was made (never wraps)
        self.start = start
        self.slept = 0
        self.calls = 0
        self._events = []

    def at(self, t, pin_or_fn, level=None):
        self._events.append((t, pin_or_fn, level))
        self._events.sort(key=lambda e: e[0])

    def _apply(self):
        ev = self._events
        while ev and ev[0][0] <= self.t:
            t, what, level = ev.pop(0)
            if level is None:
                what()
            else:
                set_level(what, level)

    def ticks_ms(self):
        # (start + t) mod 2**30 without leaving the small ints of a 32-bit
        # port (2**30 itself is a big int there: it would allocate, and this
        # runs inside the button interrupt, heap locked).
        self.calls += 1
        self._apply()
        t = self.t & 0x3FFFFFFF
        room = 0x3FFFFFFF - self.start
        if t > room:
            return t - room - 1
        return self.start + t

    def ticks_diff(self, a, b):
        d = (a - b) % Clock.PERIOD
        if d >= Clock.PERIOD // 2:
            d -= Clock.PERIOD
        return d

    def ticks_add(self, a, b):
        return (a + b) % Clock.PERIOD

    def sleep_ms(self, ms):
        self.slept += ms
        self.t += ms
        self._apply()

    def advance(self, ms):
        # Time spent working (e.g. a slow redraw), not sleeping.
        self.t += ms
        self._apply()

    def time(self):
        return 1763700000 + self.t // 1000
