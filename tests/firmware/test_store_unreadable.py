"""A log the store cannot read at all (an OSError, here a directory where
the game in play's log is, as a browser's damaged storage can hold) is not
resumed and is left as it is: the device boots, it does not stop."""

import os

from bower.store import Store
from euchre import Game, Rules


def test_a_log_that_cannot_be_read_is_not_resumed_and_the_device_boots(tmp_path):
    root = str(tmp_path) + "/"
    s = Store(root)
    game = Game(Rules("classic", winning_score=5), dealer=0)
    s.new_game(game, started=1750000000)
    for e in ("up H", "pass", "order"):
        game.apply(e)
        s.record(game, e)
    log = tmp_path / "games" / "g0001.log"
    log.unlink()
    os.mkdir(log)
    s = Store(root)
    assert s.resume() is None
    assert len(s.warnings) == 1 and s.warnings[0].startswith("g0001 ") and s.warnings[0].endswith(": not resumed")
    assert log.is_dir()
