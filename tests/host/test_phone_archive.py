"""``bower import`` of a phone's export (issue 33), a zip of its logs, as
hostile input: whatever the archive holds, the answer is the games stored
as ``bower sync`` stores a Pico's, or one line saying why not with nothing
stored; the archive's names are never paths; its sizes, member count and
inflated bytes bounded (a zip bomb stops at the bound).

The archives are made here as the page makes them (stored members named
``DEVICE/GAME.log``), then spoiled one way each, and at random (hypothesis).
"""

from __future__ import annotations

import contextlib
import io
import os
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.cli import main
from bower_host.db import Library
from bower_host.importer import archive

from hostile import DEVICE, game_log, tree

PHONE = "4ba870a3bd1d8085"
#: What Python says, never bower.
PYTHON_WORDS = ("Traceback", "internal error", "Error:", "Errno", "zipfile", "zlib", "object", "NoneType", "<class")


def make_zip(members, method=zipfile.ZIP_STORED) -> bytes:
    """A zip of ``members`` [(name, bytes)] (a name given twice is written twice)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")         # ("Duplicate name")
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, (2026, 12, 1, 12, 0, 0)), data, method)
    return out.getvalue()


def logs(n: int = 2, device: str = PHONE) -> list[tuple[str, bytes]]:
    return [(f"{device}/g{i + 1:04d}.log", game_log(v, i, f"g{i + 1:04d}", device))
            for i, v in zip(range(n), ("five", "classic", "callpartner"))]


def run(*args) -> tuple[int, str, str]:
    """``bower ARGS`` in-process: (status, stdout, stderr), never a traceback or Python's words."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in args])
    o, e = out.getvalue(), err.getvalue()
    assert not [w for w in PYTHON_WORDS if w in o + e], (o[-500:], e[-500:])
    assert all(line.startswith("bower: ") for line in e.splitlines()), e[-500:]
    return rc, o, e


def rows(db: Path) -> list:
    if not db.exists():
        return []
    with Library(db, create=False) as lib:
        return [tuple(r) for r in lib.conn.execute("SELECT device, game_key, raw_sha256, source_name, damaged "
                                                    "FROM games ORDER BY id")]


def refused(tmp_path: Path, data: bytes) -> str:
    """Import ``data`` into a library holding one game: refused in one line
    (then the count), nothing of it stored, the library sound. Returns the reason."""
    db = tmp_path / "lib.sqlite3"
    if not db.exists():
        kept = tmp_path / "kept.log"
        kept.write_bytes(game_log("classic", 9, "g0042", DEVICE))
        assert run("import", "--db", db, kept)[0] == 0
    f = tmp_path / "phone.zip"
    f.write_bytes(data)
    before, files = rows(db), tree(tmp_path)
    rc, out, err = run("import", "--db", db, f)
    said = err.splitlines()
    assert rc == 1 and out == "" and len(said) == 2 and said[0].startswith(f"bower: {f}: "), (rc, out, err)
    assert said[1] == "bower: 1 of 1 files not imported"
    assert rows(db) == before and tree(tmp_path) == files, "a refused archive changed something"
    rc, o, _ = run("library", "check", "--db", db)
    assert rc == 0 and ": sound, " in o, o
    return said[0][len(f"bower: {f}: "):]


def test_an_export_imports_each_log_as_a_sync_stores_it(tmp_path):
    members = logs(3)
    db = tmp_path / "lib.sqlite3"
    f = tmp_path / "phone.zip"
    f.write_bytes(make_zip(members))
    rc, out, err = run("import", "--db", db, f)
    assert rc == 0 and err == "", err
    assert [ln.split()[1:3] for ln in out.splitlines()] == [["new", n[:-4] + ":"] for n, _ in members], out
    # As bower sync stores a device's logs: the device's id and file name, the raw bytes archived.
    assert [r[:2] + r[3:] for r in rows(db)] == [(PHONE, f"g{i:04d}", f"g{i:04d}.log", None) for i in (1, 2, 3)]
    for name, raw in members:
        assert (tmp_path / "lib.sqlite3.raw" / name).read_bytes() == raw
    # Deflated (an archive zipped again by another tool): the same games, stored once.
    f.write_bytes(make_zip(members, zipfile.ZIP_DEFLATED))
    rc, out, _ = run("import", "--db", db, f)
    assert rc == 0 and out.count(" duplicate ") == 3, out


def test_a_log_damaged_on_the_phone_is_stored_as_a_sync_stores_it(tmp_path):
    # A torn last line (the input in flight when the page died) is dropped,
    # and said, exactly as bower sync drops it from a Pico's log.
    [(name, raw)] = logs(1)
    torn = raw + b'["up H","0000'
    lib = tmp_path / "synced.sqlite3"
    with Library(lib) as db:
        synced = db.add_log(torn, PHONE, "g0001.log", "g0001")
    f = tmp_path / "phone.zip"
    f.write_bytes(make_zip([(name, torn)]))
    rc, out, _ = run("import", "--db", tmp_path / "lib.sqlite3", f)
    assert rc == 0 and synced.message in out and "torn last line dropped" in out, (out, synced.message)
    assert rows(tmp_path / "lib.sqlite3") == rows(lib)


NAMES = {
    "no-device": ("g0001.log", "member \"g0001.log\" is not DEVICE/GAME.log"),
    "up-and-out": ("../../evil/g0001.log", "is not DEVICE/GAME.log"),
    "dot-dot": ("../g0001.log", "\"..\" is not an id"),
    "absolute": (f"/{PHONE}/g0001.log", "is not DEVICE/GAME.log"),
    "deeper": (f"{PHONE}/x/g0001.log", "is not DEVICE/GAME.log"),
    "not-a-log": (f"{PHONE}/g0001.txt", "is not DEVICE/GAME.log"),
    "backslash": (f"{PHONE}\\g0001.log", "is not DEVICE/GAME.log"),
    "bad-game-id": (f"{PHONE}/g 1.log", "\"g 1\" is not an id"),
    "control-characters": (f"{PHONE}/\x1b[2J\u202eg.log", "is not an id"),
    "long": ("d" * 70 + "/g0001.log", "is not an id"),
}


@pytest.mark.parametrize("case", sorted(NAMES))
def test_a_member_name_is_two_ids_never_a_path(tmp_path, case):
    name, says = NAMES[case]
    why = refused(tmp_path, make_zip([(name, game_log("five", 1, "g0001", PHONE))]))
    assert says in why, why
    assert "\x1b" not in why and "\u202e" not in why
    assert not (tmp_path.parent / "evil").exists()


def test_a_member_must_be_the_game_of_the_device_its_name_says(tmp_path):
    other = game_log("five", 1, "g0001", DEVICE)
    assert "the header says device e6614103e7, but the log came from device" in refused(
        tmp_path, make_zip([(f"{PHONE}/g0001.log", other)]))
    assert "the log says it is game 'g0001', but the device lists it as g0007" in refused(
        tmp_path, make_zip([(f"{PHONE}/g0007.log", game_log("five", 1, "g0001", PHONE))]))
    f = tmp_path / "right.zip"
    f.write_bytes(make_zip(logs(1)))
    rc, _, err = run("import", "--db", tmp_path / "lib.sqlite3", "--device", DEVICE, f)
    assert rc == 1 and f"is a log of device {PHONE}, not {DEVICE}" in err, err


def test_an_archive_of_other_things_is_refused_in_one_line(tmp_path):
    good = make_zip(logs(2))
    assert "holds no game logs" in refused(tmp_path, make_zip([]))
    assert "holds no game logs" in refused(tmp_path, make_zip([(f"{PHONE}/", b"")]))
    assert "cannot read (damaged or cut short)" in refused(tmp_path, good[:len(good) // 2])
    assert "cannot read (damaged or cut short)" in refused(tmp_path, b"PK\x03\x04" + bytes(200))
    spoiled = bytearray(good)
    spoiled[good.index(b"[{") + 5] ^= 0x20          # a byte of the first log's header
    assert "its data does not match its CRC" in refused(tmp_path, bytes(spoiled))
    assert "twice" in refused(tmp_path, make_zip(logs(1) + logs(1)))
    assert "not UTF-8 text" in refused(tmp_path, make_zip([(f"{PHONE}/g0001.log", b"\x89PNG\r\n" + bytes(50))]))
    assert "compressed by method 12" in refused(tmp_path, make_zip(logs(1), zipfile.ZIP_BZIP2))
    enc = bytearray(good)
    for sig in (b"PK\x03\x04", b"PK\x01\x02"):      # the encrypted flag, in both headers of the first member
        at = enc.index(sig)
        enc[at + (6 if sig == b"PK\x03\x04" else 8)] |= 1
    assert "is encrypted" in refused(tmp_path, bytes(enc))


def test_a_zip_bomb_stops_at_the_bound(tmp_path, monkeypatch):
    # A log of 4 MiB and a byte of zeros deflates to a few KB: inflated no
    # further than the largest log plus one byte.
    bomb = make_zip([(f"{PHONE}/g0001.log", bytes((4 << 20) + 1))], zipfile.ZIP_DEFLATED)
    assert len(bomb) < 10_000
    assert "more than the 4 MB a game log can be" in refused(tmp_path, bomb)
    # Many members under the bound each, more than the archive's bound together.
    monkeypatch.setattr(archive, "MAX_TOTAL", 1 << 20)
    many = make_zip([(f"{PHONE}/g{i:04d}.log", bytes(300_000)) for i in range(1, 5)], zipfile.ZIP_DEFLATED)
    assert "the archive's logs come to more than 1 MB" in refused(tmp_path, many)
    # More members than an export holds: counted before any is parsed.
    monkeypatch.setattr(archive, "MAX_MEMBERS", 3)
    assert "more than 3 members" in refused(tmp_path, make_zip(logs(3) + [(f"{PHONE}/g0009.log", b"")]))


def _settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


GOOD = make_zip(logs(2))


@_settings(60)
@given(cuts=st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.integers(0, 255), st.integers(0, 2)),
                     min_size=1, max_size=6))
def test_an_archive_spoiled_at_random_is_stored_whole_or_refused_in_one_line(tmp_path_factory, cuts):
    # Bytes changed, removed or put in at random places of a good export:
    # each game stored as it is, or the file refused in one line with
    # nothing of it stored; never Python's words; the library sound.
    tmp = tmp_path_factory.mktemp("spoiled")
    data = bytearray(GOOD)
    for at, byte, how in cuts:
        at = min(at, len(data) - 1)
        if how == 0:
            data[at] = byte
        elif how == 1:
            del data[at]
        else:
            data.insert(at, byte)
    f = tmp / "phone.zip"
    f.write_bytes(bytes(data))
    db = tmp / "lib.sqlite3"
    rc, out, err = run("import", "--db", db, f)
    if rc == 0:
        assert err == "" and all(" new " in ln for ln in out.splitlines()), out
        stored = rows(db)
        assert stored and all(r[0] == PHONE for r in stored), stored
        rc, o, _ = run("library", "check", "--db", db)
        assert rc == 0 and ": sound, " in o, o
    else:
        said = err.splitlines()
        assert rc == 1 and out == "" and len(said) == 2 and said[0].startswith(f"bower: {f}: "), (rc, out, err)
        assert not os.path.exists(db), "a refused import left a library behind"


@_settings(40)
@given(name=st.text(st.characters(codec="utf-8"), min_size=1, max_size=80))
def test_any_member_name_is_refused_or_two_ids(tmp_path_factory, name):
    tmp = tmp_path_factory.mktemp("named")
    f = tmp / "phone.zip"
    f.write_bytes(make_zip([(name, game_log("five", 1, "g0001", PHONE))]))
    rc, out, err = run("import", "--db", tmp / "lib.sqlite3", f)
    assert rc == 0 or (rc == 1 and err.count("\n") == 2), (name, err)
    assert rc == 1 or name == f"{PHONE}/g0001.log", name
    assert tree(tmp) == (["lib.sqlite3", "lib.sqlite3.raw", f"lib.sqlite3.raw/{PHONE}",
                          f"lib.sqlite3.raw/{PHONE}/g0001.log", "phone.zip"] if rc == 0 else ["phone.zip"])
