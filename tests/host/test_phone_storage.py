"""Bower on a phone (issue 33): the browser's storage with the flash's guarantees.

The quota running out (a small quota given to the site through the DevTools
protocol, which Chromium's IndexedDB then enforces) takes the device's own
"Storage full" path (firmware/STORAGE.md): the commit Chromium refuses loses
at most that input, the device starting again from what is kept and from
then on knowing the storage full; synced games are removed for room first;
an input the flash then refuses is taken back and the screen says so; a game
starts only with room for it; nothing kept is lost; the page is never blank.

Chromium's navigator.storage.estimate() does not tell a full storage: its
quota is the usage plus 10 GiB whatever the real quota is (checked here), so
a refused commit is the page's one sure sign.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest

from test_phone import TOUR, Twin
from webphone import (booted, build_site, chromium, frame, need_chromium, press, serving, shot, touch_end,
                      touch_start)

#: A Classic game (test_phone's TOUR), then Home from its game-over screen.
GAME = [*TOUR, "ok", "up", "ok"]
#: The presses of TOUR that start a game and enter its first input (the upcard).
IN_PLAY = 7


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    need_chromium()
    folder = build_site(tmp_path_factory.mktemp("web") / "site")
    with serving(folder) as url:
        yield url


# ----- the flash in IndexedDB, as the page keeps it (app.js's Flash) ---------------------

_OPEN = """(version) => new Promise((resolve, reject) => {
    const r = version ? indexedDB.open("bower", version) : indexedDB.open("bower");
    r.onupgradeneeded = () => { r.result.createObjectStore("files"); r.result.createObjectStore("meta"); };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
})"""

_PUT = """async ([files, meta, version]) => {
    if (version) await new Promise((resolve) => {
        const r = indexedDB.deleteDatabase("bower");
        r.onsuccess = r.onerror = resolve;
    });
    const db = await (%s)(version);
    const value = (v) => v.kind === "bytes" ? Uint8Array.from(atob(v.b64), (c) => c.charCodeAt(0))
                       : v.kind === "dir" ? "dir" : v.value;
    await new Promise((resolve, reject) => {
        const tx = db.transaction(["files", "meta"], "readwrite");
        const fs = tx.objectStore("files");
        fs.clear();
        for (const [k, v] of files) fs.put(value(v), k);
        for (const [k, v] of meta) tx.objectStore("meta").put(v, k);
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
    });
    db.close();
}""" % _OPEN

_GET = """async () => {
    const db = await (%s)(0);
    const store = db.transaction("files").objectStore("files");
    const req = (r) => new Promise((resolve) => { r.onsuccess = () => resolve(r.result); });
    const [keys, values] = await Promise.all([req(store.getAllKeys()), req(store.getAll())]);
    db.close();
    return keys.map((k, i) => {
        const v = values[i];
        if (v instanceof Uint8Array) return [k, { kind: "bytes", b64: btoa(String.fromCharCode(...v)) }];
        return [k, v === "dir" ? { kind: "dir" } : { kind: "value", value: v }];
    });
}""" % _OPEN


def flash_files(flash: Path) -> dict[str, bytes | None]:
    """A simulated flash's store files, as the page keeps them: path under
    /flash -> bytes, None for a directory."""
    out: dict[str, bytes | None] = {}
    for p in sorted(flash.rglob("*")):
        if p.name == "sim-device-id":
            continue
        out["/flash/" + p.relative_to(flash).as_posix()] = None if p.is_dir() else p.read_bytes()
    return out


def put_flash(page, files: dict, device: str, format=1, version: int = 0):
    """Make the site's IndexedDB hold ``files`` (path -> bytes, None: a
    directory, or any other value, stored as it is) and the meta values,
    on a page of the site where the device is not running; with
    ``version``, in a database made anew at that version."""
    def enc(v):
        if isinstance(v, bytes):
            return {"kind": "bytes", "b64": base64.b64encode(v).decode()}
        return {"kind": "dir"} if v is None else {"kind": "value", "value": v}
    page.evaluate(_PUT, [[[k, enc(v)] for k, v in files.items()], [["device", device], ["format", format]],
                         version])


def get_flash(page) -> dict:
    """What the site's IndexedDB holds: path -> bytes, None (a directory) or the value."""
    out = {}
    for k, v in page.evaluate(_GET):
        out[k] = base64.b64decode(v["b64"]) if v["kind"] == "bytes" else None if v["kind"] == "dir" else v["value"]
    return out


def to_dir(files: dict, flash: Path, device: str) -> Path:
    """The simulator's flash holding ``files`` (what the page gives the store)."""
    flash.mkdir(parents=True, exist_ok=True)
    (flash / "sim-device-id").write_text(device + "\n")
    for k, v in sorted(files.items()):
        p = flash / k[len("/flash/"):]
        if v is None:
            p.mkdir(parents=True, exist_ok=True)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(v)
    return flash


def words(page) -> str:
    """What the device's top screen says (its title, lines and rows), from the firmware's own state."""
    page.evaluate("""() => window.bower.mp.runPython(
        "s = board.app.stack[-1]\\n"
        + "_words = '|'.join([getattr(s, 'title', '')] + list(getattr(s, 'info', ()))"
        + " + ([s.text(i) for i in range(len(s.items))] if hasattr(s, 'items') else []))")""")
    return page.evaluate("window.bower.mp.globals.get('_words')")


def lit(page) -> bool:
    """Is anything on the device's screen (the page never goes blank)?"""
    return any(frame(page)) and "could not start" not in page.locator("#status").inner_text()


def _seeded(tmp: Path) -> tuple[Path, str]:
    # The twin's flash with three finished Classic games, the first two synced.
    twin = Twin(tmp / "seed")
    for _ in range(3):
        for key in GAME:
            twin.press(key)
    store = twin.dev.store
    games = store.games()
    assert [g["state"] for g in games] == ["finished"] * 3
    for g in games[:2]:
        assert store.mark_synced(g["id"], g["crc"])
    return tmp / "seed", twin.dev.id


def rows(page) -> tuple[list[str], int]:
    """The rows of the device's top screen (a menu) and the one under the cursor."""
    page.evaluate("""() => window.bower.mp.runPython(
        "s = board.app.stack[-1]\\n"
        + "_rows = '|'.join([s.text(i) for i in range(len(s.items))]) + '#' + str(s.cursor)")""")
    text, cursor = page.evaluate("window.bower.mp.globals.get('_rows')").rsplit("#", 1)
    return text.split("|"), int(cursor)


def choose(page, row: str):
    """Move the cursor to the menu's row that starts with ``row`` and press OK, as a user would."""
    names, at = rows(page)
    want = next(i for i, n in enumerate(names) if n.strip().startswith(row))
    for _ in range((want - at) % len(names)):
        press(page, "down")
    press(page, "ok")


def _seeded(tmp: Path) -> tuple[Path, str]:
    # The twin's flash: three finished Classic games, the first two synced,
    # and a fourth in play (its first input in: TOUR's first seven presses).
    twin = Twin(tmp / "seed")
    for key in GAME * 3 + TOUR[:IN_PLAY]:
        twin.press(key)
    store = twin.dev.store
    games = store.games()
    assert [g["state"] for g in games] == ["finished"] * 3 + ["playing"]
    for g in games[:2]:
        assert store.mark_synced(g["id"], g["crc"])
    return tmp / "seed", twin.dev.id


def _usage(ctx, page, url) -> tuple[int, int]:
    # (usage, quota) as Chromium counts them (its DevTools protocol).
    cdp = ctx.new_cdp_session(page)
    try:
        u = cdp.send("Storage.getUsageAndQuota", {"origin": url.rstrip("/")})
        return u["usage"], u["quota"]
    finally:
        cdp.detach()


def _logs(files: dict) -> dict:
    return {k: v for k, v in files.items() if k.endswith(".log")}


def _press(page, key):
    # A press that may make the page start again (as webphone.press, then
    # waiting for the device, in this page or the next).
    finger = touch_start(page, key)
    page.wait_for_timeout(60)
    touch_end(finger)
    page.wait_for_timeout(30)
    booted(page)


def test_a_full_quota_takes_the_devices_storage_full_path_and_loses_nothing_kept(site, tmp_path):
    seed, device = _seeded(tmp_path)
    kept = flash_files(seed)
    profile = tmp_path / "profile"
    with chromium(profile) as ctx:
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.goto(site + "version.json")        # (the site's origin, no device running)
        put_flash(page, kept, device)
        usage, _ = _usage(ctx, page, site)
    with chromium(profile) as ctx:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        # A quota smaller than what the site holds, given before the site
        # writes (Chromium asks it then): the next commit is refused.
        cdp.send("Storage.overrideQuotaForOrigin", {"origin": site.rstrip("/"), "quotaSize": usage - 1})
        page.goto(site)
        booted(page)
        u, q = _usage(ctx, page, site)
        assert u > q, "the quota did not run out"
        room = page.evaluate("navigator.storage.estimate().then((e) => e.quota - e.usage)")
        assert room > 1 << 30, "Chromium's estimate() now tells a full quota: app.js's room() can use it"
        twin = Twin(shutil.copytree(seed, tmp_path / "twin"))
        resumed = twin.ram()
        assert frame(page) == resumed, "the game in play did not resume"

        # The first input the page stores is refused: the device starts
        # again from what is kept (that input lost) and knows it is full.
        for i, key in enumerate(TOUR[IN_PLAY:], IN_PLAY + 1):
            _press(page, key)
            assert lit(page)
            if page.locator("#status").inner_text():
                break
            twin.press(key)
            assert frame(page) == twin.ram(), f"press {i} ({key})"
        assert page.locator("#status").inner_text() == "Storage full: the last input was not kept."
        assert get_flash(page) == kept, "what the flash kept changed"
        assert frame(page) == resumed, "the device did not start again on the flash as kept"
        shot(page, "quota-refused")

        # The device's own path now: synced games are removed first; then
        # the input the flash still refuses is taken back, and it says so.
        for key in TOUR[IN_PLAY:i]:
            press(page, key)
        assert words(page).startswith("Storage full|Input not saved|"), words(page)
        now = get_flash(page)
        assert sorted(_logs(now)) == ["/flash/games/g0003.log", "/flash/games/g0004.log"], "synced games not removed"
        assert all(now[k] == kept[k] for k in _logs(now)), "a game kept changed"
        shot(page, "quota-input-not-saved")
        choose(page, "Back")
        twin = Twin(to_dir(now, tmp_path / "after", device))
        assert frame(page) == twin.ram(), "the screen is not what the flash says"

        # A game starts only with room for it.
        choose(page, "game menu")
        choose(page, "Home")
        for row in ("New game", "Yes, leave game", "Classic", "Next: players", "Next: dealer", "A deals"):
            choose(page, row)
        assert words(page).startswith("Storage full|Game not started|"), words(page)
        assert _logs(get_flash(page)) == _logs(now)
        shot(page, "quota-game-not-started")

        # A reload in this tab still knows the storage is full; nothing was lost.
        page.reload()
        booted(page)
        assert lit(page)
        assert frame(page) == Twin(to_dir(get_flash(page), tmp_path / "reloaded", device)).ram()
        assert _logs(get_flash(page)) == _logs(now)
