"""The device side of the link protocol (firmware/bower/link.py) on CPython,
request by request, with a real Store on a temp directory; replies are read
with the host's parser (bower_host.protocol). Also checks every example line
of host/PROTOCOL.md."""

import base64
import os
import re
import time
import zlib
from pathlib import Path

import pytest

from bower.link import MAX_LINE, Link
from bower.protocol import MAX_CHUNK
from bower_host.framing import encode_request, parse_reply, quote_name

from fake_device import HostFs, random_table_game, record_game
from bower.store import Store, extra

ROOT = Path(__file__).resolve().parents[2]
INFO = {"version": "0.2.0", "device": "e6614103e7", "board": {"board": "pico"}}


def crc(b: bytes) -> str:
    return "%08x" % (zlib.crc32(b) & 0xFFFFFFFF)


class Dev:
    def __init__(self, root, store=None, clock=lambda: 5000):
        self.store = store or Store(str(root), fs=HostFs(), device=INFO["device"])
        self.out = []
        self.link = Link(self.store, INFO, self.out.append, clock=clock)

    def feed(self, data: bytes):
        self.out.clear()
        self.link.feed(data)
        return [parse_reply(line) for line in b"".join(self.out).splitlines(keepends=True)]

    def ask(self, tag, cmd, *args):
        return self.feed(encode_request(tag, cmd, *args))


@pytest.fixture
def dev(tmp_path):
    d = Dev(tmp_path)
    long = {"winning_score": 60}     # a log of more than two chunks
    record_game(d.store, "classic", random_table_game("classic", seed=1, options=long), options=long)
    record_game(d.store, "five", ["up H", "pass", "order"])     # still being played
    return d


def files(store):
    return {g["id"]: store.read(g["id"], 0, 1 << 20) for g in extra("past").games(store)}


def test_hello_reports_versions_device_storage_and_clock(dev):
    [r] = dev.ask("t1", "HELLO", 1)
    assert r.tag == "t1" and r.status == "OK"
    kv = dict(w.split("=", 1) for w in r.words[1:])
    used, free = dev.store.usage()
    assert kv == {"proto": "1", "fw": "0.2.0", "dev": "e6614103e7", "used": str(used), "free": str(free),
                  "games": "2", "time": str(5000 + dev.store.clock_offset), "chunk": "2048", "maxline": "512"}
    [r] = dev.ask("t2", "HELLO", 7)        # a newer host: the device answers with what it speaks
    assert r.words[1] == "proto=1"
    [r] = dev.ask("t3", "HELLO", 0)
    assert r.words[:2] == ["ERR", "badversion"]


def test_list_matches_the_store(dev):
    first, *items = dev.ask("L", "LIST")
    assert first.words == ["OK", "2"] and all(i.tag == "L" and i.status == "GAME" for i in items)
    got = [i.words[1:] for i in items]
    assert got == [[g["id"], str(g["size"]), g["crc"], g["state"], "1" if g["synced"] else "0"]
                   for g in extra("past").games(dev.store)]
    assert [w[3] for w in got] == ["finished", "playing"]


@pytest.mark.parametrize("n", [7, 100, 2047, 2048])
def test_get_chunks_reassemble_the_file_exactly(dev, n):
    want = files(dev.store)["g0001"]
    assert len(want) > 2 * MAX_CHUNK
    got, off = b"", 0
    while True:
        [r] = dev.ask("g", "GET", "g0001", off, n)
        gid, o, count, dcrc, data = r.words[1:]
        raw = b"" if data == "-" else base64.b64decode(data, validate=True)
        assert (gid, int(o), int(count), dcrc) == ("g0001", off, len(raw), crc(raw))
        if not raw:
            break
        assert len(raw) == min(n, len(want) - off)
        got += raw
        off += len(raw)
    assert got == want


def test_get_is_bounded_and_checks_its_arguments(dev):
    [r] = dev.ask("a", "GET", "g0001", 0, 99999)
    assert int(r.words[3]) == MAX_CHUNK
    size = extra("past").games(dev.store)[0]["size"]
    [r] = dev.ask("b", "GET", "g0001", size + 10, 5)
    assert r.words[1:] == ["g0001", str(size + 10), "0", "00000000", "-"]
    for args, code in [(("g0001", 0, 0), "badargs"), (("g0001", -1, 5), "badargs"), (("g0001", "x", 5), "badargs"),
                       (("g0001", 0), "badargs"), (("g0001", 0, 12345678901), "badargs"),
                       (("../settings", 0, 5), "badid"), (("g1/../../x", 0, 5), "badid"),
                       (("g0099", 0, 5), "badid"), (("games", 0, 5), "badid")]:
        [r] = dev.ask("c", "GET", *args)
        assert r.words[:2] == ["ERR", code], (args, r.words)


def test_synced_only_with_the_current_crc(dev):
    g = extra("past").games(dev.store)[0]
    [r] = dev.ask("s1", "SYNCED", "g0001", "0badf00d")
    assert r.words[:2] == ["ERR", "stale"] and not extra("past").games(dev.store)[0]["synced"]
    for args, code in [(("g0001", "xyz"), "badargs"), (("g0001",), "badargs"), (("g0042", g["crc"]), "badid"),
                       (("../g0001", g["crc"]), "badid")]:
        [r] = dev.ask("s2", "SYNCED", *args)
        assert r.words[:2] == ["ERR", code], (args, r.words)
    assert not extra("past").games(dev.store)[0]["synced"]
    [r] = dev.ask("s3", "SYNCED", "g0001", g["crc"])
    assert r.words == ["OK"] and extra("past").games(dev.store)[0]["synced"]


def test_damaged_reaches_the_screen(dev):
    # The host stored a game only up to a corrupt line: DAMAGED makes the
    # device say so (a warning the app shows on its next tick).
    from bower.ui import App
    app = App(dev.store, INFO)
    shown = app.toast
    for args, code in [(("g0001", "0"), "badargs"), (("g0001", "x"), "badargs"), (("g0001",), "badargs"),
                       (("g0042", "3"), "badid"), (("../g0001", "3"), "badid")]:
        [r] = dev.ask("d1", "DAMAGED", *args)
        assert r.words[:2] == ["ERR", code], (args, r.words)
    app.tick(100)
    assert app.toast == shown and dev.store.warnings == []
    [r] = dev.ask("d2", "DAMAGED", "g0001", 8)
    assert r.words == ["OK"] and dev.store.warnings == ["g0001 line 8 corrupt: synced up to it"]
    app.tick(200)
    assert app.toast == "g0001 line 8 corrupt: synced up to it" and app.dirty


def test_roster_names_are_percent_decoded_and_validated(dev):
    names = ["Ann", "Bob Jr", "50%", "O'Neil", "a~b.c_d"]
    [r] = dev.ask("r1", "ROSTER", *map(quote_name, names))
    assert r.words == ["OK", "5"] and dev.store.roster == names
    for words in (["Bad%2"], ["Bad%G1"], ["%01ctl"], ["%C3%A9t%C3%A9"], ["Bartholomew"], ["Ann", "Ann"],
                  ["%20pad"], [f"p{i}" for i in range(17)]):
        [r] = dev.ask("r2", "ROSTER", *words)
        assert r.words[:2] == ["ERR", "badargs"], words
    assert dev.store.roster == names
    [r] = dev.ask("r3", "ROSTER")
    assert r.words == ["OK", "0"] and dev.store.roster == []


def test_clock_stores_the_offset_from_the_device_clock(dev):
    [r] = dev.ask("c1", "CLOCK", 1763700000)
    assert r.words == ["OK", str(1763700000 - 5000)] and dev.store.clock_offset == 1763700000 - 5000
    [r] = dev.ask("c2", "HELLO", 1)
    assert "time=1763700000" in r.words
    for bad in ("12", "4102444800", "-5", "1.5e9", "now"):
        [r] = dev.ask("c3", "CLOCK", bad)
        assert r.words[:2] == ["ERR", "badargs"], bad
    assert dev.store.clock_offset == 1763700000 - 5000


def test_malformed_requests_get_coded_errors(dev):
    def err(raw):
        [r] = dev.feed(raw)
        assert r.status == "ERR"
        return r.tag, r.words[1]

    good = encode_request("x1", "LIST")
    assert err(good[:-9] + b"00000000\n") == ("x1", "badcrc")
    assert err(good[:-9] + good[-9:-1].upper() + b"\n") == ("x1", "badline")
    assert err(b"#B? x2 LIST\n") == ("x2", "badline")                   # no CRC
    body = b"#B? x3  LIST"
    assert err(body + b" " + crc(body).encode() + b"\n") == ("x3", "badline")   # an empty word
    body = b"#B? bad-tag LIST"
    assert err(body + b" " + crc(body).encode() + b"\n") == ("-", "badline")
    body = "#B? x4 ROSTER Zo\u00eb".encode()
    assert err(body + b" " + crc(body).encode() + b"\n") == ("x4", "badline")  # not ASCII
    assert err(encode_request("x5", "FORMAT", "/")) == ("x5", "unknown")
    assert err(encode_request("x6", "list")) == ("x6", "unknown")


def test_overlong_lines_are_discarded_to_the_newline_then_all_is_well(dev):
    long = encode_request("big", "ROSTER", *(["x" * 8] * 80))
    assert len(long) > MAX_LINE
    assert dev.feed(long[:300]) == []
    [r] = dev.feed(long[300:])
    assert (r.tag, r.words[:2]) == ("big", ["ERR", "toolong"])
    assert dev.store.roster == []
    [r] = dev.feed(b"y" * 5000 + b"\n" + encode_request("ok", "LIST"))[:1]    # garbage: ignored silently
    assert r.tag == "ok" and r.words[0] == "OK"


def test_noise_partial_lines_crlf_and_garbage(dev):
    assert dev.feed(b"MicroPython v1.27.0; Raspberry Pi Pico\r\n>>> \x00\xff\xfe\n\n\n") == []
    req = encode_request("p1", "HELLO", 1)
    replies = []
    for b in req[:-1]:                       # one byte at a time
        replies += dev.feed(bytes([b]))
    assert replies == []
    [r] = dev.feed(b"\r\n")                   # CRLF line end
    assert r.tag == "p1" and r.status == "OK"
    assert dev.feed(b"\x00" * 100 + b"\n" + bytes(range(256)) + b"\n") == []
    assert dev.link.requests >= 1


def test_storage_failures_become_error_replies_and_feed_never_raises(tmp_path):
    class Broken:
        clock_offset = 0
        roster = []

        def usage(self):
            raise OSError(5, "EIO")

        def games(self):
            raise RuntimeError("bug")

        def count(self):
            raise RuntimeError("bug")

        def listing(self):
            raise RuntimeError("bug")

        def read(self, gid, off, n):
            raise MemoryError

        def mark_synced(self, gid, crc):
            raise OSError(28)

        def mark_many(self, pairs):
            raise OSError(28)

        def set_roster(self, names):
            raise KeyError(names)

        def set_clock_offset(self, s):
            raise TypeError("nope")

    d = Dev(tmp_path, store=Broken())
    assert d.ask("a", "HELLO", 1)[0].words[:2] == ["ERR", "storage"]
    assert d.ask("b", "LIST")[0].words[:2] == ["ERR", "internal"]
    assert d.ask("c", "GET", "g0001", 0, 10)[0].words[:2] == ["ERR", "internal"]
    assert d.ask("d", "SYNCED", "g0001", "00000000")[0].words[:2] == ["ERR", "storage"]
    assert d.ask("e", "ROSTER", "Ann")[0].words[:2] == ["ERR", "internal"]
    assert d.ask("f", "CLOCK", 1763700000)[0].words[:2] == ["ERR", "internal"]
    d.link.feed(memoryview(b"#B? z"))        # odd input types are fine too
    d.link.feed(None)


def test_write_failures_do_not_escape(tmp_path):
    store = Store(str(tmp_path), fs=HostFs(), device="x")

    def write(b):
        raise OSError("USB gone")

    link = Link(store, INFO, write)
    link.feed(encode_request("a", "HELLO", 1))
    link.feed(b"#B? " + b"x" * 1000 + b"\n")


def test_keyboard_interrupt_still_gets_through(tmp_path):
    # mpremote's Ctrl-C raises KeyboardInterrupt inside whatever runs: the
    # link must not swallow it.
    store = Store(str(tmp_path), fs=HostFs(), device="x")

    def write(b):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Link(store, INFO, write).feed(encode_request("a", "HELLO", 1))


def test_poll_reads_stdin_without_blocking(tmp_path):
    store = Store(str(tmp_path), fs=HostFs(), device="x")
    record_game(store, "classic", ["up H", "pass", "order", "tricks 3"])
    rfd, wfd = os.pipe()
    stdin = os.fdopen(rfd, "rb", buffering=0)
    out = []
    link = Link(store, INFO, out.append, clock=lambda: 0, stdin=stdin)
    try:
        t = time.perf_counter()
        for _ in range(100):
            link.poll()                      # nothing waiting: returns at once
        assert (time.perf_counter() - t) / 100 < 0.002 and out == []
        req = encode_request("p", "LIST")
        os.write(wfd, req[:10])
        link.poll()
        assert out == []                     # half a line: nothing yet
        os.write(wfd, req[10:] + b"junk without newline")
        link.poll()
        assert parse_reply(out[0]).words == ["OK", "1"]
        out.clear()
        os.write(wfd, b"\n" + encode_request("q", "HELLO", 1) * 40)   # more than one poll() takes
        link.poll()
        assert len(out) == 1                 # the newline ending "junk..." was one of its two lines
        for _ in range(25):
            n = len(out)
            link.poll()
            assert len(out) - n <= 2         # a bounded amount of work per call
        assert len(out) == 40 and all(parse_reply(o).tag == "q" for o in out)
    finally:
        stdin.close()
        os.close(wfd)


def test_poll_reads_bytes_from_a_text_stdin(tmp_path):
    # As on the device: sys.stdin is text; the link reads its .buffer.
    store = Store(str(tmp_path), fs=HostFs(), device="x")
    rfd, wfd = os.pipe()
    text = os.fdopen(rfd, "r")
    out = []
    link = Link(store, INFO, out.append, stdin=text)
    try:
        os.write(wfd, b"\xff\x00 noise\n" + encode_request("t", "LIST"))
        link.poll()
        link.poll()
        assert [parse_reply(o).words for o in out] == [["OK", "0"]]
    finally:
        text.close()
        os.close(wfd)


def test_protocol_md_examples_are_real():
    text = (ROOT / "host" / "PROTOCOL.md").read_text()
    lines = [ln for ln in text.splitlines() if re.match(r"#B[?!] [a-z][0-9] ", ln)]
    assert len(lines) >= 20
    for ln in lines:
        body, _, c = ln.rpartition(" ")
        if ln.startswith("#B? b3 LIST"):
            assert c == "00000000"           # the deliberately bad-CRC example
            continue
        assert crc(body.encode()) == c, ln
        if ln.startswith("#B!"):
            assert parse_reply(ln.encode()) is not None
    # The GET example's data is what its fields say.
    get = next(ln for ln in lines if ln.startswith("#B! a3 OK"))
    _, _, _, _, _, n, dcrc, data, _ = get.split(" ")
    raw = base64.b64decode(data)
    assert len(raw) == int(n) and crc(raw) == dcrc and raw.startswith(b'[{"dealer": 0')


CLUB = ["fri-1a2b", 3, 2, 5, "progressive", 8, 0, 4, 2, 2, 0, 0, 0, 0, "Ann", quote_name("Bob Jr"), "Cy", "Di"]


def test_club_sets_checks_and_clears_the_round_setup(tmp_path):
    d = Dev(tmp_path)
    [r] = d.ask("c1", "CLUB", *CLUB)
    assert r.status == "OK"
    want = {"night": "fri-1a2b", "table": 3, "round": 2, "tables": 5, "move": "progressive", "hands": 8,
            "minutes": 0, "scoring": {"loner": 4, "set_loner": 2, "renege": 2}, "next": [0, 0, 0, 0],
            "players": ["Ann", "Bob Jr", "Cy", "Di"]}
    assert d.store.club() == want
    for i, bad in ((1, 6), (4, "howell"), (6, 5), (7, 3), (14, "Cy"), (1, "x")):
        args = list(CLUB)
        args[i] = bad
        [r] = d.ask("c2", "CLUB", *args)
        assert (r.status, r.words[1]) == ("ERR", "badargs"), (i, bad)
        assert d.store.club() == want            # nothing changed
    [r] = d.ask("c3", "CLUB", *CLUB[:-1])
    assert (r.status, r.words[1]) == ("ERR", "badargs")
    [r] = d.ask("c4", "CLUB", "-")
    assert r.status == "OK" and d.store.club() is None
    assert Dev(tmp_path).store.club() is None    # after a reboot too


def test_a_pushed_club_round_appears_on_the_home_screen_at_once(tmp_path):
    from bower.ui import App
    d = Dev(tmp_path)
    app = App(d.store, INFO)
    assert "club" not in [v for _, v in app.stack[-1].items]
    [r] = d.ask("c1", "CLUB", *CLUB)
    app.tick(100)
    assert "club" in [v for _, v in app.stack[-1].items] and app.toast == "club round 2, table 3"
    [r] = d.ask("c2", "CLUB", "-")
    app.tick(200)
    assert "club" not in [v for _, v in app.stack[-1].items] and app.toast == "club round removed"
