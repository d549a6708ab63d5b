# The rules of the options that came after the game logs began (issue 36;
# euchre.rules LATER and the variants' own ``later``) that need code of
# their own: loaded only for a game that has one, so a game without them
# holds none of it on the device's heap (firmware/DEVICE.md, 1).


def raised_target(scores, target):
    """Three-Handed's option raise_target: the points to win after a hand."""
    # Two or more at or over the target raise it by 10, as often as that
    # holds (searchamateur.com's Euchre and Ecarte gives it for its
    # two-handed game, where one player scores a hand; in Bower only
    # Three-Handed's two defenders can both reach it).
    while _reached(scores, target) > 1:
        target += 10
    return target


def _reached(scores, target):
    n = 0
    for s in scores:
        n += s >= target
    return n


def barred_seats(rules, scores, target):
    """Option no_late_loners: the seats that may not go alone, a bit each:
    those of a side within 2 points of the target ("no loners on 8 or 9"
    in a game to 10: users.igl.net's league games, docs/RULES.md)."""
    target = target or rules.winning_score
    m = 0
    for p in range(len(scores)):
        if scores[p] >= target - 2:
            m |= 1 << p
    return m
