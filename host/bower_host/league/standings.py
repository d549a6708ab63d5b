"""A season's standings, read from the totals each push keeps (one row per player).

::

    st = standings(league, "2026-27")       # {"season": ..., "players": [...], "amended": [...]}
    print(to_text(st))                      # or to_csv(st), to_json(st)
"""

from __future__ import annotations

import json
import time

from bower_host import csvout
from bower_host.league import rules as lr
from bower_host.league.store import FOREVER, League

COLUMNS = ("place", "player", "club", "nights", "score", "points", "won", "loners", "euchres", "best_night")


def standings(lg: League, season: str | None = None, club: str | None = None, limit: int | None = None,
              offset: int = 0) -> dict:
    """The season's standings (None: all time), best first; ``club``: only
    its players (places stay the league's); ``limit`` rows from ``offset``
    (a page: the database ranks every player and sends only the page)."""
    sid, name, sclub, starts, ends, rule, best, min_nights = lg.season(season)
    # Placed players first, in the order of the index season_order; RANK gives
    # equals one place (the tie-breaks, host/LEAGUE.md).
    order = "placed DESC, score DESC, won DESC, loners DESC, euchres DESC"
    sql = (f"SELECT name, club, nights, points, score, won, loners, euchres, best_night, placed, "
           f"RANK() OVER (ORDER BY {order}) AS place FROM season_players WHERE season_id = ?")
    params: list = [sid]
    if club is not None:
        sql = f"SELECT * FROM ({sql}) r WHERE club = ?"
        params.append(club)
    sql += f" ORDER BY {order}, name, club"
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params += [limit, offset]
    out = [{"place": int(place) if placed else None, "player": player, "club": cname, "nights": nights,
            "score": lr.shown_score(rule, score), "points": points, "won": won, "loners": loners,
            "euchres": euchres, "best_night": best_night}
           for player, cname, nights, points, score, won, loners, euchres, best_night, placed, place
           in lg.db.rows(sql, params)]
    where = "" if sclub is None else " AND c.name = ?"
    amended = [{"club": c, "night": k, "name": n, "version": v, "pushed_at": at} for c, k, n, v, at in lg.db.rows(
        "SELECT c.name, n.key, n.name, n.version, n.pushed_at FROM nights n JOIN clubs c ON c.id = n.club_id "
        f"WHERE n.version > 1 AND n.played >= ? AND n.played < ?{where} ORDER BY n.pushed_at DESC, n.id DESC "
        "LIMIT 50", [starts, ends, *([] if sclub is None else [sclub])])]
    counted = lg.db.value("SELECT COUNT(*) FROM nights n JOIN clubs c ON c.id = n.club_id "
                          f"WHERE n.played >= ? AND n.played < ?{where}",
                          [starts, ends, *([] if sclub is None else [sclub])], 0)
    return {"league": lg.name,
            "season": {"name": name, "club": sclub, "from": starts, "to": None if ends >= FOREVER else ends,
                       "rule": rule, "best": best, "min_nights": min_nights, "nights": int(counted)},
            "tie_breaks": ["score", "rounds won", "loners", "euchres"],
            "players": out, "amended": amended}


def _date(t: int | None) -> str:
    return "-" if t is None else time.strftime("%Y-%m-%d", time.gmtime(t))


def describe(season: dict) -> str:
    rule = {"total": "total points", "average": "points per night played",
            "best": f"the best {season['best']} nights' points", "places": "place points (5-4-3-2-1 a night)"}
    text = f"ranked by {rule[season['rule']]}"
    if season["min_nights"] > 1:
        text += f", at least {season['min_nights']} nights to place"
    return text


def to_text(st: dict) -> str:
    s = st["season"]
    span = "all time" if s["to"] is None and not s["from"] else f"{_date(s['from'])} to {_date(s['to'])}"
    lines = [f"{st['league']}: season {s['name']} ({span}{', ' + s['club'] if s['club'] else ''}), "
             f"{s['nights']} nights, {describe(s)}"]
    head = ("place", "player", "club", "nights", "score", "won", "loners", "euchres")
    table = [head] + [(str(r["place"] or "-"), r["player"], r["club"], str(r["nights"]), r["score"], str(r["won"]),
                       str(r["loners"]), str(r["euchres"])) for r in st["players"]]
    width = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        lines.append("  ".join(c.ljust(w) if i in (1, 2) else c.rjust(w) for i, (c, w) in enumerate(zip(row, width)))
                     .rstrip())
    if not st["players"]:
        lines.append("(no nights pushed yet)")
    for a in st["amended"]:
        lines.append(f"night {a['night']} of {a['club']} was amended at the club: version {a['version']}, "
                     f"pushed {_date(a['pushed_at'])}, counts in place of the earlier ones")
    return "\n".join(lines) + "\n"


def to_csv(st: dict) -> str:
    return csvout.dumps(COLUMNS, ([r[c] if r[c] is not None else "" for c in COLUMNS] for r in st["players"]))


def to_json(st: dict) -> str:
    return json.dumps(st, indent=1) + "\n"
