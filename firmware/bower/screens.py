# Menus outside the hand: home's rows, the in-game menu, the rules view,
# settings, storage and the button test, and the tables the new-game setup
# (bower.newgame) shares with them. Loaded on first use.

from bower import gfx
from bower.keys import UP, DOWN, OK, BACK, BACK_LONG
from bower.menu import Screen, Menu

# The variants for three, six and two players (issue 26), after the four in
# the variant menu: the names of euchre.morevariants (the host's
# euchre.rules.MORE_VARIANTS), written here so that listing them loads no
# variant's data; the engine loads that when one is chosen (Rules).
MORE = ("three", "six", "two")
VARIANT_LABELS = {"classic": "Classic", "five": "Five-Handed",
                  "callpartner": "Call Partner", "ultimate": "Ultimate",
                  "three": "Three-Handed", "six": "Six-Handed", "two": "Two-Handed"}
SEATS = "ABCDEF"   # seat letters (up to Six-Handed's six)

# Option names as they fit a 16-character row with their value.
SHORT = {"winning_score": "Play to", "std": "Stick dealer", "canadian": "Canadian",
         "loner_lead": "Loner lead", "defend_alone": "Lone defend", "farmers": "Farmers",
         "farmers_nines_only": "Farmers 9s", "farmers_no_call": "Farm no call",
         "partners_best": "Partner best", "ace_no_face": "Ace no face", "joker": "Joker",
         "renege_deduct": "Renege -pts", "jokers": "Jokers as 2s", "four_eights": "Four 8s",
         "alternate_ending": "Alt ending", "play_on": "Play on",
         "round_hands": "Round hands", "lone_march": "Lone march", "set_loner": "Set loner",
         "renege_points": "Renege pts", "min_rank": "Lowest card", "march": "March pts",
         "alone": "Going alone", "misdeal_passes": "Misdeal pass", "raise_target": "Tie +10",
         "no_late_loners": "No lone 8-9", "lone_euchre_4": "Set loner 4", "same_dealer": "Pass: redeal"}
# An option that means something else in one variant: its name and help
# there (Six-Handed's jokers are added, not in place of Five-Handed's 2s).
OWN = {("six", "jokers"): ("Jokers", "Adds both jokers as top trumps")}
_VALUE = {True: "on", False: "off", "LEFT_OF_DEALER": "dlr", "LEFT_OF_LONER": "lnr"}
BRIGHTNESS = (16, 64, 128, 255)
DIM_S = (0, 30, 60, 120, 300)
OFF_S = (0, 300, 600, 1800)


def value_row(label, value):
    v = _VALUE.get(value, str(value))
    return label + " " * max(1, 16 - len(label) - len(v)) + v


class Message(Screen):
    # Lines of text (a long one wraps onto more rows); OK or BACK closes it
    # (``done`` runs first).

    def __init__(self, title, lines, done=None):
        self.title = title
        self.lines = []
        for line in lines:
            self.lines += gfx.wrap(line)
        self.done = done
        self.top = 0

    def handle(self, app, ev):
        if ev == UP or ev == DOWN:
            top = self.top + (1 if ev == DOWN else -1)
            if 0 <= top <= max(0, len(self.lines) - 7):
                self.top = top
                app.dirty = True
        elif ev == OK or ev == BACK:
            app.back()
            if self.done:
                self.done(app)

    def draw(self, app, fb):
        gfx.bar(fb, self.title)
        y = 9
        for line in self.lines[self.top:self.top + 7]:
            gfx.text(fb, line, 0, y)
            y += 8


def home_pick(app, v):
    # OK on a row of the home menu (bower.home).
    if v == "continue":
        app.show_game()
    elif v == "settings":
        app.push(settings(app))
    elif v == "club":
        app.club()
    else:
        app.push(about(app))


def leave_first(app, title, yes, then):
    # ``then(app)``; while a game is in progress, only after a second "yes"
    # (``title`` asks, ``yes`` is that row).
    if app.game is None or app.game.result:
        then(app)
        return

    def pick(app, v):
        app.back()
        if v == "yes":
            then(app)
    app.push(Menu(title, [("No, go back", "no"), (yes, "yes")], pick, info=("A game is still", "in progress.")))


def about(app):
    info = app.info
    used, free = app.store.usage()
    lines = ["Bower " + info.get("version", "?"), "Euchre scorekeeper", "",
             "Device id:", info.get("device", "?"), "",
             "Games: " + _kb(used // 1024) + " used", "Free: " + _kb(_free_k(app.store, free))]
    return Message("About", lines)


def _free_k(st, free=None):
    # KB free for games: the filesystem's free space less what a game
    # start keeps in reserve (store.low), never below 0.
    if free is None:
        free = st.usage()[1]
    return max(0, free - st.low) // 1024


def _kb(k):
    # A size in at most five characters (a row's value): a Pico's flash in
    # K, a browser's storage (gigabytes) in M.
    return "%dK" % k if k < 10000 else "%dM" % (k // 1024)


def option_keys(opts, later):
    # The options in order: the variant's, then the later ones it takes
    # (Rules.later: absent from ``opts`` while off).
    return sorted([k for k in opts if k not in later]) + list(later)


def option_short(variant, k):
    # Option ``k``'s name on a row (with its value) in ``variant``.
    own = OWN.get((variant, k))
    return own[0] if own else SHORT[k]


# ----- in game ------------------------------------------------------------------

def game_menu(app):
    items = [("Back to game", "game"), ("Scores", "scores"), ("Rules", "rules"),
             ("Undo last input", "undo"), ("Settings", "settings"), ("Home", "home")]
    g = app.game
    if g.amending is not None:
        items.insert(1, ("Cancel amending", "cancel"))
    elif not g.result and not g.hand.events:
        # Between hands: quick score on or off (bower.quick) for the next,
        # a finished hand amended (bower.amend).
        items.insert(1, (value_row("Quick score", bool(app.store.settings.get("quick"))), "quick"))
        if g.hand_no > 1 and not g.accepted:
            items.insert(2, ("Amend a hand", "amend"))
    if (getattr(g, "club", None) or {}).get("minutes") and g.rules.round_hands and not g.result \
            and g.counted and not g.hand.events:
        items.insert(1, ("End round: time", "end"))   # a minutes round, between hands
    return Menu("Game menu", items, _game_menu_pick)


def _game_menu_pick(app, v):
    if v == "game":
        app.show_game()
    elif v == "scores":
        app.scores()
    elif v == "end":
        app.club(True)
    elif v == "amend":
        from bower.amend import hands_menu
        app.push(hands_menu(app))
    elif v == "cancel":
        while app.game.amending is not None:
            app.undo()
    elif v == "quick":
        on = not app.store.settings.get("quick")
        if set_quick(app, on):
            if on:
                app.show_game()
            else:
                app.ack_hand()   # (the last result was on the quick screen: not again)
    elif v == "rules":
        app.push(rules_view(app.game.rules))
    elif v == "undo":
        app.undo()
    elif v == "settings":
        app.push(settings(app))
    else:
        app.home()


def set_quick(app, on):
    # Quick score on or off (a setting: it is on flash when this returns).
    # False if the flash refused it (the storage screen says so).
    s = dict(app.store.settings)
    s["quick"] = 1 if on else 0
    try:
        app.store.save_settings(s)
    except OSError as e:
        if e.args[0] != 28:
            raise
        app.push(storage(app, "Not saved"))
        return False
    return True


def rules_view(rules):
    # The game's rule set: the variant, its shape, then every option.
    lines = [gfx.fit(rules.title, VARIANT_LABELS[rules.name]),
             "%d players" % rules.num_players + (", teams" if rules.teams else ""),
             "%d-card deck" % len(rules.deck)]
    if not rules.teams:
        lines.insert(2, "each for self")
    elif rules.num_players == 6:
        lines.insert(2, "A+C+E vs B+D+F")   # (partners alternate)
    opts = rules.options
    for k in option_keys(opts, rules.later):
        lines.append(value_row(option_short(rules.name, k), opts.get(k, False)))
    return Message("Rules", lines)


# ----- settings --------------------------------------------------------------------

def settings(app):
    s = app.store.settings
    items = [(value_row("Brightness", "%d%%" % (s["brightness"] * 100 // 255)), "brightness"),
             (value_row("Dim after", _secs(s["dim_s"])), "dim_s"),
             (value_row("Off after", _secs(s["off_s"])), "off_s"),
             ("Button test", "test"),
             (value_row("Free space", _kb(_free_k(app.store))), "storage"),
             (gfx.fit(value_row("Version", app.info.get("version", "?")), "Version..."), "about"),
             (gfx.fit("Id " + app.info.get("device", "?"), "Device id..."), "about")]
    if app.info.get("export"):      # a board that can hand its logs to the user (the browser's)
        items.insert(5, ("Export logs", "export"))
    return Menu("Settings", items, _settings_pick)


def _secs(s):
    if not s:
        return "never"
    return "%ds" % s if s < 60 else "%dm" % (s // 60)


def _settings_pick(app, k):
    if k == "test":
        app.push(ButtonTest())
        return
    if k == "about":
        app.push(about(app))
        return
    if k == "storage":
        app.push(storage(app, None))
        return
    if k == "export":
        # The board hands every game's log to the user once this press is done.
        n = app.info["export"]()
        app.notify("Export: %d game%s" % (n, "" if n == 1 else "s") if n else "No games to export")
        return
    s = dict(app.store.settings)
    choices = {"brightness": BRIGHTNESS, "dim_s": DIM_S, "off_s": OFF_S}[k]
    i = choices.index(s[k]) if s[k] in choices else -1
    s[k] = choices[(i + 1) % len(choices)]
    try:
        app.store.save_settings(s)  # the store's settings change once written
    except OSError as e:
        if e.args[0] != 28:
            raise
        app.push(storage(app, "Not saved"))
        return
    app.contrast = s["brightness"]
    cur = app.stack[-1].cursor
    app.stack[-1] = settings(app)
    app.stack[-1].cursor = cur
    app.dirty = True


# ----- storage ---------------------------------------------------------------------

def storage(app, why, retry=None):
    # How full the flash is and how to make room. Synced games go by
    # themselves when room is needed (a sync with the computer, `bower
    # sync`, makes room that way); games not synced only after a yes here.
    # ``why``: what the full flash refused ("" at boot; None: opened from
    # the settings); ``retry(app)`` does it again.
    # "Not synced" counts the game in play too; only games that are over
    # can be deleted.
    st = app.store
    info = [why or "Free: " + _kb(_free_k(st)), "Not synced: %d" % st.unsynced(0),
            "Sync to make", "room: bower sync"]
    items = [("Try again", "retry")] if retry else []
    if st.unsynced():
        items.append(("Delete unsynced", "delete"))
    items.append(("Back", "back"))
    return _Storage("Storage" if why is None else "Storage full", items, info, why, retry)


class _Storage(Menu):
    def __init__(self, title, items, info, why, retry):
        Menu.__init__(self, title, items, _storage_pick, info=info)
        self.why = why
        self.retry = retry


def refused(app, g, text, k, times=1):
    # The flash refused input ``text`` of game ``g`` (no synced game left to
    # remove for it): it is taken back in RAM too, so RAM says what the
    # flash says and a power cut loses nothing the screen showed; the
    # storage screen says so. ``k``: the hand acknowledged before an undo.
    if text == "undo":
        app.acked = k
        try:
            app.game = app.store.load_full()  # as on flash
        except ValueError:
            pass  # an earlier line damaged: the undone game stays
    else:
        for _ in range(times):
            g.undo()
    app.show_game()
    app.push(storage(app, "Input not saved"))
    return False


def _storage_pick(app, v):
    if v == "delete":
        # The oldest games not synced go (after any synced ones) until a
        # game has room; never the one being recorded.
        app.push(Menu("Delete games?", [("No, go back", "no"), ("Yes, delete", "yes")], _delete_pick,
                      info=("Games not synced", "are lost: oldest", "first, till a", "game has room.")))
        return
    retry = app.stack[-1].retry
    app.back()
    if v == "retry":
        retry(app)


def _delete_pick(app, v):
    app.back()
    if v == "yes":
        st = app.store
        need = max(st.low, st.usage()[1] + 1)
        n = len(st.make_room(need) + st.make_room(need, 1))
        m = app.stack[-1]
        app.replace(storage(app, m.why, m.retry))
        app.notify("Games deleted: %d" % n)


class ButtonTest(Screen):
    # Shows each button lit while it is held; hold BACK to leave.
    live = True
    _NAMES = ("UP", "DOWN", "OK", "BACK")

    def __init__(self):
        self.last = "none"

    def handle(self, app, ev):
        if ev == BACK_LONG:
            app.back()
            return
        self.last = {UP: "UP", DOWN: "DOWN", OK: "OK", BACK: "BACK"}.get(ev, "long OK")
        app.dirty = True

    def draw(self, app, fb):
        gfx.bar(fb, "Button test")
        for i in range(4):
            # A box per button, lit while held, its name under it.
            x = 2 + i * 32
            on = app.pressed & (1 << i)
            if on:
                fb.fill_rect(x, 12, 28, 17, 1)
            else:
                fb.rect(x, 12, 28, 17, 1)
            gfx.center(fb, self._NAMES[i], 33, 1, x - 2, 32)
        gfx.text(fb, "last: " + self.last, 0, 45)
        gfx.text(fb, "hold BACK: exit", 0, 57)
