# Making room on a full flash: the synced games that ended removed, oldest
# first (the ones not synced too, only after the user said yes). Loaded
# only when Store.make_room has to remove something, given back with the
# other extras (Store.trim). firmware/STORAGE.md says in what order the
# files go and why.

from bower.past import each, mark, past_path, removable


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
