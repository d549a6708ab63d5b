# The USB serial link: the device side of Bower's sync protocol
# (host/PROTOCOL.md is the specification; this module and bower.protocol
# implement it).
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
# only reads the store, except SYNCED, ROSTER, CLOCK, CLUB and PRESET with
# valid arguments; it never touches the game at the table.
#
# Heap: a request line is assembled in one preallocated 512-byte buffer; a
# GET reply holds one chunk (at most 2 KB), its base64 text and a short head.
# The commands are in bower.protocol (and bower.protoset), loaded when the
# first request arrives, dropped again once the host has been quiet.

import sys

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

MAX_LINE = const(512)     # longest request line accepted (without the newline)
_POLL_MAX = const(600)    # most bytes one poll() reads from stdin ...
_POLL_REQ = const(2)      # ... and most lines it answers (a few ms each)
_RX = const(64)           # poll()'s read buffer
_TRIM = const(500)        # quiet polls (5-10 s) before the protocol's heap goes back


def _proto():
    from bower import protocol
    return protocol


class Link:
    # :param store: a ``bower.store.Store``.
    # :param info: {"version", "device", "board"} (firmware version, device id).
    # :param write: writes bytes to the host (``sys.stdout.buffer.write``).
    # :param clock: the device's own clock in seconds (default ``time.time``);
    #     CLOCK stores ``host time - clock()`` as the store's clock offset.
    # :param stdin: the stream ``poll()`` polls (default sys.stdin); bytes
    #     are read from its ``buffer`` when it has one.

    max_line = MAX_LINE   # for bower.protocol's HELLO (it imports nothing from here)

    def __init__(self, store, info, write, clock=None, stdin=None):
        self.store = store
        self.info = info
        self.write = write
        if clock is None:
            from time import time as clock
        self.clock = clock
        self._in = stdin
        self._p = None          # poll(0) -> bytes waiting?, made on first poll()
        self._buf = bytearray(MAX_LINE)
        self._mv = memoryview(self._buf)
        self._len = 0
        self._over = False      # discarding the rest of an overlong line
        self.requests = 0       # request lines with a good CRC (for a debug screen)
        self._quiet = 0         # polls since the host last sent a byte
        self.presets = None     # a PRESET push under way (bower.protoset)

    # ----- input -------------------------------------------------------

    def poll(self):
        # Read what is waiting on stdin without blocking, and answer the
        # complete requests (at most _POLL_REQ lines or _POLL_MAX bytes per
        # call; the rest waits in the USB buffer for the next call).
        try:
            p = self._p  # pyright: ignore[reportAssignmentType]  (None until the first poll)
            if p is None:
                src = sys.stdin if self._in is None else self._in
                # Bytes, not text; unbuffered (CPython's buffered reader
                # would hide waiting bytes from poll()).
                b = getattr(src, "buffer", src)
                self._in = getattr(b, "raw", b)
                try:
                    import select
                    p = select.poll()
                    p.register(src, select.POLLIN)
                    p = p.poll
                except ImportError:
                    # CircuitPython: no select; the USB serial says how
                    # many bytes wait, and its stdin reads text.
                    from supervisor import runtime  # pyright: ignore[reportMissingImports]  (CircuitPython)

                    def p(t):
                        return runtime.serial_bytes_available
                self._p = p
                self._rx = bytearray(_RX)
            rx = self._rx
            k = n = lines = 0
            while n < _POLL_MAX and lines < _POLL_REQ and p(0):
                b = self._in.read(1)
                if not b:
                    break
                c = ord(b) & 255 if type(b) is str else b[0]
                rx[k] = c
                k += 1
                n += 1
                if c == 10:
                    lines += 1
                if k == _RX or c == 10:
                    self.feed(bytes(rx[:k]))
                    k = 0
            if k:
                self.feed(bytes(rx[:k]))
            if n:
                self._quiet = 0
            else:
                self._quiet += 1
                if self._quiet == _TRIM:
                    # The host went quiet: the protocol (the rarely used
                    # part) gives its heap back; the next request loads it.
                    # A push of presets left unfinished is dropped.
                    self.presets = None
                    from bower import unload
                    unload("bower.protocol")
                    unload("bower.protoset")
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
                        p = _proto()
                        p.err(self, p.tag(bytes(self._buf[:20])), "toolong", "over 512 bytes")
                elif k > 3 and self._buf[:4] == b"#B? ":  # else REPL output, a banner, noise
                    _proto().line(self, bytes(self._buf[:k]))
        except Exception:
            # A bug or MemoryError must not stop the app: start afresh.
            self._len = 0
            self._over = False
            try:
                _proto().err(self, "-", "internal", "unexpected failure")
            except Exception:
                pass
