# Quick score (issue 25): a hand entered as who made trump and how it ended,
# for a table that wants the deal tracked and the score right without the
# upcard, the bids and the tricks. Table mode only. euchre.hand loads this
# module with a hand's first quick input (``quick N`` at the upcard) and
# keeps it; a device that never scores quick never holds it.
#
#     quick 1                  Classic: seats 1 and 3 made trump,
#     quick march alone        one of them alone, and took all five
#
#     quick 2                  Five-Handed: seat 2 made trump,
#     reveal 4                 seat 4 held the partner card (or: alone,
#                              reveal none),
#     quick euchred notrick 0  and they were euchred; of the defenders,
#                              seat 0 took no trick
#
#     quick none               nobody made trump (all passed, a throw-in)
#
# A quick hand is scored by the same functions as a full one: its end is
# booked as the makers' tricks, just enough for "made", all for "march",
# none for "euchred", through table mode's own ``tricks N`` (partnerships)
# or the count and ``notrick`` (the other variants), and then
# euchre.hand.score_hand scores it. So every variant's points and option
# (partner's best, a lone defender, a club round's values, Five-Handed's
# "only players who took a trick score", a partner never found) come out as
# a full entry of the same hand gives them. The counts booked are nominal:
# the table said how the hand ended, not how many tricks each took. The
# partnerships name the makers' side, not the seat (``Hand.maker`` is the
# side's number, which is also a seat of it).
#
# Like euchre.cardmode it works on the hand it is given and does not import
# euchre.hand (which loads it): ``apply`` returns the table-mode action that
# scores the end, and the hand applies it (see euchre.hand's ``_quick``).

from euchre import actions as A
from euchre.phases import P_UP, P_QPARTNER, P_QUICK

# How a quick hand ended: the code in QUICK's flag (plus 8 times ``how``,
# the way a partnership's maker played: 0, 1 alone, 2 alone with partner's
# best); 0 is a hand's start (``quick N``). Their words are
# euchre.actions' notation.
MADE = 1
MARCH = 2
EUCHRED = 3
DEFENDED = 4   # euchred by a lone defender (004)
RENEGE = 5     # by the seat in the argument


def end_id(end, arg=0, how=0):
    """The id of a quick hand's end: ``arg`` the seats of the scoring side
    that took no trick (a mask) or the seat that reneged.
    """
    return A.action(A.QUICK, arg, end + 8 * how)


def end_of(a):
    """(end, how) of a QUICK id (end 0: a hand's start)."""
    f = A.flag_of(a)
    return f % 8, f // 8


def legal(h):
    """The legal ids of a quick hand after its start: the maker's partner
    (P_QPARTNER: alone, the seat that held the partner card, or none:
    000, 001), then how the hand ended (P_QUICK: made, march, euchred,
    euchred by a lone defender (004), or a renege by a seat; a
    partnership's maker may have gone alone; Five-Handed also names who
    of the scoring side took no trick, where that changes the points).
    """
    out = []
    if h.phase == P_QPARTNER:
        out.append(A.ALONE)
        for s in range(h.n):
            if s != h.maker:
                out.append(A.action(A.REVEAL, s))
        out.append(A.action(A.REVEAL, A.NOBODY))
        return out
    for how in h.ways():
        for end in (MADE, MARCH, EUCHRED):
            # (who of the scoring side took no trick, where that decides
            # the points: what a full entry asks after ``tricks N``)
            for mask in h.notrick_masks(_taken(h, end)):
                out.append(end_id(end, mask, how))
        if h.rules.defend_alone:
            out.append(end_id(DEFENDED, 0, how))
    for how in h.ways():
        for s in range(h.n):
            out.append(end_id(RENEGE, s, how))
    return out


def _taken(h, end):
    # The makers' tricks booked for ``end``: just enough, all, or none.
    if end == MADE:
        return h.rules.tricks_to_make
    return h.rules.hand_size if end == MARCH else 0


def apply(h, k, x, flag):
    """Apply a legal quick input (euchre.hand's ``_quick`` hands over every
    QUICK id but ``quick none``, which it ends itself, and the partner
    step's ``alone`` and ``reveal``). Returns the table-mode action id that
    scores the hand's end (the hand applies it), else -1.
    """
    n = h.n
    if h.phase == P_UP:
        h.maker = x
        h.phase = P_QPARTNER if h.rules.call_partner else P_QUICK
        return -1
    if h.phase == P_QPARTNER:
        if k == A.ALONE:
            h.alone = 1
            x = A.NOBODY
        h.partner = x
        h.phase = P_QUICK
        return -1
    end, how = end_of(A.action(k, x, flag))
    m = h.maker
    if how:
        # A partnership's lone maker: the partners sit out.
        h.alone = how
        _sit_out(h, m)
    if end == RENEGE:
        return A.action(A.RENEGE, x)
    if end == DEFENDED:
        # 004: a defender went alone (nominally the seat after the maker)
        h.lone_defender = (m + 1) % n
        _sit_out(h, h.lone_defender)
    t = _taken(h, end)
    if h.rules.teams:
        return A.action(A.TRICKS, t)
    h.taken = t
    return A.action(A.NOTRICK, x)


def _sit_out(h, seat):
    # ``seat``'s partners sit out (they are every other seat).
    for p in range(seat % 2, h.n, 2):
        if p != seat:
            h.out[p] = 1
