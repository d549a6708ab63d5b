# The store's past games: the games directory's older games moved to
# past/ (its index and marks), the link's listing, reading and marking
# synced, the space used and free, a game's start (making room: bower.room).
# bower.store's Store calls these; they read the store and return values,
# and Store keeps them (Store.sum and Store.free are the store's own).
# Loaded on first use, given back while a hand is played (Store.trim).
# firmware/STORAGE.md describes the files.
#
# A full flash (OSError 28): every write here goes through
# bower.prefs.room, which removes synced games and tries again before it
# gives up.

try:
    from ubinascii import crc32  # (no search of sys.path first: bower.protocol says why)
except ImportError:  # CPython
    from binascii import crc32
from euchre.logline import encode_line, header_payload
from bower.prefs import room


def _gid(s):
    # ``s`` if it is a game id such as "g0007" (so never a path), else None.
    if isinstance(s, str) and len(s) > 4 and s[0] == "g" and not s[1:].strip("0123456789"):
        return s


def _num(gid):
    return int(gid[1:])


# ----- a game's start ----------------------------------------------------------

def start(st, game):
    # A new game can start (no event yet): an unfinished one is abandoned,
    # a game-over screen closed, the game counter written one on. Returns
    # the new game's number (the store counts it used then). Whether there is
    # room for a game is the caller's question (low_space, make_room: see
    # bower.newgame).
    # :raises OSError: not started (28: flash full); the previous game may
    # be abandoned already: ``resume`` says what the flash has.
    if game.event_count():
        raise ValueError("not a new game")
    from bower.prefs import cur, save
    c = cur(st)
    if c and (c[1]["state"] == "playing" or c[1].get("open")):
        # Finished if it ended (its mark may have found no room), else abandoned.
        end = c[1]["state"] != "playing" or c[0] == st.gid and st.ended
        room(st, st.game_state, c[0], "finished" if end else "abandoned")
    room(st, save, st, None, None, None, st.next_no + 1)
    return st.next_no


def header(st, game, started):
    # Write the log of the game numbered ``st.next_no - 1``, its header the
    # only line: there, or not at all. Returns the store's state then:
    # (id, log size, lines, torn, ended, the games directory's ids, bytes
    # written since free space was asked: its log's block and its
    # checkpoint's, roughly). (The game before goes to past/ when the app
    # is next idle: tidy.) :raises OSError: not written.
    gid = "g%04d" % (st.next_no - 1)
    h = header_payload(game)
    c = getattr(game, "club", None)
    if c:
        h["club"] = c   # a club round (bower.club)
    h["id"] = gid
    h["device"] = st.device
    h["started"] = started
    b = encode_line(h).encode()
    try:
        st.fs.mkdir(st.games_dir)  # not made at boot if the flash was full
    except OSError:
        pass
    room(st, st.rec_file, st.games_path + gid, b, ".log")
    return gid, len(b), 1, 0, 0, st.hot + [gid], st.written + 8192


def prepare(st):
    # While a game is set up (bower.ui App.warm), once per power-on:
    # littlefs's first block allocation after a mount walks the whole
    # filesystem (some 45 ms on a Pico, more with more files), and the new
    # game's first write would pay it on the OK that starts the game. A
    # directory made here (the games directory on a new device, else one
    # made and removed) pays it while the menus wait.
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


def close(st):
    # The game-over screen was left (Store.close): the game is marked
    # finished. Returns the game being recorded then: None, or the same
    # one with no room for the mark (a reboot shows that screen once more;
    # the next game's start marks it).
    gid = st.gid
    try:
        if gid and st.ended:
            st.game_state(gid, "finished")
        return None
    except OSError:
        return gid


def tidy(st):
    # One step of the work kept off the presses, run while the app is idle
    # outside a hand (Store.tidy): the games waiting in the games directory
    # moved to past/, the free space asked of littlefs once (its answer
    # costs a walk of the whole filesystem), the past games counted (the
    # index read). (False once nothing is left, else True; the games
    # directory's ids then; the past games' count then, None: to count.)
    c = "g%04d" % (st.next_no - 1)
    q = [g for g in st.hot if g != c]
    if q:
        r = _arc(st, q[:4])
        if r[0] or r[1] is None:
            return True, [g for g in st.hot if g not in r[0]], r[1]
        # (none moved: no room, an error; tried again when next idle)
    try:
        if st.free_seen is None:
            st.free(1)
            return True, st.hot, st.summary
        if st.summary is None:
            st.sum()    # what HELLO and the storage screen show, ready
            return True, st.hot, st.summary
    except OSError:
        pass    # asked again when needed
    return False, st.hot, st.summary


def past_path(st, x):
    # The path of the archive's ``x`` ("past/", "past.idx", "past.mk").
    return st.settings_path[:-8] + x


def _arc(st, ids):
    # Move the games waiting in the games directory (not the one being
    # recorded) to the archive, four at a time, oldest first: their index
    # lines (size, CRC, state, synced) appended in one write, then each log
    # renamed into past/ and its .st and .ck removed. A power cut or a full
    # flash leaves a game where it is (or indexed but not moved: the next
    # call moves it); nothing is lost either way. Returns (the ids no
    # longer in the games directory, the past games' count now: None if it
    # must be counted again).
    fs = st.fs
    out = []
    try:
        k = st.sum()[3]
        u = st.summary[:]
        b = []
        q = []
        for gid in ids:
            p = st.games_path + gid + ".log"
            try:
                c = log_crc(st, p)
                z = fs.stat(p)[6]
            except OSError as e:
                if e.args[0] != 2:
                    break  # the rest waits (the index stays in id order)
                out.append(gid)  # not there (removed to make room)
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
                u[0] += 1
                u[1] += z
                u[2] += not y
                u[3] = _num(gid)
        if b:
            _add(st, past_path(st, "past.idx"), b"".join(b), 32)
        try:
            fs.mkdir(past_path(st, "past/")[:-1])
        except OSError:
            pass
        for gid in q:
            fs.rename(st.games_path + gid + ".log", past_path(st, "past/") + gid + ".log")
            out.append(gid)
            for x in (".st", ".ck"):
                try:
                    fs.remove(st.games_path + gid + x)
                except OSError:
                    pass
    except OSError:
        u = None  # (counted again when asked)
    return out, u


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


# ----- past/, the computer link, space -----------------------------------------
#
# past/gNNNN.log: the logs of older games, never written again. past.idx:
# one 32-byte line per past game, oldest first ("g0007      0001111
# 552aa17f f 1\n": id, size, CRC-32, f finished or a abandoned, synced).
# past.mk: 12-byte marks appended since ("Sg0007     \n" synced, "X..."
# removed), folded into past.idx at 40 (``_pack``: the file stays small
# enough to live in its directory's metadata, so an append erases
# nothing). So no press and no sync request lists or opens every game: a
# listing reads the index (a few KB for a full flash), a game is found by a
# binary search of it, and what HELLO says is counted once and kept (Store.sum).
# A line cut short (a failed append) is ignored and cut off before the next
# append.

def log_crc(st, p):
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
        with st.open(past_path(st, "past.mk"), "rb") as f:
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


def mark(st, k, ids):
    # Append a mark ``k`` for each game id; folded into the index at 40
    # (so the file stays small enough to live in its directory's metadata:
    # an append erases nothing).
    if _add(st, past_path(st, "past.mk"), b"".join([("%s%-10s\n" % (k, g)).encode() for g in ids]), 12) >= 40 * 12:
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
    i = past_path(st, "past.idx")
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
                st.fs.remove(past_path(st, "past/") + g.decode() + ".log")
            except OSError:
                pass
    st.fs.remove(past_path(st, "past.mk"))
    st.sync()


def each(st, hot=1, m=None):
    # Every game on flash, oldest first, as [id, size, crc, state, synced,
    # in the games directory]: the archive's from its index (the marks
    # applied), then (``hot``) the newest games' from their files (``hot``
    # 2: those only).
    if m is None:
        m = {} if hot == 2 else _marks(st)
    k = st.sum()[3] if hot == 2 else 0
    try:
        f = None if hot == 2 else st.open(past_path(st, "past.idx"), "rb")
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
            if not_indexed(st, gid, k):
                p = st.games_path + gid + ".log"
                try:
                    c = log_crc(st, p)
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
        f = st.open(past_path(st, "past.idx"), "rb")
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


def not_indexed(st, gid, k):
    # Is this game of the games directory not in the archive's index (whose
    # newest game is number ``k``)? (One in it was being moved.)
    return _num(gid) > k or not _find(st, gid)


def games(st):
    # Every game on flash, oldest first (for the host's tools and tests;
    # the device streams ``each``).
    return [{"id": e[0], "size": e[1], "crc": e[2], "state": e[3], "synced": e[4]} for e in each(st)]


def count_index(st):
    # The past games' [games, bytes, not synced, newest game's number], a
    # read of the index (Store.sum keeps it).
    u = [0, 0, 0, 0]
    m = _marks(st)
    try:
        with st.open(past_path(st, "past.idx"), "rb") as f:
            for e in _lines(f):
                u[3] = n = _num(e[0])
                x = m.get(n)
                if x != "X":
                    u[0] += 1
                    u[1] += e[1]
                    u[2] += not (e[4] or x)
    except OSError:
        pass
    return u


def count(st):
    # How many games ``each`` lists.
    u = st.sum()
    k = u[3]
    n = u[0]
    for g in st.hot:
        n += not_indexed(st, g, k)
    return n


def _find(st, gid):
    # The archive's index entry of ``gid`` (marks applied), or None.
    n = _num(gid)
    try:
        with st.open(past_path(st, "past.idx"), "rb") as f:
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
    a, b = (st.games_path, past_path(st, "past/")) if gid in st.hot else (past_path(st, "past/"), st.games_path)
    try:
        f = st.open(a + p[1:], "rb")
    except OSError:
        f = st.open(b + p[1:], "rb")
    with f:
        f.seek(max(0, offset))
        return f.read(max(0, n))


def mark_many(st, pairs):
    # ``mark_synced`` for each (id, crc) of ``pairs``: True (marked, or it
    # was), False (its CRC is no longer ``crc``), None (a bad id, no such
    # game). The past games' marks go in one append (a sync's SYNCED lists
    # many games at once). Returns (those, the past games' count now).
    # :raises OSError: not written (the games before it in ``pairs`` may be).
    out = []
    ids = []
    k = st.sum()[3]
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
                    r = log_crc(st, st.games_path + gid + ".log") == crc
                except OSError:
                    pass
                if r:
                    room(st, st.game_state, gid, None, crc)
        out.append(r)
    if ids:
        room(st, mark, st, "S", ids)
    u = st.summary
    if ids and u:
        u = [u[0], u[1], u[2] - len(ids), u[3]]   # (past games marked synced)
    return out, u


def mark_synced(st, gid, crc):
    r = st.mark_many([(gid, crc)])[0]
    if r is None:
        raise ValueError("no game %r" % (gid,))
    return r


def usage(st):
    # (bytes of the games' logs, bytes free on the filesystem: as littlefs
    # last said, less what was written since; never below 0). Nothing is
    # read for it but the games directory's logs' sizes (the one being
    # recorded: known).
    n = st.sum()[1]
    for g in st.hot:
        if g == st.gid:
            n += st.size
        else:
            try:
                n += st.fs.stat(st.games_path + g + ".log")[6]
            except OSError:
                pass
    return n, st.free()


def statfree(st):
    # Bytes free as littlefs counts them (Store.free keeps the figure).
    try:
        v = st.fs.statvfs(st.games_dir)
    except OSError:
        v = st.fs.statvfs(st.settings_path[:-8])  # the root: no games directory yet
    return max(0, v[1] * v[4])
