"""The live board's ``/events`` (issue 34, point 5): a result attached to the
library reaches every open page within 2 s, over real HTTP against a real
uvicorn server (``bower club serve``'s app on loopback), read as a browser's
EventSource would (a plain HTTP/1.1 stream); one watcher for any number of
streams; a client that goes takes its stream with it; a bounded number of
streams; and one real Chromium that shows the new result without a reload.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest

from bower_host.club import attach as ca
from bower_host.club import night as cn
from bower_host.club.pages import render
from bower_host.club.simulate import night_round_logs
from bower_host.club.web import server
from bower_host.db import Library
from webphone import chromium, need_chromium, running

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu", "Mo", "Ned", "Oz", "Pip"]


@pytest.fixture
def night(tmp_path):
    """A 4-table night with tables 1-3 of round 1 in; yields (db, table 4's log)."""
    db = tmp_path / "ev.sqlite3"
    with Library(db) as lib:
        cn.create_night(lib, "Live night", NAMES, 4, "progressive", 3, hands=2, seed=4, key="live")
        logs = night_round_logs(cn.load_night(lib, "live"), 1, 7)
        for t in (1, 2, 3):
            ca.attach_file(lib, logs[t], f"r1-t{t}.log")
    return db, logs[4]


def attach(db, raw: bytes) -> dict:
    """Attach ``raw`` as `bower club result` does; the board it should give."""
    with Library(db) as lib:
        assert ca.attach_file(lib, raw, "r1-t4.log").status == "new"
        night = cn.load_night(lib, "live")
        return render(night, cn.corrections(lib, night))["board"]


def board_json(base: str) -> dict:
    with urlopen(base + "/board.json", timeout=5) as r:
        return json.loads(r.read())


class Stream:
    """``GET /events`` kept open; ``until(b"data: 1")`` reads on until that arrives."""

    def __init__(self, base: str):
        u = urlsplit(base)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
        self.conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        self.resp = self.conn.getresponse()
        self.seen = b""

    def until(self, what: bytes, timeout: float = 5.0) -> bytes:
        deadline = time.monotonic() + timeout
        while what not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {what!r} in {timeout} s; got {self.seen!r}")
            self.conn.sock.settimeout(left)
            chunk = self.resp.read1(65536)
            if not chunk:
                raise EOFError(f"the stream ended before {what!r}; got {self.seen!r}")
            self.seen += chunk
        return self.seen

    def close(self):
        self.conn.close()


def on_loop(events, coro_fn):
    """Run ``coro_fn()`` on the server's event loop (its watcher's) and return its result."""
    loop = events._task.get_loop()
    return asyncio.run_coroutine_threadsafe(coro_fn(), loop).result(5)


async def watchers() -> int:
    return sum(t.get_coro().__qualname__ == "Events._watch" for t in asyncio.all_tasks())


async def tasks() -> int:
    return len(asyncio.all_tasks())


def wait_for(cond, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def test_an_attached_result_reaches_every_open_stream_within_2_s_and_board_json_has_it(night):
    db, raw = night
    srv = server(db, "live", "127.0.0.1", 0)
    events = srv.config.app.state.events
    with running(srv) as base:
        first = Stream(base)
        first.until(b"data: 0\n\n")
        first.close()
        assert wait_for(lambda: events.streams == 0), events.streams
        idle = on_loop(events, tasks)              # the server's own tasks and the watcher: nothing of a stream
        streams = [Stream(base) for _ in range(5)]
        for s in streams:
            assert s.resp.status == 200
            assert s.resp.getheader("Content-Type").startswith("text/event-stream")
            assert s.resp.getheader("Cache-Control") == "no-store"
            s.until(b"data: 0\n\n")                      # each stream says where it starts
        assert events.streams == 5 and on_loop(events, watchers) == 1    # one watcher, not one per client
        before = board_json(base)
        want = attach(db, raw)
        t0 = time.monotonic()
        for s in streams:
            s.until(b"data: 1\n\n", timeout=2.0)
        took = time.monotonic() - t0
        got = board_json(base)
        assert took < 2.0 and got == want != before, (took, got["status"])
        assert "4 of 4 tables in" in got["status"] or got["status"].startswith("Round 2")
        for s in streams:
            s.close()
        # The clients are gone: so are their streams; the one watcher stays.
        assert wait_for(lambda: events.streams == 0), events.streams
        assert on_loop(events, watchers) == 1
        assert wait_for(lambda: on_loop(events, tasks) == idle), (on_loop(events, tasks), idle)


def test_an_idle_stream_gets_keep_alives_and_ends_when_the_server_stops(night):
    db, _ = night
    srv = server(db, "live", "127.0.0.1", 0)
    events = srv.config.app.state.events
    events.keepalive = 0.2
    with running(srv) as base:
        s = Stream(base)
        s.until(b": keep-alive\n\n", timeout=2.0)
        srv.should_exit = True
        t0 = time.monotonic()
        with pytest.raises(EOFError):          # the response ends (its last chunk), the server can stop
            s.until(b"never", timeout=3.0)
        assert time.monotonic() - t0 < 2.0
        s.close()


def test_streams_are_bounded_and_a_refused_one_is_a_503_line(night):
    db, _ = night
    srv = server(db, "live", "127.0.0.1", 0)
    events = srv.config.app.state.events
    events.limit = 3
    with running(srv) as base:
        streams = [Stream(base) for _ in range(3)]
        for s in streams:
            s.until(b"data: 0")
        extra = Stream(base)
        body = extra.resp.read().decode()
        assert extra.resp.status == 503 and body.count("\n") == 1 and "3 live pages are open" in body, body
        extra.close()
        streams.pop().close()
        assert wait_for(lambda: events.streams == 2), events.streams
        again = Stream(base)
        assert again.resp.status == 200
        again.until(b"data: 0")
        for s in [*streams, again]:
            s.close()
        assert wait_for(lambda: events.streams == 0), events.streams


def test_the_projector_shows_a_new_result_within_2_s_without_a_reload(night):
    need_chromium()
    db, raw = night
    srv = server(db, "live", "127.0.0.1", 0)
    with running(srv) as base, chromium(viewport={"width": 1920, "height": 1080}, device_scale_factor=1,
                                        is_mobile=False, has_touch=False) as ctx:
        page, mine = ctx.new_page(), ctx.new_page()
        player = NAMES.index(json.loads(raw.split(b"\n")[0])[0]["players"][0]) + 1     # one of table 4's
        page.goto(base + "/")        # ?every= at its default, 10 s: a poll cannot be what shows the result
        mine.goto(f"{base}/player/{player}")                   # reloads every 30 s without its stream
        for p in (page, mine):
            p.wait_for_function("document.body.getAttribute('data-polls') === '1'")   # the stream's first event
            p.evaluate("window.sameDocument = true")
        first = "document.querySelector('#rounds tbody tr').cells[5].textContent"    # round 1's points
        assert mine.evaluate(first) == " (to play)"
        assert "3 of 4 tables in" in page.text_content("#status")
        want = attach(db, raw)
        t0 = time.monotonic()
        page.wait_for_function("s => document.getElementById('status').textContent === s", arg=want["status"],
                               timeout=2000)
        took = time.monotonic() - t0
        assert took < 2.0 and page.evaluate("window.sameDocument") is True
        same = page.evaluate("h => {var t = document.createElement('table'); t.innerHTML = '<tbody>' + h + "
                             "'</tbody>'; return t.tBodies[0].innerHTML === "
                             "document.getElementById('rows').innerHTML;}", want["rows"])
        assert same, "the standings are not the new result's"
        mine.wait_for_function(f"/^[0-9]+$/.test({first})", timeout=2000)
        assert mine.evaluate("window.sameDocument") is True
