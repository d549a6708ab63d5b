"""The phones' pages of ``bower club serve``: how a table's phone joins, and
how the organiser sees each table's phone.

* ``/join`` -- every table's join code and its QR code (the address
  ``BASE/phone/?join=CODE``), large enough to scan from a projector, one
  table per printed page; a table whose phone has joined shows that instead
  of its code. A phone reaching ``/join`` narrow gets a box to type its
  code in first (``/j?code=CODE`` sends it to the phone build).
* ``/tables`` -- the organiser's view: each table's phone (joined when,
  last heard from), and its round's state: playing hand N, waiting for
  acceptance, done, or offline since a time.

The QR codes are segno's (SVG, drawn once per address). ``BASE`` is the
address phones reach the server at: ``bower club serve --host`` makes it
the computer's address on the room's network; on loopback it is the
address the page was asked at.
"""

from __future__ import annotations

import html
import time
from functools import lru_cache

#: Seconds without a request after which a table's phone is shown offline.
OFFLINE_S = 45

_CSS = """
body{font-family:system-ui,sans-serif;margin:0;padding:1.2vw 1.6vw;color:#111;background:#fff}
h1{font-size:max(22px,2.4vw);margin:0 0 .3em 0} .sub{color:#444;margin-bottom:.8em}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(max(220px,15vw),1fr));gap:1vw}
.card{border:3px solid #888;border-radius:.5em;padding:.5em;text-align:center;break-inside:avoid}
.card b{font-size:max(20px,1.6vw)} .code{font:bold max(26px,2.2vw) ui-monospace,monospace;letter-spacing:.12em}
.card svg{width:100%;max-width:260px;height:auto} .joined{border-color:#171;color:#171}
form{margin:0 0 1em 0;font-size:20px} input{font:bold 22px ui-monospace,monospace;width:8em;text-transform:uppercase}
table{border-collapse:collapse} td,th{padding:.2em .6em;text-align:left} tr:nth-child(even) td{background:#eef}
.off{color:#b00;font-weight:bold}
@media print{.card{page-break-after:always;border:0} .card svg{max-width:none;width:70%} form,.sub{display:none}}
@media (max-width:799px){.grid{grid-template-columns:1fr}}
"""


@lru_cache(maxsize=512)
def qr_svg(text: str) -> str:
    """``text`` as a QR code, inline SVG (medium error correction)."""
    import segno
    return segno.make(text, error="m").svg_inline(scale=4, border=2, title=None)


def join_url(base: str, code: str) -> str:
    return f"{base.rstrip('/')}/phone/?join={code}"


def _e(x) -> str:
    return html.escape(str(x))


def _page(title: str, body: str, refresh: int | None = None) -> str:
    meta = f"<meta http-equiv=refresh content={refresh}>" if refresh else ""
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{_e(title)}</title>"
            f"<meta name=viewport content='width=device-width'>{meta}<style>{_CSS}</style></head>"
            f"<body>{body}</body></html>")


def join_page(night, joins: dict, base: str) -> str:
    """``joins``: ``club.phones.joins``' ``{table: (code, device, joined_at)}``."""
    cards = []
    for t in range(1, night.tables + 1):
        code, device, _ = joins.get(t, (None, None, None))
        if code is None:
            continue
        if device:
            cards.append(f"<div class='card joined'><b>Table {t}</b><p>its phone has joined</p></div>")
        else:
            url = join_url(base, code)
            cards.append(f"<div class=card><b>Table {t}</b>{qr_svg(url)}<div class=code>{_e(code)}</div></div>")
    form = ("<form action=j method=get><label>Your table's code: <input name=code maxlength=16 "
            "autocomplete=off autocapitalize=characters></label> <button>Join</button></form>")
    body = (f"<h1>{_e(night.name)}: join your table</h1>{form}<div class=sub>Scan your table's code with the "
            f"table's phone, or open {_e(base.rstrip('/'))}/join and type it. One phone per table.</div>"
            f"<div class=grid>{''.join(cards)}</div>")
    return _page(f"{night.name}: join", body, refresh=30)


def tables_page(night, joins: dict, seen: dict, results: dict, now: float | None = None) -> str:
    """The organiser's table list. ``seen``: ``{table: (time, what)}`` of
    each phone's last request (``phoneapi.Phones.seen``); ``results``:
    ``standings.results_json``."""
    now = time.time() if now is None else now
    rnd = results["night"]["current_round"]
    state = {t["table"]: t for t in results["rounds"][rnd - 1]["tables"]}
    rows = []
    for t in range(1, night.tables + 1):
        code, device, at = joins.get(t, ("?", None, None))
        st = state.get(t) or {}
        status = st.get("status", "waiting")
        round_state = {"complete": "done", "awaiting": "waiting for acceptance",
                       "playing": f"playing hand {st.get('hands', 0) + 1}"}.get(status, "not started")
        heard = seen.get(t)
        if device is None:
            phone = f"not joined (code {_e(code)})"
        elif heard is None or now - heard[0] > OFFLINE_S:
            since = time.strftime("%H:%M", time.localtime(heard[0] if heard else at or now))
            phone = f"{_e(device)} <span class=off>offline since {since}</span>"
        else:
            phone = f"{_e(device)}, heard {int(now - heard[0])} s ago ({_e(heard[1])})"
        rows.append(f"<tr><td>{t}</td><td>{phone}</td><td>{round_state}</td></tr>")
    body = (f"<h1>{_e(night.name)}: tables</h1><div class=sub>Round {rnd} of {night.rounds}. A table's phone "
            f"lost or replaced: <code>bower club table reset --table T</code>, then the new phone joins with the "
            f"same code.</div><table><tr><th>Table</th><th>Phone</th><th>Round {rnd}</th></tr>{''.join(rows)}"
            f"</table>")
    return _page(f"{night.name}: tables", body, refresh=5)


def routes(data, phones, base: str | None) -> list:
    """The pages' Starlette routes; ``data()``: the board's rendered night
    (``club.web``), ``phones``: ``phoneapi.Phones``."""
    from starlette.responses import HTMLResponse, RedirectResponse
    from starlette.routing import Route

    nocache = {"Cache-Control": "no-store"}

    def here(request) -> str:
        return base or str(request.base_url)

    async def join(request):
        d = await data()
        return HTMLResponse(join_page(d["night"], d["joins"], here(request)), headers=nocache)

    async def typed(request):
        code = "".join(c for c in request.query_params.get("code", "").upper() if c.isalnum())[:16]
        return RedirectResponse(f"phone/?join={code}" if code else "join", status_code=303, headers=nocache)

    async def tables(request):
        d = await data()
        night = d["night"]
        seen = {t: v for (k, t), v in phones.seen.items() if k == night.key}
        return HTMLResponse(tables_page(night, d["joins"], seen, d["results"]), headers=nocache)

    return [Route("/join", join), Route("/j", typed), Route("/tables", tables)]
