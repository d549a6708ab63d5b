# portable: runs under MicroPython
"""Scoring tables of RULES.md, one table per variant, plus card-mode tricks.

The tables are data files a reader can scan: tests/engine/cases/*.cases
(the format is in each file's head; tests/engine/rulecases.py reads them).
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

from rulecases import load_cases


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


CLASSIC_CASES = load_cases("classic")


def test_classic_scoring_table():
    check_table("classic", CLASSIC_CASES)


# ----- Five-Handed ----------------------------------------------------------


FIVE_CASES = load_cases("five")


def test_five_handed_scoring_table():
    check_table("five", FIVE_CASES)


FIVE_TOTAL_CASES = load_cases("five_totals")


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


CALLPARTNER_CASES = load_cases("callpartner")


def test_call_your_partner_scoring_table():
    check_table("callpartner", CALLPARTNER_CASES)


# ----- Ultimate -------------------------------------------------------------


ULTIMATE_CASES = load_cases("ultimate")


def test_ultimate_scoring_table():
    check_table("ultimate", ULTIMATE_CASES)


# ----- the variants for three, six and two players ---------------------------
#
# Their sources are web pages and old books (docs/RULES.md lists them), not
# seed files: a case names the page and says, in its own words, what the page
# gives; where the sources are silent it quotes the decision in docs/RULES.md.


def _says(url, what):
    return "%s says: %s" % (url, what)


def _decided(variant, quote):
    return "docs/RULES.md (%s): '%s'" % (variant, quote)


THREE_CASES = load_cases("three")


def test_three_handed_scoring_table():
    check_table("three", THREE_CASES)


# Seats 0 2 4 against 1 3 5; dealer 0, seat 1 bids first.
SIX_CASES = load_cases("six")


def test_six_handed_scoring_table():
    check_table("six", SIX_CASES)


# Dealer seat 0; the non-dealer, seat 1, bids first and leads.
TWO_CASES = load_cases("two")


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
    return (h.events, h.current_player(), h.legal_actions(), list(h.play.trick),
            [list(x) for x in h.play.hands], bytes(h.tricks))


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
    assert len(h.play.kitty) == 9 and h.maker == 1 and h.trump == 2
    assert h.current_player() == 1 and h.active_seats() == [0, 1, 2]
    h.apply_action("JH")
    assert len(h.play.trick) == 1 and h.current_player() == 2
    _play_out(h, 1, ["JD", "AH", "KH", "QH"])
    assert list(h.tricks) == [0, 5, 0] and len(h.play.played) == 15
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
    assert len(h.play.played) == 20, "four cards a trick"
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
    assert len(h.play.kitty) == 22
    assert h.current_player() == 1, "the non-dealer leads"
    h.apply_action("AS")
    assert h.current_player() == 0
    h.apply_action("JC")
    assert list(h.tricks) == [1, 0]
    _play_out(h, 0, ["JS", "AC", "KC", "TC"])
    assert h.returns() == [2, 0] and h.outcome == "march"
