# The device never loses a game: with the real flash store, rebooting at any
# point of a game (a new App on the same files) brings back the same screen,
# and the game goes on to the same end. Undo works across the reboot. The
# game-over screen, too, comes back after a reboot until somebody leaves it.

import sys
import tempfile

sys.path.insert(0, "tests/firmware")

from uikit import INFO, Driver, Canvas, boot, table_game
from bower.store import Store, extra
from bower.ui import App
from bower import keys as K


def screen_of(d):
    c = Canvas()
    d.app.render(c)
    return c.screen_text(), bytes(c.buffer)


def test_reboot_after_every_input_resumes_the_same_screen():
    events, ref = table_game("classic", 11)
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.new_game("classic")
        for i, e in enumerate(events):
            d.enter(e)
            before = screen_of(d)
            over = d.app.game.result
            d = boot(root)
            assert screen_of(d) == before, (i, e, before[0], screen_of(d)[0])
        assert i == len(events) - 1 and over == ref.result
        assert screen_of(d)[0][0] == "Game over"
        assert extra("past").games(d.app.store)[-1]["state"] == "finished"


def test_undo_after_reboot_reaches_back_into_earlier_hands():
    events, ref = table_game("five", 12)
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.new_game("five")
        cut = len(events) // 2
        for e in events[:cut]:
            d.enter(e)
        hand_no = d.app.game.hand_no
        d = boot(root)
        # Undo back through the current hand and into the one before it.
        n = d.app.game.hand.events + 2
        for _ in range(n):
            d.press(K.BACK_LONG)
        assert d.app.game.event_count() == cut - n
        assert d.app.game.hand_no < hand_no
        # Re-enter the undone inputs and finish: the same game results.
        for e in events[cut - n:]:
            d.enter(e)
        assert d.app.game.scores == ref.scores
        assert d.app.game.events() == events
        d = boot(root)
        assert d.app.game is None or d.app.game.result


def test_settings_survive_a_reboot():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.choose("settings")
        d.choose("brightness")
        level = d.app.store.settings["brightness"]
        assert level != 255
        d = boot(root)
        assert d.app.store.settings["brightness"] == level
        assert d.app.contrast == level


def test_full_flash_refuses_the_input_and_loses_nothing_once_space_returns():
    # Issue 13, section 4: an input the full flash does not take is taken
    # back (a power cut then loses nothing the screen showed) and the
    # storage screen says so; the same input goes in once there is room.
    from fakefs import FakeFS
    events, ref = table_game("classic", 13)
    fs = FakeFS()
    store = Store("", fs=fs, device="e6614103e7")
    d = Driver(App(store, INFO), store)
    d.new_game("classic")
    for e in events[:5]:
        d.enter(e)
    fs.full = 3                      # the next line does not fit
    d.enter(events[5])
    assert d.top().title == "Storage full" and d.top().info[0] == "Input not saved"
    assert d.app.game.event_count() == 5
    d.press(K.BACK)                  # the game again, at the same input
    fs.full = None                   # space again (e.g. synced games removed)
    for e in events[5:12]:
        d.enter(e)
    d = Driver(App(Store("", fs=fs.reboot(), device="e6614103e7"), INFO))
    assert d.app.store.load_full().events() == events[:12]
    assert d.app.game.event_count() == 12


def fs_boot(fs):
    store = Store("", fs=fs, device="e6614103e7")
    return Driver(App(store, INFO), store)


def test_game_over_screen_survives_reboots_until_it_is_left():
    from fakefs import FakeFS
    events, ref = table_game("five", 7)
    d = fs_boot(FakeFS())
    d.new_game("five")
    for e in events:
        d.enter(e)
    over = screen_of(d)
    assert over[0][0].startswith("Game over") and d.app.game.scores == ref.scores
    players = list(d.app.game.players)
    fs = d.store.fs
    # Power off at the game-over screen: it is back, to the pixel.
    d = fs_boot(fs.reboot())
    assert screen_of(d) == over
    # OK opens the after-game menu; a reboot there shows the game over again.
    d.press(K.OK)
    assert screen_of(d)[0][:2] == ["Game over", "players: same?"]
    d = fs_boot(d.store.fs.reboot())
    assert screen_of(d) == over
    # Leaving it ("new game, same players") is for good: the next boot is home.
    d.press(K.OK)
    d.choose("same")
    assert d.top().title == "First dealer"
    assert [v for _, v in d.top().items][1:] == list(range(5))
    assert [x[0] for x in d.top().items][1:] == [p + " deals" for p in players]
    d = fs_boot(d.store.fs.reboot())
    assert screen_of(d)[0][:2] == ["Bower", "New game"]
    assert extra("past").games(d.store)[-1]["state"] == "finished" and d.store.resume() is None


def test_game_over_after_a_power_cut_before_the_finished_mark():
    # The last input is on flash but the power went before the game's state
    # file said "finished": the next boot still shows the game over, and an
    # undo there takes the last input back.
    from fakefs import FakeFS
    events, ref = table_game("classic", 11)
    d = fs_boot(FakeFS())
    d.new_game("classic")
    for e in events:
        d.enter(e)
    over = screen_of(d)
    fs = d.store.fs
    fs.remove("/games/g0001.st")          # as if that write never happened
    d = fs_boot(fs.reboot())
    assert screen_of(d) == over
    assert extra("past").games(d.store)[-1]["state"] == "finished"
    d.press(K.BACK_LONG)                  # undo the game's last input
    assert not d.app.game.result and d.app.game.event_count() == len(events) - 1
    d = fs_boot(d.store.fs.reboot())
    assert d.app.game.event_count() == len(events) - 1 and not d.app.game.result
    d.enter(events[-1])
    assert d.app.game.scores == ref.scores and screen_of(d) == over


def test_the_home_screen_boots_without_the_rules_or_the_menus(tmp_path):
    # Power-on with no game in play: the home menu needs neither the engine
    # (beyond the log format the store reads) nor the other menus; they load
    # while the device sits idle (App.warm, a module per call), so the first
    # OK finds them. A fresh interpreter: this one has loaded everything.
    import subprocess
    code = """
import sys
from bower_host import simhw
simhw.install()
from bower.keys import OK
from bower.store import Store
from bower.ui import App
heavy = ("euchre.rules", "euchre.hand", "euchre.game", "bower.screens", "bower.play")
app = App(Store(%r, device="e6614103e7"), {})
print(app.stack[-1].title, app.stack[-1].text(0), [m for m in heavy if m in sys.modules])
n = 0
while app.warm():
    n += 1
print(n, [m for m in ("bower.screens", "bower.newgame", "bower.play") if m not in sys.modules])
app.handle(OK, 0)
print(app.stack[-1].title)
""" % str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # (warm: the three modules, then the store's idle steps: bower.past
    # loaded, the free space asked once, the past games counted: a new
    # device has no index to read)
    assert out.splitlines() == ["Bower New game []", "6 []", "New game"], out


def test_rarely_used_code_is_dropped_while_a_hand_is_played():
    # The menus (bower.screens) and the store's boot/sync/space part
    # (bower.past) load when used and are dropped when a hand's screen
    # shows (by the app and by the store); the sync requests
    # (bower.protocol) once the host has been quiet for a while (by the
    # link). On the Pico that heap is the game's. Used again, they load again.
    import os
    from binascii import crc32
    from bower import link as L
    lazy = ("bower.screens", "bower.past")

    def hello(tag):
        line = b"#B? " + tag + b" HELLO 1"
        return line + b" %08x\n" % (crc32(line) & 0xFFFFFFFF)

    events, ref = table_game("classic", 11)
    r, w = os.pipe()                      # a USB serial nobody writes to
    with tempfile.TemporaryDirectory() as root, os.fdopen(r, "rb", buffering=0) as stdin:
        d = boot(root)
        while d.app.warm():  # the board loop does this while idle
            pass
        out = []
        link = L.Link(d.store, dict(INFO, board={}), out.append, stdin=stdin)
        link.feed(hello(b"a"))
        assert out[-1].startswith(b"#B! a OK proto=1 ")
        assert all(m in sys.modules for m in lazy + ("bower.protocol",))
        d.new_game("classic")
        for e in events[:6]:
            d.enter(e)
            assert not [m for m in lazy if m in sys.modules], e
        for _ in range(L._TRIM - 1):
            link.poll()
        assert "bower.protocol" in sys.modules
        link.poll()
        assert "bower.protocol" not in sys.modules
        link.feed(hello(b"b"))
        assert out[-1].startswith(b"#B! b OK proto=1 ") and "games=1 " in out[-1].decode()
        d.press(K.OK_LONG)                   # the game menu: screens again
        assert d.top().title == "Game menu"
        d.choose("game")
        d.enter(events[6])
        assert not [m for m in lazy if m in sys.modules]
        assert d.app.game.events() == events[:7]
    os.close(w)


def test_reboot_between_hands_resumes_the_next_hand_not_the_result():
    # Issue 13, section 5: the acknowledgement of a hand's result is on
    # flash, so a power cut after it brings back the next hand's first
    # screen; before it, the result screen.
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.new_game("classic")
        for e in ["up H", "pass", "order", "tricks 3"]:
            d.enter(e)
        result = screen_of(d)
        assert d.app.game.hand_no == 2 and not hasattr(d.top(), "items")   # the result screen
        d = boot(root)
        assert screen_of(d) == result                  # cut before OK: the result again
        d.press(K.OK)
        nxt = screen_of(d)
        assert nxt != result and hasattr(d.top(), "items")
        d = boot(root)
        assert screen_of(d) == nxt                     # cut after OK: the next hand
        d.enter("up S")
        d = boot(root)
        assert d.app.game.hand.events == 1 and screen_of(d)[0][0].startswith("Rd1")


def test_all_pass_row_enters_every_pass_and_resumes_like_single_passes():
    # Section 7: one row passes for every seat left in the bidding round; on
    # flash it is the same passes, one line each, so a reboot between or
    # after them shows what single passes would.
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        quick = boot(a)
        quick.new_game("classic")
        quick.enter("up H")
        quick.enter("pass")
        before = quick.presses
        quick.choose(label="the rest pass")            # C, D, A pass: round 2
        assert quick.presses - before == 2            # UP to the last row, OK
        assert quick.app.game.hand.phase == 6 and quick.app.game.hand.events == 5   # P_BID2
        slow = boot(b)
        slow.new_game("classic")
        for e in ["up H"] + ["pass"] * 4:
            slow.enter(e)
        assert screen_of(quick) == screen_of(slow)
        quick = boot(a)                               # power cut after the frame
        assert screen_of(quick) == screen_of(slow)
        quick.choose(label="all pass")               # round 2: thrown in
        for e in ["pass"] * 4:
            slow.enter(e)
        assert quick.app.game.hand_no == slow.app.game.hand_no == 2
        assert screen_of(quick) == screen_of(slow)
        assert screen_of(boot(a)) == screen_of(boot(b))
        gid_a, gid_b = quick.app.store.gid, slow.app.store.gid
        with open(a + "/games/" + gid_a + ".log") as fa, open(b + "/games/" + gid_b + ".log") as fb:
            la, lb = fa.read().splitlines(), fb.read().splitlines()
        assert la[1:] == lb[1:] and len(la) == 10     # header, up H, 8 passes
