"""The phone build's link to the club night's server, below the page: the
browser board's ``net_*`` calls (bower.webboard over bower.clubnet) on
CPython, answered as a server, a broken one or a hostile one might answer.

* Whatever the replies (any status, any text, the API's own shapes with
  wrong values), the device never faults, every request it asks the page
  to send is one of the API's three, and no game on its flash is lost.
* A join refused (a wrong code, a table another phone holds) ends the join
  with the server's one line on the status line, nothing kept.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bower_host import simhw
from bower_host.club import night as cn
from bower_host.club import phones as ph
from bower_host.db import Library

simhw.install()
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bower.webboard import FILES, WebBoard  # noqa: E402

from clubtables import TableBower  # noqa: E402
from bower.store import extra  # noqa: E402

T0 = 1763700000
DEVICE = "0123456789abcdef"


@pytest.fixture(scope="module")
def replies(tmp_path_factory) -> dict:
    # The real library's answers for a night's table 1: the join, the round offered.
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    with Library(db, clock=lambda: T0) as lib:
        cn.create_night(lib, "Friday", ["Ann", "Bob", "Cy", "Di"], 1, "fixed", 1, hands=2, key="fri",
                        clock=lambda: T0)
        code = ph.codes(lib, cn.load_night(lib, "fri"))[1]
        j = ph.join(lib, code, DEVICE, T0)
        o = ph.offer(lib, j.token)
    # A flash with that round played on it (not sent yet), as the phone's would be.
    flash = tmp_path_factory.mktemp("played") / "flash"
    b = TableBower(flash, 1)
    b.store.set_club(o.setup)
    b.store.warnings.append("club round 1, table 1")
    b.play_round(["up D", "order", "tricks 3", "up S", "pass", "order", "tricks 5"])
    (gid, size, crc) = list(extra("past").each(b.store))[0][:3]
    return {"code": code, "join": {"night": "fri", "table": 1, "token": j.token},
            "round": {"night": o.night, "table": o.table, "round": o.round, "token": o.token, "setup": o.setup},
            "flash": flash, "game": (gid, b.store.read(gid, 0, size), crc)}


def _played(replies, into: Path) -> Path:
    shutil.copytree(replies["flash"], into)
    return into


def _board(root) -> WebBoard:
    b = WebBoard(str(root), DEVICE, lambda: T0, 1 << 20, frame=None)
    b.written()         # (what a power-on wrote: the page's first commit)
    return b


def _request(board: WebBoard, t: int):
    text = board.net_next(t)
    assert isinstance(text, str)
    if not text:
        return None
    req = json.loads(text)
    method, path, token, body = req
    assert (method, path.split("?")[0]) in {("POST", "api/join"), ("GET", "api/round"), ("POST", "api/result")}, req
    assert (token is None) == (path == "api/join"), req
    assert (body is None) == (method == "GET"), req
    return req


def _mangled(d: dict, draw) -> dict:
    # The API's reply with one field of another type or value.
    k = draw(st.sampled_from(sorted(d)))
    v = draw(st.one_of(st.none(), st.integers(-5, 10**12), st.text(max_size=20), st.lists(st.integers(), max_size=3),
                       st.dictionaries(st.text(max_size=5), st.integers(), max_size=3)))
    return dict(d, **{k: v})


@st.composite
def answers(draw, replies, req):
    # A reply to ``req``: half the time the one the API gives, else any
    # status and text, the API's own shapes or not.
    if draw(st.booleans()):
        path = req[1].split("?")[0]
        if path == "api/result":
            b = json.loads(req[3])
            return 200, json.dumps({"status": "new", "crc": b["crc"], "note": "stored"})
        return 200, json.dumps(replies["join" if path == "api/join" else "round"])
    status = draw(st.sampled_from([0, 200, 200, 200, 400, 401, 403, 404, 409, 410, 413, 422, 429, 500, 503]))
    kind = draw(st.sampled_from(["join", "round", "result", "mangled", "junk", "json"]))
    if kind == "join":
        text = json.dumps(replies["join"])
    elif kind == "round":
        text = json.dumps(replies["round"])
    elif kind == "result":
        text = json.dumps({"status": "new", "crc": draw(st.text("0123456789abcdef", min_size=8, max_size=8)),
                           "note": draw(st.text(max_size=30))})
    elif kind == "mangled":
        text = json.dumps(_mangled(replies[draw(st.sampled_from(["join", "round"]))], draw))
        if draw(st.booleans()):
            r = dict(replies["round"])
            r["setup"] = _mangled(r["setup"], draw)
            text = json.dumps(r)
    elif kind == "json":
        text = json.dumps(draw(st.recursive(st.none() | st.integers() | st.text(max_size=10),
                                            lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c,
                                                                                             max_size=3),
                                            max_leaves=8)))
    else:
        text = draw(st.text(max_size=60))
    return status, text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_reply_faults_the_device_or_loses_a_game(tmp_path_factory, replies, data):
    root = _played(replies, tmp_path_factory.mktemp("phone") / "flash")
    gid, log, _crc = replies["game"]
    board = _board(root)
    board.net_join(replies["code"])
    t = 0
    for _ in range(data.draw(st.integers(1, 25))):
        t += data.draw(st.sampled_from([0, 500, 20000]))
        req = _request(board, t)
        if req is not None:
            status, text = data.draw(answers(replies, req))
            event(req[1].split("?")[0] + ("?round" if "?" in req[1] else ""))
            flags = board.net_answer(status, text, t)
            assert flags in (0, FILES)
            board.written()
        assert board.step(0, t) is not None and board.fault is None, board.fault
        assert isinstance(board.net_said(), str)
        assert board.store.read(gid, 0, len(log) + 1) == log       # the round played is kept as it was
        if req is not None and req[1] == "api/result":
            assert json.loads(req[3]) == {"game": gid, "crc": replies["game"][2], "log": log.decode()}
    # Started again on what the flash holds, it powers on and asks nothing it should not.
    again = _board(root)
    assert again.fault is None
    _request(again, t + 60000)


@pytest.mark.parametrize("status, why", [(404, "no table has the join code 'X': check the table's sheet"),
                                         (409, "table 1 already has a phone (web-1); the organiser can free it")])
def test_a_refused_join_ends_with_the_servers_line_and_keeps_nothing(tmp_path, status, why):
    board = _board(tmp_path / "flash")
    board.net_join(" x ")
    req = _request(board, 0)
    assert req[:3] == ["POST", "api/join", None] and json.loads(req[3]) == {"code": "X", "device": DEVICE}
    assert board.net_answer(status, json.dumps({"error": why}), 10) == 0
    assert board.net_joining() == 0 and board.net_joined() == 0
    assert board.net_said() == why
    assert _request(board, 20000) is None                   # not asked again
    assert not (tmp_path / "flash" / "club.net").exists() and not (tmp_path / "flash" / "club").exists()


def test_a_join_without_a_reply_is_asked_again_then_the_round_played_is_sent_and_marked(tmp_path, replies):
    board = _board(_played(replies, tmp_path / "flash"))
    board.net_join(replies["code"])
    req = _request(board, 0)
    board.net_answer(0, "", 0)
    assert board.net_joining() == 1 and "offline" in board.net_said()
    assert _request(board, 10) is None                      # (a wait first)
    assert _request(board, 5000) == req
    assert board.net_answer(200, json.dumps(replies["join"]), 5000) == FILES
    assert board.net_joining() == 0 and board.net_joined() == 1
    assert "club.net" in board.written()
    assert _request(board, 5000)[:3] == ["GET", "api/round?round=1", replies["join"]["token"]]
    assert board.net_answer(200, json.dumps(replies["round"]), 5000) == 0
    gid, log, crc = replies["game"]
    req = _request(board, 5000)
    assert req == ["POST", "api/result", replies["round"]["token"],
                   json.dumps({"game": gid, "crc": crc, "log": log.decode()})]
    reply = {"status": "new", "crc": crc, "note": "night fri round 1 table 1"}
    assert board.net_answer(200, json.dumps(reply), 5000) == FILES
    assert board.net_said() == "sent: night fri round 1 table 1"
    assert list(extra("past").each(board.store))[0][4]                       # marked synced: not sent again
    assert _request(board, 5000)[:2] == ["GET", "api/round"]
