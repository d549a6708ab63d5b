# Actions: one small-int space for every input, and its text notation.
#
# An action id is ``kind | arg << 5 | flag << 11`` (a small int, no heap on
# MicroPython: firmware/DEVICE.md, 2). The text form is what the game log stores and what
# ``legal_actions()`` returns; ``parse_action`` and ``action_name`` convert.
#
# Notation (seats are 0-based clockwise; S is a suit letter C D H S; XX a card):
#
# =====================  ======================================================
# ``deal <cards>``       chance, card mode: every seat's hand in seat order,
#                        then the kitty with the upcard first (``/`` separates)
# ``up S`` / ``up 2S``   table mode: the upcard's suit, or which two/joker
# ``redeal``             misdeal: the same dealer deals again, nothing scores
# ``farmers N``          seat N swaps three 9s/10s for the kitty (003)
# ``twos N``             seat N shows three 2s/3s for the bottom of the kitty
# ``acenoface N``        seat N holds an ace and four 9s/10s: same dealer redeals
# ``ninetens N``         seat N holds only 9s and 10s: the deal passes left
# ``name S``             the dealer names the suit of a two/joker upcard
# ``turn``/``turn S``    Five-Handed: the dealer turns a card of the hand
#                        (``turn 9H`` is the chance outcome in card mode)
# ``pass``               bid nothing
# ``order [S] [alone [best]]``  round 1: order the upcard (``S`` only when a
#                        joker is up in Ultimate); ``alone``: the maker's
#                        partner sits out; ``best``: with partner's best
# ``call S [alone [best]]``  round 2: name trump
# ``alone``              Five-Handed / Call-Your-Partner maker: no partner card
# ``partner XX``         ... or call the holder of XX as partner
# ``defend N``/``defend none``  lone defender (table mode names the seat)
# ``discard XX``         card mode: the dealer's discard
# ``give XX``            card mode: partner's best, then the card given back
# ``throwin N``          Five-Handed: no ace, no face, no trump
# ``XX``                 card mode: play a card
# ``won N``              table mode: seat N took the trick
# ``tricks N``           table mode: the makers' side took N tricks (calling
#                        variants: the maker and partner together)
# ``notrick N [N ...]``  calling variants after ``tricks N``: the scoring
#                        seats that took no trick (``notrick none``: each
#                        took at least one)
# ``claim N``            seat N lays down and takes the remaining tricks
# ``renege N``           seat N reneged: the hand ends
# ``reveal N``/``reveal none``  table mode: who held the partner card
# ``quick N``/``quick none``  quick score (euchre.quick), a hand's first input
#                        instead of the upcard: N made trump (partnerships:
#                        the side, 0 for seats 0 and 2, 1 for 1 and 3);
#                        none: nobody did, or it was thrown in (deal passes)
# ``quick E [N] [alone [best]] [notrick N ...]``  how a quick hand ended: E
#                        is made, march, euchred, defended (euchred by a lone
#                        defender) or renege (by seat N); alone: the
#                        partnership's maker went alone; notrick: as above
# ``amend N``            correct finished hand N (euchre.amend): its outcome
#                        follows as quick score, between hands or at the end
# =====================  ======================================================

from euchre.cards import card_name, parse_card, parse_cards, parse_suit, SUITS, error_text, _HOST
if _HOST:
    from euchre.cards import _foreign   # (CPython's only: see there)


class IllegalAction(ValueError):
    """An input the rules refuse."""
    # (Raised by a hand and the modules that extend it; also reachable as
    # ``euchre.IllegalAction`` and ``euchre.hand.IllegalAction``.)


# Kinds.
PLAY = 0
PASS = 1
ORDER = 2
CALL = 3
NAME = 4
TURN = 5
ALONE = 6
PARTNER = 7
DISCARD = 8
GIVE = 9
DEFEND = 10
THROWIN = 11
WON = 12
CLAIM = 13
RENEGE = 14
REVEAL = 15
TRICKS = 16
REDEAL = 17
UP = 18
DEAL = 19
FARMERS = 20
TWOS = 21
ACENOFACE = 22
NINETENS = 23
NOTRICK = 24
ACCEPT = 25       # a club round's result accepted (a game-level action)
QUICK = 26       # quick score: who made trump, then how the hand ended
AMEND = 27       # correct a finished hand (a game-level action: euchre.amend)

NOBODY = 63      # arg for "defend none" / "reveal none"
NOSUIT = 4       # arg for "order" without a suit
TURN_ASK = 0     # flag of TURN: the dealer's decision (card mode)
TURN_SUIT = 1    # ... table mode, the suit of the turned card
TURN_CARD = 2    # ... card mode, the chance outcome
# How a quick hand ended, by its code in QUICK's flag (euchre.quick: the
# code plus 8 times the way a partnership's maker played; 0, a hand's
# start: ``quick N``).
QUICK_ENDS = ("", "made", "march", "euchred", "defended", "renege")
# Each kind's word, by kind: an action's text starts with it (action_name).
WORDS = ("", "pass", "order", "call", "name", "turn", "alone", "partner",
         "discard", "give", "defend", "throwin", "won", "claim", "renege",
         "reveal", "tricks", "redeal", "up", "deal", "farmers", "twos",
         "acenoface", "ninetens", "notrick", "accept", "quick", "amend")
# The argument each kind takes: - card played, n none, o [suit] [alone
# [best]], c suit [alone [best]], s suit, t turn, k card, p seat or none,
# i count, u suit or card, d dealt cards, m seats (a bit mask), q quick,
# h a hand's number (1 to 2047: the argument plus 64 times the flag).
_ARGS = "-nocstnkkkppppppinudppppmnqh"
_HOW = ("", " alone", " alone best")


# This module owns the bit layout: everything else builds ids with
# ``action`` and reads them with ``kind_of``/``arg_of``/``flag_of``
# (tests/engine/test_action_bits.py fails on bit arithmetic elsewhere).


def action(kind, arg=0, flag=0):
    """Build an action id: ``action(ORDER, NOSUIT, 1)`` is "order alone"."""
    return kind | arg << 5 | flag << 11


def kind_of(a):
    """The kind of an action id (PASS, ORDER, ...)."""
    return a & 31


def arg_of(a):
    """Its argument: a seat, suit, card, count or seat mask (NOBODY, NOSUIT)."""
    return (a >> 5) & 63


def flag_of(a):
    """Its flag: 0, 1 alone, 2 alone with partner's best (ORDER, CALL); the
    TURN_* variant of a TURN.
    """
    return a >> 11


def action_name(a):
    """Text form of an action id (the ``deal`` cards are not in the id)."""
    kind, arg, flag = kind_of(a), arg_of(a), flag_of(a)
    t = _ARGS[kind]
    if t == "-":
        return card_name(arg)
    w = WORDS[kind]
    if t == "n" or (t == "t" and flag == TURN_ASK):
        return w
    if t == "p" or (t == "q" and not flag):
        return w + (" none" if arg == NOBODY else " %d" % arg)
    if t == "i":
        return w + " %d" % arg
    if t == "h":
        return w + " %d" % (arg + 64 * flag)
    if t == "q":
        # quick E [N] [alone [best]] [notrick N ...]
        w += " " + QUICK_ENDS[flag % 8]
        if flag % 8 == 5:   # (renege: the seat)
            w += " %d" % arg
            arg = 0
        w += _HOW[flag // 8]
        if arg:
            w += " notrick"
        t = "m"
    if t == "m":
        for s in range(6):
            if arg >> s & 1:
                w += " %d" % s
        return w if arg or kind == QUICK else w + " none"
    if t == "k" or (t in "tu" and (arg > 3 or flag == TURN_CARD)):
        return w + " " + card_name(arg)
    if t in "stu":
        return w + " " + SUITS[arg]
    return w + ("" if arg == NOSUIT else " " + SUITS[arg]) + _HOW[flag]


def parse_action(text):
    """Parse the text form; returns ``(action_id, cards)`` where ``cards`` is
    the list of dealt cards for ``deal`` and ``None`` otherwise.

    :raises ValueError: for text that is no action at all (legality is the
        state's business).
    """
    if _HOST and _foreign(text):
        raise ValueError(error_text("action", text))
    words = text.split()
    w = words[0].lower() if words else ""
    if w and w in WORDS:
        kind = WORDS.index(w)
    elif len(words) == 1 and 2 <= len(w) <= 3:
        return parse_card(w) << 5, None
    else:
        raise ValueError(error_text("action", text))
    rest = words[1:]
    if kind == DEAL:
        return DEAL, parse_cards(" ".join(rest))
    t, n = _ARGS[kind], len(rest)
    try:
        if t == "n" or (t == "t" and n == 0):
            if n:
                raise ValueError
            return kind, None
        if t in "oc":
            arg = NOSUIT
            if rest and rest[0].lower() not in ("alone", "best"):
                arg = parse_suit(rest[0])
                rest = rest[1:]
            if t == "c" and arg == NOSUIT:
                raise ValueError
            return action(kind, arg, _HOW.index(" " + " ".join(rest).lower() if rest else "")), None
        flag = 0
        if t == "q" and (n > 1 or rest and rest[0].lower() in QUICK_ENDS):
            # a quick hand's end: quick E [N] [alone [best]] [notrick N ...]
            rest = " ".join(rest).lower().split(" notrick ")
            words = rest[0].split(" ")
            end = QUICK_ENDS.index(words[0])
            arg = 0
            if end == 5:   # (renege: the seat)
                x = words.pop(1)
                if x.strip("0123456789") or not 0 <= int(x) < NOBODY:
                    raise ValueError
                arg = int(x)
            if not end or len(rest) > 2 or len(rest) == 2 and (end == 5 or rest[1] == "none"):
                raise ValueError
            flag = end + 8 * _HOW.index(" " + " ".join(words[1:]) if len(words) > 1 else "")
            if len(rest) < 2:
                return action(kind, arg, flag), None
            rest = rest[1].split()   # (who took no trick, as notrick's)
            t = "m"
        if t == "m":
            m = 0
            if not rest:
                raise ValueError
            if rest != ["none"]:
                for x in rest:
                    # (ASCII digits only: int() also takes "+1" and "1_0")
                    if x.strip("0123456789") or not 0 <= int(x) < 6 or m >> int(x) & 1:
                        raise ValueError
                    m |= 1 << int(x)
            return action(kind, m, flag), None
        x = rest[0]
        if n != 1:
            raise ValueError
        if t == "h":
            if x.strip("0123456789") or not 0 < int(x) < 2048:
                raise ValueError
            return action(kind, int(x) % 64, int(x) // 64), None
        if x.lower() == "none" and (kind == DEFEND or kind == REVEAL or kind == QUICK):
            return action(kind, NOBODY), None
        if t in "piq":
            if x.strip("0123456789") or not 0 <= int(x) < NOBODY:
                raise ValueError
            return action(kind, int(x)), None
        if len(x) == 1 and t in "stu":
            return action(kind, parse_suit(x), TURN_SUIT if t == "t" else 0), None
        if t == "s":
            raise ValueError
        c = parse_card(x)
        if t == "u" and c < 4:
            raise ValueError   # (2C-5C, never up, would read as the suits' ids)
        return action(kind, c, TURN_CARD if t == "t" else 0), None
    except (ValueError, IndexError):
        raise ValueError(error_text("malformed", text))


def apply_text(state, text):
    """Parse ``text`` and hand it to ``state.deal`` or ``state.apply_id``
    (a Hand or a Game).
    """
    if type(text) is not str:
        raise IllegalAction(error_text("text", text))
    try:
        a, cards = parse_action(text)
    except ValueError as e:
        raise IllegalAction(str(e))
    if a == DEAL:
        state.deal(cards)
    else:
        state.apply_id(a)
