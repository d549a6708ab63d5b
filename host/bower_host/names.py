"""The device's rules for a player name and for an id, for every host command.

A name on the device (``bower.check_names``, for its roster and a club
round's seats) is 1 to 8 printable ASCII characters with
no space first or last, and a roster or a table names each player once.
``bower roster push`` and ``bower club new`` check names by this rule before
anything is sent or stored, so the device never refuses what the host took.

Names that a spreadsheet would read as a formula (``=1+2``, ``@SUM``, ``+A|``,
``-x``) are legitimate names by this rule and are taken as they are: every
CSV bower writes escapes them (``bower_host.csvout``).
"""

from __future__ import annotations

import re

#: A device's or a game's id, as the host takes it from a device, a file or
#: the command line: also a file name in the raw archive (no path traversal).
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
#: What the id rule says, for messages.
ID_RULE = "an id is 1 to 64 letters, digits, - and _, starting with a letter or digit"

#: One name as the device takes it.
DEVICE_NAME = re.compile(r"[!-~](?:[ -~]{0,6}[!-~])?\Z")
#: Most names a device's roster holds.
MAX_ROSTER = 16
#: What the rule says, for messages.
RULE = "1 to 8 printable ASCII characters, no space first or last"


def name_problem(name: object) -> str | None:
    """Why the device would refuse ``name``, or None if it takes it."""
    if not isinstance(name, str) or not DEVICE_NAME.match(name):
        return f"names are {RULE}"
    return None


def id_problem(text: object) -> str | None:
    """Why ``text`` is not a device's or game's id, or None."""
    if not isinstance(text, str) or not SAFE_ID.match(text):
        return ID_RULE
    return None


def roster_problem(names: list) -> str | None:
    """Why the device would refuse this roster (one line naming the bad
    name), or None."""
    if len(names) > MAX_ROSTER:
        return f"at most {MAX_ROSTER} names fit on the device; got {len(names)}"
    seen = set()
    for n in names:
        why = name_problem(n)
        if why:
            return f"bad name {n!r}: {why}"
        if n in seen:
            return f"{n!r} is given twice: the device needs each name once"
        seen.add(n)
    return None
