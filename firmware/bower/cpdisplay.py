# The OLED driver on CircuitPython: Adafruit's adafruit_ssd1306.SSD1306_I2C
# (PyPI adafruit-circuitpython-ssd1306) drawing exactly like MicroPython's
# framebuf, so that every screen has the same pixels on both platforms.
# bower.board imports this module on CircuitPython only.
#
#   oled = cpdisplay.driver(busio.I2C(board.GP5, board.GP4), 0x3C)
#   disp = bower.display.Display(oled)      # bus traffic: see display.py
#
# CircuitPython has no built-in framebuf, so adafruit_ssd1306 draws with
# adafruit_framebuf (pure Python), which differs from MicroPython's where it
# matters here: text() reads a 5x8 font from a file (font5x8.bin, 6 pixels
# per character), rect() clips an outline before drawing it (so a partly
# hidden rectangle gets a border MicroPython does not draw), rect() takes
# "fill" only as a keyword and line() steps with floats. SSD1306_I2C below
# replaces the drawing calls the UI makes (fill, pixel, hline, vline,
# fill_rect, rect, line, text) with MicroPython 1.27's rules
# (extmod/modframebuf.c), working on the MONO_VLSB bytes directly; text()
# uses MicroPython's 8x8 font (bower.cpfont). blit, scroll and the rest stay
# Adafruit's; the UI does not use them. rotation must stay 0.
#
# Where adafruit_ssd1306 found a framebuf module (a CircuitPython build with
# MicroPython's framebuf in it), the driver already draws like MicroPython
# and driver() returns it unchanged.

import adafruit_ssd1306
from bower.cpfont import FONT


def driver(i2c, addr=0x3C, width=128, height=64):
    # The SSD1306 on the busio.I2C ``i2c`` at ``addr``, drawing like
    # MicroPython's framebuf (the display is switched on and cleared).
    if hasattr(adafruit_ssd1306.framebuf, "MVLSBFormat"):  # adafruit_framebuf
        return SSD1306_I2C(width, height, i2c, addr=addr)
    return adafruit_ssd1306.SSD1306_I2C(width, height, i2c, addr=addr)


class SSD1306_I2C(adafruit_ssd1306.SSD1306_I2C):
    # The frame is self.buf (the driver's buffer after its 0x40 control
    # byte), MVLSB: pixel (x, y) is bit y % 8 of byte (y // 8) * stride + x.
    # Heights are multiples of 8 (every SSD1306 panel is).

    def fill(self, c):
        self._fill(0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y >> 3) * self.stride + x
            b = 1 << (y & 7)
            if c is None:
                return 1 if self.buf[i] & b else 0
            if c:
                self.buf[i] |= b
            else:
                self.buf[i] &= ~b
        return None

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        # MicroPython's rect(x, y, w, h, c[, f]): the outline is four clipped
        # lines, so only the edges inside the frame are drawn.
        if f:
            self.fill_rect(x, y, w, h, c)
        else:
            self.fill_rect(x, y, w, 1, c)
            self.fill_rect(x, y + h - 1, w, 1, c)
            self.fill_rect(x, y, 1, h, c)
            self.fill_rect(x + w - 1, y, 1, h, c)

    def fill_rect(self, x, y, w, h, c):
        W = self.width
        H = self.height
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= H or x >= W:
            return
        x1 = x + w if x + w < W else W
        y1 = y + h if y + h < H else H
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        self._fill(x, y, x1 - x, y1 - y, c)

    def _fill(self, x, y, w, h, c):
        # Rows y..y+h-1, columns x..x+w-1 (inside the frame), page by page.
        buf = self.buf
        s = self.stride
        y1 = y + h
        while y < y1:
            top = y & 7
            n = 8 - top if y1 - y > 8 - top else y1 - y
            m = ((1 << n) - 1) << top
            i = (y >> 3) * s + x
            if m == 0xFF:
                v = 0xFF if c else 0
                for k in range(i, i + w):
                    buf[k] = v
            elif c:
                for k in range(i, i + w):
                    buf[k] |= m
            else:
                m ^= 0xFF
                for k in range(i, i + w):
                    buf[k] &= m
            y += n

    def line(self, x1, y1, x2, y2, c):
        # MicroPython's Bresenham: both ends included, clipped per pixel.
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        px = self.pixel
        for _ in range(dx):
            if steep:
                px(y1, x1, c)
            else:
                px(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        px(x2, y2, c)

    def text(self, s, x, y, c=1):
        # MicroPython's text(s, x, y[, c]): 8x8 glyphs side by side, only
        # their lit pixels drawn (colour c), one glyph per byte of the UTF-8
        # text up to a NUL; bytes outside 32..127 draw glyph 127. No line
        # breaks, no size.
        W = self.width
        pages = self.height >> 3
        if not isinstance(s, (bytes, bytearray)):
            s = s.encode()
        end = x + 8 * len(s)
        if end <= 0 or x >= W or y <= -8 or y >= 8 * pages:
            return
        buf = self.buf
        p = y >> 3              # the glyphs' top rows land in page p ...
        sh = y & 7              # ... shifted down by sh; the rest in page p + 1
        top = p * self.stride if p >= 0 else -1
        low = (p + 1) * self.stride if sh and p + 1 < pages else -1
        for ch in s:
            if ch == 0:
                return
            if x >= W:
                return
            if x > -8:
                g = ((ch if 32 <= ch <= 127 else 127) - 32) * 8
                for j in range(8):
                    xx = x + j
                    if 0 <= xx < W:
                        v = FONT[g + j]
                        if top >= 0:
                            b = (v << sh) & 0xFF
                            if b:
                                if c:
                                    buf[top + xx] |= b
                                else:
                                    buf[top + xx] &= ~b
                        if low >= 0:
                            b = v >> (8 - sh)
                            if b:
                                if c:
                                    buf[low + xx] |= b
                                else:
                                    buf[low + xx] &= ~b
            x += 8
