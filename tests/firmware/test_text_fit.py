"""Every screen legible at arm's length: no text leaves the screen or its
box, and no player's name or message is cut short (issue 13, section 6).

Every screen of every variant is drawn after every key press: whole
table-mode games of Classic, Five-Handed, Call-Your-Partner and Ultimate
(``uikit.table_game`` events entered by key presses, with and without house
rules, so hand results, rare inputs, game over and the after-game menu come
by), the setup menus (every option row and value, players, seat picker,
dealer, the black-jack draw), settings, button test, about, the game menu,
scores, the rules view, undo, the "New game?" question and long notes
(toasts). The players have the longest names the device takes: 8 printable
characters (``bower.check_names``, the ROSTER command of
host/PROTOCOL.md), "WWWWWWWW" the widest.

What counts as a fault, and how it is seen. ``gfx.text`` (which all screen
text goes through) and ``gfx.big`` are wrapped to record every string and
large number with its place, before anything splits or clips it:

* a text leaves the screen: x < 0, x + 8 * len > 128, or its glyph rows
  (y .. y + 6) outside 0..63; framebuf would clip it silently;
* a text leaves its box: it overlaps another text or a large number;
* a text is cut: framebuf clipping is caught above; cutting *before*
  drawing (``name[:3]``, ``title[:16]``) is caught two ways. (1) Where a
  player's name shows, all of it shows: every occurrence of the first three
  letters of a name (the shortest cut the UI ever made) in a drawn text must
  go on with the rest of that name (no other word on screen starts like
  these names). Checking "every screen that names one player shows the full
  name" would need to know which player each screen is about; the prefix
  check needs nothing but the names and catches every cut of three letters
  or more, whatever the screen. (2) A title bar or menu row is handed a
  string that fits its row (``gfx.bar`` and ``gfx.row`` used to slice at 16
  characters, which hid "Five-Handed rule", "no score: misdea" from any
  check on what was drawn). (3) A toast shows its whole message, wrapped
  onto as many rows as it needs ("g0001 torn line " was cut at 16).

The checks were run against the code before this change and fail there
(names cut to three letters in the standings and Five-Handed "took none"
rows and to five in "Trick 2 X Barth", "OK: Bartholo deals" and "Bartholo
(dealer):" off the screen, titles sliced, toasts cut at 16 characters).
The board's own error screen (bower.board, fb.text directly) is not a UI
screen and not covered. Runs on CPython only (it patches bower.gfx).

The last tests check the rest of the section: the dealer "picks up" (not
"order up"), each option's explanation under the options menu, and "New
game" asking before it leaves a game in progress.
"""

import sys

import pytest

sys.path.insert(0, "tests/firmware")

from uikit import Driver, MemStore, Rng, table_game, hands_of, set_quick
from bower.ui import App
from bower import gfx
from bower import keys as K
from bower import check_names

# The longest names a roster holds (8 characters); the first three letters
# of each begin no other word the UI shows. One has a space inside (names
# may), so a wrapped line must not break it. (Six of them: Six-Handed.
# "Lou Anne", not "Mary Ann": Three-Handed's "March pts" begins "Mar".)
NAMES = ["WWWWWWWW", "Bartholo", "Lou Anne", "Quentina", "Zebedee9", "Fiorella"]


def test_the_names_are_the_longest_a_roster_takes():
    assert check_names(list(NAMES)) == NAMES
    assert all(len(n) == 8 for n in NAMES)
    with pytest.raises(ValueError):
        check_names(["Bartholom"])


class Sink:
    # A framebuf that draws nothing (the recording happens in gfx).
    def fill(self, c):
        pass

    def fill_rect(self, x, y, w, h, c):
        pass

    def rect(self, x, y, w, h, c, f=False):
        pass

    def hline(self, x, y, w, c):
        pass

    def vline(self, x, y, h, c):
        pass

    def line(self, x0, y0, x1, y1, c):
        pass

    def pixel(self, x, y, c=None):
        pass

    def text(self, s, x, y, c=1):
        pass


class Watch:
    # What one render drew: texts as (x, y, s), large numbers as boxes
    # (x, y, w, h), and strings too long for the bar or row they were given.
    def __init__(self):
        self.texts = []
        self.bigs = []
        self.cut = []
        self.screens = 0
        self.seen = set()


@pytest.fixture
def watch(monkeypatch):
    w = Watch()
    text, big, bar, row = gfx.text, gfx.big, gfx.bar, gfx.row

    def text_(fb, s, x, y, c=1):
        w.texts.append((x, y, s))
        text(fb, s, x, y, c)

    def big_(fb, s, x, y, scale=3, c=1):
        w.bigs.append((x, y, gfx.big_width(s, scale), 7 * scale))
        big(fb, s, x, y, scale, c)

    def bar_(fb, s, y=0):
        w.seen.add(s)
        if len(s) > 16:
            w.cut.append(s)
        bar(fb, s, y)

    def row_(fb, s, y, selected):
        if len(s) > 16:
            w.cut.append(s)
        row(fb, s, y, selected)

    monkeypatch.setattr(gfx, "text", text_)
    monkeypatch.setattr(gfx, "big", big_)
    monkeypatch.setattr(gfx, "bar", bar_)
    monkeypatch.setattr(gfx, "row", row_)
    return w


def _overlap(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _render(w, app):
    w.texts, w.bigs, w.cut = [], [], []
    app.render(Sink())
    return list(w.texts)


def look(w, app, where):
    # Draw the screen (without its toast, then with it) and check it.
    w.screens += 1
    top = app.stack[-1]
    w.seen.add(getattr(top, "title", type(top).__name__))
    toast = app.toast
    app.toast = ""
    try:
        texts = _render(w, app)
    finally:
        app.toast = toast
    where = "%s on %r" % (where, [t[2] for t in texts])
    assert not w.cut, "cut to fit a row: %r, %s" % (w.cut, where)
    boxes = []
    for x, y, s in texts:
        assert x >= 0 and x + 8 * len(s) <= 128 and 0 <= y and y + 7 <= 64, \
            "%r at x=%d y=%d leaves the screen, %s" % (s, x, y, where)
        for n in NAMES:
            i = s.find(n[:3])
            while i >= 0:
                assert s.startswith(n, i), "%r cut in %r, %s" % (n, s, where)
                i = s.find(n[:3], i + len(n))
        if s.strip():
            box = (x, y, 8 * len(s), 7)
            for b in boxes + w.bigs:
                assert not _overlap(box, b), "%r overlaps %r, %s" % (s, b, where)
            boxes.append(box)
    if toast:
        drawn = _render(w, app)[len(texts):]
        for x, y, s in drawn:
            assert x >= 0 and x + 8 * len(s) <= 128 and 0 <= y and y + 7 <= 64, \
                "toast line %r at x=%d y=%d leaves the screen" % (s, x, y)
        assert "".join([s for _, _, s in drawn]).replace(" ", "") == toast.replace(" ", ""), \
            "toast %r shown as %r" % (toast, [s for _, _, s in drawn])


class CheckingDriver(Driver):
    # Looks at the screen after every key press.

    def __init__(self, watch, info=None):
        store = MemStore(NAMES)
        app = App(store, info or {"version": "test", "device": "e6614103e7"}, Rng(7).randrange)
        Driver.__init__(self, app, store)
        self.watch = watch
        look(watch, self.app, "start")

    def press(self, ev, n=1):
        for _ in range(n):
            Driver.press(self, ev)
            look(self.watch, self.app, "after %s" % ev)


def walk(d):
    # Move the cursor over every row of the menu on top and back.
    n = len(d.top().items)
    d.press(K.DOWN, n)
    d.press(K.UP, n)


# ----- whole games ---------------------------------------------------------------

# (variant, seed, options): five seeds of each, seed * 10 + k.
CONFIGS = [
    ("classic", 1, None),
    ("classic", 3, {"farmers": True, "defend_alone": True, "partners_best": True,
                    "canadian": True, "std": True, "ace_no_face": True}),
    ("classic", 8, {"joker": True, "renege_deduct": True, "loner_lead": "LEFT_OF_LONER",
                    "farmers": True, "farmers_nines_only": True, "farmers_no_call": True}),
    ("five", 4, None),
    ("five", 9, {"jokers": True, "four_eights": True, "alternate_ending": True}),
    ("callpartner", 5, None),
    ("callpartner", 10, {"play_on": True, "std": True}),
    ("ultimate", 6, None),
    # issue 26: Three-, Six- and Two-Handed
    ("three", 11, None),
    ("three", 12, {"alone": True, "march": 2, "min_rank": 7, "std": True, "play_on": True}),
    ("six", 13, None),
    ("six", 14, {"jokers": True, "std": True}),
    ("two", 15, None),
    ("two", 16, {"min_rank": 9, "joker": True, "std": True}),
]
GAMES = [(v, s * 10 + k, o) for v, s, o in CONFIGS for k in range(5)]


def players(variant):
    return NAMES[:{"five": 5, "callpartner": 5, "three": 3, "six": 6, "two": 2}.get(variant, 4)]


@pytest.mark.parametrize("variant,seed,options", GAMES,
                         ids=["%s-%d" % (v, s) for v, s, _ in GAMES])
def test_every_screen_of_a_whole_game_fits(watch, variant, seed, options):
    events, ref = table_game(variant, seed, options)
    d = CheckingDriver(watch)
    d.new_game(variant, options, players(variant))
    d.press(K.BACK_LONG)                      # "nothing to undo"
    hands = 0
    for i, e in enumerate(events):
        d.enter(e)
        g = d.app.game
        if i == 2:
            d.press(K.BACK_LONG)              # undo ("undone"), then again
            d.enter(e)
        if g.hand_no != hands and not g.result and hands < 3:
            hands = g.hand_no
            game_menu_tour(d)
    assert d.app.game.result == ref.result
    d.press(K.OK)                             # the game-over screen: what next?
    walk(d)
    assert {"HandOver", "GameOver", "Game menu", "Rules", "Scores", "Game over"} <= watch.seen


QUICK_GAMES = [(v, s * 10 + 1, o) for v, s, o in CONFIGS]


@pytest.mark.parametrize("variant,seed,options", QUICK_GAMES,
                         ids=["%s-%d" % (v, s) for v, s, _ in QUICK_GAMES])
def test_every_screen_of_a_game_in_quick_score_fits(watch, variant, seed, options):
    # The same games told quick (bower.quick), every "..." list opened at
    # the first hands; a hand quick score has no input for, in full.
    events, ref = table_game(variant, seed, options)
    hands, _ = hands_of(variant, events, options)
    d = CheckingDriver(watch)
    d.new_game(variant, options, players(variant), quick=True)
    quick = True
    for i, (full, told, scores) in enumerate(hands):
        if (told is not None) != quick:
            quick = told is not None
            set_quick(d, quick)
        for e in told or full:
            if i < 3 and quick:
                open_every_submenu(d)
            d.enter(e)
        assert d.app.game.scores == scores
    assert d.app.game.result == ref.result
    assert {"Who made trump?", "How did it end?"} & set(watch.seen) or watch.seen


def game_menu_tour(d):
    # The game menu and what it opens, then back to the game.
    d.press(K.OK_LONG)
    walk(d)
    d.choose("scores")
    d.press(K.OK)
    d.choose("rules")
    d.press(K.DOWN, 20)
    d.press(K.OK)
    d.choose("game")


def home(d):
    d.press(K.OK_LONG)
    d.choose("home")


def open_every_submenu(d):
    # Each "..." row of the menu on top, and what it opens, then back.
    for _label, v in d.rows():
        if isinstance(v, tuple) and v[0] != "passes":   # ("passes", n): a shortcut, not a submenu
            d.choose(v)
            walk(d)
            open_every_submenu(d)
            d.press(K.BACK)


def test_rare_input_menus_fit(watch):
    # Declarations (kinds, then who), the trick-by-trick "more..." (partner
    # is, claim, throw-in, renege, misdeal: kinds, then who), the makers'
    # count with its rare rows, the other upcards.
    d = CheckingDriver(watch)
    d.new_game("classic", {"farmers": True, "ace_no_face": True}, NAMES[:4])
    d.enter("up H")
    open_every_submenu(d)
    home(d)
    d.new_game("five", None, NAMES[:5])
    open_every_submenu(d)                     # twos up, misdeal
    for e in ("up S", "pass", "order", "partner JS"):
        d.enter(e)
    open_every_submenu(d)                     # makers took N, partner is..., claim...
    d.choose("by trick")
    open_every_submenu(d)                     # more...
    home(d)
    d.new_game("ultimate", None, NAMES[:4])
    d.enter("up C")
    open_every_submenu(d)                     # 2s & 3s: straight to who
    assert {"Declare", "Who declares?", "Also", "Who claims?", "Who throws in?",
            "Who reneged?", "Partner card?", "Upcard?"} <= watch.seen


# ----- setup, settings and the rest -----------------------------------------------

def test_every_setup_screen_fits(watch):
    d = CheckingDriver(watch)
    walk(d)
    d.choose("new")
    for variant in ("classic", "five", "callpartner", "ultimate", "three", "six", "two"):
        walk(d)
        d.choose(variant)
        options_tour(d)
        d.choose("next")                      # players
        walk(d)
        for seat in range(len(players(variant))):
            d.choose(seat)
            walk(d)
            d.choose(NAMES[seat])
        d.choose("next")                      # first dealer
        walk(d)
        d.choose(-1)                          # the first black jack
        d.press(K.DOWN, 3)
        d.press(K.OK)                         # the game starts
        assert d.app.game.rules.name == variant
        d.press(K.OK_LONG)
        d.choose("home")
        d.choose("new")                       # a game is on: sure?
        assert d.top().title == "New game?"
        walk(d)
        d.choose("no")
        assert d.top().title == "Bower" and d.app.game is not None
        d.choose("new")
        d.choose("yes")
        assert d.top().title == "New game"
    assert {"Bower", "New game", "Players", "Seat A", "Seat F", "First dealer", "First black jack",
            "Five-Handed", "Three-Handed", "Six-Handed rules", "New game?"} <= watch.seen


def options_tour(d):
    # Every option row (its explanation shows under the list) and every
    # value, round to the first; the farmers' sub-options refuse to go on
    # without farmers, and farmers to go off under them (a note says why).
    opts = d.app.setup["options"]
    keys = [v for _, v in d.rows()]
    for k in keys[1:]:
        if k == "quick":
            d.choose(k)                       # quick score (a setting): on, then off again
            d.choose(k)
            continue
        first = opts.get(k, False)    # (a LATER option: absent while off)
        d.choose(k)
        for _ in range(12):
            if opts.get(k, False) == first:
                break
            d.press(K.OK)
        assert opts.get(k, False) == first
    if "farmers" in opts:
        d.choose("farmers_nines_only")
        assert d.app.toast and not opts["farmers_nines_only"]
        d.choose("farmers")
        d.choose("farmers_no_call")
        d.choose("farmers")
        assert d.app.toast and opts["farmers"]
        d.choose("farmers_no_call")
        d.choose("farmers")
        assert not opts["farmers"]
    d.press(K.UP, d.top().cursor)


def test_settings_about_and_button_test_fit(watch):
    d = CheckingDriver(watch, info={"version": "0.1.0+g84fb423", "device": "e6614103e7a1b2c3"})
    d.choose("settings")
    walk(d)
    for k in ("brightness", "dim_s", "off_s"):
        for _ in range(5):
            d.choose(k)
    d.choose("test")
    for mask, ev in ((1, K.UP), (2, K.DOWN), (4, K.OK), (8, K.BACK), (15, K.OK_LONG)):
        d.app.buttons_seen(mask)
        d.press(ev)
    d.press(K.BACK_LONG)
    d.choose("about")                         # from a settings row
    d.press(K.DOWN, 3)
    d.press(K.OK)
    d.press(K.BACK)
    d.choose("about")                         # from home
    d.press(K.DOWN, 3)
    d.press(K.OK)
    assert {"Settings", "ButtonTest", "About"} <= watch.seen


LONG_NOTES = [
    "g0001 line 12: not a log line (torn or garbage)",
    "settings reset: file bad JSON",
    "storage full!",
    "farmers_nines_only and farmers_no_call require farmers",
]


@pytest.mark.parametrize("note", LONG_NOTES)
def test_a_note_shows_whole(watch, note):
    d = CheckingDriver(watch)
    d.app.notify(note)
    look(watch, d.app, "note at home")
    d.new_game("five", None, NAMES[:5])
    d.app.notify(note)
    look(watch, d.app, "note in a hand")


# ----- the rest of the section: words that say what they mean ---------------------

def test_the_dealer_picks_up_the_others_order_up():
    d = Driver(store=MemStore(NAMES))
    d.new_game("classic", None, NAMES[:4], dealer=0)
    d.enter("up H")
    labels = [lab for lab, _ in d.rows()]
    assert "order up" in labels and "order up alone" in labels
    for _ in range(3):
        d.enter("pass")
    labels = [lab for lab, _ in d.rows()]
    assert d.top().info == ["Dealer WWWWWWWW:"]    # "WWWWWWWW (dealer):" is too long
    assert "pick up" in labels and "pick up alone" in labels
    assert not [lab for lab in labels if lab.startswith("order")]


def test_every_option_is_explained_in_two_rows():
    from euchre.rules import OPTIONS, variant_names, MORE_VARIANTS, variant_data
    from bower.screens import option_short, SHORT
    from bower.newgame import _help
    for k in list(OPTIONS) + ["next", "quick"]:
        lines = gfx.wrap(_help(k))
        assert 1 <= len(lines) <= 2, (k, lines)
        assert k in ("next", "quick") or k in SHORT
    for v in variant_names() + MORE_VARIANTS:
        # (a variant's own meaning of an option: Six-Handed's jokers)
        for k in variant_data(v)["options"]:
            assert 1 <= len(gfx.wrap(_help(k, v))) <= 2, (v, k)
            assert len(option_short(v, k)) <= 12, (v, k)


def test_the_options_menu_explains_the_row_under_the_cursor():
    from bower.newgame import _help
    d = Driver(store=MemStore(NAMES))
    d.choose("new")
    d.choose("classic")
    for _ in range(len(d.top().items)):
        k = d.top().value(d.top().cursor)
        shown = d.screen()
        assert shown[-2:] == gfx.wrap(_help(k)), (k, shown)
        d.press(K.DOWN)


def test_new_game_asks_before_leaving_a_game_in_progress():
    d = Driver(store=MemStore(NAMES))
    d.new_game("classic", None, NAMES[:4])
    d.enter("up H")
    d.press(K.OK_LONG)
    d.choose("home")
    d.choose("new")
    assert d.top().title == "New game?" and d.top().cursor == 0   # "No" first
    d.choose("no")
    d.choose("continue")
    assert d.app.game.hand.events == 1
    d.press(K.OK_LONG)
    d.choose("home")
    d.choose("new")
    d.choose("yes")
    assert d.top().title == "New game"


def test_no_question_without_a_game_in_progress():
    d = Driver(store=MemStore(NAMES))
    d.choose("new")
    assert d.top().title == "New game"


# ----- a club round (bower.club) --------------------------------------------------

CLUB = {"night": "n" * 32, "table": 63, "round": 199, "tables": 64, "move": "progressive", "hands": 8,
        "minutes": 0, "scoring": {"loner": 5, "set_loner": 4, "renege": 4}, "next": [64, 0, 12, 1],
        "players": NAMES[:4]}


@pytest.mark.parametrize("move, minutes", [("progressive", 0), ("fixed", 0), ("partners", 0),
                                           ("progressive", 99)])
def test_every_screen_of_a_club_round_fits(watch, move, minutes):
    now = [1763700000]
    d = CheckingDriver(watch, {"version": "test", "device": "e6614103e7", "time": lambda: now[0]})
    d.store.clock_offset = 60
    d.store.set_club(dict(CLUB, move=move, hands=0 if minutes else 8, minutes=minutes))
    d.app.home()
    d.choose("club")
    walk(d)
    d.choose(0)                                # a seat's player picker
    walk(d)
    d.press(K.BACK)
    d.choose("table")                          # 64 of 64
    d.choose("start")
    events, _ = table_game("classic", 12, {"winning_score": 99})
    for e in events:
        if d.app.game.result or (minutes and d.app.game.counted == 3):
            break
        d.enter(e)
        now[0] += 400
    g = d.app.game
    if minutes:
        d.press(K.OK_LONG)
        walk(d)
        d.choose("end")                        # time called between hands
    else:
        assert g.result
    d.press(K.OK)                              # the losing side accepts
    assert g.result and g.accepted
    d.press(K.BACK_LONG)                       # a correction: accept taken back
    d.press(K.OK)
    d.press(K.OK)                              # home
    assert {"Club round", "RoundOver"} <= watch.seen
