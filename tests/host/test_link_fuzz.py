"""Fuzz the device side of the link: random bytes and mutated protocol lines,
cut into random pieces, go to Link.feed. It must never raise, every byte it
writes must be a well-formed reply, and stored games never change -- the
only changes allowed are the synced flags, the roster, the clock offset and
the club round's setup, and only when the input held an intact SYNCED,
ROSTER, CLOCK or CLUB request; a club setup that changed is a valid one."""

import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.link import Link
from bower.store import Store, extra
from bower_host.framing import encode_request, parse_reply

from fake_device import HostFs, random_table_game, record_game

INFO = {"version": "0.2.0", "device": "e6614103e7", "board": {}}
MUTATORS = {"SYNCED": "synced", "ROSTER": "roster", "CLOCK": "clock", "CLUB": "club"}
CLUB = ("CLUB", "fri-1a2b", "3", "2", "5", "progressive", "8", "0", "4", "2", "2", "0", "0", "0", "0",
        "Ann", "Bob%20Jr", "Cy", "Di")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = Store(str(tmp_path_factory.mktemp("flash")), fs=HostFs(), device=INFO["device"])
    record_game(s, "classic", random_table_game("classic", seed=4))
    record_game(s, "five", ["up H", "pass", "pass", "order"])      # in progress
    return s


def snapshot(s):
    games = extra("past").games(s)
    return {
        "files": {g["id"]: s.read(g["id"], 0, 1 << 20) for g in games},
        "games": [{k: v for k, v in g.items() if k != "synced"} for g in games],
        "synced": [g["synced"] for g in games],
        "roster": list(s.roster),
        "clock": s.clock_offset,
        "settings": dict(s.settings),
        "club": s.club(),
    }


def intact_mutators(data: bytes) -> set:
    # Which of synced/roster/clock an intact request in ``data`` may change.
    out = set()
    for line in data.split(b"\n")[:-1]:          # complete lines only
        line = line[:-1] if line.endswith(b"\r") else line
        if not line.startswith(b"#B? ") or len(line) > 512:
            continue
        body, _, c = line.rpartition(b" ")
        words = body.split(b" ")
        if len(words) >= 3 and c == b"%08x" % (zlib.crc32(body) & 0xFFFFFFFF):
            kind = MUTATORS.get(words[2].decode("latin-1"))
            if kind:
                out.add(kind)
    return out


def request_pool(crcs) -> list:
    # Well-formed requests (good CRC) with good and bad arguments.
    ids = ["g0001", "g0002", "g0099", "../g0001", "g1/../../settings", "games"]
    nums = ["0", "1", "2048", "99999", "-1", "1763700000", "12345678901", "x"]
    reqs = [("HELLO", "1"), ("HELLO", "0"), ("HELLO",), ("LIST",), ("LIST", "1"), ("FROB",), ("get", "g0001"),
            ("ROSTER",), ("ROSTER", "Ann", "Bob%20Jr"), ("ROSTER", "%zz"), ("ROSTER", "Bartholomew"),
            ("ROSTER", "Ann", "Ann"), ("ROSTER", "%01"), ("CLOCK", "1763700000"), ("CLOCK", "12"),
            ("CLOCK",), ("SYNCED", "g0001"), ("SYNCED", "g0001", "zz"),
            CLUB, ("CLUB", "-"), ("CLUB",), CLUB[:-1], CLUB[:2] + ("99",) + CLUB[3:], CLUB[:5] + ("howell",) + CLUB[6:],
            CLUB[:7] + ("5",) + CLUB[8:], CLUB[:15] + ("Ann",) + CLUB[16:], CLUB[:15] + ("%zz",) + CLUB[16:]]
    reqs += [("GET", i, o, n) for i in ids for o in nums[:3] for n in nums]
    reqs += [("SYNCED", i, c) for i in ids for c in crcs + ["0badf00d"]]
    tags = ["a", "Z9", "12345678"]
    return [encode_request(tags[k % 3], *r) for k, r in enumerate(reqs)] + [
        b"#B? 123456789 LIST 0a1b2c3d\n", b"#B? t LIST\n", "#B? t ROSTER Zo\u00eb 00000000\n".encode()]


def inputs(pool):
    mutation = st.tuples(st.sampled_from(["flip", "delete", "insert", "truncate", "double"]),
                         st.integers(0, 10_000), st.sampled_from([0, 1, 3, 4, 10, 13, 32, 35, 127, 128, 255]))

    def mutate(args):
        line, ops = args
        b = bytearray(line)
        for op, i, x in ops:
            if not b:
                break
            i %= len(b)
            if op == "flip":
                b[i] ^= x or 1
            elif op == "delete":
                del b[i]
            elif op == "insert":
                b.insert(i, x)
            elif op == "truncate":
                del b[i:]
            else:
                b[i:i] = b[:i]
        return bytes(b)

    piece = st.one_of(
        st.sampled_from(pool),
        st.tuples(st.sampled_from(pool), st.lists(mutation, min_size=1, max_size=3)).map(mutate),
        st.binary(max_size=120),
        st.integers(500, 3000).map(lambda n: b"#B? a LIST " + b"9" * n + b"\n"),
        st.just(b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n>>> "),
    )
    return st.lists(piece, min_size=1, max_size=8).map(b"".join)


def test_feed_survives_anything_and_only_intact_requests_change_anything(store):
    pool = request_pool([g["crc"] for g in extra("past").games(store)])

    @settings(max_examples=200, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=inputs(pool), cuts=st.lists(st.integers(1, 64), max_size=20))
    def run(data, cuts):
        before = snapshot(store)
        out = []
        link = Link(store, INFO, out.append, clock=lambda: 100)
        i = 0
        for n in cuts:
            link.feed(data[i:i + n])
            i += n
        link.feed(data[i:])
        link.feed(b"\n")                      # end any partial line
        after = snapshot(store)
        allowed = intact_mutators(data + b"\n")
        assert after["files"] == before["files"]
        assert after["games"] == before["games"]
        assert after["settings"] == before["settings"]
        for kind in ("synced", "roster", "clock", "club"):
            if kind not in allowed:
                assert after[kind] == before[kind], (kind, data)
        if after["club"] is not None:
            from bower.clubsetup import check
            check(after["club"])                 # whatever got in is a valid setup
        for line in b"".join(out).splitlines(keepends=True):
            assert line.endswith(b"\n") and parse_reply(line) is not None, line

    run()
