"""Bower on a phone (issue 33): the web build in a real Chromium at a phone's
size, played by touch, screen for screen the simulator's.

The site is built by ``bower web build`` once, served by uvicorn on
loopback, and opened at 390x844 (3x) with touch; every key is a real touch
through the DevTools protocol. The twin is ``bower sim``'s device (the same
firmware on CPython): after every press the panel's display RAM in the
page must be the twin's, byte for byte, and the canvas must show it as
``bower sim --screenshot`` draws it, pixel for pixel.
"""

from __future__ import annotations

import io

import pytest

from webphone import (PHONES, booted, canvas_png, chromium, frame, press, shot)

# The README's quickest Classic game: three lone marches (its key lines, as
# the phone's keys).
TOUR = ["ok", "ok", "ok", "ok", "down", "ok",
        "ok", "down", "ok", "down", "down", "ok", "ok",
        "ok", "back", "down", "ok", "down", "down", "ok", "ok",
        "ok", "down", "ok", "down", "down", "ok"]


class Twin:
    """``bower sim``'s device on a fresh flash, pressed as the phone is."""

    def __init__(self, flash):
        from bower import keys as K
        from bower_host.simulator import Device
        self.keys = {"up": K.UP, "down": K.DOWN, "ok": K.OK, "back": K.BACK}
        self.dev = Device(str(flash))
        self.t = 1000

    def press(self, key):
        self.t += 300
        self.dev.press(self.keys[key], self.t)

    def ram(self) -> bytes:
        return bytes(self.dev.gddram())


def _picture(png: bytes):
    # The canvas (or what is painted of it): the picture at its whole-pixel
    # scale, centred, the margins black. Returns (picture, scale).
    from PIL import Image
    with Image.open(io.BytesIO(png)) as im:
        img = im.convert("RGB")
    w, h = img.size
    scale = max(1, min(w // 128, h // 64))
    left, top = (w - 128 * scale) // 2, (h - 64 * scale) // 2
    pic = img.crop((left, top, left + 128 * scale, top + 64 * scale))
    margins = Image.new("RGB", img.size)
    margins.paste(img)
    margins.paste((0, 0, 0), (left, top, left + 128 * scale, top + 64 * scale))
    assert margins.getbbox() is None, "something drawn outside the picture"
    return pic, scale


def _canvas_is_the_screenshot(page, ram: bytes):
    from bower_host.screen import to_image
    pic, scale = _picture(canvas_png(page))
    assert pic.tobytes() == to_image(ram, scale).tobytes(), "the canvas is not the screenshot of its display RAM"


def _painted_is_the_canvas(page):
    # What the page paints on the phone's screen (a screenshot in device
    # pixels) holds the canvas's backing store 1:1, somewhere within a pixel
    # or two of where its box says: nothing resampled, nothing blurred.
    from PIL import Image
    box = page.locator("#screen").bounding_box()
    dpr = page.evaluate("devicePixelRatio")
    with Image.open(io.BytesIO(page.screenshot(scale="device", animations="disabled"))) as im:
        full = im.convert("RGB")
    with Image.open(io.BytesIO(canvas_png(page))) as im:
        cv = im.convert("RGB")
    want = cv.tobytes()
    x0, y0 = round(box["x"] * dpr), round(box["y"] * dpr)
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            x, y = x0 + dx, y0 + dy
            if full.crop((x, y, x + cv.width, y + cv.height)).tobytes() == want:
                return
    raise AssertionError(f"the canvas ({cv.size}) is not painted 1:1 near ({x0}, {y0}) at pixel ratio {dpr}")


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_the_phone_boots_to_the_devices_home_screen(site, tmp_path, phone):
    with chromium(**PHONES[phone], is_mobile=True, has_touch=True) as ctx:
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        twin = Twin(tmp_path / "flash")
        assert frame(page) == twin.ram()
        _canvas_is_the_screenshot(page, twin.ram())
        _painted_is_the_canvas(page)
        shot(page, f"home-{phone}")


def test_a_classic_game_by_taps_is_the_simulators_screen_for_screen(site, tmp_path):
    with chromium() as ctx:
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        twin = Twin(tmp_path / "flash")
        for i, key in enumerate(TOUR):
            press(page, key)
            twin.press(key)
            assert frame(page) == twin.ram(), f"press {i + 1} ({key}): the phone's screen is not the simulator's"
            # (each press: the page draws only the panel's pages that changed)
            _canvas_is_the_screenshot(page, twin.ram())
        shot(page, "classic-game-over")


def test_a_reload_mid_hand_reopens_on_the_same_screen_and_plays_on(site, tmp_path):
    with chromium() as ctx:
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        twin = Twin(tmp_path / "flash")
        for key in TOUR[:10]:
            press(page, key)
            twin.press(key)
        page.reload()
        booted(page)
        # The device as a Pico powered on again on the same flash: the same
        # screen, its cursor where a power-on puts it.
        twin = Twin(tmp_path / "flash")
        assert frame(page) == twin.ram(), "the reloaded page is not on the screen it left"
        for i, key in enumerate(TOUR[10:], 11):
            press(page, key)
            twin.press(key)
            assert frame(page) == twin.ram(), f"press {i} ({key}) after the reload"
