# Table mode's legal actions and the rules of a hand. For each phase, the
# action ids the table may enter now, from the phase's own function
# (``LEGAL``, by phase number; ``Hand.legal_ids`` calls it; card mode's
# phases are euchre.cardmode's). A rule euchre.why also needs, to word a
# refusal, is a ``Hand`` method that both call, so it is stated once: most
# are functions here, which use only the hand's public state and which
# euchre.hand binds as methods ("the rules", below; ``book``, which writes
# a count entered as ``tricks N`` to the seats, is the hand's apply's). The
# order of the ids is the order the device lists them in.

from euchre import actions as A
from euchre import phases as P
from euchre.actions import IllegalAction
from euchre.cards import NO_SUIT, error_text


def _legal_none(h):
    # A phase with no table-mode input (card mode's, or the hand is over).
    return []


def _legal_up(h):
    out = []
    r = h.rules
    _add(out, A.UP, range(4))
    _add(out, A.UP, r.permanent)
    # Quick score (euchre.quick): who made trump, a partnership's side or
    # the maker's seat; nobody, where a hand can pass the deal on unscored
    # (004 all passed, without stick the dealer; 000 a throw-in).
    _add(out, A.QUICK, range(2 if r.teams else h.n))
    if not r.std or r.throw_in:
        out.append(A.action(A.QUICK, A.NOBODY))
    out.append(A.REDEAL)
    return out


def _legal_bid1(h):
    out = [A.PASS]
    ways = h.ways()
    # (Ultimate: a joker is up, the orderer names trump)
    for s in range(4) if h.up_suit == NO_SUIT else (A.NOSUIT,):
        for f in ways:
            out.append(A.action(A.ORDER, s, f))
    if not h.cards:
        # (card mode asks for declarations in a phase of their own)
        kinds = []
        for k in (A.FARMERS, A.TWOS, A.ACENOFACE, A.NINETENS):
            if h.may_declare(k):
                kinds.append(k)
        if kinds:
            for s in range(h.n):
                for k in kinds:
                    out.append(A.action(k, s))
    return _misdeal(h, out)


def _legal_bid2(h):
    out = []
    if not h.must_call():
        out.append(A.PASS)
    ways = h.ways()
    for s in range(4):
        if h.may_call(s):
            for f in ways:
                out.append(A.action(A.CALL, s, f))
    return _misdeal(h, out)


def _legal_name(h):
    out = []
    _add(out, A.NAME, range(4))
    if h.rules.perm_upcard == "dealer_names_or_turns":
        if h.cards:
            out.append(A.TURN)  # (TURN_ASK)
        else:
            _add(out, A.TURN, range(4), A.TURN_SUIT)
    return _misdeal(h, out)


def _legal_defend(h):
    out = []
    _add(out, A.DEFEND, h.lone_defenders())
    out.append(A.action(A.DEFEND, A.NOBODY))
    return _misdeal(h, out)


def _legal_maker(h):
    out = [A.ALONE]
    bar = h.partner_bar
    for c in h.rules.deck:
        if not bar(c):
            out.append(A.action(A.PARTNER, c))
    return _misdeal(h, out)


def _misdeal(h, out):
    # Table mode may declare a misdeal until play starts.
    if not h.cards:
        out.append(A.REDEAL)
    return out


def _legal_play(h):
    r, out = h.rules, []
    seats = h.active_seats()
    first = h.tricks_played == 0
    _add(out, A.WON, seats)
    if first:
        _add(out, A.TRICKS, range(r.hand_size + 1))
    _add(out, A.CLAIM, seats)
    _add(out, A.RENEGE, seats)
    if r.call_partner and h.partner < 0 and not h.alone:
        out += _legal_reveal(h)
    if first:
        if r.throw_in:
            _add(out, A.THROWIN, seats)
        out.append(A.REDEAL)
    return out


def _legal_reveal(h):
    # Who held the partner card: a seat, or none (000: the maker held it,
    # or nobody played it).
    out = []
    for s in range(h.n):
        if s != h.maker:
            out.append(A.action(A.REVEAL, s))
    out.append(A.action(A.REVEAL, A.NOBODY))
    return out


def _legal_notrick(h):
    out = []
    _add(out, A.NOTRICK, h.notrick_masks(h.taken))
    return out


def _legal_quick(h):
    # A hand entered quick: the maker's partner, then how it ended
    # (euchre.quick, loaded with the first quick input and kept).
    from euchre import quick
    return quick.legal(h)


# Each phase's legal actions, by phase number (euchre.phases).
LEGAL = (_legal_none,      # P_DEAL (card mode)
         _legal_up,        # P_UP
         _legal_none,      # P_DECLARE (card mode)
         _legal_name,      # P_NAME
         _legal_none,      # P_TURN (card mode)
         _legal_bid1,      # P_BID1
         _legal_bid2,      # P_BID2
         _legal_defend,    # P_DEFEND
         _legal_maker,     # P_MAKER
         _legal_none,      # P_DISCARD (card mode)
         _legal_none,      # P_GIVE (card mode)
         _legal_none,      # P_GIVEBACK (card mode)
         _legal_none,      # P_THROWIN (card mode)
         _legal_play,      # P_PLAY
         _legal_reveal,    # P_REVEAL
         _legal_none,      # P_DONE
         _legal_notrick,   # P_NOTRICK
         _legal_quick,     # P_QPARTNER (a quick hand)
         _legal_quick)     # P_QUICK


def _add(out, kind, args, flag=0):
    # Append the action ids of ``kind`` with each argument in ``args``.
    for x in args:
        out.append(A.action(kind, x, flag))


# ----- the rules ---------------------------------------------------------------
#
# Each rule both table mode (above) and euchre.why (the wording of a refusal)
# need, stated once; ``Hand`` binds them as its methods (``h.ways()``), with
# who is to act (``current_player``) and who plays.

def current_player(h):
    """Seat to act, or CHANCE, TABLE or TERMINAL."""
    p = h.phase
    if p == P.P_DONE:
        return P.TERMINAL
    if p == P.P_DEAL or p == P.P_TURN:
        return P.CHANCE
    if p == P.P_REVEAL or p >= P.P_NOTRICK or (not h.cards and (p == P.P_PLAY or p == P.P_DEFEND)):
        # (P_NOTRICK and after: a quick hand's inputs too)
        return P.TABLE
    if p == P.P_UP or p == P.P_NAME or p == P.P_DISCARD:
        return h.dealer
    if p == P.P_MAKER or p == P.P_GIVEBACK:
        return h.maker
    if p == P.P_GIVE:
        return (h.maker + 2) % h.n
    return h.turn


def active_seats(h):
    """Seats playing this hand (not sitting out)."""
    out = []
    for s in range(h.n):
        if not h.out[s]:
            out.append(s)
    return out

def must_call(h):
    """Stick the dealer (004, option std): in round 2 the dealer may not
    pass.
    """
    return h.turn == h.dealer and h.rules.std

def may_call(h, suit):
    """Round 2: any suit but the turned-down one (004; 002). (With a joker
    up in Ultimate no suit was offered, so none is turned down.)
    """
    return suit != h.turned_down

def ways(h):
    """The ways the seat to bid may make trump, as the flags of ORDER and
    CALL: 0 with partner, 1 alone, 2 alone with partner's best (003,
    option partners_best). The calling variants' maker says ``alone``
    once trump is made; Three-Handed's maker, alone anyway, declares a
    lone hand in the bid where the option allows it (option alone).
    (ranges, not constant tuples: those would stay in the module's
    constants, on the device's heap)
    """
    r = h.rules
    alone, best, canadian = r.alone, r.partners_best, r.canadian
    if not alone or r.call_partner:
        return range(1)
    b = h.barred
    if b and b >> (h.maker if h.maker >= 0 else h.turn) & 1:
        # Option no_late_loners (the seats a bit each, euchre.later; quick
        # score: the maker named): a barred seat orders with its partner,
        # even as Canadian's dealer's partner.
        return range(1)
    end = 3 if best else 2
    if h.phase == P.P_BID1 and canadian and h.turn == (h.dealer + 2) % 4:
        # 004, Canadian loner: the dealer's partner who orders up must
        # go alone.
        return range(1, end)
    return range(end)

def declaring(h):
    """Declarations come before the first bid (003 farmers and ace no
    face, 002 twos and threes).
    """
    p = h.phase
    return p == P.P_DECLARE or (p == P.P_BID1 and h.bids == 0)

def may_declare(h, kind):
    """Whether a declaration of ``kind`` (FARMERS, TWOS, ACENOFACE or
    NINETENS) is open now: before the first bid, if the variant has it,
    once per hand (farmers 003, twos and threes 002). Card mode also
    needs the cards for it (euchre.cardmode).
    """
    if not h.declaring():
        return False
    r = h.rules
    farmers, twos, acenoface = r.farmers, r.twos_and_threes, r.ace_no_face
    if kind == A.FARMERS:
        return farmers and h.farmer < 0
    if kind == A.TWOS:
        return twos and h.twos < 0
    return acenoface

def lone_defenders(h):
    """The seats that may defend alone (004, option defend_alone): either
    defender, never a maker.
    """
    m = h.maker
    return ((m + 1) % 4, (m + 3) % 4)

def side_of(h, seat):
    """Partnerships: 0 or 1; calling variants: 1 for the makers, 0 for
    defenders (once the partner is known).

    :raises IllegalAction: no such seat.
    """
    if type(seat) is not int or not 0 <= seat < h.n:
        raise IllegalAction(error_text("seat", seat, h.n - 1))
    if h.rules.teams:
        return seat & 1
    return 1 if seat == h.maker or seat == h.partner else 0

def maker_tricks(h):
    """Tricks taken by the makers' side."""
    m, t, won = h.maker, h.tricks, 0
    if h.rules.teams:
        # (partners alternate round the table: every other seat)
        for p in range(m & 1, h.n, 2):
            won += t[p]
        return won
    p = h.partner
    return t[m] + (t[p] if 0 <= p < h.n else 0)

def notrick_masks(h, taken):
    """The sets (seat bit masks) of scoring seats that may have taken no
    trick when the makers took ``taken`` tricks, fewest first; [0] when
    nobody's points depend on it (000: only who took a trick scores).
    """
    makers, defenders = sides(h)
    t = taken
    r = h.rules
    if t >= r.tricks_to_make:
        side = makers
    else:
        side, t = defenders, r.hand_size - t
    k = len(side)
    if not r.needs_trick or k < 2:
        return [0]
    out = []
    # At least one of the side took a trick, at most t of them did.
    for blanks in range(max(0, k - t), k):
        for bits in range(1 << k):
            if bin(bits).count("1") == blanks:
                mask = 0
                for i in range(k):
                    if bits >> i & 1:
                        mask |= 1 << side[i]
                out.append(mask)
    return out


def sides(h):
    """(makers, defenders): seats in order from the maker (calling
    variants).
    """
    n, m = h.n, h.maker
    makers, defenders = [], []
    for i in range(n):
        s = (m + i) % n
        (makers if s == m or s == h.partner else defenders).append(s)
    return makers, defenders


def book(h, mask):
    """Book the makers' ``taken`` tricks and the defenders' rest to seats:
    one each to those who took any (not in ``mask``), the remainder to the
    first of them (``notrick S``, once the partner is known)."""
    # Side totals and who took none are what the table entered; the split
    # among the others is nominal.
    h.tricks_played = n = h.rules.hand_size
    for side, total in zip(sides(h), (h.taken, n - h.taken)):
        first = -1
        for s in side:
            if not mask >> s & 1 and total:
                # (one trick each while any are left)
                h.tricks[s] = 1
                total -= 1
                if first < 0:
                    first = s
        if first >= 0:
            h.tricks[first] += total
