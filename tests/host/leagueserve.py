"""A real ``bower league serve`` in a subprocess, for the league server's tests.

::

    srv = LeagueServer(spec, tmp_path).start()      # --port 0: the bound address is read from its first line
    status, headers, body = request(srv.url + "api/push", body, token=t)
    srv.kill()                                      # SIGKILL, as a crash
    srv.start()                                     # again, on the same port and database

``synthetic_night`` makes a night summary as a club pushes it (checked by
``summary.check_payload``), ``recount`` adds nights up independently of the
league, and ``snapshot`` reads the league's every stored row.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

from bower_host.league import summary as su
from bower_host.league.sqldb import open_db

ROOT = Path(__file__).resolve().parents[2]
PYTHONPATH = os.pathsep.join(str(ROOT / p) for p in ("engine", "firmware", "host", "firmware/lib"))
START_SECONDS = 30.0
T0 = 1764000000                  # 2025-11-24
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


class LeagueServer:
    """``bower league serve --db SPEC`` as a child process (its stderr kept in a file)."""

    def __init__(self, spec: str, workdir, port: int = 0):
        self.spec = spec
        self.port = port
        self.err_path = Path(workdir) / f"league-serve-{id(self)}.err"
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def start(self) -> "LeagueServer":
        env = dict(os.environ, PYTHONPATH=PYTHONPATH, PYTHONUNBUFFERED="1")
        with open(self.err_path, "ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bower_host", "league", "serve", "--db", self.spec, "--port", str(self.port)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, env=env, cwd=str(ROOT))
        got: queue.Queue = queue.Queue()
        out = self.proc.stdout
        assert out is not None
        threading.Thread(target=lambda: got.put(out.readline()), daemon=True).start()
        try:
            line = got.get(timeout=START_SECONDS).decode()
        except queue.Empty:
            self.kill()
            raise AssertionError(f"bower league serve said nothing in {START_SECONDS} s: {self.stderr()}") from None
        if not line.startswith("League "):
            self.kill()
            raise AssertionError(f"bower league serve did not start: {line!r} {self.stderr()}")
        self.url = line.split(": ", 1)[1].split(" ", 1)[0]           # http://127.0.0.1:PORT/
        self.port = urlsplit(self.url).port or 0
        # Drain stdout (nothing more is printed, but never let a pipe fill).
        threading.Thread(target=out.read, daemon=True).start()
        return self

    def kill(self) -> None:
        """SIGKILL (a crash: no shutdown), and reaped."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self._reap()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self.proc is not None:
            self.proc.wait(10)
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.proc = None

    def stderr(self) -> str:
        try:
            return self.err_path.read_text(errors="replace")
        except OSError:
            return ""


def request(url: str, body: bytes | None = None, token: str | None = None, content_type: str | None =
            "application/json", method: str | None = None, headers: dict | None = None,
            timeout: float = 15.0) -> tuple:
    """``(status, headers, body bytes)`` of one request (its own connection)."""
    u = urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    h = dict(headers or {})
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    if content_type is not None:
        h["Content-Type"] = content_type
    try:
        conn.request(method or ("GET" if body is None else "POST"), u.path + (f"?{u.query}" if u.query else ""),
                     body, h)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def standings(url: str) -> dict:
    """``{(club, player): (points, nights, won)}`` from GET /api/standings."""
    status, _h, raw = request(url + "api/standings")
    assert status == 200, raw
    return {(r["club"], r["player"]): (r["points"], r["nights"], r["won"]) for r in json.loads(raw)["players"]}


def synthetic_night(key: str, names: list, played: int, seed: int) -> dict:
    """A night's summary as a club of ``len(names)`` players (4 a table) pushes it."""
    rng = random.Random(seed)
    rounds = 2
    players = []
    for i, nm in enumerate(names):
        won = rng.randint(0, rounds)
        players.append({"name": nm, "place": i + 1, "points": rng.randint(-20, 120), "rounds": rounds, "won": won,
                        "loners": rng.randint(0, 2), "euchres": rng.randint(0, 2)})
    night = {"key": key, "name": f"Night {key}", "played": played, "tables": max(1, len(names) // 4),
             "rounds": rounds, "players": players}
    return su.check_payload(json.loads(su.payload([night])))[0]


def recount(by_club: dict) -> dict:
    """``{(club, player): (points, nights, won)}`` added up from ``{club: [night summaries]}``."""
    out: dict = defaultdict(lambda: [0, 0, 0])
    for club, nights in by_club.items():
        for n in nights:
            for p in n["players"]:
                t = out[(club, p["name"])]
                t[0] += p["points"]
                t[1] += 1
                t[2] += p["won"]
    return {k: tuple(v) for k, v in out.items()}


TABLES = ("clubs", "members", "player_names", "nights", "night_players", "seasons", "season_players", "pushes")


def snapshot(spec: str) -> dict:
    """Every row of the league's tables, in a stable order."""
    db = open_db(spec)
    try:
        return {t: sorted(db.rows(f"SELECT * FROM {t}"), key=repr) for t in TABLES}
    finally:
        db.close()


def check_stored(spec: str, by_club: dict) -> None:
    """Every night stored once and whole: one row, its players' rows, one "new" push."""
    db = open_db(spec)
    try:
        want = {(c, n["key"]): len(n["players"]) for c, nights in by_club.items() for n in nights}
        got = db.rows("SELECT c.name, n.key, (SELECT COUNT(*) FROM night_players np WHERE np.night_id = n.id) "
                      "FROM nights n JOIN clubs c ON c.id = n.club_id")
        assert len(got) == len(want), (len(got), len(want))
        assert {(c, k): int(m) for c, k, m in got} == want
        assert int(db.value("SELECT COUNT(*) FROM nights")) == len(want)
        new = db.rows("SELECT c.name, p.night_key, COUNT(*) FROM pushes p JOIN clubs c ON c.id = p.club_id "
                      "WHERE p.outcome = 'new' GROUP BY c.name, p.night_key")
        assert {(c, k): int(m) for c, k, m in new} == dict.fromkeys(want, 1)
        assert int(db.value("SELECT COUNT(*) FROM pushes WHERE outcome <> 'new'")) == 0
    finally:
        db.close()


def wait_for(pred, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.01)
