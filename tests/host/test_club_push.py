"""`bower club push`: a table's round setup sent to its Bower (host/CLUB.md).

The setup is checked against the night's seating (the next round's table of
each seat where the movement fixes it), the request line the client builds
against the documented ``CLUB`` command, the command line against a scripted
transport (errors in one line, exit status 1), and -- the last test -- the
whole path through the real firmware link (tests/host/fake_device.py).
"""

from __future__ import annotations

import pytest

from bower_host import connect
from bower_host.cli import main
from bower_host.club import night as cn
from bower_host.club.push import round_setup, setup_text
from bower_host.db import Library
from bower_host.framing import crc_hex, encode_request
from bower_host.protocol import Client

NAMES12 = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
T0 = 1763700000


class Scripted:
    """A transport that answers every request from a function of its words
    (``answer(words) -> reply words``) and keeps the request lines."""

    name = "scripted"

    def __init__(self, answer=None):
        self.sent: list = []
        self.out: list = []
        self.answer = answer or (lambda words: ["OK"])
        self.closed = False

    def write(self, data: bytes) -> None:
        self.sent.append(data)
        words = data.decode().split()
        tag, cmd = words[1], words[2]
        reply = ["OK", "proto=1", "fw=0.3.0", "dev=e6614103e7", "used=0", "free=1000", "games=0"] \
            if cmd == "HELLO" else self.answer(words[2:-1])
        body = ("#B! " + " ".join([tag, *reply])).encode()
        self.out.append(body + b" " + crc_hex(body).encode() + b"\n")

    def readline(self, timeout):
        return self.out.pop(0) if self.out else None

    def close(self) -> None:
        self.closed = True

    def requests(self, cmd: str) -> list:
        return [s for s in self.sent if s.split(b" ")[2] == cmd.encode()]


@pytest.fixture
def lib(tmp_path):
    with Library(tmp_path / "lib.sqlite3", clock=lambda: T0) as lib:
        yield lib


def night_of(lib, movement, names=NAMES12, tables=3, rounds=4, **kw):
    kw.setdefault("hands", 8)
    return cn.create_night(lib, "Friday", names, tables, movement, rounds, seed=5, key="fri", clock=lambda: T0,
                           scoring={"loner": 5, "set_loner": 3, "renege": 1}, **kw)


# ----- what is sent -----------------------------------------------------------------------

@pytest.mark.parametrize("movement, names, tables", [
    ("fixed", NAMES12, 3), ("partners", NAMES12 + ["Mo"], None)])
def test_the_next_round_is_sent_where_the_movement_fixes_it(lib, movement, names, tables):
    night = night_of(lib, movement, names, tables)
    for rnd in range(1, night.rounds + 1):
        plan = night.seating(rnd)
        for t, seats in enumerate(plan.tables, 1):
            s = round_setup(night, rnd, t)
            assert s["names"] == [night.name_of(p) for p in seats]
            assert (s["night"], s["table"], s["rnd"], s["tables"], s["movement"]) == ("fri", t, rnd, 3, movement)
            assert (s["hands"], s["minutes"], s["loner"], s["set_loner"], s["renege"]) == (8, 0, 5, 3, 1)
            if rnd == night.rounds:
                assert s["next_tables"] == [0, 0, 0, 0]          # no next round
            else:
                later = night.seating(rnd + 1)
                assert s["next_tables"] == [(later.where(p) or (0,))[0] for p in seats]
    if movement == "fixed":
        # N stays, E up 1, S down 1, W up 2 (host/CLUB.md).
        assert round_setup(night, 1, 1)["next_tables"] == [1, 2, 3, 3]
    else:
        assert any(0 in round_setup(night, r, t)["next_tables"] for r in (1, 2, 3) for t in (1, 2, 3)), \
            "someone goes on a bye"


def test_progressive_next_tables_are_unknown_and_later_rounds_wait(lib):
    night = night_of(lib, "progressive", hands=None, minutes=15)
    s = round_setup(night, 1, 2)
    assert s["next_tables"] == [0, 0, 0, 0] and (s["hands"], s["minutes"]) == (0, 15)
    with pytest.raises(cn.ClubError, match="round 2's seating is not known yet"):
        round_setup(night, 2, 1)
    with pytest.raises(cn.ClubError, match="tables 1 to 3, not 4"):
        round_setup(night, 1, 4)
    with pytest.raises(cn.ClubError, match="rounds 1 to 4, not 5"):
        round_setup(night, 5, 1)
    assert setup_text(s).startswith("night fri round 1 table 2 of 3 (15 minutes, progressive): N ")


def test_the_request_line_is_one_club_command_with_quoted_names():
    t = Scripted()
    c = Client(t, timeout=0.1)
    c.club("fri-1a2b", 3, 2, 30, "partners", 8, 0, 4, 2, 2, [2, 0, 4, 30], ["Ann", "Bob Jr", "50%", "O'Neil"])
    (line,) = t.requests("CLUB")
    tag = line.split(b" ")[1].decode()
    assert line == encode_request(tag, "CLUB", "fri-1a2b", 3, 2, 30, "partners", 8, 0, 4, 2, 2, 2, 0, 4, 30,
                                  "Ann", "Bob%20Jr", "50%25", "O'Neil")
    assert len(line.split(b" ")) == 2 + 1 + 18 + 1          # marker, tag, CLUB, 18 arguments, CRC
    c.club(None)
    assert t.requests("CLUB")[-1].split(b" ")[2:4] == [b"CLUB", b"-"]
    with pytest.raises(ValueError, match="four seats"):
        c.club("fri", 1, 1, 3, "fixed", 8, 0, 4, 2, 2, [0, 0, 0], ["A", "B", "C", "D"])


# ----- the command line -------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def scripted(monkeypatch):
    t = Scripted()
    monkeypatch.setattr(connect, "open_client", lambda args: (t, Client(t, timeout=0.1, retries=0)))
    return t


def test_cli_push_sends_the_current_round_of_a_table(tmp_path, lib, scripted, capsys):
    night = night_of(lib, "fixed")
    db = str(tmp_path / "lib.sqlite3")
    code, out, err = run(capsys, "club", "push", "--db", db, "--table", "2")
    assert code == 0, err
    names = [night.name_of(p) for p in night.seating(1).tables[1]]
    want = encode_request("x", "CLUB", "fri", 2, 1, 3, "fixed", 8, 0, 5, 3, 1,
                          *round_setup(night, 1, 2)["next_tables"], *names)
    (line,) = scripted.requests("CLUB")
    assert line.split(b" ")[2:-1] == want.split(b" ")[2:-1] and scripted.closed
    assert out.startswith("Device e6614103e7: club round set up: night fri round 1 table 2 of 3 (8 hands, fixed)")
    code, out, _ = run(capsys, "club", "push", "--db", db, "--night", "fri", "--table", "1", "--round", "3")
    assert code == 0 and "round 3 table 1" in out
    code, out, _ = run(capsys, "club", "push", "--clear")
    assert code == 0 and out == "Device e6614103e7: club round cleared\n"
    assert scripted.requests("CLUB")[-1].split(b" ")[2:4] == [b"CLUB", b"-"]


@pytest.mark.parametrize("reply, msg", [
    (["ERR", "badargs", "club", "round", "players:", "'Zed'"], "the device refused the club round: club round "
                                                                "players: 'Zed'"),
    (["ERR", "unknown", "unknown", "command", "CLUB"], "firmware does not know club rounds"),
])
def test_cli_push_refused_is_one_line(tmp_path, lib, scripted, capsys, reply, msg):
    night_of(lib, "fixed")
    scripted.answer = lambda words: reply
    code, out, err = run(capsys, "club", "push", "--db", str(tmp_path / "lib.sqlite3"), "--table", "1")
    assert code == 1 and out == "" and err.count("\n") == 1 and msg in err and "Traceback" not in err


def test_cli_push_errors_before_the_device_are_one_line(tmp_path, lib, capsys, monkeypatch):
    import serial.tools.list_ports
    night_of(lib, "progressive")
    db = str(tmp_path / "lib.sqlite3")
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    for argv, msg in ((["--table", "1"], "no Bower device found"),
                      (["--table", "9"], "tables 1 to 3, not 9"),
                      (["--table", "1", "--round", "2"], "round 2's seating is not known yet"),
                      ([], "give --table T"),
                      (["--table", "1", "--night", "nope"], "no club night 'nope'")):
        code, out, err = run(capsys, "club", "push", "--db", db, *argv)
        assert code == 1 and err.count("\n") == 1 and msg in err, (argv, err)


# ----- through the real firmware link ----------------------------------------------------
#
# Drives the device's own CLUB handler (firmware/bower/protocol.py) and its
# store (``Store.set_club`` / ``Store.club``) over a pseudo-terminal, as
# tests/host/test_sync.py does for ROSTER. Fails until the firmware's store
# keeps a club round.

def test_push_reaches_the_real_firmware_store(tmp_path, lib, capsys):
    from fake_device import FakeDevice
    night = night_of(lib, "partners", NAMES12 + ["Mo"], None)
    db = str(tmp_path / "lib.sqlite3")
    with FakeDevice(tmp_path / "flash") as dev:
        code, out, err = run(capsys, "club", "push", "--db", db, "--table", "2", "--round", "2", "--port", dev.port,
                             "--timeout", "0.5")
        assert code == 0, err
        s = round_setup(night, 2, 2)
        got = dev.store.club()
        assert got["night"] == "fri" and (got["table"], got["round"], got["tables"]) == (2, 2, 3)
        assert got["move"] == "partners" and (got["hands"], got["minutes"]) == (8, 0)
        assert got["scoring"] == {"loner": 5, "set_loner": 3, "renege": 1}
        assert got["next"] == s["next_tables"] and got["players"] == s["names"]
        code, out, err = run(capsys, "club", "push", "--clear", "--port", dev.port, "--timeout", "0.5")
        assert code == 0 and dev.store.club() is None
        # A setup the device refuses (straight through the client): one line, nothing stored.
        from bower_host.framing import DeviceError
        from bower_host.transport import SerialTransport
        t = SerialTransport.open(dev.port)
        try:
            with pytest.raises(DeviceError) as e:
                Client(t, timeout=0.5).club("fri", 1, 1, 3, "fixed", 8, 8, 4, 2, 2, [0] * 4, ["A", "B", "C", "D"])
        finally:
            t.close()
        assert e.value.code == "badargs" and dev.store.club() is None
    assert dev.error is None
