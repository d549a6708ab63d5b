"""Printable score sheets: one page of plain text per table (form feeds between)."""

from __future__ import annotations

from bower_host.club.movement import FIXED_SHIFT, SEATS
from bower_host.club.night import ClubError, Night

WIDTH = 64
SEAT_NAMES = ("North", "East", "South", "West")


def _move_text(night: Night, table: int) -> list:
    n = night.tables
    if night.movement == "progressive":
        up = "stay at table 1" if table == 1 else f"go to table {table - 1}"
        down = f"stay at table {n}" if table == n else f"go to table {table + 1}"
        return [f"Next round: winners {up}, losers {down};", "partners split up."]
    if night.movement == "fixed":
        parts = []
        for s, shift in enumerate(FIXED_SHIFT):
            to = (table - 1 + shift) % n + 1
            parts.append(f"{SEATS[s]} {'stays' if to == table else f'to table {to}'}")
        return ["Next round (same seat): " + ", ".join(parts) + "."]
    return ["Next round: see the board (everyone partners everyone once)."]


def _cells(text: str) -> int:
    from rich.cells import cell_len
    return cell_len(text)


def _wrap(text: str, indent: str = " ") -> list:
    """``text`` in lines of at most ``WIDTH`` cells (a wide character is two),
    each after ``indent``; a word too long for a line is cut."""
    from rich.cells import chop_cells

    room = WIDTH - len(indent)
    lines: list = []
    for word in text.split():
        parts = chop_cells(word, room) if _cells(word) > room else [word]
        for part in parts:
            if lines and _cells(lines[-1]) + 1 + _cells(part) <= room:
                lines[-1] += " " + part
            else:
                lines.append(part)
    return [indent + ln for ln in lines] or [indent]


def _heading(night: Night, rnd: int, table: int) -> list:
    # The night and its id left, the round and table right, on one line when they fit.
    title = f"{night.name} ({night.key})"
    right = f"Round {rnd} of {night.rounds}".ljust(14) + f"TABLE {table}".rjust(10)
    if _cells(title) + 2 + len(right) <= WIDTH:
        return [title + " " * (WIDTH - _cells(title) - len(right)) + right]
    return _wrap(title, "") + [right.strip().rjust(WIDTH)]


def qr_lines(text: str) -> list:
    """``text`` as a QR code in text: two modules a character (half blocks)."""
    import segno
    m = [list(r) for r in segno.make(text, error="m").matrix]
    n = len(m)
    m = [[0] * (n + 4)] * 2 + [[0, 0] + r + [0, 0] for r in m] + [[0] * (n + 4)] * 3
    # (a dark module is ink: "█" both, "▀" the upper, "▄" the lower)
    return ["".join(" ▄▀█"[(m[y][x] << 1) | m[y + 1][x]] for x in range(n + 4)) for y in range(0, n + 4, 2)]


def _phone_lines(table: int, code: str, url: str | None) -> list:
    from bower_host.club.joinpage import join_url
    if not url:
        return _wrap(f"This table's phone: open bower club serve's /join page and enter the code {code} "
                     "(once per night; one phone per table).")
    out = _wrap(f"This table's phone: scan the code below, or open {url.rstrip('/')}/join and enter {code}.")
    return out + ["  " + ln for ln in qr_lines(join_url(url, code))]


def table_sheet(night: Night, rnd: int, table: int, joins: dict | None = None, url: str | None = None) -> str:
    """Table ``table``'s sheet for round ``rnd``: every line at most ``WIDTH``
    cells; with ``joins`` (``club.phones.codes``), the table's join code
    (and its QR code, for phones reaching the server at ``url``)."""
    plan = night.seating(rnd)
    if plan is None:
        raise ClubError(f"round {rnd}'s seating is not known yet (it follows round {rnd - 1}'s results)")
    seats = plan.tables[table - 1]
    names = [night.name_of(p) for p in seats]
    line = "-" * WIDTH
    sc = night.scoring
    out = ["=" * WIDTH, *_heading(night, rnd, table),
           *_wrap(f"{night.length()} per round; lone march {sc['loner']}, euchred loner {sc['set_loner']}, "
                  f"renege {sc['renege']}", ""),
           line,
           f"  North: {names[0]:<10} South: {names[2]:<10} partners (N/S)",
           f"  East:  {names[1]:<10} West:  {names[3]:<10} partners (E/W)",
           line]
    out.append(" Hand  Dealer     N/S points  E/W points   N/S total  E/W total")
    rows = night.hands or 12
    for h in range(rows):
        dealer = names[h % 4] if night.hands else ""
        out.append(f" {h + 1:>3}   {dealer:<10} {'____':>10}  {'____':>10}   {'____':>9}  {'____':>9}")
    out += [line,
            " Round total:   N/S ______    E/W ______",
            " Loners: ______    Euchres: ______",
            " Result accepted by (a player of the other side): ____________",
            line]
    for t in _move_text(night, table):
        out += _wrap(t)
    if plan.byes:
        out += _wrap("On a bye this round: " + ", ".join(night.name_of(p) for p in plan.byes))
    if joins and table in joins:
        out += [line, *_phone_lines(table, joins[table], url)]
    return "\n".join(out) + "\n"


def sheets(night: Night, rnd: int, joins: dict | None = None, url: str | None = None) -> str:
    """Every table's sheet for round ``rnd``, a form feed between pages.

    :raises ValueError: the round's seating is not known yet.
    """
    plan = night.seating(rnd)
    if plan is None:
        raise ValueError(f"round {rnd}'s seating depends on round {rnd - 1}'s results, which are not all in yet")
    return "\f".join(table_sheet(night, rnd, t, joins, url) for t in range(1, len(plan.tables) + 1))
