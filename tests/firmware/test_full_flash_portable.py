# portable: runs under MicroPython
# A full flash and the store, on the interpreter the Pico runs (issue 13,
# section 4): an input the flash does not take leaves the log as it was and
# is cut off before the next one; the flash full at every write of a short
# game (Store API, as bower.ui uses it) never loses an input taken and a
# reboot finds exactly those; a torn line that cannot be cut off for lack of
# room still resumes; settings, roster and clock change only once written;
# synced games make room, the game being recorded never goes. Plain
# asserts, a size-limited FakeFS; the UI side is test_full_flash.py.

from fakefs import UNDO_GAME, FakeFS, FILE_BYTES, observe, play
from bower.store import Store, extra
from bower.prefs import DEFAULTS
from euchre import Game, Rules, IllegalAction
from euchre import log

INPUTS = UNDO_GAME
LOG = "/games/g0001.log"


def new():
    return Game(Rules("classic", winning_score=5), dealer=0)


def refs():
    g = new()
    out = [observe(g)]
    for e in INPUTS:
        play(g, e)
        out.append(observe(g))
    return out


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc as e:
        return e
    raise AssertionError("no %s" % exc.__name__)


def enter(s, g, e):
    # As bower.ui: apply, record; refused (OSError 28): taken back.
    # Returns the game and whether the input was taken.
    if e == "undo":
        try:
            g.undo()
        except IllegalAction:
            g = s.load_full()
            g.undo()
    else:
        g.apply(e)
    try:
        s.record(g, e)
    except OSError as x:
        assert x.args[0] == 28
        if e == "undo":
            g = s.load_full()
        else:
            g.undo()
        return g, False
    return g, True


def test_the_flash_full_at_every_write_of_a_game():
    ref = refs()
    dry = FakeFS()
    s = Store("/", fs=dry)
    g = new()
    s.new_game(g)
    started = len(dry.trace)
    for e in INPUTS:
        g, ok = enter(s, g, e)
        assert ok
    final = bytes(dry.files[LOG])
    for k in range(len(dry.trace)):
        fs = FakeFS()
        fs.fill = (k, 0)
        try:
            s = Store("/", fs=fs)
            g = new()
            s.new_game(g)
        except OSError as x:
            assert x.args[0] == 28 and k < started, k   # at boot or the game's start
            continue
        done = 0
        for e in INPUTS:
            g, ok = enter(s, g, e)
            if not ok:
                break
            done += 1
        assert observe(g) == ref[done], k
        s = Store("/", fs=fs.reboot())              # still full
        r = s.resume() or s.resume(1)
        assert observe(r[0]) == ref[done], k
        data = bytes(fs.files[LOG])
        assert final.startswith(data), k
        if done < len(INPUTS):
            fs.limit = None                         # room again: the rest
            s = Store("/", fs=fs.reboot())
            g = (s.resume() or s.resume(1))[0]
            for e in INPUTS[done:]:
                g, ok = enter(s, g, e)
                assert ok, k
            assert bytes(fs.files[LOG]) == final, k


def test_a_torn_line_on_a_full_flash_resumes_and_is_cut_off_later():
    ref = refs()
    fs = FakeFS()
    s = Store("/", fs=fs)
    g = new()
    s.new_game(g)
    for e in INPUTS[:9]:
        g, ok = enter(s, g, e)
    good = bytes(fs.files[LOG])
    fs.files[LOG] += log.encode_line(INPUTS[9]).encode()[:-2]
    torn = bytes(fs.files[LOG])
    fs.limit = fs.used() + len(good) + FILE_BYTES - 1   # one byte short of the copy
    s = Store("/", fs=fs.reboot())
    g, info = s.resume()
    assert observe(g) == ref[9] and s.warnings == ["g0001 torn line 11 dropped", "storage full"]
    assert bytes(fs.files[LOG]) == torn and "/games/g0001.tmp" not in fs.files
    g, ok = enter(s, g, INPUTS[9])
    assert not ok and observe(g) == ref[9] and bytes(fs.files[LOG]) == torn
    s.fs.limit += 1
    g, ok = enter(s, g, INPUTS[9])
    assert ok and bytes(fs.files[LOG]) == good + log.encode_line(INPUTS[9]).encode()
    assert observe(Store("/", fs=fs.reboot()).resume()[0]) == ref[10]


def test_settings_roster_clock_change_only_once_written():
    fs = FakeFS()
    s = Store("/", fs=fs)
    fs.limit = fs.used()
    for fn, arg in ((s.save_settings, {"brightness": 9}), (s.set_roster, ["Ann"]),
                    (s.set_clock_offset, 60)):
        assert raises(OSError, fn, arg).args[0] == 28
    assert (s.settings, s.roster, s.clock_offset) == (DEFAULTS, [], 0)
    assert sorted(fs.files) == []   # a new device: nothing written to boot, nothing since
    assert raises(OSError, s.new_game, new()).args[0] == 28
    fs.limit = None
    s.set_roster(["Ann"])
    s = Store("/", fs=fs.reboot())
    assert s.roster == ["Ann"] and s.new_game(new()) == "g0001"   # it was never made


def test_a_boot_with_no_room_for_the_settings_keeps_the_defaults():
    # A new device writes nothing to boot, full flash or not.
    fs = FakeFS(limit=0)
    s = Store("/", fs=fs)
    assert s.settings == DEFAULTS and s.warnings == [] and fs.files == {}
    assert s.usage() == (0, 0) and extra("past").games(s) == []
    # One that has played and lost its settings file writes the defaults
    # again; with no room for them it says so, and they hold.
    fs = FakeFS()
    s = Store("/", fs=fs)
    s.save_settings({"brightness": 9})
    s.new_game(new())
    del fs.files["/settings"]
    fs.limit = fs.used()
    s = Store("/", fs=fs.reboot())
    assert s.settings == DEFAULTS and s.warnings == ["settings reset: file missing", "storage full"]
    assert "/settings" not in fs.files and [g["id"] for g in extra("past").games(s)] == ["g0001"]


def test_synced_games_make_room_the_one_recorded_never_goes():
    fs = FakeFS()
    s = Store("/", fs=fs, low=0)
    g = new()
    s.new_game(g)
    for e in INPUTS:
        g, ok = enter(s, g, e)
    crc = extra("past").games(s)[0]["crc"]
    assert extra("past").mark_synced(s, "g0001", crc)
    assert s.make_room(10 ** 6, 1) == []                # g0001 is still current
    s.close()                                          # the game-over screen left
    g = new()
    s.new_game(g)
    fs.limit = fs.used()
    g, ok = enter(s, g, "up H")                        # g0001 (synced) goes for it
    assert ok and [x["id"] for x in extra("past").games(s)] == ["g0002"]
    fs.limit = fs.used()
    g, ok = enter(s, g, "pass")
    assert not ok and s.make_room(10 ** 6, 1) == []    # nothing left but the game in play
