# portable: runs under MicroPython
# No press costs more with more games stored (issue 27 (a)). littlefs finds
# a name by reading the metadata of the directory it is in, which grows with
# that directory's entries (and so does creating a name: the whole
# directory is searched). The model here counts, for every filesystem call,
# the entries of the directory it looks in ("scanned"), besides the calls
# themselves (opens, listdir calls, bytes read). The same presses -- a
# game's last input (its flash write at the game's end included), OK on
# the game-over screen, "Home" on the menu that follows, and a new game's
# start -- with 10 and with 200 games stored must cost exactly the same.
# Before the archive (firmware/STORAGE.md: the games directory holds the
# newest games only), every game's files stayed in one directory: 33
# against 603 entries per lookup there.

from fakefs import FakeFS, UNDO_GAME, play
from bower.store import Store
from bower import keys as K
from euchre import Game, Rules
from uikit import Driver


class Scan(FakeFS):
    # A FakeFS that counts, while ``on``, each call and the entries of the
    # directory it looks in.
    def __init__(self):
        FakeFS.__init__(self, capacity=16 << 20)   # room for every game's files, in any layout
        self.on = False
        self.n = {}

    def spend(self, n, op, path, arg=None):
        # No trace of the changes (hundreds of games' worth), no power cuts.
        self.spent += n
        return n

    def reboot(self, cut=None):
        fs = Scan()
        fs.files, fs.dirs = self.files, self.dirs
        return fs

    def _look(self, what, path):
        if self.on:
            path = path.rstrip("/")
            d = path[:path.rfind("/")] if "/" in path else ""
            n = self.n
            n[what] = n.get(what, 0) + 1
            n["scanned"] = n.get("scanned", 0) + (len(FakeFS.listdir(self, d)) if d in self.dirs else 0)

    def open(self, path, mode="r"):
        self._look("open", path)
        return FakeFS.open(self, path, mode)

    def stat(self, path):
        self._look("stat", path)
        return FakeFS.stat(self, path)

    def remove(self, path):
        self._look("remove", path)
        return FakeFS.remove(self, path)

    def rename(self, old, new):
        self._look("rename", old)
        self._look("rename", new)
        return FakeFS.rename(self, old, new)

    def mkdir(self, path):
        self._look("mkdir", path)
        return FakeFS.mkdir(self, path)

    def listdir(self, path=""):
        self._look("listdir", path + "/x")
        return FakeFS.listdir(self, path)

    def statvfs(self, path):
        self._look("statvfs", path + "/x")
        return FakeFS.statvfs(self, path)

    def costs(self):
        out = dict(self.n)
        out["bytes read"] = self.bytes_read
        self.n = {}
        self.bytes_read = 0
        return out


def rules():
    return Rules("classic", winning_score=5)


def flash(stored):
    # ``stored`` games on flash (each abandoned by the next one after an
    # input), then a Classic game to 5 up to its last input, and the app
    # booted onto it.
    fs = Scan()
    s = Store("/", fs=fs)
    for _ in range(stored):
        g = Game(rules(), dealer=0)
        s.new_game(g)
        g.apply("up H")
        s.record(g, "up H")
        t = getattr(s, "tidy", None)    # what the app does when idle (App.warm)
        while t and t():
            pass
    g = Game(rules(), dealer=0)
    s.new_game(g)
    for e in UNDO_GAME[:-1]:
        play(g, e)
        s.record(g, e)
    d = Driver(store=Store("/", fs=fs.reboot()))
    return d


def idle(d):
    # The board loop between presses: App.warm until it has nothing left
    # (modules, the store's deferred work); not counted.
    fs = d.store.fs
    fs.on = False
    while d.app.warm():
        pass
    fs.costs()
    fs.on = True


def presses(stored):
    # What each press costs on that flash.
    d = flash(stored)
    idle(d)
    out = []
    fs = d.store.fs
    d.enter(UNDO_GAME[-1])                 # the game's end, written after its frame
    assert d.app.game.result
    out.append(("last input", fs.costs()))
    idle(d)
    d.press(K.OK)                           # the game-over screen: its menu
    assert d.top().title == "Game over"
    out.append(("OK on the game over", fs.costs()))
    idle(d)
    d.choose("home")
    assert d.top().title == "Bower"
    out.append(("Home", fs.costs()))
    idle(d)
    d.choose("new")
    d.choose("classic")
    d.choose("next")
    d.choose("next")
    d.choose(0)                             # hand 1 shows; the game is written after the frame
    assert d.app.game.event_count() == 0 and d.store.gid == "g%04d" % (stored + 2)
    out.append(("a new game's start", fs.costs()))
    return out


def test_every_press_costs_the_same_with_10_and_200_games_stored():
    few = presses(10)
    many = presses(200)
    for (what, a), (_w, b) in zip(few, many):
        assert a == b, (what, a, b)
    # The model does see the flash: these presses open and read files.
    assert few[0][1]["open"] > 0 and few[0][1]["bytes read"] > 0 and few[2][1]["scanned"] > 0
