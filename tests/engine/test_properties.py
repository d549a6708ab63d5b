"""Property tests: thousands of random games per variant, checked step by step.

CPython only (hypothesis). Each example is one whole game driven by a
hypothesis-chosen seed: a ``random.Random(seed)`` shuffles every deal and
picks uniformly among the legal actions. The rules
the checks encode are re-derived here from /work/shared/RULES.md and, for
the variants for three, six and two players, docs/RULES.md (decks,
trump order, following, trick winners, who leads, scoring), not read back
from the engine's own tables, so a wrong table in the engine shows up as a
mismatch. A failure names the seed; rerun it with ``play_cards(config, seed)``.

Card mode, at every step:
  * every card is accounted for exactly once (hands + kitty + played == deck),
    and the trick in progress is the tail of ``played``;
  * the legal actions are the rules' legal actions: plays are the cards of
    the player's hand that follow suit (or the whole hand), discards and
    partner's-best cards are the cards of the hand they come from;
  * each active seat holds hand_size minus the cards it has played;
  * only seats whose cards allow it are offered farmers / twos-and-threes /
    ace-no-face (and a Five-Handed throw-in), and the exchanges move the
    right cards; ordering, calling and turning make the right trump, the
    dealer picks the upcard up, a lone hand's partner sits out; the turned-
    down suit is never offered, the stuck dealer may not pass, a farmer who
    may not call is never asked to bid;
  * a played card leaves its player's hand, and the trick goes to the seat
    RULES.md says (highest trump, else highest card of the suit led); the
    winner leads next; trick 1 is led by the seat RULES.md names;
  * trick counts sum to the tricks played (to hand_size at a scored end);
  * a scored hand's points are exactly what RULES.md gives (and have the
    variant's shape: in partnerships exactly one side scores, positive);
  * the game's scores are the sum of the hands' points, the deal passes left
    except after a redeal, and the game ends exactly when the variant's end
    condition holds.
At random points: undo, then redo the same event from its text, gives the
same fingerprints; at the end (and at a random mid-game point) the log
replays to the same scores and fingerprint and re-dumps bit-exactly.

Table mode: the same replay/undo invariants over random table-mode games,
plus the shape of every scored hand's points.
"""

import random

import pytest
from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st

from euchre import Rules, Game, parse_cards, card_name, log
from euchre import actions as A
from euchre.cardmode import played_by
from helpers import fingerprint
from euchre.hand import (SCORED, THROWN_IN, REDEAL, P_DECLARE, P_BID1,
                         P_BID2, P_DISCARD, P_GIVE, P_GIVEBACK, P_THROWIN,
                         P_PLAY)

# ---------------------------------------------------------------------------
# The rules, re-derived from RULES.md.

SUITS = "CDHS"
RANKS = "23456789TJQKA"


def _suited(low):
    """Every suited card from rank ``low`` (a RANKS letter) to the ace."""
    return [r + s for s in SUITS for r in RANKS[RANKS.index(low):]]


def expected_deck(name, o):
    """The deck RULES.md gives each variant, as card names."""
    if name == "classic":
        return _suited("9") + (["HJ"] if o.get("joker") else [])
    if name == "five":
        d = _suited("9") + ["8S", "8H", "8D"]
        if o.get("four_eights"):
            d.append("8C")
        return d + (["HJ", "LJ"] if o.get("jokers") else ["2S", "2H"])
    if name == "callpartner":
        return _suited("8")
    if name == "three":
        return _suited(str(o.get("min_rank", 9)))
    if name == "six":
        return _suited("7") + (["HJ", "LJ"] if o.get("jokers") else [])
    if name == "two":
        return _suited(str(o.get("min_rank", 7))) + (["HJ"] if o.get("joker") else [])
    return _suited("2") + ["HJ", "LJ"]


def permanent_trumps(name, o):
    """Permanent trumps, highest first (RULES.md)."""
    if name in ("classic", "two"):
        return ["HJ"] if o.get("joker") else []
    if name == "five":
        return ["HJ", "LJ"] if o.get("jokers") else ["2S", "2H"]
    if name == "six":
        return ["HJ", "LJ"] if o.get("jokers") else []
    if name == "ultimate":
        return ["HJ", "LJ"]
    return []


HAND_SIZE = {"classic": 5, "five": 5, "callpartner": 5, "ultimate": 11, "three": 5, "six": 5,
             "two": 5}
PLAYERS = {"classic": 4, "five": 5, "callpartner": 5, "ultimate": 4, "three": 3, "six": 6,
           "two": 2}


class Spec:
    """What the checks need to know about one variant + options."""

    def __init__(self, name, options):
        self.name = name
        self.options = dict(options)
        self.rules = Rules(name, **options)
        self.n = PLAYERS[name]
        # Partnerships (partners alternate round the table); the others score
        # per seat.
        self.teams = name in ("classic", "ultimate", "six")
        self.hand_size = HAND_SIZE[name]
        self.deck = sorted(parse_cards(" ".join(expected_deck(name, options))))
        self.perm = parse_cards(" ".join(permanent_trumps(name, options)))
        self.std = bool(options.get("std")) or name in ("five", "ultimate")
        self.target = options.get("winning_score", {"ultimate": 35, "two": 5}.get(name, 10))

    def eff(self, card, trump):
        """Effective suit of a card once ``trump`` is trump."""
        if card in self.perm:
            return trump
        suit, rank = card // 13, card % 13
        if rank == 9 and suit == 3 - trump:  # left bower: J of the same colour
            return trump
        return suit

    def power(self, card, trump):
        """Order within the card's effective suit (higher wins)."""
        if card in self.perm:
            return 100 - self.perm.index(card)
        if card % 13 == 9 and self.eff(card, trump) == trump:
            return 90 if card // 13 == trump else 89  # right, left bower
        return card % 13

    def winner(self, cards, seats, trump):
        led = self.eff(cards[0], trump)
        best = None
        for i in range(len(cards)):
            e = self.eff(cards[i], trump)
            if e == trump:
                key = (2, self.power(cards[i], trump))
            elif e == led:
                key = (1, self.power(cards[i], trump))
            else:
                continue
            if best is None or key > best[0]:
                best = (key, seats[i])
        return best[1]


# ---------------------------------------------------------------------------
# Per-hand bookkeeping from the actions actually applied.

class Track:
    def __init__(self, h):
        self.h = h
        self.maker = -1
        self.alone = 0          # 0, 1 alone, 2 alone with partner's best
        self.intent_alone = False
        self.partner_card = -1
        self.lone_defender = -1
        self.up_suit = None     # suit bid on in round 1 (None: joker up in Ultimate)
        self.farmer = -1
        self.twos = False
        self.seats = []         # who played each card, as seen here


def expected_leader(spec, h, t):
    """Seat leading to trick 1 (RULES.md)."""
    n, out = spec.n, h.out
    if t.lone_defender >= 0 and t.alone:
        return t.lone_defender
    if t.alone and spec.options.get("loner_lead") == "LEFT_OF_LONER":
        return (t.maker + 1) % n
    s = (h.dealer + 1) % n
    while out[s]:
        s = (s + 1) % n
    return s


def expected_points(spec, h, t):
    """Points per seat for a hand scored in card mode (no renege there)."""
    n, hs = spec.n, spec.hand_size
    need = hs // 2 + 1
    pts = [0] * n
    m = t.maker
    if spec.teams:
        # (partners every other seat: 0 2 (4) against 1 3 (5))
        made = sum(h.tricks[p] for p in range(m & 1, n, 2))
        lone_march = 5 if spec.name == "six" else 4
        if spec.name == "ultimate":
            v = (7 if made == hs else 5) if made >= need else 7
        elif made >= need:
            v = 1 if made < hs else (3 if t.alone == 2 else lone_march if t.alone else 2)
        else:
            v = 4 if t.lone_defender >= 0 else 2
        side = m & 1 if made >= need else 1 - (m & 1)
        for p in range(side, n, 2):
            pts[p] = v
        return pts
    if spec.name in ("three", "two"):
        # The maker alone against the other(s), each for himself.
        made = h.tricks[m]
        if made >= need:
            if made < hs:
                v = 1
            elif spec.name == "two":
                v = 2
            else:
                v = 4 if t.alone else spec.options.get("march", 3)
            pts[m] = v
        else:
            for p in range(n):
                if p != m:
                    pts[p] = 2
        return pts
    # Calling variants: the partner is whoever played the called card,
    # unless that was the maker or nobody.
    partner = -1
    if not t.intent_alone and t.partner_card in h.play.played:
        s = played_by(h)[bytes(h.play.played).index(t.partner_card)]
        if s != m:
            partner = s
    makers = [m] + ([partner] if partner >= 0 else [])
    made = sum(h.tricks[p] for p in makers)
    if made >= need:
        if made < hs:
            v = 1
        elif spec.name == "five":
            v = 4 if t.intent_alone else 2
        else:
            v = 5 if partner < 0 else 2
        scorers = makers
    else:
        v = 2
        scorers = [p for p in range(n) if p not in makers]
    for p in scorers:
        if spec.name != "five" or h.tricks[p]:  # 000: only trick-takers score
            pts[p] = v
    return pts


def check_points_shape(spec, pts, renege):
    """The zero-sum-ish shape of a scored hand's points."""
    if spec.teams:
        assert pts[0::2] == [pts[0]] * len(pts[0::2]) and pts[1::2] == [pts[1]] * len(pts[1::2]), pts
        assert (pts[0] == 0) != (pts[1] == 0), "exactly one side scores: %r" % (pts,)
        if not (renege and spec.options.get("renege_deduct")):
            assert max(pts) > 0, pts
    elif renege and spec.name == "two":
        # (the other player scores, as in Classic)
        assert sorted(pts) == [0, 2], pts
    elif renege:
        assert sorted(pts)[1:] == [0] * (spec.n - 1) and min(pts) < 0, pts
    else:
        assert min(pts) >= 0, pts
        assert len(set(p for p in pts if p)) <= 1, "one value for every scorer: %r" % (pts,)


def end_condition(spec, scores):
    """True when the variant's game-end check must end the game."""
    top = max(scores)
    if top < spec.target:
        return False
    lead_by_one = spec.name == "five" and not spec.options.get("alternate_ending") \
        or spec.options.get("play_on")
    if lead_by_one:
        return scores.count(top) == 1
    return True


# ---------------------------------------------------------------------------
# Per-step checks (card mode).

def check_cards(spec, h):
    hands = h.play.hands
    allc = [c for hand in hands for c in hand] + list(h.play.kitty) + list(h.play.played)
    assert sorted(allc) == spec.deck, "cards lost or duplicated"
    k = len(h.play.trick)
    assert list(h.play.trick) == list(h.play.played[len(h.play.played) - k:])
    assert sum(h.tricks) == h.tricks_played
    active = spec.n - sum(h.out)
    assert len(h.play.played) == h.tricks_played * active + k
    if h.phase == P_PLAY:
        by = played_by(h)
        for s in range(spec.n):
            if not h.out[s]:
                assert len(hands[s]) + by.count(s) == spec.hand_size, s
            else:
                assert by.count(s) == 0 and h.tricks[s] == 0


def check_legal(spec, h, t):
    p = h.phase
    legal = h.legal_ids()
    if p == P_PLAY:
        seat = h.current_player()
        hand = h.play.hands[seat]
        if h.play.trick:
            led = spec.eff(h.play.trick[0], h.trump)
            want = [c for c in hand if spec.eff(c, h.trump) == led] or list(hand)
        else:
            want = list(hand)
        assert sorted(A.arg_of(a) for a in legal) == sorted(want), "legal plays"
        assert all(A.kind_of(a) == A.PLAY for a in legal)
    elif p in (P_DISCARD, P_GIVE, P_GIVEBACK):
        seat = h.current_player()
        assert sorted(A.arg_of(a) for a in legal) == sorted(h.play.hands[seat])
        if p == P_DISCARD:
            assert seat == h.dealer
    elif p == P_BID2:
        for a in legal:
            if A.kind_of(a) == A.CALL:
                # The turned-down suit is never offered (004); with a joker
                # up in Ultimate, nothing is turned down (002).
                assert t.up_suit is None or A.arg_of(a) != t.up_suit
        if spec.std and h.current_player() == h.dealer:
            assert A.PASS not in legal, "stick the dealer"
    elif p == P_DECLARE:
        seat = h.current_player()
        want = declarations(spec, h.play.hands[seat], seat, t)
        assert want, "only seats that can declare are asked"
        assert sorted(legal) == sorted(want + [A.PASS])
    elif p == P_THROWIN:
        seat = h.current_player()
        assert sorted(legal) == sorted([A.action(A.THROWIN, seat), A.PASS])
        for c in h.play.hands[seat]:
            # 000: no ace, no face card, no trump.
            assert c % 13 < 9 and c not in spec.perm and spec.eff(c, h.trump) != h.trump
    if p in (P_BID1, P_BID2) and t.farmer >= 0 and spec.options.get("farmers_no_call"):
        assert h.current_player() != t.farmer, "a farmer may not call (003)"


def declarations(spec, cards, seat, t):
    """Pre-bidding declarations a hand allows (003 farmers and ace-no-face,
    002 twos-and-threes), re-derived from the ranks."""
    o = spec.options
    ranks = [RANKS[c % 13] if c < 52 else "J" for c in cards]
    out = []
    low = ranks.count("9") + (0 if o.get("farmers_nines_only") else ranks.count("T"))
    if o.get("farmers") and t.farmer < 0 and low >= 3:
        out.append(A.action(A.FARMERS, seat))
    if spec.name == "ultimate" and not t.twos and ranks.count("2") + ranks.count("3") >= 3:
        out.append(A.action(A.TWOS, seat))
    if o.get("ace_no_face"):
        nt = ranks.count("9") + ranks.count("T")
        if nt == len(cards):
            out.append(A.action(A.NINETENS, seat))
        elif nt == len(cards) - 1 and "A" in ranks:
            out.append(A.action(A.ACENOFACE, seat))
    return out


def check_applied(spec, h, t, a, seat, hand_before, kitty_before):
    """What an action did to the cards and the bid (card mode)."""
    kind, arg, flag = A.kind_of(a), A.arg_of(a), A.flag_of(a)
    if kind in (A.FARMERS, A.TWOS):
        # 003: three 9s/10s for the three kitty cards under the upcard;
        # 002: three 2s/3s for the bottom three kitty cards.
        at = 1 if kind == A.FARMERS else len(kitty_before) - 3
        took = kitty_before[at:at + 3]
        gave = [c for c in hand_before if c not in h.play.hands[seat]]
        assert sorted(h.play.hands[seat]) == sorted([c for c in hand_before if c not in gave] + took)
        assert sorted(gave) == sorted(h.play.kitty[at:at + 3]) and len(gave) == 3
        ok = "9" if spec.options.get("farmers_nines_only") else "9T"
        if kind == A.TWOS:
            ok = "23"
        assert all(RANKS[c % 13] in ok for c in gave), [card_name(c) for c in gave]
        t.twos = t.twos or kind == A.TWOS
    elif kind in (A.ORDER, A.CALL):
        if kind == A.CALL or arg != A.NOSUIT:
            assert h.trump == arg
        else:
            assert h.trump == t.up_suit, "order makes the upcard's suit trump"
        if kind == A.ORDER and not h.out[h.dealer]:
            assert h.upcard in h.play.hands[h.dealer], "the dealer takes the upcard"
        if flag and spec.teams:
            for p in range(seat & 1, spec.n, 2):
                assert h.out[p] == (p != seat), "a lone maker's partners sit out"
    elif kind == A.TURN and flag == A.TURN_CARD:
        # 000: the turned card's suit is trump, the dealer is the bidder.
        assert arg not in spec.perm and arg in hand_before
        assert h.trump == arg // 13 and h.maker == h.dealer
        assert h.upcard in h.play.hands[h.dealer]
    elif kind == A.DISCARD:
        assert h.play.kitty[-1] == arg and arg not in h.play.hands[h.dealer]
        assert len(h.play.kitty) == len(kitty_before) + 1
    elif kind == A.DEFEND and arg != A.NOBODY:
        assert h.out[(arg + 2) % 4], "the lone defender's partner sits out"


def note_action(spec, g, h, t, a):
    """Record what the action means for scoring, before it is applied."""
    kind, arg, flag = A.kind_of(a), A.arg_of(a), A.flag_of(a)
    seat = h.current_player()
    if kind in (A.ORDER, A.CALL):
        t.maker, t.alone = seat, flag
        if kind == A.ORDER and spec.options.get("canadian") and seat == (h.dealer + 2) % 4:
            assert flag, "Canadian loner: the dealer's partner orders alone"
    elif kind == A.TURN and flag == A.TURN_CARD:
        t.maker = h.dealer
    elif kind == A.ALONE:
        t.intent_alone = True
    elif kind == A.PARTNER:
        t.partner_card = arg
        assert arg not in spec.perm
        if spec.name == "callpartner":
            assert spec.eff(arg, h.trump) != h.trump, "partner card is not a trump"
    elif kind == A.DEFEND and arg != A.NOBODY:
        t.lone_defender = arg
    elif kind == A.FARMERS:
        t.farmer = arg
    elif kind == A.NAME:
        t.up_suit = arg


def play_cards(config, seed, stats=None):
    """One random card-mode game with every check; returns the game."""
    name, options = config
    spec = SPECS[config_key(config)]
    rnd = random.Random(seed)
    rules = spec.rules
    assert sorted(rules.deck) == spec.deck
    g = Game(rules, dealer=rnd.randrange(spec.n), cards=True)
    t = None
    # About two undo/redo checks per game (more in the long Ultimate games),
    # a mid-game replay in about half of the games.
    undo_chance = 0.01
    mid_replay = rnd.randrange(300)
    steps = 0
    while not g.is_terminal():
        h = g.hand
        assert h.dealer == g.dealer
        if h.phase == 0:  # waiting for the deal
            deck = list(rules.deck)
            rnd.shuffle(deck)
            undo = rnd.random() < undo_chance
            before = fingerprint(g) if undo else None
            g.deal(deck)
            if stats is not None:
                stats["hands"] = stats.get("hands", 0) + 1
            t = Track(g.hand)
            if g.hand.upcard >= 0 and g.hand.upcard not in spec.perm:
                t.up_suit = g.hand.upcard // 13
            if undo:
                check_undo_redo(g, before)
            check_cards(spec, g.hand)
            continue
        check_cards(spec, h)
        check_legal(spec, h, t)
        legal = h.legal_ids()
        assert legal, "a live non-chance state has legal actions"
        a = legal[rnd.randrange(len(legal))]
        note_action(spec, g, h, t, a)
        seat = h.current_player()
        trick = list(h.play.trick)
        trick_seats = t.seats[len(t.seats) - len(trick):]
        done_tricks = h.tricks_played
        playing = h.phase == P_PLAY
        hand_before = list(h.play.hands[seat if seat >= 0 else h.dealer])
        kitty_before = list(h.play.kitty)
        scores_before, dealer_before = list(g.scores), g.dealer
        undo = rnd.random() < undo_chance
        before = fingerprint(g) if undo else None
        g.apply_id(a)
        steps += 1
        check_applied(spec, h, t, a, seat, hand_before, kitty_before)
        if playing:
            card = A.arg_of(a)
            assert card in hand_before and card not in h.play.hands[seat]
            t.seats.append(seat)
            assert h.play.played[-1] == card and played_by(h) == t.seats
            if not trick:
                if done_tricks == 0:
                    assert seat == expected_leader(spec, h, t), "trick 1 leader"
                else:
                    assert seat == t.last_winner, "the trick winner leads next"
            if h.tricks_played > done_tricks:
                w = spec.winner(trick + [card], trick_seats + [seat], h.trump)
                t.last_winner = w
                # The winner's trick count went up by one, nobody else's.
                assert w == _who_won(h, t), "trick to seat %d (RULES.md)" % w
        if h.is_terminal():
            check_finished(spec, g, h, t, scores_before, dealer_before)
            if stats is not None and h.result == SCORED:
                stats["scored"] = stats.get("scored", 0) + 1
        if undo:
            check_undo_redo(g, before)
        if steps == mid_replay:
            check_replay(g)
    check_replay(g)
    if stats is not None:
        stats["games"] = stats.get("games", 0) + 1
    return g


def _who_won(h, t):
    prev = getattr(t, "counts", None) or [0] * len(h.tricks)
    now = list(h.tricks)
    diff = [s for s in range(len(now)) if now[s] != prev[s]]
    t.counts = now
    assert len(diff) == 1 and now[diff[0]] == prev[diff[0]] + 1, (prev, now)
    return diff[0]


def check_finished(spec, g, h, t, scores_before, dealer_before):
    assert h.result in (SCORED, THROWN_IN, REDEAL)
    if h.result == SCORED:
        assert h.tricks_played == spec.hand_size
        assert sum(h.tricks) == spec.hand_size
        assert h.maker == t.maker
        pts = expected_points(spec, h, t)
        assert list(h.points) == pts, "points %r, RULES.md gives %r" % (list(h.points), pts)
        check_points_shape(spec, pts, False)
    else:
        assert list(h.points) == [0] * spec.n
    assert g.scores == [scores_before[i] + h.points[i] for i in range(spec.n)]
    if g.is_terminal():
        assert end_condition(spec, g.scores), g.scores
    else:
        assert not end_condition(spec, g.scores), g.scores
        want = dealer_before if h.result == REDEAL else (dealer_before + 1) % spec.n
        assert g.dealer == want, "the deal passes left (a redeal keeps the dealer)"


def check_undo_redo(g, before):
    """Undo the last event, check the state before it, redo it from text."""
    after = fingerprint(g)
    scores = list(g.scores)
    last = g.events()[-1]
    g.undo()
    assert fingerprint(g) == before
    g.apply(last)
    assert fingerprint(g) == after
    assert g.scores == scores


def check_replay(g):
    text = log.dumps(g)
    g2, dropped = log.loads(text)
    assert dropped is None
    assert g2.scores == g.scores
    assert g2.result == g.result
    assert fingerprint(g2) == fingerprint(g)
    assert log.dumps(g2) == text, "re-dump is bit-exact"


# ---------------------------------------------------------------------------
# The configurations and their example counts.

CONFIGS = [
    # (variant, options), games per run
    (("classic", {}), 80),
    (("classic", {"defend_alone": True, "loner_lead": "LEFT_OF_LONER"}), 70),
    (("classic", {"defend_alone": True, "partners_best": True, "std": True}), 70),
    (("classic", {"farmers": True, "ace_no_face": True, "canadian": True}), 70),
    (("classic", {"farmers": True, "farmers_nines_only": True,
                  "farmers_no_call": True, "ace_no_face": True}), 70),
    (("classic", {"joker": True, "defend_alone": True, "partners_best": True,
                  "canadian": True, "loner_lead": "LEFT_OF_LONER"}), 70),
    (("classic", {"joker": True, "std": True, "farmers": True,
                  "farmers_no_call": True, "winning_score": 5}), 70),
    (("five", {}), 80),
    (("five", {"jokers": True}), 70),
    (("five", {"four_eights": True}), 70),
    (("five", {"jokers": True, "four_eights": True, "alternate_ending": True}), 70),
    (("callpartner", {}), 120),
    (("callpartner", {"std": True}), 120),
    (("callpartner", {"std": True, "play_on": True, "winning_score": 7}), 60),
    (("ultimate", {}), 70),
    (("ultimate", {"winning_score": 20}), 50),
    (("three", {}), 80),
    (("three", {"min_rank": 7, "march": 2, "alone": True, "std": True}), 70),
    (("three", {"play_on": True, "alone": True, "winning_score": 7}), 50),
    (("six", {}), 80),
    (("six", {"jokers": True, "std": True}), 70),
    (("two", {}), 80),
    (("two", {"min_rank": 9, "joker": True, "std": True, "winning_score": 10}), 70),
]


def config_key(config):
    return config[0] + repr(sorted(config[1].items()))


SPECS = {}
for _c, _n in CONFIGS:
    SPECS[config_key(_c)] = Spec(*_c)

STATS = {}


def _ids(item):
    (name, opts), n = item
    return name + ("-" + "-".join(sorted(opts)) if opts else "")


SEEDS = st.integers(min_value=0, max_value=2 ** 32 - 1)


@pytest.mark.parametrize("item", CONFIGS, ids=[_ids(c) for c in CONFIGS])
def test_random_card_games(item):
    config, examples = item
    stats = STATS.setdefault(config_key(config), {})

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def run(seed):
        play_cards(config, seed, stats)

    run()


# ---------------------------------------------------------------------------
# Table mode.

TABLE_CONFIGS = [
    (("classic", {}), 40),
    (("classic", {"defend_alone": True, "partners_best": True, "farmers": True,
                  "farmers_no_call": True, "ace_no_face": True, "joker": True,
                  "renege_deduct": True, "std": True}), 40),
    (("five", {}), 40),
    (("five", {"jokers": True, "alternate_ending": True}), 30),
    (("callpartner", {"std": True}), 40),
    (("ultimate", {}), 40),
    (("three", {"alone": True}), 40),
    (("six", {"jokers": True}), 40),
    (("two", {"joker": True}), 40),
]
for _c, _n in TABLE_CONFIGS:
    SPECS.setdefault(config_key(_c), Spec(*_c))


# Inputs that end or void a hand early; the table policy takes them rarely so
# that games finish (a renege costs points, a redeal scores nothing).
RARE = ("renege", "redeal", "claim", "throwin", "acenoface", "ninetens")


def table_choice(rnd, legal):
    for _ in range(4):
        text = legal[rnd.randrange(len(legal))]
        if not _rare(text) or rnd.random() < 0.15:
            return text
    return text


def _rare(text):
    # (a quick hand's end by a renege, "quick renege N", is one too)
    words = text.split()
    return words[0] in RARE or words[:2] == ["quick", "renege"]


def play_table(config, seed, stats=None, max_steps=5000):
    """One random table-mode game with the replay/undo checks."""
    spec = SPECS[config_key(config)]
    rnd = random.Random(seed)
    g = Game(spec.rules, dealer=rnd.randrange(spec.n), cards=False)
    mid_replay = rnd.randrange(200)
    steps = 0
    while not g.is_terminal() and steps < max_steps:
        h = g.hand
        legal = g.legal_actions()
        assert legal
        ids = h.legal_ids()
        assert len(ids) == len(set(ids)) == len(legal)
        text = table_choice(rnd, legal)
        assert A.action_name(A.parse_action(text)[0]) == text
        scores_before, dealer_before = list(g.scores), g.dealer
        undo = rnd.random() < 0.02
        before = fingerprint(g) if undo else None
        renege = text.startswith(("renege", "quick renege"))
        g.apply(text)
        steps += 1
        assert sum(h.tricks) == h.tricks_played <= spec.hand_size
        if h.is_terminal():
            if stats is not None:
                stats["hands"] = stats.get("hands", 0) + 1
            if h.result == SCORED:
                assert renege or h.tricks_played == spec.hand_size
                check_points_shape(spec, list(h.points), renege)
            else:
                assert list(h.points) == [0] * spec.n
            assert g.scores == [scores_before[i] + h.points[i] for i in range(spec.n)]
            if not spec.options.get("alternate_ending"):
                assert g.is_terminal() == end_condition(spec, g.scores), g.scores
            if not g.is_terminal():
                want = dealer_before if h.result == REDEAL else (dealer_before + 1) % spec.n
                assert g.dealer == want
        if undo:
            check_undo_redo(g, before)
        if steps == mid_replay:
            check_replay(g)
    assert g.is_terminal(), "a random table game ends"
    check_replay(g)
    if stats is not None:
        stats["games"] = stats.get("games", 0) + 1
    return g


@pytest.mark.parametrize("item", TABLE_CONFIGS, ids=[_ids(c) for c in TABLE_CONFIGS])
def test_random_table_games(item):
    config, examples = item
    stats = STATS.setdefault("table " + config_key(config), {})

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def run(seed):
        play_table(config, seed, stats)

    run()


def test_spec_decks_match_rules():
    # The re-derived decks and kitties agree with the engine's (RULES.md).
    kitty = {"classic": 4, "five": 4, "callpartner": 3, "ultimate": 10, "three": 9, "six": 2,
             "two": 22}
    for key in SPECS:
        spec = SPECS[key]
        assert sorted(spec.rules.deck) == spec.deck, key
        extra = len(spec.deck) - spec.n * spec.hand_size
        assert spec.rules.kitty == extra
        base = kitty[spec.name]
        if spec.options.get("joker") or spec.options.get("four_eights"):
            base += 1
        if spec.name == "six" and spec.options.get("jokers"):
            base += 2
        if spec.options.get("min_rank") and spec.options["min_rank"] != {"three": 9, "two": 7}[spec.name]:
            # (the 7s and 8s in or out: eight cards)
            base += 8 if spec.options["min_rank"] == 7 else -8
        assert extra == base, key
