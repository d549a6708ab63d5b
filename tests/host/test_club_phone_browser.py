"""A club table's phone in a real browser (issue 34): Chromium at a phone's
size opens the phone build that ``bower club serve`` serves with its
table's join code in the address, joins, is offered the round, and plays
it by taps, its page sending each hand's log to the server with fetch;
a reload in the middle of the round comes back to the same table; the
losing side accepts, and the projector's page (1920x1080) shows the table
done with its points.

The taps are those a table would make: ``clubtables.TableBower`` (the same
firmware on CPython, on a copy of the phone's club setup) is driven
through the round by the input driver, and every key it presses is tapped
on the phone; the twin is started again from its flash where the phone is
reloaded.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from bower_host.club import night as cn
from bower_host.club import phones as ph
from bower_host.club.phoneapi import Phones
from bower_host.club.web import server
from bower_host.db import Library

from clubtables import TableBower
from test_phone_heap import HEAP, _live
from webphone import booted, build_site, chromium, need_chromium, press, running, serving, settle, shot

from bower import keys as K
from bower.ui import App
from uikit import Driver

T0 = 1763700000
NAMES = ["Ann", "Bob", "Cy", "Di"]
#: Hand 1: E orders up and takes 3 tricks (1 point); hand 2: W orders up
#: after S passes and takes all 5 (2 points): E/W 3, N/S 0.
HAND1 = ["up D", "order", "tricks 3"]
HAND2 = ["up S", "pass", "order", "tricks 5"]
NAME = {K.UP: "up", K.DOWN: "down", K.OK: "ok", K.BACK: "back"}


class Keys:
    """The twin's key presses, kept to be tapped on the phone."""

    def __init__(self, bower: TableBower):
        self.bower = bower
        self.taps: list = []
        self.drive(App(bower.store, bower.info))

    def drive(self, app) -> None:
        # A fresh driver on ``app`` (the twin powered on again), recording.
        d = Driver(app, self.bower.store)
        press, already = d.press, d.pressed_already

        def pressed(ev, n=1):
            self.taps += [NAME[ev]] * n
            press(ev, n)

        def had(ev):     # (the twin had its effect already: the phone needs the tap)
            self.taps.append(NAME[ev])
            already(ev)

        d.press, d.pressed_already = pressed, had
        self.bower.app, self.bower.keys = app, d

    def take(self) -> list:
        out, self.taps = self.taps, []
        return out


def _tap(page, keys: list) -> None:
    for k in keys:
        press(page, k)


def _files(page) -> str:
    return page.evaluate("""async () => {
        const tx = window.bower.flash.db.transaction("files");
        const keys = await new Promise((ok) => { const r = tx.objectStore("files").getAllKeys();
                                                  r.onsuccess = () => ok(r.result); });
        return keys.join("\\n");
    }""")


def _loaded(page, module: str) -> bool:
    return page.evaluate("(m) => { window.bower.mp.runPython('import sys\\n_has = ' + JSON.stringify(m) + "
                         "' in sys.modules'); return window.bower.mp.globals.get('_has'); }", module)


def _table(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/results.json", timeout=5) as r:
        return json.loads(r.read())["rounds"][0]["tables"][0]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    # The phone build's folder, as `bower club serve` writes it.
    need_chromium()
    return build_site(tmp_path_factory.mktemp("site") / "phone")


def _until(url: str, ok) -> None:
    deadline = time.monotonic() + 10
    while not ok(_table(url)):
        assert time.monotonic() < deadline, f"not on the laptop: {_table(url)}"
        time.sleep(0.1)


def test_a_phone_joins_by_code_plays_a_round_by_taps_and_the_projector_shows_it(tmp_path, folder):
    db = tmp_path / "club.sqlite3"
    with Library(db, clock=lambda: T0) as lib:
        cn.create_night(lib, "Friday", NAMES, 1, "fixed", 1, hands=2, seed=3, key="fri", clock=lambda: T0,
                        scoring={"loner": 4, "set_loner": 2, "renege": 2})
        code = ph.codes(lib, cn.load_night(lib, "fri"))[1]
    phones = Phones(db)
    sent: list = []
    try:
        with running(server(db, "fri", "127.0.0.1", 0, site=folder, phones=phones)) as url, chromium() as ctx:
            page = ctx.new_page()
            page.on("request", lambda r: sent.append((r.method, r.url)) if "/api/" in r.url else None)
            page.goto(f"{url}/phone/?join={code}")
            booted(page)
            assert "join" not in page.url, page.url              # the code is out of the address at once
            page.wait_for_function("window.bower.mp.FS.analyzePath('/flash/club').exists", timeout=10000)
            page.wait_for_function("document.getElementById('status').textContent.startsWith('joined: table 1')",
                                   timeout=10000)
            page.wait_for_timeout(400)
            settle(page)
            device = page.evaluate("window.bower.device")
            setup = bytes(page.evaluate("Array.from(window.bower.mp.FS.readFile('/flash/club'))"))
            seats = json.loads(setup)[0]["players"]         # N, E, S, W
            assert sorted(seats) == NAMES
            assert {"/flash/club", "/flash/club.net"} <= set(_files(page).split("\n"))   # kept in IndexedDB

            (tmp_path / "twin").mkdir()
            (tmp_path / "twin" / "club").write_bytes(setup)
            twin = TableBower(tmp_path / "twin", 1)
            keys = Keys(twin)
            twin.idle()
            twin.keys.choose("club")
            twin.keys.choose("start")
            for e in HAND1:
                twin.keys.enter(e)
            _tap(page, keys.take())
            _until(url, lambda t: t["status"] == "playing" and t["hands"] == 1)    # hand 1 reached the laptop

            # Wi-Fi gone, hand 2's upcard is kept and said so; back, then
            # mid-round the page reloads: the claim is on its flash, the
            # game resumes where it was.
            ctx.set_offline(True)
            twin.keys.enter(HAND2[0])
            _tap(page, keys.take())
            page.wait_for_function("document.getElementById('status').textContent.startsWith('offline: ')",
                                   timeout=10000)
            ctx.set_offline(False)
            page.reload()
            booted(page)
            assert "join" not in page.url
            keys.drive(App(twin.store, twin.info))
            assert page.evaluate("window.bower.board.net_joined()") == 1 and _loaded(page, "bower.clubnet")
            live = _live(page)
            assert live < HEAP - 32 * 1024, f"{live} B live in a club round, the Pico has {HEAP}"
            for e in HAND2[1:]:
                twin.keys.enter(e)
            twin.keys.press(K.OK)                   # the losing side (N/S) accepts
            assert twin.app.game.accepted
            twin.keys.press(K.OK)
            _tap(page, keys.take())
            _until(url, lambda t: t["status"] == "complete")
            page.wait_for_function("(w) => document.getElementById('status').textContent.includes(w)",
                                   arg=f"{seats[1]} & {seats[3]} 3")      # the phone's status line says so
            shot(page, "club-phone")
            with Library(db) as lib:
                stored = [tuple(r) for r in lib.conn.execute("SELECT device FROM games")]
                claims = [tuple(r) for r in lib.conn.execute("SELECT device FROM club_joins WHERE device IS NOT NULL")]
            assert stored == [(device,)] and claims == [(device,)]    # one game, one phone: the same table

            # The round marked synced on the phone's flash: after a reload
            # it is not sent again (only the round is asked for).
            results = sum(u.endswith("/api/result") for _m, u in sent)
            page.reload()
            booted(page)
            page.wait_for_timeout(2000)
            assert sum(u.endswith("/api/result") for _m, u in sent) == results, sent

            board = ctx.browser.new_context(viewport={"width": 1920, "height": 1080}) if ctx.browser else ctx
            wall = board.new_page()
            wall.goto(f"{url}/")
            card = wall.locator(".tbl.complete")
            card.wait_for(timeout=5000)
            text = " ".join(card.inner_text().split())
            assert "Table 1" in text and "done" in text, text
            assert f"{seats[0]} & {seats[2]} 0" in text and f"{seats[1]} & {seats[3]} 3" in text, text
            shot(wall, "club-projector")
    finally:
        phones.close()
    joins = [u for m, u in sent if m == "POST" and u.endswith("/api/join")]
    assert len(joins) == 1 and all(u.startswith(url + "/api/") for _m, u in sent), sent
    print(f"live heap in a club round: {live} B of the Pico's {HEAP}; {len(sent)} requests")


def test_a_phone_that_joins_no_club_sends_nothing_and_loads_no_club_link(folder):
    asked: list = []
    with serving(folder) as url, chromium() as ctx:
        page = ctx.new_page()
        page.on("request", lambda r: asked.append(r.url))
        page.goto(url)
        booted(page)
        for k in ["ok", "down", "ok"]:
            press(page, k)
        page.wait_for_timeout(2500)         # (the link's passes would have come)
        assert not _loaded(page, "bower.clubnet")
        assert page.evaluate("window.bower.board.net_said()") == ""
    assert asked and all(u.startswith(url) and "/api/" not in u for u in asked), asked
