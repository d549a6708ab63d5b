# A monkey at the table: 40,000 random presses (long ones included) on the
# real UI and the real store over a flash with a power switch, with the power
# cut at random moments. The UI never raises (a power cut is the only way it
# stops), every reboot resumes the game as it was after the last input that
# was completely written (or the one before, if the cut hit that input's
# write), and no log on flash is ever unreadable. `make soak` presses
# 250,000 times (BOWER_MONKEY_PRESSES).

import os
import sys

sys.path.insert(0, "tests/firmware")

from fakefs import FakeFS, PowerCut, fingerprint
from uikit import Canvas, Rng
from bower import keys as K
from bower.store import Store
from bower.ui import App
from euchre.log import read_lines
from euchre.phases import P_QUICK

PRESSES = int(os.environ.get("BOWER_MONKEY_PRESSES", "40000"))
BASE = 100000      # the presses the thresholds below are counted for
WEIGHTS = ((K.OK, 34), (K.DOWN, 26), (K.UP, 14), (K.BACK, 11), (K.BACK_LONG, 9), (K.OK_LONG, 6))
INFO = {"version": "monkey", "device": "0123456789abcdef"}


def pick(rnd):
    r = rnd.randrange(100)
    for ev, w in WEIGHTS:
        if r < w:
            return ev
        r -= w
    return K.OK


def state(app):
    g = app.game
    if g is None:
        return None
    return (fingerprint(g)[:5], g.event_count(), list(g.scores), g.result)


def check_logs(fs):
    # Every game log on flash decodes (a torn last line is allowed: the
    # store drops it at the next resume).
    n = 0
    for path in list(fs.files):
        if path.endswith(".log"):
            lines = bytes(fs.files[path]).decode().splitlines(True)
            read_lines(lines)
            n += 1
    return n


def test_monkey_presses_with_power_cuts():
    monkey(PRESSES, 2026)


def test_monkey_in_quick_score():
    # The same with quick score on from the start (issue 25): its hands'
    # screens, switched off and on by the monkey in the game menu too, and
    # hands amended from there (bower.amend).
    monkey(PRESSES // 4, 2025, quick=True)


def monkey(presses, seed, quick=False):
    rnd = Rng(seed)
    fs = FakeFS()
    store = Store("", fs=fs, device=INFO["device"])
    if quick:
        store.save_settings({"quick": 1})
    app = App(store, INFO, rnd.randrange)
    canvas = Canvas()
    now = 0
    cuts = games = 0
    prev = cur = state(app)
    quick_hands = amending = 0
    for i in range(presses):
        if rnd.randrange(400) == 0 and fs.cut is None:
            fs.cut = fs.spent + rnd.randrange(300)
        now += 40 + rnd.randrange(700)
        try:
            app.handle(pick(rnd), now)
            app.tick(now)
            if i % 101 == 0:
                app.render(canvas)
        except PowerCut:
            cuts += 1
            # The input being written when the power went: the state in RAM
            # (cur_new) may or may not have reached the flash.
            attempted = state(app)
            fs = fs.reboot()
            check_logs(fs)
            app = App(Store("", fs=fs, device=INFO["device"]), INFO, rnd.randrange)
            back = state(app)
            if back is not None:
                if back not in (cur, attempted, prev):
                    # A press that entered several passes ("all pass") writes
                    # them in one append: all or none on littlefs, but this
                    # fake flash tears bytes, so whole lines of it may stay.
                    # Each is a whole input of the same game.
                    assert (cur is not None and attempted is not None and back[0][:3] == cur[0][:3]
                            and cur[1] < back[1] < attempted[1] and attempted[1] - cur[1] > 1), \
                        (i, back, cur, attempted)
            prev = cur = back
            continue
        s = state(app)
        if s != cur:
            prev, cur = cur, s
        if app.game is not None and app.game.result:
            games += 1
        if app.game is not None and app.game.hand.phase == P_QUICK:
            quick_hands += 1
        if app.game is not None and app.game.amending is not None:
            amending += 1
    assert cuts >= 50 * presses // BASE, cuts
    assert check_logs(fs) >= 5 * presses // BASE
    assert quick_hands > 50 * presses // (BASE // 4) or not quick, quick_hands
    assert amending > 20 * presses // (BASE // 4) or not quick, amending
