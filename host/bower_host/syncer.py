"""One sync run: every game log a device has that the library lacks,
fetched, checked, stored and marked synced on the device (``Syncer``), over
a ``protocol.Client`` and into a ``db.Library``; no command line (``bower
sync`` is ``bower_host.commands.sync``), no club (the caller's ``after_store`` hook).

* Bytes already fetched live in ``<library>.partial/<device>/<game>.part``
  beside the library file (each library has its own, as it has its raw
  archive ``<library>.raw/``) and a download continues from their length.
  A game the library already holds that has grown on the device (synced in
  the middle of a game) continues from the stored bytes; one it holds
  unchanged is skipped.
* Each chunk is checked (line CRC, chunk CRC) and re-asked when damaged; the
  whole log must then match the CRC the device listed, else it is fetched
  again from the start once.
* Every line's CRC is verified and the game replayed through the engine
  by :meth:`Library.add_log`, which checks the header's fields first; only
  after the library committed it is the game marked synced on the device
  (which may then free its flash). A log with a corrupt line before its last
  is stored up to that line, its raw bytes archived whole, and reported as
  ``damaged`` with the line number (the device's copy holds nothing more, so
  it is marked synced too); a log the library refuses (``db.gate``: it does
  not replay, breaks an id or name rule, or conflicts with the stored game)
  stores nothing and stays on the device.
* What a device may ask the host to store is bounded (a hostile or broken
  device could list anything): at most :data:`MAX_GAMES` games in a listing
  (``protocol.MAX_LIST``), :data:`MAX_LOG_BYTES` per game and
  :data:`MAX_SYNC_BYTES` fetched in one run; beyond them a game is refused
  (reported, nothing written for it) and the others are synced.

The caller holds the library's writer lock (``db.writer_lock``) for the run.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bower_host.db.gate import MAX_LOG_BYTES
from bower_host.framing import DeviceError, ProtocolError
from bower_host.names import SAFE_ID
from bower_host.protocol import MAX_CHUNK, MAX_LIST, Client, DeviceInfo, GameEntry
from bower_host.transport import TransportError

if TYPE_CHECKING:
    from collections.abc import Callable

    from bower_host.db import AddResult, Library, Replay

    #: What the caller does with each game a sync stored, beyond the library
    #: (``bower sync`` counts a club round for its night): a note for the
    #: report, or None. Called after the library committed the game; it must
    #: not raise.
    AfterStore = Callable[[Library, AddResult], str | None]


#: Most games a listing may hold (a Pico's flash holds a few hundred).
MAX_GAMES = MAX_LIST
#: Most bytes one ``bower sync`` fetches; the games beyond wait for the next run.
MAX_SYNC_BYTES = 32 << 20

STORED = ("new", "updated", "duplicate")
#: Games told the device per SYNCED request (``SYNCED ID CRC ID CRC ...``),
#: and the most bytes of ids and CRCs in one: the request stays under the
#: 256 bytes of the device's USB receive buffer (host/PROTOCOL.md).
SYNCED_BATCH = 12
SYNCED_BYTES = 200


class _ShortLog(ProtocolError):
    """The device sent less of a game than it listed."""


@dataclass
class Outcome:
    game_id: str
    status: str          # new/updated/duplicate/refused (library), "up to date", "failed"
    message: str = ""
    fetched: int = 0     # bytes transferred for this game


class Progress(Protocol):
    """What ``Syncer`` reports the download to (``_RichProgress`` on a terminal)."""

    def start(self, total: int) -> None: ...
    def start_more(self, extra: int) -> None: ...
    def advance(self, n: int) -> None: ...


@dataclass
class _Plan:
    entry: GameEntry
    part: Path
    base: bytes          # bytes already on the host that the download continues from


def _crc(data: bytes) -> str:
    return "%08x" % (zlib.crc32(data) & 0xFFFFFFFF)


def partial_root(library: Library) -> Path:
    """Where interrupted downloads are kept: the library's own ``<file>.partial/``."""
    return Path(library.partial_dir)


def stored_log(library: Library, device: str, game_id: str) -> bytes | None:
    """The log the library holds (committed) for this device's game, if any:
    for a damaged game, its whole raw log as archived (what the device has)."""
    for row in library.find(f"{device}/{game_id}"):
        if row.get("damaged") and row.get("raw_path"):
            try:
                return (Path(library.raw_dir) / row["raw_path"]).read_bytes()
            except OSError:
                return None
        if row.get("log"):
            return row["log"].encode("utf-8")
    return None


def describe_game(rp: Replay) -> str:
    """A one-line summary of a replayed log (``db.Replay``): variant,
    standings, hands played."""
    game = rp.game
    standings = ", ".join(f"{label} {score}" for label, score in game.standings())
    hands = len(rp.hands)
    text = f"{game.rules.title}: {standings}; {hands} hand{'s' if hands != 1 else ''}"
    if game.result:
        text += f"; won by {' & '.join(game.winner_names())}" if game.result[1] != "draw" else "; a draw"
    else:
        text += "; in progress"
    if rp.dropped:
        text += f" (torn last line dropped: {rp.dropped})"
    return text


class Syncer:
    """One sync run against one connected device.

    :param progress: optional object with ``start(total_bytes)`` and
        ``advance(nbytes)`` (the CLI's rich progress bar).
    :param after_store: called with the library and the ``AddResult`` of
        each game stored (new, updated or a duplicate); what it returns is
        added to that game's line of the report. The command line passes
        the club nights' (``bower_host.cli``); this module knows no club.
    """

    def __init__(self, client: Client, library: Library, progress: Progress | None = None,
                 after_store: AfterStore | None = None):
        self.client = client
        self.library = library
        self.progress = progress
        self.after_store = after_store
        self.outcomes: list[Outcome] = []
        self._marks: list[tuple[GameEntry, Outcome]] = []   # stored, not yet told the device (SYNCED)
        self._batch = True      # the device takes several games a SYNCED (until it says otherwise)
        self.fetched = 0
        self.info: DeviceInfo | None = None     # set by run()

    def run(self) -> list[Outcome]:
        info = self.info = self.client.hello()
        if not SAFE_ID.match(info.device):
            raise ProtocolError(f"the device reported an unusable id {info.device!r}")
        chunk = max(1, min(info.chunk, MAX_CHUNK))
        pdir = partial_root(self.library) / info.device
        plans = []
        budget = MAX_SYNC_BYTES
        for g in self.client.list():
            if not SAFE_ID.match(g.id):
                self.outcomes.append(Outcome(g.id, "failed", "the device listed an unusable game id; skipped"))
                continue
            if not 0 <= g.size <= MAX_LOG_BYTES:
                self.outcomes.append(Outcome(g.id, "failed", f"the device lists it at {g.size:,} bytes, over the "
                                             f"{size_text(MAX_LOG_BYTES)} a game log can be: refused, nothing "
                                             "fetched (is the device's flash damaged?)"))
                continue
            plan = self._plan(g, pdir)
            if plan is None:
                continue
            need = g.size - len(plan.base)
            if need > budget:
                self.outcomes.append(Outcome(g.id, "failed", f"not fetched: one sync fetches at most "
                                             f"{size_text(MAX_SYNC_BYTES)}; run `bower sync` again for it"))
                continue
            budget -= need
            plans.append(plan)
        if self.progress is not None:
            self.progress.start(sum(p.entry.size - len(p.base) for p in plans))
        try:
            for plan in plans:
                try:
                    self._fetch_and_store(plan, chunk)
                except (_ShortLog, DeviceError) as e:
                    # This game only: the device sent less than it listed, or
                    # refused it (no such game any more, a flash error).
                    if isinstance(e, DeviceError) and e.code not in ("badid", "badargs", "storage", "internal"):
                        raise
                    self.outcomes.append(Outcome(plan.entry.id, "failed", f"{e}; the bytes fetched are kept: run "
                                                 "`bower sync` again later"))
        except BaseException:
            try:
                self._flush_marks()     # what was stored before the failure
            except (ProtocolError, TransportError):
                pass
            raise
        self._flush_marks()
        return self.outcomes

    def _plan(self, g: GameEntry, pdir: Path) -> _Plan | None:
        assert self.info is not None        # run() asked the device first
        dev = self.info.device
        part = pdir / f"{g.id}.part"
        stored = stored_log(self.library, dev, g.id)
        if stored is not None and len(stored) == g.size and _crc(stored) == g.crc:
            out = Outcome(g.id, "up to date")
            if not g.synced:
                # Stored by an earlier run that could not tell the device.
                self._mark_synced(g, out)
            self.outcomes.append(out)
            part.unlink(missing_ok=True)
            return None
        base = b""
        if part.exists():
            base = part.read_bytes() if part.stat().st_size <= g.size else b""
            # (longer: not this game's bytes, e.g. a wiped device reusing ids)
        elif stored is not None and len(stored) < g.size:
            base = stored
        return _Plan(g, part, base)

    def _fetch_and_store(self, plan: _Plan, chunk: int) -> None:
        g = plan.entry
        fetched = self._download(plan, chunk)
        raw = plan.part.read_bytes()
        if _crc(raw) != g.crc and plan.base:
            # What we continued from was not a prefix of this log: start over.
            plan.base = b""
            if self.progress is not None:
                self.progress.start_more(g.size)
            fetched += self._download(plan, chunk)
            raw = plan.part.read_bytes()
        if _crc(raw) != g.crc:
            plan.part.unlink(missing_ok=True)
            self.outcomes.append(Outcome(g.id, "failed", "the downloaded log does not match the device's "
                                         "checksum; nothing stored", fetched))
            return
        assert self.info is not None
        res = self.library.add_log(raw, self.info.device, f"{g.id}.log", key=g.id)
        plan.part.unlink(missing_ok=True)
        note = None
        if res.status in STORED and self.after_store is not None:
            note = self.after_store(self.library, res)
        if res.status in STORED and res.damaged:
            assert res.replay is not None       # what was stored, replayed
            # The good lines are stored and every byte is archived: the
            # device's copy holds nothing more, so it may let it go.
            out = Outcome(g.id, "damaged", f"{describe_game(res.replay)}; stored only up to a corrupt line: "
                                           f"{res.damaged}; raw log kept as {res.archived or 'before'}", fetched)
            self._tell_damaged(g, res.damaged_line, out)
            self._mark_synced(g, out)
        elif res.status in STORED:
            assert res.replay is not None
            out = Outcome(g.id, res.status, describe_game(res.replay), fetched)
            self._mark_synced(g, out)
        else:
            out = Outcome(g.id, "refused", f"{res.why}; nothing stored: the game stays on the device", fetched)
        if note:
            out.message += "; " + note
        self.outcomes.append(out)

    def _download(self, plan: _Plan, chunk: int) -> int:
        g = plan.entry
        plan.part.parent.mkdir(parents=True, exist_ok=True)
        if not plan.part.exists() or plan.part.stat().st_size != len(plan.base):
            plan.part.write_bytes(plan.base)
        off = len(plan.base)
        fetched = 0
        with open(plan.part, "ab") as f:
            try:
                for data in self.client.fetch(g.id, off, g.size, chunk):
                    f.write(data)
                    f.flush()
                    off += len(data)
                    fetched += len(data)
                    self.fetched += len(data)
                    if self.progress is not None:
                        self.progress.advance(len(data))
                if off < g.size:
                    raise _ShortLog(f"the log ended at {off:,} bytes on the device; {g.size:,} were listed")
            finally:
                f.flush()
                os.fsync(f.fileno())
        return fetched

    def _tell_damaged(self, g, line: int | None, out: Outcome) -> None:
        # The device shows which line was corrupt (firmware without DAMAGED: not).
        try:
            if line and self.client.damaged(g.id, line):
                out.message += "; the device shows it too"
        except DeviceError as e:
            out.message += f"; the device could not be told ({e})"

    def _mark_synced(self, g, out: Outcome) -> None:
        # Stored: the device is told with the next SYNCED, which lists up
        # to SYNCED_BATCH games (its flash written once for them all).
        self._marks.append((g, out))
        if len(self._marks) >= SYNCED_BATCH or sum(len(m[0].id) + 10 for m in self._marks) > SYNCED_BYTES:
            self._flush_marks()

    def _flush_marks(self) -> None:
        pending, self._marks = self._marks, []
        if len(pending) > 1 and self._batch:
            try:
                words = self.client.synced_many([(g.id, g.crc) for g, _ in pending])
            except DeviceError as e:
                if e.code != "badargs":
                    for _g, out in pending:
                        self._note_unmarked(out, e)
                    return
                self._batch = False     # firmware that takes one game a SYNCED
            else:
                for (_g, out), w in zip(pending, words):
                    if w != "ok":
                        self._note_unmarked(out, DeviceError(w, "no such game" if w == "badid" else ""))
                return
        for g, out in pending:
            self._mark_one(g, out)

    @staticmethod
    def _note_unmarked(out: Outcome, e: DeviceError) -> None:
        if e.code == "stale":
            note = "changed on the device meanwhile (a game in progress): sync again later for the rest"
        else:
            note = f"stored, but the device could not mark it synced ({e}): it keeps its copy"
        out.message += ("; " if out.message else "") + note

    def _mark_one(self, g, out: Outcome) -> None:
        try:
            self.client.synced(g.id, g.crc)
        except DeviceError as e:
            self._note_unmarked(out, e)


def size_text(n: float) -> str:
    """``n`` bytes with a unit: ``512 B``, ``1.6 KB``, ``4.0 MB`` (1 KB = 1,024 B)."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024:
            return f"{n} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"
