"""`bower rules push` (issue 36): a rules file's presets onto the device over
the link protocol's PRESET (host/PROTOCOL.md).

The device side is the real firmware: `bower.link.Link` and `bower.protoset`
answering from a real `bower.store.Store`, over a pseudo-terminal
(tests/host/fake_device.py) for the command line, in-process for single
requests; what the device keeps is read back with `bower.presets.load`, and
"unchanged" means the presets file's bytes are the same.
"""

import json
import os
import tempfile
import threading
import time
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bower import presets
from bower.link import Link
from bower.store import Store
from bower_host.cli import main
from bower_host.framing import encode_request, parse_reply

from fake_device import FakeDevice, HostFs

FAST = ["--timeout", "0.2"]
INFO = {"version": "0.2.0", "device": "e6614103e7", "board": {"board": "pico"}}
OLD = [{"name": "Old rules", "variant": "five", "options": {"jokers": True}, "quick": False}]
FILE = [
    {"name": "Friday rules", "variant": "classic", "target": 11, "quick": False,
     "options": {"std": True, "canadian": True, "loner_lead": "LEFT_OF_LONER", "no_late_loners": True}},
    {"name": "Kids 50%", "variant": "three", "options": {"winning_score": 7, "raise_target": True}, "quick": True},
    {"name": "Six", "variant": "six"},
]
# What the device keeps of FILE: every field, in the file's order.
KEPT = [
    {"name": "Friday rules", "variant": "classic", "target": 11, "quick": False,
     "options": {"std": True, "canadian": True, "loner_lead": "LEFT_OF_LONER", "no_late_loners": True}},
    {"name": "Kids 50%", "variant": "three", "options": {"winning_score": 7, "raise_target": True}, "quick": True},
    {"name": "Six", "variant": "six", "options": {}, "quick": False},
]


def flash(store) -> bytes | None:
    # The presets file's bytes (None: no file).
    try:
        with open(presets.path(store), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def rules_file(tmp_path, ps, name="friday.json"):
    p = tmp_path / name
    p.write_text(json.dumps({"bower_rules": 1, "presets": ps}))
    return str(p)


def sent(dev) -> int:
    return sum(b" PRESET " in r for r in dev.requests)


def push(dev, *args):
    return main(["rules", "push", *args, "--port", dev.port, *FAST])


@pytest.fixture
def dev(tmp_path):
    d = FakeDevice(tmp_path / "flash")
    presets.save(d.store, OLD)
    d.start()
    yield d
    d.stop()
    assert d.error is None, d.error


def one_line(err: str) -> str:
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("bower: "), err
    return err


# ----- the command -----------------------------------------------------------


def test_a_push_replaces_the_presets_in_order_and_clear_removes_them(dev, tmp_path, capsys):
    assert push(dev, rules_file(tmp_path, FILE)) == 0
    assert capsys.readouterr().out == "Presets on device e6614103e7: Friday rules, Kids 50%, Six\n"
    assert presets.load(dev.store) == (KEPT, [])
    assert presets.load(Store(str(tmp_path / "flash"), fs=HostFs(), device="x")) == (KEPT, [])   # a reboot
    assert sent(dev) == 3
    # Pushed again in another order: that order.
    assert push(dev, rules_file(tmp_path, FILE[::-1])) == 0
    assert presets.load(dev.store) == (KEPT[::-1], [])
    assert push(dev, "--clear") == 0
    assert capsys.readouterr().out.endswith("Presets on device e6614103e7: none\n")
    assert presets.load(dev.store) == ([], [])


def test_a_file_with_a_problem_sends_nothing(dev, tmp_path, capsys):
    before = flash(dev.store)
    bad = [FILE[0], {"name": "Kids", "variant": "five", "options": {"joker": True}}, FILE[0]]
    assert push(dev, rules_file(tmp_path, bad)) == 1
    cap = capsys.readouterr()
    assert "Five-Handed Euchre has no option 'joker'" in cap.out and "has this name" in cap.out
    assert one_line(cap.err).endswith("has 2 problems: nothing sent\n")
    nine = [dict(FILE[2], name=f"P{i}") for i in range(9)]
    assert push(dev, rules_file(tmp_path, nine)) == 1
    cap = capsys.readouterr()
    assert "9 presets: a device keeps at most 8" in cap.out
    assert one_line(cap.err).endswith("has 1 problem: nothing sent\n")
    (tmp_path / "junk.json").write_text("{")
    assert push(dev, str(tmp_path / "junk.json")) == 1
    one_line(capsys.readouterr().err)
    assert sent(dev) == 0 and dev.requests == [] and flash(dev.store) == before


def test_a_refusal_of_the_device_is_one_line_and_changes_nothing(dev, tmp_path, capsys, monkeypatch):
    # An option Five-Handed lacks, past the host's check: the device's own
    # check (bower.presets.save) refuses the push at its last preset.
    from bower_host.commands import rules as rulescmd
    monkeypatch.setattr(rulescmd, "problems", lambda doc: (len(doc["presets"]), []))
    before = flash(dev.store)
    bad = [FILE[0], {"name": "Kids", "variant": "five", "options": {"joker": True}}]
    assert push(dev, rules_file(tmp_path, bad)) == 1
    err = one_line(capsys.readouterr().err)
    assert "the device refused the presets: preset 'Kids': Five-Handed Euchre has no option 'joker'" in err
    assert "it keeps the presets it had" in err
    assert sent(dev) == 2 and flash(dev.store) == before and presets.load(dev.store) == (OLD, [])


def test_a_link_dropped_after_preset_2_of_3_leaves_the_old_presets(tmp_path, capsys):
    class Unplugged(FakeDevice):
        # The cable pulled once preset 2 is answered.
        def _incoming(self, data):
            super()._incoming(data)
            if sent(self) >= 2 and self.master >= 0:
                time.sleep(0.2)
                os.close(self.master)
                self.master = -1

    root = tmp_path / "flash"
    d = Unplugged(root)
    presets.save(d.store, OLD)
    before = flash(d.store)
    with d:
        assert push(d, rules_file(tmp_path, FILE)) == 1
    err = one_line(capsys.readouterr().err)
    assert "the device keeps the presets it had unless the last one reached it" in err
    assert sent(d) == 2 and d.link.presets is not None      # two waited in RAM, never written
    with FakeDevice(root) as again:                            # plugged in again
        assert presets.load(again.store) == (OLD, []) and flash(again.store) == before
        assert push(again, rules_file(tmp_path, FILE)) == 0
        assert presets.load(again.store) == (KEPT, [])


def test_a_lost_reply_is_asked_again_and_the_push_goes_on(tmp_path, capsys):
    class LosesAReply(FakeDevice):
        # The reply to preset 2 is lost once (the device took it).
        lost = False

        def _send(self, data):
            if sent(self) == 2 and not self.lost:
                self.lost = True
                return
            super()._send(data)

    d = LosesAReply(tmp_path / "flash")
    with d:
        assert push(d, rules_file(tmp_path, FILE)) == 0
    assert d.lost and sent(d) == 4       # preset 2 twice
    assert presets.load(d.store) == (KEPT, [])


def test_firmware_without_preset_is_told_to_update(dev, capsys, monkeypatch):
    # An older Bower answers a command it lacks ERR unknown (host/PROTOCOL.md, Versioning).
    from bower import protocol, protoset
    run = protoset.run

    def old(lk, tag, cmd, *a):
        if cmd == "PRESET":
            raise protocol._Fail("unknown", "unknown command PRESET")
        return run(lk, tag, cmd, *a)
    monkeypatch.setattr(protoset, "run", old)
    before = flash(dev.store)
    assert push(dev, "--clear") == 1
    assert "firmware does not know presets (no PRESET command): update it" in one_line(capsys.readouterr().err)
    assert flash(dev.store) == before


@pytest.mark.parametrize("reply, says", [(r, "the device answered PRESET with") for r in ("OK", "OK 2", "OK 1 more",
                                                                                           "OK 01")]
                         + [("GAME 1", "unexpected reply to PRESET")])
def test_a_reply_other_than_ok_i_is_an_error(tmp_path, capsys, reply, says):
    import zlib

    class Lies(FakeDevice):
        # Answers preset 1 with ``reply`` (a good CRC), and takes nothing.
        def _incoming(self, data):
            line = data.split(b"\n")[0]
            w = line.split(b" ")
            if w[2:3] != [b"PRESET"]:
                return super()._incoming(data)
            self.requests.append(line)
            body = b"#B! " + w[1] + b" " + reply.encode()
            self._raw_write(body + b" %08x\n" % (zlib.crc32(body) & 0xFFFFFFFF))

    with Lies(tmp_path / "flash") as d:
        assert push(d, rules_file(tmp_path, FILE)) == 1
    err = one_line(capsys.readouterr().err)
    assert says in err and 1 <= sent(d) <= 4 and flash(d.store) is None


def test_the_simulator_takes_a_push(tmp_path, capsys):
    # bower sim --serve: the same firmware link over its store.
    from bower_host import simulator
    from bower_host.simlink import SimLink

    sim = simulator.Device(str(tmp_path / "sim"))
    with SimLink(sim.store, sim.info) as served:
        status = []
        host = threading.Thread(target=lambda: status.append(
            main(["rules", "push", rules_file(tmp_path, FILE), "--port", served.port])))
        host.start()
        end = time.monotonic() + 30
        while host.is_alive() and time.monotonic() < end:
            served.serve()
            time.sleep(0.005)
        host.join(5)
    assert status == [0], capsys.readouterr().err
    assert f"Presets on device {sim.id}: Friday rules, Kids 50%, Six" in capsys.readouterr().out
    assert presets.load(sim.store) == (KEPT, [])


# ----- the device, request by request ----------------------------------------


class Dev:
    def __init__(self, root):
        self.store = Store(str(root), fs=HostFs(), device=INFO["device"])
        self.out = []
        self.link = Link(self.store, INFO, self.out.append, clock=lambda: 5000)

    def ask(self, *words):
        self.out.clear()
        self.link.feed(encode_request("t1", "PRESET", *words))
        [r] = [parse_reply(line) for line in b"".join(self.out).splitlines(keepends=True)]
        return r.words


def words(p, i, n):
    from bower_host.protocol import preset_words
    return [i, n, *preset_words(p)]


def test_out_of_order_or_bad_words_are_badargs_and_the_flash_unchanged(tmp_path):
    d = Dev(tmp_path)
    presets.save(d.store, OLD)
    before = flash(d.store)
    cases = [
        [words(FILE[0], 2, 3)],                                 # not starting at 1
        [words(FILE[0], 1, 3), words(FILE[1], 3, 3)],           # 2 left out
        [words(FILE[0], 1, 3), words(FILE[1], 2, 2)],           # N changed
        [words(FILE[0], 1, 2), [2, 2, "Kids", "three", "-"]],          # no QUICK
        [words(FILE[0], 1, 3), words(FILE[1], 2, 3), words(FILE[2], 2, 3)],   # 2 again, another one
        [[1, 1, "Bad%2", "classic", "-", "0"]], [[1, 1, "%01ctl", "classic", "-", "0"]],
        [[1, 1, "Ann", "classic", "-", "2"]], [[1, 1, "Ann", "classic", "x", "0"]],
        [[1, 1, "Ann", "classic", "-", "0", "std"]], [[1, 1, "Ann", "classic", "-", "0", "=true"]],
        [[1, 1, "Ann", "classic", "-", "0", "std="]], [[1, 1, "Ann", "classic", "-", "0", "std=true", "std=false"]],
        [[1, 1, "Ann", "classic", "-", "0", "winning_score=12345678901"]],
        [[0, 1]], [[1, 0]], [[9, 9, "Ann", "classic", "-", "0"]], [[0, 0, "Ann"]], [[1, 1, "Ann", "classic"]],
        [[1, 1, "Ann", "nope", "-", "0"]], [[1, 1, "Ann", "classic", "0", "0"]],
        [[1, 1, "x" * 13, "classic", "-", "0"]], [[1, 1, "Ann", "five", "-", "0", "joker=true"]],
        [[1, 2, "Ann", "classic", "-", "0"], [2, 2, "Ann", "three", "-", "0"]],      # a name twice
    ]
    for case in cases:
        *first, last = case
        for w in first:
            assert d.ask(*w) == ["OK", str(w[0])], (case, w)
        r = d.ask(*last)
        assert r[:2] == ["ERR", "badargs"], (case, r)
        assert flash(d.store) == before and d.link.presets is None, case
    # After a refusal the push starts again at 1; the whole of it is kept.
    assert d.ask(*words(FILE[1], 2, 3))[:2] == ["ERR", "badargs"]
    for i, p in enumerate(FILE, 1):
        assert d.ask(*words(p, i, 3)) == ["OK", str(i)]
    assert presets.load(d.store) == (KEPT, [])
    assert d.ask(*words(FILE[2], 3, 3)) == ["OK", "3"]       # the last again (its reply lost): the same
    assert d.ask(0, 0) == ["OK", "0"] and presets.load(d.store) == ([], [])


def test_an_unfinished_push_is_dropped_when_the_host_goes_quiet(tmp_path):
    d = Dev(tmp_path)
    assert d.ask(*words(FILE[0], 1, 2)) == ["OK", "1"]
    r, w = os.pipe()
    try:
        d.link._in = os.fdopen(r, "rb", buffering=0)
        for _ in range(600):
            d.link.poll()
        assert d.link.presets is None
        assert d.ask(*words(FILE[1], 2, 2))[:2] == ["ERR", "badargs"] and flash(d.store) is None
    finally:
        os.close(w)
        d.link._in.close()


# Words a PRESET may carry: real ones, near misses and junk.
_TOKENS = hs.sampled_from(["0", "1", "2", "3", "8", "9", "-", "x", "01", "99", "12345678901", "Ann", "Kids%2050%25",
                           "%zz", "%4", "%41", "x" * 13, "classic", "five", "three", "six", "two", "ultimate",
                           "callpartner", "nope", "std=true", "std=false", "std=1", "canadian=true",
                           "loner_lead=LEFT_OF_LONER", "loner_lead=LEFT", "winning_score=7", "winning_score=0",
                           "winning_score=100", "min_rank=7", "min_rank=8", "march=2", "jokers=true",
                           "joker=true", "raise_target=true", "no_late_loners=true", "misdeal_passes=true",
                           "farmers_nines_only=true", "round_hands=4", "=", "std=", "=true", "a=b=c", "std"])
_WORD = hs.one_of(_TOKENS, hs.text(hs.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12))
_REQUEST = hs.one_of(
    hs.lists(_WORD, max_size=12),
    hs.tuples(hs.integers(0, 9), hs.integers(0, 9), hs.sampled_from(["Ann", "Bob", "Kids%2050%25"]),
              hs.sampled_from(["classic", "three", "five", "six"]), hs.sampled_from(["-", "7", "11"]),
              hs.sampled_from(["0", "1"]), hs.lists(_TOKENS, max_size=4)).map(
        lambda t: [str(t[0]), str(t[1]), *t[2:6], *t[6]]))


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(requests=hs.lists(_REQUEST, min_size=1, max_size=12))
def test_any_words_after_preset_are_ok_or_err_and_write_only_a_whole_valid_push(requests):
    with tempfile.TemporaryDirectory() as root:
        d = Dev(root)
        presets.save(d.store, OLD)
        before = flash(d.store)
        push = []            # the requests of the push under way, as the device took them
        for w in requests:
            r = d.ask(*w)
            assert r[0] in ("OK", "ERR"), r
            if r[0] == "ERR":
                assert r[1] == "badargs", r     # never internal (an exception the link caught)
                push = []
                assert flash(d.store) == before, (w, r)
                continue
            i, n = int(w[0]), int(w[1])
            assert r == ["OK", str(i)]
            if i == 0:
                push, before = [], flash(d.store)
                assert presets.load(d.store) == ([], [])
                continue
            if i == 1:
                push = [w]
            elif len(push) != i:        # (else the last one again: the device took it before)
                push = push + [w]
            assert len(push) == i and all(int(x[0]) == j for j, x in enumerate(push, 1))
            if i < n:
                assert flash(d.store) == before, (w, r)
            else:
                before = flash(d.store)
                got, bad = presets.load(d.store)
                assert bad == [] and [p["name"] for p in got] == [unquote(x[2]) for x in push]
                assert [p["variant"] for p in got] == [x[3] for x in push]
