# Flash storage that never loses a game. Settings, roster, clock offset and
# the game counter live in one small file replaced atomically; each game is
# an append-only log (the engine's JSON lines, a CRC each) with a per-hand
# checkpoint, so a resume never replays earlier hands. firmware/STORAGE.md
# describes the files. Assumes littlefs (rp2): a rename replaces its target
# atomically.
#
#     s = Store("/", device="e6614c31...")
#     s.new_game(game)
#     game.apply("up H"); s.record(game, "up H")    # on flash when it returns
#     game, info = s.resume()                      # at boot; or None
#
# Heap: every identifier of a module imported from source stays interned,
# so private names and locals here are short.

from binascii import crc32
from euchre.log import encode_line, decode_line, header_payload, UNDO
from euchre.game import game_from_header

DEFAULTS = {"brightness": 255, "dim_s": 60, "off_s": 600, "names": 0}


def _gid(s):
    # ``s`` if it is a game id such as "g0007" (so never a path), else None.
    if isinstance(s, str) and len(s) > 4 and s[0] == "g" and not s[1:].strip("0123456789"):
        return s


def check_names(names):
    # The roster if valid: a list of at most 16 distinct names of 1 to 8
    # printable ASCII characters, no space at either end.
    # :raises ValueError: naming the bad name.
    if type(names) is not list or len(names) > 16:
        raise ValueError("at most 16 names")
    for n in names:
        if not (isinstance(n, str) and 0 < len(n) < 9 and n.strip() == n and min(n) >= " "
                and max(n) <= "~") or names.count(n) > 1:
            raise ValueError("bad name %r" % (n,))
    return names


def _settings(d):
    s = dict(DEFAULTS)
    s.update(d)
    for k in s:
        if type(s[k]) is not int:
            raise ValueError(k + ": not an int")
    return s


class Store:
    # Attributes: settings, roster, clock_offset, warnings (short messages
    # for the user). Private: _o open, _s sync, _f settings file, _d games
    # directory, _g its prefix; the game being recorded: _id, _z its log's
    # size, _n its line count, _w lines not written yet, _fin over; _next
    # the next game number.

    def __init__(self, root="/", fs=None, device="", low=16384):
        # ``fs``: the os functions used here plus ``open`` (default: os and
        # the builtin open). ``low``: bytes make_room keeps free.
        if fs is None:
            import os as fs
            self._o = open
        else:
            self._o = fs.open
        self.fs = fs
        self._s = getattr(fs, "sync", None) or int
        self.device = device
        self.low = low
        self.warnings = []
        self._id = None
        r = root.rstrip("/")
        self._f = r + "/settings"
        d = self._d = r + "/games"
        g = self._g = d + "/"
        for p in (r, d):
            try:
                fs.mkdir(p)
                new = 1
            except OSError:
                new = 0
        top = 0
        ls = fs.listdir(d)
        for p in ls:
            if p[-4:] == ".tmp" or p[-3:] in (".ck", ".st") and p[:-3] + ".log" not in ls:
                fs.remove(g + p)  # an interrupted write, or what is left of a removed game
            elif p[-4:] == ".log" and _gid(p[:-4]):
                top = max(top, int(p[1:-4]))
        self.settings, self.roster, self.clock_offset, n, e = dict(DEFAULTS), [], 0, 1, "corrupt"
        try:
            s = self._rec(self._f)
            if s is None:
                e = "missing"
            else:
                self.settings, self.roster, self.clock_offset, n, e = (
                    _settings(s["settings"]), check_names(s["roster"]), int(s["clock"]), int(s["next"]), 0)
        except (TypeError, ValueError, KeyError):
            pass
        self._next = max(n, top + 1)  # ids are never reused
        if e:
            self._save()
            if not new:
                self.warnings.append("settings reset: file " + e)

    # ----- small files, replaced atomically --------------------------------

    def _rec(self, p, x=None, ext=""):
        # Without ``x``: a small file's payload, None if it is missing
        # (ValueError if corrupt). With ``x``: write it to a temporary file,
        # then rename that over ``p + ext``: old or new, never torn.
        if x is None:
            try:
                f = self._o(p, "rb")
            except OSError:
                return None
            with f:
                return decode_line(f.read(1200).decode())
        with self._o(p + ".tmp", "wb") as f:
            f.write(x if ext else encode_line(x).encode())
        self.fs.rename(p + ".tmp", p + ext)
        self._s()

    def _save(self):
        self._rec(self._f, {"settings": self.settings, "roster": self.roster,
                            "clock": self.clock_offset, "next": self._next})

    def save_settings(self, d):
        # :raises ValueError: a value that is not an int.
        self.settings = _settings(d)
        self._save()

    def set_clock_offset(self, seconds):
        if type(seconds) is not int:
            raise ValueError("clock: not an int")
        self.clock_offset = seconds
        self._save()

    def set_roster(self, names):
        # :raises ValueError: see check_names; nothing changes.
        self.roster = check_names(names)[:]
        self._save()

    # ----- games -----------------------------------------------------------

    def _st(self, gid, state=None, crc=None):
        # The game's {"state": ..., "synced": crc}; given ``state`` or
        # ``crc``, changed and written.
        try:
            s = self._rec(self._g + gid + ".st")
        except ValueError:
            s = None
        if type(s) is not dict:
            s = {"state": "playing"}
        if state or crc:
            s["state"] = state or s["state"]
            if crc:
                s["synced"] = crc
            self._rec(self._g + gid + ".st", s)
        return s

    def _cur(self):
        # The newest game if it is on flash and unfinished (only it can be).
        gid = "g%04d" % (self._next - 1)
        try:
            self.fs.stat(self._g + gid + ".log")
        except OSError:
            return None
        if self._st(gid)["state"] == "playing":
            return gid

    def new_game(self, game, started=0):
        # Start recording ``game`` (no event yet); an unfinished one is
        # abandoned. Returns its id.
        if game.event_count():
            raise ValueError("not a new game")
        gid = self._cur()
        if gid:
            self._st(gid, "abandoned")
        gid = "g%04d" % self._next
        self._next += 1
        self._save()
        h = header_payload(game)
        h["id"] = gid
        h["device"] = self.device
        h["started"] = started
        b = encode_line(h).encode()
        self._rec(self._g + gid, b, ".log")  # the game exists, or not at all
        self._id, self._z, self._n, self._w, self._fin = gid, len(b), 1, b"", 0
        return gid

    def record(self, game, text):
        # Append an input right after game.apply(text) (or game.undo() with
        # text "undo") succeeded; it is on flash when this returns. The game
        # stays current when it ends (its end can be undone).
        # :raises OSError: not written (flash full?): this input is written
        # with the next one, and part of a line never stays in the log.
        gid = self._id
        if not gid:
            raise ValueError("no game")
        p = self._g + gid
        if self._fin and not game.result:
            # The end undone: "playing" before the line (a resume sees the
            # end in the log if the line does not make it).
            self._st(gid, "playing")
            self._fin = 0
        b = self._w + encode_line(text).encode()
        t, self._w = self._w, b  # lines not on flash yet
        if t:
            self._trim(p, self._z)
        with self._o(p + ".log", "ab") as f:
            f.write(b)
            f.flush()
        self._s()
        self._w = b""
        self._z += len(b)
        self._n += b.count(b"\n")
        try:
            if game.result:
                self._fin = 1
                self._st(gid, "finished")
            elif not game.hand.events:
                # A hand starts: its state, and where its lines start.
                self._rec(p + ".ck", [game.checkpoint(), self._z, self._n])
        except OSError:
            pass  # a shortcut only: a resume finds the same without it

    def resume(self):
        # ``(game, info)`` for the unfinished game, or None.
        gid = self._cur()
        if not gid:
            return None
        p = self._g + gid
        try:
            ck = self._rec(p + ".ck")
        except ValueError:
            ck = None
        try:
            game, info = self._load(gid, ck) or self._load(gid, None)
        except ValueError as e:
            self.warnings.append("%s %s: not resumed" % (gid, e))
            return None
        if info["dropped"]:
            self.warnings.append(gid + " " + info["dropped"])
            self._trim(p, info["size"])
        if game.result:
            self._st(gid, "finished")
            return None
        self._id, self._z, self._n, self._w, self._fin = gid, info["size"], info["lines"], b"", 0
        return game, info

    def _trim(self, p, n):
        # Keep the first ``n`` bytes of log ``p``: copy them, rename over.
        with self._o(p + ".log", "rb") as f, self._o(p + ".tmp", "wb") as t:
            while n > 0:
                b = f.read(min(n, 256))
                t.write(b)
                n -= len(b)
        self.fs.rename(p + ".tmp", p + ".log")
        self._s()

    def load_full(self):
        # The current game replayed from its first event (to undo past the
        # checkpoint a resume started from).
        # :raises ValueError: a corrupt line or none being recorded.
        if not self._id:
            raise ValueError("no game")
        return self._load(self._id, None)[0]

    def _load(self, gid, ck):
        # Rebuild from checkpoint ``ck`` (or the start) and the lines after
        # it; None if ``ck`` is stale (an undo went back past it).
        # :raises ValueError: a corrupt line before the last, or one the rules refuse.
        with self._o(self._g + gid + ".log", "rb") as f:
            b = f.readline()
            game = game_from_header(decode_line(b.decode(), 1))
            z, n, ok = len(b), 1, 0
            try:
                c, o, m = ck
                if o < z or m < 1:
                    raise ValueError
                f.seek(o - 1)
                if f.read(1) != b"\n":  # not a line start: not this log's
                    raise ValueError
                game.restore(c)
                z, n, ok = o, m, 1
            except (TypeError, ValueError):
                pass  # none or unusable: replay it all
            f.seek(z)
            k = r = bad = 0  # k: events in the stack since the start
            while True:
                b = f.readline()
                if not b:
                    break
                if bad:
                    raise ValueError("line %d corrupt" % bad)
                n += 1
                r += 1
                try:
                    if b[-1:] != b"\n":
                        raise ValueError
                    e = decode_line(b.decode(), n)
                except ValueError:
                    bad = n  # torn if it is the last
                    continue
                try:
                    if type(e) is not str:
                        raise ValueError
                    if e != UNDO:
                        game.apply(e)
                        k += 1
                    elif k:
                        game.undo()
                        k -= 1
                    elif ok:
                        return None
                    else:
                        raise ValueError
                except ValueError:
                    raise ValueError("line %d refused" % n)
                z += len(b)
        return game, {"id": gid, "size": z, "lines": n - (bad > 0), "read": r, "checkpoint": ok,
                      "dropped": "torn line %d dropped" % bad if bad else None}

    # ----- the computer link, space ----------------------------------------

    def _crc(self, gid):
        # CRC-32 of a game's log as 8 hex digits (OSError: no such game).
        c = 0
        with self._o(self._g + gid + ".log", "rb") as f:
            while True:
                b = f.read(256)
                if not b:
                    return "%08x" % (c & 0xFFFFFFFF)
                c = crc32(b, c)

    def games(self):
        # Every game on flash, oldest first.
        out = []
        ids = [p[:-4] for p in self.fs.listdir(self._d) if p[-4:] == ".log" and _gid(p[:-4])]
        for gid in sorted(ids, key=lambda s: int(s[1:])):
            s = self._st(gid)
            c = self._crc(gid)
            out.append({"id": gid, "size": self.fs.stat(self._g + gid + ".log")[6], "crc": c,
                        "state": s["state"], "synced": s.get("synced") == c})
        return out

    def read(self, gid, offset, n):
        # Up to ``n`` bytes of a game's log from ``offset``.
        # :raises ValueError: a bad id. OSError: no such game.
        if not _gid(gid):
            raise ValueError("bad game id")
        with self._o(self._g + gid + ".log", "rb") as f:
            f.seek(max(0, offset))
            return f.read(max(0, n))

    def mark_synced(self, gid, crc):
        # After a verified transfer: True if ``crc`` is the file's CRC now.
        # :raises ValueError: a bad id or no such game.
        if not _gid(gid):
            raise ValueError("bad game id")
        try:
            ok = self._crc(gid) == crc.lower()
        except OSError:
            raise ValueError("no game %r" % (gid,))
        if ok:
            self._st(gid, None, crc.lower())
        return ok

    def usage(self):
        # (bytes used by the games directory, bytes free on the filesystem).
        n = 0
        for p in self.fs.listdir(self._d):
            n += self.fs.stat(self._g + p)[6]
        v = self.fs.statvfs(self._d)
        return n, v[1] * v[4]

    def low_space(self):
        return self.usage()[1] < self.low

    def make_room(self):
        # Remove synced finished or abandoned games, oldest first, until
        # ``low`` bytes are free; returns their ids. Never an unsynced game.
        out = []
        for g in self.games():
            if not self.low_space():
                break
            if g["synced"] and g["state"] != "playing":
                for x in (".log", ".ck", ".st"):  # the log first: no "playing" leftover
                    try:
                        self.fs.remove(self._g + g["id"] + x)
                    except OSError:
                        pass
                out.append(g["id"])
        return out
