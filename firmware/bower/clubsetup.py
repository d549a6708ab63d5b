# A club round's setup as the link receives it and the store keeps it
# (bower.club shows and starts it): the fields and their check; and a
# minutes round's clock. Imports nothing of the app but the name rule
# (bower's package init), so the store, the link and the game screens may
# use it.

SEATS = "NESW"
MOVES = ("progressive", "fixed", "partners")
_ID = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"   # a night id's characters


def check(d):
    # The setup if valid (see bower.protocol's CLUB for the fields).
    # :raises ValueError: naming the field.
    def num(k, lo, hi):
        v = d.get(k)
        if type(v) is not int or not lo <= v <= hi:
            raise ValueError("%s: %r" % (k, v))
        return v
    night = d.get("night")
    if not (isinstance(night, str) and 0 < len(night) <= 32 and not night.strip(_ID)):
        raise ValueError("night: %r" % (night,))
    num("table", 1, num("tables", 1, 64))
    num("round", 1, 200)
    if d.get("move") not in MOVES:
        raise ValueError("movement: %r" % (d.get("move"),))
    if (num("hands", 0, 99) == 0) == (num("minutes", 0, 99) == 0):
        raise ValueError("either hands or minutes")
    s = d.get("scoring")
    if type(s) is not dict or s.get("loner") not in (4, 5) or s.get("set_loner") not in (2, 3, 4) \
            or s.get("renege") not in (1, 2, 3, 4):
        raise ValueError("scoring: %r" % (s,))
    nxt = d.get("next")
    if type(nxt) is not list or len(nxt) != 4 or [t for t in nxt if type(t) is not int or not 0 <= t <= 64]:
        raise ValueError("next: %r" % (nxt,))
    p = d.get("players")
    if type(p) is not list or len(p) != 4:
        raise ValueError("four players")
    from bower import check_names
    check_names(p, 4)   # roster names, each once
    return d


def time_left(app, g):
    # A minutes round (bower.play, at each hand's start): the time left by
    # the clock the host set; once it is up, how to end the round.
    minutes = g.club["minutes"]
    t = app.info.get("time")
    off = app.store.clock_offset
    if not (t and off and g.started):
        return "%d-minute round" % minutes
    left = minutes - (t() + off - g.started) // 60
    return "%d min left" % left if left > 0 else "Time! End: menu"
