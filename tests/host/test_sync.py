"""`bower sync`, `bower roster push` and `bower clock` against the real
firmware link over a pseudo-terminal (tests/host/fake_device.py).

The host side is the real command line (`bower_host.cli.main`) with pyserial
on the pty's slave end and a real SQLite library on a temp path; the device
side is `bower.link.Link` answering from a real `bower.store.Store`.
"""

import os
import re
import select
import threading
import time
import tty
import zlib

import pytest
import serial.tools.list_ports

from bower_host.cli import main
from bower_host.db import Library
from euchre import log as elog

from fake_device import FakeDevice, random_table_game, record_game
from bower.store import extra

VARIANTS = ("classic", "five", "callpartner", "ultimate")
FAST = ["--timeout", "0.25"]
LONG = {"winning_score": 30}      # a game whose log spans several chunks


def crc(b: bytes) -> str:
    return "%08x" % (zlib.crc32(b) & 0xFFFFFFFF)


def device_files(dev: FakeDevice) -> dict:
    return {g["id"]: dev.store.read(g["id"], 0, 1 << 20) for g in extra("past").games(dev.store)}


def get_offsets(dev: FakeDevice, gid: str) -> list[int]:
    out = []
    for line in dev.requests:
        w = line.split(b" ")
        if w[2] == b"GET" and w[3].decode() == gid:
            out.append(int(w[4]))
    return out


@pytest.fixture
def db(tmp_path):
    return tmp_path / "host" / "bower.sqlite3"


@pytest.fixture
def dev(tmp_path):
    d = FakeDevice(tmp_path / "flash")
    for i, v in enumerate(VARIANTS):
        record_game(d.store, v, random_table_game(v, seed=i))
    d.start()
    yield d
    d.stop()
    assert d.error is None, d.error


def sync(dev, db, *extra, quiet=True):
    return main(["sync", "--port", dev.port, "--db", str(db), *(["--quiet"] if quiet else []), *extra])


def library_logs(db) -> dict:
    with Library(db) as lib:
        return {(g["device"], g["game_key"]): g for g in lib.games()}


def test_full_sync_stores_every_game_replayed_and_marks_it_synced(dev, db, capsys):
    files = device_files(dev)
    assert sync(dev, db, quiet=False) == 0           # with the progress bar
    out = capsys.readouterr().out
    assert "Device e6614103e7 (firmware 0.2.0, protocol 1): 4 game(s)" in out
    stored = library_logs(db)
    assert sorted(k for _, k in stored) == sorted(files)
    for gid, raw in files.items():
        g = stored[("e6614103e7", gid)]
        assert g["log"].encode() == raw                    # byte for byte
        game, _ = elog.loads(raw.decode())
        assert g["scores"] == game.scores and g["finished"] == 1
        assert f"{gid}    new" in out
    assert all(g["synced"] for g in extra("past").games(dev.store))
    assert not list((db.parent / f"{db.name}.partial").rglob("*.part"))


def test_sync_twice_fetches_nothing_new_and_never_duplicates(dev, db, capsys):
    assert sync(dev, db) == 0
    gets = len([r for r in dev.requests if b" GET " in r])
    capsys.readouterr()
    assert sync(dev, db) == 0
    out = capsys.readouterr().out
    assert out.count("up to date") == 4 and "Fetched 0 B" in out
    assert len([r for r in dev.requests if b" GET " in r]) == gets     # not a byte fetched
    with Library(db) as lib:
        assert lib.count() == 4


def test_a_game_in_progress_syncs_then_only_its_new_bytes_are_fetched(tmp_path, db, capsys):
    events = random_table_game("classic", seed=7)
    with FakeDevice(tmp_path / "flash") as dev:
        g = record_game(dev.store, "classic", events[:12])
        size1 = extra("past").games(dev.store)[0]["size"]
        assert sync(dev, db) == 0
        assert extra("past").games(dev.store)[0]["synced"] and "in progress" in capsys.readouterr().out
        # The table plays on; the device still has the game open.
        game = elog.loads(dev.store.read(g, 0, 1 << 20).decode())[0]
        for e in events[12:]:
            game.apply(e)
            dev.store.record(game, e)
        assert not extra("past").games(dev.store)[0]["synced"]
        dev.requests.clear()
        assert sync(dev, db) == 0
        assert "updated" in capsys.readouterr().out
        assert min(get_offsets(dev, g)) == size1            # resumed from what the host had
        stored = library_logs(db)[("e6614103e7", g)]
        assert stored["log"].encode() == dev.store.read(g, 0, 1 << 20) and stored["finished"] == 1
        assert extra("past").games(dev.store)[0]["synced"]


def test_interrupted_sync_keeps_the_partial_and_resumes_from_it(tmp_path, db, capsys):
    root = tmp_path / "flash"
    dev = FakeDevice(root)
    gid = record_game(dev.store, "five", random_table_game("five", seed=3, options=LONG), options=LONG)
    size = extra("past").games(dev.store)[0]["size"]
    assert size > 2 * 2048, "the game must span several chunks"
    dev.vanish_after_gets = 1          # unplugged after the first chunk
    with dev:
        assert sync(dev, db) == 1
    err = capsys.readouterr().err
    assert "went away" in err and "run `bower sync` again to resume" in err
    part = db.parent / f"{db.name}.partial" / "e6614103e7" / f"{gid}.part"
    assert part.read_bytes() == dev.store.read(gid, 0, 2048)      # the verified chunk was kept
    with Library(db) as lib:
        assert lib.count() == 0                                   # nothing half-stored
    assert not extra("past").games(dev.store)[0]["synced"]

    # Plugged in again: the same flash behind a new pty.
    with FakeDevice(root) as dev2:
        assert sync(dev2, db) == 0
        assert get_offsets(dev2, gid)[0] == 2048                  # continued, not restarted
    assert library_logs(db)[("e6614103e7", gid)]["log"].encode() == dev2.store.read(gid, 0, size)
    assert not part.exists()


def test_a_hung_device_times_out_clearly_then_resumes(tmp_path, db, capsys):
    root = tmp_path / "flash"
    dev = FakeDevice(root)
    gid = record_game(dev.store, "classic", random_table_game("classic", seed=5, options=LONG), options=LONG)
    record_game(dev.store, "ultimate", random_table_game("ultimate", seed=2))
    dev.mute_after_gets = 1          # answers one chunk, then hangs
    with dev:
        assert sync(dev, db, *FAST) == 1
    err = capsys.readouterr().err
    assert "no reply from the device" in err and "resume" in err
    with FakeDevice(root) as dev2:
        assert sync(dev2, db) == 0
        assert get_offsets(dev2, gid)[0] == 2048
        assert all(g["synced"] for g in extra("past").games(dev2.store))
    assert len(library_logs(db)) == 2


def test_a_stale_partial_that_does_not_match_is_fetched_again(dev, db):
    part = db.parent / f"{db.name}.partial" / "e6614103e7" / "g0001.part"
    part.parent.mkdir(parents=True)
    stale = b'[{"not": "this game"},"00000000"]\n'
    part.write_bytes(stale)
    assert sync(dev, db) == 0
    assert library_logs(db)[("e6614103e7", "g0001")]["log"].encode() == dev.store.read("g0001", 0, 1 << 20)
    offsets = get_offsets(dev, "g0001")
    assert offsets[0] == len(stale) and 0 in offsets[1:]      # continued, failed the CRC, started over
    assert not part.exists()


def test_two_devices_one_library_no_duplicates(tmp_path, db, capsys):
    a = FakeDevice(tmp_path / "a", device_id="e6614103e7")
    b = FakeDevice(tmp_path / "b", device_id="de5a41c2bb")
    for i, d in enumerate((a, b)):
        for v in ("classic", "five"):
            record_game(d.store, v, random_table_game(v, seed=i))   # same game ids g0001, g0002 on both
    with a, b:
        assert sync(a, db) == 0 and sync(b, db) == 0
        assert sync(a, db) == 0 and sync(b, db) == 0
    keys = sorted(library_logs(db))
    assert keys == [("de5a41c2bb", "g0001"), ("de5a41c2bb", "g0002"), ("e6614103e7", "g0001"), ("e6614103e7", "g0002")]


def test_corrupted_chunks_are_fetched_again(dev, db, capsys):
    damaged = {"n": 0}

    def flip(data: bytes) -> bytes:
        # Damage the first three chunk replies: one byte in the base64.
        if len(data) > 200 and damaged["n"] < 3:
            damaged["n"] += 1
            i = len(data) // 2
            return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]
        return data

    dev.corrupt = flip
    assert sync(dev, db) == 0
    assert damaged["n"] == 3
    stored = library_logs(db)
    assert {k: v["log"].encode() for (_, k), v in stored.items()} == device_files(dev)


def test_persistently_corrupted_chunks_fail_clearly_and_store_nothing(dev, db, capsys):
    def flip(data: bytes) -> bytes:
        if len(data) > 200:
            return data[:100] + bytes([data[100] ^ 0x20]) + data[101:]
        return data

    dev.corrupt = flip
    assert sync(dev, db) == 1
    err = capsys.readouterr().err
    assert "failed its checks 4 times" in err and "g0001" in err
    with Library(db) as lib:
        assert lib.count() == 0
    assert not any(g["synced"] for g in extra("past").games(dev.store))


def test_device_reset_mid_transfer_garbage_banner_then_fresh_handshake(tmp_path, db, capsys):
    dev = FakeDevice(tmp_path / "flash")
    gid = record_game(dev.store, "five", random_table_game("five", seed=3, options=LONG), options=LONG)
    assert extra("past").games(dev.store)[0]["size"] > 2 * 2048
    dev.reset_at_get = 2
    with dev:
        assert sync(dev, db) == 0
        assert dev.resets == 1
        hellos = [r for r in dev.requests if b" HELLO " in r]
        assert len(hellos) == 2                                   # the handshake was repeated
        offsets = get_offsets(dev, gid)
        assert offsets[1] == 2048 and offsets.count(2048) == 2    # the lost chunk asked again
    assert library_logs(db)[("e6614103e7", gid)]["log"].encode() == dev.store.read(gid, 0, 1 << 20)


def test_repl_banner_noise_before_the_handshake_is_skipped(tmp_path, db):
    dev = FakeDevice(tmp_path / "flash")
    record_game(dev.store, "classic", random_table_game("classic", seed=1))
    with dev:
        dev.banner()
        dev._raw_write(b"Traceback (most recent call last):\r\n#B! zz OK proto=1 bogus\r\n\x00\xff>>> ")
        assert sync(dev, db) == 0
    assert len(library_logs(db)) == 1


def test_a_log_that_does_not_replay_is_refused_not_stored_and_not_marked_synced(tmp_path, db, capsys):
    dev = FakeDevice(tmp_path / "flash")
    events = ["up H", "pass", "order", "tricks 3"]
    gid = record_game(dev.store, "classic", events)
    game = elog.loads(dev.store.read(gid, 0, 4096).decode())[0]
    dev.store.record(game, "tricks 9")       # a line with a good CRC that the rules refuse
    good = record_game(dev.store, "classic", events)
    with dev:
        assert sync(dev, db) == 1
    cap = capsys.readouterr()
    assert f"{gid}    refused" in cap.out and "does not replay" in cap.out and "tricks 9" in cap.out
    assert "nothing stored: the game stays on the device" in cap.out and f"{gid} (refused)" in cap.err
    games = {g["id"]: g for g in extra("past").games(dev.store)}
    assert not games[gid]["synced"] and games[good]["synced"]         # the device keeps its copy
    assert not list((db.parent / f"{db.name}.raw").rglob(f"{gid}*"))     # and the library has none of it
    assert list(library_logs(db)) == [("e6614103e7", good)]


def test_roster_push_reaches_the_store(dev, capsys):
    assert main(["roster", "push", "--port", dev.port, "Ann", "Bob Jr", "50%", "O'Neil"]) == 0
    assert dev.store.roster == ["Ann", "Bob Jr", "50%", "O'Neil"]
    assert "Roster on device e6614103e7: Ann, Bob Jr, 50%, O'Neil" in capsys.readouterr().out
    # Refused by the host before anything is sent, or by the device.
    assert main(["roster", "push", "--port", dev.port, "Bartholomew"]) == 1
    assert "1 to 8 printable ASCII" in capsys.readouterr().err
    assert main(["roster", "push", "--port", dev.port, *[f"P{i}" for i in range(17)]]) == 1
    assert "at most 16 names" in capsys.readouterr().err
    # What the device refuses (bower.check_names), the host refuses first, unsent:
    # a duplicate, a space first or last (bower_host.names).
    sent = sum(b" ROSTER " in r for r in dev.requests)
    for names, says in ((["Ann", "Ann"], "'Ann' is given twice"), ([" Ann"], "no space first or last"),
                        (["Ann "], "no space first or last")):
        assert main(["roster", "push", "--port", dev.port, *names]) == 1
        assert says in capsys.readouterr().err
    assert sum(b" ROSTER " in r for r in dev.requests) == sent
    # ... and the device still refuses them itself.
    from types import SimpleNamespace

    from bower_host.framing import DeviceError
    from bower_host.connect import open_client
    t, client = open_client(SimpleNamespace(port=dev.port, timeout=2.0))
    try:
        client.hello()
        for names in (["Ann", "Ann"], [" Ann"]):
            with pytest.raises(DeviceError):
                client.roster(names)
    finally:
        t.close()
    assert dev.store.roster == ["Ann", "Bob Jr", "50%", "O'Neil"]


def test_clock_sets_the_device_clock_offset(dev, capsys):
    before = int(time.time())
    assert main(["clock", "--port", dev.port]) == 0
    after = int(time.time())
    assert before - 1000 <= dev.store.clock_offset <= after - 1000     # the fake's own clock reads 1000
    out = capsys.readouterr().out
    assert "Device e6614103e7 clock set to" in out and "(it was unset)" in out
    assert main(["clock", "--port", dev.port]) == 0
    assert re.search(r"\(it was (right|[12] s behind)\)", capsys.readouterr().out)


def test_no_pico_or_several_picos_are_clear_errors(monkeypatch, db, capsys):
    from serial.tools.list_ports_common import ListPortInfo

    def port(dev, vid):
        p = ListPortInfo(dev)
        p.vid, p.pid, p.description = vid, 5, "Board in FS mode"
        return p

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [port("/dev/ttyUSB0", 0x0403)])
    assert main(["sync", "--db", str(db)]) == 1
    assert "no Bower device found" in capsys.readouterr().err
    monkeypatch.setattr(serial.tools.list_ports, "comports",
                        lambda: [port("/dev/ttyACM1", 0x2E8A), port("/dev/ttyACM0", 0x2E8A)])
    assert main(["clock"]) == 1
    err = capsys.readouterr().err
    assert "several Picos found: /dev/ttyACM0 (Board in FS mode), /dev/ttyACM1" in err and "--port" in err


def test_a_device_at_the_repl_gives_a_helpful_timeout(tmp_path, db, capsys):
    # The other end is a MicroPython REPL: it echoes what it gets and prompts.
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def repl():
        while not stop.is_set():
            if select.select([master], [], [], 0.02)[0]:
                data = os.read(master, 4096)
                os.write(master, data.replace(b"\n", b"\r\n") + b">>> ")

    th = threading.Thread(target=repl, daemon=True)
    th.start()
    try:
        assert main(["sync", "--port", os.ttyname(slave), "--db", str(db), "--quiet", "--timeout", "0.2"]) == 1
    finally:
        stop.set()
        th.join()
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert "no reply from the device" in err and "REPL" in err


def test_the_library_path_comes_from_bower_db_without_db(dev, tmp_path, monkeypatch):
    path = tmp_path / "elsewhere" / "games.sqlite3"
    monkeypatch.setenv("BOWER_DB", str(path))
    assert main(["sync", "--port", dev.port, "--quiet"]) == 0
    with Library(path) as lib:
        assert lib.count() == 4
    assert (path.parent / f"{path.name}.raw" / "e6614103e7").is_dir()


def test_sync_counts_the_hands_played(tmp_path, db, capsys):
    # A game won in its fifth hand was reported as "6 hands".
    events = ["up H", "order", "tricks 5", "up H", "pass", "order", "tricks 5"] * 2 + ["up H", "order", "tricks 5"]
    with FakeDevice(tmp_path / "flash") as dev:
        gid = record_game(dev.store, "classic", events)
        game = elog.loads(dev.store.read(gid, 0, 1 << 20).decode())[0]
        assert game.result and game.scores == [0, 10, 0, 10]
        assert sync(dev, db) == 0
    out = capsys.readouterr().out
    assert "Classic Euchre: A & C 0, B & D 10; 5 hands; won by B & D" in out
    assert library_logs(db)[("e6614103e7", gid)]["hands"] == 5


def test_sizes_have_units():
    from bower_host.syncer import size_text
    assert [size_text(n) for n in (0, 1023, 1657, 1048576, 5 << 30, 3 << 40)] == [
        "0 B", "1023 B", "1.6 KB", "1.0 MB", "5.0 GB", "3.0 TB"]
