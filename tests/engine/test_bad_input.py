# portable: runs under MicroPython
"""Every illegal input is refused with IllegalAction (a ValueError) whose
message names the rule, and the game is left exactly as it was.

Cases are ``(id, variant, options, events before, bad event, words)``:
the events are applied to a fresh table-mode game (dealer 0), then the bad
event must raise with ``words`` in the message and change nothing.
Seeds: ../shared/seeds/ (000 Five-Handed, 001 Call-Your-Partner, 002
Ultimate + common rules, 003 and 004 Classic).
"""

from euchre import Game, Hand, Rules, IllegalAction, card_names, parse_cards


def state(g):
    return (g.events(), list(g.scores), g.legal_actions(), g.current_player(),
            g.dealer, g.result, g.hand_no)


def refusal(g, event):
    """The message ``g.apply(event)`` raises (None if it was accepted), and
    whether the state stayed the same."""
    before = state(g)
    try:
        g.apply(event)
    except IllegalAction as e:
        if not isinstance(e, ValueError):
            return "not a ValueError: %r" % e, False
        return str(e), state(g) == before
    return None, False


def run_cases(cases):
    bad = []
    for case in cases:
        cid, variant, opts, events, event, words = case
        g = Game(Rules(variant, **opts), dealer=0)
        for e in events:
            g.apply(e)
        legal = g.legal_actions()
        if event in legal:
            bad.append("%s: %r is offered as legal" % (cid, event))
            continue
        msg, same = refusal(g, event)
        if msg is None:
            bad.append("%s: %r was accepted" % (cid, event))
        elif words.lower() not in msg.lower():
            bad.append("%s: %r refused with %r, want it to name %r" % (cid, event, msg, words))
        elif not same:
            bad.append("%s: %r changed the state" % (cid, event))
    return bad


def check(cases):
    bad = run_cases(cases)
    assert not bad, "\n".join(bad)


R1 = ["pass"] * 4      # Classic / Ultimate: round 1 passes (dealer 0)
R1_5 = ["pass"] * 5    # Five-Handed / Call-Your-Partner


def test_turned_down_suit_in_round_2():
    # 004: "You can't bid the suit of the original upturned card during the
    # second bidding stage." 002: "The suite that was just turned down is
    # not able to be called at this time."
    check([
        ("classic", "classic", {}, ["up H"] + R1, "call H", "turned down"),
        ("classic alone", "classic", {}, ["up H"] + R1, "call H alone", "turned down"),
        ("classic, later seat", "classic", {}, ["up S"] + R1 + ["pass", "pass"], "call S", "turned down"),
        ("classic, stuck dealer", "classic", {"std": True}, ["up D"] + R1 + ["pass"] * 3,
         "call D", "turned down"),
        ("classic joker named", "classic", {"joker": True}, ["up HJ", "name C"] + R1, "call C",
         "turned down"),
        ("five", "five", {}, ["up C"] + R1_5, "call C", "turned down"),
        ("five two named", "five", {}, ["up 2S", "name D"] + R1_5, "call D", "turned down"),
        ("callpartner", "callpartner", {}, ["up D"] + R1_5, "call D", "turned down"),
        ("ultimate", "ultimate", {}, ["up S"] + R1, "call S", "turned down"),
    ])


def test_ultimate_joker_up_excludes_no_suit():
    # RULES.md: "If round 1 passes, no suit is excluded in round 2."
    g = Game(Rules("ultimate"))
    for e in ["up LJ"] + R1:
        g.apply(e)
    for s in "CDHS":
        assert "call " + s in g.legal_actions()


def test_stuck_dealer_may_not_pass():
    # 004: "the dealer must call trump at his second turn if no one else has
    # taken on the responsibility." 000, 002: the dealer must call.
    check([
        ("classic std", "classic", {"std": True}, ["up H"] + ["pass"] * 7, "pass", "stick the dealer"),
        ("five", "five", {}, ["up H"] + ["pass"] * 9, "pass", "stick the dealer"),
        ("five, two up", "five", {}, ["up 2H", "name C"] + ["pass"] * 9, "pass", "stick the dealer"),
        ("callpartner std", "callpartner", {"std": True}, ["up H"] + ["pass"] * 9, "pass",
         "stick the dealer"),
        ("ultimate", "ultimate", {}, ["up H"] + ["pass"] * 7, "pass", "stick the dealer"),
        ("ultimate joker up", "ultimate", {}, ["up HJ"] + ["pass"] * 7, "pass", "stick the dealer"),
    ])


def test_canadian_non_alone_order():
    # 004: "If the partner of the dealer accepts the trump suit, she must
    # accept on her own".
    check([
        ("dealer 0", "classic", {"canadian": True}, ["up H", "pass"], "order", "Canadian loner"),
        ("with partner's best", "classic", {"canadian": True, "partners_best": True},
         ["up C", "pass"], "order", "Canadian loner"),
    ])
    g = Game(Rules("classic", canadian=True), dealer=3)
    g.apply("up H")
    assert g.current_player() == 0
    g.apply("pass")
    assert g.current_player() == 1
    msg, same = refusal(g, "order")
    assert msg is not None and "Canadian loner" in msg and same, msg


def test_alone_in_ultimate():
    # RULES.md (Ultimate): "No going alone."
    check([
        ("order alone", "ultimate", {}, ["up H"], "order alone", "going alone is not allowed"),
        ("call alone", "ultimate", {}, ["up H"] + R1, "call S alone", "going alone is not allowed"),
        ("joker order alone", "ultimate", {}, ["up HJ"], "order S alone", "going alone is not allowed"),
    ])


def test_alone_is_a_separate_step_in_calling_variants():
    check([
        ("five order alone", "five", {}, ["up H"], "order alone", "action alone"),
        ("callpartner call alone", "callpartner", {}, ["up H"] + R1_5, "call S alone", "action alone"),
    ])


def test_partner_card_rules():
    # 000: "The card named may not be a permanent trump card (2 or joker)."
    # 001: "The call their partner by naming a non-trump card."
    check([
        ("five 2S", "five", {}, ["up H", "order"], "partner 2S", "permanent trump"),
        ("five 2H", "five", {}, ["up C", "order"], "partner 2H", "permanent trump"),
        ("five HJ", "five", {"jokers": True}, ["up S", "order"], "partner HJ", "permanent trump"),
        ("five LJ", "five", {"jokers": True}, ["up S", "order"], "partner LJ", "permanent trump"),
        ("five card not in deck", "five", {}, ["up S", "order"], "partner 7S", "not in this deck"),
        ("five 8C without four_eights", "five", {}, ["up S", "order"], "partner 8C", "not in this deck"),
        ("callpartner trump", "callpartner", {}, ["up C", "order"], "partner AC", "must not be a trump"),
        ("callpartner right bower", "callpartner", {}, ["up C", "order"], "partner JC", "must not be a trump"),
        ("callpartner left bower", "callpartner", {}, ["up C", "order"], "partner JS", "must not be a trump"),
        ("callpartner round 2", "callpartner", {}, ["up C"] + R1_5 + ["call H"], "partner JD",
         "must not be a trump"),
        ("callpartner not in deck", "callpartner", {}, ["up C", "order"], "partner 7H", "not in this deck"),
    ])
    # Five-Handed allows a trump that is not permanent (000, strategy 4).
    g = Game(Rules("five"))
    for e in ("up C", "order"):
        g.apply(e)
    assert "partner JC" in g.legal_actions() and "partner 8S" in g.legal_actions()


def test_partner_reveal_rules():
    check([
        ("reveal the maker", "five", {}, ["up C", "order", "partner AH"], "reveal 1", "reveal none"),
        ("reveal the maker at the end", "callpartner", {},
         ["up C", "order", "partner AH"] + ["won 1"] * 5, "reveal 1", "reveal none"),
    ])


def test_seat_sitting_out():
    # 004: "your partner puts his cards face-down, for this hand alone".
    alone = ["up H", "order alone"]          # seat 1 alone: seat 3 sits out
    check([
        ("won", "classic", {}, alone, "won 3", "sits out"),
        ("won later", "classic", {}, alone + ["won 1", "won 0"], "won 3", "sits out"),
        ("claim", "classic", {}, alone, "claim 3", "sits out"),
        ("renege", "classic", {}, alone, "renege 3", "sits out"),
        ("lone defender's partner", "classic", {"defend_alone": True},
         ["up H", "order", "defend 2"], "won 0", "sits out"),
        ("both alone", "classic", {"defend_alone": True},
         ["up H", "order alone", "defend 0"], "won 2", "sits out"),
    ])


def test_seat_out_of_range():
    check([
        ("classic won 4", "classic", {}, ["up H", "order"], "won 4", "no seat 4"),
        ("classic renege 7", "classic", {}, ["up H", "order"], "renege 7", "no seat 7"),
        ("classic claim 12", "classic", {}, ["up H", "order"], "claim 12", "no seat 12"),
        ("classic defend 5", "classic", {"defend_alone": True}, ["up H", "order"], "defend 5", "no seat 5"),
        ("classic farmers 4", "classic", {"farmers": True}, ["up H"], "farmers 4", "no seat 4"),
        ("classic acenoface 9", "classic", {"ace_no_face": True}, ["up H"], "acenoface 9", "no seat 9"),
        ("five won 5", "five", {}, ["up H", "order", "alone"], "won 5", "no seat 5"),
        ("five reveal 6", "five", {}, ["up H", "order", "partner AS"], "reveal 6", "no seat 6"),
        ("five throwin 5", "five", {}, ["up H", "order", "alone"], "throwin 5", "no seat 5"),
        ("callpartner renege 5", "callpartner", {}, ["up H", "order", "alone"], "renege 5", "no seat 5"),
        ("ultimate twos 4", "ultimate", {}, ["up H"], "twos 4", "no seat 4"),
    ])


def test_malformed_text():
    check([
        ("fly away", "classic", {}, [], "fly away", "unknown action"),
        ("empty", "classic", {}, [], "", "action"),
        ("blank", "classic", {}, [], "   ", "action"),
        ("up X", "classic", {}, [], "up X", "malformed"),
        ("up", "classic", {}, [], "up", "malformed"),
        ("up H H", "classic", {}, [], "up H H", "malformed"),
        ("up 9H", "classic", {}, [], "up 9H", "9H"),
        # (2C-5C are never up; their ids would read as the suits': up C-S)
        ("up 2C", "classic", {}, [], "up 2C", "malformed"),
        ("up 3C", "five", {}, [], "up 3C", "malformed"),
        ("up 5C", "ultimate", {}, [], "up 5C", "malformed"),
        ("tricks -1", "classic", {}, ["up H", "order"], "tricks -1", "malformed"),
        ("tricks x", "classic", {}, ["up H", "order"], "tricks x", "malformed"),
        ("tricks 6", "classic", {}, ["up H", "order"], "tricks 6", "0 to 5"),
        ("tricks 12", "ultimate", {}, ["up H", "order"], "tricks 12", "0 to 11"),
        ("won two", "classic", {}, ["up H", "order"], "won two", "malformed"),
        ("won", "classic", {}, ["up H", "order"], "won", "malformed"),
        ("won -1", "classic", {}, ["up H", "order"], "won -1", "malformed"),
        ("pass now", "classic", {}, ["up H"], "pass now", "malformed"),
        ("order sideways", "classic", {}, ["up H"], "order sideways", "malformed"),
        ("order alone twice", "classic", {}, ["up H"], "order alone alone", "malformed"),
        ("call", "classic", {}, ["up H"] + R1, "call", "malformed"),
        ("call X", "classic", {}, ["up H"] + R1, "call X", "malformed"),
        ("partner ZZ", "five", {}, ["up H", "order"], "partner ZZ", "malformed"),
        ("partner", "five", {}, ["up H", "order"], "partner", "malformed"),
        ("name", "five", {}, ["up 2S"], "name", "malformed"),
        ("name 9C", "five", {}, ["up 2S"], "name 9C", "malformed"),
        ("card 9Z", "classic", {}, ["up H"], "9Z", "not a card"),
        ("deal in table mode", "classic", {}, [], "deal 9C TC", "no deal now"),
    ])


def test_wrong_phase_and_variant():
    check([
        ("order takes no suit", "classic", {}, ["up H"], "order S", "order takes no suit"),
        ("joker up: order names a suit", "ultimate", {}, ["up HJ"], "order", "names trump"),
        ("tricks 6 in five", "five", {}, ["up H", "order", "alone"], "tricks 6", "0 to 5"),
        ("notrick before tricks", "five", {}, ["up H", "order", "partner AS"], "notrick none",
         "after tricks N"),
        ("notrick: a scorer must have a trick", "five", {},
         ["up H", "order", "partner AS", "tricks 3", "reveal 2"], "notrick 0 2", "took no trick"),
        ("notrick: not a scorer", "five", {},
         ["up H", "order", "partner AS", "tricks 3", "reveal 2"], "notrick 3", "scoring seats"),
        ("notrick: more blanks than tricks allow", "five", {},
         ["up H", "order", "partner AS", "tricks 0", "reveal 2"], "notrick 0 3 4", "took no trick"),
        ("tricks after won", "classic", {}, ["up H", "order", "won 1"], "tricks 3", "before any trick"),
        ("throwin in classic", "classic", {}, ["up H", "order"], "throwin 1", "throw-ins"),
        ("throwin in ultimate", "ultimate", {}, ["up H", "order"], "throwin 1", "throw-ins"),
        ("farmers off", "classic", {}, ["up H"], "farmers 1", "farmers"),
        ("second farmer", "classic", {"farmers": True}, ["up H", "farmers 1"], "farmers 2",
         "only one farmer"),
        ("partner's best off", "classic", {}, ["up H"], "order alone best", "partner's best"),
        ("defend the makers' side", "classic", {"defend_alone": True}, ["up H", "order"],
         "defend 3", "makers' side"),
        ("defend the maker", "classic", {"defend_alone": True}, ["up H", "order alone"],
         "defend 1", "makers' side"),
        ("hand over: after the game", "classic", {"winning_score": 1},
         ["up H", "order", "tricks 3"], "up H", "game is over"),
    ])


def test_declarations_after_the_first_bid():
    # RULES.md (farmers, 003): "before bidding"; the engine's own message for
    # this rule is "declarations come before the first bid".
    check([
        ("farmers after a pass", "classic", {"farmers": True}, ["up H", "pass"], "farmers 2",
         "before the first bid"),
        ("ace no face after a pass", "classic", {"ace_no_face": True}, ["up H", "pass"],
         "acenoface 2", "before the first bid"),
        ("twos after a pass", "ultimate", {}, ["up H", "pass"], "twos 2", "before the first bid"),
        ("farmers in round 2", "classic", {"farmers": True}, ["up H"] + R1, "farmers 2",
         "before the first bid"),
    ])


def test_options_off_are_named():
    # An option that is off is named, as "farmers hand is not in play
    # (option farmers)" and "partner's best is not in play (option
    # partners_best)" already are.
    check([
        ("ace no face off", "classic", {}, ["up H"], "acenoface 1", "ace_no_face"),
        ("nines and tens off", "classic", {}, ["up H"], "ninetens 1", "ace_no_face"),
        ("defend_alone off", "classic", {}, ["up H", "order"], "defend 2", "defend_alone"),
        ("twos outside Ultimate", "classic", {}, ["up H"], "twos 1", "not part of"),
    ])


def test_tricks_outside_play_names_the_phase():
    # "tricks 3" is a valid count; during bidding the problem is the phase,
    # not the count ("the makers take 0 to 5 tricks" names the wrong rule).
    for events in (["up H"], [], ["up H"] + R1):
        g = Game(Rules("classic"))
        for e in events:
            g.apply(e)
        msg, same = refusal(g, "tricks 3")
        assert msg is not None and same
        assert "0 to 5" not in msg, "%r: %s" % (events, msg)


def test_any_event_after_the_game_is_over():
    g = Game(Rules("classic", winning_score=2))
    for e in ("up H", "order", "tricks 5"):
        g.apply(e)
    assert g.result == ((1, 3), "win")
    deal = "deal " + card_names(list(g.rules.deck))
    for e in ("up H", "pass", "order", "redeal", "won 1", "tricks 3", "renege 0", "claim 1",
              "fly away", "", deal, "9H"):
        msg, same = refusal(g, e)
        assert msg is not None and "game is over" in msg and same, (e, msg)
    assert g.legal_actions() == []
    g = Game(Rules("five", winning_score=4))
    for e in ("up H", "order", "alone", "claim 1"):
        g.apply(e)
    assert g.result == ((1,), "win")
    for e in ("up H", "reveal 2", "won 0", "throwin 1"):
        msg, same = refusal(g, e)
        assert msg is not None and "game is over" in msg and same, (e, msg)


# ----- card mode ------------------------------------------------------------

DEAL = "9C TC QC KC AC / AH 9S TS QS KS / JD 9D TD QD KD / 9H TH QH KH AS / JH JC JS AD"


def card_game(variant, deal, events, opts=None):
    g = Game(Rules(variant, **(opts or {})), dealer=0, cards=True)
    g.apply("deal " + deal)
    for e in events:
        g.apply(e)
    return g


def test_card_mode_bad_plays():
    g = card_game("classic", DEAL, ["order", "discard 9C", "AH"])
    assert g.current_player() == 2
    cases = [
        ("9D", "seat 2 must follow hearts"),     # the left bower JD must be played
        ("KD", "seat 2 must follow hearts"),
        ("QH", "seat 2 does not hold QH"),
        ("AH", "seat 2 does not hold AH"),       # already played
        ("9C", "seat 2 does not hold 9C"),       # discarded by the dealer
        ("2H", "seat 2 does not hold 2H"),       # not in this deck
        ("HJ", "seat 2 does not hold HJ"),
    ]
    for e, words in cases:
        msg, same = refusal(g, e)
        assert msg is not None and words in msg and same, (e, msg)
    g.apply("JD")
    assert g.current_player() == 3


def test_card_mode_bad_discards_and_deals():
    g = card_game("classic", DEAL, ["order"])
    assert g.current_player() == 0
    for e, words in (("discard 9S", "does not hold 9S"), ("discard JS", "does not hold JS"),
                     ("9C", "not legal now")):
        msg, same = refusal(g, e)
        assert msg is not None and words in msg and same, (e, msg)
    g = Game(Rules("classic"), cards=True)
    for e, words in (("deal 9C TC", "24-card deck"),
                     ("deal " + DEAL.replace("AD", "AC"), "24-card deck"),
                     ("deal " + DEAL + " 8C", "24-card deck"),
                     ("up H", "not legal now")):
        msg, same = refusal(g, e)
        assert msg is not None and words in msg and same, (e, msg)
    g.apply("deal " + DEAL)
    msg, same = refusal(g, "deal " + DEAL)
    assert msg is not None and "no deal now" in msg and same, msg


def test_card_mode_five_handed_permanent_trump_must_follow():
    deal = "AC KC QC JC TC / 2S AS KD QD 9C / 9S TS QS KS 9H / AD TD 9D 8D 8S / JD JH AH 2H JS / TH 8H QH KH"
    g = card_game("five", deal, ["order", "partner AH", "discard TC", "2S"])
    msg, same = refusal(g, "KS")
    assert msg is not None and "seat 2 must follow hearts" in msg and same, msg
    msg, same = refusal(g, "partner 2H")
    assert msg is not None and same


# ----- nonsense of any type (issue 15, section 3) ---------------------------
# (tests/engine/test_every_door.py fuzzes every call with hypothesis on
# CPython; these fixed cases run under MicroPython too, whose ints, floats
# and bytes() differ.)

def refused(g, call, words):
    """``call()`` raises IllegalAction naming ``words``; the game is unchanged."""
    before = state(g)
    try:
        call()
    except IllegalAction as e:
        assert words in str(e), (words, str(e))
    else:
        assert False, "accepted: " + words
    assert state(g) == before


def test_nonsense_action_ids_are_refused():
    # 31, -1 and 65535 used to raise IndexError; 3.0 a TypeError after
    # counting the event (the state was corrupted).
    for cards in (False, True):
        g = Game(Rules("classic"), cards=cards)
        g.apply("deal " + DEAL if cards else "up H")
        g.apply("pass")
        for a in (31, -1, 65535, 3.0, 1.0, True, None, "pass", [1], 2 ** 70, -2 ** 70, 1 << 13):
            refused(g, lambda g=g, a=a: g.apply_id(a), "not an action id")
        g.apply("order")
        assert g.hand.maker == 2


def test_nonsense_text_deals_and_seats_are_refused():
    g = Game(Rules("five"))
    for x in (None, 5, 3.0, b"pass", ["pass"]):
        refused(g, lambda x=x: g.apply(x), "an action is text")
    refused(g, lambda: g.deal(list(g.rules.deck)), "no deal now")
    for x in (-1, 5, 2.0, "1", None):
        refused(g, lambda x=x: g.hand.side_of(x), "not a seat")
    g = Game(Rules("classic"), cards=True)
    deck = list(g.rules.deck)
    for cards in (None, 24, 2 ** 40, "9C TC", [float(c) for c in deck], deck[:-1] + [deck[-1] + 256],
                  deck[:-1] + [2 ** 70], deck[:-1] + [-1], deck + deck[:1]):
        refused(g, lambda cards=cards: g.deal(cards), "deck once")
    g.deal(deck)
    assert g.events()[0].startswith("deal 9C TC")


def test_apply_legal_takes_an_index_of_the_legal_ids():
    for cards in (False, True):
        h = Hand(Rules("classic"), 0, cards)
        if cards:
            h.deal(parse_cards(DEAL))
        n = len(h.legal_ids())
        for i in (n, -1, 1.0, None, "0", 2 ** 70):
            try:
                h.apply_legal(i)
            except IllegalAction as e:
                assert "no legal action at index" in str(e), str(e)
            else:
                assert False, i
            assert h.events == cards and len(h.legal_ids()) == n
        last = h.legal_ids()[-1]
        assert h.apply_legal(n - 1) == last and h.events == 1 + cards


def test_bad_checkpoints_and_constructor_arguments_raise_value_error():
    g = Game(Rules("classic"))
    for e in ("up H", "order", "tricks 3", "up S"):
        g.apply(e)
    ck = g.checkpoint()
    before = state(g)
    # [events, hand_no, dealer, 4 scores, result, outcome, renege, 4 points]
    assert len(ck) == 14 and ck[8] == "made" and ck[9] == -1, ck
    # (an older bower's: the last hand's words, no renege seat)
    bad = [None, 5, "x", tuple(ck), ck[:-1], ck + [0], [0] * len(ck), ck[:9] + ck[10:]]
    for i, x in ((0, -1), (1, 0), (2, 4), (2, -1), (7, 3), (7, -1), (8, 5), (8, None),
                 (9, 4), (9, -2), (9, 0)):
        bad.append(ck[:i] + [x] + ck[i + 1:])
    for i in range(len(ck)):
        if i != 8:
            for x in ("x", None, 1.5, True, [1]):
                bad.append(ck[:i] + [x] + ck[i + 1:])
    for c in bad:
        try:
            g.restore(c)
        except IllegalAction as e:
            assert False, "IllegalAction for a checkpoint: %r" % e
        except ValueError as e:
            assert "bad checkpoint" in str(e), str(e)
        else:
            assert False, c
        assert state(g) == before, c
    g.restore(ck)
    assert g.checkpoint() == ck
    r = Rules("classic")
    for args, words in (((None,), "not a Rules"), (("classic",), "not a Rules"),
                        ((r, None, 4), "first dealer"), ((r, None, 1.0), "first dealer"),
                        ((r, None, None), "first dealer"), ((r, ["A", "B", "C"]), "4 player names"),
                        ((r, ["A", "B", "C", 4]), "4 player names"), ((r, 4), "4 player names")):
        for make in (Game, Hand):
            if make is Hand and "player" in words:
                continue
            try:
                make(*args)
            except IllegalAction:
                assert False, args
            except ValueError as e:
                assert words in str(e), (args, str(e))
            else:
                assert False, args
