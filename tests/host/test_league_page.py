"""The league's pages on a phone and on a projector, in a real Chromium
(Debian's, driven by Playwright): a season of 3 clubs, 120 players, from a
live ``bower league serve`` app. Nothing reaches past the window's sides,
text is at least 14 CSS px on the phone, a player's row links to their
page, and names that look like HTML are shown as text."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from bower_host.league import summary as su
from bower_host.league.server import server
from bower_host.league.store import League
from webphone import chromium, need_chromium, running

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3}
PROJECTOR = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "is_mobile": False,
             "has_touch": False}
T0 = 1764000000
DAY = 86400

PROBE = """(min) => {
  const W = innerWidth, small = [], outside = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = walk.nextNode())) {
    const el = n.parentElement, text = n.textContent.trim();
    if (!text || el.closest('style,script')) continue;
    const s = getComputedStyle(el);
    if (s.display === 'none' || el.closest('.wide') && getComputedStyle(el.closest('.wide')).display === 'none')
      continue;
    if (parseFloat(s.fontSize) < min) small.push(text.slice(0, 20) + ' ' + s.fontSize);
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects())
      if (b.width && (b.left < -0.5 || b.right > W + 0.5)) outside.push(text.slice(0, 20));
  }
  return {small, outside, scrollW: document.documentElement.scrollWidth, W};
}"""

NAMES = ["<b>x</b>", "Jo&amp;", "WWWWWWWW"] + [f"P{i:03d}" for i in range(37)]


def _night(key: str, names: list, played: int, seed: int) -> dict:
    import random
    rng = random.Random(seed)
    pts = sorted((rng.randrange(0, 60) for _ in names), reverse=True)
    players = []
    for i, (nm, p) in enumerate(zip(names, pts)):
        place = i + 1 if i == 0 or p != pts[i - 1] else players[-1]["place"]
        players.append({"name": nm, "place": place, "points": p, "rounds": 8, "won": rng.randrange(0, 9),
                        "loners": rng.randrange(0, 3), "euchres": rng.randrange(0, 5)})
    return {"key": key, "name": f"Night {key}", "played": played, "tables": len(names) // 4, "rounds": 8,
            "players": players}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    spec = str(tmp_path_factory.mktemp("league") / "league.sqlite3")
    with League.create(spec, "North Shore League") as lg:
        for ci, club in enumerate(("Elks Lodge No. 1234 of the North Shore", "Moose", "<i>Owls</i>")):
            lg.add_club(club)
            nights = [_night(f"n{k}", NAMES, T0 + (k * 7 + ci) * DAY, ci * 100 + k) for k in range(4)]
            lg.push(lg.club_id(club), su.check_payload(json.loads(su.payload(nights)), now=T0 + 60 * DAY))
        lg.add_season("Autumn 2025", T0, T0 + 60 * DAY, rule="best", best=3, min_nights=2)
    with running(server(spec, "127.0.0.1", 0)) as url:
        yield url


@pytest.mark.parametrize("size", ["phone", "projector"])
def test_the_season_page_fits_a_phone_and_a_projector(site, size):
    need_chromium()
    opts = PHONE if size == "phone" else PROJECTOR
    with chromium(**opts) as ctx:
        page = ctx.new_page()
        for path in ("/", "/season/Autumn%202025", "/club/Moose"):
            page.goto(site + path)
            got = page.evaluate(PROBE, 14 if size == "phone" else 16)
            assert got["outside"] == [] and got["scrollW"] <= got["W"], (path, got)
            assert got["small"] == [], (path, got["small"][:5])
        page.goto(site + "/season/Autumn%202025")
        rows = page.locator("table tr")
        assert rows.count() == 1 + 3 * len(NAMES)
        # Names are text, never markup.
        assert page.locator("b").count() == 0 and page.get_by_text("<b>x</b>").count() >= 1
        page.get_by_text("Jo&amp;").first.click()
        page.wait_for_load_state()
        assert "/player/" in page.url and page.locator("h1").inner_text() == "Jo&amp;"
        assert page.locator("table tr").count() == 1 + 4


def test_the_standings_api_answers_json_and_an_unknown_season_is_a_404(site):
    with urllib.request.urlopen(site + "/api/standings?season=Autumn%202025", timeout=10) as r:
        st = json.loads(r.read())
    assert st["season"]["rule"] == "best" and len(st["players"]) == 3 * len(NAMES)
    t = time.time()
    try:
        urllib.request.urlopen(site + "/season/nope", timeout=10)
        raise AssertionError("no 404")
    except urllib.error.HTTPError as e:
        assert e.code == 404 and "no season 'nope'" in json.loads(e.read())["error"]
    assert time.time() - t < 10


def test_a_page_of_the_standings_is_the_same_rows_with_the_same_places(site):
    def get(q):
        with urllib.request.urlopen(site + "/api/standings?season=Autumn%202025" + q, timeout=10) as r:
            return json.loads(r.read())["players"]
    whole = get("")
    assert get("&limit=7&offset=5") == whole[5:12]
    assert get("&club=Moose&limit=3") == [r for r in whole if r["club"] == "Moose"][:3]
    for bad in ("&limit=0", "&limit=x", "&offset=-1", "&limit=%D9%A3"):
        try:
            urllib.request.urlopen(site + "/api/standings?" + bad, timeout=10)
            raise AssertionError(bad)
        except urllib.error.HTTPError as e:
            assert e.code == 400 and "whole number" in json.loads(e.read())["error"]


def test_the_server_never_answers_standings_older_than_the_league(tmp_path):
    # Pages and standings are kept between requests (Cache): each change made
    # elsewhere -- a push by another connection, a season, a rename, a merge --
    # shows in the very next answer.
    spec = str(tmp_path / "league.sqlite3")
    with League.create(spec, "L") as lg:
        lg.add_club("Moose")
    names = [f"P{i:03d}" for i in range(8)]

    def get(path):
        with urllib.request.urlopen(site + path, timeout=10) as r:
            return r.read().decode()

    def push(key, day):
        with League.open(spec) as lg:
            nights = su.check_payload(json.loads(su.payload([_night(key, names, T0 + day * DAY, day)])),
                                      now=T0 + 99 * DAY)
            lg.push(lg.club_id("Moose"), nights)

    with running(server(spec, "127.0.0.1", 0)) as site:
        assert json.loads(get("/api/standings"))["players"] == []
        push("a", 1)
        first = json.loads(get("/api/standings"))
        assert first["season"]["nights"] == 1 and len(first["players"]) == 8
        assert json.loads(get("/api/standings")) == first             # the same, from the cache
        push("b", 2)
        assert json.loads(get("/api/standings"))["season"]["nights"] == 2
        assert "P000" in get("/club/Moose")
        with League.open(spec) as lg:
            lg.rename("Moose", "P000", "Zed")
        assert "Zed" in get("/club/Moose") and "Zed" in get("/")
        assert any(r["player"] == "Zed" for r in json.loads(get("/api/standings"))["players"])
        with League.open(spec) as lg:
            lg.add_season("S", T0, T0 + 2 * DAY, min_nights=1)
        assert json.loads(get("/api/standings?season=S"))["season"]["nights"] == 1
        assert "/season/S" in get("/")
