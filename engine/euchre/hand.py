"""One hand of any variant, as a state machine with two granularities.

*Table mode* (the device at a real table) never sees the cards: it takes the
upcard's suit, each bid, who took each trick. *Card mode* (simulation) deals
real cards and checks every play. A hand starts in table mode with ``up S``
or in card mode with a ``deal`` chance action; the rest of the machine is
shared. The interface follows OpenSpiel's game state::

    h = Hand(Rules("classic"), dealer=0, cards=True)
    h.apply_action(random_deal_action(h.rules, rand_below))
    while not h.is_terminal():
        h.apply_action(h.legal_actions()[0])
    h.returns()              # points per seat

``current_player()`` is a seat, ``CHANCE`` (a deal or a turned card) or
``TABLE`` (table-mode input any seat may report, e.g. ``won 2``). Illegal
actions raise ``IllegalAction`` naming the rule and change nothing.
"""

from euchre import actions as A
from euchre.scoring import score_hand
from euchre.cards import (NO_SUIT, RA, R9, R10, RJ, RQ, RK, R2, R3,
                          SUIT_NAMES, card_name, rank_of)

CHANCE = -1
TABLE = -2
TERMINAL = -3

# Phases.
P_DEAL, P_UP, P_DECLARE, P_NAME, P_TURN, P_BID1, P_BID2, P_DEFEND, P_MAKER, \
    P_DISCARD, P_GIVE, P_GIVEBACK, P_THROWIN, P_PLAY, P_REVEAL, P_DONE = range(16)

PHASE_NAMES = ("deal", "upcard", "declare", "name", "turn", "bid1", "bid2",
               "defend", "maker", "discard", "give", "giveback", "throwin",
               "play", "reveal", "done")

# How a hand ended.
SCORED = 0
THROWN_IN = 1    # nothing scores, the deal passes left
REDEAL = 2       # nothing scores, the same dealer deals again

_NOBODY = A.NOBODY
_PASS = A.PASS


class IllegalAction(ValueError):
    """An input the rules do not allow now; the message names the rule."""


class Hand:
    """State of one hand. See the module docstring."""

    # Fields most hands never change live on the class (cheap to create).
    upcard = -1         # card id (card mode, or a two/joker up)
    up_suit = NO_SUIT   # suit the bidding is about
    turned_down = NO_SUIT
    trump = NO_SUIT
    maker = -1
    alone = 0           # 1 alone, 2 alone with partner's best
    partner = -1        # calling variants: seat, NOBODY, or -1 unknown yet
    partner_card = -1
    lone_defender = -1
    picked_up = False
    turned = False      # Five-Handed: the dealer turned a card
    farmer = -1
    twos = -1
    renege = -1
    declarer = -1       # seat that threw in / claimed / declared a redeal
    tricks_played = 0
    bids = 0            # bids made in the current round
    leader = -1
    hands = None        # card mode: each seat's cards
    kitty = None        # card mode: the kitty, upcard first
    dealt = None        # card mode: the deal as dealt
    result = -1         # SCORED, THROWN_IN or REDEAL once over
    points = None
    reason = ""
    events = 0          # accepted actions
    _legal = None

    def __init__(self, rules, dealer=0, cards=False):
        self.rules = r = rules
        self.n = n = r.num_players
        self.dealer = dealer
        self.cards = cards
        self.phase = P_DEAL if cards else P_UP
        self.turn = dealer
        self.out = bytearray(n)
        self.tricks = bytearray(n)
        self.trick = []         # cards of the trick in progress
        self.trick_seats = []
        self.played = bytearray()       # every card played, in order
        self.played_by = bytearray()
        self._active = n
        self._eff = r.eff[4]
        self._pow = r.power[4]
        self._bidders = r.bid_orders[dealer]

    # ----- the state API -------------------------------------------------

    def current_player(self):
        """Seat to act, or CHANCE, TABLE or TERMINAL."""
        p = self.phase
        if p == P_DONE:
            return TERMINAL
        if p == P_DEAL or p == P_TURN:
            return CHANCE
        if p == P_REVEAL or (not self.cards and p in (P_PLAY, P_DEFEND)):
            return TABLE
        if p == P_UP or p == P_NAME or p == P_DISCARD:
            return self.dealer
        if p == P_MAKER or p == P_GIVEBACK:
            return self.maker
        if p == P_GIVE:
            return (self.maker + 2) % self.n
        return self.turn

    def is_terminal(self):
        """True once the hand is scored or void."""
        return self.phase == P_DONE

    def returns(self):
        """Points per seat (all zero until the hand is over or if void)."""
        return list(self.points) if self.points else [0] * self.n

    def legal_ids(self):
        """Legal action ids now (chance nodes: empty, use a deal helper)."""
        if self._legal is None:
            self._legal = _LEGAL[self.phase](self)
        return self._legal

    def legal_actions(self):
        """Legal actions now, in text notation."""
        return [A.action_name(a) for a in self.legal_ids()]

    def apply_action(self, text):
        """Apply one action in text notation.

        :raises IllegalAction: naming the broken rule; the state is unchanged.
        """
        try:
            a, cards = A.parse_action(text)
        except ValueError as e:
            raise IllegalAction(str(e))
        if a == A.DEAL:
            self.deal(cards)
        else:
            self.apply_id(a)

    def apply_id(self, a):
        """Apply an action id; like ``apply_action``."""
        if a not in self.legal_ids():
            raise IllegalAction(self._why(a))
        self._legal = None
        self.events += 1
        _APPLY[a & 31](self, (a >> 5) & 63, a >> 11)

    def apply_legal(self, i):
        """Apply ``legal_ids()[i]`` (for bots and simulations: no re-check).
        Returns the action id applied."""
        a = self.legal_ids()[i]
        self._legal = None
        self.events += 1
        _APPLY[a & 31](self, (a >> 5) & 63, a >> 11)
        return a

    def deal(self, cards):
        """Chance: deal ``cards`` (every seat's hand in seat order, then the
        kitty with the upcard first).

        :raises IllegalAction: if not a permutation of the variant's deck or
            not the time to deal.
        """
        r = self.rules
        if self.phase != P_DEAL:
            raise IllegalAction("no deal now: " + ("this hand is in table mode" if not self.cards else "the cards are dealt"))
        dealt = bytes(cards)
        if len(dealt) != len(r.deck) or bytes(sorted(dealt)) != r.deck:
            raise IllegalAction("a deal must hold each card of the %d-card deck once" % len(r.deck))
        k = r.hand_size
        cl = list(dealt)
        self.hands = [cl[i:i + k] for i in range(0, self.n * k, k)]
        self.kitty = cl[self.n * k:]
        self.dealt = dealt
        self._legal = None
        self.events += 1
        self._set_upcard(self.kitty[0])

    def deal_text(self):
        """The ``deal`` action of this card-mode hand, for logs."""
        return deal_action(self.rules, self.dealt)

    # ----- flow helpers --------------------------------------------------

    def _set_upcard(self, card):
        r = self.rules
        self.upcard = card
        if card >= 0 and r.is_permanent(card):
            self.up_suit = NO_SUIT
            if r.perm_upcard == "orderer_names":
                self._start_bidding()
            else:
                self.phase = P_NAME
        else:
            self.up_suit = card // 13 if card >= 0 else self.up_suit
            self._start_bidding()

    def _start_bidding(self):
        if self.cards and _declarations_possible(self.rules):
            self.phase = P_DECLARE
            self.turn = self._bidders[0]
            self.bids = 0
            self._skip_undeclaring()
        else:
            self._open_round(P_BID1)

    def _skip_undeclaring(self):
        while self.bids < self.n:
            seat = (self.dealer + 1 + self.bids) % self.n
            if self._declarations(seat):
                self.turn = seat
                return
            self.bids += 1
        self._open_round(P_BID1)

    def _declarations(self, seat):
        """Card mode: the pre-bidding declarations seat can make."""
        r = self.rules
        h = self.hands[seat]
        ranks = [rank_of(c) for c in h]
        out = []
        if r.farmers and self.farmer < 0:
            low = ranks.count(R9) + (0 if r.farmers_nines_only else ranks.count(R10))
            if low >= 3:
                out.append(A.action(A.FARMERS, seat))
        if r.twos_and_threes and self.twos < 0:
            if ranks.count(R2) + ranks.count(R3) >= 3:
                out.append(A.action(A.TWOS, seat))
        if r.ace_no_face:
            nt = ranks.count(R9) + ranks.count(R10)
            if nt == len(h):
                out.append(A.action(A.NINETENS, seat))
            elif nt == len(h) - 1 and ranks.count(RA) == 1:
                out.append(A.action(A.ACENOFACE, seat))
        return out

    def _open_round(self, phase):
        self.phase = phase
        self.bids = 0
        if self.farmer >= 0 and self.rules.farmers_no_call:
            self._bidders = _bid_order(self.dealer, self.n, self.farmer)
        else:
            self._bidders = self.rules.bid_orders[self.dealer]
        if not self._bidders:
            self._void(THROWN_IN, "nobody may bid")
            return
        self.turn = self._bidders[0]

    def _next_bidder(self):
        self.bids += 1
        if self.bids < len(self._bidders):
            self.turn = self._bidders[self.bids]
            return
        if self.phase == P_BID1:
            # 004: the turned-down suit may not be named in round 2. With a
            # joker up in Ultimate no suit was offered, so none is excluded.
            self.turned_down = self.up_suit
            self._open_round(P_BID2)
        else:
            # Only reached when the dealer may pass (no stick the dealer) or
            # sits out of the bidding as a farmer (003).
            self._void(THROWN_IN, "all passed")

    def _make_trump(self, seat, trump, flag, picked_up):
        r = self.rules
        self.maker = seat
        self.trump = trump
        self.alone = flag
        self.picked_up = picked_up
        self._eff = r.eff[trump]
        self._pow = r.power[trump]
        if flag and r.teams:
            self.out[(seat + 2) % 4] = 1
        if picked_up and self.cards:
            self.hands[self.dealer].append(self.upcard)
            self.kitty.pop(0)
        steps = []
        dealer_discards = self.cards and picked_up and not self.out[self.dealer]
        if r.call_partner:
            if r.discard_before_call or self.turned:
                steps = [P_DISCARD, P_MAKER]
            else:
                steps = [P_MAKER, P_DISCARD]
        else:
            steps = [P_DEFEND, P_DISCARD, P_GIVE]
        if not dealer_discards:
            steps.remove(P_DISCARD)
        if P_DEFEND in steps and not r.defend_alone:
            steps.remove(P_DEFEND)
        if P_GIVE in steps and not (self.cards and flag == 2):
            steps.remove(P_GIVE)
        if self.cards and r.throw_in:
            steps.append(P_THROWIN)
        steps.append(P_PLAY)
        self._steps = steps
        self._next_step()

    def _next_step(self):
        p = self._steps.pop(0)
        self.phase = p
        self.bids = 0
        if p == P_DEFEND:
            self.turn = (self.maker + 1) % 4
        elif p == P_THROWIN:
            self.turn = (self.dealer + 1) % self.n
            self._skip_no_throwin()
        elif p == P_PLAY:
            self._start_play()

    def _skip_no_throwin(self):
        while self.bids < self.n:
            if self._may_throw_in(self.turn):
                return
            self.bids += 1
            self.turn = (self.turn + 1) % self.n
        self._next_step()

    def _may_throw_in(self, seat):
        # 000: "no Aces, face cards or trump".
        for c in self.hands[seat]:
            if self._eff[c] == self.trump or rank_of(c) in (RA, RK, RQ, RJ):
                return False
        return True

    def _start_play(self):
        n, out = self.n, self.out
        r = self.rules
        if self.lone_defender >= 0 and self.alone:
            lead = self.lone_defender  # 004: the lone defender leads
        elif self.alone and r.loner_lead == "LEFT_OF_LONER":
            lead = (self.maker + 1) % n
        else:
            lead = (self.dealer + 1) % n
            while out[lead]:
                lead = (lead + 1) % n
        self.leader = self.turn = lead
        self._active = n - sum(out)

    def _next_active(self, seat):
        seat = (seat + 1) % self.n
        while self.out[seat]:
            seat = (seat + 1) % self.n
        return seat

    def active_seats(self):
        """Seats playing this hand (not sitting out)."""
        return [s for s in range(self.n) if not self.out[s]]

    def _trick_won(self, winner):
        self.tricks[winner] += 1
        self.tricks_played += 1
        self.leader = self.turn = winner
        if self.tricks_played >= self.rules.hand_size:
            self._end_play()

    def _end_play(self):
        r = self.rules
        if r.call_partner and self.partner < 0:
            if self.alone or self.cards:
                self.partner = _NOBODY  # never played: no partner (000, 001)
            else:
                self.phase = P_REVEAL
                return
        self._score()

    def _score(self):
        self.points, self.reason = score_hand(self)
        self.result = SCORED
        self.phase = P_DONE

    def _void(self, result, reason):
        self.result = result
        self.reason = reason
        self.points = [0] * self.n
        self.phase = P_DONE

    def side_of(self, seat):
        """Partnerships: 0 or 1; calling variants: 1 for the makers, 0 for
        defenders (once the partner is known)."""
        if self.rules.teams:
            return seat & 1
        return 1 if seat == self.maker or seat == self.partner else 0

    def maker_tricks(self):
        """Tricks taken by the makers' side."""
        if self.rules.teams:
            return self.tricks[self.maker] + self.tricks[(self.maker + 2) % 4]
        t = self.tricks[self.maker]
        if 0 <= self.partner < self.n:
            t += self.tricks[self.partner]
        return t

    # ----- why an action is illegal ---------------------------------------

    def _why(self, a):
        kind, arg, flag = a & 31, (a >> 5) & 63, a >> 11
        p = self.phase
        legal = self.legal_actions()
        msg = _explain(self, p, kind, arg, flag)
        if msg is None:
            who = self.current_player()
            whose = {CHANCE: "a chance event", TABLE: "a table input", TERMINAL: "nothing (the hand is over)"}.get(who, "seat %d" % who)
            msg = "%s is not legal now (%s, waiting for %s)" % (A.action_name(a), PHASE_NAMES[p], whose)
        if legal:
            msg += "; legal: " + ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        return msg

    def __repr__(self):
        return "<Hand %s dealer=%d phase=%s>" % (self.rules.name, self.dealer, PHASE_NAMES[self.phase])


def _bid_order(dealer, n, skip):
    return tuple([s for s in [(dealer + 1 + i) % n for i in range(n)] if s != skip])


def _declarations_possible(r):
    return r.farmers or r.twos_and_threes or r.ace_no_face


def _explain(h, p, kind, arg, flag):
    r = h.rules
    if p == P_DONE:
        return "the hand is over"
    if kind == A.PLAY and p == P_PLAY and h.cards:
        seat = h.turn
        if arg not in h.hands[seat]:
            return "seat %d does not hold %s" % (seat, card_name(arg))
        led = h._eff[h.trick[0]]
        return "seat %d must follow %s" % (seat, SUIT_NAMES[led] if led < 4 else "the suit led")
    if kind == A.PASS and p == P_BID2 and h.turn == h.dealer and r.std:
        return "stick the dealer: seat %d (dealer) must name trump" % h.dealer
    if kind == A.CALL and p == P_BID2 and arg == h.turned_down:
        return "%s was turned down: it cannot be named in round 2" % SUIT_NAMES[arg]
    if kind in (A.ORDER, A.CALL) and flag and not r.alone:
        return "going alone is not allowed in %s" % r.title
    if kind in (A.ORDER, A.CALL) and flag == 2 and not r.partners_best:
        return "partner's best is not in play (option partners_best)"
    if kind in (A.ORDER, A.CALL) and flag and not r.teams:
        return "in %s the maker goes alone after trump is made (action alone)" % r.title
    if kind == A.ORDER and p == P_BID1 and not flag and r.canadian and h.turn == (h.dealer + 2) % 4:
        return "Canadian loner: the dealer's partner who orders up must go alone"
    if kind == A.ORDER and p == P_BID1 and arg != A.NOSUIT and h.up_suit != NO_SUIT:
        return "order takes no suit: the upcard's suit is trump"
    if kind == A.ORDER and p == P_BID1 and arg == A.NOSUIT and h.up_suit == NO_SUIT:
        return "a joker is up: whoever orders it names trump (order S)"
    if kind == A.PARTNER and p == P_MAKER:
        if not r.in_deck[arg]:
            return "%s is not in this deck" % card_name(arg)
        if r.is_permanent(arg):
            return "the partner card may not be a permanent trump (%s)" % card_name(arg)
        return "the partner card must not be a trump"
    if kind in (A.DISCARD, A.GIVE) and p in (P_DISCARD, P_GIVE, P_GIVEBACK):
        return "seat %d does not hold %s" % (h.current_player(), card_name(arg))
    if kind in (A.WON, A.CLAIM, A.RENEGE) and p == P_PLAY and arg < h.n and h.out[arg]:
        return "seat %d sits out this hand" % arg
    if kind in A._SEAT_KINDS and arg != _NOBODY and arg >= h.n:
        return "there is no seat %d (seats 0-%d)" % (arg, h.n - 1)
    if kind == A.TRICKS:
        if not r.teams:
            return "tricks N is for partnership variants; enter each trick's winner"
        if h.tricks_played:
            return "tricks N must come before any trick winner is entered"
        return "the makers take 0 to %d tricks" % r.hand_size
    if kind == A.FARMERS and not r.farmers:
        return "farmers hand is not in play (option farmers)"
    if kind == A.FARMERS and h.farmer >= 0:
        return "only one farmer per hand (003): seat %d claimed it" % h.farmer
    if kind in (A.FARMERS, A.TWOS, A.ACENOFACE, A.NINETENS) and p not in (P_DECLARE, P_BID1):
        return "declarations come before the first bid"
    if kind in (A.FARMERS, A.TWOS, A.ACENOFACE, A.NINETENS) and h.cards:
        return "seat %d's hand does not qualify" % arg
    if kind == A.THROWIN and not r.throw_in:
        return "throw-ins are not part of %s" % r.title
    if kind == A.DEFEND and p == P_DEFEND and arg != _NOBODY and h.side_of(arg) == h.side_of(h.maker):
        return "seat %d is on the makers' side" % arg
    if kind == A.REVEAL and arg == h.maker:
        return "the maker holding the partner card means no partner: reveal none"
    return None


# ----- legal actions, one function per phase ------------------------------

def _legal_deal(h):
    return []


def _legal_up(h):
    out = [A.action(A.UP, s) for s in range(4)]
    out += [A.action(A.UP, c) for c in h.rules.permanent]
    return out + [A.REDEAL]


def _legal_declare(h):
    return h._declarations(h.turn) + [_PASS]


def _legal_name(h):
    out = [A.action(A.NAME, s) for s in range(4)]
    if h.rules.perm_upcard == "dealer_names_or_turns":
        if h.cards:
            out.append(A.action(A.TURN, 0, A.TURN_ASK))
        else:
            out += [A.action(A.TURN, s, A.TURN_SUIT) for s in range(4)]
    return out + _table_extras(h)


def _legal_turn(h):
    # Chance: any card of the dealer's hand but a permanent trump (000: "turn
    # another if it is one").
    is_perm = h.rules.is_permanent
    return [A.action(A.TURN, c, A.TURN_CARD) for c in h.hands[h.dealer] if not is_perm(c)]


def _how(h, round1):
    r = h.rules
    if not (r.teams and r.alone):
        return (0,)
    flags = [0, 1, 2] if r.partners_best else [0, 1]
    if round1 and r.canadian and h.turn == (h.dealer + 2) % 4:
        flags.remove(0)  # 004: Canadian loner
    return flags


def _legal_bid1(h):
    out = [_PASS]
    if h.up_suit == NO_SUIT:  # Ultimate: a joker is up, the orderer names trump
        for s in range(4):
            out += [A.action(A.ORDER, s, f) for f in _how(h, True)]
    else:
        out += [A.action(A.ORDER, A.NOSUIT, f) for f in _how(h, True)]
    if not h.cards and h.bids == 0:
        out += _table_declarations(h)
    return out + _table_extras(h)


def _legal_bid2(h):
    r = h.rules
    out = [] if (h.turn == h.dealer and r.std) else [_PASS]
    for s in range(4):
        if s != h.turned_down:
            out += [A.action(A.CALL, s, f) for f in _how(h, False)]
    return out + _table_extras(h)


def _table_declarations(h):
    r = h.rules
    out = []
    for s in range(h.n):
        if r.farmers and h.farmer < 0:
            out.append(A.action(A.FARMERS, s))
        if r.twos_and_threes and h.twos < 0:
            out.append(A.action(A.TWOS, s))
        if r.ace_no_face:
            out += [A.action(A.ACENOFACE, s), A.action(A.NINETENS, s)]
    return out


def _table_extras(h):
    return [] if h.cards else [A.REDEAL]


def _legal_defend(h):
    if h.cards:
        return [A.action(A.DEFEND, h.turn), _PASS]
    m = h.maker
    return [A.action(A.DEFEND, (m + 1) % 4), A.action(A.DEFEND, (m + 3) % 4),
            A.action(A.DEFEND, _NOBODY)] + _table_extras(h)


def _legal_maker(h):
    r = h.rules
    out = [A.ALONE]
    eff, trump = h._eff, h.trump
    for c in r.deck:
        if r.is_permanent(c):
            continue
        if r.call_partner == "not_trump" and eff[c] == trump:
            continue
        out.append(A.action(A.PARTNER, c))
    return out + _table_extras(h)


def _legal_cards_of(kind, seat_of):
    def legal(h):
        return [A.action(kind, c) for c in h.hands[seat_of(h)]]
    return legal


def _legal_throwin(h):
    return [A.action(A.THROWIN, h.turn), _PASS]


def _legal_play(h):
    if h.cards:
        hand = h.hands[h.turn]
        if h.trick:
            eff = h._eff
            led = eff[h.trick[0]]
            follow = [c << 5 for c in hand if eff[c] == led]
            if follow:
                return follow
        return [c << 5 for c in hand]
    r = h.rules
    act = h.active_seats()
    out = [A.action(A.WON, s) for s in act]
    if r.teams and h.tricks_played == 0:
        out += [A.action(A.TRICKS, t) for t in range(r.hand_size + 1)]
    out += [A.action(A.CLAIM, s) for s in act]
    out += [A.action(A.RENEGE, s) for s in act]
    if r.call_partner and h.partner < 0 and not h.alone:
        out += _legal_reveal(h)
    if h.tricks_played == 0:
        if r.throw_in:
            out += [A.action(A.THROWIN, s) for s in act]
        out.append(A.REDEAL)
    return out


def _legal_reveal(h):
    return [A.action(A.REVEAL, s) for s in range(h.n) if s != h.maker] + [A.action(A.REVEAL, _NOBODY)]


def _legal_done(h):
    return []


_LEGAL = (_legal_deal, _legal_up, _legal_declare, _legal_name, _legal_turn,
          _legal_bid1, _legal_bid2, _legal_defend, _legal_maker,
          _legal_cards_of(A.DISCARD, lambda h: h.dealer),
          _legal_cards_of(A.GIVE, lambda h: (h.maker + 2) % 4),
          _legal_cards_of(A.GIVE, lambda h: h.maker),
          _legal_throwin, _legal_play, _legal_reveal, _legal_done)


# ----- applying actions, one function per kind ----------------------------

def _do_play(h, card, flag):
    seat = h.turn
    h.hands[seat].remove(card)
    h.played.append(card)
    h.played_by.append(seat)
    if card == h.partner_card and h.partner < 0:
        h.partner = _NOBODY if seat == h.maker else seat
    trick = h.trick
    trick.append(card)
    h.trick_seats.append(seat)
    if len(trick) < h._active:
        seat = (seat + 1) % h.n
        while h.out[seat]:
            seat = (seat + 1) % h.n
        h.turn = seat
        return
    eff, pw, trump = h._eff, h._pow, h.trump
    best = 0
    led = eff[trick[0]]
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        e = eff[c]
        if e == trump:
            if eff[b] != trump or pw[c] > pw[b]:
                best = i
        elif e == led and eff[b] != trump and pw[c] > pw[b]:
            best = i
    winner = h.trick_seats[best]
    h.trick = []
    h.trick_seats = []
    h._trick_won(winner)


def _do_pass(h, arg, flag):
    if h.phase == P_DECLARE:
        h.bids += 1
        h._skip_undeclaring()
    elif h.phase == P_DEFEND:
        h.bids += 1
        h.turn = (h.turn + 2) % 4
        if h.bids >= 2:
            h._next_step()
    elif h.phase == P_THROWIN:
        h.bids += 1
        h.turn = (h.turn + 1) % h.n
        h._skip_no_throwin()
    else:
        h._next_bidder()


def _do_order(h, suit, flag):
    trump = h.up_suit if suit == A.NOSUIT else suit
    h._make_trump(h.turn, trump, flag, True)


def _do_call(h, suit, flag):
    h._make_trump(h.turn, suit, flag, False)


def _do_name(h, suit, flag):
    # 000 / 004: the named suit stands for the upcard's suit in round 1 and
    # is the turned-down suit if round 1 passes.
    h.up_suit = suit
    h._start_bidding()


def _do_turn(h, arg, flag):
    if flag == A.TURN_ASK:
        h.phase = P_TURN
        return
    h.turned = True
    suit = arg if flag == A.TURN_SUIT else arg // 13
    h.turn = h.dealer
    h._make_trump(h.dealer, suit, 0, True)


def _do_alone(h, arg, flag):
    h.alone = 1
    h.partner = _NOBODY
    h._next_step()


def _do_partner(h, card, flag):
    h.partner_card = card
    if h.cards and card in h.hands[h.maker]:
        h.partner = _NOBODY  # 000: the bidder holds it: no partner
    h._next_step()


def _do_discard(h, card, flag):
    h.hands[h.dealer].remove(card)
    h.kitty.append(card)
    h._next_step()


def _do_give(h, card, flag):
    partner = (h.maker + 2) % 4
    if h.phase == P_GIVE:
        h.hands[partner].remove(card)
        h.hands[h.maker].append(card)
        h.phase = P_GIVEBACK
    else:
        h.hands[h.maker].remove(card)
        h.hands[partner].append(card)
        h._next_step()


def _do_defend(h, seat, flag):
    if seat == _NOBODY:
        h._next_step()
        return
    h.lone_defender = seat
    h.out[(seat + 2) % 4] = 1
    h._next_step()


def _do_throwin(h, seat, flag):
    h.declarer = seat
    h._void(THROWN_IN, "throw-in")


def _do_won(h, seat, flag):
    h._trick_won(seat)


def _do_claim(h, seat, flag):
    r = h.rules
    rest = r.hand_size - h.tricks_played
    h.tricks[seat] += rest
    h.tricks_played = r.hand_size
    h.trick = []
    h.trick_seats = []
    h.declarer = seat
    h._end_play()


def _do_renege(h, seat, flag):
    h.renege = seat
    h._score()


def _do_reveal(h, seat, flag):
    h.partner = seat
    if h.phase == P_REVEAL:
        h._score()


def _do_tricks(h, n, flag):
    r = h.rules
    m = h.maker
    d = h.lone_defender if h.lone_defender >= 0 else (m + 1) % 4
    h.tricks[m] += n
    h.tricks[d] += r.hand_size - n
    h.tricks_played = r.hand_size
    h._end_play()


def _do_redeal(h, arg, flag):
    h._void(REDEAL, "misdeal")


def _do_up(h, arg, flag):
    if arg < 4:
        h.up_suit = arg
        h._set_upcard(-1)
    else:
        h._set_upcard(arg)


def _do_farmers(h, seat, flag):
    h.farmer = seat
    if not h.cards:
        if h.rules.farmers_no_call:
            h._open_round(P_BID1)  # 003: the farmer is skipped in both rounds
    else:
        # 003: swap three 9s/10s (9s first) for the three kitty cards under
        # the upcard.
        r = h.rules
        hand = h.hands[seat]
        low = [c for c in hand if rank_of(c) == R9]
        if not r.farmers_nines_only:
            low += [c for c in hand if rank_of(c) == R10]
        _swap(hand, low[:3], h.kitty, 1)
        _do_pass(h, 0, 0)


def _do_twos(h, seat, flag):
    h.twos = seat
    if h.cards:
        # 002: show three 2s/3s and take the bottom three kitty cards.
        hand = h.hands[seat]
        low = [c for c in hand if rank_of(c) == R2] + [c for c in hand if rank_of(c) == R3]
        _swap(hand, low[:3], h.kitty, len(h.kitty) - 3)
        _do_pass(h, 0, 0)


def _swap(hand, give, kitty, at):
    take = kitty[at:at + 3]
    for i in range(3):
        hand.remove(give[i])
        hand.append(take[i])
        kitty[at + i] = give[i]


def _do_acenoface(h, seat, flag):
    # 003: an ace and four 9s/10s: thrown in, the same dealer redeals.
    h.declarer = seat
    h._void(REDEAL, "ace no face")


def _do_ninetens(h, seat, flag):
    # 003: only 9s and 10s: thrown in, the deal passes left.
    h.declarer = seat
    h._void(THROWN_IN, "nines and tens")


_APPLY = (_do_play, _do_pass, _do_order, _do_call, _do_name, _do_turn,
          _do_alone, _do_partner, _do_discard, _do_give, _do_defend,
          _do_throwin, _do_won, _do_claim, _do_renege, _do_reveal,
          _do_tricks, _do_redeal, _do_up, None, _do_farmers, _do_twos,
          _do_acenoface, _do_ninetens)


def deal_action(rules, cards):
    """Text of the ``deal`` action for cards in deal order."""
    k, n = rules.hand_size, rules.num_players
    parts = [" ".join([card_name(c) for c in cards[i * k:(i + 1) * k]]) for i in range(n)]
    parts.append(" ".join([card_name(c) for c in cards[n * k:]]))
    return "deal " + "/".join(parts)


def shuffled_deck(rules, rand_below):
    """Fisher-Yates over the variant's deck with an injected ``rand_below(n)``
    (MicroPython has no random.shuffle, and its PRNG differs: log the deal,
    never a seed)."""
    cards = bytearray(rules.deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rand_below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
