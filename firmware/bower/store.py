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
#     game, info = s.resume(1)  # at boot: the game whose game-over screen was up
#     s.close()                 # that screen was left
#     extra("past").games(s)    # what neither the app nor the link asks: asked of the extra
#
# A full flash (OSError 28, ENOSPC) never leaves the files and the caller's
# state apart: a write that fails leaves the file as it was (record cuts off
# what part of a line reached the log before the next append), synced games
# are removed to make room first, and the caller takes back what was not
# written (bower.ui: the input is undone, the screen says so).
#
# One owner: Store holds all the storage state and is the only code that
# assigns it. bower.store holds what a hand needs (recording inputs, the
# game's state record); the extras are modules loaded on first use that
# read the store and return values, which Store then keeps (what they
# only read and neither the app nor the link asks of a store, the games
# as a list or one at a time, is asked of them: ``extra``): bower.boot
# (the boot's clean-up and settings, resume; given back once the boot is
# over), bower.past (the past games: index, marks, listing, space, a
# game's start), bower.prefs (settings, roster, clock, the game counter,
# club; a write on a full flash) and bower.room (making room). ``trim``
# gives them back (the app calls it when a hand is shown). Every identifier of a
# module imported from source stays interned, so locals here are short.

import sys
from euchre.logline import encode_line, decode_line


def extra(m):
    """The store's extra ``bower.<m>`` ("boot", "past", "prefs", "room"),
    loaded on first use (``Store.trim`` gives it back). What an extra only
    reads, and neither the app nor the link asks of a store, is asked of it
    with the store: ``extra("past").games(st)``."""
    return __import__("bower." + m, None, None, (m,))


class Store:
    # The state, all set in __init__ and assigned only here (the extras
    # read it):
    #   settings      name -> int (bower.prefs.DEFAULTS' names); roster: up
    #                 to 16 player names (bower.check_names); clock_offset: seconds
    #                 the computer's clock is ahead (all three loaded at boot)
    #   warnings      short messages for the user (bower.ui shows them; the
    #                 extras add theirs)
    #   device, low   this device's id (in every game's header); bytes free a
    #                 game needs to start (make_room makes them)
    #   fs, open, sync  the os functions used; fs.open or the builtin open;
    #                 fs.sync (after every write) or a no-op
    #   settings_path, club_path, games_dir  the files (firmware/STORAGE.md):
    #                 games_dir holds the newest games' (games_path + id +
    #                 ".log", ".ck", ".st"); the past games' are beside the
    #                 settings (past/, past.idx, past.mk)
    #   gid           the game being recorded (None: none); size: its log's
    #                 size (the good part); lines: its line count; torn: 1 if
    #                 the log may hold bytes past size (a failed append, cut
    #                 off before the next); ended: 1 if its last input ended it
    #   next_no       the next game's number (ids are never reused)
    #   hot           the ids in games_dir, oldest first (all but the newest
    #                 wait to be moved to past/)
    #   summary       the past games' [games, bytes, not synced, newest game's
    #                 number] (None: not counted yet)
    #   free_seen     bytes free when littlefs was last asked (None: not yet);
    #                 written: bytes written since
    #   warmed        littlefs's allocator warmed this power-on (prepare)

    def __init__(self, root="/", fs=None, device="", low=32768):
        # ``fs``: the os functions used here plus ``open`` (default: os and
        # the builtin open). ``low``: bytes a game needs free to start
        # (make_room removes synced games for them); see firmware/STORAGE.md.
        if fs is None:
            import os as fs
            self.open = open
        else:
            self.open = fs.open
        self.fs = fs
        self.sync = getattr(fs, "sync", None) or int
        self.device = device
        self.low = low
        self.warnings = []
        self.gid = None
        self.size = self.lines = self.torn = self.ended = 0
        self._k = None    # a checkpoint to write when idle: (game id, its payload)
        self.summary = self.free_seen = None
        self.written = self.warmed = 0
        r = root.rstrip("/")
        self.settings_path = r + "/settings"
        self.club_path = r + "/club"
        self.games_dir = r + "/games"
        self.games_path = self.games_dir + "/"
        b = extra("boot")
        self.settings, self.roster, self.clock_offset, self.next_no, self.hot, e = b.boot(self, r)
        if e:
            b.reset(self, e)

    # ----- boot and resume (bower.boot, given back once the boot is over) -----

    def resume(self, over=0):
        """(game, info) of the unfinished game (a boot; ``over``: the one whose game-over screen was up), or
        None. ``info["ack"]``: the hand whose result ``ack`` last stored (0: none)."""
        # The
        # game bower.boot opened is the one being recorded now: ``k`` its
        # (id, size, lines, torn, ended), or None.
        k, r = extra("boot").resume(self, over)
        if k:
            self.gid, self.size, self.lines, self.torn, self.ended = k
        return r

    def load_full(self):
        """The current game replayed from its first event. :raises ValueError: corrupt, or no game."""
        return extra("boot").load_full(self)

    def close(self):
        """The game-over screen was left: a reboot no longer shows it."""
        # And the game is no longer the one being recorded. With no room for
        # the mark, a reboot shows that screen once more (new_game marks it).
        self.gid = extra("past").close(self)

    def ack(self, hand_no):
        """The result shown before hand ``hand_no`` was acknowledged (OK)."""
        # A reboot between hands brings back that hand's first screen, not
        # the result again. Kept in the game's .st record.
        gid = self.gid
        if gid:
            s = self.game_state(gid)
            s["ack"] = hand_no
            self.rec_file(self.games_path + gid + ".st", s)

    def new_game(self, game, started=0):
        """Start recording ``game`` (no event yet); returns its id. :raises OSError: not started."""
        p = extra("past")
        # The game before marked, the counter written (ids are never
        # reused: even if the log is not written); then the log, its header
        # the only line: as bower.past.header gives the game's state.
        self.next_no = p.start(self, game) + 1
        self.gid, self.size, self.lines, self.torn, self.ended, self.hot, self.written = p.header(self, game, started)
        return self.gid

    # ----- settings, roster, clock, club (bower.prefs) -------------------------

    def save_settings(self, d):
        """Write the settings ``d``, then keep them. :raises ValueError, OSError: nothing changed."""
        self.settings = extra("prefs").save_settings(self, d)

    def set_roster(self, names):
        """Write the roster, then keep it. :raises ValueError (see bower.check_names), OSError."""
        self.roster = extra("prefs").set_roster(self, names)

    def set_clock_offset(self, seconds):
        """Write the clock offset, then keep it. :raises ValueError, OSError."""
        self.clock_offset = extra("prefs").set_clock_offset(self, seconds)

    def has(self, name):
        """Is file ``name`` ("presets": bower.presets; "club": a round's setup) beside the settings?"""
        try:
            self.fs.stat(self.settings_path[:-8] + name)
            return True
        except OSError:
            return False

    def club(self):
        """The club round's setup (bower.clubsetup.check), or None."""
        return extra("prefs").club(self)

    def set_club(self, d):
        """Keep setup ``d`` (None: remove it). :raises ValueError, OSError: nothing changed."""
        extra("prefs").set_club(self, d)

    # ----- the past games, space (bower.past) ---------------------------------

    def listing(self):
        """The link's LIST lines (bytes), one per game, oldest first."""
        return extra("past").listing(self)

    def count(self):
        """How many games there are (``bower.past``'s ``each`` lists them)."""
        return extra("past").count(self)

    def read(self, gid, offset, n):
        """Up to ``n`` bytes of a game's log from ``offset``. :raises ValueError: bad id; OSError."""
        return extra("past").read(self, gid, offset, n)

    def mark_many(self, pairs):
        """bower.past's ``mark_synced`` for each (id, crc): True, False (stale) or None (no such game)."""
        r, self.summary = extra("past").mark_many(self, pairs)
        return r

    def usage(self):
        """(bytes of the games' logs, bytes free)."""
        return extra("past").usage(self)

    def unsynced(self, every=1):
        """How many games no sync saved (``every`` 0: the one in play too)."""
        return extra("room").unsynced(self, every)

    def low_space(self):
        """Too little free for a game to start (``low``)?"""
        return self.free() < self.low

    def sum(self):
        # The past games' [games, bytes, not synced, newest game's number],
        # counted once (a read of the index), then kept up to date.
        if self.summary is None:
            self.summary = extra("past").count_index(self)
        return self.summary

    def free(self, now=0):
        # Bytes free: littlefs's figure when last asked, less the bytes
        # written since (a game start counts its new files' blocks); 0 at
        # least. Asked again with ``now`` (or never asked yet): its statvfs
        # counts every block in use, so its time grows with what is stored.
        if now or self.free_seen is None:
            self.free_seen = extra("past").statfree(self)
            self.written = 0
        return max(0, self.free_seen - self.written)

    def make_room(self, need=0, every=0):
        """Remove synced (``every``: any) ended games, oldest first, until ``need`` bytes are free; their ids."""
        need = need or self.low
        out = []
        if self.free(1) < need:
            try:
                extra("room").make_room(self, need, every, out)
            finally:
                for g in out:
                    if g in self.hot:
                        self.hot.remove(g)
                self.summary = None   # (counted again when asked)
        return out

    def tidy(self):
        # While the app is idle outside a hand (bower.ui App.warm): one step
        # of the store's deferred work (bower.past.tidy); False once none
        # is left. Only while bower.past is loaded (the app loads it for
        # its menus; once a hand gave it back, idle work never loads it
        # again), but at the boot's first idle (the free space not asked
        # yet): loading it is then this step.
        a = sys.modules.get("bower.past")
        if not a:
            if self.free_seen is None:
                __import__("bower.past")
                return True
            return False
        r, self.hot, self.summary = a.tidy(self)
        return r

    def prepare(self):
        # While a game is set up (bower.ui App.warm): littlefs's first
        # allocation since power-on done now (bower.past.prepare); False
        # once done. Only while bower.past is loaded, as tidy.
        a = sys.modules.get("bower.past")
        if self.warmed or not a:
            return False
        self.warmed = 1
        a.prepare(self)
        return True

    def trim(self):
        # Give the extras' heap back (a hand only records); they load
        # again when used.
        from bower import unload
        for m in ("room", "past", "prefs", "boot"):
            unload("bower." + m)

    def rec_file(self, p, x=None, ext="", most=1200):
        # Without ``x``: a small file's payload (its first ``most`` bytes
        # read), None if it is missing (ValueError if corrupt). With ``x``:
        # write it to a temporary file, then rename that over ``p + ext``:
        # old or new, never torn.
        if x is None:
            try:
                with self.open(p, "rb") as f:  # (a directory: littlefs refuses the open, a browser the read)
                    b = f.read(most)
            except OSError:
                return None
            return decode_line(b.decode())
        try:
            with self.open(p + ".tmp", "wb") as f:
                f.write(x if ext else encode_line(x).encode())
            self.fs.rename(p + ".tmp", p + ext)
        except OSError:
            try:
                self.fs.remove(p + ".tmp")  # its space back (flash full?)
            except OSError:
                pass
            raise
        self.sync()

    def game_state(self, gid, state=None, crc=None, up=0):
        # The game's {"state": ..., "synced": crc, "open": 1}; given
        # ``state`` or ``crc``, changed and written. "open" (``up``): the
        # game-over screen is still up, a reboot shows it again.
        try:
            s = self.rec_file(self.games_path + gid + ".st")
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
            self.rec_file(self.games_path + gid + ".st", s)
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
        gid = self.gid
        if not gid:
            raise ValueError("no game")
        p = self.games_path + gid
        b = encode_line(text).encode() * times
        try:
            self.append(game, p, b)
        except OSError as e:
            extra("room").again(self, game, p, b, e)  # room made, or raises
        self.ended = 0
        self.size += len(b)
        self.written += len(b)
        self.lines += times
        try:
            if game.result:
                self.ended = 1
                self.game_state(gid, "finished", None, 1)
            elif not (game.hand.events or game.amending):
                # A hand starts: its state, and where its lines start,
                # written when the app is next idle (idle): its flash erase
                # is not the press's that ended the hand.
                self._k = (gid, [game.checkpoint(), self.size, self.lines])
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
        if k[0] == self.gid:
            try:
                self.rec_file(self.games_path + k[0] + ".ck", k[1])
            except OSError:
                pass
        return True

    def append(self, game, p, b):
        if self.ended and not game.result:
            # The end undone: "playing" before the line (a resume sees the
            # end in the log if the line does not make it).
            self.game_state(self.gid, "playing")
        if self.torn:
            extra("past").trim_log(self, p, self.size)  # what a failed append left
        self.torn = 1
        with self.open(p + ".log", "ab") as f:
            f.write(b)
            f.flush()
        self.sync()
        self.torn = 0
