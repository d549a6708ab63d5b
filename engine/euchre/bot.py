# A simple heuristic player for card mode, for every variant.
#
#   from euchre.bot import choose
#   while not h.is_terminal():
#       h.apply_id(choose(h))       # at a seat's turn (not at a chance node)
#
# It counts trumps and aces to bid, names the highest trump it lacks as
# partner (000's advice) or an off-suit ace, wins a trick as cheaply as it
# can unless its side already holds it, and otherwise throws its lowest card.

from euchre import actions as A
from euchre.phases import P_PLAY, P_BID1, P_BID2, P_MAKER, P_NAME, P_DISCARD, P_GIVEBACK, P_GIVE, P_DEFEND
from euchre.cardmode import RA, rank_of

_PASS = A.PASS


def choose(h):
    """The bot's action id for the current player of card-mode hand ``h``."""
    legal = h.legal_ids()
    p = h.phase
    if p == P_PLAY:
        return _play(h, legal)
    if p == P_BID1 or p == P_BID2:
        return _bid(h, legal)
    if p == P_MAKER:
        return _call_partner(h, legal)
    if p == P_NAME:
        suit = _best_suit(h, h.play.hands[h.dealer], -1)[0]
        return A.action(A.NAME, suit)
    if p == P_DISCARD or p == P_GIVEBACK:
        return min(legal, key=lambda a: _worth(h, A.arg_of(a)))
    if p == P_GIVE:
        return max(legal, key=lambda a: _worth(h, A.arg_of(a)))
    if p == P_DEFEND:
        return _PASS
    # Declarations and throw-ins: take them (the hand is weak anyway).
    return legal[0]


def _worth(h, c):
    # Value of keeping card c once trump is known: trumps above all.
    # (the trump tables are the rules', euchre.rules: a hand's are its own)
    r, t = h.rules, h.trump
    if r.eff[t][c] == t:
        return 100 + r.power[t][c]
    return r.power[t][c]


def _strength(r, cards, trump):
    # Rough tricks-worth of a hand with ``trump`` as trump: top trumps 3,
    # other trumps 2, off-suit aces 1.
    eff, pw = r.eff[trump], r.power[trump]
    top = 64 + len(r.trump_order(trump)) - 2
    v = 0
    for c in cards:
        if eff[c] == trump:
            v += 3 if pw[c] >= top else 2
        elif rank_of(c) == RA:
            v += 1
    return v


def _best_suit(h, cards, banned):
    best, value = 0, -1
    for s in range(4):
        if s != banned:
            v = _strength(h.rules, cards, s)
            if v > value:
                best, value = s, v
    return best, value


def _bid(h, legal):
    r = h.rules
    cards = h.play.hands[h.turn]
    need = (r.hand_size * 7) // 5
    if h.phase == P_BID1:
        if h.up_suit < 4:
            suit = h.up_suit
            value = _strength(r, cards + [h.upcard] if h.turn == h.dealer else cards, suit)
        else:
            suit, value = _best_suit(h, cards, -1)
    else:
        suit, value = _best_suit(h, cards, h.turned_down)
    want = [a for a in legal if A.kind_of(a) in (A.ORDER, A.CALL) and A.arg_of(a) in (suit, A.NOSUIT)]
    if not want or (value < need and _PASS in legal):
        return _PASS
    alone = [a for a in want if A.flag_of(a) == 1]
    # Alone with a very strong hand, or when the rules leave no other way
    # (Canadian loner).
    if alone and (value >= need + 4 or min([A.flag_of(a) for a in want]) == 1):
        return alone[0]
    return min(want, key=A.flag_of)


def _call_partner(h, legal):
    r = h.rules
    mine = h.play.hands[h.maker]
    if _strength(r, mine, h.trump) >= r.hand_size * 2 + 1:
        return A.ALONE
    # 000 strategy: ask for the highest trump not in your hand; where trumps
    # may not be named (001), an ace.
    wanted = [c for c in r.trump_order(h.trump) if c not in mine]
    wanted += [c for c in r.deck if rank_of(c) == RA and c not in mine]
    for c in wanted:
        a = A.action(A.PARTNER, c)
        if a in legal:
            return a
    return legal[-1]


def _play(h, legal):
    trump = h.trump
    eff, pw = h.rules.eff[trump], h.rules.power[trump]
    cards = [A.arg_of(a) for a in legal]
    if not h.play.trick:
        top = max(cards, key=lambda c: _worth(h, c))
        if h.side_of(h.turn) == h.side_of(h.maker) and eff[top] == trump:
            return A.action(A.PLAY, top)
        aces = [c for c in cards if rank_of(c) == RA and eff[c] != trump]
        if aces:
            return A.action(A.PLAY, aces[0])
        return A.action(A.PLAY, min(cards, key=lambda c: _worth(h, c)))
    p = h.play
    led, best, holder = p.led, p.best, p.best_seat
    if _friend(h, holder):
        return A.action(A.PLAY, min(cards, key=lambda c: _worth(h, c)))
    winners = [c for c in cards if _beats(c, best, led, eff, pw, trump)]
    pool = winners or cards
    return A.action(A.PLAY, min(pool, key=lambda c: _worth(h, c)))


def _beats(c, best, led, eff, pw, trump):
    e = eff[c]
    if e == trump:
        return eff[best] != trump or pw[c] > pw[best]
    return e == led and eff[best] != trump and pw[c] > pw[best]


def _friend(h, seat):
    # Is ``seat`` known to be on the current player's side?
    if h.rules.teams:
        return (seat - h.turn) % 2 == 0
    me = h.turn
    if me == h.maker:
        return seat == h.partner
    if me == h.partner:
        return seat == h.maker
    if not h.rules.call_partner:
        # Three-Handed: the two defenders against the maker.
        return seat != h.maker
    # A defender: friends with any seat that is not a known maker.
    return h.partner >= 0 and seat != h.maker and seat != h.partner
