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

Damaged or foreign storage (random bytes in a log, a value of another type,
a file the store does not know, another version's "format" or database
version, a missing directory entry, a truncated log, a file where a
directory is), as hypothesis's invariants over a handful of examples, each
a browser start: the page boots to the screen the simulator shows on a
flash holding what the page gives the store, and every game that was whole
is still listed, its log kept and exported (Settings' "Export logs": the
zip the page downloads) byte for byte.
"""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import tempfile
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from bower_host.screentext import rows as rows_of
from test_phone import TOUR, Twin
from webphone import (booted, chromium, frame, press, shot, touch_end,
                      touch_start)
from bower.store import extra

#: A Classic game (test_phone's TOUR), then Home from its game-over screen.
GAME = [*TOUR, "ok", "up", "ok"]
#: The presses of TOUR that start a game and enter its first input (the upcard).
IN_PLAY = 7


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
    games = extra("past").games(store)
    assert [g["state"] for g in games] == ["finished"] * 3
    for g in games[:2]:
        assert extra("past").mark_synced(store, g["id"], g["crc"])
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
    games = extra("past").games(store)
    assert [g["state"] for g in games] == ["finished"] * 3 + ["playing"]
    for g in games[:2]:
        assert extra("past").mark_synced(store, g["id"], g["crc"])
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


# ----- damaged or foreign storage ---------------------------------------------------------

def _base(scratch: Path) -> tuple[dict, str]:
    # The flash the damage is done to (made once): two finished Classic
    # games and a third in play.
    flash = scratch / "base"
    if not flash.exists():
        twin = Twin(flash)
        for key in GAME * 2 + TOUR[:12]:
            twin.press(key)
    return flash_files(flash), (flash / "sim-device-id").read_text().strip()


_FILES = ["/flash/games/g0001.log", "/flash/games/g0002.log", "/flash/games/g0003.log", "/flash/settings",
          "/flash/games/g0001.st", "/flash/games/g0002.st"]
_VALUES = st.one_of(st.integers(-2**40, 2**40), st.text(max_size=12), st.none(), st.booleans(),
                    st.lists(st.integers(0, 255), max_size=4),
                    # (keys that JSON.stringify and json.dumps put alike: no digits
                    # first, no escapes)
                    st.dictionaries(st.text("abc", max_size=4), st.integers(-2**40, 2**40), max_size=2))
_UNKNOWN = ["/flash/zz", "/flash/games/g12.log", "/flash/games/gX001.log", "/flash/games/g0009.log",
            "/flash/games/g0003.tmp", "/flash/past/g0001.log", "/flash/past.idx", "/flash/settings.tmp"]
DAMAGE = st.one_of(
    st.tuples(st.just("bytes"), st.sampled_from(_FILES), st.floats(0, 1), st.binary(min_size=1, max_size=40)),
    st.tuples(st.just("truncate"), st.sampled_from(_FILES), st.floats(0, 1)),
    st.tuples(st.just("value"), st.sampled_from(_FILES), _VALUES),
    st.tuples(st.just("unknown"), st.sampled_from(_UNKNOWN), st.binary(max_size=60)),
    st.tuples(st.just("format"), st.one_of(st.integers(), st.text(max_size=6))),
    st.tuples(st.just("nodir"), st.just("/flash/games")),
    st.tuples(st.just("dirfile"), st.just("/flash/games"), st.binary(max_size=8)),
    st.tuples(st.just("newer"), st.integers(2, 9)),
)


def _damage(files: dict, meta: dict, kinds) -> tuple[dict, dict, int]:
    # The flash with the damage done: (files, meta, the database's version).
    files, meta, version = dict(files), dict(meta), 1
    for d in kinds:
        kind, rest = d[0], d[1:]
        if kind in ("bytes", "truncate") and not isinstance(files.get(rest[0]), bytes):
            continue                    # (no file's bytes there to damage)
        if kind == "bytes":
            path, at, junk = rest
            b = files[path]
            i = int(at * len(b))
            files[path] = b[:i] + junk + b[i + len(junk):]
        elif kind == "truncate":
            path, at = rest
            files[path] = files[path][:int(at * (len(files[path]) - 1))]
        elif kind in ("value", "unknown"):
            files[rest[0]] = rest[1]
        elif kind == "format":
            meta["format"] = rest[0]
        elif kind == "nodir":
            files.pop(rest[0], None)
        elif kind == "dirfile":
            files[rest[0]] = rest[1]
        elif kind == "newer":
            version = rest[0]
    return files, meta, version


def as_the_store_sees(files: dict) -> dict:
    """What app.js gives the store of ``files``: a file's bytes; a value of
    another type as its text (a string) or JSON; a name that is not under
    /flash, or has an empty, "." or ".." part, left out; a file where a
    directory is (another file is under it) left out: the directory wins."""
    out: dict = {}
    for k, v in files.items():
        if not isinstance(k, str) or not k.startswith("/flash/") or any(
                p in ("", ".", "..") for p in k.split("/")[2:]):
            continue
        if v is None or isinstance(v, bytes):
            out[k] = v
        elif isinstance(v, str) and v == "dir":
            out[k] = None
        else:
            out[k] = (v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False)).encode()
    dirs = {k[:i] for k in out for i in range(len("/flash"), len(k)) if k[i] == "/"}
    return {k: v for k, v in out.items() if not (v is not None and k in dirs)}


def _listing(page) -> list:
    page.evaluate("""() => window.bower.mp.runPython(
        "import json\\nfrom bower.store import extra\\n_games = json.dumps([[g['id'], g['size'], g['crc'],"
        + " g['state'], g['synced']] for g in extra('past').games(board.store)])")""")
    return json.loads(page.evaluate("window.bower.mp.globals.get('_games')"))


def _said(page) -> tuple[list[str], str]:
    # The store's warnings and the note on the screen.
    page.evaluate("""() => window.bower.mp.runPython(
        "import json\\n_said = json.dumps([board.store.warnings, board.app.toast])")""")
    said, toast = json.loads(page.evaluate("window.bower.mp.globals.get('_said')"))
    return said, toast


def _exported(page) -> dict[str, bytes]:
    # Settings' "Export logs" as the device's menu asks for it (the board's
    # hook; the next pass copies the logs and the page downloads the zip):
    # member name -> bytes.
    with page.expect_download(timeout=15000) as dl:
        page.evaluate("() => window.bower.mp.runPython('board._export()')")
    with zipfile.ZipFile(io.BytesIO(Path(dl.value.path()).read_bytes())) as z:
        assert z.testzip() is None
        return {i.filename: z.read(i) for i in z.infolist()}


def _blank(ram: bytes, pages: list[int]) -> bytes:
    # The screen with these rows (display RAM pages) left out.
    return b"".join(ram[p * 128:(p + 1) * 128] for p in range(len(ram) // 128) if p not in pages)


def _reason(warning: str) -> str:
    # A warning without the text of the exception behind it.
    return re.sub(r"^(g\d+) .*: not resumed$", r"\1 ...: not resumed", warning)


_SHOT: set = set()


@pytest.fixture(scope="module")
def phone(site):
    with chromium() as ctx:
        yield ctx


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("damaged")


# (no shrinking: each example is a browser start)
@settings(max_examples=8, derandomize=True, deadline=None, phases=[Phase.explicit, Phase.generate])
@example(kinds=[("bytes", "/flash/games/g0002.log", 0.5, bytes(range(200, 240)))])
@example(kinds=[("truncate", "/flash/games/g0003.log", 0.7)])
@example(kinds=[("value", "/flash/games/g0001.log", {"a": 1}), ("value", "/flash/settings", 7)])
@example(kinds=[("unknown", "/flash/games/g0009.log", b"\xff\x00garbage"), ("unknown", "/flash/zz", b"")])
@example(kinds=[("format", 2)])
@example(kinds=[("nodir", "/flash/games")])
@example(kinds=[("dirfile", "/flash/games", b"x")])
@example(kinds=[("newer", 3)])
@example(kinds=[("value", "/flash/games/g0003.log", {}), ("value", "/flash/games/g0002.st", {})])
@example(kinds=[("value", "/flash/games/g0002.st", None), ("value", "/flash/settings", None)])
@example(kinds=[("value", "/flash/games/g0003.log", None)])
@example(kinds=[("value", "/flash/games/g0001.log", None), ("value", "/flash/games/g0002.log", 0)])
@example(kinds=[("value", "/flash/games/g0001.log", 0), ("bytes", "/flash/games/g0003.log", 0.9, b"\n\n")])
@given(kinds=st.lists(DAMAGE, min_size=1, max_size=3))
def test_damaged_or_foreign_storage_takes_the_damaged_flash_path_and_keeps_every_whole_game(site, phone, scratch,
                                                                                             kinds):
    base, device = _base(scratch)
    files, meta, version = _damage(base, {"device": device, "format": 1}, kinds)
    page = phone.new_page()
    try:
        page.goto(site + "version.json")
        put_flash(page, files, device, meta["format"], version)
        page.goto(site)
        booted(page)
        assert lit(page), page.locator("#status").inner_text()
        # Both idle until the deferred flash work is done (Store.tidy: it may
        # mark an old game whose state is damaged).
        page.wait_for_function("() => window.bower.board._tidy === true && window.bower.settled()", timeout=15000)
        seen = as_the_store_sees(files)
        twin = Twin(to_dir(seen, Path(tempfile.mkdtemp(prefix="twin-", dir=scratch)), device))
        while twin.dev.app.warm():
            pass
        # The device's own words for the damage (MicroPython's exceptions
        # carry other text than CPython's) on the twin's screen.
        said, toast = _said(page)
        assert [_reason(w) for w in said] == [_reason(w) for w in twin.dev.store.warnings], kinds
        twin.dev.app.toast = toast
        twin.dev.app.dirty = True
        twin.dev.flush()
        # (a free space shown is the browser's quota on the phone, this disk's on the twin)
        free = [i for i, (t, _) in enumerate(rows_of(twin.dev.app)) if re.search(r"Free.* \d+K", t)]
        assert _blank(frame(page), free) == _blank(twin.ram(), free), f"{kinds}: not the simulator's screen"
        listed = _listing(page)
        want = [[g["id"], g["size"], g["crc"], g["state"], g["synced"]] for g in extra("past").games(twin.dev.store)]
        assert listed == want, kinds
        for d in kinds:
            if d[0] not in _SHOT:         # (before the export's note)
                _SHOT.add(d[0])
                shot(page, f"damaged-{d[0]}")
        kept = get_flash(page)
        exported = _exported(page) if listed else {}
        assert sorted(exported) == sorted(f"{device}/{g[0]}.log" for g in listed), kinds
        for path, b in base.items():
            if path.endswith(".log") and seen.get(path) == b:       # a whole game
                gid = path.rsplit("/", 1)[1][:-4]
                assert [gid, len(b), "%08x" % zlib.crc32(b)] in [g[:3] for g in listed], f"{gid} not listed whole"
                assert b in (kept.get(f"/flash/games/{gid}.log"), kept.get(f"/flash/past/{gid}.log")), f"{gid} lost"
                assert exported[f"{device}/{gid}.log"] == b, f"{kinds}: {gid} not exported whole"
    finally:
        page.close()
