"""Round logs made by the engine: what a table's Bower would record.

:func:`bot_round` has the engine's heuristic bots (``euchre.bot``) play a
round with real cards, then writes what the table enters on the device in
table mode -- each hand's upcard suit, the bids, the makers' tricks -- and
checks that the transcription scores the same. Now and then (``renege``)
a hand ends in a renege instead. :func:`scripted_round` writes a round from
given table events. Both return the log's bytes, header and all, as
``bower sync`` would fetch them.
"""

from __future__ import annotations

import random

from euchre import Game, Rules
from euchre import log as elog
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.cards import card_name
from euchre.hand import REDEAL, SCORED

from bower_host.club.roundlog import KEY, ROUND_OPTIONS, round_header

BIDS = ("pass", "order", "call ")


def _header_extra(club: dict, device: str, key: str, started: int) -> dict:
    return {KEY: club, "id": key, "device": device, "started": started}


def round_game(players) -> Game:
    """An empty round: Classic, no game end, first dealer N."""
    return Game(Rules("classic", ROUND_OPTIONS), list(players), dealer=0)


def scripted_round(club: dict, players, events, device: str, key: str, started: int = 0) -> bytes:
    """A round log from table events (``["up H", "pass", "order", "tricks 3", ...]``)."""
    g = round_game(players)
    for e in events:
        g.apply(e)
    return elog.dumps(g, extra=_header_extra(club, device, key, started)).encode("utf-8")


def bot_table_events(rng: random.Random, players, hands: int, renege: float = 0.0) -> list:
    """Table-mode events of ``hands`` counted hands played by the bots with
    real cards; a hand ends in a renege by a random seat with probability
    ``renege`` (reported once the bidding is over)."""
    rules = Rules("classic", ROUND_OPTIONS)
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
        if not reneged and list(last.points or ()) != list(hand.points or ()):
            raise AssertionError(f"the table's transcription scores {last.points}, the cards {hand.points}")
        if hand.result != REDEAL:
            counted += 1
    return out


def bot_round(club: dict, players, seed: int, device: str, key: str, started: int = 0,
              hands: int | None = None, renege: float = 0.0) -> bytes:
    """A round played by the bots: ``hands`` counted hands (default the round's)."""
    rng = random.Random(seed)
    n = hands if hands is not None else (club.get("hands") or 8)
    events = bot_table_events(rng, players, n, renege)
    return scripted_round(club, players, events, device, key, started)


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
