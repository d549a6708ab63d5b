# The game screens, built from the game state after every input.
#
# ``game_screen(app)`` looks at the current hand's phase and offers exactly
# the legal inputs, labelled for the table, with the cursor on the likeliest
# one. Rare inputs (claim, renege, declarations, ...) sit behind "..." rows.

from bower import gfx
from bower.keys import UP, DOWN, OK, BACK
from bower.menu import Screen, Actions, GameMenu, card_label, SUITS, pad as _pad, reason as _reason
from bower.menu import MENU, BY_TRICK, ALL_PASS, MORE, DECLARE
from euchre import hand as H
from euchre import actions as A
from euchre.actions import NOBODY, kind_of, arg_of, flag_of
from euchre.cards import card_name

# The rare kinds of input, in the order "more..." lists them.
_RARE_KINDS = (A.REVEAL, A.CLAIM, A.THROWIN, A.RENEGE)
_DECLARE_KINDS = (A.FARMERS, A.TWOS, A.ACENOFACE, A.NINETENS)
_KIND = {A.REVEAL: "partner is", A.THROWIN: "throw-in"}
_DECLARE = {A.FARMERS: "farmers", A.TWOS: "2s & 3s", A.ACENOFACE: "ace no face",
            A.NINETENS: "9s & 10s"}
_WHO = {A.CLAIM: "Who claims?", A.RENEGE: "Who reneged?", A.THROWIN: "Who throws in?",
        A.REVEAL: "Partner card?", A.UP: "Upcard?"}


def game_screen(app):
    # (A hand in quick score has bower.quick's screens instead: App.show_game.)
    g = app.game
    if g.result:
        return GameOver()   # (a club round's end: bower.club, see App.show_game)
    h = g.hand
    if h.events == 0 and g.hand_no > 1 and app.acked != g.hand_no:
        return HandOver()
    build = _PHASES[h.phase]
    title, info, items, cursor = build(app, g, h)
    return GameMenu(title, items, _pick, cursor, info, _maker_label if build is _maker else None,
                    _pass_id(h) if build is _bid else -1)


def _pass_id(h):
    for a in h.legal_ids():
        if kind_of(a) == A.PASS:
            return a
    return -1


def _pick(app, v):
    # Rows hold action ids (most), a tag (bower.menu), or a "..." row's
    # (kind or tag, [action ids]) for the list it opens.
    if type(v) is tuple:
        if v[0] == MORE or v[0] == DECLARE:
            _more(app, v[0], v[1])
        else:
            _submenu(app, v[0], v[1])
    elif v >= 0:
        app.act_id(v)
    elif v == ALL_PASS:
        app.act_id(A.action(A.PASS), app.game.hand.bidders_left())
    elif v == BY_TRICK:
        app.by_trick = True
        app.show_game()
    else:
        app.game_menu()


def _submenu(app, kind, ids):
    # Rare inputs: "more" and "declare" list the kinds first, then a kind
    # lists who (a row never has to hold a name and a phrase).
    g = app.game
    info = ()
    title = _WHO.get(kind, "Who declares?")
    if kind == A.UP:
        items = [(card_label(card_name(arg_of(a))) + " up" if kind_of(a) == A.UP else "misdeal", a) for a in ids]
    elif kind == A.NOTRICK:
        # Five-Handed, who took no trick: those named after the first.
        items = []
        for a in ids:
            seats = _seats(arg_of(a))
            items.append(("+".join([_name(g, x) for x in seats[1:]]), a))
            title = _name(g, seats[0]) + " and?"   # (the same first seat in each)
        info = ("(took none)",)
    else:
        h = g.hand
        items = []
        likely = []
        for a in ids:
            s = arg_of(a)
            if s == NOBODY:
                items.append(("nobody", a))
                continue
            if kind == A.CLAIM and s == h.maker:
                likely = [len(items)]   # the makers claim, mostly
            elif kind == A.THROWIN and s != h.maker and not (h.picked_up and s == h.dealer):
                likely.append(len(items))   # all but those who hold trump (Five-Handed, 000)
            items.append((_name(g, s), a))
        if kind in _DECLARE:
            info = (_DECLARE[kind] + ":",)
        # The cursor on the middle one of the likely seats, else mid-list:
        # each seat at most half the list away (it wraps round).
        cursor = likely[len(likely) // 2] if likely else len(items) // 2
        app.push(Actions(title, items, _pick, cursor, info))
        return
    app.push(Actions(title, items, _pick, info=info))


def _more(app, tag, ids):
    # "more" and "declare": the kinds of input first (a single kind opens
    # at once), then a kind lists who.
    items = _kinds(ids)
    if len(items) == 1 and type(items[0][1]) is tuple:
        _submenu(app, items[0][1][0], items[0][1][1])
    else:
        app.push(Actions("Also" if tag == MORE else "Declare", items, _pick))


def _kinds(ids):
    # One row per kind of input, in the order given: ("claim...", (kind,
    # its action ids)); a misdeal is a row of its own.
    items = []
    groups = {}
    for a in ids:
        k = kind_of(a)
        if k == A.REDEAL:
            items.append(("misdeal", a))
        elif k in groups:
            groups[k].append(a)
        else:
            groups[k] = [a]
            label = _DECLARE[k] if k in _DECLARE else _KIND.get(k, A.WORDS[k])
            items.append((label + "...", (k, groups[k])))
    return items


def _seats(mask):
    return [s for s in range(6) if mask >> s & 1]


def _name(g, seat):
    return g.players[seat]


# ----- one builder per phase: (title, info lines, items, cursor) ----------

def _up(app, g, h):
    r = g.rules
    deal = "Deal " + "-".join([str(p) for p in r.packets])
    kitty = "kitty %d" % r.kitty
    info = gfx.wrap(deal + " " + kitty)
    if len(info[-1]) < 3:
        info = gfx.wrap(deal) + [kitty]   # ("Deal 2-3 kitty" over a lone "22": Two-Handed)
    info.append("Upcard?")
    items = []
    other = []
    for a in h.legal_ids():
        if kind_of(a) == A.UP and arg_of(a) < 4:
            s = arg_of(a)
            items.append(("  " + SUITS[s] + " " + ("clubs", "diamonds", "hearts", "spades")[s], a))
        elif kind_of(a) != A.QUICK:   # (quick score: bower.quick's screens)
            other.append(a)
    # Twos, jokers and a misdeal behind one row keep the suits close.
    if len(other) == 1:
        items.append(("misdeal", other[0]))
    else:
        items.append(("other...", (A.UP, other)))
    name = _name(g, h.dealer)
    if 0 < r.round_hands < 99:
        info[0] = "Hand %d of %d" % (g.counted + 1, r.round_hands)   # a club round of N hands
    elif r.round_hands:
        from bower.clubsetup import time_left   # a club round of M minutes
        info[0] = time_left(app, g)
    # The cursor mid-list: no suit is likelier, and each is then at most two
    # presses away (the list wraps round).
    return gfx.fit("H%d %s deals" % (g.hand_no, name), name + " deals"), info, items, len(items) // 2


def _up_label(h):
    if h.upcard >= 0:
        return card_label(card_name(h.upcard))
    return SUITS[h.up_suit]


def _name_phase(app, g, h):
    items = []
    for a in h.legal_ids():
        k = kind_of(a)
        if k == A.NAME:
            items.append(("name " + SUITS[arg_of(a)], a))
        elif k == A.TURN:
            items.append(("turned a " + SUITS[arg_of(a)], a))
        else:
            items.append(("misdeal", a))
    return _up_label(h) + " up", [_name(g, h.dealer) + " names:"], items, 0


def _bid(app, g, h):
    # One seat's bid as a yes/no question: the cursor on ordering up (round
    # 2: calling "next", the suit of the turned-down card's colour), BACK
    # passes. Alone bids after the plain ones, then the pass row, rare
    # inputs, the game menu; one UP from the top, everybody left passing.
    legal = h.legal_ids()
    r1 = h.phase == H.P_BID1
    dealer = h.turn == h.dealer
    plain = []
    alone = []
    declare = []
    misdeal = []
    passes = []
    for a in legal:
        k = kind_of(a)
        if k == A.PASS:
            passes.append(("pass (BACK)", a))
        elif k == A.ORDER or k == A.CALL:
            if flag_of(a):
                alone.append((_bid_label(a, dealer), a))
            elif not r1 and arg_of(a) == 3 - h.turned_down:
                plain.insert(0, (_bid_label(a, dealer), a))   # "next" first
            else:
                plain.append((_bid_label(a, dealer), a))
        elif k in _DECLARE_KINDS:
            declare.append(a)
        else:
            misdeal.append(("misdeal", a))
    items = plain + alone + passes
    if declare:
        items.append(("declare...", (DECLARE, declare)))
    items += misdeal
    items.append(("game menu...", MENU))
    if passes and h.bidders_left() > 1:
        items.append(("all pass" if h.bids == 0 else "the rest pass", ALL_PASS))
    who = _name(g, h.turn)
    if not dealer:
        who += ":"
    elif passes:
        who = gfx.fit(who + " (dealer):", "Dealer " + who + ":")
    else:
        who = gfx.fit(who + " (stuck):", "Stuck " + who + ":")
    title = "Rd1 %s up" if r1 else "Rd2 %s down"
    up = _up_label(h)
    if len(up) > 3 and not r1 and h.turned_down < 4:
        up = SUITS[h.turned_down]   # a joker was up: the suit named for it is down
    up = title % up
    hand = " H%d" % g.hand_no
    return gfx.fit(up + hand, up, title % "joker" + hand, title % "joker"), [who], items, 0


def _bid_label(a, dealer=False):
    # "order up", or "pick up" for the dealer, whose hand the upcard goes
    # to; "call" a suit; "order" a suit when the upcard is a joker.
    s = arg_of(a)
    suit = " " + SUITS[s] if s < 4 else ""
    if kind_of(a) == A.CALL:
        label = "call" + suit
    elif dealer:
        label = "pick up" + suit
    else:
        label = "order" + suit if suit else "order up"
    how = flag_of(a)
    if how == 2:
        # Alone with the partner's best card: fewer words where they must.
        return gfx.fit(label + " alone+best", label.replace(" up", "") + " alone+best",
                       label.replace(" ", "") + " alone+best")
    if how == 1:
        return label + " alone"
    return label


def _defend(app, g, h):
    items = []
    for a in h.legal_ids():
        if kind_of(a) == A.DEFEND:
            s = arg_of(a)
            items.append(("nobody" if s == NOBODY else _name(g, s), a))
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

    ace = power[trump * 13 + 12]

    def likely(a):
        # Likeliest first: the bowers and the ace of trump, the off aces,
        # the other trumps, the other cards down; then a misdeal, and going
        # alone last (one UP from the top: the list wraps round).
        k = kind_of(a)
        if k != A.PARTNER:
            return 1000 if k == A.ALONE else k
        c = arg_of(a)
        if eff[c] == trump:
            return -(1000 + power[c]) if power[c] >= ace else -(800 + power[c])
        return -(900 + c // 13) if c % 13 == 12 else -((c % 13) * 4 + c // 13)
    return _trump_title(g, h), ["Partner card?"], sorted(h.legal_ids(), key=likely), 0


def _maker_label(a):
    k = kind_of(a)
    if k == A.PARTNER:
        return card_label(card_name(arg_of(a)))
    return "go alone" if k == A.ALONE else "misdeal"


def _play(app, g, h):
    legal = h.legal_ids()
    info = []
    if h.tricks_played == 0:
        if h.picked_up and not h.out[h.dealer]:
            info.append(gfx.fit(_name(g, h.dealer) + " discards", "Dealer discards"))
        info.append(_name(g, h.leader) + " leads")
    if h.tricks_played == 0 and not app.by_trick:
        return _team_total(g, h, legal, info)
    items = []
    seats = []
    for a in legal:
        if kind_of(a) == A.WON:
            s = arg_of(a)
            seats.append(s)
            mark = "*" if s == h.maker or s == h.partner else " "
            items.append((_pad(_name(g, s) + mark, "%d" % h.tricks[s]), a))
    items.append(("more...", (MORE, _rare(legal, True))))
    # The likeliest winner: the last trick's (it leads now), else the maker.
    guess = h.leader if h.tricks_played else h.maker
    cursor = seats.index(guess) if guess in seats else 0
    title = "Trick %d %s" % (h.tricks_played + 1, SUITS[h.trump])
    title = gfx.fit(title + " " + _name(g, h.maker), title)
    if not info:
        info = ["Won by?"]
    return title, info, items, cursor


def _rare(legal, misdeal, kind=-1):
    # The rare inputs among ``legal`` (ids), reveal, claim, throw-in, renege
    # in that order, and a misdeal last; ``kind``: only that kind.
    out = []
    for k in _RARE_KINDS:
        if kind < 0 or k == kind:
            for a in legal:
                if kind_of(a) == k:
                    out.append(a)
    if misdeal:
        for a in legal:
            if kind_of(a) == A.REDEAL:
                out.append(a)
    return out


def _team_total(g, h, legal, info):
    # The makers' count in one press; a partner not yet known is asked next.
    n = g.rules.hand_size
    need = g.rules.tricks_to_make
    r = g.rules
    # (Three- and Two-Handed: the maker plays alone, partnerless)
    who = _name(g, h.maker) if h.alone or h.partner == NOBODY or not (r.teams or r.call_partner) else "makers"
    took = [-1] * (n + 1)          # count -> its action id
    redeal = -1
    for a in legal:
        k = kind_of(a)
        if k == A.TRICKS:
            took[arg_of(a)] = a
        elif k == A.REDEAL:
            redeal = a
    # Counts in order, the cursor on just enough: one UP is a euchre, one or
    # two DOWNs four or all five.
    items = []
    cursor = 0
    for t in range(n + 1):
        if took[t] >= 0:
            if t == need:
                cursor = len(items)
            items.append((who + " took %d" % t, took[t]))
    # A throw-in (legal only now, before the first lead) right after the
    # counts, then trick-by-trick entry, then the other rare inputs.
    for k in (A.THROWIN, -1, A.REVEAL, A.CLAIM, A.RENEGE):
        if k < 0:
            items.append(("trick by trick", BY_TRICK))
            continue
        acts = _rare(legal, False, k)
        if acts:
            items.append((_KIND.get(k, A.WORDS[k]) + "...", (k, acts)))
    if redeal >= 0:
        items.append(("misdeal", redeal))
    return _trump_title(g, h), info, items, cursor


def _notrick(app, g, h):
    # Five-Handed: only seats that took a trick score (000). Names that do
    # not fit one row: "all but" the one other of the side, else a row for
    # the first name opens the rest ("Bartholo+...").
    legal = h.legal_ids()
    side = 0
    for a in legal:
        side |= arg_of(a)
    items = []
    groups = {}
    for a in legal:
        m = arg_of(a)
        if not m:
            items.append(("each took one", a))
            continue
        seats = _seats(m)
        label = "+".join([_name(g, s) for s in seats])
        rest = [s for s in range(6) if (side & ~m) >> s & 1]
        if len(label) > 16 and len(rest) == 1:
            label = "all but " + _name(g, rest[0])
        if len(label) <= 16:
            items.append((label, a))
        elif seats[0] in groups:
            groups[seats[0]].append(a)
        else:
            groups[seats[0]] = [a]
            items.append((_name(g, seats[0]) + "+...", (A.NOTRICK, groups[seats[0]])))
    return _trump_title(g, h), ["Who took none?"], items, 0


def _reveal(app, g, h):
    items = []
    cursor = -1
    best = 0
    for a in h.legal_ids():
        s = arg_of(a)
        if s == NOBODY:
            items.append(("nobody", a))
        else:
            # Likeliest: the non-maker who took the most tricks; with only
            # the makers' total known, none: the cursor mid-list.
            if h.tricks[s] > best:
                best = h.tricks[s]
                cursor = len(items)
            items.append((_name(g, s), a))
    if cursor < 0:
        cursor = len(items) // 2
    return "Who held " + card_label(card_name(h.partner_card)) + "?", ["(partner card)"], items, cursor


_PHASES = {H.P_UP: _up, H.P_NAME: _name_phase, H.P_BID1: _bid, H.P_BID2: _bid,
           H.P_DEFEND: _defend, H.P_MAKER: _maker, H.P_PLAY: _play, H.P_REVEAL: _reveal,
           H.P_NOTRICK: _notrick}


# ----- results -------------------------------------------------------------

def standings(app, fb, notes=None, mark=-1):
    # The scores under the title bar, every name in full. Partnerships: each
    # side's names one above the other (two; Six-Handed's three), its score
    # beside them in large digits; else one row per player: name, score.
    # ``notes``: up to three characters right of each side's or player's
    # score (the last hand's points, "won"); ``mark``: a seat whose name is
    # lit (the next dealer, which the footer names). Returns the y of the
    # footer's line (``footer``): Six-Handed's six rows of names leave it
    # two pixels lower.
    g = app.game
    p = g.players
    sc = g.scores
    if g.rules.teams:
        n = len(p)
        # Six-Handed: the rows of names at y = 9, 17, ... 49 (the last ends
        # at 55), the sides apart by a dotted line in the free pixel row
        # between them, right of the longest name.
        for side in (0, 1):
            y = 9 + 24 * side if n == 6 else 12 + 23 * side
            for i in range(side, n, 2):
                _name_at(fb, p[i], y + 4 * (i - side), i == mark)
            s = str(sc[side])
            k = 3 if len(s) < 3 else 2
            mid = y + 2 * n - 1   # the middle of the side's rows
            gfx.big(fb, s, 100 - gfx.big_width(s, k), mid - 7 * k // 2, k)
            if notes and notes[side]:
                gfx.text(fb, notes[side], 104, mid - 3)
        if n == 6:
            for x in range(66, 128, 2):
                fb.pixel(x, 32, 1)
            return 56
        return 54
    for i in range(len(p)):
        y = 10 + 9 * i
        _name_at(fb, p[i], y, i == mark)
        s = str(sc[i])
        gfx.text(fb, s, 96 - 8 * len(s), y)
        if notes and notes[i]:
            gfx.text(fb, notes[i], 104, y)
    return 54


def _name_at(fb, name, y, lit):
    # A player's name at the left edge; lit: inverted, with a lit pixel row
    # above it (as in the title bar).
    if lit:
        fb.fill_rect(0, y - 1, 8 * len(name) + 1, 8, 1)
    gfx.text(fb, name, 0, y, 0 if lit else 1)


def footer(fb, s, y=54):
    # A line at ``y`` (standings' answer) and text ``s`` under it.
    fb.hline(0, y, 128, 1)
    gfx.text(fb, s, 0, 57)


def deals_footer(fb, before, name, y=54):
    # The footer "OK: Bob deals" (``before`` dropped if it does not fit), the
    # name lit like the next dealer's name in the standings: what that means.
    if len(before) + len(name) + 6 > 16:
        before = ""
    x = 8 * len(before)
    footer(fb, before, y)
    fb.fill_rect(x, 56, 8 * len(name) + 1, 8, 1)
    gfx.text(fb, name, x, 57, 0)
    gfx.text(fb, " deals", x + 8 * len(name), 57)


class HandOver(Screen):
    # The last hand's points and why, then the standings with the next
    # dealer's name lit; OK: next hand.
    game_screen = True

    def handle(self, app, ev):
        # OK: on to the next hand; UP/DOWN also move straight on, in the next
        # hand's first menu (a press saved whenever its first row is not it).
        if ev == OK:
            app.ack_hand()
        elif ev == BACK:
            app.game_menu()
        elif ev == UP or ev == DOWN:
            app.ack_hand()
            app.stack[-1].handle(app, ev)

    def draw(self, app, fb):
        g = app.game
        last = g.last_hand
        notes = None
        if last is None:
            title = "After hand %d" % (g.hand_no - 1)
        elif last.result == H.SCORED:
            title = _reason(g, last)
            notes = ["%+d" % d if d else "" for d in last.points]
        else:
            r = _reason(g, last)
            title = gfx.fit("no score: " + r, "void: " + r, r)
        gfx.bar(fb, title)
        deals_footer(fb, "OK: ", g.players[g.dealer], standings(app, fb, notes, g.dealer))


class GameOver(Screen):
    # The final standings, the winners marked "won" beside their scores.
    game_screen = True

    def handle(self, app, ev):
        if ev == OK or ev == BACK:
            app.after_game()

    def draw(self, app, fb):
        g = app.game
        won, kind = g.result
        names = g.winner_names()
        gfx.bar(fb, {"win": "Game over", "shared": "Shared win", "draw": "Game over: draw"}[kind])
        tag = "tie" if kind == "draw" else "won"
        y = standings(app, fb, [tag if i in won else "" for i in range(len(g.players))])
        verb = {"win": " wins" if len(names) == 1 else " win", "shared": " share", "draw": " tie"}[kind]
        footer(fb, gfx.fit(" & ".join(names) + verb, "+".join(names) + verb, "OK: menu"), y)
