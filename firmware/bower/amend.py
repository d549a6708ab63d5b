# Amending a finished hand (issue 25, euchre.amend): "Amend a hand" in the
# game menu (between hands) and on the game-over menu lists the finished
# hands, newest first, each in a line ("H3 Ann+Cy +2"); the hand picked is
# entered again on quick score's screens (bower.quick, whose questions it
# reuses), and the last answer shows what changed: the hand's points, the
# score, and the game's end if it moved. Every answer is an input on flash
# as any other (the log keeps the hand and its amendment); long BACK takes
# one back. Loaded only when used.

from bower import gfx
from bower.menu import Menu, pad
from euchre import actions as A
from euchre.phases import SCORED, REDEAL


def hands_menu(app):
    # The finished hands but misdeals (their dealer dealt again: they stay).
    g = app.game
    if g.history_from > 1:
        # Resumed from a checkpoint: the earlier hands are on flash.
        g = app.game = app.store.load_full()
    from euchre.amend import records
    rows = []
    for r in records(g):
        if r[1] != REDEAL:
            rows.insert(0, r)
    return Menu("Amend which hand", rows, _pick, label=lambda r: line(g, r))


def _pick(app, r):
    n = r[0]
    app.act_id(A.action(A.AMEND, n % 64, n // 64))


def _label(g, seat, room=16):
    # A seat's name, or its partnership's ("Ann+Cy"; where that does not
    # fit ``room`` characters, the first name and a "+": "Ann+").
    if not g.rules.teams:
        return g.players[seat]
    names = g.players[seat % 2::2]
    t = "+".join(names)
    return t if len(t) <= room else names[0] + "+"


def _seats(g):
    # One seat per score: a partnership's first seat, else every seat.
    return range(2) if g.rules.teams else range(len(g.players))


def line(g, r):
    # A finished hand in a line: who scored what ("H3 Ann+Cy +2", "H5
    # Bob+Eve +1", "H2 Cy -2"), or that nothing scored; where it does not
    # fit, the first scorers only, their names as they fit ("H12 Ann+ +1").
    n, res, _dealer, pts = r
    if res != SCORED:
        return "H%d thrown in" % n
    groups = {}   # points: the seats (a partnership's first) that got them
    order = []
    for s in _seats(g):
        p = pts[s]
        if p:
            if p not in groups:
                groups[p] = []
                order.append(p)
            groups[p].append(s)
    if not order:
        return "H%d no points" % n
    t = "H%d" % n
    for p in order:
        t += " %s %+d" % ("+".join([_label(g, s) for s in groups[p]]), p)
    if len(t) <= 16:
        return t
    p = order[0]
    seats = groups[p]
    head, tail = "H%d " % n, " %+d" % p
    room = 16 - len(head) - len(tail)
    if len(seats) == 1:
        return head + _label(g, seats[0], room) + tail
    who = "+".join([g.players[s] for s in seats])
    return head + (who if len(who) <= room else g.players[seats[0]] + "+") + tail


def changed(g):
    # What the amendment just made changed: the hand's points and the
    # scores of those they changed, the end if it moved; OK: back.
    n, old, new, was, now, was_end, end = g.last_amend
    info = []
    for s in _seats(g):
        if old[s] != new[s]:
            v = "%+d > %+d" % (old[s], new[s])
            info.append(pad(_label(g, s, 15 - len(v)), v))
    if g.rules.teams:
        info.append(pad("score", "%d-%d > %d-%d" % (was[0], was[1], now[0], now[1])))
    else:
        for s in _seats(g):
            if was[s] != now[s]:
                v = "%d > %d" % (was[s], now[s])
                info.append(pad(_label(g, s, 15 - len(v)), v))
    if end:
        names = g.winner_names()
        info.append(gfx.fit(" & ".join(names) + (" win" if len(names) > 1 else " wins"), "game over"))
    elif was_end:
        info.append("the game goes on")
    if len(info) > 5:
        info = info[:4] + ["..."]
    return Menu("Hand %d amended" % n, [("OK", 0)], _ok, info=info)


def _ok(app, v):
    app.back()
