# The requests of the sync protocol (host/PROTOCOL.md), answered for
# bower.link.Link, which assembles the lines. Loaded when the first request
# arrives; the link drops it again once the host has been quiet. The
# commands that change settings (ROSTER, CLOCK, CLUB, PRESET, DAMAGED) are in
# bower.protoset, loaded when one comes: a sync's first request loads only
# what a sync uses.
#
# ``line(lk, request)`` answers one complete request line (starting with
# "#B? ") through ``lk.write``; ``err`` and ``tag`` serve the link's own error
# replies.

try:
    # (the u-name: the firmware's own module at once; "binascii" would be
    # looked for on every sys.path entry first, a littlefs stat each)
    from ubinascii import crc32, b2a_base64
except ImportError:  # CPython
    from binascii import crc32, b2a_base64

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PROTO = const(1)             # protocol version spoken
MAX_CHUNK = const(2048)      # most log bytes in one GET reply

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
    return len(tok) == 8 and not tok.strip(_HEX)


def _text(s, space=" "):
    # ``s`` as reply text: printable ASCII, at most 60 characters; spaces
    # become ``space`` ("_" for a one-word field).
    s = str(s)[:60]
    b = s.encode()
    if b and 32 <= min(b) and max(b) < 127:
        # (the usual case, without a loop)
        return (s.replace(" ", space) if space != " " else s).strip() or "-"
    out = ""
    for ch in str(s)[:60]:
        o = ord(ch)
        out += ch if 32 < o < 127 else space if o == 32 else "?"
    return out.strip() or "-"


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
            used, free, st.count(), now, MAX_CHUNK, lk.max_line))
    if cmd == "LIST" and n == 0:
        # Streamed from the store's index (bower.past.listing): one
        # game's line in memory at a time, however many the flash holds;
        # its ids and states are tokens already (checked there).
        _ok(lk, tag, "%d" % st.count())
        h = b"#B! " + tag.encode() + b" GAME "
        w = lk.write
        for g in st.listing():
            g = h + g
            w(g + b" %08x\n" % (crc32(g) & 0xFFFFFFFF))
        return
    if cmd == "SYNCED" and n and not n % 2:
        # One game, or several (ID CRC ID CRC ...: their marks written at
        # once); several get a word each: ok, stale or badid.
        for c in a[1::2]:
            if not _hex8(c):
                raise _Fail("badargs", "CRC must be 8 hex digits")
        r = st.mark_many([(a[i], a[i + 1]) for i in range(0, n, 2)])
        if n > 2:
            return _ok(lk, tag, " ".join(["ok" if x else "badid" if x is None else "stale" for x in r]))
        if r[0] is None:
            raise _Fail("badid", "no game " + a[0][:16])
        if r[0] is False:
            raise _Fail("stale", "CRC does not match the game on the device")
        return _ok(lk, tag, "")
    if cmd in ("ROSTER", "CLOCK", "CLUB", "PRESET", "DAMAGED"):
        # The commands that change the device's settings: loaded when one
        # comes (a sync's HELLO, LIST, GET and SYNCED load this module only).
        from bower import protoset
        if protoset.run(lk, tag, cmd, a, st, n, _Fail, _num, _ok):
            return
    if cmd in ("GET", "HELLO", "LIST", "SYNCED", "CLOCK", "DAMAGED", "CLUB", "PRESET"):
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
    w = lk.write
    w(head)
    w(b64)
    w(b" %08x\n" % (crc32(b64, crc32(head)) & 0xFFFFFFFF))


# ----- output --------------------------------------------------------------

def _reply(lk, tag, text):
    line = ("#B! " + tag + " " + text).encode()
    lk.write(line + b" %08x\n" % (crc32(line) & 0xFFFFFFFF))


def _ok(lk, tag, text):
    _reply(lk, tag, "OK " + text if text else "OK")


def err(lk, tag, code, msg):
    _reply(lk, tag, "ERR %s %s" % (code, _text(msg)))
