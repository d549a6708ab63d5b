"""Headless Chromium driven over the DevTools protocol on a pipe.

``chromium --remote-debugging-pipe`` reads the protocol's JSON messages on
file descriptor 3 and writes its own on 4, each ended by a NUL byte: no
websocket and no package beyond the standard library. A test sizes the
window (``Emulation.setDeviceMetricsOverride``), runs script in the page
(``Runtime.evaluate``) and takes screenshots (``Page.captureScreenshot``)::

    with Browser(CHROMIUM, tmp / "profile") as b:
        page = b.page(390, 844, mobile=True, scale=3)
        page.goto("http://127.0.0.1:8080/")
        assert page.eval("innerWidth") == 390
        page.screenshot(tmp / "phone.png")

Used by tests/host/test_club_page.py.
"""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path


_LAUNCH = ("import os, sys; a, b = os.dup(int(sys.argv[1])), os.dup(int(sys.argv[2])); os.dup2(a, 3); "
           "os.dup2(b, 4); os.set_inheritable(3, True); os.set_inheritable(4, True); "
           "os.execv(sys.argv[3], sys.argv[3:])")


class CDPError(Exception):
    """The browser answered a command with an error, or went quiet."""


class Browser:
    """One headless Chromium; ``page()`` opens a tab."""

    def __init__(self, chromium: str, profile: Path, timeout: float = 30.0):
        self.timeout = timeout
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        # A small launcher puts the pipe's ends on 3 and 4 and becomes Chromium
        # (no preexec_fn: the test's web server runs in a thread of this process).
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCH, str(to_chrome_r), str(from_chrome_w), chromium,
             "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--no-default-browser-check", "--mute-audio", f"--user-data-dir={profile}", "--remote-debugging-pipe",
             "about:blank"],
            pass_fds=(to_chrome_r, from_chrome_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._n = 0
        self._buf = b""

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.call("Browser.close", timeout=5)
            except (CDPError, OSError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass

    def call(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float | None = None) -> dict:
        """Send one command and return its result (events in between are dropped)."""
        self._n += 1
        msg: dict = {"id": self._n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            while b"\0" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self._r], [], [], left)[0]:
                    raise CDPError(f"no answer to {method} within {timeout or self.timeout:g} s")
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise CDPError(f"the browser closed the pipe during {method}")
                self._buf += chunk
            raw, _, self._buf = self._buf.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == self._n:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def page(self, width: int, height: int, mobile: bool = False, scale: float = 1) -> Page:
        """A new tab whose viewport is ``width`` x ``height`` CSS px (``mobile``:
        a phone's viewport rules, the meta viewport honoured; ``scale``: its
        device pixel ratio)."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": scale, "mobile": mobile})
        page.call("Page.enable")
        return page


class Page:
    """One tab of a :class:`Browser`."""

    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def call(self, method: str, params: dict | None = None) -> dict:
        return self.browser.call(method, params, self.session)

    def eval(self, expression: str):
        """The value of ``expression`` in the page (a promise is awaited);
        an exception in the page raises CDPError."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CDPError(f"{d.get('text')}: {d.get('exception', {}).get('description', '')}")
        return r["result"].get("value")

    def wait(self, condition: str, timeout: float = 10.0):
        """Wait until ``condition`` (a script expression) is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                v = self.eval(condition)
            except CDPError:
                v = None          # the page is between documents
            if v:
                return v
            if time.monotonic() > deadline:
                raise CDPError(f"still not true after {timeout:g} s: {condition}")
            time.sleep(0.05)

    def goto(self, url: str, ready: str = "true", timeout: float = 10.0) -> None:
        """Load ``url``; return once it has loaded and ``ready`` is truthy."""
        self.call("Page.navigate", {"url": url})
        self.wait(f"location.href === {json.dumps(url)} && document.readyState === 'complete' && ({ready})",
                  timeout)

    def screenshot(self, path: Path) -> tuple[int, int]:
        """Save the viewport as a PNG; its size in device pixels."""
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(data)
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        return w, h
