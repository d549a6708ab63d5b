# portable: runs under MicroPython
# Whole games of every variant played through the device UI by key presses
# only; the final scores and winner must equal the engine's for the same
# events, and the log the UI wrote must replay to the same game.

import sys
for _p in ("tests/firmware", "/tests/firmware"):
    if _p not in sys.path:
        sys.path.append(_p)

from uikit import Driver, table_game  # noqa: E402
from euchre.log import replay_lines  # noqa: E402


def play_through_ui(variant, seed, options=None):
    events, ref = table_game(variant, seed, options)
    d = Driver()
    d.new_game(variant, options)
    for e in events:
        d.enter(e)
    g = d.app.game
    assert g.scores == ref.scores, (variant, seed, g.scores, ref.scores)
    assert g.result == ref.result
    assert g.events() == events
    replayed = replay_lines(d.store.logs[d.store.current])[0]
    assert replayed.scores == ref.scores and replayed.result == ref.result
    return d, events


def test_classic_games_through_the_ui():
    for seed in (1, 2):
        play_through_ui("classic", seed)


def test_classic_with_house_rules_through_the_ui():
    play_through_ui("classic", 3, {"farmers": True, "defend_alone": True, "partners_best": True,
                                   "canadian": True, "std": True, "ace_no_face": True})


def test_five_handed_game_through_the_ui():
    play_through_ui("five", 4)


def test_call_your_partner_game_through_the_ui():
    play_through_ui("callpartner", 5)


def test_ultimate_game_through_the_ui():
    play_through_ui("ultimate", 6)


def test_every_screen_renders_during_a_game():
    # Render after every input: no screen may fail to draw.
    from uikit import Canvas
    events, ref = table_game("five", 7)
    d = Driver()
    d.new_game("five")
    c = Canvas()
    for e in events:
        d.enter(e)
        d.app.render(c)
        assert c.texts, e
