# Test kit for the UI core (CPython and MicroPython): an in-memory store with
# the Store API, a canvas that records the text drawn on it, and a driver
# that plays inputs through real key presses.

from euchre import log as L
from euchre.log import replay_lines
from euchre.actions import action_name, WORDS, NOTRICK
from bower import menu as M
from bower import keys as K
from bower.keyscript import parse_keys
from bower.ui import App

DEFAULT_SETTINGS = {"brightness": 255, "dim_s": 60, "off_s": 600, "names": 0, "quick": 0}


class MemStore:
    # The bower.store.Store API over memory (UI tests; the real store has
    # its own suites). Keeps every game's log text like the flash would.

    low = 32768   # bytes a game start keeps free (Store.low)

    def __init__(self, roster=None):
        self.settings = dict(DEFAULT_SETTINGS)
        self.roster = list(roster or [])
        self.clock_offset = 0
        self.warnings = []
        self.logs = {}          # id -> list of lines
        self.current = None
        self.records = 0
        self.space_low = False
        self.open = False       # the game-over screen is up
        self.acks = {}          # game id -> hand whose result was acknowledged
        self.club_setup = None  # a pushed club round (bower.club)

    def has(self, name):
        # A club round's setup; never presets (their UI is tested over a
        # real Store: test_presets_ui.py).
        return name == "club" and self.club_setup is not None

    def club(self):
        return self.club_setup and dict(self.club_setup)

    def set_club(self, d):
        from bower.clubsetup import check
        self.club_setup = d if d is None else dict(check(d))

    def save_settings(self, d):
        self.settings = dict(d)

    def trim(self):
        pass  # nothing loaded on demand here

    def tidy(self):
        return False  # no deferred work (bower.store's: bower.past)

    def prepare(self):
        return False  # no littlefs allocator to warm (bower.past.prepare)

    def idle(self):
        return False  # no checkpoint waiting (bower.store's: written when idle)

    def resume(self, over=0):
        if self.current is None or over and not self.open:
            return None
        game, dropped = replay_lines(self.logs[self.current])
        if bool(game.result) != bool(over):
            return None
        return game, {"ack": self.acks.get(self.current, 0)}

    def close(self):
        self.open = False

    def ack(self, hand_no):
        self.acks[self.current] = hand_no


    def load_full(self):
        return replay_lines(self.logs[self.current])[0]

    def new_game(self, game, started=0):
        gid = "g%04d" % (len(self.logs) + 1)
        h = L.header_payload(game)
        if getattr(game, "club", None):
            h["club"] = game.club
        h["id"] = gid
        self.logs[gid] = [L.encode_line(h)]
        self.current = gid
        self.open = False
        return gid

    def record(self, game, text, times=1):
        self.logs[self.current] += [L.encode_line(text)] * times
        self.records += times
        self.open = bool(game.result)

    def low_space(self):
        return self.space_low

    def make_room(self, need=0, every=0):
        return []

    def usage(self):
        return (sum([len("".join(v)) for v in self.logs.values()]), 500000)


class Canvas:
    # framebuf-like: pixels in a bytearray (MONO_VLSB), and every text call
    # recorded so tests can ask what is on screen.

    def __init__(self):
        self.buffer = bytearray(1024)
        self.texts = []

    def fill(self, c):
        v = 255 if c else 0
        for i in range(1024):
            self.buffer[i] = v
        self.texts = []

    def pixel(self, x, y, c=None):
        if 0 <= x < 128 and 0 <= y < 64:
            i = (y >> 3) * 128 + x
            if c is None:
                return (self.buffer[i] >> (y & 7)) & 1
            if c:
                self.buffer[i] |= 1 << (y & 7)
            else:
                self.buffer[i] &= ~(1 << (y & 7))

    def fill_rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def line(self, x0, y0, x1, y1, c):
        self.pixel(x0, y0, c)

    def text(self, s, x, y, c=1):
        self.texts.append((y, x, s))

    def screen_text(self):
        # Text on screen, one string per text row, in reading order.
        rows = {}
        for y, _x, s in sorted(self.texts):
            rows.setdefault(y, []).append(s)
        return [" ".join(rows[y]) for y in sorted(rows)]


class Driver:
    # Plays a device through key presses only, counting them.

    def __init__(self, app=None, store=None, rand=None):
        self.store = store or MemStore(["Ann", "Bob", "Cy", "Di", "Eve"])
        self.app = app or App(self.store, {"version": "test", "device": "e6614103e7"}, rand)
        self.now = 0
        self.presses = 0
        self.canvas = Canvas()
        self.acked_unpressed = False

    def press(self, ev, n=1):
        for _ in range(n):
            self.now += 150
            self.presses += 1
            self.app.handle(ev, self.now)
            self.app.tick(self.now)

    def keys(self, text):
        for ev in parse_keys(text):
            self.press(ev)

    def top(self):
        return self.app.stack[-1]

    def screen(self):
        self.app.render(self.canvas)
        return self.canvas.screen_text()

    def rows(self):
        # The menu's rows as (label, value); on menus of actions their ids
        # (and the ids a "..." row opens) as their text, a row's tag as its
        # word (_TAGS) and a "..." row's kind as its word.
        m = self.top()
        ids = m.label or m.ids
        out = []
        for i in range(len(m.items)):
            v = m.value(i)
            if ids and isinstance(v, int):
                v = action_name(v) if v >= 0 else _TAGS[v]
            elif ids and isinstance(v, tuple) and isinstance(v[1], list):
                k = _TAGS.get(v[0], v[0]) if isinstance(v[0], int) and v[0] < 0 else \
                    ("none" if v[0] == NOTRICK else WORDS[v[0]]) if isinstance(v[0], int) else v[0]
                v = (k, [action_name(a) if isinstance(a, int) else a for a in v[1]])
            out.append((m.text(i), v))
        return out

    def choose(self, value=None, label=None):
        # Move the cursor to the row whose value (or label start) matches,
        # the short way round, then OK. Returns the presses used.
        m = self.top()
        items = self.rows()
        idx = None
        for i in range(len(items)):
            lab, v = items[i]
            if (value is not None and v == value) or (label is not None and lab.startswith(label)):
                idx = i
                break
        if idx is None:
            raise AssertionError("no row %r/%r on %r: %r" % (value, label, m.title, [x[0] for x in items]))
        before = self.presses
        n = len(items)
        down = (idx - m.cursor) % n
        if self.acked_unpressed:
            # The result screen before this menu: the first UP/DOWN also
            # dismissed it; with no move, an OK did.
            self.acked_unpressed = False
            if down == 0:
                self.pressed_already(K.OK)
        if down <= n - down:
            self.press(K.DOWN, down)
        else:
            self.press(K.UP, n - down)
        self.press(K.OK)
        return self.presses - before

    def pressed_already(self, ev):
        # A press whose effect the app has had already (counted only).
        self.presses += 1

    def enter(self, event):
        # Enter one engine event the way a person would, through menus
        # (acknowledging a finished hand's result first).
        m = self.top()
        if not hasattr(m, "items"):
            # A hand's result: the next press acts in the next hand's menu
            # too (UP/DOWN move there), so the way there decides the press.
            self.app.ack_hand()
            self.app.tick(self.now)
            self.acked_unpressed = True
            m = self.top()
        values = [v for _, v in self.rows()]
        back = getattr(m, "pass_id", -1)
        if back >= 0 and action_name(back) == event:
            # A bid: BACK passes (the cursor is on ordering up); a quick
            # hand's questions: BACK is the other answer (bower.quick).
            if self.acked_unpressed:
                self.acked_unpressed = False
                self.pressed_already(K.OK)
            self.press(K.BACK)
            return 1
        if event in values:
            return self.choose(event)
        if event.startswith("tricks") or event.startswith("won"):
            if "by trick" in values and event.startswith("won"):
                self.choose("by trick")
                return self.enter(event)
        for _lab, v in self.rows():
            if isinstance(v, tuple) and _holds(v, event):
                # A "..." row: its menu may list kinds first, then who.
                self.choose(v)
                return self.enter(event)
        raise AssertionError("cannot enter %r on %r: %r" % (event, m.title, values))

    def new_game(self, variant, options=None, players=None, dealer=0, quick=None):
        # Set up a game through the menus (home -> new game -> ...);
        # ``quick``: quick score on or off in its options (None: as it is).
        self.choose("new")
        if self.top().title == "New game?":
            self.choose("yes")      # leave the game in progress
        self.choose(variant)
        for k, v in (options or {}).items():
            # Cycle the option until it has the wanted value.
            for _ in range(12):
                if self.app.setup["options"].get(k, False) == v:
                    break
                self.choose(k)
            if self.app.setup["options"].get(k, False) != v:
                raise AssertionError("option %s never became %r" % (k, v))
        if quick is not None and bool(self.app.store.settings.get("quick")) != quick:
            self.choose("quick")
        self.choose("next")
        if players:
            for i in range(len(players)):
                self.choose(i)
                self.choose(players[i])
        self.choose("next")
        self.choose(dealer)


def _holds(v, event):
    # Whether a "..." row's value (kind or title, [actions, ids or more
    # such rows]) leads to ``event``.
    if isinstance(v, tuple):
        for x in v[1]:
            if _holds(x, event):
                return True
        return False
    return v == event or (isinstance(v, int) and action_name(v) == event)


# A hand's row tags (bower.menu) as the words the tests choose them by.
_TAGS = {M.MENU: "menu", M.BY_TRICK: "by trick", M.ALL_PASS: "passes", M.FULL: "full", M.MORE: "more",
         M.DECLARE: "declare"}


class Rng:
    # xorshift32: the same numbers on CPython and MicroPython (whose random
    # module has no Random class).

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def randrange(self, n):
        return self.next() % n

    def random(self):
        return self.next() / 4294967296.0


def table_game(variant, seed, options=None, max_events=2000):
    # A whole table-mode game as events: a seeded player that mostly bids,
    # names partners and reports tricks, and now and then claims, reneges,
    # declares or calls a misdeal (entered in full: never quick score).
    from euchre import Game, Rules
    rnd = Rng(seed)
    g = Game(Rules(variant, options or {}))
    out = []
    rare = ("redeal", "renege", "claim", "throwin", "farmers", "twos", "acenoface", "ninetens")
    while not g.result and len(out) < max_events:
        legal = [a for a in g.legal_actions() if not a.startswith("quick")]
        common = [a for a in legal if a.split(" ")[0] not in rare]
        pool = legal if (rnd.random() < 0.03 or not common) else common
        if g.hand.phase == 5 and "pass" in pool and rnd.random() < 0.5:
            a = "pass"
        else:
            a = pool[rnd.randrange(len(pool))]
        g.apply(a)
        out.append(a)
    return out, g


def quick_events(h):
    # How a table tells finished hand ``h`` (entered in full, table mode) in
    # quick score (bower.quick, euchre.quick): who made trump, the partner,
    # how it ended. None for a hand quick score has no input for (thrown in
    # under stick the dealer: nines and tens, a farmer stuck).
    from euchre import hand as H
    r = h.rules
    if h.result == H.REDEAL:
        return ["redeal"]
    if h.result == H.THROWN_IN:
        return ["quick none"] if not r.std or r.throw_in else None
    m = h.maker
    how = h.alone
    makers = [m]
    if r.teams:
        out = ["quick %d" % (m % 2)]
        makers = list(range(m % 2, h.n, 2))
    else:
        out = ["quick %d" % m]
        if r.call_partner:
            how = 0
            if h.alone:
                out.append("alone")
            elif 0 <= h.partner < h.n:
                out.append("reveal %d" % h.partner)
                makers.append(h.partner)
            else:
                out.append("reveal none")
    if h.renege >= 0:
        if r.teams and not how and h.lone_defender >= 0:
            how = 1   # a lone defender's hand: the renege of a lone hand (004)
        out.append("quick renege %d%s" % (h.renege, ("", " alone", " alone best")[how]))
        return out
    t = h.maker_tricks()
    if t < r.tricks_to_make:
        end = "defended" if h.lone_defender >= 0 else "euchred"
        side = [s for s in range(h.n) if s not in makers]
    else:
        end = "march" if t == r.hand_size else "made"
        side = makers
    none = [s for s in side if not h.tricks[s]] if r.needs_trick and len(side) > 1 else []
    out.append("quick %s%s%s" % (end, ("", " alone", " alone best")[how],
                                 " notrick " + " ".join(["%d" % s for s in none]) if none else ""))
    return out


def hands_of(variant, events, options=None):
    # The game of ``events`` (entered in full) hand by hand: [(its events,
    # its quick events or None, the scores after it)], and the game.
    from euchre import Game, Rules
    g = Game(Rules(variant, options or {}))
    out = []
    cur = []
    for e in events:
        n = g.hand_no
        g.apply(e)
        cur.append(e)
        if g.hand_no != n:
            out.append((cur, quick_events(g.last_hand), list(g.scores)))
            cur = []
    return out, g


def set_quick(d, on):
    # Quick score on or off through the game menu (between hands).
    d.press(K.OK_LONG)
    if d.top().title != "Game menu":
        raise AssertionError("no game menu: %r" % d.top().title)
    row = [lab for lab, v in d.rows() if v == "quick"]
    if not row:
        raise AssertionError("no quick score row (mid-hand?)")
    if row[0].endswith("on") != on:
        d.choose("quick")
    else:
        d.choose("game")


# --- shared by the suites: a device booted on a real store, and its screen's text

INFO = {"version": "test", "device": "e6614103e7"}


def boot(root="/", fs=None, roster=None, info=None, rand=None, **store_kw):
    # A device powered on: the real bower.store.Store on ``root`` (a
    # directory, or ``fs``, a FakeFS), the app, and a Driver pressing its
    # keys. ``roster`` is set on the store first, as a roster push does.
    from bower.store import Store
    info = INFO if info is None else info
    store = Store(root, fs=fs, device=info["device"], **store_kw)
    if roster is not None:
        store.set_roster(roster)
    return Driver(App(store, info, rand), store)


def text(d):
    # ``d``'s screen now, its text rows one per line.
    return "\n".join(d.screen())
