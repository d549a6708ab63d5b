# A resumed device shows the last hand's outcome from its code (issue 24):
# the checkpoint carries the hand's outcome code and the seat that reneged
# as values, and the hand's result screen after a reboot is the one shown
# before it, pixel for pixel, worded by bower.menu from the code. A device
# updated with an older bower's checkpoint on flash (the last hand's words
# where the code and the seat now are) resumes all the same: the engine
# refuses that checkpoint and the store replays the whole log instead.

import sys
import tempfile

sys.path.insert(0, "tests/firmware")

import pytest

from test_ui_resume import boot, screen_of
from bower.store import Store
from euchre import log
from euchre.notation import outcome_text

# (variant, options, events, the result screen's title: {0} is the name of
# the seat that reneged)
CASES = [
    ("classic", {}, ["up H", "order", "won 1", "renege 2"], "renege: {0}"),
    ("classic", {"partners_best": True}, ["up H", "order alone best", "tricks 5"], "lone march+best"),
    ("classic", {"defend_alone": True}, ["up H", "order", "defend 2", "tricks 2"], "euchred by loner"),
    ("five", {}, ["up H", "order", "partner AS", "tricks 5", "reveal none"], "no-partner march"),
    ("classic", {"ace_no_face": True}, ["up H", "ninetens 2"], "nines and tens"),
    ("five", {}, ["up H", "order", "alone", "throwin 3"], "void: throw-in"),
    ("classic", {}, ["up H"] + ["pass"] * 8, "void: all passed"),
    ("classic", {"ace_no_face": True}, ["up H", "acenoface 2"], "ace no face"),
    ("classic", {}, ["up H", "order alone", "tricks 4"], "made alone"),
]


def resumed_from_checkpoint(root):
    # Whether a power-on resumes the current game from its checkpoint.
    return bool(Store(root, device="e6614103e7").resume()[1]["checkpoint"])


def ck_path(root, d):
    return root + "/games/" + d.app.store.gid + ".ck"


def old_format(rec, n):
    # The checkpoint record as a bower before issue 24 wrote it: the last
    # hand's words in place of its outcome code and renege seat.
    ck, offset, lines = rec
    words = outcome_text(ck[4 + n], ck[5 + n])
    return [ck[:4 + n] + [words] + ck[6 + n:], offset, lines]


@pytest.mark.parametrize("variant,options,events,title", CASES, ids=[c[3].split("{")[0] for c in CASES])
def test_a_resumed_device_shows_the_last_hand_from_its_code(variant, options, events, title):
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.new_game(variant, options)
        for e in events:
            d.enter(e)
        g = d.app.game
        last = g.last_hand
        assert g.hand_no == 2
        shown = screen_of(d)
        assert shown[0][0] == title.format(*[g.players[s] for s in (last.renege,) if s >= 0])
        d.app.store.idle()     # (the app, idle in the new hand: its checkpoint)

        # The checkpoint holds values: the code and the seat.
        n = len(g.players)
        rec = log.decode_line(open(ck_path(root, d)).read())
        assert rec[0][3 + n:6 + n] == [last.result, last.outcome, last.renege]

        d = boot(root)
        assert resumed_from_checkpoint(root)
        assert d.app.game.last_hand.outcome == last.outcome
        assert screen_of(d) == shown

        # An older bower's checkpoint: refused, the whole log replayed.
        with open(ck_path(root, d), "w") as f:
            f.write(log.encode_line(old_format(rec, n)))
        assert not resumed_from_checkpoint(root)
        d = boot(root)
        assert screen_of(d) == shown
        d.app.ack_hand()
        assert d.app.game.hand_no == 2 and d.app.game.last_hand.points == last.points


def test_the_device_words_every_outcome_code_in_a_row():
    # bower.menu's words for each code of euchre.hand.OUTCOMES: the
    # engine's words where they fit a 16-character row (as before the
    # codes), a shorter wording where not.
    from bower.menu import reason
    from euchre.game import HandSummary
    from euchre.hand import OUTCOMES

    class G:
        players = ["Ann", "Bob", "Cy", "Di"]

    short = {"best_march": "lone march+best", "defend_euchre": "euchred by loner",
             "unpartnered_march": "no-partner march", "renege": "renege: Cy"}
    for code in OUTCOMES:
        words = reason(G, HandSummary(0, code, 2 if code == "renege" else -1, [0] * 4))
        assert words == short.get(code, outcome_text(code)) and len(words) <= 16, (code, words)
