"""Euchre Game Notation (EGN): Bower's writer and reader, one package.

This module is the writer (:func:`from_log`, :func:`dumps`, :func:`ruleset`);
:mod:`.cards` is EGN's card notation and its error, :mod:`.read` reads any
1.x file as 1.6 (packed deals included), :mod:`.rules` derives what a deal
amounts to as a reader must. ``bower import`` of a file is
:mod:`bower_host.importer.egnfile` (the importer's room: it imports this).

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

The reader's side (``bower import``, host/bower_host/importer/) takes
EGN 1.0 to 1.6: ``upgrade`` reads 1.0's older key names, ``expand`` packed
deals (both :mod:`bower_host.egn.read`), ``deal_outcome`` says who played
each card and who took each trick (:mod:`bower_host.egn.rules`). A game that
started at a score writes it as ``initialScore``. EGN's cards and
``EgnError`` are :mod:`bower_host.egn.cards`; this module is the writer.

::

    doc = from_log(log_text, game_id="e6614103e7/g0001")
    text = dumps(doc)
    egn.rules.final_score(json.loads(text))    # EGN's rules, packed deals included
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from euchre.cardmode import played_by
from euchre.cards import HIGH_JOKER, SUITS, parse_card
from euchre.hand import P_BID1, P_BID2, REDEAL, SCORED
from euchre.notation import option_label, outcome_text

from bower_host.db import Replay, is_quick, replay
from bower_host.egn import cards as cards, read as read, rules as rules
from bower_host.egn.cards import EgnError, egn_card
from bower_host.egn.rules import deal_outcome

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
NO_EGN_NAME = ("farmers_nines_only", "farmers_no_call", "ace_no_face", "renege_deduct", "misdeal_passes",
               "no_late_loners")

QUICK_REFUSAL = ("hand %d was entered in quick score (who made trump and how it ended): EGN needs each "
                 "deal's upcard and bids, which quick score does not record")
TABLE_REFUSAL = ("it was recorded at the table (table mode): no cards were entered, so its results exist "
                 "only as notes in callAnnotations, which EGN says tools strip, and EGN tools score every "
                 "deal 0-0; export it with --table-results to write it that way anyway")

# Bower's notes in callAnnotations (machine-readable; see host/EXPORTS.md).
NOTE = "[Bower] "
EVENTS_NOTE = NOTE + "events: "
_EVENTS_RE = re.compile(r"^\[Bower\] events: (.*)$")


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
    if rules.options.get("lone_euchre_4"):
        rs["loner_euchred_score"] = 4     # (EGN's default: 2, as Bower's)
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
        init["playerCards"] = [[egn_card(c) for c in h.play.dealt[s * k:(s + 1) * k]] for s in range(h.n)]

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
        taken = h.play.dealt[base + 1:base + 4]
        k = h.rules.hand_size
        back = [c for c in h.play.dealt[h.farmer * k:(h.farmer + 1) * k] if c in h.play.kitty and c != discard]
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
    if g.cards and len(h.play.played):
        per = h.n - sum(h.out)
        cards = [egn_card(c) for c in h.play.played]
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
