# The rest of bower.store's Store API, as functions taking the store first:
# boot (clean up, load the settings), resume, new game, settings, the link's
# listing, reading and marking synced, space. Store's method of the same
# name loads this module on first use (``store.games()`` is
# ``games(store)``) and gives it back (``Store.trim``, when a hand is shown:
# then only ``record`` runs). It works on the store's public state (declared
# in bower.store's Store) and imports nothing of bower.store.
# firmware/STORAGE.md describes the files.
#
# A full flash (OSError 28): every write here removes synced games and tries
# again before it gives up (``_room``), and changes the store's attributes
# only once the file is written, so they always say what the flash says.

try:
    from ubinascii import crc32  # (no search of sys.path first: bower.protocol says why)
except ImportError:  # CPython
    from binascii import crc32
from euchre.logline import encode_line, decode_line, header_payload, UNDO

DEFAULTS = {"brightness": 255, "dim_s": 60, "off_s": 600, "names": 0, "quick": 0}   # the settings


def _gid(s):
    # ``s`` if it is a game id such as "g0007" (so never a path), else None.
    if isinstance(s, str) and len(s) > 4 and s[0] == "g" and not s[1:].strip("0123456789"):
        return s


def _settings(d):
    s = dict(DEFAULTS)
    s.update(d)
    for k in s:
        if type(s[k]) is not int:
            raise ValueError(k + ": not an int")
    return s


def boot(st, r):
    # Remove what interrupted writes left, load the settings record
    # (defaults with a warning if it is corrupt or missing). A new device
    # (no games directory yet) writes nothing: its defaults are what no
    # settings file means, and the first game or setting saved writes it.
    # The games directory holds the newest games only (the archive, past/,
    # the rest): what is listed here does not grow with the games stored.
    fs = st.fs
    d = st.games_dir
    g = st.games_path
    try:
        fs.mkdir(r)
    except OSError:
        pass
    new = top = 0
    # Two passes over the directory, a name at a time (os.ilistdir where
    # there is one): firmware before the archive kept every game here, three
    # files each, and a list of them all would take a full flash's boot
    # some 15 KB of heap. The logs first, then what has no log.
    hot = []
    try:
        new = 2  # (an empty games directory: prepare() made it, then the power went before the first game)
        for p in _names(fs, d):
            new = 0
            if p[-4:] == ".log" and _gid(p[:-4]):
                top = max(top, int(p[1:-4]))
                hot.append(p[:-4])
    except OSError:
        new = 1  # no games directory: made with the first game
    if not new:
        junk = [p for p in _names(fs, d)
                if p[-4:] == ".tmp" or p[-3:] in (".ck", ".st") and p[:-3] not in hot]
        for p in junk:
            try:
                fs.remove(g + p)  # an interrupted write, or what is left of a removed game
            except OSError:
                pass
    st.settings, st.roster, st.clock_offset, n, e = dict(DEFAULTS), [], 0, 1, "corrupt"
    from bower import check_names
    try:
        s = st.rec_file(st.settings_path)
        if s is None:
            e = "missing"
        else:
            st.settings, st.roster, st.clock_offset, n, e = (
                _settings(s["settings"]), check_names(s["roster"]), int(s["clock"]), int(s["next"]), 0)
    except (TypeError, ValueError, KeyError):
        pass
    if e:
        top = max(top, _sum(st)[3])  # the archive's newest game
        if top:
            new = 0   # (games were kept: a settings file is missing, not a new device's)
    st.next_no = max(n, top + 1)  # ids are never reused
    # Every game here but the newest goes to the archive when the app is
    # next idle (a power cut stopped its move, or firmware before the archive).
    st.hot = sorted(hot, key=_num)  # the games directory's games, kept up to date from here
    if e == "corrupt" or e and not new:
        st.warnings.append("settings reset: file " + e)  # (e is a str here)
        try:
            room(st, _save, st)
        except OSError:
            _full(st)  # the defaults hold until a setting is saved


def _num(gid):
    return int(gid[1:])


def _names(fs, d):
    # The names in directory d, one at a time where the filesystem can.
    il = getattr(fs, "ilistdir", None)
    if il is None:
        return fs.listdir(d)
    return (e[0] for e in il(d))


def _full(st):
    # Tell the app: the flash has no room (it shows how to make some).
    if FULL not in st.warnings:
        st.warnings.append(FULL)


FULL = "storage full"


def room(st, fn, *a):
    # fn(*a), a write; if the flash is full (OSError 28), synced games are
    # removed one at a time (oldest first) and it is tried again.
    while True:
        try:
            return fn(*a)
        except OSError as e:
            if e.args[0] != 28 or not make_room(st, _free(st, 1) + 1):
                raise


# ----- settings ----------------------------------------------------------------

def _save(st, s=None, r=None, c=None, n=None):
    # The settings record with the store's values, or those given.
    st.rec_file(st.settings_path, {"settings": st.settings if s is None else s,
                    "roster": st.roster if r is None else r,
                    "clock": st.clock_offset if c is None else c, "next": n or st.next_no})


# Each setter writes first and changes the store's attribute after, so a
# failed write (OSError; 28: flash full) changes nothing.

def save_settings(st, d):
    # :raises ValueError: a value that is not an int.
    s = _settings(d)
    room(st, _save, st, s)
    st.settings = s


def set_clock_offset(st, seconds):
    if type(seconds) is not int:
        raise ValueError("clock: not an int")
    room(st, _save, st, None, None, seconds)
    st.clock_offset = seconds


def set_roster(st, names):
    # :raises ValueError: see bower.check_names; nothing changes.
    from bower import check_names
    r = check_names(names)[:]
    room(st, _save, st, None, r)
    st.roster = r


# ----- a club round's setup (bower.clubsetup) ------------------------------------

def has_club(st):
    try:
        st.fs.stat(st.club_path)
        return True
    except OSError:
        return False


def club(st):
    # The pushed round setup, or None (none, or a damaged file).
    try:
        from bower.clubsetup import check
        return check(st.rec_file(st.club_path))
    except (ValueError, AttributeError):
        return None


def set_club(st, d):
    # Keep ``d`` (None: remove the setup). Nothing changes if it fails.
    # :raises ValueError: not a valid setup; OSError: not written.
    if d is None:
        try:
            st.fs.remove(st.club_path)
        except OSError:
            pass
        return
    from bower.clubsetup import check
    room(st, st.rec_file, st.club_path, check(d))


# ----- games -----------------------------------------------------------------

def _cur(st):
    # The newest game's (id, .st state) if its log is on flash, else None.
    gid = "g%04d" % (st.next_no - 1)
    try:
        st.fs.stat(st.games_path + gid + ".log")
    except OSError:
        return None
    return gid, st.game_state(gid)


def new_game(st, game, started=0):
    # Start recording ``game`` (no event yet); an unfinished one is
    # abandoned, a game-over screen closed. Returns the new game's id.
    # Whether there is room for a game is the caller's question
    # (low_space, make_room: see bower.screens). The game before then goes
    # to the archive (``_arc``).
    # :raises OSError: not started (28: flash full); the previous game may
    # be abandoned already: ``resume`` says what the flash has.
    if game.event_count():
        raise ValueError("not a new game")
    c = _cur(st)
    if c and (c[1]["state"] == "playing" or c[1].get("open")):
        # Finished if it ended (its mark may have found no room), else abandoned.
        end = c[1]["state"] != "playing" or c[0] == st.gid and st.ended
        room(st, st.game_state, c[0], "finished" if end else "abandoned")
    gid = "g%04d" % st.next_no
    room(st, _save, st, None, None, None, st.next_no + 1)
    st.next_no += 1
    h = header_payload(game)
    c2 = getattr(game, "club", None)
    if c2:
        h["club"] = c2   # a club round (bower.club)
    h["id"] = gid
    h["device"] = st.device
    h["started"] = started
    b = encode_line(h).encode()
    try:
        st.fs.mkdir(st.games_dir)  # not made at boot if the flash was full
    except OSError:
        pass
    room(st, st.rec_file, st.games_path + gid, b, ".log")  # the game exists, or not at all
    st.gid, st.size, st.lines, st.torn, st.ended = gid, len(b), 1, 0, 0
    st.hot.append(gid)   # (the game before goes to the archive when the app is next idle: tidy)
    st.written += 8192   # its log's block and its checkpoint's (free space, roughly)
    return gid


def prepare(st):
    # While a game is set up (bower.ui App.warm), once per power-on:
    # littlefs's first block allocation after a mount walks the whole
    # filesystem (some 45 ms on a Pico, more with more files), and the new
    # game's first write would pay it on the OK that starts the game. A
    # directory made here (the games directory on a new device, else one
    # made and removed) pays it while the menus wait. True if it ran.
    if st.warmed:
        return False
    st.warmed = 1
    fs = st.fs
    try:
        fs.mkdir(st.games_dir)
    except OSError:
        p = st.games_path + "a.tmp"
        try:
            fs.mkdir(p)
        except OSError:
            pass    # (left by a power cut: an empty directory the listing skips)
        try:
            fs.rmdir(p)
        except OSError:
            pass
    return True


def tidy(st):
    # One step of the work kept off the presses, run while the app is idle
    # outside a hand (bower.ui App.warm): the games waiting in the games
    # directory moved to the archive, the free space asked of littlefs
    # once (its answer costs a walk of the whole filesystem), the archive's
    # games counted (its index read). False once nothing is left.
    c = "g%04d" % (st.next_no - 1)
    q = [g for g in st.hot if g != c]
    n = len(st.hot)
    if q:
        _arc(st, q[:4])
        if len(st.hot) < n:
            return True
        # (none moved: no room, an error; tried again when next idle)
    try:
        if st.free_seen is None:
            _free(st)
            return True
        if st.summary is None:
            _sum(st)    # what HELLO and the storage screen show, ready
            return True
    except OSError:
        pass    # asked again when needed
    return False


def _pa(st, x):
    # The path of the archive's ``x`` ("past/", "past.idx", "past.mk").
    return st.settings_path[:-8] + x


def _arc(st, ids):
    # Move the games waiting in the games directory (not the one being
    # recorded) to the archive, four at a time, oldest first: their index
    # lines (size, CRC, state, synced) appended in one write, then each log
    # renamed into past/ and its .st and .ck removed. A power cut or a full
    # flash leaves a game where it is (or indexed but not moved: the next
    # call moves it); nothing is lost either way.
    fs = st.fs
    try:
        k = _sum(st)[3]
        u = st.summary
        b = []
        q = []
        for gid in ids:
            p = st.games_path + gid + ".log"
            try:
                c = _crc(st, p)
                z = fs.stat(p)[6]
            except OSError as e:
                if e.args[0] != 2:
                    break  # the rest waits (the index stays in id order)
                st.hot.remove(gid)  # not there (removed to make room)
                continue
            if _num(gid) <= k and not _find(st, gid):
                continue  # older than the index's newest: stays here (listed from here)
            q.append(gid)
            if _num(gid) > k:
                s = st.game_state(gid)
                y = s.get("synced") == c
                # The index line: 32 bytes (firmware/STORAGE.md).
                b.append(("%-10s %07d %s %s %d\n" % (gid, z, c, "f" if s["state"] == "finished" else "a",
                                                     1 if y else 0)).encode())
                if u:
                    u[0] += 1
                    u[1] += z
                    u[2] += not y
                    u[3] = _num(gid)
        if b:
            _add(st, _pa(st, "past.idx"), b"".join(b), 32)
        try:
            fs.mkdir(_pa(st, "past/")[:-1])
        except OSError:
            pass
        for gid in q:
            fs.rename(st.games_path + gid + ".log", _pa(st, "past/") + gid + ".log")
            st.hot.remove(gid)
            for x in (".st", ".ck"):
                try:
                    fs.remove(st.games_path + gid + x)
                except OSError:
                    pass
    except OSError:
        st.summary = None  # (counted again when asked)


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
            st.game_state(c[0], "finished", None, 1)
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
    gid = st.gid
    if gid:
        s = st.game_state(gid)
        s["ack"] = hand_no
        st.rec_file(st.games_path + gid + ".st", s)


def acked(st):
    # The hand number ``ack`` last stored for the current game (0: none).
    gid = st.gid
    return st.game_state(gid).get("ack", 0) if gid else 0


def close(st):
    # The game-over screen was left: a reboot no longer shows it, and the
    # game is no longer the one being recorded. With no room for the mark,
    # a reboot shows that screen once more (and new_game marks it).
    gid = st.gid
    try:
        if gid and st.ended:
            st.game_state(gid, "finished")
        st.gid = None
    except OSError:
        pass


def _open(st, gid):
    # Load the game ``gid`` from its checkpoint and make it the current one.
    p = st.games_path + gid
    try:
        ck = st.rec_file(p + ".ck")
    except ValueError:
        ck = None
    try:
        # (without a checkpoint, _load returns a pair or raises)
        game, info = _load(st, gid, ck) or _load(st, gid, None)  # pyright: ignore[reportGeneralTypeIssues]
    except (ValueError, OSError) as e:  # (OSError: a log that cannot be read, e.g. a directory)
        st.warnings.append("%s %s: not resumed" % (gid, e))
        return None
    st.gid, st.size, st.lines, st.torn, st.ended = gid, info["size"], info["lines"], 0, 1 if game.result else 0
    if info["dropped"]:
        st.warnings.append(gid + " " + info["dropped"])
        try:
            room(st, trim_log, st, p, info["size"])
        except OSError:
            # No room to cut it off: the next input does (or is refused).
            st.torn = 1
            _full(st)
    return game, info


def trim_log(st, p, n):
    # Keep the first ``n`` bytes of log ``p``: copy them, rename over (the
    # copy needs room for them; nothing to do if the log has ``n`` bytes).
    if st.fs.stat(p + ".log")[6] == n:
        return
    _head(st, p + ".log", p + ".tmp", n)
    st.sync()


def _head(st, src, tmp, n, tail=b""):
    # File ``src`` becomes its first ``n`` bytes, then ``tail``: they are
    # copied to ``tmp``, renamed over it. A failed copy leaves ``src`` whole.
    try:
        with st.open(src, "rb") as f, st.open(tmp, "wb") as t:
            while n > 0:
                b = f.read(min(n, 256))
                t.write(b)
                n -= len(b)
            if tail:
                t.write(tail)
        st.fs.rename(tmp, src)
    except OSError:
        try:
            st.fs.remove(tmp)
        except OSError:
            pass
        raise


def append_again(st, game, p, b, e):
    # Store.record's append failed with ``e``. Flash full: synced games are
    # removed and it is written after all. Else the log is as it was (its
    # bytes past ``size`` are cut off first thing next time), the .st too (a
    # game whose end was being undone is finished again), and ``e`` raises.
    try:
        if e.args[0] == 28 and make_room(st, _free(st, 1) + 1):
            return room(st, st.append, game, p, b)
    except OSError as x:
        e = x
    if st.ended:
        try:
            st.game_state(st.gid, "finished", None, 1)
        except OSError:
            pass
    raise e


def load_full(st):
    # The current game replayed from its first event (to undo past the
    # checkpoint a resume started from).
    # :raises ValueError: a corrupt line or none being recorded.
    if not st.gid:
        raise ValueError("no game")
    return _load(st, st.gid, None)[0]


def _load(st, gid, ck):
    # Rebuild from checkpoint ``ck`` (or the start) and the lines after
    # it; None if ``ck`` is stale (an undo went back past it).
    # :raises ValueError: a corrupt line before the last, or one the rules refuse.
    from euchre.game import game_from_header  # the engine: not needed to boot to home
    with st.open(st.games_path + gid + ".log", "rb") as f:
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
                if ok:
                    return None  # (e.g. an amendment of a hand before ck: replay it all)
                raise ValueError("line %d refused" % n)
            z += len(b)
    return game, {"id": gid, "size": z, "lines": n - (bad > 0), "read": r, "checkpoint": ok,
                  "dropped": "torn line %d dropped" % bad if bad else None}


# ----- the archive, the computer link, space -------------------------------------
#
# past/gNNNN.log: the logs of older games, never written again. past.idx:
# one 32-byte line per archived game, oldest first ("g0007      0001111
# 552aa17f f 1\n": id, size, CRC-32, f finished or a abandoned, synced).
# past.mk: 12-byte marks appended since ("Sg0007     \n" synced, "X..."
# removed), folded into past.idx at 40 (``_pack``: the file stays small
# enough to live in its directory's metadata, so an append erases
# nothing). So no press and no sync request lists or opens every game: a
# listing reads the index (a few KB for a full flash), a game is found by a
# binary search of it, and what HELLO says is counted once and kept (``summary``).
# A line cut short (a failed append) is ignored and cut off before the next
# append.

def _crc(st, p):
    # CRC-32 of file ``p`` as 8 hex digits (OSError: no such file).
    c = 0
    with st.open(p, "rb") as f:
        while True:
            b = f.read(256)
            if not b:
                return "%08x" % (c & 0xFFFFFFFF)
            c = crc32(b, c)


def _add(st, p, b, w):
    # Append ``b`` (whole lines of ``w`` bytes) to ``p``, after cutting off
    # what a failed append left (a part of a line: the whole lines copied,
    # the copy renamed over). Returns the file's size now.
    with st.open(p, "ab") as f:
        z = f.seek(0, 2)
        if not z % w:
            f.write(b)
            f.flush()
    if z % w:
        z -= z % w
        _head(st, p, p + ".tmp", z, b)
    st.sync()
    return z + len(b)


def _ok(b, i):
    # Is b[i:i + 32] an index line? (What ``_ent`` and ``listing`` take.)
    return b[i + 31] == 10 and b[i] == 103 and b[i + 18] == 32 and b[i + 27] == 32 and \
        b[i + 11:i + 18].isdigit() and max(b[i:i + 32]) < 127


def _ent(b):
    # An index line's [id, size, crc, state, synced], None if it is not one.
    if len(b) == 32 and _ok(b, 0):
        return [bytes(b[:b.find(b" ")]).decode(), int(b[11:18]), bytes(b[19:27]).decode(),
                "finished" if b[28] == 102 else "abandoned", b[30] == 49]


def _lines(f):
    # The index lines of open file ``f``, as _ent gives them, 16 a read.
    while True:
        b = f.read(512)
        if not b:
            return
        for i in range(0, len(b) - 31, 32):
            e = _ent(b[i:i + 32])
            if e:
                yield e


def _marks(st):
    # {game number: "S" synced or "X" removed} from past.mk.
    m = {}
    try:
        with st.open(_pa(st, "past.mk"), "rb") as f:
            b = f.read()
    except OSError:
        return m
    for i in range(0, len(b) - 11, 12):
        if b[i + 11] == 10 and b[i] in (83, 88):
            g = b[i + 1:i + 11].strip()
            if g[:1] == b"g":
                try:
                    m[int(g[1:])] = chr(b[i])
                except ValueError:
                    pass
    return m


def _mark(st, k, ids):
    # Append a mark ``k`` for each game id; folded into the index at 40
    # (so the file stays small enough to live in its directory's metadata:
    # an append erases nothing).
    if _add(st, _pa(st, "past.mk"), b"".join([("%s%-10s\n" % (k, g)).encode() for g in ids]), 12) >= 40 * 12:
        try:
            _pack(st)
        except OSError:
            pass  # the marks stay: folded in next time


def _pack(st):
    # Fold the marks into the index: a copy of its lines, a synced mark's
    # flag set, a removed game's line left out (renamed over the index);
    # then remove the logs of games marked removed (a power cut may have
    # left one) and the marks.
    m = {}
    for n, x in _marks(st).items():
        m[b"g%04d" % n] = x
    i = _pa(st, "past.idx")
    p = i + ".tmp"
    try:
        with st.open(i, "rb") as f, st.open(p, "wb") as t:
            while True:
                b = f.read(512)
                if not b:
                    break
                for j in range(0, len(b) - 31, 32):
                    x = m.get(b[j:j + 10].rstrip())
                    if x == "S":
                        t.write(b[j:j + 30] + b"1\n")
                    elif x != "X":
                        t.write(b[j:j + 32])
        st.fs.rename(p, i)
    except OSError:
        try:
            st.fs.remove(p)
        except OSError:
            pass
        raise
    for g in m:
        if m[g] == "X":
            try:
                st.fs.remove(_pa(st, "past/") + g.decode() + ".log")
            except OSError:
                pass
    st.fs.remove(_pa(st, "past.mk"))
    st.sync()


def each(st, hot=1, m=None):
    # Every game on flash, oldest first, as [id, size, crc, state, synced,
    # in the games directory]: the archive's from its index (the marks
    # applied), then (``hot``) the newest games' from their files (``hot``
    # 2: those only).
    if m is None:
        m = {} if hot == 2 else _marks(st)
    k = _sum(st)[3] if hot == 2 else 0
    try:
        f = None if hot == 2 else st.open(_pa(st, "past.idx"), "rb")
    except OSError:
        f = None
    if f:
        with f:
            for e in _lines(f):
                k = _num(e[0])
                x = m.get(k)
                if x != "X":
                    if x:
                        e[4] = True
                    e.append(0)
                    yield e
    if hot:
        for gid in st.hot[:]:
            if _new(st, gid, k):
                p = st.games_path + gid + ".log"
                try:
                    c = _crc(st, p)
                    z = st.fs.stat(p)[6]
                except OSError:
                    continue
                s = st.game_state(gid)
                t = s["state"]
                if t not in ("finished", "abandoned"):
                    t = "playing"   # (a damaged .st: as a missing one)
                yield [gid, z, c, t, s.get("synced") == c, 1]


def listing(st):
    # ``each`` as the link's LIST lines want it: b"g0007 1111 552aa17f
    # finished 1" per game, oldest first, the archive's cut straight from
    # its index lines (no number parsed unless a mark names the game).
    m = {}
    for n, x in _marks(st).items():
        m[b"g%04d" % n] = x
    try:
        f = st.open(_pa(st, "past.idx"), "rb")
    except OSError:
        f = None
    if f:
        with f:
            while True:
                b = f.read(512)
                if not b:
                    break
                for i in range(0, len(b) - 31, 32):
                    if not _ok(b, i):
                        continue
                    g = b[i:i + 10].rstrip()
                    x = m.get(g)
                    if x != "X":
                        yield b" ".join((g, b[i + 11:i + 18].lstrip(b"0") or b"0", b[i + 19:i + 27],
                                         b"finished" if b[i + 28] == 102 else b"abandoned",
                                         b"1" if x or b[i + 30] == 49 else b"0"))
    for e in each(st, 2):
        yield (" ".join((e[0], str(e[1]), e[2], e[3], "1" if e[4] else "0"))).encode()


def _new(st, gid, k):
    # Is this game of the games directory not in the archive's index (whose
    # newest game is number ``k``)? (One in it was being moved.)
    return _num(gid) > k or not _find(st, gid)


def games(st):
    # Every game on flash, oldest first (for the host's tools and tests;
    # the device streams ``each``).
    return [{"id": e[0], "size": e[1], "crc": e[2], "state": e[3], "synced": e[4]} for e in each(st)]


def _sum(st):
    # The archive's [games, bytes, not synced, newest game's number],
    # counted once (a read of the index) and then kept up to date.
    u = st.summary
    if u is None:
        u = [0, 0, 0, 0]
        m = _marks(st)
        try:
            with st.open(_pa(st, "past.idx"), "rb") as f:
                for e in _lines(f):
                    u[3] = n = _num(e[0])
                    x = m.get(n)
                    if x != "X":
                        u[0] += 1
                        u[1] += e[1]
                        u[2] += not (e[4] or x)
        except OSError:
            pass
        st.summary = u
    return u


def count(st):
    # How many games ``each`` lists.
    k = _sum(st)[3]
    n = st.summary[0]
    for g in st.hot:
        n += _new(st, g, k)
    return n


def _find(st, gid):
    # The archive's index entry of ``gid`` (marks applied), or None.
    n = _num(gid)
    try:
        with st.open(_pa(st, "past.idx"), "rb") as f:
            lo, hi = 0, f.seek(0, 2) // 32
            while lo < hi:
                i = (lo + hi) // 2
                f.seek(i * 32)
                e = _ent(f.read(32))
                if e is None:
                    break
                k = _num(e[0])
                if k == n:
                    x = _marks(st).get(n)
                    if x == "X":
                        return None
                    e[4] = e[4] or x == "S"
                    return e
                if k < n:
                    lo = i + 1
                else:
                    hi = i
    except OSError:
        pass
    return None


def read(st, gid, offset, n):
    # Up to ``n`` bytes of a game's log from ``offset``.
    # :raises ValueError: a bad id. OSError: no such game.
    if not _gid(gid):
        raise ValueError("bad game id")
    p = "/" + gid + ".log"
    a, b = (st.games_path, _pa(st, "past/")) if gid in st.hot else (_pa(st, "past/"), st.games_path)
    try:
        f = st.open(a + p[1:], "rb")
    except OSError:
        f = st.open(b + p[1:], "rb")
    with f:
        f.seek(max(0, offset))
        return f.read(max(0, n))


def mark_synced(st, gid, crc):
    # After a verified transfer: True if ``crc`` is the file's CRC now.
    # :raises ValueError: a bad id or no such game. OSError: not written.
    r = mark_many(st, [(gid, crc)])[0]
    if r is None:
        raise ValueError("no game %r" % (gid,))
    return r


def mark_many(st, pairs):
    # ``mark_synced`` for each (id, crc) of ``pairs``: True (marked, or it
    # was), False (its CRC is no longer ``crc``), None (a bad id, no such
    # game). The archive's marks go in one append (a sync's SYNCED lists
    # many games at once).
    # :raises OSError: not written (the games before it in ``pairs`` may be).
    out = []
    ids = []
    k = _sum(st)[3]
    for gid, crc in pairs:
        r = None
        if _gid(gid):
            crc = crc.lower()
            e = None if gid in st.hot and _num(gid) > k else _find(st, gid)
            if e:
                # Archived: its log never changes; a mark says it is synced.
                r = e[2] == crc
                if r and not e[4] and gid not in ids:
                    ids.append(gid)
            else:
                try:
                    r = _crc(st, st.games_path + gid + ".log") == crc
                except OSError:
                    pass
                if r:
                    room(st, st.game_state, gid, None, crc)
        out.append(r)
    if ids:
        room(st, _mark, st, "S", ids)
        if st.summary:
            st.summary[2] -= len(ids)
    return out


def usage(st):
    # (bytes of the games' logs, bytes free on the filesystem: as littlefs
    # last said, less what was written since; never below 0). Nothing is
    # read for it but the games directory's logs' sizes (the one being
    # recorded: known).
    n = _sum(st)[1]
    for g in st.hot:
        if g == st.gid:
            n += st.size
        else:
            try:
                n += st.fs.stat(st.games_path + g + ".log")[6]
            except OSError:
                pass
    return n, _free(st)


def _free(st, now=0):
    # Bytes free: littlefs's figure when last asked, less the bytes written
    # since (a game start counts its new files' blocks); 0 at least. Asked
    # of littlefs again with ``now`` (or never asked yet): its statvfs
    # counts every block in use, so its time grows with what is stored.
    if now or st.free_seen is None:
        try:
            v = st.fs.statvfs(st.games_dir)
        except OSError:
            v = st.fs.statvfs(st.settings_path[:-8])  # the root: no games directory yet
        st.free_seen = max(0, v[1] * v[4])
        st.written = 0
    return max(0, st.free_seen - st.written)


def low_space(st):
    return _free(st) < st.low


def _gone(e, st, every):
    # May make_room remove this game? Never the one being recorded or one
    # in play; one not synced only if ``every``.
    return (e[4] or every) and e[3] != "playing" and e[0] != st.gid


def make_room(st, need=0, every=0):
    # Remove synced finished or abandoned games, oldest first, until
    # ``need`` bytes (default ``low``) are free; returns their ids. Games
    # not synced too with ``every`` (only after the user said yes). A round
    # picks the games whose blocks make up what is missing, marks the
    # archived ones removed in one append (if the flash is too full for
    # that, after their logs went), then removes their files: the log
    # first, so an interrupted removal never leaves a game that looks
    # unfinished.
    out = []
    tried = []
    need = need or st.low
    fr = _free(st, 1)
    while fr < need:
        pick = []
        z = fr
        for e in each(st):
            if z < need and e[0] not in tried and _gone(e, st, every):
                pick.append(e)
                z += (e[1] + 4095) // 4096 * 4096
        if not pick:
            break
        arc = [e[0] for e in pick if not e[5]]
        late = 0
        if arc:
            try:
                _mark(st, "X", arc)
            except OSError as x:
                if x.args[0] != 28:
                    raise
                late = 1  # no room for the marks: after the logs went
        for e in pick:
            tried.append(e[0])
            p = (st.games_path if e[5] else _pa(st, "past/")) + e[0]
            try:
                st.fs.remove(p + ".log")
            except OSError as x:
                if x.args[0] != 2:
                    continue  # (2: gone already, its mark was missing)
            if e[5]:
                for x in (".ck", ".st"):
                    try:
                        st.fs.remove(p + x)
                    except OSError:
                        pass
                if e[0] in st.hot:
                    st.hot.remove(e[0])
            out.append(e[0])
        if late:
            try:
                _mark(st, "X", arc)
            except OSError:
                pass  # listed until a removal finds room for its mark
        st.summary = None
        fr = _free(st, 1)
    return out


def unsynced(st, every=1):
    # How many games no sync has saved: those make_room(..., every=1) may
    # remove, or (``every`` 0) all, the one in play (or being recorded)
    # included: what the storage screen calls "not synced".
    n = _sum(st)[2]
    k = st.summary[3]
    for gid in st.hot:
        if _new(st, gid, k):
            p = st.games_path + gid + ".log"
            try:
                c = _crc(st, p)
            except OSError:
                continue
            s = st.game_state(gid)
            if s.get("synced") != c:
                n += not every or _gone([gid, 0, c, s["state"], 0], st, 1)
    return n
