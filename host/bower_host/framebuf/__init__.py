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

Usage (``bower_host.simhw.install()`` makes it importable as ``framebuf``)::

    import framebuf
    buf = bytearray(128 * 64 // 8)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    fb.text("Hello", 0, 0, 1)
    fb.rect(0, 10, 20, 8, 1, True)

Every format of the C module is supported; MONO_VLSB (the SSD1306 layout)
has fast paths for fills and text.

``FrameBuffer`` is built here (buffer formats, pixels, fills, lines, blit,
scroll, text) from two parts: :mod:`.shapes` (ellipse, poly) and
:mod:`.font` (the MONO_VLSB text path).
"""

from operator import index as _int

from bower.cpfont import FIRST as _FONT_FIRST
from bower.cpfont import FONT as _FONT
from bower_host.framebuf.font import _FONT_DEFAULT, VlsbText
from bower_host.framebuf.shapes import Shapes

# Format constants: the values of the C module.
MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6


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


class FrameBuffer(Shapes, VlsbText):
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
