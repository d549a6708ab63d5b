# Scoring a hand and ending a game, driven by each variant's score table.
#
# One function covers the four variants: the makers' side (a partnership, or
# the maker and the called partner) or the defenders score the table's
# points, each member of the side (Five-Handed: only players who took a
# trick). A renege ends a hand and is scored by the variant's ``renege``
# rule. Point values come from ``rules.score``, a tuple in this order:
# make, march, alone_make, alone_march, best_march, unpartnered_march,
# euchre, defend_euchre, renege, renege_alone (see euchre.rules).


def score_hand(h):
    # Points per seat for a finished hand and the reason, e.g.
    # ``([2, 0, 2, 0], "march")``.
    r = h.rules
    s = r.score
    n = h.n
    pts = [0] * n
    o = h.renege
    if o >= 0:
        if r.renege == "side":
            # 002/004: 2 to the other side, 4 when either side played
            # alone; option: deduct from the guilty side instead.
            v = s[9] if (h.alone or h.lone_defender >= 0) else s[8]
            if r.renege_deduct:
                pts[o] = pts[(o + 2) % 4] = -v
            else:
                pts[(o + 1) % 4] = pts[(o + 3) % 4] = v
        else:
            # Five-Handed and Call-Your-Partner: the offender loses 2 (4 if
            # the bidder declared alone); nobody else scores.
            pts[o] = -(s[9] if h.alone else s[8])
        return pts, "renege by seat %d" % o
    m = h.maker
    if r.teams:
        makers = (m, (m + 2) % 4)
    elif 0 <= h.partner < n:
        makers = (m, h.partner)
    else:
        makers = (m,)
    t = h.maker_tricks()
    if t < r.tricks_to_make:
        scorers = [p for p in range(n) if p not in makers]
        if h.lone_defender >= 0:
            v, why = s[7], "euchred by a lone defender"  # 004
        else:
            v, why = s[6], "euchred"
    else:
        scorers = makers
        if t < r.hand_size:
            v, why = (s[2], "made alone") if h.alone else (s[0], "made")
        elif h.alone == 2:
            v, why = s[4], "lone march with partner's best"  # 003
        elif h.alone:
            v, why = s[3], "lone march"
        elif s[5] and len(makers) == 1:
            v, why = s[5], "march without a partner"  # 000, 001
        else:
            v, why = s[1], "march"
    for p in scorers:
        # 000: "Only players who have taken tricks during the relevant hand
        # are eligible to receive points."
        if not r.needs_trick or h.tricks[p]:
            pts[p] = v
    return pts, why


WIN = "win"
SHARED = "shared"
DRAW = "draw"


def game_result(rules, scores, before):
    # ``None`` while the game goes on, else ``(winners, kind)``: the seats
    # that won (both partners in a partnership) and ``WIN``, ``SHARED`` or
    # ``DRAW``. ``before`` holds the scores at the start of the last hand.
    target = rules.winning_score
    end = rules.end
    top = max(scores)
    if top < target:
        return None
    leaders = tuple([p for p in range(len(scores)) if scores[p] == top])
    if end == "first_to":
        # Partnerships: both partners hold the side's score.
        return leaders, (WIN if len(set([p & 1 for p in leaders])) == 1 else DRAW)
    if end == "lead_by_one":
        # 000: ten or more and at least one point ahead of everyone.
        return (leaders, WIN) if len(leaders) == 1 else None
    if end == "highest":
        # 001 as RULES.md decides: the highest wins, ties share the win.
        return leaders, (WIN if len(leaders) == 1 else SHARED)
    # 000, alternate ending: among those who reached the target in this hand
    # the lowest score at its start wins; still tied: a draw among all of
    # them.
    reached = [p for p in range(len(scores)) if scores[p] >= target]
    low = min([before[p] for p in reached])
    first = tuple([p for p in reached if before[p] == low])
    if len(first) == 1:
        return first, WIN
    return tuple(reached), DRAW
