"""EGN's card notation, and the error of everything EGN (:mod:`bower_host.egn`).

A card is its rank then its lower-case suit (``"Jd"``, ``"Nc"`` for the 9
of clubs in some files), the joker ``"B"``.
"""

from __future__ import annotations

from euchre.cards import HIGH_JOKER, LOW_JOKER, RANKS, SUITS, card_name, parse_card


class EgnError(ValueError):
    """The game cannot be written (or read) as EGN; the message says why."""


def egn_card(card: int) -> str:
    """Bower card id to EGN: rank then lower-case suit (``"Jd"``); the joker is ``"B"``.

    :raises EgnError: a card EGN has no notation for (2s to 6s, the low joker).
    """
    if card == HIGH_JOKER:
        return "B"
    if card == LOW_JOKER or card % 13 < 5:
        raise EgnError(f"EGN has no notation for the card {card_name(card)}")
    return RANKS[card % 13] + SUITS[card // 13].lower()


def bower_card(card: str) -> int:
    """EGN card to a Bower card id (``"Nc"`` is the 9 of clubs, ``"B"`` the joker).

    :raises EgnError: an unknown, generic or bower-relative card (``X``, ``R``, ``L``, ``t``...).
    """
    if card == "B":
        return HIGH_JOKER
    if not isinstance(card, str) or len(card) != 2 or card[0] not in "789NTJQKA" or card[1] not in "cdhsCDHS":
        raise EgnError(f"the card {card!r} is not a known card (Bower needs every card named)")
    return parse_card(("9" if card[0] == "N" else card[0]) + card[1].upper())
