# Card mode: the parts of a hand that need the real cards.
#
# A card-mode ``Hand`` uses the table-mode phase functions of
# ``euchre.hand`` with the overrides below: dealing, pre-bidding
# declarations decided from the cards, the dealer's pick-up and discard,
# partner's best, Five-Handed throw-ins and, above all, playing cards with
# must-follow checks. The device at a table never loads this module.

from euchre import actions as A
from euchre.cards import R2, R3, R9, R10, RJ, RQ, RK, RA, card_name, rank_of
from euchre import hand as H

_PASS = A.PASS


def deal(h, cards):
    # See ``Hand.deal``.
    r = h.rules
    dealt = bytes(cards)
    if len(dealt) != len(r.deck) or bytes(sorted(dealt)) != r.deck:
        raise H.IllegalAction("a deal must hold each card of the %d-card deck once" % len(r.deck))
    k = r.hand_size
    cl = list(dealt)
    h.hands = [cl[i:i + k] for i in range(0, h.n * k, k)]
    h.kitty = cl[h.n * k:]
    h.dealt = dealt
    h._legal = None
    h.events += 1
    h._set_upcard(h.kitty[0])


def deal_action(rules, cards):
    # Text of the ``deal`` action for cards in deal order.
    k, n = rules.hand_size, rules.num_players
    parts = [" ".join([card_name(c) for c in cards[i * k:(i + 1) * k]]) for i in range(n)]
    parts.append(" ".join([card_name(c) for c in cards[n * k:]]))
    return "deal " + "/".join(parts)


def shuffled_deck(rules, rand_below):
    # Fisher-Yates over the variant's deck with an injected ``rand_below(n)``.
    # MicroPython has no random.shuffle and another PRNG: log the deal,
    # never a seed.
    cards = bytearray(rules.deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rand_below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# ----- declarations before bidding (003 farmers and ace-no-face, 002 2s/3s)

def start_declarations(h):
    h.phase = H.P_DECLARE
    h.bids = 0
    _next_declarer(h)


def _next_declarer(h):
    # Ask only the seats whose cards allow a declaration, in bidding order.
    while h.bids < h.n:
        seat = (h.dealer + 1 + h.bids) % h.n
        if declarations(h, seat):
            h.turn = seat
            return
        h.bids += 1
    h._open_round(H.P_BID1)


def declarations(h, seat):
    # The pre-bidding declarations ``seat`` can make.
    r = h.rules
    cards = h.hands[seat]
    ranks = [rank_of(c) for c in cards]
    nines, tens = ranks.count(R9), ranks.count(R10)
    out = []
    if r.farmers and h.farmer < 0 and nines + (0 if r.farmers_nines_only else tens) >= 3:
        out.append(A.action(A.FARMERS, seat))
    if r.twos_and_threes and h.twos < 0 and ranks.count(R2) + ranks.count(R3) >= 3:
        out.append(A.action(A.TWOS, seat))
    if r.ace_no_face:
        if nines + tens == len(cards):
            out.append(A.action(A.NINETENS, seat))
        elif nines + tens == len(cards) - 1 and RA in ranks:
            out.append(A.action(A.ACENOFACE, seat))
    return out


def _exchange(h, seat, ranks, at):
    # Swap the seat's three lowest cards of ``ranks`` for three kitty cards
    # from index ``at``; then ask the next seat.
    cards = h.hands[seat]
    low = [c for r in ranks for c in cards if rank_of(c) == r][:3]
    kitty = h.kitty
    for i in range(3):
        cards.remove(low[i])
        cards.append(kitty[at + i])
        kitty[at + i] = low[i]
    h.bids += 1
    _next_declarer(h)


def _do_farmers(h, seat, flag):
    # 003: three 9s/10s for the three kitty cards under the upcard.
    h.farmer = seat
    _exchange(h, seat, (R9,) if h.rules.farmers_nines_only else (R9, R10), 1)


def _do_twos(h, seat, flag):
    # 002: three 2s/3s for the bottom three kitty cards.
    h.twos = seat
    _exchange(h, seat, (R2, R3), len(h.kitty) - 3)


# ----- after trump is made -------------------------------------------------

def pick_up(h, steps):
    # The dealer takes the upcard if it was ordered (or a two was turned);
    # a dealer sitting out does not discard.
    if h.picked_up:
        h.hands[h.dealer].append(h.upcard)
        h.kitty.pop(0)
    if not h.picked_up or h.out[h.dealer]:
        steps.remove(H.P_DISCARD)
    if H.P_GIVE in steps and h.alone != 2:
        steps.remove(H.P_GIVE)
    if h.rules.throw_in:
        steps.append(H.P_THROWIN)


def start_throwin(h):
    h.turn = (h.dealer + 1) % h.n
    _next_thrower(h)


def _next_thrower(h):
    while h.bids < h.n:
        if _may_throw_in(h, h.turn):
            return
        h.bids += 1
        h.turn = (h.turn + 1) % h.n
    h._next_step()


def _may_throw_in(h, seat):
    # 000: "no Aces, face cards or trump".
    for c in h.hands[seat]:
        if h._eff[c] == h.trump or rank_of(c) in (RA, RK, RQ, RJ):
            return False
    return True


def _do_pass(h, arg, flag):
    # Card mode also asks seats in turn to declare, defend alone or throw in.
    p = h.phase
    if p == H.P_BID1 or p == H.P_BID2:
        h._next_bidder()
        return
    h.bids += 1
    if p == H.P_DECLARE:
        _next_declarer(h)
    elif p == H.P_DEFEND:
        h.turn = (h.turn + 2) % 4
        if h.bids >= 2:
            h._next_step()
    else:
        h.turn = (h.turn + 1) % h.n
        _next_thrower(h)


def _do_discard(h, card, flag):
    h.hands[h.dealer].remove(card)
    h.kitty.append(card)
    h._next_step()


def _do_give(h, card, flag):
    # 003 partner's best: the partner gives a card, the maker gives one back.
    partner = (h.maker + 2) % 4
    if h.phase == H.P_GIVE:
        h.hands[partner].remove(card)
        h.hands[h.maker].append(card)
        h.phase = H.P_GIVEBACK
    else:
        h.hands[h.maker].remove(card)
        h.hands[partner].append(card)
        h._next_step()


# ----- playing cards ---------------------------------------------------------

def _legal_play(h):
    hand = h.hands[h.turn]
    if h.trick:
        # Follow the effective suit led if able (the left bower and permanent
        # trumps belong to trump).
        eff, led = h._eff, h.led
        follow = [c << 5 for c in hand if eff[c] == led]
        if follow:
            return follow
    return [c << 5 for c in hand]


def _do_play(h, card, flag):
    seat = h.turn
    h.hands[seat].remove(card)
    h.played.append(card)
    h.played_by.append(seat)
    if card == h.partner_card and h.partner < 0:
        h.partner = A.NOBODY if seat == h.maker else seat
    trick = h.trick
    if trick:
        # The highest trump wins, else the highest card of the suit led.
        eff, pw, trump, best = h._eff, h._pow, h.trump, h.best
        e = eff[card]
        if e == trump:
            if eff[best] != trump or pw[card] > pw[best]:
                h.best, h.best_seat = card, seat
        elif e == h.led and eff[best] != trump and pw[card] > pw[best]:
            h.best, h.best_seat = card, seat
    else:
        h.best, h.best_seat, h.led = card, seat, h._eff[card]
    trick.append(card)
    h.trick_seats.append(seat)
    if len(trick) < h._active:
        seat = (seat + 1) % h.n
        while h.out[seat]:
            seat = (seat + 1) % h.n
        h.turn = seat
        return
    h.trick = []
    h.trick_seats = []
    h._trick_won(h.best_seat)


# ----- dispatch tables: table mode's, with the card-mode overrides ---------

def _cards_of(kind, seat_of):
    def legal(h):
        return [A.action(kind, c) for c in h.hands[seat_of(h)]]
    return legal


def _legal_turn(h):
    # Chance: any card of the dealer's hand but a permanent trump (000:
    # "turn another if it is one").
    perm = h.rules.permanent
    return [A.action(A.TURN, c, A.TURN_CARD) for c in h.hands[h.dealer] if c not in perm]


LEGAL = list(H._LEGAL)
LEGAL[H.P_DECLARE] = lambda h: declarations(h, h.turn) + [_PASS]
LEGAL[H.P_TURN] = _legal_turn
LEGAL[H.P_DEFEND] = lambda h: [A.action(A.DEFEND, h.turn), _PASS]
LEGAL[H.P_DISCARD] = _cards_of(A.DISCARD, lambda h: h.dealer)
LEGAL[H.P_GIVE] = _cards_of(A.GIVE, lambda h: (h.maker + 2) % 4)
LEGAL[H.P_GIVEBACK] = _cards_of(A.GIVE, lambda h: h.maker)
LEGAL[H.P_THROWIN] = lambda h: [A.action(A.THROWIN, h.turn), _PASS]
LEGAL[H.P_PLAY] = _legal_play
LEGAL = tuple(LEGAL)

APPLY = list(H._APPLY)
APPLY[A.PLAY] = _do_play
APPLY[A.PASS] = _do_pass
APPLY[A.DISCARD] = _do_discard
APPLY[A.GIVE] = _do_give
APPLY[A.FARMERS] = _do_farmers
APPLY[A.TWOS] = _do_twos
APPLY = tuple(APPLY)
