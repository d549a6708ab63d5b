"""``bower club serve``: the night's live board, a page per player, JSON results.

A Starlette app served by uvicorn:

* ``/`` -- standings and the round's tables; a small script fetches
  ``/board.json`` every few seconds and redraws (``?every=S``, default 10),
  and without scripts the page reloads itself every 30 s. On a screen 800
  CSS px wide or more (a projector) the script shows a screenful at a time
  and turns the page every ``?rotate=S`` seconds (default 12; ``?page=N``
  holds page N, ``#pN`` the page with player N's row); narrower (a phone)
  it is one column to scroll, with a "Find your name" list;
* ``/player/{number}`` -- one player's rounds: table, seat, partner,
  opponents, points; reloads itself; ``/player?n=N`` redirects there;
* ``/results.json`` -- standings, prizes and every round's table results
  (``standings.results_json``); ``/standings.csv`` -- the CSV export.

The pages are rendered once per change of the library: each request reads
the database file's change counter (bytes 24-27 of its header, which SQLite
bumps on every commit) and re-reads the night only when it moved, so a
room full of phones costs a file read each.
"""

from __future__ import annotations

import errno
import html
import json
import os
import socket
import sqlite3
import threading
from pathlib import Path
from dataclasses import dataclass

from bower_host.club import night as cn
from bower_host.club import standings as cs

REFRESH = 10       # seconds between the board's polls
NOSCRIPT_REFRESH = 30
ROTATE = 12        # seconds a page of the board stays up on a projector (?rotate=S)

_CSS = """
body{font-family:system-ui,sans-serif;margin:0;padding:max(8px,1vw) max(10px,1.6vw);background:#fff;color:#111;
 font-size:max(16px,1.5vw);line-height:1.25}
h1{font-size:max(24px,2.6vw);margin:0 0 .15em 0;overflow-wrap:anywhere} h2{font-size:max(20px,1.8vw);margin:0 0 .2em 0}
.sub{color:#444;font-size:max(14px,1.25vw);margin-bottom:.5em;overflow-wrap:anywhere}
.wrap{display:flex;gap:2vw;align-items:flex-start}
table{border-collapse:collapse} th,td{padding:.1em .4em;text-align:right;white-space:nowrap}
th{border-bottom:3px solid #111} td.l,th.l{text-align:left} tr:nth-child(even) td{background:#eef}
tr:target td{background:#fd6} .short,.key{display:none}
#standings{font-size:max(16px,1.45vw)} a{color:inherit;text-decoration:none} td a{text-decoration:underline dotted}
#round{flex:1;min-width:0}
.tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(max(150px,12.5vw),1fr));gap:max(6px,.6vw)}
.tbl{border:3px solid #888;border-radius:.4em;padding:.15em .4em;font-size:max(14px,1.15vw);overflow-wrap:anywhere}
.tbl.complete{border-color:#171} .tbl.playing{border-color:#c80} .tbl.awaiting{border-color:#c40}
.tbl .hd,.tbl .pair{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;column-gap:.4em}
.tbl .pair{flex-wrap:nowrap} .tbl .hd b{font-size:1.1em} .pair span{flex:1;min-width:0}
.st{font-size:max(14px,.95vw);color:#555}
.find{display:none} #pager{font-weight:bold;color:#111}
@media (max-width:799px){
 .wrap{display:block} #standings{width:100%} th,td{padding:.15em .25em}
 .long{display:none} .short{display:inline} .key{display:block;color:#444;margin:.3em 0 .6em 0}
 .find{display:block;margin:.2em 0 .8em 0} .find select,.find button{font-size:16px;max-width:100%}
 td.wrap-ok{white-space:normal}
}
"""

# The board's script: redraws from board.json every EVERY seconds; on a
# screen 800 px wide or more (a projector) shows the standings and the
# tables a screenful at a time, turning the page every ROTATE seconds (PAGE:
# stay on that page; #pN in the address: stay on player N's page).
_SCRIPT = """
(function(){
 var every=@EVERY@*1000, rotate=@ROTATE@*1000, fixed=@PAGE@, polls=0;
 var page=0, pages=1, rowPage=[], cardPage=[], rowPages=1, cardPages=1, body=document.body;
 var wide=window.matchMedia('(min-width: 800px)');
 function $(id){return document.getElementById(id);}
 function rows(){return Array.prototype.slice.call($('rows').rows);}
 function cards(){return Array.prototype.slice.call(document.querySelectorAll('#round .tbl'));}
 function target(){return /^#p[0-9]+$/.test(location.hash)?location.hash.slice(1):null;}
 function split(els, room){
  var out=[], start=null, p=0;
  els.forEach(function(e){
   var r=e.getBoundingClientRect();
   if(start===null) start=r.top;
   else if(r.bottom-start>room && r.top>start){p++; start=r.top;}
   out.push(p);
  });
  return out;
 }
 function count(pp){return pp.length?pp[pp.length-1]+1:1;}
 function apply(){
  var rp=page%rowPages, cp=page%cardPages;
  rows().forEach(function(e,i){e.style.display=rowPage[i]===rp?'':'none';});
  cards().forEach(function(e,i){e.style.display=cardPage[i]===cp?'':'none';});
  $('pager').textContent=pages>1?' \\u00b7 page '+(page+1)+' of '+pages:'';
  body.setAttribute('data-page',page+1); body.setAttribute('data-pages',pages);
 }
 function layout(){
  var rs=rows(), cs=cards(), t=$('standings');
  rs.concat(cs).forEach(function(e){e.style.display='';});
  t.style.width='';
  rowPage=rs.map(function(){return 0;}); cardPage=cs.map(function(){return 0;});
  if(wide.matches){
   $('pager').textContent=' \\u00b7 page 88 of 88';
   t.style.width=t.getBoundingClientRect().width+'px';
   var h=window.innerHeight-(parseFloat(getComputedStyle(body).paddingBottom)||0)-2;
   if(rs.length) rowPage=split(rs, h-rs[0].getBoundingClientRect().top);
   var g=document.querySelector('#round .tables');
   if(cs.length && g){
    var below=$('round').getBoundingClientRect().bottom-g.getBoundingClientRect().bottom;
    cardPage=split(cs, h-below-cs[0].getBoundingClientRect().top);
   }
  }
  rowPages=count(rowPage); cardPages=count(cardPage); pages=Math.max(rowPages,cardPages);
  var me=target(), i=rs.map(function(e){return e.id;}).indexOf(me);
  if(fixed>0) page=Math.min(fixed,pages)-1;
  else if(i>=0) page=rowPage[i];
  else if(page>=pages) page=0;
  apply();
 }
 function draw(d){
  $('status').textContent=d.status;
  $('rows').innerHTML=d.rows;
  $('round').innerHTML=d.round;
  layout();
  polls++; body.setAttribute('data-polls',polls);
 }
 function poll(){
  fetch('board.json',{cache:'no-store'}).then(function(r){return r.json();}).then(draw)
   .catch(function(){}).then(function(){setTimeout(poll,every);});
 }
 window.bowerBoard={pages:function(){return pages;}, show:function(p){page=p%pages; apply(); return pages;}};
 layout();
 window.addEventListener('resize',layout); window.addEventListener('hashchange',layout);
 setInterval(function(){if(!fixed && !target() && pages>1){page=(page+1)%pages; apply();}}, rotate);
 setTimeout(poll,every);
})();
"""


def _e(x) -> str:
    return html.escape(str(x))



@dataclass
class _ReadOnly:
    """A read-only connection where the club functions want a library."""
    conn: sqlite3.Connection
    path: object

class Board:
    """The night as the pages show it, rebuilt when the library changes."""

    def __init__(self, db_path, key: str):
        self.path = Path(db_path)
        self.key = key
        self._lock = threading.Lock()
        self._version = None
        self._data = None

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
        if data is not None and v == self._version:
            return data
        with self._lock:
            if self._data is not None and v == self._version:
                return self._data
            # Read-only, without Library's integrity check: the page only reads.
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
            conn.row_factory = sqlite3.Row
            try:
                lib = _ReadOnly(conn, self.path)
                night = cn.load_night(lib, self.key)
                corr = cn.corrections(lib, night)
            finally:
                conn.close()
            self._data = _render(night, corr)
            self._version = v
            return self._data


def _status(night, res) -> str:
    n = res["night"]
    if n["complete"]:
        return f"Final standings after {night.rounds} rounds"
    rd = res["rounds"][n["current_round"] - 1]
    done = sum(t["status"] == "complete" for t in rd["tables"])
    return f"Round {n['current_round']} of {night.rounds}: {done} of {len(rd['tables'])} tables in"


def _rows(res) -> str:
    out = []
    prev = None
    for r in res["standings"]:
        place = "" if r["place"] == prev else r["place"]
        prev = r["place"]
        out.append(f"<tr id=p{r['number']}><td>{place}</td><td class=l><a href='player/{r['number']}'>"
                   f"{_e(r['player'])}</a></td>"
                   f"<td>{r['points']}</td><td>{r['won']}</td><td>{r['loners']}</td><td>{r['euchres']}</td>"
                   f"<td>{r['rounds']}</td></tr>")
    return "".join(out)


def _round(res) -> str:
    n = res["night"]
    rd = res["rounds"][n["current_round"] - 1]
    cells = [f"<h2>Round {rd['round']}</h2><div class=tables>"]
    for t in rd["tables"]:
        p = t["players"] or {}
        ns = f"{_e(p.get('N', '?'))} &amp; {_e(p.get('S', '?'))}"
        ew = f"{_e(p.get('E', '?'))} &amp; {_e(p.get('W', '?'))}"
        if t["status"] == "waiting":
            score, st = ("", ""), "waiting"
        else:
            score = (t["points"][0], t["points"][1])
            length = f"{t['hands']}/{n['hands']} hands" if n["hands"] else f"{t['hands']} hands"
            st = "done" if t["status"] == "complete" else "awaiting acceptance" if t["status"] == "awaiting" \
                else length
        cells.append(f"<div class='tbl {t['status']}'><div class=hd><b>Table {t['table']}</b> "
                     f"<span class=st>{st}</span></div><div class=pair><span>{ns}</span> <b>{score[0]}</b></div>"
                     f"<div class=pair><span>{ew}</span> <b>{score[1]}</b></div></div>")
    cells.append("</div>")
    if rd["byes"]:
        cells.append(f"<p>Bye: {_e(', '.join(rd['byes']))}</p>")
    return "".join(cells)


def _render(night, corr) -> dict:
    res = cs.results_json(night, corr)
    board = {"status": _status(night, res), "rows": _rows(res), "round": _round(res)}
    return {"night": night, "results": res, "board": board,
            "results_bytes": json.dumps(res).encode(), "board_bytes": json.dumps(board).encode(),
            "csv": cs.to_csv(night).encode(), "pages": {}}


def _finder(res) -> str:
    # "Find your name": a phone's way to its player's page (no script needed:
    # the button submits to /player?n=N, which redirects).
    people = sorted(res["standings"], key=lambda r: (r["player"].casefold(), r["number"]))
    options = "".join(f"<option value={r['number']}>{_e(r['player'])}</option>" for r in people)
    return (f"<form class=find action=player method=get><label for=me>Find your name:</label> "
            f"<select id=me name=n onchange='this.form.submit()'><option value=''>choose...</option>{options}"
            f"</select> <button>Show</button></form>")


# The standings' number columns: a phone shows the short heading (and a key
# under the table) to fit 390 px.
_COLUMNS = (("Points", "Pts"), ("Won", "Won"), ("Loners", "Lon"), ("Euchres", "Eu"), ("Rounds", "Rds"))


def _short(long: str, short: str) -> str:
    return f"<span class=long>{long}</span><span class=short>{short}</span>"


def _heads() -> str:
    return "".join(f"<th>{_short(a, b)}</th>" for a, b in _COLUMNS)


def board_page(data: dict, every: int, rotate: int = ROTATE, page: int = 0) -> str:
    """The board: ``every`` seconds between polls, ``rotate`` seconds a page
    (on a wide screen), ``page`` > 0: stay on that page."""
    night, b = data["night"], data["board"]
    sc = night.scoring
    script = _SCRIPT.replace("@EVERY@", str(int(every))).replace("@ROTATE@", str(int(rotate))) \
        .replace("@PAGE@", str(int(page)))
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{_e(night.name)}: standings</title>"
            f"<meta name=viewport content='width=device-width'>"
            f"<noscript><meta http-equiv=refresh content={NOSCRIPT_REFRESH}></noscript><style>{_CSS}</style></head>"
            f"<body data-polls=0><h1>{_e(night.name)}</h1>"
            f"<div class=sub><span id=status>{_e(b['status'])}</span> &middot; {night.length()} a round, "
            f"{night.movement} movement &middot; lone march {sc['loner']}, euchred loner {sc['set_loner']}, "
            f"renege {sc['renege']}<span id=pager></span></div>{_finder(data['results'])}"
            f"<div class=wrap><table id=standings><thead><tr><th>#</th><th class=l>Player</th>{_heads()}"
            f"</tr></thead><tbody id=rows>{b['rows']}"
            f"</tbody></table><p class=key>Pts points &middot; Won rounds won &middot; Lon loners &middot; "
            f"Eu euchres &middot; Rds rounds played</p><div id=round>{b['round']}</div></div>"
            f"<script>{script}</script></body></html>")


def player_page(data: dict, number: int) -> str | None:
    night = data["night"]
    res = data["results"]
    me = next((r for r in res["standings"] if r["number"] == number), None)
    if me is None:
        return None
    name = me["player"]
    rows = []
    for rd in res["rounds"]:
        if name in rd["byes"]:
            rows.append(f"<tr><td>{rd['round']}</td><td class=l colspan=5>bye</td></tr>")
            continue
        for t in rd["tables"]:
            p = t["players"] or {}
            seats = [k for k, v in p.items() if v == name]
            if not seats:
                continue
            s = "NESW".index(seats[0])
            partner = p["NESW"[(s + 2) % 4]]
            opp = f"{_e(p['NESW'[(s + 1) % 4]])} &amp; {_e(p['NESW'[(s + 3) % 4]])}"   # each name escaped once
            pts = "" if t["points"] is None else t["points"][s % 2]
            st = {"complete": "", "awaiting": " (awaiting acceptance)", "playing": " (playing)",
                  "waiting": " (to play)"}.get(t["status"], "")
            rows.append(f"<tr><td>{rd['round']}</td><td>{t['table']}</td><td class=l>{seats[0]}</td>"
                        f"<td class='l wrap-ok'>{_e(partner)}</td><td class='l wrap-ok'>{opp}</td>"
                        f"<td class=wrap-ok>{pts}{st}</td></tr>")
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{_e(name)}: {_e(night.name)}</title>"
            f"<meta name=viewport content='width=device-width'><meta http-equiv=refresh content={NOSCRIPT_REFRESH}>"
            f"<style>{_CSS}</style></head><body><h1>{_e(name)}</h1>"
            f"<div class=sub><a href='../'>{_e(night.name)}</a> &middot; place {me['place']} &middot; "
            f"{me['points']} points, {me['won']} rounds won, {me['loners']} loners, {me['euchres']} euchres "
            f"&middot; <a href='../#p{number}'><u>your row in the standings</u></a></div>"
            f"<table id=rounds><thead><tr><th>{_short('Round', 'Rd')}</th><th>{_short('Table', 'Tbl')}</th>"
            f"<th class=l>Seat</th><th class=l>Partner</th><th class=l>{_short('Opponents', 'Opp.')}</th>"
            f"<th>{_short('Points', 'Pts')}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"</body></html>")


def make_app(db_path, key: str):
    """The Starlette app for night ``key`` of the library at ``db_path``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Route

    board = Board(db_path, key)
    nocache = {"Cache-Control": "no-store"}

    async def data():
        v = board.version()
        if board._data is not None and v == board._version:
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

    return Starlette(routes=[
        Route("/", index), Route("/player", find), Route("/player/{number:int}", player),
        Route("/results.json", results),
        Route("/board.json", board_json), Route("/standings.csv", csv_)])


def server(db_path, key: str, host: str = "127.0.0.1", port: int = 8080):
    """A uvicorn ``Server`` for the app (``.run()``; tests run it in a thread)."""
    import uvicorn
    config = uvicorn.Config(make_app(db_path, key), host=host, port=port, log_level="warning", access_log=False,
                            backlog=2048, timeout_keep_alive=5)
    return uvicorn.Server(config)


class ServeError(Exception):
    """The page cannot be served on that address and port (one line for the user)."""


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, or ServeError saying why not
    (taken before the address is announced, and handed to uvicorn)."""
    if not 0 <= port <= 65535:
        raise ServeError(f"port {port}: a port is 1 to 65535")
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e) or type(e).__name__
        raise ServeError(f"cannot serve on {host!r}: no such address on this computer ({why}); give --host "
                         "127.0.0.1 (this computer) or 0.0.0.0 (the room's network)") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        why = {errno.EADDRINUSE: "the port is in use (another bower club serve or web server?): give another "
                                 "--port, such as 8081",
               errno.EACCES: "ports below 1024 need administrator rights: give --port 8080 or another above 1023",
               errno.EADDRNOTAVAIL: "this computer has no such address: give --host 127.0.0.1 or 0.0.0.0"}
        said = why.get(e.errno or 0, e.strerror or str(e))
        raise ServeError(f"cannot serve on {host}:{port}: {said}") from None
    return sock


def serve(db_path, key: str, host: str, port: int) -> int:
    """Serve night ``key`` until Ctrl-C; the address is announced only once
    it is listened on. :raises ServeError: it cannot be."""
    sock = listen(host, port)
    port = sock.getsockname()[1]
    shown = "localhost" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    print(f"Club night {key}: http://{shown}:{port}/ (results: /results.json; Ctrl-C stops)", flush=True)
    try:
        server(db_path, key, host, port).run(sockets=[sock])
    finally:
        sock.close()
    return 0
