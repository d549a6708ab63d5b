"""Euchre Game Notation (EGN): Bower's writer and reader.

EGN (the public repository NextSuit-Labs/euchre-game-notation, schema 1.6)
is JSON: ``metadata`` (players, initial and final team scores, ``ruleset``)
and one object per deal: ``initialState`` (dealer, ``upCard``, optionally
every seat's ``playerCards``), an ``EUCHRE_BIDDING`` phase (``calls`` in seat
order from the dealer's left: ``"Pass"``, ``"Order"`` in round 1, a suit
letter in round 2; ``isAlone``, ``aloneDefender``, ``discard``,
``cardExchanges``) and a ``TRICK_PLAY`` phase (the cards of each trick in the
order they fell). A deal may also be packed: a Base64URL string of EGN's
condensed bit format (``unpack_deal``). Who led and who won each trick are
not written: a reader derives them with EGN's deterministic rules
(``deal_outcome`` implements them), and ``from_replay`` checks that they give
back exactly the seats and points Bower's engine recorded, deal by deal.

What Bower writes (``host/EXPORTS.md`` says it for users):

* Classic Euchre only. Five-Handed, Call-Your-Partner, Ultimate and the
  variants for three, six and two players raise ``EgnError`` saying why, as does any Classic option EGN's ruleset has no
  name for when it is on, and any deal EGN would read differently from what
  happened (a defender alone against a maker who is not alone; a lone
  defender leading, 004; a lone march EGN's single ``loner_march_score``
  scores differently).
* The ruleset comes from the game's rules alone, so every game under one
  rule set carries the same ruleset.
* Card-mode games carry every card: the deal, the dealer's discard, the
  tricks, and the exchanges as EGN means them: a farmer receives the three
  kitty cards under the upcard (an exchange without a sender: from the
  kitty); under partner's best the partner sends the loner one card. The
  cards that go back (the farmer's three to the kitty, the loner's discard)
  have no EGN field: they are noted in ``callAnnotations`` (lines starting
  ``[Bower]``), which tools may strip without misreading anything.
* Table-mode games (what the device records at a real table) carry no card
  plays, so EGN tools score them 0-0: they are refused unless the caller
  opts in (``table_results=True``, ``bower export --table-results``); then
  each deal's result, and Bower's own events for the deal, are written in
  ``callAnnotations``, which is the only place EGN leaves for them.
* Hands entered in quick score (who made trump and how it ended) are
  refused, ``--table-results`` or not: a deal needs its upcard and bids.
* Redealt hands (misdeals) are not deals: nothing scored and the same dealer
  dealt again. (In table mode with results, their events go with the next
  deal's events, so an import gives back the same game.)

The reader's side (``bower import``, host/bower_host/importer.py) takes
EGN 1.0 to 1.6: ``upgrade`` reads 1.0's older key names, ``expand`` packed
deals, ``deal_outcome`` says who played each card and who took each trick.
A game that started at a score writes it as ``initialScore``.

::

    doc = from_log(log_text, game_id="e6614103e7/g0001")
    text = dumps(doc)
    final_score(json.loads(text))       # EGN's rules, packed deals included
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from euchre.cardmode import played_by
from euchre.cards import HIGH_JOKER, LOW_JOKER, RANKS, SUITS, card_name, parse_card
from euchre.hand import P_BID1, P_BID2, REDEAL, SCORED
from euchre.notation import option_label, outcome_text

from bower_host.db import Replay, is_quick, replay

if TYPE_CHECKING:
    from euchre import Rules

FILE_TYPE = "Euchre Game Notation"
VERSION = "1.6"
MAX_DEALS = 100           # schema: deals maxItems
MAX_NAME = 64             # schema: player name / gameId maxLength
MAX_TITLE = 128           # schema: title maxLength
MAX_NOTE = 1024           # schema: one annotation's maxLength

# Why EGN cannot hold the other variants.
UNSUPPORTED = {
    "five": "EGN records 4-player partnership games; Five-Handed has 5 players scoring alone, "
            "a called partner card and the permanent trumps 2S/2H or jokers, none of which EGN can write",
    "callpartner": "EGN records 4-player partnership games; Call-Your-Partner has 5 players scoring "
                   "alone and a called partner card, which EGN has no field for",
    "ultimate": "EGN cards run from 7 to ace (plus one joker) and a deal holds at most 10 tricks; "
                "Ultimate deals 54 cards with 2s to 6s and two jokers, 11 tricks a hand",
    "three": "EGN records 4-player partnership Euchre only; Three-Handed has 3 players, each scoring "
             "alone, the maker against the other two",
    "six": "EGN records 4-player partnership Euchre only; Six-Handed has 6 players in two sides of three "
           "and a 32-card deck",
    "two": "EGN records 4-player partnership Euchre only; Two-Handed has 2 players, each scoring alone",
}

# Classic options under their EGN ruleset names (Bower's names follow EGN).
RULESET_OPTIONS = ("std", "winning_score", "canadian", "loner_lead", "defend_alone",
                   "farmers", "partners_best", "joker")
# Classic options EGN has no name for: a game with one on cannot be exported.
NO_EGN_NAME = ("farmers_nines_only", "farmers_no_call", "ace_no_face", "renege_deduct")

QUICK_REFUSAL = ("hand %d was entered in quick score (who made trump and how it ended): EGN needs each "
                 "deal's upcard and bids, which quick score does not record")
TABLE_REFUSAL = ("it was recorded at the table (table mode): no cards were entered, so its results exist "
                 "only as notes in callAnnotations, which EGN says tools strip, and EGN tools score every "
                 "deal 0-0; export it with --table-results to write it that way anyway")

# Bower's notes in callAnnotations (machine-readable; see host/EXPORTS.md).
NOTE = "[Bower] "
EVENTS_NOTE = NOTE + "events: "
_EVENTS_RE = re.compile(r"^\[Bower\] events: (.*)$")

_LEFT = {"c": "s", "s": "c", "d": "h", "h": "d"}
_RANK = {r: i for i, r in enumerate("789TJQKA")}


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


def ruleset(rules: Rules) -> dict:
    """The EGN ruleset of Bower's Classic rules: the rules alone decide it."""
    rs = {k: rules.options[k] for k in RULESET_OPTIONS}
    rs["std"] = bool(rules.std)
    # EGN has one loner_march_score. Under partner's best (003) the lone
    # march the rule is about is the one with the partner's card: 3.
    _, _, _, alone_march, best_march, *_ = rules.score   # euchre.rules' score table
    march = best_march if rules.options.get("partners_best") else alone_march
    if march != 4:
        rs["loner_march_score"] = march
    return rs


# ----- export ------------------------------------------------------------------

def from_log(text: str, game_id: str | None = None, table_results: bool = False) -> dict:
    """The EGN document of a Bower game log (see the module docstring).

    :raises EgnError: the game cannot be expressed in EGN (says why).
    :raises euchre.log.LogError: the log does not replay.
    """
    return from_replay(replay(text), game_id, table_results)


def from_replay(rp: Replay, game_id: str | None = None, table_results: bool = False) -> dict:
    """Like ``from_log`` for an already replayed log."""
    g = rp.game
    r = g.rules
    if r.name in UNSUPPORTED:
        raise EgnError(f"EGN cannot express {r.title}: {UNSUPPORTED[r.name]}")
    if r.name != "classic":   # (a variant without its reason above: refused all the same)
        raise EgnError(f"EGN cannot express {r.title}: EGN records 4-player partnership Euchre only")
    on = [k for k in NO_EGN_NAME if r.options.get(k)]
    if on:
        names = ", ".join(f"{option_label(k)} ({k})" for k in on)
        raise EgnError(f"EGN's ruleset has no rule for {names}, which this game plays with")
    for rec in rp.hands:
        if is_quick(rec):
            raise EgnError(QUICK_REFUSAL % rec.number)
    if not g.cards and not table_results:
        raise EgnError(TABLE_REFUSAL)
    for p in g.players:
        if len(p) > MAX_NAME:
            raise EgnError(f"EGN allows player names of up to {MAX_NAME} characters: {p[:20]}...")
    rs = ruleset(r)

    deals: list = []
    before: list = []       # table mode: events of redealt hands, written with the next deal
    for rec in rp.hands:
        if rec.hand.result == REDEAL:
            before += [ev for _, ev in rec.events]
            continue
        deal = _deal(len(deals), rec, g, before)
        before = []
        if g.cards:
            _check(deal, rs, rec)
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
    start = g.start or [0, 0]
    md["initialScore"] = [start[0], start[1]]
    if g.result:
        md["finalScore"] = [g.scores[0], g.scores[1]]
    started = rp.header.get("started")
    if isinstance(started, int) and not isinstance(started, bool) and started > 0:
        md["date"] = datetime.fromtimestamp(started, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    md["ruleset"] = rs
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": md, "deals": deals}


def dumps(doc: dict) -> str:
    """EGN text (indented JSON, as the spec's examples are written)."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _description(rp: Replay) -> str:
    g = rp.game
    if g.cards:
        text = "Card-mode game from Bower: every card dealt and played."
    else:
        text = ("Recorded at a real table with Bower (exported with --table-results): the upcard's suit "
                "and every bid are known, the cards are not, so deals have no TRICK_PLAY phase and EGN "
                "tools score them 0-0; each deal's result and Bower's events for it are in "
                "callAnnotations on its last call.")
    if g.result is None:
        text += (f" The game was in progress (hand {g.hand_no}, score {g.scores[0]}-{g.scores[1]}), "
                 "so there is no finalScore.")
    # Misdeals before a deal (a trailing one belongs to the hand in progress).
    last = max((i for i, rec in enumerate(rp.hands) if rec.hand.result != REDEAL), default=-1)
    redeals = sum(1 for rec in rp.hands[:last] if rec.hand.result == REDEAL)
    if redeals:
        text += f" {redeals} misdeal{'s' if redeals > 1 else ''} (redealt by the same dealer) left out."
    return text


def _deal(number: int, rec, g, before: list) -> dict:
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
    notes: dict = {}

    def note(i, text):
        notes.setdefault(str(i), []).append(text)

    bid: dict = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": bool(h.alone)}
    if h.lone_defender >= 0:
        if h.alone:
            bid["aloneDefender"] = h.lone_defender
        elif g.cards:
            raise EgnError(f"hand {rec.number}: {g.players[h.lone_defender]} defended alone against a maker "
                           "who was not alone (004); EGN defines aloneDefender only against a loner "
                           "(isAlone: true), so its tools would misread the 3-card tricks")
    if discard is not None:
        bid["discard"] = egn_card(discard)
    exchanges = []
    if g.cards and h.farmer >= 0:
        # 003: the farmer takes the three kitty cards under the upcard (no
        # sender: from the kitty) and puts three 9s/10s back there, which
        # EGN has no receiver for: noted.
        base = h.n * h.rules.hand_size
        taken = h.dealt[base + 1:base + 4]
        k = h.rules.hand_size
        back = [c for c in h.dealt[h.farmer * k:(h.farmer + 1) * k] if c in h.kitty and c != discard]
        exchanges.append({"receiver": h.farmer, "cards": [egn_card(c) for c in taken]})
        note(0, f"{NOTE}farmer's hand: seat {h.farmer} ({g.players[h.farmer]}) put "
                f"{' '.join(egn_card(c) for c in back)} back in the kitty")
    if len(gives) == 2:
        # Partner's best: the partner sends the loner a card; the loner's
        # card back is, for EGN, a discard (003 hands it to the partner, who
        # sits out: either way it is out of play). EGN's one discard field
        # is the dealer's, so it is noted.
        partner = (h.maker + 2) % 4
        exchanges.append({"sender": partner, "receiver": h.maker, "cards": [egn_card(gives[0])]})
        note(len(calls) - 1, f"{NOTE}partner's best: seat {h.maker} ({g.players[h.maker]}) discarded "
                             f"{egn_card(gives[1])}")
    if exchanges:
        bid["cardExchanges"] = exchanges
    if not g.cards:
        if h.result == SCORED:
            note(len(calls) - 1, _result_note(h, g.players))
        events = "; ".join(before + [ev for _, ev in rec.events])
        if len(EVENTS_NOTE) + len(events) > MAX_NOTE:
            raise EgnError(f"hand {rec.number}: too many inputs to note in one EGN annotation")
        note(len(calls) - 1, EVENTS_NOTE + events)
    if notes:
        bid["callAnnotations"] = notes
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
    alone = f"; {players[h.lone_defender]} defended alone" if h.lone_defender >= 0 else ""
    return (f"Result entered at the table: {side[h.maker & 1]} took {t} trick{'s' if t != 1 else ''} "
            f"({outcome_text(h.outcome)}{alone}); {gained}")


def _check(deal: dict, rs: dict, rec) -> None:
    # EGN's rules must give back who played each card and the points.
    h = rec.hand
    out = deal_outcome(deal, rs)
    if out.seats is None:
        return
    seats = [s for trick in out.seats for s in trick]
    by = played_by(h)
    if seats != by or (by and by[0] != out.first_lead):
        why = ""
        if h.lone_defender >= 0 and by[:1] == [h.lone_defender]:
            why = " (the lone defender leads, 004)"
        raise EgnError(f"hand {rec.number}: seat {by[0]} led{why}, but EGN's rules make seat "
                       f"{out.first_lead} lead; EGN cannot record who led")
    got = [h.points[0], h.points[1]]
    if out.delta != got:
        why = outcome_text(h.outcome, h.renege)
        if h.alone == 1 and rs.get("partners_best") and h.maker_tricks() == h.rules.hand_size:
            why = ("a lone march without partner's best; EGN has a single loner_march_score, "
                   f"{rs.get('loner_march_score', 4)} under partner's best (003)")
        raise EgnError(f"hand {rec.number}: EGN's rules score it {out.delta}, Bower scored {got} ({why})")


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
    first_lead: int | None = None   # the seat EGN's lead rule names (skipping only the loner's partner)
    winners: list | None = None     # the seat that took each whole trick


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
    """Derive maker, trump, who played each card and the points of a deal
    (a deal object, or a packed deal string).

    EGN's rules: the maker is the first non-``Pass`` call's seat (calls run
    clockwise from the dealer's left); ``"Order"`` in round 1 makes the
    upcard's suit trump, a round-2 call names it. A lone maker's partner
    sits out, and so does a lone defender's partner (``aloneDefender``, with
    ``defend_alone``, against a loner only). Trick 1 is led left of the
    dealer (left of the loner with ``loner_lead: LEFT_OF_LONER``), skipping
    seats that sit out; each trick's winner leads the next. A trick with
    fewer cards than seats in play has no winner (the lead passes on), as in
    EGN's reference scorer, and a deal scores only once a side has 3 tricks:
    makers with 3 or 4 score 1, 5 tricks 2 (``loner_march_score`` alone);
    defenders with 3 euchre the makers for 2 (``loner_euchred_score``
    against a loner, 4 for a lone defender).
    """
    if isinstance(deal, str):
        deal = unpack_deal(deal)
    rs = ruleset or {}
    dealer = deal["initialState"]["dealer"]
    up = deal["initialState"]["upCard"]
    bid = _phase(deal, "EUCHRE_BIDDING")
    calls = bid["calls"] if bid else []
    idx = next((i for i, c in enumerate(calls) if c != "Pass"), None)
    if idx is None or bid is None:
        return DealOutcome(None, None, frozenset())
    maker = (dealer + 1 + idx) % 4
    trump = up[1].lower() if idx < 4 else calls[idx].lower()
    alone = bool(bid.get("isAlone"))
    defender = bid.get("aloneDefender", -1) if rs.get("defend_alone") and alone else -1
    if not isinstance(defender, int) or not 0 <= defender < 4 or defender % 2 == maker % 2:
        defender = -1
    out = set()
    if alone:
        out.add((maker + 2) % 4)
    if defender >= 0:
        out.add((defender + 2) % 4)
    res = DealOutcome(maker, trump, frozenset(out))
    play = _phase(deal, "TRICK_PLAY")
    if play is None:
        return res
    first = (maker + 1) % 4 if alone and rs.get("loner_lead") == "LEFT_OF_LONER" else (dealer + 1) % 4
    lead = first
    if alone and lead == (maker + 2) % 4:
        lead = (lead + 1) % 4
    # EGN's reference tools skip only the loner's partner: the seat they make
    # lead (a lone defender's partner there is a seat that may not play).
    res.first_lead = lead
    while lead in out:
        lead = (lead + 1) % 4

    def after(s, k):
        # The k-th seat in play after s.
        for _ in range(k):
            s = (s + 1) % 4
            while s in out:
                s = (s + 1) % 4
        return s

    per = 4 - len(out)
    seats, taken, winners = [], [0, 0], []
    for trick in play["tricks"]:
        order = [after(lead, i) for i in range(len(trick))]
        seats.append(order)
        if len(trick) == per and trump in _LEFT:
            led = _eff(trick[0], trump)
            best = max(range(len(trick)), key=lambda i: _power(trick[i], trump, led))
            lead = order[best]
            taken[lead % 2] += 1
            winners.append(lead)
        else:
            lead = after(lead, 1)
    side = maker % 2
    delta = [0, 0]
    if taken[side] >= 3:
        if taken[side] == 5:
            delta[side] = rs.get("loner_march_score", 4) if alone else 2
        else:
            delta[side] = 1
    elif taken[1 - side] >= 3:
        if defender >= 0:
            delta[1 - side] = 4
        else:
            delta[1 - side] = rs.get("loner_euchred_score", 2) if alone else 2
    res.seats, res.tricks, res.delta, res.winners = seats, taken, delta, winners
    return res


def final_score(doc: dict) -> list:
    """``initialScore`` plus the points of every deal that has its tricks (EGN's rules)."""
    md = doc["metadata"]
    score = list(md.get("initialScore") or [0, 0])
    rs = md.get("ruleset") or {}
    for i, deal in enumerate(doc["deals"]):
        d = deal_outcome(unpack_deal(deal, i) if isinstance(deal, str) else deal, rs).delta
        if d:
            score = [score[0] + d[0], score[1] + d[1]]
    return score


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
                    main = _phase(deal, "EUCHRE_BIDDING")
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
    except (binascii.Error, ValueError) as e:
        raise EgnError(f"a packed deal is not valid Base64URL: {e}") from e
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
    except (IndexError, ValueError) as e:
        raise EgnError(f"a packed deal does not decode: {e}") from e
