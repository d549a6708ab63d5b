"""Argument types for the command line, checked as the arguments are parsed.

A value no command could use (``--rounds 0``, ``--port 99999``, ``--timeout
nan``, an empty name) is a usage error: one line, status 2, before anything
is opened or created (``cli.build_parser`` makes argparse's errors one line).
Each function returns a ``type=`` callable for ``add_argument``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

#: The longest argument shown back in an error message.
SHOWN = 24


def shown(text: str) -> str:
    """``text`` quoted for an error message, cut to :data:`SHOWN` characters."""
    if len(text) <= SHOWN:
        return repr(text)
    return repr(text[:SHOWN]) + f"... ({len(text):,} characters)"


def whole(lo: int, hi: int, what: str) -> Callable[[str], int]:
    """A whole number from ``lo`` to ``hi``; ``what`` names it in errors ("rounds")."""

    def parse(text: str) -> int:
        t = text.strip()
        if not t.lstrip("+-").isdigit() or len(t) > 30:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number ({what}: {lo} to {hi})")
        v = int(t)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{v} is out of range ({what}: {lo} to {hi})")
        return v

    return parse


def number(lo: float, hi: float, what: str, unit: str = "") -> Callable[[str], float]:
    """A number from ``lo`` to ``hi`` (never nan or infinite); ``unit`` for
    the message ("seconds")."""
    span = f"{what}: {lo:g} to {hi:g}{' ' + unit if unit else ''}"

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a number ({span})") from None
        if not lo <= v <= hi:          # nan and the infinities fail here too
            raise argparse.ArgumentTypeError(f"{shown(text.strip())} is out of range ({span})")
        return v

    return parse


def text(most: int, what: str) -> Callable[[str], str]:
    """Text of 1 to ``most`` printable characters (no tabs, newlines or other
    control characters); surrounding spaces are dropped."""

    def parse(value: str) -> str:
        v = value.strip()
        if not v:
            raise argparse.ArgumentTypeError(f"{what} is empty (1 to {most} characters)")
        if len(v) > most:
            raise argparse.ArgumentTypeError(f"{what} is {len(v):,} characters long, more than {most}")
        if not v.isprintable():
            raise argparse.ArgumentTypeError(f"{what} {shown(v)} has a control character (tab, newline, ...)")
        return v

    return parse
