# portable: runs under MicroPython
"""Amending a hand on the device's interpreter (euchre.amend): the history
array, the re-scoring, the end moving, a refusal and the log's replay,
as tests/engine/test_amend.py checks them at length on CPython.
"""

from euchre import Game, Rules, IllegalAction, log


def _game(variant, hands):
    g = Game(Rules(variant))
    for h in hands:
        for e in h:
            g.apply(e)
    return g


def test_hand_2_amended_after_hand_5_classic_and_five_handed():
    for variant, a, b, c in (("classic", ["quick 0", "quick made"], ["quick 1", "quick made"],
                              ["quick 1", "quick march alone"]),
                             ("five", ["quick 0", "reveal 2", "quick made"], ["quick 1", "alone", "quick made"],
                              ["quick 3", "reveal 4", "quick march"])):
        wrong = _game(variant, [a, b, a, b, a])
        right = _game(variant, [a, c, a, b, a])
        wrong.apply("amend 2")
        for e in c:
            wrong.apply(e)
        assert wrong.scores == right.scores and wrong.result == right.result, (variant, wrong.scores)
        assert wrong.hand_no == right.hand_no and wrong.dealer == right.dealer
        replayed = log.loads(log.dumps(wrong))[0]
        assert replayed.scores == wrong.scores and replayed.checkpoint() == wrong.checkpoint()


def test_the_end_moves_and_a_misdeal_stays():
    g = _game("classic", [["quick 0", "quick march alone"], ["quick 0", "quick march"], ["redeal"],
                          ["quick 0", "quick march"], ["quick 1", "quick made"]])
    assert g.result is None and g.scores == [8, 1, 8, 1]
    g.apply("amend 2")
    g.apply("quick 0")
    g.apply("quick march alone")
    assert g.result == ((0, 2), "win") and g.scores == [10, 0, 10, 0] and g.hand_no == 5
    try:
        g.apply("amend 3")
    except IllegalAction as e:
        assert "misdeal" in str(e)
    else:
        raise AssertionError("a misdeal was amended")
    g.undo()
    g.undo()
    g.undo()
    assert g.result is None and g.scores == [8, 1, 8, 1] and g.amendable() == [1, 2, 4, 5]
