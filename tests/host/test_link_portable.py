# portable: runs under MicroPython
# The device side of the link (bower.link) on a real MicroPython as well as
# CPython: requests built by hand from host/PROTOCOL.md (no host code), the
# real store over an in-memory flash (tests/firmware/fakefs.py), replies
# checked line by line.

from binascii import a2b_base64, crc32

import sys

sys.path.insert(0, "tests/firmware")

from fakefs import FakeFS, make_script, play
from bower.link import Link
from bower.protocol import MAX_CHUNK
from bower.store import Store, extra
from euchre import Game, Rules


def _store():
    # The real store over an in-memory flash: g0001 a finished Five-Handed
    # game (some 2.8 KB, more than one GET's chunk), g0002 a Classic game in
    # play.
    fs = FakeFS()
    st = Store("/", fs=fs, device="e66141")
    rules, dealer, inputs = make_script("five", 2)
    g = Game(rules, dealer=dealer)
    st.new_game(g)
    for e in inputs:
        play(g, e)
        st.record(g, e)
    assert g.result
    st.close()
    g = Game(Rules("classic"), dealer=0)
    st.new_game(g)
    g.apply("up H")
    st.record(g, "up H")
    return st


def _games(st):
    return extra("past").games(st)


def _log(st, gid):
    return st.read(gid, 0, 1 << 20)


def _state(st):
    # What a link's requests may change: every game's bytes and marks, the
    # roster, the clock offset.
    return ([(g["id"], _log(st, g["id"]), g["synced"]) for g in _games(st)], list(st.roster), st.clock_offset)


def req(tag, *words):
    body = ("#B? " + tag + " " + " ".join([str(w) for w in words])).encode()
    return body + b" %08x\n" % (crc32(body) & 0xFFFFFFFF)


def replies(out):
    # Parse reply lines; each must carry the marker and a good CRC.
    res = []
    for line in b"".join(out).split(b"\n")[:-1]:
        assert line[:4] == b"#B! ", line
        sp = line.rfind(b" ")
        assert int(line[sp + 1:], 16) == crc32(line[:sp]) & 0xFFFFFFFF, line
        res.append(line[4:sp].decode().split(" "))
    del out[:]
    return res


def make():
    out = []
    st = _store()
    return Link(st, {"version": "0.2.0", "device": "e66141", "board": {}}, out.append, clock=lambda: 700), st, out


def test_hello_and_list():
    link, st, out = make()
    link.feed(req("h1", "HELLO", 1))
    [r] = replies(out)
    assert r[:3] == ["h1", "OK", "proto=1"]
    used, free = st.usage()
    assert "dev=e66141" in r and "used=%d" % used in r and "free=%d" % free in r and "games=2" in r
    assert "time=700" in r
    link.feed(req("l1", "LIST"))
    r = replies(out)
    assert r[0] == ["l1", "OK", "2"]
    g1 = _games(st)[0]
    assert r[1] == ["l1", "GAME", "g0001", str(len(_log(st, "g0001"))), g1["crc"], "finished", "0"]
    assert r[2][:3] == ["l1", "GAME", "g0002"] and r[2][5:] == ["playing", "0"]


def test_get_reassembles_a_file_in_chunks():
    link, st, out = make()
    want = _log(st, "g0001")
    assert len(want) > MAX_CHUNK
    got = b""
    while True:
        link.feed(req("g", "GET", "g0001", len(got), 4096))
        [r] = replies(out)
        assert r[1] == "OK" and r[2] == "g0001" and int(r[3]) == len(got)
        data = b"" if r[6] == "-" else a2b_base64(r[6].encode())
        assert len(data) == int(r[4]) <= MAX_CHUNK
        assert "%08x" % (crc32(data) & 0xFFFFFFFF) == r[5]
        if not data:
            break
        got += data
    assert got == want


def test_synced_roster_clock():
    link, st, out = make()
    link.feed(req("s", "SYNCED", "g0001", "00000000") + req("t", "SYNCED", "g0001", _games(st)[0]["crc"]))
    assert [r[:3] for r in replies(out)] == [["s", "ERR", "stale"], ["t", "OK"]]
    assert _games(st)[0]["synced"] and not _games(st)[1]["synced"]
    link.feed(req("r", "ROSTER", "Ann", "Bob%20Jr", "50%25"))
    assert replies(out) == [["r", "OK", "3"]] and st.roster == ["Ann", "Bob Jr", "50%"]
    link.feed(req("c", "CLOCK", 1763700000))
    assert replies(out) == [["c", "OK", str(1763700000 - 700)]] and st.clock_offset == 1763700000 - 700


def test_errors_have_codes():
    link, st, out = make()
    bad_crc = req("a", "LIST")[:-9] + b"12345678\n"
    link.feed(bad_crc + req("b", "FROB") + req("c", "GET", "../g0001", 0, 9) + req("d", "GET", "g0001", 0)
              + req("e", "CLOCK", "soon") + req("f", "ROSTER", "%zz") + b"#B? g " + b"9" * 900 + b"\n")
    assert [r[:3] for r in replies(out)] == [["a", "ERR", "badcrc"], ["b", "ERR", "unknown"], ["c", "ERR", "badid"],
                                             ["d", "ERR", "badargs"], ["e", "ERR", "badargs"],
                                             ["f", "ERR", "badargs"], ["g", "ERR", "toolong"]]
    assert st.roster == [] and st.clock_offset == 0 and not any(g["synced"] for g in _games(st))


def test_garbage_in_odd_pieces_never_raises_or_changes_anything():
    link, st, out = make()
    before = _state(st)
    seed = 12345
    junk = bytearray()
    for _i in range(3000):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        junk.append((seed >> 16) & 0xFF)
    junk += b"\n" + req("z", "ROSTER", "Eve")[:-3] + b"\x00\xff\n" + req("y", "HELLO", 1)
    i = 0
    n = 1
    while i < len(junk):
        link.feed(bytes(junk[i:i + n]))
        i += n
        n = n % 97 + 1
    rs = replies(out)
    assert rs[-1][:2] == ["y", "OK"]
    assert _state(st) == before
