# The USB serial link: the device side of Bower's sync protocol
# (host/PROTOCOL.md is the specification; this module implements it).
#
# Line-based ASCII over the Pico's USB CDC serial, while the game app keeps
# running. A request is one line ``#B? TAG CMD ARG ... CRC`` and every reply
# line is ``#B! TAG STATUS FIELD ... CRC``, where CRC is the CRC-32 of the
# line's bytes before the space that precedes it, as 8 lower-case hex digits.
# Lines without the marker (REPL banners, a human typing) are ignored; a
# request starts with "#", so it is a mere comment if it ever reaches the REPL.
#
#     link = Link(store, info, sys.stdout.buffer.write)
#     while True:
#         ...
#         link.poll()          # reads what is waiting on stdin, never blocks
#
# ``feed(data)`` takes raw bytes (partial lines, NULs, garbage: anything) and
# never raises; KeyboardInterrupt (mpremote's Ctrl-C) still passes. The link
# only reads the store, except SYNCED, ROSTER and CLOCK with valid arguments;
# it never touches the game at the table.
#
# Heap: a request line is assembled in one preallocated 512-byte buffer; a
# GET reply holds one chunk (at most 2 KB), its base64 text and a short head.

import sys
from binascii import crc32, b2a_base64

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PROTO = const(1)          # protocol version spoken
MAX_LINE = const(512)     # longest request line accepted (without the newline)
MAX_CHUNK = const(2048)   # most log bytes in one GET reply
_POLL_MAX = const(600)    # most bytes one poll() reads from stdin ...
_POLL_REQ = const(2)      # ... and most lines it answers (a few ms each)
_RX = const(64)           # poll()'s read buffer
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


class Link:
    # :param store: a ``bower.store.Store``.
    # :param info: {"version", "device", "board"} (firmware version, device id).
    # :param write: writes bytes to the host (``sys.stdout.buffer.write``).
    # :param clock: the device's own clock in seconds (default ``time.time``);
    #     CLOCK stores ``host time - clock()`` as the store's clock offset.
    # :param stdin: the stream ``poll()`` polls (default sys.stdin); bytes
    #     are read from its ``buffer`` when it has one.

    def __init__(self, store, info, write, clock=None, stdin=None):
        self.store = store
        self.info = info
        self._w = write
        if clock is None:
            from time import time as clock
        self.clock = clock
        self._in = stdin
        self._p = None          # the select.poll object, made on first poll()
        self._buf = bytearray(MAX_LINE)
        self._mv = memoryview(self._buf)
        self._len = 0
        self._over = False      # discarding the rest of an overlong line
        self.requests = 0       # request lines with a good CRC (for a debug screen)

    # ----- input -------------------------------------------------------

    def poll(self):
        # Read what is waiting on stdin without blocking, and answer the
        # complete requests (at most _POLL_REQ lines or _POLL_MAX bytes per
        # call; the rest waits in the USB buffer for the next call).
        try:
            p = self._p
            if p is None:
                import select
                src = sys.stdin if self._in is None else self._in
                # Bytes, not text; unbuffered (CPython's buffered reader
                # would hide waiting bytes from poll()).
                b = getattr(src, "buffer", src)
                self._in = getattr(b, "raw", b)
                p = select.poll()
                p.register(src, select.POLLIN)
                self._p = p
                self._rx = bytearray(_RX)
            rx = self._rx
            k = n = lines = 0
            while n < _POLL_MAX and lines < _POLL_REQ and p.poll(0):
                b = self._in.read(1)
                if not b:
                    break
                rx[k] = b[0]
                k += 1
                n += 1
                if b[0] == 10:
                    lines += 1
                if k == _RX or b[0] == 10:
                    self.feed(bytes(rx[:k]))
                    k = 0
            if k:
                self.feed(bytes(rx[:k]))
        except Exception:
            pass

    def feed(self, data):
        # Take raw bytes from the host; answer every complete request line.
        try:
            if not isinstance(data, (bytes, bytearray)):
                data = bytes(data)
            i = 0
            n = len(data)
            while i < n:
                j = data.find(b"\n", i)
                k = (n if j < 0 else j) - i
                if k and not self._over:
                    if self._len + k > MAX_LINE:
                        # Keep the head (for the tag), drop the rest to the newline.
                        k = MAX_LINE - self._len
                        self._over = True
                    self._mv[self._len:self._len + k] = data[i:i + k]
                    self._len += k
                if j < 0:
                    return
                i = j + 1
                k = self._len
                self._len = 0
                if self._over:
                    self._over = False
                    if self._buf[:4] == b"#B? ":
                        self._err(self._tag(bytes(self._buf[:20])), "toolong", "over 512 bytes")
                elif k:
                    self._line(bytes(self._buf[:k]))
        except Exception:
            # A bug or MemoryError must not stop the app: start afresh.
            self._len = 0
            self._over = False
            try:
                self._err("-", "internal", "unexpected failure")
            except Exception:
                pass

    def _tag(self, line):
        # The request's tag (1-8 letters or digits), else "-".
        t = line[4:line.find(b" ", 4)]
        if not 0 < len(t) < 9:
            return "-"
        for b in t:
            if not (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122):
                return "-"
        return t.decode()

    def _line(self, line):
        if line[-1:] == b"\r":
            line = line[:-1]
        if line[:4] != b"#B? ":
            return  # not for us: REPL output, a banner, noise
        tag = self._tag(line)
        if min(line) < 32 or max(line) > 126:
            return self._err(tag, "badline", "not printable ASCII")
        sp = line.rfind(b" ")
        words = line[:sp].decode().split(" ")
        c = line[sp + 1:].decode()
        if tag == "-" or len(words) < 3 or "" in words or not _hex8(c):
            return self._err(tag, "badline", "want: #B? TAG CMD [ARG ...] CRC")
        if crc32(line[:sp]) & 0xFFFFFFFF != int(c, 16):
            return self._err(tag, "badcrc", "request CRC mismatch")
        self.requests += 1
        try:
            self._run(tag, words[2], words[3:])
        except _Fail as e:
            self._err(tag, e.args[0], e.args[1])
        except OSError as e:
            self._err(tag, "storage", "filesystem error %s" % _text(e.args[0] if e.args else "", "_"))
        except MemoryError:
            self._err(tag, "internal", "out of memory")

    # ----- commands ----------------------------------------------------

    def _run(self, tag, cmd, a):
        st = self.store
        n = len(a)
        if cmd == "GET" and n == 3:
            return self._get(tag, a[0], _num(a[1]), _num(a[2]))
        if cmd == "HELLO" and n == 1:
            if _num(a[0]) < PROTO:
                raise _Fail("badversion", "device speaks protocol 1")
            used, free = st.usage()
            i = self.info
            try:
                now = int(self.clock()) + int(st.clock_offset)
            except Exception:
                now = 0
            return self._ok(tag, "proto=%d fw=%s dev=%s used=%d free=%d games=%d time=%d chunk=%d maxline=%d" % (
                PROTO, _text(i.get("version", ""), "_"), _text(i.get("device", ""), "_"),
                used, free, len(st.games()), now, MAX_CHUNK, MAX_LINE))
        if cmd == "LIST" and n == 0:
            games = st.games()
            self._ok(tag, "%d" % len(games))
            for g in games:
                c = g["crc"]
                self._reply(tag, "GAME %s %d %s %s %d" % (
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
            return self._ok(tag, "")
        if cmd == "ROSTER":
            names = [_unquote(w) for w in a]
            try:
                st.set_roster(names)
            except ValueError as e:
                raise _Fail("badargs", e.args[0] if e.args else "bad roster")
            return self._ok(tag, "%d" % n)
        if cmd == "CLOCK" and n == 1:
            t = _num(a[0])
            if not _MIN_T <= t < _MAX_T:
                raise _Fail("badargs", "time out of range")
            off = t - int(self.clock())
            st.set_clock_offset(off)
            return self._ok(tag, "%d" % off)
        if cmd in ("GET", "HELLO", "LIST", "SYNCED", "CLOCK"):
            raise _Fail("badargs", "wrong number of arguments")
        raise _Fail("unknown", "unknown command " + cmd[:16])

    def _get(self, tag, gid, off, n):
        if n < 1:
            raise _Fail("badargs", "count must be at least 1")
        n = min(n, MAX_CHUNK)
        try:
            data = self.store.read(gid, off, n)[:n]
        except (ValueError, OSError) as e:
            if isinstance(e, OSError) and e.args and e.args[0] != 2:
                raise  # a filesystem failure; ENOENT (2): no such game
            raise _Fail("badid", "no game " + gid[:16])
        head = ("#B! %s OK %s %d %d %08x " % (tag, gid, off, len(data), crc32(data) & 0xFFFFFFFF)).encode()
        b64 = b2a_base64(data, newline=False) if data else b"-"
        self._w(head)
        self._w(b64)
        self._w(b" %08x\n" % (crc32(b64, crc32(head)) & 0xFFFFFFFF))

    # ----- output ------------------------------------------------------

    def _reply(self, tag, text):
        line = ("#B! " + tag + " " + text).encode()
        self._w(line + b" %08x\n" % (crc32(line) & 0xFFFFFFFF))

    def _ok(self, tag, text):
        self._reply(tag, "OK " + text if text else "OK")

    def _err(self, tag, code, msg):
        self._reply(tag, "ERR %s %s" % (code, _text(msg)))
