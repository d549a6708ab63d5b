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


def test_three_handed_games_through_the_ui():
    # (issue 26) each for themselves, the maker against the other two;
    # with the options: a declared lone hand, a march worth 2, 32 cards.
    play_through_ui("three", 1)
    play_through_ui("three", 2, {"alone": True, "march": 2, "min_rank": 7, "std": True})


def test_six_handed_games_through_the_ui():
    # (issue 26) seats A C E against B D F; a lone maker's two partners sit out.
    d, _ = play_through_ui("six", 3)
    assert len(d.app.game.players) == 6
    play_through_ui("six", 4, {"jokers": True, "std": True})


def test_two_handed_games_through_the_ui():
    # (issue 26) Keller's game: the non-dealer orders up, the dealer takes it up.
    play_through_ui("two", 5)
    play_through_ui("two", 6, {"min_rank": 9, "joker": True, "std": True, "winning_score": 7})


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
