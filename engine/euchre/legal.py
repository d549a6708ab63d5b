# Table mode's legal actions: for each phase of a hand, the action ids the
# table may enter now, from the phase's own function (``LEGAL``, by phase
# number; euchre.hand's ``Hand.legal_ids`` calls it). Card mode's phases are
# euchre.cardmode's. A rule euchre.why also needs, to word a refusal, is a
# ``Hand`` method ("the rules", in euchre.hand) that both call, so it is
# stated once; these functions read only the hand's public state and
# methods. The order of the ids is the order the device lists them in.

from euchre import actions as A
from euchre.cards import NO_SUIT


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
