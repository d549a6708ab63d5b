"""The club page on a phone and on a projector, laid out by a real headless
Chromium (Debian's ``chromium``, driven by Playwright: tests/host/webphone.py's
``chromium``) from a live ``bower club serve`` of a 30-table, 120-player
night.

The checks run in the browser, on the layout it computed: every piece of
text is at least 14 CSS px on the phone; nothing reaches past the window's
sides; on the projector nothing reaches below the window either (each page
fits, nothing to scroll), and over the pages the board turns through, every
player and every table is shown; a phone finds its player's page and its row
in the standings. Screenshots of every page are kept in
build/test-output/club-page/ (sizes checked). Without Chromium these tests
are skipped on a developer's machine and fail under CI, as
test_club_browser.py's.
"""

from __future__ import annotations

import html
import json
import os
import re
import time
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace

import pytest

from bower_host.club import night as cn
from bower_host.club import attach as ca
from bower_host.club import standings as cs
from bower_host.club import pages
from bower_host.club.roundlog import round_header
from bower_host.club.simulate import bot_round, night_round_logs
from bower_host.db import Library, replay
from webphone import CHROMIUM, chromium, need_chromium

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "test-output" / "club-page"
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                    reason="no chromium (apt-get install -y chromium; .ci/run does)")

PHONE = (390, 844)
PROJECTOR = (1920, 1080)
MIN_FONT = 14

# 120 players: names as wide as the device allows, and names a page must escape.
SPECIAL = ["Flo & Jo", "<i>x</i>", 'O"Hare', "a&amp;b", "WWWWWWWW", "MMMMMMMM", "Jo", "&lt;"]
NAMES = SPECIAL + [f"WM{i:03d}MW" for i in range(120 - len(SPECIAL))]

# Run in the page: what a reader would see of it. Every visible text node's
# box (a Range's rectangle) must lie inside the window; every element with
# text in it must be at least MIN_FONT px; and what the standings and the
# tables show, as text.
PROBE = """
(function(){
 var W=innerWidth, H=innerHeight, small=[], outside=[], names=[], tables=[];
 function shown(e){
  for(; e && e!==document.body; e=e.parentElement){
   var s=getComputedStyle(e); if(s.display==='none'||s.visibility==='hidden') return false;}
  return true;
 }
 var walk=document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n;
 while((n=walk.nextNode())){
  var el=n.parentElement, text=n.textContent.trim();
  if(!text || !shown(el) || el.closest('script,style,option')) continue;
  var fs=parseFloat(getComputedStyle(el).fontSize);
  if(fs<%(min)d) small.push(el.tagName+' '+fs+'px: '+text.slice(0,30));
  var range=document.createRange(); range.selectNodeContents(n);
  var rects=range.getClientRects();
  for(var i=0;i<rects.length;i++){
   var r=rects[i];
   if(r.width===0) continue;
   if(r.left<-0.5||r.right>W+0.5||(%(fits)s && (r.top<-0.5||r.bottom>H+0.5)))
    outside.push(text.slice(0,30)+' at '+[r.left,r.top,r.right,r.bottom].map(Math.round).join(','));
  }
 }
 document.querySelectorAll('#rows tr').forEach(function(tr){
  if(shown(tr)) names.push(tr.cells[1].textContent);});
 document.querySelectorAll('#round .tbl').forEach(function(t){
  if(shown(t)) tables.push(t.textContent);});
 return {W:W, H:H, small:small, outside:outside, names:names, tables:tables,
         scrollW:document.documentElement.scrollWidth, scrollH:document.documentElement.scrollHeight,
         page:+document.body.getAttribute('data-page'), pages:+document.body.getAttribute('data-pages'),
         pager:(document.getElementById('pager')||{}).textContent||''};
})()
"""


def probe(page, fits: bool) -> dict:
    """The page's layout as Chromium computed it (``fits``: the window's
    bottom is a limit too: a projector does not scroll)."""
    return page.evaluate(PROBE % {"min": MIN_FONT, "fits": "true" if fits else "false"})


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """A 30-table night in round 2: 26 tables in, one awaiting acceptance,
    one playing, two not started; served on loopback."""
    from clubboard import serving
    tmp = tmp_path_factory.mktemp("clubpage")
    db = tmp / "club.sqlite3"
    with Library(db) as lib:
        cn.create_night(lib, "Friday <club> & friends", NAMES, 30, "progressive", 4, hands=2, seed=4, key="fri")
        night = cn.load_night(lib, "fri")
        for t, raw in night_round_logs(night, 1, 7, renege=0.05).items():
            ca.attach_file(lib, raw, f"r1-t{t}.log")
        night = cn.load_night(lib, "fri")
        logs = night_round_logs(night, 2, 8, renege=0.05)
        for t, raw in logs.items():
            if t <= 26:
                ca.attach_file(lib, raw, f"r2-t{t}.log")
        seats = night.seating(2).tables
        club27 = round_header("fri", 27, 2, 2, None, night.scoring)
        ca.attach_file(lib, bot_round(club27, [night.name_of(p) for p in seats[26]], 5, "table27", "fri-r2",
                                      accept=False), "r2-t27.log")
        lines = logs[28].decode().splitlines(keepends=True)
        ca.attach_replay(lib, replay("".join(lines[:len(lines) // 2])), "table28", "fri-r2", None, "sync")
        night = cn.load_night(lib, "fri")
    res = cs.results_json(night)
    status = {t["table"]: t["status"] for t in res["rounds"][1]["tables"]}
    assert [status[t] for t in (26, 27, 28, 29, 30)] == ["complete", "awaiting", "playing", "waiting", "waiting"]
    with serving(db, "fri") as url:
        yield url, night, res


@pytest.fixture(scope="module")
def chromium_here():
    for old in SHOTS.glob("*.png"):          # this run's screenshots only
        old.unlink()
    need_chromium()                          # under CI, chromium missing fails


@pytest.fixture
def browser(chromium_here):
    """``browser.page(width, height, mobile, scale)``: a page ``width`` x
    ``height`` CSS px (``mobile``: a phone's viewport rules, the meta
    viewport honoured; ``scale``: its device pixel ratio), in Playwright's
    Chromium (webphone.chromium), closed at the test's end."""
    with ExitStack() as stack:
        def page(width: int, height: int, mobile: bool = False, scale: float = 1):
            ctx = stack.enter_context(chromium(viewport={"width": width, "height": height},
                                               device_scale_factor=scale, is_mobile=mobile, has_touch=False))
            return ctx.new_page()
        yield SimpleNamespace(page=page)


def goto(page, url: str, ready: str = "true", timeout: float = 10.0) -> None:
    """Load ``url``; return once it has loaded and ``ready`` is truthy (``timeout`` s in all)."""
    deadline = time.monotonic() + timeout
    page.goto(url, timeout=timeout * 1000)
    page.wait_for_function(f"location.href === {json.dumps(url)} && document.readyState === 'complete' "
                           f"&& ({ready})", timeout=max(deadline - time.monotonic(), 0.001) * 1000)


def shot(page, name: str, size: tuple) -> None:
    """Keep a screenshot of the window; it must be ``size`` device px and not blank."""
    from PIL import Image
    path = SHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = page.screenshot(path=str(path))
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == size
    img = Image.open(path).convert("L")
    assert img.size == size
    lo, hi = img.getextrema()
    assert lo < 60 and hi > 200, f"{path}: a blank page"


def table_players(res, rnd: int) -> dict:
    return {t["table"]: [t["players"][s] for s in "NESW"] for t in res["rounds"][rnd - 1]["tables"]}


@needs_chromium
def test_the_projector_turns_pages_until_every_player_and_table_was_shown_whole(club, browser):
    base, night, res = club
    w, h = PROJECTOR
    page = browser.page(w, h)
    goto(page, base + "/")
    pages = int(page.evaluate("document.body.getAttribute('data-pages') || 1"))
    names: list = []
    by_page: list = []
    tables: dict = {}
    for p in range(pages):
        if p:
            page.evaluate(f"bowerBoard.show({p})")
        m = probe(page, fits=True)
        assert (m["W"], m["H"]) == (w, h)
        assert m["small"] == [], m["small"][:5]
        assert m["outside"] == [], f"page {p + 1}: cut off: {m['outside'][:5]}"
        assert m["scrollW"] <= w and m["scrollH"] <= h, f"page {p + 1} scrolls: {m['scrollW']}x{m['scrollH']}"
        assert m["page"] == p + 1 and m["pages"] == pages and f"page {p + 1} of {pages}" in m["pager"]
        assert m["names"], f"page {p + 1} shows no standings"
        names += m["names"]
        by_page.append(m["names"])
        for text in m["tables"]:
            tables[int(re.search(r"Table (\d+)", text).group(1))] = text
        shot(page, f"projector-{w}x{h}-page{p + 1}", (w, h))
    # 120 rows of standings cannot fit one 1080-px screen at a readable size.
    assert 2 <= pages <= 10, pages
    # Every player once, in standings order, over the pages; every table with its four players.
    assert names == [r["player"] for r in res["standings"]]
    assert sorted(tables) == list(range(1, 31))
    for t, four in table_players(res, 2).items():
        assert all(n in tables[t] for n in four), (t, four, tables[t])
    assert "awaiting acceptance" in tables[27] and "hands" in tables[28] and "waiting" in tables[30]
    # Left alone, the board turns its pages by itself (?rotate=1: every second) ...
    goto(page, base + "/?rotate=1", "document.body.getAttribute('data-pages')")
    first = page.evaluate("document.body.getAttribute('data-page')")
    page.wait_for_function(f"document.body.getAttribute('data-page') !== {json.dumps(first)}", timeout=5000)
    # ... and ?page=N holds one.
    goto(page, base + "/?page=2&rotate=1", "document.body.getAttribute('data-page') === '2'")
    page.wait_for_timeout(1200)
    m = probe(page, fits=True)
    assert m["page"] == 2 and m["names"] == by_page[1]


@needs_chromium
def test_a_phone_reads_the_whole_board_and_finds_its_own_row(club, browser):
    base, night, res = club
    w, h = PHONE
    page = browser.page(w, h, mobile=True, scale=3)
    goto(page, base + "/")
    m = probe(page, fits=False)
    assert (m["W"], m["H"]) == (w, h)                   # the page's meta viewport: 390 CSS px, not 980
    assert m["small"] == [], m["small"][:5]
    assert m["outside"] == [] and m["scrollW"] <= w, m["outside"][:5]
    assert m["pages"] == 1 and m["pager"] == ""          # a phone scrolls instead
    assert m["names"] == [r["player"] for r in res["standings"]]
    assert len(m["tables"]) == 30
    shot(page, f"phone-{w}x{h}-board", (w * 3, h * 3))
    # Find your name: the list of players leads to your page ...
    me = next(r for r in res["standings"] if r["player"] == "Flo & Jo")
    options = page.evaluate("Array.from(document.querySelectorAll('#me option')).map(o => o.textContent)")
    assert sorted(options[1:]) == sorted(NAMES)
    page.evaluate(f"var s = document.getElementById('me'); s.value = '{me['number']}'; s.form.submit(); 1")
    page.wait_for_function(f"location.pathname === '/player/{me['number']}' "
                           "&& document.readyState === 'complete'", timeout=10_000)
    m = probe(page, fits=False)
    assert (m["W"], m["H"]) == (w, h) and m["scrollW"] <= w, (m["W"], m["scrollW"])
    assert m["small"] == [] and m["outside"] == [], (m["small"][:5], m["outside"][:5])
    assert page.evaluate("document.querySelector('h1').textContent") == "Flo & Jo"
    rows = page.evaluate("Array.from(document.querySelectorAll('#rounds tbody tr')).map("
                         "r => Array.from(r.cells).map(c => c.textContent))")
    assert [r[0] for r in rows] == ["1", "2"]
    for rnd, row in zip((1, 2), rows):
        four = next(f for f in table_players(res, rnd).values() if "Flo & Jo" in f)
        s = four.index("Flo & Jo")
        assert row[3] == four[(s + 2) % 4] and row[4] == f"{four[(s + 1) % 4]} & {four[(s + 3) % 4]}", row
    shot(page, f"phone-{w}x{h}-player", (w * 3, h * 3))
    # ... whose link shows your row of the standings, scrolled to and marked.
    page.evaluate("document.querySelector('.sub a[href^=\"../#p\"]').click(); 1")
    # The board redraws its rows as its stream opens (and on every result):
    # the row stays marked after that, not only as the link's :target.
    page.wait_for_function(f"location.hash === '#p{me['number']}' "
                           f"&& !!document.getElementById('p{me['number']}') "
                           "&& document.body.getAttribute('data-polls') >= 1", timeout=10_000)
    top, bottom, bg = page.evaluate(f"(function(r){{var b = r.getBoundingClientRect(); return [b.top, b.bottom, "
                                    f"getComputedStyle(r.cells[1]).backgroundColor];}})"
                                    f"(document.getElementById('p{me['number']}'))")
    assert 0 <= top and bottom <= h, (top, bottom)
    assert bg == "rgb(255, 221, 102)"                  # the marked row's colour
    assert page.evaluate(f"document.getElementById('p{me['number']}').cells[1].textContent") == "Flo & Jo"
    shot(page, f"phone-{w}x{h}-my-row", (w * 3, h * 3))


def test_the_player_page_escapes_each_name_once():
    # "Flo &amp;amp; Jo" before: the opponents' "&amp;" was escaped again.
    class N:
        name = "Night & day"
    res = {"standings": [{"number": 1, "player": "Ann", "place": 1, "points": 3, "won": 1, "loners": 0,
                          "euchres": 0}],
           "rounds": [{"round": 1, "byes": [], "tables": [
               {"table": 1, "status": "complete", "points": [3, 1],
                "players": {"N": "Ann", "E": "Flo & Jo", "S": "<b>", "W": "a&amp;b"}}]}]}
    page = pages.player_page({"night": N, "results": res}, 1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page)
    assert [html.unescape(c) for c in cells[3:5]] == ["<b>", "Flo & Jo & a&amp;b"]
    assert "&amp;amp;" not in page.replace("a&amp;amp;b", "")
