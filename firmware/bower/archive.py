# The rest of bower.store's Store API, as functions taking the store first:
# boot (clean up, load the settings), resume, new game, settings, the link's
# listing, reading and marking synced, space. The store loads this module
# on first use of a name in its _ARCHIVE (``store.games()`` is
# ``games(store)``) and gives it back (``Store.trim``, when a hand is shown:
# then only ``record`` runs). It imports nothing of bower.store.
# firmware/STORAGE.md describes the files.
#
# A full flash (OSError 28): every write here removes synced games and tries
# again before it gives up (``_room``), and changes the store's attributes
# only once the file is written, so they always say what the flash says.

from binascii import crc32
from euchre.logline import encode_line, decode_line, header_payload, UNDO

DEFAULTS = {"brightness": 255, "dim_s": 60, "off_s": 600, "names": 0}   # the settings


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


def _boot(st, r):
    # Remove what interrupted writes left, load the settings record
    # (defaults with a warning if it is corrupt or missing). A new device
    # (no games directory yet) writes nothing: its defaults are what no
    # settings file means, and the first game or setting saved writes it.
    fs = st.fs
    d = st._d
    g = st._g
    try:
        fs.mkdir(r)
    except OSError:
        pass
    new = top = 0
    try:
        ls = fs.listdir(d)
    except OSError:
        ls = []  # made with the first game
        new = 1
    for p in ls:
        if p[-4:] == ".tmp" or p[-3:] in (".ck", ".st") and p[:-3] + ".log" not in ls:
            try:
                fs.remove(g + p)  # an interrupted write, or what is left of a removed game
            except OSError:
                pass
        elif p[-4:] == ".log" and _gid(p[:-4]):
            top = max(top, int(p[1:-4]))
    st.settings, st.roster, st.clock_offset, n, e = dict(DEFAULTS), [], 0, 1, "corrupt"
    try:
        s = st._rec(st._f)
        if s is None:
            e = "missing"
        else:
            st.settings, st.roster, st.clock_offset, n, e = (
                _settings(s["settings"]), check_names(s["roster"]), int(s["clock"]), int(s["next"]), 0)
    except (TypeError, ValueError, KeyError):
        pass
    st._next = max(n, top + 1)  # ids are never reused
    if e == "corrupt" or e and not new:
        st.warnings.append("settings reset: file " + e)  # pyright: ignore[reportOperatorIssue]  (e is a str here)
        try:
            _room(st, _save, st)
        except OSError:
            _full(st)  # the defaults hold until a setting is saved


def _full(st):
    # Tell the app: the flash has no room (it shows how to make some).
    if FULL not in st.warnings:
        st.warnings.append(FULL)


FULL = "storage full"


def _room(st, fn, *a):
    # fn(*a), a write; if the flash is full (OSError 28), synced games are
    # removed one at a time (oldest first) and it is tried again.
    while True:
        try:
            return fn(*a)
        except OSError as e:
            if e.args[0] != 28 or not make_room(st, _free(st) + 1):
                raise


# ----- settings ----------------------------------------------------------------

def _save(st, s=None, r=None, c=None, n=None):
    # The settings record with the store's values, or those given.
    st._rec(st._f, {"settings": st.settings if s is None else s,
                    "roster": st.roster if r is None else r,
                    "clock": st.clock_offset if c is None else c, "next": n or st._next})


# Each setter writes first and changes the store's attribute after, so a
# failed write (OSError; 28: flash full) changes nothing.

def save_settings(st, d):
    # :raises ValueError: a value that is not an int.
    s = _settings(d)
    _room(st, _save, st, s)
    st.settings = s


def set_clock_offset(st, seconds):
    if type(seconds) is not int:
        raise ValueError("clock: not an int")
    _room(st, _save, st, None, None, seconds)
    st.clock_offset = seconds


def set_roster(st, names):
    # :raises ValueError: see check_names; nothing changes.
    r = check_names(names)[:]
    _room(st, _save, st, None, r)
    st.roster = r


# ----- a club round's setup (bower.clubsetup) ------------------------------------

def has_club(st):
    try:
        st.fs.stat(st._c)
        return True
    except OSError:
        return False


def club(st):
    # The pushed round setup, or None (none, or a damaged file).
    try:
        from bower.clubsetup import check
        return check(st._rec(st._c))
    except (ValueError, AttributeError):
        return None


def set_club(st, d):
    # Keep ``d`` (None: remove the setup). Nothing changes if it fails.
    # :raises ValueError: not a valid setup; OSError: not written.
    if d is None:
        try:
            st.fs.remove(st._c)
        except OSError:
            pass
        return
    from bower.clubsetup import check
    _room(st, st._rec, st._c, check(d))


# ----- games -----------------------------------------------------------------

def _cur(st):
    # The newest game's (id, .st state) if its log is on flash, else None.
    gid = "g%04d" % (st._next - 1)
    try:
        st.fs.stat(st._g + gid + ".log")
    except OSError:
        return None
    return gid, st._st(gid)


def new_game(st, game, started=0):
    # Start recording ``game`` (no event yet); an unfinished one is
    # abandoned, a game-over screen closed. Returns the new game's id.
    # Whether there is room for a game is the caller's question
    # (low_space, make_room: see bower.screens).
    # :raises OSError: not started (28: flash full); the previous game may
    # be abandoned already: ``resume`` says what the flash has.
    if game.event_count():
        raise ValueError("not a new game")
    c = _cur(st)
    if c and (c[1]["state"] == "playing" or c[1].get("open")):
        # Finished if it ended (its mark may have found no room), else abandoned.
        end = c[1]["state"] != "playing" or c[0] == st._id and st._fin
        _room(st, st._st, c[0], "finished" if end else "abandoned")
    gid = "g%04d" % st._next
    _room(st, _save, st, None, None, None, st._next + 1)
    st._next += 1
    h = header_payload(game)
    c = getattr(game, "club", None)
    if c:
        h["club"] = c   # a club round (bower.club)
    h["id"] = gid
    h["device"] = st.device
    h["started"] = started
    b = encode_line(h).encode()
    try:
        st.fs.mkdir(st._d)  # not made at boot if the flash was full
    except OSError:
        pass
    _room(st, st._rec, st._g + gid, b, ".log")  # the game exists, or not at all
    st._id, st._z, st._n, st._t, st._fin = gid, len(b), 1, 0, 0
    return gid


def resume(st):
    # ``(game, info)`` for the unfinished game, or None.
    c = _cur(st)
    if not c or c[1]["state"] != "playing":
        return None
    r = _open(st, c[0])
    if r and r[0].result:
        # Ended, but the power went before the "finished" mark: the
        # game-over screen was up (``over`` brings it back).
        try:
            st._st(c[0], "finished", None, 1)
        except OSError:
            return r  # no room for the mark: the finished game, as over() would
        return None
    return r


def over(st):
    # ``(game, info)`` for the finished game whose game-over screen is
    # still up (nobody left it since the game ended), or None.
    c = _cur(st)
    if c and c[1]["state"] == "finished" and c[1].get("open"):
        r = _open(st, c[0])
        if r and r[0].result:
            return r


def ack(st, hand_no):
    # The result shown before hand ``hand_no`` was acknowledged (OK): a
    # reboot between hands brings back that hand's first screen, not the
    # result again. Kept in the game's .st record.
    gid = st._id
    if gid:
        s = st._st(gid)
        s["ack"] = hand_no
        st._rec(st._g + gid + ".st", s)


def acked(st):
    # The hand number ``ack`` last stored for the current game (0: none).
    gid = st._id
    return st._st(gid).get("ack", 0) if gid else 0


def close(st):
    # The game-over screen was left: a reboot no longer shows it, and the
    # game is no longer the one being recorded. With no room for the mark,
    # a reboot shows that screen once more (and new_game marks it).
    gid = st._id
    try:
        if gid and st._fin:
            st._st(gid, "finished")
        st._id = None
    except OSError:
        pass


def _open(st, gid):
    # Load the game ``gid`` from its checkpoint and make it the current one.
    p = st._g + gid
    try:
        ck = st._rec(p + ".ck")
    except ValueError:
        ck = None
    try:
        # (without a checkpoint, _load returns a pair or raises)
        game, info = _load(st, gid, ck) or _load(st, gid, None)  # pyright: ignore[reportGeneralTypeIssues]
    except ValueError as e:
        st.warnings.append("%s %s: not resumed" % (gid, e))
        return None
    st._id, st._z, st._n, st._t, st._fin = gid, info["size"], info["lines"], 0, 1 if game.result else 0
    if info["dropped"]:
        st.warnings.append(gid + " " + info["dropped"])
        try:
            _room(st, _trim, st, p, info["size"])
        except OSError:
            # No room to cut it off: the next input does (or is refused).
            st._t = 1
            _full(st)
    return game, info


def _trim(st, p, n):
    # Keep the first ``n`` bytes of log ``p``: copy them, rename over (the
    # copy needs room for them; nothing to do if the log has ``n`` bytes).
    if st.fs.stat(p + ".log")[6] == n:
        return
    try:
        with st._o(p + ".log", "rb") as f, st._o(p + ".tmp", "wb") as t:
            while n > 0:
                b = f.read(min(n, 256))
                t.write(b)
                n -= len(b)
        st.fs.rename(p + ".tmp", p + ".log")
    except OSError:
        try:
            st.fs.remove(p + ".tmp")
        except OSError:
            pass
        raise
    st._s()


def _again(st, game, p, b, e):
    # Store.record's append failed with ``e``. Flash full: synced games are
    # removed and it is written after all. Else the log is as it was (its
    # bytes past ``_z`` are cut off first thing next time), the .st too (a
    # game whose end was being undone is finished again), and ``e`` raises.
    try:
        if e.args[0] == 28 and make_room(st, _free(st) + 1):
            return _room(st, st._put, game, p, b)
    except OSError as x:
        e = x
    if st._fin:
        try:
            st._st(st._id, "finished", None, 1)
        except OSError:
            pass
    raise e


def load_full(st):
    # The current game replayed from its first event (to undo past the
    # checkpoint a resume started from).
    # :raises ValueError: a corrupt line or none being recorded.
    if not st._id:
        raise ValueError("no game")
    return _load(st, st._id, None)[0]


def _load(st, gid, ck):
    # Rebuild from checkpoint ``ck`` (or the start) and the lines after
    # it; None if ``ck`` is stale (an undo went back past it).
    # :raises ValueError: a corrupt line before the last, or one the rules refuse.
    from euchre.game import game_from_header  # the engine: not needed to boot to home
    with st._o(st._g + gid + ".log", "rb") as f:
        b = f.readline()
        hd = decode_line(b.decode(), 1)
        game = game_from_header(hd)
        if "club" in hd:
            game.club = hd["club"]  # pyright: ignore[reportAttributeAccessIssue]  (a club round: bower.club)
            game.started = hd.get("started", 0)  # pyright: ignore[reportAttributeAccessIssue]
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


# ----- the computer link, space --------------------------------------------------

def _crc(st, gid):
    # CRC-32 of a game's log as 8 hex digits (OSError: no such game).
    c = 0
    with st._o(st._g + gid + ".log", "rb") as f:
        while True:
            b = f.read(256)
            if not b:
                return "%08x" % (c & 0xFFFFFFFF)
            c = crc32(b, c)


def games(st):
    # Every game on flash, oldest first.
    out = []
    try:
        ls = st.fs.listdir(st._d)
    except OSError:
        ls = ()  # a new device: no games directory before the first game
    ids = [p[:-4] for p in ls if p[-4:] == ".log" and _gid(p[:-4])]
    for gid in sorted(ids, key=lambda s: int(s[1:])):
        s = st._st(gid)
        c = _crc(st, gid)
        out.append({"id": gid, "size": st.fs.stat(st._g + gid + ".log")[6], "crc": c,
                    "state": s["state"], "synced": s.get("synced") == c})
    return out


def read(st, gid, offset, n):
    # Up to ``n`` bytes of a game's log from ``offset``.
    # :raises ValueError: a bad id. OSError: no such game.
    if not _gid(gid):
        raise ValueError("bad game id")
    with st._o(st._g + gid + ".log", "rb") as f:
        f.seek(max(0, offset))
        return f.read(max(0, n))


def mark_synced(st, gid, crc):
    # After a verified transfer: True if ``crc`` is the file's CRC now.
    # :raises ValueError: a bad id or no such game. OSError: not written.
    if not _gid(gid):
        raise ValueError("bad game id")
    try:
        ok = _crc(st, gid) == crc.lower()
    except OSError:
        raise ValueError("no game %r" % (gid,))
    if ok:
        _room(st, st._st, gid, None, crc.lower())
    return ok


def usage(st):
    # (bytes used by the games directory, bytes free on the filesystem).
    n = 0
    try:
        for p in st.fs.listdir(st._d):
            n += st.fs.stat(st._g + p)[6]
    except OSError:
        pass  # no games directory yet
    return n, _free(st)


def _free(st):
    # Bytes free on the filesystem.
    try:
        v = st.fs.statvfs(st._d)
    except OSError:
        v = st.fs.statvfs(st._f[:-8])  # the root: no games directory yet
    return v[1] * v[4]


def low_space(st):
    return _free(st) < st.low


def _gone(g, st, every):
    # May make_room remove this game? Never the one being recorded or one
    # in play; one not synced only if ``every``.
    return (g["synced"] or every) and g["state"] != "playing" and g["id"] != st._id


def make_room(st, need=0, every=0):
    # Remove synced finished or abandoned games, oldest first, until
    # ``need`` bytes (default ``low``) are free; returns their ids. Games
    # not synced too with ``every`` (only after the user said yes).
    out = []
    need = need or st.low
    for g in games(st):
        if _free(st) >= need:
            break
        if _gone(g, st, every):
            p = st._g + g["id"]
            try:
                st.fs.remove(p + ".log")  # the log first: no "playing" leftover
            except OSError:
                continue
            for x in (".ck", ".st"):
                try:
                    st.fs.remove(p + x)
                except OSError:
                    pass
            out.append(g["id"])
    return out


def unsynced(st):
    # How many games make_room(..., every=1) may remove that no sync has
    # saved yet.
    n = 0
    for g in games(st):
        n += not g["synced"] and _gone(g, st, 1)
    return n
