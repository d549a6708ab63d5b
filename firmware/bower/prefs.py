# The store's small records: settings, roster, clock offset, the game
# counter (``cur``: its newest game) and the club round's setup (bower.store's
# Store calls these and keeps what they return); and how every write of
# the store's extras meets a full flash (``room``, ``full``). Each writer
# writes first and returns the value after, so a failed write (OSError; 28:
# flash full, after ``room`` removed what synced games it could) changes
# nothing. firmware/STORAGE.md describes the files.

DEFAULTS = {"brightness": 255, "dim_s": 60, "off_s": 600, "names": 0, "quick": 0}   # the settings


def valid(d):
    # The settings ``d`` over the defaults. :raises ValueError: not an int.
    s = dict(DEFAULTS)
    s.update(d)
    for k in s:
        if type(s[k]) is not int:
            raise ValueError(k + ": not an int")
    return s


def cur(st):
    # The newest game by the counter: (id, .st state) if its log is on
    # flash, else None.
    gid = "g%04d" % (st.next_no - 1)
    try:
        st.fs.stat(st.games_path + gid + ".log")
    except OSError:
        return None
    return gid, st.game_state(gid)


def save(st, s=None, r=None, c=None, n=None):
    # Write the settings record with the store's values, or those given.
    st.rec_file(st.settings_path, {"settings": st.settings if s is None else s,
                    "roster": st.roster if r is None else r,
                    "clock": st.clock_offset if c is None else c, "next": n or st.next_no})


def save_settings(st, d):
    # :raises ValueError: a value that is not an int.
    s = valid(d)
    room(st, save, st, s)
    return s


def set_clock_offset(st, seconds):
    if type(seconds) is not int:
        raise ValueError("clock: not an int")
    room(st, save, st, None, None, seconds)
    return seconds


def set_roster(st, names):
    # :raises ValueError: see bower.check_names; nothing changes.
    from bower import check_names
    r = check_names(names)[:]
    room(st, save, st, None, r)
    return r


def club(st):
    # The pushed round setup (bower.clubsetup), or None (none, or a damaged file).
    try:
        from bower.clubsetup import check
        return check(st.rec_file(st.club_path))
    except (ValueError, AttributeError):
        return None


def set_club(st, d):
    # Keep ``d`` (None: remove the setup). Nothing changes if it fails.
    # :raises ValueError: not a valid setup; OSError: not written.
    if d is None:
        try:
            st.fs.remove(st.club_path)
        except OSError:
            pass
        return
    from bower.clubsetup import check
    room(st, st.rec_file, st.club_path, check(d))


def room(st, fn, *a):
    # fn(*a), a write; if the flash is full (OSError 28), synced games are
    # removed one at a time (oldest first: Store.make_room) and it is tried
    # again.
    while True:
        try:
            return fn(*a)
        except OSError as e:
            if e.args[0] != 28 or not st.make_room(st.free(1) + 1):
                raise


def full(st):
    # Tell the app: the flash has no room (it shows how to make some).
    if "storage full" not in st.warnings:
        st.warnings.append("storage full")
