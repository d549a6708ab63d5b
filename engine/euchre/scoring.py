# Scoring a hand and ending a game, driven by each variant's score table.
#
# Two small scoring functions cover the four variants: ``team`` (Classic,
# Ultimate: one side scores) and ``called`` (Five-Handed, Call-Your-Partner:
# each member of a side scores, maybe only with a trick). A renege ends a hand
# and is scored by the variant's ``renege`` rule. Point values come from
# ``rules.score``.


def score_hand(h):
    # Points per seat for a finished hand and the reason, e.g.
    # ``([2, 0, 2, 0], "march")``.
    if h.renege >= 0:
        return _renege(h)
    if h.rules.scoring == "team":
        return _team(h)
    return _called(h)


def _made(h, s):
    # Points for makers who made it, and why.
    t, n = h.maker_tricks(), h.rules.hand_size
    if t < n:
        return (s["alone_make"], "made alone") if h.alone else (s["make"], "made")
    if h.alone == 2:
        return s["best_march"], "lone march with partner's best"  # 003
    if h.alone:
        return s["alone_march"], "lone march"
    if "unpartnered_march" in s and not 0 <= h.partner < h.n:
        return s["unpartnered_march"], "march without a partner"  # 000, 001
    return s["march"], "march"


def _team(h):
    r = h.rules
    s = r.score
    pts = [0] * h.n
    side = h.maker & 1
    if h.maker_tricks() >= r.tricks_to_make:
        v, why = _made(h, s)
    else:
        side = 1 - side
        if h.lone_defender >= 0:
            v, why = s["defend_euchre"], "euchred by a lone defender"  # 004
        else:
            v, why = s["euchre"], "euchred"
    pts[side] = pts[side + 2] = v
    return pts, why


def _called(h):
    r = h.rules
    s = r.score
    n = h.n
    makers = [h.maker]
    if 0 <= h.partner < n:
        makers.append(h.partner)
    if h.maker_tricks() >= r.tricks_to_make:
        v, why = _made(h, s)
        scorers = makers
    else:
        v, why = s["euchre"], "euchred"
        scorers = [p for p in range(n) if p not in makers]
    pts = [0] * n
    for p in scorers:
        # 000: "Only players who have taken tricks during the relevant hand
        # are eligible to receive points."
        if not r.needs_trick or h.tricks[p]:
            pts[p] = v
    return pts, why


def _renege(h):
    r = h.rules
    s = r.score
    o = h.renege
    pts = [0] * h.n
    if r.renege == "side":
        # 002/004: 2 to the other side, 4 when either side played alone;
        # option: deduct from the guilty side instead.
        v = s["renege_alone"] if (h.alone or h.lone_defender >= 0) else s["renege"]
        if r.renege_deduct:
            pts[o] = pts[(o + 2) % 4] = -v
        else:
            pts[(o + 1) % 4] = pts[(o + 3) % 4] = v
    else:
        # Five-Handed and Call-Your-Partner: the offender loses 2 (4 if the
        # bidder declared alone); nobody else scores.
        pts[o] = -(s["renege_alone"] if h.alone else s["renege"])
    return pts, "renege by seat %d" % o


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
    leaders = [p for p in range(len(scores)) if scores[p] == top]
    if end == "first_to":
        # Partnerships: both partners hold the side's score.
        kind = WIN if len(set([p & 1 for p in leaders])) == 1 else DRAW
        return tuple(leaders), kind
    if end == "lead_by_one":
        # 000: ten or more and at least one point ahead of everyone.
        return (tuple(leaders), WIN) if len(leaders) == 1 else None
    if end == "highest":
        # 001 as RULES.md decides: the highest wins, ties share the win.
        return tuple(leaders), (WIN if len(leaders) == 1 else SHARED)
    # 000, alternate ending: among those who reached the target in this hand
    # the lowest score at its start wins; still tied: a draw among all of
    # them.
    reached = [p for p in range(len(scores)) if scores[p] >= target]
    low = min([before[p] for p in reached])
    first = [p for p in reached if before[p] == low]
    if len(first) == 1:
        return tuple(first), WIN
    return tuple(reached), DRAW
