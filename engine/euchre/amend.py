# Amending a finished hand (issue 25): the table noticed, a hand or two
# later, that hand N went otherwise ("that was a loner, not a march").
#
#     amend 2                  hand 2 is entered again,
#     quick 1                  as quick score (euchre.quick): seats 1 and 3
#     quick march alone        made trump, one alone, and took all five
#
# The log keeps both: hand 2's own inputs where they were, and the
# amendment where it was made. Every finished hand is kept in the game's
# ``history`` (result, dealer, points); an amendment replaces hand N's
# there and adds the hands up again from the start, so later hands keep
# their points, and the game ends at the first hand whose total ends it
# (a game can end earlier, hands played after that end then count for
# nothing, or go on). Rules, as docs/RULES.md "Amending a hand" gives them:
#
# - between hands (before the next hand's first input) or once the game
#   is over, never inside a hand;
# - the outcome only: a hand keeps its dealer, so a misdeal (the same
#   dealer dealt again) cannot be amended and nothing becomes one; a
#   throw-in may become a played hand and back (the deal passed on either
#   way);
# - a club round accepted is amended only after its acceptance is undone
#   (and is then accepted again: euchre.clubround);
# - in card mode too: the amendment is table mode's outcome of the hand,
#   the cards dealt stay in the log as they were.
#
# Loaded with the first amendment (euchre.game calls in), so a game that
# never amends never holds it.

from euchre import actions as A
from euchre.actions import IllegalAction
from euchre.cards import error_text
from euchre.hand import Hand
from euchre.phases import SCORED, REDEAL, P_UP, P_DONE


def records(g):
    """The finished hands ``g`` knows (all of them, unless it was restored
    from a checkpoint: those since), as ``[(number, result, dealer,
    points), ...]``; ``result`` is euchre.hand's SCORED, THROWN_IN or
    REDEAL.
    """
    w = len(g.scores) + 2
    h = g.history
    out = []
    for i in range(0, len(h), w):
        out.append((g.history_from + i // w, h[i], h[i + 1], list(h[i + 2:i + w])))
    return out


def amendable(g):
    """The numbers of the hands ``amend`` takes now (Game.amendable has
    checked that no hand is under way).
    """
    if g.amending is not None or g.accepted:
        return []
    out = []
    for r in records(g):
        if r[1] != REDEAL:
            out.append(r[0])
    return out


def legal_ids(g):
    """The legal ids of an amendment under way: the quick inputs of the
    hand entered again (euchre.quick).
    """
    h = g.amending
    out = []
    for a in h.legal_ids():
        if h.phase != P_UP or A.kind_of(a) == A.QUICK:
            out.append(a)
    return out


def begin(g, a):
    """``amend N``: hand N is entered again, from its first quick input.
    :raises IllegalAction: naming the rule (see the module comment).
    """
    n = A.arg_of(a) + 64 * A.flag_of(a)
    w = len(g.scores) + 2
    last = g.history_from - 1 + len(g.history) // w
    if g.amending is not None or (g.hand.events and not g.result):
        raise IllegalAction(error_text("amend_when", g.hand_no))
    if g.accepted:
        raise IllegalAction(error_text("amend_accepted"))
    if not 1 <= n <= last:
        raise IllegalAction(error_text("amend_which", n, last))
    if n < g.history_from:
        raise IllegalAction(error_text("amend_restored", n))
    i = (n - g.history_from) * w
    if g.history[i] == REDEAL:
        raise IllegalAction(error_text("amend_redeal", n))
    g.amend_ck = g.checkpoint()
    h = g.amending = Hand(g.rules, g.history[i + 1], False)
    if g.rules.no_late_loners:
        # (who may not go alone in it, from the scores before it)
        from euchre.later import barred_seats
        before = list(g.history_base)
        for j in range(0, i, w):
            if g.history[j] == SCORED:
                for p in range(w - 2):
                    before[p] += g.history[j + 2 + p]
        h.barred = barred_seats(g.rules, before, g.history_target)
    g.amend_no = n
    g._ids.append(a)


def step(g, a, ends):
    """One quick input of the amendment; the last one amends the hand
    (``ends``: euchre.game's game_result, which finds the game's end).
    """
    h = g.amending
    if h.phase == P_UP and A.kind_of(a) != A.QUICK:
        raise IllegalAction(error_text("amend_quick"))
    h.apply_id(a)   # (refused: nothing changes)
    g._ids.append(a)
    if h.phase == P_DONE:
        _done(g, h, ends)


def _done(g, h, ends):
    # Hand ``g.amend_no`` now went as ``h`` did: its record replaced, the
    # totals and the end found again, the change kept in ``last_amend``.
    n, rules = g.amend_no, g.rules
    np = len(g.scores)
    w = np + 2
    hist = g.history
    i = (n - g.history_from) * w
    old = list(hist[i + 2:i + w])
    hist[i] = h.result
    for p in range(np):
        hist[i + 2 + p] = h.points[p]
    was, was_result = list(g.scores), g.result
    scores = list(g.history_base)
    counted, side = g.history_count
    target = g.history_target
    end = None
    before = scores
    k = g.history_from - 1
    dealer = g.first_dealer
    for j in range(0, len(hist), w):
        k += 1
        res, dealer = hist[j], hist[j + 1]
        before = list(scores)
        if res == SCORED:
            for p in range(np):
                scores[p] += hist[j + 2 + p]
        if rules.round_hands:
            # (a club round: its end is its count of hands, euchre.clubround)
            from euchre import clubround
            counted += res != REDEAL
            if res == SCORED and hist[j + 2] != hist[j + 3]:
                side = 0 if hist[j + 2] > hist[j + 3] else 1
            if counted >= rules.round_hands:
                end = clubround.result(scores, side)
        else:
            if rules.raise_target and res == SCORED:
                from euchre.later import raised_target
                target = raised_target(scores, target)
            end = ends(rules, scores, before, target)
        if res != REDEAL:
            dealer = (dealer + 1) % np
        if end:
            break
    g.amending = None
    g.amend_no = 0
    g.amended_hand = h
    g.last_amend = (n, old, list(h.points), was, list(scores), was_result, end)
    shown = g.hand_no - 1   # (the hand last_hand holds: the last one counted)
    g.scores = scores
    if rules.raise_target:
        g.target = target
    g.result = end
    g.hand_no = k + 1
    g.dealer = dealer
    if rules.round_hands:
        g.counted, g.last_side = counted, side
    if end:
        # over: a resume starts before the amendment (and replays the log)
        g.ck_fixed = g.amend_ck
        g._before = before
    else:
        g.ck_fixed = None
    # last_hand: the last hand counted. The last hand played is kept while
    # an earlier end holds last_hand (its screen shows it if the game goes
    # on again); a hand that ended the game earlier, neither amended now
    # nor shown before, is known by its record only (only a game-over
    # screen follows, which does not show it).
    last = g.history_from - 1 + len(hist) // w
    if shown == last:
        g.last_played = g.last_hand
    if n == last:
        g.last_played = h
    if k == n:
        g.last_hand = h
    elif k == last:
        g.last_hand = g.last_played
    elif k != shown:
        r = records(g)[k - g.history_from]
        g.last_hand = _Summary(r[1], r[3])
    g.hand = g._bar(Hand(rules, dealer, g.cards))


class _Summary:
    # A finished hand known by its record only: no outcome code (the record
    # does not keep it), as euchre.game's HandSummary otherwise.

    outcome = None
    renege = -1

    def __init__(self, result, points):
        self.result = result
        self.points = points
