"""The page laid out at a landscape phone's and a tablet's sizes (issue 33),
in a real Chromium: nothing off the page and nothing to scroll, the four
keys large, apart and each the element a finger at its centre touches (a
real touch there works), and the screen as large as fits: one whole OLED
pixel larger and it would not fit beside or above the keys."""

from __future__ import annotations

import pytest

from webphone import booted, chromium, frame, press, shot

SIZES = {"landscape phone 844x390": ({"width": 844, "height": 390}, 3),
         "tablet 820x1180": ({"width": 820, "height": 1180}, 2),
         "tablet landscape 1180x820": ({"width": 1180, "height": 820}, 2),
         "phone 390x844": ({"width": 390, "height": 844}, 3)}
KEYS = ("up", "down", "back", "ok")
PAD, GAP, BESIDE_GAP = 12, 12, 24      # style.css: #device's padding and gaps

BOXES = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
                          return {x: r.left, y: r.top, w: r.width, h: r.height}; };
    const out = {vw: document.documentElement.clientWidth, vh: document.documentElement.clientHeight,
                 sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
                 scale: Math.floor(document.getElementById("screen").width / 128), dpr: devicePixelRatio, at: {}};
    for (const id of ["bezel", "screen", "status", "note", "keys", "up", "down", "back", "ok"])
        out[id] = box(document.getElementById(id));
    for (const k of ["up", "down", "back", "ok"]) {
        const b = out[k];
        out.at[k] = document.elementFromPoint(b.x + b.w / 2, b.y + b.h / 2)?.id ?? null;
    }
    return out;
}"""


def _overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


@pytest.mark.parametrize("name", list(SIZES))
def test_the_page_fits_with_the_keys_in_reach_and_the_screen_as_large_as_fits(site, name):
    viewport, dpr = SIZES[name]
    with chromium(viewport=viewport, device_scale_factor=dpr) as ctx:
        page = ctx.new_page()
        page.goto(site)
        booted(page)
        b = page.evaluate(BOXES)
        shot(page, "layout-" + name.split()[-1])
        vw, vh = b["vw"], b["vh"]
        assert b["sw"] <= vw and b["sh"] <= vh, f"{name}: the page scrolls ({b['sw']}x{b['sh']})"
        for el in ("bezel", "note", *KEYS):
            r = b[el]
            assert r["x"] >= 0 and r["y"] >= 0 and r["x"] + r["w"] <= vw and r["y"] + r["h"] <= vh, (name, el, r)
        for k in KEYS:
            assert b[k]["w"] >= 64 and b[k]["h"] >= 56, (name, k, b[k])
            assert b["at"][k] == k, f"{name}: a finger on {k}'s centre touches {b['at'][k]}"
            assert not _overlap(b[k], b["bezel"]), (name, k)
            for other in KEYS:
                assert other == k or not _overlap(b[k], b[other]), (name, k, other)
        # As large as fits: the room the layout leaves the bezel, against
        # the screen one whole OLED pixel per pixel larger.
        beside = b["keys"]["y"] < b["bezel"]["y"] + b["bezel"]["h"]
        if beside:
            free_w = vw - 2 * PAD - BESIDE_GAP - b["keys"]["w"]
            free_h = vh - 2 * PAD - GAP - max(b["status"]["h"], b["note"]["h"])
        else:
            free_w = vw - 2 * PAD
            free_h = vh - 2 * PAD - 3 * GAP - b["status"]["h"] - b["keys"]["h"] - b["note"]["h"]
        assert b["bezel"]["w"] <= free_w + 1 and b["bezel"]["h"] <= free_h + 1, (name, b["bezel"], free_w, free_h)
        one_more = (b["scale"] + 1) / b["dpr"]
        frame_w = b["bezel"]["w"] - b["screen"]["w"]
        assert 128 * one_more + frame_w > free_w or 64 * one_more + frame_w > free_h, \
            f"{name}: the screen at {b['scale']} device pixels a pixel would fit at {b['scale'] + 1}"
        # A real touch on OK at this size: the home screen's row opens.
        before = frame(page)
        press(page, "ok")
        assert frame(page) != before, f"{name}: a touch on OK did nothing"
