# portable: runs under MicroPython
"""Quick score (issue 25, euchre.quick): a hand entered as who made trump
and how it ended scores exactly as the same hand entered in full.

Each case of ``CASES`` is one hand, entered in full and quick on a fresh
game (dealer seat 0): the points per seat must be the same, whatever the
variant and its options (partner's best, a lone defender, a club round's
values, Five-Handed's "only players who took a trick"). Then whole seeded
games of every variant, each hand entered in full and told again quick:
the scores after every hand and the game's end agree. The rest: the
notation, what is legal when, every refusal naming its rule, undo, the
log's replay and a resume from a checkpoint in the middle of a quick hand.
"""

from euchre import Game, Rules, IllegalAction, log
from euchre import hand as H
from helpers import Rand

# (variant, options, full entry, quick entry)
CASES = [
    ("classic", {}, ["up H", "pass", "order", "tricks 3"], ["quick 0", "quick made"]),
    ("classic", {}, ["up H", "order", "tricks 5"], ["quick 1", "quick march"]),
    ("classic", {}, ["up H", "pass", "pass", "order", "tricks 2"], ["quick 1", "quick euchred"]),
    ("classic", {}, ["up C", "pass", "order alone", "tricks 4"], ["quick 0", "quick made alone"]),
    ("classic", {}, ["up C", "order alone", "tricks 5"], ["quick 1", "quick march alone"]),
    ("classic", {}, ["up C", "order alone", "tricks 1"], ["quick 1", "quick euchred alone"]),
    ("classic", {}, ["up H"] + ["pass"] * 8, ["quick none"]),
    ("classic", {}, ["redeal"], ["redeal"]),
    ("classic", {}, ["up S", "order", "renege 2"], ["quick 1", "quick renege 2"]),
    ("classic", {}, ["up S", "order alone", "renege 2"], ["quick 1", "quick renege 2 alone"]),
    ("classic", {"renege_deduct": True}, ["up S", "order", "renege 1"], ["quick 1", "quick renege 1"]),
    ("classic", {"partners_best": True}, ["up S", "order alone best", "tricks 5"],
     ["quick 1", "quick march alone best"]),
    ("classic", {"defend_alone": True}, ["up S", "order", "defend 2", "tricks 2"], ["quick 1", "quick defended"]),
    ("classic", {"defend_alone": True}, ["up S", "order alone", "defend 2", "tricks 1"],
     ["quick 1", "quick defended alone"]),
    ("classic", {"defend_alone": True}, ["up S", "order alone", "defend 0", "renege 0"],
     ["quick 1", "quick renege 0 alone"]),
    ("classic", {"round_hands": 8, "lone_march": 5}, ["up S", "order alone", "tricks 5"],
     ["quick 1", "quick march alone"]),
    ("classic", {"round_hands": 8, "set_loner": 4}, ["up S", "order alone", "tricks 0"],
     ["quick 1", "quick euchred alone"]),
    ("classic", {"round_hands": 8, "renege_points": 3}, ["up S", "order", "renege 3"], ["quick 1", "quick renege 3"]),
    ("five", {}, ["up S", "pass", "order", "partner JS", "tricks 3", "reveal 4", "notrick none"],
     ["quick 2", "reveal 4", "quick made"]),
    ("five", {}, ["up S", "pass", "order", "partner JS", "tricks 3", "reveal 4", "notrick 4"],
     ["quick 2", "reveal 4", "quick made notrick 4"]),
    ("five", {}, ["up S", "pass", "order", "partner JS", "tricks 5", "reveal 4", "notrick 2"],
     ["quick 2", "reveal 4", "quick march notrick 2"]),
    ("five", {}, ["up H", "order", "partner AH", "tricks 2", "reveal 3", "notrick 0 2"],
     ["quick 1", "reveal 3", "quick euchred notrick 0 2"]),
    ("five", {}, ["up C", "order", "alone", "tricks 5"], ["quick 1", "alone", "quick march"]),
    ("five", {}, ["up C", "order", "alone", "tricks 1", "notrick 2 3"],
     ["quick 1", "alone", "quick euchred notrick 2 3"]),
    ("five", {}, ["up C", "order", "partner AC", "tricks 5", "reveal none"], ["quick 1", "reveal none", "quick march"]),
    ("five", {}, ["up H", "pass", "order", "partner AS", "throwin 3"], ["quick none"]),
    ("five", {}, ["up C", "order", "alone", "renege 3"], ["quick 1", "alone", "quick renege 3"]),
    ("callpartner", {}, ["up S", "pass", "order", "partner AH", "tricks 3", "reveal 4"],
     ["quick 2", "reveal 4", "quick made"]),
    ("callpartner", {}, ["up C", "order", "alone", "tricks 5"], ["quick 1", "alone", "quick march"]),
    ("callpartner", {}, ["up C", "order", "partner AH", "tricks 5", "reveal none"],
     ["quick 1", "reveal none", "quick march"]),
    ("callpartner", {}, ["up H", "order", "partner AS", "tricks 1", "reveal 3"],
     ["quick 1", "reveal 3", "quick euchred"]),
    ("callpartner", {}, ["up H"] + ["pass"] * 10, ["quick none"]),
    ("ultimate", {}, ["up C", "order", "tricks 6"], ["quick 1", "quick made"]),
    ("ultimate", {}, ["up C", "pass", "order", "tricks 11"], ["quick 0", "quick march"]),
    ("ultimate", {}, ["up C", "order", "tricks 5"], ["quick 1", "quick euchred"]),
]


def _hand(variant, options, events):
    g = Game(Rules(variant, options))
    for e in events:
        g.apply(e)
    assert g.hand_no == 2, (variant, events, g.legal_actions())
    return g


def test_each_quick_hand_scores_as_the_same_hand_entered_in_full():
    for variant, options, full, quick in CASES:
        a, b = _hand(variant, options, full), _hand(variant, options, quick)
        assert a.scores == b.scores, (variant, options, full, a.scores, quick, b.scores)
        assert a.dealer == b.dealer and a.last_hand.result == b.last_hand.result, (variant, quick)
        assert b.events() == quick


def quick_events(h):
    # How a table tells finished hand ``h`` (entered in full) quick; None
    # where quick score has no input for it (thrown in under stick the
    # dealer: nines and tens, a stuck farmer).
    r = h.rules
    if h.result == H.REDEAL:
        return ["redeal"]
    if h.result == H.THROWN_IN:
        return ["quick none"] if not r.std or r.throw_in else None
    m, how, makers = h.maker, h.alone, [h.maker]
    if r.teams:
        out = ["quick %d" % (m % 2)]
        makers = list(range(m % 2, h.n, 2))
    else:
        out = ["quick %d" % m]
        if r.call_partner:
            how = 0
            if h.alone:
                out.append("alone")
            elif 0 <= h.partner < h.n:
                out.append("reveal %d" % h.partner)
                makers.append(h.partner)
            else:
                out.append("reveal none")
    ways = ("", " alone", " alone best")
    if h.renege >= 0:
        if r.teams and not how and h.lone_defender >= 0:
            how = 1   # a renege in a hand a defender played alone (004)
        return out + ["quick renege %d%s" % (h.renege, ways[how])]
    t = h.maker_tricks()
    if t < r.tricks_to_make:
        end = "defended" if h.lone_defender >= 0 else "euchred"
        side = [s for s in range(h.n) if s not in makers]
    else:
        end = "march" if t == r.hand_size else "made"
        side = makers
    none = [str(s) for s in side if not h.tricks[s]] if r.needs_trick and len(side) > 1 else []
    return out + ["quick " + end + ways[how] + (" notrick " + " ".join(none) if none else "")]


GAMES = [("classic", {}), ("classic", {"defend_alone": True, "partners_best": True, "std": True}),
         ("classic", {"round_hands": 6, "lone_march": 5, "set_loner": 3, "renege_points": 3}),
         ("classic", {"renege_deduct": True, "ace_no_face": True}),
         ("five", {}), ("five", {"alternate_ending": True}), ("callpartner", {}), ("callpartner", {"std": True}),
         ("ultimate", {})]


def _random_full_game(variant, options, seed):
    # A seeded table-mode game entered in full (never quick).
    rnd = Rand(seed)
    g = Game(Rules(variant, options))
    n = 0
    while not g.result and n < 1500:
        legal = [a for a in g.legal_actions() if not a.startswith("quick") and a != "accept"]
        if g.hand.phase == H.P_BID1 and "pass" in legal and rnd.below(2):
            e = "pass"
        else:
            e = legal[rnd.below(len(legal))]
        g.apply(e)
        n += 1
        yield g, e


def test_whole_games_told_quick_score_as_entered_in_full():
    told = 0
    for variant, options in GAMES:
        for seed in (1, 2, 3):
            q = Game(Rules(variant, options))
            for g, _e in _random_full_game(variant, options, seed * 7 + len(options)):
                if g.result is None and g.hand.events:
                    continue   # (the hand goes on)
                events = quick_events(g.last_hand)
                if events is None:
                    events = g.events()[-g.last_hand.events:]   # entered in full instead
                for x in events:
                    q.apply(x)
                told += 1
                assert q.scores == g.scores and q.dealer == g.dealer, (variant, options, seed, events)
                assert q.result == g.result
            assert q.hand_no == g.hand_no
    assert told > 200, told


def test_the_notation_reads_back_and_refuses_what_is_not_one():
    from euchre.actions import parse_action, action_name
    g = Game(Rules("five"))
    texts = list(g.legal_actions())
    g.apply("quick 2")
    texts += g.legal_actions()
    g.apply("alone")
    texts += g.legal_actions()
    for t in texts:
        assert action_name(parse_action(t)[0]) == t, t
    for bad in ("quick", "quick made notrick", "quick renege", "quick 3 made", "quick made notrick none",
                "quick renege 3 notrick 1", "quick made alone alone", "quick 64", "quick x", "quick made 2"):
        try:
            g.apply(bad)
            raise AssertionError("accepted %r" % bad)
        except IllegalAction as e:
            assert "malformed" in str(e) or "unknown" in str(e), (bad, str(e))


def _refusal(variant, options, events, bad):
    g = Game(Rules(variant, options))
    for e in events:
        g.apply(e)
    before = g.events()
    try:
        g.apply(bad)
    except IllegalAction as e:
        assert g.events() == before
        return str(e)
    raise AssertionError("accepted %r after %r" % (bad, events))


def test_every_refusal_names_its_rule():
    cases = [
        ("classic", {}, [], "quick 2", "names the makers' side"),
        ("classic", {"std": True}, [], "quick none", "stick the dealer"),
        ("ultimate", {}, [], "quick none", "stick the dealer"),
        ("five", {}, [], "quick 5", "no seat 5"),
        ("classic", {}, [], "quick made", "comes after quick N"),
        ("classic", {}, ["up H"], "quick 0", "starts a hand entered quick"),
        ("classic", {}, ["quick 0"], "quick 1", "starts a hand entered quick"),
        ("classic", {}, ["quick 0"], "up H", "entered quick: next, how it ended"),
        ("classic", {}, ["quick 0"], "tricks 3", "entered quick: next, how it ended"),
        ("classic", {}, ["quick 0"], "quick march alone best", "option partners_best"),
        ("ultimate", {}, ["quick 0"], "quick march alone", "not allowed in Ultimate"),
        ("five", {}, ["quick 0", "reveal 2"], "quick march alone", "alone at the partner step"),
        ("classic", {}, ["quick 0"], "quick defended", "option defend_alone"),
        ("classic", {}, ["quick 0"], "quick renege 4", "no seat 4"),
        ("classic", {}, ["quick 0"], "quick made notrick 1", "took no trick"),
        ("five", {}, ["quick 0", "reveal 2"], "quick made notrick 0 2", "took no trick"),
        ("callpartner", {}, ["quick 0", "reveal 2"], "quick made notrick 2", "took no trick"),
        ("five", {}, ["quick 0"], "quick made", "comes after quick N and the maker's partner"),
        ("five", {}, ["quick 0"], "reveal 0", "reveal none"),
        ("five", {}, ["quick 0"], "partner JS", "next, the maker's partner"),
    ]
    for variant, options, events, bad, words in cases:
        msg = _refusal(variant, options, events, bad)
        assert words in msg, (variant, events, bad, msg)


def test_what_is_legal_when():
    g = Game(Rules("classic"))
    assert g.legal_actions() == ["up C", "up D", "up H", "up S", "quick 0", "quick 1", "quick none", "redeal"]
    g.apply("quick 1")
    assert g.hand.phase == H.P_QUICK and g.current_player() == H.TABLE
    assert g.legal_actions()[:6] == ["quick made", "quick march", "quick euchred", "quick made alone",
                                     "quick march alone", "quick euchred alone"]
    assert Game(Rules("ultimate")).legal_actions()[-3:] == ["quick 0", "quick 1", "redeal"]
    f = Game(Rules("five"))
    assert f.legal_actions()[-7:] == ["quick 0", "quick 1", "quick 2", "quick 3", "quick 4", "quick none", "redeal"]
    f.apply("quick 3")
    assert f.legal_actions() == ["alone", "reveal 0", "reveal 1", "reveal 2", "reveal 4", "reveal none"]
    f.apply("alone")
    # Five-Handed, alone: who of the four defenders took no trick, if any.
    ends = f.legal_actions()
    assert ends[:3] == ["quick made", "quick march", "quick euchred"] and "quick euchred notrick 0 1 2" in ends
    assert "quick euchred notrick 0 1 2 4" not in ends   # (someone took the tricks)
    c = Game(Rules("callpartner"))
    c.apply("quick 3")
    c.apply("reveal 1")
    assert [a for a in c.legal_actions() if "notrick" in a] == []


def test_undo_a_quick_hand_input_by_input():
    g = Game(Rules("five"))
    for e in ["quick 2", "reveal 4", "quick made"]:
        g.apply(e)
    assert g.scores == [0, 0, 1, 0, 1] and g.dealer == 1
    g.undo()
    assert g.hand.phase == H.P_QUICK and g.hand.partner == 4 and g.scores == [0] * 5 and g.dealer == 0
    g.undo()
    assert g.hand.phase == H.P_QPARTNER and g.hand.maker == 2
    g.undo()
    assert g.hand.phase == H.P_UP and g.event_count() == 0
    g.apply("up H")   # a full entry instead
    assert g.hand.phase == H.P_BID1


def test_a_quick_game_logs_replays_and_resumes_mid_hand():
    g = Game(Rules("classic"), ["Ann", "Bob", "Cy", "Di"], dealer=2)
    events = ["quick 0", "quick march", "quick 1", "quick made alone", "up H", "pass", "order", "tricks 3",
              "quick none", "redeal", "quick 1", "quick euchred", "quick 0"]
    for e in events:
        g.apply(e)
    text = log.dumps(g)
    r, dropped = log.loads(text)
    assert dropped is None and r.events() == events and r.scores == g.scores == [5, 1, 5, 1]
    assert log.dumps(r) == text
    # A resume: the checkpoint of the hand in play, then its events.
    ck = g.checkpoint()
    s = Game(Rules("classic"), ["Ann", "Bob", "Cy", "Di"], dealer=2)
    s.restore(ck)
    s.apply("quick 0")
    assert s.hand.phase == H.P_QUICK and s.hand.maker == 0
    s.apply("quick march")
    g.apply("quick march")
    assert s.scores == g.scores == [7, 1, 7, 1]


def test_a_quick_hand_books_what_the_table_said():
    # Nominal tricks: just enough, all, none; the lone maker's partner and
    # a lone defender's partner sit out.
    g = Game(Rules("classic", defend_alone=True))
    for e in ["quick 1", "quick defended alone"]:
        g.apply(e)
    h = g.last_hand
    assert (h.maker, h.alone, h.lone_defender, list(h.out), h.maker_tricks()) == (1, 1, 2, [1, 0, 0, 1], 0)
    assert h.outcome == "defend_euchre" and g.scores == [4, 0, 4, 0]
    g = Game(Rules("five"))
    for e in ["quick 0", "reveal 3", "quick march notrick 0"]:
        g.apply(e)
    h = g.last_hand
    assert list(h.tricks) == [0, 0, 0, 5, 0] and g.scores == [0, 0, 0, 2, 0]
