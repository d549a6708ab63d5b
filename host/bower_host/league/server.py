"""``bower league serve``: the push endpoint and the league's read-only pages.

::

    POST /api/push    {"bower_league": 1, "nights": [...]}   Authorization: Bearer CLUB_TOKEN
                      -> {"club": "Elks", "nights": [{"key", "outcome", "version"}]}
    GET  /api/standings[?season=S&club=C&limit=N&offset=M]   the standings as JSON (standings.standings)
    GET  /                                       the league: its seasons, clubs and the all-time standings
    GET  /season/{name}   /club/{name}   /player/{club}/{name}      pages (phone and projector sizes)

A push is refused with a 4xx and ``{"error": one line}``, nothing stored,
unless its token is a club's (that club's nights only: the club comes from
the token, never from the body), it is JSON (``Content-Type:
application/json``) of at most ``summary.MAX_BODY`` bytes read within
:data:`BODY_SECONDS`, and every night is one a club can hold
(``summary.check_payload``). It is answered only after each night's
transaction has committed, so a reply lost on the way and the push sent
again stores nothing twice (a night's digest). The database unreachable
(PostgreSQL restarting, SQLite locked past its wait) is a 503 with
``Retry-After``: ``bower league push`` tries again.
"""

from __future__ import annotations

import html
import json
import sys
import threading
import time
from urllib.parse import quote

from bower_host.inputs import InputError, load_json
from bower_host.league import standings as ls
from bower_host.league import summary as su
from bower_host.league.sqldb import DbError
from bower_host.league.store import League, LeagueError
from bower_host.serving import json_error as _error
from bower_host.serving import read_body

BODY_SECONDS = 10.0
#: Players on a page of a season's standings.
PAGE_ROWS = 200


class Refused(Exception):
    def __init__(self, status: int, why: str, retry: int | None = None):
        super().__init__(why)
        self.status, self.why, self.retry = status, why, retry


def _unavailable(e: Exception) -> Refused:
    """A 503 for the client; the database's own words (its URL, user and
    host among them) go to the operator, on the server's standard error."""
    print(f"bower league serve: {' '.join(str(e).split())[:300]}", file=sys.stderr, flush=True)
    return Refused(503, "the league database is not available now: try again", 2)


class Leagues:
    """One league connection per server thread, opened again after the database was lost."""

    def __init__(self, spec: str):
        self.spec = spec
        self.local = threading.local()
        self.all: list = []
        self.lock = threading.Lock()

    def call(self, fn, *args):
        lg = getattr(self.local, "lg", None)
        if lg is None:
            try:
                lg = League.open(self.spec)
            except LeagueError as e:
                raise _unavailable(e) from None
            self.local.lg = lg
            with self.lock:
                self.all.append(lg)
        try:
            return fn(lg, *args)
        except DbError as e:
            self._drop(lg)
            raise _unavailable(e) from None

    def _drop(self, lg) -> None:
        self.local.lg = None
        if lg is not None:
            lg.close()
            with self.lock:
                if lg in self.all:
                    self.all.remove(lg)

    def close(self) -> None:
        with self.lock:
            for lg in self.all:
                lg.close()
            self.all.clear()


class Cache:
    """Pages and standings as last made, each kept with the league's
    ``stamp()`` it was made at: a request whose stamp is the same is
    answered from here (standings are read far more often than nights
    arrive), any push, season, rename or merge makes the next one anew."""

    MOST = 256

    def __init__(self):
        self.items: dict = {}
        self.lock = threading.Lock()

    def call(self, lg: League, fn, *args):
        stamp = lg.stamp()
        key = (fn, args)
        with self.lock:
            hit = self.items.get(key)
            if hit is not None and hit[0] == stamp:
                return hit[1]
        out = fn(lg, *args)
        with self.lock:
            if len(self.items) >= self.MOST:
                self.items.pop(next(iter(self.items)))
            self.items[key] = (stamp, out)
        return out


def _standings_json(lg: League, season, club, limit, offset) -> bytes:
    return json.dumps(ls.standings(lg, season, club, limit, offset)).encode()


async def _body(request) -> bytes:
    return await read_body(request, su.MAX_BODY, BODY_SECONDS, Refused, "a push")


def _whole(query, name: str, lo: int, hi: int) -> int | None:
    v = query.get(name)
    if v is None:
        return None
    if not (v.isascii() and v.isdigit()) or not lo <= int(v) <= hi:
        raise Refused(400, f"{name} is a whole number from {lo:,} to {hi:,}")
    return int(v)


def _token(request) -> str:
    v = request.headers.get("authorization", "")
    if not v.startswith("Bearer "):
        raise Refused(401, "a push needs its club's token: Authorization: Bearer TOKEN")
    t = v[7:].strip()
    if not t or len(t) > 200 or not t.isascii() or not t.isprintable():
        raise Refused(401, "a malformed token")
    return t


def _printable(value: str | None, what: str) -> str | None:
    """A name from the request's URL. The league's names are all printable,
    so another names nothing: refused before it reaches the database
    (PostgreSQL's text cannot hold a NUL, not even to look one up)."""
    if value is not None and not value.isprintable():
        raise Refused(404, f"the league has no {what} {value[:40]!r}" if what != "page"
                      else "no such page: / shows the league")
    return value


def _push(lg: League, token: str, nights: list) -> dict:
    club = lg.club_of_token(token)
    if club is None:
        raise Refused(401, "that token is no club's: bower league club add prints a club's token")
    out = lg.push(int(club[0]), nights)
    return {"club": club[1], "nights": [{"key": k, "outcome": o, "version": v} for k, o, v in out]}


# ----- pages -----------------------------------------------------------------------------

_STYLE = """body{font-family:system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:96rem;background:#fff;color:#111;
font-size:clamp(1rem,1.2vw,1.6rem)}h1{font-size:clamp(1.3rem,4vw,2.8rem);margin:.2rem 0}
h2{font-size:clamp(1.1rem,3vw,2rem)}table{border-collapse:collapse;width:100%;font-size:clamp(.9rem,1.6vw,1.5rem)}
th,td{padding:.3em .5em;border-bottom:1px solid #ccc;text-align:right}th{background:#eee}
td.t,th.t{text-align:left}.note,.narrow{color:#555}nav a{margin-right:1em}.narrow{display:none}
@media (max-width:600px){.wide{display:none}.narrow{display:inline}}"""


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width,"
            f"initial-scale=1'><title>{html.escape(title)}</title><style>{_STYLE}</style><body>{body}</body></html>")


def _e(v) -> str:
    return html.escape(str(v))


def _link(kind: str, *names: str) -> str:
    return "/" + kind + "/" + "/".join(quote(n, safe="") for n in names)


def _standings_html(st: dict) -> str:
    rows = []
    for r in st["players"]:
        who = _link("player", r["club"], r["player"])
        club = _link("club", r["club"])
        rows.append(f"<tr><td>{_e(r['place'] or '-')}</td><td class=t><a href='{who}'>{_e(r['player'])}</a>"
                    f"<span class=narrow> ({_e(r['club'])})</span></td>"
                    f"<td class='t wide'><a href='{club}'>"
                    f"{_e(r['club'])}</a></td><td>{r['nights']}</td><td>{_e(r['score'])}</td>"
                    f"<td class=wide>{r['won']}</td><td class=wide>{r['loners']}</td><td class=wide>{r['euchres']}</td>"
                    "</tr>")
    s = st["season"]
    notes = "".join(f"<p class=note>Night {_e(a['night'])} of {_e(a['club'])} was amended at the club (version "
                    f"{a['version']}): it counts in place of the earlier one.</p>" for a in st["amended"])
    return (f"<p class=note>{_e(s['nights'])} nights, {_e(ls.describe(s))}.</p><table><tr><th>place</th>"
            "<th class=t>player</th><th class='t wide'>club</th><th>nights</th><th>score</th><th class=wide>won</th>"
            f"<th class=wide>loners</th><th class=wide>euchres</th></tr>{''.join(rows)}</table>"
            + ("" if rows else "<p>No nights pushed yet.</p>") + notes)


def _home(lg: League) -> str:
    st = ls.standings(lg, None, limit=200)
    seasons = "".join(f"<li><a href='{_link('season', s[0])}'>{_e(s[0])}</a>{' (' + _e(s[1]) + ')' if s[1] else ''}"
                      "</li>" for s in lg.seasons())
    clubs = "".join(f"<li><a href='{_link('club', c[1])}'>{_e(c[1])}</a>: {c[2]} nights</li>" for c in lg.clubs())
    return _page(lg.name, f"<h1>{_e(lg.name)}</h1><h2>Seasons</h2><ul>{seasons}</ul><h2>Clubs</h2><ul>{clubs}</ul>"
                          f"<h2>All time</h2>{_standings_html(st)}")


def _season(lg: League, name: str, page: int = 1) -> str:
    st = ls.standings(lg, name, limit=PAGE_ROWS + 1, offset=(page - 1) * PAGE_ROWS)
    more = len(st["players"]) > PAGE_ROWS
    del st["players"][PAGE_ROWS:]
    here = _link("season", name)
    nav = "".join([f" <a href='{here}?page={page - 1}'>places above</a>" if page > 1 else "",
                   f" <a href='{here}?page={page + 1}'>places below</a>" if more else ""])
    return _page(f"{name}: {lg.name}", f"<nav><a href='/'>{_e(lg.name)}</a>{nav}</nav><h1>Season {_e(name)}</h1>"
                                       f"{_standings_html(st)}<nav>{nav}</nav>")


def _club(lg: League, name: str) -> str:
    cid = lg.club_id(name)
    nights = lg.db.rows("SELECT key, name, played, tables, version FROM nights WHERE club_id = ? "
                        "ORDER BY played DESC, id DESC", (cid,))
    rows = "".join(f"<tr><td class=t>{_e(n)} ({_e(k)})</td><td>{time.strftime('%Y-%m-%d', time.gmtime(p))}</td>"
                   f"<td>{t}</td><td>{v}</td></tr>" for k, n, p, t, v in nights)
    st = ls.standings(lg, None, club=name)
    return _page(f"{name}: {lg.name}", f"<nav><a href='/'>{_e(lg.name)}</a></nav><h1>{_e(name)}</h1>"
                 f"<h2>Players (all time; league places)</h2>{_standings_html(st)}<h2>Nights</h2><table><tr>"
                 f"<th class=t>night</th><th>date</th><th>tables</th><th>version</th></tr>{rows}</table>")


def _player(lg: League, club: str, name: str) -> str:
    cid = lg.club_id(club)
    pid = lg.db.value("SELECT player_id FROM player_names WHERE club_id = ? AND name = ?", (cid, name))
    if pid is None:
        raise LeagueError(f"{club} has no player {name!r}")
    shown = lg.db.value("SELECT name FROM members WHERE id = ?", (pid,))
    nights = lg.db.rows("SELECT n.key, n.name, n.played, np.place, np.points, np.won FROM night_players np "
                        "JOIN nights n ON n.id = np.night_id WHERE np.player_id = ? ORDER BY n.played DESC", (pid,))
    rows = "".join(f"<tr><td class=t>{_e(n)}</td><td>{time.strftime('%Y-%m-%d', time.gmtime(p))}</td><td>{pl}</td>"
                   f"<td>{pt}</td><td>{w}</td></tr>" for _k, n, p, pl, pt, w in nights)
    return _page(f"{shown}: {lg.name}", f"<nav><a href='/'>{_e(lg.name)}</a> <a href='{_link('club', club)}'>"
                 f"{_e(club)}</a></nav><h1>{_e(shown)}</h1><table><tr><th class=t>night</th><th>date</th>"
                 f"<th>place</th><th>points</th><th>rounds won</th></tr>{rows}</table>")


def make_app(spec: str):
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    leagues = Leagues(spec)
    cache = Cache()

    def answer(handler):
        async def wrapped(request):
            try:
                return await handler(request)
            except Refused as e:
                return _error(e.status, e.why, e.retry)
            except LeagueError as e:
                return _error(404, str(e))
        return wrapped

    async def push(request):
        token = _token(request)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, "send the push as Content-Type: application/json")
        raw = await _body(request)
        try:
            body = load_json(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise Refused(400, f"the push is not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start})") from None
        except InputError as e:
            raise Refused(400, f"the push is {e}" if str(e).startswith("not ") else f"the push: {e}") from None
        try:
            nights = su.check_payload(body)
        except su.SummaryError as e:
            raise Refused(400, str(e)) from None
        out = await run_in_threadpool(leagues.call, _push, token, nights)
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    async def api_standings(request):
        q = request.query_params
        limit = _whole(q, "limit", 1, 100_000)
        offset = _whole(q, "offset", 0, 10_000_000) or 0
        season = _printable(q.get("season"), "season")
        club = _printable(q.get("club"), "club")
        body = await run_in_threadpool(leagues.call, cache.call, _standings_json, season, club, limit, offset)
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})

    async def season_page(request):
        page = _whole(request.query_params, "page", 1, 100_000) or 1
        text = await run_in_threadpool(leagues.call, cache.call, _season,
                                       _printable(request.path_params["name"], "page"), page)
        return HTMLResponse(text, headers={"Cache-Control": "no-cache"})

    def page(fn, *keys):
        async def handler(request):
            args = [_printable(request.path_params[k], "page") for k in keys]
            text = await run_in_threadpool(leagues.call, cache.call, fn, *args)
            return HTMLResponse(text, headers={"Cache-Control": "no-cache"})
        return handler

    async def not_found(request, exc):
        return _error(getattr(exc, "status_code", 404), "no such page: / shows the league")

    routes = [
        Route("/api/push", answer(push), methods=["POST"]),
        Route("/api/standings", answer(api_standings), methods=["GET"]),
        Route("/", answer(page(_home)), methods=["GET"]),
        Route("/season/{name}", answer(season_page), methods=["GET"]),
        Route("/club/{name}", answer(page(_club, "name")), methods=["GET"]),
        Route("/player/{club}/{name}", answer(page(_player, "club", "name")), methods=["GET"]),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})
    app.state.leagues = leagues
    return app


def server(spec: str, host: str = "127.0.0.1", port: int = 8090, certfile=None, keyfile=None):
    """A uvicorn ``Server`` for the league (tests run it in a thread or a process)."""
    import uvicorn

    from bower_host.club.phoneapi import head_timeout
    config = uvicorn.Config(make_app(spec), host=host, port=port, log_level="warning", access_log=False,
                            http=head_timeout(), backlog=2048, timeout_keep_alive=5, ssl_certfile=certfile,
                            ssl_keyfile=keyfile)
    return uvicorn.Server(config)


def serve(spec: str, host: str, port: int, certfile=None, keyfile=None) -> int:
    from bower_host.serving import check_tls, listen, run, shown_host
    scheme = "https" if check_tls(certfile, keyfile) else "http"
    with League.open(spec) as lg:       # refused here, in one line, before anything listens
        name = lg.name
    sock = listen(host, port)
    print(f"League {name}: {scheme}://{shown_host(host)}:{sock.getsockname()[1]}/ (clubs push to /api/push; "
          "Ctrl-C stops)", flush=True)
    return run(server(spec, host, port, certfile, keyfile), sock)
