# A club night's round on the device (host/CLUB.md): its setup, pushed by
# ``bower club push`` (the link's CLUB command) and kept in the store's
# ``club`` file; the round menu that starts it; the round's end: the result,
# its acceptance by the other side, then where everyone goes next.
#
# A round is an ordinary Classic game: the engine's club options make it
# end after ``hands`` hands and score the night's way, and its header's
# ``club`` object (``game.club``) says which night, table and round it is.
# The log ends with ``accept``; an undo after it stays in the log (a
# correction, never silent). Loaded only for a club round.

from bower import gfx
from bower.keys import OK, BACK
from bower.menu import Menu, Screen
from bower.play import footer, standings

from bower.clubsetup import SEATS
from euchre import actions as A


# ----- the round menu --------------------------------------------------------------

def round_menu(app, cursor=0):
    # The pushed round, as the table sees it: OK on "Start round" starts it;
    # the table, the round and each seat's player can be changed here
    # (``app.setup``: the setup being changed; None: the pushed one).
    st = app.setup
    if st is None or "move" not in st:
        st = app.setup = app.store.club()
    if st is None:
        from bower.screens import Message
        return Message("Club round", ["No club round on this Bower.",
                                      "The organiser sends one: bower club push."])
    p = st["players"]
    items = [("Start round", "start"), ("Table %d of %d" % (st["table"], st["tables"]), "table"),
             ("Round %d" % st["round"], "round")]
    for i in range(4):
        items.append((SEATS[i] + ": " + p[i], i))
    items.append(("Clear club round", "forget"))   # the night is over: home as before
    length = "%d hands" % st["hands"] if st["hands"] else "%d min" % st["minutes"]
    return Menu(gfx.fit("Club " + st["night"], "Club round"), items, _pick, cursor, (length + ", N deals",))


def _pick(app, v):
    st = app.setup
    if v == "start":
        from bower.screens import leave_first
        leave_first(app, "Leave game?", "Yes, start round", start)
        return
    if v == "forget":
        try:
            app.store.set_club(None)
        except OSError:
            pass
        app.setup = None
        app.home()
        return
    if v == "table":
        st["table"] = st["table"] % st["tables"] + 1
    elif v == "round":
        st["round"] = st["round"] % 200 + 1
    else:
        _seat(app, v)
        return
    _again(app, app.stack[-1].cursor)


def _again(app, cursor):
    app.replace(round_menu(app, cursor))


def _seat(app, seat):
    # Another player for a seat: the pushed four and the roster.
    p = app.setup["players"]
    names = [n for n in p + app.store.roster if n not in p or n == p[seat]]
    names = [n for i, n in enumerate(names) if n not in names[:i]]

    def chosen(app, name):
        p[seat] = name
        app.back()
        _again(app, seat + 3)
    app.push(Menu(SEATS[seat] + " player", [(n, n) for n in names], chosen, names.index(p[seat])))


def start(app):
    # The round's game: Classic, the night's scoring, no end on points, the
    # first dealer N; its header carries the club object.
    from euchre import Game
    from euchre.rules import Rules
    from bower.newgame import start_game
    st = app.setup
    s = st["scoring"]
    r = Rules("classic", {"winning_score": 99, "round_hands": st["hands"] or 99, "lone_march": s["loner"],
                          "set_loner": s["set_loner"], "renege_points": s["renege"]})
    g = Game(r, list(st["players"]), 0)
    t = app.info.get("time")
    g.started = t() + app.store.clock_offset if t else 0   # (a minutes round's clock: bower.play)
    g.club = {"v": 1, "night": st["night"], "table": st["table"], "round": st["round"],
              "hands": st["hands"] or None, "minutes": st["minutes"] or None, "scoring": dict(s)}
    start_game(app, g)


# ----- the round's end --------------------------------------------------------------

def _other(g):
    # The side that accepts the result: the winners' opponents.
    return "E/W" if g.result[0][0] == 0 else "N/S"


class RoundOver(Screen):
    # The round's result; OK: the other side accepts it (``accept``, in the
    # log). Then where everyone goes next; OK: home. ``early``: a minutes
    # round whose time is up, ended between hands by that OK.
    game_screen = True

    def __init__(self, early=False):
        self.early = early
        self.setup = None   # the pushed setup, read once (where everyone goes next)

    def handle(self, app, ev):
        g = app.game
        if ev == OK:
            if self.early or not g.accepted:
                app.act_id(A.ACCEPT)
            else:
                _next_round(app)
                app.home()
        elif ev == BACK:
            if self.early:
                app.back()
            else:
                app.game_menu()

    def draw(self, app, fb):
        g = app.game
        c = getattr(g, "club", None) or {}
        if self.early:
            gfx.bar(fb, "End round %d?" % c.get("round", 0))
            standings(app, fb)
            footer(fb, "OK: end & accept")
            return
        if g.accepted:
            if self.setup is None:
                self.setup = app.store.club() or {}
            _moves(fb, g, c, self.setup)
            return
        gfx.bar(fb, gfx.fit("Round %d over" % c.get("round", 0), "Round over"))
        won = g.result[0]
        standings(app, fb, ["won" if i in won else "" for i in range(4)])
        footer(fb, "OK: %s accepts" % _other(g))


def _moves(fb, g, c, st):
    # Where each player goes next by the night's movement (host/CLUB.md):
    # computed here for progressive and fixed nights; a partners night's
    # schedule comes with the pushed setup ``st``.
    same = st.get("night") == c.get("night") and st.get("round") == c.get("round")
    gfx.bar(fb, "Next round")
    t = c.get("table", 0)
    n = st.get("tables", 0)
    won = g.result[0]
    p = g.players
    y = 9
    unknown = 0
    for i in range(4):
        if not same or not n:
            where = "T?"
        elif st["move"] == "progressive":
            where = "T%d" % (max(1, t - 1) if i in won else min(n, t + 1))
        elif st["move"] == "fixed":
            where = "T%d %s" % ((t - 1 + (0, 1, -1, 2)[i]) % n + 1, SEATS[i])
        else:
            k = st["next"][i]
            where = "T%d" % k if k else "T?"   # a bye, or no next round
        unknown += where == "T?"
        gfx.text(fb, p[i] + " " * (9 - len(p[i])) + where, 0, y)
        y += 8
    if unknown or same and st["move"] == "progressive":
        gfx.text(fb, "T?, seats: board" if unknown else "seats: the board", 0, y)
    footer(fb, "OK: home")


def _next_round(app):
    # The setup moves on to the next round at this table (the organiser's
    # next push replaces it; the players can be changed in the round menu).
    st = app.store.club()
    c = getattr(app.game, "club", None) or {}
    if st and st.get("night") == c.get("night") and st["round"] == c.get("round") and st["round"] < 200:
        st["round"] += 1
        st["next"] = [0, 0, 0, 0]
        try:
            app.store.set_club(st)
        except (OSError, ValueError):
            pass  # the round menu offers the old round: one press changes it
    app.setup = None
