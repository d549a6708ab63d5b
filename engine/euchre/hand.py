# One hand of any variant, as a state machine with two granularities.
#
# *Table mode* (the device at a real table) never sees the cards: it takes the
# upcard's suit, each bid, who took each trick. *Card mode* (simulation) deals
# real cards and checks every play. A hand starts in table mode with ``up S``
# or in card mode with a ``deal`` chance action; the rest of the machine is
# shared. The interface follows OpenSpiel's game state::
#
#     h = Hand(Rules("classic"), dealer=0, cards=True)
#     h.deal(shuffled_deck(h.rules, rand_below))    # euchre.cardmode
#     while not h.is_terminal():
#         h.apply_action(h.legal_actions()[0])
#     h.returns()              # points per seat
#
# ``current_player()`` is a seat, ``CHANCE`` (a deal or a turned card) or
# ``TABLE`` (table-mode input any seat may report, e.g. ``won 2``). Illegal
# actions raise ``IllegalAction`` naming the rule and change nothing.

from euchre import actions as A
from euchre.cards import NO_SUIT
from euchre.scoring import score_hand

CHANCE = -1
TABLE = -2
TERMINAL = -3

# Phases.
P_DEAL, P_UP, P_DECLARE, P_NAME, P_TURN, P_BID1, P_BID2, P_DEFEND, P_MAKER, \
    P_DISCARD, P_GIVE, P_GIVEBACK, P_THROWIN, P_PLAY, P_REVEAL, P_DONE = range(16)

# How a hand ended.
SCORED = 0
THROWN_IN = 1    # nothing scores, the deal passes left
REDEAL = 2       # nothing scores, the same dealer deals again

_NOBODY = A.NOBODY
_PASS = A.PASS
_REDEAL = A.REDEAL
_cardmode = None


class IllegalAction(ValueError):
    # An input the rules do not allow now; the message names the rule.
    pass


class Hand:
    # State of one hand. See the module comment.

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
    led = -1            # card mode: effective suit led to the current trick
    best = -1           # ... the card winning it so far, and its seat
    best_seat = -1
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
        self.turn = dealer
        self.out = bytearray(n)
        self.tricks = bytearray(n)
        self.trick = []         # cards of the trick in progress
        self.trick_seats = []
        self._active = n
        self._eff = r.eff[4]
        self._pow = r.power[4]
        self._bidders = r.bid_orders[dealer]
        if cards:
            global _cardmode
            if _cardmode is None:
                from euchre import cardmode as _cardmode
            self._LEGAL, self._APPLY = _cardmode.LEGAL, _cardmode.APPLY
            self._extras = []
            self.phase = P_DEAL
            self.played = bytearray()       # every card played, in order
            self.played_by = bytearray()
        else:
            self._LEGAL, self._APPLY = _LEGAL, _APPLY
            self.phase = P_UP

    # ----- the state API -------------------------------------------------

    def current_player(self):
        # Seat to act, or CHANCE, TABLE or TERMINAL.
        p = self.phase
        if p == P_DONE:
            return TERMINAL
        if p == P_DEAL or p == P_TURN:
            return CHANCE
        if p == P_REVEAL or (not self.cards and (p == P_PLAY or p == P_DEFEND)):
            return TABLE
        if p == P_UP or p == P_NAME or p == P_DISCARD:
            return self.dealer
        if p == P_MAKER or p == P_GIVEBACK:
            return self.maker
        if p == P_GIVE:
            return (self.maker + 2) % self.n
        return self.turn

    def is_terminal(self):
        # True once the hand is scored or void.
        return self.phase == P_DONE

    def returns(self):
        # Points per seat (all zero until the hand is over or if void).
        return list(self.points) if self.points else [0] * self.n

    def legal_ids(self):
        # Legal action ids now (empty at a deal: use ``deal``).
        if self._legal is None:
            self._legal = self._LEGAL[self.phase](self)
        return self._legal

    def legal_actions(self):
        # Legal actions now, in text notation.
        return [A.action_name(a) for a in self.legal_ids()]

    def apply_action(self, text):
        # Apply one action in text notation.
        #
        # :raises IllegalAction: naming the broken rule; the state is unchanged.
        try:
            a, cards = A.parse_action(text)
        except ValueError as e:
            raise IllegalAction(str(e))
        if a == A.DEAL:
            self.deal(cards)
        else:
            self.apply_id(a)

    def apply_id(self, a):
        # Apply an action id; like ``apply_action``.
        if a not in self.legal_ids():
            from euchre.why import why
            raise IllegalAction(why(self, a))
        self._legal = None
        self.events += 1
        self._APPLY[a & 31](self, (a >> 5) & 63, a >> 11)

    def apply_legal(self, i):
        # Apply ``legal_ids()[i]`` (bots and simulations: no re-check).
        # Returns the action id applied.
        a = (self._legal or self.legal_ids())[i]
        self._legal = None
        self.events += 1
        self._APPLY[a & 31](self, (a >> 5) & 63, a >> 11)
        return a

    def deal(self, cards):
        # Chance, card mode: deal ``cards`` (every seat's hand in seat order,
        # then the kitty with the upcard first).
        #
        # :raises IllegalAction: not a permutation of the deck, or no deal now.
        if self.phase != P_DEAL:
            raise IllegalAction("no deal now: " + ("the cards are dealt" if self.cards else "this hand is in table mode"))
        _cardmode.deal(self, cards)

    # ----- flow ------------------------------------------------------------

    def _set_upcard(self, card):
        r = self.rules
        self.upcard = card
        if card >= 0 and card in r.permanent:
            self.up_suit = NO_SUIT
            if r.perm_upcard == "orderer_names":
                self._start_bidding()
            else:
                self.phase = P_NAME
        else:
            if card >= 0:
                self.up_suit = card // 13
            self._start_bidding()

    def _start_bidding(self):
        r = self.rules
        if self.cards and (r.farmers or r.twos_and_threes or r.ace_no_face):
            _cardmode.start_declarations(self)
        else:
            self._open_round(P_BID1)

    def _open_round(self, phase):
        self.phase = phase
        self.bids = 0
        d, n = self.dealer, self.n
        if self.farmer >= 0 and self.rules.farmers_no_call:
            # 003: a farmer who may not call is skipped in both rounds.
            self._bidders = tuple([(d + 1 + i) % n for i in range(n) if (d + 1 + i) % n != self.farmer])
        else:
            self._bidders = self.rules.bid_orders[d]
        self.turn = self._bidders[0]

    def _next_bidder(self):
        self.bids += 1
        if self.bids < len(self._bidders):
            self.turn = self._bidders[self.bids]
        elif self.phase == P_BID1:
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
        if r.call_partner:
            if r.discard_before_call or self.turned:
                steps = [P_DISCARD, P_MAKER]
            else:
                steps = [P_MAKER, P_DISCARD]
        else:
            steps = [P_DEFEND, P_DISCARD, P_GIVE]
            if not r.defend_alone:
                steps.remove(P_DEFEND)
        if self.cards:
            _cardmode.pick_up(self, steps)
        else:
            steps.remove(P_DISCARD)
            if P_GIVE in steps:
                steps.remove(P_GIVE)
        steps.append(P_PLAY)
        self._steps = steps
        self._next_step()

    def _next_step(self):
        p = self._steps.pop(0)
        if p == P_DISCARD and self.out[self.dealer]:
            # The dealer sits out (partner of a lone defender): no discard.
            p = self._steps.pop(0)
        self.phase = p
        self.bids = 0
        if p == P_DEFEND:
            self.turn = (self.maker + 1) % 4
        elif p == P_THROWIN:
            _cardmode.start_throwin(self)
        elif p == P_PLAY:
            self._start_play()

    def _start_play(self):
        n, out = self.n, self.out
        if self.lone_defender >= 0 and self.alone:
            lead = self.lone_defender  # 004: the lone defender leads
        elif self.alone and self.rules.loner_lead == "LEFT_OF_LONER":
            lead = (self.maker + 1) % n
        else:
            lead = (self.dealer + 1) % n
            while out[lead]:
                lead = (lead + 1) % n
        self.leader = self.turn = lead
        self._active = n - sum(out)

    def active_seats(self):
        # Seats playing this hand (not sitting out).
        return [s for s in range(self.n) if not self.out[s]]

    def _trick_won(self, winner):
        self.tricks[winner] += 1
        self.tricks_played += 1
        self.leader = self.turn = winner
        if self.tricks_played >= self.rules.hand_size:
            self._end_play()

    def _end_play(self):
        if self.rules.call_partner and self.partner < 0:
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
        # Partnerships: 0 or 1; calling variants: 1 for the makers, 0 for
        # defenders (once the partner is known).
        if self.rules.teams:
            return seat & 1
        return 1 if seat == self.maker or seat == self.partner else 0

    def maker_tricks(self):
        # Tricks taken by the makers' side.
        m = self.maker
        if self.rules.teams:
            return self.tricks[m] + self.tricks[(m + 2) % 4]
        if 0 <= self.partner < self.n:
            return self.tricks[m] + self.tricks[self.partner]
        return self.tricks[m]

    def __repr__(self):
        return "<Hand %s dealer=%d phase=%d>" % (self.rules.name, self.dealer, self.phase)


# ----- legal actions in table mode, one function per phase ----------------
# (card mode overrides some of them: see euchre.cardmode)

def _none(h):
    return []


def _legal_up(h):
    return [A.action(A.UP, s) for s in range(4)] + [A.action(A.UP, c) for c in h.rules.permanent] + [_REDEAL]


def _legal_name(h):
    out = [A.action(A.NAME, s) for s in range(4)]
    if h.rules.perm_upcard == "dealer_names_or_turns":
        if h.cards:
            out.append(A.action(A.TURN, 0, A.TURN_ASK))
        else:
            out += [A.action(A.TURN, s, A.TURN_SUIT) for s in range(4)]
    return out + h._extras


def _how(h, round1):
    # The maker's ways of playing: with partner, alone, alone with best.
    r = h.rules
    if not (r.teams and r.alone):
        return (0,)
    flags = [0, 1, 2] if r.partners_best else [0, 1]
    if round1 and r.canadian and h.turn == (h.dealer + 2) % 4:
        flags.remove(0)  # 004: Canadian loner
    return flags


def _legal_bid1(h):
    out = [_PASS]
    how = _how(h, True)
    if h.up_suit == NO_SUIT:  # Ultimate: a joker is up, the orderer names trump
        for s in range(4):
            out += [A.action(A.ORDER, s, f) for f in how]
    else:
        out += [A.action(A.ORDER, A.NOSUIT, f) for f in how]
    if h.bids == 0 and not h.cards:
        # Declarations come before the first bid (003, 002).
        r = h.rules
        for s in range(h.n):
            if r.farmers and h.farmer < 0:
                out.append(A.action(A.FARMERS, s))
            if r.twos_and_threes and h.twos < 0:
                out.append(A.action(A.TWOS, s))
            if r.ace_no_face:
                out += [A.action(A.ACENOFACE, s), A.action(A.NINETENS, s)]
    return out + h._extras


def _legal_bid2(h):
    out = [] if (h.turn == h.dealer and h.rules.std) else [_PASS]
    how = _how(h, False)
    for s in range(4):
        if s != h.turned_down:
            out += [A.action(A.CALL, s, f) for f in how]
    return out + h._extras


def _legal_defend(h):
    m = h.maker
    return [A.action(A.DEFEND, (m + 1) % 4), A.action(A.DEFEND, (m + 3) % 4),
            A.action(A.DEFEND, _NOBODY)] + h._extras


def _legal_maker(h):
    r = h.rules
    out = [A.ALONE]
    eff, trump, perm = h._eff, h.trump, r.permanent
    not_trump = r.call_partner == "not_trump"
    for c in r.deck:
        # 000: never a two/joker; 001: a non-trump card.
        if not (c in perm or (not_trump and eff[c] == trump)):
            out.append(A.action(A.PARTNER, c))
    return out + h._extras


def _legal_play(h):
    r = h.rules
    act = h.active_seats()
    out = [A.action(A.WON, s) for s in act]
    if r.teams and h.tricks_played == 0:
        out += [A.action(A.TRICKS, t) for t in range(r.hand_size + 1)]
    out += [A.action(A.CLAIM, s) for s in act] + [A.action(A.RENEGE, s) for s in act]
    if r.call_partner and h.partner < 0 and not h.alone:
        out += _legal_reveal(h)
    if h.tricks_played == 0:
        if r.throw_in:
            out += [A.action(A.THROWIN, s) for s in act]
        out.append(_REDEAL)
    return out


def _legal_reveal(h):
    return [A.action(A.REVEAL, s) for s in range(h.n) if s != h.maker] + [A.action(A.REVEAL, _NOBODY)]


# Table mode may declare a misdeal until play starts; card mode never does.
Hand._extras = [_REDEAL]

_LEGAL = (_none, _legal_up, _none, _legal_name, _none, _legal_bid1,
          _legal_bid2, _legal_defend, _legal_maker, _none, _none, _none,
          _none, _legal_play, _legal_reveal, _none)


# ----- applying actions, one function per kind ----------------------------

def _do_pass(h, arg, flag):
    h._next_bidder()


def _do_order(h, suit, flag):
    h._make_trump(h.turn, h.up_suit if suit == A.NOSUIT else suit, flag, True)


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
    # 000: the turned card's suit is trump; the dealer picks up the upcard,
    # discards and is the bidder.
    h.turned = True
    h.turn = h.dealer
    h._make_trump(h.dealer, arg if flag == A.TURN_SUIT else arg // 13, 0, True)


def _do_alone(h, arg, flag):
    h.alone = 1
    h.partner = _NOBODY
    h._next_step()


def _do_partner(h, card, flag):
    h.partner_card = card
    if h.cards and card in h.hands[h.maker]:
        h.partner = _NOBODY  # 000: the bidder holds it: no partner
    h._next_step()


def _do_defend(h, seat, flag):
    if seat != _NOBODY:
        h.lone_defender = seat
        h.out[(seat + 2) % 4] = 1
    h._next_step()


def _do_won(h, seat, flag):
    h._trick_won(seat)


def _do_claim(h, seat, flag):
    # 000: the hand is scored as though all cards had been played.
    h.tricks[seat] += h.rules.hand_size - h.tricks_played
    h.tricks_played = h.rules.hand_size
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
    # Partnerships only need the side's total; it is booked to the maker and
    # to the (lone) defender.
    m = h.maker
    d = h.lone_defender if h.lone_defender >= 0 else (m + 1) % 4
    h.tricks[m] += n
    h.tricks[d] += h.rules.hand_size - n
    h.tricks_played = h.rules.hand_size
    h._end_play()


def _do_up(h, arg, flag):
    if arg < 4:
        h.up_suit = arg
        h._set_upcard(-1)
    else:
        h._set_upcard(arg)


def _do_farmers(h, seat, flag):
    h.farmer = seat
    if h.rules.farmers_no_call:
        h._open_round(P_BID1)


def _do_twos(h, seat, flag):
    h.twos = seat


def _void_by(result, reason):
    def do(h, seat, flag):
        h.declarer = seat
        h._void(result, reason)
    return do


_APPLY = [None, _do_pass, _do_order, _do_call, _do_name, _do_turn,
          _do_alone, _do_partner, None, None, _do_defend,
          _void_by(THROWN_IN, "throw-in"), _do_won, _do_claim, _do_renege,
          _do_reveal, _do_tricks, _void_by(REDEAL, "misdeal"), _do_up, None,
          _do_farmers, _do_twos,
          # 003: an ace and four 9s/10s: the same dealer redeals; only 9s
          # and 10s: the deal passes left.
          _void_by(REDEAL, "ace no face"), _void_by(THROWN_IN, "nines and tens")]
