"""Serving a page on this computer: the listening socket, the address to
announce, HTTPS's files checked, and running uvicorn until Ctrl-C (``bower
club serve`` and ``bower web serve``).

::

    tls = check_tls(certfile, keyfile)              # or ServeError, in one line
    sock = listen(host, port)                       # or ServeError, in one line
    print(f"{'https' if tls else 'http'}://{shown_host(host)}:{sock.getsockname()[1]}/")
    return run(uvicorn.Server(config), sock)        # KeyboardInterrupt once stopped
"""

from __future__ import annotations

import errno
import socket


class ServeError(Exception):
    """The page cannot be served on that address and port (one line for the user)."""


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, or ServeError saying why not
    (taken before the address is announced, and handed to uvicorn)."""
    if not 0 <= port <= 65535:
        raise ServeError(f"port {port}: a port is 1 to 65535")
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e) or type(e).__name__
        raise ServeError(f"cannot serve on {host!r}: no such address on this computer ({why}); give --host "
                         "127.0.0.1 (this computer) or 0.0.0.0 (the room's network)") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        why = {errno.EADDRINUSE: "the port is in use (another bower club serve or web server?): give another "
                                 "--port, such as 8081",
               errno.EACCES: "ports below 1024 need administrator rights: give --port 8080 or another above 1023",
               errno.EADDRNOTAVAIL: "this computer has no such address: give --host 127.0.0.1 or 0.0.0.0"}
        said = why.get(e.errno or 0, e.strerror or str(e))
        raise ServeError(f"cannot serve on {host}:{port}: {said}") from None
    return sock



def check_tls(certfile: str | None, keyfile: str | None) -> bool:
    """Whether to serve HTTPS: both files given (True) or neither (False).
    :raises ServeError: only one, or they are not a readable PEM certificate
    and its own private key (without a password: uvicorn would ask for one
    on the terminal), in one line."""
    if certfile is None and keyfile is None:
        return False
    if certfile is None or keyfile is None:
        raise ServeError("--certfile and --keyfile go together: give both (the certificate and its private key, "
                         "PEM files) or neither (plain http)")
    import re
    import ssl

    from bower_host.errors import os_error
    pem = {}
    for flag, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        try:
            with open(path, "rb") as f:
                pem[flag] = f.read(1 << 20)
        except OSError as e:
            raise ServeError(f"{flag}: {os_error(e)}") from None
    if b"-----BEGIN CERTIFICATE-----" not in pem["--certfile"]:
        raise ServeError(f"--certfile {certfile}: not a PEM certificate (no -----BEGIN CERTIFICATE----- line)")
    if b"ENCRYPTED" in pem["--keyfile"]:
        raise ServeError(f"--keyfile {keyfile}: the key has a password: give it without (openssl pkey -in KEY "
                         "-out PLAIN)")
    if not re.search(rb"-----BEGIN [A-Z ]*PRIVATE KEY-----", pem["--keyfile"]):
        raise ServeError(f"--keyfile {keyfile}: not a PEM private key (no -----BEGIN PRIVATE KEY----- line)")
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(certfile, keyfile, password=lambda: b"")
    except (ssl.SSLError, ValueError) as e:
        why = "the key is not this certificate's" if getattr(e, "reason", None) == "KEY_VALUES_MISMATCH" \
            else "cannot be used together (%s)" % " ".join(str(getattr(e, "reason", None) or e).split())[:80]
        raise ServeError(f"--certfile {certfile} with --keyfile {keyfile}: {why}") from None
    return True


def shown_host(host: str) -> str:
    """``host`` as a browser on this computer writes it in a URL: every
    address (0.0.0.0, ::) as localhost, an IPv6 address in brackets."""
    return "localhost" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host


def run(server, sock: socket.socket) -> int:
    """Run a uvicorn ``Server`` on ``sock`` until it is stopped; 0, or
    KeyboardInterrupt when Ctrl-C (or SIGTERM) stopped it, whether or not
    uvicorn raised it again: the command then ends as every bower command a
    signal stops."""
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if server.should_exit:
        raise KeyboardInterrupt
    return 0


async def read_body(request, most: int, seconds: float, refuse, what: str = "a request body") -> bytes:
    """A Starlette request's body: at most ``most`` bytes (by its
    Content-Length before a byte is read, else as the chunks pass it),
    whole within ``seconds``; otherwise ``refuse(status, why)`` is raised:
    413 too big, 408 too slow (``what`` names the body in ``why``)."""
    import asyncio

    big = f"{what} is at most {most} bytes"
    n = request.headers.get("content-length")
    if n is not None and (not (n.isascii() and n.isdigit()) or int(n) > most):
        raise refuse(413, big)
    out = bytearray()

    async def read():
        async for chunk in request.stream():
            out.extend(chunk)
            if len(out) > most:
                raise refuse(413, big)
    try:
        await asyncio.wait_for(read(), seconds)
    except asyncio.TimeoutError:
        raise refuse(408, f"{what.replace('a ', 'the ', 1)} did not arrive within {seconds:g} s") from None
    return bytes(out)


def json_error(status: int, why: str, retry: int | None = None):
    """A refusal as the servers' doors answer one: ``{"error": why}`` (one
    line), never cached, with ``Retry-After`` when ``retry`` is given."""
    from starlette.responses import JSONResponse
    headers = {"Cache-Control": "no-store"}
    if retry is not None:
        headers["Retry-After"] = str(retry)
    return JSONResponse({"error": why}, status_code=status, headers=headers)
