"""A small club night for the phones' API's hostile tests: 2 tables, 2
rounds; both tables' phones joined and delivered round 1 over real HTTP
(so the night is at round 2), and table 1's phone has played round 2
without sending it. Made once (``made``), then copied for each test.

``Night`` holds what a legitimate client knows (codes, tokens, logs);
``Served`` a copy of the library and a real uvicorn server over it;
``snapshot`` every row of every table of the library and every file of its
raw archive, to show that a refused request changed nothing.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import random
import shutil
import socket
import sqlite3
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bower_host.club import night as cn
from bower_host.club import phones as ph
from bower_host.club.phoneapi import Phones
from bower_host.club.roundlog import round_header
from bower_host.club.simulate import bot_table_events, round_rules
from bower_host.club.web import server
from bower_host.db import Library

from clubphones import FIRMWARE, TablePhone, Wire, play_phones
from webphone import build_site, running
from bower.store import extra

T0 = 1763700000
KEY = "fri"


@dataclass
class Night:
    root: Path
    db: Path
    site: Path
    codes: dict                 # table -> join code
    table_tok: dict             # table -> its table token
    round_tok: dict             # (table, round) -> its round token
    logs: dict                  # (table, round) -> (game id, log bytes)

    def body(self, table: int, rnd: int, log: bytes | None = None) -> bytes:
        """POST /api/result's body for that table's round log (or ``log``)."""
        game, raw = self.logs[(table, rnd)]
        raw = raw if log is None else log
        return json.dumps({"game": game, "crc": "%08x" % zlib.crc32(raw), "log": raw.decode()}).encode()


def make(root: Path) -> Night:
    db = root / "club.sqlite3"
    names = [f"P{i:03d}" for i in range(8)]
    with Library(db, clock=lambda: T0) as lib:
        cn.create_night(lib, "Friday", names, 2, "progressive", 2, hands=2, seed=3, key=KEY, clock=lambda: T0,
                        scoring={"loner": 4, "set_loner": 2, "renege": 2})
        codes = ph.codes(lib, cn.load_night(lib, KEY))
    api = Phones(db)
    try:
        with running(server(db, KEY, "127.0.0.1", 0, phones=api)) as url:
            phones = {t: TablePhone(root / f"phone{t}", t, Wire(url, random.Random(t))) for t in (1, 2)}
            play_phones(phones, codes, 1, deadline_s=60)
            for p in phones.values():           # round 2 offered (its token made) ...
                p.net.polled = None
                p.talk()
                assert p.offered() == 2, p.net.said
            p = phones[1]                       # ... and played on table 1, not sent
            with FIRMWARE:
                setup = p.store.club()
                club = round_header(setup["night"], 1, 2, setup["hands"] or None, setup["minutes"] or None,
                                    setup["scoring"])
                p.play_round(bot_table_events(random.Random(7), setup["players"], setup["hands"], 0.0,
                                              round_rules(club)))
    finally:
        api.close()
    logs = {}
    for t, p in phones.items():
        for g in extra("past").games(p.store):
            raw = p.store.read(g["id"], 0, 1 << 20)
            c = json.loads(raw.split(b"\n", 1)[0])[0]["club"]
            logs[(t, c["round"])] = (g["id"], raw)
    assert set(logs) == {(1, 1), (2, 1), (1, 2)}, sorted(logs)
    return Night(root, db, build_site(root / "site"), codes, {t: p.net.claim["token"] for t, p in phones.items()},
                 {(t, r): tok for t, p in phones.items() for r, tok in p.net.tokens.items()}, logs)


def snapshot(db: Path) -> tuple:
    """Every row of every table of the library, and every raw log's digest."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        rows = {t: sorted(map(repr, conn.execute(f'SELECT * FROM "{t}"'))) for t in tables}
    finally:
        conn.close()
    raw = db.parent / (db.name + ".raw")
    files = {str(f.relative_to(raw)): hashlib.sha256(f.read_bytes()).hexdigest()
             for f in sorted(raw.rglob("*")) if f.is_file()} if raw.exists() else {}
    return rows, files


@dataclass
class Served:
    night: Night
    db: Path
    url: str
    api: Phones
    host: str
    port: int

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 10.0) -> tuple:
        """(status, headers, body) of one request on its own connection."""
        c = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            c.close()

    def raw(self, data: bytes, then: bytes = b"", timeout: float = 10.0) -> bytes:
        """Bytes sent on a socket as they are; the reply read to its end."""
        with socket.create_connection((self.host, self.port), timeout=timeout) as s:
            s.sendall(data)
            if then:
                s.sendall(then)
            return read_reply(s)

    def snapshot(self) -> tuple:
        return snapshot(self.db)


@contextmanager
def serve(night: Night, tmp: Path, site: bool = True):
    """A copy of the night's library served with the phones' API (and the
    phone build at /phone/)."""
    tmp.mkdir(parents=True, exist_ok=True)
    db = tmp / "club.sqlite3"
    shutil.copy2(night.db, db)
    raw = night.db.parent / (night.db.name + ".raw")
    if raw.exists():
        shutil.copytree(raw, tmp / (db.name + ".raw"))
    api = Phones(db)
    try:
        with running(server(db, KEY, "127.0.0.1", 0, phones=api, site=night.site if site else None)) as url:
            host, port = url.split("//")[1].split(":")
            yield Served(night, db, url, api, host, int(port))
    finally:
        api.close()


def read_reply(s: socket.socket, out: bytes = b"") -> bytes:
    """Read an HTTP reply (whose first bytes ``out`` may be) to its end."""
    while not _whole(out):
        try:
            b = s.recv(65536)
        except ConnectionResetError:
            break
        if not b:
            break
        out += b
    return out


def _whole(out: bytes) -> bool:
    head, sep, rest = out.partition(b"\r\n\r\n")
    if not sep:
        return False
    n = [int(v) for k, v in (ln.split(b":", 1) for ln in head.split(b"\r\n")[1:])
         if k.strip().lower() == b"content-length"]
    return bool(n) and len(rest) >= n[0]


def one_line_error(status: int, body: bytes) -> str:
    """The refusal's line: a 4xx with ``{"error": one line}``, else it raises."""
    assert 400 <= status < 500, (status, body[:300])
    d = json.loads(body)
    assert isinstance(d, dict) and set(d) == {"error"}, d
    why = d["error"]
    assert isinstance(why, str) and why and "\n" not in why and len(why) < 400, why
    return why


def wait_until(cond, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()
