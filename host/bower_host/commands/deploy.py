"""``bower deploy``: the firmware onto a Pico (the steps: :mod:`bower_host.deploy`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bower_host.deploy import deploy
from bower_host.deploy.build import ARCHES
from bower_host.deploy.device import MpremoteDevice
from bower_host.errors import CommandError


def _cmd_deploy(args) -> int:
    from bower_host.transport import TransportError, find_port

    port = args.port
    if port is None:
        try:
            port = find_port()
        except TransportError as e:
            if not args.dry_run:
                raise CommandError(str(e)) from None
            print(f"({e}; planning without a device)")
    device = MpremoteDevice(port, echo=_echo) if port else None
    deploy(device, board=args.board, arch=args.arch, build=args.build_dir, dry_run=args.dry_run)
    return 0


def _echo(line: str) -> None:
    if line.strip():
        print("    " + line)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "deploy",
        help="compile the firmware and copy it to the Pico (mpremote)",
        description="Compile engine/ and firmware/ with mpy-cross and copy them, the ssd1306 driver, "
                    "main.py and the board file to a Pico running MicroPython; only changed files "
                    "are copied. The Pico restarts with the new firmware.")
    p.add_argument("--port", help="the Pico's serial port (default: the one Pico plugged in), "
                                  "e.g. /dev/ttyACM0, COM5, port:rfc2217://localhost:4000")
    p.add_argument("--dry-run", action="store_true",
                   help="compile and show what would be copied or removed; change nothing")
    p.add_argument("--board", type=Path, default=None,
                   help="board file copied to /board.json (default: hardware/board.json)")
    p.add_argument("--arch", choices=ARCHES, default=None,
                   help="mpy-cross -march (default from the board: pico armv6m, pico2 armv7emsp)")
    p.add_argument("--build-dir", type=Path, default=None,
                   help="where the .mpy files go (default: build/deploy/<arch>)")
    p.set_defaults(func=_cmd_deploy)
