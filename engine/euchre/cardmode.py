# Card mode: the parts of a hand that need the real cards.
#
# A card-mode ``Hand`` holds a ``Play`` (``h.play``): each seat's cards, the
# kitty, the trick in progress and every card played, owned here. The hand
# takes its legal actions from ``Play.legal`` and applies actions through
# ``Play.apply``: dealing, pre-bidding declarations decided from the cards,
# the dealer's pick-up and discard, partner's best, Five-Handed throw-ins
# and, above all, playing cards with must-follow checks; everything else
# goes back to table mode through the two functions the hand gave its Play
# (table mode's legal ids and apply). What the hand's flow needs from here
# it calls (``deal``, ``declare``, ``pick_up``, ``start_throwin``,
# ``start_play``); what this module needs of the hand is its public state
# and methods. ``euchre.hand`` loads this module for its first card-mode
# hand; this module does not import it back (the phases come from
# ``euchre.phases``). The device at a table never loads it.
#
# Card play is every simulation's hot path, so it is written for speed: the
# next seat's legal plays are worked out as soon as a card is played (and
# returned to the hand as its legal ids), each seat's next active seat is a
# table, and the bidding lists are built once per rule set.

from euchre.actions import (action, kind_of, arg_of, PLAY, PASS, TURN, DEFEND, WON,
                            DISCARD, GIVE, THROWIN, FARMERS, TWOS, ACENOFACE,
                            NINETENS, NOBODY, TURN_CARD, IllegalAction)
from euchre.cards import NO_SUIT, HIGH_JOKER, NUM_CARDS, RJ, card_name
from euchre.phases import (P_DEAL, P_DECLARE, P_MAKER, P_TURN, P_BID1, P_BID2, P_DEFEND,
                           P_DISCARD, P_GIVE, P_GIVEBACK, P_THROWIN, P_PLAY)


# Rank indices (see euchre.cards) the declarations and throw-ins look at.
R2, R3, R9, R10, RQ, RK, RA = 0, 1, 7, 8, 10, 11, 12

# The action id of playing each card (``_PLAY[card]``): built once, so the
# hot path indexes a tuple (no call; the device never loads card mode).
_PLAY = tuple([action(PLAY, c) for c in range(NUM_CARDS)])
# (and of "won S", table mode's: a trick's end)
_WON = tuple([action(WON, s) for s in range(6)])


def rank_of(card):
    """Rank index 0..12 (2..A), or -1 for a joker."""
    return card % 13 if card < HIGH_JOKER else -1


def deal_action(rules, cards):
    """Text of the ``deal`` action for cards in deal order."""
    k, n = rules.hand_size, rules.num_players
    parts = [" ".join([card_name(c) for c in cards[i * k:(i + 1) * k]]) for i in range(n)]
    parts.append(" ".join([card_name(c) for c in cards[n * k:]]))
    return "deal " + "/".join(parts)


def shuffled_deck(rules, rand_below):
    """Fisher-Yates over the variant's deck with an injected ``rand_below(n)``.
    MicroPython has no random.shuffle and another PRNG: log the deal,
    never a seed.
    """
    cards = list(rules.deck)  # (a list swaps faster than a bytearray)
    for i in range(len(cards) - 1, 0, -1):
        j = rand_below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return bytearray(cards)


# ----- the cards of a hand ---------------------------------------------------

class Play:
    """A card-mode hand's cards and card play (``Hand.play``)."""

    def __init__(self, table_legal, table_apply):
        """``hands`` (each seat's cards), ``kitty`` (the upcard first),
        ``dealt`` (the deal), ``trick`` (the cards of the trick in progress),
        ``played`` (every card played, in order; ``played_by`` says by
        whom), ``first_lead`` (the seat that led the first trick), and of
        the trick in progress ``led`` (the effective suit led) and the card
        winning it so far, ``best``, played by ``best_seat``.
        ``table_legal(h)`` and ``table_apply(h, a)`` are table mode's, for
        what needs no cards.
        """
        self.hands = self.kitty = self.dealt = self.eff = self.vals = self.val = self.nxt = None
        self.trick = []
        self.played = []
        self.first_lead = self.led = self.best = self.best_seat = -1
        self.table_legal = table_legal
        self.table_apply = table_apply

    def __eq__(self, other):
        # (the same cards in the same places: a copied hand's state compares)
        return type(other) is Play and self.__dict__ == other.__dict__

    def deal(self, h, cards):
        """Check and hold a deal (see ``Hand.deal``); returns the upcard."""
        if h.phase != P_DEAL:
            raise IllegalAction("no deal now: the cards are dealt")
        try:
            cards = list(cards)
            dealt = bytes(cards)
        except (TypeError, ValueError, OverflowError):
            dealt = b""  # (not card ids: refused below)
        t = _tables(h.rules)
        if list(dealt) != cards or sorted(dealt) != t[2]:
            raise IllegalAction("a deal must hold each card of the %d-card deck once" % len(t[2]))
        order = list(dealt)
        self.hands = hands = []
        for i, j in t[3]:
            hands.append(order[i:j])
        self.kitty = hands.pop()
        self.dealt = dealt
        return self.kitty[0]

    def legal(self, h):
        """Legal action ids of the hand (``Hand.legal_ids``)."""
        p = h.phase
        hands = self.hands
        if p == P_PLAY:
            return _plays(self, hands[h.turn])
        if p == P_BID1 or p == P_BID2:
            return _bids(self, h)
        if p == P_DISCARD:
            out = []
            for c in hands[h.dealer]:
                out.append(action(DISCARD, c))
            return out
        if p == P_GIVE or p == P_GIVEBACK:
            return [action(GIVE, c) for c in hands[h.current_player()]]
        if p == P_DECLARE:
            return declarations(h, h.turn) + [PASS]
        if p == P_DEFEND or p == P_THROWIN:
            return [action(DEFEND if p == P_DEFEND else THROWIN, h.turn), PASS]
        if p == P_TURN:
            # Chance: any card of the dealer's hand but a permanent trump (000:
            # "turn another if it is one").
            perm = h.rules.permanent
            return [action(TURN, c, TURN_CARD) for c in hands[h.dealer] if c not in perm]
        return self.table_legal(h)

    def apply(self, h, a):
        """Apply a legal action id (``Hand.apply_id`` and ``apply_legal`` have
        checked it and counted the event); returns the next legal ids when
        they are known already (after a card played), else None. Playing a
        card is every simulation's hot path, so it is written out here
        rather than called.
        """
        kind = kind_of(a)
        if kind:
            _APPLY[kind](self, h, a)
            return None
        # Play a card (action kind PLAY, 0).
        card = arg_of(a)
        seat = h.turn
        self.hands[seat].remove(card)
        self.played.append(card)
        if card == h.partner_card and h.partner < 0:
            h.partner = NOBODY if seat == h.maker else seat
        trick = self.trick
        if trick:
            # The highest value wins: see _tables.
            val = self.val
            if val[card] > val[self.best]:
                self.best = card
                self.best_seat = seat
        else:
            self.led = led = self.eff[card]
            self.val = self.vals[led]
            self.best = card
            self.best_seat = seat
        trick.append(card)
        seat = self.nxt[seat]
        if seat == h.leader:
            # The trick is over: table mode's "won S" books it, and its
            # winner leads the next one (or play ends).
            self.trick = []
            self.table_apply(h, _WON[self.best_seat])
            return None
        # The next seat's legal plays, right away: follow the effective suit
        # led if able (the left bower and permanent trumps belong to trump).
        h.turn = seat
        hand = self.hands[seat]
        eff, led = self.eff, self.led
        out = []
        for c in hand:
            if eff[c] == led:
                out.append(_PLAY[c])
        if not out:
            # (explicit loops: on CPython 3.11 a comprehension is a function call)
            for c in hand:
                out.append(_PLAY[c])
        return out

    def declare(self, h):
        """Open the declarations before the first bid (farmers and ace no
        face, seeds 003; twos and threes, 002): the seats whose cards allow
        one are asked in bidding order."""
        h.phase = P_DECLARE
        h.bids = 0
        _next_declarer(h)

    def pick_up(self, h):
        """Once trump is made: the trump tables, and the dealer takes the
        upcard if it was ordered (or a two was turned); returns the steps
        between trump and play (a dealer sitting out does not discard).
        """
        r = h.rules
        self.eff, _, self.vals = _tables(r)[0][h.trump]
        discard = h.picked_up and not h.out[h.dealer]
        if h.picked_up:
            self.hands[h.dealer].append(h.upcard)
            self.kitty.pop(0)
        if r.call_partner:
            steps = [P_DISCARD, P_MAKER] if r.discard_before_call or h.turned else [P_MAKER, P_DISCARD]
            if not discard:
                steps.remove(P_DISCARD)
        else:
            steps = [P_DEFEND] if r.defend_alone else []
            if discard:
                steps.append(P_DISCARD)
            if h.alone == 2:
                steps.append(P_GIVE)  # 003: partner's best
        if r.throw_in:
            steps.append(P_THROWIN)
        return steps

    def start_throwin(self, h):
        """Five-Handed, once trump is made: ask the seats from the dealer's
        left whether to throw the hand in (no ace, face card or trump: seed
        000)."""
        h.turn = (h.dealer + 1) % h.n
        _next_thrower(self, h)

    def start_play(self, h):
        """Called once the leader is known: each seat's next active seat."""
        n, out = h.n, h.out
        nxt = h.rules.bid_orders[0]  # (s + 1) % n for each seat s
        if any(out):
            nxt = bytearray(n)
            for s in range(n):
                t = (s + 1) % n
                while out[t]:
                    t = (t + 1) % n
                nxt[s] = t
        self.nxt = nxt
        self.first_lead = h.turn


def _tables(r):
    # What card mode builds once per Rules (and keeps on it): the trump
    # tables as tuples (CPython indexes a tuple faster than bytes), the
    # bidding lists, which depend on a few facts only, the deck as a list
    # and where each seat's hand and the kitty lie in a deal (MicroPython
    # cannot make slice objects).
    try:
        return r._card
    except AttributeError:
        k, end = r.hand_size, r.hand_size * r.num_players
        deal = []
        for i in range(0, end, k):
            deal.append((i, i + k))
        deal.append((end, len(r.deck)))
        t = r._card = ([_trump_tables(r, i) for i in range(4)], [None] * 14, list(r.deck), tuple(deal))
        return t


def _trump_tables(r, trump):
    # eff and power as tuples, and for each effective suit led (0..4) the
    # value of every card in such a trick: trumps 64 and up (their power),
    # cards of the suit led their rank + 1, any other card 0. The highest
    # value takes the trick.
    eff, power = tuple(r.eff[trump]), tuple(r.power[trump])
    vals = []
    for led in range(5):
        vals.append(tuple([power[c] if eff[c] == trump else
                           power[c] + 1 if eff[c] == led else 0 for c in range(len(eff))]))
    return eff, power, tuple(vals)


def _bids(p, h):
    # Table mode's bidding list (without "redeal"), kept per rule set by
    # what it depends on: round 1, whether a joker is up and whether the
    # bidder may bid with partner (Canadian loner, the hand's ``ways``);
    # round 2, the turned-down suit and whether the dealer is stuck.
    r = h.rules
    if h.phase == P_BID1:
        key = (h.up_suit == NO_SUIT) * 2 + (0 not in h.ways())
    else:
        key = 4 + h.turned_down * 2 + h.must_call()
    cache = _tables(r)[1]
    t = cache[key]
    if t is None:
        t = cache[key] = tuple(p.table_legal(h))
    return list(t)


def _plays(p, hand):
    # Follow the effective suit led if able (the left bower and permanent
    # trumps belong to trump).
    if p.trick:
        eff, led = p.eff, p.led
        out = [_PLAY[c] for c in hand if eff[c] == led]
        if out:
            return out
    return [_PLAY[c] for c in hand]


def played_by(h):
    """The seat that played each card of ``h.play.played``: every trick
    goes round the seats in play from its leader, the previous trick's
    winner.
    """
    out = []
    p = h.play
    played = p.played
    if not played:
        return out
    nxt, k, seat = p.nxt, h.n - sum(h.out), p.first_lead
    for i in range(0, len(played), k):
        val = p.vals[p.eff[played[i]]]
        best = win = -1
        for c in played[i:i + k]:
            out.append(seat)
            if val[c] > best:
                best, win = val[c], seat
            seat = nxt[seat]
        seat = win
    return out


# ----- declarations before bidding (003 farmers and ace-no-face, 002 2s/3s)

def _next_declarer(h):
    # Ask only the seats whose cards allow a declaration, in bidding order;
    # then the bidding opens.
    while h.bids < h.n:
        seat = (h.dealer + 1 + h.bids) % h.n
        if declarations(h, seat):
            h.turn = seat
            return
        h.bids += 1
    h.open_round(P_BID1)


def declarations(h, seat):
    """The pre-bidding declarations ``seat`` can make."""
    r = h.rules
    cards = h.play.hands[seat]
    ranks = [rank_of(c) for c in cards]
    nines, tens = ranks.count(R9), ranks.count(R10)
    out = []
    # (whether each is open is the hand's rule, ``may_declare``; the cards
    # decide the rest)
    if h.may_declare(FARMERS) and nines + (0 if r.farmers_nines_only else tens) >= 3:
        out.append(action(FARMERS, seat))
    if h.may_declare(TWOS) and ranks.count(R2) + ranks.count(R3) >= 3:
        out.append(action(TWOS, seat))
    if h.may_declare(ACENOFACE):
        if nines + tens == len(cards):
            out.append(action(NINETENS, seat))
        elif nines + tens == len(cards) - 1 and RA in ranks:
            out.append(action(ACENOFACE, seat))
    return out


def _exchange(p, h, seat, ranks, at):
    # Swap the seat's three lowest cards of ``ranks`` for three kitty cards
    # from index ``at``; then ask the next seat.
    cards = p.hands[seat]
    low = [c for r in ranks for c in cards if rank_of(c) == r][:3]
    kitty = p.kitty
    for i in range(3):
        cards.remove(low[i])
        cards.append(kitty[at + i])
        kitty[at + i] = low[i]
    h.bids += 1
    _next_declarer(h)


def _do_farmers(p, h, a):
    # 003: three 9s/10s for the three kitty cards under the upcard.
    h.farmer = seat = arg_of(a)
    _exchange(p, h, seat, (R9,) if h.rules.farmers_nines_only else (R9, R10), 1)


def _do_twos(p, h, a):
    # 002: three 2s/3s for the bottom three kitty cards.
    h.twos = seat = arg_of(a)
    _exchange(p, h, seat, (R2, R3), len(p.kitty) - 3)


# ----- after trump is made -------------------------------------------------

def _next_thrower(p, h):
    while h.bids < h.n:
        if _may_throw_in(p, h, h.turn):
            return
        h.bids += 1
        h.turn = (h.turn + 1) % h.n
    h.next_step()


def _may_throw_in(p, h, seat):
    # 000: "no Aces, face cards or trump".
    eff = p.eff
    for c in p.hands[seat]:
        if eff[c] == h.trump or rank_of(c) in (RA, RK, RQ, RJ):
            return False
    return True


def _do_pass(p, h, a):
    # Card mode also asks seats in turn to declare, defend alone or throw in.
    ph = h.phase
    if ph == P_BID1 or ph == P_BID2:
        p.table_apply(h, a)
        return
    h.bids += 1
    if ph == P_DECLARE:
        _next_declarer(h)
    elif ph == P_DEFEND:
        h.turn = (h.turn + 2) % 4
        if h.bids >= 2:
            h.next_step()
    else:
        h.turn = (h.turn + 1) % h.n
        _next_thrower(p, h)


def _do_discard(p, h, a):
    card = arg_of(a)
    p.hands[h.dealer].remove(card)
    p.kitty.append(card)
    h.next_step()


def _do_give(p, h, a):
    # 003 partner's best: the partner gives a card, the maker gives one back.
    card = arg_of(a)
    partner = (h.maker + 2) % 4
    hands = p.hands
    if h.phase == P_GIVE:
        hands[partner].remove(card)
        hands[h.maker].append(card)
        h.phase = P_GIVEBACK
    else:
        hands[h.maker].remove(card)
        hands[partner].append(card)
        h.next_step()


def _table(p, h, a):
    # Bidding and the other kinds that need no cards: table mode's.
    p.table_apply(h, a)


# How each action kind is applied (PLAY, 0, is ``Play.apply``'s own): card
# mode's kinds here, the rest table mode's.
_APPLY = [_table] * 25
_APPLY[PASS] = _do_pass
_APPLY[DISCARD] = _do_discard
_APPLY[GIVE] = _do_give
_APPLY[FARMERS] = _do_farmers
_APPLY[TWOS] = _do_twos
_APPLY = tuple(_APPLY)
