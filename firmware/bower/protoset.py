# The sync protocol's commands that change the device's settings (host/
# PROTOCOL.md): ROSTER, CLOCK, CLUB, PRESET, and DAMAGED (a note on the
# screen).
# bower.protocol loads this module when one of them arrives, so a sync's
# requests never pay for it, and hands run() what it needs of its own (its
# error, number parser and reply): this module imports nothing of it, so no
# import runs in a circle.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_MIN_T = const(946684800)    # CLOCK accepts 2000-01-01 ...
_MAX_T = const(4102444800)   # ... to 2100-01-01
_HEX = "0123456789abcdef"
_MOST_PRESETS = const(8)     # bower.presets.MOST (that module loads for the last preset only)


def _unquote(tok, _Fail):
    # A percent-decoded ROSTER name (%XX is a byte in hex).
    out = bytearray()
    i = 0
    while i < len(tok):
        ch = tok[i]
        if ch == "%":
            h = tok[i + 1:i + 3].lower()
            if len(h) != 2 or h[0] not in _HEX or h[1] not in _HEX:
                raise _Fail("badargs", "bad %-escape")
            ch = chr(int(h, 16))
            i += 2
        if not " " <= ch <= "~":
            raise _Fail("badargs", "names are printable ASCII")
        out.append(ord(ch))
        i += 1
    return out.decode()


def _value(w, _num):
    # A preset option's value: true, false, a whole number or a word (LEFT_OF_LONER).
    if w == "true":
        return True
    if w == "false":
        return False
    return _num(w) if w.isdigit() else w


def _preset(a, _Fail, _num):
    # The preset PRESET's words after I N give: NAME VARIANT TARGET QUICK [OPTION=VALUE ...].
    if len(a) < 4:
        raise _Fail("badargs", "want: PRESET I N NAME VARIANT TARGET QUICK [OPTION=VALUE ...]")
    if a[3] not in ("0", "1"):
        raise _Fail("badargs", "quick is 0 or 1")
    o = {}
    p = {"name": _unquote(a[0], _Fail), "variant": a[1], "options": o, "quick": a[3] == "1"}
    if a[2] != "-":
        p["target"] = _num(a[2])
    for w in a[4:]:
        i = w.find("=")
        if i < 1 or i == len(w) - 1:
            raise _Fail("badargs", "want option=value, not " + w[:24])
        k = w[:i]
        if k in o:
            raise _Fail("badargs", "option %s given twice" % k[:24])
        o[k] = _value(w[i + 1:], _num)
    return p


def _save(st, ps, _Fail):
    # All the presets in one write (bower.presets.save); its refusal is badargs.
    import sys
    from bower import unload
    had = "bower.presets" in sys.modules
    from bower import presets
    try:
        presets.save(st, ps)
    except ValueError as e:
        raise _Fail("badargs", e.args[0] if e.args else "presets refused")
    finally:
        if not had:
            unload("bower.presets")


def _push(lk, tag, a, st, _Fail, _num, _ok):
    # PRESET I N ...: preset I of a push of N. Presets 1 to N-1 wait in RAM
    # (lk.presets: [N, the presets so far]); preset N writes them all, so a
    # push cut short leaves the flash as it was. Preset 1 begins a push;
    # the last one accepted, sent again (its reply was lost), gets the same
    # answer; anything else, or any error, drops the push.
    was = lk.presets
    lk.presets = None
    i = _num(a[0])
    k = _num(a[1])
    if i == k == 0 and len(a) == 2:
        _save(st, [], _Fail)
        return _ok(lk, tag, "0")
    if not 1 <= i <= k <= _MOST_PRESETS:
        raise _Fail("badargs", "preset I of N: 1 <= I <= N <= %d" % _MOST_PRESETS)
    p = _preset(a[2:], _Fail, _num)
    if was is not None and was[0] == k and len(was[1]) == i and was[1][-1] == p:
        lk.presets = was
        return _ok(lk, tag, "%d" % i)
    if i == 1:
        got = [p]
    elif was is None or was[0] != k or len(was[1]) != i - 1:
        raise _Fail("badargs", "preset %d of %d out of order: push dropped, start at 1" % (i, k))
    else:
        got = was[1] + [p]
    if i == k:
        _save(st, got, _Fail)
    lk.presets = [k, got]
    return _ok(lk, tag, "%d" % i)


def run(lk, tag, cmd, a, st, n, _Fail, _num, _ok):
    # Answer ``cmd``; False if its arguments are not this command's (the
    # caller answers ERR badargs). ``_Fail``, ``_num``, ``_ok``: bower.protocol's
    # error (code, message), number parser and OK reply (lk, tag, text).
    if cmd == "ROSTER":
        names = [_unquote(w, _Fail) for w in a]
        try:
            st.set_roster(names)
        except ValueError as e:
            raise _Fail("badargs", e.args[0] if e.args else "bad roster")
        return _ok(lk, tag, "%d" % n) or True
    if cmd == "CLOCK" and n == 1:
        t = _num(a[0])
        if not _MIN_T <= t < _MAX_T:
            raise _Fail("badargs", "time out of range")
        off = t - int(lk.clock())
        st.set_clock_offset(off)
        return _ok(lk, tag, "%d" % off) or True
    if cmd == "CLUB" and n in (1, 18):
        # A club round's setup (bower.club; host/CLUB.md): night table round
        # tables movement hands minutes loner set_loner renege, the next
        # round's table of each seat (0: not known), four quoted names.
        # "CLUB -": none.
        d = None
        if n == 18:
            v = [_num(x) for x in a[1:4] + a[5:14]]
            d = {"night": a[0], "table": v[0], "round": v[1], "tables": v[2], "move": a[4],
                 "hands": v[3], "minutes": v[4],
                 "scoring": {"loner": v[5], "set_loner": v[6], "renege": v[7]},
                 "next": v[8:12], "players": [_unquote(w, _Fail) for w in a[14:]]}
        elif a[0] != "-":
            raise _Fail("badargs", "CLUB - clears")
        try:
            st.set_club(d)
        except ValueError as e:
            raise _Fail("badargs", "club round " + (e.args[0] if e.args else "refused"))
        # The screen says so (App.tick; the home menu gains or loses its row).
        st.warnings.append("club round %d, table %d" % (d["round"], d["table"]) if d else "club round removed")
        return _ok(lk, tag, "") or True
    if cmd == "PRESET" and n >= 2:
        return _push(lk, tag, a, st, _Fail, _num, _ok) or True
    if cmd == "DAMAGED" and n == 2:
        # The host stored this game only up to a corrupt line: the device
        # says so on its screen (App.tick shows a new warning).
        k = _num(a[1])
        if k < 1:
            raise _Fail("badargs", "line must be at least 1")
        try:
            st.read(a[0], 0, 1)
        except (ValueError, OSError):
            raise _Fail("badid", "no game " + a[0][:16])
        st.warnings.append("%s line %d corrupt: synced up to it" % (a[0], k))
        return _ok(lk, tag, "") or True
    return False
