# portable: runs under MicroPython
# The storage screen tells the truth (issue 27, point 7), by key presses on
# the real app and store: the free space is never negative and leaves out
# what a game start keeps in reserve (store.low); a game in progress that
# no sync has saved counts as not synced (and is never offered for
# deletion); one synced as it is counts as synced.

from fakefs import FakeFS
from bower.store import Store, extra
from bower import keys as K
from uikit import Driver

BLOCK = 4096


class Flash(FakeFS):
    # A FakeFS whose statvfs says ``free`` blocks are free (littlefs counts
    # blocks in use, and can count more than the flash has: negative).
    def __init__(self, free):
        FakeFS.__init__(self)
        self.free = free

    def reboot(self, cut=None):
        fs = Flash(self.free)
        fs.files, fs.dirs = self.files, self.dirs
        return fs

    def statvfs(self, path):
        self.alive()
        return (BLOCK, BLOCK, 352, self.free, self.free, 0, 0, 0, 0, 255)


def storage_screen(d):
    # Settings -> Free space, from home or (long OK) from a game.
    if getattr(d.top(), "game_screen", False):
        d.press(K.OK_LONG)
    d.choose("settings")
    d.choose("storage")
    m = d.top()
    assert m.title == "Storage"
    return m.info, [label for label, _v in m.items]


def test_the_free_space_is_never_negative_and_leaves_out_the_reserve():
    d = Driver(store=Store("/", fs=Flash(-8)))     # littlefs says -8 blocks: -32K
    info, rows = storage_screen(d)
    assert info[0] == "Free: 0K", info
    # 10 blocks free, 8 of them (store.low, 32 KB) kept for a game's start: 8K.
    d = Driver(store=Store("/", fs=Flash(10)))
    info, rows = storage_screen(d)
    assert info[0] == "Free: 8K", info
    d.press(K.BACK)
    assert d.top().title == "Settings" and d.top().text(4).endswith(" 8K")


def test_a_game_in_progress_counts_as_not_synced():
    fs = Flash(300)
    d = Driver(store=Store("/", fs=fs))
    d.new_game("classic")
    d.enter("up H")
    info, rows = storage_screen(d)
    assert info[1] == "Not synced: 1", info
    assert "Delete unsynced" not in rows       # the game in play is never deleted
    # Synced as it is now (bower sync in the middle of the game): 0.
    st = d.store
    g = extra("past").games(st)[-1]
    assert extra("past").mark_synced(st, g["id"], g["crc"])
    d.press(K.BACK)
    d.choose("storage")
    assert d.top().info[1] == "Not synced: 0"


def test_an_archived_game_not_synced_counts_and_may_be_deleted():
    from euchre import Game, Rules
    from fakefs import UNDO_GAME, play
    fs = Flash(300)
    s = Store("/", fs=fs)
    g = Game(Rules("classic", winning_score=5), dealer=0)
    s.new_game(g)
    for e in UNDO_GAME:
        play(g, e)
        s.record(g, e)
    s.close()
    s.new_game(Game(Rules("classic"), dealer=1))
    while s.tidy():                 # idle: the finished game goes to the archive
        pass
    assert "/past/g0001.log" in fs.files and "/games/g0001.log" not in fs.files
    d = Driver(store=Store("/", fs=fs.reboot()))   # back in the new game
    info, rows = storage_screen(d)
    assert info[1] == "Not synced: 2" and "Delete unsynced" in rows, (info, rows)
