# portable: runs under MicroPython
# Quick score (issue 25) by key presses on the real UI core: whole games of
# every variant, each hand told quick (who made trump, the partner, how it
# ended), score exactly as the same hands entered in full; hands switch
# between quick and full entry from the game menu; BACK is each question's
# other answer; undo goes back input by input; the log the device wrote
# replays to the same game; a hand the flash refuses is taken back.

from uikit import Driver, MemStore, Rng, table_game, hands_of, set_quick
from bower import keys as K
from euchre import hand as H
from euchre.log import replay_lines




def play_told(variant, seed, options=None, full_every=0):
    # A seeded game entered in full in the engine, then through the keys:
    # each hand quick (in full where quick score has no input for it, or
    # now and then with ``full_every``: quick score off for that hand in
    # the game menu, on again after), the scores checked after every hand.
    events, ref = table_game(variant, seed, options)
    hands, g = hands_of(variant, events, options)
    assert g.scores == ref.scores and g.result == ref.result
    d = Driver()
    d.new_game(variant, options, quick=True)
    rnd = Rng(seed)
    quick = True
    switched = 0
    for full, told, scores in hands:
        want = told is not None and not (full_every and rnd.randrange(full_every) == 0)
        if want != quick:
            set_quick(d, want)
            quick = want
            switched += 1
        for e in (told if quick else full):
            d.enter(e)
        assert d.app.game.scores == scores, (variant, seed, full, told, d.app.game.scores, scores)
    assert d.app.game.result == ref.result and d.app.game.hand_no == ref.hand_no
    assert d.screen()[0].startswith(("Game over", "Shared win")) or d.app.game.rules.round_hands
    # The device's log replays (as a resume, a sync and the host do) to
    # the same game.
    r = replay_lines(d.store.logs[d.store.current])[0]
    assert r.scores == ref.scores and r.result == ref.result
    return d, switched


def test_quick_games_score_as_entered_in_full():
    for variant, options in (("classic", None), ("classic", {"defend_alone": True, "partners_best": True}),
                             ("five", None), ("callpartner", None), ("ultimate", None)):
        for seed in (1, 2):
            play_told(variant, seed, options)


def test_quick_games_of_three_six_and_two_handed_score_as_entered_in_full():
    # (issue 26) the engine tells them quick too: Three- and Two-Handed
    # name the maker (each for themselves), Six-Handed the side of three.
    for variant, options in (("three", None), ("three", {"alone": True, "march": 2}),
                             ("six", None), ("two", None), ("two", {"std": True})):
        for seed in (1, 2):
            play_told(variant, seed, options)
    d, switched = play_told("six", 3, None, full_every=3)
    assert switched


def test_three_six_and_two_handed_quick_screens():
    d = Driver()
    d.store.roster.append("Flo")
    d.new_game("six", quick=True)
    rows = d.screen()
    # Ann deals: Bob's side bids first (the cursor), BACK names Ann's.
    assert rows[:4] == ["H1 Ann deals", "Who made trump?", "Ann+Cy+Eve     0", "Bob+Di+Flo     0"], rows
    d.press(K.BACK)
    assert d.screen()[0] == "Ann+Cy+Eve" and d.app.game.hand.maker == 0
    d.press(K.UP)
    d.press(K.OK)                             # one UP: alone, made (a lone march: 5)
    d.enter("quick 1")
    d.enter("quick march alone")
    assert d.app.game.scores == [1, 5, 1, 5, 1, 5]
    d = Driver()
    d.new_game("three", quick=True)
    assert d.screen()[2:5] == ["Bob            0", "Cy             0", "Ann            0"]
    d.press(K.OK)                             # Bob made it ...
    assert d.screen()[:5] == ["Bob made it", "How did it end?", "made +1", "march +3", "euchred (BACK)"]
    d.press(K.BACK)                           # ... and was euchred: 2 to each of the others
    assert d.app.game.scores == [2, 0, 2]
    d = Driver()
    d.new_game("two", quick=True)
    d.press(K.OK)                             # Bob, the non-dealer
    d.press(K.DOWN)
    d.press(K.OK)                             # a march: 2
    assert d.app.game.scores == [0, 2]


def test_switching_between_quick_and_full_entry_between_hands():
    total = 0
    for variant in ("classic", "five", "callpartner", "ultimate"):
        d, switched = play_told(variant, 3, None, full_every=3)
        total += switched
        assert d.app.store.settings["quick"] in (0, 1)
    assert total >= 8, total


def test_a_club_round_told_quick():
    # A club night's round (Classic with the night's values): its end after
    # its hands and the accept, as ever.
    opts = {"round_hands": 4, "lone_march": 5, "set_loner": 3}
    d = Driver()
    d.store.settings["quick"] = 1
    from euchre import Game, Rules
    g = Game(Rules("classic", opts), ["Ann", "Bob", "Cy", "Di"])
    d.app.game = None
    from bower.newgame import start_game
    start_game(d.app, g)
    d.app.tick(0)
    for e in ["quick 1", "quick march alone", "quick 0", "quick euchred alone", "quick 0", "quick made"]:
        d.enter(e)
    assert d.screen()[:2] == ["H4 Di deals", "Hand 4 of 4"]
    d.enter("quick none")
    assert d.app.game.scores == [1, 8, 1, 8] and d.app.game.result == ((1, 3), "win")


def test_back_is_the_other_answer():
    d = Driver()
    d.new_game("classic", quick=True)
    # Ann deals: Bob's side bids first (the cursor), BACK names Ann's.
    assert d.top().text(d.top().cursor).startswith("Bob+Di")
    d.press(K.BACK)
    assert d.app.game.hand.phase == H.P_QUICK and d.app.game.hand.maker == 0
    assert d.screen()[0] == "Ann+Cy made it"
    d.press(K.BACK)                           # euchred: Bob & Di score 2
    assert d.app.game.scores == [0, 2, 0, 2] and d.store.records == 2
    d.press(K.OK)                             # Cy's side (left of Bob) ...
    d.press(K.UP)
    d.press(K.OK)                             # ... alone, made: one UP from the top
    assert d.app.game.scores == [1, 2, 1, 2] and d.app.game.events()[-1] == "quick made alone"
    d = Driver()
    d.new_game("five", quick=True)
    d.press(K.OK)                             # Bob (first to bid) made trump
    assert d.top().text(d.top().cursor) == "Di"   # the second seat after him
    d.press(K.BACK)                           # alone
    d.press(K.DOWN)
    d.press(K.OK)                             # all five: a lone march
    assert d.app.game.scores == [0, 4, 0, 0, 0]


def test_the_last_hand_and_the_scores_show_on_the_next_hand():
    d = Driver()
    d.new_game("five", quick=True)
    for e in ["quick 2", "reveal 4", "quick march"]:
        d.enter(e)
    rows = d.screen()
    assert rows[0] == "H2 Bob deals" and rows[1] == "H1: march" and rows[2] == "Who made trump?"
    assert rows[3].startswith("Cy ") and rows[3].endswith(" 2") and rows[5].startswith("Eve")
    assert rows[5].endswith(" 2") and rows[7].startswith("Bob") and rows[7].endswith(" 0")


def test_undo_goes_back_input_by_input():
    d = Driver()
    d.new_game("callpartner", quick=True)
    for e in ["quick 1", "reveal 3", "quick made", "quick 2", "alone", "quick march"]:
        d.enter(e)
    assert d.app.game.scores == [0, 1, 5, 1, 0]
    d.press(K.BACK_LONG)
    assert d.app.game.hand_no == 2 and d.app.game.hand.phase == H.P_QUICK and d.app.game.scores == [0, 1, 0, 1, 0]
    assert d.screen()[0] == "Cy alone made it"
    d.press(K.BACK_LONG)
    d.press(K.BACK_LONG)
    assert d.app.game.hand.phase == H.P_UP and d.app.game.event_count() == 3
    d.press(K.BACK_LONG)
    assert d.app.game.hand_no == 1 and d.app.game.hand.phase == H.P_QUICK
    d.enter("quick euchred")
    assert d.app.game.scores == [2, 0, 2, 0, 2]
    lines = d.store.logs[d.store.current]
    assert replay_lines(lines)[0].events() == ["quick 1", "reveal 3", "quick euchred"]


def test_rare_ends_behind_more():
    # Five-Handed: who of the scoring side took no trick; a renege.
    d = Driver()
    d.new_game("five", quick=True)
    for e in ["quick 1", "reveal 3", "quick euchred notrick 0 2"]:
        d.enter(e)
    assert d.app.game.scores == [0, 0, 0, 0, 2]
    for e in ["quick 4", "reveal 0", "quick renege 2"]:
        d.enter(e)
    assert d.app.game.scores == [0, 0, -2, 0, 2]
    # Classic, a lone defender (option) and a misdeal.
    d = Driver()
    d.new_game("classic", {"defend_alone": True}, quick=True)
    for e in ["redeal", "quick 0", "quick defended alone"]:
        d.enter(e)
    assert d.app.game.scores == [0, 4, 0, 4] and d.app.game.dealer == 1


def test_quick_score_is_chosen_in_the_options_and_kept():
    d = Driver()
    d.choose("new")
    d.choose("ultimate")
    rows = [lab for lab, v in d.rows() if v == "quick"]
    assert rows == ["Quick score  off"]
    d.choose("quick")
    assert d.store.settings["quick"] == 1
    assert [lab for lab, v in d.rows() if v == "quick"] == ["Quick score   on"]
    d.choose("next")
    d.choose("next")
    d.choose(2)
    assert d.screen()[:2] == ["H1 Cy deals", "Who made trump?"]
    # Mid-hand the game menu has no switch; between hands it has.
    d.enter("quick 0")
    d.press(K.OK_LONG)
    assert "quick" not in [v for _, v in d.rows()]


def test_a_setting_the_flash_refuses_is_not_shown():
    class Full(MemStore):
        def save_settings(self, s):
            raise OSError(28, "no space")

        def unsynced(self, older=1):
            return 0   # (the storage screen's count)
    d = Driver(store=Full(["Ann", "Bob", "Cy", "Di"]))
    d.new_game("classic")
    d.press(K.OK_LONG)
    d.choose("quick")
    assert d.top().title == "Storage full" and d.store.settings["quick"] == 0


def test_full_entry_from_the_quick_screen_and_back():
    d = Driver()
    d.new_game("classic", quick=True)
    d.enter("quick 1")
    d.enter("quick made")
    d.choose("full")                          # this hand in full: the setting goes off
    assert d.store.settings["quick"] == 0 and "Upcard?" in d.screen()
    for e in ["up H", "order", "tricks 5"]:
        d.enter(e)
    assert d.app.game.scores == [2, 1, 2, 1]
    set_quick(d, True)                        # from the result screen's game menu
    assert d.screen()[1:3] == ["H2: march", "Who made trump?"]
