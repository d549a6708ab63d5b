# The browser board: Bower in a web page, MicroPython's WebAssembly port.
# Like bower.board on the Pico, this is the one module that knows what it
# runs on; it touches nothing itself: the page's script (bower_host's web
# build, app.js) owns the canvas, the touch buttons and the browser's
# storage, and calls in, a loop pass at a time:
#
#   b = WebBoard("/flash", device_id, time_s)   # the flash restored first
#   b.edge(i, pressed, t_ms)     # a button's edge, as the Pico's pin handler
#   flags = b.step(mask, t_ms)   # one pass of bower.board's loop
#   b.ram                        # the panel's display RAM (1,024 bytes), also
#                                # written to the file ``frame`` when it changes
#                                # (what the page's script reads it from)
#   b.written()                  # the files written since the last call
#   b.net_join(code)             # a club table's join code (the page's ?join=)
#   b.net_next(t_ms)             # the next request to the club's server, as
#                                # JSON text, or "" (bower.clubnet's Net)
#   b.net_answer(status, text, t_ms)   # its reply (0: none); FILES if the
#                                # Net wrote files (commit them as a step's)
#   b.net_said()                 # the Net's last word, for the status line
#
# step() returns FRAME (the panel's RAM changed: draw it), FILES (files were
# written: store them before the next step, so an input is durable before
# the next one is read, as on the Pico), BUSY (call again soon), DARK
# (the panel is off), EXPORT (the user chose "Export logs" in the
# settings: every game's log, as a sync reads it, is in the directory
# ``exports``, ``/flash.exports`` beside ``/flash``, as ``<game id>.log``,
# for the page to hand over) and RESET (start again from the flash: the
# Pico's soft reset after its error screen). The display goes through bower.display and
# the real ssd1306 driver into _Panel, a model of the SSD1306's display
# RAM, so the page shows what the Pico's panel would, pixel for pixel.
#
# Storage: the store's files live in MicroPython's filesystem under root;
# _Fs passes the store's calls to os and notes every path it writes,
# renames or removes. ``room`` (bytes the browser still lets this site
# keep, as the page learns it: see app.js's room()) becomes the flash's
# free space, shrinking by what each step will cost the browser, and a
# write past it fails with ENOSPC, so a full quota takes the device's
# "Storage full" path.
#
# Faults: an exception in the app is taken as bower.board.run takes it: the
# app let go, then bower.fault's "Bower error" screen and /crash.log, and a
# new press starts again (RESET).
#
# The Pico's heap: this port grows its GC heap on demand and collects only
# when a call from the page returns (gc.collect() inside a call only asks
# for that), so a hard cap at the Pico's size would fail on garbage a Pico
# collects mid-pass. The budget is kept here instead: live objects over the
# Pico's GC pool (HEAP) after a collection are the device's MemoryError,
# raised on the next pass. What it does not model: a peak inside one pass
# (live plus what a Pico would have collected) and the Pico's fragmentation.

import gc
import os

from bower import __version__
from bower.buttons import Buttons
from bower.store import extra

FRAME = 1
FILES = 2
BUSY = 4
DARK = 8
EXPORT = 16
RESET = 32

#: The Pico's GC pool: 4,384 B the bare firmware holds + 241,504 B free at
#: boot (../shared/pico-timing.md).
HEAP = 245_888
_alloc = getattr(gc, "mem_alloc", None)   # (None on CPython: no budget there)

_BLOCK = 4096
_ENTRY = 64             # what a file costs the browser beyond its bytes: its name, the record
_GC_IDLE_MS = 120
_CHUNK = 512        # bytes of a log read at a time for an export (as the link's READ)


class _Panel:
    # The I2C bus with an SSD1306 on it, as far as the driver and
    # bower.display use it: commands (control byte 00, or 80 before each)
    # and data (40) written through the column and page window, horizontal
    # addressing. ``ram``: page * 128 + column, as MONO_VLSB frames are.

    _ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
             0xDB: 1, 0x8D: 1}

    def __init__(self):
        self.ram = bytearray(1024)
        self.on = False
        self.contrast = 255
        self.changed = False
        self._c = [0, 127, 0, 7]     # column and page window
        self._x = 0
        self._p = 0

    def writeto(self, addr, buf):
        self._write(buf)

    def writevto(self, addr, bufs):
        # The driver's write_data: [b"\x40", data]
        if len(bufs) == 2 and bytes(bufs[0]) == b"\x40":
            self._data(bufs[1])
            return
        whole = bytearray()
        for x in bufs:
            whole.extend(x)
        self._write(whole)

    def _write(self, buf):
        if not buf:
            return
        if buf[0] == 0x40:
            self._data(memoryview(buf)[1:])
            return
        if buf[0] == 0x80:      # Co=1: one command, its own control byte each
            cmds = bytes(buf[i] for i in range(1, len(buf), 2))
        else:
            cmds = bytes(buf[1:])
        i = 0
        while i < len(cmds):
            c = cmds[i]
            n = self._ARGS.get(c, 0)
            a = cmds[i + 1:i + 1 + n]
            i += 1 + n
            if c == 0x21 and len(a) == 2:
                self._c[0], self._c[1] = a[0] & 127, a[1] & 127
                self._x = self._c[0]
            elif c == 0x22 and len(a) == 2:
                self._c[2], self._c[3] = a[0] & 7, a[1] & 7
                self._p = self._c[2]
            elif c == 0x81 and a:
                self.contrast = a[0]
                self.changed = True
            elif c == 0xAE or c == 0xAF:
                self.on = c == 0xAF
                self.changed = True

    def _data(self, data):
        c0, c1, p0, p1 = self._c
        x, p, ram = self._x, self._p, self.ram
        for b in data:
            ram[p * 128 + x] = b
            if x < c1:
                x += 1
            else:
                x = c0
                p = p + 1 if p < p1 else p0
        self._x, self._p = x, p
        self.changed = True


class _Fs:
    # The store's filesystem (os and open), noting each path it changes.
    # ``room``: bytes the browser will still take (the page sets it after
    # each commit). The page puts each changed file whole, with its name, so
    # a step costs, for every file it changes, _ENTRY and the bytes the file
    # holds then: the first change to a file in a step counts _ENTRY and
    # what it held (``charged``), each write its own bytes. A change that
    # does not fit fails as on a full flash (ENOSPC) before it is made: a
    # write, or opening a file that it would create or empty (littlefs too
    # needs room for a new file). A removal gives nothing back: the
    # browser's storage is a log that frees space when it compacts (the
    # page reads its room again after each commit).

    def __init__(self, root, room):
        self.root = root
        self.room = room
        self.changed = []
        self.charged = []

    def _note(self, path):
        if path not in self.changed:
            self.changed.append(path)

    def _cost(self, path, held):
        # What a first change to ``path`` this step adds (0 if it had one).
        return 0 if path in self.charged else _ENTRY + held

    def charge(self, path, n):
        if n > self.room:
            raise OSError(28)       # ENOSPC
        self.room -= n
        if path not in self.charged:
            self.charged.append(path)
        self._note(path)

    def wrote(self, path):
        # A file written other than through this object (the fault's log).
        self._note(path)

    def open(self, path, mode="r"):
        if "w" in mode or "a" in mode or "+" in mode:
            try:
                held = 0 if "w" in mode else os.stat(path)[6]
                made = "w" in mode
            except OSError:
                held, made = 0, True
            n = self._cost(path, held)
            if made:                # created or emptied: a change already
                self.charge(path, n)
                n = 0
            return _Counted(open(path, mode), self, path, n)
        return open(path, mode)

    def mkdir(self, path):
        n = self._cost(path, 0)
        if n > self.room:
            raise OSError(28)
        os.mkdir(path)
        self.charge(path, n)

    def rename(self, a, b):
        os.rename(a, b)
        self._note(a)
        self._note(b)

    def remove(self, path):
        os.remove(path)
        self._note(path)

    def rmdir(self, path):
        os.rmdir(path)
        self._note(path)

    def listdir(self, path):
        return os.listdir(path)

    def stat(self, path):
        return os.stat(path)

    def statvfs(self, path):
        free = max(0, self.room) // _BLOCK
        total = free + _used(self.root) // _BLOCK + 1
        return (_BLOCK, _BLOCK, total, free, free, 0, 0, 0, 0, 255)

    sync = None


class _Counted:
    # A file open for writing: a write past the browser's room fails as a
    # full flash would (OSError ENOSPC), before any of it is written.
    # ``due``: what the file's first change adds to the step's cost.

    def __init__(self, f, fs, path, due):
        self._f = f
        self._fs = fs
        self._path = path
        self._due = due

    def write(self, b):
        self._fs.charge(self._path, len(b) + self._due)
        self._due = 0
        return self._f.write(b)

    def flush(self):
        return self._f.flush()

    def seek(self, *a):
        return self._f.seek(*a)

    def tell(self):
        return self._f.tell()

    def read(self, *a):
        return self._f.read(*a)

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


def _at_once():
    return True


def _used(root):
    # Bytes the files under ``root`` take.
    n = 0
    stack = [root.rstrip("/") or "/"]
    while stack:
        d = stack.pop()
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            p = d + "/" + name
            try:
                st = os.stat(p)
            except OSError:
                continue
            if st[0] & 0x4000:
                stack.append(p)
            else:
                n += st[6]
    return n


class WebBoard:
    def __init__(self, root, device, time_s=None, room=1 << 20, rand_below=None, frame="/frame",
                 exports=None):
        import ssd1306
        from bower.display import Display

        self.panel = _Panel()
        self.ram = self.panel.ram
        self.disp = Display(ssd1306.SSD1306_I2C(128, 64, self.panel, 0x3C))
        self.fs = _Fs(root, room)
        self.buttons = Buttons()
        self.info = {"version": __version__, "device": device, "board": "web", "time": time_s}
        self.root = root.rstrip("/") + "/"
        if time_s is not None:    # (the port's time.time() is a float; a log's "started" is whole seconds)
            self.info["time"] = lambda: int(time_s())
        self.info["export"] = self._export
        self.exports = exports or root.rstrip("/") + ".exports"    # (beside the flash, not in it)
        self._exporting = False
        self.frame = frame
        self.now = 0
        self._last = None
        self._quiet = 0
        self._tidy = False
        self.app = self.store = self.fault = None
        self._held = -1     # the buttons held when the fault's screen went up
        self._collected = False
        self.net = None         # bower.clubnet.Net once joining or joined
        self._code = None       # a join code asked and not yet answered
        self._req = None        # the request handed to the page, not yet answered
        try:
            from bower.store import Store
            from bower.ui import App
            self.store = Store(root, fs=self.fs, device=device)
            self.app = App(self.store, self.info, rand_below)
            self.app.render(self.disp.fb)
            self.disp.show()
        except Exception as e:
            self._fail(e)
        self._put_frame()

    def _put_frame(self):
        if self.frame:
            with open(self.frame, "wb") as f:
                f.write(self.ram)

    def edge(self, i, pressed, t):
        # A button's edge as a pin interrupt gives it (queued; the next step reads it).
        self.buttons.edge(i, pressed, t)

    def written(self):
        # The paths written, renamed or removed since the last call, a line
        # each (the page commits them: a new step of costs begins).
        out = "\n".join(self.fs.changed)
        self.fs.changed = []
        self.fs.charged = []
        return out

    def _export(self):
        # Settings' "Export logs": the logs are copied at the end of this
        # pass (step); returns how many games there are.
        n = self.store.count()
        self._exporting = n > 0
        return n

    def _copy_logs(self):
        # Each game's log, as much of it as the store lists (what a sync
        # reads), into ``exports`` (emptied first), outside the flash.
        d = self.exports
        try:
            old = os.listdir(d)
        except OSError:
            os.mkdir(d)
            old = ()
        for name in old:
            os.remove(d + "/" + name)
        st = self.store
        for e in extra("past").each(st):
            gid, size = e[0], e[1]
            with open(d + "/" + gid + ".log", "wb") as f:
                at = 0
                while at < size:
                    b = st.read(gid, at, min(_CHUNK, size - at))
                    if not b:
                        break
                    f.write(b)
                    at += len(b)

    def set_room(self, room):
        # The browser's room, read again after a commit (0: it refused one).
        self.fs.room = room

    # ----- the club night's server (bower.clubnet; the page does the HTTP)

    def _net(self):
        # The Net, loaded once this phone joins a club night or has joined
        # one (its claim file): a phone that never joins never loads it.
        if self.net is None and self.store is not None:
            if self._code is None:
                try:
                    os.stat(self.store.club_path + ".net")
                except OSError:
                    return None
            from bower.clubnet import Net
            self.net = Net(self.store)
        return self.net if self.store is not None else None

    def net_join(self, code):
        # Join the table whose code this is (from the page's address).
        self._code = str(code).strip().upper()
        self._net()

    def net_joining(self):
        # 1 while a join is asked and not answered for good.
        return 0 if self._code is None else 1

    def net_next(self, t):
        # The next request as JSON text ([method, path, token, body]), or "".
        net = self._net()
        if net is None:
            return ""
        if self._code is not None:
            req = net.join(self._code, self.info["device"]) if t >= net.due else None
        else:
            req = net.next(t)
        self._req = req
        if req is None:
            return ""
        import json
        return json.dumps(req)

    def net_answer(self, status, text, t):
        # The reply to the last request (status 0: none: offline). Files
        # the Net wrote are noted as a step's are: the page commits them
        # (written()); FILES if there are any.
        req, self._req = self._req, None
        net = self.net
        if req is None or net is None or self.store is None:
            return 0
        done = 200 <= status < 300 or (400 <= status < 500 and status != 429)
        try:
            net.answer(req, status, text, t)
        except MemoryError as e:
            self._fail(e)
            return BUSY
        except Exception as e:      # (a reply not of the API's shape: tried again later)
            net.due = t + 10000
            net.said = "bad reply from the server (%s)" % (e.__class__.__name__,)
            done = False
        if done and req[1] == "api/join":
            self._code = None
        return FILES if self.fs.changed else 0

    def net_joined(self):
        # 1 if this phone holds a table of a club night (its claim file).
        net = self._net()
        return 1 if net is not None and net.joined() else 0

    def net_said(self):
        # What the Net last said, for the page's status line.
        return self.net.said if self.net is not None else ""

    def step(self, mask, t):
        # One pass of bower.board's loop at time ``t`` (ms) with the buttons
        # held ``mask`` (bit 0 UP, 1 DOWN, 2 OK, 3 BACK).
        if self.fault is None:
            try:
                if self._heap_checked():
                    raise MemoryError("%d B live, over the Pico's heap (%d B)" % (_alloc(), HEAP))  # pyright: ignore[reportOptionalCall]
                return self._pass(mask, t)
            except Exception as e:
                self._fail(e)
                return BUSY
        return self._faulted(mask)

    def _heap_checked(self):
        # At a pass's start: more than HEAP allocated asks for a collection
        # (made as this call returns); still more at the next pass: True.
        over = _alloc is not None and _alloc() > HEAP
        if over and not self._collected:
            gc.collect()
            self._collected = True
            return False
        self._collected = False
        return over

    def _fail(self, e):
        self.fault = e
        self.app = self.store = None
        gc.collect()

    def _faulted(self, mask):
        # bower.fault's screen and log (its wait for a press is the page's:
        # stop() is true at once), then RESET on a new press.
        if self._held < 0:
            from bower.fault import crash
            self._held = mask
            crash(None, self.disp, self.root, None, self.now, self.fault, _at_once, __version__, None)
            self.fs.wrote(self.root + "crash.log")
            self.fs.wrote(self.root + "crash.old")
            self.panel.changed = False
            self._put_frame()
            return FRAME | FILES
        new = mask & ~self._held
        self._held &= mask
        return RESET if new else 0

    def _pass(self, mask, t):
        app = self.app
        d = 0 if self._last is None else t - self._last
        self._last = t
        self.now += d
        self._quiet += d
        now = self.now
        app.buttons_seen(mask)
        busy = False
        for ev in self.buttons.update(mask, t):
            busy = True
            app.handle(ev, now)
        self.disp.contrast(app.contrast)
        self.disp.power(not app.asleep)
        if app.dirty:
            app.render(self.disp.fb)
            self.disp.show()
            busy = True
        app.tick(now)
        if busy:
            self._quiet = 0
            self._tidy = False
        elif not self._tidy and self._quiet >= _GC_IDLE_MS:
            if not app.warm():
                self._tidy = True
                gc.collect()
            busy = True
        flags = 0
        if self._exporting:
            self._exporting = False
            self._copy_logs()
            flags |= EXPORT
        if self.panel.changed:
            self.panel.changed = False
            self._put_frame()
            flags |= FRAME
        if self.fs.changed:
            flags |= FILES
        if busy or self.buttons.waiting() or mask:
            flags |= BUSY
        if not self.panel.on:
            flags |= DARK
        return flags
