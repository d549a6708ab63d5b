"""The phones' API of ``bower club serve`` (host/CLUB.md "Phones").

::

    POST /api/join    {"code": "K7M2QX", "device": "web-1a2b3c4d"}   -> {"night", "table", "token"}
    GET  /api/round[?round=R]            Authorization: Bearer TABLE_TOKEN
                                          -> {"night", "table", "round", "token", "setup"}
    POST /api/result  {"game": "g12", "crc": "0a1b2c3d", "log": "..."}
                                          Authorization: Bearer ROUND_TOKEN
                                          -> {"status": "new"|"updated"|"duplicate", "crc", "note"}

The library work is :mod:`bower_host.club.phones`'; this module is the
door: a request is refused, with a 4xx and ``{"error": one line}``, and
nothing changed, unless it is well formed (a JSON object with exactly the
fields above, their types and sizes; ``Content-Type: application/json``,
which a cross-site form cannot send; at most :data:`MAX_BODY` bytes, read
within :data:`BODY_SECONDS`; and any request's head within
:data:`HEAD_SECONDS`, :func:`head_timeout`), within its rate (a token
bucket per token, and one per client address for requests without a
valid token, which a wrong token costs too: once it is empty, the client's
next token is not even looked up) and, for a write, carries its token in the
``Authorization`` header (never a cookie, so no cross-site forgery). Every
write runs on one thread that owns the library, under the library's writer
lock (the calls waiting together in one pass; a ``bower sync`` beside the
server: 503 and ``Retry-After``, which the phone's queue honours), and is
answered only once committed, so what was acknowledged survives the
server killed the moment after.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from bower_host.club import phones as ph
from bower_host.db import Library, LibraryError
from bower_host.inputs import InputError, load_json
from bower_host.names import SAFE_ID
from bower_host.serving import json_error as _error
from bower_host.serving import read_body

MAX_BODY = ph.MAX_LOG + 4096
BODY_SECONDS = 10.0
#: Most seconds from a connection (or its last answer) to a request's whole head.
HEAD_SECONDS = 10.0
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}\Z")
_CRC = re.compile(r"[0-9a-fA-F]{8}\Z")
_SHAPES = {"join": {"code": str, "device": str}, "result": {"game": str, "crc": str, "log": str}}


class _Bucket:
    # Token buckets by key: ``rate`` a second, up to ``burst``.
    def __init__(self, rate: float, burst: float, most: int = 10_000):
        self.rate, self.burst, self.most = rate, burst, most
        self.level: dict = {}

    def _level(self, key, now: float) -> float:
        lvl, at = self.level.get(key, (self.burst, now))
        return min(self.burst, lvl + (now - at) * self.rate)

    def empty(self, key, now: float) -> bool:
        return self._level(key, now) < 1

    def take(self, key, now: float) -> bool:
        lvl = self._level(key, now)
        if len(self.level) >= self.most and key not in self.level:
            self.level.clear()      # (a flood of fresh keys: forget, rather than grow)
        if lvl < 1:
            self.level[key] = (lvl, now)
            return False
        self.level[key] = (lvl - 1, now)
        return True


class Phones:
    """The API's state: the writer thread and its library, the rate limits,
    and what each table's phone last did (for the organiser's page)."""

    def __init__(self, db_path, clock=time.time):
        self.path = db_path
        self.clock = clock
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bower-phones")
        self._lib: Library | None = None
        self.per_token = _Bucket(10, 40)
        self.per_client = _Bucket(20, 100)
        self.seen: dict = {}        # (night, table) -> (time, what)
        self._lock = threading.Lock()
        self._waiting: list = []    # (fn, args, loop, future) for the next writer pass

    def close(self) -> None:
        self._pool.submit(self._close).result()
        self._pool.shutdown(wait=True)

    def _close(self) -> None:
        if self._lib is not None:
            self._lib.close()
            self._lib = None

    async def run(self, fn, *args):
        """``fn(library, *args)`` on the writer thread, under the writer lock.

        Calls waiting together are done in one pass under one writer lock,
        each answered as soon as it is committed (30 tables' results at the
        same moment: one lock, not 30)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        with self._lock:
            self._waiting.append((fn, args, loop, fut))
        self._pool.submit(self._pass)
        return await fut

    def _pass(self) -> None:
        from bower_host.db import writer_lock
        with self._lock:
            batch, self._waiting = self._waiting, []
        if not batch:
            return              # (an earlier pass took them)
        try:
            with writer_lock(self.path, "bower club serve"):
                while batch:
                    fn, args, loop, fut = batch.pop(0)
                    if self._lib is None:
                        self._lib = Library(self.path, create=False)
                    try:
                        _settle(loop, fut, fn(self._lib, *args), None)
                    except (LibraryError, sqlite3.Error) as e:
                        _settle(loop, fut, None, self._unavailable(e))
                    except Exception as e:     # (a refusal, or a bug: the request's own answer)
                        _settle(loop, fut, None, e)
        except (LibraryError, sqlite3.Error) as e:
            why = self._unavailable(e)
            for _, _, loop, fut in batch:
                _settle(loop, fut, None, why)

    def _unavailable(self, e: Exception) -> ph.Refused:
        # The library cannot be written now (held by a sync, gone, damaged): 503.
        if self._lib is not None:
            self._lib.close()
            self._lib = None
        why = str(e) if isinstance(e, LibraryError) else f"the game library cannot be written now ({e})"
        return ph.Refused(503, why)

    def note(self, night: str, table: int, what: str) -> None:
        with self._lock:
            self.seen[(night, table)] = (self.clock(), what)


def _settle(loop, fut, value, error) -> None:
    # A writer pass's answer to its request's future, on that request's loop.
    def done():
        if not fut.done():          # (the client may have gone)
            if error is not None:
                fut.set_exception(error)
            else:
                fut.set_result(value)
    loop.call_soon_threadsafe(done)


async def _body(request) -> bytes:
    return await read_body(request, MAX_BODY, BODY_SECONDS, ph.Refused)


async def _json(request, shape: str) -> dict:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ph.Refused(415, "send the body as Content-Type: application/json")
    raw = await _body(request)
    try:
        d = load_json(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ph.Refused(400, f"the body is not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start})") from None
    except InputError as e:         # (nested too deep, not JSON, half a UTF-16 pair: said before Python's parser)
        raise ph.Refused(400, f"the body is {e}" if str(e).startswith("not ") else f"the body: {e}") from None
    want = _SHAPES[shape]
    if not isinstance(d, dict) or set(d) != set(want):
        raise ph.Refused(400, f"the body must be a JSON object with exactly {', '.join(sorted(want))}")
    for k, t in want.items():
        if not isinstance(d[k], t):
            raise ph.Refused(400, f"{k} must be a {t.__name__}")
    return d


def _bearer(request) -> str | None:
    v = request.headers.get("authorization", "")
    if not v.startswith("Bearer "):
        return None
    t = v[7:].strip()
    if not _TOKEN.fullmatch(t):
        raise ph.Refused(401, "a malformed token")
    return t


def head_timeout():
    """uvicorn's HTTP/1.1 protocol (h11) with a deadline for each request's
    head: uvicorn waits for one for ever, so a client trickling its headers,
    or one that connects and says nothing, holds its connection, and enough
    of them every socket the server may have. Past :data:`HEAD_SECONDS`:
    a 408 of one line, and the connection closed."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    late = json.dumps({"error": f"the request's head did not arrive within {HEAD_SECONDS:g} s"}).encode()
    answer = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\ncache-control: no-store\r\n"
              b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(late), late))

    class HeadTimeout(H11Protocol):
        _head_by = None

        def _arm(self) -> None:
            self._disarm()
            self._head_by = self.loop.call_later(HEAD_SECONDS, self._head_late)

        def _disarm(self) -> None:
            if self._head_by is not None:
                self._head_by.cancel()
                self._head_by = None

        def _head_late(self) -> None:
            self._head_by = None
            if (self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing():
                self.transport.write(answer)
                self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()          # (a head came: the body has its own deadline)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return HeadTimeout


class _AnyMethod:
    # An endpoint as an ASGI app: Starlette routes every method to it (a
    # function endpoint is given GET and HEAD, and any other method of a
    # path answered in plain text), so each gets the API's JSON refusal.
    def __init__(self, handler):
        self.handler = handler

    async def __call__(self, scope, receive, send):
        from starlette.requests import Request
        await (await self.handler(Request(scope, receive)))(scope, receive, send)


def routes(phones: Phones) -> list:
    """The API's Starlette routes."""
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    def client(request) -> str:
        return request.client.host if request.client else "?"

    def limited(request, token: str | None) -> None:
        # A token's own bucket; and a client whose bucket its wrong tokens
        # emptied waits before its next token is even looked up.
        now = time.monotonic()
        if token:
            ok = not phones.per_client.empty(client(request), now) and phones.per_token.take(token, now)
        else:
            ok = phones.per_client.take(client(request), now)
        if not ok:
            raise ph.Refused(429, "too many requests: wait a second")

    def answer(handler):
        async def wrapped(request):
            try:
                return await handler(request)
            except ph.Refused as e:
                if e.status == 401:
                    # (a wrong token costs the client's own bucket too: no guessing at speed)
                    if not phones.per_client.take(client(request), time.monotonic()):
                        return _error(429, "too many requests: wait a second", 1)
                return _error(e.status, str(e), 2 if e.status in (429, 503) else None)
        return wrapped

    ok = {"Cache-Control": "no-store"}

    async def join(request):
        limited(request, None)
        d = await _json(request, "join")
        if not SAFE_ID.fullmatch(d["device"]):
            raise ph.Refused(400, "device must be a device id (letters, digits, - and _)")
        if not 0 < len(d["code"]) <= 16:
            raise ph.Refused(400, "code must be the table's join code")
        j = await phones.run(ph.join, d["code"], d["device"], int(phones.clock()))
        phones.note(j.night, j.table, "joined")
        return JSONResponse({"night": j.night, "table": j.table, "token": j.token}, headers=ok)

    async def round_(request):
        token = _bearer(request)
        limited(request, token)
        if token is None:
            raise ph.Refused(401, "give the table's token: Authorization: Bearer TOKEN")
        r = request.query_params.get("round")
        if r is not None and not (r.isascii() and r.isdigit() and 0 < int(r) < 1000):    # (not "²", not "١")
            raise ph.Refused(400, "round must be a round number")
        o = await phones.run(ph.offer, token, int(r) if r else None)
        phones.note(o.night, o.table, f"round {o.round}")
        return JSONResponse({"night": o.night, "table": o.table, "round": o.round, "token": o.token,
                             "setup": o.setup}, headers=ok)

    async def result(request):
        token = _bearer(request)
        limited(request, token)
        if token is None:
            raise ph.Refused(401, "give the round's token: Authorization: Bearer TOKEN")
        d = await _json(request, "result")
        if not SAFE_ID.fullmatch(d["game"]) or not _CRC.fullmatch(d["crc"]):
            raise ph.Refused(400, "game must be a game id and crc eight hex digits")
        t = await phones.run(ph.take, token, d["game"], d["crc"], d["log"].encode())
        phones.note(t.night, t.table, f"round {t.round}: {t.note or t.status}")
        return JSONResponse({"status": t.status, "crc": t.crc, "note": t.note}, headers=ok)

    known = {"/api/join": "POST", "/api/round": "GET", "/api/result": "POST"}

    async def elsewhere(request):
        if request.url.path in known:
            return _error(405, f"{request.url.path} takes {known[request.url.path]}, not {request.method}")
        return _error(404, f"no {request.url.path} here")

    return [Route("/api/join", answer(join), methods=["POST"]),
            Route("/api/round", answer(round_), methods=["GET"]),
            Route("/api/result", answer(result), methods=["POST"]),
            Route("/api/{rest:path}", _AnyMethod(elsewhere))]
