"""A club's finished nights as the league takes them: one summary per night.

::

    nights, skipped = from_library(lib)          # the night library's finished nights
    body = payload(nights)                       # what a push sends (JSON)
    nights = check_payload(json.loads(body))     # the league's side: every field checked

A summary is the night's standings (``club.standings``: a player's points,
rounds played, rounds won, loners and euchres, and place) with the night's
id, name, date and size. The league trusts a club's count of its own nights
(the club's token says which club sent it), as a league trusts a club
secretary's returns; it checks that every field is what a night can hold.
``digest`` tells a night pushed again (stored once) from a night amended at
the club (stored as its next version).
"""

from __future__ import annotations

import hashlib
import json
import math
import time

from bower_host.club import night as cn
from bower_host.club import standings as cs
from bower_host.club.roundlog import MAX_ROUNDS, MAX_TABLES, NIGHT_KEY
from bower_host.names import DEVICE_NAME

#: The push format's version (``bower_league`` in the body).
FORMAT = 1
#: Nights in one push, and the body's size in bytes.
MAX_NIGHTS = 200
MAX_BODY = 4 * 1024 * 1024
#: A night dated after now by more than this is from the future (clocks differ a little).
FUTURE_SLACK = 24 * 3600
#: Before this no Bower night was played (2024-01-01).
EARLIEST = 1704067200
MAX_POINTS = 100_000
_FIELDS = ("place", "points", "rounds", "won", "loners", "euchres")


class SummaryError(Exception):
    """A night or push the league cannot take; the message says why, in one line."""


def night_summary(night: cn.Night) -> dict:
    """The league's summary of a finished night."""
    players = []
    for r in cs.standings(night):
        if r["rounds"] or r["byes"]:
            players.append({"name": r["player"], **{k: r[k] for k in _FIELDS}})
    return {"key": night.key, "name": night.name, "played": int(night.created), "tables": night.tables,
            "rounds": night.rounds, "players": players}


def from_library(lib) -> tuple:
    """``(summaries, skipped)``: the library's finished nights, oldest
    first, and ``[(key, why)]`` for the nights still being played."""
    out, skipped = [], []
    for row in sorted(cn.nights(lib), key=lambda r: (r["created"], r["id"])):
        night = cn.load_night(lib, row["key"])
        if not night.complete():
            skipped.append((night.key, f"round {night.current_round()} of {night.rounds} is not complete yet"))
            continue
        out.append(night_summary(night))
    return out, skipped


def digest(night: dict) -> str:
    """SHA-256 of the summary's canonical JSON."""
    return hashlib.sha256(json.dumps(night, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def payload(nights: list) -> bytes:
    return json.dumps({"bower_league": FORMAT, "nights": nights}, separators=(",", ":")).encode()


def _int(v, lo: int, hi: int, what: str) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise SummaryError(f"{what} is {_show(v)}: a whole number from {lo:,} to {hi:,}")
    return v


def _show(v) -> str:
    text = json.dumps(v) if not isinstance(v, float) or math.isfinite(v) else str(v)
    return text if len(text) <= 30 else text[:30] + "..."


def check_night(n, now: float | None = None) -> dict:
    """One night of a push, every field checked.

    :raises SummaryError: the first thing wrong with it, naming the night.
    """
    if not isinstance(n, dict):
        raise SummaryError("each night is a JSON object")
    key = n.get("key")
    if not isinstance(key, str) or not NIGHT_KEY.match(key):
        raise SummaryError(f"a night's key is {_show(key)}: letters, digits, - and _ (at most 32)")
    where = f"night {key}"
    extra = set(n) - {"key", "name", "played", "tables", "rounds", "players"}
    if extra:
        raise SummaryError(f"{where} has an unknown field {_show(sorted(extra)[0])}")
    name = n.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > cn.MAX_NIGHT_NAME or not name.isprintable():
        raise SummaryError(f"{where}'s name is {_show(name)}: 1 to {cn.MAX_NIGHT_NAME} printable characters")
    now = time.time() if now is None else now
    played = _int(n.get("played"), 0, 2 ** 40, f"{where}'s date")
    if played > now + FUTURE_SLACK:
        raise SummaryError(f"{where} is dated {time.strftime('%Y-%m-%d', time.gmtime(played))}, in the future: "
                           "check the club computer's clock")
    if played < EARLIEST:
        raise SummaryError(f"{where} is dated {time.strftime('%Y-%m-%d', time.gmtime(played))}, before any "
                           "Bower night: check the club computer's clock")
    tables = _int(n.get("tables"), 1, MAX_TABLES, f"{where}'s tables")
    rounds = _int(n.get("rounds"), 1, MAX_ROUNDS, f"{where}'s rounds")
    players = n.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= 4 * tables + 3:
        raise SummaryError(f"{where} needs a list of 1 to {4 * tables + 3} players (its {tables} tables and byes)")
    seen = set()
    out = []
    for p in players:
        if not isinstance(p, dict) or set(p) != {"name", *_FIELDS}:
            raise SummaryError(f"{where}: each player is an object with exactly name, {', '.join(_FIELDS)}")
        nm = p["name"]
        if not isinstance(nm, str) or not DEVICE_NAME.match(nm):
            raise SummaryError(f"{where}: a player's name is {_show(nm)}: 1 to 8 printable ASCII characters, "
                               "as on the device")
        if nm in seen:
            raise SummaryError(f"{where} lists {nm!r} twice")
        seen.add(nm)
        row: dict = {"name": nm}
        row["place"] = _int(p["place"], 1, 4 * tables + 3, f"{where}: {nm}'s place")
        row["points"] = _int(p["points"], -MAX_POINTS, MAX_POINTS, f"{where}: {nm}'s points")
        row["rounds"] = _int(p["rounds"], 0, rounds, f"{where}: {nm}'s rounds")
        row["won"] = _int(p["won"], 0, row["rounds"], f"{where}: {nm}'s rounds won")
        row["loners"] = _int(p["loners"], 0, 99 * rounds, f"{where}: {nm}'s loners")
        row["euchres"] = _int(p["euchres"], 0, 99 * rounds, f"{where}: {nm}'s euchres")
        out.append(row)
    return {"key": key, "name": name, "played": played, "tables": tables, "rounds": rounds, "players": out}


def check_payload(body, now: float | None = None) -> list:
    """The nights of a decoded push body, each checked (``check_night``).

    :raises SummaryError: the first thing wrong.
    """
    if not isinstance(body, dict) or "nights" not in body:
        raise SummaryError('a push is a JSON object {"bower_league": 1, "nights": [...]}')
    fmt = body.get("bower_league")
    if type(fmt) is not int:
        raise SummaryError('a push says its format: "bower_league": 1')
    if fmt > FORMAT:
        raise SummaryError(f"the push is format {fmt}, from a newer bower (this league takes {FORMAT}): upgrade "
                           "the league's bower")
    if fmt != FORMAT:
        raise SummaryError(f"the push is format {fmt}: this league takes {FORMAT}")
    nights = body["nights"]
    if not isinstance(nights, list) or len(nights) > MAX_NIGHTS:
        raise SummaryError(f"nights is a list of at most {MAX_NIGHTS}")
    out = [check_night(n, now) for n in nights]
    keys = [n["key"] for n in out]
    if len(set(keys)) != len(keys):
        raise SummaryError(f"the push has night {next(k for k in keys if keys.count(k) > 1)} twice")
    return out
