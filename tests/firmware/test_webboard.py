"""The browser board (bower.webboard, issue 33) on CPython, against the
simulator and the golden screens.

* Every golden screen goes through the browser board's display path (the
  Pico's bower.display and ssd1306 driver into webboard._Panel, the model
  of the panel's display RAM the page draws) and comes out as the UI core
  drew it, pixel for pixel: whole, and after another screen (the partial
  updates bower.display sends).
* Random presses through the board's edges and loop passes show what the
  simulator shows for the same presses, and the files it reports written
  are all there is: a flash rebuilt from them alone (what the page's
  IndexedDB holds) powers on where the simulator's own flash does.
"""

from __future__ import annotations

import os
import random
import shutil
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host import simhw

simhw.install()

sys.path.insert(0, os.path.dirname(__file__))

import ssd1306  # noqa: E402
from bower.display import Display  # noqa: E402
from bower.webboard import FILES, FRAME, WebBoard, _Panel  # noqa: E402

from test_golden_screens import SCENARIOS, bitmap  # noqa: E402

BITS = {"up": 0, "down": 1, "ok": 2, "back": 3}


def _ram_bitmap(ram: bytes) -> str:
    rows = ["".join("#" if ram[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128)) for y in range(64)]
    return "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def screens():
    return {name: make() for name, make in sorted(SCENARIOS.items())}


def test_every_golden_screen_reaches_the_panel_as_drawn(screens):
    panel = _Panel()
    disp = Display(ssd1306.SSD1306_I2C(128, 64, panel, 0x3C))
    names = sorted(screens)
    # Each screen whole after a fresh start, and each after the one before
    # it (only what changed is sent then).
    for name in names:
        fresh = _Panel()
        d = Display(ssd1306.SSD1306_I2C(128, 64, fresh, 0x3C))
        screens[name].app.render(d.fb)
        d.show()
        assert _ram_bitmap(fresh.ram) == bitmap(screens[name].app), name
    for name in names + names[::-1]:
        screens[name].app.render(disp.fb)
        disp.show()
        assert _ram_bitmap(panel.ram) == bitmap(screens[name].app), f"{name}, after a partial update"


class Twin:
    """``bower sim``'s device: events straight into the app."""

    def __init__(self, flash):
        from bower import keys as K
        from bower_host.simulator import Device
        self.k = {"up": K.UP, "down": K.DOWN, "ok": K.OK, "back": K.BACK}
        self.dev = Device(str(flash), rand_below=random.Random(7).randrange)
        self.dev.info["export"] = self.dev.store.count     # Settings lists "Export logs", as the phone's
        self.t = 1000

    def press(self, key):
        self.t += 300
        self.dev.press(self.k[key], self.t)


class Phone:
    """The browser board as app.js drives it: edges, loop passes, and after
    each pass the files it wrote copied to ``kept`` (the page's IndexedDB)."""

    def __init__(self, root, kept, twin):
        # The twin's device id, and the flash's free space as the simulator
        # counts it (a phone's storage screen shows the browser's room
        # instead: tested below), so that every screen can be the same.
        self.root, self.kept = str(root), str(kept)
        self.board = WebBoard(self.root, twin.dev.id, lambda: 1763700000, 1 << 20,
                              rand_below=random.Random(7).randrange, frame=None)
        self.board.fs.statvfs = simhw.HostFs(self.root).statvfs
        self.t = 5000
        self.keep()

    def step(self, mask):
        flags = self.board.step(mask, self.t)
        if flags & FILES:
            self.keep()
        return flags

    def keep(self):
        for p in self.board.written().split("\n"):
            if not p:
                continue
            rel = os.path.relpath(p, self.root)
            dst = os.path.join(self.kept, rel)
            if os.path.isdir(p):
                os.makedirs(dst, exist_ok=True)
            elif os.path.exists(p):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(p, dst)
            elif os.path.isdir(dst):
                shutil.rmtree(dst)
            elif os.path.exists(dst):
                os.remove(dst)

    def press(self, key):
        bit = BITS[key]
        self.board.edge(bit, 1, self.t)
        self.step(1 << bit)
        self.t += 60
        self.board.edge(bit, 0, self.t)
        self.step(0)
        for _ in range(8):          # the passes a page makes while BUSY
            self.t += 30
            if not self.step(0) & (FRAME | FILES):
                break
        self.t += 200


def _kept_copy(kept, root):
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(kept, root)


KEYS = st.lists(st.sampled_from(["ok", "ok", "ok", "down", "down", "up", "back"]), min_size=5, max_size=45)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(keys=KEYS, cut=st.integers(0, 44))
def test_presses_show_the_simulators_screens_and_the_kept_files_power_on_where_it_does(tmp_path_factory, keys,
                                                                                      cut):
    tmp = tmp_path_factory.mktemp("phone")
    twin = Twin(tmp / "sim")
    phone = Phone(tmp / "mem", tmp / "kept", twin)
    assert bytes(phone.board.ram) == bytes(twin.dev.gddram())
    cut = min(cut, len(keys))
    for i, key in enumerate(keys[:cut]):
        phone.press(key)
        twin.press(key)
        assert bytes(phone.board.ram) == bytes(twin.dev.gddram()), (i, keys[:i + 1])
    # The tab closed: only what was kept is left. Both power on again.
    _kept_copy(tmp / "kept", tmp / "mem2")
    twin = Twin(tmp / "sim")
    phone = Phone(tmp / "mem2", tmp / "kept", twin)
    assert bytes(phone.board.ram) == bytes(twin.dev.gddram()), ("after the power-on", keys[:cut])
    for i, key in enumerate(keys[cut:], cut):
        phone.press(key)
        twin.press(key)
        assert bytes(phone.board.ram) == bytes(twin.dev.gddram()), (i, keys[:i + 1])


def test_a_write_past_the_browsers_room_fails_as_a_full_flash_does(tmp_path):
    # room: what the browser lets the site keep. A game's start needs room
    # (the store keeps 32 KB free): with less, the device says so and keeps
    # nothing of the game; the files it wrote are reported as ever.
    board = WebBoard(str(tmp_path / "mem"), "0123456789abcdef", lambda: 1763700000, 20_000, frame=None)
    phone = Phone.__new__(Phone)
    phone.board, phone.root, phone.kept, phone.t = board, str(tmp_path / "mem"), str(tmp_path / "kept"), 5000
    os.makedirs(phone.kept)
    for key in ("ok", "ok", "ok", "ok", "down", "ok"):
        phone.press(key)
    text = _screen_words(board)
    assert "Storage" in text or "full" in text.lower() or "room" in text.lower(), text
    assert not os.path.exists(tmp_path / "mem" / "games") or not [
        n for n in os.listdir(tmp_path / "mem" / "games") if n.endswith(".log")]


def _screen_words(board) -> str:
    from bower_host.screentext import rows
    return " ".join(text for text, _ in rows(board.app))


def test_a_browsers_storage_fits_the_settings_row(tmp_path):
    # A phone's storage is gigabytes: the free space shows in M where K
    # would be more digits than the row has (a Pico's flash stays in K).
    board = WebBoard(str(tmp_path / "mem"), "0123456789abcdef", lambda: 1763700000, 3 << 30, frame=None)
    phone = Phone.__new__(Phone)
    phone.board, phone.root, phone.kept, phone.t = board, str(tmp_path / "mem"), str(tmp_path / "kept"), 5000
    os.makedirs(phone.kept)
    for key in ("down", "ok"):
        phone.press(key)
    from bower_host.screentext import rows
    free = [text for text, _ in rows(board.app) if text.startswith("Free space")]
    assert free == ["Free space 3071M"], free
    assert all(len(text) <= 16 for text, _ in rows(board.app))
