"""The league server under faults, load and hostile input (issue 35, "Faults and load").

Each test runs a real ``bower league serve`` as a subprocess (tests/host/
leagueserve.py) on SQLite and on PostgreSQL, and talks HTTP to it: 50 clubs
pushing at once, the server SIGKILLed in the middle of pushes, the
database restarted under load, forged and voided tokens, bad pushes through
the command line, and random hostile requests. After each, the league's
standings are checked against an independent recount, and every night is
stored once and whole.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from bower_host.league import client
from bower_host.league import summary as su
from bower_host.league.sqldb import open_db
from bower_host.league.store import League
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hostile import bower
from leaguenights import club_library, play_night
from leaguenights import recount as library_recount
from leagueserve import NAMES, T0, LeagueServer, check_stored, recount, snapshot, standings, synthetic_night
from leagueserve import request as http

DAY = 86400


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    """The league database's spec: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "league.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def servers(tmp_path):
    """Start league servers with ``servers(spec)``; every one is killed at the end."""
    made: list = []

    def start(spec: str, port: int = 0) -> LeagueServer:
        s = LeagueServer(spec, tmp_path, port).start()
        made.append(s)
        return s
    yield start
    for s in made:
        s.kill()
    for s in made:
        assert "Traceback" not in s.stderr(), s.stderr()


def make_league(spec: str, clubs: list) -> dict:
    """A league with ``clubs``: ``{name: token}``."""
    with League.create(spec, "North Shore") as lg:
        return {c: lg.add_club(c) for c in clubs}


def club_nights(ci: int, count: int, first: int = 0) -> list:
    """Club ``ci``'s nights ``first`` .. ``first + count - 1``: 4 or 8 players."""
    names = NAMES[:8] if ci % 3 == 0 else NAMES[ci % 5:ci % 5 + 4]
    return [synthetic_night(f"n{k}", names, T0 + k * DAY, seed=ci * 1000 + k) for k in range(first, first + count)]


def one_line_error(raw: bytes) -> str:
    text = raw.decode()
    assert "\n" not in text.strip(), text
    body = json.loads(text)
    assert isinstance(body, dict) and set(body) == {"error"} and isinstance(body["error"], str), body
    assert "\n" not in body["error"] and body["error"], body
    return body["error"]


def run_threads(targets: list, timeout: float = 60.0) -> list:
    """Run each callable in its own thread; their exceptions (none expected)."""
    errors: list = []

    def guard(fn):
        try:
            fn()
        except BaseException as e:      # reported by the test
            errors.append(e)
    threads = [threading.Thread(target=guard, args=(fn,), daemon=True) for fn in targets]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), f"pushes still running after {timeout} s"
    return errors


# ----- load ------------------------------------------------------------------------------------------------

def test_fifty_clubs_pushing_at_once_store_every_night_once(engine, servers):
    clubs = [f"Club {i:02d}" for i in range(50)]
    tokens = make_league(engine, clubs)
    srv = servers(engine)
    by_club = {c: club_nights(i, 1 + i % 2) for i, c in enumerate(clubs)}
    gate = threading.Barrier(len(clubs), timeout=20)
    answers: dict = {}

    def pusher(c):
        def go():
            gate.wait()
            answers[c] = client.push(srv.url, tokens[c], by_club[c], timeout=30)
        return go
    assert run_threads([pusher(c) for c in clubs]) == []
    for c in clubs:
        assert sorted(answers[c]) == sorted((n["key"], "new", 1) for n in by_club[c])
    assert "bower league serve:" not in srv.stderr(), srv.stderr()      # no 503
    assert standings(srv.url) == recount(by_club)
    check_stored(engine, by_club)


def _push_until(url: str, token: str, club: str, ci: int, done: threading.Event, pushed: dict, batch: int = 3,
                least: int = 2) -> None:
    """Push batches of new nights until ``done`` is set (and at least ``least`` batches)."""
    k = 0
    while k < least * batch or not done.is_set():
        nights = club_nights(ci, batch, first=k)
        out = client.push(url, token, nights, timeout=30)
        assert sorted(key for key, _o, _v in out) == sorted(n["key"] for n in nights)
        assert all(o in ("new", "unchanged") and v == 1 for _k, o, v in out), out
        pushed.setdefault(club, []).extend(nights)
        k += batch


def test_a_server_killed_in_the_middle_of_pushes_loses_and_doubles_nothing(engine, servers, monkeypatch):
    failed: list = []
    post = client._post

    def counted(*args, **kw):
        try:
            return post(*args, **kw)
        except OSError as e:
            failed.append(e)
            raise
    monkeypatch.setattr(client, "_post", counted)
    clubs = [f"Club {i:02d}" for i in range(12)]
    tokens = make_league(engine, clubs)
    srv = servers(engine)
    url, port = srv.url, srv.port
    restarted = threading.Event()
    pushed: dict = {}

    def crash():
        time.sleep(0.2)
        srv.kill()
        time.sleep(0.3)
        servers(engine, port)           # the same port and database
        restarted.set()
    targets = [lambda c=c, i=i: _push_until(url, tokens[c], c, i, restarted, pushed) for i, c in enumerate(clubs)]
    assert run_threads([crash, *targets]) == []
    assert failed, "no push was cut off by the kill"
    assert standings(url) == recount(pushed)
    check_stored(engine, pushed)        # "unchanged" answers (a retry after a lost reply) write no push row


def test_the_database_restarted_under_load_answers_503_until_it_is_back(tmp_path, servers, monkeypatch):
    from pgserver import PgServer, find_bin
    if find_bin() is None:
        pytest.skip("PostgreSQL is not installed (Debian: postgresql)")
    pg = PgServer().start()
    try:
        spec = pg.create_database("league")
        clubs = [f"Club {i:02d}" for i in range(8)]
        tokens = make_league(spec, clubs)
        srv = servers(spec)
        statuses: list = []
        post = client._post

        def counted(*args, **kw):
            out = post(*args, **kw)
            statuses.append(out[0])
            if out[0] == 503:       # the client told to wait, not the database's URL or its words
                assert one_line_error(out[2]) == "the league database is not available now: try again"
            return out
        monkeypatch.setattr(client, "_post", counted)
        restarted = threading.Event()
        pushed: dict = {}

        def restart():
            time.sleep(0.2)
            pg.restart()
            restarted.set()
        targets = [lambda c=c, i=i: _push_until(srv.url, tokens[c], c, i, restarted, pushed, batch=2)
                   for i, c in enumerate(clubs)]
        assert run_threads([restart, *targets]) == []
        assert 503 in statuses, sorted(set(statuses))
        assert set(statuses) <= {200, 503}, sorted(set(statuses))
        assert standings(srv.url) == recount(pushed)
        check_stored(spec, pushed)
    finally:
        pg.cleanup()


# ----- tokens ----------------------------------------------------------------------------------------------

def test_a_push_is_stored_under_its_tokens_club_only_and_a_new_token_voids_the_old(engine, servers):
    tokens = make_league(engine, ["A", "B"])
    srv = servers(engine)
    nights = club_nights(1, 2)
    body = su.payload(nights)
    before = snapshot(engine)
    for forged in ("x" * 32, tokens["A"][:-1] + ("A" if tokens["A"][-1] != "A" else "B"), tokens["A"] + "x"):
        status, headers, raw = http(srv.url + "api/push", body, token=forged)
        assert status == 401 and headers["content-type"] == "application/json", (status, raw)
        assert "token" in one_line_error(raw)
    with pytest.raises(client.PushError, match="refused the club's token"):
        client.push(srv.url, "forged-" + "0" * 25, nights, timeout=10)
    assert snapshot(engine) == before
    # A body cannot name a club: the club is the token's.
    named = json.dumps({"bower_league": 1, "nights": nights, "club": "B", "club_id": 2}).encode()
    status, _h, raw = http(srv.url + "api/push", named, token=tokens["A"])
    assert status == 200 and json.loads(raw)["club"] == "A", raw
    db = open_db(engine)
    try:
        owners = db.rows("SELECT DISTINCT c.name FROM nights n JOIN clubs c ON c.id = n.club_id")
        assert owners == [("A",)]
        assert int(db.value("SELECT COUNT(*) FROM nights")) == 2
    finally:
        db.close()
    assert standings(srv.url) == recount({"A": nights})
    # bower league club token A: the old token is void, the new one pushes.
    rc, out, _e = bower("league", "club", "token", "A", "--db", engine)
    assert rc == 0
    new = out.strip().splitlines()[-1]
    assert new != tokens["A"]
    status, _h, raw = http(srv.url + "api/push", body, token=tokens["A"])
    assert status == 401, raw
    one_line_error(raw)
    assert [o for _k, o, _v in client.push(srv.url, new, nights, timeout=10)] == ["unchanged", "unchanged"]
    assert client.push(srv.url, tokens["B"], nights, timeout=10)[0][1] == "new"     # B's own nights


# ----- bad pushes through the command line -----------------------------------------------------------------

@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """A club's game library (2 nights of 1 and 2 tables), a damaged copy, and one whose night is from the future."""
    d = tmp_path_factory.mktemp("clublibs")
    good = club_library(d / "good.sqlite3", [("fri", NAMES[:4], T0), ("sat", NAMES[:8], T0 + DAY)])
    data = bytearray(good.read_bytes())
    mid = len(data) // 2
    data[mid - len(data) // 4:mid + len(data) // 4] = b"\xa5" * (2 * (len(data) // 4))
    damaged = d / "damaged.sqlite3"
    damaged.write_bytes(bytes(data))
    future = d / "future.sqlite3"
    from bower_host.db import Library
    with Library(future, clock=lambda: T0) as lib:
        play_night(lib, "soon", NAMES[:4], int(time.time()) + 3 * DAY)
    return {"good": good, "damaged": damaged, "future": future}


def test_a_damaged_or_future_library_is_refused_in_one_line_and_the_league_unchanged(engine, libraries):
    make_league(engine, ["A"])
    before = snapshot(engine)
    for lib, said in ((libraries["damaged"], ""), (libraries["future"], "in the future")):
        rc, _o, err = bower("league", "push", lib, "--db", engine)
        assert rc == 1 and said in err, err
        assert snapshot(engine) == before
    rc, out, _e = bower("league", "push", libraries["good"], "--db", engine)
    assert rc == 0 and "2 nights pushed: 2 new" in out, out
    with League.open(engine) as lg:
        from bower_host.league import standings as ls
        got = {r["player"]: [r["points"], r["nights"], r["won"]] for r in ls.standings(lg)["players"]}
    assert got == {name: v for (_ci, name), v in library_recount(libraries["good"]).items()}


def test_league_commands_aimed_at_a_club_library_leave_its_bytes_identical(tmp_path, libraries):
    lib = tmp_path / "club.sqlite3"
    lib.write_bytes(libraries["good"].read_bytes())
    before = lib.read_bytes()
    rc, _o, err = bower("league", "new", "X", "--db", lib)
    assert rc == 1, err
    assert lib.read_bytes() == before
    rc, _o, err = bower("league", "push", lib, "--db", lib)
    assert rc == 1, err
    assert lib.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.sqlite3"]


# ----- hostile requests (hypothesis) -----------------------------------------------------------------------

_NUMBERS = st.one_of(st.integers(), st.integers(min_value=2 ** 63 - 5, max_value=2 ** 70), st.floats(),
                     st.just(-(2 ** 63)), st.just(10 ** 40))
_LEAVES = st.one_of(st.none(), st.booleans(), _NUMBERS, st.text(max_size=20),
                    st.sampled_from(["", " ", "\u202e", "a\nb", "\x00", "Ann", "n0", "../x", "x" * 300]))
_JSON = st.recursive(_LEAVES, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                     st.dictionaries(st.text(max_size=8), kids, max_size=4)),
                     max_leaves=12)
_HUGE = b"(a body of MAX_BODY + 1 bytes)"
_NIGHT_FIELDS = ["key", "name", "played", "tables", "rounds", "players"]
_PLAYER_FIELDS = ["name", "place", "points", "rounds", "won", "loners", "euchres"]


@st.composite
def _bodies(draw, base: list) -> bytes:
    """A push body: the real one spoiled, any JSON, or bytes no JSON reader takes."""
    kind = draw(st.sampled_from(["field", "drop", "extra", "top", "json", "deep", "bytes", "badutf8", "literal",
                                 "digits", "surrogate", "huge", "future", "many", "dupe"]))
    nights = json.loads(json.dumps(base))
    body: dict = {"bower_league": 1, "nights": nights}
    n = draw(st.sampled_from(nights))
    p = draw(st.sampled_from(n["players"]))
    if kind == "field":
        where, field = draw(st.sampled_from([(n, f) for f in _NIGHT_FIELDS] + [(p, f) for f in _PLAYER_FIELDS]))
        where[field] = draw(_JSON)
    elif kind == "drop":
        where, field = draw(st.sampled_from([(n, f) for f in _NIGHT_FIELDS] + [(p, f) for f in _PLAYER_FIELDS]
                                            + [(body, "bower_league"), (body, "nights")]))
        del where[field]
    elif kind == "extra":
        where = draw(st.sampled_from([n, p]))
        where[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in where))] = draw(_JSON)
    elif kind == "top":
        body[draw(st.sampled_from(["bower_league", "nights"]))] = draw(_JSON)
    elif kind == "json":
        return json.dumps(draw(_JSON)).encode()
    elif kind == "deep":
        depth = draw(st.sampled_from([33, 100, 5000, 100_000]))
        return (b'{"bower_league": 1, "nights": ' + b"[" * depth + b"]" * depth + b"}")
    elif kind == "bytes":
        return draw(st.binary(max_size=200))
    elif kind == "badutf8":
        raw = su.payload(nights)
        at = draw(st.integers(0, len(raw)))
        return raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"])) + raw[at:]
    elif kind == "literal":
        p["points"] = "@@"
        return json.dumps(body).replace('"@@"', draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999",
                                                                       "-0", "1.0", "0x10"]))).encode()
    elif kind == "digits":
        p["points"] = "@@"
        return json.dumps(body).replace('"@@"', "9" * draw(st.sampled_from([19, 400, 4301, 10_000]))).encode()
    elif kind == "surrogate":
        p["name"] = "@@"
        return json.dumps(body).replace('"@@"', draw(st.sampled_from(['"\\ud800"', '"\\udfff x"',
                                                                       '"\\u0000"']))).encode()
    elif kind == "future":
        n["played"] = int(time.time()) + draw(st.sampled_from([2, 3, 400])) * DAY
    elif kind == "many":
        body["nights"] = [dict(n, key=f"m{i}") for i in range(su.MAX_NIGHTS + 1)]
    elif kind == "dupe":
        nights.append(dict(n))
    elif kind == "huge":
        return _HUGE
    return json.dumps(body).encode()


_HEADER_TEXT = st.text(st.characters(codec="latin-1", exclude_characters="\r\n\x00\x7f",
                                     exclude_categories=["Cc"]), max_size=60)


@pytest.mark.parametrize("eng", ["sqlite", "postgresql"])
def test_any_hostile_push_is_a_one_line_4xx_and_changes_nothing(eng, tmp_path, servers, request):
    spec = str(tmp_path / "league.sqlite3") if eng == "sqlite" else request.getfixturevalue("pg_url")
    tokens = make_league(spec, ["A", "B"])
    base = club_nights(1, 2)
    url = servers(spec).url
    assert client.push(url, tokens["A"], base, timeout=10)
    state = {"snap": snapshot(spec)}

    tokens_st = st.one_of(st.just(tokens["A"]), st.just(tokens["B"]), st.none(), _HEADER_TEXT,
                          st.sampled_from(["", " ", tokens["A"] + "x", tokens["A"].upper(), "é" * 30, "x" * 201,
                                           tokens["A"] + " " + tokens["B"]]))
    auth_st = st.sampled_from(["Bearer ", "bearer ", "Basic ", "", "Bearer  ", "Token "])
    kinds = st.sampled_from(["application/json", "application/json; charset=utf-8", "APPLICATION/JSON",
                             "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "", None,
                             "application/jsonx"])
    # Three times in four the real club's request, so that most bodies get as far as being read.
    real = st.just((tokens["A"], "Bearer ", "application/json", "POST"))
    shapes = st.one_of(real, real, real, st.tuples(tokens_st, auth_st, kinds, st.sampled_from(["POST"] * 4 + ["GET",
                                                                                                "PUT"])))

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(body=_bodies(base), shape=shapes)
    def check(body, shape):
        token, auth, kind, method = shape
        if body == _HUGE:
            body = b'{"bower_league": 1, "nights": [' + b" " * (su.MAX_BODY + 1) + b"]}"
        headers = {} if token is None else {"Authorization": auth + token}
        status, _h, raw = http(url + "api/push", body, content_type=kind, method=method, headers=headers)
        assert status < 500, (status, raw[:300])
        event(f"HTTP {status}")
        now = snapshot(spec)
        if status == 200:       # only the real push of a real club: its nights, checked as the league checks them
            assert method == "POST" and auth == "Bearer " and token in (tokens["A"], tokens["B"])
            su.check_payload(json.loads(body))
            state["snap"] = now
            return
        one_line_error(raw)
        assert now == state["snap"]
    check()


def test_one_club_pushing_from_many_threads_at_once_stores_each_night_once(engine, servers):
    tokens = make_league(engine, ["A"])
    srv = servers(engine)
    # Every night has the same eight players (new to the league): the pushes race for their rows.
    nights = [synthetic_night(f"n{k}", NAMES[:8], T0 + k * DAY, seed=k) for k in range(16)]
    gate = threading.Barrier(20, timeout=20)

    def pusher(mine):
        def go():
            gate.wait()
            out = client.push(srv.url, tokens["A"], mine, timeout=30)
            assert sorted(k for k, _o, _v in out) == sorted(n["key"] for n in mine)
        return go
    # 16 threads a night each, and 4 more pushing 4 of the same nights again.
    targets = [pusher([n]) for n in nights] + [pusher(nights[i::4][:1] + nights[i + 8:i + 9]) for i in range(4)]
    assert run_threads(targets) == []
    assert "bower league serve:" not in srv.stderr(), srv.stderr()      # no 503: the pushes took turns
    assert standings(srv.url) == recount({"A": nights})
    check_stored(engine, {"A": nights})


_NUL_PATHS = ["api/standings?season=%00", "api/standings?club=%00", "api/standings?season=%1b%5b2J", "club/%00",
              "season/%00x", "player/A/%00", "player/%00/Ann", "club/%07%e2%80%ae"]


def test_a_page_or_standings_of_a_name_with_a_nul_is_a_404_not_a_database_failure(engine, servers):
    make_league(engine, ["A"])
    srv = servers(engine)
    for path in _NUL_PATHS:
        status, _h, raw = http(srv.url + path)
        assert status == 404, (path, status, raw)
        said = one_line_error(raw)
        assert "database" not in said and "\x00" not in said, said
        status, _h, raw = http(srv.url + "club/A")          # the server's connection still good
        assert status == 200, raw
