"""EGN's deterministic rules: what a deal amounts to, derived as a reader must.

EGN does not write who led or who won each trick: :func:`deal_outcome`
derives them (and the maker, trump, who sat out and the points) from the
calls and the cards in the order they fell; :func:`final_score` adds the
deals up. :mod:`bower_host.egn`'s writer checks every deal it writes
against them; ``bower import`` reads with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bower_host.egn.read import phase_of, unpack_deal


_LEFT = {"c": "s", "s": "c", "d": "h", "h": "d"}
_RANK = {r: i for i, r in enumerate("789TJQKA")}


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


def effective_suit(card: str, trump: str) -> str:
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
    bid = phase_of(deal, "EUCHRE_BIDDING")
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
    play = phase_of(deal, "TRICK_PLAY")
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
            led = effective_suit(trick[0], trump)
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
