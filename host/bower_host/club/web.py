"""``bower club serve``: the night's live board, a page per player, JSON results.

A Starlette app served by uvicorn:

* ``/`` -- standings and the round's tables in large type for a projector;
  a small script fetches ``/results.json`` every few seconds and redraws
  (``?every=S``, default 10), and without scripts the page reloads itself
  every 30 s;
* ``/player/{number}`` -- one player's rounds: table, seat, partner,
  opponents, points; reloads itself;
* ``/results.json`` -- standings, prizes and every round's table results
  (``standings.results_json``); ``/standings.csv`` -- the CSV export.

The pages are rendered once per change of the library: each request reads
the database file's change counter (bytes 24-27 of its header, which SQLite
bumps on every commit) and re-reads the night only when it moved, so a
room full of phones costs a file read each.
"""

from __future__ import annotations

import html
import json
import os
import sqlite3
import threading
from pathlib import Path
from dataclasses import dataclass

from bower_host.club import night as cn
from bower_host.club import standings as cs

REFRESH = 10       # seconds between the board's polls
NOSCRIPT_REFRESH = 30

_CSS = """
body{font-family:system-ui,sans-serif;margin:0;padding:1.2vw 2vw;background:#fff;color:#111;font-size:1.6vw}
h1{font-size:3vw;margin:0 0 .4vw 0} h2{font-size:2.2vw;margin:.8vw 0 .4vw 0}
.sub{color:#444;font-size:1.5vw;margin-bottom:1vw}
.wrap{display:flex;gap:2.5vw;align-items:flex-start}
table{border-collapse:collapse} th,td{padding:.25vw .8vw;text-align:right;white-space:nowrap}
th{border-bottom:3px solid #111} td.l,th.l{text-align:left} tr:nth-child(even) td{background:#eef}
#standings{font-size:1.9vw} a{color:inherit;text-decoration:none}
.tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(15vw,1fr));gap:.8vw;flex:1}
.tbl{border:3px solid #888;border-radius:.6vw;padding:.4vw .7vw;font-size:1.4vw}
.tbl.complete{border-color:#171} .tbl.playing{border-color:#c80} .tbl.awaiting{border-color:#c40}
.tbl b{font-size:1.7vw}
.st{float:right;font-size:1.2vw;color:#555}
"""

_SCRIPT = """
(function(){
 var every=%d*1000, polls=0;
 function esc(s){return String(s).replace(/[&<>"]/g,function(c){
   return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c];});}
 function draw(d){
  document.getElementById('status').textContent=d.status;
  document.getElementById('rows').innerHTML=d.rows;
  document.getElementById('round').innerHTML=d.round;
  polls++; document.body.setAttribute('data-polls',polls);
 }
 function poll(){
  fetch('board.json',{cache:'no-store'}).then(function(r){return r.json();}).then(draw)
   .catch(function(){}).then(function(){setTimeout(poll,every);});
 }
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
        out.append(f"<tr><td>{place}</td><td class=l><a href='player/{r['number']}'>{_e(r['player'])}</a></td>"
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
        cells.append(f"<div class='tbl {t['status']}'><span class=st>{st}</span><b>Table {t['table']}</b><br>"
                     f"{ns} <b>{score[0]}</b><br>{ew} <b>{score[1]}</b></div>")
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


def board_page(data: dict, every: int) -> str:
    night, b = data["night"], data["board"]
    sc = night.scoring
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{_e(night.name)}: standings</title>"
            f"<meta name=viewport content='width=device-width'>"
            f"<noscript><meta http-equiv=refresh content={NOSCRIPT_REFRESH}></noscript><style>{_CSS}</style></head>"
            f"<body data-polls=0><h1>{_e(night.name)}</h1>"
            f"<div class=sub><span id=status>{_e(b['status'])}</span> &middot; {night.length()} a round, "
            f"{night.movement} movement &middot; lone march {sc['loner']}, euchred loner {sc['set_loner']}, "
            f"renege {sc['renege']}</div>"
            f"<div class=wrap><table id=standings><thead><tr><th>#</th><th class=l>Player</th><th>Points</th>"
            f"<th>Won</th><th>Loners</th><th>Euchres</th><th>Rounds</th></tr></thead><tbody id=rows>{b['rows']}"
            f"</tbody></table><div id=round style='flex:1'>{b['round']}</div></div>"
            f"<script>{_SCRIPT % every}</script></body></html>")


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
            opp = f"{p['NESW'[(s + 1) % 4]]} &amp; {p['NESW'[(s + 3) % 4]]}"
            pts = "" if t["points"] is None else t["points"][s % 2]
            st = {"complete": "", "awaiting": " (awaiting acceptance)", "playing": " (playing)",
                  "waiting": " (to play)"}.get(t["status"], "")
            rows.append(f"<tr><td>{rd['round']}</td><td>{t['table']}</td><td class=l>{seats[0]}</td>"
                        f"<td class=l>{_e(partner)}</td><td class=l>{_e(opp)}</td><td>{pts}{st}</td></tr>")
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{_e(name)}: {_e(night.name)}</title>"
            f"<meta name=viewport content='width=device-width'><meta http-equiv=refresh content={NOSCRIPT_REFRESH}>"
            f"<style>{_CSS}</style></head><body><h1>{_e(name)}</h1>"
            f"<div class=sub><a href='../'>{_e(night.name)}</a> &middot; place {me['place']} &middot; "
            f"{me['points']} points, {me['won']} rounds won, {me['loners']} loners, {me['euchres']} euchres</div>"
            f"<table id=rounds><thead><tr><th>Round</th><th>Table</th><th class=l>Seat</th><th class=l>Partner</th>"
            f"<th class=l>Opponents</th><th>Points</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"</body></html>")


def make_app(db_path, key: str):
    """The Starlette app for night ``key`` of the library at ``db_path``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Route

    board = Board(db_path, key)
    nocache = {"Cache-Control": "no-store"}

    async def data():
        v = board.version()
        if board._data is not None and v == board._version:
            return board._data
        return await run_in_threadpool(board.get)

    async def index(request):
        try:
            every = max(1, min(300, int(request.query_params.get("every", REFRESH))))
        except ValueError:
            every = REFRESH
        return HTMLResponse(board_page(await data(), every), headers=nocache)

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
        Route("/", index), Route("/player/{number:int}", player), Route("/results.json", results),
        Route("/board.json", board_json), Route("/standings.csv", csv_)])


def server(db_path, key: str, host: str = "127.0.0.1", port: int = 8080):
    """A uvicorn ``Server`` for the app (``.run()``; tests run it in a thread)."""
    import uvicorn
    config = uvicorn.Config(make_app(db_path, key), host=host, port=port, log_level="warning", access_log=False,
                            backlog=2048, timeout_keep_alive=5)
    return uvicorn.Server(config)


def serve(db_path, key: str, host: str, port: int) -> int:
    print(f"Club night {key}: http://{host if host != '0.0.0.0' else 'localhost'}:{port}/ "
          f"(results: /results.json; Ctrl-C stops)", flush=True)
    server(db_path, key, host, port).run()
    return 0
