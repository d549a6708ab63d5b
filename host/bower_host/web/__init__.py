"""Bower on a phone: the site (written by :func:`write_site`, served by :func:`app`).

What the site is and how it is made: :mod:`.build`; the commands ``bower
web build`` and ``bower web serve``: :mod:`bower_host.commands.web`.
Service workers (the offline start, installing the app) need a secure
context: HTTPS, or localhost. Over plain HTTP on a LAN the device plays and keeps its games
all the same, and the page says so.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from bower_host import outputs

#: Types a static host must give these files (Python's table lacks some).
TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".webmanifest": "application/manifest+json"}


def write_site(folder: str) -> Path:
    """Build the site into ``folder`` (made if need be, refused if it is a
    library's side folder or not a directory), each file written whole."""
    from bower_host.web.build import build
    target = outputs.check_output_dir(folder, library=None)
    files = build()
    if Path(folder).is_dir():
        for name in files:          # every one checked before any is written
            outputs.check_output(Path(folder) / name, library=None)
    outputs.make_output_dir(folder, library=None)
    for name, data in files.items():
        outputs.write_output(Path(folder) / name, data, library=None)
    return target


def app(folder: Path):
    """The ASGI app serving ``folder``: every file with its type, gzipped
    for a browser that takes it (as static hosts serve); ``sw.js`` and the
    page never cached by the browser's HTTP cache (the service worker
    decides), the rest for a day; a name it does not hold, 404."""
    from starlette.exceptions import HTTPException
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.responses import PlainTextResponse
    from starlette.staticfiles import StaticFiles

    for ext, kind in TYPES.items():
        mimetypes.add_type(kind, ext)

    files = StaticFiles(directory=str(folder), html=True)

    async def serve(scope, receive, send):
        async def headers(message):
            if message["type"] == "http.response.start":
                path = scope.get("path", "/")
                keep = "no-cache" if path.endswith(("/", ".html", "sw.js", "version.json")) else "max-age=86400"
                message.setdefault("headers", [])
                message["headers"] = [h for h in message["headers"] if h[0].lower() != b"cache-control"]
                message["headers"].append((b"cache-control", keep.encode()))
            await send(message)
        try:
            await files(scope, receive, headers)
        except HTTPException as e:      # (no such file: StaticFiles raises it, outside any app to answer it)
            await PlainTextResponse(e.detail, status_code=e.status_code)(scope, receive, headers)
    return GZipMiddleware(serve, minimum_size=512)


def lan_address() -> str | None:
    # This computer's address on its network, as a phone there reaches it:
    # the one a datagram to another network would leave from (none is sent).
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") or addr == "0.0.0.0" else addr
