"""Issue 34 point 3's join rule over real HTTP: two phones claiming one
table: the second is refused (409, one line, nothing changed) until the
organiser frees the table (``phones.reset``, what ``bower club table reset``
runs); then the second joins, and every token of the first is void (401).
And a write while another bower holds the library's writer lock: 503 with
Retry-After, nothing changed, and taken once the lock is free."""

from __future__ import annotations

import json

from bower_host.club import night as cn
from bower_host.club import phones as ph
from bower_host.db import Library, writer_lock

from clubhostile import KEY, make, one_line_error, serve

J = {"Content-Type": "application/json"}


def _auth(tok: str) -> dict:
    return {"Authorization": f"Bearer {tok}"}


def test_a_second_phone_is_refused_until_the_table_is_reset_then_the_first_is_void(tmp_path):
    n = make(tmp_path / "made")
    with serve(n, tmp_path / "served", site=False) as s:
        join = json.dumps({"code": n.codes[1].lower(), "device": "web-second"}).encode()
        before = s.snapshot()
        status, _, text = s.request("POST", "/api/join", join, J)
        why = one_line_error(status, text)
        assert status == 409 and "table 1 already has a phone (web-0001)" in why and "table reset" in why, why
        assert s.snapshot() == before
        # The organiser frees table 1 (beside the running server, under the writer lock as the command is).
        with writer_lock(s.db, "test", wait=5.0), Library(s.db) as lib:
            assert ph.reset(lib, cn.load_night(lib, KEY), 1) == "web-0001"
        # The reset alone voids the first phone's tokens (before anyone joins again).
        for path, body, tok in [("/api/round", None, n.table_tok[1]),
                                ("/api/result", n.body(1, 1), n.round_tok[(1, 1)])]:
            status, _, text = s.request("POST" if body else "GET", path, body, {**J, **_auth(tok)})
            assert status == 401 and "reset the table" in one_line_error(status, text), (path, text)
        status, _, text = s.request("POST", "/api/join", join, J)
        assert status == 200, text
        second = json.loads(text)
        assert (second["night"], second["table"]) == (KEY, 1) and second["token"] != n.table_tok[1]
        # The first phone's table token and round tokens are void ...
        for path, body, tok in [("/api/round", None, n.table_tok[1]), ("/api/round?round=1", None, n.table_tok[1]),
                                ("/api/result", n.body(1, 2), n.round_tok[(1, 2)]),
                                ("/api/result", n.body(1, 1), n.round_tok[(1, 1)])]:
            before = s.snapshot()
            status, _, text = s.request("POST" if body else "GET", path, body, {**J, **_auth(tok)})
            assert status == 401 and "not (or no longer) valid" in one_line_error(status, text), (path, text)
            assert s.snapshot() == before
        # ... and the first phone coming back is now the one refused.
        again = json.dumps({"code": n.codes[1], "device": "web-0001"}).encode()
        status, _, text = s.request("POST", "/api/join", again, J)
        assert status == 409 and "(web-second)" in one_line_error(status, text)
        # The second phone has the table: its round, with a round token of its own.
        status, _, text = s.request("GET", "/api/round", None, _auth(second["token"]))
        offer = json.loads(text)
        assert status == 200 and offer["table"] == 1 and offer["round"] == 2 and offer["token"] != n.round_tok[(1, 2)]
        # Table 2's phone was never touched.
        status, _, text = s.request("GET", "/api/round", None, _auth(n.table_tok[2]))
        assert status == 200 and json.loads(text)["token"] == n.round_tok[(2, 2)]


def test_the_same_phone_joining_again_gets_a_new_token_and_the_old_one_is_void(tmp_path):
    n = make(tmp_path / "made")
    with serve(n, tmp_path / "served", site=False) as s:
        status, _, text = s.request("POST", "/api/join", json.dumps({"code": n.codes[2], "device": "web-0002"})
                                    .encode(), J)
        assert status == 200 and json.loads(text)["token"] != n.table_tok[2]
        status, _, text = s.request("GET", "/api/round", None, _auth(n.table_tok[2]))
        assert status == 401 and one_line_error(status, text)


def test_a_write_while_another_bower_holds_the_library_is_503_then_taken(tmp_path):
    # (a `bower sync` beside the server: every waiting call refused with Retry-After, none lost or half done)
    n = make(tmp_path / "made")
    with serve(n, tmp_path / "served", site=False) as s:
        before = s.snapshot()
        body, auth = n.body(1, 2), {**J, **_auth(n.round_tok[(1, 2)])}
        with writer_lock(s.db, "bower sync"):
            status, headers, text = s.request("POST", "/api/result", body, auth)
            assert status == 503 and headers.get("retry-after") == "2", (status, headers)
            assert "in use by" in json.loads(text)["error"]
            assert s.snapshot() == before
        status, _, text = s.request("POST", "/api/result", body, auth)
        assert status == 200 and json.loads(text)["status"] == "new", text
