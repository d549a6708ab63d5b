"""The phone build under test: the site built once, served by uvicorn on
loopback, and Debian's Chromium driven by Playwright at a phone's size with
touch (issue 33). No browser is downloaded: Playwright launches
``/usr/bin/chromium`` (``executable_path``); without it a test is skipped on
a developer's machine and fails under CI (.ci/run installs it).

::

    with serving(site) as url, phone(browser) as page:
        page.goto(url)
        booted(page)
        press(page, "ok")              # a real touch: touchStart, 60 ms, touchEnd
        frame(page)                    # the panel's display RAM, 1,024 bytes
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
#: As the club page's tests start it: headless, and none of Chromium's own
#: network traffic (this machine's network is closed).
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONES = {"390x844@3": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3},
          "412x915@2.625": {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2.625}}
KEYS = {"up": 0, "down": 1, "ok": 2, "back": 3}
OUT = Path(__file__).resolve().parents[2] / "build" / "test-output" / "phone"


def need_chromium():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs it (apt-get install -y chromium)", pytrace=False)
        pytest.skip("no chromium (apt-get install -y chromium; .ci/run does)")


def build_site(folder: Path) -> Path:
    from bower_host.web import write_site
    write_site(str(folder))
    return folder


@contextmanager
def running(srv):
    """Run a uvicorn ``Server`` (port 0: a free one) in a thread; yields its
    base URL (``http://127.0.0.1:N``), and stops it on leaving."""
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    deadline = time.time() + 10
    while not srv.started and time.time() < deadline:
        time.sleep(0.02)
    try:
        yield "http://127.0.0.1:%d" % srv.servers[0].sockets[0].getsockname()[1]
    finally:
        srv.should_exit = True
        th.join(5)


@contextmanager
def serving(folder: Path, sent: list | None = None):
    """Serve ``folder`` (``bower web serve``'s app) on a free loopback port;
    yields its base URL (``http://127.0.0.1:N/``). With ``sent``, each
    response's path and the body bytes sent (gzipped as sent) are appended
    to it."""
    import uvicorn

    from bower_host.web import app
    inner = app(folder)

    async def counted(scope, receive, send):
        n = [0]

        async def out(message):
            if message["type"] == "http.response.body":
                n[0] += len(message.get("body", b""))
            await send(message)
        await inner(scope, receive, out)
        sent.append((scope.get("path"), n[0]))    # pyright: ignore[reportOptionalMemberAccess]

    srv = uvicorn.Server(uvicorn.Config(inner if sent is None else counted, host="127.0.0.1", port=0,
                                        log_level="warning", access_log=False))
    with running(srv) as url:
        yield url + "/"


@contextmanager
def chromium(user_data_dir: Path | None = None, args: tuple[str, ...] = (), **context):
    """Playwright's Chromium (Debian's); with ``user_data_dir`` a persistent
    profile (its IndexedDB and service worker kept on disk); ``args`` more
    command-line switches. Yields the context."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        opts = dict(PHONES["390x844@3"], is_mobile=True, has_touch=True)
        opts.update(context)
        if user_data_dir is not None:
            ctx = p.chromium.launch_persistent_context(str(user_data_dir), executable_path=CHROMIUM,
                                                       args=[*ARGS, *args], **opts)
            try:
                yield ctx
            finally:
                ctx.close()
        else:
            b = p.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, *args])
            try:
                ctx = b.new_context(**opts)
                yield ctx
            finally:
                b.close()


def booted(page, timeout: float = 30):
    """Wait until the device has drawn its first screen and is idle."""
    page.wait_for_function("window.bower !== undefined && window.bower.settled && window.bower.settled()",
                           timeout=timeout * 1000)


def settle(page, timeout: float = 10):
    page.wait_for_timeout(30)
    page.wait_for_function("window.bower.settled()", timeout=timeout * 1000)


def press(page, key: str, hold_ms: int = 0):
    """A finger on ``key``'s button, through the DevTools protocol's touch
    input (Chromium's own touch events), then idle. A tap (``hold_ms`` 0)
    lifts as soon as the landing is delivered: the two messages' round
    trips alone are the tap's length, which on a loaded machine reached a
    third of a second (UP and DOWN repeat from 400 ms, BACK undoes from
    600), so no wait is added to them; a hold waits ``hold_ms`` between."""
    finger = touch_start(page, key)
    try:
        if hold_ms:
            page.wait_for_timeout(hold_ms)
        touch_end(finger)
    finally:
        finger.detach()
    settle(page)


def frame(page) -> bytes:
    """The panel's display RAM as the page has it (what the canvas shows)."""
    return bytes(page.evaluate("Array.from(window.bower.mp.FS.readFile('/frame'))"))


def canvas_png(page) -> bytes:
    """The canvas's own pixels (its backing store), as a PNG."""
    import base64
    url = page.evaluate("document.getElementById('screen').toDataURL('image/png')")
    return base64.b64decode(url.split(",", 1)[1])


def shot(page, name: str) -> Path:
    """A screenshot of the page kept in build/test-output/phone/ (to look at)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path))
    return path


class Killable:
    """Debian's Chromium on a persistent profile, started by hand so that a
    test can kill it as a phone's OS does (SIGKILL to its whole process
    group, nothing flushed or closed) and start it again on the same
    profile: its IndexedDB, service worker and caches as they are on disk.
    Playwright attaches over the DevTools protocol; the page is emulated at
    ``phone``'s size with touch (a CDP session of its own, kept open).

    ::

        with killable(tmp_path / "profile") as k:
            page = k.start(url)        # booted
            k.kill()
            page = k.start(url)        # the same profile again
    """

    def __init__(self, pw, profile: Path, phone: str = "390x844@3"):
        self.pw = pw
        self.profile = profile
        self.phone = PHONES[phone]
        self.proc = None
        self.browser = None
        self._emulation = None

    def launch(self):
        """Start Chromium on the profile and attach; returns its page (about:blank)."""
        import subprocess

        self.profile.mkdir(parents=True, exist_ok=True)
        port_file = self.profile / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)
        self.proc = subprocess.Popen([str(CHROMIUM), *ARGS, "--remote-debugging-port=0",
                                      f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        deadline = time.time() + 20
        while not (port_file.exists() and port_file.read_text().strip()):
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"chromium did not start (status {self.proc.poll()})")
            time.sleep(0.01)
        port = port_file.read_text().split()[0]
        self.browser = self.pw.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        ctx = self.browser.contexts[0]
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        vp = self.phone["viewport"]
        cdp.send("Emulation.setDeviceMetricsOverride", {"width": vp["width"], "height": vp["height"],
                                                        "deviceScaleFactor": self.phone["device_scale_factor"],
                                                        "mobile": True})
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        self._emulation = cdp
        return page

    def start(self, url: str, timeout: float = 30):
        """Start Chromium and open ``url`` in it; returns the page once the device is booted."""
        page = self.launch()
        page.goto(url)
        booted(page, timeout)
        return page

    def kill(self):
        """SIGKILL to the browser's whole process group, as an OS ends an app."""
        import signal

        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.proc = None
        try:
            self.browser.close()
        except Exception:   # (the connection died with the browser, as it should)
            pass
        self.browser = self._emulation = None


@contextmanager
def killable(profile: Path, phone: str = "390x844@3"):
    """A :class:`Killable` browser on ``profile``; killed at the end if still running."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        k = Killable(p, profile, phone)
        try:
            yield k
        finally:
            k.kill()


def touch_start(page, key: str):
    """A finger down on ``key``'s button, returning at once (the first half
    of :func:`press`); ``touch_end`` on what it returns lifts it."""
    box = page.locator(f"#{key}").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    return cdp


def touch_end(cdp):
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
