# Why an action is illegal: the messages that name each rule.
#
# Kept out of ``euchre.hand`` so the device, whose UI only ever offers legal
# actions, seldom loads these strings: the hand loads this module to word a
# refusal (``why_not``, which on the device drops it again). It reads the hand through its
# methods and fields and takes the phases from ``euchre.phases``, so it does
# not import the hand back.
#
# A rule is stated once, as a method of the hand (``must_call``,
# ``may_call``, ``ways``, ``declaring``, ``may_declare``, ``partner_bar``,
# ``lone_defenders``: see "the rules" in euchre.hand) that table mode's legal
# actions use too; a message here tests that method and only picks the words
# (which option is off, which card is meant).

import sys

from euchre import actions as A
from euchre.cards import NO_SUIT, SUIT_NAMES, card_name, _HOST
from euchre.phases import (CHANCE, TABLE, TERMINAL, P_DONE, P_PLAY, P_BID1,
                           P_BID2, P_MAKER, P_DISCARD, P_GIVE, P_GIVEBACK,
                           P_DEFEND, P_UP, P_QPARTNER, P_QUICK)

# The name of each phase (euchre.phases), in order.
PHASE_NAMES = ("deal", "upcard", "declare", "name", "turn", "bid1", "bid2",
               "defend", "maker", "discard", "give", "giveback", "throwin",
               "play", "reveal", "done", "notrick", "quick partner", "quick end")
_NOBODY = A.NOBODY


def why_not(h, a):
    """The message for action ``a`` that hand ``h`` refuses (``why``'s).
    On the device (MicroPython) this module then gives itself back, since
    its texts take heap and the UI, which offers only legal actions, seldom
    needs them; a host keeps it (tests and tools refuse many actions)."""
    msg = why(h, a)
    if not _HOST:
        sys.modules.pop("euchre.why", None)
        pkg = sys.modules.get("euchre")
        if pkg is not None:
            # (the package's attribute: hasattr would import it again)
            pkg.__dict__.pop("why", None)
    return msg


def why(h, a):
    """Message for action id ``a`` refused by hand ``h``, listing what is legal."""
    p = h.phase
    legal = h.legal_actions()
    if _text(a) is None:
        msg = "not an action id: %r" % (a,)
    else:
        msg = _explain(h, p, A.kind_of(a), A.arg_of(a), A.flag_of(a))
    if msg is None:
        who = h.current_player()
        whose = {CHANCE: "a chance event", TABLE: "a table input",
                 TERMINAL: "nothing (the hand is over)"}.get(who, "seat %d" % who)
        msg = "%s is not legal now (%s, waiting for %s)" % (A.action_name(a), PHASE_NAMES[p], whose)
    if legal:
        msg += "; legal: " + ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
    return msg


def _text(a):
    # The text of ``a`` if it is an action id (an int whose text reads back
    # as the same id), else None.
    if type(a) is int and a >= 0:
        try:
            t = A.action_name(a)
            if A.parse_action(t)[0] == a:
                return t
        except (IndexError, ValueError):
            pass
    return None


def _quick(h, p, kind, arg, flag):
    # A hand entered quick (euchre.quick): its inputs and their order.
    r = h.rules
    if kind != A.QUICK:
        if p == P_QPARTNER:
            return "this hand is entered quick: next, the maker's partner (alone, reveal N or reveal none)"
        return "this hand is entered quick: next, how it ended (quick made, march, euchred ...)"
    from euchre.quick import end_of, DEFENDED, RENEGE
    end, how = end_of(A.action(kind, arg, flag))
    if not end:
        if p != P_UP:
            return "quick N starts a hand entered quick, as its first input (before any upcard)"
        if arg == _NOBODY:
            return "stick the dealer: somebody made trump (quick none: nobody did, or a throw-in)"
        if r.teams:
            return "in %s quick N names the makers' side: 0 (seat 0's) or 1 (seat 1's)" % r.title
        return "there is no seat %d (seats 0-%d)" % (arg, h.n - 1)
    if p != P_QUICK:
        return "how a quick hand ended comes after quick N" + (
            " and the maker's partner" if p == P_QPARTNER else "")
    if how not in h.ways():
        if h.barred >> h.maker & 1:
            return _LATE % "that side"
        if r.call_partner:
            return "in %s the maker goes alone at the partner step (alone)" % r.title
        if not r.alone:
            return "going alone is not allowed in %s" % r.title
        return "partner's best is not in play (option partners_best)"
    if end == DEFENDED:
        return "lone defender is not in play (option defend_alone)"
    if end == RENEGE:
        return "there is no seat %d (seats 0-%d)" % (arg, h.n - 1)
    # 000: only where it changes the points, and never a whole side
    return "notrick names the scoring seats that took no trick, where that changes the points (000)"


def _explain(h, p, kind, arg, flag):
    r = h.rules
    if p == P_DONE:
        return "the hand is over"
    if kind == A.QUICK or p == P_QUICK or (p == P_QPARTNER and kind != A.REVEAL):
        return _quick(h, p, kind, arg, flag)
    if kind == A.PLAY and p == P_PLAY and h.cards:
        seat = h.turn
        if arg not in h.play.hands[seat]:
            return "seat %d does not hold %s" % (seat, card_name(arg))
        led = h.rules.eff[h.trump][h.play.trick[0]]
        return "seat %d must follow %s" % (seat, SUIT_NAMES[led] if led < 4 else "the suit led")
    if kind == A.PASS and p == P_BID2 and h.must_call():
        # 004, option std: stick the dealer
        return "stick the dealer: seat %d (dealer) must name trump" % h.dealer
    if kind == A.CALL and p == P_BID2 and not h.may_call(arg):
        # 004: the turned-down suit
        return "%s was turned down: it cannot be named in round 2" % SUIT_NAMES[arg]
    if kind in (A.ORDER, A.CALL) and flag not in h.ways():
        # Not a way to make trump now: which option or rule rules it out.
        if flag and h.barred >> h.turn & 1:
            return _LATE % ("seat %d's side" % h.turn)
        if not r.alone and "alone" in r.options:
            # Three-Handed: the maker is alone anyway; a declared lone hand
            # is an option (docs/RULES.md)
            return "a declared lone hand is not in play (option alone)"
        if not r.alone:
            return "going alone is not allowed in %s" % r.title
        if flag == 2 and not r.partners_best:
            if "partners_best" not in r.options:
                return "partner's best is not part of %s" % r.title
            return "partner's best is not in play (option partners_best)"
        if not r.teams:
            return "in %s the maker goes alone after trump is made (action alone)" % r.title
        if kind == A.ORDER and p == P_BID1 and not flag:
            # 004: Canadian loner (option canadian)
            return "Canadian loner: the dealer's partner who orders up must go alone"
    if kind == A.ORDER and p == P_BID1 and arg != A.NOSUIT and h.up_suit != NO_SUIT:
        return "order takes no suit: the upcard's suit is trump"
    if kind == A.ORDER and p == P_BID1 and arg == A.NOSUIT and h.up_suit == NO_SUIT:
        return "a joker is up: whoever orders it names trump (order S)"
    if kind == A.PARTNER and p == P_MAKER:
        if not r.in_deck[arg]:
            return "%s is not in this deck" % card_name(arg)
        if h.partner_bar(arg) == 1:
            # 000: never a two or joker
            return "the partner card may not be a permanent trump (%s)" % card_name(arg)
        # 001: a non-trump card
        return "the partner card must not be a trump"
    if kind in (A.DISCARD, A.GIVE) and p in (P_DISCARD, P_GIVE, P_GIVEBACK):
        return "seat %d does not hold %s" % (h.current_player(), card_name(arg))
    if kind in (A.WON, A.CLAIM, A.RENEGE) and p == P_PLAY and arg < h.n and h.out[arg]:
        return "seat %d sits out this hand" % arg
    if A._ARGS[kind] == "p" and arg != _NOBODY and arg >= h.n:
        return "there is no seat %d (seats 0-%d)" % (arg, h.n - 1)
    if kind == A.TRICKS:
        if p != P_PLAY:
            return "tricks N is entered once play starts (after trump is made)"
        if h.tricks_played:
            return "tricks N must come before any trick winner is entered"
        return "the makers take 0 to %d tricks" % r.hand_size
    if kind == A.DEFEND and not r.defend_alone:
        return "lone defender is not in play (option defend_alone)"
    declaration = kind in (A.FARMERS, A.TWOS, A.ACENOFACE, A.NINETENS)
    if declaration and not h.may_declare(kind):
        # Which part of the rule (003 farmers and ace no face, 002 twos and
        # threes) rules it out.
        if kind == A.FARMERS and not r.farmers:
            return "farmers hand is not in play (option farmers)"
        if kind == A.FARMERS and h.farmer >= 0:
            return "only one farmer per hand (003): seat %d claimed it" % h.farmer
        if kind in (A.ACENOFACE, A.NINETENS) and not r.ace_no_face:
            return "ace no face is not in play (option ace_no_face)"
        if kind == A.TWOS and not r.twos_and_threes:
            return "twos and threes are not part of %s (Ultimate Euchre only)" % r.title
        if not h.declaring():
            return "declarations come before the first bid"
    if declaration and h.cards:
        # (card mode: the cards decide, euchre.cardmode)
        return "seat %d's hand does not qualify" % arg
    if kind == A.THROWIN and not r.throw_in:
        return "throw-ins are not part of %s" % r.title
    if kind == A.DEFEND and p == P_DEFEND and arg != _NOBODY and arg not in h.lone_defenders():
        # 004: a lone defender is a defender
        return "seat %d is on the makers' side" % arg
    if kind == A.NOTRICK:
        return "notrick names the scoring seats that took no trick, after tricks N (000)"
    if kind == A.REVEAL and arg == h.maker:
        return "the maker holding the partner card means no partner: reveal none"
    return None


# Option no_late_loners ("no loners on 8 or 9": users.igl.net, docs/RULES.md).
_LATE = "no loners at 8 or 9: %s is within 2 points of the target (option no_late_loners)"
