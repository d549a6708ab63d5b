"""A new game never seats one name twice (issue 32: the host's one gate
refuses a game with a name twice, so the device must never make one).

Before: a roster holding a seat letter ("C") seated C twice by default
(roster names first, then the seat letters A B C D whatever they were), and
the seat pick list always offered the seat's letter, even when another seat
had it.
"""

import pytest

from bower import keys as K

from uikit import Driver, MemStore


def _players_screen(roster):
    d = Driver(store=MemStore(roster=roster))
    d.press(K.OK)               # New game
    d.press(K.OK)               # Classic
    d.press(K.OK)               # Next: players
    assert d.screen()[0] == "Players"
    return d


@pytest.mark.parametrize("roster", [[], ["C"], ["D", "A"], ["B", "A", "D"], ["Ann", "C", "B"], ["D", "C", "B", "A"]])
def test_the_default_seats_are_distinct(roster):
    d = _players_screen(roster)
    players = d.app.setup["players"]
    assert len(set(players)) == 4 and players[:len(roster)] == roster[:4], players


def test_the_pick_list_offers_no_name_another_seat_has():
    d = _players_screen(["C", "Ann"])
    assert d.app.setup["players"] == ["C", "Ann", "A", "B"]
    for seat in range(4):
        menu = d.app.stack[-1]
        others = [p for i, p in enumerate(d.app.setup["players"]) if i != seat]
        from bower.newgame import _player_pick
        _player_pick(d.app, seat)
        offered = [label for label, _ in d.app.stack[-1].items]
        assert not set(offered) & set(others), (seat, offered, others)
        assert d.app.setup["players"][seat] in offered and len(set(offered)) == len(offered)
        d.app.back()
        assert d.app.stack[-1] is menu
