"""The library's rows: a game and its hands as written (JSON columns
encoded), and as read back (decoded, and checked against what this code
could have written: a row that fails is a damaged library)."""

from __future__ import annotations

import hashlib
import json
import sqlite3

from euchre import log as elog
from euchre.hand import OUTCOMES

from bower_host.db.logs import MAX_STARTED, RESULT_NAMES, decode

GAME_COLS = ("device, game_key, source_name, variant, options, players, mode, first_dealer, started, "
             "finished, result, winners, scores, hands, events, raw_sha256, raw_path, log, dropped, synced_at, "
             "damaged")
HAND_COLS = ("game_id, number, dealer, upcard, up_suit, maker, trump, alone, lone_defender, partner_card, "
             "partner, tricks, points, maker_tricks, outcome, outcome_code, renege, reason, result, scores, amended, "
             "counted")
JSON_HAND = ("tricks", "points", "scores")
JSON_GAME = ("options", "players", "winners", "scores")


def write_game(c: sqlite3.Connection, gid: int | None, game: dict, players: list, hands: list) -> int:
    """Write a game inside the caller's transaction (``Library.add_log``,
    the one gate): its ``games`` row (``game``: a value per column of
    ``GAME_COLS``), its players by seat and its ``hands`` rows
    (``logs.hand_row``); ``gid`` None makes a new game, else replaces that
    one's rows. Returns the game's id."""
    vals = [json.dumps(game[col]) if col in JSON_GAME and game[col] is not None else game[col]
            for col in GAME_COLS.split(", ")]
    if gid is None:
        cur = c.execute(f"INSERT INTO games ({GAME_COLS}) VALUES ({', '.join('?' * len(vals))})", vals)
        gid = int(cur.lastrowid or 0)   # set by every INSERT
    else:
        sets = ", ".join(f"{col} = ?" for col in GAME_COLS.split(", "))
        c.execute(f"UPDATE games SET {sets} WHERE id = ?", vals + [gid])
        c.execute("DELETE FROM hands WHERE game_id = ?", (gid,))
        c.execute("DELETE FROM players WHERE game_id = ?", (gid,))
    c.executemany("INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                  [(gid, s, n) for s, n in enumerate(players)])
    rows = []
    for r in hands:
        r = dict(r, game_id=gid)
        rows.append([json.dumps(r[k]) if k in JSON_HAND else r[k] for k in HAND_COLS.split(", ")])
    c.executemany(f"INSERT INTO hands ({HAND_COLS}) VALUES ({', '.join('?' * len(HAND_COLS.split(', ')))})", rows)
    return gid


def read_game(r: sqlite3.Row) -> tuple[dict, str | None]:
    """A games row as a dict, JSON decoded, and what is wrong with it (None:
    nothing; then the dict is as ``add_log`` wrote it)."""
    d = dict(r)
    try:
        for k in JSON_GAME:
            if d[k] is not None:
                d[k] = json.loads(d[k])
    except (TypeError, ValueError):
        return d, "not JSON"
    # Values an older bower stored unchecked must not break reading:
    # a start time no calendar can show is unknown; names are text.
    t = d.get("started")
    if type(t) is not int or not 0 < t < MAX_STARTED:
        d["started"] = None
    if isinstance(d["players"], list):
        d["players"] = [n if isinstance(n, str) else json.dumps(n) for n in d["players"]]
    return d, game_problem(d)


def read_hand(r: sqlite3.Row, n: int) -> tuple[dict, str | None]:
    """A hands row of a game of ``n`` players as a dict, JSON decoded, and
    what is wrong with it (None: nothing)."""
    d = dict(r)
    try:
        for k in JSON_HAND:
            d[k] = json.loads(d[k])
        bad = hand_problem(d, n)
    except (TypeError, ValueError):
        bad = "not JSON"
    return d, bad


def _ints(x, n=None) -> bool:
    return isinstance(x, list) and all(type(v) is int for v in x) and (n is None or len(x) == n)


def _seat_or_none(x, n) -> bool:
    return x is None or type(x) is int and 0 <= x < n


def _text_or_none(x) -> bool:
    return x is None or type(x) is str


def game_problem(d: dict) -> str | None:
    """What is wrong with a decoded games row, or None (every value as
    ``Library.add_log`` writes it; the log text as archived)."""
    p = d["players"]
    if not (isinstance(p, list) and p and all(isinstance(x, str) for x in p)):
        return "players"
    n = len(p)
    checks = (
        ("id", type(d["id"]) is int), ("device", type(d["device"]) is str), ("game_key", type(d["game_key"]) is str),
        ("variant", type(d["variant"]) is str), ("options", isinstance(d["options"], dict)),
        ("mode", d["mode"] in ("table", "cards")),
        ("first_dealer", type(d["first_dealer"]) is int and 0 <= d["first_dealer"] < n),
        ("finished", d["finished"] in (0, 1)), ("result", d["result"] in (None, "win", "shared", "draw")),
        ("winners", d["winners"] is None or _ints(d["winners"]) and all(0 <= s < n for s in d["winners"])),
        ("scores", _ints(d["scores"], n)), ("hands", type(d["hands"]) is int), ("events", type(d["events"]) is int),
        ("log", type(d["log"]) is str), ("dropped", _text_or_none(d["dropped"])),
        ("damaged", _text_or_none(d.get("damaged"))), ("raw_sha256", type(d["raw_sha256"]) is str),
    )
    for name, ok in checks:
        if not ok:
            return name
    try:
        from euchre import Rules
        if Rules(d["variant"], d["options"]).num_players != n:
            return "players"
    except (ValueError, TypeError, KeyError):
        return "variant or options"
    if d.get("damaged") is None:
        if hashlib.sha256(d["log"].encode("utf-8", "surrogatepass")).hexdigest() != d["raw_sha256"]:
            return "log (its checksum differs)"
    else:
        try:
            decode(d["log"])
        except elog.LogError:
            return "log"
    return None


def hand_problem(h: dict, n: int) -> str | None:
    """What is wrong with a decoded hands row of a game of ``n`` players, or None."""
    checks = (
        ("number", type(h["number"]) is int), ("dealer", type(h["dealer"]) is int and 0 <= h["dealer"] < n),
        ("maker", _seat_or_none(h["maker"], n)), ("lone_defender", _seat_or_none(h["lone_defender"], n)),
        ("partner", _seat_or_none(h["partner"], n)), ("renege", _seat_or_none(h["renege"], n)),
        ("alone", h["alone"] in (0, 1, 2)),
        ("tricks", _ints(h["tricks"], n)), ("points", _ints(h["points"], n)), ("scores", _ints(h["scores"], n)),
        ("maker_tricks", h["maker_tricks"] is None or type(h["maker_tricks"]) is int),
        ("cards", all(_text_or_none(h[k]) for k in ("upcard", "up_suit", "trump", "partner_card", "outcome"))),
        # (NULL: a hand of an older library whose log no longer replays, schema.py's _v5)
        ("outcome_code", h["outcome_code"] is None or h["outcome_code"] in OUTCOMES),
        ("reason", type(h["reason"]) is str), ("result", h["result"] in RESULT_NAMES.values()),
        ("amended", _text_or_none(h["amended"])), ("counted", h["counted"] in (0, 1)),
    )
    for name, ok in checks:
        if not ok:
            return name
    return None
