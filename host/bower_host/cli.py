"""The ``bower`` command line."""

from __future__ import annotations

import argparse
import sys

from euchre import variant_names


class CommandError(Exception):
    """An expected failure, printed as ``bower: <message>`` with status 1."""


def do_sim(args: argparse.Namespace) -> int:
    from bower_host.demo import play_demo

    play_demo(args.variant, seed=args.seed)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bower", description="Bower: the Euchre scorekeeper's computer side.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("sim", help="run a scripted demo game through the rules engine "
                                     "(the device simulator arrives with the firmware)")
    sim.add_argument("--variant", default="classic", choices=variant_names())
    sim.add_argument("--seed", type=int, default=1, help="seed for the shuffles")
    sim.set_defaults(func=do_sim)
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
