# The requests of the sync protocol (host/PROTOCOL.md), answered for
# bower.link.Link, which assembles the lines. Loaded when the first request
# arrives; the app drops it again while a hand is played.
#
# ``line(lk, request)`` answers one complete request line (starting with
# "#B? ") through ``lk._w``; ``err`` and ``tag`` serve the link's own error
# replies.

from binascii import crc32, b2a_base64

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PROTO = const(1)             # protocol version spoken
MAX_CHUNK = const(2048)      # most log bytes in one GET reply
_MIN_T = const(946684800)    # CLOCK accepts 2000-01-01 ...
_MAX_T = const(4102444800)   # ... to 2100-01-01

_HEX = "0123456789abcdef"


class _Fail(Exception):
    # An error reply: args are (code, message).
    pass


def _num(tok):
    # A decimal integer token of at most 10 digits.
    if not tok or len(tok) > 10 or not tok.isdigit():
        raise _Fail("badargs", "not a number: " + tok[:12])
    return int(tok)


def _hex8(tok):
    # True for 8 lower-case hex digits.
    if len(tok) != 8:
        return False
    for ch in tok:
        if ch not in _HEX:
            return False
    return True


def _text(s, space=" "):
    # ``s`` as reply text: printable ASCII, at most 60 characters; spaces
    # become ``space`` ("_" for a one-word field).
    out = ""
    for ch in str(s)[:60]:
        o = ord(ch)
        out += ch if 32 < o < 127 else space if o == 32 else "?"
    return out.strip() or "-"


def _unquote(tok):
    # A percent-decoded ROSTER name (%XX is a byte in hex).
    out = bytearray()
    i = 0
    while i < len(tok):
        ch = tok[i]
        if ch == "%":
            h = tok[i + 1:i + 3].lower()
            if len(h) != 2 or h[0] not in _HEX or h[1] not in _HEX:
                raise _Fail("badargs", "bad %-escape")
            ch = chr(int(h, 16))
            i += 2
        if not " " <= ch <= "~":
            raise _Fail("badargs", "names are printable ASCII")
        out.append(ord(ch))
        i += 1
    return out.decode()


def tag(line):
    # The request's tag (1-8 letters or digits), else "-".
    t = line[4:line.find(b" ", 4)]
    if not 0 < len(t) < 9:
        return "-"
    for b in t:
        if not (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122):
            return "-"
    return t.decode()


def line(lk, line):
    if line[-1:] == b"\r":
        line = line[:-1]
    if line[:4] != b"#B? ":
        return  # not for us: REPL output, a banner, noise
    t = tag(line)
    if min(line) < 32 or max(line) > 126:
        return err(lk, t, "badline", "not printable ASCII")
    sp = line.rfind(b" ")
    words = line[:sp].decode().split(" ")
    c = line[sp + 1:].decode()
    if t == "-" or len(words) < 3 or "" in words or not _hex8(c):
        return err(lk, t, "badline", "want: #B? TAG CMD [ARG ...] CRC")
    if crc32(line[:sp]) & 0xFFFFFFFF != int(c, 16):
        return err(lk, t, "badcrc", "request CRC mismatch")
    lk.requests += 1
    try:
        _run(lk, t, words[2], words[3:])
    except _Fail as e:
        err(lk, t, e.args[0], e.args[1])
    except OSError as e:
        err(lk, t, "storage", "filesystem error %s" % _text(e.args[0] if e.args else "", "_"))
    except MemoryError:
        err(lk, t, "internal", "out of memory")


# ----- commands ----------------------------------------------------------

def _run(lk, tag, cmd, a):
    st = lk.store
    n = len(a)
    if cmd == "GET" and n == 3:
        return _get(lk, tag, a[0], _num(a[1]), _num(a[2]))
    if cmd == "HELLO" and n == 1:
        if _num(a[0]) < PROTO:
            raise _Fail("badversion", "device speaks protocol 1")
        used, free = st.usage()
        i = lk.info
        try:
            now = int(lk.clock()) + int(st.clock_offset)
        except Exception:
            now = 0
        return _ok(lk, tag, "proto=%d fw=%s dev=%s used=%d free=%d games=%d time=%d chunk=%d maxline=%d" % (
            PROTO, _text(i.get("version", ""), "_"), _text(i.get("device", ""), "_"),
            used, free, len(st.games()), now, MAX_CHUNK, lk.max_line))
    if cmd == "LIST" and n == 0:
        games = st.games()
        _ok(lk, tag, "%d" % len(games))
        for g in games:
            c = g["crc"]
            _reply(lk, tag, "GAME %s %d %s %s %d" % (
                _text(g["id"], "_"), g["size"], c if isinstance(c, str) else "%08x" % c,
                _text(g["state"], "_"), 1 if g["synced"] else 0))
        return
    if cmd == "SYNCED" and n == 2:
        if not _hex8(a[1]):
            raise _Fail("badargs", "CRC must be 8 hex digits")
        try:
            ok = st.mark_synced(a[0], a[1])
        except ValueError:
            raise _Fail("badid", "no game " + a[0][:16])
        if ok is False:
            raise _Fail("stale", "CRC does not match the game on the device")
        return _ok(lk, tag, "")
    if cmd == "ROSTER":
        names = [_unquote(w) for w in a]
        try:
            st.set_roster(names)
        except ValueError as e:
            raise _Fail("badargs", e.args[0] if e.args else "bad roster")
        return _ok(lk, tag, "%d" % n)
    if cmd == "CLOCK" and n == 1:
        t = _num(a[0])
        if not _MIN_T <= t < _MAX_T:
            raise _Fail("badargs", "time out of range")
        off = t - int(lk.clock())
        st.set_clock_offset(off)
        return _ok(lk, tag, "%d" % off)
    if cmd == "CLUB" and n in (1, 18):
        # A club round's setup (bower.club; host/CLUB.md): night table round
        # tables movement hands minutes loner set_loner renege, the next
        # round's table of each seat (0: not known), four quoted names.
        # "CLUB -": none.
        d = None
        if n == 18:
            v = [_num(x) for x in a[1:4] + a[5:14]]
            d = {"night": a[0], "table": v[0], "round": v[1], "tables": v[2], "move": a[4],
                 "hands": v[3], "minutes": v[4],
                 "scoring": {"loner": v[5], "set_loner": v[6], "renege": v[7]},
                 "next": v[8:12], "players": [_unquote(w) for w in a[14:]]}
        elif a[0] != "-":
            raise _Fail("badargs", "CLUB - clears")
        try:
            st.set_club(d)
        except ValueError as e:
            raise _Fail("badargs", "club round " + (e.args[0] if e.args else "refused"))
        # The screen says so (App.tick; the home menu gains or loses its row).
        st.warnings.append("club round %d, table %d" % (d["round"], d["table"]) if d else "club round removed")
        return _ok(lk, tag, "")
    if cmd == "DAMAGED" and n == 2:
        # The host stored this game only up to a corrupt line: the device
        # says so on its screen (App.tick shows a new warning).
        k = _num(a[1])
        if k < 1:
            raise _Fail("badargs", "line must be at least 1")
        if a[0] not in [g["id"] for g in st.games()]:
            raise _Fail("badid", "no game " + a[0][:16])
        st.warnings.append("%s line %d corrupt: synced up to it" % (a[0], k))
        return _ok(lk, tag, "")
    if cmd in ("GET", "HELLO", "LIST", "SYNCED", "CLOCK", "DAMAGED", "CLUB"):
        raise _Fail("badargs", "wrong number of arguments")
    raise _Fail("unknown", "unknown command " + cmd[:16])


def _get(lk, tag, gid, off, n):
    if n < 1:
        raise _Fail("badargs", "count must be at least 1")
    n = min(n, MAX_CHUNK)
    try:
        data = lk.store.read(gid, off, n)[:n]
    except (ValueError, OSError) as e:
        if isinstance(e, OSError) and e.args and e.args[0] != 2:
            raise  # a filesystem failure; ENOENT (2): no such game
        raise _Fail("badid", "no game " + gid[:16])
    head = ("#B! %s OK %s %d %d %08x " % (tag, gid, off, len(data), crc32(data) & 0xFFFFFFFF)).encode()
    b64 = b2a_base64(data, newline=False) if data else b"-"
    w = lk._w
    w(head)
    w(b64)
    w(b" %08x\n" % (crc32(b64, crc32(head)) & 0xFFFFFFFF))


# ----- output --------------------------------------------------------------

def _reply(lk, tag, text):
    line = ("#B! " + tag + " " + text).encode()
    lk._w(line + b" %08x\n" % (crc32(line) & 0xFFFFFFFF))


def _ok(lk, tag, text):
    _reply(lk, tag, "OK " + text if text else "OK")


def err(lk, tag, code, msg):
    _reply(lk, tag, "ERR %s %s" % (code, _text(msg)))
