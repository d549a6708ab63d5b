# An in-memory filesystem with a power switch, for the storage tests. Runs on
# CPython and MicroPython (plain Python, no io/os).
#
# It offers what bower.store uses from os + open (listdir, stat, rename,
# remove, mkdir, statvfs, sync, open), with littlefs's semantics: a rename
# replaces its target atomically. Every change costs "units": one per byte
# written, one per file created or truncated, rename, remove or mkdir.
# ``FakeFS(cut=N)`` lets exactly N units happen: the write that crosses N
# writes only its first bytes, then the power is off and every later call
# (reads included) raises ``PowerCut``. With ``full = n``, writes fail with
# ENOSPC once n more bytes are written (the failing write writes part of its
# bytes), the power staying on. ``FakeFS(limit=n)``: a flash of n bytes,
# where every file takes its size plus FILE_BYTES; a file that does not fit
# is not created, a write that does not fit writes the bytes that fit, and
# both raise ENOSPC; statvfs says how many bytes are free. ``fill = (k, j)``
# fills such a flash (from then on) right before the k-th change of the
# run, with j bytes left. ``reboot()`` gives a fresh FakeFS over
# the same "flash". Reads are counted (``bytes_read``, ``lines_read``), and
# ``trace`` lists every change as ``(op, path, units spent after it, arg)``
# (arg: the new path of a rename, ``(offset, bytes)`` of a write), so
# ``at(N)`` can rebuild the flash of a run cut at N without running it again.
#
# Also here: scripted table-mode games of every variant (``make_script``) and
# their reference states, shared by the CPython and MicroPython suites.

import sys

sys.path.insert(0, "tests/engine")
from helpers import fingerprint

# A Classic game to 5 through the store's eyes: an undo inside a hand, one
# back over a hand boundary, a misdeal, the end of the game undone and
# entered again (the portable store and full-flash tests).
UNDO_GAME = ["up H", "pass", "order", "tricks 3",
             "up S", "pass", "undo", "order", "won 2", "claim 2",
             "up C", "undo", "undo", "claim 3", "up C", "order", "tricks 3",
             "redeal", "up D", "pass", "order", "tricks 1",
             "up S", "order", "tricks 5", "undo", "tricks 5"]


class PowerCut(OSError):
    pass


FILE_BYTES = 16   # what a file takes on a size-limited flash besides its bytes


def _nospace():
    return OSError(28, "no space left")


def _norm(path):
    return path.rstrip("/")


def _parent(path):
    return path[:path.rfind("/")] if "/" in path else ""


class FakeFS:
    def __init__(self, cut=None, capacity=1 << 20, files=None, dirs=None, limit=None):
        self.files = files if files is not None else {}   # path -> bytearray
        self.dirs = dirs if dirs is not None else {"": 1}
        self.cut = cut
        self.capacity = capacity
        self.spent = 0
        self.dead = False
        self.trace = []
        self.bytes_read = 0
        self.lines_read = 0
        self.syncs = 0
        self.full = None    # bytes that fit before writes fail with ENOSPC
        self.limit = limit  # bytes the flash holds (files take FILE_BYTES more)
        self.fill = None    # (k, j): limit = used() + j before the k-th change

    def reboot(self, cut=None):
        # The same flash, power back on (optionally with a new cut).
        return FakeFS(cut, self.capacity, self.files, self.dirs, self.limit)

    def copy(self, cut=None):
        # An independent copy of the flash (the original keeps working).
        files = {}
        for k in self.files:
            files[k] = bytearray(self.files[k])
        return FakeFS(cut, self.capacity, files, dict(self.dirs), self.limit)

    # ----- the size limit ---------------------------------------------------

    def used(self):
        n = 0
        for p in self.files:
            n += len(self.files[p]) + FILE_BYTES
        return n

    def room(self):
        # Bytes free on a size-limited flash (None: no limit), after filling
        # it if this change is the one ``fill`` names.
        f = self.fill
        if f is not None and len(self.trace) >= f[0]:
            self.limit = self.used() + f[1]
            self.fill = None
        if self.limit is not None:
            return self.limit - self.used()

    # ----- the power switch ------------------------------------------------

    def alive(self):
        if self.dead:
            raise PowerCut(5, "power cut")

    def spend(self, n, op, path, arg=None):
        # How many of n units happen before the power fails.
        self.alive()
        if self.cut is not None and self.spent + n > self.cut:
            k = self.cut - self.spent
            self.spent = self.cut
            self.dead = True
            return k
        self.spent += n
        self.trace.append((op, path, self.spent, arg))
        return n

    def change(self, op, path, arg=None):
        # A one-unit change: happens entirely or not at all.
        if self.spend(1, op, path, arg) < 1:
            raise PowerCut(5, "power cut")

    def at(self, cut):
        # The flash as a run with ``FakeFS(cut)`` would have left it: this
        # run's changes up to ``cut`` units, applied to an empty flash.
        for _c, fs in self.cuts([cut]):
            return fs

    def cuts(self, which):
        # ``(cut, flash)`` for each cut in ``which`` (ascending), as ``at``
        # gives it but in one pass over the trace.
        run = FakeFS(capacity=self.capacity)
        files = run.files
        trace = self.trace
        i = done = 0
        for cut in which:
            while i < len(trace) and trace[i][2] <= cut:
                op, path, spent, arg = trace[i]
                if op == "write":
                    files[path][arg[0]:arg[0] + len(arg[1])] = arg[1]
                elif op == "create":
                    files[path] = bytearray()
                elif op == "rename":
                    files[arg] = files.pop(path)
                elif op == "remove":
                    del files[path]
                elif op == "rmdir":
                    del run.dirs[path]
                else:
                    run.dirs[path] = 1
                done = spent
                i += 1
            fs = run.copy()
            if i < len(trace) and trace[i][0] == "write" and done < cut:  # the torn write
                op, path, spent, arg = trace[i]
                fs.files[path][arg[0]:arg[0] + cut - done] = arg[1][:cut - done]
            yield cut, fs

    # ----- os --------------------------------------------------------------

    def listdir(self, path=""):
        self.alive()
        path = _norm(path)
        if path not in self.dirs:
            raise OSError(2, "no such directory " + path)
        out = []
        for table in (self.files, self.dirs):
            for p in table:
                if p and _parent(p) == path:
                    out.append(p[len(path) + 1:])
        return sorted(out)

    def stat(self, path):
        self.alive()
        path = _norm(path)
        if path in self.dirs:
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if path in self.files:
            return (0x8000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        raise OSError(2, "no such file " + path)

    def mkdir(self, path):
        self.alive()
        path = _norm(path)
        if path in self.dirs or path in self.files:
            raise OSError(17, "exists " + path)
        if _parent(path) not in self.dirs:
            raise OSError(2, "no parent for " + path)
        self.room()
        self.change("mkdir", path)
        self.dirs[path] = 1

    def rmdir(self, path):
        self.alive()
        path = _norm(path)
        if path not in self.dirs or not path:
            raise OSError(2, "no such directory " + path)
        for table in (self.files, self.dirs):
            for p in table:
                if p.startswith(path + "/"):
                    raise OSError(39, "not empty " + path)
        self.change("rmdir", path)
        del self.dirs[path]

    def remove(self, path):
        self.alive()
        path = _norm(path)
        if path not in self.files:
            raise OSError(2, "no such file " + path)
        self.room()
        self.change("remove", path)
        del self.files[path]

    def rename(self, old, new):
        self.alive()
        old, new = _norm(old), _norm(new)
        if old not in self.files or new in self.dirs or _parent(new) not in self.dirs:
            raise OSError(2, "cannot rename %s to %s" % (old, new))
        self.room()
        self.change("rename", old, new)
        self.files[new] = self.files.pop(old)

    def statvfs(self, path):
        # 4 KB blocks; every file takes whole blocks (at least one). With a
        # size limit: 1-byte blocks, the bytes free.
        self.alive()
        if self.limit is not None:
            free = max(0, self.limit - self.used())
            return (1, 1, self.limit, free, free, 0, 0, 0, 0, 255)
        used = 0
        for p in self.files:
            used += (len(self.files[p]) + 4095) // 4096 or 1
        free = max(0, self.capacity // 4096 - used)
        return (4096, 4096, self.capacity // 4096, free, free, 0, 0, 0, 0, 255)

    def sync(self):
        self.alive()
        self.syncs += 1

    def open(self, path, mode="r"):
        self.alive()
        path = _norm(path)
        if "r" in mode:
            if path not in self.files:
                raise OSError(2, "no such file " + path)
        elif _parent(path) not in self.dirs or path in self.dirs:
            raise OSError(2, "cannot create " + path)
        elif "w" in mode or path not in self.files:
            r = self.room()
            if r is not None and path not in self.files and r < FILE_BYTES:
                raise _nospace()
            self.change("create", path)
            self.files[path] = bytearray()
        return FakeFile(self, path, mode)


class FakeFile:
    def __init__(self, fs, path, mode):
        self.fs = fs
        self.path = path
        self.text = "b" not in mode
        self.pos = len(fs.files[path]) if "a" in mode else 0
        self.append = "a" in mode
        self.writable = "r" not in mode
        self.closed = False

    def _data(self):
        self.fs.alive()
        if self.closed:
            raise ValueError("I/O operation on closed file")
        return self.fs.files[self.path]

    def _out(self, b):
        self.fs.bytes_read += len(b)
        return b.decode() if self.text else bytes(b)

    def read(self, n=-1):
        d = self._data()
        end = len(d) if n is None or n < 0 else min(len(d), self.pos + n)
        b = d[self.pos:end]
        self.pos = max(self.pos, end)
        return self._out(b)

    def readline(self):
        d = self._data()
        i = d.find(b"\n", self.pos)
        end = len(d) if i < 0 else i + 1
        b = d[self.pos:end]
        self.pos = max(self.pos, end)
        if b:
            self.fs.lines_read += 1
        return self._out(b)

    def write(self, b):
        d = self._data()
        if not self.writable:
            raise OSError(9, "not open for writing")
        if self.text:
            b = b.encode()
        if self.append:
            self.pos = len(d)
        if self.pos > len(d):
            raise OSError(22, "write past the end")
        n = len(b)
        if self.fs.full is not None and n > self.fs.full:
            n = self.fs.full  # the flash is full: part is written, then ENOSPC
        r = self.fs.room()
        if r is not None and n > r + len(d) - self.pos:
            n = max(0, r + len(d) - self.pos)  # the bytes that fit
        k = self.fs.spend(n, "write", self.path, (self.pos, bytes(b[:n])))
        if self.fs.full is not None:
            self.fs.full -= k
        d[self.pos:self.pos + k] = b[:k]
        self.pos += k
        if k < n:
            raise PowerCut(5, "power cut")
        if k < len(b):
            raise _nospace()
        return k

    def seek(self, pos, whence=0):
        d = self._data()
        if whence == 1:
            pos += self.pos
        elif whence == 2:
            pos += len(d)
        if pos < 0:
            raise OSError(22, "negative seek")
        self.pos = pos
        return pos

    def tell(self):
        self._data()
        return self.pos

    def flush(self):
        self._data()

    def close(self):
        if not self.closed:
            self.fs.alive()
            self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ----- scripted games ----------------------------------------------------


def _rand(x):
    # The next state of a small LCG (the same on every port).
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


_RARE = ("redeal", "renege", "claim", "throwin")


def make_script(variant, seed, cross=3, undo_every=9, **options):
    # A whole table-mode game as a list of inputs, "undo" included: a redeal
    # at hand 2, an undo every ``undo_every`` inputs (then a different input),
    # at the end of hand ``cross`` an undo back over the hand boundary, and
    # the game's last input undone and entered again.
    # Returns (rules, first dealer, inputs).
    from euchre import Game, Rules
    rules = Rules(variant, **options)
    dealer = seed % rules.num_players
    g = Game(rules, dealer=dealer)
    out = []
    x = seed
    while not g.result:
        x = _rand(x)
        legal = [a for a in g.legal_actions() if a[:5] != "quick"]   # (entered in full)
        if g.hand_no == 2 and not g.hand.events and "redeal" not in out:
            e = "redeal"
        else:
            # Mostly the common inputs; now and then a rare one.
            pool = legal
            if x & 7:
                pool = [a for a in legal if a.split(" ")[0] not in _RARE] or legal
            e = pool[(x >> 8) % len(pool)]
        hand = g.hand_no
        g.apply(e)
        out.append(e)
        if len(out) % undo_every == 0 and not g.result or hand == cross and g.hand_no == cross + 1:
            g.undo()
            out.append("undo")
            if g.hand_no == cross:
                cross = -1
            # The same input again, or another one.
            x = _rand(x)
            legal = [a for a in g.legal_actions() if a[:5] != "quick"]
            e = legal[(x >> 8) % len(legal)]
            g.apply(e)
            out.append(e)
        if g.result and out[-2:-1] != ["undo"]:
            # The end taken back once, then entered again.
            g.undo()
            g.apply(out[-1])
            out += ["undo", out[-1]]
    return rules, dealer, out


def play(game, e):
    # Apply one scripted input (``undo`` included) to ``game``.
    if e == "undo":
        game.undo()
    else:
        game.apply(e)


def states(rules, dealer, inputs):
    # The observable state after each prefix of ``inputs`` (index k: after
    # k inputs), to compare with what a reboot brings back.
    from euchre import Game
    g = Game(rules, dealer=dealer)
    out = [observe(g)]
    for e in inputs:
        play(g, e)
        out.append(observe(g))
    return out


def observe(g):
    return (fingerprint(g)[:5], g.event_count(), g.legal_actions(), list(g.scores), g.result)


# ----- power-cut runs ------------------------------------------------------
#
# ``run_game`` plays a script through a Store the way the UI does (apply,
# then record; undo past a resumed checkpoint through load_full) and changes
# settings, roster and clock on the way. Its ``marks`` say, in units of the
# FakeFS, when each step became durable, so a cut at any unit has one right
# answer: ``expect(marks, N)``.

# After input i: (method, argument, what store.settings/roster/clock_offset become).
CHANGES = {
    2: ("save_settings", {"brightness": 40, "dim_s": 30, "off_s": 600, "names": 1, "quick": 0}),
    5: ("set_roster", ["Ann", "Bob", "Cy"]),
    9: ("set_clock_offset", 1750000000),
}


def _after(fs, n0, suffix):
    # Units spent when the last change since trace entry n0 to a path
    # ending in ``suffix`` was done (for a rename: to the new path).
    done = None
    for t in fs.trace[n0:]:
        if (t[3] if t[0] == "rename" else t[1]).endswith(suffix):
            done = t[2]
    return done


def run_game(fs, rules, dealer, inputs, start=0, store=None, game=None):
    # Play ``inputs[start:]``; returns the marks (see above) and the store.
    from euchre import Game, IllegalAction
    from bower.store import Store
    marks = {"lines": [], "ends": [], "changes": []}
    n0 = len(fs.trace)
    if store is None:
        store = Store("/", fs=fs, device="e6614c31")
        marks["dir"] = _after(fs, n0, "/games")
        marks["boot"] = _after(fs, n0, "/settings")
    if game is None:
        game = Game(rules, dealer=dealer)
        n0 = len(fs.trace)
        store.new_game(game, started=1750000000)
        marks["game"] = _after(fs, n0, ".log")
    for i in range(start, len(inputs)):
        e = inputs[i]
        if e == "undo":
            try:
                game.undo()
            except IllegalAction:  # resumed from a checkpoint: replay it all
                game = store.load_full()
                game.undo()
        else:
            game.apply(e)
        n0 = len(fs.trace)
        store.record(game, e)
        store.idle()    # the app idle in the hand: a new hand's checkpoint (bower.ui App.warm)
        for t in fs.trace[n0:]:  # the input's line
            if t[0] == "write" and t[1].endswith(".log"):
                marks["lines"].append(t[2])
                marks["ends"].append(t[3][0] + len(t[3][1]))
                break
        if i in CHANGES:
            name, arg = CHANGES[i]
            n0 = len(fs.trace)
            getattr(store, name)(arg)
            marks["changes"].append(_after(fs, n0, "/settings"))
    return marks, store, game


def expect_settings(marks, cut):
    # (settings, roster, clock_offset) a reboot after ``cut`` units must find.
    from bower.prefs import DEFAULTS
    s, r, c = dict(DEFAULTS), [], 0
    keys = sorted(CHANGES)
    for j in range(len(marks["changes"])):
        if marks["changes"][j] <= cut:
            name, arg = CHANGES[keys[j]]
            if name == "save_settings":
                s = arg
            elif name == "set_roster":
                r = arg
            else:
                c = arg
    return s, r, c


def count_done(marks, cut):
    # How many inputs were completely written after ``cut`` units.
    k = 0
    for m in marks["lines"]:
        if m <= cut:
            k += 1
    return k
