"""``bower league push --to URL``: a club's nights sent to a league server.

A push is idempotent (the server stores a night once, by its digest), so
anything short of an answer -- a refused connection, a timeout, a reply
lost on the way, a 503 while the league's database restarts -- is tried
again, with waits growing to 5 s, until ``timeout`` seconds have gone. A
4xx is the league's refusal, said in one line, and is not tried again.
"""

from __future__ import annotations

import http.client
import json
import ssl
import time
from urllib.parse import urlsplit

from bower_host.league import summary as su

#: Nights per request (a night of 30 tables is about 13 KB).
BATCH = 50
_WAITS = (0.2, 0.5, 1.0, 2.0, 5.0)


class PushError(Exception):
    """The push did not get through; the message says why, in one line."""


def _target(url: str) -> tuple:
    u = urlsplit(url)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise PushError(f"--to {url!r}: give the league server's address, such as http://league.example:8090/")
    try:
        port = u.port
    except ValueError:
        raise PushError(f"--to {url!r}: the port is not a number from 1 to 65535") from None
    return u.scheme, u.hostname, port, u.path.rstrip("/") + "/api/push"


def _post(scheme: str, host: str, port, path: str, body: bytes, token: str, timeout: float,
          context: ssl.SSLContext | None) -> tuple:
    if scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(host, port, timeout=timeout, context=context)
    else:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("POST", path, body, {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        r = conn.getresponse()
        raw = r.read(1 << 20)
        n = r.getheader("Content-Length") or ""
        if n.isdigit() and len(raw) < min(int(n), 1 << 20):
            # (a server killed while it answered: read(amt) returns what came
            # and raises nothing; this is no answer, so the push is sent again)
            raise http.client.IncompleteRead(raw, int(n) - len(raw))
        return r.status, r.getheader("Retry-After"), raw
    finally:
        conn.close()


def push(url: str, token: str, nights: list, timeout: float = 60.0, cafile: str | None = None,
         clock=time.monotonic, sleep=time.sleep) -> list:
    """Send ``nights`` (summaries); returns ``[(key, outcome, version)]``.
    ``cafile``: the certificate (PEM) an https server's is checked against,
    beside the system's (a league's own certificate authority).

    :raises PushError: refused by the league, or no answer within ``timeout``.
    """
    scheme, host, port, path = _target(url)
    context = None
    if scheme == "https":
        try:
            context = ssl.create_default_context(cafile=cafile)
        except (OSError, ssl.SSLError) as e:
            raise PushError(f"--cafile {cafile}: not a certificate file ({' '.join(str(e).split())[:80]})") from None
    out: list = []
    deadline = clock() + timeout
    for i in range(0, len(nights), BATCH):
        body = su.payload(nights[i:i + BATCH])
        tries = 0
        why = "no attempt finished"
        while True:
            left = deadline - clock()
            if left <= 0:
                raise PushError(f"no answer from the league server {url} within {timeout:g} s ({why}); "
                                f"{len(out)} of {len(nights)} nights are stored: push again, nothing is stored twice")
            try:
                status, retry, raw = _post(scheme, host, port, path, body, token, min(left, 30.0), context)
            except ssl.SSLCertVerificationError as e:
                raise PushError(f"the league server {url} is not who it says (its certificate: "
                                f"{e.verify_message or e.reason}): give --cafile with the league's own authority"
                                ) from None
            except (OSError, http.client.HTTPException) as e:
                why = " ".join(str(e).split())[:100] or type(e).__name__
            else:
                if status == 200:
                    try:
                        got = json.loads(raw)
                        out += [(n["key"], n["outcome"], n["version"]) for n in got["nights"]]
                    except (ValueError, KeyError, TypeError):
                        raise PushError(f"{url} answered, but not as a league server does (is it one?)") from None
                    break
                try:
                    said = json.loads(raw).get("error") or ""
                except (ValueError, AttributeError):
                    said = ""
                said = " ".join(str(said).split())[:300] or f"HTTP {status}"
                if status in (401, 403):
                    raise PushError(f"the league refused the club's token: {said}")
                if 400 <= status < 500 and status not in (408, 429):
                    raise PushError(f"the league refused the push: {said}")
                why = said
                if retry and retry.isdigit():
                    sleep(min(float(retry), max(deadline - clock(), 0)))
                    continue
            sleep(min(_WAITS[min(tries, len(_WAITS) - 1)], max(deadline - clock(), 0)))
            tries += 1
    return out
