# The OLED, refreshed by difference. Display(driver) keeps a shadow copy of
# what the SSD1306's display RAM holds; show() compares the frame buffer with
# it page by page and sends only what changed.
#
#   disp = Display(ssd1306.SSD1306_I2C(128, 64, i2c))   # Display(driver, 180): upside down
#   app.render(disp.fb)     # draw into the driver (a framebuf.FrameBuffer)
#   sent = disp.show()      # bytes put on the bus; 0 when nothing changed
#   disp.contrast(40)       # these two send only when the value changes
#   disp.power(False)
#
# Drivers: micropython-lib's ssd1306.SSD1306_I2C (MicroPython; it has i2c and
# addr) and Adafruit's adafruit_ssd1306.SSD1306_I2C (CircuitPython; it has
# i2c_device, and its buffer starts with a 0x40 control byte). Both keep the
# frame in ``buffer`` (MONO_VLSB: byte page * width + column).
#
# Bus traffic. The window commands go in one transaction with control byte
# 0x00 (Co=0, D/C#=0): [00 21 c0 c1 22 p0 p1], 7 bytes (the drivers'
# write_cmd() would take six [80 cmd] transactions, 12 bytes), then the data
# in one transaction [40 data...] (the driver's write_data() for
# micropython-lib's). A changed page gets the window from its first to
# its last changed byte. When those windows together would cost more than one
# full-width band of pages (first changed page to last), the band goes
# instead, so a show never sends more than one full frame: 7 + 1 + 1024 bytes.
# The shadow is updated only after a transfer went out: a bus error leaves
# that part to be sent again by the next show().

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_WIN = const(7)  # bytes of a window command transaction
_DATA = const(1)  # control byte in front of the data


class Display:
    def __init__(self, driver, rotate=0):
        self.fb = driver
        self.on = True  # both drivers switch the panel on at init ...
        self.level = 255  # ... at full contrast
        # ... but a driver that says ``dark`` left it off, its RAM unset:
        # the first show() sends the frame, then lights the panel.
        self._dark = getattr(driver, "dark", False)
        w = driver.width
        n = driver.height // 8
        self._w = w
        self._n = n
        self._x0 = (128 - w) // 2  # narrow panels use the middle columns
        self._dev = getattr(driver, "i2c_device", None)
        if self._dev is None:
            self._i2c = driver.i2c
            self._addr = driver.addr
            off = 0
        else:
            off = 1
        self._buf = driver.buffer
        mv = memoryview(driver.buffer)
        self._all = mv[off:off + w * n]
        self._shadow = bytearray(w * n)
        sv = memoryview(self._shadow)
        # One view per page of each, made once: comparing them allocates nothing.
        self._bp = [mv[off + p * w:off + p * w + w] for p in range(n)]
        self._sp = [sv[p * w:p * w + w] for p in range(n)]
        self._span = bytearray(2 * n)  # first, last changed column per page
        self._win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")
        self._full = True
        if rotate:
            # board.json "rotate": 180. The chip turns the picture: columns
            # mirrored (segment remap A0) and rows (COM scan C0); the first
            # show() sends the whole frame again.
            self._cmd(b"\x00\xa0\xc0")

    def invalidate(self):
        # The next show() sends the whole frame.
        self._full = True

    def show(self):
        # Send what changed since the last show; returns the bytes sent.
        n = self._n
        if self._full:
            sent = self._send(0, n - 1, 0, self._w - 1)
            self._full = False
            if self._dark:
                self._dark = False
                sent += self._cmd(b"\x00\xaf")
            return sent
        if self._all == self._shadow:
            return 0
        w = self._w
        bp = self._bp
        sp = self._sp
        span = self._span
        first = -1
        last = 0
        cost = 0
        for p in range(n):
            b = bp[p]
            s = sp[p]
            if b == s:
                span[2 * p] = 1  # first > last: unchanged
                span[2 * p + 1] = 0
                continue
            # The changed span: 16 columns at a time (a C compare of two
            # views), then column by column.
            c0 = 0
            while c0 + 16 <= w and b[c0:c0 + 16] == s[c0:c0 + 16]:
                c0 += 16
            while b[c0] == s[c0]:
                c0 += 1
            c1 = w
            while c1 - 16 >= c0 and b[c1 - 16:c1] == s[c1 - 16:c1]:
                c1 -= 16
            c1 -= 1
            while b[c1] == s[c1]:
                c1 -= 1
            span[2 * p] = c0
            span[2 * p + 1] = c1
            cost += _WIN + _DATA + c1 - c0 + 1
            if first < 0:
                first = p
            last = p
        if cost >= _WIN + _DATA + w * (last - first + 1):
            return self._send(first, last, 0, w - 1)
        sent = 0
        for p in range(first, last + 1):
            c0 = span[2 * p]
            c1 = span[2 * p + 1]
            if c0 <= c1:
                sent += self._send(p, p, c0, c1)
        return sent

    def contrast(self, v):
        # Brightness 0..255 (clamped); returns the bytes sent.
        v = 0 if v < 0 else 255 if v > 255 else int(v)
        if v == self.level:
            return 0
        sent = self._cmd(bytes((0x00, 0x81, v)))
        self.level = v
        return sent

    def power(self, on):
        # Panel on/off (the display RAM is kept); after switching on, the
        # next show() sends the whole frame. Returns the bytes sent.
        on = bool(on)
        if on == self.on:
            return 0
        sent = self._cmd(b"\x00\xaf" if on else b"\x00\xae")
        self.on = on
        if on:
            self._full = True
        return sent

    def _cmd(self, buf):
        dev = self._dev
        if dev is None:
            self._i2c.writeto(self._addr, buf)
        else:
            with dev:
                dev.write(buf)
        return len(buf)

    def _send(self, p0, p1, c0, c1):
        # Window columns c0..c1 of pages p0..p1, then their bytes (contiguous:
        # several pages only ever go full width), then the shadow copy.
        win = self._win
        win[2] = self._x0 + c0
        win[3] = self._x0 + c1
        win[5] = p0
        win[6] = p1
        self._cmd(win)
        i = p0 * self._w + c0
        j = p1 * self._w + c1 + 1
        dev = self._dev
        if dev is None:
            self.fb.write_data(self._all[i:j])  # writevto [40] + the span
        else:
            # Adafruit's buffer is [0x40, frame...]: borrow the byte before the
            # span as its control byte for one transaction, then put it back.
            buf = self._buf
            keep = buf[i]
            buf[i] = 0x40
            try:
                with dev:
                    dev.write(buf, start=i, end=j + 1)
            finally:
                buf[i] = keep
        self._shadow[i:j] = self._all[i:j]
        return _WIN + _DATA + j - i
