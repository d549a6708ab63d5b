"""``/events`` of ``bower club serve``: the library changed, as server-sent events.

One watcher task per app (started by the first stream) reads the library's
version (``Board.version``: the header's change counter, mtime, size) every
``every`` seconds; when it moved, every open stream gets ``data: N`` (N
counts the changes seen), and the pages fetch ``board.json`` at once.
Without a change a stream gets a comment (``: keep-alive``) every
``keepalive`` seconds, so idle connections are not dropped along the way.

A stream also gets ``data: N`` as it opens: the page was rendered before the
stream existed, and a result stored in between would otherwise wait for the
next one. At most ``limit`` streams are open at once; beyond, 503 and one
line (the page polls instead). A stream ends when its client goes (Starlette
cancels it on the disconnect) or when the server stops (``stopping``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

LIMIT = 500
EVERY = 0.25
KEEPALIVE = 15.0


class Events:
    """The change feed of one app: one watcher, any number of streams (to ``limit``)."""

    def __init__(self, version: Callable[[], tuple], limit: int = LIMIT, every: float = EVERY,
                 keepalive: float = KEEPALIVE):
        self.version = version
        self.limit, self.every, self.keepalive = limit, every, keepalive
        self.stopping: Callable[[], bool] = lambda: False    # the server's should_exit, once it has one
        self.changes = 0
        self.streams = 0
        self.closed = False
        self._tick: asyncio.Event | None = None
        self._task: asyncio.Task | None = None

    def _start(self) -> asyncio.Event:
        if self._tick is None:
            self._tick = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._watch())
        return self._tick

    def _wake(self) -> None:
        # Every stream waits on the current event: set it and hand out a new one.
        tick, self._tick = self._tick, asyncio.Event()
        if tick is not None:
            tick.set()

    async def _watch(self) -> None:
        last = self.version()
        while not self.stopping():
            await asyncio.sleep(self.every)
            v = self.version()
            if v != last:
                last = v
                self.changes += 1
                self._wake()
        self.closed = True
        self._wake()

    def open(self):
        """An async iterator of the stream's bytes, or None when ``limit``
        streams are open already."""
        if self.streams >= self.limit or self.closed:
            return None
        self._start()
        self.streams += 1
        return self._stream()

    async def _stream(self):
        seen = self.changes
        yield f"retry: 2000\ndata: {seen}\n\n".encode()
        while not self.closed:
            tick = self._start()
            if self.changes == seen:
                try:
                    await asyncio.wait_for(tick.wait(), self.keepalive)
                except asyncio.TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
            if self.closed:
                break
            seen = self.changes
            yield f"data: {seen}\n\n".encode()


def route(events: Events):
    """The ``/events`` endpoint over ``events``."""
    from starlette.responses import PlainTextResponse, StreamingResponse

    class Stream(StreamingResponse):
        async def __call__(self, scope, receive, send):
            # The stream counts from open() until its response is over, however
            # it ends (even before its first byte).
            try:
                await super().__call__(scope, receive, send)
            finally:
                events.streams -= 1

    async def endpoint(request):
        stream = events.open()
        if stream is None:
            why = "the server is stopping" if events.closed else f"{events.limit} live pages are open already"
            return PlainTextResponse(f"{why}: this page reloads by itself instead\n", status_code=503,
                                     headers={"Cache-Control": "no-store", "Retry-After": "30"})
        return Stream(stream, media_type="text/event-stream",
                      headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    return endpoint
