"""The shapes of :mod:`bower_host.framebuf`: ellipses and polygons.

:class:`Shapes` is a part of ``FrameBuffer``: its rasterisation follows
MicroPython 1.27's ``extmod/modframebuf.c`` step for step, drawing through
the frame buffer's clipped pixel, fill and line primitives.
"""

from __future__ import annotations

from operator import index as _int
from typing import TYPE_CHECKING

# ellipse() quadrant mask bits: Q2 Q1 / Q3 Q4.
_ELLIPSE_FILL = 0x10
_ELLIPSE_ALL = 0x0F


def _cdiv(a, b):
    # C integer division (truncates towards zero), as modframebuf.c does.
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class Shapes:
    """``ellipse`` and ``poly``, for ``FrameBuffer`` (which supplies the primitives below)."""

    if TYPE_CHECKING:
        def _setpixel_checked(self, x: int, y: int, col: int, mask: int) -> None: ...
        def _fill_rect(self, x: int, y: int, w: int, h: int, col: int) -> None: ...
        def _line(self, x1: int, y1: int, x2: int, y2: int, col: int) -> None: ...

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
