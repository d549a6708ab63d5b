"""The pages of ``bower club serve``: the live board and a page per player, as HTML.

:func:`render` turns a night and its corrections into what the app serves
(the results as JSON, the board's parts, the CSV); :func:`board_page` and
:func:`player_page` build the two pages from that. The board's style and
its polling, paging script are here too; :mod:`bower_host.club.web` serves
them.
"""

from __future__ import annotations

import html
import json

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
tr:target td,tr.me td{background:#fd6} .short,.key{display:none}
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

# The board's script: redraws from board.json as soon as /events says the
# library changed, and every EVERY seconds while that stream is not open (no
# EventSource, the server refused it, or it dropped and is retrying); on a
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
  rs.forEach(function(e){e.classList.toggle('me',e.id===me);});
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
 var busy=false, again=false, live=null;
 function fetchNow(){
  if(busy){again=true; return;}
  busy=true;
  fetch('board.json',{cache:'no-store'}).then(function(r){if(!r.ok) throw r.status; return r.json();}).then(draw)
   .catch(function(){}).then(function(){busy=false; if(again){again=false; fetchNow();}});
 }
 function poll(){
  if(!live || live.readyState!==1) fetchNow();
  setTimeout(poll,every);
 }
 if(window.EventSource){live=new EventSource('events'); live.onmessage=fetchNow;}
 window.bowerBoard={pages:function(){return pages;}, show:function(p){page=p%pages; apply(); return pages;}};
 layout();
 window.addEventListener('resize',layout); window.addEventListener('hashchange',layout);
 setInterval(function(){if(!fixed && !target() && pages>1){page=(page+1)%pages; apply();}}, rotate);
 setTimeout(poll,every);
})();
"""


# The player page's script: as the board's, but it fetches the page itself
# and swaps in its summary line and its table of rounds (EVERY seconds: the
# page's reload without scripts).
_PLAYER_SCRIPT = """
(function(){
 var every=@EVERY@*1000, busy=false, again=false, live=null, polls=0;
 function swap(t){
  var d=new DOMParser().parseFromString(t,'text/html');
  ['.sub','#rounds'].forEach(function(q){
   var a=document.querySelector(q), b=d.querySelector(q); if(a && b) a.innerHTML=b.innerHTML;});
  polls++; document.body.setAttribute('data-polls',polls);
 }
 function fetchNow(){
  if(busy){again=true; return;}
  busy=true;
  fetch(location.href,{cache:'no-store'}).then(function(r){if(!r.ok) throw r.status; return r.text();}).then(swap)
   .catch(function(){}).then(function(){busy=false; if(again){again=false; fetchNow();}});
 }
 function poll(){
  if(!live || live.readyState!==1) fetchNow();
  setTimeout(poll,every);
 }
 if(window.EventSource){live=new EventSource('../events'); live.onmessage=fetchNow;}
 setTimeout(poll,every);
})();
"""


def _e(x) -> str:
    return html.escape(str(x))


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


def render(night, corr) -> dict:
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
            f"<meta name=viewport content='width=device-width'>"
            f"<noscript><meta http-equiv=refresh content={NOSCRIPT_REFRESH}></noscript>"
            f"<style>{_CSS}</style></head><body data-polls=0><h1>{_e(name)}</h1>"
            f"<div class=sub><a href='../'>{_e(night.name)}</a> &middot; place {me['place']} &middot; "
            f"{me['points']} points, {me['won']} rounds won, {me['loners']} loners, {me['euchres']} euchres "
            f"&middot; <a href='../#p{number}'><u>your row in the standings</u></a></div>"
            f"<table id=rounds><thead><tr><th>{_short('Round', 'Rd')}</th><th>{_short('Table', 'Tbl')}</th>"
            f"<th class=l>Seat</th><th class=l>Partner</th><th class=l>{_short('Opponents', 'Opp.')}</th>"
            f"<th>{_short('Points', 'Pts')}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"<script>{_PLAYER_SCRIPT.replace('@EVERY@', str(NOSCRIPT_REFRESH))}</script></body></html>")
