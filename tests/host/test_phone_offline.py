"""Bower on a phone (issue 33): offline, over plain HTTP, and a new version.

After its first load the app starts with the network off (the browser
offline and the server stopped: its service worker serves every file from
its cache), plays, and keeps what is played. Over plain HTTP from a name on
the room's network (not localhost) browsers give no service worker: the
page says what works and still plays and keeps its games. A new build
served while a game is open is taken on the next start of the app, never in
the middle of the game (not even on a reload), and the game goes on in it.
"""

from __future__ import annotations

import json
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from test_phone import TOUR, Twin
from webphone import booted, build_site, chromium, frame, need_chromium, press, serving, shot

#: A name for this machine on the room's network: the browser resolves it
#: to loopback, but to it the page's origin is plain HTTP, not localhost.
LAN = "bower-table.lan"
WORDS = "Plain HTTP: playing and storage work; starting offline and installing need HTTPS (or localhost)."


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    need_chromium()
    return build_site(tmp_path_factory.mktemp("web") / "site")


def _version(folder: Path) -> str:
    return json.loads((folder / "version.json").read_text())["version"]


def _offline_ready(page):
    # The service worker installed and active, every file of the build in its cache.
    page.wait_for_function("navigator.serviceWorker !== undefined", timeout=5000)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def _play(page, twin, keys, start=0):
    for i, key in enumerate(keys, start + 1):
        press(page, key)
        twin.press(key)
        assert frame(page) == twin.ram(), f"press {i} ({key}): not the simulator's screen"


def test_after_the_first_load_the_phone_starts_plays_and_keeps_its_game_offline(site, tmp_path):
    profile = tmp_path / "profile"
    with serving(site) as url:
        with chromium(profile) as ctx:
            page = ctx.new_page()
            page.goto(url)
            booted(page)
            _offline_ready(page)
            assert page.evaluate("window.bower.version") == _version(site)
    # The server is gone and the browser is offline: a cold start of the app.
    twin = Twin(tmp_path / "flash")
    with chromium(profile) as ctx:
        ctx.set_offline(True)
        page = ctx.new_page()
        page.goto(url)
        booted(page)
        assert page.evaluate("fetch('no-such-file').then(() => 'served', () => 'offline')") == "offline"
        assert frame(page) == twin.ram(), "offline, the app did not start on the device's home screen"
        assert page.evaluate("window.bower.version") == _version(site)
        assert page.locator("#status").inner_text() == ""
        _play(page, twin, TOUR[:12])
        page.close()
        page = ctx.new_page()
        page.goto(url)
        booted(page)
        twin = Twin(tmp_path / "flash")
        assert frame(page) == twin.ram(), "offline, the game played was not kept"
        _play(page, twin, TOUR[12:], 12)
        shot(page, "offline-game-over")


def test_over_plain_http_on_the_rooms_network_the_page_says_what_works_and_plays(site, tmp_path):
    with serving(site) as url:
        url = url.replace("127.0.0.1", LAN)
        with chromium(args=(f"--host-resolver-rules=MAP {LAN} 127.0.0.1",)) as ctx:
            page = ctx.new_page()
            page.goto(url)
            booted(page)
            assert page.evaluate("window.isSecureContext") is False
            assert page.evaluate("'serviceWorker' in navigator") is False
            assert page.locator("#status").inner_text() == WORDS
            twin = Twin(tmp_path / "flash")
            assert frame(page) == twin.ram()
            _play(page, twin, TOUR[:8])
            page.reload()
            booted(page)
            twin = Twin(tmp_path / "flash")
            assert frame(page) == twin.ram(), "over plain HTTP, the game played was not kept"
            _play(page, twin, TOUR[8:12], 8)
            shot(page, "plain-http")


def _build_b(tmp: Path, monkeypatch) -> Path:
    # Build B: the same site with a changed app.js (one line more, which
    # marks the page it runs in), so a different version.
    import bower_host.web.build as build

    static = tmp / "static-b"
    shutil.copytree(build.STATIC, static)
    with open(static / "app.js", "a") as f:
        f.write('\nwindow.bowerBuild = "B";\n')
    monkeypatch.setattr(build, "STATIC", static)
    return build_site(tmp / "site-b")


def _until(page, js: str, what: str, timeout: float = 15):
    # Polls ``js`` (a promise) in the page until it is true.
    deadline = time.time() + timeout
    while not page.evaluate(js):
        if time.time() > deadline:
            raise AssertionError(what)
        page.wait_for_timeout(50)


@contextmanager
def _activation(ctx):
    # Yields a function that waits until a service worker of the site other
    # than those active on entry is activated (watched from a blank page
    # through the DevTools protocol: every page of the site may be closed).
    blank = ctx.new_page()
    cdp = ctx.new_cdp_session(blank)
    states: dict[str, str] = {}
    cdp.on("ServiceWorker.workerVersionUpdated",
           lambda e: states.update({v["versionId"]: v["status"] for v in e["versions"]}))
    cdp.send("ServiceWorker.enable")
    blank.wait_for_timeout(100)
    old = {v for v, s in states.items() if s == "activated"}

    def activated(timeout: float = 10):
        deadline = time.time() + timeout
        while not any(s == "activated" and v not in old for v, s in states.items()):
            if time.time() > deadline:
                raise AssertionError(f"no new version was activated once the app was closed: {states}")
            blank.wait_for_timeout(50)

    try:
        yield activated
    finally:
        cdp.detach()
        blank.close()


def _running(page) -> tuple[str, str | None]:
    version, build = page.evaluate("[window.bower.version, window.bowerBuild || null]")
    return version, build


def test_a_new_version_is_taken_on_the_next_start_never_in_the_middle_of_a_game(site, tmp_path, monkeypatch):
    served = tmp_path / "served"
    shutil.copytree(site, served)
    a = _version(served)
    b_site = _build_b(tmp_path, monkeypatch)
    b = _version(b_site)
    assert a != b
    twin = Twin(tmp_path / "flash")
    with serving(served) as url, chromium() as ctx:
        page = ctx.new_page()
        page.goto(url)
        booted(page)
        _offline_ready(page)
        _play(page, twin, TOUR[:8])
        for name in (p.name for p in b_site.iterdir()):     # B is served now
            shutil.copyfile(b_site / name, served / name)
        _play(page, twin, TOUR[8:10], 8)
        assert _running(page) == (a, None)
        # A reload mid-game is not a new start: A's service worker still
        # serves A while a page of A is open (B waits, installed).
        page.reload()
        booted(page)
        assert _running(page) == (a, None), "a reload mid-game took the new version"
        twin = Twin(tmp_path / "flash")
        assert frame(page) == twin.ram()
        _play(page, twin, TOUR[10:14], 10)
        _until(page, "navigator.serviceWorker.getRegistration().then((r) => !!(r && r.waiting))",
               "the new version was not installed beside the old one")
        # Every page of the app closed, then the app opened again: B, with the game.
        with _activation(ctx) as activated:
            page.close()
            activated()
        page = ctx.new_page()
        page.goto(url)
        booted(page)
        assert _running(page) == (b, "B"), "the app opened again is not the new version"
        twin = Twin(tmp_path / "flash")
        assert frame(page) == twin.ram(), "the game in progress is not on the new version's screen"
        _play(page, twin, TOUR[14:], 14)
        shot(page, "new-version-game-over")


def test_a_name_the_build_does_not_hold_is_not_found_not_a_server_error(tmp_path):
    import urllib.error
    import urllib.request

    (tmp_path / "index.html").write_text("<!doctype html>")
    with serving(tmp_path) as url:
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url + "favicon.ico", timeout=10)
        assert e.value.code == 404
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200


def _cached(page) -> dict:
    # {path: SHA-256} of what the service worker's cache holds.
    return page.evaluate("""async () => {
      const out = {};
      for (const key of await caches.keys()) {
        const c = await caches.open(key);
        for (const req of await c.keys()) {
          const d = await crypto.subtle.digest("SHA-256", await (await c.match(req)).arrayBuffer());
          const hex = Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0"));
          out[new URL(req.url).pathname] = hex.join("");
        }
      }
      return out;
    }""")


def test_a_first_visit_downloads_each_file_once_and_the_worker_keeps_only_this_builds(site, tmp_path):
    import hashlib
    got: list = []
    folder = tmp_path / "site"
    shutil.copytree(site, folder)
    with serving(folder, got) as url, chromium(tmp_path / "profile") as ctx:
        page = ctx.new_page()
        page.goto(url)
        booted(page)
        _offline_ready(page)
        page.wait_for_timeout(500)
        # The worker's copies come from the browser's HTTP cache: no file's
        # body crosses the network twice (a page and sw.js may be asked
        # again: they are never cached, and answer 304 or a few bytes).
        bodies: dict = {}
        for path, n in got:
            if n:
                bodies.setdefault(path, []).append(n)
        twice = {p: ns for p, ns in bodies.items() if len(ns) > 1 and p not in ("/", "/sw.js", "/version.json")}
        assert twice == {}, twice
        assert "/micropython.wasm" in bodies and "/bower.pak" in bodies, sorted(bodies)
        want = {f"/{n}": hashlib.sha256((folder / n).read_bytes()).hexdigest()
                for n in ("app.js", "micropython.wasm", "bower.pak", "version.json")}
        held = _cached(page)
        assert {p: held.get(p) for p in want} == want
    # A stale copy in the HTTP cache is not taken: a build whose app.js
    # changed under the same name (and kept a day by the browser) is fetched
    # past that cache by the new worker, and its cache holds the new file.
    got.clear()
    with serving(folder, got) as url, chromium(tmp_path / "profile2") as ctx:
        page = ctx.new_page()
        page.goto(url)
        booted(page)
        _offline_ready(page)
        old_sw = (folder / "sw.js").read_text()
        (folder / "app.js").write_text((folder / "app.js").read_text() + "\n// build B\n")
        new_sha = hashlib.sha256((folder / "app.js").read_bytes()).hexdigest()
        (folder / "sw.js").write_text(old_sw.replace(json.dumps(_version(folder)), json.dumps("B"))
                                      .replace(hashlib.sha256((site / "app.js").read_bytes()).hexdigest(), new_sha))
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.wait_for_function("caches.has('B')", timeout=20000)
        page.wait_for_function("navigator.serviceWorker.getRegistration().then((r) => r.waiting || r.active)")
        page.wait_for_timeout(1000)
        held = page.evaluate("""async () => {
          const r = await (await caches.open("B")).match("app.js");
          if (!r) return null;
          const d = await crypto.subtle.digest("SHA-256", await r.arrayBuffer());
          return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
        }""")
        assert held == new_sha
