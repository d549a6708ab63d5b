"""The words on the device's screen, as the firmware draws them.

``rows(app)`` renders the UI core (``bower.ui.App.render``, the device's own
drawing code) once more into a frame buffer that notes every piece of text
drawn: ``framebuf.text`` calls, the suit glyphs and the large digits of
``bower.gfx``. It gives the screen's eight text rows (one per 8-pixel page),
each as ``(text, selected)``: the title bar first, then the rows, a row
under the cursor (lit across the whole width) marked. The simulator prints
them below its braille picture (``panel``), and tests read screens with
them: what a user sees, without reading pixels.
"""

from __future__ import annotations

from bower_host import simhw

simhw.install()

import framebuf  # noqa: E402

from bower import gfx  # noqa: E402

SUITS = "\u2663\u2666\u2665\u2660"     # the glyphs of gfx.SUIT_CH: clubs, diamonds, hearts, spades
PAGES = 8


class _Noting:
    # A frame buffer that notes each text drawn: (y, x, text, colour).
    def __init__(self):
        self.fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
        self.notes: list[tuple[int, int, str, int]] = []

    def text(self, s, x, y, c=1):
        self.notes.append((y, x, s, c))
        self.fb.text(s, x, y, c)

    def fill_rect(self, x, y, w, h, c):
        if not c:   # text painted over (a toast over the bottom rows) is gone
            self.notes = [n for n in self.notes if not (x <= n[1] < x + w and y <= n[0] < y + h)]
        self.fb.fill_rect(x, y, w, h, c)

    def __getattr__(self, name):
        return getattr(self.fb, name)


def rows(app) -> list[tuple[str, bool]]:
    """The screen ``app`` shows as eight ``(text, selected)`` rows (see the module's doc)."""
    canvas = _Noting()
    suit, big = gfx.suit, gfx.big

    def noted_suit(fb, s, x, y, c=1):
        if fb is canvas:
            canvas.notes.append((y, x, SUITS[s], c))
        suit(fb, s, x, y, c)

    def noted_big(fb, s, x, y, scale=3, c=1):
        if fb is canvas:
            canvas.notes.append((y, x, s, c))
        big(fb, s, x, y, scale, c)

    dirty = app.dirty
    gfx.suit, gfx.big = noted_suit, noted_big
    try:
        app.render(canvas)
    finally:
        gfx.suit, gfx.big = suit, big
        app.dirty = dirty
    lines = [""] * PAGES
    lit = [False] * PAGES
    def page(note):
        return min(max(note[0], 0) // 8, PAGES - 1)

    for y, x, s, c in sorted(canvas.notes, key=lambda n: (page(n), n[1], n[0])):
        p = page((y,))
        col = max(x, 0) // 8
        line = lines[p]
        # At its column; text drawn over text already there goes after it.
        lines[p] = line.ljust(col) if col >= len(line) else line + " "
        lines[p] += s
        # Selected: dark text on a bar lit to the right edge (a menu's
        # cursor row), not a name lit alone (the next dealer).
        lit[p] = lit[p] or (not c and canvas.fb.pixel(127, y) == 1)
    return [(lines[p].rstrip(), lit[p] and p > 0) for p in range(PAGES)]


def panel(screen: list[tuple[str, bool]], lines: int = 4, width: int = 18) -> list[str]:
    """The rows in ``lines`` lines of columns (top to bottom, then the next column), ``>`` at the selected."""
    cells = [(">" if sel else " ") + text for text, sel in screen]
    cols = -(-len(cells) // lines)
    return ["   ".join(cells[c * lines + i].ljust(width) if c * lines + i < len(cells) else ""
                      for c in range(cols)).rstrip() for i in range(lines)]
