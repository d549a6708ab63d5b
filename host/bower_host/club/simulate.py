"""Round logs made by the engine: what a table's Bower would record.

:func:`bot_round` has the engine's heuristic bots (``euchre.bot``) play a
round with real cards, then writes what the table enters on the device in
table mode -- each hand's upcard suit, the bids, the makers' tricks -- and
checks that the transcription scores the same. Now and then (``renege``)
a hand ends in a renege instead. :func:`scripted_round` writes a round from
given table events. Both play with the engine's club-round options from the
``club`` object (``roundlog.round_options``: the engine ends the round after
its hands and scores it the night's way) and end with ``accept``, the other
side's acceptance, as the device does; both return the log's bytes, header
and all, as ``bower sync`` would fetch them.
"""

from __future__ import annotations

import random

from euchre import Game, Rules
from euchre import log as elog
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.cards import card_name
from euchre.clubround import may_end
from euchre.hand import REDEAL, SCORED

from bower_host.club.roundlog import ACCEPT, KEY, round_header, round_options

BIDS = ("pass", "order", "call ")


def _header_extra(club: dict, device: str, key: str, started: int) -> dict:
    return {KEY: club, "id": key, "device": device, "started": started}


def round_rules(club: dict) -> Rules:
    """The rules of a round of ``club``: Classic with the club-round options."""
    return Rules("classic", round_options(club))


def round_game(players, club: dict) -> Game:
    """An empty round of ``club``: Classic, no end on points, ends after the
    round's hands (a minutes round: when accepted), first dealer N."""
    return Game(round_rules(club), list(players), dealer=0)


def scripted_round(club: dict, players, events, device: str, key: str, started: int = 0,
                   accept: bool = True) -> bytes:
    """A round log from table events (``["up H", "pass", "order", "tricks 3", ...]``).

    With ``accept`` an ``accept`` is appended if the events hold none and the
    game allows one (the round is over, or between hands: time called). Events
    may include ``"undo"`` (written as an undo line, as the device does).
    """
    g = round_game(players, club)
    lines = []
    for e in events:
        if e == elog.UNDO:
            g.undo()
        else:
            g.apply(e)
        lines.append(e)
    if accept and ACCEPT not in g.events() and not g.accepted and (g.result or may_end(g)):
        g.apply(ACCEPT)
        lines.append(ACCEPT)
    if elog.UNDO not in lines:
        return elog.dumps(g, extra=_header_extra(club, device, key, started)).encode("utf-8")
    h = elog.header_payload(round_game(players, club))
    h.update(_header_extra(club, device, key, started))
    return "".join([elog.encode_line(h)] + [elog.encode_line(e) for e in lines]).encode("utf-8")


def bot_table_events(rng: random.Random, players, hands: int, renege: float = 0.0, rules: Rules | None = None) -> list:
    """Table-mode events of ``hands`` counted hands played by the bots with
    real cards (with ``rules``, default a 99-hand round of the default
    scoring); a hand ends in a renege by a random seat with probability
    ``renege`` (reported once the bidding is over)."""
    if rules is None:
        rules = round_rules({"hands": None, "scoring": {"loner": 4, "set_loner": 2, "renege": 2}})
    cards = Game(rules, list(players), dealer=0, cards=True)
    table = Game(rules, list(players), dealer=0)
    out: list = []
    counted = 0
    while counted < hands:
        cards.deal(shuffled_deck(rules, rng.randrange))
        hand = cards.hand
        events = ["up " + card_name(hand.upcard)[-1]]
        reneged = rng.random() < renege
        while cards.last_hand is not hand:
            a = choose(hand)
            cards.apply_id(a)
            name = cards.events()[-1]
            if name.startswith(BIDS):
                events.append(name)
        for e in events:
            table.apply(e)
        if hand.result == SCORED:
            seats = [e for e in table.legal_actions() if e.startswith("renege ")]
            e = seats[rng.randrange(len(seats))] if reneged else "tricks %d" % hand.maker_tricks()
            table.apply(e)
            events.append(e)
        out += events
        last = table.last_hand
        scored = list(last.points or ()) if last else None
        if not reneged and scored != list(hand.points or ()):
            raise AssertionError(f"the table's transcription scores {scored}, the cards {hand.points}")
        if hand.result != REDEAL:
            counted += 1
    return out


def bot_round(club: dict, players, seed: int, device: str, key: str, started: int = 0,
              hands: int | None = None, renege: float = 0.0, accept: bool = True) -> bytes:
    """A round played by the bots: ``hands`` counted hands (default the
    round's; at most the round's, where the engine ends it), then accepted
    (``accept``; a minutes round: time called after ``hands``)."""
    rng = random.Random(seed)
    n = hands if hands is not None else (club.get("hands") or 8)
    if club.get("hands"):
        n = min(n, club["hands"])
    events = bot_table_events(rng, players, n, renege, round_rules(club))
    return scripted_round(club, players, events, device, key, started, accept)


def night_round_logs(night, rnd: int, seed: int, started: int = 0, renege: float = 0.05) -> dict:
    """``{table: log bytes}`` for every table of round ``rnd`` of ``night``
    (a ``night.Night``), seated as the movement says."""
    seating = night.seating(rnd)
    if seating is None:
        raise ValueError(f"round {rnd}'s seating is not known yet: round {rnd - 1} is not complete")
    logs = {}
    for t, seats in enumerate(seating.tables, 1):
        club = round_header(night.key, t, rnd, night.hands, night.minutes, night.scoring)
        names = [night.name_of(p) for p in seats]
        logs[t] = bot_round(club, names, seed * 100003 + rnd * 101 + t, device=f"table{t:02d}",
                            key=f"{night.key}-r{rnd}", started=started, hands=night.hands or 6, renege=renege)
    return logs
