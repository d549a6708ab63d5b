# The building blocks of the screens: a titled menu with a cursor, card
# and suit labels, a hand's keys and rows. bower.home, bower.screens,
# bower.play and bower.quick build on them;
# bower.ui (the app) loads those four and needs nothing here.

from bower import gfx
from bower.keys import UP, DOWN, OK, BACK

SUITS = gfx.SUIT_CH


def card_label(text):
    # "JH" -> "J" + heart glyph; jokers and twos as they are named.
    if text == "HJ":
        return "big joker"
    if text == "LJ":
        return "little joker"
    return text[:-1] + SUITS["CDHS".index(text[-1])]


def suit_of_text(s):
    return SUITS["CDHS".index(s)]


def pad(left, right, width=16):
    # ``left`` and ``right`` on a row, right-aligned: "Bob        3".
    return left + " " * max(1, width - len(left) - len(right)) + right


def reason(g, last):
    # How the last hand (a Hand or a restored game's HandSummary) ended, in
    # a row, from its outcome code (euchre.hand OUTCOMES) and, for a
    # renege, the seat: the engine's words where they fit.
    c = last.outcome
    if c == "renege":
        return "renege: " + g.players[last.renege]
    if c == "best_march":
        return "lone march+best"
    if c == "defend_euchre":
        return "euchred by loner"
    if c == "unpartnered_march":
        return "no-partner march"
    if c == "nines_tens":
        return "nines and tens"
    if c == "throw_in":
        return "throw-in"
    return c.replace("_", " ")   # "made alone", "all passed", "ace no face", ...



class Menu:
    # A titled list of (label, value) rows with a cursor; ``info`` lines sit
    # between the title bar and the rows. ``pick(app, value)`` runs on OK.
    # With ``label``, ``items`` are the values and ``label(value)`` makes the
    # text of the rows on screen only (long lists then hold no strings).

    def __init__(self, title, items, pick=None, cursor=0, info=(), label=None):
        self.title = title
        self.items = items
        self.pick = pick
        self.cursor = cursor
        self.info = info
        self.top = 0
        self.label = label

    def value(self, i):
        it = self.items[i]
        return it if self.label else it[1]

    def text(self, i):
        it = self.items[i]
        return self.label(it) if self.label else it[0]

    def handle(self, app, ev):
        n = len(self.items)
        if ev == UP or ev == DOWN:
            if n:
                self.cursor = (self.cursor + (1 if ev == DOWN else -1)) % n
                app.dirty = True
        elif ev == OK:
            if n:
                self.pick(app, self.value(self.cursor))
        elif ev == BACK:
            app.back()

    def draw(self, app, fb):
        # Text rows one pixel into their 8-pixel pages (y = 9, 17, ...). A
        # ``foot`` (a function giving lines, e.g. what the row under the
        # cursor means) takes the bottom rows, under a line.
        gfx.bar(fb, self.title)
        y = 9
        for line in self.info:
            gfx.text(fb, line, 0, y)
            y += 8
        foot = getattr(self, "foot", None)
        foot = foot() if foot else ()
        rows = (65 - y) // 8 - len(foot)
        c = self.cursor
        if c < self.top:
            self.top = c
        elif c >= self.top + rows:
            self.top = c - rows + 1
        items = self.items
        end = min(len(items), self.top + rows)
        y0 = y
        for i in range(self.top, end):
            gfx.row(fb, self.text(i), y, i == c)
            y += 8
        if self.top:
            _arrow(fb, y0, True)
        if end < len(items):
            _arrow(fb, y0 + 8 * (rows - 1), False)
        if foot:
            y = 64 - 8 * len(foot)
            for x in range(0, 128, 2):
                fb.pixel(x, y, 1)   # a dotted line: not an underline
            for line in foot:
                gfx.text(fb, line, 0, y + 1)
                y += 8


def _arrow(fb, y, up):
    # A small scroll mark at the right edge of the row at y.
    for i in range(3):
        yy = y + 2 + (i if up else 2 - i)
        fb.hline(124 - i, yy, 1 + 2 * i, 2)


def game_keys(menu):
    # The keys of a hand's menu (bower.play, bower.quick): BACK opens the
    # game menu (there is nothing behind it); where a question has a "no"
    # answer (a bid's pass; quick score's other answers), ``pass_id``,
    # BACK gives it.
    plain = Menu.handle

    def handle(app, ev):
        if ev == BACK and menu.pass_id >= 0:
            app.act_id(menu.pass_id)
        elif ev == BACK:
            app.game_menu()
        else:
            plain(menu, app, ev)
    return handle
