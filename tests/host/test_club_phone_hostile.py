"""Issue 34 point 4, "Nobody writes who should not": the phones' API of a
real ``bower club serve`` (uvicorn on loopback) refuses every hostile
request with a 4xx and ``{"error": one line}``, and changes nothing: every
row of every table of the library, and every file of its raw archive, are
as they were. The night (tests/host/clubhostile.py) has two tables whose
phones joined and delivered round 1 over real HTTP; table 1's round-2 log
is the one legitimate write, done last, to show the snapshot sees one."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.club import phoneapi

from clubhostile import Night, make, one_line_error, read_reply, serve

J = "application/json"


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Night:
    return make(tmp_path_factory.mktemp("made"))


@pytest.fixture(scope="module")
def served(night, tmp_path_factory):
    with serve(night, tmp_path_factory.mktemp("served")) as s:
        yield s


def bearer(tok: str, kind: str | None = J) -> dict:
    h = {"Authorization": f"Bearer {tok}"}
    if kind:
        h["Content-Type"] = kind
    return h


def relined(raw: bytes, n: int, edit, crc: bool = True) -> bytes:
    """The log with line ``n``'s value edited (``edit(value) -> value``), its
    line CRC made again unless ``crc`` is False (a damaged line)."""
    lines = raw.split(b"\n")
    ln = lines[n]
    cut = ln.rindex(b',"')
    old = json.loads(ln[1:cut])
    payload = json.dumps(edit(old)).encode()
    tail = ('"%08x"]' % zlib.crc32(payload)).encode() if crc else ln[cut + 1:]
    lines[n] = b"[" + payload + b"," + tail
    return b"\n".join(lines)


def club(**kw):
    def edit(head):
        head = dict(head)
        head["club"] = {**head["club"], **kw}
        return head
    return edit


def log2(n: Night) -> bytes:
    return n.logs[(1, 2)][1]


def _res(n: Night, log: bytes | None = None) -> bytes:
    return n.body(1, 2, log)


# (id, request(night) -> (method, path, body, headers), status, words the line has)
CASES = [
    ("no-token", lambda n: ("POST", "/api/result", _res(n), {"Content-Type": J}), 401, "Authorization: Bearer"),
    ("malformed-token", lambda n: ("POST", "/api/result", _res(n), bearer("not a token!")), 401, "malformed"),
    ("short-token", lambda n: ("POST", "/api/result", _res(n), bearer("abc")), 401, "malformed"),
    ("unknown-token", lambda n: ("POST", "/api/result", _res(n), bearer("A" * 43)), 401, "not (or no longer) valid"),
    ("basic-auth", lambda n: ("POST", "/api/result", _res(n), {"Content-Type": J, "Authorization": "Basic "
                                                                + n.round_tok[(1, 2)]}), 401, "Bearer"),
    ("table-token-as-round-token", lambda n: ("POST", "/api/result", _res(n), bearer(n.table_tok[1])), 401,
     "not (or no longer) valid"),
    ("another-tables-token", lambda n: ("POST", "/api/result", _res(n), bearer(n.round_tok[(2, 2)])), 403,
     "writes night fri table 2 round 2"),
    ("old-rounds-token", lambda n: ("POST", "/api/result", _res(n), bearer(n.round_tok[(1, 1)])), 403,
     "writes night fri table 1 round 1"),
    ("another-tables-round-1-log", lambda n: ("POST", "/api/result", n.body(2, 1), bearer(n.round_tok[(1, 2)])),
     403, "not the log's night fri table 2 round 1"),
    ("header-names-another-table", lambda n: ("POST", "/api/result", _res(n, relined(log2(n), 0, club(table=2))),
                                              bearer(n.round_tok[(1, 2)])), 403, "log's night fri table 2 round 2"),
    ("header-names-another-round", lambda n: ("POST", "/api/result", _res(n, relined(log2(n), 0, club(round=1))),
                                              bearer(n.round_tok[(1, 2)])), 403, "log's night fri table 1 round 1"),
    ("header-names-another-night", lambda n: ("POST", "/api/result", _res(n, relined(log2(n), 0, club(night="sat"))),
                                              bearer(n.round_tok[(1, 2)])), 403, "log's night sat"),
    ("header-without-club", lambda n: ("POST", "/api/result",
                                       _res(n, relined(log2(n), 0, lambda h: {k: v for k, v in h.items()
                                                                               if k != "club"})),
                                       bearer(n.round_tok[(1, 2)])), 403, "no club object"),
    ("body-crc-wrong", lambda n: ("POST", "/api/result", json.dumps({**json.loads(_res(n)), "crc": "00000000"})
                                  .encode(), bearer(n.round_tok[(1, 2)])), 400, "does not match its CRC"),
    ("damaged-line", lambda n: ("POST", "/api/result",
                                _res(n, relined(log2(n), 3, lambda v: "tricks 4", crc=False)),
                                bearer(n.round_tok[(1, 2)])), 422, ""),
    ("gate-refuses-tricks-9", lambda n: ("POST", "/api/result", _res(n, relined(log2(n), 3, lambda v: "tricks 9")),
                                         bearer(n.round_tok[(1, 2)])), 422, ""),
    ("gate-refuses-another-device", lambda n: ("POST", "/api/result",
                                               _res(n, relined(log2(n), 0, lambda h: {**h, "device": "web-0002"})),
                                               bearer(n.round_tok[(1, 2)])), 422, ""),
    ("not-a-log", lambda n: ("POST", "/api/result", _res(n, b"hello\n"), bearer(n.round_tok[(1, 2)])), 400,
     "not a Bower log header"),
    ("log-over-max", lambda n: ("POST", "/api/result", _res(n, log2(n) + b" " * (phoneapi.ph.MAX_LOG + 1)),
                                bearer(n.round_tok[(1, 2)])), 413, "over the"),
    ("malformed-json", lambda n: ("POST", "/api/result", _res(n)[:-3], bearer(n.round_tok[(1, 2)])), 400,
     "the body is not valid JSON at line 1"),
    ("json-nested-100000-deep", lambda n: ("POST", "/api/result", b"[" * 100_000, bearer(n.round_tok[(1, 2)])), 400,
     "nested deeper than 32"),
    ("json-number-5000-digits", lambda n: ("POST", "/api/join", b'{"code": ' + b"9" * 5000 + b', "device": "x"}',
                                           {"Content-Type": J}), 400, "more than 4,300 digits"),
    ("body-not-utf8", lambda n: ("POST", "/api/result", b'{"game": "\xff"}', bearer(n.round_tok[(1, 2)])), 400,
     "not UTF-8 text (byte 0xff"),
    ("lone-surrogate-in-log", lambda n: ("POST", "/api/result", _res(n).replace(b'"log": "', b'"log": "\\ud800'),
                                         bearer(n.round_tok[(1, 2)])), 400, "half a character"),
    ("lone-surrogate-in-code", lambda n: ("POST", "/api/join", b'{"code": "\\udfff", "device": "web-9999"}',
                                          {"Content-Type": J}), 400, "half a character"),
    ("log-header-nested-deep", lambda n: ("POST", "/api/result", _res(n, b"[" * 200_000),
                                          bearer(n.round_tok[(1, 2)])), 400, "not a Bower log header"),
    ("log-line-nested-deep", lambda n: ("POST", "/api/result",
                                        _res(n, log2(n).split(b"\n")[0] + b"\n" + b"[" * 200_000 + b"\n"),
                                        bearer(n.round_tok[(1, 2)])), 422, ""),
    ("json-array", lambda n: ("POST", "/api/result", b"[1, 2]", bearer(n.round_tok[(1, 2)])), 400, "exactly"),
    ("extra-field", lambda n: ("POST", "/api/result", json.dumps({**json.loads(_res(n)), "table": 2}).encode(),
                               bearer(n.round_tok[(1, 2)])), 400, "exactly crc, game, log"),
    ("missing-field", lambda n: ("POST", "/api/result",
                                 json.dumps({k: v for k, v in json.loads(_res(n)).items() if k != "crc"}).encode(),
                                 bearer(n.round_tok[(1, 2)])), 400, "exactly"),
    ("log-a-number", lambda n: ("POST", "/api/result", json.dumps({**json.loads(_res(n)), "log": 5}).encode(),
                                bearer(n.round_tok[(1, 2)])), 400, "log must be a str"),
    ("game-a-path", lambda n: ("POST", "/api/result",
                               json.dumps({**json.loads(_res(n)), "game": "../../g0002"}).encode(),
                               bearer(n.round_tok[(1, 2)])), 400, "game id"),
    ("crc-not-hex", lambda n: ("POST", "/api/result", json.dumps({**json.loads(_res(n)), "crc": "zz"}).encode(),
                               bearer(n.round_tok[(1, 2)])), 400, "eight hex digits"),
    ("text-plain-form", lambda n: ("POST", "/api/result", _res(n), bearer(n.round_tok[(1, 2)], "text/plain")), 415,
     "application/json"),
    ("urlencoded-form", lambda n: ("POST", "/api/result", b"game=g0002&crc=0&log=x",
                                   bearer(n.round_tok[(1, 2)], "application/x-www-form-urlencoded")), 415,
     "application/json"),
    ("multipart-form", lambda n: ("POST", "/api/result", b"--x\r\n\r\n--x--",
                                  bearer(n.round_tok[(1, 2)], "multipart/form-data; boundary=x")), 415,
     "application/json"),
    ("no-content-type", lambda n: ("POST", "/api/result", _res(n), bearer(n.round_tok[(1, 2)], None)), 415,
     "application/json"),
    ("cookie-not-header", lambda n: ("POST", "/api/result", _res(n), {"Content-Type": J, "Cookie": "token="
                                                                      + n.round_tok[(1, 2)]}), 401, "Bearer"),
    ("token-in-query", lambda n: ("POST", "/api/result?token=" + n.round_tok[(1, 2)], _res(n), {"Content-Type": J}),
     401, "Bearer"),
    ("get-result", lambda n: ("GET", "/api/result", None, bearer(n.round_tok[(1, 2)], None)), 405, "takes POST"),
    ("put-result", lambda n: ("PUT", "/api/result", _res(n), bearer(n.round_tok[(1, 2)])), 405, "takes POST"),
    ("options-join", lambda n: ("OPTIONS", "/api/join", None, {}), 405, "takes POST, not OPTIONS"),
    ("made-up-method", lambda n: ("BREW", "/api/result", _res(n), bearer(n.round_tok[(1, 2)])), 405, "not BREW"),
    ("round-without-token", lambda n: ("GET", "/api/round", None, {}), 401, "Bearer"),
    ("round-with-round-token", lambda n: ("GET", "/api/round", None, bearer(n.round_tok[(1, 2)], None)), 401,
     "not (or no longer) valid"),
    ("round-not-open", lambda n: ("GET", "/api/round?round=3", None, bearer(n.table_tok[1], None)), 404, "not open"),
    ("round-not-a-number", lambda n: ("GET", "/api/round?round=-1", None, bearer(n.table_tok[1], None)), 400,
     "round number"),
    ("round-superscript-two", lambda n: ("GET", "/api/round?round=%C2%B2", None, bearer(n.table_tok[1], None)), 400,
     "round number"),
    ("round-arabic-one", lambda n: ("GET", "/api/round?round=%D9%A1", None, bearer(n.table_tok[1], None)), 400,
     "round number"),
    ("round-fullwidth-one", lambda n: ("GET", "/api/round?round=%EF%BC%91", None, bearer(n.table_tok[1], None)),
     400, "round number"),
    ("join-taken-table", lambda n: ("POST", "/api/join", json.dumps({"code": n.codes[1], "device": "web-9999"})
                                    .encode(), {"Content-Type": J}), 409, "already has a phone"),
    ("join-unknown-code", lambda n: ("POST", "/api/join", b'{"code": "ZZZZZZ", "device": "web-9999"}',
                                     {"Content-Type": J}), 404, "no table has the join code"),
    ("join-device-path", lambda n: ("POST", "/api/join", json.dumps({"code": n.codes[1], "device": "../x"}).encode(),
                                    {"Content-Type": J}), 400, "device id"),
    ("join-code-long", lambda n: ("POST", "/api/join", json.dumps({"code": "A" * 5000, "device": "w"}).encode(),
                                  {"Content-Type": J}), 400, "join code"),
    ("join-text-plain", lambda n: ("POST", "/api/join", json.dumps({"code": n.codes[1], "device": "web-0001"})
                                   .encode(), {"Content-Type": "text/plain"}), 415, "application/json"),
    ("traversal-api-dotdot", lambda n: ("GET", "/api/../", None, {}), 404, "no /api/../ here"),
    ("traversal-api-encoded", lambda n: ("POST", "/api/%2e%2e/api/result", _res(n), bearer(n.round_tok[(1, 2)])),
     404, "here"),
    ("traversal-api-result-dotdot", lambda n: ("POST", "/api/x/../result", _res(n), bearer(n.round_tok[(1, 2)])),
     404, "here"),
]

# Outside /api/ (the phone build's files): a 4xx of one line, never a file from elsewhere.
PATHS = ["/phone/../../etc/passwd", "/phone/%2e%2e/%2e%2e/etc/passwd", "/phone/..%2f..%2fetc%2fpasswd",
         "/phone/%2e%2e%2f%2e%2e%2fclub.sqlite3", "/phone/../club.sqlite3", "/phone//etc/passwd",
         "/phone/%00", "/club.sqlite3", "/../club.sqlite3"]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_request_is_refused_in_one_line_and_changes_nothing(served, night, case):
    _, make_request, status, words = case
    method, path, body, headers = make_request(night)
    before = served.snapshot()
    got, _, text = served.request(method, path, body, headers)
    why = one_line_error(got, text)
    assert got == status and words in why, (got, why)
    assert served.snapshot() == before


@pytest.mark.parametrize("path", PATHS)
def test_a_path_out_of_the_phone_build_is_a_4xx_of_one_line(served, path):
    before = served.snapshot()
    got, _, text = served.request("GET", path)
    assert 400 <= got < 500 and b"\n" not in text.strip() and len(text) < 200, (got, text[:200])
    assert b"root:" not in text and b"SQLite" not in text
    assert served.snapshot() == before


def test_a_replayed_result_is_a_duplicate_and_changes_nothing(served, night):
    before = served.snapshot()
    got, _, text = served.request("POST", "/api/result", night.body(1, 1), bearer(night.round_tok[(1, 1)]))
    assert got == 200 and json.loads(text)["status"] == "duplicate", text
    assert served.snapshot() == before


def test_the_legitimate_write_changes_the_library_once(night, tmp_path):
    # (the control: the snapshot does see a write)
    with serve(night, tmp_path) as s:
        before = s.snapshot()
        got, _, text = s.request("POST", "/api/result", night.body(1, 2), bearer(night.round_tok[(1, 2)]))
        assert got == 200 and json.loads(text)["status"] == "new", text
        after = s.snapshot()
        assert after != before
        got, _, text = s.request("POST", "/api/result", night.body(1, 2), bearer(night.round_tok[(1, 2)]))
        assert got == 200 and json.loads(text)["status"] == "duplicate", text
        assert s.snapshot() == after


def _reply(raw: bytes) -> tuple:
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def test_an_oversized_body_is_413_with_or_without_its_length(served, night):
    before = served.snapshot()
    tok = night.round_tok[(1, 2)]
    big = phoneapi.MAX_BODY + 1
    head = (f"POST /api/result HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {tok}\r\n")
    # A length over the limit: refused before a byte of the body is read.
    status, body = _reply(served.raw(f"{head}Content-Length: {big}\r\n\r\n".encode()))
    assert status == 413 and "at most" in one_line_error(status, body)
    # A length of 10 GB, and one that is not a number.
    for n in ("10000000000", "-1", "1e3"):
        status, body = _reply(served.raw(f"{head}Content-Length: {n}\r\n\r\n".encode()))
        assert 400 <= status < 500, (n, status, body)
    # Chunked, no length: stopped once past the limit.
    chunk = b"%x\r\n" % big + b"x" * big + b"\r\n"
    status, body = _reply(served.raw(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode(), chunk))
    assert status == 413 and "at most" in one_line_error(status, body)
    # Chunked in many small chunks.
    small = b"".join(b"400\r\n" + b"y" * 1024 + b"\r\n" for _ in range(big // 1024 + 1))
    status, body = _reply(served.raw(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode(), small))
    assert status == 413 and "at most" in one_line_error(status, body)
    assert served.snapshot() == before


def test_a_slow_client_gets_408_in_time_while_others_are_served(night, tmp_path, monkeypatch):
    monkeypatch.setattr(phoneapi, "BODY_SECONDS", 2.0)
    with serve(night, tmp_path) as s:
        before = s.snapshot()
        body = night.body(1, 2)
        out: dict = {}

        def trickle():
            t0 = time.monotonic()
            with socket.create_connection((s.host, s.port), timeout=20) as c:
                c.sendall((f"POST /api/result HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           f"Authorization: Bearer {night.round_tok[(1, 2)]}\r\n"
                           f"Content-Length: {len(body)}\r\n\r\n").encode())
                got = b""
                for i in range(len(body) - 1):      # a byte every 0.2 s, never the last
                    try:
                        c.sendall(body[i:i + 1])
                    except OSError:
                        break
                    c.settimeout(0.2)
                    try:
                        got += c.recv(65536)
                    except TimeoutError:
                        continue
                    except OSError:
                        break
                    if b"\r\n\r\n" in got:
                        c.settimeout(5)
                        got = read_reply(c, got)
                        break
                out["reply"], out["s"] = got, time.monotonic() - t0

        th = threading.Thread(target=trickle)
        th.start()
        time.sleep(0.3)
        served_meanwhile = []
        while th.is_alive():            # others are served as it trickles
            t0 = time.monotonic()
            got, _, text = s.request("GET", "/results.json", timeout=5)
            g2, _, t2 = s.request("GET", "/api/round", None, bearer(night.table_tok[2], None), timeout=5)
            served_meanwhile.append((got, g2, time.monotonic() - t0))
            time.sleep(0.2)
        th.join()
        status, text = _reply(out["reply"])
        assert status == 408 and "did not arrive within 2 s" in one_line_error(status, text)
        assert 1.9 <= out["s"] <= 4.0, out["s"]
        assert served_meanwhile and all(a == b == 200 and t < 1.0 for a, b, t in served_meanwhile), served_meanwhile
        assert s.snapshot() == before
        got, _, text = s.request("POST", "/api/result", body, bearer(night.round_tok[(1, 2)]))
        assert got == 200 and json.loads(text)["status"] == "new"     # the real phone, whole, is taken


def test_connections_that_never_send_a_whole_head_get_408_and_close_while_others_are_served(night, tmp_path,
                                                                                             monkeypatch):
    monkeypatch.setattr(phoneapi, "HEAD_SECONDS", 1.5)
    with serve(night, tmp_path, site=False) as s:
        before = s.snapshot()
        held = []
        for i in range(150):            # silent, half a request line, headers without their end
            c = socket.create_connection((s.host, s.port), timeout=10)
            c.sendall([b"", b"POST /api/res", b"POST /api/result HTTP/1.1\r\nHost: x\r\n"][i % 3])
            held.append(c)
        kept = socket.create_connection((s.host, s.port), timeout=10)     # a keep-alive connection, answered once
        kept.sendall(b"GET /results.json HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _reply(read_reply(kept))[0] == 200
        kept.sendall(b"GET /api/round HTTP/1.1\r\n")                   # then half a head
        held.append(kept)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 1.2:  # the others are served meanwhile
            got, _, text = s.request("GET", "/api/round", None, bearer(night.table_tok[1], None), timeout=5)
            assert got == 200, text
            time.sleep(0.1)
        for c in held:
            status, body = _reply(read_reply(c))
            assert status == 408 and "head did not arrive within 1.5 s" in one_line_error(status, body)
            assert c.recv(10) == b""        # and closed
            c.close()
        assert time.monotonic() - t0 < 4.0
        assert s.snapshot() == before


def test_a_burst_of_thousands_gets_429s_and_the_table_is_served_after(night, tmp_path):
    import http.client
    from concurrent.futures import ThreadPoolExecutor
    with serve(night, tmp_path) as s:
        before = s.snapshot()
        kinds = [("GET", "/api/round", None, bearer(night.table_tok[2], None)),              # a real token, too fast
                 None,                                                                         # a guessed token
                 ("POST", "/api/join", b'{"code": "QQQQQQ", "device": "x"}', {"Content-Type": J}),
                 ("GET", "/api/round", None, {})]
        counts: dict = {}
        lock = threading.Lock()
        passes = []
        run = s.api.run

        async def counted(fn, *args):       # (each call on the writer thread counted)
            passes.append(fn)
            return await run(fn, *args)
        s.api.run = counted

        def client(k: int) -> None:
            c = http.client.HTTPConnection(s.host, s.port, timeout=20)
            try:
                for i in range(100):
                    m, p, b, h = kinds[(k + i) % len(kinds)] or ("GET", "/api/round", None,
                                                                 bearer(f"guess{k:03d}{i:03d}" + "B" * 37, None))
                    c.request(m, p, body=b, headers=h)
                    r = c.getresponse()
                    text = r.read()
                    if r.status >= 400:
                        one_line_error(r.status, text)
                    with lock:
                        counts[r.status] = counts.get(r.status, 0) + 1
            finally:
                c.close()

        t0 = time.monotonic()
        with ThreadPoolExecutor(30) as pool:
            list(pool.map(client, range(30)))
        took = time.monotonic() - t0
        assert sum(counts.values()) == 3000 and set(counts) <= {200, 401, 404, 429}, counts
        assert counts.get(429, 0) > 2000 and counts.get(200, 0) <= 40 + 10 * took + 10, (counts, took)
        # Guessed tokens are looked up only while the client's bucket lasts (100, then 20 a second).
        guessed = len(passes) - counts.get(200, 0)
        assert guessed <= 100 + 20 * took + 10, (guessed, took, counts)
        assert s.snapshot() == before
        # The server is up, and after the window the tables are served again.
        time.sleep(1.0)
        got, _, text = s.request("GET", "/api/round", None, bearer(night.table_tok[1], None))
        assert got == 200 and json.loads(text)["round"] == 2
        got, _, text = s.request("POST", "/api/result", night.body(1, 2), bearer(night.round_tok[(1, 2)]))
        assert got == 200 and json.loads(text)["status"] == "new", text


class Logged(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def server_log():
    h = Logged()
    names = ["uvicorn", "uvicorn.error", "uvicorn.asgi", "starlette"]
    for n in names:
        logging.getLogger(n).addHandler(h)
    yield h
    for n in names:
        logging.getLogger(n).removeHandler(h)


# ----- any request at all (hypothesis) -------------------------------------------------


# (half a UTF-16 pair, NUL, a bidi control and brackets deep: each once a 500 somewhere)
_NASTY = st.sampled_from(["\ud800", "x\udfff", "\x00", "\u202e", "[" * 5000, "{" * 40, "\\" * 9])
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40) | _NASTY
_JSONV = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                      max_leaves=12)


def _value(body: bytes | None):
    try:
        return json.loads(body) if body is not None else None
    except (ValueError, RecursionError):
        return None


@st.composite
def requests_(draw, n: Night) -> tuple:
    """(method, path, headers, body, legitimate): near the real ones, or garbage."""
    real = st.sampled_from([("POST", "/api/join"), ("POST", "/api/result"), ("GET", "/api/round"),
                            ("GET", "/api/round?round=")])
    other = st.tuples(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]),
                      st.sampled_from(["/api/join", "/api/round", "/api/result", "/api/", "/api/x", "/api/../result",
                                       "/phone/", "/phone/../", "/", "/results.json", "/board.json", "/player/1",
                                       "/standings.csv"])
                      | st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=30).map(lambda t: "/" + t))
    method, path = draw(st.one_of(real, real, other))      # (two thirds the API's own routes)
    if path.endswith("="):
        path += draw(st.sampled_from(["1", "2", "3", "0", "-1", "999999", "x", "1e3", "%00", "%C2%B2", "%D9%A1"]))
    headers = {}
    tok = draw(st.sampled_from([None, "t1", "t2", "r11", "r12", "r21", "r22", "guess", "junk"]))
    if tok is not None:
        value = {"t1": n.table_tok[1], "t2": n.table_tok[2], "r11": n.round_tok[(1, 1)],
                 "r12": n.round_tok[(1, 2)], "r21": n.round_tok[(2, 1)], "r22": n.round_tok[(2, 2)],
                 "guess": "C" * 43}.get(tok)
        headers["Authorization"] = f"Bearer {value}" if value else draw(st.text(
            st.characters(min_codepoint=32, max_codepoint=126), max_size=60))
    kind = draw(st.sampled_from([J, J, J, "application/json; charset=utf-8", "text/plain",
                                 "application/x-www-form-urlencoded", None, "JSON"]))
    if kind:
        headers["Content-Type"] = kind
    if draw(st.booleans()):
        headers["Cookie"] = "token=" + n.round_tok[(1, 2)]
    legit = json.loads(n.body(1, 2))
    shape = draw(st.sampled_from(["none", "legit", "field", "extra", "missing", "json", "bytes", "log", "deep",
                                  "deep"]))
    if shape == "none":
        body = None
    elif shape == "legit":
        body = json.dumps(legit).encode()
    elif shape == "field":
        k = draw(st.sampled_from(sorted(legit)))
        body = json.dumps({**legit, k: draw(_JSONV)}).encode()
    elif shape == "extra":
        body = json.dumps({**legit, draw(_TEXT): draw(_JSONV)}).encode()
    elif shape == "missing":
        body = json.dumps({k: v for k, v in legit.items() if k != draw(st.sampled_from(sorted(legit)))}).encode()
    elif shape == "json":
        body = json.dumps(draw(_JSONV)).encode()
    elif shape == "bytes":
        body = draw(st.binary(max_size=300))
    elif shape == "deep":           # nested past Python's recursion: the body, or the log's own first line
        depth = draw(st.sampled_from([33, 1000, 100_000]))
        body = draw(st.sampled_from([b"[" * depth, b'{"a":' * depth, n.body(1, 2, b"[" * depth + b"\n")]))
    else:           # the round-2 log with bytes changed, its CRC made again
        raw = bytearray(n.logs[(1, 2)][1])
        for _ in range(draw(st.integers(1, 4))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(32, 126))
        body = n.body(1, 2, bytes(raw))
    is_legit = (method == "POST" and path == "/api/result" and tok == "r12" and kind is not None
                and kind.split(";")[0] == J and _value(body) == legit)     # (a byte "changed" to itself too)
    return method, path, headers, body, is_legit


@pytest.fixture(scope="module")
def open_served(night, tmp_path_factory):
    # (no rate limits: the invariant is about what each request does, not how often)
    with serve(night, tmp_path_factory.mktemp("open")) as s:
        s.api.per_client = phoneapi._Bucket(1e9, 1e9)
        s.api.per_token = phoneapi._Bucket(1e9, 1e9)
        yield s


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_request_is_answered_below_500_and_writes_only_if_legitimate(open_served, night, server_log, data):
    method, path, headers, body, legit = data.draw(requests_(night))
    before = open_served.snapshot()
    status, _, text = open_served.request(method, path, body, headers)
    assert status < 500, (status, text[:300])
    if 400 <= status and path.startswith("/api/") and method != "HEAD":
        one_line_error(status, text)
    if not legit:
        assert open_served.snapshot() == before, (method, path, headers, body and body[:200], status, text[:200])
    bad = [r for r in server_log.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, bad[0].getMessage()
