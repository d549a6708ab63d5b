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
#
# This module is what the device loads: table mode, a ``Hand``'s state and
# flow, its actions applied by kind (``_apply``: one function per group of
# kinds, from ``_APPLY``) and the hand scored (``score_hand``). Its legal
# actions are euchre.legal's, one function per phase. A rule that euchre.why
# also words is a ``Hand`` method both call ("the rules", in the class).
# The optional parts a hand needs are loaded here when needed, and they
# take the constants they share with this module from ``euchre.phases``,
# never importing it (the imports go one way):
#
# * card mode (``euchre.cardmode``): loaded by the first card-mode hand and
#   kept (the device never loads it). Its ``Play`` holds the hand's cards
#   (``h.play``) and takes the phases and kinds that need cards; the hand
#   gives it table mode's legal ids and apply for the rest.
# * quick score (``euchre.quick``): loaded with a hand's first quick input.
# * the explanations of a refused action (``euchre.why``): loaded to word
#   the error and, on the device, dropped again right away (its
#   ``why_not``).
#
# A finished hand has an ``outcome`` code (see OUTCOMES) and, for a renege,
# the seat (``renege``): values; the words for people are made from them
# where they are shown (euchre.notation's ``outcome_text``; on the device,
# bower.menu).
#
# Device heap: on MicroPython each list comprehension is a function object
# of its own (about 100 B), so the device modules use plain loops.

import sys

from euchre import actions as A
from euchre.actions import IllegalAction, apply_text
from euchre.cards import NO_SUIT, error_text
# (every phase, re-exported: euchre.hand.P_DECLARE etc.)
from euchre.phases import (CHANCE, TABLE, TERMINAL, P_DEAL, P_UP, P_DECLARE, P_NAME,  # noqa: F401
                           P_TURN, P_BID1, P_BID2, P_DEFEND, P_MAKER, P_DISCARD, P_GIVE,
                           P_GIVEBACK, P_THROWIN, P_PLAY, P_REVEAL, P_DONE, P_NOTRICK,
                           P_QPARTNER, P_QUICK, SCORED, THROWN_IN, REDEAL)
from euchre import legal as L
from euchre.rules import Rules

# False under MicroPython: what only the host needs is left out there.
_HOST = sys.implementation.name != "micropython"


class Hand:
    """One hand, as a state machine."""

    def __init__(self, rules, dealer=0, cards=False):
        """A hand of ``rules`` dealt by seat ``dealer``; ``cards``: card mode.

        :raises ValueError: not a Rules, or no such seat for the dealer.
        """
        if not isinstance(rules, Rules):
            raise ValueError(error_text("rules", rules))
        self.rules = rules
        self.n = n = rules.num_players
        if type(dealer) is not int or not 0 <= dealer < n:
            raise ValueError(error_text("dealer", n - 1))
        self.dealer = self.turn = dealer
        self.cards = cards
        if _HOST:
            self.barred = 0   # (a slot; the device: the class's 0, a field only where the game sets it)
        self.out = bytearray(n)     # seats sitting out (a lone hand's partner)
        self.tricks = bytearray(n)  # tricks taken per seat
        # upcard: card id (card mode, or a two/joker up); maker, partner
        # (calling variants: seat, NOBODY, or -1 unknown yet), lone_defender,
        # farmer, twos (seats that declared), renege (seat), declarer (seat
        # that threw in / claimed / declared a redeal), leader of the current
        # trick; result is SCORED, THROWN_IN or REDEAL once over.
        self.upcard = self.maker = self.partner = self.partner_card = \
            self.lone_defender = self.farmer = self.twos = self.renege = \
            self.declarer = self.leader = self.result = -1
        # up_suit: the suit the bidding is about.
        self.up_suit = self.turned_down = self.trump = NO_SUIT
        # alone: 1 alone, 2 alone with partner's best; bids: bids made in
        # the current round; events: accepted actions.
        self.alone = self.tricks_played = self.bids = self.events = 0
        # taken: calling variants, the makers' tricks entered as one count
        # (``tricks N``), booked to seats once the partner is known.
        self.taken = -1
        # turned: Five-Handed, the dealer turned a card.
        self.picked_up = self.turned = False
        # outcome: see OUTCOMES (None until the end).
        self.points = self._legal = self._eff = self.outcome = None
        self.phase = P_UP
        if cards:
            # Card mode: the cards, card mode's (``h.play``); the deal first.
            # (``_cardmode``: a global once loaded, never set to None)
            global _cardmode
            if "_cardmode" not in globals():
                from euchre import cardmode as _cardmode
            self.play = _cardmode.Play(_legal, _apply)
            self.phase = P_DEAL
        elif _HOST:
            self.play = None   # (the device: the class's None)

    # ----- the state API -------------------------------------------------

    def is_terminal(self):
        """True once the hand is scored or void."""
        return self.phase == P_DONE

    def returns(self):
        """Points per seat (all zero until the hand is over or if void)."""
        return list(self.points or [0] * self.n)

    def legal_ids(self):
        """Legal action ids now (empty at a deal: use ``deal``)."""
        legal = self._legal
        if legal is None:
            p = self.play
            legal = self._legal = p.legal(self) if p else _legal(self)
        return legal

    def legal_actions(self):
        """Legal actions now, in text notation."""
        return list(map(A.action_name, self.legal_ids()))

    # apply_action(text): apply one action in text notation (:raises
    # IllegalAction: naming the broken rule; the state is unchanged).
    apply_action = apply_text

    def apply_id(self, a):
        """Apply an action id; like ``apply_action``. (Anything but an int,
        and any int that is no legal id, is refused, worded by euchre.why.)"""
        if type(a) is not int or a not in self.legal_ids():
            from euchre.why import why_not
            raise IllegalAction(why_not(self, a))
        self.events += 1
        p = self.play
        # (card mode returns the next legal ids where it knows them already)
        self._legal = p.apply(self, a) if p else _apply(self, a)

    def apply_legal(self, i):
        """Apply ``legal_ids()[i]`` (bots and simulations: no re-check of
        the rules). Returns the action id applied.

        :raises IllegalAction: ``i`` is not an index of ``legal_ids()``.
        """
        legal = self._legal or self.legal_ids()
        if type(i) is not int or not 0 <= i < len(legal):
            raise IllegalAction(error_text("index", i, len(legal)))
        a = legal[i]
        self.events += 1
        p = self.play
        self._legal = p.apply(self, a) if p else _apply(self, a)
        return a

    def deal(self, cards):
        """Chance, card mode: deal ``cards`` (every seat's hand in seat order,
        then the kitty with the upcard first).

        :raises IllegalAction: not a permutation of the deck, or no deal now.
        """
        p = self.play
        if p is None:
            raise IllegalAction(error_text("table"))
        up = p.deal(self, cards)
        self._legal = None
        self.events += 1
        self._set_upcard(up)

    # ----- flow ------------------------------------------------------------

    def _set_upcard(self, card):
        self.upcard = card
        if card >= 0 and card in self.rules.permanent:
            self.up_suit = NO_SUIT
            if self.rules.perm_upcard != "orderer_names":
                self.phase = P_NAME
                return
        elif card >= 0:
            self.up_suit = card // 13
        self._start_bidding()

    def _start_bidding(self):
        r = self.rules
        if self.cards and (r.farmers or r.twos_and_threes or r.ace_no_face):
            self.play.declare(self)
        else:
            self.open_round(P_BID1)

    def open_round(self, phase):
        """Open bidding round ``phase`` (P_BID1 or P_BID2): the seats bid in
        order from the dealer's left."""
        self.phase = phase
        self.bids = 0
        b = self.rules.bid_orders[self.dealer]
        if self.farmer >= 0 and self.rules.farmers_no_call:
            # 003: a farmer who may not call is skipped in both rounds.
            b = list(b)
            b.remove(self.farmer)
        self._bidders = b
        self.turn = b[0]

    def bidders_left(self):
        """Seats still to bid in this bidding round, the one to act included."""
        return len(self._bidders) - self.bids if self.phase in (P_BID1, P_BID2) else 0

    def _next_bidder(self):
        self.bids += 1
        if self.bids < len(self._bidders):
            self.turn = self._bidders[self.bids]
        elif self.phase == P_BID1:
            # 004: the turned-down suit may not be named in round 2. With a
            # joker up in Ultimate no suit was offered, so none is excluded.
            self.turned_down = self.up_suit
            self.open_round(P_BID2)
        else:
            # Only reached when the dealer may pass (no stick the dealer) or
            # sits out of the bidding as a farmer (003).
            # (Option same_dealer, two-handed: "deal may stay with the same
            # dealer", docs/RULES.md [24-card two].)
            self._over(REDEAL if self.rules.same_dealer else THROWN_IN, "all_passed")

    def _make_trump(self, seat, trump, flag, picked_up):
        r = self.rules
        self.maker = seat
        self.trump = trump
        self.alone = flag
        self.picked_up = picked_up
        self._eff = r.eff[trump]
        if flag and r.teams:
            # A lone maker's partners sit out (Six-Handed: both).
            for p in range(seat & 1, self.n, 2):
                if p != seat:
                    self.out[p] = 1
        # What comes between trump and play, in order.
        if self.cards:
            self._steps = self.play.pick_up(self)
        elif r.call_partner:
            self._steps = [P_MAKER]
        else:
            self._steps = [P_DEFEND] if r.defend_alone else []
        self._steps.append(P_PLAY)
        self.next_step()

    def next_step(self):
        """On to the next step between trump and play (a lone defender, the
        maker's partner, the discard, partner's best, a throw-in), or play."""
        p = self._steps.pop(0)
        if p == P_DISCARD and self.out[self.dealer]:
            # The dealer sits out (partner of a lone defender): no discard.
            p = self._steps.pop(0)
        self.phase = p
        self.bids = 0
        if p == P_DEFEND:
            self.turn = (self.maker + 1) % 4
        elif p == P_THROWIN:
            self.play.start_throwin(self)
        elif p == P_PLAY:
            n, out = self.n, self.out
            if self.lone_defender >= 0 and self.alone:
                leader = self.lone_defender  # 004: the lone defender leads
            elif self.alone and self.rules.loner_lead == "LEFT_OF_LONER":
                leader = (self.maker + 1) % n
            else:
                leader = (self.dealer + 1) % n
                while out[leader]:
                    leader = (leader + 1) % n
            self.leader = self.turn = leader
            if self.cards:
                self.play.start_play(self)

    def _end_play(self):
        if self.rules.call_partner and self.partner < 0:
            if self.alone or self.cards:
                self.partner = A.NOBODY  # never played: no partner (000, 001)
            else:
                self.phase = P_REVEAL
                return
        self._settle()

    def _settle(self):
        # Score the hand; a calling variant's ``tricks N`` is first booked to
        # seats, asking who took no trick where that decides the points (000).
        if self.taken >= 0:
            masks = self.notrick_masks(self.taken)
            if len(masks) > 1:
                self.phase = P_NOTRICK
                return
            L.book(self, masks[0])
        self._over(SCORED)

    def _over(self, result, outcome=None):
        # The hand is over: scored (no outcome given) or void (its code).
        if outcome is None:
            self.points, outcome = score_hand(self)
        else:
            self.points = [0] * self.n
        self.result = result
        self.outcome = outcome
        self.phase = P_DONE

    # (table mode's legal ids, the module's ``_legal``: card mode's Play
    # is given it for what needs no cards)
    def _table_legal(self):
        return _LEGAL[self.phase](self)

    # ----- the rules -----------------------------------------------------------
    # Each rule both table mode and euchre.why (a refusal's words) need, stated
    # once; card mode asks them too. Most read only the hand's public state:
    # euchre.legal's functions, bound here as methods.
    current_player = L.current_player
    active_seats = L.active_seats
    must_call = L.must_call
    may_call = L.may_call
    ways = L.ways
    declaring = L.declaring
    may_declare = L.may_declare
    lone_defenders = L.lone_defenders
    notrick_masks = L.notrick_masks
    side_of = L.side_of
    maker_tricks = L.maker_tricks

    def partner_bar(self, card):
        """What bars ``card`` (of the deck) as the partner card: 0 nothing,
        1 a permanent trump (000: "may not be a permanent trump card (2 or
        joker)"), 2 a trump (001: "naming a non-trump card")."""
        if card in self.rules.permanent:
            return 1
        if self.rules.call_partner == "not_trump" and self._eff[card] == self.trump:  # pyright: ignore[reportOptionalSubscript]
            return 2
        return 0

    if not _HOST:
        barred = 0   # option no_late_loners: the seats that may not go alone (CPython: a slot, below)
        play = None  # card mode's Play, in a card-mode hand (CPython: a slot)

    if _HOST:
        # (debugging aids are CPython's only: on the device each costs heap)
        def __repr__(self):
            return "<Hand %s dealer=%d phase=%d>" % (self.rules.name, self.dealer, self.phase)

        # Every field is a slot: CPython reaches them without a dict lookup.
        # MicroPython has none: there this list (not a constant tuple, which
        # would stay in the module's constants) is never built, and its names
        # are interned by the methods above already.
        __slots__ = ["rules", "n", "dealer", "cards", "barred", "phase", "turn", "out", "tricks",
                     "events", "upcard", "up_suit", "turned_down",
                     "trump", "maker", "alone", "partner", "partner_card", "lone_defender",
                     "picked_up", "turned", "farmer", "twos", "renege", "declarer",
                     "tricks_played", "taken", "bids", "leader", "play", "result", "points", "outcome",
                     "_legal", "_eff", "_bidders", "_steps"]


# ----- table mode ------------------------------------------------------------
# ``_legal(h)``: the legal ids of a hand's phase (euchre.legal's ``LEGAL``;
# the method itself: one function object less on the device); ``_apply``.

_legal = Hand._table_legal
_LEGAL = L.LEGAL


def _apply(h, a):
    # Apply a legal action id (counted by Hand.apply_id / apply_legal) by
    # its kind's group, ``_APPLY``; a quick hand's partner step is quick's.
    k = A.kind_of(a)
    do = _quick if h.phase == P_QPARTNER else _APPLY[k]
    do(h, k, A.arg_of(a), A.flag_of(a))


def _play(h, k, x, flag):
    # Play: who took the tricks, and the ends of play.
    n = h.rules.hand_size
    if k == A.WON:
        h.tricks[x] += 1
        h.tricks_played += 1
        h.leader = h.turn = x
        if h.tricks_played >= n:
            h._end_play()
    elif k == A.TRICKS and not h.rules.teams:
        h.taken = x
        h._end_play()
    elif k == A.NOTRICK:
        L.book(h, x)
        h._over(SCORED)
    elif k == A.TRICKS or k == A.CLAIM:
        if k == A.TRICKS:
            # Partnerships only need the side's total; it is booked to the
            # maker and to the (lone) defender.
            m = h.maker
            h.tricks[m] += x
            h.tricks[h.lone_defender if h.lone_defender >= 0 else (m + 1) % h.n] += n - x
        else:
            # 000: the hand is scored as though all cards had been played.
            h.tricks[x] += n - h.tricks_played
            h.declarer = x
        h.tricks_played = n
        h._end_play()
    elif k == A.RENEGE:
        h.renege = x
        h._over(SCORED)
    else:  # (REVEAL)
        h.partner = x
        if h.phase == P_REVEAL:
            h._settle()


def _bid(h, k, x, flag):
    # Bidding: the upcard, bids, declarations.
    if k == A.PASS:
        h._next_bidder()
    elif k == A.ORDER:
        h._make_trump(h.turn, h.up_suit if x == A.NOSUIT else x, flag, True)
    elif k == A.CALL:
        h._make_trump(h.turn, x, flag, False)
    elif k == A.UP:
        if x < 4:
            h.up_suit = x
            x = -1
        h._set_upcard(x)
    elif k == A.NAME:
        # 000 / 004: the named suit stands for the upcard's suit in round 1
        # and is the turned-down suit if round 1 passes.
        h.up_suit = x
        h._start_bidding()
    elif k == A.TURN:
        if flag == A.TURN_ASK:
            h.phase = P_TURN
            return
        # 000: the turned card's suit is trump; the dealer picks up the
        # upcard, discards and is the bidder.
        h.turned = True
        h.turn = h.dealer
        h._make_trump(h.dealer, x if flag == A.TURN_SUIT else x // 13, 0, True)
    elif k == A.FARMERS:
        h.farmer = x
        if h.rules.farmers_no_call:
            h.open_round(P_BID1)
    else:  # (TWOS)
        h.twos = x


def _step(h, k, x, flag):
    # Between trump and play: the maker's partner or a lone defender.
    if k == A.ALONE:
        h.alone = 1
        h.partner = A.NOBODY
    elif k == A.PARTNER:
        h.partner_card = x
        if h.cards and x in h.play.hands[h.maker]:
            h.partner = A.NOBODY  # 000: the bidder holds it: no partner
    elif x != A.NOBODY:
        h.lone_defender = x
        h.out[(x + 2) % 4] = 1
    h.next_step()


def _void(h, k, x, flag):
    # A void hand: the same dealer redeals or the deal passes left.
    h.declarer = x
    if k == A.REDEAL:
        # Option misdeal_passes (Leeds and Dwight's Laws of Euchre,
        # law 41, docs/RULES.md): the deal passes left as after a throw-in.
        h._over(THROWN_IN if h.rules.misdeal_passes else REDEAL, "misdeal")
    elif k == A.ACENOFACE:
        h._over(REDEAL, "ace_no_face")  # 003: an ace and four 9s/10s
    elif k == A.NINETENS:
        h._over(THROWN_IN, "nines_tens")  # 003: only 9s and 10s
    else:
        h._over(THROWN_IN, "throw_in")


def _quick(h, k, x, flag):
    # Quick score (euchre.quick): who made trump and how it ended, the end
    # handed back as table mode's TRICKS, NOTRICK or RENEGE.
    if k == A.QUICK and x == A.NOBODY and h.phase == P_UP:
        # 004 all passed (no stick the dealer); else 000's throw-in
        if h.rules.std:
            h._over(THROWN_IN, "throw_in")
        else:
            h._over(REDEAL if h.rules.same_dealer else THROWN_IN, "all_passed")
        return
    from euchre import quick
    a = quick.apply(h, k, x, flag)
    if a >= 0:
        _apply(h, a)


# Each kind's group (by action kind, euchre.actions); None: card mode's
# kinds (PLAY, DISCARD, GIVE), a deal, a game's (ACCEPT, AMEND).
_APPLY = (None, _bid, _bid, _bid, _bid, _bid,   # PLAY PASS ORDER CALL NAME TURN
          _step, _step, None, None, _step,       # ALONE PARTNER DISCARD GIVE DEFEND
          _void, _play, _play, _play, _play,     # THROWIN WON CLAIM RENEGE REVEAL
          _play, _void, _bid, None, _bid,        # TRICKS REDEAL UP DEAL FARMERS
          _bid, _void, _void, _play, None,       # TWOS ACENOFACE NINETENS NOTRICK ACCEPT
          _quick)                                # QUICK


# ----- scoring ---------------------------------------------------------------
# One function covers the four variants: the makers' side (a partnership, or
# the maker and the called partner) or the defenders score the table's
# points, each member of the side (Five-Handed: only players who took a
# trick). A renege ends a hand and is scored by the variant's ``renege``
# rule. Point values come from ``rules.score``, a tuple in this order:
# make, march, alone_make, alone_march, best_march, unpartnered_march,
# euchre, defend_euchre, renege, renege_alone (see euchre.rules). (Game end
# is euchre.game's ``game_result``.)

def score_hand(h):
    """Points per seat for a finished hand and its outcome code (see
    OUTCOMES), e.g. ``([2, 0, 2, 0], "march")``; a renege's seat is
    ``h.renege``."""
    r = h.rules
    # The variant's points (euchre.rules), by name.
    (make, march, alone_make, alone_march, best_march, unpartnered_march,
     euchre, defend_euchre, renege, renege_alone) = r.score
    n = h.n
    points = [0] * n
    o = h.renege
    if o >= 0:
        if r.renege == "side":
            # 002/004: 2 to the other side, 4 when either side played
            # alone; option: deduct from the guilty side instead. (Two-
            # Handed: the other player.)
            v = renege_alone if (h.alone or h.lone_defender >= 0) else renege
            deduct = r.renege_deduct
            for p in range(n):
                if ((p - o) & 1 == 0 if r.teams else p == o) == deduct:
                    points[p] = -v if deduct else v
        else:
            # Five-Handed and Call-Your-Partner: the offender loses 2 (4 if
            # the bidder declared alone); nobody else scores.
            points[o] = -(renege_alone if h.alone else renege)
        return points, "renege"
    m = h.maker
    if r.teams:
        makers = range(m & 1, n, 2)  # (partners alternate: every other seat)
    elif 0 <= h.partner < n:
        makers = (m, h.partner)
    else:
        makers = (m,)
    t = h.maker_tricks()
    if t < r.tricks_to_make:
        scorers = list(range(n))
        for p in makers:
            scorers.remove(p)
        if h.lone_defender >= 0:
            v, code = defend_euchre, "defend_euchre"  # 004
        elif h.alone and r.set_loner:
            v, code = r.set_loner, "euchred"   # a club night's set loner
        else:
            v, code = euchre, "euchred"
    else:
        scorers = makers
        if t < r.hand_size:
            if h.alone:
                v, code = alone_make, "made_alone"
            else:
                v, code = make, "made"
        elif h.alone == 2:
            v, code = best_march, "best_march"  # 003
        elif h.alone:
            v, code = alone_march, "lone_march"
        elif unpartnered_march and len(makers) == 1:
            v, code = unpartnered_march, "unpartnered_march"  # 000, 001
        else:
            v, code = march, "march"
    for p in scorers:
        # 000: "Only players who have taken tricks during the relevant hand
        # are eligible to receive points."
        if not r.needs_trick or h.tricks[p]:
            points[p] = v
    return points, code


if _HOST:
    # Every ``outcome`` code of a finished hand, the one list of them (the
    # host's library and exports read it here; where the hand sets each and
    # its words: euchre.notation's OUTCOME_TEXT). (A list, not a constant
    # tuple, for the reason given at ``__slots__``.)
    OUTCOMES = ["made", "made_alone", "march", "lone_march", "best_march",
                "unpartnered_march", "euchred", "defend_euchre", "renege",
                "all_passed", "misdeal", "ace_no_face", "nines_tens", "throw_in"]
