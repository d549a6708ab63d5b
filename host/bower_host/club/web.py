"""``bower club serve``: the night's live board, a page per player, JSON results.

A Starlette app served by uvicorn:

* ``/`` -- standings and the round's tables; a small script fetches
  ``/board.json`` and redraws when ``/events`` says so, and every few
  seconds while that stream is not open (``?every=S``, default 10);
  without scripts the page reloads itself every 30 s. On a screen 800
  CSS px wide or more (a projector) the script shows a screenful at a time
  and turns the page every ``?rotate=S`` seconds (default 12; ``?page=N``
  holds page N, ``#pN`` the page with player N's row); narrower (a phone)
  it is one column to scroll, with a "Find your name" list;
* ``/player/{number}`` -- one player's rounds: table, seat, partner,
  opponents, points; updated as the board is; ``/player?n=N`` redirects there;
* ``/results.json`` -- standings, prizes and every round's table results
  (``standings.results_json``); ``/standings.csv`` -- the CSV export;
* ``/events`` -- server-sent events: ``data: N`` once the library changed,
  so the pages fetch at once instead of at their next poll
  (:mod:`bower_host.club.events`).

The pages are rendered once per change of the library: each request reads
the database file's change counter (bytes 24-27 of its header, which SQLite
bumps on every commit) and re-reads the night only when it moved, so a
room full of phones costs a file read each. The pages themselves are
rendered by :mod:`bower_host.club.pages`; this module serves them.

While the library file is gone (moved, deleted) or cannot be read
(damaged), every page answers 503 with one line of text saying so (the JSON
endpoints: ``{"error": "..."}``), the server's output gets one line when
that starts and one when it ends, and the board is served again as soon as
the file can be read.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path
from dataclasses import dataclass

from bower_host.club import night as cn
from bower_host.club.events import Events
from bower_host.club.events import route as events_route
from bower_host.serving import check_tls, listen, run, shown_host
from bower_host.club.pages import REFRESH, ROTATE, board_page, player_page, render

_log = logging.getLogger("uvicorn.error")


@dataclass
class _ReadOnly:
    """A read-only connection where the club functions want a library."""
    conn: sqlite3.Connection
    path: object

class Unavailable(Exception):
    """The night cannot be read now (its library is gone or damaged): the
    pages answer 503 with this one line until it can."""


class Board:
    """The night as the pages show it, rebuilt when the library changes."""

    def __init__(self, db_path, key: str):
        self.path = Path(db_path)
        self.key = key
        self._lock = threading.Lock()
        self._version = None
        self._data = None
        self.down: str | None = None     # why the night cannot be read now (logged once)

    def version(self) -> tuple:
        try:
            with open(self.path, "rb") as f:
                head = f.read(28)
            st = os.stat(self.path)
        except OSError:
            return (None,)
        return head[24:28], st.st_mtime_ns, st.st_size

    def get(self) -> dict:
        v = self.version()
        data = self._data
        if data is not None and v == self._version and self.down is None:
            return data
        with self._lock:
            if self._data is not None and v == self._version and self.down is None:
                return self._data
            try:
                night, corr, joins = self._read(v)
            except Unavailable as e:
                self._say(str(e))
                raise
            self._data = render(night, corr)
            self._data["joins"] = joins
            self._version = v
            self._say(None)
            return self._data

    def _read(self, v: tuple):
        # The night and its corrections, read-only and without Library's
        # integrity check (the page only reads). :raises Unavailable: why not.
        if v == (None,):
            raise Unavailable(f"the game library {self.path} is not there (moved or deleted?): the board is back "
                              "as soon as it is")
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
            conn.row_factory = sqlite3.Row
            try:
                lib = _ReadOnly(conn, self.path)
                night = cn.load_night(lib, self.key)
                return night, cn.corrections(lib, night), _joins(lib, night)
            finally:
                conn.close()
        except sqlite3.Error as e:
            why = " ".join(str(e).split())[:120]
            raise Unavailable(f"the game library {self.path} cannot be read ({why}): run `bower library check "
                              f"--db {self.path}`; the board is back as soon as it can be read") from None
        except cn.ClubError as e:
            raise Unavailable(f"{e}: the board is back as soon as the library has it again") from None

    def _say(self, why: str | None) -> None:
        # One line in the server's output when the night stops or starts
        # being readable (not one per request).
        if why != self.down:
            if why is not None:
                _log.warning("bower club serve: %s", why)
            elif self.down is not None:
                _log.warning("bower club serve: the game library %s can be read again: serving the board", self.path)
            self.down = why


def _joins(lib, night) -> dict:
    # The tables' join codes and phones (club.phones.joins); none in a
    # library an older bower made and no bower club serve migrated yet.
    from bower_host.club.phones import joins
    try:
        return joins(lib, night)
    except sqlite3.OperationalError:
        return {}


def make_app(db_path, key: str, site=None, phones=None, base=None):
    """The Starlette app for night ``key`` of the library at ``db_path``;
    with ``site`` (the phone build's folder: ``bower_host.web.write_site``)
    it is served at ``/phone/``, and with ``phones``
    (``club.phoneapi.Phones``) the phones' API at ``/api/`` and their pages
    (``club.joinpage``); ``base``: the address phones reach it at (None:
    the address each page was asked at)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Route

    board = Board(db_path, key)
    events = Events(board.version)
    nocache = {"Cache-Control": "no-store"}

    async def data():
        v = board.version()
        if board._data is not None and v == board._version and board.down is None:
            return board._data
        return await run_in_threadpool(board.get)

    def number(request, name: str, default: int, lo: int, hi: int) -> int:
        try:
            return max(lo, min(hi, int(request.query_params.get(name, default))))
        except ValueError:
            return default

    async def index(request):
        page = board_page(await data(), number(request, "every", REFRESH, 1, 300),
                          number(request, "rotate", ROTATE, 1, 300), number(request, "page", 0, 0, 999))
        return HTMLResponse(page, headers=nocache)

    async def find(request):
        n = number(request, "n", 0, 0, 10 ** 6)
        return RedirectResponse(f"player/{n}" if n else "./", status_code=303, headers=nocache)

    async def player(request):
        d = await data()
        n = request.path_params["number"]
        page = d["pages"].get(n)
        if page is None:
            page = player_page(d, n)
            if page is None:
                return PlainTextResponse(f"no player {n} tonight", status_code=404)
            d["pages"][n] = page
        return HTMLResponse(page, headers=nocache)

    async def results(request):
        return Response((await data())["results_bytes"], media_type="application/json", headers=nocache)

    async def board_json(request):
        return Response((await data())["board_bytes"], media_type="application/json", headers=nocache)

    async def csv_(request):
        return Response((await data())["csv"], media_type="text/csv", headers=nocache)

    async def unavailable(request, exc):
        # The library is gone or damaged: 503 and the one line (JSON for the JSON).
        headers = {**nocache, "Retry-After": "10"}
        if request.url.path.endswith(".json"):
            return JSONResponse({"error": str(exc)}, status_code=503, headers=headers)
        return PlainTextResponse(f"{exc}\n", status_code=503, headers=headers)

    routes = [
        Route("/", index), Route("/player", find), Route("/player/{number:int}", player),
        Route("/results.json", results), Route("/events", events_route(events)),
        Route("/board.json", board_json), Route("/standings.csv", csv_)]
    if phones is not None:
        from bower_host.club.joinpage import routes as join_routes
        from bower_host.club.phoneapi import routes as api
        routes += api(phones) + join_routes(data, phones, base)
    if site is not None:
        from starlette.routing import Mount

        from bower_host.web import app as site_app

        async def to_phone(request):
            q = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"phone/{q}", status_code=308)
        routes += [Route("/phone", to_phone), Mount("/phone", site_app(site))]
    app = Starlette(routes=routes, exception_handlers={Unavailable: unavailable})
    app.state.events = events
    return app


def server(db_path, key: str, host: str = "127.0.0.1", port: int = 8080, certfile=None, keyfile=None, site=None,
           phones=None, base=None):
    """A uvicorn ``Server`` for the app (``.run()``; tests run it in a thread);
    HTTPS with ``certfile`` and ``keyfile`` (PEM: ``serving.check_tls``)."""
    import uvicorn

    from bower_host.club.phoneapi import head_timeout
    app = make_app(db_path, key, site, phones, base)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, http=head_timeout(),
                            backlog=2048, timeout_keep_alive=5, ssl_certfile=certfile, ssl_keyfile=keyfile)
    srv = uvicorn.Server(config)
    app.state.events.stopping = lambda: srv.should_exit     # the live pages' streams end as the server stops
    return srv


def serve(db_path, key: str, host: str, port: int, certfile=None, keyfile=None) -> int:
    """Serve night ``key``, the phone build and the phones' API until
    Ctrl-C (HTTPS with ``certfile`` and ``keyfile``); the address is
    announced only once it is listened on. :raises ServeError: it cannot be."""
    import tempfile

    from bower_host.club.phoneapi import Phones
    from bower_host.web import lan_address, write_site
    scheme = "https" if check_tls(certfile, keyfile) else "http"
    sock = listen(host, port)
    port = sock.getsockname()[1]
    here = f"{scheme}://{shown_host(host)}:{port}/"
    lan = lan_address() if host in ("0.0.0.0", "::") else None
    base = f"{scheme}://{lan}:{port}/" if lan else here if host not in ("127.0.0.1", "localhost", "::1") else None
    print(f"Club night {key}: {here} (results: /results.json; Ctrl-C stops)", flush=True)
    if base is None:
        print("Phones cannot reach this computer's loopback address: serve with --host 0.0.0.0 for the tables' "
              "phones", flush=True)
    else:
        print(f"Phones join at {base}join (each table's code and QR code; the table sheets have them too)",
              flush=True)
    with tempfile.TemporaryDirectory(prefix="bower-club-") as tmp:
        site = write_site(str(Path(tmp) / "phone"))
        phones = Phones(db_path)
        try:
            return run(server(db_path, key, host, port, certfile, keyfile, site, phones, base), sock)
        finally:
            phones.close()
