"""A club night on phones: each table's phone is the real firmware (the UI
core, the store, ``bower.clubnet``) as tests/host/clubtables.py's Bowers
are, speaking real HTTP to a real ``bower club serve`` with Python's
http.client, as app.js does with fetch; each in its own thread, all at once.

``Wire`` is the phone's Wi-Fi: it may refuse to connect (no reply), or send
the request and lose the reply (the server acted; the phone does not know),
at the rates given.

The firmware runs one call at a time (``FIRMWARE``), as on a device: its
modules are loaded and dropped again to keep the Pico's heap (``trim``),
which threads in one process would see half done. The network is not
held by it: the requests of every phone are in flight at once.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from bower_host.club.simulate import bot_table_events, round_rules
from bower_host.club.roundlog import round_header

from clubtables import TableBower

from bower import keys as K
from bower.clubnet import Net


FIRMWARE = threading.Lock()


class Wire:
    """HTTP to ``url``, with drops (``cut``: no connection) and lost replies
    (``lose``: the request went, its answer did not)."""

    def __init__(self, url: str, rng: random.Random, cut: float = 0.0, lose: float = 0.0, timeout: float = 10.0):
        u = urlsplit(url)
        self.host, self.port = u.hostname, u.port
        self.rng, self.cut, self.lose, self.timeout = rng, cut, lose, timeout
        self.sent = self.dropped = self.lost = 0
        self.statuses: dict = {}

    def send(self, req) -> tuple:
        method, path, token, body = req
        if self.rng.random() < self.cut:
            self.dropped += 1
            return 0, ""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            c = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                c.request(method, "/" + path, body=body.encode() if body is not None else None, headers=headers)
                r = c.getresponse()
                status, text = r.status, r.read().decode()
            finally:
                c.close()
        except (OSError, http.client.HTTPException):
            return 0, ""        # (a reply cut short too: fetch rejects then, as for no reply)
        self.sent += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if self.rng.random() < self.lose:
            self.lost += 1
            return 0, ""
        return status, text


class TablePhone(TableBower):
    """Table ``table``'s phone: its flash under ``root``, its Wi-Fi ``wire``."""

    def __init__(self, root: Path, table: int, wire: Wire):
        super().__init__(root, table)
        self.device = "web-%04d" % table
        self.store.device = self.device
        self.net = Net(self.store)
        self.net.poll = 300
        self.wire = wire
        self.played: set = set()

    def talk(self, most: int = 50) -> None:
        """Send what is due, a request at a time, until nothing is (or ``most``)."""
        for _ in range(most):
            with FIRMWARE:
                req = self.net.next(int(time.monotonic() * 1000))
            if req is None:
                return
            status, text = self.wire.send(req)
            with FIRMWARE:
                self.net.answer(req, status, text, int(time.monotonic() * 1000))
            if status == 0:
                return

    def join(self, code: str, deadline: float) -> None:
        while not self.net.joined():
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.device}: could not join ({self.net.said})")
            req = self.net.join(code, self.device)
            status, text = self.wire.send(req)
            with FIRMWARE:
                self.net.answer(req, status, text, 0)
            if status >= 400 and status not in (429, 503):
                raise AssertionError(f"{self.device}: join refused: {status} {text}")
            time.sleep(0.02)

    def offered(self) -> int | None:
        """The round the server offered last, if the device holds it."""
        setup = self.store.club()
        r = self.net.offered()
        return r if r and setup and setup["round"] == r else None


def play_phones(phones: dict, codes: dict, rounds: int, deadline_s: float = 120.0, seed: int = 1,
                renege: float = 0.0) -> dict:
    """Every phone joins with its table's code, then plays each round it is
    offered (the bots pressing its keys) and delivers its logs, in its own
    thread, until it has played ``rounds`` rounds and has nothing left to
    send. Raises if a phone
    fails or the night is not done within ``deadline_s``."""
    deadline = time.monotonic() + deadline_s
    errors: list = []

    def run(t: int, p: TablePhone) -> None:
        try:
            p.join(codes[t], deadline)
            while time.monotonic() < deadline:
                p.talk()
                with FIRMWARE:
                    r = p.offered()
                    if r is not None and r not in p.played:
                        setup = p.store.club()
                        club = round_header(setup["night"], t, r, setup["hands"] or None,
                                            setup["minutes"] or None, setup["scoring"])
                        events = bot_table_events(random.Random(seed * 100003 + r * 101 + t), setup["players"],
                                                  setup["hands"] or 6, renege, round_rules(club))
                        p.play_round(events)
                        p.played.add(r)
                        continue
                    if len(p.played) >= rounds and not p.net.pending():
                        return
                time.sleep(0.03)
            errors.append(f"table {t}: not done in time (played {sorted(p.played)}, {p.net.said!r})")
        except BaseException as e:   # (reported by the caller's thread)
            errors.append(f"table {t}: {e!r}")

    threads = [threading.Thread(target=run, args=(t, p), daemon=True) for t, p in phones.items()]
    for th in threads:
        th.start()
    for th in threads:
        th.join(max(0.0, deadline - time.monotonic()) + 5)
    if errors:
        raise AssertionError("; ".join(errors[:5]))
    return {"sent": sum(p.wire.sent for p in phones.values()), "dropped": sum(p.wire.dropped for p in phones.values()),
            "lost": sum(p.wire.lost for p in phones.values())}


def statuses(phones: dict) -> dict:
    out: dict = {}
    for p in phones.values():
        for k, v in p.wire.statuses.items():
            out[k] = out.get(k, 0) + v
    return out


def board(url: str) -> dict:
    u = urlsplit(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        c.request("GET", "/results.json")
        return json.loads(c.getresponse().read())
    finally:
        c.close()


__all__ = ["K", "TablePhone", "Wire", "board", "play_phones", "statuses"]
