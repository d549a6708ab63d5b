# Drawing helpers on any object with the MicroPython framebuf API.
#
# Text uses framebuf's built-in 8x8 font; the suits are 7x7 bitmaps drawn in
# an 8x8 cell wherever a string holds one of the characters SUIT_CH[0..3]
# (clubs, diamonds, hearts, spades). Large digits are a 5x7 font scaled with
# fill_rect. Everything here is pure drawing: no state, no hardware.

W = 128
H = 64

# Suit characters inside strings (control codes the font never prints).
SUIT_CH = "\x10\x11\x12\x13"

# 7x7 suit bitmaps, one 7-bit row per byte, top row first, bit 6 leftmost.
_SUITS = (
    b"\x1c\x3e\x1c\x6b\x7f\x6b\x1c",   # clubs: three round leaves on a foot
    b"\x08\x1c\x3e\x7f\x3e\x1c\x08",   # diamonds
    b"\x36\x7f\x7f\x7f\x3e\x1c\x08",   # hearts
    b"\x08\x1c\x3e\x7f\x7f\x08\x1c",   # spades
)

# 5x7 digits (and minus, plus), rows as above with bit 4 leftmost.
_DIGITS = (
    b"\x0e\x11\x13\x15\x19\x11\x0e", b"\x04\x0c\x04\x04\x04\x04\x0e",
    b"\x0e\x11\x01\x02\x04\x08\x1f", b"\x1f\x02\x04\x02\x01\x11\x0e",
    b"\x02\x06\x0a\x12\x1f\x02\x02", b"\x1f\x10\x1e\x01\x01\x11\x0e",
    b"\x06\x08\x10\x1e\x11\x11\x0e", b"\x1f\x01\x02\x04\x08\x08\x08",
    b"\x0e\x11\x11\x0e\x11\x11\x0e", b"\x0e\x11\x11\x0f\x01\x02\x0c",
)
_MINUS = b"\x00\x00\x00\x1f\x00\x00\x00"
_PLUS = b"\x00\x04\x04\x1f\x04\x04\x00"


# _SUITS as horizontal runs of lit dots, flattened (x, y, length) triples:
# one hline each instead of one pixel call per dot. Precomputed (a test
# derives them from _SUITS again).
_SUIT_RUNS = (
    b"\x02\x00\x03\x01\x01\x05\x02\x02\x03\x00\x03\x02\x03\x03\x01\x05\x03\x02\x00\x04\x07\x00\x05\x02"
    b"\x03\x05\x01\x05\x05\x02\x02\x06\x03",
    b"\x03\x00\x01\x02\x01\x03\x01\x02\x05\x00\x03\x07\x01\x04\x05\x02\x05\x03\x03\x06\x01",
    b"\x01\x00\x02\x04\x00\x02\x00\x01\x07\x00\x02\x07\x00\x03\x07\x01\x04\x05\x02\x05\x03\x03\x06\x01",
    b"\x03\x00\x01\x02\x01\x03\x01\x02\x05\x00\x03\x07\x00\x04\x07\x03\x05\x01\x02\x06\x03",
)


def suit(fb, s, x, y, c=1):
    # Draw suit ``s`` (0..3) in the 8x8 cell at x, y.
    r = _SUIT_RUNS[s]
    for k in range(0, len(r), 3):
        fb.hline(x + r[k], y + r[k + 1], r[k + 2], c)


def text(fb, s, x, y, c=1):
    # Like fb.text, but the SUIT_CH characters draw suit bitmaps. Indexing a
    # str makes a new one-character string (an interned-name look-up each on
    # MicroPython), so the characters are read as bytes.
    if "\x10" not in s and "\x11" not in s and "\x12" not in s and "\x13" not in s:
        fb.text(s, x, y, c)
        return
    b = s.encode()
    step = 1 if len(b) == len(s) else 0   # 0: not ASCII, read by character
    start = 0
    n = len(s)
    for i in range(n):
        k = (b[i] if step else ord(s[i])) - 0x10
        if 0 <= k < 4:
            if i > start:
                fb.text(s[start:i], x + 8 * start, y, c)
            suit(fb, k, x + 8 * i, y, c)
            start = i + 1
    if start < n:
        fb.text(s[start:] if start else s, x + 8 * start, y, c)


def fit(*texts):
    # The first of ``texts`` that fits a 16-character row (else the last):
    # a shorter wording instead of a cut name or message.
    for t in texts:
        if len(t) <= 16:
            return t
    return texts[-1]


def wrap(s, width=16):
    # ``s`` as lines of at most ``width`` characters, broken at spaces, or
    # after a hyphen where a space would leave the line less than half full
    # ("Deal 2-1-2-2-1-" / "2-1 kitty 10"); a longer word is split.
    out = []
    while len(s) > width:
        i = s.rfind(" ", 0, width + 1)
        j = s.rfind("-", 0, width)
        if j > i and j > 0 and i < width // 2:
            out.append(s[:j + 1])
            s = s[j + 1:]
        elif i > 0:
            out.append(s[:i])
            s = s[i + 1:]
        else:
            out.append(s[:width])
            s = s[width:]
    out.append(s)
    return out


def center(fb, s, y, c=1, x0=0, w=W):
    # Text centred in the band x0..x0+w.
    text(fb, s, x0 + (w - 8 * len(s)) // 2, y, c)


def bar(fb, s, y=0):
    # An inverted title bar filling the 8-pixel page at y, its text one pixel
    # down: a lit row stays above the glyphs, so they never touch the
    # screen's top edge ("H1" would read "Hi"). Text under a bar starts one
    # pixel into its page (y = 9, 17, ...), leaving a dark row below the bar.
    fb.fill_rect(0, y, W, 8, 1)
    text(fb, s, 0, y + 1, 0)


def row(fb, s, y, selected):
    # A menu row with its text at y (one pixel into its page): inverted
    # when selected, 7 rows high, so a dark row stays between it and the
    # title bar (or a selected row) above.
    if selected:
        fb.fill_rect(0, y, W, 7, 1)
    text(fb, s, 0, y, 0 if selected else 1)


def big_width(s, scale):
    # Width in pixels of big text ``s`` (digits, '-', '+').
    return len(s) * 6 * scale - scale


def big(fb, s, x, y, scale=3, c=1):
    # Draw digits (and '-', '+') from the 5x7 font, ``scale`` pixels per dot.
    for ch in s:
        if ch == "-":
            rows = _MINUS
        elif ch == "+":
            rows = _PLUS
        else:
            rows = _DIGITS[ord(ch) - 48]
        for j in range(7):
            r = rows[j]
            i = 0
            while i < 5:
                if r & (16 >> i):
                    # Merge runs of lit dots into one rectangle.
                    k = i + 1
                    while k < 5 and r & (16 >> k):
                        k += 1
                    fb.fill_rect(x + i * scale, y + j * scale, (k - i) * scale, scale, c)
                    i = k
                else:
                    i += 1
        x += 6 * scale
