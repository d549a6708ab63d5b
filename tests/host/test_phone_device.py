"""Bower on a phone (issue 33, item 2 and 3): the device's other ways in and
out, in a real Chromium.

* the simulator's keys on a computer's keyboard (arrows, Enter, Backspace;
  a held key's repeats are not presses), screen for screen the twin's;
* holding BACK on the touch button undoes (600 ms), and a held OK is one OK,
  as on the device (``bower.buttons``: OK has no long press);
* a short vibration on each press, where the phone has one;
* the screen kept awake (Wake Lock) while the page is shown;
* installable: Chromium's own installability check finds nothing missing
  (manifest, icons, a maskable one, standalone, a service worker that
  serves the page offline).

The vibration and the wake lock are observed, not faked: a script the page
runs first records each call and passes it on to the browser's own.
"""

from __future__ import annotations

import json

import pytest

from test_phone import Twin
from webphone import booted, build_site, chromium, frame, need_chromium, press, serving, settle, shot

# Each line: the way in, then the twin's key. A held key is one press of its long twin.
KEYBOARD = [("Enter", "ok"), ("Enter", "ok"), ("Enter", "ok"), ("Enter", "ok"), ("ArrowDown", "down"),
            ("Enter", "ok"), ("Enter", "ok"), ("ArrowDown", "down"), ("ArrowUp", "up"), ("ArrowDown", "down"),
            ("Backspace", "back")]
RECORD = """
window.__calls = {vibrate: [], wake: []};
if (navigator.vibrate) {
  const vibrate = navigator.vibrate.bind(navigator);
  navigator.vibrate = (p) => { window.__calls.vibrate.push(p); return vibrate(p); };
}
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => { window.__calls.wake.push(type); return request(type); };
}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    need_chromium()
    folder = build_site(tmp_path_factory.mktemp("web") / "site")
    with serving(folder) as url:
        # (localhost, not 127.0.0.1: the same secure context, and the
        # name an installed app is usually served from)
        yield url.replace("127.0.0.1", "localhost")


def _key(page, name: str, hold_ms: int = 0):
    page.keyboard.down(name)
    if hold_ms:
        # A held key repeats (keydown with repeat set) until it is let go.
        for _ in range(hold_ms // 50):
            page.wait_for_timeout(50)
            page.keyboard.down(name)
    page.keyboard.up(name)
    settle(page)


def _held(page, twin, what: str):
    # After a hold that undid: the undo's note shows for TOAST_MS from the
    # moment the hold reached 600 ms, so how long after it the page's frame
    # is read is the machine's speed, not the device's. The page shows the
    # twin's screen with the note, or (read later) the twin's once it has
    # gone; then both wait it out, so the next press starts alike.
    from bower.ui import TOAST_MS
    shown = frame(page)
    noted = twin.ram()
    twin.t += TOAST_MS
    twin.dev.app.tick(twin.t)
    twin.dev.flush()
    assert shown in (noted, twin.ram()), what
    page.wait_for_timeout(TOAST_MS + 100)
    settle(page)
    assert frame(page) == twin.ram(), f"{what}, its note gone"


def test_keyboard_touch_holds_vibration_and_wake_lock_as_the_device(site, tmp_path):
    from bower import keys as K
    twin = Twin(tmp_path / "twin")
    with chromium() as ctx:
        ctx.add_init_script(RECORD)
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        assert frame(page) == twin.ram()
        presses = 0
        for i, (name, key) in enumerate(KEYBOARD):
            _key(page, name)
            presses += 1
            twin.press(key)
            assert frame(page) == twin.ram(), (i, name)
        # Backspace held: its repeats are no presses, and letting it go
        # after 600 ms is the device's undo.
        _key(page, "Backspace", hold_ms=900)
        presses += 1
        twin.dev.press(K.BACK_LONG, twin.t + 900)
        twin.t += 900
        _held(page, twin, "Backspace held")
        # The touch buttons held: BACK undoes, OK is OK.
        for key, long_key in (("back", K.BACK_LONG), ("ok", K.OK)):
            press(page, key, hold_ms=900)
            presses += 1
            twin.t += 900
            twin.dev.press(long_key, twin.t)
            _held(page, twin, f"{key} held")
            shot(page, f"device-held-{key}")
        calls = page.evaluate("window.__calls")
    # Every press (keyboard or touch) buzzed once, briefly; a repeat did not.
    assert calls["vibrate"] == [8] * presses, calls["vibrate"]
    # Asked for as the page came up (and again when it is shown again).
    assert calls["wake"][:1] == ["screen"], calls["wake"]


def test_the_app_is_installable_as_chromium_judges_it(site, tmp_path):
    # (a profile on disk: Chromium installs nothing from an incognito one)
    with chromium(tmp_path / "profile") as ctx:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(site)
        booted(page)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()           # (the page under the worker's control, as an installed app starts)
        booted(page)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        cdp = ctx.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        data = json.loads(manifest["data"])
        assert data["display"] == "standalone" and data["name"] and data["start_url"]
        purposes = {i.get("purpose", "any") for i in data["icons"]}
        assert "maskable" in purposes and "any" in purposes, data["icons"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
