"""``bower web build`` and ``bower web serve``: Bower on a phone (issue 33).

::

    bower web build -o site       # a static site: any static HTTPS host serves it
    bower web serve               # the same, built and served on http://localhost:8000/

What the site is and how it is made: :mod:`.build`. Service workers (the
offline start, installing the app) need a secure context: HTTPS, or
localhost. Over plain HTTP on a LAN the device plays and keeps its games
all the same, and the page says so.
"""

from __future__ import annotations

import argparse
import mimetypes
import sys
import tempfile
from pathlib import Path

from bower_host import argtypes as at
from bower_host import outputs
from bower_host.errors import CommandError

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


def cmd_build(args: argparse.Namespace) -> int:
    target = write_site(args.output)
    print(f"wrote the web build to {target}: serve that directory over HTTPS (or try it with `bower web serve`)",
          file=sys.stderr)
    return 0


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


def cmd_serve(args: argparse.Namespace) -> int:
    from bower_host.serving import ServeError, listen, run, shown_host
    import uvicorn

    with tempfile.TemporaryDirectory(prefix="bower-web-") as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp) / "site"
        if not args.dir:
            write_site(str(folder))
        else:
            _check_build(folder)
        try:
            sock = listen(args.host, args.port)
        except ServeError as e:
            raise CommandError(str(e)) from None
        port = sock.getsockname()[1]
        shown = "localhost" if args.host == "127.0.0.1" else shown_host(args.host)   # (a secure context too)
        print(f"Bower on a phone: http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
        lan = _lan_address() if args.host in ("0.0.0.0", "::") else None
        if lan:
            print(f"From a phone on this network: http://{lan}:{port}/", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print("Over plain HTTP from another machine, Bower plays and keeps its games, but starting offline "
                  "and installing need HTTPS: serve the build (bower web build) from an HTTPS host for that.",
                  flush=True)
        return run(uvicorn.Server(uvicorn.Config(app(folder), log_level="warning", access_log=False)), sock)


def _check_build(folder: Path) -> None:
    # A directory `bower web build` wrote: every file the page and its service worker fetch.
    from bower_host.web.build import SHELL
    if not folder.is_dir():
        raise CommandError(f"{folder} is not a directory: make a web build with bower web build -o DIR")
    missing = [n for n in ("version.json", "sw.js", *SHELL) if not (folder / n).is_file()]
    if missing:
        raise CommandError(f"{folder} holds no web build (no {missing[0]}): make one with bower web build -o {folder}")


def _lan_address() -> str | None:
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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("web", help="Bower on a phone: the device as a static web site",
                       description="The device's very firmware in a browser, offline and installable. "
                                   "See \"Bower on a phone\" in docs/TOUR.md.")
    ws = p.add_subparsers(dest="web_command", required=True)
    q = ws.add_parser("build", help="write the site to a directory (any static HTTPS host serves it)")
    q.add_argument("-o", "--output", metavar="DIR", required=True, help="the directory to write it in")
    q.set_defaults(func=cmd_build)
    q = ws.add_parser("serve", help="build the site and serve it here, to try it")
    q.add_argument("--dir", metavar="DIR", help="serve this build instead of a new one")
    q.add_argument("--port", type=at.whole(1, 65535, "port"), default=8000, help="TCP port (default 8000)")
    q.add_argument("--host", default="127.0.0.1", type=at.text(253, "--host"),
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for the room's network)")
    q.set_defaults(func=cmd_serve)
