"""A club night's phones: join codes, table and round tokens, results taken.

::

    codes(lib, night)                         # {table: join code}, made once per table
    j = join(lib, code, device)               # the phone that brings the code: its table token
    o = offer(lib, j.token, rnd=None)         # the table's round (the Pico's CLUB setup) and its round token
    t = take(lib, o.token, game, crc, log)    # a round's log, through the one gate, attached as a sync's
    reset(lib, night, table)                  # `bower club table reset`: the phone's tokens are void

The join code is public (the table's sheet and the board show it, with a QR
code); the first phone that brings it gets the table's token, a random
secret from :mod:`secrets`, and every later one is refused until the
organiser resets the table. A round token is
``HMAC-SHA256(table token, "bower-round night table round")``: the server
keeps only SHA-256 digests of both, so a copy of the library cannot write.
A round token writes only that table's log of that round (an old round's
results are still taken, with its own token).

A log is taken as ``bower sync`` takes one from a Pico: ``Library.add_log``
(the one gate) under the phone's device id, attached to its round as
``club.attach.attach_synced`` would (a round that does not fit its night
is stored, not counted), in the game's own transaction; but whole or not at
all (a line that fails its CRC, even the last, is refused where a sync
keeps the lines before it). Sent again after a lost reply, it is
``duplicate``: stored once. Every refusal raises :class:`Refused` with an
HTTP status and one line, having written nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import zlib
from dataclasses import dataclass

from bower_host.club import night as cn
from bower_host.club.push import round_setup
from bower_host.db import Library, transaction
from bower_host.names import SAFE_ID

#: A join code's letters: no 0/O, 1/I/L to misread from a sheet.
CODE_CHARS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LEN = 6
#: Most bytes of a posted log (a round of 99 hands is about 25 KB).
MAX_LOG = 256 * 1024


class Refused(Exception):
    """A phone's request refused: ``status`` (4xx, 503) and one line."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status


@dataclass
class Joined:
    night: str
    table: int
    token: str


@dataclass
class Offer:
    night: str
    table: int
    round: int
    token: str
    setup: dict        # the device's club setup (firmware bower.clubsetup.check's fields)


@dataclass
class Taken:
    status: str        # the library's: "new", "updated", "duplicate"
    crc: str
    note: str          # the club's line (as attach_synced says it), or ""
    night: str
    table: int
    round: int


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def round_token(table_token: str, night: str, table: int, rnd: int) -> str:
    return hmac.new(table_token.encode(), f"bower-round {night} {table} {rnd}".encode(), hashlib.sha256).hexdigest()


def codes(lib: Library, night: cn.Night) -> dict:
    """``{table: code}`` for every table of ``night``, the missing ones made
    (and stored) now."""
    have = {t: c for t, c in lib.conn.execute("SELECT table_no, code FROM club_joins WHERE night_id = ?",
                                               (night.id,))}
    if len(have) < night.tables:
        with transaction(lib.conn):
            for t in range(1, night.tables + 1):
                while t not in have:
                    code = "".join(secrets.choice(CODE_CHARS) for _ in range(CODE_LEN))
                    if lib.conn.execute("SELECT 1 FROM club_joins WHERE code = ?", (code,)).fetchone() is None:
                        lib.conn.execute("INSERT INTO club_joins (night_id, table_no, code) VALUES (?, ?, ?)",
                                         (night.id, t, code))
                        have[t] = code
    return have


def joins(lib: Library, night: cn.Night) -> dict:
    """``{table: (code, device or None, joined_at or None)}``."""
    return {t: (c, d, at) for t, c, d, at in lib.conn.execute(
        "SELECT table_no, code, device, joined_at FROM club_joins WHERE night_id = ?", (night.id,))}


def _night(lib: Library, night_id: int) -> cn.Night:
    row = lib.conn.execute("SELECT * FROM club_nights WHERE id = ?", (night_id,)).fetchone()
    if row is None:
        raise Refused(410, "this club night is no longer in the library")
    return cn.night_from(lib.conn, row)


def join(lib: Library, code: str, device: str, now: int) -> Joined:
    """The table of ``code`` for the phone ``device``, if no other phone has it.

    The same phone joining again (it reloaded before it kept its token) is
    given a new token, the old one void."""
    code = code.strip().upper()
    row = lib.conn.execute("SELECT night_id, table_no, device FROM club_joins WHERE code = ?", (code,)).fetchone()
    if row is None:
        raise Refused(404, f"no table has the join code {code!r}: check the table's sheet")
    night = _night(lib, row["night_id"])
    if row["device"] is not None and row["device"] != device:
        raise Refused(409, f"table {row['table_no']} already has a phone ({row['device']}); the organiser can free "
                           f"it with `bower club table reset --table {row['table_no']}`")
    token = secrets.token_urlsafe(32)
    with transaction(lib.conn):
        lib.conn.execute("UPDATE club_joins SET device = ?, token = ?, joined_at = ? WHERE code = ?",
                         (device, _digest(token), now, code))
        lib.conn.execute("DELETE FROM club_tokens WHERE night_id = ? AND table_no = ?", (night.id, row["table_no"]))
    return Joined(night.key, row["table_no"], token)


def _claim(lib: Library, table_token: str):
    row = lib.conn.execute("SELECT * FROM club_joins WHERE token = ?", (_digest(table_token),)).fetchone()
    if row is None:
        raise Refused(401, "this phone's table token is not (or no longer) valid: the organiser reset the table, "
                           "or it never joined; open the table's join code again")
    return row


def offer(lib: Library, table_token: str, rnd: int | None = None) -> Offer:
    """The round ``rnd`` (default: the night's current round) of the phone's
    table, with its round token."""
    claim = _claim(lib, table_token)
    night = _night(lib, claim["night_id"])
    table = claim["table_no"]
    if rnd is None:
        rnd = night.current_round()
    elif not 1 <= rnd <= night.current_round():
        raise Refused(404, f"round {rnd} is not open (the night is at round {night.current_round()})")
    try:
        s = round_setup(night, rnd, table)
    except cn.ClubError as e:
        raise Refused(409, str(e)) from None
    token = round_token(table_token, night.key, table, rnd)
    if lib.conn.execute("SELECT 1 FROM club_tokens WHERE token = ?", (_digest(token),)).fetchone() is None:
        with transaction(lib.conn):
            lib.conn.execute("INSERT OR IGNORE INTO club_tokens (token, night_id, table_no, round) "
                             "VALUES (?, ?, ?, ?)", (_digest(token), night.id, table, rnd))
    setup = {"night": s["night"], "table": table, "round": rnd, "tables": s["tables"], "move": s["movement"],
             "hands": s["hands"], "minutes": s["minutes"],
             "scoring": {"loner": s["loner"], "set_loner": s["set_loner"], "renege": s["renege"]},
             "next": s["next_tables"], "players": s["names"]}
    return Offer(night.key, table, rnd, token, setup)


def _club_of(raw: bytes) -> dict:
    # The round header's club object (the gate checks the rest).
    try:
        line = json.loads(raw.split(b"\n", 1)[0])
    except (ValueError, RecursionError):      # (not JSON; nested past Python's recursion)
        line = None
    if not (isinstance(line, list) and line and isinstance(line[0], dict)):
        raise Refused(400, "the log's first line is not a Bower log header")
    c = line[0].get("club")
    if not isinstance(c, dict):
        raise Refused(403, "the log is not a club round's (its header has no club object)")
    return c


def take(lib: Library, round_tok: str, game: str, crc: str, log: bytes) -> Taken:
    """Store a phone's round log (see the module's docstring)."""
    from bower_host.club.attach import plan_attach
    row = lib.conn.execute("SELECT n.key, t.night_id, t.table_no, t.round, j.device FROM club_tokens t "
                           "JOIN club_nights n ON n.id = t.night_id "
                           "JOIN club_joins j ON j.night_id = t.night_id AND j.table_no = t.table_no "
                           "WHERE t.token = ?", (_digest(round_tok),)).fetchone()
    if row is None:
        raise Refused(401, "this round token is not (or no longer) valid: the organiser reset the table, or the "
                           "phone never joined")
    if not SAFE_ID.fullmatch(game or ""):
        raise Refused(400, f"bad game id {game!r}")
    if len(log) > MAX_LOG:
        raise Refused(413, f"a log of {len(log)} bytes is over the {MAX_LOG} a round may have")
    if f"{zlib.crc32(log):08x}" != crc.lower():
        raise Refused(400, "the log does not match its CRC (damaged on the way): nothing stored; send it again")
    c = _club_of(log)
    want = (row["key"], row["table_no"], row["round"])
    got = (c.get("night"), c.get("table"), c.get("round"))
    if got != want:
        raise Refused(403, f"this token writes night {want[0]} table {want[1]} round {want[2]}, not the log's "
                           f"night {got[0]} table {got[1]} round {got[2]}")
    said: list = []

    def admit(rp, device, key):
        # The round attached in the game's own transaction, as attach_synced
        # would after it: a round that does not fit is stored, not counted.
        try:
            a, write = plan_attach(lib, rp, device, key, "sync")
        except cn.ClubError as e:
            said.append(f"club round not counted: {e}")
            return None
        said.append(a.message)
        return write
    # (no salvage: the phone sent the whole log with its CRC, so a damaged
    # line is damage in its storage, refused rather than stored cut short)
    res = lib.add_log(log, row["device"], f"{game}.log", key=game, salvage=False, admit=admit)
    if res.status == "refused":
        raise Refused(422, res.message)
    return Taken(res.status, crc.lower(), said[0] if said else "", row["key"], row["table_no"], row["round"])


def reset(lib: Library, night: cn.Night, table: int) -> str | None:
    """Void the phone of ``table``: its table and round tokens. Returns the
    device that had it (None: no phone had joined)."""
    if not 1 <= table <= night.tables:
        raise cn.ClubError(f"the night has tables 1 to {night.tables}, not {table}")
    row = lib.conn.execute("SELECT device FROM club_joins WHERE night_id = ? AND table_no = ?",
                           (night.id, table)).fetchone()
    with transaction(lib.conn):
        lib.conn.execute("UPDATE club_joins SET device = NULL, token = NULL, joined_at = NULL "
                         "WHERE night_id = ? AND table_no = ?", (night.id, table))
        lib.conn.execute("DELETE FROM club_tokens WHERE night_id = ? AND table_no = ?", (night.id, table))
    return row["device"] if row is not None else None
