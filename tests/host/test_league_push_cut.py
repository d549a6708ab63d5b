"""A league server killed while it answers a push (the failure
test_league_server.py's SIGKILL found under load): the 200's headers and
part of its body reach the club, then the connection closes. That is no
answer, so the push is sent again (the league stores a night once, by its
digest), not "not a league server". A real socket server here answers the
first push so, the second in full.
"""

from __future__ import annotations

import json
import socket
import threading

from bower_host.league import client


def _server(replies: list[bytes]):
    # Answers each connection with the next of ``replies`` (then closes it); returns (url, the requests).
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    got: list = []

    def serve():
        for reply in replies:
            c, _ = s.accept()
            with c:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += c.recv(65536)
                head, body = data.split(b"\r\n\r\n", 1)
                n = int(next(ln.split(b":")[1] for ln in head.split(b"\r\n")
                             if ln.lower().startswith(b"content-length")))
                while len(body) < n:
                    body += c.recv(65536)
                got.append(body)
                c.sendall(reply)
        s.close()
    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{s.getsockname()[1]}/api/push", got


def _reply(body: bytes, cut: int | None = None) -> bytes:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    return head + (body if cut is None else body[:cut])


def test_a_reply_cut_short_is_no_answer_and_the_push_goes_again(monkeypatch):
    nights = [{"key": "fri-1"}]
    monkeypatch.setattr(client.su, "payload", lambda ns: json.dumps({"nights": ns}).encode())
    monkeypatch.setattr(client, "_WAITS", (0.01,))
    ok = json.dumps({"nights": [{"key": "fri-1", "outcome": "new", "version": 1}]}).encode()
    url, got = _server([_reply(ok, cut=10), _reply(ok)])
    assert client.push(url, "t0ken", nights, timeout=10) == [("fri-1", "new", 1)]
    assert len(got) == 2 and got[0] == got[1]          # the same push, sent again


def test_a_whole_reply_that_is_no_league_s_is_still_refused(monkeypatch):
    monkeypatch.setattr(client.su, "payload", lambda ns: b"{}")
    url, _ = _server([_reply(b"<html>hello</html>")])
    try:
        client.push(url, "t0ken", [{"key": "fri-1"}], timeout=10)
    except client.PushError as e:
        assert "not as a league server does" in str(e)
    else:
        raise AssertionError("a page that is no league's was taken")
