"""Club libraries with finished nights, played by the bots, for the league tests.

``club_library(path, nights)`` makes a game library holding each night
``(key, names, created)``: made with ``bower club``'s own functions, every
round played by the bots (``club.simulate``) and attached through the
library's one gate. ``recount(path)`` is the independent count the league's
standings are checked against: each player's points straight from the
library's round results, added up night by night.
"""

from __future__ import annotations

from collections import defaultdict

from bower_host.club import attach as ca
from bower_host.club import night as cn
from bower_host.club.simulate import night_round_logs
from bower_host.db import Library

DAY = 86400
T0 = 1764000000                  # 2025-11-24
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


def play_night(lib: Library, key: str, names: list, created: int, rounds: int = 2, hands: int = 2,
               seed: int = 1, finish: bool = True):
    night = cn.create_night(lib, f"Night {key}", names, tables=len(names) // 4, movement="progressive",
                            rounds=rounds, hands=hands, key=key, clock=lambda: created)
    for rnd in range(1, rounds + (1 if finish else 0)):
        night = cn.load_night(lib, key)
        for t, raw in night_round_logs(night, rnd, seed, started=created, renege=0.0).items():
            ca.attach_file(lib, raw, f"{key}-r{rnd}-t{t}.log", clock=lambda: created)
    return cn.load_night(lib, key)


def club_library(path, nights: list, rounds: int = 2, hands: int = 2, seed: int = 1):
    """A library at ``path`` with the finished nights ``[(key, names, created)]``."""
    with Library(path, clock=lambda: T0) as lib:
        for i, (key, names, created) in enumerate(nights):
            play_night(lib, key, names, created, rounds, hands, seed + i)
    return path


def recount(*paths, since: int = 0, until: int = 2 ** 62) -> dict:
    """``{(club index, name): [points, nights, won]}`` from the round results
    of the libraries' finished nights (club index: the path's position)."""
    out: dict = defaultdict(lambda: [0, 0, 0])
    for ci, path in enumerate(paths):
        with Library(path) as lib:
            for row in cn.nights(lib):
                night = cn.load_night(lib, row["key"])
                if not night.complete() or not since <= night.created < until:
                    continue
                seen = set()
                for r in night.results.values():
                    res = r["result"]
                    for seat, name in enumerate(res["players"]):
                        t = out[(ci, name)]
                        t[0] += res["points"][seat]
                        t[2] += int(res["winner"] == seat % 2)
                        seen.add(name)
                for name in seen:
                    out[(ci, name)][1] += 1
    return dict(out)
