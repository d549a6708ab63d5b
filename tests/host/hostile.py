"""Helpers for the hostile-input tests (test_hostile*.py): a device that
lists whatever a test wants behind the real firmware link on a pty, logs to
damage, and a runner for the ``bower`` command line that fails the test on
any traceback or internal error.
"""

from __future__ import annotations

import contextlib
import io
import zlib

from bower_host.cli import main
from euchre import Game, Rules
from euchre import log as elog

from fake_device import FakeDevice, random_table_game

DEVICE = "e6614103e7"
STARTED = 1763700000


def crc(b: bytes) -> str:
    return "%08x" % (zlib.crc32(b) & 0xFFFFFFFF)


class ListedStore:
    """What ``bower.link.Link`` needs of a store, serving given bytes: a
    device that lists anything (``games`` entries may lie about ``size``,
    or be a sequence that only claims a length)."""

    def __init__(self, files: dict, sizes: dict | None = None, listing=None):
        self.files = dict(files)             # id -> bytes
        self.sizes = dict(sizes or {})       # id -> listed size (a lie), else the real one
        self.listed = listing                # the entries LIST gives instead (None: the files')
        self.synced: dict = {}               # id -> crc marked synced
        self.roster: list = []
        self.clock_offset = 0
        self.warnings: list = []             # what the device would show (DAMAGED adds one)

    def games(self):
        if self.listed is not None:
            return self.listed
        return [{"id": gid, "size": self.sizes.get(gid, len(b)), "crc": crc(b), "state": "finished",
                 "synced": self.synced.get(gid) == crc(b)} for gid, b in self.files.items()]

    def listing(self):
        # As bower.past.listing: LIST's lines, one game at a time (the
        # fields made tokens as the device's protocol makes free text).
        from bower.protocol import _text
        for g in self.games():
            c = g["crc"]
            yield ("%s %d %s %s %d" % (_text(g["id"], "_"), g["size"], c if isinstance(c, str) else "%08x" % c,
                                       _text(g["state"], "_"), 1 if g["synced"] else 0)).encode()

    def count(self):
        # What LIST and HELLO announce (a ClaimsLength listing lies here).
        return len(self.games())

    def read(self, gid, offset, n):
        if gid not in self.files:
            raise ValueError("bad game id")
        return self.files[gid][offset:offset + n]

    def mark_synced(self, gid, c):
        if gid not in self.files:
            raise ValueError("no game")
        if crc(self.files[gid]) != c:
            return False
        self.synced[gid] = c
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

    def usage(self):
        return sum(map(len, self.files.values())), 1 << 20


class ClaimsLength(list):
    """A LIST whose ``OK N`` announces ``n`` games though only a few follow."""

    def __init__(self, items, n):
        super().__init__(items)
        self.n = n

    def __len__(self):
        return self.n


def hostile_device(root, store: ListedStore, version: str = "0.2.0") -> FakeDevice:
    """A FakeDevice (real link, real pty) answering from ``store``."""
    dev = FakeDevice(root, version=version)
    dev.store = store
    dev.link = dev._new_link()
    return dev


def game_log(variant: str, seed: int, gid: str, device: str = DEVICE, hands: int | None = None) -> bytes:
    """A game's log as the device writes it (whole, or its first events)."""
    events = random_table_game(variant, seed=seed)
    g = Game(Rules(variant))
    for e in events:
        g.apply(e)
        if hands is not None and g.hand_no > hands:
            break
    return elog.dumps(g, extra={"id": gid, "device": device, "started": STARTED}).encode()


def lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def with_header(raw: bytes, **changes) -> bytes:
    """``raw`` with header fields changed (a value ``...`` deletes the field);
    the header line keeps a valid CRC, so only the host's checks can refuse it."""
    ls = lines(raw)
    h = elog.decode_line(ls[0].decode())
    for k, v in changes.items():
        if v is ...:
            h.pop(k, None)
        else:
            h[k] = v
    return elog.encode_line(h).encode() + b"".join(ls[1:])


def corrupt_line(raw: bytes, lineno: int) -> bytes:
    """``raw`` with one character of line ``lineno`` (1-based) changed: its CRC fails."""
    ls = lines(raw)
    line = bytearray(ls[lineno - 1])
    i = 2
    line[i] = ord("X") if line[i] != ord("X") else ord("Y")
    ls[lineno - 1] = bytes(line)
    return b"".join(ls)


def refused(*args) -> tuple[int, str]:
    """Run ``bower ARGS`` in-process where it must refuse: nothing on stdout,
    exactly one line ``bower: ...`` on stderr, status 1 (an error) or 2 (a
    usage error: argparse's exit). Fails on a traceback or an internal error.

    :returns: ``(status, the line)``.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main([str(a) for a in args])
        except SystemExit as e:              # a usage error
            rc = e.code
    o, e = out.getvalue(), err.getvalue()
    shown = [a if len(str(a)) <= 60 else f"<{len(str(a)):,} characters>" for a in args]
    assert "Traceback" not in o + e and "internal error" not in e, (shown, e[:500])
    assert rc in (1, 2) and o == "" and e.count("\n") == 1 and e.startswith("bower: "), (shown, rc, o[:500], e[:500])
    return rc, e


def tree(root) -> list:
    """Every path under ``root`` (a refusal must leave it as it was)."""
    from pathlib import Path
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*"))


def bower(*args) -> tuple[int, str, str]:
    """Run ``bower ARGS`` in-process; fail on a traceback or an internal error.

    :returns: ``(status, stdout, stderr)``; a failure is exactly one line
        ``bower: ...`` on stderr.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in args])        # an exception here fails the test: a traceback
    o, e = out.getvalue(), err.getvalue()
    assert "Traceback" not in o + e and "internal error" not in e, (args, e)
    if rc:
        assert rc == 1 and e.count("\n") == 1 and e.startswith("bower: "), (args, rc, e)
    return rc, o, e
