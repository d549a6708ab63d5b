"""``bower web build`` and ``bower web serve``: Bower on a phone (the site: :mod:`bower_host.web`).

::

    bower web build -o site       # a static site: any static HTTPS host serves it
    bower web serve               # the same, built and served on http://localhost:8000/
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bower_host import argtypes as at
from bower_host.errors import CommandError
from bower_host.web import app, lan_address, write_site


def cmd_build(args: argparse.Namespace) -> int:
    target = write_site(args.output)
    print(f"wrote the web build to {target}: serve that directory over HTTPS (or try it with `bower web serve`)",
          file=sys.stderr)
    return 0


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
        lan = lan_address() if args.host in ("0.0.0.0", "::") else None
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
