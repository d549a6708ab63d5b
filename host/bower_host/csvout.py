"""Every CSV that bower writes goes through here: one writer, formulas defused.

A spreadsheet opening a CSV runs a cell that starts like a formula (OWASP
"CSV injection": ``=1+2``, ``@SUM(A1)``, ``+cmd|' /C calc'!A0``, ``-2+3``).
Player names come from devices, imports and club rosters, and ``=1+2`` is a
legitimate 4-character name on the device, so the names are kept as they are
and every text cell that starts like a formula is written with a ``'`` in
front (the spreadsheet shows it as text). Numbers are written as numbers: a
``-2`` score stays ``-2``.

::

    text = csvout.dumps(["player", "points"], [["=1+2", 7], ["Ann", -2]])
    text = csvout.dumps_dicts(COLUMNS, [{"player": "@x", "points": 3}])

Rows end in ``\\n``. A cell holding a carriage return is quoted (Python's
writer before 3.12 leaves it bare with a ``\\n`` line end, and a reader then
splits the row there).
"""

from __future__ import annotations

import csv
import io
from typing import Iterable, Mapping, Sequence

#: What a text cell must not start with: a formula's first character in
#: spreadsheets (``=`` ``+`` ``-`` ``@``, and a tab or carriage return, which
#: some skip before one), plus a line feed and the full-width forms of the
#: four, which some spreadsheets read as the ASCII ones.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def cell(value: object) -> object:
    """``value`` safe for a spreadsheet: text starting like a formula gets a
    ``'`` first; anything else (numbers, other text) is returned as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def dumps(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """The CSV text of ``header`` then ``rows``, every cell through :func:`cell`."""
    buf = io.StringIO()
    plain = csv.writer(buf, lineterminator="\n")
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for row in [header, *rows]:
        out = [cell(v) for v in row]
        (quoted if any(isinstance(v, str) and "\r" in v for v in out) else plain).writerow(out)
    return buf.getvalue()


def dumps_dicts(fieldnames: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    """:func:`dumps` of dict rows, one column per name in ``fieldnames``
    (a missing key is an empty cell; a key not in ``fieldnames`` is an error)."""
    names = list(fieldnames)

    def row(d: Mapping[str, object]) -> list:
        extra = [k for k in d if k not in names]
        if extra:
            raise ValueError(f"CSV row has keys not in the columns: {extra}")
        return [d.get(k, "") for k in names]

    return dumps(names, (row(d) for d in rows))
