# portable: runs under MicroPython
# Amending a hand by key presses on the real UI core (issue 25, bower.amend):
# in every variant a game whose hand 2 was told wrong is amended after hand
# 5 from the game menu (the list of hands, then quick score's questions for
# hand 2) and must agree with the same game told right, on the device, in
# its log's replay and on the screen that says what changed. Then the end
# moving both ways (from the game-over menu), misdeals left out of the
# list, cancelling, full entry's games, and a resumed game that amends a
# hand from before its checkpoint.

from uikit import Driver, table_game, hands_of
from bower import keys as K
from euchre import Game, Rules
from euchre.log import replay_lines




def game_menu(d, row):
    d.press(K.OK_LONG)
    assert d.top().title == "Game menu", d.top().title
    d.choose(row)


def amend(d, n, told):
    # Open the list, pick hand n, tell it again; the change screen is up.
    assert d.top().title == "Amend which hand", d.top().title
    d.choose(label="H%d " % n)
    assert d.top().title == "Amend H%d" % n, d.top().title
    for e in told:
        d.enter(e)
    assert d.top().title == "Hand %d amended" % n, d.top().title


def _told(variant, seed):
    events, ref = table_game(variant, seed)
    hands, _ = hands_of(variant, events)
    return [t for _f, t, _s in hands if t is not None and t != ["redeal"]]


def _engine(variant, hands):
    g = Game(Rules(variant), ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"][:Rules(variant).num_players])
    for h in hands:
        for e in h:
            g.apply(e)
    return g


def test_hand_2_amended_after_hand_5_in_each_variant():
    done = 0
    variants = ("classic", "five", "callpartner", "ultimate", "three", "six", "two")
    for variant in variants:
        for seed in range(1, 16):
            told = _told(variant, seed)
            if len(told) < 7:
                continue
            wrong = told[:5]
            wrong[1] = told[6]
            right = told[:5]
            if _engine(variant, wrong).result or _engine(variant, right).result:
                continue
            d = Driver()
            d.new_game(variant, quick=True)
            for h in wrong:
                for e in h:
                    d.enter(e)
            game_menu(d, "amend")
            amend(d, 2, told[1])
            lines = d.screen()
            d.press(K.OK)
            g, ref = d.app.game, _engine(variant, right)
            assert (g.scores, g.result, g.hand_no, g.dealer) == (ref.scores, ref.result, ref.hand_no, ref.dealer)
            r = replay_lines(d.store.logs[d.store.current])[0]
            assert r.scores == ref.scores and r.last_amend == g.last_amend
            if ref.rules.teams:
                was = _engine(variant, wrong).scores
                assert "score %d-%d > %d-%d" % (was[0], was[1], ref.scores[0], ref.scores[1]) in \
                    " ".join([" ".join(x.split()) for x in lines]), lines
            # the game goes on, told quick as before
            for e in told[5]:
                d.enter(e)
            ref = _engine(variant, right + [told[5]])
            assert d.app.game.scores == ref.scores
            done += 1
            break
    assert done == len(variants), done


def _classic(d, hands):
    d.new_game("classic", quick=True)
    for h in hands:
        for e in h:
            d.enter(e)


def test_the_end_moves_earlier_then_back_from_the_game_over_menu():
    d = Driver()
    _classic(d, [["quick 0", "quick march alone"], ["quick 0", "quick march"], ["redeal"],
                 ["quick 0", "quick march"], ["quick 1", "quick made"]])
    assert d.app.game.scores == [8, 1, 8, 1]
    game_menu(d, "amend")
    labels = [lab for lab, _v in d.rows()]
    assert labels[0].startswith("H5 ") and not [x for x in labels if x.startswith("H3 ")], labels
    amend(d, 2, ["quick 0", "quick march alone"])
    text = " ".join(d.screen())
    assert "wins" in text or "win" in text, text
    d.press(K.OK)
    g = d.app.game
    assert g.result and g.scores == [10, 0, 10, 0]
    assert d.screen()[0].startswith("Game over")
    d.press(K.OK)
    assert d.top().title == "Game over"
    d.choose("amend")
    amend(d, 2, ["quick 0", "quick march"])
    assert "goes on" in " ".join(d.screen())
    d.press(K.OK)
    g = d.app.game
    assert g.result is None and g.scores == [8, 1, 8, 1] and g.hand_no == 6
    assert d.top().title.startswith("H6 ")


def test_cancelling_an_amendment_takes_back_its_inputs():
    d = Driver()
    _classic(d, [["quick 0", "quick made"], ["quick 1", "quick made"]])
    events = d.app.game.event_count()
    game_menu(d, "amend")
    d.choose(label="H1 ")
    d.enter("quick 1")
    game_menu(d, "cancel")
    g = d.app.game
    assert g.amending is None and g.event_count() == events and g.scores == [1, 1, 1, 1]
    r = replay_lines(d.store.logs[d.store.current])[0]
    assert r.events() == g.events()


def test_a_game_entered_in_full_is_amended_on_quick_screens():
    d = Driver()
    d.new_game("classic", quick=False)
    for e in ["up H", "pass", "order", "tricks 5", "up S", "order", "tricks 3"]:
        d.enter(e)
    d.app.ack_hand()
    game_menu(d, "amend")
    amend(d, 1, ["quick 0", "quick march alone"])
    d.press(K.OK)
    assert d.app.game.scores == [5, 0, 5, 0]
    # full entry goes on (the setting was never changed)
    d.enter("up C")
    assert d.app.game.hand.events == 1


def test_a_resumed_game_amends_a_hand_from_before_its_checkpoint():
    # The app keeps the hands since its resume's checkpoint only; the list
    # loads the whole game first (MemStore.load_full: the log replayed).
    d = Driver()
    _classic(d, [["quick 0", "quick made"], ["quick 1", "quick made"], ["quick 0", "quick made"]])
    g = d.app.game
    s = Game(g.rules, g.players)
    s.restore(g.checkpoint())
    d.app.game = s
    d.app.show_game()
    game_menu(d, "amend")
    assert d.app.game is not s and d.app.game.history_from == 1
    amend(d, 1, ["quick 1", "quick march"])
    d.press(K.OK)
    assert d.app.game.scores == [1, 3, 1, 3]
