# A club night's round (host/CLUB.md): Classic with four more options, a
# game that ends by itself after ``round_hands`` hands and is accepted by
# the other side. Loaded only when a round is played (euchre.rules,
# euchre.game call in), so an ordinary game's heap holds none of it
# (firmware/DEVICE.md, 1).
#
# >>> from euchre import Game, Rules
# >>> g = Game(Rules("classic", round_hands=1, lone_march=5))
# >>> for e in ["up H", "pass", "order alone", "tricks 5", "accept"]:
# ...     g.apply(e)
# >>> g.scores, g.result, g.accepted
# ([5, 0, 5, 0], ((0, 2), 'win'), True)

from euchre.actions import ACCEPT, IllegalAction
from euchre.cards import error_text

# The options, as logged (a game that is no round logs none of them).
ROUND_OPTIONS = ("round_hands", "lone_march", "set_loner", "renege_points")

# round_hands: the round's hands (a whole number; 0: no round); the points
# progressive nights give a lone march (and a renege in a hand played
# alone), a euchred loner, any other renege. Defaults: Classic's own.
_ALLOWED = ((0, 99), (4, 5), (2, 3, 4), (1, 2, 3, 4))
_DEFAULT = (0, 4, 2, 2)


def round_options(variant, given):
    """Take the round options out of ``given`` (a Rules' options) and check
    them: {} when round_hands is 0 (their defaults only), else all four.
    :raises ValueError: not Classic, a bad value, or round scoring
        without round_hands.
    """
    out = {}
    for i in range(4):
        k = ROUND_OPTIONS[i]
        x = given.pop(k, _DEFAULT[i])
        a = _ALLOWED[i]
        if isinstance(x, bool) or not isinstance(x, int) or not (a[0] <= x <= a[1] if i == 0 else x in a):
            raise ValueError(error_text("value", k, a, x) if i else error_text("number", k, 0, x))
        out[k] = x
    if variant != "classic":
        raise ValueError(error_text("round_variant", variant))
    if not out["round_hands"]:
        for i in range(1, 4):
            if out[ROUND_OPTIONS[i]] != _DEFAULT[i]:
                raise ValueError(error_text("round", ROUND_OPTIONS[i]))
        return {}
    return out


def apply(rules, opts):
    """Make ``rules`` a round's: the options logged, and the night's points in
    its score table (euchre.rules: a lone march and a renege in a hand
    played alone are worth ``lone_march``, any other renege
    ``renege_points``; euchre.hand.score_hand reads ``set_loner``).
    """
    rules.options.update(opts)
    rules.round_hands = opts["round_hands"]
    rules.set_loner = opts["set_loner"]
    s = list(rules.score)
    s[3] = s[9] = opts["lone_march"]
    s[8] = opts["renege_points"]
    rules.score = tuple(s)


def hand_done(game, counts, points):
    """After each hand of a round (Game._finish_hand): ``counts`` if it passed
    the deal on (a redeal does not), ``points`` if it scored: the count,
    the side that scored last, the round's end.
    """
    side = game.last_side
    if counts:
        game.counted += 1
    if points and points[0] != points[1]:
        game.last_side = 0 if points[0] > points[1] else 1
    if game.result is None and game.counted >= game.rules.round_hands:
        game.result = result(game.scores, game.last_side)
    if game.result:
        game._count_before = [game.counted - 1, side]   # (the checkpoint of the last hand)


def may_end(game):
    """True between the hands of a round that is not over: ``accept`` would
    end it there (time was called).
    """
    return bool(game.rules.round_hands and not game.result and game.counted and not game.hand.events)


def result(scores, last_side):
    """The end of a round: the partnership with more points wins; level, the
    one that scored the latest hand scored unevenly (``last_side``;
    nothing scored: N/S).
    """
    side = last_side if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    return (side, side + 2), "win"


def accept(game):
    """The ``accept`` event: the round's result accepted by the other side,
    once, at its end or between hands (then the round ends there).
    :raises IllegalAction: any other time; nothing changes.
    """
    if not (game.result or may_end(game)) or game.accepted or not game.rules.round_hands:
        raise IllegalAction(error_text("accept"))
    if not game.result:
        game.result = result(game.scores, game.last_side)
    game.accepted = True
    game._ids.append(ACCEPT)


def ck_tail(game):
    """What a round adds to Game.checkpoint: the hands counted and the last
    side at the start of the checkpoint's hand.
    """
    if game.result and game.hand.events:
        return game._count_before
    return [game.counted, game.last_side]


def ck_split(ck):
    """(the checkpoint without that tail, the tail); the tail None if it is
    not one (Game.restore then refuses the checkpoint).
    """
    if not isinstance(ck, list) or len(ck) < 3:
        return ck, None
    t = ck[-2:]
    if type(t[0]) is not int or t[0] < 0 or t[1] not in (0, 1):
        return ck, None
    return ck[:-2], t
