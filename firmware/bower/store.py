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
#     game, info = s.over()     # at boot: the game whose game-over screen was up
#     s.close()                 # that screen was left
#
# A full flash (OSError 28, ENOSPC) never leaves the files and the caller's
# state apart: a write that fails leaves the file as it was (record cuts off
# what part of a line reached the log before the next append), synced games
# are removed to make room first, and the caller takes back what was not
# written (bower.ui: the input is undone, the screen says so).
#
# Heap: this module holds what a hand needs (recording inputs). The rest of
# the API (boot, resume, new game, settings, the link's listing and reading,
# space) is in bower.archive, loaded on first use and given back by
# ``trim`` (the app calls it when a hand is shown). Every identifier of a module imported from source
# stays interned, so private names and locals here are short.

from euchre.logline import encode_line, decode_line

# The rest of the Store API: bower.archive's functions of these names, with
# the store first (``store.resume()`` is ``archive.resume(store)``), the
# archive loaded on first use and given back by ``trim``.
_ARCHIVE = ("resume", "over", "new_game", "close", "ack", "acked", "load_full", "save_settings",
            "set_roster", "set_clock_offset", "games", "each", "listing", "count", "read", "mark_synced",
            "mark_many", "usage", "low_space", "make_room", "unsynced", "_boot", "_trim", "_again", "club",
            "set_club", "has_club")


class Store:
    # Attributes: settings, roster, clock_offset, warnings (short messages
    # for the user). Private: _o open, _s sync, _f settings file, _d games
    # directory (the newest games), _g its prefix; the game being recorded:
    # _id, _z its log's size (the good part), _n its line count, _t the log
    # may hold bytes past _z (a failed append), _fin over; _next the next
    # game number; _h the games in _d (ids, oldest first: all but the newest
    # wait to be archived); _u the archive's [games, bytes, not synced,
    # newest game's number] (None: not counted yet); _v bytes free when last
    # asked (None: not yet), _w bytes written since (firmware/STORAGE.md); _p
    # littlefs's allocator warmed (bower.archive.prepare).

    def __init__(self, root="/", fs=None, device="", low=32768):
        # ``fs``: the os functions used here plus ``open`` (default: os and
        # the builtin open). ``low``: bytes a game needs free to start
        # (make_room removes synced games for them); see firmware/STORAGE.md.
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
        self._k = None    # a checkpoint to write when idle: (game id, its payload)
        self._h = []
        self._u = self._v = None
        self._w = self._p = 0
        r = root.rstrip("/")
        self._f = r + "/settings"
        self._c = r + "/club"
        self._d = r + "/games"
        self._g = self._d + "/"
        self._boot(r)

    def __getattr__(self, name):
        # A method of _ARCHIVE (bower.archive's function of that name).
        if name not in _ARCHIVE:
            raise AttributeError(name)
        from bower import archive
        f = getattr(archive, name)
        return lambda *a, **k: f(self, *a, **k)

    def tidy(self):
        # While the app is idle outside a hand (bower.ui App.warm): one step
        # of the store's deferred work (bower.archive.tidy); False once none
        # is left. Only while the archive is loaded (the app loads it for
        # its menus): idle work never adds it to the heap.
        import sys
        a = sys.modules.get("bower.archive")
        return a.tidy(self) if a else False

    def prepare(self):
        # While a game is set up (bower.ui App.warm): littlefs's first
        # allocation since power-on done now (bower.archive.prepare); False
        # once done. Only while the archive is loaded, as tidy.
        import sys
        a = sys.modules.get("bower.archive")
        return a.prepare(self) if a else False

    def trim(self):
        # Give bower.archive's heap back (a hand only records); it loads
        # again when used.
        from bower import unload
        unload("bower.archive")

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
        try:
            with self._o(p + ".tmp", "wb") as f:
                f.write(x if ext else encode_line(x).encode())
            self.fs.rename(p + ".tmp", p + ext)
        except OSError:
            try:
                self.fs.remove(p + ".tmp")  # its space back (flash full?)
            except OSError:
                pass
            raise
        self._s()

    def _st(self, gid, state=None, crc=None, up=0):
        # The game's {"state": ..., "synced": crc, "open": 1}; given
        # ``state`` or ``crc``, changed and written. "open" (``up``): the
        # game-over screen is still up, a reboot shows it again.
        try:
            s = self._rec(self._g + gid + ".st")
        except ValueError:
            s = None
        if type(s) is not dict:
            s = {"state": "playing"}
        if state or crc:
            if state:
                s["state"] = state
                s.pop("open", 0)
                if up:
                    s["open"] = 1  # pyright: ignore[reportArgumentType]
            if crc:
                s["synced"] = crc
            self._rec(self._g + gid + ".st", s)
        return s

    def record(self, game, text, times=1):
        # Append an input right after game.apply(text) (or game.undo() with
        # text "undo") succeeded; it is on flash when this returns. The game
        # stays current when it ends (its end can be undone). ``times``: the
        # same input applied that many times (everybody passing), written in
        # one append (all or none on littlefs, which commits a file at close).
        # :raises OSError: not written (28: the flash is full even after
        # synced games were removed): the log is as before this input (a
        # part of its line that reached the flash is cut off before the next
        # append); the caller takes the input back.
        gid = self._id
        if not gid:
            raise ValueError("no game")
        p = self._g + gid
        b = encode_line(text).encode() * times
        try:
            self._put(game, p, b)
        except OSError as e:
            self._again(game, p, b, e)  # bower.archive: room made, or raises
        self._fin = 0
        self._z += len(b)
        self._w += len(b)
        self._n += times
        try:
            if game.result:
                self._fin = 1
                self._st(gid, "finished", None, 1)
            elif not (game.hand.events or game.amending):
                # A hand starts: its state, and where its lines start,
                # written when the app is next idle (idle): its flash erase
                # is not the press's that ended the hand.
                self._k = (gid, [game.checkpoint(), self._z, self._n])
        except OSError:
            pass  # a shortcut only: a resume finds the same without it

    def idle(self):
        # While the app waits in a hand (bower.ui App.warm): the checkpoint
        # of the hand that started, if it is not on flash yet (a shortcut
        # only: a power cut before it leaves the one before, and a resume
        # replays one more hand). True if there was one.
        k = self._k
        if k is None:
            return False
        self._k = None
        if k[0] == self._id:
            try:
                self._rec(self._g + k[0] + ".ck", k[1])
            except OSError:
                pass
        return True

    def _put(self, game, p, b):
        if self._fin and not game.result:
            # The end undone: "playing" before the line (a resume sees the
            # end in the log if the line does not make it).
            self._st(self._id, "playing")
        if self._t:
            self._trim(p, self._z)  # what a failed append left
        self._t = 1
        with self._o(p + ".log", "ab") as f:
            f.write(b)
            f.flush()
        self._s()
        self._t = 0
