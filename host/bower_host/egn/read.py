"""Reading any EGN a file holds as EGN 1.6: older 1.x files and packed deals.

:func:`upgrade` reads 1.0's and 1.1's key names as 1.6; :func:`unpack_deal`
decodes a packed deal (EGN's condensed bit format), :func:`expand` every
packed deal of a document.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from bower_host.egn.cards import EgnError


def phase_of(deal: dict, kind: str) -> dict | None:
    return next((p for p in deal.get("phases", ()) if p.get("type") == kind), None)


def expand(doc: dict) -> dict:
    """``doc`` with every packed deal unpacked (a new dict; ``doc`` is unchanged).

    :raises EgnError: a packed deal that does not decode.
    """
    out = dict(doc)
    out["deals"] = [unpack_deal(d, i) if isinstance(d, str) else d for i, d in enumerate(doc.get("deals") or [])]
    return out


# ----- older 1.x files ------------------------------------------------------------
#
# EGN 1.0 wrote some keys in snake_case (``player_cards``, ``calls_annotations``,
# ``match_id``...), numbered phases from 1, could call the play phase
# ``TRICK_PLAY_PHASE`` and had two fields 1.2 dropped as redundant: ``kitty``
# (the three cards under the upcard, ``""`` when unknown) and ``initialLead``
# (the seat that led the first trick). 1.1 renamed the keys; 1.2 to 1.6 only
# added fields. ``upgrade`` reads any of them as 1.6 and keeps the two old
# fields, which a reader may use as extra facts (a known kitty can tell the
# dealer's discard; ``initialLead`` must agree with EGN's lead rule).

READS = "1.0 to 1.6"
_VERSION_RE = re.compile(r"1\.[0-6](?:\.\d+)?")
_OLD_KEYS = {
    "file_type": "fileType", "match_id": "gameId", "matchId": "gameId", "initial_score": "initialScore",
    "final_score": "finalScore", "player_ids": "playerIds", "deal_number": "dealNumber",
    "initial_state": "initialState", "up_card": "upCard", "player_cards": "playerCards",
    "phase_number": "phaseNumber", "is_alone": "isAlone", "alone_defender": "aloneDefender",
    "card_exchanges": "cardExchanges", "calls_annotations": "callAnnotations",
    "tricks_annotations": "playAnnotations", "play_annotations": "playAnnotations",
    "alternative_lines": "alternativeLines", "branch_index": "branchIndex", "initial_lead": "initialLead",
    "max_deals": "num_deals",
}


def readable_version(version) -> bool:
    """Whether this reader takes an EGN file of ``version`` (1.0 to 1.6, any patch)."""
    return isinstance(version, str) and bool(_VERSION_RE.fullmatch(version))


def upgrade(doc: dict) -> dict:
    """``doc`` (EGN 1.0 to 1.6) with 1.0's snake_case keys renamed as 1.6 names
    them and ``TRICK_PLAY_PHASE`` read as ``TRICK_PLAY`` (a new dict; ``doc``
    is unchanged). A key present under both names keeps the current one.
    """
    def up(x: Any) -> Any:
        if isinstance(x, list):
            return [up(v) for v in x]
        if not isinstance(x, dict):
            return x
        out = {}
        for k, v in x.items():
            name = _OLD_KEYS.get(k, k)
            if name in out and name != k:
                continue
            out[name] = up(v)
        if out.get("type") == "TRICK_PLAY_PHASE":
            out["type"] = "TRICK_PLAY"
        return out
    return up(doc)


# ----- packed deals (EGN's condensed bit format, docs/binary-format.md) --------------
#
# A packed deal is Base64URL (padding optional) of a bit stream, most
# significant bit first. An integer field of maximum M takes as many bits as
# M has in binary. Cards index an ordered deck, rank by rank from min_rank,
# suits s h c d within a rank (the reference code's order; its prose says
# c d h s); trick cards index the cards not yet played and are removed once
# read. Versions: 0001 (V1), 0010 (V2: players, min rank, aloneDefender),
# 0011 (V3: V2 plus optional playerCards and discard); anything else, or a
# V1-3 stream that fails, is the legacy V0.

_PSUITS = "shcd"
_PRANKS = "23456789TJQKA"
_MIN_RANKS = (9, 8, 7, 6, 2)


class _Bits:
    def __init__(self, bits: str):
        self.bits, self.pos = bits, 0

    def read(self, n: int) -> str:
        if self.pos + n > len(self.bits):
            raise EgnError("packed deal: the bit stream ends early")
        s = self.bits[self.pos:self.pos + n]
        self.pos += n
        return s

    def int(self, most: int) -> int:
        return int(self.read(most.bit_length() or 1), 2)

    def flag(self) -> bool:
        return self.read(1) == "1"

    def left(self) -> int:
        return len(self.bits) - self.pos

    def rest(self) -> str:
        return self.bits[self.pos:]


def _deck(min_rank: int = 9) -> list:
    ranks = _PRANKS[_PRANKS.index(str(min_rank) if min_rank < 10 else "9"):]
    return [r + s for r in ranks for s in _PSUITS]


def _annotations(b: _Bits) -> dict | None:
    if not b.flag():
        return None
    out = {}
    for _ in range(b.int(255)):
        key = b.int(255)
        texts = []
        for _ in range(b.int(255)):
            n = b.int(65535)
            texts.append(bytes(int(b.read(8), 2) for _ in range(n)).decode("utf-8", "replace"))
        out[str(key)] = texts
    return out


def _bidding(b: _Bits, up: str, start: int, players: int, version: int, deck: list, notes: bool = True) -> dict:
    calls, made = [], False
    for _ in range(start, players) if start < players else ():
        if b.flag():
            calls.append("Order")
            made = True
            break
        calls.append("Pass")
    if not made:
        suits = [s for s in _PSUITS if s != up[1].lower()]
        for _ in range(max(0, start - players), players):
            v = b.int(3)
            if v == 0:
                calls.append("Pass")
                continue
            if v > len(suits):
                raise EgnError("packed deal: a round-2 call out of range")
            calls.append(suits[v - 1])
            break
    phase = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": b.flag()}
    if version >= 2 and phase["isAlone"] and b.flag():
        phase["aloneDefender"] = b.int(7)
    if version >= 3 and b.flag():
        phase["discard"] = deck[b.int(len(deck) - 1)]
    found = _annotations(b) if notes else None
    if found:
        phase["callAnnotations"] = found
    return phase


def _play(b: _Bits, per: int, remaining: list, first: int | None = None) -> dict:
    tricks = []
    for t in range(b.int(7)):
        trick = []
        for _ in range(first if t == 0 and first is not None else per):
            if not remaining:
                break
            i = b.int(len(remaining) - 1)
            if i >= len(remaining):
                raise EgnError("packed deal: a card index out of range")
            trick.append(remaining.pop(i))
        tricks.append(trick)
    phase = {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks}
    notes = _annotations(b)
    if notes:
        phase["playAnnotations"] = notes
    return phase


def _remaining_at(deal: dict, branch: int, deck: list) -> list:
    # The cards not yet played after ``branch`` actions of the main line.
    left, n = list(deck), 0
    for p in deal["phases"]:
        if p["type"] == "EUCHRE_BIDDING":
            if n + len(p["calls"]) > branch:
                return left
            n += len(p["calls"])
        else:
            for trick in p["tricks"]:
                for c in trick:
                    if n >= branch:
                        return left
                    left.remove(c)
                    n += 1
    return left


def _unpack(b: _Bits, version: int, number: int) -> dict:
    if version == 1:
        dealer, players, deck = b.int(3), 4, _deck(9)
    else:
        dealer, players = b.int(7), b.int(7) + 1
        code = b.int(3)
        deck = _deck(_MIN_RANKS[code] if code < len(_MIN_RANKS) else 9)
    remaining = list(deck)
    up = remaining[b.int(len(remaining) - 1)] if len(deck) else None
    if up is None or up not in deck:
        raise EgnError("packed deal: the upcard index is out of range")
    deal = {"dealNumber": number, "initialState": {"dealer": dealer, "upCard": up}, "phases": []}
    if version >= 3 and b.flag():
        hands = []
        for _ in range(players):
            hands.append([deck[b.int(len(deck) - 1)] for _ in range(b.int(15))])
        deal["initialState"]["playerCards"] = hands
    alone = defended = False
    for p in range(b.int(7)):
        if b.read(1) == "0":
            ph = _bidding(b, up, 0, players, version, deck)
            alone, defended = ph["isAlone"], ph.get("aloneDefender", -1) >= 0
        else:
            ph = _play(b, players - (2 if alone and defended else 1 if alone else 0), remaining)
        ph["phaseNumber"] = p
        deal["phases"].append(ph)
    if b.flag():
        lines = []
        for _ in range(b.int(255)):
            branch = b.int(65535)
            left = _remaining_at(deal, branch, deck)
            a_alone, a_defended, phases = alone, defended, []
            for p in range(b.int(15)):
                if b.read(1) == "0":
                    ph = _bidding(b, up, branch, players, version, deck)
                    a_alone, a_defended = ph["isAlone"], ph.get("aloneDefender", -1) >= 0
                else:
                    per = players - (2 if a_alone and a_defended else 1 if a_alone else 0)
                    first = None
                    main = phase_of(deal, "EUCHRE_BIDDING")
                    played = branch - (len(main["calls"]) if main else 0)
                    if p == 0 and played > 0 and played % per:
                        first = per - played % per
                    ph = _play(b, per, left, first)
                phases.append(ph)
            lines.append({"branchIndex": branch, "phases": phases})
        deal["alternativeLines"] = lines
    if b.read(4) != "1010":
        raise EgnError("packed deal: no end marker (the data is damaged)")
    return deal


def _unpack_v0(bits: str, number: int) -> dict:
    b = _Bits(bits)
    deck = _deck(9)
    dealer = b.int(3)
    up = deck[b.int(len(deck) - 1)]
    deal = {"dealNumber": number, "initialState": {"dealer": dealer, "upCard": up}, "phases": []}

    def done():
        return not b.left() or (b.left() < 8 and "1" not in b.rest())

    if done():
        return deal
    bid = _bidding(b, up, 0, 4, 0, deck, notes=False)
    deal["phases"].append(bid)
    if done():
        return deal
    remaining, per = list(deck), 3 if bid["isAlone"] else 4
    tricks, trick = [], []
    while b.left() and remaining:
        width = (len(remaining) - 1).bit_length() or 1
        if b.left() < width or (not trick and b.left() < 8 and "1" not in b.rest()):
            break
        i = b.int(len(remaining) - 1)
        if i >= len(remaining):
            raise EgnError("packed deal: a card index out of range")
        trick.append(remaining.pop(i))
        if len(trick) == per:
            tricks.append(trick)
            trick = []
    if trick:
        tricks.append(trick)
    deal["phases"].append({"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks})
    return deal


def unpack_deal(text: str, number: int = 0) -> dict:
    """A packed (Base64URL) EGN deal as a deal object.

    :raises EgnError: not Base64URL, or a bit stream that does not decode.
    """
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9+/_-]*={0,2}", text):
        raise EgnError("a packed deal must be a Base64URL string")
    s = text.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise EgnError("a packed deal is not valid Base64URL (its length or padding is wrong)") from None
    bits = "".join(f"{x:08b}" for x in raw)
    head = bits[:4]
    if head in ("0001", "0010", "0011"):
        b = _Bits(bits)
        b.read(4)
        try:
            return _unpack(b, int(head, 2), number)
        except (EgnError, IndexError, ValueError):
            pass            # a V0 deal that happens to start like a header
    try:
        return _unpack_v0(bits, number)
    except (IndexError, ValueError):
        raise EgnError("a packed deal does not decode (its bits end early or hold a value out of range)") from None
