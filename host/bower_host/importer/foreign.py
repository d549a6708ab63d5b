"""``bower import`` of an EGN game played with cards, Bower's or another tool's.

A deal is rebuilt from the cards each player held (given, or recovered from
the tricks and the discard: :func:`recover_hands`), the bids, the exchanges and
the tricks (:func:`card_deal`); a game whose cards are not all known goes
in as a table-mode game, the bids and who took each trick
(:func:`foreign_table_deal`).
"""

from __future__ import annotations

import json
from typing import Any

from euchre.cardmode import shuffled_deck
from euchre.cards import HIGH_JOKER, card_name
from euchre.hand import P_BID1, P_BID2, P_DECLARE, P_DEFEND, P_DISCARD, P_GIVE, P_GIVEBACK, P_PLAY, P_UP
from euchre.notation import outcome_text

from bower_host import egn
from bower_host.importer.common import ImportProblem, apply_event


class _Unknown(Exception):
    """A deal whose cards cannot all be known (the message says which): the
    game goes in as table mode."""


_DECK = [r + s for r in "9TJQKA" for s in "cdhs"]


def same_cards(x: Any) -> Any:
    # ``x`` with each card written one way: "N" (EGN's alias) as "9", the
    # suit lower case, so that cards compare as text.
    if isinstance(x, dict):
        return {k: same_cards(v) for k, v in x.items()}
    if isinstance(x, list):
        return [same_cards(v) for v in x]
    if isinstance(x, str) and len(x) == 2 and x[0] in "789NTJQKA" and x[1] in "cdhsCDHS":
        return ("9" if x[0] == "N" else x[0]) + x[1].lower()
    return x


def _hands_given(st: dict) -> list:
    # playerCards per seat as given: a seat's five cards, or [] (not recorded).
    pcs = st.get("playerCards")
    if pcs is None:
        return [[], [], [], []]
    if not isinstance(pcs, list) or len(pcs) != 4 or any(not isinstance(h, list) or len(h) not in (0, 5)
                                                         for h in pcs):
        raise ImportProblem("playerCards must list, for each of the 4 seats, its 5 cards or none")
    for h in pcs:
        for c in h:
            egn.cards.bower_card(c)   # (refuses what is not a card)
    return [list(h) for h in pcs]


def _full(st: dict) -> bool:
    pcs = st.get("playerCards")
    return isinstance(pcs, list) and len(pcs) == 4 and all(isinstance(h, list) and len(h) == 5 for h in pcs)


def recover_hands(deals: list, rs: dict):
    # (the deals with every player's cards filled in, "") when every card can
    # be known, else (None, why not). Deals that contradict themselves are
    # refused either way (``_check_play``).
    out, why = [], ""
    for i, deal in enumerate(deals):
        _check_play(deal, i, rs, i == len(deals) - 1)
        if why:
            continue
        if _full(deal["initialState"]):
            out.append(deal)
            continue
        try:
            out.append(_complete(deal, i, rs))
        except _Unknown as e:
            why = str(e)
    return (None, why) if why else (out, "")


def _played(deal: dict, o) -> list:
    # The cards each seat played, by EGN's lead rules (``o``: deal_outcome).
    play = egn.read.phase_of(deal, "TRICK_PLAY")
    seats = [[], [], [], []]
    for trick, order in zip(play["tricks"] if play else [], o.seats or []):
        for c, s in zip(trick, order):
            seats[s].append(c)
    return seats


def _picked_up(deal: dict) -> bool:
    # The upcard was ordered up (round 1).
    bid = egn.read.phase_of(deal, "EUCHRE_BIDDING") or {}
    calls = bid.get("calls") or []
    return any(c != "Pass" for c in calls[:4])


def _check_play(deal: dict, i: int, rs: dict, last: bool) -> None:
    # What a file without every player's cards must still get right: known
    # cards, each played once, the upcard with the dealer who picked it up
    # (and nobody else), whole tricks (only the last deal may stop early),
    # suit followed by whoever later shows the suit, each listed hand
    # holding what its seat played, initialLead (EGN 1.0) where EGN's rules
    # put the first lead.
    st = deal["initialState"]
    given = _hands_given(st)
    up = st["upCard"]
    play = egn.read.phase_of(deal, "TRICK_PLAY")
    tricks = play["tricks"] if play else []
    cards = [c for t in tricks for c in t]
    for c in [up] + cards:
        egn.cards.bower_card(c)
        if c not in _DECK and c != "B":
            raise ImportProblem(f"deal {i}: {c} is not in the deck Bower deals (9 to ace)")
    o = egn.rules.deal_outcome(deal, rs)
    if o.maker is None:
        if cards:
            raise ImportProblem(f"deal {i}: cards are played but nobody made trump")
        return
    seen = [c for c in cards if cards.count(c) > 1]
    if seen:
        raise ImportProblem(f"deal {i}: {seen[0]} is played twice")
    per = 4 - len(o.sit_out)
    short = [k for k, t in enumerate(tricks) if len(t) != per]
    if len(tricks) > 5 or any(k != len(tricks) - 1 for k in short) or (short and len(tricks[-1]) > per):
        raise ImportProblem(f"deal {i}: its tricks are not tricks of {per} cards")
    if not last and (len(tricks) < 5 or short):
        raise ImportProblem(f"deal {i}: only {len(tricks) - len(short)} of its 5 tricks are played, and "
                            "deals follow it (a hand is played out or redealt)")
    lead = play.get("initialLead") if play else None
    if lead is not None and lead != o.first_lead:
        raise ImportProblem(f"deal {i}: initialLead says seat {lead} led, but EGN's lead rule makes seat "
                            f"{o.first_lead} lead, so who played which card cannot be told")
    played = _played(deal, o)
    dealer = st["dealer"]
    picked = _picked_up(deal) and dealer not in o.sit_out
    for s in range(4):
        if up in played[s] and not (picked and s == dealer):
            raise ImportProblem(f"deal {i}: seat {s} played {up}, the upcard, which "
                                + ("the dealer picked up" if picked else "was turned down"))
    discard = bid_discard = (egn.read.phase_of(deal, "EUCHRE_BIDDING") or {}).get("discard")
    if picked and len(played[dealer]) == 5 and up not in played[dealer]:
        discard = up    # the dealer discarded the upcard itself
    if picked and discard is not None and discard in played[dealer]:
        raise ImportProblem(f"deal {i}: the dealer discarded {discard} and then played it")
    if bid_discard is not None and discard != bid_discard:
        raise ImportProblem(f"deal {i}: the dealer played five cards without {up}, the upcard, so discarded "
                            f"it, but the file's discard is {bid_discard}")
    taken = {}
    bid = egn.read.phase_of(deal, "EUCHRE_BIDDING") or {}
    for x in bid.get("cardExchanges") or []:
        taken.setdefault(x["receiver"], []).extend(x["cards"])
    for s in range(4):
        if given[s]:
            held = set(given[s]) | set(taken.get(s, [])) | ({up} if picked and s == dealer else set())
            odd = [c for c in played[s] if c not in held]
            if odd:
                raise ImportProblem(f"deal {i}: seat {s} played {odd[0]}, which its playerCards do not hold")
    # Following suit: a seat that did not follow the suit led and later
    # plays that suit held it then (a renege, which EGN cannot record).
    trump = o.trump or ""       # (a maker made it)
    for k, (trick, order) in enumerate(zip(tricks, o.seats or [])):
        if len(trick) < 2:
            continue
        led = egn.rules.effective_suit(trick[0], trump)
        for c, s in zip(trick[1:], order[1:]):
            if egn.rules.effective_suit(c, trump) == led:
                continue
            later = [x for x in played[s][played[s].index(c) + 1:] if egn.rules.effective_suit(x, trump) == led]
            if later:
                raise ImportProblem(f"deal {i}, trick {k + 1}: seat {s} played {c} on a {trick[0]} lead but "
                                    f"held {later[0]} (a renege, which EGN has no way to record)")


def _complete(deal: dict, i: int, rs: dict) -> dict:
    # ``deal`` with every player's five cards (and the dealer's discard)
    # filled in from the tricks, or _Unknown saying what is not recorded.
    st = deal["initialState"]
    bid = egn.read.phase_of(deal, "EUCHRE_BIDDING")
    play = egn.read.phase_of(deal, "TRICK_PLAY")
    o = egn.rules.deal_outcome(deal, rs)
    if bid is None or o.maker is None:
        raise _Unknown(f"deal {i} has no trump made, so nobody's cards are known")
    if bid.get("cardExchanges"):
        raise _Unknown(f"deal {i} exchanges cards (farmer's hand or partner's best) and not every "
                       "player's cards are recorded")
    tricks = play["tricks"] if play else []
    per = 4 - len(o.sit_out)
    if len(tricks) != 5 or any(len(t) != per for t in tricks):
        raise _Unknown(f"deal {i} stops after {len([t for t in tricks if len(t) == per])} of its 5 tricks, "
                       "so the cards not played are not known")
    defender = bid.get("aloneDefender", -1)
    if rs.get("defend_alone") and bid.get("isAlone") and isinstance(defender, int) and defender >= 0 \
            and defender != o.first_lead:
        raise _Unknown(f"deal {i}: seat {defender} defends alone and leads in Bower (004), but EGN's rules "
                       f"make seat {o.first_lead} lead")
    given = _hands_given(st)
    played = _played(deal, o)
    dealer, up = st["dealer"], st["upCard"]
    picked = _picked_up(deal) and dealer not in o.sit_out
    hands: list = [None] * 4
    for s in range(4):
        if given[s]:
            hands[s] = list(given[s])
        elif s in o.sit_out:
            who = "the lone maker's partner" if s == (o.maker + 2) % 4 else "the lone defender's partner"
            raise _Unknown(f"deal {i}: seat {s} ({who}) sat out and its cards are not recorded (playerCards)")
        else:
            hands[s] = [c for c in played[s] if not (picked and s == dealer and c == up)]
    discard = bid.get("discard")
    if picked and not given[dealer] and up not in played[dealer]:
        discard = up        # the dealer discarded the upcard itself (_check_play)
    elif picked and not given[dealer]:
        if discard is None:
            kitty = [c for c in st.get("kitty") or [] if c]
            left = [c for c in _DECK if c != up and c not in kitty and not any(c in h for h in hands if h)]
            if len(kitty) == 3 and len(left) == 1:
                discard = left[0]   # EGN 1.0's kitty tells it
            else:
                raise _Unknown(f"deal {i}: the dealer (seat {dealer}) picked up {up} and the discard is not "
                               "recorded, so the dealer's hand is not known")
        hands[dealer].append(discard)
    new = json.loads(json.dumps(deal))
    new["initialState"]["playerCards"] = hands
    if discard is not None:
        egn.read.phase_of(new, "EUCHRE_BIDDING")["discard"] = discard   # pyright: ignore[reportOptionalSubscript]
    return new


def _call_event(c: str, alone: bool, best: bool) -> str:
    if c == "Pass":
        return "pass"
    ev = "order" if c == "Order" else f"call {c.upper()}"
    return ev + (" alone" if alone else "") + (" best" if alone and best else "")


def _open_end(game, deal: dict, i: int, rs: dict, last: bool, what: str) -> None:
    # The record of deal ``i`` ends before its hand does: the last deal of a
    # game in progress, if EGN's rules do not score it yet.
    if not last:
        raise ImportProblem(f"deal {i}: {what} end before the hand does")
    d = egn.rules.deal_outcome(deal, rs).delta
    if d and any(d):
        raise ImportProblem(f"deal {i}: play stops early; EGN's rules score it {d} already, but Bower "
                            "scores a hand once all its tricks are played")


def foreign_table_deal(game, deal: dict, i: int, rs: dict, last: bool) -> None:
    # Table mode: the upcard's suit, each call, a lone defender, who took
    # each trick (by EGN's rules); a farmer's hand (003) is declared.
    st = deal["initialState"]
    up = st["upCard"]
    if egn.cards.bower_card(up) >= HIGH_JOKER:
        raise ImportProblem(f"deal {i}: the joker was turned up and EGN does not record the suit the dealer "
                            "named for it")
    bid = egn.read.phase_of(deal, "EUCHRE_BIDDING") or {}
    calls = list(bid.get("calls") or [])
    alone = bool(bid.get("isAlone"))
    defender = bid.get("aloneDefender", -1)
    farmer = best = None
    for x in bid.get("cardExchanges") or []:
        if "sender" not in x and len(x["cards"]) == 3:
            farmer = x["receiver"]
        elif x.get("sender") == (x["receiver"] + 2) % 4 and len(x["cards"]) == 1:
            best = x["cards"][0]
        else:
            raise ImportProblem(f"deal {i}: a card exchange Bower has no rule for: {x}")
    o = egn.rules.deal_outcome(deal, rs)
    won = list(o.winners or [])
    number = game.hand_no
    while game.hand_no == number and not game.is_terminal():
        h = game.hand
        legal = game.legal_actions()
        if h.phase == P_UP:
            ev = f"up {up[1].upper()}"
        elif h.phase in (P_BID1, P_BID2):
            if farmer is not None and f"farmers {farmer}" in legal:
                ev, farmer = f"farmers {farmer}", None
            elif not calls:
                return _open_end(game, deal, i, rs, last, "the calls")
            else:
                ev = _call_event(calls.pop(0), alone, best is not None)
        elif h.phase == P_DEFEND:
            ev = f"defend {defender}" if alone and f"defend {defender}" in legal else "defend none"
        elif h.phase == P_PLAY:
            if not won:
                return _open_end(game, deal, i, rs, last, "the tricks")
            ev = f"won {won.pop(0)}"
        else:
            raise ImportProblem(f"deal {i}: Bower asks for {', '.join(legal[:4])}, which EGN does not record")
        apply_event(game, ev, i)
    if calls or won or farmer is not None:
        raise ImportProblem(f"deal {i}: {len(calls)} calls and {len(won)} tricks after the hand was over")
    _check_points(game, o, i)


def _check_points(game, o, i: int) -> None:
    h = game.last_hand
    if o.delta is not None and o.delta != list(h.points[:2]):
        raise ImportProblem(f"deal {i}: EGN's rules score it {o.delta}, Bower's replay {list(h.points[:2])} "
                            f"({outcome_text(h.outcome, h.renege)})")


def card_deal(game, deal: dict, i: int, rs: dict, last: bool = False) -> None:
    st = deal["initialState"]
    hands = [[egn.cards.bower_card(c) for c in hand] for hand in st.get("playerCards") or []]
    if len(hands) != 4 or any(len(h) != 5 for h in hands):
        raise ImportProblem(f"deal {i} has no table-mode record and not every player's five cards "
                            "(playerCards): Bower needs the whole deal to replay card play")
    up = egn.cards.bower_card(st["upCard"])
    bid = egn.read.phase_of(deal, "EUCHRE_BIDDING")
    if bid is None:
        if last:
            return _open_end(game, deal, i, rs, last, "the calls")
        raise ImportProblem(f"deal {i} has no bidding")
    play = egn.read.phase_of(deal, "TRICK_PLAY")
    plays = [egn.cards.bower_card(c) for t in (play["tricks"] if play else []) for c in t]
    farmer = best = None
    taken: list = []
    for x in bid.get("cardExchanges") or []:
        if "sender" not in x and len(x["cards"]) == 3:
            farmer, taken = x["receiver"], [egn.cards.bower_card(c) for c in x["cards"]]
        elif x.get("sender") == (x["receiver"] + 2) % 4 and len(x["cards"]) == 1:
            best = egn.cards.bower_card(x["cards"][0])
        else:
            raise ImportProblem(f"deal {i}: a card exchange Bower has no rule for: {x}")
    known = [c for h in hands for c in h] + [up] + taken
    if len(set(known)) != len(known):
        raise ImportProblem(f"deal {i}: a card is dealt twice")
    deck = sorted(shuffled_deck(game.rules, lambda n: 0))
    if not set(known) <= set(deck):
        raise ImportProblem(f"deal {i}: a card that is not in this game's deck")
    kitty = [up] + taken + [c for c in deck if c not in known]
    text = "/".join(" ".join(card_name(c) for c in h) for h in hands) + "/" + " ".join(card_name(c) for c in kitty)
    number = game.hand_no
    apply_event(game, "deal " + text, i)
    calls = list(bid["calls"])
    alone = bool(bid.get("isAlone"))
    defender = bid.get("aloneDefender", -1)
    unplayed = set(deck) - set(plays)
    while game.hand_no == number and not game.is_terminal():
        h = game.hand
        legal = game.legal_actions()
        if h.phase == P_DECLARE:
            ev = f"farmers {farmer}" if f"farmers {farmer}" in legal else "pass"
        elif h.phase in (P_BID1, P_BID2):
            if not calls:
                return _open_end(game, deal, i, rs, last, "the calls")
            ev = _call_event(calls.pop(0), alone, best is not None)
        elif h.phase == P_DEFEND:
            ev = f"defend {defender}" if f"defend {defender}" in legal else \
                next((a for a in legal if a in ("pass", "defend none")), "pass")
        elif h.phase == P_DISCARD:
            ev = f"discard {card_name(egn.cards.bower_card(bid['discard']))}" if bid.get("discard") else \
                _unplayed(legal, unplayed, i, "the dealer's discard")
        elif h.phase == P_GIVE:
            if best is None:
                raise ImportProblem(f"deal {i}: partner's best without the partner's card (cardExchanges)")
            ev = f"give {card_name(best)}"
        elif h.phase == P_GIVEBACK:
            ev = _unplayed(legal, unplayed, i, "the loner's discard")
        elif h.phase == P_PLAY:
            if not plays:
                return _open_end(game, deal, i, rs, last, "the tricks")
            ev = card_name(plays.pop(0))
        else:
            raise ImportProblem(f"deal {i}: Bower asks for {', '.join(legal[:4])}, which EGN does not record")
        apply_event(game, ev, i)
    if calls or plays:
        raise ImportProblem(f"deal {i}: {len(calls)} calls and {len(plays)} cards after the hand was over")
    _check_points(game, egn.rules.deal_outcome(deal, rs), i)


def _unplayed(legal: list, unplayed: set, i: int, what: str) -> str:
    # ``discard X`` / ``give X``: the one candidate never played.
    left = [a for a in legal if card_from(a) in unplayed]
    if len(left) != 1:
        raise ImportProblem(f"deal {i}: {what} is not recorded and the tricks do not tell it")
    return left[0]


def card_from(action: str) -> int:
    from euchre.cards import parse_card
    return parse_card(action.split()[-1])
