# portable: runs under MicroPython
# The flash store on the interpreter the Pico runs: settings, a game with
# undo across a hand boundary recorded and resumed after reboots, power cuts
# around every change of a short game, torn and corrupt logs, bad ids. Plain
# asserts, an in-memory FakeFS; the full suites are test_store.py and
# test_store_powercut.py (CPython).

from fakefs import UNDO_GAME, FakeFS, PowerCut, observe, play, run_game, count_done, expect_settings
from bower.store import Store, extra
from bower.prefs import DEFAULTS
from euchre import Game, Rules, IllegalAction
from euchre import log

INPUTS = UNDO_GAME   # a Classic game to 5 with undos (fakefs.py)
LOG = "/games/g0001.log"


def rules():
    return Rules("classic", winning_score=5)


def refs():
    g = Game(rules(), dealer=0)
    out = [observe(g)]
    for e in INPUTS:
        play(g, e)
        out.append(observe(g))
    assert g.result
    return out


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return
    raise AssertionError("no %s" % exc.__name__)


def test_settings_roster_clock_and_a_damaged_file():
    fs = FakeFS()
    s = Store("/", fs=fs)
    assert s.settings == DEFAULTS and s.warnings == []
    s.save_settings({"brightness": 7})
    s.set_roster(["Ann", "Bob"])
    s.set_clock_offset(99)
    raises(ValueError, s.set_roster, ["Zo\u00eb"])
    raises(ValueError, s.set_roster, ["Ann", "Ann"])
    raises(ValueError, s.save_settings, {"dim_s": "x"})
    s = Store("/", fs=fs.reboot())
    assert (s.settings["brightness"], s.roster, s.clock_offset) == (7, ["Ann", "Bob"], 99)
    fs.files["/settings"] = bytearray(b"\x00garbage")
    s = Store("/", fs=fs.reboot())
    assert s.warnings == ["settings reset: file corrupt"] and s.settings == DEFAULTS and s.roster == []


def test_a_game_resumed_after_reboots():
    ref = refs()
    fs = FakeFS()
    s = Store("/", fs=fs)
    g = Game(rules(), dealer=0)
    s.new_game(g)
    for i, e in enumerate(INPUTS):
        if ref[i][4]:  # over: not resumed (the undo of the end comes next)
            assert Store("/", fs=fs.reboot()).resume() is None
        else:
            s = Store("/", fs=fs.reboot())
            g, info = s.resume()
            assert observe(g) == ref[i], i
        if e == "undo":
            try:
                g.undo()
            except IllegalAction:
                g = s.load_full()
                g.undo()
        else:
            g.apply(e)
        s.record(g, e)
    s = Store("/", fs=fs.reboot())
    assert s.resume() is None and extra("past").games(s)[0]["state"] == "finished"
    g, dropped = log.loads(bytes(fs.files[LOG]).decode())
    assert observe(g) == ref[-1] and dropped is None


def test_power_cuts_around_every_change():
    ref = refs()
    dry = FakeFS()
    marks = run_game(dry, rules(), 0, INPUTS)[0]
    cuts = []
    for t in dry.trace:
        cuts += [t[2] - 1, t[2]]
    for cut, flash in dry.cuts(sorted(set(cuts))):
        s = Store("/", fs=flash)
        r = s.resume()
        k = count_done(marks, cut)
        assert (s.settings, s.roster, s.clock_offset) == expect_settings(marks, cut), cut
        if cut < marks["game"] or ref[k][4]:
            assert r is None, cut
        else:
            assert observe(r[0]) == ref[k], (cut, k)


def test_a_real_cut_and_the_rebuilt_flash_agree():
    dry = FakeFS()
    run_game(dry, rules(), 0, INPUTS)
    for cut in (5, dry.spent // 3, dry.spent - 2):
        fs = FakeFS(cut=cut)
        try:
            run_game(fs, rules(), 0, INPUTS)
        except PowerCut:
            pass
        assert fs.dead and fs.files == dry.at(cut).files, cut


def test_torn_and_corrupt_lines():
    fs = FakeFS()
    s = Store("/", fs=fs)
    g = Game(rules(), dealer=0)
    s.new_game(g)
    for e in INPUTS[:6]:
        g.apply(e)
        s.record(g, e)
    good = bytes(fs.files[LOG])
    fs.files[LOG] += b'["order","12'
    s = Store("/", fs=fs.reboot())
    g2, info = s.resume()
    assert observe(g2) == observe(g) and s.warnings == ["g0001 torn line 8 dropped"]
    assert bytes(fs.files[LOG]) == good
    fs.files[LOG][len(good) - 5] ^= 1  # the last line, now "earlier" than a new one
    fs.files[LOG] += log.encode_line("order").encode()
    damaged = bytes(fs.files[LOG])
    s = Store("/", fs=fs.reboot())
    assert s.resume() is None and s.warnings == ["g0001 line 7 corrupt: not resumed"]
    assert bytes(fs.files[LOG]) == damaged


def test_bad_ids_and_synced_games():
    fs = FakeFS()
    s = Store("/", fs=fs)
    s.new_game(Game(rules(), dealer=0))
    for bad in ("../x", "g1/../../", "", "g12", "G0001", "g0001.log", None):
        raises(ValueError, s.read, bad, 0, 10)
        raises(ValueError, extra("past").mark_synced, s, bad, "00000000")
    listed = extra("past").games(s)[0]
    assert s.read("g0001", 0, 1000) == bytes(fs.files[LOG])
    past = extra("past")
    assert not past.mark_synced(s, "g0001", "00000000") and past.mark_synced(s, "g0001", listed["crc"])
    assert extra("past").games(s)[0]["synced"]
