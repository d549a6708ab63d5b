"""What the simulator prints beside its picture says what the firmware does.

In a terminal too small for half blocks (80x24) the braille picture is hard
to read: the screen's words follow it, taken from the firmware's own drawing
(``bower_host.screentext``), the row under the cursor marked. The help line
and the README name ``l`` for what it is on the device: holding OK, which
opens the game menu from a game's screens (``bower.ui.App.handle``), a bid's
too, where BACK passes instead.
"""

from __future__ import annotations

import re
from pathlib import Path

from bower import keys as K

REPO = Path(__file__).resolve().parents[2]


def _device(tmp_path, roster=("Ann", "Bob", "Cy", "Di")):
    from bower_host import simulator
    dev = simulator.Device(str(tmp_path / "flash"), lambda n: 0)
    dev.store.set_roster(list(roster))
    dev.app.home()
    dev.flush()
    return dev


def test_an_80x24_terminal_shows_the_screens_words_under_the_braille(tmp_path):
    from bower_host.commands import sim
    dev = _device(tmp_path)
    for ev in (K.OK, K.OK, K.OK):       # New game, Classic, Next: players
        dev.press(ev)
    lines = sim.picture(dev, (80, 24), status="USB link: bower sync --port sim.port")
    assert len(lines) == 24 and max(map(len, lines)) <= 80
    assert lines[0] == lines[17] == "+" + "-" * 64 + "+"
    words = lines[18:22]
    # Two columns, top to bottom: the title, then the rows, ">" at the cursor.
    assert words[0].split()[0] == "Players" and words[2].startswith(">Next: dealer"), words
    assert "A: Ann" in words[3] and all(f"{s}: {n}" in " ".join(words) for s, n in zip("BCD", ("Bob", "Cy", "Di")))
    assert lines[22] == sim.HELP and lines[23].startswith("USB link")
    # Without the link line the words still fit; one line short of them: the picture alone.
    assert sim.picture(dev, (80, 23))[18].split()[0] == "Players"
    short = sim.picture(dev, (80, 21), status="USB link: x")
    assert len(short) == 20 and short[18] == sim.HELP
    # A terminal large enough for half blocks needs no words.
    assert len(sim.picture(dev, (130, 36), status="USB link: x")) == 36


def test_the_words_are_the_screens_as_drawn_suits_scores_and_cursor(tmp_path):
    from bower_host import screentext
    dev = _device(tmp_path)
    for ev in (K.OK, K.OK, K.OK, K.OK, K.DOWN, K.OK):   # to the first hand: Ann deals
        dev.press(ev)
    rows = screentext.rows(dev.app)
    assert rows[0] == ("H1 Ann deals", False)
    assert ("  \u2665 hearts", True) in rows and ("  \u2663 clubs", False) in rows, rows
    for ev in (K.OK, K.DOWN, K.OK, K.DOWN, K.DOWN, K.OK):   # hearts; Bob alone; took 5
        dev.press(ev)
    text = [t for t, _ in screentext.rows(dev.app)]
    assert text[0] == "lone march" and "OK: Bob deals" in text
    assert re.fullmatch(r"Bob +4 +\+4", text[4]) and re.fullmatch(r"Ann +0", text[1]), text
    # A note over the bottom rows hides the words under it, as on the glass.
    dev.press(K.OK)
    dev.press(K.BACK_LONG)          # undo: the result comes back, "undone" over its foot
    text = [t for t, _ in screentext.rows(dev.app)]
    assert text[-1] == "undone" and "OK: Bob deals" not in text, text
    # Drawing the words again changes nothing the device shows.
    before = dev.gddram()
    dev.tick()
    assert dev.gddram() == before and not dev.app.dirty


def test_l_is_hold_ok_which_opens_the_game_menu_as_help_and_readme_say(tmp_path):
    from bower_host import screentext
    from bower_host.commands import sim
    dev = _device(tmp_path)
    assert sim._KEYS["l"] == K.OK_LONG and sim._KEYS["z"] == K.BACK_LONG
    for ev in (K.OK, K.OK, K.OK, K.OK, K.DOWN, K.OK, K.OK):   # to Bob's bid
        dev.press(ev)
    assert screentext.rows(dev.app)[1][0] == "Bob:"
    dev.press(sim._KEYS["l"])
    assert screentext.rows(dev.app)[0][0] == "Game menu"
    dev.press(K.BACK)
    dev.press(sim._KEYS["\x7f"])    # Backspace on a bid: a pass, not the menu
    assert screentext.rows(dev.app)[1][0] == "Cy:"
    assert "l hold OK: game menu" in sim.HELP and "z undo" in sim.HELP
    readme = " ".join((REPO / "README.md").read_text().split())
    assert "`l` = hold OK (the game menu" in readme and "`z` = hold BACK (undo)" in readme
