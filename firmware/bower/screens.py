# Menus outside the hand: home, new-game setup, the in-game menu, settings,
# the rules view and the button test. Loaded on first use.

from bower import gfx, unload
from bower.keys import UP, DOWN, OK, BACK, BACK_LONG
from bower.menu import Screen, Menu, card_label
from euchre.rules import Rules, OPTIONS, VARIANTS, variant_names

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
         "no_late_loners": "No lone 8-9"}
# An option that means something else in one variant: its name and help
# there (Six-Handed's jokers are added, not in place of Five-Handed's 2s).
_OWN = {("six", "jokers"): ("Jokers", "Adds both jokers as top trumps")}
_VALUE = {True: "on", False: "off", "LEFT_OF_DEALER": "dlr", "LEFT_OF_LONER": "lnr"}
_TARGETS = (5, 7, 10, 11, 15, 21, 25, 32, 35, 50)
BRIGHTNESS = (16, 64, 128, 255)
DIM_S = (0, 30, 60, 120, 300)
OFF_S = (0, 300, 600, 1800)


def _row(label, value):
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
    elif v == "new":
        leave_first(app, "New game?", "Yes, leave game", new_game)
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


# ----- new game --------------------------------------------------------------

def new_game(app, keep=None):
    # The setup wizard: variant, its options, players, first dealer. ``keep``:
    # a finished game whose variant, options and players are kept.
    if keep is not None:
        r = keep.rules
        app.setup = {"variant": r.name, "options": dict(r.options), "players": list(keep.players)}
        app.push(dealer_menu(app))
        return
    # A group's presets first (bower.presets: OK on one, OK on its dealer,
    # and the first hand is up), then the variants.
    items = [(p["name"], ("preset", p)) for p in _presets(app)]
    items += [(VARIANT_LABELS[v], v) for v in variant_names() + MORE]
    app.push(_Variants("New game", items, _variant_pick))


class _Variants(Menu):
    def warm(self):
        return _warm_rules(self.value(self.cursor))


def _presets(app):
    # The presets on flash; the module only while they are read, and only
    # when there is a file (a refused entry: its rule in a note).
    st = app.store
    if not st.has_presets():
        return []
    from bower import presets
    ps, bad = presets.load(st)
    unload("bower.presets")
    if bad:
        app.notify(bad[0])
    return ps


def _preset_pick(app, p):
    # A preset's setup, its quick score setting, the players of the last
    # game of as many seats (else the roster's), and the dealer next.
    from bower import presets
    v, opts, quick = presets.setup(p)
    unload("bower.presets")
    if bool(app.store.settings.get("quick")) != bool(quick) and not set_quick(app, quick):
        return
    g = app.game
    n = _rules(v, opts).num_players
    app.setup = {"variant": v, "options": opts, "preset": p["name"],
                 "players": list(g.players) if g and len(g.players) == n else _seating(app, n)}
    app.push(dealer_menu(app))


_CACHE = [None]   # the Rules last asked for


def _rules(variant, opts=None):
    # Rules(variant, opts), built once per choice: building the tables takes
    # some 10 ms on a Pico (15 for Ultimate), and every setup screen asks.
    # (No ``opts``: the variant's defaults, the same Rules as those given.
    # A variant of MORE: its defaults are its data's, euchre.morevariants',
    # which only its Rules loads; a Rules of it with other options is
    # built again.)
    r = _CACHE[0]
    if r is None or r.name != variant or r.options != (
            opts or (VARIANTS[variant]["options"] if variant in VARIANTS else None)):
        r = _CACHE[0] = Rules(variant, opts) if opts else Rules(variant)  # pyright: ignore[reportArgumentType, reportCallIssue]
    return r


def _warm_rules(variant):
    # While the variant menu waits (App.warm): the rules of the variant
    # under the cursor, so the OK that picks it finds them built. True if
    # it built them. Not for a variant of MORE: its rules would load
    # euchre.morevariants for a cursor passing over it (UP from Classic
    # wraps round through them), not only for a game of it. (A preset's
    # row: its setup is built when picked.)
    if variant in MORE or type(variant) is tuple:
        return False
    before = _CACHE[0]
    return _rules(variant) is not before


def _variant_pick(app, v):
    if type(v) is tuple:
        _preset_pick(app, v[1])
        return
    r = _rules(v)
    app.setup = {"variant": v, "options": dict(r.options), "players": None}
    app.push(options_menu(app))


def options_menu(app):
    st = app.setup
    opts = st["options"]
    items = [("Next: players", "next")]
    for k in _keys(opts, _rules(st["variant"], opts).later):
        items.append((_row(_short(st["variant"], k), opts.get(k, False)), k))
    # Quick score: a setting (bower.quick), kept for the games after.
    items.append((_row("Quick score", bool(app.store.settings.get("quick"))), "quick"))
    label = VARIANT_LABELS[st["variant"]]
    return _Options(st["variant"], gfx.fit(label + " rules", label), items)


class _Options(Menu):
    # What the row under the cursor means, under a line at the bottom.
    def __init__(self, variant, title, items):
        Menu.__init__(self, title, items, _option_pick)
        self.variant = variant

    def foot(self):
        return gfx.wrap(_help(self.value(self.cursor), self.variant))


def _keys(opts, later):
    # The options in order: the variant's, then the later ones it takes
    # (Rules.later: absent from ``opts`` while off).
    return sorted([k for k in opts if k not in later]) + list(later)


def _short(variant, k):
    # Option ``k``'s name on a row (with its value) in ``variant``.
    own = _OWN.get((variant, k))
    return own[0] if own else SHORT[k]


def _help(k, variant=""):
    # One sentence per option (two rows at most), for the options menu.
    own = _OWN.get((variant, k))
    return own[1] if own else _HELP[k]


_HELP = {"next": "Choose players, then dealer",
         "winning_score": "Points needed to win the game",
         "std": "Dealer must call if all pass",
         "canadian": "Dealer's partner orders up alone",
         "loner_lead": "1st lead, loner: left of dlr/lnr",
         "defend_alone": "A defender may go alone too",
         "farmers": "3 nines/tens: swap with kitty",
         "farmers_nines_only": "Farmers: three 9s only",
         "farmers_no_call": "Farmer may not call trump",
         "partners_best": "Loner swaps for partner's best",
         "ace_no_face": "Ace,9s,10s only: hand thrown in",
         "joker": "Adds a joker: the top trump",
         "renege_deduct": "Renege: guilty side loses 2/4",
         "jokers": "Jokers in place of 2\x13 and 2\x12",
         "four_eights": "Deck with all four 8s",
         "alternate_ending": "First to reach target ends game",
         "play_on": "Ties at target: keep playing",
         "quick": "Each hand: who made it, result",
         "min_rank": "Deck: 9s up (24) or 7s up (32)",
         "march": "Points for a march (all five)",
         "alone": "The maker may go alone",
         "misdeal_passes": "Misdeal: the deal passes left",
         "raise_target": "Tie at target: it goes up 10",
         "no_late_loners": "No loners 2 short of target"}


def _option_pick(app, k):
    st = app.setup
    if k == "next":
        app.push(players_menu(app))
        return
    opts = st["options"]
    if k == "quick":
        if not set_quick(app, not app.store.settings.get("quick")):
            return   # (not on flash: the storage screen says so)
    else:
        _next_value(st, opts, k, app)
    m = app.stack[-1]
    cur = m.cursor
    app.stack[-1] = options_menu(app)
    app.stack[-1].cursor = cur
    app.dirty = True


def _next_value(st, opts, k, app):
    # Option ``k`` to its next value (a combination the rules refuse keeps
    # the one it had, and the note says why).
    allowed = OPTIONS[k]
    if allowed is None:
        allowed = _TARGETS if opts[k] in _TARGETS else tuple(sorted(_TARGETS + (opts[k],)))
    elif allowed is True or allowed is False or not isinstance(allowed, tuple):
        allowed = (False, True)
    later = _rules(st["variant"], opts).later
    x = opts.get(k, False)
    i = allowed.index(x) if x in allowed else -1
    opts[k] = allowed[(i + 1) % len(allowed)]
    if k in later and not opts[k]:
        del opts[k]   # (off: absent, as the Rules keep it)
    try:
        _rules(st["variant"], opts)
    except ValueError:
        # An option combination the rules refuse (the farmers' sub-options
        # without farmers; play on and raise_target, two ends of a tie):
        # keep the value it had, and say why.
        opts[k] = allowed[i] if i >= 0 else opts[k]
        if k in later and not opts[k]:
            del opts[k]
        app.notify("Sub-options on: turn off first" if k == "farmers" else
                   "Turn Farmers on first" if k[:7] == "farmers" else "Play on or Tie +10: one")


def players_menu(app):
    st = app.setup
    r = _rules(st["variant"], st["options"])
    n = r.num_players
    if not st["players"] or len(st["players"]) != n:
        st["players"] = _seating(app, n)
    items = [("Next: dealer", "next")]
    for i in range(n):
        items.append((SEATS[i] + ": " + st["players"][i], i))  # pyright: ignore[reportArgumentType]
    info = ()
    if r.teams:
        # (Six-Handed: partners alternate, seats A C E against B D F)
        info = ("A+C+E vs B+D+F",) if n == 6 else ("Teams: A+C, B+D",)
    return Menu("Players", items, _player_pick, info=info)


def _seating(app, n):
    # The roster's names first, then seat letters no seat has yet (a
    # roster "C" must not seat two Cs: the host refuses a name twice).
    p = list(app.store.roster[:n])
    for c in SEATS:
        if len(p) < n and c not in p:
            p.append(c)
    return p


def _player_pick(app, seat):
    if seat == "next":
        if "preset" in app.setup:
            # (come from a preset's dealer menu: back to it, with these players)
            app.back()
            app.stack[-1] = dealer_menu(app)
            app.dirty = True
            return
        app.push(dealer_menu(app))
        return
    st = app.setup
    mine = st["players"][seat]
    taken = [p for p in st["players"] if p != mine]
    names = [mine] if mine not in app.store.roster and mine != SEATS[seat] else []
    for n in [SEATS[seat]] + app.store.roster:
        if n not in taken and n not in names:
            names.append(n)
    cur = names.index(mine)

    def chosen(app, name):
        st["players"][seat] = name
        app.back()
        m = players_menu(app)
        m.cursor = seat + 1
        app.stack[-1] = m
        app.dirty = True
    app.push(Menu("Seat " + SEATS[seat], [(n, n) for n in names], chosen, cur))


def dealer_menu(app):
    # (From a preset: the cursor on seat A's player, then the players, to
    # change, and the preset's rules in full.)
    p = app.setup["players"]
    items = [("Draw: black jack", -1)] + [(p[i] + " deals", i) for i in range(len(p))]
    if "preset" in app.setup:
        items.append(("Players...", PLAYERS_ROW))
        items.append(("Rules...", RULES_ROW))
        return Menu(gfx.fit(app.setup["preset"], "First dealer"), items, _dealer_pick, 1)
    return Menu("First dealer", items, _dealer_pick)


PLAYERS_ROW = -2   # (a preset's dealer menu: to the players, not a seat)
RULES_ROW = -3     # (... and its rules in full)


def _dealer_pick(app, seat):
    if seat == PLAYERS_ROW:
        app.push(players_menu(app))
        return
    if seat == RULES_ROW:
        st = app.setup
        v = rules_view(_rules(st["variant"], st["options"]))
        v.title = gfx.fit(st["preset"], "Rules")
        v.lines.append(_row("Quick score", bool(app.store.settings.get("quick"))))
        app.push(v)
        return
    if seat >= 0:
        _start(app, seat)
        return
    seat, seq = draw_black_jack(app.setup, app.rand_below or _rand_below)
    p = app.setup["players"]
    lines = []
    for s, c in seq[-5:]:
        lines.append(p[s] + " " + _card(c))
    lines.append(gfx.fit(p[seat] + " deals first", p[seat] + " deals"))
    app.push(Message("First black jack", lines, lambda app: _start(app, seat)))


def _card(c):
    from euchre.cards import card_name
    return card_label(card_name(c))


def draw_black_jack(setup, rand_below):
    # Deal the deck face up around the table, starting with seat A, until a
    # black jack shows: that player deals first (RULES.md). Returns the seat
    # and the cards dealt as [(seat, card)].
    r = _rules(setup["variant"], setup["options"])
    deck = [c for c in r.deck if c < 52]
    n = len(setup["players"])
    seq = []
    i = 0
    while deck:
        c = deck.pop(rand_below(len(deck)))
        seq.append((i % n, c))
        if c % 13 == 9 and c // 13 in (0, 3):   # J of clubs or spades
            return i % n, seq
        i += 1
    return 0, seq


def _rand_below(n):
    # Uniform in 0..n-1 from the hardware RNG (os.urandom on the Pico).
    from os import urandom
    while True:
        b = urandom(2)
        r = b[0] << 8 | b[1]
        if r < 65536 - 65536 % n:
            return r % n


def _start(app, dealer):
    from euchre import Game
    st = app.setup
    if st["variant"] not in MORE:
        # The data of the variants for three, six and two players, loaded
        # for one chosen in this setup or played before: not this game's.
        unload("euchre.morevariants")
    start_game(app, Game(_rules(st["variant"], st["options"]), st["players"], dealer))


def start_game(app, game):
    # The first hand's screen at once; the game reaches flash right after.
    app.commit()
    app.game = game
    app.by_trick = False
    app.acked = 0
    app.show_game()
    app.later(lambda: _record_start(app, game))


def _record_start(app, game):
    # A game starts only with room for all of it (``store.low`` bytes free,
    # synced games removed for them): else the flash says what the app
    # shows (the game before, if it is still in play) and the storage
    # screen offers to make room and try again.
    store = app.store
    try:
        if store.low_space():
            store.make_room()
            if store.low_space():
                raise OSError(28, "no room for a game")
        # Seconds since 1970 as set by the computer (0 if never set).
        t = app.info.get("time")
        store.new_game(game, t() + store.clock_offset if t else 0)
    except OSError as e:
        if e.args[0] != 28:
            raise
        r = store.resume()
        app.game = r and r[0]
        app.home()
        app.push(storage(app, "Game not started", lambda app: start_game(app, game)))
        return False
    if store.low_space():
        app.notify("storage low: sync")


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
        items.insert(1, (_row("Quick score", bool(app.store.settings.get("quick"))), "quick"))
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
    for k in _keys(opts, rules.later):
        lines.append(_row(_short(rules.name, k), opts.get(k, False)))
    return Message("Rules", lines)


def after_game(app):
    # (Save as preset: DOWN, OK; Home: UP, OK, the list wrapping round.)
    items = [("New game, same", "same"), ("Save as preset", "preset"), ("New game", "new"),
             ("Amend a hand", "amend"), ("Home", "home")]
    return Menu("Game over", items, _after_pick, info=("players: same?",))


def _after_pick(app, v):
    g = app.game
    if v == "same":
        app.home()
        new_game(app, keep=g)
    elif v == "new":
        app.home()
        new_game(app)
    elif v == "amend":
        from bower.amend import hands_menu   # (the hand picked: quick score's screens)
        app.push(hands_menu(app))
    elif v == "preset":
        save_preset(app, g.rules)
    else:
        app.home()


def save_preset(app, rules):
    # The setup just played as a preset, named by its variant and target
    # ("Classic 11"; a letter after it when another setup has that name;
    # the same setup again: kept once). The note says which.
    from bower import presets
    o = dict(rules.options)
    t = o.pop("winning_score")
    p = {"variant": rules.name, "options": o, "target": t, "quick": bool(app.store.settings.get("quick"))}
    try:
        ps, bad = presets.load(app.store)    # (read once: the list is saved whole)
        if presets.NEWER in bad:
            raise ValueError(presets.NEWER)
        base = VARIANT_LABELS[rules.name][:8] + " %d" % t
        name = base
        for c in "bcdefghij":
            q = [x for x in ps if x["name"] == name]
            if not q:
                break
            if presets.check(dict(p, name=name)) == q[0]:
                app.notify("Preset: " + name)     # (kept already: nothing written)
                return
            name = base + c
        if len(ps) >= presets.MOST:
            app.notify("8 presets: delete one first")
            return
        presets.save(app.store, ps + [dict(p, name=name)])
        app.notify("Preset: " + name)
    except OSError as e:
        if e.args[0] != 28:
            raise
        app.push(storage(app, "Not saved"))
    except ValueError as e:
        app.notify(e.args[0] if e.args else "Preset refused")
    finally:
        unload("bower.presets")


# ----- settings --------------------------------------------------------------------

def settings(app):
    s = app.store.settings
    items = [(_row("Brightness", "%d%%" % (s["brightness"] * 100 // 255)), "brightness"),
             (_row("Dim after", _secs(s["dim_s"])), "dim_s"),
             (_row("Off after", _secs(s["off_s"])), "off_s"),
             ("Button test", "test"),
             (_row("Free space", _kb(_free_k(app.store))), "storage"),
             (gfx.fit(_row("Version", app.info.get("version", "?")), "Version..."), "about"),
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
