"""The fast text path of :mod:`bower_host.framebuf`: MicroPython's 8x8 font on a MONO_VLSB buffer.

:class:`VlsbText` is a part of ``FrameBuffer``: ``text`` on the SSD1306
layout draws a whole string with a few byte-string translations instead of
pixel by pixel.
"""

from __future__ import annotations

from bower.cpfont import FIRST as _FONT_FIRST
from bower.cpfont import FONT as _FONT

_FONT_DEFAULT = 127  # characters outside 32..127 draw as glyph 127


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


class VlsbText:
    """``FrameBuffer._text_vlsb``, over the buffer fields ``FrameBuffer`` sets."""

    _fb_w: int
    _fb_h: int
    _fb_buf: bytearray | memoryview
    _fb_stride: int

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
