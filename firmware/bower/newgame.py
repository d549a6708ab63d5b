# The new-game setup: the variant (a group's presets first), its options,
# the players, the first dealer; then the game's start on flash. Apart
# from bower.screens, so the game menu of a hand holds none of it; loaded
# while the home menu waits (App.warm), dropped while a hand is played.

from bower import gfx, unload
from bower.menu import Menu, card_label
from bower.screens import Message, leave_first, set_quick, storage, rules_view
from bower.screens import MORE, VARIANT_LABELS, SEATS, OWN, value_row, option_keys, option_short
from euchre.rules import Rules, OPTIONS, VARIANTS, variant_names

_TARGETS = (5, 7, 10, 11, 15, 21, 25, 32, 35, 50)


def begin(app):
    # Home's "New game": while a game is in progress, after a second "yes".
    leave_first(app, "New game?", "Yes, leave game", new_game)


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
    if not st.has("presets"):
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
    for k in option_keys(opts, _rules(st["variant"], opts).later):
        items.append((value_row(option_short(st["variant"], k), opts.get(k, False)), k))
    # Quick score: a setting (bower.quick), kept for the games after.
    items.append((value_row("Quick score", bool(app.store.settings.get("quick"))), "quick"))
    label = VARIANT_LABELS[st["variant"]]
    return _Options(st["variant"], gfx.fit(label + " rules", label), items)


class _Options(Menu):
    # What the row under the cursor means, under a line at the bottom.
    def __init__(self, variant, title, items):
        Menu.__init__(self, title, items, _option_pick)
        self.variant = variant

    def foot(self):
        return gfx.wrap(_help(self.value(self.cursor), self.variant))


def _help(k, variant=""):
    # One sentence per option (two rows at most), for the options menu.
    own = OWN.get((variant, k))
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
         "no_late_loners": "No loners 2 short of target",
         "lone_euchre_4": "Loner euchred: 4 to defenders",
         "same_dealer": "All pass: same dealer again"}


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
        # without farmers; play on and raise_target, two ends of a tie;
        # Six-Handed's joker and jokers, two decks):
        # keep the value it had, and say why.
        opts[k] = allowed[i] if i >= 0 else opts[k]
        if k in later and not opts[k]:
            del opts[k]
        app.notify("Sub-options on: turn off first" if k == "farmers" else
                   "Turn Farmers on first" if k[:7] == "farmers" else
                   "Joker or Jokers: one" if k[:5] == "joker" else "Play on or Tie +10: one")


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
        v.lines.append(value_row("Quick score", bool(app.store.settings.get("quick"))))
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


# ----- the game is over: the next one ---------------------------------------------

def after_game(app):
    # (Save as preset: DOWN, OK; Home: UP, OK, the list wrapping round.)
    items = [("New game, same", "same"), ("Save as preset", "preset"), ("New game", "new"),
             ("Amend a hand", "amend"), ("Home", "home")]
    return Menu("Game over", items, _after_pick, info=("players: same?",))


def _after_pick(app, v):
    g = app.game
    if v == "same":
        app.home()
        new_game(app, g)
    elif v == "new":
        app.home()
        new_game(app)
    elif v == "amend":
        from bower.amend import hands_menu   # (the hand picked: quick score's screens)
        app.push(hands_menu(app))
    elif v == "preset":
        from bower.presets import save_played
        save_played(app, g.rules)
    else:
        app.home()
