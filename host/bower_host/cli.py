"""The ``bower`` command line.

Each group of subcommands lives in its own module with a
``register(subparsers)`` function that adds its parsers and sets ``func`` on
them; ``COMMAND_MODULES`` lists those modules.
"""

from __future__ import annotations

import argparse
import importlib
import sys


class CommandError(Exception):
    """An expected failure, printed as ``bower: <message>`` with status 1."""


COMMAND_MODULES = [
    "bower_host.demo",
    "bower_host.sim",
    "bower_host.sync",
    "bower_host.deploy",
    "bower_host.library",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bower", description="Bower: the Euchre scorekeeper's computer side.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CommandError as e:
        if args.debug:
            raise
        print(f"bower: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bower: interrupted", file=sys.stderr)
        return 130
