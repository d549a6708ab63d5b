# Timed button edges against the real board loop while it works (issue 27,
# point 2), for test_sync_taps_portable.py (native MicroPython, CPython; the
# wasm port's clocks count whole ms, too coarse for this).
#
# VClock is the device's time module: its milliseconds advance with the work
# the device does -- this interpreter's microseconds times FACTOR (40: a
# 125 MHz Cortex-M0+ against the unix port on this machine; a DOWN on the
# home menu takes ~60 us here from edge to first I2C byte, ~4 ms on the Pico
# in ../shared/pico-timing.md, so 40 is if anything kind) -- plus the time of
# the hardware it waits on: I2C at 400 kHz (9 bits a byte, the address byte
# included), the USB serial (USB_US a byte written), the flash (a look-up
# FS_US, READ_US a byte read; writes with interrupts off: a 1 ms program per
# started 256-byte page and per metadata commit -- the close of a written
# file, a rename, a remove, a mkdir -- and every ERASE_EVERY-th commit a
# 45 ms sector erase too: pico-timing.md counted 0-1 erases and 1-6
# programs a press). A module imported (again, after bower.unload) costs
# IMPORT_US a KB of its source, not what this port takes to compile it (the
# Pico loads the .mpy `bower deploy` made), and the loop's gc.collect()
# GC_US. The harness's own work (the SSD1306 model, the files' own syscalls,
# the host side, firing edges, its garbage collections; CPython's cyclic
# collector is off meanwhile) is not counted.
#
# At every point where the device does I/O (ticks_ms, sleep_ms, a serial
# poll, read or write, an I2C write, a flash operation) the scripted events
# whose time has come happen: a button edge is fake_machine.set_level with
# auto_irq on (the hard handler runs heap locked, and its ticks_ms reads the
# edge's own time); during a flash write the level changes but the interrupt
# waits, latched, and the handler runs once when the write ends, as on the
# rp2 port.
#
# Host is the host side of `bower sync` (bower_host.syncer.Syncer over
# bower_host.protocol.Client: HELLO, LIST, each game in GETs of up to 2 KB
# with up to 4 in flight, SYNCED, then LIST again), requests framed as
# protocol.encode_request frames them, every reply checked (line CRC, chunk
# CRC, the bytes against the files on flash).

import binascii
import gc
import json
import os
import sys
import time

import fake_machine as fm

fm.install()

from bower import boardcfg  # noqa: E402
from bower import store as store_mod  # noqa: E402
from ssd1306_model import FakeI2C  # noqa: E402

MP = sys.implementation.name == "micropython"
WASM = sys.platform == "webassembly"
UP, DOWN, OK, BACK = 2, 3, 6, 7          # GPIOs (boardcfg.DEFAULTS)
FACTOR = 40         # device time per unit of this interpreter's time
PROG_US = 1000      # a 256-byte page program
ERASE_US = 45000    # a 4 KB sector erase (W25Q16, typical)
ERASE_EVERY = 4     # metadata commits per erase
IMPORT_US = 1000    # loading a module: per KB of its source
GC_US = 5000        # the loop's gc.collect() (a Pico's ~200 KB heap)
FS_US = 200         # a littlefs look-up: open, stat, listdir, seek ...
READ_US = 1         # ... and per byte read
I2C_US2 = 45        # I2C: 22.5 us a byte at 400 kHz (x2, integer maths)
USB_US = 2          # the USB serial: us a byte written
HOST_MS = 3         # the host's turnaround: a reply in, its next request out

if MP:
    _us = time.ticks_us
    _dus = time.ticks_diff
else:
    # The wall clock (a thread's CPU time would leave out the waits on the
    # serial link, where most taps are meant to land). On a machine busy
    # with other work the device seems FACTOR times slower still, and taps
    # due while it works reach it together at its next I/O point.
    def _us():
        return time.perf_counter_ns() // 1000

    def _dus(a, b):
        return a - b


class VClock:
    # ticks_ms/ticks_diff/ticks_add/sleep_ms/time for bower.board.run.
    # at(t, fn): fn(t) runs at the first I/O point at or after t ms.

    def __init__(self, factor=FACTOR):
        self.factor = factor
        self.ms = 0
        self._sub = 0          # device us below a ms
        self.slept = 0
        self.slept_at = -1     # when the loop last slept (it had nothing left to do)
        self.irq_t = -1        # what ticks_ms answers inside a handler
        self.off = False       # interrupts off (a flash write)
        self.flash_ms = 0      # time spent with interrupts off
        self.where = "boot"    # the kind of the I/O point now firing events
        self._ev = []
        self._latched = []
        self._firing = False
        self._last = _us()

    def at(self, t, fn):
        ev = self._ev
        i = len(ev)
        while i and ev[i - 1][0] > t:
            i -= 1
        ev.insert(i, (t, fn))

    def _add(self, us):
        s = self._sub + us
        if s >= 1000:
            self.ms += s // 1000
            s %= 1000
        self._sub = s

    def _run(self):
        # The device's work since the last mark counts.
        n = _us()
        d = _dus(n, self._last)
        self._last = n
        if d > 0:
            self._add(d * self.factor)

    def mark(self):
        # From here: the device's time again (what came before was ours).
        self._last = _us()

    def io(self, where, us=0):
        # An I/O point: the work so far, plus ``us`` of hardware time; then
        # whatever is due happens.
        self._run()
        if us:
            self._add(us)
        self._due(where)
        self.mark()

    def _due(self, where):
        if self._firing:
            return
        self._firing = True
        self.where = where
        try:
            ev = self._ev
            while ev and ev[0][0] <= self.ms:
                t, fn = ev.pop(0)
                fn(t)
        finally:
            self._firing = False

    def level(self, pin, v, t):
        # A button's level changes at t: its interrupt runs now, unless the
        # interrupts are off (then it waits for the end of the flash write).
        if self.off:
            fm.levels[pin] = v
            if pin not in self._latched:
                self._latched.append(pin)
            return
        self.irq_t = t
        try:
            fm.set_level(pin, v)
        finally:
            self.irq_t = -1

    def flash(self, fn, args, us):
        # A flash write: interrupts off while it runs and for ``us`` more.
        self.io("flash")
        self.off = True
        t0 = self.ms
        try:
            return fn(*args)
        finally:
            self.mark()       # (the file's own time here is not the flash's)
            self._add(us)
            self._due("flash write (interrupts off)")
            self.off = False
            self.flash_ms += self.ms - t0
            la = self._latched
            while la:
                p = fm.pins[la.pop(0)]
                self.irq_t = self.ms
                try:
                    fm.fire(p)
                finally:
                    self.irq_t = -1
            self.mark()

    def collect(self):
        # gc.collect() for bower.board (see above).
        self._run()
        gc.collect()
        self.mark()
        self._add(GC_US)

    def imports(self, on):
        # Module imports and the loop's collections timed as on the Pico
        # (see above), or no more.
        import builtins
        from bower import board
        if not on:
            builtins.__import__ = self._imp
            board.gc = gc
            if not MP:
                gc.enable()
            return
        clock = self

        class Gc:
            def collect(self):
                clock.collect()

            def __getattr__(self, name):
                return getattr(gc, name)
        board.gc = Gc()
        if not MP:
            gc.disable()
        real = self._imp = builtins.__import__
        depth = [0]

        def imp(name, *a):
            if name in sys.modules:
                return real(name, *a)
            if not depth[0]:
                self._run()
            depth[0] += 1
            try:
                m = real(name, *a)
            finally:
                depth[0] -= 1
                if not depth[0]:
                    self.mark()
            try:
                self._add(os.stat(sys.modules[name].__file__)[6] * IMPORT_US // 1024)
            except (KeyError, AttributeError, OSError):
                pass
            return m
        builtins.__import__ = imp

    # ----- the time module the board loop sees ------------------------------

    def ticks_ms(self):
        t = self.irq_t
        if t >= 0:
            return t      # inside a hard handler: no allocation
        self.io("loop")
        return self.ms

    def ticks_diff(self, a, b):
        d = (a - b) & 0x3FFFFFFF
        if d >= 0x20000000:
            d -= 0x20000000
            d -= 0x20000000
        return d

    def ticks_add(self, a, b):
        return (a + b) & 0x3FFFFFFF

    def sleep_ms(self, n):
        self._run()
        self.ms += n
        self.slept += n
        self.slept_at = self.ms   # the loop idle: every edge so far handled
        self._due("idle sleep")
        self.mark()

    def time(self):
        return 1763700000 + self.ms // 1000


# ----- the hardware around the device -------------------------------------------

class TimedBus:
    # The I2C bus with the SSD1306 model: bus time for every byte.

    def __init__(self, clock):
        self.c = clock
        self.bus = FakeI2C()
        self.device = self.bus.device
        self.bytes = 0

    def scan(self):
        return self.bus.scan()

    def writeto(self, addr, buf):
        self.c.io("redraw (I2C)")
        self.bus.writeto(addr, buf)
        self.c.mark()
        self.bytes += len(buf)
        self.c.io("redraw (I2C)", (len(buf) + 1) * I2C_US2 // 2)
        return len(buf)

    def writevto(self, addr, bufs):
        self.c.io("redraw (I2C)")
        self.bus.writevto(addr, bufs)
        self.c.mark()
        n = 0
        for b in bufs:
            n += len(b)
        self.bytes += n
        self.c.io("redraw (I2C)", (n + 1) * I2C_US2 // 2)
        return n


class TimedFile:
    def __init__(self, fs, f, path):
        self.fs = fs
        self.f = f
        self.path = path
        self.wrote = False

    def read(self, n=-1):
        return self.fs.read(self.f.read, n)

    def readline(self):
        return self.fs.read(self.f.readline)

    def seek(self, n, whence=0):
        return self.fs.read(self.f.seek, n, whence)

    def write(self, b):
        self.wrote = True
        return self.fs.write(self.f.write, (b,), PROG_US * ((len(b) + 255) // 256), self.path)

    def flush(self):
        self.fs.read(self.f.flush)     # (its program is the write's)

    def close(self):
        if self.wrote:
            self.wrote = False
            self.fs.commit(self.f.close, (), self.path)
        else:
            self.fs.read(self.f.close)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class FlashFS:
    # The os functions and open that bower.store uses, on the real files,
    # timed as the Pico's flash (the files' own time here is not counted).

    def __init__(self, clock, commits=0):
        self.c = clock
        self.writes = 0
        self.erases = 0
        self.commits = commits   # (where the erases fall: every ERASE_EVERY-th)
        self.on_erase = None     # called (before the erase) with the path
        self.on_write = None     # called before every flash write, with the path

    def read(self, fn, *a):
        # A look-up or read (interrupts on): FS_US, and READ_US a byte read.
        c = self.c
        c.io("flash read")
        try:
            r = fn(*a)
        finally:
            c.mark()
        c.io("flash read", FS_US + (len(r) * READ_US if type(r) is bytes else 0))
        return r

    def listdir(self, p):
        return self.read(os.listdir, p)

    def stat(self, p):
        return self.read(os.stat, p)

    def statvfs(self, p):
        return self.read(os.statvfs, p)

    def sync(self):
        self.c.io("flash")

    def write(self, fn, a, us, path, erase=False):
        # A flash write of ``path``: the hooks, then the write itself.
        if erase:
            self.erases += 1
        else:
            self.writes += 1
        if self.on_write is not None or erase and self.on_erase is not None:
            self.c.io("flash")
            if self.on_write is not None:
                self.on_write(path)
            if erase and self.on_erase is not None:
                self.on_erase(path)
            self.c.mark()
        return self.c.flash(fn, a, us)

    def commit(self, fn, a, path):
        # A metadata commit: a page program, and now and then an erase.
        self.commits += 1
        if self.commits % ERASE_EVERY:
            return self.write(fn, a, PROG_US, path)
        return self.write(fn, a, PROG_US + ERASE_US, path, True)

    def remove(self, p):
        return self.commit(os.remove, (p,), p)

    def rename(self, a, b):
        return self.commit(os.rename, (a, b), b)

    def mkdir(self, p):
        return self.commit(os.mkdir, (p,), p)

    def rmdir(self, p):
        return self.commit(os.rmdir, (p,), p)

    def open(self, p, mode="r"):
        if "r" in mode:
            f = self.read(open, p, mode)
        else:
            f = self.write(open, (p, mode), PROG_US, p)
        return TimedFile(self, f, p)


def timed_store(fs):
    # bower.store.Store on ``fs`` (board._loop builds its Store itself).
    base = store_mod.Store

    class TimedStore(base):
        def __init__(self, root="/", f=None, device="", low=32768):
            base.__init__(self, root, fs, device, low)
    return TimedStore


class Serial:
    # The USB serial: the device reads what the host sent (its reads and
    # polls are I/O points); ``on_byte(k)`` sees the device take byte k.

    def __init__(self, clock):
        self.c = clock
        self.sent = 0        # bytes the host sent
        self.taken = 0       # bytes the device read
        self.on_byte = None
        if MP:
            import io

            ser = self

            class S(io.IOBase):
                def __init__(self):
                    self.data = bytearray()

                def ioctl(self, req, arg):
                    if req != 3:
                        return 0
                    ser.c.io("serial")
                    return arg & 1 if ser.taken < ser.sent else 0

                def read(self, n=-1):
                    return ser._read(n)
            self.stream = S()
            self._buf = self.stream.data
            self._w = None
        else:
            r, w = os.pipe()
            self._r = r
            self._w = w

            class P:
                def fileno(self):
                    return r

                def read(self, n=-1):
                    return ser._read(n)
            ser = self
            self.stream = P()

    def send(self, b):
        if self._w is None:
            self._buf.extend(b)
        else:
            os.write(self._w, b)
        self.sent += len(b)

    def _read(self, n):
        self.c.io("serial")
        n = min(n, self.sent - self.taken) if n >= 0 else self.sent - self.taken
        if self._w is None:
            b = bytes(self._buf[self.taken:self.taken + n])
        else:
            b = os.read(self._r, n)
        k = self.taken
        self.taken += len(b)
        if self.on_byte is not None:
            for i in range(len(b)):
                self.on_byte(k + i)
        self.c.mark()
        return b

    def close(self):
        if self._w is not None:
            os.close(self._r)
            os.close(self._w)
            self._w = None


# ----- the host: `bower sync` ---------------------------------------------------

_TAGS = "0123456789abcdefghijklmnopqrstuvwxyz"


def crc_hex(b):
    return "%08x" % (binascii.crc32(b) & 0xFFFFFFFF)


def encode_request(tag, cmd, *args):
    # bower_host.framing.encode_request: "#B? TAG CMD ARG ... CRC\n".
    body = ("#B? " + " ".join([tag, cmd] + [str(a) for a in args])).encode()
    return body + b" " + crc_hex(body).encode() + b"\n"


class Host:
    # One `bower sync` run over ``serial``. ``files``: {game id: the log's
    # bytes on flash}. Replies arrive through ``write`` (the device's USB
    # write). errors: what failed its checks (the device's write path
    # swallows exceptions, so nothing is raised from here).

    def __init__(self, clock, serial, files, device, chunk=2048, window=4):
        self.c = clock
        self.serial = serial
        self.files = files
        self.device = device
        self.chunk = chunk
        self.window = window
        self.errors = []
        self.requests = []       # [label, line, sent ms, served from ms, done ms]
        self.serving = None      # the request the device is answering
        self.done = None         # ms when the last reply arrived
        self.received = 0        # bytes the device wrote
        self.synced = []
        self._n = 0
        self._ends = {}          # serial offset of a request's "\n" -> request
        self._rx = b""
        self._wait = []          # [request, tag, lines wanted (-1: LIST), lines]
        self._replies = []
        self._conv = None
        self.on_request = None   # called with a request as the device starts answering it
        serial.on_byte = self._byte

    def start(self, t=0):
        self._conv = self._conversation()
        self._next(None)

    def _tag(self):
        self._n += 1
        n, s = self._n, ""
        for _ in range(4):
            s = _TAGS[n % 36] + s
            n //= 36
        return s

    def _send(self, batch):
        if MP:
            # The harness's garbage collected on its own time: on this
            # port's big heap a collection the device's code runs into
            # takes some 3 ms, 120 "Pico ms" (a Pico's ~200 KB heap, a few).
            gc.collect()
        for label, cmd, args in batch:
            tag = self._tag()
            line = encode_request(tag, cmd, *args)
            req = [label, line, self.c.ms, -1, -1]
            self.requests.append(req)
            self._ends[self.serial.sent + len(line) - 1] = req
            self._wait.append([req, tag, -1 if cmd == "LIST" else 1, []])
            self.serial.send(line)
        self.c.mark()

    def _next(self, replies):
        try:
            batch = self._conv.send(replies)
        except StopIteration:
            self.done = self.c.ms
            self.serving = None
            return
        except Exception as e:
            self.errors.append("host: %r" % (e,))
            self.done = self.c.ms
            return
        self.c.at(self.c.ms + HOST_MS, lambda t: self._send(batch))

    def _byte(self, k):
        # The device read byte k: a request's newline starts its answer.
        req = self._ends.pop(k, None)
        if req is not None:
            req[3] = self.c.ms
            self.serving = req[0]
            if self.on_request is not None:
                self.on_request(req)

    def write(self, b):
        # The device's USB write.
        self.c.io("serial", USB_US * len(b))
        self.received += len(b)
        self._rx += b
        while b"\n" in self._rx:
            line, self._rx = self._rx.split(b"\n", 1)
            self._line(line + b"\n")
        self.c.mark()
        return len(b)

    def _line(self, line):
        body, crc = line[:-1].rsplit(b" ", 1)
        if crc_hex(body).encode() != crc:
            self.errors.append("reply CRC: %r" % (line[:60],))
            return
        words = body[4:].decode().split(" ")
        if not self._wait or words[0] != self._wait[0][1]:
            self.errors.append("unexpected reply %r" % (line[:60],))
            return
        w = self._wait[0]
        w[3].append(words[1:])
        if w[2] < 0 and len(w[3]) == 1:
            w[2] = 1 + int(words[2]) if words[1] == "OK" else 1    # OK N, then N GAME lines
        if len(w[3]) == w[2]:
            self._wait.pop(0)
            w[0][4] = self.c.ms
            self.serving = None
            self._replies.append(w[3])
            if not self._wait:
                r = self._replies
                self._replies = []
                self._next(r)

    def _conversation(self):
        # bower_host.syncer.Syncer.run over bower_host.protocol.Client, as a
        # generator: it yields a batch of requests, gets their replies.
        r = yield [("HELLO", "HELLO", [1])]
        kv = {}
        for w in r[0][0][1:]:
            k, _, v = w.partition("=")
            kv[k] = v
        check(r[0][0][0] == "OK" and kv["proto"] == "1" and kv["dev"] == self.device
              and kv["games"] == str(len(self.files)), "HELLO %r" % (r,))
        chunk = min(int(kv["chunk"]), self.chunk)
        r = yield [("LIST", "LIST", [])]
        listed = self._listing(r[0])
        for gid, size, crc, state, synced in listed:
            data = self.files[gid]
            check(size == len(data) and crc == crc_hex(data) and state == "finished" and synced == "0",
                  "LIST entry %s" % gid)
            got = b""
            while len(got) < size:
                offs = []
                off = len(got)
                while off < size and len(offs) < self.window:
                    offs.append(off)
                    off += chunk
                r = yield [("GET %s@%d" % (gid, o), "GET", [gid, o, min(chunk, size - o)]) for o in offs]
                for o, rep in zip(offs, r):
                    got += self._chunk(rep[0], gid, o, min(chunk, size - o))
            check(got == data and crc_hex(got) == crc, "the log of %s" % gid)
            r = yield [("SYNCED " + gid, "SYNCED", [gid, crc])]
            check(r[0][0] == ["OK"], "SYNCED %s: %r" % (gid, r))
            self.synced.append(gid)
        r = yield [("LIST (again)", "LIST", [])]
        for e in self._listing(r[0]):
            check(e[4] == "1", "not synced after the sync: %r" % (e,))

    def _listing(self, lines):
        check(lines[0][0] == "OK" and int(lines[0][1]) == len(self.files), "LIST %r" % (lines[0],))
        out = []
        for w in lines[1:]:
            check(w[0] == "GAME" and len(w) == 6, "LIST line %r" % (w,))
            out.append((w[1], int(w[2]), w[3], w[4], w[5]))
        check([e[0] for e in out] == sorted(self.files), "LIST ids")
        return out

    def _chunk(self, w, gid, off, n):
        # OK gid off count crc base64: bower_host.framing.chunk_data's checks.
        check(w[0] == "OK" and w[1] == gid and int(w[2]) == off, "GET %s %d: %r" % (gid, off, w[:4]))
        raw = b"" if w[5] == "-" else binascii.a2b_base64(w[5].encode())
        check(len(raw) == int(w[3]) == n and crc_hex(raw) == w[4], "chunk %s@%d" % (gid, off))
        check(raw == self.files[gid][off:off + n], "chunk %s@%d: not the bytes on flash" % (gid, off))
        return raw


def check(ok, what):
    if not ok:
        raise AssertionError(what)


# ----- setting it up ----------------------------------------------------------------

_MADE = {}


def make_games(d, device, scores, seed=7):
    # Finished games on the flash directory ``d`` through the Store API (as
    # the app records them; each game-over screen left), Classic to each of
    # ``scores``, random legal inputs. Returns {game id: its log's bytes}.
    # (Made once per process, then copied: recording ~1000 inputs through
    # the real files takes seconds.)
    key = (device, tuple(scores), seed)
    src = _MADE.get(key)
    if src is None:
        src = _MADE[key] = _record_games(device, scores, seed)
    files = {}
    _copy(src, d, files)
    return files


def _copy(src, dst, files):
    # The store's files and directories (games/, and whatever else it keeps),
    # every game log's bytes into ``files``.
    for e in os.ilistdir(src) if MP else [(n, 0x4000 if os.path.isdir(src + "/" + n) else 0x8000)
                                         for n in os.listdir(src)]:
        name, kind = e[0], e[1]
        if kind == 0x4000:
            os.mkdir(dst + "/" + name)
            _copy(src + "/" + name, dst + "/" + name, files)
        elif name != "board.json":
            with open(src + "/" + name, "rb") as f:
                b = f.read()
            with open(dst + "/" + name, "wb") as f:
                f.write(b)
            if name.endswith(".log") and name[0] == "g":
                files[name[:-4]] = b


def _record_games(device, scores, seed):
    from bower.store import Store
    from euchre import Game, Rules
    from test_board_portable import tmpdir
    d = tmpdir()
    st = Store(d + "/", device=device)
    x = seed
    for i in range(len(scores)):
        g = Game(Rules("classic", winning_score=scores[i]), dealer=i % 4)
        st.new_game(g, started=1763000000 + 3600 * i)
        x = play(st, g, x, -1)
        st.close()
    return d


def play(st, g, x, n):
    # ``n`` random legal inputs (-1: to the game's end) applied and recorded.
    while n and not g.result:
        n -= 1
        x = (x * 1103515245 + 12345) & 0x3FFFFFF
        legal = [a for a in g.legal_actions() if a[:5] != "quick"]   # (entered in full)
        e = legal[(x >> 8) % len(legal)]
        g.apply(e)
        st.record(g, e)
    return x


def write_cfg(d):
    path = d + "/board.json"
    with open(path, "w") as f:
        f.write(json.dumps(boardcfg.DEFAULTS))
    return path
