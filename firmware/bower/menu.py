# The building blocks of the screens: what a screen is (Screen), a titled
# menu with a cursor, a hand's menu, card and suit labels, a row's tags.
# bower.home, bower.screens, bower.play and bower.quick build on them;
# bower.ui (the app) loads those four and reads only Screen's roles.

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



# A row's value in a hand's menus: an action id (>= 0), one of these tags,
# or a "..." row's (action kind or tag, [action ids]) that opens a list.
MENU = -1       # the game menu
BY_TRICK = -2   # this hand entered trick by trick
ALL_PASS = -3   # everybody left to bid passes
FULL = -4       # quick score: this hand in full
MORE = -5       # "more...": the rare inputs, by kind
DECLARE = -6    # "declare...": the declarations, by kind


class Screen:
    # What a screen is to the app (bower.ui), said by its class: these
    # defaults, which a screen's class overrides.
    game_screen = False   # the game's own: long BACK undoes, long OK opens the game menu
    pass_id = -1          # the action BACK's press edge gives (a bid's pass); -1 none
    home = False          # the home menu: rebuilt when the link changes what it offers
    live = False          # redrawn as the buttons are held (the button test)
    ids = False           # its rows' values are action ids

    def warm(self) -> bool:
        # While the app is idle: prepare this screen's next OK, a step per
        # call; False once nothing is left.
        return False

    def foot(self) -> list:
        # Lines for the bottom rows, under a dotted line (a menu's).
        return []


class Menu(Screen):
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
        # Text rows one pixel into their 8-pixel pages (y = 9, 17, ...); the
        # ``foot`` lines (e.g. what the row under the cursor means) take the
        # bottom rows, under a line.
        gfx.bar(fb, self.title)
        y = 9
        for line in self.info:
            gfx.text(fb, line, 0, y)
            y += 8
        foot = self.foot()
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


class Actions(Menu):
    # A menu whose rows' values are action ids (a "..." row's list).
    ids = True


class GameMenu(Actions):
    # A hand's menu (bower.play, bower.quick): BACK opens the game menu
    # (there is nothing behind it); where a question has a "no" answer (a
    # bid's pass; quick score's other answers), ``pass_id``, BACK gives it.
    game_screen = True

    def __init__(self, title, items, pick, cursor, info, label=None, pass_id=-1):
        Menu.__init__(self, title, items, pick, cursor, info, label)
        self.pass_id = pass_id

    def handle(self, app, ev):
        if ev != BACK:
            Menu.handle(self, app, ev)
        elif self.pass_id >= 0:
            app.act_id(self.pass_id)
        else:
            app.game_menu()
