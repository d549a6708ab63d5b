"""``bower sync``, ``bower roster push`` and ``bower clock``: the device link commands.

``bower sync [--port P] [--db PATH]`` pulls every game log the host does not
have yet, resuming where an interrupted transfer stopped: the run itself is
``bower_host.syncer.Syncer`` (its docstring says how); this module opens the
port and the library, holds the writer lock (one ``bower sync`` or ``bower
library rebuild`` writes to a library at a time: a second one stops at once
with a one-line error, ``db.writer_lock``), shows progress and reports.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import time
from pathlib import Path

from bower_host import argtypes as at
from bower_host import connect
from bower_host.errors import CommandError
from bower_host.framing import DeviceError, ProtocolError
from bower_host.syncer import Syncer, size_text
from bower_host.transport import DeviceGone, TransportError


# ----- command line ------------------------------------------------------------


class _RichProgress:
    def __init__(self, console):
        from rich.progress import (BarColumn, DownloadColumn, Progress, TaskID, TextColumn, TimeRemainingColumn,
                                   TransferSpeedColumn)
        self.p = Progress(TextColumn("syncing"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                          TimeRemainingColumn(), console=console, transient=True)
        self.task: TaskID | None = None     # start() adds the one task

    def start(self, total: int) -> None:
        self.p.start()
        self.task = self.p.add_task("sync", total=total or 1, completed=0 if total else 1)

    def start_more(self, extra: int) -> None:
        assert self.task is not None
        self.p.update(self.task, total=(self.p.tasks[0].total or 0) + extra)

    def advance(self, n: int) -> None:
        assert self.task is not None
        self.p.advance(self.task, n)

    def stop(self) -> None:
        self.p.stop()


def _open_library(path):
    from bower_host.db import Library, LibraryError
    try:
        return Library(path or os.environ.get("BOWER_DB") or None)
    except LibraryError as e:
        raise CommandError(str(e)) from None


def cmd_sync(args: argparse.Namespace) -> int:
    from bower_host.db import LibraryError, writer_lock
    from bower_host.db.sides import run_or_leave_nothing

    connect.check_port(args)

    def run() -> int:
        library = _open_library(args.db)
        try:
            with writer_lock(library.path, "bower sync"):
                return _sync_locked(args, library)
        except LibraryError as e:
            raise CommandError(str(e)) from None
        finally:
            library.close()
    # (a failed sync into a library it made, that stored and fetched nothing, leaves nothing behind)
    return run_or_leave_nothing(args.db or os.environ.get("BOWER_DB") or None, run)


def _sync_locked(args, library) -> int:
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    t, client = connect.open_client(args)
    progress = _RichProgress(Console(stderr=True)) if not args.quiet else None
    syncer = Syncer(client, library, progress, args.after_store)
    start = time.monotonic()
    try:
        syncer.run()
    except (ProtocolError, TransportError) as e:
        _print_outcomes(console, syncer)
        kept = " The bytes fetched so far are kept: run `bower sync` again to resume." if syncer.fetched else ""
        what = "" if isinstance(e, DeviceGone) else "sync failed: "
        stop = "" if str(e).endswith((".", "?", "!")) else "."
        raise CommandError(f"{what}{e}{stop}{kept}") from None
    except (OSError, sqlite3.Error) as e:
        # The host's disk or library refused a write: stop, nothing half-stored
        # (each game is one transaction; fetched bytes stay in <library>.partial/).
        _print_outcomes(console, syncer)
        where = getattr(e, "filename", None) or Path(library.path).parent
        why = getattr(e, "strerror", None) or str(e)
        raise CommandError(f"sync stopped: cannot write to {where} ({why}): make room on the disk or give --db "
                           "a library you can write to; games already stored are kept") from None
    finally:
        if progress is not None and progress.task is not None:
            progress.stop()
        t.close()
    seconds = time.monotonic() - start
    _print_outcomes(console, syncer)
    bad = [o for o in syncer.outcomes if o.status in ("refused", "failed", "damaged")]
    console.print(f"Fetched {size_text(syncer.fetched)} in {seconds:.2f} s; "
                  f"{sum(o.status in ('new', 'updated') for o in syncer.outcomes)} game(s) new or updated.")
    if bad:
        raise CommandError(f"{len(bad)} game(s) need a look: " + ", ".join(f"{o.game_id} ({o.status})" for o in bad)
                           + " (see above; damaged games were stored up to their corrupt line)")
    return 0


def _print_outcomes(console, syncer: Syncer) -> None:
    info = syncer.info
    if info is None:
        return
    console.print(f"Device {info.device} (firmware {info.firmware}, protocol {info.proto}): {info.games} game(s), "
                  f"{size_text(info.used)} used, {size_text(info.free)} free", markup=False)
    for o in syncer.outcomes:
        console.print(f"  {o.game_id:<8} {o.status:<10} {o.message}".rstrip(), markup=False)


def validate_names(names: list[str]) -> None:
    """The device's rules for roster names (``bower_host.names``), checked
    before sending. Names like ``=1+2`` are names: CSV output escapes them."""
    from bower_host.names import roster_problem
    why = roster_problem(names)
    if why:
        raise CommandError(why)


def cmd_roster_push(args: argparse.Namespace) -> int:
    validate_names(args.names)
    t, client = connect.open_client(args)
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


def cmd_clock(args: argparse.Namespace) -> int:
    t, client = connect.open_client(args)
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


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("sync", help="copy new games from the device into the library",
                              description="Copy every game the library does not have yet from the device "
                                          "(resumes interrupted transfers), check and replay it, store it, "
                                          "and mark it synced on the device.")
    connect.add_link_args(p)
    p.add_argument("--db", type=at.library_file(),
                   help="library database file (default: $BOWER_DB, else the user data directory)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sync, after_store=None)     # the cli wires the club nights' hook (Syncer)

    r = subparsers.add_parser("roster", help="player names on the device")
    rs = r.add_subparsers(dest="roster_command", required=True)
    push = rs.add_parser("push", help="replace the device's roster of player names",
                         description="Send player names (1-8 printable ASCII characters each, no space first "
                                     "or last, each once, at most 16) for the device's name picker.")
    push.add_argument("names", nargs="+", metavar="NAME")
    connect.add_link_args(push)
    push.set_defaults(func=cmd_roster_push)

    c = subparsers.add_parser("clock", help="set the device clock to this computer's time",
                              description="Set the device clock (used to date new games) to this computer's time.")
    connect.add_link_args(c)
    c.set_defaults(func=cmd_clock)
