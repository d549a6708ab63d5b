"""The host client (bower_host.protocol.Client) against the real firmware link
in-process, through a transport that can lose, damage, delay or fake
replies: the corner cases that are awkward to time over a pty."""

import base64
import zlib

import pytest

from bower.link import Link
from bower.store import Store, extra
from bower_host.framing import (CorruptReply, DeviceChanged, DeviceError, LinkTimeout, ProtocolError, encode_request,
                                parse_reply, quote_name)
from bower_host.protocol import Client

from fake_device import HostFs, random_table_game, record_game


def line(body: str) -> bytes:
    b = body.encode()
    return b + b" %08x\n" % (zlib.crc32(b) & 0xFFFFFFFF)


class LoopTransport:
    """write() goes to a Link; its replies come back through readline().
    ``mangle(request, replies) -> replies`` may drop, damage or add lines."""

    name = "loop"

    def __init__(self, link, mangle=None):
        self.link = link
        self.mangle = mangle
        self.lines = []
        self.sent = []

    def write(self, data):
        self.sent.append(data)
        out = []
        self.link.write = out.append
        self.link.feed(data)
        replies = b"".join(out).splitlines(keepends=True)
        if self.mangle:
            replies = self.mangle(data, replies)
        self.lines += replies

    def readline(self, timeout):
        return self.lines.pop(0) if self.lines else None

    def discard_input(self):
        self.lines.clear()


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path), fs=HostFs(), device="e6614103e7")
    long = {"winning_score": 99}     # a log of more than three chunks
    record_game(s, "classic", random_table_game("classic", seed=2, options=long), options=long)
    return s


def client(store, mangle=None, device="e6614103e7", **kw):
    link = Link(store, {"version": "0.2.0", "device": device, "board": {}}, None, clock=lambda: 0)
    return Client(LoopTransport(link, mangle), timeout=0.01, **kw)


def test_requests_are_printable_ascii_whatever_the_names():
    # 0x03 (Ctrl-C) or 0x04 (Ctrl-D) would interrupt or reset MicroPython.
    req = encode_request("t", "ROSTER", *map(quote_name, ["a\x03b", "c\x04", "Zo\u00eb", "x y%"]))
    assert all(0x20 <= b <= 0x7E for b in req[:-1]) and req.endswith(b"\n")
    with pytest.raises(ValueError):
        encode_request("t", "ROSTER", "a\x03")


def test_stale_replies_and_noise_before_the_marker_are_handled(store):
    def mangle(req, replies):
        # An old answer first, then the real one glued to a REPL prompt.
        return [line("#B! zzzz OK proto=1 fw=old dev=other used=0 free=0 games=0"), b">>> " + replies[0]]

    info = client(store, mangle).hello()
    assert info.device == "e6614103e7" and info.firmware == "0.2.0" and info.games == 1


def test_a_newer_protocol_is_refused_clearly(store):
    def mangle(req, replies):
        tag = req.split(b" ")[1].decode()
        return [line(f"#B! {tag} OK proto=2 fw=9 dev=e6614103e7 used=0 free=0 games=0")]

    with pytest.raises(ProtocolError, match="protocol 2.*update"):
        client(store, mangle).hello()


def test_after_a_timeout_a_different_device_is_detected(store):
    c = client(store)
    c.hello()
    lost = {"n": 0}

    def mangle(req, replies):
        if b" LIST " in req and not lost["n"]:
            lost["n"] = 1
            c.t.link.info = dict(c.t.link.info, device="0badc0de")    # another board answers now
            return []
        return replies

    c.t.mangle = mangle
    with pytest.raises(DeviceChanged, match="0badc0de"):
        c.list()


def test_a_damaged_list_line_makes_the_whole_list_asked_again(store):
    damaged = {"n": 0}

    def mangle(req, replies):
        if b" LIST " in req and not damaged["n"]:
            damaged["n"] = 1
            replies[1] = replies[1].replace(b"finished", b"finishee")
        return replies

    c = client(store, mangle)
    [g] = c.list()
    assert g.id == "g0001" and g.state == "finished" and c.resent == 1


def test_fetch_recovers_a_lost_reply_in_the_pipeline(store):
    size = extra("past").games(store)[0]["size"]
    assert size > 3 * 2048
    dropped = []

    def mangle(req, replies):
        if b" GET g0001 2048 " in req and not dropped:
            dropped.append(req)
            return []
        return replies

    c = client(store, mangle)
    c.hello()
    data = b"".join(c.fetch("g0001", 0, size))
    assert data == store.read("g0001", 0, size)
    gets = [r for r in c.t.sent if b" GET " in r]
    offsets = [int(r.split(b" ")[4]) for r in gets]
    assert offsets[:4] == [0, 2048, 4096, 6144] and offsets.count(2048) == 2    # 4 in flight; the lost one again
    assert any(b" HELLO " in r for r in c.t.sent[2:])      # handshake again after the loss


def test_fetch_stops_at_a_short_file_and_errors_are_not_retried(store):
    size = extra("past").games(store)[0]["size"]
    c = client(store)
    assert len(b"".join(c.fetch("g0001", 0, size + 5000))) == size
    with pytest.raises(DeviceError) as e:
        list(c.fetch("g0042", 0, 10))
    assert e.value.code == "badid"
    with pytest.raises(DeviceError) as e:
        c.synced("g0001", "00000000")
    assert e.value.code == "stale"


def test_a_chunk_whose_data_does_not_match_its_crc_is_refused(store):
    def mangle(req, replies):
        w = replies[0].rstrip(b"\n").split(b" ")
        if w[2] == b"OK" and len(w) == 9:
            raw = base64.b64decode(w[7])
            w[7] = base64.b64encode(raw[:-1] + b"X")      # consistent line CRC, wrong data CRC
            return [line(b" ".join(w[:-1]).decode())]
        return replies

    c = client(store, mangle, retries=2)
    with pytest.raises(CorruptReply, match="failed its checks 3 times"):
        c.get("g0001", 0, 100)


def test_silence_is_a_timeout_with_a_hint(store):
    c = client(store, lambda req, replies: [b"Traceback (most recent call last):\r\n"])
    with pytest.raises(LinkTimeout, match="REPL"):
        c.hello()
    assert parse_reply(b"garbage\n") is None


# ----- SYNCED for several games at once ------------------------------------------


def stored_games(store, n):
    # n more finished games, each moved to the archive (the app idle) when the next starts.
    for seed in range(n):
        record_game(store, "classic", random_table_game("classic", seed=10 + seed))
        while store.tidy():
            pass


def test_synced_many_marks_several_games_in_one_request_and_one_write(store):
    stored_games(store, 3)
    games = extra("past").games(store)
    c = client(store)
    c.hello()
    sent = len(c.t.sent)
    words = c.synced_many([(games[0]["id"], games[0]["crc"]), (games[1]["id"], "0badf00d"),
                           ("g0099", games[2]["crc"]), (games[2]["id"], games[2]["crc"])])
    assert words == ["ok", "stale", "badid", "ok"] and len(c.t.sent) == sent + 1
    assert [g["synced"] for g in extra("past").games(store)] == [True, False, True, False]
    # One append to the archive's marks for both.
    with open(store.settings_path[:-8] + "past.mk", "rb") as f:
        assert f.read() == b"Sg0001     \nSg0003     \n"


def test_the_syncer_tells_old_firmware_one_game_at_a_time(store):
    # A device whose SYNCED takes one game answers ERR badargs to several:
    # the host asks again, game by game, and keeps doing so.
    from bower_host.syncer import Syncer, Outcome
    from bower_host.protocol import GameEntry

    calls = []

    class Old:
        def synced_many(self, pairs):
            calls.append(("many", len(pairs)))
            raise DeviceError("badargs", "wrong number of arguments")

        def synced(self, gid, crc):
            calls.append(("one", gid))
            if gid == "g0002":
                raise DeviceError("stale", "CRC does not match")

    s = Syncer(Old(), library=None)
    outs = [Outcome("g%04d" % i, "new") for i in (1, 2, 3)]
    for o in outs:
        s._mark_synced(GameEntry(o.game_id, 10, "00000000", "finished", False), o)
    s._flush_marks()
    s._mark_synced(GameEntry("g0004", 10, "00000000", "finished", False), Outcome("g0004", "new"))
    s._mark_synced(GameEntry("g0005", 10, "00000000", "finished", False), Outcome("g0005", "new"))
    s._flush_marks()
    assert calls == [("many", 3), ("one", "g0001"), ("one", "g0002"), ("one", "g0003"),
                     ("one", "g0004"), ("one", "g0005")]
    assert "changed on the device meanwhile" in outs[1].message and outs[0].message == ""
