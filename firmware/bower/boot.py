# The store's boot: what interrupted writes left removed, the settings
# record loaded, the newest game resumed or its game-over screen brought
# back. bower.store's Store calls these and keeps what they return; it
# gives this module back once the boot is over (Store.over) and loads it
# again for ``load_full``. firmware/STORAGE.md describes the files.

from euchre.logline import decode_line, UNDO


def boot(st, r):
    # (settings, roster, clock offset, next game's number, the games
    # directory's ids oldest first, why the settings were reset: "corrupt",
    # "missing" or None: see ``reset``). A new device (no games directory
    # yet) writes nothing: its defaults are what no settings file means,
    # and the first game or setting saved writes it. The games directory holds the newest
    # games only (past/ the rest): what is listed here does not grow with
    # the games stored.
    fs = st.fs
    d = st.games_dir
    g = st.games_path
    try:
        fs.mkdir(r)
    except OSError:
        pass
    new = top = 0
    # Two passes over the directory, a name at a time (os.ilistdir where
    # there is one): firmware before past/ kept every game here, three
    # files each, and a list of them all would take a full flash's boot
    # some 15 KB of heap. The logs first, then what has no log.
    hot = []
    try:
        new = 2  # (an empty games directory: prepare() made it, then the power went before the first game)
        for p in _names(fs, d):
            new = 0
            if p[-4:] == ".log" and len(p) > 8 and p[0] == "g" and p[1:-4].isdigit():
                top = max(top, int(p[1:-4]))
                hot.append(p[:-4])
    except OSError:
        new = 1  # no games directory: made with the first game
    if not new:
        junk = [p for p in _names(fs, d)
                if p[-4:] == ".tmp" or p[-3:] in (".ck", ".st") and p[:-3] not in hot]
        for p in junk:
            try:
                fs.remove(g + p)  # an interrupted write, or what is left of a removed game
            except OSError:
                pass
    from bower.prefs import DEFAULTS, valid
    from bower import check_names
    s, o, c, n, e = dict(DEFAULTS), [], 0, 1, "corrupt"
    try:
        x = st.rec_file(st.settings_path)
        if x is None:
            e = "missing"
        else:
            s, o, c, n, e = valid(x["settings"]), check_names(x["roster"]), int(x["clock"]), int(x["next"]), 0
    except (TypeError, ValueError, KeyError):
        pass
    if e:
        try:
            fs.stat(st.settings_path[:-8] + "past.idx")
            top = max(top, st.sum()[3])  # the past games' newest
        except OSError:
            pass  # (no index, no past games: bower.past not loaded to boot a new device)
        if top:
            new = 0   # (games were kept: a settings file is missing, not a new device's)
    # Every game here but the newest goes to past/ when the app is next
    # idle (a power cut stopped its move, or firmware before past/).
    hot.sort(key=_num)
    return s, o, c, max(n, top + 1), hot, e if e == "corrupt" or e and not new else None   # (ids are never reused)


def reset(st, e):
    # The settings were reset (``e``: why): the user is told, and they are
    # written (with no room, the defaults hold until a setting is saved).
    from bower.prefs import full, room, save
    st.warnings.append("settings reset: file " + e)
    try:
        room(st, save, st)
    except OSError:
        full(st)


def _num(gid):
    return int(gid[1:])


def _names(fs, d):
    # The names in directory d, one at a time where the filesystem can.
    il = getattr(fs, "ilistdir", None)
    if il is None:
        return fs.listdir(d)
    return (e[0] for e in il(d))


def resume(st, over):
    # (the game opened, as _kept gives it, or None; ``(game, info)`` for
    # the unfinished game, or None): the store keeps the first as the game
    # being recorded. ``over``: the finished game whose game-over screen
    # is still up (nobody left it since the game ended) instead, the
    # boot's last question (the app asks it after resume): this module is
    # given back.
    from bower.prefs import cur
    if over:
        from bower import unload
        unload("bower.boot")
        c = cur(st)
        if c and c[1]["state"] == "finished" and c[1].get("open"):
            r = _open(st, c[0], c[1])
            return _kept(st, r), r[:2] if r and r[0].result else None
        return None, None
    c = cur(st)
    if not c or c[1]["state"] != "playing":
        return None, None
    r = _open(st, c[0], c[1])
    if r and r[0].result:
        # Ended, but the power went before the "finished" mark: the
        # game-over screen was up (``over`` brings it back).
        try:
            st.game_state(c[0], "finished", None, 1)
        except OSError:
            return _kept(st, r), r[:2]  # no room for the mark: the finished game, as over would
        return _kept(st, r), None
    return _kept(st, r), r and r[:2]


def _kept(st, r):
    # The game opened, r = (game, info, torn), as the store keeps it: (id,
    # size, lines, torn, ended), its torn last line cut off now (no room:
    # by the next input's append, or it is refused); None for None.
    if not r:
        return None
    g, i, t = r
    if t:
        from bower.past import trim_log
        from bower.prefs import room, full
        try:
            room(st, trim_log, st, st.games_path + i["id"], i["size"])
            t = 0
        except OSError:
            full(st)
    return i["id"], i["size"], i["lines"], t, 1 if g.result else 0


def load_full(st):
    # The current game replayed from its first event.
    # :raises ValueError: corrupt, or no game.
    if not st.gid:
        raise ValueError("no game")
    return load(st, st.gid, None)[0]


def _open(st, gid, s):
    # Load the game ``gid`` from its checkpoint: (game, info, torn: 1 if its
    # log's torn last line is still to be cut off), None if it cannot be.
    # ``s``: its .st record, whose "ack" (Store.ack) info keeps.
    p = st.games_path + gid
    try:
        ck = st.rec_file(p + ".ck")
    except ValueError:
        ck = None
    try:
        # (without a checkpoint, load returns a pair or raises)
        game, info = load(st, gid, ck) or load(st, gid, None)  # pyright: ignore[reportGeneralTypeIssues]
    except (ValueError, OSError) as e:  # (OSError: a log that cannot be read, e.g. a directory)
        st.warnings.append("%s %s: not resumed" % (gid, e))
        return None
    if info["dropped"]:
        st.warnings.append(gid + " " + info["dropped"])
    info["ack"] = s.get("ack", 0)
    return game, info, 1 if info["dropped"] else 0


def load(st, gid, ck):
    # Rebuild from checkpoint ``ck`` (or the start) and the lines after
    # it; None if ``ck`` is stale (an undo went back past it).
    # :raises ValueError: a corrupt line before the last, or one the rules refuse.
    from euchre.game import game_from_header  # the engine: not needed to boot to home
    with st.open(st.games_path + gid + ".log", "rb") as f:
        b = f.readline()
        hd = decode_line(b.decode(), 1)
        game = game_from_header(hd)
        if "club" in hd:
            game.club = hd["club"]  # pyright: ignore[reportAttributeAccessIssue]  (a club round: bower.club)
            game.started = hd.get("started", 0)  # pyright: ignore[reportAttributeAccessIssue]
        z, n, ok = len(b), 1, 0
        try:
            c, o, m = ck
            if o < z or m < 1:
                raise ValueError
            f.seek(o - 1)
            if f.read(1) != b"\n":  # not a line start: not this log's
                raise ValueError
            game.restore(c)
            z, n, ok = o, m, 1
        except (TypeError, ValueError):
            pass  # none or unusable: replay it all
        f.seek(z)
        k = r = bad = 0  # k: events in the stack since the start
        while True:
            b = f.readline()
            if not b:
                break
            if bad:
                raise ValueError("line %d corrupt" % bad)
            n += 1
            r += 1
            try:
                if b[-1:] != b"\n":
                    raise ValueError
                e = decode_line(b.decode(), n)
            except ValueError:
                bad = n  # torn if it is the last
                continue
            try:
                if type(e) is not str:
                    raise ValueError
                if e != UNDO:
                    game.apply(e)
                    k += 1
                elif k:
                    game.undo()
                    k -= 1
                elif ok:
                    return None
                else:
                    raise ValueError
            except ValueError:
                if ok:
                    return None  # (e.g. an amendment of a hand before ck: replay it all)
                raise ValueError("line %d refused" % n)
            z += len(b)
    return game, {"id": gid, "size": z, "lines": n - (bad > 0), "read": r, "checkpoint": ok,
                  "dropped": "torn line %d dropped" % bad if bad else None}
