"""``bower sync``, ``bower roster push`` and ``bower clock``: the device link commands.

``bower sync [--port P] [--db PATH]`` pulls every game log the host does not
have yet, resuming where an interrupted transfer stopped:

* Bytes already fetched live in ``<data dir>/partial/<device>/<game>.part``
  (the data dir is the directory holding the database and its ``raw``
  archive) and a download continues from their length. A game the library
  already holds that has grown on the device (synced in the middle of a game)
  continues from the stored bytes; one it holds unchanged is skipped.
* Each chunk is checked (line CRC, chunk CRC) and re-asked when damaged; the
  whole log must then match the CRC the device listed, else it is fetched
  again from the start once.
* Every line's CRC is verified and the game replayed through the engine
  (``euchre.log.replay_lines``) before :meth:`Library.add_log` stores it;
  only after the library committed it is the game marked synced on the
  device (which may then free its flash).
"""

from __future__ import annotations

import os
import re
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from bower_host.cli import CommandError
from bower_host.protocol import MAX_CHUNK, Client, DeviceError, ProtocolError
from bower_host.transport import DeviceGone, SerialTransport, TransportError

#: Game and device ids the host accepts as file names (no path traversal).
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")

STORED = ("new", "updated", "duplicate")


@dataclass
class Outcome:
    game_id: str
    status: str          # new/updated/duplicate/mismatch (library), "up to date", "failed"
    message: str = ""
    fetched: int = 0     # bytes transferred for this game


@dataclass
class _Plan:
    entry: object        # protocol.GameEntry
    part: Path
    base: bytes          # bytes already on the host that the download continues from


def _crc(data: bytes) -> str:
    return "%08x" % (zlib.crc32(data) & 0xFFFFFFFF)


def partial_root(library) -> Path:
    """Where interrupted downloads are kept: beside the library's raw archive."""
    return Path(library.raw_dir).parent / "partial"


def stored_log(library, device: str, game_id: str) -> bytes | None:
    """The log the library holds (committed) for this device's game, if any."""
    for row in library.find(f"{device}/{game_id}"):
        if row.get("log"):
            return row["log"].encode("utf-8")
    return None


def describe_game(raw: bytes) -> str:
    """A one-line summary from replaying the log: variant, standings, hands."""
    from euchre import log as elog

    game, dropped = elog.replay_lines(raw.decode("utf-8").splitlines(keepends=True))
    standings = ", ".join(f"{label} {score}" for label, score in game.standings())
    hands = game.hand_no - (0 if game.result else 1)
    text = f"{game.rules.title}: {standings}; {hands} hand{'s' if hands != 1 else ''}"
    if game.result:
        text += f"; won by {' & '.join(game.winner_names())}" if game.result[1] != "draw" else "; a draw"
    else:
        text += "; in progress"
    if dropped:
        text += f" (torn last line dropped: {dropped})"
    return text


class Syncer:
    """One sync run against one connected device.

    :param progress: optional object with ``start(total_bytes)`` and
        ``advance(nbytes)`` (the CLI's rich progress bar).
    """

    def __init__(self, client: Client, library, progress=None):
        self.client = client
        self.library = library
        self.progress = progress
        self.outcomes: list[Outcome] = []
        self.fetched = 0
        self.info = None

    def run(self) -> list[Outcome]:
        info = self.info = self.client.hello()
        if not SAFE_ID.match(info.device):
            raise ProtocolError(f"the device reported an unusable id {info.device!r}")
        chunk = max(1, min(info.chunk, MAX_CHUNK))
        pdir = partial_root(self.library) / info.device
        plans = []
        for g in self.client.list():
            if not SAFE_ID.match(g.id):
                self.outcomes.append(Outcome(g.id, "failed", "the device listed an unusable game id; skipped"))
                continue
            plan = self._plan(g, pdir)
            if plan is not None:
                plans.append(plan)
        if self.progress is not None:
            self.progress.start(sum(p.entry.size - len(p.base) for p in plans))
        for plan in plans:
            self._fetch_and_store(plan, chunk)
        return self.outcomes

    def _plan(self, g, pdir: Path) -> _Plan | None:
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
            base = part.read_bytes()
            if len(base) > g.size:  # not this game's bytes (a wiped device reusing ids)
                base = b""
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
        try:
            summary, problem = describe_game(raw), None
        except (ValueError, UnicodeDecodeError) as e:  # LogError is a ValueError
            summary, problem = "", f"does not replay: {e}"
        res = self.library.add_log(raw, self.info.device, f"{g.id}.log")
        plan.part.unlink(missing_ok=True)
        if res.status in STORED and problem is None:
            out = Outcome(g.id, res.status, summary, fetched)
            self._mark_synced(g, out)
        else:
            why = problem or res.message or "conflicts with the stored game"
            out = Outcome(g.id, "mismatch", f"{why}; raw log kept, the game stays on the device", fetched)
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
                    raise ProtocolError(f"{g.id} ended at {off} bytes on the device; {g.size} were listed")
            finally:
                f.flush()
                os.fsync(f.fileno())
        return fetched

    def _mark_synced(self, g, out: Outcome) -> None:
        try:
            self.client.synced(g.id, g.crc)
        except DeviceError as e:
            if e.code != "stale":
                raise
            out.message += ("; " if out.message else "") + "changed on the device meanwhile (a game in " \
                                                           "progress): sync again later for the rest"


# ----- command line ------------------------------------------------------------


class _RichProgress:
    def __init__(self, console):
        from rich.progress import (BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn,
                                   TransferSpeedColumn)
        self.p = Progress(TextColumn("syncing"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                          TimeRemainingColumn(), console=console, transient=True)
        self.task = None

    def start(self, total: int) -> None:
        self.p.start()
        self.task = self.p.add_task("sync", total=total or 1, completed=0 if total else 1)

    def start_more(self, extra: int) -> None:
        self.p.update(self.task, total=self.p.tasks[0].total + extra)

    def advance(self, n: int) -> None:
        self.p.advance(self.task, n)

    def stop(self) -> None:
        self.p.stop()


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def _open_client(args) -> tuple[SerialTransport, Client]:
    try:
        t = SerialTransport.open(args.port)
    except TransportError as e:
        raise CommandError(str(e)) from None
    return t, Client(t, timeout=args.timeout)


def _open_library(path):
    from bower_host.db import Library, LibraryError
    try:
        return Library(path or os.environ.get("BOWER_DB") or None)
    except LibraryError as e:
        raise CommandError(str(e)) from None


def cmd_sync(args) -> int:
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    library = _open_library(args.db)
    t, client = _open_client(args)
    progress = _RichProgress(Console(stderr=True)) if not args.quiet else None
    syncer = Syncer(client, library, progress)
    start = time.monotonic()
    try:
        syncer.run()
    except (ProtocolError, TransportError) as e:
        _print_outcomes(console, syncer)
        kept = " The bytes fetched so far are kept: run `bower sync` again to resume." if syncer.fetched else ""
        what = "" if isinstance(e, DeviceGone) else "sync failed: "
        raise CommandError(f"{what}{e}.{kept}") from None
    finally:
        if progress is not None and progress.task is not None:
            progress.stop()
        t.close()
    seconds = time.monotonic() - start
    _print_outcomes(console, syncer)
    bad = [o for o in syncer.outcomes if o.status in ("mismatch", "failed")]
    console.print(f"Fetched {_size(syncer.fetched)} in {seconds:.2f} s; "
                  f"{sum(o.status in ('new', 'updated') for o in syncer.outcomes)} game(s) new or updated.")
    if bad:
        raise CommandError(f"{len(bad)} game(s) not stored: " + ", ".join(f"{o.game_id} ({o.status})" for o in bad))
    return 0


def _print_outcomes(console, syncer: Syncer) -> None:
    info = syncer.info
    if info is None:
        return
    console.print(f"Device {info.device} (firmware {info.firmware}, protocol {info.proto}): {info.games} game(s), "
                  f"{_size(info.used)} used, {_size(info.free)} free")
    for o in syncer.outcomes:
        console.print(f"  {o.game_id:<8} {o.status:<10} {o.message}".rstrip(), markup=False)


def validate_names(names: list[str]) -> None:
    """The device's rules for roster names, checked before sending."""
    if len(names) > 16:
        raise CommandError(f"at most 16 names fit on the device; got {len(names)}")
    for n in names:
        if not 1 <= len(n) <= 8 or any(not 32 <= ord(c) < 127 for c in n):
            raise CommandError(f"bad name {n!r}: names are 1 to 8 printable ASCII characters")


def cmd_roster_push(args) -> int:
    validate_names(args.names)
    t, client = _open_client(args)
    try:
        info = client.hello()
        client.roster(args.names)
    except DeviceError as e:
        raise CommandError(f"the device refused the roster: {e.message or e.code}") from None
    except (ProtocolError, TransportError) as e:
        raise CommandError(str(e)) from None
    finally:
        t.close()
    print(f"Roster on device {info.device}: {', '.join(args.names)}")
    return 0


def cmd_clock(args) -> int:
    t, client = _open_client(args)
    try:
        info = client.hello()
        now = int(time.time())
        client.clock(now)
    except (ProtocolError, TransportError) as e:
        raise CommandError(str(e)) from None
    finally:
        t.close()
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))
    drift = info.time - now
    was = "it was unset" if info.time < 946684800 else f"it was {abs(drift)} s {'ahead' if drift > 0 else 'behind'}" \
        if drift else "it was right"
    print(f"Device {info.device} clock set to {when} ({was})")
    return 0


def _add_link_args(p) -> None:
    p.add_argument("--port", "-p", help="serial port of the device (default: the only Pico plugged in)")
    p.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for each reply (default 2)")


def register(subparsers) -> None:
    p = subparsers.add_parser("sync", help="copy new games from the device into the library",
                              description="Copy every game the library does not have yet from the device "
                                          "(resumes interrupted transfers), check and replay it, store it, "
                                          "and mark it synced on the device.")
    _add_link_args(p)
    p.add_argument("--db", help="library database file (default: $BOWER_DB, else the user data directory)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sync)

    r = subparsers.add_parser("roster", help="player names on the device")
    rs = r.add_subparsers(dest="roster_command", required=True)
    push = rs.add_parser("push", help="replace the device's roster of player names",
                         description="Send player names (1-8 printable ASCII characters each, at most 16) "
                                     "for the device's name picker.")
    push.add_argument("names", nargs="+", metavar="NAME")
    _add_link_args(push)
    push.set_defaults(func=cmd_roster_push)

    c = subparsers.add_parser("clock", help="set the device clock to this computer's time",
                              description="Set the device clock (used to date new games) to this computer's time.")
    _add_link_args(c)
    c.set_defaults(func=cmd_clock)
