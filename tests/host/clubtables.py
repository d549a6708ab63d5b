"""A club night on simulated Bowers, one per table, all in this process.

Each table's Bower is the real firmware: the UI core (``bower.ui.App``)
driven by key presses (``tests/firmware/uikit.Driver``), the flash store on
a directory (``bower.store.Store`` over ``simhw.HostFs``) and the link
(``bower.link.Link``). The host talks to it with its real client over an
in-memory transport: ``bower club push``'s request (``Client.club``) and
``bower sync`` (``sync.Syncer`` with the club's ``after_store``, which
counts club rounds as it stores them). The players are the engine's bots (``club.simulate.bot_table_events``:
real cards, the table's inputs written down), who press the keys a table
would: Club round, Start round, each input, OK to accept, OK home.

Used by tests/host/test_club_devices.py and tools/bench_club.py.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))

from bower_host.simhw import HostFs  # noqa: E402
from bower_host.club import attach as ca  # noqa: E402
from bower_host.club import night as cn  # noqa: E402
from bower_host.club.push import round_setup  # noqa: E402
from bower_host.club.simulate import bot_table_events, round_rules  # noqa: E402
from bower_host.club.roundlog import round_header  # noqa: E402
from bower_host.protocol import Client  # noqa: E402
from bower_host.syncer import Syncer  # noqa: E402

from bower import keys as K  # noqa: E402
from bower.link import Link  # noqa: E402
from bower.store import Store  # noqa: E402
from bower.ui import App  # noqa: E402
from uikit import Driver  # noqa: E402


class LoopTransport:
    """The host's end of a link to a Link in this process: each request is
    handled as it is written, its reply lines queued for ``readline``."""

    name = "loop"

    def __init__(self, link_of):
        self.out: list = []
        self.link = link_of(self.out.append)
        self.pending = b""

    def write(self, data: bytes) -> None:
        self.link.feed(data)

    def readline(self, timeout):
        while b"\n" not in self.pending:
            if not self.out:
                return None
            self.pending += self.out.pop(0)
        line, _, self.pending = self.pending.partition(b"\n")
        return line + b"\n"

    def close(self) -> None:
        pass


class TableBower:
    """Table ``table``'s Bower: its flash under ``root``."""

    def __init__(self, root: Path, table: int, clock=lambda: 1763700000):
        self.device = "club%04d" % table
        self.info = {"version": "0.3.0", "device": self.device, "board": {"board": "pico"},
                     "time": lambda: 1763700000}
        root.mkdir(parents=True, exist_ok=True)
        self.store = Store(str(root), fs=HostFs(), device=self.device)
        self.app = App(self.store, self.info)
        self.keys = Driver(self.app, self.store)
        self.clock = clock

    def client(self) -> Client:
        t = LoopTransport(lambda write: Link(self.store, self.info, write, clock=self.clock))
        return Client(t, timeout=1.0)

    def idle(self) -> None:
        # The board loop's tick between presses (the link's notes shown).
        self.keys.now += 2000
        self.app.tick(self.keys.now)

    def play_round(self, events) -> None:
        """From the home screen: Club round, Start round, the table's inputs,
        OK (the losing side accepts), OK (home)."""
        self.idle()
        self.keys.choose("club")
        self.keys.choose("start")
        for e in events:
            self.keys.enter(e)
        g = self.app.game
        if not g.result:
            raise AssertionError(f"{self.device}: the round did not end after its hands ({g.counted} counted)")
        self.keys.press(K.OK)
        if not g.accepted:
            raise AssertionError(f"{self.device}: OK did not accept the round")
        self.keys.press(K.OK)


def play_night(lib, key: str, root: Path, seed: int, renege: float = 0.02, again: float = 0.2) -> dict:
    """Play night ``key`` (in ``lib``) round by round on a Bower per table:
    push each table's round, let the bots press the keys, then sync every
    Bower in random order, some (``again``) a second time. Returns timings:
    ``sync_s`` per round (every table synced once), ``play_s``, ``presses``
    and the sync statuses."""
    rng = random.Random(seed)
    night = cn.load_night(lib, key)
    bowers = {t: TableBower(root / f"table{t:02d}", t) for t in range(1, night.tables + 1)}
    out: dict = {"sync_s": {}, "play_s": 0.0, "push_s": 0.0, "presses": 0, "statuses": {}, "rounds": 0}
    for rnd in range(1, night.rounds + 1):
        night = cn.load_night(lib, key)
        plan = night.seating(rnd)
        if plan is None:
            raise AssertionError(f"round {rnd}'s seating is not known after round {rnd - 1}")
        t0 = time.perf_counter()
        for t, b in bowers.items():
            b.client().club(**round_setup(night, rnd, t))
        out["push_s"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        for t, b in bowers.items():
            names = [night.name_of(p) for p in plan.tables[t - 1]]
            club = round_header(night.key, t, rnd, night.hands, night.minutes, night.scoring)
            events = bot_table_events(random.Random(seed * 100003 + rnd * 101 + t), names, night.hands or 6,
                                      renege, round_rules(club))
            before = b.keys.presses
            b.play_round(events)
            out["presses"] += b.keys.presses - before
        out["play_s"] += time.perf_counter() - t0
        order = list(bowers) + rng.sample(list(bowers), int(len(bowers) * again))
        rng.shuffle(order)
        first: set = set()
        for t in order:
            t0 = time.perf_counter()
            for o in Syncer(bowers[t].client(), lib, after_store=ca.attach_synced).run():
                out["statuses"][o.status] = out["statuses"].get(o.status, 0) + 1
            if t not in first:
                first.add(t)
                out["sync_s"][rnd] = out["sync_s"].get(rnd, 0.0) + time.perf_counter() - t0
        out["rounds"] += 1
    out["bowers"] = bowers
    return out
