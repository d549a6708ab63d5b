"""Actions: one small-int space for every input, and its text notation.

An action id is ``kind | arg << 5 | flag << 11`` (a small int, no heap on
MicroPython). The text form is what the game log stores and what
``legal_actions()`` returns; ``parse_action`` and ``action_name`` convert.

Notation (seats are 0-based clockwise; S is a suit letter C D H S; XX a card):

=====================  ======================================================
``deal <cards>``       chance, card mode: every seat's hand in seat order,
                       then the kitty with the upcard first (``/`` separates)
``up S`` / ``up 2S``   table mode: the upcard's suit, or which two/joker
``redeal``             misdeal: the same dealer deals again, nothing scores
``farmers N``          seat N swaps three 9s/10s for the kitty (003)
``twos N``             seat N shows three 2s/3s for the bottom of the kitty
``acenoface N``        seat N holds an ace and four 9s/10s: same dealer redeals
``ninetens N``         seat N holds only 9s and 10s: the deal passes left
``name S``             the dealer names the suit of a two/joker upcard
``turn``/``turn S``    Five-Handed: the dealer turns a card of the hand
                       (``turn 9H`` is the chance outcome in card mode)
``pass``               bid nothing
``order [S] [alone [best]]``  round 1: order the upcard (``S`` only when a
                       joker is up in Ultimate); ``alone``: the maker's
                       partner sits out; ``best``: with partner's best
``call S [alone [best]]``  round 2: name trump
``alone``              Five-Handed / Call-Your-Partner maker: no partner card
``partner XX``         ... or call the holder of XX as partner
``defend N``/``defend none``  lone defender (table mode names the seat)
``discard XX``         card mode: the dealer's discard
``give XX``            card mode: partner's best, then the card given back
``throwin N``          Five-Handed: no ace, no face, no trump
``XX``                 card mode: play a card
``won N``              table mode: seat N took the trick
``tricks N``           table mode, partnerships: the makers took N tricks
``claim N``            seat N lays down and takes the remaining tricks
``renege N``           seat N reneged: the hand ends
``reveal N``/``reveal none``  table mode: who held the partner card
=====================  ======================================================
"""

from euchre.cards import card_name, parse_card, parse_cards, parse_suit, SUITS

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

NOBODY = 63      # arg for "defend none" / "reveal none"
NOSUIT = 4       # arg for "order" without a suit
TURN_ASK = 0     # flag of TURN: the dealer's decision (card mode)
TURN_SUIT = 1    # ... table mode, the suit of the turned card
TURN_CARD = 2    # ... card mode, the chance outcome

_WORDS = ("", "pass", "order", "call", "name", "turn", "alone", "partner",
          "discard", "give", "defend", "throwin", "won", "claim", "renege",
          "reveal", "tricks", "redeal", "up", "deal", "farmers", "twos",
          "acenoface", "ninetens")
_KIND = {}
for _i in range(1, len(_WORDS)):
    _KIND[_WORDS[_i]] = _i
del _i

_SEAT_KINDS = (DEFEND, THROWIN, WON, CLAIM, RENEGE, REVEAL, FARMERS, TWOS,
               ACENOFACE, NINETENS)
_CARD_KINDS = (PARTNER, DISCARD, GIVE)
_HOW = ("", " alone", " alone best")


def action(kind, arg=0, flag=0):
    """Build an action id."""
    return kind | arg << 5 | flag << 11


def kind_of(a):
    """Kind of an action id."""
    return a & 31


def action_name(a):
    """Text form of an action id (the ``deal`` cards are not in the id)."""
    kind, arg, flag = a & 31, (a >> 5) & 63, a >> 11
    if kind == PLAY:
        return card_name(arg)
    w = _WORDS[kind]
    if kind in _SEAT_KINDS:
        return w + (" none" if arg == NOBODY else " %d" % arg)
    if kind in _CARD_KINDS:
        return w + " " + card_name(arg)
    if kind == ORDER:
        return w + ("" if arg == NOSUIT else " " + SUITS[arg]) + _HOW[flag]
    if kind == CALL:
        return w + " " + SUITS[arg] + _HOW[flag]
    if kind == NAME:
        return w + " " + SUITS[arg]
    if kind == TURN:
        if flag == TURN_ASK:
            return w
        return w + " " + (SUITS[arg] if flag == TURN_SUIT else card_name(arg))
    if kind == UP:
        return w + " " + (SUITS[arg] if arg < 4 else card_name(arg))
    if kind == TRICKS:
        return w + " %d" % arg
    return w


def parse_action(text):
    """Parse the text form; returns ``(action_id, cards)`` where ``cards``
    is the list of dealt cards for ``deal`` and ``None`` otherwise.

    :raises ValueError: for text that is no action at all (legality is the
        state's business).
    """
    words = text.split()
    if not words:
        raise ValueError("empty action")
    w = words[0].lower()
    kind = _KIND.get(w)
    rest = words[1:]
    if kind is None:
        if len(words) == 1 and 2 <= len(w) <= 3:
            return parse_card(w) << 5, None
        raise ValueError("unknown action %r (see the notation in engine/README.md)" % text)
    if kind == DEAL:
        return DEAL, parse_cards(" ".join(rest))
    try:
        return _parse_args(kind, rest), None
    except (ValueError, IndexError):
        raise ValueError("malformed action %r" % text)


def _parse_args(kind, rest):
    n = len(rest)
    if kind in (PASS, ALONE, REDEAL):
        if n:
            raise ValueError
        return kind
    if kind in _SEAT_KINDS:
        if n != 1:
            raise ValueError
        arg = NOBODY if rest[0].lower() == "none" else int(rest[0])
        if not 0 <= arg <= NOBODY:
            raise ValueError
        return action(kind, arg)
    if kind in _CARD_KINDS:
        if n != 1:
            raise ValueError
        return action(kind, parse_card(rest[0]))
    if kind == TRICKS:
        if n != 1 or not 0 <= int(rest[0]) < 63:
            raise ValueError
        return action(kind, int(rest[0]))
    if kind == TURN:
        if n == 0:
            return action(TURN, 0, TURN_ASK)
        if n == 1 and len(rest[0]) == 1:
            return action(TURN, parse_suit(rest[0]), TURN_SUIT)
        return action(TURN, parse_card(rest[0]), TURN_CARD)
    if kind == UP or kind == NAME:
        if n != 1:
            raise ValueError
        if len(rest[0]) == 1:
            return action(kind, parse_suit(rest[0]))
        if kind == NAME:
            raise ValueError
        return action(kind, parse_card(rest[0]))
    # ORDER / CALL: [suit] [alone [best]]
    arg = NOSUIT
    if rest and rest[0].lower() not in ("alone", "best"):
        arg = parse_suit(rest[0])
        rest = rest[1:]
    if kind == CALL and arg == NOSUIT:
        raise ValueError
    how = " ".join(rest).lower()
    flag = {"": 0, "alone": 1, "alone best": 2}[how]
    return action(kind, arg, flag)
