"""Argument types for the command line, checked as the arguments are parsed.

A value no command could use (``--rounds 0``, ``--port 99999``, ``--timeout
nan``, an empty name) is a usage error: one line, status 2, before anything
is opened or created (``cli.build_parser`` makes argparse's errors one line).
Each function returns a ``type=`` callable for ``add_argument``.
"""

from __future__ import annotations

import argparse
import os
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


def library_file(flag: str = "--db") -> Callable[[str], str]:
    """A game library's file name, as given (``~`` is expanded later): not
    empty (``--db ''`` must not mean the default library), no NUL or other
    control character (a message could not show it on one line), not
    ending in ``/`` (a directory). Whether it is a directory on disk is the
    library's to say (``bower_host.db``): one may be made later."""

    def parse(value: str) -> str:
        if not value.strip():
            raise argparse.ArgumentTypeError(f"{flag} is empty: give the library's file, or leave {flag} out for "
                                             "the default library")
        if "\0" in value:
            raise argparse.ArgumentTypeError(f"{flag} {shown(value)} has a NUL character, which no file name can "
                                             "have")
        if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in value):
            raise argparse.ArgumentTypeError(f"{flag} {shown(value)} has a control character (newline, tab, ...): "
                                             "give the library's file name as it is")
        if value.endswith(("/", os.sep)):
            raise argparse.ArgumentTypeError(f"{flag} {shown(value)} ends in '/', so it names a directory: give "
                                             "a file, such as " + shown(value + "bower.sqlite3"))
        return value

    return parse
