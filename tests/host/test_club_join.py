"""How a table's phone joins (issue 34 point 1) and what the organiser sees:
the /join page's codes and QR codes, /j, /tables, the table sheets' codes,
and `bower club table reset`."""

from __future__ import annotations

import http.client
import json
import random
import time
from urllib.parse import urlsplit

import segno

from bower_host.cli import main
from bower_host.club import night as cn
from bower_host.club import phones as ph
from bower_host.club.joinpage import join_url, qr_svg
from bower_host.club.phoneapi import Phones
from bower_host.club.sheet import qr_lines
from bower_host.club.web import server
from bower_host.db import Library

from clubphones import TablePhone, Wire
from webphone import running

T0 = 1763700000


def _night(db, tables=3):
    with Library(db, clock=lambda: T0) as lib:
        cn.create_night(lib, "Friday", [f"P{i:02d}" for i in range(tables * 4)], tables, "progressive", 2,
                        hands=2, seed=3, key="fri", clock=lambda: T0)
        return ph.codes(lib, cn.load_night(lib, "fri"))


def _get(url: str, path: str) -> tuple:
    u = urlsplit(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        c.request("GET", path)
        r = c.getresponse()
        return r.status, r.getheader("location"), r.read().decode()
    finally:
        c.close()


def test_join_codes_are_made_once_per_table_and_unique(tmp_path):
    db = tmp_path / "club.sqlite3"
    codes = _night(db, 12)
    assert sorted(codes) == list(range(1, 13)) and len(set(codes.values())) == 12
    assert all(len(c) == ph.CODE_LEN and set(c) <= set(ph.CODE_CHARS) for c in codes.values())
    with Library(db) as lib:
        assert ph.codes(lib, cn.load_night(lib, "fri")) == codes       # the same codes, not new ones


def test_the_join_page_shows_each_free_tables_code_and_qr_and_hides_a_joined_one(tmp_path):
    db = tmp_path / "club.sqlite3"
    codes = _night(db)
    api = Phones(db)
    try:
        with running(server(db, "fri", "127.0.0.1", 0, phones=api)) as url:
            status, _, page = _get(url, "/join")
            assert status == 200
            for code in codes.values():
                assert f"<div class=code>{code}</div>" in page
                assert qr_svg(join_url(url, code)) in page
            p = TablePhone(tmp_path / "phone1", 1, Wire(url, random.Random(1)))
            p.join(codes[1], time.monotonic() + 20)
            _, _, page = _get(url, "/join")
            assert codes[1] not in page and "its phone has joined" in page and codes[2] in page
            status, where, _ = _get(url, f"/j?code={codes[2].lower()}")
            assert status == 303 and where == f"phone/?join={codes[2]}"
            _, _, tables = _get(url, "/tables")
            assert "web-0001" in tables and f"not joined (code {codes[3]})" in tables
            assert "not started" in tables
    finally:
        api.close()


def test_a_qr_code_encodes_the_join_address():
    url = join_url("http://192.168.1.20:8080/", "K7M2QX")
    assert url == "http://192.168.1.20:8080/phone/?join=K7M2QX"
    m = [list(r) for r in segno.make(url, error="m").matrix]
    lines = qr_lines(url)
    # each text line is two rows of modules, with a quiet zone of two around
    for y, row in enumerate(m):
        for x, dark in enumerate(row):
            ch = lines[(y + 2) // 2][x + 2]
            upper = (y + 2) % 2 == 0
            assert (ch in ("▀", "█") if upper else ch in ("▄", "█")) == bool(dark)


def test_sheets_carry_the_code_and_reset_frees_a_table(tmp_path, capsys):
    db = tmp_path / "club.sqlite3"
    codes = _night(db)
    assert main(["club", "sheet", "--db", str(db), "--url", "http://10.0.0.5:8080/"]) == 0
    out = capsys.readouterr().out
    pages = out.split("\f")
    assert len(pages) == 3
    for t, page in enumerate(pages, 1):
        assert f"enter {codes[t]}" in page and "█" in page
        assert max(len(ln) for ln in page.splitlines()) <= 64
    api = Phones(db)
    try:
        with running(server(db, "fri", "127.0.0.1", 0, phones=api)) as url:
            first = TablePhone(tmp_path / "a", 2, Wire(url, random.Random(1)))
            first.join(codes[2], time.monotonic() + 20)
            second = TablePhone(tmp_path / "b", 2, Wire(url, random.Random(2)))
            req = second.net.join(codes[2], "web-other")
            status, text = second.wire.send(req)
            assert status == 409 and "already has a phone" in json.loads(text)["error"]
            assert main(["club", "table", "reset", "--table", "2", "--db", str(db)]) == 0
            assert f"a phone joins it with the code {codes[2]}" in capsys.readouterr().out
            first.talk()
            assert not first.net.joined() and "reset" in first.net.said
            second.join(codes[2], time.monotonic() + 20)
            assert second.net.joined()
    finally:
        api.close()
    assert main(["club", "table", "reset", "--table", "9", "--db", str(db)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
