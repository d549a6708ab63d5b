# MicroPython half of the heap figures of tools/bench_pico.py (not for
# CPython). Runs on the 32-bit WebAssembly MicroPython (the Pico's object
# sizes: 4-byte words, 16-byte GC blocks), with the files `bower deploy` puts
# on the Pico (lib/**.mpy from mpy-cross -O3, board.json, board.ok) in place
# of the sources, laid out as on the Pico (/lib, the store at /). bench_pico
# starts it and hands it, as sys.argv[1:], a key script (as in `bower sim
# --keys`, no spaces).
#
# The real loop runs: bower.board.run with the fake `machine` of
# tests/firmware, an I2C bus that only counts, a virtual clock (taps of
# 50 ms once the loop has been idle 700 ms, as tools/pico_harness.py), an
# idle USB serial. Its bower.board is the deployed one but for two yields
# (bench_pico compiles that copy): run() is `yield from _loop(...)`, and
# _loop yields right after its own idle gc.collect() -- the point after
# every press where the warm-up (app.warm: the menus, the game screens) has
# run and the firmware itself collects. This WebAssembly build can only
# collect garbage when control is back in JavaScript (see
# tests/mpy/run_script.mjs), which each yield gives it; every frame of the
# loop is then a generator's, on the heap, so everything the app holds is
# live. After the last key the clock raises KeyboardInterrupt (mpremote's
# Ctrl-C): run() prints "Bower stopped" and draws it, and returns; then the
# heap is read once more: the way the real firmware was measured (Ctrl-C,
# gc.collect(), gc.mem_alloc() at the REPL).
#
# Prints `HEAP base N` (the harness alone, before main.py's
# `from bower import board`), `HEAP fake N` (bytes of the fake machine's
# Pin/I2C objects: ROM objects on the Pico, taken out), `HEAP step S N`
# after the warm-up of the S-th press (S = 0: boot), `HEAP stopped N`;
# and MicroPython's own `qstr pool: n_pool=P, n_qstr=Q, ...` line (the
# names interned beyond the firmware's: firmware/DEVICE.md, 2) after the
# base and after the last.

import gc
import io
import sys

sys.path.append("/tests/firmware")

_GAP = 700
_HOLD = 50
_SETTLE = 3000
_PINS = {"u": 2, "d": 3, "o": 6, "b": 7}


class Bus:
    # What machine.I2C() talks to: the SSD1306 acknowledges and nothing is kept.
    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf):
        return len(buf)

    def writevto(self, addr, vector):
        n = 0
        for b in vector:
            n += len(b)
        return n


class Stdin(io.IOBase):
    # The USB serial with nothing coming: select.poll() sees no data.
    def ioctl(self, op, arg):
        return 0

    def readinto(self, buf):
        return 0


class Clock:
    # ticks_ms/ticks_diff/sleep_ms/time: virtual ms that pass only in
    # sleep_ms; taps as tools/pico_harness.py makes them. Allocation free.
    def __init__(self, keys, fm):
        self.t = 0
        self.keys = keys
        self.k = 0
        self.idle = 0
        self.release = -1
        self.pin = 0
        self.done = -1
        self.fm = fm

    def ticks_ms(self):
        return self.t & 0x3FFFFFFF

    def ticks_diff(self, a, b):
        d = (a - b) & 0x3FFFFFFF
        if d >= 0x20000000:
            d -= 0x40000000
        return d

    def time(self):
        return 1763700000 + self.t // 1000

    def sleep_ms(self, ms):
        if ms <= 0:
            return
        self.t += ms
        self.idle += ms
        if self.release >= 0 and self.t >= self.release:
            self.fm.set_level(self.pin, 1)
            self.release = -1
        if self.release < 0 and self.idle >= _GAP:
            if self.k < len(self.keys):
                self.pin = _PINS[self.keys[self.k]]
                self.k += 1
                self.fm.set_level(self.pin, 0)
                self.release = self.t + _HOLD
                self.idle = 0
            elif self.done < 0:
                self.done = self.t
        if self.done >= 0 and self.t >= self.done + _SETTLE:
            raise KeyboardInterrupt   # Ctrl-C


def _out(b):
    return len(b)


def main(keys):
    import fake_machine as fm
    fm.install()
    fm.reset_state()
    bus = Bus()
    stdin = Stdin()
    clock = Clock(keys, fm)
    # The fake Pin and I2C objects (the Pico's are in ROM): their size.
    gc.collect()
    yield
    a = gc.mem_alloc()
    fm.Pin(99, fm.Pin.IN, fm.Pin.PULL_UP)
    gc.collect()
    yield
    pin = gc.mem_alloc() - a
    fm.reset_state()
    fm.attach_i2c(bus)
    gc.collect()
    yield
    a = gc.mem_alloc()
    held = [fm.I2C(0, scl=fm.Pin(5), sda=fm.Pin(4), freq=400000)]
    gc.collect()
    yield
    i2c_size = gc.mem_alloc() - a - 2 * pin
    del held[:]
    fm.reset_state()
    fm.attach_i2c(bus)
    gc.collect()
    yield
    base = gc.mem_alloc()
    print("HEAP base", base)
    import micropython
    micropython.qstr_info()
    # main.py (its pack, when the firmware has one)
    try:
        import bowerpak
        bowerpak.mount("/lib/bower.pak", "/pak")
    except ImportError:
        pass
    from bower import board
    gen = board.run("/board.json", "/", clock, None, stdin, _out)
    for _ in gen:
        # Right after the loop's idle gc.collect(), every press: collected
        # in JavaScript as this yield returns there.
        step = clock.k
        yield
        m = gc.mem_alloc()
        print("HEAP fake", len(fm.pins) * pin + i2c_size)
        print("HEAP step", step, m)
        del fm.irq_log[:]     # the fake machine's own records
        del fm.i2c_log[:]
        del fm.out_log[:]
    gen = None
    board = None
    fm.reset_state()          # the Pins: ROM objects on the Pico
    yield
    print("HEAP stopped", gc.mem_alloc())
    micropython.qstr_info()


_gen = None


def start(keys):
    global _gen
    _gen = main(keys)


def step():
    # One step; True while there is more (the runner collects in between).
    global _gen
    try:
        next(_gen)
        return True
    except StopIteration:
        _gen = None
        return False
    finally:
        gc.collect()
