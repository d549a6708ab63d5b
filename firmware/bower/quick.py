# Quick score's screens (issue 25): each hand entered as who made trump
# and how it ended (euchre.quick), the deal and the game's end tracked as
# ever. The app (App.show_game) loads it instead of bower.play when the
# setting is on (``quick``, bower.screens' set_quick: in the new game's
# options or the game menu between hands) or a hand was begun quick, and
# drops the one it does not need: a hand holds the screens of its way of
# entry only.
#
# Each screen is a question whose likeliest answer is under the cursor
# (OK) and whose other answer is BACK, as a bid's pass is: a partnership's
# side (the cursor on the side of the first to bid, BACK the other), the
# maker's seat (the first to bid) in the calling variants, then the partner
# (the cursor mid-list, BACK: alone), then the end (made; BACK: euchred;
# going alone one UP, from the bottom). The hand's result is the next
# hand's first screen: the scores are its rows, the last hand its first
# line, so no result screen waits for an OK.
#
# An amendment (bower.amend) asks the same questions of the hand entered
# again (``g.amending``), titled with its number: "Amend H3".

from bower import gfx
from bower.menu import Actions, GameMenu, pad, reason, MENU, FULL
from euchre import actions as A
from euchre.actions import kind_of, arg_of, NOBODY
from euchre.quick import end_of, MADE, MARCH, EUCHRED, DEFENDED, RENEGE
from euchre.phases import P_UP, P_QPARTNER


def screen(app):
    # The menu for the quick hand's next input.
    g = app.game
    h = _hand(g)
    build = _start if h.phase == P_UP else _partner if h.phase == P_QPARTNER else _end
    title, info, items, cursor, back = build(app, g, h)
    return GameMenu(title, items, _pick, cursor, info, None, back)   # (back: BACK's answer, at its press edge)


def _pick(app, v):
    # Rows hold action ids, a tag (bower.menu), or (title, [ids or groups])
    # for a list whose rows are made only when it opens (``_label``).
    if type(v) is tuple:
        g = app.game
        title = v[0]
        if title[-1] == "+":
            # "Bartholo+": the names after the first
            app.push(Actions(title, v[1], _pick, 0, ("(took none)",),
                             lambda a: "+".join([_name(g, s) for s in _seats(arg_of(a))[1:]])))
        else:
            app.push(Actions(title, v[1], _pick, 0, label=lambda a: _label(g, a)))
    elif v >= 0:
        app.act_id(v)
    elif v == MENU:
        app.game_menu()
    elif v == FULL:
        from bower.screens import set_quick
        if set_quick(app, False):
            app.ack_hand()   # (the last result was on this screen: not again)


def _name(g, seat):
    return g.players[seat]


def _hand(g):
    # The hand the questions are about: an amendment's, else the current.
    return g.hand if g.amending is None else g.amending


def _side(g, side, room=16):
    # A partnership's names: "Ann+Cy" (Six-Handed: three); where they do
    # not fit ``room`` characters, the first and a "+" ("Bartholo+").
    out = []
    for p in range(side, len(g.players), 2):
        out.append(g.players[p])
    t = "+".join(out)
    return t if len(t) <= room else out[0] + "+"


# ----- the hand's start: who made trump -------------------------------------

def _start(app, g, h):
    r = g.rules
    n = h.n
    first = (h.dealer + 1) % n   # the first to bid
    makers = []
    none = redeal = -1
    for a in h.legal_ids():
        k = kind_of(a)
        if k == A.QUICK:
            if arg_of(a) == NOBODY:
                none = a
            else:
                makers.append(a)
        elif k == A.REDEAL and g.amending is None:
            redeal = a
    items = []
    back = -1
    if r.teams:
        # Both sides, in seat order, with their scores; the cursor on the
        # first bidder's side, BACK the other.
        cursor = first % 2
        for a in makers:
            s = arg_of(a)
            score = str(g.scores[s])
            label = _side(g, s, 15 - len(score))
            if s == cursor:
                items.append((pad(label, score), a))
            else:
                back = a
                items.append((gfx.fit(pad(label + " (BACK)", score), pad(label, score)), a))
    else:
        # Every player with the score, in bidding order: the first bidder
        # on top, under the cursor.
        cursor = 0
        for i in range(n):
            s = (first + i) % n
            items.append((pad(_name(g, s), str(g.scores[s])), makers[s]))
    if redeal >= 0:
        items.append(("misdeal", redeal))
    if g.amending is None:
        items.append(("full entry", FULL))
    items.append(("game menu...", MENU))   # (BACK answers the question here)
    if none >= 0:
        # One UP from the top.
        items.append(("thrown in" if r.std else "all passed", none))
    info = ["Who made trump?"]
    last = g.last_hand
    if 0 < r.round_hands < 99:
        info.insert(0, "Hand %d of %d" % (g.counted + 1, r.round_hands))   # a club round of N hands
    elif r.round_hands:
        from bower.clubsetup import time_left   # a club round of M minutes
        info.insert(0, time_left(app, g))
    elif last is not None and g.amending is None:
        why = reason(g, last)
        info.insert(0, gfx.fit("H%d: %s" % (g.hand_no - 1, why), why))
    name = _name(g, h.dealer)
    if g.amending is not None:
        return "Amend H%d" % g.amend_no, info, items, cursor, back
    return gfx.fit("H%d %s deals" % (g.hand_no, name), name + " deals"), info, items, cursor, back


# ----- the calling variants: the maker's partner ------------------------------

def _partner(app, g, h):
    m = h.maker
    n = h.n
    seats = {}
    back = none = -1
    for a in h.legal_ids():
        if kind_of(a) == A.ALONE:
            back = a
        elif arg_of(a) == NOBODY:
            none = a
        else:
            seats[arg_of(a)] = a
    # The others from the maker's left, the cursor on the second of them
    # (any may hold the card: each is then at most two away, and going
    # alone, the last row, two UPs).
    items = []
    for i in range(1, n):
        s = (m + i) % n
        items.append((_name(g, s), seats[s]))
    items.append(("no partner", none))
    items.append(("game menu...", MENU))   # (BACK answers the question here)
    items.append(("alone (BACK)", back))
    name = _name(g, m)
    return (gfx.fit("H%d %s's partner?" % (g.amend_no or g.hand_no, name), name + "'s partner?", "Partner?"),
            [gfx.fit("BACK: " + name + " alone", "BACK: alone")], items, 1, back)


# ----- how it ended -----------------------------------------------------------

def _end(app, g, h):
    r = g.rules
    (make, march, alone_make, alone_march, best_march, unpartnered_march,
     euchre, defend_euchre, renege, renege_alone) = r.score
    m = h.maker
    if r.teams:
        who = _side(g, m, 16)   # (the title: "Ann+Cy made it", else the names alone)
    elif h.alone:
        who = _name(g, m) + " alone"
    elif 0 <= h.partner < h.n:
        who = gfx.fit(_name(g, m) + "+" + _name(g, h.partner), _name(g, m) + "+")
    else:
        who = _name(g, m)
    if h.alone:
        make, march = alone_make, alone_march
    elif unpartnered_march and not r.teams and h.partner == NOBODY:
        march = unpartnered_march   # 000, 001: no partner, not alone
    top = {}
    alone = []
    more = []
    reneges = []
    none = []
    for a in h.legal_ids():
        end, how = end_of(a)
        if end == RENEGE:
            reneges.append(a)
        elif end == DEFENDED:
            more.append(a)   # 004: a lone defender (option)
        elif arg_of(a):
            none.append(a)   # 000: who of the scoring side took no trick
        elif how:
            # A partnership's lone maker: one UP from the top, all but
            # euchred with its points.
            pts = (0, alone_make, best_march if how == 2 else alone_march, 0)[end]
            label = A.QUICK_ENDS[end] + (" +%d" % pts if pts else "")
            alone.insert(0, (gfx.fit("alone+best: " + label, "best: " + label)
                             if how == 2 else "alone: " + label, a))
        else:
            top[end] = a
    items = [("made +%d" % make, top[MADE]), ("march +%d" % march, top[MARCH]),
             ("euchred (BACK)", top[EUCHRED])]
    more.append(("Who reneged?", reneges))
    items.append(("more...", ("Also", more)))
    items.append(("game menu...", MENU))   # (BACK answers the question here)
    if none:
        # Five-Handed (000: only who took a trick scores): one UP.
        items.append(("took none...", ("Who took none?", _none_rows(g, none))))
    items += alone
    return gfx.fit(who + " made it", who), ["How did it end?"], items, 0, top[EUCHRED]


def _none_rows(g, ids):
    # The ends with who took no trick, one player before two and a euchre
    # (the likeliest) before made and march: "euchred: Cy", "made: Bob",
    # "euchred: Cy+Eve". Names that do not fit a row with "euchred" (only
    # a euchre's defenders may be two or more): "all but" the one other
    # defender, else "Bartholo+..." opening the rest.
    order = []
    for a in ids:
        x = arg_of(a)
        n = 0
        while x:
            n += x & 1
            x //= 2
        order.append((n, (end_of(a)[0] + 1) % 4, a))
    order.sort()
    out = []
    groups = {}
    for _n, _e, a in order:
        if len(_label(g, a)) <= 16:
            out.append(a)
            continue
        first = _seats(arg_of(a))[0]
        if first not in groups:
            groups[first] = []
            out.append((_name(g, first) + "+", groups[first]))
        groups[first].append(a)
    return out


def _seats(mask):
    out = []
    for s in range(6):
        if mask >> s & 1:
            out.append(s)
    return out


def _label(g, a):
    # The row of a rare end or group: "Bob (alone)" reneged, "lone
    # defender", "euchred: Cy" took no trick (see _none_rows).
    if isinstance(a, tuple):
        return "renege..." if a[0] == "Who reneged?" else a[0] + "..."
    end, how = end_of(a)
    x = arg_of(a)
    if end == RENEGE:
        return _name(g, x) + (" (alone)" if how else "")
    if end == DEFENDED:
        # 004: a lone defender euchred the makers (alone too: how)
        return ("euchred by loner", "alone, lone def.", "best, lone def.")[how]
    seats = _seats(x)
    names = []
    for s in seats:
        names.append(_name(g, s))
    names = "+".join(names)
    word = A.QUICK_ENDS[end]
    if end != EUCHRED or len(seats) < 2:
        return gfx.fit(word + ": " + names, word + ":" + names)
    # (two or more: only a euchre's defenders; the one other defender)
    rest = []
    h = _hand(g)
    for s in range(h.n):
        if s != h.maker and s != h.partner and s not in seats:
            rest.append(_name(g, s))
    t = gfx.fit(word + ": " + names, word + ":" + names, names)
    return t if len(t) <= 16 or len(rest) != 1 else gfx.fit("eu: all but " + rest[0], "all but " + rest[0])
