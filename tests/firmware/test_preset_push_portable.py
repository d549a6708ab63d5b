# portable: runs under MicroPython
# PRESET (host/PROTOCOL.md; bower.protoset) on the interpreter the Pico
# runs: requests built by hand, the real link and store on an in-memory
# FakeFS. The presets file changes only at the last preset of a push in
# order, or at PRESET 0 0; any error drops the push; bower.presets is not
# left loaded. The host's side is tests/host/test_preset_push.py.

import sys
from binascii import crc32

from fakefs import FakeFS
from bower.link import Link
from bower.store import Store
from bower import presets

P = "/presets"
OLD = [{"name": "Old", "variant": "five", "options": {"jokers": True}, "quick": False}]
FRIDAY = ["Friday%20rules", "classic", "11", "0", "std=true", "loner_lead=LEFT_OF_LONER"]
KIDS = ["Kids", "three", "-", "1", "winning_score=7", "raise_target=true"]
KEPT = [{"name": "Friday rules", "variant": "classic", "options": {"std": True, "loner_lead": "LEFT_OF_LONER"},
         "target": 11, "quick": False},
        {"name": "Kids", "variant": "three", "options": {"winning_score": 7, "raise_target": True}, "quick": True}]


def req(*words):
    body = ("#B? t1 PRESET " + " ".join([str(w) for w in words])).encode()
    return body + b" %08x\n" % (crc32(body) & 0xFFFFFFFF)


class Dev:
    def __init__(self):
        self.fs = FakeFS()
        self.store = Store("/", fs=self.fs)
        presets.save(self.store, OLD)
        self.out = []
        self.link = Link(self.store, {"version": "x", "device": "d"}, self.out.append, clock=lambda: 0)

    def ask(self, *words):
        del self.out[:]
        self.link.feed(req(*words))
        line = b"".join(self.out)
        assert line.count(b"\n") == 1, line
        return line.decode().split(" ")[2:-1]

    def flash(self):
        return bytes(self.fs.files[P])


def test_a_push_is_written_at_its_last_preset_only():
    d = Dev()
    before = d.flash()
    assert d.ask(1, 2, *FRIDAY) == ["OK", "1"]
    assert d.flash() == before
    assert d.ask(2, 2, *KIDS) == ["OK", "2"]
    assert presets.load(d.store) == (KEPT, [])
    assert d.ask(2, 2, *KIDS) == ["OK", "2"]        # the last again: the same answer
    assert d.ask(0, 0) == ["OK", "0"] and presets.load(d.store) == ([], [])


def test_out_of_order_and_bad_words_drop_the_push_and_change_nothing():
    d = Dev()
    before = d.flash()
    for first, last in ((None, [2, 2] + KIDS), ([1, 3] + FRIDAY, [3, 3] + KIDS), ([1, 3] + FRIDAY, [2, 2] + KIDS),
                        ([1, 2] + FRIDAY, [2, 2, "Kids", "three", "-", "2"]),
                        ([1, 2] + FRIDAY, [2, 2] + KIDS + ["std=1"]),
                        ([1, 2] + FRIDAY, [2, 2] + KIDS + ["winning_score=8"]),
                        (None, [1, 1, "Bad%2", "classic", "-", "0"]), (None, [1, 1] + FRIDAY + ["std"]),
                        (None, [1, 1, "Kids", "five", "-", "0", "joker=true"]), (None, [9, 9] + KIDS),
                        (None, [1, 0] + KIDS), (None, [0, 0, "x"])):
        if first is not None:
            assert d.ask(*first) == ["OK", str(first[0])]
        r = d.ask(*last)
        assert r[:2] == ["ERR", "badargs"], (last, r)
        assert d.flash() == before and d.link.presets is None, last
    assert d.ask(2, 2, *KIDS)[:2] == ["ERR", "badargs"]       # nothing held: start again at 1
    assert presets.load(d.store) == (OLD, [])


def test_bower_presets_is_not_left_loaded():
    d = Dev()
    from bower import unload
    unload("bower.presets")
    assert d.ask(1, 1, *KIDS) == ["OK", "1"]
    assert "bower.presets" not in sys.modules
