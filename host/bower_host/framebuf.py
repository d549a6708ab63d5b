"""MicroPython's ``framebuf`` module in pure Python, for CPython.

The device draws every screen with ``framebuf.FrameBuffer`` (the SSD1306
driver is a subclass of it). The simulator and the tests run the same drawing
code under CPython through this module, and get the same pixels: every
primitive follows MicroPython 1.27's ``extmod/modframebuf.c`` step for step
(clipping, Bresenham lines, ellipse and polygon rasterisation, blit with a
colour key and palette, scroll), and ``text`` uses MicroPython's own 8x8 font,
extracted from a real MicroPython by ``tools/extract_font.py``. A test renders
a battery of drawings under the WebAssembly MicroPython and with this module
and compares the buffers byte for byte.

It also refuses what MicroPython refuses, so that simulator runs catch device
bugs: float coordinates or colours (``TypeError``), keyword arguments
(``rect(..., f=True)``), a ``bytearray`` passed to ``text``, a read-only or
too small buffer.

Usage (``bower_host.devicesim.install()`` makes it importable as ``framebuf``)::

    import framebuf
    buf = bytearray(128 * 64 // 8)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    fb.text("Hello", 0, 0, 1)
    fb.rect(0, 10, 20, 8, 1, True)

Every format of the C module is supported; MONO_VLSB (the SSD1306 layout)
has fast paths for fills and text.
"""

from operator import index as _int

from bower.cpfont import FIRST as _FONT_FIRST
from bower.cpfont import FONT as _FONT

# Format constants: the values of the C module.
MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

# ellipse() quadrant mask bits: Q2 Q1 / Q3 Q4.
_ELLIPSE_FILL = 0x10
_ELLIPSE_ALL = 0x0F

_FONT_DEFAULT = 127  # characters outside 32..127 draw as glyph 127


def _cdiv(a, b):
    # C integer division (truncates towards zero), as modframebuf.c does.
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _str_bytes(s):
    # What mp_obj_str_get_str accepts (str or bytes), up to the first NUL.
    if isinstance(s, str):
        data = s.encode("utf-8", "surrogatepass")
    elif isinstance(s, bytes):
        data = s
    else:
        raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
    nul = data.find(b"\0")
    return data if nul < 0 else data[:nul]


def _writable_bytes(buffer):
    # A writable byte view of any buffer-protocol object (bytearray as is).
    if type(buffer) is bytearray:
        return buffer
    try:
        mv = memoryview(buffer)
    except TypeError:
        raise TypeError("object with buffer protocol required") from None
    if mv.readonly:
        raise TypeError("object with buffer protocol required")
    return mv.cast("B") if (mv.format != "B" or mv.ndim != 1) else mv


class FrameBuffer:
    """A frame buffer over ``buffer``: ``FrameBuffer(buffer, width, height, format[, stride])``.

    :raises ValueError: bad size, too small a buffer or an unknown format.
    :raises TypeError: a read-only buffer.
    """

    # Attribute names are prefixed so that subclasses (the SSD1306 drivers set
    # width, height, buffer, pages ...) never collide with them.
    def __init__(self, buffer, width, height, format, stride=None, /):
        width, height, format = _int(width), _int(height), _int(format)
        stride = width if stride is None else _int(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF or stride < width:
            raise ValueError()
        bpp, height_req, width_req, strides_req = 1, height, width, height - 1
        if format == MVLSB:
            height_req = (height + 7) & ~7
            strides_req = height_req - 8
        elif format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
            width_req = (width + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
            width_req = (width + 3) & ~3
            bpp = 2
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
            width_req = (width + 1) & ~1
            bpp = 4
        elif format == GS8:
            bpp = 8
        elif format == RGB565:
            bpp = 16
        else:
            raise ValueError("invalid format")
        data = _writable_bytes(buffer)
        if (strides_req * stride + (height_req - strides_req) * width_req) * bpp // 8 > len(data):
            raise ValueError()
        self._fb_obj = buffer
        self._fb_buf = data
        self._fb_w = width
        self._fb_h = height
        self._fb_stride = stride
        self._fb_fmt = format

    def __buffer__(self, flags):
        # Python 3.12+: bytes(fb) / memoryview(fb), as on MicroPython.
        return memoryview(self._fb_obj)

    # --- pixels of each format (modframebuf.c's setpixel/getpixel) ---------

    def _setpixel(self, x, y, col):
        buf, fmt, stride = self._fb_buf, self._fb_fmt, self._fb_stride
        if fmt == MVLSB:
            i = (y >> 3) * stride + x
            bit = 1 << (y & 7)
            buf[i] = (buf[i] | bit) if col else (buf[i] & ~bit)
        elif fmt == MONO_HLSB or fmt == MONO_HMSB:
            i = (x + y * stride) >> 3
            bit = 1 << ((x & 7) if fmt == MONO_HMSB else 7 - (x & 7))
            buf[i] = (buf[i] | bit) if col else (buf[i] & ~bit)
        elif fmt == RGB565:
            i = (x + y * stride) * 2
            col &= 0xFFFF
            buf[i] = col & 0xFF
            buf[i + 1] = col >> 8
        elif fmt == GS2_HMSB:
            i = (x + y * stride) >> 2
            shift = (x & 3) << 1
            buf[i] = ((col & 3) << shift) | (buf[i] & ~(3 << shift) & 0xFF)
        elif fmt == GS4_HMSB:
            i = (x + y * stride) >> 1
            if x % 2:
                buf[i] = (col & 0x0F) | (buf[i] & 0xF0)
            else:
                buf[i] = ((col << 4) & 0xF0) | (buf[i] & 0x0F)
        else:  # GS8
            buf[x + y * stride] = col & 0xFF

    def _getpixel(self, x, y):
        buf, fmt, stride = self._fb_buf, self._fb_fmt, self._fb_stride
        if fmt == MVLSB:
            return (buf[(y >> 3) * stride + x] >> (y & 7)) & 1
        if fmt == MONO_HLSB or fmt == MONO_HMSB:
            offset = (x & 7) if fmt == MONO_HMSB else 7 - (x & 7)
            return (buf[(x + y * stride) >> 3] >> offset) & 1
        if fmt == RGB565:
            i = (x + y * stride) * 2
            return buf[i] | (buf[i + 1] << 8)
        if fmt == GS2_HMSB:
            return (buf[(x + y * stride) >> 2] >> ((x & 3) << 1)) & 3
        if fmt == GS4_HMSB:
            b = buf[(x + y * stride) >> 1]
            return (b & 0x0F) if x % 2 else (b >> 4)
        return buf[x + y * stride]

    def _setpixel_checked(self, x, y, col, mask):
        if mask and 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            self._setpixel(x, y, col)

    def _fill_rect_raw(self, x, y, w, h, col):
        # Inside the buffer already; the format's fill_rect.
        if self._fb_fmt != MVLSB:
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    self._setpixel(xx, yy, col)
            return
        buf, stride = self._fb_buf, self._fb_stride
        yend = y + h
        while y < yend:
            top = y & 7
            n = min(8 - top, yend - y)
            mask = ((1 << n) - 1) << top
            i = (y >> 3) * stride + x
            if mask == 0xFF:
                buf[i : i + w] = (b"\xff" if col else b"\x00") * w
            else:
                seg = int.from_bytes(buf[i : i + w], "little")
                bits = int.from_bytes(bytes((mask,)) * w, "little")
                seg = (seg | bits) if col else (seg & ~bits)
                buf[i : i + w] = seg.to_bytes(w, "little")
            y += n

    def _fill_rect(self, x, y, w, h, col):
        # modframebuf.c fill_rect(): clip, then fill.
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._fb_h or x >= self._fb_w:
            return
        xend = min(self._fb_w, x + w)
        yend = min(self._fb_h, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_rect_raw(x, y, xend - x, yend - y, col)

    def _line(self, x1, y1, x2, y2, col):
        w, h = self._fb_w, self._fb_h
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx, sx = -dx, -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy, sy = -dy, -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < w and 0 <= x1 < h:
                    self._setpixel(y1, x1, col)
            elif 0 <= x1 < w and 0 <= y1 < h:
                self._setpixel(x1, y1, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            self._setpixel(x2, y2, col)

    # --- the public API (positional arguments only, as in MicroPython) ------

    def fill(self, c, /):
        """Fill the whole buffer with colour ``c``."""
        self._fill_rect_raw(0, 0, self._fb_w, self._fb_h, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        """Fill a ``w`` x ``h`` rectangle at ``(x, y)`` (clipped)."""
        self._fill_rect(_int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=None, /):
        """Get the pixel at ``(x, y)`` (None outside), or set it to ``c``."""
        x, y = _int(x), _int(y)
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            if c is None:
                return self._getpixel(x, y)
            self._setpixel(x, y, _int(c))
        return None

    def hline(self, x, y, w, c, /):
        """A horizontal line of ``w`` pixels from ``(x, y)``."""
        self._fill_rect(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        """A vertical line of ``h`` pixels from ``(x, y)``."""
        self._fill_rect(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        """A rectangle outline, or filled when ``f`` is true."""
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c, /):
        """A line from ``(x1, y1)`` to ``(x2, y2)`` inclusive (Bresenham)."""
        self._line(_int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def ellipse(self, x, y, xr, yr, c, f=False, m=_ELLIPSE_ALL, /):
        """An ellipse centred at ``(x, y)``; ``f`` fills it, ``m`` masks quadrants (bit 0 = Q1 top right)."""
        cx, cy, xr, yr, col = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = (_ELLIPSE_FILL if f else 0) | (_int(m) & _ELLIPSE_ALL)
        if xr == 0 and yr == 0:
            self._setpixel_checked(cx, cy, col, mask & _ELLIPSE_ALL)
            return
        two_a2, two_b2 = 2 * xr * xr, 2 * yr * yr
        x, y = xr, 0
        xchange, ychange = yr * yr * (1 - 2 * xr), xr * xr
        err, stop_x, stop_y = 0, two_b2 * xr, 0
        while stop_x >= stop_y:  # 1st set of points, y' > -1
            self._ellipse_points(cx, cy, x, y, col, mask)
            y += 1
            stop_y += two_a2
            err += ychange
            ychange += two_a2
            if 2 * err + xchange > 0:
                x -= 1
                stop_x -= two_b2
                err += xchange
                xchange += two_b2
        x, y = 0, yr
        xchange, ychange = yr * yr, xr * xr * (1 - 2 * yr)
        err, stop_x, stop_y = 0, 0, two_a2 * yr
        while stop_x <= stop_y:  # 2nd set of points, y' < -1
            self._ellipse_points(cx, cy, x, y, col, mask)
            x += 1
            stop_x += two_b2
            err += xchange
            xchange += two_b2
            if 2 * err + ychange > 0:
                y -= 1
                stop_y -= two_a2
                err += ychange
                ychange += two_a2

    def _ellipse_points(self, cx, cy, x, y, col, mask):
        if mask & _ELLIPSE_FILL:
            if mask & 1:
                self._fill_rect(cx, cy - y, x + 1, 1, col)
            if mask & 2:
                self._fill_rect(cx - x, cy - y, x + 1, 1, col)
            if mask & 4:
                self._fill_rect(cx - x, cy + y, x + 1, 1, col)
            if mask & 8:
                self._fill_rect(cx, cy + y, x + 1, 1, col)
        else:
            self._setpixel_checked(cx + x, cy - y, col, mask & 1)
            self._setpixel_checked(cx - x, cy - y, col, mask & 2)
            self._setpixel_checked(cx - x, cy + y, col, mask & 4)
            self._setpixel_checked(cx + x, cy + y, col, mask & 8)

    def poly(self, x, y, coords, c, f=False, /):
        """A polygon of the points in ``coords`` (an ``array('h', ...)`` or other buffer) offset by ``(x, y)``."""
        x, y = _int(x), _int(y)
        try:
            pts = memoryview(coords).tolist()
        except TypeError:
            raise TypeError("object with buffer protocol required") from None
        n = len(pts) // 2
        if n == 0:
            return
        col = _int(c)
        if f:
            self._poly_fill(x, y, pts, n, col)
            return
        px1, py1 = pts[0], pts[1]
        i = n * 2 - 1
        while True:
            py2, px2 = pts[i], pts[i - 1]
            i -= 2
            self._line(x + px1, y + py1, x + px2, y + py2, col)
            px1, py1 = px2, py2
            if i < 0:
                break

    def _poly_fill(self, x, y, pts, n, col):
        # An integer version of http://alienryderflex.com/polygon_fill/, as in C.
        ys = pts[1 : 2 * n : 2]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = pts[0], pts[1]
            i = n * 2 - 1
            while True:
                py2, px2 = pts[i], pts[i - 1]
                i -= 2
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    nodes.append(_cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32))
                elif row == max(py1, py2):
                    if py1 < py2:
                        self._setpixel_checked(x + px2, y + py2, col, 1)
                    elif py2 < py1:
                        self._setpixel_checked(x + px1, y + py1, col, 1)
                    else:
                        self._line(x + px1, y + py1, x + px2, y + py2, col)
                px1, py1 = px2, py2
                if i < 0:
                    break
            nodes.sort()
            for k in range(0, len(nodes) - 1, 2):
                self._fill_rect(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, col)

    def blit(self, fbuf, x, y, key=-1, palette=None, /):
        """Draw ``fbuf`` (a FrameBuffer or a ``(buffer, width, height, format[, stride])`` tuple) at ``(x, y)``.

        Pixels of colour ``key`` are skipped; ``palette`` (a one-row frame
        buffer) maps source colours to destination colours.
        """
        src = _as_framebuffer(fbuf)
        pal = None if palette is None else _as_framebuffer(palette)
        x, y, key = _int(x), _int(y), _int(key) & 0xFFFFFFFF
        w, h = self._fb_w, self._fb_h
        sw, sh = src._fb_w, src._fb_h
        if x >= w or y >= h or -x >= sw or -y >= sh:
            return
        x0end, y0end = min(w, x + sw), min(h, y + sh)
        x0, sy = max(0, x), max(0, -y)
        sx0 = max(0, -x)
        getpix, setpix = src._getpixel, self._setpixel
        for y0 in range(max(0, y), y0end):
            sx = sx0
            for cx in range(x0, x0end):
                col = getpix(sx, sy)
                if pal is not None:
                    col = pal._getpixel(col, 0)
                if col != key:
                    setpix(cx, y0, col)
                sx += 1
            sy += 1

    def scroll(self, xstep, ystep, /):
        """Shift the contents by ``(xstep, ystep)``; uncovered pixels keep their old value."""
        xstep, ystep = _int(xstep), _int(ystep)
        w, h = self._fb_w, self._fb_h
        if xstep < 0:
            sx, xend, dx = 0, w + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = w - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, h + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = h - 1, ystep - 1, -1
            if yend >= y:
                return
        get, put = self._getpixel, self._setpixel
        while y != yend:
            for x in range(sx, xend, dx):
                put(x, y, get(x - xstep, y - ystep))
            y += dy

    def text(self, s, x, y, c=1, /):
        """Draw ``s`` with the built-in 8x8 font, top left at ``(x, y)``; only set pixels are drawn."""
        data = _str_bytes(s)
        x, y, c = _int(x), _int(y), _int(c)
        if self._fb_fmt == MVLSB:
            self._text_vlsb(data, x, y, c)
            return
        w, h = self._fb_w, self._fb_h
        for ch in data:
            g = ((ch if 32 <= ch <= 127 else _FONT_DEFAULT) - _FONT_FIRST) * 8
            for j in range(8):
                if 0 <= x < w:
                    v = _FONT[g + j]
                    yy = y
                    while v:
                        if v & 1 and 0 <= yy < h:
                            self._setpixel(x, yy, c)
                        v >>= 1
                        yy += 1
                x += 1

    def _text_vlsb(self, data, x, y, c):
        # The string's glyph columns as one byte string, clipped to the
        # buffer, shifted into the one or two pages the text row covers
        # (bytes.translate), then OR-ed in (or cleared, for colour 0).
        w, h, buf, stride = self._fb_w, self._fb_h, self._fb_buf, self._fb_stride
        first = max(0, -x)
        end = min(8 * len(data), w - x)
        if first >= end:
            return
        cols = b"".join([_GLYPHS[ch] for ch in data])[first:end]
        x += first
        n = end - first
        pages = (h + 7) >> 3
        last = (1 << (h & 7)) - 1 if h & 7 else 0xFF  # rows that exist in the last page
        shift = y & 7
        for page, table in ((y >> 3, _SHL[shift]), ((y >> 3) + 1, _SHR[shift] if shift else None)):
            if table is None or not 0 <= page < pages:
                continue
            part = cols.translate(table)
            if page == pages - 1 and last != 0xFF:
                part = part.translate(_and_table(last))
            i = page * stride + x
            seg = int.from_bytes(buf[i : i + n], "little")
            bits = int.from_bytes(part, "little")
            seg = (seg | bits) if c else (seg & ~bits)
            buf[i : i + n] = seg.to_bytes(n, "little")


# Text tables: each byte value's 8 glyph columns, and byte maps that shift a
# glyph column into the upper (<<) or lower (>>) page of an unaligned row.
_GLYPHS = [
    _FONT[((b if 32 <= b <= 127 else _FONT_DEFAULT) - _FONT_FIRST) * 8 :][:8] for b in range(256)
]
_SHL = [bytes(((v << s) & 0xFF) for v in range(256)) for s in range(8)]
_SHR = [bytes((v >> (8 - s)) if s else 0 for v in range(256)) for s in range(8)]
_AND = {}


def _and_table(mask):
    table = _AND.get(mask)
    if table is None:
        table = _AND[mask] = bytes(v & mask for v in range(256))
    return table


def _as_framebuffer(obj):
    # blit()'s source/palette: a FrameBuffer, or a tuple/list describing one.
    if isinstance(obj, FrameBuffer):
        return obj
    if not isinstance(obj, (tuple, list)):
        raise TypeError("object '%s' isn't a tuple or list" % type(obj).__name__)
    if not 4 <= len(obj) <= 5:
        raise ValueError()
    return FrameBuffer(*obj)


def FrameBuffer1(buffer, width, height, stride=None, /):
    """The old constructor: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buffer, width, height, MVLSB, width if stride is None else stride)
