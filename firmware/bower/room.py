# Making room on a full flash: the synced games that ended removed, oldest
# first (the ones not synced too, only after the user said yes), and what
# that may remove counted; an input whose append failed written after all.
# Loaded only when the store has to remove something, an append failed or
# the storage screen counts, given back with the other extras
# (Store.trim). firmware/STORAGE.md says in what order the
# files go and why.

from bower.past import each, log_crc, mark, not_indexed, past_path
from bower.prefs import room


def make_room(st, need, every, out):
    # Remove synced finished or abandoned games, oldest first, until
    # ``need`` bytes are free; their ids go in ``out`` (Store.make_room
    # keeps its state by them, an error raised or not). Games
    # not synced too with ``every`` (only after the user said yes). A round
    # picks the games whose blocks make up what is missing, marks the
    # archived ones removed in one append (if the flash is too full for
    # that, after their logs went), then removes their files: the log
    # first, so an interrupted removal never leaves a game that looks
    # unfinished.
    tried = []
    fr = st.free()   # (asked of littlefs by Store.make_room)
    while fr < need:
        pick = []
        z = fr
        for e in each(st):
            if z < need and e[0] not in tried and removable(e, st, every):
                pick.append(e)
                z += (e[1] + 4095) // 4096 * 4096
        if not pick:
            break
        arc = [e[0] for e in pick if not e[5]]
        late = 0
        if arc:
            try:
                mark(st, "X", arc)
            except OSError as x:
                if x.args[0] != 28:
                    raise
                late = 1  # no room for the marks: after the logs went
        for e in pick:
            tried.append(e[0])
            p = (st.games_path if e[5] else past_path(st, "past/")) + e[0]
            try:
                st.fs.remove(p + ".log")
            except OSError as x:
                if x.args[0] != 2:
                    continue  # (2: gone already, its mark was missing)
            if e[5]:
                for x in (".ck", ".st"):
                    try:
                        st.fs.remove(p + x)
                    except OSError:
                        pass
            out.append(e[0])
        if late:
            try:
                mark(st, "X", arc)
            except OSError:
                pass  # listed until a removal finds room for its mark
        fr = st.free(1)


def again(st, game, p, b, e):
    # Store.record's append failed with ``e``. Flash full: synced games are
    # removed and it is written after all. Else the log is as it was (its
    # bytes past ``size`` are cut off first thing next time), the .st too (a
    # game whose end was being undone is finished again), and ``e`` raises.
    try:
        if e.args[0] == 28 and st.make_room(st.free(1) + 1):
            return room(st, st.append, game, p, b)
    except OSError as x:
        e = x
    if st.ended:
        try:
            st.game_state(st.gid, "finished", None, 1)
        except OSError:
            pass
    raise e


def removable(e, st, every):
    # May make_room remove this game? Never the one being recorded or one
    # in play; one not synced only if ``every``.
    return (e[4] or every) and e[3] != "playing" and e[0] != st.gid


def unsynced(st, every=1):
    # How many games no sync has saved: those make_room(..., every=1) may
    # remove, or (``every`` 0) all, the one in play (or being recorded)
    # included: what the storage screen calls "not synced".
    u = st.sum()
    n = u[2]
    k = u[3]
    for gid in st.hot:
        if not_indexed(st, gid, k):
            p = st.games_path + gid + ".log"
            try:
                c = log_crc(st, p)
            except OSError:
                continue
            s = st.game_state(gid)
            if s.get("synced") != c:
                n += not every or removable([gid, 0, c, s["state"], 0], st, 1)
    return n
