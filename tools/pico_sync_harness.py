# MicroPython half of tools/bench_pico_sync.py (run by the native unix port,
# `micropython`; not for CPython):
#
#     micropython pico_sync_harness.py FIRMWARE_DIR FLASH_FILE FIFO MODE ARG...
#
# FIRMWARE_DIR holds the device's modules as `bower deploy` compiles them
# (lib/bower/*.mpy, lib/euchre/*.mpy). The flash is a littlefs2 filesystem
# in FLASH_FILE (4 KB blocks, 256-byte programs, 352 blocks: the rp2
# RPI_PICO build's 1,441,792 bytes), kept between runs.
#
#   setup NEW SYNCED FULL SEED   a fresh flash with the firmware on it (the
#                                modules load from littlefs, as on the
#                                Pico), then SYNCED games marked synced,
#                                then NEW games not synced (FULL=1: games
#                                until the store wants room for the next)
#   sync                         boot the store (as bower.board does: Store,
#                                resume, the app's idle work), then a whole
#                                sync as `bower sync` runs it: HELLO, LIST,
#                                GET chunks of every game not synced,
#                                SYNCED for up to 12 of them a request (one
#                                a request if the firmware refuses several)
#
# In sync mode every request is bracketed by marks: os.getenv(_MARK), which
# callgrind (--dump-before=mp_os_getenv) turns into a cost dump, so the dump
# after a request's "A" mark holds the device's instructions for it: the link
# reading the request from the USB FIFO byte by byte (Link.poll, as the board
# loop calls it), the command, the reply written. The host's side (making
# requests, reading replies) runs between a "B" mark and the next "A" mark.
# Printed at the end, one line per request:
#   REQ cmd bytes_in bytes_out erases pages

import os
import sys
import vfs

_MARK = "BOWER_SYNC_MARK"


from fileflash import FileFlash  # noqa: E402  (the harness's directory)
from bower.store import extra  # noqa: E402


class Rng:
    # xorshift32 (tests/firmware/uikit.py's)
    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x * 8192) & 0xFFFFFFFF    # x << 13
        x ^= x // 131072                 # x >> 17
        x ^= (x * 32) & 0xFFFFFFFF      # x << 5
        self.x = x
        return x % n


RARE = ("redeal", "renege", "claim", "throwin", "farmers", "twos", "acenoface", "ninetens")


def play(store, seed):
    # One seeded table-mode Classic game recorded input by input (as the
    # app records them), then left (its game-over screen closed).
    from euchre import Game, Rules
    rnd = Rng(seed)
    g = Game(Rules("classic"), dealer=seed % 4)
    store.new_game(g, 1763700000 + seed)
    n = 0
    while not g.result and n < 400:
        legal = [a for a in g.legal_actions() if a[:5] != "quick"]   # (entered in full)
        common = [a for a in legal if a.split(" ")[0] not in RARE] or legal
        a = common[rnd.below(len(common))]
        g.apply(a)
        store.record(g, a)
        n += 1
    store.close()
    idle(store)


def idle(store):
    # What the app does while nobody presses a button (bower.ui App.warm):
    # the store's deferred work, if this firmware has any.
    t = getattr(store, "tidy", None)
    while t and t():
        pass


def _copy(src, dst):
    for e in os.ilistdir(src):
        if e[1] == 0x4000:
            os.mkdir(dst + "/" + e[0])
            _copy(src + "/" + e[0], dst + "/" + e[0])
        else:
            with open(src + "/" + e[0], "rb") as f:
                data = f.read()
            with open(dst + "/" + e[0], "wb") as f:
                f.write(data)


def low(st):
    # Would the app refuse a game for lack of room? (bower.screens: the
    # store's estimate first, then littlefs asked while making room.)
    if st.low_space():
        st.make_room()
        return st.low_space()
    return False


def setup(fw, flash, new, synced, full, seed):
    # The firmware on the flash as bower deploy puts it (the link's modules
    # load from there, as on the Pico), then the games.
    flash.reset()
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/flash")
    os.mkdir("/flash/lib")
    _copy(fw + "/lib", "/flash/lib")
    from bower.store import Store
    st = Store("/flash/", device="e6614103e7a1b2c3")
    for i in range(synced):
        play(st, seed + i)
    for g in extra("past").games(st):
        extra("past").mark_synced(st, g["id"], g["crc"])
    idle(st)
    i = synced
    while i < synced + new or full and not low(st):
        play(st, seed + i)
        i += 1
    gs = extra("past").games(st)
    print("SETUP games %d synced %d log_bytes %d free %d" % (
        len(gs), sum(1 for g in gs if g["synced"]), sum(g["size"] for g in gs), st.usage()[1]))
    vfs.umount("/flash")


def _crc(b):
    from binascii import crc32
    return "%08x" % (crc32(b) & 0xFFFFFFFF)


class Host:
    # The host side: requests into the FIFO the link polls, replies from the
    # link's write callback.
    def __init__(self, fifo, link_box):
        self.fifo = fifo
        self.out = []
        self.box = link_box
        self.n = 0
        self.lines = 0
        self.log = []

    def write(self, b):
        self.out.append(bytes(b))
        self.lines += b.count(b"\n")
        return len(b)

    def ask(self, cmd, lines=1):
        # Send one request, run the link's polls until ``lines`` reply lines
        # came back (LIST: the count its first line announces).
        self.n += 1
        body = "#B? t%d %s" % (self.n, cmd)
        req = (body + " " + _crc(body.encode()) + "\n").encode()
        self.fifo.write(req)
        f = self.box[0]
        e0, p0 = f.erases, f.prog
        self.out = []
        self.lines = 0
        link = self.box[1]
        mark()
        polls = 0
        while polls < 5000:
            link.poll()
            polls += 1
            got = self.lines
            if cmd == "LIST" and got and lines == 1:
                lines = 1 + int(self.out[0].split(b"\n")[0].split(b" ")[3])
            if got >= lines:
                break
        mark()
        data = b"".join(self.out)
        self.log.append((cmd.split(" ")[0], len(req), len(data), f.erases - e0, f.prog - p0))
        return data


def mark():
    os.getenv(_MARK)


def sync(flash, fifo_path):
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/flash")
    sys.path[:0] = ["/flash", "/flash/lib"]   # imports walk littlefs, as on the Pico
    try:
        import bowerpak   # what main.py does first: the modules from /lib/bower.pak
        bowerpak.mount("/flash/lib/bower.pak", "/pak")
    except ImportError:
        pass    # (firmware before the pack)
    from bower.store import Store
    from bower.link import Link
    st = Store("/flash/", device="e6614103e7a1b2c3")
    st.resume() or st.resume(1)   # as App() at boot: the store's bower.boot loaded
    idle(st)
    fifo = open(fifo_path, "r+b")
    box = [flash, None]
    host = Host(fifo, box)
    box[1] = Link(st, {"version": "bench", "device": "e6614103e7a1b2c3"}, host.write,
                  clock=lambda: 1763700000, stdin=fifo)
    import gc
    gc.collect()
    mark()   # the start: from here, every request is an A/B pair of marks
    host.ask("HELLO 1")
    lst = host.ask("LIST")
    todo = []
    for ln in lst.split(b"\n")[1:]:
        w = ln.split(b" ")
        if len(w) > 7 and w[2] == b"GAME" and w[7] == b"0":
            todo.append((w[3].decode(), int(w[4]), w[5].decode()))
    marks = []
    one = [False]   # the firmware takes one game a SYNCED (answered ERR badargs to several)

    def flush():
        # As bower_host.syncer: up to 12 stored games a SYNCED request.
        if len(marks) > 1 and not one[0]:
            r = host.ask("SYNCED " + " ".join(["%s %s" % m for m in marks]))
            if b" ERR badargs" not in r:
                del marks[:]
                return
            one[0] = True
        for m in marks:
            host.ask("SYNCED %s %s" % m)
        del marks[:]

    for gid, size, crc in todo:
        off = 0
        while off < size:
            r = host.ask("GET %s %d 2048" % (gid, off))
            n = int(r.split(b" ")[5])
            if n <= 0:
                break
            off += n
        marks.append((gid, crc))
        if len(marks) == 12:
            flush()
    flush()
    mark()
    for cmd, bin_, bout, e, p in host.log:
        print("REQ", cmd, bin_, bout, e, p)
    print("SYNCED_GAMES", len(todo), sum(t[1] for t in todo))
    vfs.umount("/flash")


def main(argv):
    fw = argv[1]
    flash = FileFlash(argv[2])
    mode = argv[4]
    if mode == "setup":
        sys.path[:0] = [fw + "/lib"]
        setup(fw, flash, int(argv[5]), int(argv[6]), int(argv[7]), int(argv[8]))
    else:
        sync(flash, argv[3])


main(sys.argv)
