"""How a season ranks its players: the rules clubs use.

Each rule turns a player's nights in the season into one ``score``; equal
scores are ordered by rounds won, then loners, then euchres (the night's
own tie-breaks, host/CLUB.md), and players equal on all of them share the
place. A season may ask for a minimum number of nights: a player with fewer
is listed below the placed players, without a place.

=========  ==============================================================  ==========================================
rule       score                                                           source
=========  ==============================================================  ==========================================
total      every night's points added up                                   euchreverse.com/league ("total points
                                                                           from the regular season"; ties: most wins)
average    points per night played (shown to two decimals)                 a club that meets weekly and whose players
                                                                           miss nights (no source gives it: an option)
best       the best N nights' points (a missed night costs nothing         no source found: the usual "best N of M"
           while a player has N others)                                    of season ladders, an option
places     5, 4, 3, 2, 1 points for 1st to 5th on a night; equal places    vegaseuchre.com/rankingsrules08.html (LVEA
           each get the place's points                                     "Performance Points", and tied players
                                                                           both get them)
=========  ==============================================================  ==========================================
"""

from __future__ import annotations

RULES = ("total", "average", "best", "places")
#: Places that earn points under "places", and what each earns.
PLACE_POINTS = {1: 5, 2: 4, 3: 3, 4: 2, 5: 1}
MAX_BEST = 400
MAX_MIN_NIGHTS = 400
#: "average" is stored as points per night x SCALE (integers on both engines).
SCALE = 1000


class RuleError(ValueError):
    """A season rule that cannot be; the message says why."""


def check_rule(rule: str, best: int | None, min_nights: int) -> None:
    if rule not in RULES:
        raise RuleError(f"unknown season rule {rule!r}: {', '.join(RULES)}")
    if rule == "best" and (best is None or not 1 <= best <= MAX_BEST):
        raise RuleError(f"the best-nights rule needs --best N (1 to {MAX_BEST}): how many nights count")
    if rule != "best" and best is not None:
        raise RuleError("--best is for the rule best (the best N nights)")
    if not 0 <= min_nights <= MAX_MIN_NIGHTS:
        raise RuleError(f"--min-nights is 0 to {MAX_MIN_NIGHTS}")


def totals(rule: str, best: int | None, nights: list) -> tuple:
    """``(nights, points, score, won, loners, euchres, best night)`` of a
    player's nights, each ``(points, place, won, loners, euchres)``."""
    points = [n[0] for n in nights]
    total = sum(points)
    if rule == "total":
        score = total
    elif rule == "average":
        score = (total * SCALE * 2 + len(nights)) // (2 * len(nights))      # rounded half up
    elif rule == "best":
        score = sum(sorted(points, reverse=True)[:best])
    else:
        score = sum(PLACE_POINTS.get(n[1], 0) for n in nights)
    return (len(nights), total, score, sum(n[2] for n in nights), sum(n[3] for n in nights),
            sum(n[4] for n in nights), max(points))


def shown_score(rule: str, score: int) -> str:
    if rule == "average":
        return f"{score / SCALE:.2f}"
    return str(score)
