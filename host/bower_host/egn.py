"""Euchre Game Notation (EGN) export.

EGN (the public repository NextSuit-Labs/euchre-game-notation, schema 1.6)
is JSON: ``metadata`` (players, initial and final team scores, ``ruleset``)
and one object per deal: ``initialState`` (dealer, ``upCard``, optionally
every seat's ``playerCards``), an ``EUCHRE_BIDDING`` phase (``calls`` in seat
order from the dealer's left: ``"Pass"``, ``"Order"`` in round 1, a suit
letter in round 2; ``isAlone``, ``aloneDefender``, ``discard``,
``cardExchanges``) and a ``TRICK_PLAY`` phase (the cards of each trick in the
order they fell). Who led and who won each trick are not written: a reader
derives them with EGN's deterministic rules (``deal_outcome`` implements
them), and ``from_replay`` checks that they give back exactly the seats and
points Bower's engine recorded.

What Bower exports:

* Classic Euchre only: EGN records 4-player partnership games of 7s-to-aces
  plus one joker. Five-Handed, Call-Your-Partner and Ultimate raise
  ``EgnError`` saying why, as does any Classic option EGN's ruleset has no
  name for when it is on.
* Card-mode games carry every card: the deal, the discard, partner's best and
  farmers' exchanges, and the tricks.
* Table-mode games (what the device records at a real table) carry no card
  plays, because nobody enters cards: each deal has the upcard's suit (rank
  unknown, ``"Xh"``) and the bidding, and the result the table entered is
  noted on the deal's last call (``callAnnotations``). ``finalScore`` holds the
  game's score once it is over.
* Redealt hands (misdeals) are left out: nothing scored and the same dealer
  dealt again, which the next deal shows.

::

    doc = from_log(log_text, game_id="e6614103e7/g0001")
    text = dumps(doc)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from euchre.cardmode import played_by
from euchre.cards import HIGH_JOKER, LOW_JOKER, RANKS, SUITS, card_name, parse_card
from euchre.hand import P_BID1, P_BID2, REDEAL, SCORED
from euchre.notation import option_label

from bower_host.db import Replay, replay

FILE_TYPE = "Euchre Game Notation"
VERSION = "1.6"
MAX_DEALS = 100           # schema: deals maxItems
MAX_NAME = 64             # schema: player name / gameId maxLength
MAX_TITLE = 128           # schema: title maxLength

# Why EGN cannot hold the other variants.
UNSUPPORTED = {
    "five": "EGN records 4-player partnership games; Five-Handed has 5 players scoring alone, "
            "a called partner card and the permanent trumps 2S/2H or jokers, none of which EGN can write",
    "callpartner": "EGN records 4-player partnership games; Call-Your-Partner has 5 players scoring "
                   "alone and a called partner card, which EGN has no field for",
    "ultimate": "EGN cards run from 7 to ace (plus one joker) and a deal holds at most 10 tricks; "
                "Ultimate deals 54 cards with 2s to 6s and two jokers, 11 tricks a hand",
}

# Classic options under their EGN ruleset names (Bower's names follow EGN).
RULESET_OPTIONS = ("std", "winning_score", "canadian", "loner_lead", "defend_alone",
                   "farmers", "partners_best", "joker")
# Classic options EGN has no name for: a game with one on cannot be exported.
NO_EGN_NAME = ("farmers_nines_only", "farmers_no_call", "ace_no_face", "renege_deduct")

_LEFT = {"c": "s", "s": "c", "d": "h", "h": "d"}
_RANK = {r: i for i, r in enumerate("789TJQKA")}


class EgnError(ValueError):
    """The game cannot be written as EGN; the message says why."""


def egn_card(card: int) -> str:
    """Bower card id to EGN: rank then lower-case suit (``"Jd"``); the joker is ``"B"``.

    :raises EgnError: a card EGN has no notation for (2s to 6s, the low joker).
    """
    if card == HIGH_JOKER:
        return "B"
    if card == LOW_JOKER or card % 13 < 5:
        raise EgnError(f"EGN has no notation for the card {card_name(card)}")
    return RANKS[card % 13] + SUITS[card // 13].lower()


# ----- export ------------------------------------------------------------------

def from_log(text: str, game_id: str | None = None) -> dict:
    """The EGN document of a Bower game log (see the module docstring).

    :raises EgnError: the game cannot be expressed in EGN (says why).
    :raises euchre.log.LogError: the log does not replay.
    """
    return from_replay(replay(text), game_id)


def from_replay(rp: Replay, game_id: str | None = None) -> dict:
    """Like ``from_log`` for an already replayed log."""
    g = rp.game
    r = g.rules
    if r.name in UNSUPPORTED:
        raise EgnError(f"EGN cannot express {r.title}: {UNSUPPORTED[r.name]}")
    on = [k for k in NO_EGN_NAME if r.options.get(k)]
    if on:
        names = ", ".join(f"{option_label(k)} ({k})" for k in on)
        raise EgnError(f"EGN's ruleset has no rule for {names}, which this game plays with")
    for p in g.players:
        if len(p) > MAX_NAME:
            raise EgnError(f"EGN allows player names of up to {MAX_NAME} characters: {p[:20]}...")
    ruleset = {k: r.options[k] for k in RULESET_OPTIONS}
    ruleset["std"] = bool(r.std)
    march = _lone_march_score(rp)
    if march is not None and march != 4:
        ruleset["loner_march_score"] = march

    deals: list = []
    for rec in rp.hands:
        if rec.hand.result == REDEAL:
            continue
        deal = _deal(len(deals), rec, g)
        if g.cards:
            _check(deal, ruleset, rec)
        deals.append(deal)
    if len(deals) > MAX_DEALS:
        raise EgnError(f"EGN holds at most {MAX_DEALS} deals; this game has {len(deals)}")

    md: dict = {}
    if game_id and len(game_id) <= MAX_NAME:
        md["gameId"] = game_id
    title = f"{r.title}: {' & '.join(g.players[0::2])} v {' & '.join(g.players[1::2])}"
    md["title"] = title if len(title) <= MAX_TITLE else r.title
    md["description"] = _description(rp)
    md["players"] = list(g.players)
    md["initialScore"] = [0, 0]
    if g.result:
        md["finalScore"] = [g.scores[0], g.scores[1]]
    started = rp.header.get("started")
    if isinstance(started, int) and not isinstance(started, bool) and started > 0:
        md["date"] = datetime.fromtimestamp(started, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    md["ruleset"] = ruleset
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": md, "deals": deals}


def dumps(doc: dict) -> str:
    """EGN text (indented JSON, as the spec's examples are written)."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _description(rp: Replay) -> str:
    g = rp.game
    if g.cards:
        text = "Card-mode game from Bower: every card dealt and played."
    else:
        text = ("Recorded at a real table with Bower: the upcard's suit, every bid and each hand's "
                "result are known, the cards are not, so deals have no TRICK_PLAY phase and each "
                "scored deal notes its result on its last call.")
    if g.result is None:
        text += (f" The game was in progress (hand {g.hand_no}, score {g.scores[0]}-{g.scores[1]}), "
                 "so there is no finalScore.")
    redeals = sum(1 for rec in rp.hands if rec.hand.result == REDEAL)
    if redeals:
        text += f" {redeals} misdeal{'s' if redeals > 1 else ''} (redealt by the same dealer) left out."
    return text


def _lone_march_score(rp: Replay) -> int | None:
    # EGN has one loner_march_score; partner's best (003) makes a lone march
    # with the partner's card score 3 and a plain one 4.
    seen = {}
    for rec in rp.hands:
        h = rec.hand
        if h.result == SCORED and h.alone and h.renege < 0 and h.maker_tricks() == h.rules.hand_size:
            seen.setdefault(h.points[h.maker], rec.number)
    if len(seen) > 1:
        detail = ", ".join(f"{p} points in hand {n}" for p, n in sorted(seen.items()))
        raise EgnError(f"EGN has a single loner_march_score, but this game scored lone marches differently "
                       f"({detail}: partner's best)")
    return next(iter(seen), None)


def _deal(number: int, rec, g) -> dict:
    h = rec.hand
    if h.upcard >= HIGH_JOKER:
        raise EgnError(f"hand {rec.number}: the joker was turned up and the dealer named its suit; "
                       "EGN has no way to record the named suit")
    if g.cards:
        up = egn_card(h.upcard)
    else:
        up = "X" + SUITS[h.up_suit].lower()     # the rank is not entered at a table
    init: dict = {"dealer": h.dealer, "upCard": up}
    if g.cards:
        k = h.rules.hand_size
        init["playerCards"] = [[egn_card(c) for c in h.dealt[s * k:(s + 1) * k]] for s in range(h.n)]

    calls, discard, gives = [], None, []
    for phase, ev in rec.events:
        w = ev.split()
        if phase in (P_BID1, P_BID2) and w[0] in ("pass", "order", "call"):
            calls.append("Pass" if w[0] == "pass" else "Order" if w[0] == "order" else w[1].lower())
        elif w[0] == "discard":
            discard = parse_card(w[1])
        elif w[0] == "give":
            gives.append(parse_card(w[1]))
    bid: dict = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": bool(h.alone)}
    if h.lone_defender >= 0:
        bid["aloneDefender"] = h.lone_defender
    if discard is not None:
        bid["discard"] = egn_card(discard)
    exchanges = []
    if g.cards and h.farmer >= 0:
        # 003: the farmer takes the three kitty cards under the upcard (no
        # sender: they come from the kitty).
        base = h.n * h.rules.hand_size
        exchanges.append({"receiver": h.farmer, "cards": [egn_card(c) for c in h.dealt[base + 1:base + 4]]})
    if len(gives) == 2:
        partner = (h.maker + 2) % 4
        exchanges.append({"sender": partner, "receiver": h.maker, "cards": [egn_card(gives[0])]})
        exchanges.append({"sender": h.maker, "receiver": partner, "cards": [egn_card(gives[1])]})
    if exchanges:
        bid["cardExchanges"] = exchanges
    if not g.cards and h.result == SCORED:
        bid["callAnnotations"] = {str(len(calls) - 1): [_result_note(h, g.players)]}
    phases = [bid]
    if g.cards and len(h.played):
        per = h.n - sum(h.out)
        cards = [egn_card(c) for c in h.played]
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY",
                       "tricks": [cards[i:i + per] for i in range(0, len(cards), per)]})
    return {"dealNumber": number, "initialState": init, "phases": phases}


def _result_note(h, players) -> str:
    side = [players[0] + " & " + players[2], players[1] + " & " + players[3]]
    gained = ", ".join(f"{side[s]} {h.points[s]:+d}" for s in (0, 1) if h.points[s])
    if h.renege >= 0:
        return f"Result entered at the table: {players[h.renege]} reneged; {gained}"
    t = h.maker_tricks()
    return (f"Result entered at the table: {side[h.maker & 1]} took {t} trick{'s' if t != 1 else ''} "
            f"({h.reason}); {gained}")


def _check(deal: dict, ruleset: dict, rec) -> None:
    # EGN's rules must give back who played each card and the points.
    h = rec.hand
    out = deal_outcome(deal, ruleset)
    if out.seats is None:
        return
    seats = [s for trick in out.seats for s in trick]
    by = played_by(h)
    if seats != by:
        first = by[:1]
        why = ""
        if h.lone_defender >= 0 and first == [h.lone_defender]:
            why = " (the lone defender leads, 004)"
        raise EgnError(f"hand {rec.number}: seat {by[0]} led{why}, but EGN's rules make seat "
                       f"{out.seats[0][0]} lead; EGN cannot record who led")
    got = [h.points[0], h.points[1]]
    if out.delta != got:
        raise EgnError(f"hand {rec.number}: EGN's rules score it {out.delta}, Bower scored {got} ({h.reason})")


# ----- EGN's deterministic rules (the reader's side) ---------------------------------

@dataclass
class DealOutcome:
    """What a deal amounts to under EGN's deterministic rules."""
    maker: int | None           # None: everybody passed (a throw-in)
    trump: str | None
    sit_out: frozenset
    seats: list | None = None   # per trick, the seat of each card (None: no TRICK_PLAY)
    tricks: list | None = None  # tricks won per team [0/2, 1/3]
    delta: list | None = None   # points per team [0/2, 1/3]


def _phase(deal: dict, kind: str) -> dict | None:
    return next((p for p in deal.get("phases", ()) if p.get("type") == kind), None)


def _eff(card: str, trump: str) -> str:
    if card == "B":
        return trump
    if card[0] == "J" and card[1].lower() == _LEFT[trump]:
        return trump
    return card[1].lower()


def _power(card: str, trump: str, led: str) -> int:
    if card == "B":
        return 200
    rank, suit = ("9" if card[0] == "N" else card[0]), card[1].lower()
    if rank == "J" and suit == trump:
        return 100
    if rank == "J" and suit == _LEFT[trump]:
        return 99
    if suit == trump:
        return 80 + _RANK[rank]
    if suit == led:
        return 40 + _RANK[rank]
    return 0


def deal_outcome(deal: dict, ruleset: dict | None = None) -> DealOutcome:
    """Derive maker, trump, who played each card and the points of a deal.

    EGN's rules: the maker is the first non-``Pass`` call's seat (calls run
    clockwise from the dealer's left); ``"Order"`` in round 1 makes the
    upcard's suit trump, a round-2 call names it. A lone maker's partner and
    a lone defender's partner sit out. Trick 1 is led left of the dealer
    (left of the loner with ``loner_lead: LEFT_OF_LONER``), skipping seats
    that sit out; each trick's winner leads the next. Makers with 3 or 4
    tricks score 1, 5 tricks 2 (``loner_march_score`` alone); euchred makers
    give the defenders 2 (``loner_euchred_score`` against a loner, 4 for a lone
    defender).
    """
    rs = ruleset or {}
    dealer = deal["initialState"]["dealer"]
    up = deal["initialState"]["upCard"]
    bid = _phase(deal, "EUCHRE_BIDDING")
    calls = bid["calls"] if bid else []
    idx = next((i for i, c in enumerate(calls) if c != "Pass"), None)
    if idx is None:
        return DealOutcome(None, None, frozenset())
    maker = (dealer + 1 + idx) % 4
    trump = up[1].lower() if idx < 4 else calls[idx].lower()
    alone = bool(bid.get("isAlone"))
    defender = bid.get("aloneDefender", -1) if rs.get("defend_alone") else -1
    out = set()
    if alone:
        out.add((maker + 2) % 4)
    if defender is not None and defender >= 0:
        out.add((defender + 2) % 4)
    res = DealOutcome(maker, trump, frozenset(out))
    play = _phase(deal, "TRICK_PLAY")
    if play is None:
        return res
    lead = (maker + 1) % 4 if alone and rs.get("loner_lead") == "LEFT_OF_LONER" else (dealer + 1) % 4
    while lead in out:
        lead = (lead + 1) % 4
    seats, taken = [], [0, 0]
    for trick in play["tricks"]:
        order, s = [], lead
        for i in range(len(trick)):
            if i:
                s = (s + 1) % 4
                while s in out:
                    s = (s + 1) % 4
            order.append(s)
        led = _eff(trick[0], trump)
        best = max(range(len(trick)), key=lambda i: _power(trick[i], trump, led))
        lead = order[best]
        taken[lead % 2] += 1
        seats.append(order)
    side = maker % 2
    delta = [0, 0]
    if taken[side] >= 3:
        if taken[side] == 5:
            delta[side] = rs.get("loner_march_score", 4) if alone else 2
        else:
            delta[side] = 1
    elif defender is not None and defender >= 0:
        delta[1 - side] = 4
    else:
        delta[1 - side] = rs.get("loner_euchred_score", 2) if alone else 2
    res.seats, res.tricks, res.delta = seats, taken, delta
    return res


def final_score(doc: dict) -> list:
    """``initialScore`` plus the points of every deal that has its tricks (EGN's rules)."""
    md = doc["metadata"]
    score = list(md.get("initialScore") or [0, 0])
    rs = md.get("ruleset") or {}
    for deal in doc["deals"]:
        d = deal_outcome(deal, rs).delta
        if d:
            score = [score[0] + d[0], score[1] + d[1]]
    return score
