# The device never loses a game: with the real flash store, rebooting at any
# point of a game (a new App on the same files) brings back the same screen,
# and the game goes on to the same end. Undo works across the reboot.

import sys
import tempfile

sys.path.insert(0, "tests/firmware")

from uikit import Driver, Canvas, table_game
from bower.store import Store
from bower.ui import App
from bower import keys as K

INFO = {"version": "test", "device": "e6614103e7"}


def boot(root):
    store = Store(root, device="e6614103e7")
    return Driver(App(store, INFO), store)


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
            if over:
                # A finished game is not resumed: the device starts at home.
                assert screen_of(d)[0][:2] == ["Bower", "New game"]
            else:
                assert screen_of(d)[0] == before[0], (i, e, before[0], screen_of(d)[0])
        assert i == len(events) - 1 and over == ref.result
        assert d.app.store.games()[-1]["state"] == "finished"


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


def test_full_flash_warns_and_loses_nothing_once_space_returns():
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
    assert d.app.toast == "storage full!"
    assert d.app.game.event_count() == 6
    fs.full = None                   # space again (e.g. synced games removed)
    for e in events[6:12]:
        d.enter(e)
    d = Driver(App(Store("", fs=fs.reboot(), device="e6614103e7"), INFO))
    assert d.app.store.load_full().events() == events[:12]
    assert d.app.game.event_count() == 12
