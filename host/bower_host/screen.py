"""Pictures of the 128x64 OLED from its display RAM: terminal, text and PNG.

Every function takes the 1024 bytes of an SSD1306's RAM (or a frame buffer)
in MONO_VLSB layout: byte ``page * 128 + x``, bit ``y % 8``, so one source,
the bytes the driver sent (``bower_host.oledsim``), gives every picture.

* ``halfblocks(gddram)``: 32 lines of 128 characters (``▀ ▄ █`` and space),
  two pixel rows per character: the simulator's terminal view at true pixel
  resolution.
* ``braille(gddram)``: 16 lines of 64 braille characters (2x4 dots each),
  every pixel still its own dot: the view that fits an 80x24 terminal.
* ``text_bitmap(gddram)`` / ``from_text_bitmap(text)``: 64 lines of ``#`` and
  ``.``, for golden screens that read well in a diff.
* ``to_image`` / ``png_bytes`` / ``save_png`` / ``from_png``: a scaled-up picture with the
  look of the panel (lit pixels in OLED blue-white on black, a thin dark gap
  between pixels), and back, for golden PNGs and ``--screenshot``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

WIDTH, HEIGHT = 128, 64
FRAME_BYTES = WIDTH * HEIGHT // 8

OLED_WHITE = (198, 232, 255)  # the blue-white of the common 0.96" modules
OLED_BLUE = (64, 170, 255)
OLED_YELLOW = (255, 214, 64)
BACKGROUND = (0, 0, 0)
GAP = (14, 16, 20)

_HALF = (" ", "\u2580", "\u2584", "\u2588")  # none, upper, lower, both


def _frame(gddram) -> bytes:
    data = bytes(gddram)
    if len(data) != FRAME_BYTES:
        raise ValueError("a 128x64 frame is %d bytes, not %d" % (FRAME_BYTES, len(data)))
    return data


def _lit(data: bytes, x: int, y: int) -> int:
    return (data[(y >> 3) * WIDTH + x] >> (y & 7)) & 1


def halfblocks(gddram: bytes) -> str:
    """The frame as 32 lines of 128 half-block characters (no trailing newline)."""
    data = _frame(gddram)
    lines = []
    for y in range(0, HEIGHT, 2):
        row_top = (y >> 3) * WIDTH
        bit_top, bit_bot = y & 7, (y + 1) & 7
        lines.append("".join(
            _HALF[((data[row_top + x] >> bit_top) & 1) | (((data[row_top + x] >> bit_bot) & 1) << 1)]
            for x in range(WIDTH)
        ))
    return "\n".join(lines)


# Braille dot bits by (row, column) in a 2-wide, 4-tall cell (Unicode's dot
# numbering: 1 2 3 7 down the left column, 4 5 6 8 down the right).
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille(gddram: bytes) -> str:
    """The frame as 16 lines of 64 braille characters (no trailing newline).

    Each character holds 2x4 pixels, one dot per lit pixel: the whole
    picture, at true resolution, in a quarter of the cells ``halfblocks`` needs.
    """
    data = _frame(gddram)
    lines = []
    for y in range(0, HEIGHT, 4):
        row = (y >> 3) * WIDTH
        shift = y & 7                  # 4 rows of a cell lie in one 8-row page
        cells = []
        for x in range(0, WIDTH, 2):
            left, right = data[row + x] >> shift, data[row + x + 1] >> shift
            bits = 0
            for r in range(4):
                if left >> r & 1:
                    bits |= _BRAILLE_BITS[r][0]
                if right >> r & 1:
                    bits |= _BRAILLE_BITS[r][1]
            cells.append(chr(0x2800 + bits))
        lines.append("".join(cells))
    return "\n".join(lines)


def text_bitmap(gddram: bytes) -> str:
    """The frame as 64 lines of 128 ``#`` (lit) and ``.`` characters, newline-terminated."""
    data = _frame(gddram)
    return "".join("".join("#" if _lit(data, x, y) else "." for x in range(WIDTH)) + "\n" for y in range(HEIGHT))


def from_text_bitmap(text: str) -> bytes:
    """Parse ``text_bitmap`` output back into 1024 frame bytes.

    :raises ValueError: not 64 lines of 128 ``#``/``.`` characters.
    """
    rows = text.splitlines()
    if len(rows) != HEIGHT or any(len(r) != WIDTH or set(r) - {"#", "."} for r in rows):
        raise ValueError("a text bitmap is 64 lines of 128 '#' or '.' characters")
    out = bytearray(FRAME_BYTES)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                out[(y >> 3) * WIDTH + x] |= 1 << (y & 7)
    return bytes(out)


def to_image(gddram: bytes, scale: int = 4, gap: bool | None = None, color: tuple[int, int, int] = OLED_WHITE,
             two_color: bool = False, brightness: float = 1.0) -> Image.Image:
    """A Pillow RGB image of the frame, each pixel a ``scale`` x ``scale`` square.

    ``gap`` (default: on when ``scale >= 3``) leaves a 1-pixel dark line
    between pixels, as on the real panel. ``two_color`` draws the top 16 rows
    yellow and the rest blue, like the two-colour modules. ``brightness``
    (0..1) dims lit pixels, e.g. ``contrast / 255``.
    """
    from PIL import Image, ImageDraw

    data = _frame(gddram)
    if scale < 1:
        raise ValueError("scale must be at least 1")
    if gap is None:
        gap = scale >= 3
    level = max(0.0, min(1.0, brightness))

    def shade(rgb):
        return tuple(int(round(c * level)) for c in rgb)

    size = (WIDTH * scale, HEIGHT * scale)
    lit = bytes(255 if _lit(data, x, y) else 0 for y in range(HEIGHT) for x in range(WIDTH))
    mask = Image.frombytes("L", (WIDTH, HEIGHT), lit).resize(size, Image.Resampling.NEAREST)
    layer = Image.new("RGB", size, shade(OLED_BLUE if two_color else color))
    if two_color:
        layer.paste(shade(OLED_YELLOW), (0, 0, size[0], 16 * scale))
    img = Image.new("RGB", size, BACKGROUND)
    img.paste(layer, (0, 0), mask)
    if gap:
        draw = ImageDraw.Draw(img)
        for x in range(scale - 1, size[0], scale):
            draw.line([(x, 0), (x, size[1] - 1)], fill=GAP)
        for y in range(scale - 1, size[1], scale):
            draw.line([(0, y), (size[0] - 1, y)], fill=GAP)
    return img


def save_png(gddram: bytes, path: str | os.PathLike, scale: int = 4, **kwargs: Any) -> None:
    """Write ``to_image(gddram, scale, ...)`` to ``path`` as PNG."""
    to_image(gddram, scale, **kwargs).save(path, format="PNG")


def png_bytes(gddram: bytes, scale: int = 4, **kwargs: Any) -> bytes:
    """``to_image(gddram, scale, ...)`` as the bytes of a PNG file."""
    import io

    buf = io.BytesIO()
    to_image(gddram, scale, **kwargs).save(buf, format="PNG")
    return buf.getvalue()


def from_png(path: str | os.PathLike) -> bytes:
    """Read a picture made by ``save_png`` (any scale, gap or colour) back into 1024 frame bytes.

    Each pixel is sampled at the top-left of its square; a pixel is lit when
    it is brighter than a quarter of full scale.

    :raises ValueError: the image is not 128x64 scaled by a whole factor.
    """
    from PIL import Image

    with Image.open(path) as im:
        img = im.convert("L")
    w, h = img.size
    scale = w // WIDTH
    if scale < 1 or w != WIDTH * scale or h != HEIGHT * scale:
        raise ValueError("%s is %dx%d, not 128x64 times a whole scale" % (path, w, h))
    px = img.load()
    out = bytearray(FRAME_BYTES)
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if px[x * scale, y * scale] > 64:
                out[(y >> 3) * WIDTH + x] |= 1 << (y & 7)
    return bytes(out)
