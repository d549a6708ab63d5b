# portable: runs under MicroPython
"""A game that starts at a score (``Game(..., start=[...])``, the log
header's ``start``): an imported game that began elsewhere, e.g. an EGN
file with an ``initialScore`` other than 0-0.

The start is per seat, partners alike, each below the target; it is where
the scores begin, what undo goes back to, what a log carries and a replay
restores byte for byte; a game at 0-0 writes no ``start``, so every log
written before starts existed reads and writes the same.

Plain asserts only (this file also runs under MicroPython).
"""

from euchre import Rules, Game, log

NAMES = ["Ann", "Bob", "Cy", "Di"]
HAND = ["up H", "order", "tricks 3"]      # (dealer 0) seat 1 orders, its side makes it: 1 point


def test_scores_begin_at_the_start():
    g = Game(Rules("classic"), NAMES, 0, start=[7, 4, 7, 4])
    assert g.scores == [7, 4, 7, 4]
    for e in HAND:
        g.apply(e)
    assert g.scores == [7, 5, 7, 5] and g.result is None


def test_a_game_ends_when_the_start_plus_its_hands_reach_the_target():
    g = Game(Rules("classic"), NAMES, 0, start=[4, 9, 4, 9])
    for e in HAND:
        g.apply(e)
    assert g.scores == [4, 10, 4, 10] and g.is_terminal()
    assert g.winner_names() == ["Bob", "Di"]


def test_the_log_carries_the_start_and_replays_it_byte_for_byte():
    g = Game(Rules("classic"), NAMES, 2, start=[7, 4, 7, 4])
    for e in HAND:
        g.apply(e)
    text = log.dumps(g, extra={"id": "g7"})
    assert '"start": [7, 4, 7, 4]' in text.split("\n")[0]
    again, dropped = log.loads(text)
    assert dropped is None and again.scores == g.scores and again.start == [7, 4, 7, 4]
    assert log.dumps(again, extra={"id": "g7"}) == text


def test_undo_goes_back_to_the_start_not_to_zero():
    g = Game(Rules("classic"), NAMES, 0, start=[7, 4, 7, 4])
    for e in HAND:
        g.apply(e)
    for _ in HAND:
        g.undo()
    assert g.scores == [7, 4, 7, 4] and g.hand_no == 1


def test_a_checkpoint_of_a_started_game_restores_its_scores():
    g = Game(Rules("classic"), NAMES, 0, start=[3, 8, 3, 8])
    for e in HAND:
        g.apply(e)
    r = Game(Rules("classic"), NAMES, 0, start=[3, 8, 3, 8])
    r.restore(g.checkpoint())
    assert r.scores == [3, 9, 3, 9] and r.hand_no == 2


def test_a_zero_start_writes_the_same_log_as_no_start():
    a = Game(Rules("classic"), NAMES, 1)
    b = Game(Rules("classic"), NAMES, 1, start=[0, 0, 0, 0])
    for e in HAND:
        a.apply(e)
        b.apply(e)
    assert log.dumps(a) == log.dumps(b) and "start" not in a.header() and b.start is None


def test_a_start_that_is_not_one_is_refused_with_the_reason():
    for bad in ([7, 4, 7, 5],         # partners differ
                [10, 0, 10, 0],       # at the target: over before it begins
                [7, 4],               # not one score per seat
                [True, 0, True, 0],   # not whole numbers
                [-100, 0, -100, 0],
                "7474", 7):
        try:
            Game(Rules("classic"), NAMES, 0, start=bad)
        except ValueError as e:
            assert "start" in str(e) and "target 10" in str(e), str(e)
        else:
            raise AssertionError("accepted start %r" % (bad,))


def test_a_header_with_a_bad_start_does_not_replay():
    g = Game(Rules("classic"), NAMES, 0, start=[7, 4, 7, 4])
    text = log.dumps(g).replace("[7, 4, 7, 4]", "[7, 4, 11, 4]")
    head = text.split("\n")[0]
    payload = head[1:-12]
    fixed = log.encode_line(__import__("json").loads(payload))
    try:
        log.loads(fixed)
    except log.LogError as e:
        assert "start" in str(e)
    else:
        raise AssertionError("a start past the target replayed")


def test_each_seat_of_a_five_player_game_starts_at_its_own_score():
    g = Game(Rules("five"), ["A", "B", "C", "D", "E"], 0, start=[1, 2, 3, 4, 5])
    assert g.scores == [1, 2, 3, 4, 5] and g.header()["start"] == [1, 2, 3, 4, 5]
