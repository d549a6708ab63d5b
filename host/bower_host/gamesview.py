"""What the game library commands share: the library, a game found by its
number or id, a game's words (variant, players, result) and the tables
they are printed in.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime, timezone

from euchre.later import raised_target
from euchre.notation import outcome_text
from euchre.rules import variant_data

from bower_host.errors import CommandError
from bower_host.db import Library, LibraryError
from bower_host.outputs import STDOUT, write_output


def open_library(path: str | os.PathLike | None) -> Library:
    # The read commands' library: an existing one only.
    try:
        return Library(path, create=False)
    except LibraryError as e:
        raise CommandError(str(e)) from e


def _nonempty(lib: Library) -> None:
    if lib.count() == 0:
        raise CommandError(f"the game library {lib.path} is empty: sync a device first (bower sync)")


def resolve(lib: Library, ref: str) -> dict:
    """The one game ``ref`` names (DB id, ``device/game id`` or a game id).

    :raises CommandError: no such game, or several match.
    """
    _nonempty(lib)
    found = lib.find(ref)
    if not found:
        raise CommandError(f"no game {ref!r} in the library: give its number or device/id from 'bower games'")
    if len(found) > 1:
        which = ", ".join(f"{g['id']} ({g['device']}/{g['game_key']})" for g in found)
        raise CommandError(f"{ref!r} names several games: {which}; give the number or device/id")
    return found[0]


def _date(ts) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else "-"


def _iso(ts) -> str | None:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if ts else None


def _variant(variant: str) -> dict:
    # Any variant's data: the device's four and the host's three, six and two
    # (euchre.rules.variant_data); {} for a name the engine does not know.
    try:
        return variant_data(variant)
    except KeyError:
        return {}


def _title(variant: str) -> str:
    return _variant(variant).get("title", variant)


def _teams(g: dict) -> bool:
    return _variant(g["variant"]).get("teams", True)


def sides(g: dict) -> list[tuple[str, list[int]]]:
    """``[(label, seats)]``: the two partnerships (alternate seats: two of
    four, three of six), or each player."""
    p = g["players"]
    if _teams(g) and len(p) in (4, 6):
        return [(" & ".join(p[s] for s in range(k, len(p), 2)), list(range(k, len(p), 2))) for k in (0, 1)]
    return [(name, [s]) for s, name in enumerate(p)]


def _players_text(g: dict) -> str:
    labels = [label for label, _ in sides(g)]
    return " v ".join(labels) if _teams(g) else ", ".join(labels)


def _score_text(g: dict, scores: list) -> str:
    return "-".join(str(scores[seats[0]]) for _, seats in sides(g))


def result_text(g: dict) -> str:
    """``Ann & Cy won 10-8``, ``Eve won with 11``, ``shared: Ann, Eve with 10``,
    ``in progress 6-4``."""
    sd = sides(g)
    sc = g["scores"]
    if not g["finished"]:
        if _teams(g):
            return f"in progress {_score_text(g, sc)}"
        top = max(sc)
        return "in progress, leading: " + ", ".join(label for label, s in sd if sc[s[0]] == top) + f" {top}"
    won = [(label, seats) for label, seats in sd if seats[0] in (g["winners"] or [])]
    names = ", ".join(label for label, _ in won)
    if _teams(g) and len(won) == 1:
        rest = [str(sc[seats[0]]) for _, seats in sd if seats not in [w[1] for w in won]]
        return f"{names} won {sc[won[0][1][0]]}-{'-'.join(rest)}"
    kind = g["result"]
    with_ = f" with {sc[won[0][1][0]]}" if won else ""
    if kind == "win":
        return f"{names} won{with_}"
    return f"{kind}: {names}{with_}"


def _console():
    from rich.console import Console
    tty = sys.stdout.isatty()
    return Console(file=sys.stdout, highlight=False, width=None if tty else 200, soft_wrap=not tty)


def _table(con, columns: list[str], rows: list[list], right=(), key=(), drop=()):
    """A table of ``rows`` (text as it is: no rich markup) for ``con``.

    One line per row when it fits the console. When it does not (an 80-column
    terminal), the columns in ``drop`` go first, in that order, until it fits;
    if it still does not, every column gets a fixed width and wraps, the ones
    in ``key`` (those a user types back, such as the ID ``bower show`` takes,
    and the scores) wide enough for all their cells, only their headings
    wrapping. No cell is ever cut short."""
    from rich import box
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    cells = [["" if v is None else str(v) for v in r] for r in rows]
    cols = list(range(len(columns)))

    def longest(texts, words=False) -> int:
        texts = [w for t in texts for w in t.split()] if words else list(texts)
        return max([cell_len(t) for t in texts] + [1])

    def width(ws) -> int:                       # the columns plus 3 between each two (pad, rule, pad)
        return sum(ws) + 3 * (len(ws) - 1)

    content = {c: longest([r[c] for r in cells]) for c in cols}
    natural = {c: max(content[c], cell_len(columns[c])) for c in cols}
    # Too wide: columns with nothing in them go first, then those in ``drop``.
    empty = [columns[c] for c in cols if columns[c] not in key and not any(r[c] for r in cells)]
    for name in empty + list(drop):
        if width([natural[c] for c in cols]) <= con.width:
            break
        cols = [c for c in cols if columns[c] != name]
    fixed: dict[int, int] = {}
    if width([natural[c] for c in cols]) > con.width:
        # Each column's narrowest: a key column's longest cell, any other's longest word (in a
        # very narrow terminal the other columns go, from the right, till the rest fits); the
        # room left goes a character at a time to the columns still short of their longest
        # cell, then of their heading.
        fixed = {c: max(content[c], longest([columns[c]], words=True)) if columns[c] in key
                 else longest([columns[c]] + [r[c] for r in cells], words=True) for c in cols}
        while width(list(fixed.values())) > con.width and any(columns[c] not in key for c in cols):
            c = [c for c in cols if columns[c] not in key][-1]
            cols.remove(c)
            del fixed[c]
        room = con.width - width(list(fixed.values()))
        for goal in (content, natural):
            while room > 0 and any(fixed[c] < goal[c] for c in cols):
                for c in cols:
                    if room > 0 and fixed[c] < goal[c]:
                        fixed[c] += 1
                        room -= 1
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for c in cols:
        just = "right" if columns[c] in right else "left"
        if fixed:
            t.add_column(Text(columns[c], no_wrap=False, overflow="fold"), justify=just, width=fixed[c],
                         no_wrap=False, overflow="fold")
        else:
            t.add_column(Text(columns[c]), justify=just, no_wrap=True)
    for r in cells:
        t.add_row(*[Text(r[c]) for c in cols])
    return t


def _seat(g, s) -> str:
    return g["players"][s] if s is not None and 0 <= s < len(g["players"]) else ""


def _write(text: str, out: str | None, library: str | os.PathLike | None = None) -> None:
    # Standard output, or the file ``out`` (bower_host.outputs: never the
    # library ``library``, one of its files, a database, a FIFO or a device).
    if out is None or out == STDOUT:
        sys.stdout.write(text)
        return
    write_output(out, text, library=library, stdout=True)


def points_text(g, h) -> str:
    """A hand's points by side or seat: "Ann & Cy +2"."""
    out = []
    for label, seats in sides(g):
        p = h["points"][seats[0]]
        if p:
            out.append(f"{label} {p:+d}")
    return ", ".join(out)


def hand_targets(rules, hands: list[dict]) -> list[int]:
    """The points each hand was played to, then the target after the last:
    the rules' winning score throughout, unless Three-Handed's raise_target
    raised it after a hand (euchre.later)."""
    out = [rules.winning_score]
    for h in hands:
        out.append(raised_target(h["scores"], out[-1]) if rules.raise_target else out[-1])
    return out


def first_entry(g, h) -> str:
    """The hand as first entered, before a device amended it (euchre.amend)."""
    first = json.loads(h["amended"])
    pts = points_text(g, dict(h, points=first["points"])) or "no points"
    code = first["outcome_code"]
    if code == "renege" and first["renege"] is not None:
        how = f"renege by {_seat(g, first['renege'])}"
    else:
        how = outcome_text(code)
    return f"{how} ({pts})"
