# Cards as small ints, and their text notation.
#
# A card is an int: ``suit * 13 + rank`` for the 52 suited cards, where suits
# are ``CDHS`` (0..3) and ranks ``23456789TJQKA`` (0..12); the two jokers are
# 52 (``HJ``, the high or "marked" joker, also the British "Benny") and 53
# (``LJ``, the low joker). One numbering covers every variant's deck, from
# Classic's 24 cards to Ultimate's 54, so a deal is a ``bytearray`` of seats
# indexed by card.
#
# Notation: rank then suit, ``JH`` (jack of hearts), ``TS`` (ten of spades,
# ``10S`` is accepted on input), ``2S``; jokers ``HJ`` and ``LJ``.
#
# >>> parse_card("JH"), card_name(35)
# (35, 'JH')
# >>> card_names(parse_cards("9H TH HJ"))
# '9H TH HJ'

import sys

# False under MicroPython, whose str methods and int() read input alike
# on their own (see _foreign, defined only where needed).
_HOST = sys.implementation.name != "micropython"

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
NO_SUIT = 4  # the natural suit of a joker

HIGH_JOKER = 52
LOW_JOKER = 53
NUM_CARDS = 54

# The rank index of a jack (the bowers); card mode has the others.
RJ = 9


def card_name(card):
    """Return the notation of a card id, e.g. ``35 -> "JH"``."""
    if card >= HIGH_JOKER:
        return "LJ" if card > HIGH_JOKER else "HJ"
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text):
    """Parse ``"JH"``/``"10h"``/``"HJ"`` to a card id.

    :raises ValueError: if the text is not a card.
    """
    if _HOST and _foreign(text):
        raise ValueError(error_text("card", text))
    t = text.strip().upper()
    if t[:2] == "10":
        t = "T" + t[2:]
    if t == "HJ" or t == "LJ":
        return HIGH_JOKER + (t == "LJ")
    if len(t) == 2 and t[0] in RANKS and t[1] in SUITS:
        return SUITS.index(t[1]) * 13 + RANKS.index(t[0])
    raise ValueError(error_text("card", text))


def parse_cards(text):
    """Parse space- or slash-separated cards, ``"9H TH/JD"`` -> list of ids."""
    if _HOST and _foreign(text):
        raise ValueError(error_text("card", text))
    return list(map(parse_card, text.replace("/", " ").split()))


def card_names(cards):
    """Cards as space-separated notation."""
    return " ".join(map(card_name, cards))


def parse_suit(text):
    """``"H"``/``"hearts"`` -> 2.

    :raises ValueError: if the text is not a suit.
    """
    if _HOST and _foreign(text):
        raise ValueError(error_text("suit", text))
    t = text.strip().upper()
    for i in range(4):
        if t == SUITS[i] or t == SUIT_NAMES[i].upper():
            return i
    raise ValueError(error_text("suit", text))


def error_text(key, *args):
    """The text of the engine's error message ``key`` with its ``%``
    arguments: euchre.messages holds the texts and is loaded only now.
    """
    from euchre.messages import message
    return message(key, *args)


if _HOST:
    def _foreign(text):
        # True if CPython would read ``text`` otherwise than MicroPython.
        # MicroPython's str methods and int() know ASCII only and split
        # words at ASCII blanks; CPython's also fold, strip, split at and
        # count other characters ("\u017f".upper() is "S", "\xa0" and "\x1c"
        # split words, int("\u0663") is 3). MicroPython refuses such text
        # as no card, suit or action, so the parsers refuse it here too.
        if not text.isascii():
            return True
        for c in "\x1c\x1d\x1e\x1f":
            if c in text:
                return True
        return False
