# portable: runs under MicroPython
# The device side of the link (bower.link) on a real MicroPython as well as
# CPython: requests built by hand from host/PROTOCOL.md (no host code), an
# in-memory store with the Store API, replies checked line by line.

from binascii import a2b_base64, crc32

from bower.link import Link
from bower.protocol import MAX_CHUNK


class MemStore:
    # The parts of bower.store.Store the link uses, in memory.
    def __init__(self):
        self.files = {"g0001": bytes(range(32, 127)) * 50 + b"\n", "g0002": b'["up H","d89347b8"]\n'}
        self.synced = {}
        self.roster = []
        self.clock_offset = 0

    def _crc(self, gid):
        return "%08x" % (crc32(self.files[gid]) & 0xFFFFFFFF)

    def games(self):
        return [{"id": g, "size": len(self.files[g]), "crc": self._crc(g),
                 "state": "finished" if g == "g0001" else "playing",
                 "synced": self.synced.get(g) == self._crc(g)} for g in sorted(self.files)]

    def listing(self):
        # As bower.past.listing: LIST's lines, oldest first.
        for g in self.games():
            yield ("%s %d %s %s %d" % (g["id"], g["size"], g["crc"], g["state"], 1 if g["synced"] else 0)).encode()

    def count(self):
        return len(self.files)

    def read(self, gid, off, n):
        if gid not in self.files:
            raise ValueError("no game " + gid)
        return self.files[gid][off:off + n]

    def mark_synced(self, gid, crc):
        if gid not in self.files:
            raise ValueError("no game " + gid)
        if crc != self._crc(gid):
            return False
        self.synced[gid] = crc
        return True

    def mark_many(self, pairs):
        # As bower.past.mark_many: mark_synced for each (id, crc); None: no such game.
        out = []
        for gid, c in pairs:
            try:
                out.append(self.mark_synced(gid, c))
            except ValueError:
                out.append(None)
        return out

    def set_roster(self, names):
        for n in names:
            if not 0 < len(n) <= 8:
                raise ValueError("bad name")
        self.roster = list(names)

    def set_clock_offset(self, s):
        self.clock_offset = s

    def usage(self):
        return 1234, 56789


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
    st = MemStore()
    return Link(st, {"version": "0.2.0", "device": "e66141", "board": {}}, out.append, clock=lambda: 700), st, out


def test_hello_and_list():
    link, st, out = make()
    link.feed(req("h1", "HELLO", 1))
    [r] = replies(out)
    assert r[:3] == ["h1", "OK", "proto=1"]
    assert "dev=e66141" in r and "used=1234" in r and "free=56789" in r and "games=2" in r and "time=700" in r
    link.feed(req("l1", "LIST"))
    r = replies(out)
    assert r[0] == ["l1", "OK", "2"]
    assert r[1] == ["l1", "GAME", "g0001", str(len(st.files["g0001"])), st._crc("g0001"), "finished", "0"]
    assert r[2][:3] == ["l1", "GAME", "g0002"] and r[2][5:] == ["playing", "0"]


def test_get_reassembles_a_file_in_chunks():
    link, st, out = make()
    want = st.files["g0001"]
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
    link.feed(req("s", "SYNCED", "g0002", "00000000") + req("t", "SYNCED", "g0002", st._crc("g0002")))
    assert [r[:3] for r in replies(out)] == [["s", "ERR", "stale"], ["t", "OK"]]
    assert st.games()[1]["synced"]
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
    assert st.roster == [] and st.clock_offset == 0 and st.synced == {}


def test_garbage_in_odd_pieces_never_raises_or_changes_anything():
    link, st, out = make()
    before = (dict(st.files), st.roster, st.clock_offset, dict(st.synced))
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
    assert (dict(st.files), st.roster, st.clock_offset, dict(st.synced)) == before
