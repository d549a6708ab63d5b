# The standings over the game menu ("Scores"; OK or BACK returns). Apart
# from bower.play, which draws them, so a hand's heap holds no more than
# the hand needs.

from bower import gfx
from bower.keys import OK, BACK
from bower.menu import Screen
from bower.play import standings, deals_footer


class Scores(Screen):
    def handle(self, app, ev):
        if ev == OK or ev == BACK:
            app.back()

    def draw(self, app, fb):
        g = app.game
        gfx.bar(fb, "Scores: hand %d" % g.hand_no)
        mark = -1 if g.result else g.dealer
        y = standings(app, fb, None, mark)   # (the footer's line)
        to = "to %d" % (g.target or g.rules.winning_score)   # (option raise_target: raised)
        if mark < 0:
            fb.hline(0, y, 128, 1)
            gfx.text(fb, to, 0, 57)
        else:
            deals_footer(fb, to + ", ", g.players[mark], y)
