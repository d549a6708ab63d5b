#!/usr/bin/env python3
"""Sync figures: log bytes per Classic hand on flash, and sync throughput.

    .venv/bin/python tools/bench_sync.py [--hands 1000] [--seed 1]

* Bytes of log per Classic hand, in the engine's log line format as the
  device writes it (bower.store): for a typical scripted hand, and averaged
  over whole bot-played games as the device would record them (the bots play
  real cards; the table enters what the device asks for: the upcard, each
  bid, the makers' tricks).
* Sync throughput for a season of ``--hands`` Classic hands (whole games
  until that many hands were played): the real firmware link (bower.link on
  a bower.store.Store in a temp dir, driven by the test suite's fake device
  loop) on one end of a pseudo-terminal, pyserial and the host client on the
  other. Reported for the transfer alone (every chunk fetched and checked,
  best of 3 runs)
  (as ``bower sync`` fetches: up to 4 GETs in flight; and one at a time),
  and for a whole ``bower sync`` into a fresh library (plus replay, SQLite
  with its fsyncs, SYNCED).

Targets (issue 4): <= 120 bytes per typical Classic hand; >= 200 KB/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "host"))      # the fake device

import bower_host  # noqa: E402,F401  (puts the engine and firmware on sys.path)
from euchre import Game, Rules  # noqa: E402
from euchre import log as elog  # noqa: E402
from euchre.bot import choose  # noqa: E402
from euchre.cardmode import shuffled_deck  # noqa: E402
from euchre.cards import card_name  # noqa: E402
from euchre.hand import SCORED  # noqa: E402
from bower.store import extra  # noqa: E402

TYPICAL = ["up H", "pass", "order", "tricks 3"]
NAMES = ["Ann", "Bob", "Cy", "Di"]
# What a table enters for a hand, kept from a card-mode game's events.
BIDS = ("pass", "order", "call ")


def line_bytes(events) -> int:
    return sum(len(elog.encode_line(e).encode()) for e in events)


def bot_game(seed: int) -> Game:
    """A Classic game played by the heuristic bots with real cards."""
    rng = random.Random(seed)
    g = Game(Rules("classic"), NAMES, dealer=seed % 4, cards=True)
    while not g.is_terminal():
        h = g.hand
        if h.phase == 0:
            g.deal(shuffled_deck(h.rules, rng.randrange))
        else:
            g.apply_id(choose(h))
    return g


def table_events(card_game: Game) -> list[str]:
    """The device's inputs for a card-mode Classic game: per hand the upcard's
    suit, the bids, then the makers' tricks; checked to score the same."""
    replay = Game(card_game.rules, card_game.players, card_game.first_dealer, cards=True)
    out: list[str] = []
    table = Game(card_game.rules, card_game.players, card_game.first_dealer)
    for e in card_game.events():
        before = replay.last_hand
        replay.apply(e)
        if e.startswith("deal "):
            ev = ["up " + card_name(replay.hand.upcard)[-1]]
        elif e.startswith(BIDS):
            ev = [e]
        else:
            ev = []
        if replay.last_hand is not before and replay.last_hand.result == SCORED:
            ev.append("tricks %d" % replay.last_hand.maker_tricks())
        for x in ev:
            table.apply(x)
            out.append(x)
    if table.scores != card_game.scores or table.result != card_game.result:
        raise AssertionError(f"table transcription scores {table.scores}, cards {card_game.scores}")
    return out


def season(hands: int, seed: int) -> list[list[str]]:
    games, n, s = [], 0, seed
    while n < hands:
        g = bot_game(s)
        games.append(table_events(g))
        n += g.hand_no - 1
        s += 1
    return games


def measure_bytes(games) -> dict:
    hdr = elog.header_payload(Game(Rules("classic"), NAMES, 0))
    hdr.update({"id": "g0001", "device": "e6614103e7", "started": 1763700000})
    header = len(elog.encode_line(hdr).encode())
    total_events = sum(line_bytes(ev) for ev in games)
    hands = 0
    for ev in games:
        g = Game(Rules("classic"), NAMES, 0)
        for e in ev:
            g.apply(e)
        hands += g.hand_no - 1
    return {"typical": line_bytes(TYPICAL), "header": header, "games": len(games), "hands": hands,
            "per_hand_events": total_events / hands, "per_hand_all": (total_events + header * len(games)) / hands}


def best_of(n: int, fetch_all, size: int) -> float:
    """The shortest of ``n`` timed runs of ``fetch_all()`` (which must return ``size``)."""
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        got = fetch_all()
        best = min(best, time.perf_counter() - start)
        assert got == size, (got, size)
    return best


def measure_sync(games, tmp: Path) -> dict:
    from fake_device import FakeDevice, record_game

    from bower_host.club.attach import attach_synced
    from bower_host.db import Library
    from bower_host.protocol import Client
    from bower_host.syncer import Syncer
    from bower_host.transport import SerialTransport

    dev = FakeDevice(tmp / "flash")
    for ev in games:
        record_game(dev.store, "classic", ev, players=NAMES, dealer=0)
    size = sum(g["size"] for g in extra("past").games(dev.store))
    with dev:
        t = SerialTransport.open(dev.port)
        client = Client(t)
        client.hello()
        listed = client.list()

        def pipelined():
            # As `bower sync` fetches: up to 4 GETs of 2 KB in flight.
            return sum(len(c) for g in listed for c in client.fetch(g.id, 0, g.size))

        def one_at_a_time():
            got = 0
            for g in listed:
                off = 0
                while off < g.size:
                    off += len(client.get(g.id, off, min(2048, g.size - off)))
                got += off
            return got

        transfer, serial = best_of(3, pipelined, size), best_of(3, one_at_a_time, size)
        lib = Library(tmp / "host" / "bower.sqlite3")
        start = time.perf_counter()
        syncer = Syncer(client, lib, after_store=attach_synced)     # as `bower sync` runs it
        outcomes = syncer.run()
        full = time.perf_counter() - start
        t.close()
        lib.close()
        assert all(o.status == "new" for o in outcomes) and len(outcomes) == len(games)
    return {"bytes": size, "transfer_s": transfer, "serial_s": serial, "sync_s": full}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    games = season(args.hands, args.seed)
    b = measure_bytes(games)
    with tempfile.TemporaryDirectory(prefix="bench_sync_") as d:
        s = measure_sync(games, Path(d))
    kb = s["bytes"] / 1024
    print("Sync and log figures (tools/bench_sync.py)")
    print(f"  log bytes, typical Classic hand {' / '.join(TYPICAL)}: {b['typical']} B   (target <= 120)")
    print(f"  log bytes per hand, {b['games']} bot-played Classic games ({b['hands']} hands): "
          f"{b['per_hand_events']:.1f} B of events, {b['per_hand_all']:.1f} B with the {b['header']} B header")
    print(f"  season: {b['hands']} Classic hands in {b['games']} games, {kb:.1f} KB on flash")
    print(f"  sync throughput over the pty, transfer: {kb / s['transfer_s']:.0f} KB/s "
          f"({s['transfer_s'] * 1000:.0f} ms)   (target >= 200)")
    print(f"    ... one GET at a time instead of 4 in flight: {kb / s['serial_s']:.0f} KB/s "
          f"({s['serial_s'] * 1000:.0f} ms)")
    print(f"  whole `bower sync` (replay, SQLite, SYNCED) into an empty library: {kb / s['sync_s']:.0f} KB/s "
          f"({s['sync_s']:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
