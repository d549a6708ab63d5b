"""Logs leave the phone (issue 33): a whole Five-Handed game and a Classic
game played by taps in Chromium, screen for screen the simulator's; then
"Export logs" in the device's settings downloads them, and ``bower import``
of that file gives the library exactly the rows (and the JSON and EGN
exports) that ``bower sync`` gives from the simulator twin that was pressed
the same way. Each phone is a device of its own, and where the browser can
share a file (Web Share) the export is handed over that way.

The twin is ``bower sim``'s device with the phone's device id and the
phone's clock at the game's start (the only two things the phone's logs
hold that a simulator chooses for itself), and the same export hook; it
is synced by the real ``bower sync`` over the simulator's real link.
"""

from __future__ import annotations

import io
import json
import os
import select
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path


from webphone import booted, chromium, frame, press, shot
from bower.store import extra

BOWER = str(Path(sys.executable).parent / "bower")

# Five-Handed, B alone three times: 12, and B wins (a game of three hands).
FIVE = ("ok down ok ok ok down ok  ok ok up ok down down ok ok  "       # Five-Handed, A deals; H1: B alone, 5
        "ok back back back back ok up ok down down ok ok  "             # H2: C, D, E, A pass; B picks up alone
        "ok back back back ok up ok down down ok").split()               # H3: B orders up alone: game over
# From the game-over screen: a new Classic game, the README's three lone marches.
CLASSIC = ("ok down down ok  ok ok ok down ok  ok down ok down down ok ok  ok back down ok down down ok ok  "
           "ok down ok down down ok").split()
# From a game-over screen: Home, Settings, down to "Export logs".
TO_EXPORT = "ok down down down down ok  down ok  down down down down down".split()
# From the home screen of a new phone: a Classic game started (its log made), then the game
# menu's Settings, down to "Export logs".
STARTED_THEN_EXPORT = "ok ok ok ok down ok  back down down down down down ok  down down down down down".split()
FREE_ROW = 5    # the settings' free space: the browser's quota on a phone, this disk's on the twin


class Twin:
    """``bower sim``'s device on a fresh flash, with the phone's id and clock
    (``starts``: the phone's time at each game's start) and the web board's
    export hook, pressed as the phone was."""

    def __init__(self, flash: Path, device: str, starts=()):
        from bower import keys as K
        from bower_host import simulator
        flash.mkdir(parents=True)
        (flash / simulator.DEVICE_ID_FILE).write_text(device + "\n")
        self.keys = {"up": K.UP, "down": K.DOWN, "ok": K.OK, "back": K.BACK}
        self.dev = simulator.Device(str(flash))
        assert self.dev.id == device
        starts = iter(starts)
        self.dev.info["time"] = lambda: next(starts)
        self.dev.info["export"] = self.dev.store.count
        self.t = 1000

    def press(self, key: str) -> bytes:
        self.t += 300
        self.dev.press(self.keys[key], self.t)
        return bytes(self.dev.gddram())


def _without_row(ram: bytes, page: int) -> bytes:
    return ram[:page * 128] + ram[(page + 1) * 128:]


def bower(*args, **kw) -> subprocess.CompletedProcess:
    p = subprocess.run([BOWER, *map(str, args)], capture_output=True, text=True, timeout=120, **kw)
    assert "Traceback" not in p.stderr, p.stderr
    return p


def _sync(dev, db: Path) -> str:
    # The real `bower sync` over the simulator's real link (a pty), the twin's loop serving it.
    from bower_host.simlink import SimLink
    with SimLink(dev.store, dev.info) as served:
        p = subprocess.Popen([BOWER, "sync", "--port", served.port, "--db", str(db)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        while p.poll() is None:
            if select.select([served], [], [], 0.02)[0]:
                served.serve()
        out, err = p.communicate(timeout=10)
    assert p.returncode == 0 and "Traceback" not in err, (out, err)
    return out


def _rows(db: Path) -> dict:
    # Every row of the library's games, hands and players (but when each was stored).
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        games = [{k: r[k] for k in r.keys() if k != "synced_at"}
                 for r in conn.execute("SELECT * FROM games ORDER BY id")]
        hands = [tuple(r) for r in conn.execute("SELECT * FROM hands ORDER BY game_id, number")]
        players = [tuple(r) for r in conn.execute("SELECT * FROM players ORDER BY game_id, seat")]
    finally:
        conn.close()
    return {"games": games, "hands": hands, "players": players}


def _into(items: list):
    return lambda x: items.append(x)


def _flash_log(page, gid: str) -> bytes:
    return bytes(page.evaluate(f"Array.from(window.bower.mp.FS.readFile('/flash/games/{gid}.log'))"))


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None
        return {i.filename: z.read(i) for i in z.infolist()}


def test_games_played_by_taps_export_and_import_as_the_simulators_sync(site, tmp_path):
    keys = FIVE + CLASSIC + TO_EXPORT
    with chromium() as ctx:
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        frames = []
        for key in keys:
            press(page, key)
            frames.append(frame(page))
        shot(page, "export-settings")
        with page.expect_download(timeout=15000) as dl:
            press(page, "ok")
        frames.append(frame(page))
        data = Path(dl.value.path()).read_bytes()
        name = dl.value.suggested_filename
        device = page.evaluate("window.bower.device")
        phone_logs = {f"{device}/{g}.log": _flash_log(page, g) for g in ("g0001", "g0002")}
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Downloaded')")
        status = page.evaluate("document.getElementById('status').textContent")
        shot(page, "export-downloaded")
    assert name.startswith(f"bower-{device}-") and name.endswith(".zip"), name
    assert f"2 games as {name}" in status, status
    # The export is the device's logs in its own format, byte for byte, one member each.
    assert _members(data) == phone_logs
    (tmp_path / name).write_bytes(data)

    # The twin, pressed the same way: the same screens (the settings' free space apart) ...
    starts = [json.loads(log.split(b"\n")[0])[0]["started"] for log in phone_logs.values()]
    assert all(type(t) is int and t > 1.7e9 for t in starts), starts
    twin = Twin(tmp_path / "flash", device, starts)
    settings_from = len(FIVE + CLASSIC) + 7         # (the presses before the settings are open)
    for i, (key, got) in enumerate(zip(keys + ["ok"], frames)):
        want = twin.press(key)
        if i >= settings_from:
            got, want = _without_row(got, FREE_ROW), _without_row(want, FREE_ROW)
        assert got == want, f"press {i + 1} ({key}): the phone's screen is not the simulator's"
    # ... the same logs, byte for byte, and the same library from `bower sync` as from `bower import`.
    assert {f"{device}/{g['id']}.log": twin.dev.store.read(g["id"], 0, g["size"])
            for g in extra("past").games(twin.dev.store)} == phone_logs
    synced, imported = tmp_path / "synced.sqlite3", tmp_path / "imported.sqlite3"
    _sync(twin.dev, synced)
    out = bower("import", "--db", imported, tmp_path / name)
    assert out.returncode == 0, out.stderr
    assert f"new {device}/g0001: Five-Handed Euchre" in out.stdout and f"new {device}/g0002: Classic" in out.stdout
    assert _rows(imported) == _rows(synced)
    assert len(_rows(imported)["games"]) == 2
    for fmt in (["-f", "json"], ["-f", "egn", "--table-results"]):
        a, b = bower("export", "--db", synced, *fmt), bower("export", "--db", imported, *fmt)
        assert a.returncode == 0 and a.stdout and a.stdout == b.stdout, (fmt, a.stderr, b.stderr)
    # Imported again: stored once.
    again = bower("import", "--db", imported, tmp_path / name)
    assert again.returncode == 0 and again.stdout.count("duplicate") == 2, again.stdout
    assert _rows(imported) == _rows(synced)


SHARE = """
// Web Share as Chromium on a phone has it, for the test: it takes files only
// during a user's tap (transient activation), as the real one does, and keeps
// what it was handed.
window.__shared = [];
navigator.canShare = (d) => !!(d && Array.isArray(d.files) && d.files.length &&
                               d.files.every((f) => f instanceof File));
navigator.share = async (d) => {
  if (!navigator.userActivation.isActive) throw new DOMException("no user activation", "NotAllowedError");
  for (const f of d.files) {
    window.__shared.push({ name: f.name, type: f.type, bytes: Array.from(new Uint8Array(await f.arrayBuffer())) });
  }
};
"""


def test_each_phone_is_a_device_of_its_own_and_shares_where_it_can(site, tmp_path):
    archives = []
    for n, share in enumerate((False, True)):
        with chromium() as ctx:
            if share:
                ctx.add_init_script(SHARE)
            page = ctx.new_page()
            downloads: list = []
            page.on("download", _into(downloads))
            page.goto(site)
            booted(page)
            device = page.evaluate("window.bower.device")
            if not share:
                # A new phone has nothing to export: it says so, as the twin does, and nothing is downloaded.
                twin = Twin(tmp_path / "empty", device)
                for key in "down ok down down down down down ok".split():
                    press(page, key)
                    assert _without_row(frame(page), FREE_ROW) == _without_row(twin.press(key), FREE_ROW)
                from bower_host.screentext import rows
                assert "No games to export" in " ".join(t for t, _ in rows(twin.dev.app))
                page.wait_for_timeout(500)
                assert downloads == []
                for key in ("back", "up"):      # (home, its cursor on New game)
                    press(page, key)
            for key in STARTED_THEN_EXPORT:
                press(page, key)
            log = _flash_log(page, "g0001")
            if share:
                press(page, "ok")
                page.wait_for_function("window.__shared.length === 1")
                page.wait_for_timeout(300)
                got = page.evaluate("window.__shared[0]")
                assert downloads == [], "shared and downloaded"
                assert got["name"].startswith(f"bower-{device}-") and got["type"] == "application/zip", got["name"]
                data = bytes(got["bytes"])
                assert page.evaluate("document.getElementById('status').textContent").startswith("Shared 1 game")
            else:
                with page.expect_download(timeout=15000) as dl:
                    press(page, "ok")
                data = Path(dl.value.path()).read_bytes()
            shot(page, f"export-phone-{n + 1}")
        assert _members(data) == {f"{device}/g0001.log": log}
        archives.append((device, tmp_path / f"phone{n + 1}.zip"))
        archives[-1][1].write_bytes(data)
    (a, _), (b, _) = archives
    assert a != b, "two phones with one device id"
    db = tmp_path / "lib.sqlite3"
    out = bower("import", "--db", db, *(p for _, p in archives))
    assert out.returncode == 0, out.stderr
    assert f"new {a}/g0001" in out.stdout and f"new {b}/g0001" in out.stdout, out.stdout
    games = _rows(db)["games"]
    assert sorted((g["device"], g["game_key"]) for g in games) == sorted([(a, "g0001"), (b, "g0001")])
    assert os.path.isfile(f"{db}.raw/{a}/g0001.log") and os.path.isfile(f"{db}.raw/{b}/g0001.log")


def _board_press(b, key: str, t: list) -> int:
    # A tap as the page gives it: the edges, then the loop passes while BUSY; the flags seen.
    bit = {"up": 0, "down": 1, "ok": 2, "back": 3}[key]
    seen = 0
    for down in (1, 0):
        b.edge(bit, down, t[0])
        seen |= b.step((1 << bit) if down else 0, t[0])
        t[0] += 60
    for _ in range(20):
        t[0] += 30
        f = b.step(0, t[0])
        seen |= f
        if not f & 4:       # (BUSY)
            break
    return seen


def test_the_board_copies_each_log_beside_the_flash_as_a_sync_reads_it(tmp_path):
    # bower.webboard on CPython: "Export logs" copies every game's bytes as
    # the store lists them to a sync into the directory beside the flash,
    # emptied first, and notes no flash write.
    from bower_host import simhw
    simhw.install()
    from bower.webboard import EXPORT, WebBoard
    root = tmp_path / "flash"
    root.mkdir()
    b = WebBoard(str(root), "ab12cd34ef560000", lambda: 1763700000.25, 1 << 20, frame=None)
    b.fs.statvfs = simhw.HostFs(str(root)).statvfs     # (this disk's free space, not the browser's)
    assert b.exports == f"{root}.exports"
    t = [1000]
    # A game started, left for another (game 1 abandoned), then the settings' "Export logs".
    for key in ("ok ok ok ok down ok  back up ok down ok down ok  ok ok ok down ok  back down down down down down ok  "
                "down down down down down").split():
        _board_press(b, key, t)
    b.written()
    games = extra("past").games(b.store)
    assert [(g["id"], g["state"]) for g in games] == [("g0001", "abandoned"), ("g0002", "playing")]
    with open(root / "games" / "g0002.log", "ab") as f:
        f.write(b'["up H","00')              # a torn tail, as a power cut mid-append leaves
    os.makedirs(b.exports)
    (Path(b.exports) / "old.log").write_bytes(b"from the last export")
    assert _board_press(b, "ok", t) & EXPORT
    assert b.written() == ""
    got = {n: (Path(b.exports) / n).read_bytes() for n in os.listdir(b.exports)}
    listed = {g["id"] + ".log": b.store.read(g["id"], 0, g["size"]) for g in extra("past").games(b.store)}
    assert sorted(got) == ["g0001.log", "g0002.log"] and got == listed
    # (the game in play is listed whole, torn tail and all, as LIST gives it to a sync, whose host drops the tail)
    assert got["g0002.log"] == (root / "games" / "g0002.log").read_bytes()
    assert b'"started": 1763700000,' in got["g0001.log"]       # whole seconds, as the library takes them
    assert not _board_press(b, "down", t) & EXPORT
