# The game screens, built from the game state after every input.
#
# ``game_screen(app)`` looks at the current hand's phase and offers exactly
# the legal inputs, labelled for the table, with the cursor on the likeliest
# one. Rare inputs (claim, renege, declarations, ...) sit behind "..." rows.

from bower import gfx
from bower.keys import OK, BACK
from bower.ui import Menu, card_label, suit_of_text, SUITS
from euchre import hand as H
from euchre import actions as A
from euchre.actions import NOBODY
from euchre.cards import card_name

_SUB = {"claim": "claims the rest", "renege": "reneged", "reveal": "held the card",
        "throwin": "throws in", "declare": "declares"}
_DECLARE = {"farmers": "farmers", "twos": "2s & 3s", "acenoface": "ace no face",
            "ninetens": "9s & 10s"}


def game_screen(app):
    g = app.game
    if g.result:
        return GameOver()
    h = g.hand
    if h.events == 0 and g.hand_no > 1 and app.acked != g.hand_no:
        return HandOver()
    build = _PHASES.get(h.phase)
    title, info, items, cursor = build(app, g, h)
    m = Menu(title, items, _pick, cursor, info, _maker_label if build is _maker else None)
    m.game_screen = True
    m.handle = _game_keys(m)
    return m


def _game_keys(menu):
    # BACK on a game screen opens the game menu (there is nothing behind it).
    plain = Menu.handle

    def handle(app, ev):
        if ev == BACK:
            app.game_menu()
        else:
            plain(menu, app, ev)
    return handle


def _pick(app, value):
    if isinstance(value, int):
        app.act(A.action_name(value))
    elif isinstance(value, tuple):
        _submenu(app, value[0], value[1])
    elif value == "by trick":
        app.by_trick = True
        app.show_game()
    else:
        app.act(value)


def _submenu(app, kind, actions):
    g = app.game
    items = []
    for a in actions:
        word, arg = _split(a)
        if kind == "up" or kind == "more":
            label = _other_label(g, word, arg)
        elif kind == "declare":
            label = _name(g, int(arg)) + ": " + _DECLARE[word]
        else:
            label = "nobody" if arg == "none" else _name(g, int(arg))
        items.append((label, a))
    title = {"claim": "Who claims?", "renege": "Who reneged?", "throwin": "Who throws in?",
             "declare": "Declare", "reveal": "Partner card?", "up": "Upcard?", "more": "Also"}[kind]
    app.push(Menu(title, items, _sub_pick))


def _sub_pick(app, value):
    app.act(value)


def _other_label(g, word, arg):
    if word == "up":
        return card_label(arg) + " up"
    if word == "redeal":
        return "misdeal"
    if word == "reveal":
        return ("nobody" if arg == "none" else _name(g, int(arg))) + " partner"
    return _name(g, int(arg)) + " " + _SUB[word][:16 - 1 - len(_name(g, int(arg)))]


def _split(a):
    i = a.find(" ")
    return (a, "") if i < 0 else (a[:i], a[i + 1:])


def _name(g, seat):
    return g.players[seat]


def _short(g, seat):
    return g.players[seat][:3]


# ----- one builder per phase: (title, info lines, items, cursor) ----------

def _up(app, g, h):
    r = g.rules
    deal = "Deal " + "-".join([str(p) for p in r.packets])
    info = [deal + " kitty %d" % r.kitty] if len(deal) < 9 else [deal, "kitty %d" % r.kitty]
    info.append("Upcard?")
    items = []
    other = []
    for a in g.legal_actions():
        word, arg = _split(a)
        if word == "up" and len(arg) == 1:
            items.append(("  " + suit_of_text(arg) + " " + ("clubs", "diamonds", "hearts", "spades")["CDHS".index(arg)], a))
        else:
            other.append(a)
    # Twos, jokers and a misdeal behind one row keep the suits close.
    if len(other) == 1:
        items.append(("misdeal", other[0]))
    else:
        items.append(("other...", ("up", other)))
    return "H%d %s deals" % (g.hand_no, _name(g, h.dealer)), info, items, 0


def _up_label(h):
    if h.upcard >= 0:
        return card_label(card_name(h.upcard))
    return SUITS[h.up_suit]


def _name_phase(app, g, h):
    items = []
    for a in g.legal_actions():
        word, arg = _split(a)
        if word == "name":
            items.append(("name " + suit_of_text(arg), a))
        elif word == "turn":
            items.append(("turned a " + suit_of_text(arg), a))
        else:
            items.append(("misdeal", a))
    return _up_label(h) + " up", [_name(g, h.dealer) + " names:"], items, 0


def _bid(app, g, h):
    legal = g.legal_actions()
    r1 = h.phase == H.P_BID1
    items = []
    rare = {}
    for a in legal:
        word, arg = _split(a)
        if word == "pass":
            items.append(("pass", a))
        elif word == "order" or word == "call":
            items.append((_bid_label(word, arg), a))
        elif word in _DECLARE:
            rare.setdefault("declare", []).append(a)
        else:
            items.append(("misdeal", a))
    # Alone bids after the plain ones; rare inputs last.
    items = [x for x in items if "alone" not in x[0] and x[0] != "misdeal"] + \
        [x for x in items if "alone" in x[0]] + [x for x in items if x[0] == "misdeal"]
    if "declare" in rare:
        items.insert(len(items) - 1, ("declare...", ("declare", rare["declare"])))
    who = _name(g, h.turn)
    if h.turn == h.dealer:
        who += " (dealer)" if "pass" in legal else " (stuck)"
    up = _up_label(h)
    title = ("Rd1 %s up" if r1 else "Rd2 %s down") % up
    return title + " H%d" % g.hand_no, [who + ":"], items, 0


def _bid_label(word, arg):
    parts = arg.split(" ") if arg else []
    label = "order up" if word == "order" else "call"
    if parts and len(parts[0]) == 1:
        label = ("order " if word == "order" else "call ") + suit_of_text(parts[0])
        parts = parts[1:]
    if "best" in parts:
        return label + " alone+" if len(label) > 8 else label + " alone+best"
    if "alone" in parts:
        return label + " alone"
    return label


def _defend(app, g, h):
    items = []
    for a in g.legal_actions():
        word, arg = _split(a)
        if word == "defend":
            items.append(("nobody" if arg == "none" else _name(g, int(arg)), a))
        else:
            items.append(("misdeal", a))
    return _trump_title(g, h), ["Lone defender?"], items, 0


def _trump_title(g, h):
    t = SUITS[h.trump] + " " + _name(g, h.maker)
    return t + (" alone" if h.alone else " made")


def _maker(app, g, h):
    # Rows are action ids (no strings but the visible labels).
    r = g.rules
    trump = h.trump
    power = r.power[trump]
    eff = r.eff[trump]

    def likely(a):
        # Likeliest first: the highest trumps, then off-suit aces down;
        # going alone and a misdeal last.
        if a & 31 != A.PARTNER:
            return a & 31
        c = a >> 5 & 63
        return -(1000 + power[c] if eff[c] == trump else (c % 13) * 4 + c // 13)
    return _trump_title(g, h), ["Partner card?"], sorted(h.legal_ids(), key=likely), 0


def _maker_label(a):
    k = a & 31
    if k == A.PARTNER:
        return card_label(card_name(a >> 5 & 63))
    return "go alone" if k == A.ALONE else "misdeal"


def _play(app, g, h):
    r = g.rules
    legal = g.legal_actions()
    info = []
    if h.tricks_played == 0:
        if h.picked_up and not h.out[h.dealer]:
            info.append(_name(g, h.dealer) + " discards")
        info.append(_name(g, h.leader) + " leads")
    if h.tricks_played == 0 and not app.by_trick:
        return _team_total(g, h, legal, info)
    items = []
    seats = []
    rare = {}
    for a in legal:
        word, arg = _split(a)
        if word == "won":
            s = int(arg)
            seats.append(s)
            mark = "*" if s == h.maker or s == h.partner else " "
            items.append((_pad(_name(g, s) + mark, "%d" % h.tricks[s]), a))
        elif word in _SUB:
            rare.setdefault(word, []).append(a)
    more = []
    for k in ("reveal", "claim", "throwin", "renege"):
        more += rare.get(k, [])
    if "redeal" in legal:
        more.append("redeal")
    items.append(("more...", ("more", more)))
    # The likeliest winner: the last trick's (it leads now), else the maker.
    guess = h.leader if h.tricks_played else h.maker
    cursor = seats.index(guess) if guess in seats else 0
    title = "Trick %d %s %s" % (h.tricks_played + 1, SUITS[h.trump], _name(g, h.maker)[:5])
    if not info:
        info = ["Won by?"]
    return title, info, items, cursor


def _pad(left, right, width=16):
    return left[:width - len(right) - 1] + " " * max(1, width - len(left) - len(right)) + right


def _team_total(g, h, legal, info):
    # The makers' count in one press; a partner not yet known is asked next.
    n = g.rules.hand_size
    need = g.rules.tricks_to_make
    order = list(range(need, n + 1)) + list(range(need - 1, -1, -1))
    who = _name(g, h.maker)[:8] if h.alone or h.partner == NOBODY else "makers"
    items = []
    for t in order:
        a = "tricks %d" % t
        if a in legal:
            items.append((who + " took %d" % t, a))
        if t == n:
            items.append(("trick by trick", "by trick"))
    for k in ("reveal", "claim", "throwin", "renege"):
        acts = [a for a in legal if a.startswith(k + " ")]
        if acts:
            items.append(({"reveal": "partner is", "throwin": "throw-in"}.get(k, k) + "...", (k, acts)))
    if "redeal" in legal:
        items.append(("misdeal", "redeal"))
    return _trump_title(g, h), info, items, 0


def _notrick(app, g, h):
    # Five-Handed: only seats that took a trick score (000).
    items = []
    for a in g.legal_actions():
        seats = _split(a)[1].split(" ")
        items.append(("each took one" if seats == ["none"] else
                      "+".join([_short(g, int(s)) for s in seats]), a))
    return _trump_title(g, h), ["Who took none?"], items, 0


def _reveal(app, g, h):
    items = []
    cursor = 0
    best = 0
    for a in g.legal_actions():
        word, arg = _split(a)
        if arg == "none":
            items.append(("nobody", a))
        else:
            s = int(arg)
            # Likeliest: the non-maker who took the most tricks.
            if h.tricks[s] > best:
                best = h.tricks[s]
                cursor = len(items)
            items.append((_name(g, s), a))
    return "Who held " + card_label(card_name(h.partner_card)) + "?", ["(partner card)"], items, cursor


_PHASES = {H.P_UP: _up, H.P_NAME: _name_phase, H.P_BID1: _bid, H.P_BID2: _bid,
           H.P_DEFEND: _defend, H.P_MAKER: _maker, H.P_PLAY: _play, H.P_REVEAL: _reveal,
           H.P_NOTRICK: _notrick}


# ----- results -------------------------------------------------------------

def standings(app, fb, y, deltas=None, mark=-1):
    # Scores in large digits: two sides in partnerships, else one column per
    # player. ``mark``: seat to highlight (the next dealer).
    g = app.game
    p = g.players
    sc = g.scores
    if g.rules.teams:
        for side in (0, 1):
            x0 = side * 64
            label = p[side][:3] + "&" + p[side + 2][:3]
            lit = mark == side or mark == side + 2
            if lit:
                fb.fill_rect(x0, y, 64, 8, 1)
            gfx.center(fb, label, y, 0 if lit else 1, x0, 64)
            s = str(sc[side])
            gfx.big(fb, s, x0 + (64 - gfx.big_width(s, 3)) // 2, y + 11, 3)
            if deltas and deltas[side]:
                gfx.center(fb, "%+d" % deltas[side], y + 34, 1, x0, 64)
        return
    n = len(p)
    w = 128 // n
    for i in range(n):
        x0 = i * w
        if i == mark:
            fb.fill_rect(x0, y, w - 1, 8, 1)
        gfx.center(fb, p[i][:3], y, 0 if i == mark else 1, x0, w)
        s = str(sc[i])
        if gfx.big_width(s, 2) <= w - 1:
            gfx.big(fb, s, x0 + (w - gfx.big_width(s, 2)) // 2, y + 11, 2)
        else:
            gfx.center(fb, s, y + 14, 1, x0, w)
        if deltas and deltas[i]:
            gfx.center(fb, "%+d" % deltas[i], y + 28, 1, x0, w)


class HandOver:
    # The last hand's points and why, then the standings; OK: next hand.
    game_screen = True

    def handle(self, app, ev):
        if ev == OK:
            app.ack_hand()
        elif ev == BACK:
            app.game_menu()

    def draw(self, app, fb):
        g = app.game
        last = g.last_hand
        if last is None:
            title = "After hand %d" % (g.hand_no - 1)
            deltas = None
        elif last.result == H.SCORED:
            title = last.reason
            deltas = last.points
        else:
            title = "no score: " + last.reason
            deltas = None
        gfx.bar(fb, title)
        standings(app, fb, 10, deltas, g.dealer)
        fb.hline(0, 54, 128, 1)
        gfx.text(fb, "OK: %s deals" % g.players[g.dealer][:8], 0, 56)


class GameOver:
    game_screen = True

    def handle(self, app, ev):
        if ev == OK or ev == BACK:
            from bower.screens import after_game
            app.push(after_game(app))

    def draw(self, app, fb):
        g = app.game
        kind = g.result[1]
        names = g.winner_names()
        head = {"win": "Winner", "shared": "Shared win", "draw": "Draw"}[kind]
        gfx.bar(fb, "Game over: " + head if kind != "win" else "Game over")
        standings(app, fb, 10)
        fb.hline(0, 54, 128, 1)
        line = " & ".join([n[:6] for n in names]) if g.rules.teams else ", ".join([n[:4] for n in names])
        gfx.text(fb, (head + ": " + line) if kind == "win" else line, 0, 56)
