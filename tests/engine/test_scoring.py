# portable: runs under MicroPython
"""Scoring tables of RULES.md, one table per variant, plus card-mode tricks.

Each case is ``(id, source, options, events, points, reason)``: the table-mode
events of one hand (dealer seat 0, so bidding starts at seat 1), the points
per seat that hand must score and the words for its outcome (euchre.notation's
``outcome_text`` of the hand's code). ``source``
names the seed file (../shared/seeds/) and quotes the sentence the case
checks; where the sources are silent it quotes the decision in RULES.md.

Seats: in partnership variants seats 0 & 2 and 1 & 3 are partners, and both
partners hold the side's score.
"""

from euchre import Game, Hand, Rules, IllegalAction, parse_cards
from euchre.notation import outcome_text

S000 = "000_93089922ad7d5145.txt"
S001 = "001_02801dca7f87cf1e.txt"
S002 = "002_b3fca62c46b72403.txt"
S003 = "003_2434ab160294ee77.txt"
S004 = "004_ae6657ff59971852.txt"


def _cite(seed, quote):
    return "%s: '%s'" % (seed, quote)


def _words(h):
    return outcome_text(h.outcome, h.renege)


def run_table(variant, cases):
    """Play each case's hand through Game.apply; return the mismatches."""
    bad = []
    for case in cases:
        cid, source, opts, events, points, reason = case
        g = Game(Rules(variant, **opts), dealer=0)
        try:
            for e in events:
                g.apply(e)
        except IllegalAction as e:
            bad.append("%s [%s]: event refused: %s" % (cid, source, e))
            continue
        h = g.last_hand
        if h is None:
            bad.append("%s [%s]: hand not over after %r" % (cid, source, events))
            continue
        got = (h.result, list(h.points), _words(h), list(g.scores))
        want = (0, points, reason, points)
        if got != want:
            bad.append("%s [%s]: got (result, points, reason, scores) %r, want %r"
                       % (cid, source, got, want))
    return bad


def check_table(variant, cases):
    bad = run_table(variant, cases)
    assert not bad, "\n".join(bad)


# ----- Classic --------------------------------------------------------------

C_MADE = _cite(S003, "If the team that declared trump wins the hand by taking 3 or 4 "
               "tricks they receive one point, should they take all 5 tricks they "
               "have \"marched\" and receive two points")
C_ALONE = _cite(S003, "If a player takes all 5 \"alone\" that team receives 4 points, "
                "if the player takes 3 or 4 tricks that team gets 1 point.")
C_ALONE_EUCHRE = _cite(S003, "Getting euchred on a loner is still 2 points for the other team.")
C_EUCHRE = _cite(S004, "If the makers fail to fulfill the trick obligation, the defenders "
                 "score 2 points (whether they get three, four, or five tricks)")
C_DEFEND = _cite(S004, "Another game version states that the penalty for getting euchred "
                 "when a defender goes alone is doubled.")
C_DEFEND_MADE = ("RULES.md (Classic, lone defender, from %s): 'if the makers make it, "
                 "they score as usual'" % S004)
C_BEST = _cite(S003, "If the player gets a loner with partner's best, a point is knocked "
               "off the reward and three points result.")
C_RENEGE = _cite(S002, "The opponents of the \"renege\" gain 2 Points (4 Points if during "
                 "an Alone attempt).")
C_RENEGE_DEDUCT = _cite(S004, "the innocent side may add 2 points to its score or deduct "
                        "2 points from the guilty side.")
C_RENEGE_4 = _cite(S004, "If your side is going alone and one of the opponents revokes, "
                   "the penalty is 4 points.")
C_RENEGE_EITHER = ("RULES.md (Classic): 'the other side scores 2, or 4 when the hand was "
                   "played alone by either side (002's common rules, 004)'")

DEF = {"defend_alone": True}
BEST = {"partners_best": True}
DEDUCT = {"renege_deduct": True}

CLASSIC_CASES = [
    # Seat 1 orders: the makers are seats 1 and 3.
    ("made 3", C_MADE, {}, ["up H", "order", "tricks 3"], [0, 1, 0, 1], "made"),
    ("made 4", C_MADE, {}, ["up H", "order", "tricks 4"], [0, 1, 0, 1], "made"),
    ("march", C_MADE, {}, ["up H", "order", "tricks 5"], [0, 2, 0, 2], "march"),
    ("made 3 by the dealer's side", C_MADE, {},
     ["up S", "pass", "order", "tricks 3"], [1, 0, 1, 0], "made"),
    ("made in round 2", C_MADE, {},
     ["up S", "pass", "pass", "pass", "pass", "pass", "pass", "call H", "tricks 3"],
     [0, 1, 0, 1], "made"),
    ("made 3 entered trick by trick", C_MADE, {},
     ["up H", "order", "won 1", "won 0", "won 3", "won 2", "won 1"], [0, 1, 0, 1], "made"),
    ("march claimed", C_MADE, {},
     ["up H", "order", "won 1", "won 3", "claim 1"], [0, 2, 0, 2], "march"),
    ("alone 3", C_ALONE, {}, ["up H", "order alone", "tricks 3"], [0, 1, 0, 1], "made alone"),
    ("alone 4", C_ALONE, {}, ["up H", "order alone", "tricks 4"], [0, 1, 0, 1], "made alone"),
    ("alone march", C_ALONE, {}, ["up H", "order alone", "tricks 5"], [0, 4, 0, 4], "lone march"),
    ("alone march trick by trick", C_ALONE, {},
     ["up H", "pass", "pass", "order alone", "won 3", "won 3", "won 3", "won 3", "won 3"],
     [0, 4, 0, 4], "lone march"),
    ("alone march in round 2", C_ALONE, {},
     ["up H", "pass", "pass", "pass", "pass", "pass", "call D alone", "tricks 5"],
     [4, 0, 4, 0], "lone march"),
    ("euchred 2", C_EUCHRE, {}, ["up H", "order", "tricks 2"], [2, 0, 2, 0], "euchred"),
    ("euchred 0", C_EUCHRE, {}, ["up H", "order", "tricks 0"], [2, 0, 2, 0], "euchred"),
    ("euchred alone", C_ALONE_EUCHRE, {}, ["up H", "order alone", "tricks 2"], [2, 0, 2, 0], "euchred"),
    ("euchred alone, 0 tricks", C_ALONE_EUCHRE, {},
     ["up H", "order alone", "tricks 0"], [2, 0, 2, 0], "euchred"),
    ("lone defender euchres", C_DEFEND, DEF,
     ["up H", "order", "defend 2", "tricks 2"], [4, 0, 4, 0], "euchred by a lone defender"),
    ("lone defender euchres a lone maker", C_DEFEND, DEF,
     ["up H", "order alone", "defend 0", "tricks 1"], [4, 0, 4, 0], "euchred by a lone defender"),
    ("lone defender, makers make 3", C_DEFEND_MADE, DEF,
     ["up H", "order", "defend 2", "tricks 3"], [0, 1, 0, 1], "made"),
    ("lone defender, makers march", C_DEFEND_MADE, DEF,
     ["up H", "order", "defend 0", "tricks 5"], [0, 2, 0, 2], "march"),
    ("lone defender, lone maker marches", C_DEFEND_MADE, DEF,
     ["up H", "order alone", "defend 2", "tricks 5"], [0, 4, 0, 4], "lone march"),
    ("defend none: plain euchre", C_EUCHRE, DEF,
     ["up H", "order", "defend none", "tricks 1"], [2, 0, 2, 0], "euchred"),
    ("partner's best march", C_BEST, BEST,
     ["up H", "order alone best", "tricks 5"], [0, 3, 0, 3], "lone march with partner's best"),
    ("partner's best made 3", C_ALONE, BEST,
     ["up H", "order alone best", "tricks 3"], [0, 1, 0, 1], "made alone"),
    ("partner's best euchred", C_ALONE_EUCHRE, BEST,
     ["up H", "order alone best", "tricks 2"], [2, 0, 2, 0], "euchred"),
    ("partner's best off: plain lone march", C_ALONE, {},
     ["up H", "order alone", "tricks 5"], [0, 4, 0, 4], "lone march"),
    ("renege by a defender", C_RENEGE, {},
     ["up H", "order", "won 1", "renege 2"], [0, 2, 0, 2], "renege by seat 2"),
    ("renege by a maker", C_RENEGE, {},
     ["up H", "order", "renege 3"], [2, 0, 2, 0], "renege by seat 3"),
    ("renege against a lone maker", C_RENEGE_4, {},
     ["up H", "order alone", "renege 0"], [0, 4, 0, 4], "renege by seat 0"),
    ("renege by a lone maker", C_RENEGE_EITHER, {},
     ["up H", "order alone", "renege 1"], [4, 0, 4, 0], "renege by seat 1"),
    ("renege against a lone defender", C_RENEGE_EITHER, DEF,
     ["up H", "order", "defend 2", "renege 3"], [4, 0, 4, 0], "renege by seat 3"),
    ("renege by a lone defender", C_RENEGE_EITHER, DEF,
     ["up H", "order", "defend 2", "won 2", "renege 2"], [0, 4, 0, 4], "renege by seat 2"),
    ("renege deducted", C_RENEGE_DEDUCT, DEDUCT,
     ["up H", "order", "renege 2"], [-2, 0, -2, 0], "renege by seat 2"),
    ("renege deducted from makers", C_RENEGE_DEDUCT, DEDUCT,
     ["up H", "order", "renege 1"], [0, -2, 0, -2], "renege by seat 1"),
    ("renege deducted, alone", C_RENEGE_4, DEDUCT,
     ["up H", "order alone", "renege 2"], [-4, 0, -4, 0], "renege by seat 2"),
    ("renege deducted, lone defender", C_RENEGE_EITHER, {"renege_deduct": True, "defend_alone": True},
     ["up H", "order", "defend 0", "renege 1"], [0, -4, 0, -4], "renege by seat 1"),
]


def test_classic_scoring_table():
    check_table("classic", CLASSIC_CASES)


# ----- Five-Handed ----------------------------------------------------------

F_TRICK = _cite(S000, "Only players who have taken tricks during the relevant hand are "
                "eligible to receive points.")
F_AS_EUCHRE = _cite(S000, "The number of points awarded for sweeps, euchres, and lone hands "
                    "is the same as Euchre.")
F_ALONE = _cite(S000, "A player who takes all 5 tricks while going alone is awarded four points.")
F_KITTY = _cite(S000, "If a player names a card in the kitty and takes all five tricks, he "
                "is still only awarded two points for a sweep despite not having a partner.")
F_INTENT = _cite(S000, "The player must intentionally go alone to qualify for the additional points.")
F_RENEGE = ("RULES.md (Five-Handed): 'Renege: hand ends; the offender loses 2 (4 if the "
            "bidder declared alone). Nobody else scores.'")

# Seat 1 orders (clubs up, dealer 0) and calls the AH: "reveal N" names its
# holder (entered at the end of the hand or as soon as it is played).
F_BID = ["up C", "order", "partner AH"]
FIVE_CASES = [
    ("made 3, both with a trick", F_AS_EUCHRE, {},
     F_BID + ["won 1", "won 3", "won 1", "won 2", "won 4", "reveal 3"], [0, 1, 0, 1, 0], "made"),
    ("made 4, revealed early", F_AS_EUCHRE, {},
     F_BID + ["reveal 4", "won 4", "won 1", "won 1", "won 2", "won 4"], [0, 1, 0, 0, 1], "made"),
    ("made 3, partner without a trick", F_TRICK, {},
     F_BID + ["won 1", "won 1", "won 1", "won 2", "won 4", "reveal 3"], [0, 1, 0, 0, 0], "made"),
    ("made 3, bidder without a trick", F_TRICK, {},
     F_BID + ["won 3", "won 3", "won 3", "won 2", "won 4", "reveal 3"], [0, 0, 0, 1, 0], "made"),
    ("march, both with a trick", F_AS_EUCHRE, {},
     F_BID + ["reveal 3", "won 1", "won 3", "won 1", "won 1", "won 3"], [0, 2, 0, 2, 0], "march"),
    ("march, partner without a trick", F_TRICK, {},
     F_BID + ["won 1", "won 1", "won 1", "won 1", "won 1", "reveal 2"], [0, 2, 0, 0, 0], "march"),
    ("march claimed", F_AS_EUCHRE, {},
     F_BID + ["reveal 2", "won 2", "claim 1"], [0, 2, 2, 0, 0], "march"),
    ("intentional lone march", F_ALONE, {},
     ["up C", "order", "alone", "won 1", "won 1", "won 1", "won 1", "won 1"],
     [0, 4, 0, 0, 0], "lone march"),
    ("intentional lone march by the dealer", F_ALONE, {},
     ["up C", "pass", "pass", "pass", "pass", "order", "alone", "claim 0"],
     [4, 0, 0, 0, 0], "lone march"),
    ("lone 3", F_AS_EUCHRE, {},
     ["up C", "order", "alone", "won 1", "won 0", "won 1", "won 2", "won 1"],
     [0, 1, 0, 0, 0], "made alone"),
    ("partner card never played: march 2", F_KITTY, {},
     F_BID + ["won 1", "won 1", "won 1", "won 1", "won 1", "reveal none"],
     [0, 2, 0, 0, 0], "march without a partner"),
    ("partner card never played: made 1", F_INTENT, {},
     F_BID + ["won 1", "won 0", "won 1", "won 2", "won 1", "reveal none"],
     [0, 1, 0, 0, 0], "made"),
    ("euchred: every defender with a trick", F_AS_EUCHRE, {},
     F_BID + ["reveal 3", "won 0", "won 2", "won 4", "won 1", "won 3"], [2, 0, 2, 0, 2], "euchred"),
    ("euchred: a defender without a trick gets 0", F_TRICK, {},
     F_BID + ["reveal 3", "won 0", "won 0", "won 2", "won 1", "won 3"], [2, 0, 2, 0, 0], "euchred"),
    ("euchred without a partner: four defenders", F_TRICK, {},
     F_BID + ["won 0", "won 2", "won 3", "won 4", "won 1", "reveal none"], [2, 0, 2, 2, 2], "euchred"),
    ("lone bidder euchred", F_TRICK, {},
     ["up C", "order", "alone", "won 0", "won 0", "won 3", "won 1", "won 1"],
     [2, 0, 0, 2, 0], "euchred"),
    ("renege by a defender", F_RENEGE, {},
     F_BID + ["won 1", "renege 4"], [0, 0, 0, 0, -2], "renege by seat 4"),
    ("renege by the bidder", F_RENEGE, {},
     F_BID + ["renege 1"], [0, -2, 0, 0, 0], "renege by seat 1"),
    ("renege, bidder declared alone", F_RENEGE, {},
     ["up C", "order", "alone", "won 1", "won 1", "renege 2"], [0, 0, -4, 0, 0], "renege by seat 2"),
    ("renege by a lone bidder", F_RENEGE, {},
     ["up C", "order", "alone", "renege 1"], [0, -4, 0, 0, 0], "renege by seat 1"),
]


def test_five_handed_scoring_table():
    check_table("five", FIVE_CASES)


# The same hands entered as the makers' count (``tricks N``), the partner,
# then which scoring seats took no trick (``notrick``): the device's quick
# entry. The points must equal the trick-by-trick entry's.
FIVE_TOTAL_CASES = [
    ("total: made 3, both with a trick", F_AS_EUCHRE, {},
     F_BID + ["tricks 3", "reveal 3", "notrick none"], [0, 1, 0, 1, 0], "made"),
    ("total: made 3, partner without a trick", F_TRICK, {},
     F_BID + ["tricks 3", "reveal 3", "notrick 3"], [0, 1, 0, 0, 0], "made"),
    ("total: made 3, bidder without a trick", F_TRICK, {},
     F_BID + ["tricks 3", "reveal 3", "notrick 1"], [0, 0, 0, 1, 0], "made"),
    ("total: march, revealed before the count", F_AS_EUCHRE, {},
     F_BID + ["reveal 3", "tricks 5", "notrick none"], [0, 2, 0, 2, 0], "march"),
    ("total: lone march (nobody else to ask about)", F_ALONE, {},
     ["up C", "order", "alone", "tricks 5"], [0, 4, 0, 0, 0], "lone march"),
    ("total: partner card never played", F_KITTY, {},
     F_BID + ["tricks 5", "reveal none"], [0, 2, 0, 0, 0], "march without a partner"),
    ("total: euchred, every defender with a trick", F_AS_EUCHRE, {},
     F_BID + ["tricks 2", "reveal 3", "notrick none"], [2, 0, 2, 0, 2], "euchred"),
    ("total: euchred, one defender without a trick", F_TRICK, {},
     F_BID + ["tricks 1", "reveal 3", "notrick 4"], [2, 0, 2, 0, 0], "euchred"),
    ("total: euchred 0 by four defenders, two without a trick", F_TRICK, {},
     F_BID + ["tricks 0", "reveal none", "notrick 0 3"], [0, 0, 2, 0, 2], "euchred"),
]


def test_five_handed_scoring_by_totals():
    check_table("five", FIVE_TOTAL_CASES)


def test_notrick_is_asked_only_when_it_decides_points():
    # Call-Your-Partner has no trick condition: the count and the partner
    # settle the hand. Five-Handed asks once the partner is known.
    g = Game(Rules("callpartner"), dealer=0)
    for e in ["up C", "order", "partner AH", "tricks 4", "reveal 2"]:
        g.apply(e)
    assert g.hand_no == 2 and g.scores == [0, 1, 1, 0, 0], g.scores
    g = Game(Rules("five"), dealer=0)
    for e in ["up C", "order", "partner AH", "tricks 4", "reveal 2"]:
        g.apply(e)
    assert g.legal_actions() == ["notrick none", "notrick 1", "notrick 2"], g.legal_actions()
    # Euchred with three tricks among three defenders: at most two took none.
    g = Game(Rules("five"), dealer=0)
    for e in ["up C", "order", "partner AH", "tricks 2", "reveal 2"]:
        g.apply(e)
    assert g.legal_actions() == ["notrick none", "notrick 3", "notrick 4", "notrick 0",
                                 "notrick 3 4", "notrick 0 3", "notrick 0 4"], g.legal_actions()


def test_totals_score_as_trick_by_trick():
    # Random Five-Handed and Call-Your-Partner hands entered trick by trick,
    # then again as totals: same points, same side counts.
    seed = 12345
    for variant in ("five", "callpartner"):
        for _ in range(300):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            maker, partner = 1 + seed % 4, (seed >> 3) % 6
            partner = "none" if partner in (maker, 5) else str(partner)
            bid = ["up C"] + ["pass"] * (maker - 1) + ["order", "partner AH"]
            wins = []
            for _t in range(5):
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                wins.append((seed >> 8) % 5)
            a = Game(Rules(variant), dealer=0)
            for e in bid + ["won %d" % w for w in wins] + ["reveal " + partner]:
                a.apply(e)
            h = a.last_hand
            makers = [maker] + ([int(partner)] if partner != "none" else [])
            taken = sum([1 for w in wins if w in makers])
            b = Game(Rules(variant), dealer=0)
            for e in bid + ["tricks %d" % taken, "reveal " + partner]:
                b.apply(e)
            if b.hand_no == 1:
                scorers = makers if taken >= 3 else [s for s in range(5) if s not in makers]
                blank = [str(s) for s in sorted(scorers) if s not in wins]
                b.apply("notrick " + (" ".join(blank) or "none"))
            assert b.scores == a.scores, (variant, bid, wins, partner, a.scores, b.scores)
            assert b.last_hand.outcome == h.outcome, (h.outcome, b.last_hand.outcome)


def test_five_handed_jokers_and_eights_score_the_same():
    # 000: "Jokers can also be substituted for the twos" / "This has no
    # impact on game play": the options change the deck, not the scores.
    for opts in ({"jokers": True}, {"four_eights": True}):
        check_table("five", [(c[0], c[1], opts, c[3], c[4], c[5]) for c in FIVE_CASES[:8]])


# ----- Call-Your-Partner ----------------------------------------------------

Y_MADE = _cite(S001, "The team that called trump is given one point if they get three or "
               "four of the tricks; they are given two points if they get all five tricks.")
Y_EUCHRE = _cite(S001, "If they get less than three tricks, then the defending team is "
                 "given two points.")
Y_ALONE = _cite(S001, "If the caller goes alone, either by choice or because the called card "
                "is buried, then they are given five points if they take all five tricks.")
Y_NOTRICK = ("RULES.md (Call-Your-Partner): 'Each member of a side scores the side's points "
             "(no trick condition here)'")
Y_NOPARTNER = ("RULES.md (Call-Your-Partner): 'A maker with no partner (alone by choice, the "
               "called card was buried, or the maker held it) scores 5 for all five tricks, "
               "1 for three or four.'")
Y_RENEGE = ("RULES.md (Call-Your-Partner): 'Renege: as Five-Handed.' (the offender loses 2, "
            "4 if the bidder declared alone; nobody else scores)")

Y_BID = ["up C", "order", "partner AH"]
CALLPARTNER_CASES = [
    ("made 3", Y_MADE, {},
     Y_BID + ["won 1", "won 3", "won 1", "won 2", "won 4", "reveal 3"], [0, 1, 0, 1, 0], "made"),
    ("made 4", Y_MADE, {},
     Y_BID + ["reveal 2", "won 1", "won 2", "won 2", "won 0", "won 1"], [0, 1, 1, 0, 0], "made"),
    ("made 3, partner without a trick still scores", Y_NOTRICK, {},
     Y_BID + ["won 1", "won 1", "won 1", "won 2", "won 4", "reveal 3"], [0, 1, 0, 1, 0], "made"),
    ("march", Y_MADE, {},
     Y_BID + ["reveal 3", "won 1", "won 3", "won 1", "won 1", "won 3"], [0, 2, 0, 2, 0], "march"),
    ("march, partner without a trick still scores", Y_NOTRICK, {},
     Y_BID + ["won 1", "won 1", "won 1", "won 1", "won 1", "reveal 4"], [0, 2, 0, 0, 2], "march"),
    ("alone by choice: march 5", Y_ALONE, {},
     ["up C", "order", "alone", "won 1", "won 1", "won 1", "won 1", "won 1"],
     [0, 5, 0, 0, 0], "lone march"),
    ("alone by choice: made 3", Y_NOPARTNER, {},
     ["up C", "order", "alone", "won 1", "won 0", "won 1", "won 2", "won 1"],
     [0, 1, 0, 0, 0], "made alone"),
    ("called card buried: march 5", Y_ALONE, {},
     Y_BID + ["won 1", "won 1", "won 1", "won 1", "won 1", "reveal none"],
     [0, 5, 0, 0, 0], "march without a partner"),
    ("called card buried: made 3", Y_NOPARTNER, {},
     Y_BID + ["won 1", "won 0", "won 1", "won 2", "won 1", "reveal none"],
     [0, 1, 0, 0, 0], "made"),
    ("called card buried: made 4", Y_NOPARTNER, {},
     Y_BID + ["won 1", "won 1", "won 1", "won 2", "won 1", "reveal none"],
     [0, 1, 0, 0, 0], "made"),
    ("euchred: each defender 2", Y_EUCHRE, {},
     Y_BID + ["reveal 3", "won 0", "won 2", "won 4", "won 1", "won 3"], [2, 0, 2, 0, 2], "euchred"),
    ("euchred: defenders without a trick score too", Y_NOTRICK, {},
     Y_BID + ["reveal 3", "won 0", "won 0", "won 0", "won 1", "won 3"], [2, 0, 2, 0, 2], "euchred"),
    ("euchred without a partner: four defenders", Y_EUCHRE, {},
     Y_BID + ["won 0", "won 0", "won 0", "won 1", "won 1", "reveal none"], [2, 0, 2, 2, 2], "euchred"),
    ("lone caller euchred", Y_EUCHRE, {},
     ["up C", "order", "alone", "claim 4"], [2, 0, 2, 2, 2], "euchred"),
    ("renege by a defender", Y_RENEGE, {},
     Y_BID + ["renege 0"], [-2, 0, 0, 0, 0], "renege by seat 0"),
    ("renege by the partner", Y_RENEGE, {},
     Y_BID + ["reveal 3", "won 3", "renege 3"], [0, 0, 0, -2, 0], "renege by seat 3"),
    ("renege, caller alone", Y_RENEGE, {},
     ["up C", "order", "alone", "renege 4"], [0, 0, 0, 0, -4], "renege by seat 4"),
]


def test_call_your_partner_scoring_table():
    check_table("callpartner", CALLPARTNER_CASES)


# ----- Ultimate -------------------------------------------------------------

U_MADE = _cite(S002, "Call Trump, take 6-10 tricks = 5 points")
U_MARCH = _cite(S002, "Call Trump, take 11 tricks = 7 points")
U_EUCHRE = _cite(S002, "Euchre (set) opposing team = 7 points")
U_RENEGE = _cite(S002, "Player renege = 7 points to opposing team")
U_JOKER = _cite(S002, "If a Joker is revealed, person who calls the card into dealer's hand "
                "determines trump suite.")

ULTIMATE_CASES = [
    ("made 6", U_MADE, {}, ["up H", "order", "tricks 6"], [0, 5, 0, 5], "made"),
    ("made 8", U_MADE, {}, ["up H", "order", "tricks 8"], [0, 5, 0, 5], "made"),
    ("made 10", U_MADE, {}, ["up H", "order", "tricks 10"], [0, 5, 0, 5], "made"),
    ("made 6 by the dealer's side", U_MADE, {},
     ["up H", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "call S", "tricks 6"],
     [5, 0, 5, 0], "made"),
    ("11 tricks", U_MARCH, {}, ["up H", "order", "tricks 11"], [0, 7, 0, 7], "march"),
    ("11 tricks trick by trick", U_MARCH, {},
     ["up H", "order"] + ["won 1", "won 3"] * 5 + ["won 1"], [0, 7, 0, 7], "march"),
    ("joker up, orderer names trump", U_JOKER, {},
     ["up HJ", "pass", "order S", "tricks 11"], [7, 0, 7, 0], "march"),
    ("euchred with 5", U_EUCHRE, {}, ["up H", "order", "tricks 5"], [7, 0, 7, 0], "euchred"),
    ("euchred with 0", U_EUCHRE, {}, ["up H", "order", "tricks 0"], [7, 0, 7, 0], "euchred"),
    ("renege by a defender", U_RENEGE, {}, ["up H", "order", "renege 2"], [0, 7, 0, 7], "renege by seat 2"),
    ("renege by a maker", U_RENEGE, {},
     ["up H", "order", "won 1", "renege 1"], [7, 0, 7, 0], "renege by seat 1"),
]


def test_ultimate_scoring_table():
    check_table("ultimate", ULTIMATE_CASES)


# ----- the variants for three, six and two players ---------------------------
#
# Their sources are web pages and old books (docs/RULES.md lists them), not
# seed files: a case names the page and says, in its own words, what the page
# gives; where the sources are silent it quotes the decision in docs/RULES.md.

P52 = "https://www.52pickup.net/card-games/three-player-euchre/"
BRISBANE = "https://ohioeuchre.com/E_American-card-player-Pt9.php"
GAMERULES3 = "https://gamerules.com/rules/three-hand-euchre-card-game-rules"
WEF = ("https://www.worldeuchrefederation.com/world-euchre-news/"
       "cut-throat-euchre-the-three-handed-battle")
SIX_A = "https://www.reference.com/hobbies-games/play-six-handed-euchre-8af2e52a7e4e997"
SIX_B = "https://www.reference.com/hobbies-games/rules-playing-six-handed-euchre-de41dacf903fafb3"
KELLER = "http://ohioeuchre.com/E_bookeller7.php"
CASSELL = ("https://bitlit.ru/page/en/various/"
           "cassells-book-of-in-door-amusements-card-games-and-fireside-fun/157")


def _says(url, what):
    return "%s says: %s" % (url, what)


def _decided(variant, quote):
    return "docs/RULES.md (%s): '%s'" % (variant, quote)


T_MADE = _says(P52, "the maker, alone against the other two, scores 1 for three or four tricks")
T_MARCH = _says(P52, "the maker who takes all five tricks scores 3")
T_MARCH2 = _says(BRISBANE, "each plays for himself; a dealer who makes a march counts two")
T_EUCHRE = _says(P52, "when the defenders take three or more tricks they score 2 points each")
T_BOTH = _says(BRISBANE, "a euchred player's two adversaries both count two")
T_LONE = _says(WEF, "a player may go alone, and a lone sweep often scores four")
T_LONE_MADE = _decided("Three-Handed", "a declared lone hand scores as in Classic: 1 for three or "
                       "four tricks, 4 for all five, euchred: 2 to each defender")
T_RENEGE = _decided("Three-Handed", "Renege: as Five-Handed: the offender loses 2 (4 if the maker "
                    "declared alone); nobody else scores")

THREE_CASES = [
    # Dealer seat 0: seat 1 bids first, then 2, then the dealer.
    ("made 3", T_MADE, {}, ["up H", "order", "tricks 3"], [0, 1, 0], "made"),
    ("made 4 trick by trick", T_MADE, {},
     ["up H", "order", "won 1", "won 0", "won 1", "won 2", "won 1"], [0, 1, 0], "made"),
    ("made by the dealer in round 2", T_MADE, {},
     ["up S", "pass", "pass", "pass", "pass", "pass", "call H", "tricks 4"], [1, 0, 0], "made"),
    ("march 3", T_MARCH, {}, ["up H", "pass", "order", "tricks 5"], [0, 0, 3], "march"),
    ("march claimed", T_MARCH, {}, ["up H", "order", "won 1", "claim 1"], [0, 3, 0], "march"),
    ("march 2 (option march)", T_MARCH2, {"march": 2},
     ["up H", "order", "tricks 5"], [0, 2, 0], "march"),
    ("euchred 2: each defender 2", T_EUCHRE, {}, ["up H", "order", "tricks 2"], [2, 0, 2], "euchred"),
    ("euchred 0", T_BOTH, {}, ["up H", "order", "tricks 0"], [2, 0, 2], "euchred"),
    ("euchred: a defender without a trick scores too", T_BOTH, {},
     ["up H", "order", "won 0", "won 0", "won 0", "won 1", "won 1"], [2, 0, 2], "euchred"),
    ("dealer euchred", T_BOTH, {},
     ["up H", "pass", "pass", "order", "tricks 1"], [0, 2, 2], "euchred"),
    ("lone march 4 (option alone)", T_LONE, {"alone": True},
     ["up H", "order alone", "tricks 5"], [0, 4, 0], "lone march"),
    ("lone 3 (option alone)", T_LONE_MADE, {"alone": True},
     ["up H", "pass", "order alone", "tricks 3"], [0, 0, 1], "made alone"),
    ("lone euchred (option alone)", T_LONE_MADE, {"alone": True},
     ["up H", "pass", "pass", "pass", "pass", "call S alone", "tricks 2"], [2, 2, 0], "euchred"),
    ("renege by a defender", T_RENEGE, {}, ["up H", "order", "renege 2"], [0, 0, -2], "renege by seat 2"),
    ("renege by the maker", T_RENEGE, {},
     ["up H", "order", "won 1", "renege 1"], [0, -2, 0], "renege by seat 1"),
    ("renege, maker alone", T_RENEGE, {"alone": True},
     ["up H", "order alone", "renege 0"], [-4, 0, 0], "renege by seat 0"),
]


def test_three_handed_scoring_table():
    check_table("three", THREE_CASES)


S_SAME = _says(SIX_A, "the scoring is Classic's: the makers 1 for three or four tricks, 2 for "
               "all five, euchred 2 to the other side")
S_SIDES = _says(SIX_B, "two teams of three; a lone player's two teammates lay their cards down")
S_LONE = _says(SIX_A, "a successful lone hand scores five points, not four")
S_LONE_MADE = _decided("Six-Handed", "a lone maker with three or four tricks scores 1; euchred "
                       "alone, the other side scores 2 (as Classic)")
S_RENEGE = _decided("Six-Handed", "Renege: as Classic: the other side scores 2, or 4 when the "
                    "maker was alone")
S_JOKER = _decided("Six-Handed", "a joker turned up: the dealer names its suit before bidding "
                   "(as Classic's joker, 004)")

# Seats 0 2 4 against 1 3 5; dealer 0, seat 1 bids first.
SIX_CASES = [
    ("made 3", S_SAME, {}, ["up H", "order", "tricks 3"], [0, 1, 0, 1, 0, 1], "made"),
    ("made 4 by the dealer's side", S_SAME, {},
     ["up H", "pass", "order", "tricks 4"], [1, 0, 1, 0, 1, 0], "made"),
    ("made in round 2 by the dealer", S_SAME, {},
     ["up S"] + ["pass"] * 6 + ["pass"] * 5 + ["call H", "tricks 3"], [1, 0, 1, 0, 1, 0], "made"),
    ("march", S_SAME, {}, ["up H", "order", "tricks 5"], [0, 2, 0, 2, 0, 2], "march"),
    ("march trick by trick", S_SAME, {},
     ["up H", "order", "won 1", "won 3", "won 5", "won 1", "won 3"], [0, 2, 0, 2, 0, 2], "march"),
    ("euchred", S_SAME, {}, ["up H", "order", "tricks 2"], [2, 0, 2, 0, 2, 0], "euchred"),
    ("euchred 0", S_SAME, {}, ["up H", "order", "tricks 0"], [2, 0, 2, 0, 2, 0], "euchred"),
    ("lone march 5", S_LONE, {}, ["up H", "order alone", "tricks 5"], [0, 5, 0, 5, 0, 5], "lone march"),
    ("lone march trick by trick: the partners sit out", S_SIDES, {},
     ["up H", "order alone", "won 1", "won 1", "won 1", "won 1", "won 1"], [0, 5, 0, 5, 0, 5],
     "lone march"),
    ("lone 3", S_LONE_MADE, {},
     ["up H", "order alone", "won 1", "won 0", "won 1", "won 2", "won 1"], [0, 1, 0, 1, 0, 1],
     "made alone"),
    ("lone euchred", S_LONE_MADE, {},
     ["up H", "pass", "order alone", "tricks 2"], [0, 2, 0, 2, 0, 2], "euchred"),
    ("renege by a defender", S_RENEGE, {},
     ["up H", "order", "renege 2"], [0, 2, 0, 2, 0, 2], "renege by seat 2"),
    ("renege by a maker", S_RENEGE, {},
     ["up H", "order", "won 1", "renege 5"], [2, 0, 2, 0, 2, 0], "renege by seat 5"),
    ("renege against a lone maker", S_RENEGE, {},
     ["up H", "order alone", "renege 4"], [0, 4, 0, 4, 0, 4], "renege by seat 4"),
    ("joker up: the dealer names the suit (option jokers)", S_JOKER, {"jokers": True},
     ["up HJ", "name D", "order", "tricks 3"], [0, 1, 0, 1, 0, 1], "made"),
]


def test_six_handed_scoring_table():
    check_table("six", SIX_CASES)


W_MADE = _says(KELLER, "three or four tricks count one, as in the four-handed game")
W_MARCH = _says(KELLER, "a player who takes all the tricks scores but two points")
W_EUCHRE = _says(KELLER, "a euchre counts two")
W_ADOPT = _says(KELLER, "if the non-dealer passes, the dealer may adopt the trump")
W_MAKE = _says(KELLER, "then the non-dealer, then the dealer, may make the trump or pass")
W_CASSELL = _says(CASSELL, "a player who orders the card up and fails to get three tricks is "
                  "euchred: the adversary scores two")
W_RENEGE = _decided("Two-Handed", "Renege: as Classic: the other player scores 2")

# Dealer seat 0; the non-dealer, seat 1, bids first and leads.
TWO_CASES = [
    ("non-dealer orders up, makes 3", W_MADE, {}, ["up H", "order", "tricks 3"], [0, 1], "made"),
    ("non-dealer makes 4 trick by trick", W_MADE, {},
     ["up H", "order", "won 1", "won 1", "won 0", "won 1", "won 1"], [0, 1], "made"),
    ("non-dealer marches", W_MARCH, {}, ["up H", "order", "tricks 5"], [0, 2], "march"),
    ("dealer adopts and makes 3", W_ADOPT, {}, ["up H", "pass", "order", "tricks 3"], [1, 0], "made"),
    ("dealer adopts, euchred trick by trick", W_EUCHRE, {},
     ["up H", "pass", "order", "won 1", "won 0", "won 1", "won 1", "won 0"], [0, 2], "euchred"),
    ("non-dealer makes in round 2", W_MAKE, {},
     ["up H", "pass", "pass", "call S", "tricks 3"], [0, 1], "made"),
    ("dealer makes in round 2", W_MAKE, {},
     ["up H", "pass", "pass", "pass", "call C", "tricks 5"], [2, 0], "march"),
    ("non-dealer euchred", W_CASSELL, {}, ["up H", "order", "tricks 2"], [2, 0], "euchred"),
    ("dealer euchred", W_EUCHRE, {}, ["up H", "pass", "order", "tricks 0"], [0, 2], "euchred"),
    ("renege by the non-dealer", W_RENEGE, {}, ["up H", "order", "renege 1"], [2, 0], "renege by seat 1"),
    ("renege by the dealer", W_RENEGE, {},
     ["up H", "order", "won 1", "renege 0"], [0, 2], "renege by seat 0"),
]


def test_two_handed_scoring_table():
    check_table("two", TWO_CASES)


def test_every_table_case_names_a_source():
    tables = (CLASSIC_CASES, FIVE_CASES, CALLPARTNER_CASES, ULTIMATE_CASES, THREE_CASES,
              SIX_CASES, TWO_CASES)
    ids = []
    for t in tables:
        for c in t:
            assert len(c) == 6, c[0]
            assert (".txt: '" in c[1] or c[1].startswith("RULES.md")
                    or c[1].startswith("docs/RULES.md (")
                    or (c[1].startswith("http") and " says: " in c[1])), c[0]
            ids.append(c[0])
    for t in tables:
        names = [c[0] for c in t]
        for n in names:
            assert names.count(n) == 1, "duplicate case id %r" % n


# ----- card mode: stacked decks, one rule each ------------------------------

def stacked(rules, hands, kitty):
    """A deal for ``Hand.deal``: the given cards per seat (strings, maybe
    partial) and the kitty (upcard first), topped up with the rest of the
    deck in deck order."""
    given = parse_cards(" ".join(hands + [kitty]))
    rest = [c for c in rules.deck if c not in given]
    out = []
    parts = hands + [kitty]
    for i in range(len(parts)):
        cs = parse_cards(parts[i])
        size = rules.kitty if i == len(hands) else rules.hand_size
        need = size - len(cs)
        assert need >= 0, parts[i]
        out += cs + rest[:need]
        rest = rest[need:]
    assert not rest
    return out


def card_hand(variant, hands, kitty, bids, opts=None, dealer=0):
    """A card-mode hand dealt from a stacked deck, then the bidding actions
    (pre-bidding declarations, if offered, are passed)."""
    r = Rules(variant, **(opts or {}))
    h = Hand(r, dealer, cards=True)
    h.deal(stacked(r, hands, kitty))
    for a in bids:
        h.apply_action(a)
    return h


def snapshot(h):
    return (h.events, h.current_player(), h.legal_actions(), list(h.trick),
            [list(x) for x in h.hands], bytes(h.tricks))


def test_card_left_bower_follows_trump():
    # 003: "The second highest card is the jack of the same color as trump
    # "the left bower"": it is a trump, so a player without other hearts
    # must play it to a heart lead, and may not play it to a diamond lead.
    h = card_hand("classic",
                  ["9C TC QC KC AC", "AH 9S TS QS KS", "JD 9D TD QD KD", "9H TH QH KH AS"],
                  "JH JC JS AD", ["order", "discard 9C"])
    assert h.trump == 2
    assert h.current_player() == 1
    h.apply_action("AH")
    assert h.current_player() == 2
    assert h.legal_actions() == ["JD"], h.legal_actions()
    h.apply_action("JD")
    h.apply_action("9H")
    h.apply_action("JH")
    assert list(h.tricks) == [1, 0, 0, 0]  # JH (right bower) beat JD and AH
    # A diamond led: JD is no diamond now, so seat 2 must play its 9D.
    h2 = card_hand("classic",
                   ["9C TC QC KC AC", "AD 9S TS QS KS", "JD 9D 9H TH QH", "TD QD KD KH AS"],
                   "AH JH JC JS", ["order", "discard 9C"])
    h2.apply_action("AD")
    assert h2.legal_actions() == ["9D"], h2.legal_actions()
    try:
        h2.apply_action("JD")
        assert False, "JD accepted as a diamond"
    except IllegalAction as e:
        assert "seat 2 must follow diamonds" in str(e), str(e)


def test_card_left_bower_led_calls_for_trump():
    # Hearts trump, the left bower JD led: a diamond is not a follow.
    h = card_hand("classic",
                  ["9C TC QC KC AC", "JD 9S TS QS KS", "AH 9D TD QD KD", "9H TH QH KH AS"],
                  "JH JC JS AD", ["order", "discard 9C"])
    h.apply_action("JD")
    assert h.legal_actions() == ["AH"], h.legal_actions()


def test_card_highest_trump_wins():
    # 002: "The trick is won by the player who played the highest trump card
    # for the trick." Spade led, three trumps on it: 9H < AH < JD (left).
    h = card_hand("classic",
                  ["JD AC KC JC AD", "9S TS QS KS AS", "9H TH 9C TC QC", "AH 9D TD QD KD"],
                  "KH JS JH QH", ["order", "discard AC"])
    assert h.current_player() == 1
    for c in ("9S", "9H", "AH", "JD"):
        h.apply_action(c)
    assert list(h.tricks) == [1, 0, 0, 0]
    assert h.current_player() == 0  # 002: the trick winner leads next
    # No trump played: the highest card of the suit led wins (KC over QC).
    for c in ("KC", "TS", "QC", "9D"):
        h.apply_action(c)
    assert list(h.tricks) == [2, 0, 0, 0]
    h.apply_action("JC")
    h.apply_action("QS")
    h.apply_action("TC")
    h.apply_action("KD")
    assert list(h.tricks) == [3, 0, 0, 0]


def test_card_must_follow_suit():
    # 002: "Each player in turn, moving clockwise around the table, must play
    # a card of the same suit if they have one in their remaining cards."
    h = card_hand("classic",
                  ["9C TC QC KC AC", "AD 9S TS QS KS", "9D 9H TH QH KH", "TD QD KD AH AS"],
                  "JH JC JS JD", ["pass", "pass", "pass", "pass", "call C"])
    # Seat 1 named clubs in round 2 and leads.
    assert h.trump == 0 and h.maker == 1 and h.current_player() == 1
    h.apply_action("AD")
    assert h.legal_actions() == ["9D"], h.legal_actions()
    h.apply_action("9D")
    assert h.legal_actions() == ["TD", "QD", "KD"], h.legal_actions()
    h.apply_action("KD")
    # Seat 0 has no diamond: any card, and its trump wins.
    assert h.legal_actions() == ["9C", "TC", "QC", "KC", "AC"], h.legal_actions()
    h.apply_action("9C")
    assert list(h.tricks) == [1, 0, 0, 0]
    assert h.current_player() == 0


def test_card_not_following_is_refused():
    h = card_hand("classic",
                  ["9C TC QC KC AC", "AH 9S TS QS KS", "JD 9D TD QD KD", "9H TH QH KH AS"],
                  "JH JC JS AD", ["order", "discard 9C"])
    h.apply_action("AH")      # heart led: seat 2 must play JD (left bower)
    before = snapshot(h)
    for bad in ("9D", "KD"):
        try:
            h.apply_action(bad)
            assert False, "%s accepted" % bad
        except IllegalAction as e:
            assert "seat 2 must follow hearts" in str(e), str(e)
        assert snapshot(h) == before
    try:
        h.apply_action("QH")  # not held by seat 2
        assert False, "QH accepted"
    except IllegalAction as e:
        assert "seat 2 does not hold QH" in str(e), str(e)
    assert snapshot(h) == before
    h.apply_action("JD")
    assert h.current_player() == 3


def test_card_five_handed_permanent_trump_led():
    # 000: "The 2S and 2H (also known as the big and the little two) or high
    # and low joker are permanently part of the trump suit." Hearts trump,
    # 2S led: a player with spades and a heart must play the heart.
    h = card_hand("five",
                  ["AC KC QC JC TC", "2S AS KD QD 9C", "9S TS QS KS 9H",
                   "AD TD 9D 8D 8S", "JD JH AH 2H JS"],
                  "TH 8H QH KH", ["order", "partner AH", "discard TC"])
    assert h.trump == 2
    assert h.current_player() == 1
    h.apply_action("2S")
    assert h.legal_actions() == ["9H"], h.legal_actions()
    try:
        h.apply_action("KS")
        assert False, "KS accepted on a trump lead"
    except IllegalAction as e:
        assert "seat 2 must follow hearts" in str(e), str(e)
    h.apply_action("9H")
    # Seat 3 holds no trump: 8S (a spade) is no follow, any card goes.
    assert sorted(h.legal_actions()) == sorted(["AD", "TD", "9D", "8D", "8S"])
    h.apply_action("8S")
    # Seat 4 holds JD (left), JH, AH, 2H: trumps only (JS is not a heart).
    assert sorted(h.legal_actions()) == sorted(["JD", "JH", "AH", "2H"]), h.legal_actions()
    h.apply_action("2H")
    assert h.legal_actions() == ["TH"]   # the dealer's picked-up upcard
    h.apply_action("TH")
    assert list(h.tricks) == [0, 1, 0, 0, 0]  # 2S beat 2H


def test_card_five_handed_bidder_holding_the_partner_card():
    # 000: the bidder holding the called card has no partner: a march is 2.
    # RULES.md: "or the bidder holds it, the bidder has no partner".
    h = card_hand("five",
                  ["AD TD 9D 8D 8S", "2S 2H JC JS AC", "9S TS QS KS 9H",
                   "AH KH QH JH TH", "KC QC TC JD 8H"],
                  "9C AS KD QD", ["order", "partner AC", "discard 8S"])
    # Seat 1 leads 2S, 2H, JC, JS, AC: each the top trump left.
    while not h.is_terminal():
        legal = h.legal_actions()
        h.apply_action("pass" if "pass" in legal else legal[0])
    assert list(h.tricks) == [0, 5, 0, 0, 0]
    assert h.returns() == [0, 2, 0, 0, 0], h.returns()
    assert h.outcome == "unpartnered_march"


def test_card_five_handed_partner_card_in_kitty():
    # 000: "if the card is not played (due to being in the kitty or having
    # been discarded by the dealer) there is no partner."
    h = card_hand("five",
                  ["AD TD 9D 8D 8S", "2S 2H JC JS AC", "9S TS QS KS 9H",
                   "AH KH QH JH TH", "KC TC JD 8H AS"],
                  "9C QC KD QD", ["order", "partner QC", "discard 8S"])
    while not h.is_terminal():
        legal = h.legal_actions()
        h.apply_action("pass" if "pass" in legal else legal[0])
    assert list(h.tricks) == [0, 5, 0, 0, 0]
    assert h.returns() == [0, 2, 0, 0, 0], h.returns()


def test_card_callpartner_maker_holding_the_called_card():
    # RULES.md (Call-Your-Partner): "A maker with no partner (alone by
    # choice, the called card was buried, or the maker held it) scores 5 for
    # all five tricks". 001: "If they are ordering the dealer to pick up the
    # trump card, they will reveal their called card after the dealer has
    # discarded".
    h = card_hand("callpartner",
                  ["8H 9H TH 8D 9D", "JC JS AC KC AH", "8C JH QH KH TD",
                   "JD QD KD AD 8S", "9S TS QS KS AS"],
                  "QC TC 9C", ["order"])
    assert h.current_player() == 0          # the dealer discards first
    assert "discard QC" in h.legal_actions()
    h.apply_action("discard 8D")
    assert h.current_player() == 1 and "alone" in h.legal_actions()
    assert "partner AH" in h.legal_actions() and "partner QC" not in h.legal_actions()
    h.apply_action("partner AH")
    order = ["JC", "JS", "AC", "KC", "AH"]
    while not h.is_terminal():
        if h.current_player() == 1:
            h.apply_action(order.pop(0))
        else:
            h.apply_action(h.legal_actions()[0])
    assert list(h.tricks) == [0, 5, 0, 0, 0]
    assert h.returns() == [0, 5, 0, 0, 0], h.returns()
    assert h.outcome == "unpartnered_march"


def test_card_ultimate_joker_beats_right_bower():
    # 002: "Marked Joker is "High Right Bower"" / "Unmarked Joker is "High
    # Left Bower"" / "Jack of Trump Suite is "Low Right Bower"".
    h = card_hand("ultimate",
                  ["AC KC QC JC TC 9C 8C 7C 6C 5C 4C",
                   "JH AS KS QS JS TS 9S 8S 7S 6S 5S",
                   "HJ AD KD QD JD TD 9D 8D 7D 6D 5D",
                   "LJ AH KH QH TH 9H 8H 7H 6H 5H 4H"],
                  "2H", ["order", "discard 4C"])
    assert h.trump == 2 and h.current_player() == 1
    h.apply_action("JH")
    assert sorted(h.legal_actions()) == ["HJ", "JD"], h.legal_actions()
    h.apply_action("HJ")
    h.apply_action("LJ")
    h.apply_action("2H")
    assert list(h.tricks) == [0, 0, 1, 0]
    # Seat 2 leads the left bower: trump, so seat 3 must follow with a heart.
    h.apply_action("JD")
    h.apply_action("4H")
    h.apply_action("AC")   # seat 0: no hearts left (2H played)
    assert h.current_player() == 1
    h.apply_action("AS")   # seat 1: no hearts
    assert list(h.tricks) == [0, 0, 2, 0]  # JD (left bower) over 4H


def test_card_ultimate_low_joker_beats_bowers():
    h = card_hand("ultimate",
                  ["AC KC QC JC TC 9C 8C 7C 6C 5C 4C",
                   "JH AS KS QS JS TS 9S 8S 7S 6S 5S",
                   "LJ AD KD QD JD TD 9D 8D 7D 6D 5D",
                   "HJ AH KH QH TH 9H 8H 7H 6H 5H 4H"],
                  "2H", ["order", "discard 4C"])
    h.apply_action("JH")
    h.apply_action("LJ")
    h.apply_action("4H")
    h.apply_action("2H")
    assert list(h.tricks) == [0, 0, 1, 0]
    h.apply_action("JD")
    h.apply_action("HJ")
    h.apply_action("AC")
    h.apply_action("AS")
    assert list(h.tricks) == [0, 0, 1, 1]


def test_card_classic_full_hand_scores():
    # A whole card-mode hand: seat 1 orders hearts with the top three trumps
    # and goes alone; it takes all five tricks: 4 points (003, 002).
    h = card_hand("classic",
                  ["9C TC QC KC AC", "JH JD AH KH AS", "9D TD QD KD AD", "9S TS QS KS JS"],
                  "9H JC TH QH", ["order alone", "discard 9C"])
    assert h.current_player() == 1
    order = ["JH", "JD", "AH", "KH", "AS"]
    while not h.is_terminal():
        if h.current_player() == 1:
            h.apply_action(order.pop(0))
        else:
            h.apply_action(h.legal_actions()[0])
    assert list(h.tricks) == [0, 5, 0, 0]
    assert h.returns() == [0, 4, 0, 4]
    assert h.outcome == "lone_march"


def _play_out(h, seat, order):
    """Play the hand out: ``seat`` plays ``order``, the others their first legal card."""
    order = list(order)
    while not h.is_terminal():
        if h.current_player() == seat:
            h.apply_action(order.pop(0))
        else:
            h.apply_action(h.legal_actions()[0])


def test_card_three_handed_maker_against_two():
    # 52pickup: the maker plays against the other two; 24 cards, kitty 9
    # (rarepike); left of the dealer leads. Seat 1 orders hearts with the
    # top five trumps and takes every trick: a march, 3 points.
    h = card_hand("three", ["9C TC QC KC AC", "JH JD AH KH QH", "9S TS QS KS AS"],
                  "9H TH", ["order", "discard 9C"])
    assert len(h.kitty) == 9 and h.maker == 1 and h.trump == 2
    assert h.current_player() == 1 and h.active_seats() == [0, 1, 2]
    h.apply_action("JH")
    assert len(h.trick) == 1 and h.current_player() == 2
    _play_out(h, 1, ["JD", "AH", "KH", "QH"])
    assert list(h.tricks) == [0, 5, 0] and len(h.played) == 15
    assert h.returns() == [0, 3, 0] and h.outcome == "march"


def test_card_three_handed_defenders_share_the_euchre():
    # 52pickup / Brisbane: a euchred maker's two opponents score 2 each.
    # Seat 2 calls clubs in round 2 holding no club at all.
    h = card_hand("three", ["JC JS AC KC QC", "TC 9C AD KD QD", "9H TH 9D TD AS"],
                  "9S KS", ["pass", "pass", "pass", "pass", "call C"])
    assert h.maker == 2 and h.current_player() == 1
    while not h.is_terminal():
        h.apply_action(h.legal_actions()[0])
    assert h.tricks[2] < 3
    assert h.returns() == [2, 2, 0], h.returns()


def test_card_six_handed_lone_maker_partners_sit_out():
    # reference.com: two teams of three; a lone player's two teammates lay
    # their cards down; a lone march scores 5 (for each of the side).
    h = card_hand("six", ["7C 8C 9C TC QC", "JH JD AH KH QH", "7S 8S 9S TS QS",
                          "7D 8D 9D TD QD", "KC AC KS AS JC", "KD AD JS 7H 8H"],
                  "9H TH", ["order alone", "discard 7C"])
    assert list(h.out) == [0, 0, 0, 1, 0, 1]
    assert h.active_seats() == [0, 1, 2, 4]
    assert h.current_player() == 1
    _play_out(h, 1, ["JH", "JD", "AH", "KH", "QH"])
    assert len(h.played) == 20, "four cards a trick"
    assert h.returns() == [0, 5, 0, 5, 0, 5] and h.outcome == "lone_march"


def test_card_six_handed_jokers_top_the_right_bower():
    # reference.com: the jokers as the highest and second-highest trumps.
    h = card_hand("six", ["7C 8C 9C TC QC", "JH AH KH QH 9H", "HJ 8S 9S TS QS",
                          "LJ 8D 9D TD QD", "KC AC KS AS JC", "KD AD JS 7H 8H"],
                  "TH JD 7S 7D", ["order", "discard 7C"], {"jokers": True})
    assert h.current_player() == 1
    for c in ("JH", "HJ", "LJ"):
        h.apply_action(c)
    h.apply_action(h.legal_actions()[0])
    h.apply_action(h.legal_actions()[0])
    h.apply_action(h.legal_actions()[0])
    assert list(h.tricks) == [0, 0, 1, 0, 0, 0]


def test_card_two_handed_non_dealer_leads():
    # Keller: the non-dealer orders up or passes, the dealer may adopt the
    # trump; whoever made it, the non-dealer leads; two cards a trick; 32
    # cards, 22 left in the pack.
    h = card_hand("two", ["JC JS AC KC QC", "9H TH 9D TD AS"], "TC 7C",
                  ["pass", "order"])
    assert h.maker == 0 and h.trump == 0
    assert h.current_player() == 0 and h.legal_actions()[0].startswith("discard")
    h.apply_action("discard QC")
    assert len(h.kitty) == 22
    assert h.current_player() == 1, "the non-dealer leads"
    h.apply_action("AS")
    assert h.current_player() == 0
    h.apply_action("JC")
    assert list(h.tricks) == [1, 0]
    _play_out(h, 0, ["JS", "AC", "KC", "TC"])
    assert h.returns() == [2, 0] and h.outcome == "march"
