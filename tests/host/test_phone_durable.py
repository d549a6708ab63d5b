"""Bower on a phone (issue 33): the browser killed at any moment loses at
most the input in flight.

Chromium runs on a persistent profile (its IndexedDB on disk) and is killed
as a phone's OS kills an app: SIGKILL to its whole process group, after a
press, or in the middle of one (right after the finger lands, right after
it lifts, a moment later before the page settles). Started again on the
same profile, the page must show what ``bower sim``'s device (the twin)
shows when powered on again on a flash holding the same inputs: all of
them, or (for a press in flight) all but that press. Then the game plays on
to its end, screen for screen, through more kills.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from test_phone import TOUR, Twin
from webphone import OUT, frame, killable, press, shot, touch_end, touch_start

# A Five-Handed game to 10 (full entry): B goes alone and takes all five
# tricks three times (4 points each), ordering up first, then as dealer and
# as the fourth to bid after three passes on BACK's edge.
FIVE = (["ok", "down", "ok", "ok", "ok", "down", "ok"]
        + ["ok", "ok", "up", "ok", "down", "down", "ok", "ok"]
        + ["ok", "back", "back", "back", "back", "ok", "up", "ok", "down", "down", "ok", "ok"]
        + ["ok", "back", "back", "back", "ok", "up", "ok", "down", "down", "ok"])

#: Where a kill comes: after a press (settled), or in it: right after the
#: touch starts, right after it ends, or up to 40 ms after it ends.
KINDS = ("after", "down", "up", "late")
#: Kills per game: a seeded sample of its presses (a restart costs about a
#: second); BOWER_PHONE_KILLS=99 kills at every press of both games.
KILLS = int(os.environ.get("BOWER_PHONE_KILLS", "10"))


def _logs(flash: Path) -> dict[str, list[bytes]]:
    # The inputs a flash holds: every game's log's lines after its header
    # (which holds the device's id and the time the game started).
    return {p.relative_to(flash).as_posix(): p.read_bytes().split(b"\n")[1:] for p in sorted(flash.rglob("*.log"))}


def _page_logs(page) -> dict[str, list[bytes]]:
    # The same of the flash the page's device has (MicroPython's filesystem,
    # as restored from IndexedDB).
    logs = page.evaluate("""() => {
        const FS = window.bower.mp.FS, out = {};
        const walk = (d) => { for (const n of FS.readdir(d)) {
            if (n === "." || n === "..") continue;
            const p = d + "/" + n;
            if (FS.isDir(FS.stat(p).mode)) walk(p);
            else if (p.endsWith(".log")) out[p.slice(7)] = Array.from(FS.readFile(p));
        } };
        walk("/flash");
        return out;
    }""")
    return {p: bytes(v).split(b"\n")[1:] for p, v in sorted(logs.items())}


def _both(page: bytes, twin: bytes, name: str) -> str:
    # The two screens as text, one above the other, kept in build/test-output/phone/.
    from bower_host.screen import halfblocks
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.txt"
    path.write_text("the page\n" + halfblocks(page) + "\nthe twin\n" + halfblocks(twin) + "\n")
    return f"both in {path}"


def _tails(page: dict, kept: dict, lost: dict) -> str:
    # The last three inputs of each log: the page's, the twin's with the
    # press kept, and without it.
    def tail(logs):
        return {p: [line.decode(errors="replace") for line in v[-4:]] for p, v in logs.items()}
    return f"page {tail(page)}; kept {tail(kept)}; lost {tail(lost)}"


class Course:
    """The twin playing ``tour`` beside the phone, with what it showed and
    kept after each press (to find where a restarted game goes on)."""

    def __init__(self, tmp: Path, tour: list[str]):
        self.tmp = tmp
        self.tour = tour
        self.dirs = 0
        self.flash = self.copy(None)
        self.twin = Twin(self.flash)
        self.seen = [(self.twin.ram(), {})]     # after 0, 1, ... presses of the tour

    def copy(self, flash: Path | None) -> Path:
        self.dirs += 1
        d = self.tmp / f"flash{self.dirs}"
        if flash is not None:
            shutil.copytree(flash, d)
        return d

    def press(self, i: int):
        self.twin.press(self.tour[i])
        del self.seen[i + 1:]
        self.seen.append((self.twin.ram(), _logs(self.flash)))

    def power_on(self, flash: Path) -> tuple[bytes, int]:
        """The twin powered on again on (a copy of) ``flash``: its screen,
        and the press of the tour the game goes on from: the last one that
        showed this screen with these inputs kept (a power-on forgets
        cursors and menus opened, and shows a hand's result again until it
        was acknowledged). -1: none."""
        self.flash = self.copy(flash)
        self.twin = Twin(self.flash)
        ram, logs = self.twin.ram(), _logs(self.flash)
        for r in range(len(self.seen) - 1, -1, -1):
            if self.seen[r] == (ram, logs):
                return ram, r
        return ram, -1


def _play_killing(k, url, tmp: Path, tour: list[str], kills: dict[int, str]):
    # Plays ``tour`` on the phone beside the twin, killing the browser at
    # press i as kills[i] says; returns the page at the end and the restarts.
    course = Course(tmp, tour)
    page = k.start(url)
    assert frame(page) == course.twin.ram(), "the first start is not the device's home screen"
    i = 0
    restarts = 0
    while i < len(tour):
        key, kind = tour[i], kills.pop(i, None)
        if kind is None or kind == "after":
            press(page, key)
        else:
            finger = touch_start(page, key)
            if kind != "down":
                touch_end(finger)       # (at once: see webphone.press)
                if kind == "late":
                    page.wait_for_timeout(random.Random(i).randrange(0, 40))
        before = course.copy(course.flash)
        course.press(i)
        if kind is None:
            assert frame(page) == course.twin.ram(), f"press {i + 1} ({key}): not the simulator's screen"
            i += 1
            continue
        after = course.flash
        k.kill()
        page = k.start(url)
        restarts += 1
        # Every input kept; for a press in flight, that one may be lost.
        shown, kept = frame(page), _page_logs(page)
        for flash in [after] if kind == "after" else [after, before]:
            if _logs(flash) != kept:
                continue
            ram, r = course.power_on(flash)
            assert ram == shown, f"killed {kind} press {i + 1} ({key}): the page started again is not on the " \
                                 f"screen the twin shows powered on with the same inputs kept " \
                                 f"({_both(shown, ram, f'killed-{kind}-{i + 1}')})"
            break
        else:
            raise AssertionError(f"killed {kind} press {i + 1} ({key}): the page started again keeps other "
                                 f"inputs than the twin with that press kept{'' if kind == 'after' else ' or lost'}"
                                 f": {_tails(kept, _logs(after), _logs(before))}")
        assert r >= 0, f"killed {kind} press {i + 1} ({key}): the twin powered on is on no screen of the game"
        i = r
    return page, course, restarts


def _kills(n: int, count: int, seed: int) -> dict[int, str]:
    # ``count`` of the ``n`` presses drawn (seeded), each with a kind of
    # kill, every kind as often as the others.
    rng = random.Random(seed)
    at = rng.sample(range(n), min(n, count))
    return {i: KINDS[j % len(KINDS)] for j, i in enumerate(at)}


@pytest.mark.parametrize("name, tour", [("classic", TOUR), ("five", FIVE)])
def test_killed_at_any_moment_the_phone_reopens_on_the_same_screen_and_plays_on(site, tmp_path, name, tour):
    kills = _kills(len(tour), KILLS, 33)
    with killable(tmp_path / "profile") as k:
        page, course, restarts = _play_killing(k, site, tmp_path, tour, dict(kills))
        end = Twin(tmp_path / "whole")
        for key in tour:
            end.press(key)
        assert frame(page) == end.ram(), "the game did not play on to its end"
        assert _page_logs(page) == _logs(tmp_path / "whole"), "the game's inputs are not the twin's"
        shot(page, f"killed-{name}-end")
    assert restarts == len(kills)
