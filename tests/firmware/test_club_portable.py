# portable: runs under MicroPython
# A club round on the interpreter the Pico runs (bower.club; the full suite
# is test_club_round.py): the pushed setup kept by the store, a round played
# through key presses to its end, accepted in the log, resumed after a
# reboot before and after the acceptance. Plain asserts, an in-memory FakeFS.

from fakefs import FakeFS
from uikit import boot, text
from bower import keys as K
from euchre import log

SETUP = {"night": "fri-1a2b", "table": 1, "round": 1, "tables": 3, "move": "fixed",
         "hands": 2, "minutes": 0, "scoring": {"loner": 5, "set_loner": 3, "renege": 2},
         "next": [0, 0, 0, 0], "players": ["Ann", "Bob", "Cy", "Di"]}


def test_a_round_on_the_store_is_played_accepted_and_resumed():
    fs = FakeFS()
    d = boot(fs=fs)
    d.store.set_club(dict(SETUP))
    d = boot(fs=fs)
    assert d.store.club() == SETUP
    d.choose("club")
    d.choose("start")
    # S marches alone (the night's 5), then S goes alone again and is
    # euchred (the night's 3 to E/W)
    for e in ["up H", "pass", "order alone", "tricks 5", "up S", "order alone", "tricks 2"]:
        d.enter(e)
    g = d.app.game
    assert g.result and g.scores == [5, 3, 5, 3]
    before = text(d)
    d = boot(fs=fs)
    assert text(d) == before and "OK: E/W accepts" in before
    d.press(K.OK)
    assert d.app.game.accepted
    before = text(d)
    d = boot(fs=fs)
    assert text(d) == before and "Ann      T1 N" in before and "Cy       T3 S" in before
    with fs.open("/games/g0001.log", "rb") as f:
        g2, dropped = log.loads(f.read().decode())
    assert g2.accepted and g2.scores == [5, 3, 5, 3] and dropped is None
    d.press(K.OK)
    assert d.store.club()["round"] == 2


def test_a_bad_setup_changes_nothing():
    fs = FakeFS()
    d = boot(fs=fs)
    d.store.set_club(dict(SETUP))
    bad = dict(SETUP)
    bad["players"] = ["Ann", "Bob", "Cy"]
    try:
        d.store.set_club(bad)
        raise AssertionError("accepted")
    except ValueError:
        pass
    assert d.store.club() == SETUP
    d.store.set_club(None)
    assert d.store.club() is None and not d.store.has("club")
